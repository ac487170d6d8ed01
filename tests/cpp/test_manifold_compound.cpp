// manifold.h's compoundManifolds against brute force: a compound pair's
// manifolds are those of its child pairs made one by one with manifold()
// (each child posed in the world by compoundChildInWorld), points, depths
// and normals bit for bit, with ids renamed per child pair (distinct across
// child pairs, the same from step to step); the cap keeps the deepest.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "collidoscope/compound.h"
#include "collidoscope/manifold.h"
#include "collidoscope/mesh_convex.h"
#include "collidoscope/mesh_shape.h"

namespace collidoscope {
namespace {

Quat randomRotation(std::mt19937& rng) {
  std::normal_distribution<double> g;
  Quat q{g(rng), g(rng), g(rng), g(rng)};
  const double n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return {q.x / n, q.y / n, q.z / n, q.w / n};
}

// 2–5 children of mixed types around the compound's origin.
Shape randomCompound(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1), size(0.2, 0.6);
  const int n = 2 + static_cast<int>(rng() % 4);
  std::vector<Shape> children;
  for (int i = 0; i < n; ++i) {
    Shape c;
    switch (rng() % 4) {
      case 0: c = Shape::box({size(rng), size(rng), size(rng)}); break;
      case 1: c = Shape::sphere(size(rng)); break;
      case 2: c = Shape::capsule(0.5 * size(rng), size(rng)); break;
      default: c = Shape::polytope({{0, 0, 0}, {size(rng), 0, 0}, {0, size(rng), 0}, {0, 0, size(rng)}, {0.3, 0.3, 0.3}});
    }
    c.at({0.8 * u(rng), 0.8 * u(rng), 0.8 * u(rng)}, randomRotation(rng));
    children.push_back(c);
  }
  Shape s;
  ShapeError err;
  EXPECT_TRUE(makeCompoundShape(children, &s, &err)) << err.message;
  return s;
}

// Every child pair's manifold, made one by one: (child of a or −1, child of b or −1, manifold).
struct ChildManifold {
  int i, j;
  Manifold m;
};
std::vector<ChildManifold> bruteForce(const Shape& a, const Shape& b, double margin) {
  const auto pieces = [](const Shape& s) {
    std::vector<Shape> out;
    if (s.type != ShapeType::Compound) return std::vector<Shape>{s};
    for (std::size_t k = 0; k < s.compoundData->children.size(); ++k) out.push_back(compoundChildInWorld(s, k));
    return out;
  };
  const std::vector<Shape> pa = pieces(a), pb = pieces(b);
  std::vector<ChildManifold> out;
  for (std::size_t i = 0; i < pa.size(); ++i)
    for (std::size_t j = 0; j < pb.size(); ++j) {
      Manifold m;
      EXPECT_EQ(manifold(pa[i], pb[j], margin, &m), ManifoldStatus::Ok);
      if (m.count > 0)
        out.push_back({a.type == ShapeType::Compound ? static_cast<int>(i) : -1,
                       b.type == ShapeType::Compound ? static_cast<int>(j) : -1, m});
    }
  return out;
}

std::vector<Manifold> ofPair(const Shape& a, const Shape& b, double margin, int maxOut = 64, bool* truncated = nullptr) {
  std::vector<Manifold> out(static_cast<std::size_t>(std::max(maxOut, 1)));
  std::vector<MeshContact> scratch(256);
  int count = -1;
  EXPECT_EQ(compoundManifolds(a, b, margin, scratch.data(), 256, out.data(), maxOut, &count, truncated),
            ManifoldStatus::Ok);
  out.resize(static_cast<std::size_t>(count));
  return out;
}

TEST(CompoundManifolds, AreTheChildPairsManifoldsMadeOneByOne) {
  std::mt19937 rng(19);
  std::uniform_real_distribution<double> u(-1, 1);
  int compared = 0, points = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Shape a = randomCompound(rng);
    a.pose.position = {0.3 * u(rng), 0.3 * u(rng), 0.3 * u(rng)};
    a.pose.rotation = randomRotation(rng);
    Shape b;
    switch (trial % 4) {
      case 0: b = Shape::box({1.5, 0.25, 1.5}); b.pose.position = {0, -0.9, 0}; break;
      case 1: b = Shape::plane({0, 1, 0}, -0.5); break;
      case 2: b = Shape::sphere(0.7); b.pose.position = {0.8 * u(rng), 0.8 * u(rng), 0.8 * u(rng)}; break;
      default: b = randomCompound(rng); b.pose.position = {u(rng), u(rng), u(rng)}; b.pose.rotation = randomRotation(rng);
    }
    const double margin = trial % 3 == 0 ? 0.05 : 0;
    // Either order: the compound as A, then as B.
    for (int order = 0; order < 2; ++order) {
      const Shape& first = order == 0 ? a : b;
      const Shape& second = order == 0 ? b : a;
      const std::vector<ChildManifold> expected = bruteForce(first, second, margin);
      const std::vector<Manifold> got = ofPair(first, second, margin);
      ASSERT_EQ(got.size(), expected.size()) << "trial " << trial << " order " << order;
      std::set<std::uint32_t> ids;
      for (std::size_t k = 0; k < got.size(); ++k) {
        const Manifold& g = got[k];
        const Manifold& e = expected[k].m;
        ASSERT_EQ(g.count, e.count);
        EXPECT_EQ(g.normal.x, e.normal.x);
        EXPECT_EQ(g.normal.y, e.normal.y);
        EXPECT_EQ(g.normal.z, e.normal.z);
        for (int p = 0; p < g.count; ++p) {
          EXPECT_EQ(g.points[p].distance, e.points[p].distance);
          EXPECT_EQ(g.points[p].pointA.x, e.points[p].pointA.x);
          EXPECT_EQ(g.points[p].pointB.y, e.points[p].pointB.y);
          ids.insert(g.points[p].id);
          ++points;
        }
        ++compared;
      }
      // Ids are distinct across the pair's points (up to the 2⁻³² of the hash).
      std::size_t total = 0;
      for (const Manifold& g : got) total += static_cast<std::size_t>(g.count);
      EXPECT_EQ(ids.size(), total) << "trial " << trial;
    }
  }
  std::printf("compound manifolds: %d child manifolds, %d points compared\n", compared, points);
  EXPECT_GT(compared, 300);
}

TEST(CompoundManifolds, IdsPersistWhileTheCompoundShiftsALittle) {
  // An L of two boxes lying on a floor box: moved by 1e-4 sideways, the same
  // features touch, and the ids (child index included) stay.
  Shape l;
  ShapeError err;
  ASSERT_TRUE(makeCompoundShape({Shape::box({1, 0.25, 0.25}).at({0, 0.25, 0}), Shape::box({0.25, 0.5, 0.25}).at({0.75, 1, 0})},
                                &l, &err))
      << err.message;
  const Shape floor = Shape::box({5, 0.5, 5}).at({0, -0.5, 0});
  l.pose.position = {0, -0.01, 0};
  const std::vector<Manifold> before = ofPair(l, floor, 0.02);
  l.pose.position = {1e-4, -0.01, 0};
  const std::vector<Manifold> after = ofPair(l, floor, 0.02);
  ASSERT_EQ(before.size(), 1u);  // the upright box is 0.25 above the floor
  ASSERT_EQ(after.size(), before.size());
  ASSERT_EQ(before[0].count, 4);
  std::multiset<std::uint32_t> a, b;
  for (int p = 0; p < 4; ++p) a.insert(before[0].points[p].id), b.insert(after[0].points[p].id);
  EXPECT_EQ(a, b);
  // Child 0 against the floor is not the plain pair's ids: the child index is in them.
  Manifold plain;
  ASSERT_EQ(manifold(compoundChildInWorld(l, 0), floor, 0.02, &plain), ManifoldStatus::Ok);
  for (int p = 0; p < plain.count; ++p) EXPECT_EQ(a.count(plain.points[p].id), 0u);
}

TEST(CompoundManifolds, AgainstAMeshAreEachChildsMeshManifold) {
  // A compound sunk a little into a mesh floor (two triangles): each child's
  // manifold is meshManifold of that child and the mesh, in either order.
  TriangleMesh tm;
  tm.vertices = {{-5, 0, -5}, {5, 0, -5}, {5, 0, 5}, {-5, 0, 5}};
  tm.triangles = {{0, 2, 1}, {0, 3, 2}};
  Shape mesh;
  ShapeError err;
  ASSERT_TRUE(makeMeshShape(tm, &mesh, &err)) << err.message;
  std::mt19937 rng(11);
  std::vector<MeshContact> scratch(256);
  int compared = 0;
  for (int trial = 0; trial < 40; ++trial) {
    Shape c = randomCompound(rng);
    c.pose.rotation = randomRotation(rng);
    c.pose.position = {0, 0.4, 0};
    for (int order = 0; order < 2; ++order) {
      const Shape& a = order == 0 ? c : mesh;
      const Shape& b = order == 0 ? mesh : c;
      const std::vector<Manifold> got = ofPair(a, b, 0.01);
      std::vector<Manifold> expected;
      for (std::size_t k = 0; k < c.compoundData->children.size(); ++k) {
        const Shape child = compoundChildInWorld(c, k);
        Manifold m;
        ASSERT_EQ(order == 0 ? meshManifold(child, mesh, 0.01, scratch.data(), 256, &m)
                             : meshManifold(mesh, child, 0.01, scratch.data(), 256, &m),
                  ManifoldStatus::Ok);
        if (m.count > 0) expected.push_back(m);
      }
      ASSERT_EQ(got.size(), expected.size());
      for (std::size_t k = 0; k < got.size(); ++k) {
        ASSERT_EQ(got[k].count, expected[k].count);
        EXPECT_EQ(got[k].normal.y, expected[k].normal.y);
        for (int p = 0; p < got[k].count; ++p) {
          EXPECT_EQ(got[k].points[p].distance, expected[k].points[p].distance);
          EXPECT_EQ(got[k].points[p].triangle, expected[k].points[p].triangle);
        }
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 40);
}

TEST(CompoundManifolds, CapKeepsTheDeepestAndSaysSo) {
  std::mt19937 rng(5);
  Shape a = randomCompound(rng), b = randomCompound(rng);
  b.pose.position = {0.1, 0.05, 0};
  const std::vector<Manifold> all = ofPair(a, b, 0);
  ASSERT_GE(all.size(), 3u);
  bool truncated = false;
  const std::vector<Manifold> two = ofPair(a, b, 0, 2, &truncated);
  EXPECT_TRUE(truncated);
  ASSERT_EQ(two.size(), 2u);
  // The two kept are the two whose deepest points are deepest.
  std::vector<double> depths;
  for (const Manifold& m : all) depths.push_back(m.points[0].distance);
  std::sort(depths.begin(), depths.end());
  std::vector<double> kept{two[0].points[0].distance, two[1].points[0].distance};
  std::sort(kept.begin(), kept.end());
  EXPECT_EQ(kept[0], depths[0]);
  EXPECT_EQ(kept[1], depths[1]);
}

TEST(CompoundManifolds, RefusesPairsWithoutACompoundAndBadMargins) {
  const Shape box = Shape::box({1, 1, 1});
  Manifold out[2];
  int count = 7;
  EXPECT_EQ(compoundManifolds(box, box, 0, nullptr, 0, out, 2, &count), ManifoldStatus::Unsupported);
  EXPECT_EQ(count, 0);
  Shape c;
  ShapeError err;
  ASSERT_TRUE(makeCompoundShape({Shape::box({0.5, 0.5, 0.5})}, &c, &err));
  EXPECT_EQ(compoundManifolds(c, box, -1, nullptr, 0, out, 2, &count), ManifoldStatus::InvalidMargin);
  EXPECT_EQ(compoundManifolds(c, box, std::nan(""), nullptr, 0, out, 2, &count), ManifoldStatus::InvalidMargin);
}

}  // namespace
}  // namespace collidoscope
