// Regression tests for what fuzz_mesh and fuzz_world (tests/fuzz/) found in
// the mesh and world code, each from the failing input and checked against
// closed forms.
//
//   * The OBB tree's Morton order scaled centroid offsets by 1023/extent:
//     for centroids a denormal apart that is ∞, and 0·∞ a NaN cast to an
//     integer (undefined behaviour; UBSan aborts). Fixed in obbtree.cpp
//     (spatialOrder divides the offset by the extent first).
//   * A mesh distance leaf whose GJK gap is 1e-255 normalized v by its
//     length, whose square underflows to 0: NaN points. Fixed in
//     mesh_convex.cpp (takeLeafDistance pre-scales such a v).
//   * A world's broad phase padded each axis of a box by that axis's own
//     coordinates: two points at x, y = −2 and z ≈ 3e-115, 2.4e-119 apart,
//     touch for intersect() but their boxes were apart. Fixed in world.cpp
//     (one pad from the box's largest coordinate).
//   * GJK's segment put v's component along the segment at ~u·|y| of
//     rounding, and the next support point, an end of the segment |y| away,
//     multiplied it: a point 1.1e-8 from a segment 8 long found no
//     separating axis, the leaf test called the triangle touching and the
//     tree (whose boxes are apart) did not. Fixed in simplex.h
//     (solveSegment makes v perpendicular to the segment).
//   * GJK's triangle called the origin's projection outside an edge when it
//     was inside by less than the rounding of its coordinates: on a disc
//     of radius 300 with a point 1.1e-6 above it, the edge's v came back
//     and GJK stopped for lack of progress, touching. Fixed in simplex.h
//     (solveTriangle counts a coordinate negative within rounding as 0).
//   * The tree's culling slack, 1e-12 of the scene's scale, is 0 in a
//     scene of denormals, where boxes are rounded by whole denormal ulps:
//     an ellipsoid of radii 4.9e-324 centred on a mesh vertex was culled.
//     Fixed in mesh_convex.cpp (the slack is never below 1e-150).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/mesh.h"
#include "collidoscope/mesh_convex.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/predicates.h"
#include "collidoscope/world.h"

namespace {

using namespace collidoscope;

const double kDenorm = std::numeric_limits<double>::denorm_min();

// Builds the shape; the tree's order must hold every triangle once.
Shape build(const TriangleMesh& m) {
  Shape s;
  ShapeError err;
  EXPECT_TRUE(makeMeshShape(m, &s, &err)) << err.field << ": " << err.message;
  if (!s.meshData) return s;
  std::vector<int> order = s.meshData->buildTree().order;
  std::sort(order.begin(), order.end());
  std::vector<int> all(m.triangles.size());
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(order, all);
  return s;
}

// The second mesh of fuzz_mesh's input (seed 1, crash-0f6b8b96…): centroids
// 0 and 4.9e-324 apart along z. Every triangle is degenerate (a repeated
// corner), so no ray hits it.
TEST(MeshFuzzRegressions, TreeOfCentroidsADenormalApartFromTheFuzzInput) {
  TriangleMesh m;
  m.vertices = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 2e-9, 3.5e-9}, {3.5e-9, kDenorm, kDenorm}};
  m.triangles = {{1, 2, 4}, {4, 4, 4}, {4, 4, 4}, {4, 4, 4}, {4, 4, 4}};
  const Shape s = build(m);
  ASSERT_TRUE(s.meshData);
  EXPECT_EQ(s.meshData->report().degenerate.size(), 5u);
  const MeshRayHit h = rayCastMeshLocal(m, s.meshData->forRays(), {1e-9, 1e-9, 1}, {0, 0, -1},
                                        std::numeric_limits<double>::infinity());
  EXPECT_EQ(h.status, MeshRayStatus::Converged);
  EXPECT_FALSE(h.hit);
}

// Two unit right triangles in the planes z = 0 and z = 4.9e-324 (the same
// plane to rounding): a ray down the z axis from z = 1 through (0.1, 0.1)
// hits at t = 1; a sphere of radius 0.5 at z = 2 is 1.5 away.
TEST(MeshFuzzRegressions, TreeOfTrianglesADenormalApart) {
  TriangleMesh m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, kDenorm}, {1, 0, kDenorm}, {0, 1, kDenorm}};
  m.triangles = {{0, 1, 2}, {3, 4, 5}};
  const Shape s = build(m);
  ASSERT_TRUE(s.meshData);
  const MeshRayHit h = rayCastMeshLocal(m, s.meshData->forRays(), {0.1, 0.1, 1}, {0, 0, -1},
                                        std::numeric_limits<double>::infinity());
  ASSERT_TRUE(h.hit);
  EXPECT_NEAR(h.t, 1.0, 1e-15);
  EXPECT_NEAR(h.point.x, 0.1, 1e-15);
  EXPECT_NEAR(h.point.y, 0.1, 1e-15);
  const MeshRayHit miss = rayCastMeshLocal(m, s.meshData->forRays(), {5, 0.1, 1}, {0, 0, -1},
                                           std::numeric_limits<double>::infinity());
  EXPECT_FALSE(miss.hit);

  Shape ball = Shape::sphere(0.5);
  ball.pose.position = {0.1, 0.1, 2};
  const MeshDistanceResult d = meshConvexDistance(m, s.meshData->buildTree(), Transform{}, ball);
  EXPECT_NEAR(d.distance, 1.5, 1e-12);
  EXPECT_FALSE(d.intersecting);
}

// fuzz_mesh's input (campaign seed 20, crash-fce05d93…): a mesh of one
// point (0, 0, 1.03e-255), posed at 9.5e-130·(1, 1, 1) and turned half a
// turn about (1, 1, 0)/√2, and a box of no extent at that position. The
// turn maps the point to (0, 0, −1.03e-255) from the position: the distance
// is 1.03e-255, between those two points.
TEST(MeshFuzzRegressions, DistanceOfAGapWhoseSquareUnderflows) {
  const double z = 1.0321681302206577e-255, p = 9.532824124368238e-130, h = 0.70710678118654746;
  TriangleMesh m;
  m.vertices = {{0, 0, z}, {0, 0, z}, {0, 0, z}};
  m.triangles = {{0, 0, 0}, {0, 0, 2}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  const Shape s = build(m);
  ASSERT_TRUE(s.meshData);
  Transform pose;
  pose.position = {p, p, p};
  pose.rotation = {h, h, 0, 0};
  Shape box;
  box.type = ShapeType::Box;
  box.pose.position = {p, p, p};
  // Without a margin, and with one smaller than the gap (the points are
  // then shifted along the normal by it).
  for (double margin : {0.0, 1e-256}) {
    MeshConvexSettings settings;
    settings.meshMargin = margin;
    const MeshDistanceResult d = meshConvexDistance(m, s.meshData->buildTree(), pose, box, settings);
    EXPECT_NEAR(d.distance, z - margin, 1e-270);
    EXPECT_FALSE(d.intersecting);
    ASSERT_TRUE(std::isfinite(d.pointA.x) && std::isfinite(d.pointA.y) && std::isfinite(d.pointA.z));
    ASSERT_TRUE(std::isfinite(d.pointB.x) && std::isfinite(d.pointB.y) && std::isfinite(d.pointB.z));
    // Both points are the position to its own rounding (1e-145).
    EXPECT_NEAR(d.pointB.x, p, 1e-140);
    EXPECT_NEAR(d.pointA.z, p, 1e-140);
  }
}

// The leaf test of every triangle and the tree query agree with the
// reference: apart, and the distance is `expected` within 1e-9 of the
// scene's scale S, certified.
void expectApart(const TriangleMesh& m, const Shape& shape, double expected, double scale) {
  const Shape s = build(m);
  ASSERT_TRUE(s.meshData);
  const Transform pose;
  for (int t = 0; t < static_cast<int>(m.triangles.size()); ++t) {
    EXPECT_FALSE(meshConvexTriangleIntersect(m, pose, shape, t).intersecting) << "triangle " << t;
    const MeshDistanceResult d = meshConvexTriangleDistance(m, pose, shape, t);
    EXPECT_EQ(d.status, MeshQueryStatus::Converged) << "triangle " << t;
    EXPECT_NEAR(d.distance, expected, 1e-9 * scale) << "triangle " << t;
  }
  const MeshIntersectResult q = meshConvexIntersect(m, s.meshData->buildTree(), pose, shape);
  EXPECT_EQ(q.status, MeshQueryStatus::Converged);
  EXPECT_FALSE(q.intersecting);
  const MeshDistanceResult d = meshConvexDistance(m, s.meshData->buildTree(), pose, shape);
  EXPECT_EQ(d.status, MeshQueryStatus::Converged);
  EXPECT_NEAR(d.distance, expected, 1e-9 * scale);
  EXPECT_FALSE(d.intersecting);
}

// fuzz_mesh's input (campaign seed 21, crash-53d16302…; four more of that
// campaign, a point or segment near a segment-like shape, had the same
// cause): a mesh of one point p, twice, and a box of extents (0, 0, 4)
// turned by q: the segment c ± 4a, a = q's z axis. The reference is the
// point–segment distance in long double: |p − c − s·a| with s = (p − c)·a
// clamped to [−4, 4].
TEST(MeshFuzzRegressions, PointBesideAZeroWidthBoxIsApart) {
  const Vec3 p{-3.9375e-08, 7.500000000000001e-09, 0};
  TriangleMesh m;
  m.vertices = {p, p};
  m.triangles = {{0, 0, 0}, {0, 0, 0}};
  Shape box = Shape::box({0, 0, 4});
  box.pose.position = {0, 0, 1.4260258159703532e-105};
  const double qx = -0.4356224889338276, qy = -0.51968998679825051, qz = qy, qw = qy;
  box.pose.rotation = {qx, qy, qz, qw};

  using L = long double;
  const L ax = 2 * (L(qx) * qz + L(qw) * qy), ay = 2 * (L(qy) * qz - L(qw) * qx),
          az = 1 - 2 * (L(qx) * qx + L(qy) * qy);
  const L n = std::sqrt(ax * ax + ay * ay + az * az);
  const L dx = p.x, dy = p.y, dz = L(p.z) - L(box.pose.position.z);
  const L s = std::fmax(L(-4), std::fmin(L(4), (dx * ax + dy * ay + dz * az) / n));
  const L rx = dx - s * ax / n, ry = dy - s * ay / n, rz = dz - s * az / n;
  const double expected = static_cast<double>(std::sqrt(rx * rx + ry * ry + rz * rz));
  ASSERT_GT(expected, 1e-8);  // far beyond 1e-9 of the scale, 4
  expectApart(m, box, expected, 4);
}

// fuzz_mesh's input (a quick run, crash-0ed6f0c8…): a mesh of one point p
// and a cylinder of radius 300 and no height at (8, 0, 4): a disc in the
// plane y = 0. p's foot (p.x, 0, p.z) is 8.9 from the disc's centre, inside
// it, so the distance is p.y.
TEST(MeshFuzzRegressions, PointAboveAFlatCylinderIsApart) {
  const Vec3 p{-3.9058823529411761e-06, 1.1450980392156866e-06, -1.9999999999999999e-06};
  TriangleMesh m;
  m.vertices = {p};
  m.triangles = {{0, 0, 0}, {0, 0, 0}};
  Shape disc = Shape::cylinder(300, 0);
  disc.pose.position = {8, 0, 4};
  ASSERT_LT(std::hypot(p.x - 8, p.z - 4), 300);
  expectApart(m, disc, p.y, 308);
}

// fuzz_mesh's input (campaign segment seed 45, crash-d32dabac…; two more of that
// campaign, denormal ellipsoids on denormal meshes, had the same cause): an
// ellipsoid of radii d = 4.9e-324 centred at (d, d, d), and a mesh whose
// triangles are the segment from the origin to (d, d, d) and that point.
// Both hold the ellipsoid's centre: they touch, and the distance is 0. Only
// the point's leaf test is checked: GJK on a segment and an ellipsoid of
// denormal size (the mesh's leaves are not rescaled as a tiny scene of two
// shapes is, tiny_scene.h) calls them apart, wrongly.
TEST(MeshFuzzRegressions, DenormalEllipsoidOnADenormalMeshTouches) {
  const double d = kDenorm;
  TriangleMesh m;
  m.vertices = {{d, d, d}, {d, d, d}, {0, 0, 0}};
  m.triangles = {{2, 0, 0}, {0, 0, 0}};
  const Shape s = build(m);
  ASSERT_TRUE(s.meshData);
  const Shape e = Shape::ellipsoid({d, d, d}).at({d, d, d});
  const Transform pose;
  EXPECT_TRUE(meshConvexTriangleIntersect(m, pose, e, 1).intersecting);
  const MeshIntersectResult q = meshConvexIntersect(m, s.meshData->buildTree(), pose, e);
  EXPECT_EQ(q.status, MeshQueryStatus::Converged);
  EXPECT_TRUE(q.intersecting);
  const MeshDistanceResult dist = meshConvexDistance(m, s.meshData->buildTree(), pose, e);
  EXPECT_EQ(dist.distance, 0);
  EXPECT_TRUE(dist.intersecting);
}

// fuzz_world's input (campaign segment seed 21, crash-3f679ac6…): point bodies at
// (−2, −2, 3.0657e-115) and (−2, −2, 3.0654e-115). Two points are one point
// to within 64 ulps of their scale 2, so intersect() calls them touching,
// and pairs() must list them (both broad phases).
TEST(MeshFuzzRegressions, WorldPairsPointsCloserThanTheirScalesRounding) {
  for (api::WorldBroadphase b : {api::WorldBroadphase::SweepAndPrune, api::WorldBroadphase::Tree}) {
    api::Registry reg;
    api::World world(&reg, b);
    SceneError err;
    const int point = reg.add(Shape::point(), &err);
    ASSERT_GT(point, 0) << err.message;
    const double a[7] = {-2, -2, 3.065670841556067e-115, 0, 0, 0, 1};
    const double c[7] = {-2, -2, 3.0654356309538037e-115, 0, 0, 0, 1};
    const double far[7] = {-2, -8, -8, 0, 0, 0, 1};
    ASSERT_GT(world.add(point, a, &err), 0) << err.message;
    ASSERT_GT(world.add(point, far, &err), 0) << err.message;
    ASSERT_GT(world.add(point, c, &err), 0) << err.message;
    double in[api::kInputSize] = {}, r[api::kMaxResultStride];
    std::copy(a, a + 7, in);
    std::copy(c, c + 7, in + 7);
    ASSERT_TRUE(reg.query(api::Kind::Intersect, point, point, in, nullptr, r, &err)) << err.message;
    ASSERT_NE(r[0], 0);  // |a − c| = 2.4e-119, far below 64u·2
    std::vector<std::uint32_t> pairs;
    ASSERT_TRUE(world.pairs(&pairs, &err)) << err.message;
    EXPECT_EQ(pairs, (std::vector<std::uint32_t>{0, 2}));
  }
}

// An edge function whose products underflow (d·d with d = 4.9e-324) lost
// its sign, and with it the ray's side of the edge: the triangle below has
// x ≤ −5e-8 everywhere, while the ray (maxT = d) stays at x ≈ 6.16, yet it
// was hit at t = 0. The edge's two endpoints are now scaled to unit size
// per axis before the exact sign is taken.
TEST(MeshFuzzRegressions, AnEdgeFunctionWhoseProductsUnderflowKeepsItsSign) {
  const double d = std::numeric_limits<double>::denorm_min();
  const Vec3 origin{6.1568627441327664, d, d}, direction{-1000006.1568627441, -d, 0};
  const Vec3 a{-1000000, 0, d}, b{-400, -400, -400}, c{-4.9999999999999998e-08, 0, 0};
  // Independent of the test: along the ray x = 6.157 − 1e6·t ≥ 6.157 − 1e6·d > 0 for t ≤ d,
  // and every point of the triangle has x ≤ max(a.x, b.x, c.x) < 0.
  ASSERT_GT(origin.x + direction.x * d, std::max(a.x, std::max(b.x, c.x)));
  const ShearedRay ray = ShearedRay::make(origin, direction);
  RayTriangleHit hit;
  EXPECT_FALSE(rayTriangle(ray, a, b, c, d, &hit));
  EXPECT_FALSE(rayTriangle(ray, b, c, a, d, &hit));
  EXPECT_FALSE(rayTriangle(ray, c, b, a, d, &hit));
}


// fuzz_mesh's input (the meshfuzz campaign, segment seed 41): the shear
// d_x/d_z = −4.9e-324/499998 (−1e-329) rounded to −0, which moved the
// sheared edge BC onto the ray, and rayTriangle hit the triangle below at
// t = −0 while the tree query (its box test) missed it. Every point of the
// triangle has x = y (so do its corners); along the ray x − y =
// (d − 0.5)(1 − t) vanishes only at t = 1, at the point (0, 0, 499998.37 + d),
// and the triangle's only point with x = y = 0 is the corner (0, 0, −3.25):
// a miss for every maxT. The ray (a direction component below 2^-300) now
// takes the scaled path.
TEST(MeshFuzzRegressions, ARayWhoseShearUnderflowsMissesATriangleOffIt) {
  const double d = kDenorm;
  const Vec3 origin{d, 0.5, d}, direction{-d, -0.5, 499998.37254901958};
  TriangleMesh m;
  m.vertices = {{0, 0, -3.2549019607842666}, {d, d, d}, {d, d, 1000000}};
  m.triangles = {{0, 1, 2}, {1, 1, 2}, {0, 2, 2}, {2, 2, 2}, {2, 0, 0}, {2, 2, 0}, {0, 0, 0}};
  for (const Vec3& v : m.vertices) ASSERT_EQ(v.x, v.y);
  ASSERT_NE(origin.x + direction.x * 1.0, -3.2549019607842666);  // t = 1 is not at the corner's z either way
  const Shape s = build(m);
  ASSERT_TRUE(s.meshData);
  const ShearedRay ray = ShearedRay::make(origin, direction);
  EXPECT_TRUE(ray.scaled);
  for (const double maxT : {d, 1.0, std::numeric_limits<double>::infinity()}) {
    RayTriangleHit hit;
    const Vec3 &a = m.vertices[0], &b = m.vertices[1], &c = m.vertices[2];
    EXPECT_FALSE(rayTriangle(ray, a, b, c, maxT, &hit)) << "maxT " << maxT << " t " << hit.t;
    EXPECT_FALSE(rayTriangle(ray, b, c, a, maxT, &hit)) << "maxT " << maxT;
    EXPECT_FALSE(rayTriangle(ray, c, b, a, maxT, &hit)) << "maxT " << maxT;
    for (const MeshRayMode mode : {MeshRayMode::Closest, MeshRayMode::Any}) {
      const MeshRayHit q = rayCastMeshLocal(m, s.meshData->forRays(), origin, direction, maxT, mode);
      EXPECT_EQ(q.status, MeshRayStatus::Converged);
      EXPECT_FALSE(q.hit) << "maxT " << maxT << " t " << q.t;
    }
  }
}

// fuzz_mesh's input (campaign seed 2020, crash-7810f28b…), found on the
// first version of the scaled path, which also scaled axes down: the
// triangle's corners have y ≤ 0, and the ray keeps y = d = 4.9e-324, so it
// misses for every maxT. Scaled down by 2^-8 (its largest y is 400) the
// corners' y of −d (relative to the origin) rounded to 0, which put an
// edge on the ray, and the nearly edge-on triangle's t numerator
// underflowed: a hit at t = −0. No axis is scaled down now, and t's
// numerator is taken at det's scale.
TEST(MeshFuzzRegressions, AScaledRayKeepsADenormalOffsetFromAnEdge) {
  const double d = kDenorm;
  const Vec3 origin{0.5, d, -0.0}, direction{-0.5, 0, d};
  TriangleMesh m;
  m.vertices = {{-1000000, 0, d}, {-400, -400, -400}, {-4.9999999999999998e-08, 0, 0}};
  m.triangles = {{0, 1, 2}};
  for (const Vec3& v : m.vertices) ASSERT_LE(v.y, 0);
  ASSERT_EQ(direction.y, 0);
  ASSERT_GT(origin.y, 0);
  const Shape s = build(m);
  ASSERT_TRUE(s.meshData);
  const ShearedRay ray = ShearedRay::make(origin, direction);
  for (const double maxT : {0.5, std::numeric_limits<double>::infinity()}) {
    RayTriangleHit hit;
    const Vec3 &a = m.vertices[0], &b = m.vertices[1], &c = m.vertices[2];
    EXPECT_FALSE(rayTriangle(ray, a, b, c, maxT, &hit)) << "maxT " << maxT << " t " << hit.t;
    EXPECT_FALSE(rayTriangle(ray, b, c, a, maxT, &hit)) << "maxT " << maxT;
    EXPECT_FALSE(rayTriangle(ray, c, b, a, maxT, &hit)) << "maxT " << maxT;
    EXPECT_FALSE(rayCastMeshLocal(m, s.meshData->forRays(), origin, direction, maxT).hit) << "maxT " << maxT;
  }
}

// Per-axis scaling by powers of two (of the corners, the origin and the
// direction alike) changes neither whether a ray meets a triangle nor t.
// The reference is exact: corners, origins and directions are sixteenths
// in [−4, 4], so with everything times 16 (integers) Cramer's rule for
// o + t·d = a + v·(b − a) + w·(c − a) is exact in 64-bit integers, and
// t = num/den is the correctly rounded quotient of two exact doubles.
// Rays exactly through an edge or a vertex, and rays parallel to the
// plane, are left to the tests of ties (their answer depends on the
// shear's rounding, which the scaling changes); the rest are hit or missed
// by a margin the test's rounding (~1e-15 of the unit scale) cannot cross.
// Scaled by 2^-1070 the corners are denormals (multiples of 2^-1074, still
// exact); scales up to 2^200 and mixed ones (one axis denormal, another
// huge: the shear's quotient underflows) are checked too.
struct ExactRayCase {
  Vec3 o, d, a, b, c;
  bool hit;
  double t;
};

std::vector<ExactRayCase> exactRayCases(int count) {
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  const auto next = [&]() {  // splitmix64: its own generator, so the cases do not depend on the library
    state += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  const auto sixteenths = [&](long long out[3]) {
    for (int k = 0; k < 3; ++k) out[k] = static_cast<long long>(next() % 129) - 64;  // −4 … 4 in sixteenths
  };
  std::vector<ExactRayCase> out;
  int guard = 0;
  while (static_cast<int>(out.size()) < count && ++guard < 100 * count) {
    long long o[3], d[3], a[3], b[3], c[3];
    sixteenths(o), sixteenths(d), sixteenths(a), sixteenths(b), sixteenths(c);
    // Aim half of the rays at a point inside the triangle's box, so that about half hit.
    if (next() % 2) {
      for (int k = 0; k < 3; ++k) d[k] = (a[k] + b[k] + c[k]) / 3 + static_cast<long long>(next() % 17) - 8 - o[k];
    }
    long long e1[3], e2[3], r[3];
    for (int k = 0; k < 3; ++k) e1[k] = b[k] - a[k], e2[k] = c[k] - a[k], r[k] = o[k] - a[k];
    // Solve [−d, e1, e2]·(t, v, w) = r by Cramer's rule.
    const auto det3 = [](const long long* x, const long long* y, const long long* z) {
      return x[0] * (y[1] * z[2] - y[2] * z[1]) - x[1] * (y[0] * z[2] - y[2] * z[0]) +
             x[2] * (y[0] * z[1] - y[1] * z[0]);
    };
    const long long nd[3] = {-d[0], -d[1], -d[2]};
    const long long den = det3(nd, e1, e2);
    if (den == 0) continue;  // parallel to the plane, or a degenerate triangle
    const long long tn = det3(r, e1, e2), vn = det3(nd, r, e2), wn = det3(nd, e1, r);
    const long long un = den - vn - wn;
    if (un == 0 || vn == 0 || wn == 0 || tn == 0) continue;  // through an edge, a vertex or the origin
    const bool sameSide = (un > 0) == (den > 0) && (vn > 0) == (den > 0) && (wn > 0) == (den > 0);
    const bool ahead = (tn > 0) == (den > 0);
    ExactRayCase k;
    for (int i = 0; i < 3; ++i) {
      k.o[i] = o[i] / 16.0, k.d[i] = d[i] / 16.0, k.a[i] = a[i] / 16.0, k.b[i] = b[i] / 16.0, k.c[i] = c[i] / 16.0;
    }
    k.hit = sameSide && ahead;
    k.t = static_cast<double>(tn) / static_cast<double>(den);  // both exact (below 2^53)
    out.push_back(k);
  }
  return out;
}

Vec3 scaledPerAxis(const Vec3& p, const int e[3]) {
  return {std::ldexp(p.x, e[0]), std::ldexp(p.y, e[1]), std::ldexp(p.z, e[2])};
}

TEST(MeshFuzzRegressions, PerAxisPowerOfTwoScalingKeepsRayTriangleAnswers) {
  const std::vector<ExactRayCase> cases = exactRayCases(3000);
  ASSERT_EQ(cases.size(), 3000u);
  const int scales[][3] = {{0, 0, 0},         {-1070, -1070, -1070}, {-1070, 0, 0},     {0, -1070, 200},
                           {200, 0, -1070},   {-1000, -600, -300},   {-1070, 200, 150}, {-310, -310, -310},
                           {-700, -1070, -2}, {150, 150, 200}};
  int hits = 0, misses = 0;
  for (const auto& e : scales) {
    for (const ExactRayCase& k : cases) {
      // Every number stays exact: sixteenths times 2^-1070 are multiples of 2^-1074.
      const Vec3 o = scaledPerAxis(k.o, e), d = scaledPerAxis(k.d, e);
      const Vec3 a = scaledPerAxis(k.a, e), b = scaledPerAxis(k.b, e), c = scaledPerAxis(k.c, e);
      ASSERT_EQ(std::ldexp(o.x, -e[0]), k.o.x);
      RayTriangleHit h;
      const bool hit = rayTriangle(ShearedRay::make(o, d), a, b, c, std::numeric_limits<double>::infinity(), &h);
      EXPECT_EQ(hit, k.hit) << "scales " << e[0] << " " << e[1] << " " << e[2] << ": o " << k.o.x << " " << k.o.y
                            << " " << k.o.z << " d " << k.d.x << " " << k.d.y << " " << k.d.z << " t " << k.t;
      if (!hit || !k.hit) {
        misses += !k.hit;
        continue;
      }
      ++hits;
      // t is a weighted mean of the corners' depths along the ray: its
      // rounding is relative to the deepest of them.
      const double depth = std::max({maxAbs(k.a - k.o), maxAbs(k.b - k.o), maxAbs(k.c - k.o)}) / maxAbs(k.d);
      EXPECT_NEAR(h.t, k.t, 1e-13 * (k.t + depth)) << "scales " << e[0] << " " << e[1] << " " << e[2];
      const Vec3& w = h.barycentric;
      EXPECT_NEAR(w.x + w.y + w.z, 1.0, 1e-13);
      EXPECT_TRUE(w.x >= 0 && w.y >= 0 && w.z >= 0);
      // maxT just below the hit misses it.
      EXPECT_FALSE(rayTriangle(ShearedRay::make(o, d), a, b, c, k.t * (1 - 1e-12), &h));
    }
  }
  EXPECT_GT(hits, 3000);
  EXPECT_GT(misses, 3000);
}

// The direction alone scaled by 2^-600 (or 2^600): t scales by 2^600 (or
// 2^-600) exactly, on a unit mesh kept in floats, and the mesh query
// equals brute force over the triangles.
TEST(MeshFuzzRegressions, ATinyOrHugeDirectionScalesT) {
  const std::vector<ExactRayCase> cases = exactRayCases(400);
  ASSERT_EQ(cases.size(), 400u);
  int hits = 0;
  for (const ExactRayCase& k : cases) {
    TriangleMesh m;
    m.vertices = {k.a, k.b, k.c};
    m.triangles = {{0, 1, 2}};
    const Shape s = build(m);
    ASSERT_TRUE(s.meshData);
    ASSERT_FALSE(s.meshData->forRays().rays.floatCorners.empty());
    for (const int g : {-600, 600}) {
      const Vec3 d = k.d * std::ldexp(1.0, g);
      const MeshRayHit q = rayCastMeshLocal(m, s.meshData->forRays(), k.o, d, std::numeric_limits<double>::infinity());
      ASSERT_EQ(q.hit, k.hit) << "g " << g;
      if (!q.hit) continue;
      ++hits;
      EXPECT_NEAR(q.t, std::ldexp(k.t, -g), 1e-13 * std::ldexp(k.t, -g));
      RayTriangleHit h;
      ASSERT_TRUE(rayTriangle(ShearedRay::make(k.o, d), k.a, k.b, k.c, std::numeric_limits<double>::infinity(), &h));
      EXPECT_EQ(q.t, h.t);
    }
  }
  EXPECT_GT(hits, 200);
}

// A direction of 2^-1030 along x only: its inverse overflows to ∞, yet the
// ray reaches the triangle in the plane x = 0, 2^-20 ahead, at t = 2^1010
// (a double), at the point (0, 0.25, 0.25): barycentric weights 1/2, 1/4,
// 1/4. The box test took the axis as parallel to its slabs and culled the
// box; the slab now grows by the ray's travel along it up to maxT.
TEST(MeshFuzzRegressions, ADirectionWhoseInverseOverflowsReachesATriangle) {
  const Vec3 origin{-0x1p-20, 0.25, 0.25}, direction{0x1p-1030, 0, 0};
  ASSERT_TRUE(std::isinf(1.0 / direction.x));
  TriangleMesh m;
  m.vertices = {{0, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  m.triangles = {{0, 1, 2}};
  const Shape s = build(m);
  ASSERT_TRUE(s.meshData);
  const double inf = std::numeric_limits<double>::infinity();
  RayTriangleHit h;
  ASSERT_TRUE(rayTriangle(ShearedRay::make(origin, direction), m.vertices[0], m.vertices[1], m.vertices[2], inf, &h));
  EXPECT_EQ(h.t, 0x1p1010);
  EXPECT_NEAR(h.barycentric.x, 0.5, 1e-15);
  EXPECT_NEAR(h.barycentric.y, 0.25, 1e-15);
  for (const MeshRayMode mode : {MeshRayMode::Closest, MeshRayMode::Any}) {
    const MeshRayHit q = rayCastMeshLocal(m, s.meshData->forRays(), origin, direction, inf, mode);
    EXPECT_TRUE(q.hit);
    EXPECT_EQ(q.t, 0x1p1010);
    EXPECT_FALSE(rayCastMeshLocal(m, s.meshData->forRays(), origin, direction, 0x1p1009, mode).hit);
  }
  // From 2^-5 ahead t would be 2^1025, beyond the doubles: no hit.
  const Vec3 far{-0x1p-5, 0.25, 0.25};
  EXPECT_FALSE(rayTriangle(ShearedRay::make(far, direction), m.vertices[0], m.vertices[1], m.vertices[2], inf, &h));
  EXPECT_FALSE(rayCastMeshLocal(m, s.meshData->forRays(), far, direction, inf).hit);
}

// A closed mesh (an octahedron of quarters) scaled per axis into the
// denormals on one or two axes: rays from around it to points of its faces hit it where the
// unscaled mesh is hit (t exact to rounding), and the tree query equals
// brute force over the triangles, bit for bit.
TEST(MeshFuzzRegressions, ADenormalMeshAgreesWithBruteForceAndItsUnitSelf) {
  TriangleMesh unit;
  unit.vertices = {{1.5, 0, 0}, {-1.25, 0, 0}, {0, 1.75, 0}, {0, -1, 0}, {0, 0, 2}, {0.25, 0, -1.5}};
  unit.triangles = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  // (Scaled on every axis into the denormals, the cross products of the
  // edges underflow and every triangle is degenerate, skipped by ray casts:
  // mesh.h. Two small axes at most, then.)
  const int scales[][3] = {{-1070, 0, 0}, {-1070, -2, 0}, {0, -1000, -1070}, {-500, -20, -1066}, {-1074 + 6, 3, -300}};
  std::uint64_t state = 7;
  const auto sixteenth = [&]() {  // a linear congruential generator: enough for ray origins
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(static_cast<long long>((state >> 33) % 129) - 64) / 16.0;
  };
  int hits = 0;
  for (const auto& e : scales) {
    TriangleMesh m = unit;
    for (Vec3& v : m.vertices) v = scaledPerAxis(v, e);
    const Shape s = build(m);
    ASSERT_TRUE(s.meshData);
    ASSERT_TRUE(s.meshData->report().degenerate.empty());
    ASSERT_TRUE(s.meshData->forRays().rays.tinyCorners);
    const Shape u = build(unit);
    for (int i = 0; i < 300; ++i) {
      const Vec3 o{sixteenth() * 2, sixteenth() * 2, sixteenth() * 2};
      const auto& tri = unit.triangles[static_cast<std::size_t>(i) % unit.triangles.size()];
      const Vec3 target = (unit.vertices[tri[0]] + unit.vertices[tri[1]] * 2.0 + unit.vertices[tri[2]]) * 0.25;
      const Vec3 d = target - o;
      if (maxAbs(d) == 0) continue;
      // An origin in a face's plane grazes the mesh (only edges touched; the
      // answer is then the shear's rounding's): left to the tests of ties.
      bool grazing = false;
      for (const auto& f : unit.triangles)
        grazing = grazing || orient3d(unit.vertices[f[0]], unit.vertices[f[1]], unit.vertices[f[2]], o) == 0;
      if (grazing) continue;
      const MeshRayHit ref = rayCastMeshLocal(unit, u.meshData->forRays(), o, d, std::numeric_limits<double>::infinity());
      ASSERT_TRUE(ref.hit) << "o " << o.x << " " << o.y << " " << o.z << " target " << target.x << " " << target.y << " " << target.z;  // the target is inside a face
      const Vec3 so = scaledPerAxis(o, e), sd = scaledPerAxis(d, e);
      // Exact: corners are quarters, origins eighths, targets and so directions sixteenths.
      ASSERT_EQ(sd.x, std::ldexp(1.0, e[0]) * d.x);
      ASSERT_EQ(std::ldexp(sd.x, -e[0]), d.x);
      const MeshRayHit q = rayCastMeshLocal(m, s.meshData->forRays(), so, sd, std::numeric_limits<double>::infinity());
      ASSERT_TRUE(q.hit) << "scales " << e[0] << " " << e[1] << " " << e[2] << " ray " << i;
      ++hits;
      EXPECT_NEAR(q.t, ref.t, 1e-13 * ref.t) << "scales " << e[0] << " " << e[1] << " " << e[2] << " ray " << i;
      // Brute force: the least (t, index) over the triangles.
      const ShearedRay ray = ShearedRay::make(so, sd);
      int best = -1;
      double bestT = 0;
      for (int t = 0; t < static_cast<int>(m.triangles.size()); ++t) {
        const auto& c = m.triangles[static_cast<std::size_t>(t)];
        RayTriangleHit h;
        if (!rayTriangle(ray, m.vertices[c[0]], m.vertices[c[1]], m.vertices[c[2]], std::numeric_limits<double>::infinity(), &h))
          continue;
        if (best < 0 || h.t < bestT) best = t, bestT = h.t;
      }
      EXPECT_EQ(q.triangle, best);
      EXPECT_EQ(q.t, bestT);
      const MeshRayHit any =
          rayCastMeshLocal(m, s.meshData->forRays(), so, sd, std::numeric_limits<double>::infinity(), MeshRayMode::Any);
      EXPECT_TRUE(any.hit);
    }
  }
  EXPECT_GT(hits, 1450);
}


// fuzz_mesh's input (campaign seed 3030, tree-misses-nearer-sliver), in the
// mesh's frame: slivers 1e6 long and 1e-7 wide, crossed by a ray near
// t = 1. Exact rational arithmetic on these doubles (the plane of each
// triangle met by the ray, then the point's side of each edge) puts the
// hits at t = 0.999999941670208 (triangle 5) and t = 1.000000000607102
// (triangle 7), and no other. rayTriangle's sums gave triangle 7 t = 0.9477
// (det, the sum of U, V, W, cancels), so brute force over the triangles
// answered it while the tree, whose box of it the ray enters near t = 1,
// rightly answered triangle 5. A hit's t is now kept inside the triangle's
// bounding box, which the exact hit point lies in.
TEST(MeshFuzzRegressions, ASliversHitIsWhereTheRayMeetsIt) {
  TriangleMesh m;
  m.vertices = {{600000, 1.2392156862745097e-07, 1.2392156862744938e-07},
                {-3.1529411764705881e-07, -3.1529411764705881e-07, -3.1528320312499996e-07},
                {-3.1529411764705881e-07, -3.152941176470578e-07, 2.7500000000000001e-07},
                {-1.0248779310568352e-07, -2.3786956223050558e-08, 3.9999999999999998e-07},
                {3.9999999994448295e-07, 6, 3.9999999999999998e-07},
                {3.9999999999999998e-07, 1000000, 1000000},
                {1000000, 9.9999999999999995e-08, -3.94357496178622e-08},
                {2, -9.9999999999999995e-08, 2.1875e-07},
                {7, -1.0198744792595428e-07, -7},
                {600000, 1.2392156862745097e-07, 1.2392156862744938e-07},
                {-2.4939812320561022e-07, -2.4591954063621867e-07, 3.5624999999999998e-07},
                {2.9999999999999999e-07, -1.019264129082348e-07, 1}};
  m.triangles = {{10, 9, 2}, {1, 0, 0}, {3, 11, 11}, {0, 1, 6}, {9, 3, 6}, {2, 9, 11},
                 {1, 6, 9},  {3, 6, 2}, {9, 11, 5}, {1, 8, 4}, {11, 7, 7}};
  const Vec3 origin{299992.99999987532, -0.5946739665753219, 6.0000002400857841};
  const Vec3 direction{7, 0.59467390557633593, -6};
  const double exact[2] = {0.999999941670208, 1.000000000607102};  // triangles 5 and 7
  const Shape s = build(m);
  ASSERT_TRUE(s.meshData);
  const ShearedRay ray = ShearedRay::make(origin, direction);
  // Each triangle alone: hits exactly 5 and 7, each where the ray meets it
  // to 1e-11 of the mesh's size 1e6 (along the ray: t·|d|), and brute force
  // over them answers triangle 5.
  const double length = std::sqrt(49 + 0.59467390557633593 * 0.59467390557633593 + 36);
  const double tolerance = 1e-11 * 1e6;
  double best = std::numeric_limits<double>::infinity();
  std::size_t nearest = m.triangles.size();
  for (std::size_t i = 0; i < m.triangles.size(); ++i) {
    const auto& tri = m.triangles[i];
    RayTriangleHit hit;
    const bool met = rayTriangle(ray, m.vertices[tri[0]], m.vertices[tri[1]], m.vertices[tri[2]],
                                 std::numeric_limits<double>::infinity(), &hit);
    EXPECT_EQ(met, i == 5 || i == 7) << "triangle " << i << " t " << hit.t;
    if (!met) continue;
    if (i == 5 || i == 7) {
      EXPECT_NEAR(hit.t * length, exact[i == 5 ? 0 : 1] * length, tolerance) << "triangle " << i;
    }
    if (hit.t < best) best = hit.t, nearest = i;
  }
  EXPECT_EQ(nearest, 5u);
  // The tree's closest hit: the same.
  const MeshRayHit q = rayCastMeshLocal(m, s.meshData->forRays(), origin, direction,
                                        std::numeric_limits<double>::infinity(), MeshRayMode::Closest);
  ASSERT_TRUE(q.hit);
  EXPECT_EQ(q.triangle, 5);
  EXPECT_NEAR(q.t * length, exact[0] * length, tolerance);
}

}  // namespace
