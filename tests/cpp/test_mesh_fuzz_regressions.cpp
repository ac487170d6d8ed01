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
#include <limits>
#include <numeric>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/mesh.h"
#include "collidoscope/mesh_convex.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/mesh_shape.h"
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
  std::vector<int> order = s.meshData->tree.order;
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
  EXPECT_EQ(s.meshData->report.degenerate.size(), 5u);
  const MeshRayHit h = rayCastMeshLocal(m, s.meshData->tree, {1e-9, 1e-9, 1}, {0, 0, -1},
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
  const MeshRayHit h = rayCastMeshLocal(m, s.meshData->tree, {0.1, 0.1, 1}, {0, 0, -1},
                                        std::numeric_limits<double>::infinity());
  ASSERT_TRUE(h.hit);
  EXPECT_NEAR(h.t, 1.0, 1e-15);
  EXPECT_NEAR(h.point.x, 0.1, 1e-15);
  EXPECT_NEAR(h.point.y, 0.1, 1e-15);
  const MeshRayHit miss = rayCastMeshLocal(m, s.meshData->tree, {5, 0.1, 1}, {0, 0, -1},
                                           std::numeric_limits<double>::infinity());
  EXPECT_FALSE(miss.hit);

  Shape ball = Shape::sphere(0.5);
  ball.pose.position = {0.1, 0.1, 2};
  const MeshDistanceResult d = meshConvexDistance(m, s.meshData->tree, Transform{}, ball);
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
    const MeshDistanceResult d = meshConvexDistance(m, s.meshData->tree, pose, box, settings);
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
  const MeshIntersectResult q = meshConvexIntersect(m, s.meshData->tree, pose, shape);
  EXPECT_EQ(q.status, MeshQueryStatus::Converged);
  EXPECT_FALSE(q.intersecting);
  const MeshDistanceResult d = meshConvexDistance(m, s.meshData->tree, pose, shape);
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
  const MeshIntersectResult q = meshConvexIntersect(m, s.meshData->tree, pose, e);
  EXPECT_EQ(q.status, MeshQueryStatus::Converged);
  EXPECT_TRUE(q.intersecting);
  const MeshDistanceResult dist = meshConvexDistance(m, s.meshData->tree, pose, e);
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

}  // namespace
