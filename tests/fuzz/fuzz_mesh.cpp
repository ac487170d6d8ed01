// Fuzz target: triangle meshes from bytes — validation, the OBB tree and its
// ray layout, and every mesh query checked against brute force over the
// triangles (the reference a mesh query promises to equal, mesh_raycast.h,
// mesh_convex.h, mesh_mesh.h).
//
// A mesh has 1–12 vertices and 0–12 triangles. The vertices are small
// integers or sixteenths (coplanar, collinear, coincident corners: slivers,
// zero-area and duplicate triangles), scaled by a power of ten from 1e-9 to
// 1e6, or, in the raw half, any double of fuzz::number (NaN, ±∞, denormals,
// beyond kMaxMagnitude); raw indices may be negative or out of range.
//
//   validation   makeMeshShape refuses exactly the meshes with no vertices
//                or triangles, a coordinate that is not finite or beyond
//                kMaxMagnitude, or an index out of range (decided here from
//                the numbers), with a field and a message; it accepts the
//                rest (degenerate and duplicate triangles included)
//   raycast      closest hit = the minimum of (t, index) over the
//                non-degenerate triangles' rayTriangle, bit for bit; an
//                any-hit query hits exactly when some triangle does, on a
//                triangle that the ray hits; the point lies on the ray
//   intersect    convex shape against the mesh = the OR over the
//                triangles of meshConvexTriangleIntersect (the same leaf
//                test) unless the shape touches to within 1e-9 of the
//                scene scale: least triangle distance and deepest overlap
//                (EPA on each touching triangle alone) both within it
//                (either answer keeps the accuracy promise there), and the
//                triangle it names is one of them
//   distance     = the minimum over the triangles of
//                meshConvexTriangleDistance within 1e-9 of the scene scale
//                (certified answers on well-conditioned shapes), finite,
//                ≥ 0, |pointA − pointB| = distance, the triangle one of the
//                nearest
//   mesh–mesh    meshMeshIntersect = the OR over every pair of world
//                triangles of trianglesIntersect (exact), and the pair it
//                names intersects (where the predicates are exact: no
//                world coordinate non-zero below 2^-300)
// Rays aim at vertices, edge points and face points of the mesh (so they
// cross shared edges and vertices exactly), or anywhere.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "collidoscope/epa.h"
#include "collidoscope/mesh.h"
#include "collidoscope/mesh_convex.h"
#include "collidoscope/mesh_mesh.h"
#include "collidoscope/mesh_pair.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/support.h"
#include "collidoscope/triangle.h"
#include "fuzz_common.h"

namespace {

using collidoscope::MeshQueryStatus;
using collidoscope::ShapeError;
using collidoscope::Transform;
using collidoscope::TriangleMesh;
using collidoscope::Vec3;
using collidoscope::maxAbs;
using fuzz::str;

constexpr const char* kTarget = "fuzz_mesh";
constexpr int kMaxVertices = 12;
constexpr int kMaxTriangles = 12;
// Distances agree to this fraction of the scene scale (mesh_convex.h: the
// branch and bound is the brute-force minimum to the leaf queries'
// tolerance; the tests ask 1e-9).
constexpr double kTol = 1e-9;

std::string describeMesh(const TriangleMesh& m, const Transform& pose) {
  std::string o = "{\"type\": \"mesh\", \"vertices\": [";
  for (std::size_t i = 0; i < m.vertices.size(); ++i) o += (i ? ", " : "") + str(m.vertices[i]);
  o += "], \"triangles\": [";
  for (std::size_t i = 0; i < m.triangles.size(); ++i) {
    const auto& t = m.triangles[i];
    o += (i ? ", [" : "[") + std::to_string(t[0]) + ", " + std::to_string(t[1]) + ", " + std::to_string(t[2]) + "]";
  }
  const auto& q = pose.rotation;
  return o + "], \"position\": " + str(pose.position) + ", \"rotation\": [" + str(q.x) + ", " + str(q.y) + ", " +
         str(q.z) + ", " + str(q.w) + "]}";
}

[[noreturn]] void fail(const std::string& what, const std::string& details) { fuzz::fail(kTarget, what, details); }

// A mesh from bytes; raw: numbers and indices unchecked.
TriangleMesh decodeMesh(FuzzedDataProvider& in, bool raw) {
  TriangleMesh m;
  const int nv = in.ConsumeIntegralInRange<int>(raw ? 0 : 1, kMaxVertices);
  const int nt = in.ConsumeIntegralInRange<int>(raw ? 0 : 1, kMaxTriangles);
  const double scale = std::pow(10.0, in.ConsumeIntegralInRange<int>(-9, 6));
  for (int i = 0; i < nv; ++i) {
    if (i > 0 && in.ConsumeIntegralInRange<int>(0, 5) == 0) {
      m.vertices.push_back(m.vertices[in.ConsumeIntegralInRange<std::size_t>(0, m.vertices.size() - 1)]);
      continue;
    }
    Vec3 v;
    if (raw) {
      v = fuzz::vec(in);
    } else {
      auto coord = [&]() {
        const int tag = in.ConsumeIntegralInRange<int>(0, 3);
        if (tag == 0) return in.ConsumeIntegralInRange<int>(-4, 4) * scale;
        if (tag == 1) return in.ConsumeIntegralInRange<int>(-64, 64) / 16.0 * scale;
        if (tag == 2) return fuzz::clampCoord(fuzz::number(in), 1e6);
        return in.ConsumeFloatingPointInRange<double>(-4, 4) * scale;
      };
      v = {coord(), coord(), coord()};
    }
    m.vertices.push_back(v);
  }
  for (int t = 0; t < nt; ++t) {
    std::array<int, 3> tri{};
    for (int& k : tri) {
      k = raw ? in.ConsumeIntegralInRange<int>(-2, nv + 1)
              : in.ConsumeIntegralInRange<int>(0, std::max(0, nv - 1));
    }
    m.triangles.push_back(tri);
  }
  return m;
}

Transform decodePose(FuzzedDataProvider& in) {
  Transform p;
  if (in.ConsumeBool()) p.position = fuzz::clampCoord(fuzz::vec(in), 1e3);
  if (in.ConsumeBool()) {
    double q[4] = {fuzz::number(in), fuzz::number(in), fuzz::number(in), fuzz::number(in)};
    for (double& c : q) c = fuzz::clampCoord(c, 1e6);
    if (!collidoscope::normalizeRotation(q)) q[0] = q[1] = q[2] = 0, q[3] = 1;
    p.rotation = {q[0], q[1], q[2], q[3]};
  }
  return p;
}

// What validateMesh must refuse, decided from the numbers alone.
std::string shouldRefuse(const TriangleMesh& m) {
  if (m.vertices.empty()) return "no vertices";
  if (m.triangles.empty()) return "no triangles";
  for (const Vec3& v : m.vertices)
    for (double c : {v.x, v.y, v.z})
      if (!std::isfinite(c) || std::fabs(c) > collidoscope::kMaxMagnitude) return "coordinate " + str(c);
  for (const auto& t : m.triangles)
    for (int k : t)
      if (k < 0 || k >= static_cast<int>(m.vertices.size())) return "index " + std::to_string(k);
  return "";
}

// A point of the mesh to aim at: a vertex, an edge's midpoint or quarter
// point, a face's centroid — or one from the bytes.
Vec3 aimPoint(FuzzedDataProvider& in, const TriangleMesh& m) {
  const auto& t = m.triangles[in.ConsumeIntegralInRange<std::size_t>(0, m.triangles.size() - 1)];
  const Vec3 a = m.vertices[t[0]], b = m.vertices[t[1]], c = m.vertices[t[2]];
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0: return a;
    case 1: return (a + b) * 0.5;
    case 2: return a * 0.75 + c * 0.25;
    case 3: return (a + b + c) * (1.0 / 3);
    default: return fuzz::clampCoord(fuzz::vec(in), 1e6);
  }
}

void checkRays(FuzzedDataProvider& in, const collidoscope::Shape& s, const std::string& repro) {
  const TriangleMesh& m = s.meshData->mesh;
  const collidoscope::ObbTree& tree = s.meshData->forRays();  // rays read only this part
  std::vector<bool> degenerate(m.triangles.size(), false);
  for (int t : s.meshData->report().degenerate) degenerate[static_cast<std::size_t>(t)] = true;
  const int rays = in.ConsumeIntegralInRange<int>(1, 4);
  for (int r = 0; r < rays; ++r) {
    const Vec3 target = aimPoint(in, m);
    Vec3 origin = fuzz::clampCoord(fuzz::vec(in), 1e6);
    if (in.ConsumeBool()) origin = target + fuzz::clampCoord(fuzz::vec(in), 1e3);
    const Vec3 dir = target - origin;
    if (!(maxAbs(dir) > 0) || !fuzz::finite(dir)) continue;
    const double maxT = in.ConsumeBool() ? std::numeric_limits<double>::infinity()
                                         : std::fabs(fuzz::clampCoord(fuzz::number(in), 10));
    const std::string ray = repro + "\nray origin " + str(origin) + " direction " + str(dir) + " maxT " + str(maxT);

    // Brute force: every non-degenerate triangle, the least (t, index).
    const collidoscope::ShearedRay sheared = collidoscope::ShearedRay::make(origin, dir);
    bool bruteHit = false;
    double bestT = 0;
    int best = -1;
    std::vector<bool> hits(m.triangles.size(), false);
    for (std::size_t t = 0; t < m.triangles.size(); ++t) {
      if (degenerate[t]) continue;
      const auto& tri = m.triangles[t];
      collidoscope::RayTriangleHit h;
      if (!collidoscope::rayTriangle(sheared, m.vertices[tri[0]], m.vertices[tri[1]], m.vertices[tri[2]], maxT, &h))
        continue;
      hits[t] = true;
      if (!bruteHit || h.t < bestT) bestT = h.t, best = static_cast<int>(t);
      bruteHit = true;
    }
    const collidoscope::MeshRayHit closest = collidoscope::rayCastMeshLocal(m, tree, origin, dir, maxT);
    if (closest.status != collidoscope::MeshRayStatus::Converged)
      fail(std::string("raycast: status ") + collidoscope::meshRayStatusName(closest.status) + " on a valid ray", ray);
    if (closest.hit != bruteHit)
      fail(std::string("raycast: ") + (closest.hit ? "hit" : "missed") + " but brute force over the triangles " +
               (bruteHit ? "hits triangle " + std::to_string(best) + " at t = " + str(bestT) : "misses"),
           ray);
    if (bruteHit && (closest.t != bestT || closest.triangle != best))
      fail("raycast: closest hit triangle " + std::to_string(closest.triangle) + " at t = " + str(closest.t) +
               ", brute force triangle " + std::to_string(best) + " at t = " + str(bestT),
           ray);
    if (closest.hit && (!fuzz::finite(closest.point) || !fuzz::finite(closest.normal)))
      fail("raycast: non-finite point or normal", ray);

    const collidoscope::MeshRayHit any =
        collidoscope::rayCastMeshLocal(m, tree, origin, dir, maxT, collidoscope::MeshRayMode::Any);
    if (any.hit != bruteHit) fail(std::string("raycast (any): ") + (any.hit ? "hit" : "missed") + " against brute force", ray);
    if (any.hit && !hits[static_cast<std::size_t>(any.triangle)])
      fail("raycast (any): names triangle " + std::to_string(any.triangle) + ", which the ray does not hit", ray);
  }
}

void checkConvex(FuzzedDataProvider& in, const collidoscope::Shape& meshShape, const std::string& repro) {
  const TriangleMesh& m = meshShape.meshData->mesh;
  const collidoscope::ObbTree& tree = meshShape.meshData->buildTree();
  const Transform& pose = meshShape.pose;
  collidoscope::Shape s = fuzz::shape(in, true);
  ShapeError err;
  if (!collidoscope::validateShape(s, &err)) return;
  // Near the mesh: about one of its world points, most of the time.
  if (in.ConsumeBool()) s.pose.position = pose.apply(aimPoint(in, m)) + fuzz::clampCoord(fuzz::vec(in), 4);
  const std::string pair = repro + "\nshape " + fuzz::describe(s);

  double scale = maxAbs(s.pose.position) + collidoscope::localBoundingRadius(s) + s.margin;
  for (const Vec3& v : m.vertices) scale = std::fmax(scale, maxAbs(pose.apply(v)));
  // With an absolute floor of 1e-150: below 1e-154 a length's square
  // underflows, and |pointA − pointB| of a gap of 1e-255 computes as 0.
  const double tol = kTol * scale + 1e-150;

  bool bruteIn = false;
  std::vector<bool> touching(m.triangles.size(), false);
  double bruteD = std::numeric_limits<double>::infinity();
  // The deepest overlap of the shape with a triangle the leaf test calls
  // touching, by EPA on the triangle as a shape of its own: a certified
  // depth beyond tol means the shape is inside, not touching to rounding.
  double deepest = 0;
  std::vector<double> dist(m.triangles.size(), 0);
  bool certified = fuzz::conditioned(s);
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const collidoscope::IntersectResult r = collidoscope::meshConvexTriangleIntersect(m, pose, s, static_cast<int>(t));
    touching[t] = r.intersecting;
    bruteIn = bruteIn || r.intersecting;
    const collidoscope::MeshDistanceResult d = collidoscope::meshConvexTriangleDistance(m, pose, s, static_cast<int>(t));
    if (d.status != MeshQueryStatus::Converged) certified = false;
    dist[t] = d.distance;
    bruteD = std::fmin(bruteD, d.distance);
    if (r.intersecting) {
      const auto& k = m.triangles[t];
      collidoscope::Shape tri = collidoscope::Shape::triangle(m.vertices[k[0]], m.vertices[k[1]], m.vertices[k[2]]);
      tri.pose = pose;
      const collidoscope::PenetrationResult p =
          collidoscope::penetration(collidoscope::PosedShape(tri), collidoscope::PosedShape(s));
      const bool sure = p.status == collidoscope::EpaStatus::Converged || p.status == collidoscope::EpaStatus::Touching;
      deepest = std::fmax(deepest, sure ? p.depth : std::numeric_limits<double>::infinity());
    }
  }

  const collidoscope::MeshIntersectResult q = collidoscope::meshConvexIntersect(m, tree, pose, s);
  // Within tol of touching either answer keeps the accuracy promise (a
  // leaf's GJK calls a point 5e-11·S off a needle segment touching, where
  // the tree's culling slack, 1e-12·S, has already called its box apart);
  // test_mesh_convex.cpp asks the same.
  // The distances of a touch come out as 0 or a few ulps of S either side
  // (a point 2e-9 off a sliver 1e6 long: the leaf distance rounds to 0), so
  // touching within tol is a least distance ≤ tol with no overlap deeper
  // than tol.
  const bool nearTouching = bruteD <= tol && deepest <= tol;
  if ((q.status == MeshQueryStatus::Converged || q.status == MeshQueryStatus::LeafInexact) && !nearTouching) {
    if (q.intersecting != bruteIn)
      fail(std::string("intersect: ") + (q.intersecting ? "intersecting" : "apart") +
               " but the triangles' own test says " + (bruteIn ? "some touches" : "none touches"),
           pair);
    if (q.intersecting && (q.triangle < 0 || !touching[static_cast<std::size_t>(q.triangle)]))
      fail("intersect: names triangle " + std::to_string(q.triangle) + ", which does not touch the shape", pair);
  }
  if (q.status == MeshQueryStatus::InvalidInput) {
    fail("intersect: invalid-input on a valid mesh and shape", pair);
  }

  const collidoscope::MeshDistanceResult d = collidoscope::meshConvexDistance(m, tree, pose, s);
  if (d.status == MeshQueryStatus::InvalidInput) fail("distance: invalid-input on a valid mesh and shape", pair);
  if (!std::isfinite(d.distance) || !fuzz::finite(d.pointA) || !fuzz::finite(d.pointB))
    fail("distance: non-finite result (distance " + str(d.distance) + ")", pair);
  if (!(d.distance >= 0)) fail("distance: negative " + str(d.distance), pair);
  if (d.triangle < 0 || d.triangle >= static_cast<int>(m.triangles.size()))
    fail("distance: triangle " + std::to_string(d.triangle) + " is not one of the mesh's", pair);
  if (!certified || d.status != MeshQueryStatus::Converged) return;
  if (std::fabs(d.distance - bruteD) > tol)
    fail("distance: " + str(d.distance) + " but the least over the triangles is " + str(bruteD) + " (tol " +
             str(tol) + ")",
         pair);
  if (std::fabs(collidoscope::length(d.pointA - d.pointB) - d.distance) > tol)
    fail("distance: |pointA - pointB| = " + str(collidoscope::length(d.pointA - d.pointB)) + " but distance " +
             str(d.distance),
         pair);
  if (dist[static_cast<std::size_t>(d.triangle)] > bruteD + tol)
    fail("distance: names triangle " + std::to_string(d.triangle) + " at " +
             str(dist[static_cast<std::size_t>(d.triangle)]) + ", not a nearest one (" + str(bruteD) + ")",
         pair);
}

// Whether a world coordinate is non-zero and below 2^-300: outside the
// domain where the predicates of trianglesIntersect are exact
// (predicates.h; triangle.cpp rescales only pairs that are tiny
// throughout). There the brute force itself is not a reference: a
// segment from (1e6, 4.9e-324, 1e6) was found crossing a triangle it
// misses by 4e5, as one corner order of it and not the other (listed in
// tests/fuzz/REPORT.md).
bool belowExactDomain(const collidoscope::Shape& s) {
  for (const Vec3& v : s.meshData->mesh.vertices) {
    const Vec3 w = s.pose.apply(v);
    for (double c : {w.x, w.y, w.z})
      if (c != 0 && std::fabs(c) < 0x1p-300) return true;
  }
  return false;
}

void checkMeshMesh(const collidoscope::Shape& a, const collidoscope::Shape& b, const std::string& repro) {
  const TriangleMesh& ma = a.meshData->mesh;
  const TriangleMesh& mb = b.meshData->mesh;
  if (belowExactDomain(a) || belowExactDomain(b)) {
    (void)collidoscope::meshMeshIntersect(a, b);  // still run: no crash, no undefined behaviour
    return;
  }
  bool brute = false;
  for (std::size_t i = 0; i < ma.triangles.size() && !brute; ++i) {
    const auto& ta = ma.triangles[i];
    const Vec3 a0 = a.pose.apply(ma.vertices[ta[0]]), a1 = a.pose.apply(ma.vertices[ta[1]]),
               a2 = a.pose.apply(ma.vertices[ta[2]]);
    for (std::size_t j = 0; j < mb.triangles.size() && !brute; ++j) {
      const auto& tb = mb.triangles[j];
      brute = collidoscope::trianglesIntersect(a0, a1, a2, b.pose.apply(mb.vertices[tb[0]]),
                                               b.pose.apply(mb.vertices[tb[1]]), b.pose.apply(mb.vertices[tb[2]]));
    }
  }
  const collidoscope::MeshMeshResult r = collidoscope::meshMeshIntersect(a, b);
  if (r.status != collidoscope::MeshMeshStatus::Converged)
    fail(std::string("mesh-mesh: status ") + collidoscope::meshMeshStatusName(r.status) + " on valid meshes", repro);
  if (r.intersecting != brute)
    fail(std::string("mesh-mesh: ") + (r.intersecting ? "intersecting" : "apart") +
             " but brute force over the triangle pairs says " + (brute ? "intersecting" : "apart"),
         repro);
  if (r.intersecting) {
    const auto& ta = ma.triangles[static_cast<std::size_t>(r.first.a)];
    const auto& tb = mb.triangles[static_cast<std::size_t>(r.first.b)];
    if (!collidoscope::trianglesIntersect(a.pose.apply(ma.vertices[ta[0]]), a.pose.apply(ma.vertices[ta[1]]),
                                          a.pose.apply(ma.vertices[ta[2]]), b.pose.apply(mb.vertices[tb[0]]),
                                          b.pose.apply(mb.vertices[tb[1]]), b.pose.apply(mb.vertices[tb[2]])))
      fail("mesh-mesh: names triangles " + std::to_string(r.first.a) + ", " + std::to_string(r.first.b) +
               ", which do not intersect",
           repro);
  }
}

// Builds the mesh shape, checking validation against shouldRefuse; false
// when refused.
bool build(const TriangleMesh& m, const Transform& pose, collidoscope::Shape* out, const std::string& repro) {
  const std::string refuse = shouldRefuse(m);
  ShapeError err;
  const bool ok = collidoscope::makeMeshShape(m, out, &err);
  if (ok && !refuse.empty()) fail("validation: accepted a mesh with " + refuse, repro);
  if (!ok && refuse.empty()) fail("validation: refused a valid mesh: " + err.field + ": " + err.message, repro);
  if (!ok && err.message.empty()) fail("validation: refused without a message", repro);
  if (ok) {
    out->pose = pose;
    if (out->meshData->mesh.triangles.size() != m.triangles.size())
      fail("build: the shape holds " + std::to_string(out->meshData->mesh.triangles.size()) + " triangles of " +
               std::to_string(m.triangles.size()),
           repro);
  }
  return ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const bool raw = in.ConsumeIntegralInRange<int>(0, 3) == 0;
  const TriangleMesh m = decodeMesh(in, raw);
  const Transform pose = decodePose(in);
  const std::string repro = "mesh " + describeMesh(m, pose);
  collidoscope::Shape a;
  if (!build(m, pose, &a, repro)) return 0;
  checkRays(in, a, repro);
  checkConvex(in, a, repro);
  // A second mesh: a copy of the first at another pose (coincident and
  // touching surfaces), or one of its own.
  const TriangleMesh m2 = in.ConsumeBool() ? m : decodeMesh(in, false);
  Transform pose2 = in.ConsumeBool() ? pose : decodePose(in);
  const std::string repro2 = repro + "\nmesh B " + describeMesh(m2, pose2);
  collidoscope::Shape b;
  if (!build(m2, pose2, &b, repro2)) return 0;
  checkMeshMesh(a, b, repro2);
  return 0;
}
