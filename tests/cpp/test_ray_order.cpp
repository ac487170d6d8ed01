// The coherent order of a mesh ray batch (ray_order.h): coherentRayOrder
// returns every ray once, sorted, with ties in input order, and rays close
// in the order enter the box close together (their entry points found here
// by an independent clip against the box's planes); and Registry::batch
// with the order's scratch answers the same bits as without it (which
// traces every ray in the batch's order), lastMeshHit() included.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/ray_order.h"
#include "mesh_gen.h"

namespace collidoscope {
namespace {

using meshgen::Rng;

// Where origin + t·d (t ≥ 0) first meets the axis-aligned box [-h, h] about
// c: the nearest t at which the point lies in the box on all three axes,
// found among the six face planes' crossings (and t = 0). False on a miss.
bool entryPoint(const Vec3& c, const Vec3& h, const Vec3& o, const Vec3& d, Vec3* p) {
  const double hs[3] = {h.x, h.y, h.z};
  std::vector<double> ts = {0};
  for (int a = 0; a < 3; ++a) {
    const double oa = (a == 0 ? o.x - c.x : a == 1 ? o.y - c.y : o.z - c.z);
    const double da = (a == 0 ? d.x : a == 1 ? d.y : d.z);
    if (da != 0) {
      ts.push_back((hs[a] - oa) / da);
      ts.push_back((-hs[a] - oa) / da);
    }
  }
  bool found = false;
  double best = 0;
  for (double t : ts) {
    if (t < 0) continue;
    const Vec3 q = o + d * t - c;
    const double slack = 1e-9;
    if (std::fabs(q.x) <= h.x + slack && std::fabs(q.y) <= h.y + slack && std::fabs(q.z) <= h.z + slack &&
        (!found || t < best)) {
      best = t;
      found = true;
    }
  }
  if (found) *p = o + d * best;
  return found;
}

TEST(RayOrder, APermutationSortedByKeyWhoseNeighboursEnterCloseTogether) {
  Rng rng(4242);
  Obb box;
  box.center = {0.5, -0.2, 0.1};
  box.halfExtents = {1.3, 0.4, 1.3};
  const int n = 20000;
  std::vector<double> rays;
  std::vector<Vec3> entry;
  for (int i = 0; i < n; ++i) {
    // From a sphere of radius 4 at points of the box (every ray enters it).
    const Vec3 o = box.center + rng.unit() * 4.0;
    const Vec3 target = box.center + Vec3{rng.uniform(-1.3, 1.3), rng.uniform(-0.4, 0.4), rng.uniform(-1.3, 1.3)};
    const Vec3 d = (target - o) * rng.uniform(0.5, 2);
    rays.insert(rays.end(), {o.x, o.y, o.z, d.x, d.y, d.z, 1e9});
    Vec3 p;
    ASSERT_TRUE(entryPoint(box.center, box.halfExtents, o, d, &p)) << i;
    entry.push_back(p);
  }
  std::vector<std::uint64_t> items(n), swap(n);
  coherentRayOrder(rays.data(), n, box, items.data(), swap.data());
  std::vector<int> seen(n, 0);
  for (int k = 0; k < n; ++k) {
    const std::int64_t i = rayOfItem(items[k]);
    ASSERT_GE(i, 0);
    ASSERT_LT(i, n);
    ++seen[static_cast<std::size_t>(i)];
    // Items hold the key above the index: increasing items are keys in
    // order and, among equal keys, the input order.
    if (k > 0) {
      EXPECT_LT(items[k - 1], items[k]) << k;
    }
  }
  for (int i = 0; i < n; ++i) EXPECT_EQ(seen[static_cast<std::size_t>(i)], 1) << i;
  // Steps between consecutive entry points: the input order's are about a
  // box side; a Morton order of 20 000 points on the box's surface about
  // a hundredth of that (a few long jumps between the curve's quadrants).
  double inInput = 0, inOrder = 0;
  for (int k = 1; k < n; ++k) {
    inInput += length(entry[static_cast<std::size_t>(k)] - entry[static_cast<std::size_t>(k - 1)]);
    inOrder += length(entry[static_cast<std::size_t>(rayOfItem(items[k]))] -
                      entry[static_cast<std::size_t>(rayOfItem(items[k - 1]))]);
  }
  EXPECT_LT(inOrder, inInput / 10) << inOrder << " vs " << inInput;
}

TEST(RayOrder, ABatchWithTheScratchAnswersTheBitsOfOneWithout) {
  Shape s;
  ShapeError se;
  const TriangleMesh m = meshgen::torus(256, 80, 1, 0.35);
  ASSERT_GE(m.triangles.size(), kRayOrderMinTriangles);
  ASSERT_TRUE(makeMeshShape(m, &s, &se)) << se.message;
  api::Registry reg;
  SceneError err;
  const int h = reg.add(s, &err);
  const int sphere = reg.add(Shape::sphere(0.5), &err);
  ASSERT_GE(h, 0);
  ASSERT_GE(sphere, 0);
  Rng rng(99);
  const Transform pose{rng.inCube(1), rng.rotation()};
  const int handles[2] = {h, sphere};
  const double poses[14] = {pose.position.x, pose.position.y, pose.position.z, pose.rotation.x,
                            pose.rotation.y, pose.rotation.z, pose.rotation.w, 3, 0, 0, 0, 0, 0, 1};
  // 900 rays on the torus, 10 on the sphere, 300 on the torus (each run
  // long enough to be ordered), the last one on the torus.
  std::vector<std::uint32_t> pairs;
  for (int i = 0; i < 1210; ++i) pairs.push_back(i >= 900 && i < 910 ? 1 : 0);
  const std::int64_t n = static_cast<std::int64_t>(pairs.size());
  std::vector<double> extras;
  for (std::int64_t i = 0; i < n; ++i) {
    const Vec3 c = pairs[static_cast<std::size_t>(i)] == 0 ? pose.position : Vec3{3, 0, 0};
    const Vec3 o = c + rng.unit() * 4.0;
    const Vec3 d = c + rng.inCube(1.2) - o;
    extras.insert(extras.end(), {o.x, o.y, o.z, d.x, d.y, d.z, i % 10 == 9 ? 0.5 : 1e9});
  }
  const int stride = api::kResultStride[static_cast<int>(api::Kind::Raycast)];
  std::vector<double> plain(static_cast<std::size_t>(stride * n)), ordered(plain.size());
  std::vector<int> plainF(static_cast<std::size_t>(2 * n)), orderedF(plainF.size());
  std::vector<double> plainB(static_cast<std::size_t>(3 * n)), orderedB(plainB.size());
  std::vector<std::uint64_t> scratch(static_cast<std::size_t>(2 * n));
  ASSERT_TRUE(reg.batch(api::Kind::Raycast, handles, 2, poses, pairs.data(), n, extras.data(), nullptr, plain.data(),
                        &err, plainF.data(), plainB.data()))
      << err.message;
  const MeshRayHit lastPlain = reg.lastMeshHit();
  ASSERT_TRUE(reg.batch(api::Kind::Raycast, handles, 2, poses, pairs.data(), n, extras.data(), nullptr,
                        ordered.data(), &err, orderedF.data(), orderedB.data(), scratch.data()))
      << err.message;
  const MeshRayHit& lastOrdered = reg.lastMeshHit();
  const auto sameBits = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  int hits = 0;
  for (std::size_t j = 0; j < plain.size(); ++j) EXPECT_TRUE(sameBits(plain[j], ordered[j])) << j;
  for (std::size_t j = 0; j < plainF.size(); ++j) EXPECT_EQ(plainF[j], orderedF[j]) << j;
  for (std::size_t j = 0; j < plainB.size(); ++j) EXPECT_TRUE(sameBits(plainB[j], orderedB[j])) << j;
  const int hitAt = api::offsetOf(static_cast<int>(api::Kind::Raycast), "hit");
  for (std::int64_t i = 0; i < n; ++i) hits += plain[static_cast<std::size_t>(stride * i + hitAt)] != 0;
  EXPECT_GT(hits, n / 3);
  EXPECT_LT(hits, n);
  EXPECT_EQ(lastOrdered.hit, lastPlain.hit);
  EXPECT_EQ(lastOrdered.triangle, lastPlain.triangle);
  EXPECT_TRUE(sameBits(lastOrdered.t, lastPlain.t));
}

}  // namespace
}  // namespace collidoscope
