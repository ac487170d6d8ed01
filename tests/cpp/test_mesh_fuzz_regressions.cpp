// Regression tests for what fuzz_mesh (tests/fuzz/fuzz_mesh.cpp) found in
// the mesh code, each from the failing input and checked against closed
// forms.
//
//   * The OBB tree's Morton order scaled centroid offsets by 1023/extent:
//     for centroids a denormal apart that is ∞, and 0·∞ a NaN cast to an
//     integer (undefined behaviour; UBSan aborts). Fixed in obbtree.cpp
//     (spatialOrder divides the offset by the extent first).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "collidoscope/mesh.h"
#include "collidoscope/mesh_convex.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/mesh_shape.h"

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

}  // namespace
