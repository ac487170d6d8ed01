// collidoscope — ray casts on triangle meshes (see mesh_raycast.h).
#include "collidoscope/mesh_raycast.h"

#include <cmath>
#include <limits>
#include <utility>

#include "collidoscope/predicates.h"

namespace collidoscope {

namespace {

constexpr double kMaxDouble = std::numeric_limits<double>::max();

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

// The ray for the slab tests on the float boxes of obbtree_rays.h, in
// double: per axis the inverse direction (±∞ for a zero component) and the
// origin shifted so that (bound − shifted origin) is the distance to the
// bound padded by pad (lows moved down, highs up). Which bound of an axis
// is met first (the high one when the inverse is negative, "down") is a
// template parameter of the descent below: the box offsets are then
// constants.
struct SlabRay {
  double inv[3];
  double nearOrigin[3], farOrigin[3];
  int octant = 0;  // bit a set: axis a is down
  SlabRay(const Vec3& o, const Vec3& d, double pad) {
    for (int a = 0; a < 3; ++a) {
      inv[a] = 1.0 / d[a];
      const bool down = std::signbit(inv[a]);
      const double lowOrigin = o[a] + pad, highOrigin = o[a] - pad;
      nearOrigin[a] = down ? highOrigin : lowOrigin;
      farOrigin[a] = down ? lowOrigin : highOrigin;
      octant |= down ? 1 << a : 0;
    }
  }
};

// The slab test of one box: true when the ray meets it (padded) at some t
// in [0, limit], with *enter the first such t. A zero direction component
// gives ±∞ on that axis, or NaN (0·∞) when the origin is exactly on the
// padded bound: NaN never wins a comparison below, so that axis then
// constrains nothing (the ray lies in the slab's plane: kept, the safe
// side). limit is finite (an infinite one is passed as the largest double),
// so a ray parallel to a slab outside it (+∞ entry) is rejected.
template <int Octant>
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline bool slabTest(const SlabRay& r, const float* box, double limit, double* enter) {
  constexpr int nx = Octant & 1 ? 3 : 0, ny = Octant & 2 ? 4 : 1, nz = Octant & 4 ? 5 : 2;
  constexpr int fx = Octant & 1 ? 0 : 3, fy = Octant & 2 ? 1 : 4, fz = Octant & 4 ? 2 : 5;
  const double nearX = (static_cast<double>(box[nx]) - r.nearOrigin[0]) * r.inv[0];
  const double nearY = (static_cast<double>(box[ny]) - r.nearOrigin[1]) * r.inv[1];
  const double nearZ = (static_cast<double>(box[nz]) - r.nearOrigin[2]) * r.inv[2];
  const double farX = (static_cast<double>(box[fx]) - r.farOrigin[0]) * r.inv[0];
  const double farY = (static_cast<double>(box[fy]) - r.farOrigin[1]) * r.inv[1];
  const double farZ = (static_cast<double>(box[fz]) - r.farOrigin[2]) * r.inv[2];
  double lo = 0, hi = limit;
  if (nearX > lo) lo = nearX;
  if (nearY > lo) lo = nearY;
  if (nearZ > lo) lo = nearZ;
  if (farX < hi) hi = farX;
  if (farY < hi) hi = farY;
  if (farZ < hi) hi = farZ;
  *enter = lo;
  return lo <= hi;
}

// The best hit so far and the work done.
struct Descent {
  double best;  // hits beyond it are not wanted
  int bestTri = -1;
  RayTriangleHit bestHit;
  int boxTests = 0, triangleTests = 0;
  MeshRayStatus status = MeshRayStatus::Converged;
};

// Boxes entered after this are pruned; finite (see slabTest), ∞ maps to the largest double.
inline double pruneLimit(double best) { return std::fmin(best + kMeshRayPruneSlack * best, kMaxDouble); }

template <int Octant>
void descend(const RayTree& rt, const ShearedRay& ray, const SlabRay& slab, MeshRayMode mode,
             Descent* st) {
  struct Pending {
    int ref;
    double enter;
  };
  constexpr int kNone = std::numeric_limits<int>::min();  // no reference is this
  Pending stack[kObbTreeMaxDepth + 1];
  int sp = 0;
  const long long visitCap = 2 * static_cast<long long>(rt.nodes.size()) + 2;
  long long visits = 0;
  double best = st->best, limit = pruneLimit(best);
  int bestTri = -1;
  int boxTests = 1, triangleTests = 0;

  double enter = 0;
  int ref = slabTest<Octant>(slab, rt.rootBox, limit, &enter) ? rt.root : kNone;
  while (ref != kNone) {
    if (++visits > visitCap) {
      st->status = MeshRayStatus::MaxIterations;
      break;
    }
    int next = kNone;
    if (rayLeaf(ref)) {
      const int first = rayLeafFirst(ref);
      const int* tris = rt.triangles.data() + first;
      const Vec3* corners = rt.corners.data() + 3 * static_cast<std::size_t>(first);
      const int count = rayLeafCount(ref);
      for (int i = 0; i < count; ++i) {
        const int t = tris[i];
        RayTriangleHit h;
        ++triangleTests;
        if (!rayTriangle(ray, corners[3 * i], corners[3 * i + 1], corners[3 * i + 2], best, &h)) continue;
        if (bestTri < 0 || h.t < best || (h.t == best && t < bestTri)) {
          best = h.t;
          bestTri = t;
          st->bestHit = h;
          limit = pruneLimit(best);
          if (mode == MeshRayMode::Any) break;
        }
      }
      if (mode == MeshRayMode::Any && bestTri >= 0) break;
    } else {
      const RayNode& n = rt.nodes[ref];
      double el = 0, er = 0;
      boxTests += 2;
      const bool hl = slabTest<Octant>(slab, n.box[0], limit, &el);
      const bool hr = slabTest<Octant>(slab, n.box[1], limit, &er);
      if (hl && hr) {
        // Nearer first (left on a tie); the other waits with its entry time.
        if (er < el) {
          stack[sp++] = {n.child[0], el};
          next = n.child[1];
        } else {
          stack[sp++] = {n.child[1], er};
          next = n.child[0];
        }
      } else if (hl) {
        next = n.child[0];
      } else if (hr) {
        next = n.child[1];
      }
    }
    while (next == kNone && sp > 0) {
      const Pending p = stack[--sp];
      if (p.enter <= limit) next = p.ref;  // else entered after the best hit: pruned
    }
    ref = next;
  }
  st->best = best;
  st->bestTri = bestTri;
  st->boxTests = boxTests;
  st->triangleTests = triangleTests;
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
  const RayTree& rt = tree.rays;
  if (!rt.built) {
    out.status = MeshRayStatus::InvalidInput;
    return out;
  }
  const ShearedRay ray = ShearedRay::make(origin, direction);
  const SlabRay slab(origin, direction, kMeshRayBoxPad * (maxAbs(origin) + tree.scale));
  Descent st;
  st.best = maxT;
  switch (slab.octant) {
    case 0: descend<0>(rt, ray, slab, mode, &st); break;
    case 1: descend<1>(rt, ray, slab, mode, &st); break;
    case 2: descend<2>(rt, ray, slab, mode, &st); break;
    case 3: descend<3>(rt, ray, slab, mode, &st); break;
    case 4: descend<4>(rt, ray, slab, mode, &st); break;
    case 5: descend<5>(rt, ray, slab, mode, &st); break;
    case 6: descend<6>(rt, ray, slab, mode, &st); break;
    default: descend<7>(rt, ray, slab, mode, &st); break;
  }
  out.status = st.status;
  out.boxTests = st.boxTests;
  out.triangleTests = st.triangleTests;
  const int bestTri = st.bestTri;
  const double best = st.best;
  const RayTriangleHit& bestHit = st.bestHit;
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
