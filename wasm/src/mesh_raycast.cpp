// collidoscope — ray casts on triangle meshes (see mesh_raycast.h).
#include "collidoscope/mesh_raycast.h"

#include <cmath>
#include <utility>

#include "collidoscope/predicates.h"

namespace collidoscope {

namespace {

// The edge function e = px·qy − py·qx (twice the signed area of (O, p, q))
// in doubles, with its exact sign: returns the sign, and *value agrees with
// it (zero when rounding gave the value the other sign or lost it).
inline int edgeFunction(double px, double py, double qx, double qy, double* value) {
  const double l = px * qy, r = py * qx;
  const double e = l - r;
  const int s = orient2d(0.0, 0.0, px, py, qx, qy);  // exact sign of px·qy − py·qx
  *value = (s > 0 && e > 0) || (s < 0 && e < 0) ? e : 0.0;
  return s;
}

// Slab test of the ray against box b padded by pad: true when the ray meets
// it at some t in [0, limit], with *enter the first such t. Always inlined:
// the traversal tests two boxes per node, and in WebAssembly a call per
// box test was most of a ray's time.
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline bool rayBox(const Obb& b, const Vec3& o, const Vec3& d, double pad, double limit, double* enter) {
  const Vec3 rel = o - b.center;
  double lo = 0, hi = limit;
  for (int i = 0; i < 3; ++i) {
    const double oi = dot(rel, b.axes[i]), di = dot(d, b.axes[i]);
    const double h = b.halfExtents[i] + pad;
    if (di == 0) {
      if (std::fabs(oi) > h) return false;
      continue;
    }
    const double inv = 1.0 / di;  // one division; the padding covers its extra rounding
    double t1 = (-h - oi) * inv, t2 = (h - oi) * inv;
    if (t1 > t2) std::swap(t1, t2);
    if (t1 > lo) lo = t1;
    if (t2 < hi) hi = t2;
    if (!(lo <= hi)) return false;
  }
  *enter = lo;
  return true;
}

bool validRay(const Vec3& o, const Vec3& d, double maxT) {
  return isFinite(o) && isFinite(d) && maxAbs(d) > 0 && maxT >= 0;  // maxT NaN fails the comparison
}

}  // namespace

const char* meshRayStatusName(MeshRayStatus s) {
  switch (s) {
    case MeshRayStatus::Converged: return "converged";
    case MeshRayStatus::InvalidInput: return "invalid-input";
    case MeshRayStatus::MaxIterations: return "max-iterations";
  }
  return "invalid-input";
}

ShearedRay ShearedRay::make(const Vec3& origin, const Vec3& d) {
  ShearedRay r;
  r.origin = origin;
  r.kz = 0;
  if (std::fabs(d.y) > std::fabs(d[r.kz])) r.kz = 1;
  if (std::fabs(d.z) > std::fabs(d[r.kz])) r.kz = 2;
  r.kx = (r.kz + 1) % 3;
  r.ky = (r.kx + 1) % 3;
  if (d[r.kz] < 0) std::swap(r.kx, r.ky);  // keep the winding
  r.sx = d[r.kx] / d[r.kz];
  r.sy = d[r.ky] / d[r.kz];
  r.sz = 1.0 / d[r.kz];
  return r;
}

bool rayTriangle(const ShearedRay& ray, const Vec3& a, const Vec3& b, const Vec3& c, double maxT,
                 RayTriangleHit* hit) {
  const Vec3 A = a - ray.origin, B = b - ray.origin, C = c - ray.origin;
  const double ax = A[ray.kx] - ray.sx * A[ray.kz], ay = A[ray.ky] - ray.sy * A[ray.kz];
  const double bx = B[ray.kx] - ray.sx * B[ray.kz], by = B[ray.ky] - ray.sy * B[ray.kz];
  const double cx = C[ray.kx] - ray.sx * C[ray.kz], cy = C[ray.ky] - ray.sy * C[ray.kz];
  double U, V, W;
  const int su = edgeFunction(cx, cy, bx, by, &U);  // C'x·B'y − C'y·B'x
  const int sv = edgeFunction(ax, ay, cx, cy, &V);
  if (su * sv < 0) return false;
  const int sw = edgeFunction(bx, by, ax, ay, &W);
  if (su * sw < 0 || sv * sw < 0) return false;
  const double det = U + V + W;
  if (det == 0) return false;  // in the triangle's plane, or seen edge on to rounding
  const double az = ray.sz * A[ray.kz], bz = ray.sz * B[ray.kz], cz = ray.sz * C[ray.kz];
  const double t = (U * az + V * bz + W * cz) / det;
  if (!(t >= 0 && t <= maxT)) return false;
  hit->t = t;
  hit->barycentric = {U / det, V / det, W / det};
  return true;
}

MeshRayHit rayCastMeshLocal(const TriangleMesh& m, const ObbTree& tree, const Vec3& origin, const Vec3& direction,
                            double maxT, MeshRayMode mode) {
  MeshRayHit out;
  if (!validRay(origin, direction, maxT)) {
    out.status = MeshRayStatus::InvalidInput;
    return out;
  }
  // A tree that was not built from this mesh (or an empty one) answers nothing.
  if (tree.nodes.empty() || tree.normals.size() != m.triangles.size() || tree.order.size() != m.triangles.size()) {
    out.status = MeshRayStatus::InvalidInput;
    return out;
  }
  const ShearedRay ray = ShearedRay::make(origin, direction);
  const double pad = kMeshRayBoxPad * (maxAbs(origin) + tree.scale);
  double best = maxT;  // hits beyond it are not wanted
  int bestTri = -1;
  RayTriangleHit bestHit;
  auto limit = [&]() { return best + kMeshRayPruneSlack * best; };  // ∞ stays ∞

  struct Pending {
    int node;
    double enter;
  };
  Pending stack[kObbTreeMaxDepth + 1];
  int sp = 0;
  const long long visitCap = static_cast<long long>(tree.nodes.size()) + 1;
  long long visits = 0;

  double enter = 0;
  ++out.boxTests;
  if (!rayBox(tree.nodes[0].box, origin, direction, pad, limit(), &enter)) return out;
  int node = 0;
  bool done = false;
  while (!done) {
    if (++visits > visitCap) {
      out.status = MeshRayStatus::MaxIterations;
      break;
    }
    const ObbTreeNode& n = tree.nodes[node];
    int next = -1;
    if (n.leaf()) {
      for (int i = 0; i < n.count; ++i) {
        const int t = tree.order[n.first + i];
        const Vec3& nrm = tree.normals[t];
        if (nrm.x == 0 && nrm.y == 0 && nrm.z == 0) continue;  // degenerate: no surface
        const auto& tri = m.triangles[t];
        RayTriangleHit h;
        ++out.triangleTests;
        if (!rayTriangle(ray, m.vertices[tri[0]], m.vertices[tri[1]], m.vertices[tri[2]], best, &h)) continue;
        if (bestTri < 0 || h.t < best || (h.t == best && t < bestTri)) {
          best = h.t;
          bestTri = t;
          bestHit = h;
          if (mode == MeshRayMode::Any) break;
        }
      }
      if (mode == MeshRayMode::Any && bestTri >= 0) break;
    } else {
      const int l = node + 1, r = n.right;
      double el = 0, er = 0;
      out.boxTests += 2;
      const bool hl = rayBox(tree.nodes[l].box, origin, direction, pad, limit(), &el);
      const bool hr = rayBox(tree.nodes[r].box, origin, direction, pad, limit(), &er);
      if (hl && hr) {
        // Nearer first (left on a tie); the other waits with its entry time.
        if (er < el) {
          stack[sp++] = {l, el};
          next = r;
        } else {
          stack[sp++] = {r, er};
          next = l;
        }
      } else if (hl) {
        next = l;
      } else if (hr) {
        next = r;
      }
    }
    while (next < 0) {
      if (sp == 0) {
        done = true;
        break;
      }
      const Pending p = stack[--sp];
      if (p.enter <= limit()) next = p.node;  // else entered after the best hit: pruned
    }
    node = next;
  }

  if (bestTri >= 0) {
    const auto& tri = m.triangles[bestTri];
    const Vec3& u = bestHit.barycentric;
    out.hit = true;
    out.t = best;
    out.triangle = bestTri;
    out.barycentric = u;
    out.point = m.vertices[tri[0]] * u.x + m.vertices[tri[1]] * u.y + m.vertices[tri[2]] * u.z;
    out.normal = tree.normals[bestTri];
  }
  return out;
}

MeshRayHit rayCastMesh(const TriangleMesh& m, const ObbTree& tree, const Transform& pose, const Vec3& origin,
                       const Vec3& direction, double maxT, MeshRayMode mode) {
  if (!isFinite(origin) || !isFinite(direction)) {
    MeshRayHit out;
    out.status = MeshRayStatus::InvalidInput;
    return out;
  }
  const Vec3 o = pose.toLocalDirection(origin - pose.position);
  const Vec3 d = pose.toLocalDirection(direction);
  MeshRayHit out = rayCastMeshLocal(m, tree, o, d, maxT, mode);
  if (out.hit) {
    out.point = pose.apply(out.point);
    out.normal = pose.applyToDirection(out.normal);
  }
  return out;
}

}  // namespace collidoscope
