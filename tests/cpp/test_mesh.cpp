// Triangle meshes (mesh.h), their OBB trees (obbtree.h) and ray casts on
// them (mesh_raycast.h).
//
// References are independent of the code under test:
//   * validation: hand-made bad meshes, each naming one field;
//   * the tree: its invariants checked node by node (ranges, containment of
//     every vertex of a node's triangles in its box, depth bound);
//   * the ray–triangle test: rays built towards points of known barycentric
//     coordinates (hit, t = 1, the same coordinates) or outside the triangle
//     (miss); rays through exactly representable edge and vertex points of a
//     flat grid (every triangle on the edge or around the vertex is hit);
//   * the mesh query: brute force over every triangle (minimum of (t, index)
//     over the triangles the ray hits), on random soups, a closed icosphere
//     and torus, slivers, coplanar stacks and unwelded meshes; thousands of
//     rays, aimed at centroids, edges and vertices, and grazing ones;
//   * watertightness: every ray from inside a closed mesh hits it.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include "collidoscope/mesh.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/obbtree.h"
#include "mesh_gen.h"

namespace {

using namespace collidoscope;
using Tri = std::array<int, 3>;
using namespace meshgen;
constexpr double kInf = std::numeric_limits<double>::infinity();

ObbTree build(const TriangleMesh& m, int leaf = kObbTreeLeafTriangles) {
  ObbTree tree;
  ShapeError err;
  ObbTreeSettings s;
  s.leafTriangles = leaf;
  EXPECT_TRUE(buildObbTree(m, s, &tree, &err)) << err.field << ": " << err.message;
  return tree;
}

// --------------------------------------------------------- brute force
struct Brute {
  bool hit = false;
  double t = 0;
  int triangle = -1;
  int hits = 0;  // triangles hit (any t in range)
};

Brute bruteForce(const TriangleMesh& m, const Vec3& o, const Vec3& d, double maxT) {
  Brute b;
  const ShearedRay ray = ShearedRay::make(o, d);
  for (int i = 0; i < static_cast<int>(m.triangles.size()); ++i) {
    const Tri& t = m.triangles[i];
    const Vec3 &a = m.vertices[t[0]], &bb = m.vertices[t[1]], &c = m.vertices[t[2]];
    if (!(maxAbs(triangleUnitNormal(a, bb, c)) > 0)) continue;
    RayTriangleHit h;
    if (!rayTriangle(ray, a, bb, c, maxT, &h)) continue;
    ++b.hits;
    if (!b.hit || h.t < b.t || (h.t == b.t && i < b.triangle)) {
      b.hit = true;
      b.t = h.t;
      b.triangle = i;
    }
  }
  return b;
}

// Compares the tree's closest and any hit with brute force on one ray.
// Returns false (with a gtest failure) on a mismatch.
bool agrees(const TriangleMesh& m, const ObbTree& tree, const Vec3& o, const Vec3& d, double maxT) {
  const Brute b = bruteForce(m, o, d, maxT);
  const MeshRayHit h = rayCastMeshLocal(m, tree, o, d, maxT);
  const MeshRayHit any = rayCastMeshLocal(m, tree, o, d, maxT, MeshRayMode::Any);
  EXPECT_EQ(h.status, MeshRayStatus::Converged);
  EXPECT_EQ(h.hit, b.hit) << "o " << o.x << " " << o.y << " " << o.z << " d " << d.x << " " << d.y << " " << d.z;
  EXPECT_EQ(any.hit, h.hit);
  if (h.hit != b.hit || any.hit != h.hit) return false;
  if (!h.hit) return true;
  EXPECT_EQ(h.triangle, b.triangle);
  EXPECT_EQ(h.t, b.t);
  if (h.triangle != b.triangle || h.t != b.t) return false;
  // Any hit: a real hit of its triangle within maxT.
  const Tri& at = m.triangles[any.triangle];
  RayTriangleHit ah;
  EXPECT_TRUE(rayTriangle(ShearedRay::make(o, d), m.vertices[at[0]], m.vertices[at[1]], m.vertices[at[2]], maxT, &ah));
  EXPECT_EQ(ah.t, any.t);
  // The result's fields: barycentric sums to 1 and is ≥ 0; the point is on
  // the ray (within rounding of the scale) and equals the weighted vertices.
  const Tri& t = m.triangles[h.triangle];
  const Vec3 w = h.barycentric;
  EXPECT_GE(w.x, 0);
  EXPECT_GE(w.y, 0);
  EXPECT_GE(w.z, 0);
  EXPECT_NEAR(w.x + w.y + w.z, 1.0, 1e-12);
  const Vec3 p = m.vertices[t[0]] * w.x + m.vertices[t[1]] * w.y + m.vertices[t[2]] * w.z;
  EXPECT_EQ(p, h.point);
  const Vec3 n = triangleUnitNormal(m.vertices[t[0]], m.vertices[t[1]], m.vertices[t[2]]);
  EXPECT_EQ(n, h.normal);
  return true;
}

// Rays of several kinds against m: random, aimed at centroids, at edge
// midpoints, at vertices, grazing (nearly in a triangle's plane), with and
// without maxT. Returns the number of hits (so callers can check coverage).
int checkRays(const TriangleMesh& m, const ObbTree& tree, Rng& rng, int count) {
  const double s = meshScale(m);
  int hits = 0;
  for (int i = 0; i < count; ++i) {
    const Tri& t = m.triangles[rng.integer(static_cast<int>(m.triangles.size()))];
    const Vec3 a = m.vertices[t[0]], b = m.vertices[t[1]], c = m.vertices[t[2]];
    Vec3 target;
    switch (i % 5) {
      case 0: target = rng.inCube(s); break;
      case 1: target = (a + b + c) / 3.0; break;
      case 2: target = (a + b) * 0.5; break;
      case 3: target = a; break;
      default: target = a + (b - a) * rng.uniform() + (c - a) * (0.5 * rng.uniform()); break;
    }
    Vec3 o;
    if (i % 5 == 4) {
      // Grazing: start in the triangle's plane (nearly) far to the side.
      const Vec3 n = normalizedOr(cross(b - a, c - a), Vec3{0, 0, 1});
      const Vec3 along = normalizedOr(b - a, Vec3{1, 0, 0});
      o = target + along * (3 * s) + n * (s * 1e-7 * rng.uniform(-1, 1));
    } else {
      o = rng.unit() * (3 * s);
    }
    const Vec3 d = (target - o) * rng.uniform(0.2, 3.0);
    const double maxT = i % 3 == 0 ? rng.uniform(0, 1.5) * length(target - o) / length(d) : kInf;
    if (!agrees(m, tree, o, d, maxT)) return -1;
    if (bruteForce(m, o, d, maxT).hit) ++hits;
  }
  return hits;
}

// ================================================================ tests

TEST(MeshValidation, NamesTheField) {
  TriangleMesh ok;
  ok.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  ok.triangles = {{0, 1, 2}};
  ShapeError err;
  EXPECT_TRUE(validateMesh(ok, &err, nullptr));

  struct Case {
    TriangleMesh m;
    const char* field;
    const char* words;
  };
  std::vector<Case> cases;
  {
    TriangleMesh m = ok;
    m.vertices.clear();
    cases.push_back({m, "vertices", "at least 1 vertex"});
  }
  {
    TriangleMesh m = ok;
    m.triangles.clear();
    cases.push_back({m, "triangles", "at least 1 triangle"});
  }
  {
    TriangleMesh m = ok;
    m.vertices[1].y = std::nan("");
    cases.push_back({m, "vertices[1][1]", "finite"});
  }
  {
    TriangleMesh m = ok;
    m.vertices[2].z = -kInf;
    cases.push_back({m, "vertices[2][2]", "finite"});
  }
  {
    TriangleMesh m = ok;
    m.vertices[0].x = 2e15;
    cases.push_back({m, "vertices[0][0]", "1e15"});
  }
  {
    TriangleMesh m = ok;
    m.triangles.push_back({0, 3, 1});
    cases.push_back({m, "triangles[1][1]", "out of range (the mesh has 3 vertices)"});
  }
  {
    TriangleMesh m = ok;
    m.triangles.push_back({0, 1, -1});
    cases.push_back({m, "triangles[1][2]", "negative"});
  }
  for (const Case& c : cases) {
    ShapeError e;
    EXPECT_FALSE(validateMesh(c.m, &e, nullptr)) << c.field;
    EXPECT_EQ(e.field, c.field);
    EXPECT_NE(e.message.find(c.words), std::string::npos) << e.message;
    // The tree refuses the same mesh with the same error, and stays empty.
    ObbTree tree;
    ShapeError te;
    EXPECT_FALSE(buildObbTree(c.m, ObbTreeSettings{}, &tree, &te));
    EXPECT_EQ(te.field, c.field);
    EXPECT_TRUE(tree.nodes.empty());
  }
}

TEST(MeshValidation, TooManyTrianglesIsAClearError) {
  TriangleMesh m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.triangles.assign(kMaxMeshTriangles + 1, Tri{0, 1, 2});
  ShapeError err;
  EXPECT_FALSE(validateMesh(m, &err, nullptr));
  EXPECT_EQ(err.field, "triangles");
  EXPECT_NE(err.message.find("at most 2000000 triangles, got 2000001"), std::string::npos) << err.message;
  TriangleMesh v;
  v.vertices.assign(kMaxMeshVertices + 1, Vec3{});
  v.triangles = {{0, 1, 2}};
  EXPECT_FALSE(validateMesh(v, &err, nullptr));
  EXPECT_EQ(err.field, "vertices");
}

TEST(MeshValidation, LeafSizeSettingIsChecked) {
  const TriangleMesh m = grid(2);
  for (int bad : {0, -3, kObbTreeMaxLeafTriangles + 1}) {
    ObbTree tree;
    ShapeError err;
    ObbTreeSettings s;
    s.leafTriangles = bad;
    EXPECT_FALSE(buildObbTree(m, s, &tree, &err));
    EXPECT_EQ(err.field, "leafTriangles");
  }
}

TEST(MeshValidation, DuplicatesOfALargeMeshMatchBruteForce) {
  // Large enough that the report searches its triangles in many hash
  // groups: copies (rotated, reversed, through copied vertices) of earlier
  // triangles (copies among them) at random, the reference from an ordered
  // map of each triangle's sorted positions.
  Rng rng(41);
  TriangleMesh m = randomSoup(rng, 30000, 1, 0.05);
  for (int k = 0; k < 6000; ++k) {
    Tri t = m.triangles[rng.integer(static_cast<int>(m.triangles.size()))];
    std::rotate(t.begin(), t.begin() + rng.integer(3), t.end());
    if (rng.integer(2)) std::swap(t[0], t[1]);
    if (k % 3 == 0)
      for (int& v : t) {
        const Vec3 p = m.vertices[v];
        m.vertices.push_back(p);
        v = static_cast<int>(m.vertices.size()) - 1;
      }
    m.triangles.push_back(t);
  }
  std::map<std::array<double, 9>, int> first;
  std::vector<std::array<int, 2>> expected;
  for (int t = 0; t < static_cast<int>(m.triangles.size()); ++t) {
    std::array<std::array<double, 3>, 3> p;
    for (int i = 0; i < 3; ++i) {
      const Vec3& v = m.vertices[m.triangles[t][i]];
      p[i] = {v.x + 0.0, v.y + 0.0, v.z + 0.0};
    }
    std::sort(p.begin(), p.end());
    std::array<double, 9> key;
    for (int i = 0; i < 9; ++i) key[i] = p[i / 3][i % 3];
    const auto found = first.find(key);
    if (found == first.end()) first.emplace(key, t);
    else expected.push_back({t, found->second});
  }
  ASSERT_GE(expected.size(), 6000u);
  ShapeError err;
  MeshReport report;
  ASSERT_TRUE(validateMesh(m, &err, &report));
  EXPECT_EQ(report.duplicates, expected);
}

TEST(MeshValidation, ReportsDegenerateAndDuplicateTriangles) {
  TriangleMesh m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {2, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  m.triangles = {
      {0, 1, 2},  // 0: fine
      {0, 1, 3},  // 1: collinear (zero area)
      {4, 5, 6},  // 2: same positions as 0 through other (duplicated) vertices
      {2, 1, 0},  // 3: same as 0, reversed
      {0, 0, 7},  // 4: repeated index (zero area)
      {0, 1, 7},  // 5: fine
      {5, 7, 4},  // 6: same positions as 5, rotated
  };
  ShapeError err;
  MeshReport report;
  ASSERT_TRUE(validateMesh(m, &err, &report));
  EXPECT_EQ(report.degenerate, (std::vector<int>{1, 4}));
  const std::vector<std::array<int, 2>> dup = {{2, 0}, {3, 0}, {6, 5}};
  EXPECT_EQ(report.duplicates, dup);
  // Degenerate triangles have no normal; the others a unit one.
  EXPECT_EQ(triangleUnitNormal(m.vertices[0], m.vertices[1], m.vertices[3]), Vec3{});
  EXPECT_EQ(triangleUnitNormal(m.vertices[0], m.vertices[1], m.vertices[2]), (Vec3{0, 0, 1}));
  EXPECT_EQ(triangleUnitNormal(m.vertices[2], m.vertices[1], m.vertices[0]), (Vec3{0, 0, -1}));
}

TEST(MeshValidation, NearlyCollinearButNotDegenerate) {
  // Area 0.5e-300 · scale: exact predicates see it is not collinear, and the
  // normal is still computable (the cross product does not underflow).
  const Vec3 a{0, 0, 0}, b{1, 0, 0}, c{0.5, 1e-150, 0};
  EXPECT_EQ(triangleUnitNormal(a, b, c), (Vec3{0, 0, 1}));
  // Exactly collinear with large coordinates (no rounding excuse).
  EXPECT_EQ(triangleUnitNormal({1e15, 3, 7}, {1e15 + 2, 5, 9}, {1e15 + 4, 7, 11}), Vec3{});
}

// ---------------------------------------------------------------- the tree

void checkTree(const TriangleMesh& m, const ObbTree& tree, int leaf) {
  const int n = static_cast<int>(m.triangles.size());
  ASSERT_EQ(static_cast<int>(tree.order.size()), n);
  ASSERT_FALSE(tree.nodes.empty());
  EXPECT_EQ(tree.nodes[0].first, 0);
  EXPECT_EQ(tree.nodes[0].count, n);
  std::vector<int> inLeaves(n, 0);
  const double s = meshScale(m);
  // Depth by walking: depth[child] = depth[parent] + 1.
  std::vector<int> depth(tree.nodes.size(), 0);
  depth[0] = 1;
  int maxDepth = 1;
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    const ObbTreeNode& nd = tree.nodes[i];
    ASSERT_GT(nd.count, 0);
    maxDepth = std::max(maxDepth, depth[i]);
    // The box: orthonormal axes and every vertex of the node's triangles inside.
    for (int a = 0; a < 3; ++a) {
      EXPECT_NEAR(length(nd.box.axes[a]), 1.0, 1e-12);
      EXPECT_GE(nd.box.halfExtents[a], 0);
      for (int b = a + 1; b < 3; ++b) EXPECT_NEAR(dot(nd.box.axes[a], nd.box.axes[b]), 0.0, 1e-12);
    }
    for (int k = 0; k < nd.count; ++k) {
      const Tri& t = m.triangles[tree.order[nd.first + k]];
      for (int v : t) {
        const Vec3 rel = m.vertices[v] - nd.box.center;
        for (int a = 0; a < 3; ++a)
          ASSERT_LE(std::fabs(dot(rel, nd.box.axes[a])), nd.box.halfExtents[a] + 1e-12 * s)
              << "node " << i << " vertex " << v;
      }
    }
    if (nd.leaf()) {
      EXPECT_LE(nd.count, leaf);
      EXPECT_EQ(nd.split, ObbSplit::Leaf);
      for (int k = 0; k < nd.count; ++k) ++inLeaves[tree.order[nd.first + k]];
    } else {
      EXPECT_GT(nd.count, leaf);
      const ObbTreeNode& l = tree.nodes[i + 1];
      ASSERT_GT(nd.right, static_cast<int>(i) + 1);
      ASSERT_LT(nd.right, static_cast<int>(tree.nodes.size()));
      const ObbTreeNode& r = tree.nodes[nd.right];
      // The children split the parent's range, both non-empty.
      EXPECT_EQ(l.first, nd.first);
      EXPECT_EQ(r.first, nd.first + l.count);
      EXPECT_EQ(l.count + r.count, nd.count);
      EXPECT_GT(l.count, 0);
      EXPECT_GT(r.count, 0);
      // The split: along the box's longest axis; left centroids on the low
      // side of the plane, right ones on the high side.
      ASSERT_LT(nd.splitAxis, 3);
      for (int a = 0; a < 3; ++a) EXPECT_LE(nd.box.halfExtents[a], nd.box.halfExtents[nd.splitAxis]);
      const Vec3 axis = nd.box.axes[nd.splitAxis];
      auto side = [&](const ObbTreeNode& c, double sign) {
        for (int k = 0; k < c.count; ++k) {
          const Tri& t = m.triangles[tree.order[c.first + k]];
          const Vec3 centroid = (m.vertices[t[0]] + m.vertices[t[1]] + m.vertices[t[2]]) / 3.0;
          EXPECT_LE(sign * (dot(centroid, axis) - nd.splitValue), 1e-12 * s) << "node " << i;
        }
      };
      side(l, 1);
      side(r, -1);
      depth[i + 1] = depth[nd.right] = depth[i] + 1;
    }
  }
  for (int t = 0; t < n; ++t) EXPECT_EQ(inLeaves[t], 1) << "triangle " << t;
  EXPECT_EQ(tree.depth, maxDepth);
  EXPECT_LE(tree.depth, kObbTreeMaxDepth);
}

TEST(ObbTree, InvariantsOnManyMeshes) {
  Rng rng(18);
  std::vector<TriangleMesh> meshes = {icosphere(2), torus(24, 12, 2, 0.5), grid(9), unweld(icosphere(1)),
                                      randomSoup(rng, 300, 5, 1), randomSoup(rng, 1, 1, 1)};
  for (int leaf : {1, 3, 8})
    for (const TriangleMesh& m : meshes) {
      const ObbTree tree = build(m, leaf);
      checkTree(m, tree, leaf);
    }
}

TEST(ObbTree, NodeAxesAreTheSurfaceCovarianceAxesOfObbH) {
  // Every node of two triangles or more: its axes are the eigenvectors of
  // obb.h's triangleCovariance over the node's triangles (obb.h integrates
  // each triangle about the mean; the tree sums per-triangle moments), where
  // the eigenvalues are apart enough to define them.
  Rng rng(12);
  const TriangleMesh m = randomSoup(rng, 600, 4, 1.5);
  const ObbTree tree = build(m, 1);
  int compared = 0;
  for (const ObbTreeNode& n : tree.nodes) {
    if (n.count < 2) continue;
    std::vector<Vec3> verts;
    std::vector<Tri> tris;
    for (int k = 0; k < n.count; ++k) {
      const Tri& t = m.triangles[tree.order[n.first + k]];
      const int base = static_cast<int>(verts.size());
      for (int v : t) verts.push_back(m.vertices[v]);
      tris.push_back({base, base + 1, base + 2});
    }
    const Covariance c = triangleCovariance(verts, tris);
    const SymmetricEigen e = symmetricEigen(c.m);
    const double top = e.values[0];
    if (e.values[0] - e.values[1] < 1e-4 * top || e.values[1] - e.values[2] < 1e-4 * top) continue;
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(std::fabs(dot(n.box.axes[a], e.vectors[a])), 1.0, 1e-9);
    ++compared;
  }
  EXPECT_GT(compared, 300);
}

TEST(ObbTree, OneTriangleLeavesAreTheTightestBox) {
  // Any rectangle around a triangle has at least twice its area; the leaf
  // box reaches it and is flat.
  Rng rng(11);
  const TriangleMesh m = randomSoup(rng, 400, 3, 1);
  const ObbTree tree = build(m, 1);
  int leaves = 0;
  for (const ObbTreeNode& n : tree.nodes) {
    if (!n.leaf()) continue;
    const Tri& t = m.triangles[tree.order[n.first]];
    const double area = 0.5 * length(cross(m.vertices[t[1]] - m.vertices[t[0]], m.vertices[t[2]] - m.vertices[t[0]]));
    double sides[3] = {n.box.halfExtents.x, n.box.halfExtents.y, n.box.halfExtents.z};
    std::sort(sides, sides + 3);
    const double rect = 4 * sides[1] * sides[2];
    EXPECT_LE(sides[0], 1e-12 * 4);
    EXPECT_NEAR(rect, 2 * area, 1e-12 * (1 + area)) << "leaf of triangle " << tree.order[n.first];
    ++leaves;
  }
  EXPECT_EQ(leaves, 400);
}

TEST(ObbTree, BalancedMeshesGiveLogarithmicDepth) {
  const TriangleMesh m = icosphere(4);  // 5120 triangles
  const ObbTree tree = build(m);
  checkTree(m, tree, 1);
  // ⌈log2 5120⌉ = 13 levels below the root for a perfectly balanced tree.
  EXPECT_LE(tree.depth, 2 * 14);
  EXPECT_GE(tree.depth, 14);
}

TEST(ObbTree, DepthCapHoldsOnExponentialSpacing) {
  // Triangles at x = 2^i: the mean of the centroids always lies beyond all
  // but the last one, so mean splits would peel one triangle per level
  // (depth n). The cap switches to median splits in time.
  TriangleMesh m;
  for (int i = 0; i < 300; ++i) {
    const double x = std::ldexp(1.0, i / 6);  // up to 2^49
    const double dx = 0.1 * (1 + i % 6);
    const int base = static_cast<int>(m.vertices.size());
    m.vertices.push_back({x + dx, 0, 0});
    m.vertices.push_back({x + dx, 1, 0});
    m.vertices.push_back({x + dx, 0, 1});
    m.triangles.push_back({base, base + 1, base + 2});
  }
  const ObbTree tree = build(m);
  checkTree(m, tree, 1);
  EXPECT_LE(tree.depth, kObbTreeMaxDepth);
  int medians = 0;
  for (const ObbTreeNode& n : tree.nodes) medians += n.split == ObbSplit::Median ? 1 : 0;
  EXPECT_GT(medians, 0);
}

TEST(ObbTree, IdenticalCentroidsFallBackToMedian) {
  // Every triangle is the same one: no mean split separates them.
  TriangleMesh m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.triangles.assign(37, Tri{0, 1, 2});
  const ObbTree tree = build(m);
  checkTree(m, tree, 1);
  EXPECT_EQ(tree.nodes[0].split, ObbSplit::Median);
  EXPECT_EQ(tree.depth, 7);  // L(37) = 1 + L(19) = … = 7
}

TEST(ObbTree, DeterministicBuild) {
  Rng rng(5);
  const TriangleMesh m = randomSoup(rng, 500, 3, 0.5);
  const ObbTree a = build(m), b = build(m);
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  EXPECT_EQ(a.order, b.order);
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    EXPECT_EQ(a.nodes[i].box.center, b.nodes[i].box.center);
    EXPECT_EQ(a.nodes[i].box.halfExtents, b.nodes[i].box.halfExtents);
  }
}

// ------------------------------------------------------ ray–triangle test

TEST(RayTriangle, KnownBarycentricCoordinates) {
  Rng rng(3);
  int hits = 0, misses = 0;
  for (int i = 0; i < 4000; ++i) {
    const Vec3 a = rng.inCube(2), b = rng.inCube(2), c = rng.inCube(2);
    const Vec3 n = cross(b - a, c - a);
    if (length(n) < 0.1) continue;  // well-shaped triangles only here
    double w0 = rng.uniform(-0.3, 1), w1 = rng.uniform(-0.3, 1);
    double w2 = 1 - w0 - w1;
    const Vec3 p = a * w0 + b * w1 + c * w2;
    const Vec3 o = p + rng.unit() * rng.uniform(0.5, 4);
    // Skip rays within 0.1 rad of the plane and targets within 1e-3 of an
    // edge: their hit or miss is decided by the tests further down.
    const Vec3 d = p - o;
    if (std::fabs(dot(d, n)) < 0.1 * length(d) * length(n)) continue;
    const double margin = std::min({w0, w1, w2});
    if (std::fabs(margin) < 1e-3) continue;
    RayTriangleHit h;
    const bool hit = rayTriangle(ShearedRay::make(o, d), a, b, c, kInf, &h);
    EXPECT_EQ(hit, margin > 0);
    if (!hit) {
      ++misses;
      continue;
    }
    ++hits;
    EXPECT_NEAR(h.t, 1.0, 1e-12);
    EXPECT_NEAR(h.barycentric.x, w0, 1e-12);
    EXPECT_NEAR(h.barycentric.y, w1, 1e-12);
    EXPECT_NEAR(h.barycentric.z, w2, 1e-12);
    // Two-sided: the reversed triangle is hit at the same t, weights permuted.
    RayTriangleHit r;
    ASSERT_TRUE(rayTriangle(ShearedRay::make(o, d), c, b, a, kInf, &r));
    EXPECT_NEAR(r.t, h.t, 1e-13);
    EXPECT_NEAR(r.barycentric.x, w2, 1e-12);
    // maxT below the hit: miss; exactly at it: hit.
    EXPECT_FALSE(rayTriangle(ShearedRay::make(o, d), a, b, c, h.t * (1 - 1e-12), &r));
    EXPECT_TRUE(rayTriangle(ShearedRay::make(o, d), a, b, c, h.t, &r));
    // Behind the origin: miss.
    EXPECT_FALSE(rayTriangle(ShearedRay::make(o, -d), a, b, c, kInf, &r));
  }
  EXPECT_GT(hits, 500);
  EXPECT_GT(misses, 500);
}

TEST(RayTriangle, InPlaneRayMisses) {
  RayTriangleHit h;
  const Vec3 a{0, 0, 0}, b{1, 0, 0}, c{0, 1, 0};
  EXPECT_FALSE(rayTriangle(ShearedRay::make({-1, 0.25, 0}, {1, 0, 0}), a, b, c, kInf, &h));
  EXPECT_FALSE(rayTriangle(ShearedRay::make({-1, -1, 0}, {1, 1, 0}), a, b, c, kInf, &h));
}

TEST(RayTriangle, ExactEdgesAndVerticesOfAGridHitEveryTriangleOnThem) {
  // In an axis-aligned grid seen along -z the shear is exact, so a ray
  // through an edge point lies exactly on the edge: both triangles sharing
  // the edge report the hit (one with a zero weight), and a ray through a
  // vertex hits every triangle around it.
  const int n = 6;
  const TriangleMesh m = grid(n);
  const ObbTree tree = build(m);
  const Vec3 down{0, 0, -1};
  auto hitsAt = [&](double x, double y) {
    std::vector<int> hit;
    for (int i = 0; i < static_cast<int>(m.triangles.size()); ++i) {
      const Tri& t = m.triangles[i];
      RayTriangleHit h;
      if (rayTriangle(ShearedRay::make({x, y, 2}, down), m.vertices[t[0]], m.vertices[t[1]], m.vertices[t[2]], kInf, &h)) {
        EXPECT_EQ(h.t, 2.0);
        hit.push_back(i);
      }
    }
    return hit;
  };
  auto touching = [&](double x, double y) {  // triangles whose closed area holds (x, y), by hand
    std::vector<int> out;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const double u = x - i, v = y - j;
        if (u < 0 || u > 1 || v < 0 || v > 1) continue;
        const int base = 2 * (i * n + j);
        if (v <= u) out.push_back(base);      // below the diagonal
        if (v >= u) out.push_back(base + 1);  // above it
      }
    return out;
  };
  for (double x = 0.5; x < n; x += 0.5)
    for (double y = 0.25; y < n; y += 0.25) {
      EXPECT_EQ(hitsAt(x, y), touching(x, y)) << x << " " << y;
      const MeshRayHit h = rayCastMeshLocal(m, tree, {x, y, 2}, down, kInf);
      ASSERT_TRUE(h.hit);
      EXPECT_EQ(h.triangle, touching(x, y).front());  // the smallest index among ties
    }
  // Interior vertex (3, 3): six triangles meet there.
  EXPECT_EQ(hitsAt(3, 3).size(), 6u);
}

// ------------------------------------------------ mesh query vs brute force

TEST(MeshRaycast, RandomSoupsMatchBruteForce) {
  Rng rng(1);
  for (int round = 0; round < 6; ++round) {
    const TriangleMesh m = randomSoup(rng, 50 + 150 * round, 4, round % 2 ? 0.3 : 2.0);
    for (int leaf : {1, 4}) {
      const ObbTree tree = build(m, leaf);
      const int hits = checkRays(m, tree, rng, 400);
      ASSERT_GE(hits, 0);
      EXPECT_GT(hits, 100);
    }
  }
}

TEST(MeshRaycast, ClosedMeshesMatchBruteForce) {
  Rng rng(2);
  const std::vector<TriangleMesh> meshes = {icosphere(3), torus(40, 16, 3, 1), unweld(icosphere(2))};
  for (const TriangleMesh& m : meshes) {
    const ObbTree tree = build(m);
    const int hits = checkRays(m, tree, rng, 2000);
    ASSERT_GE(hits, 0);
    EXPECT_GT(hits, 800);
  }
}

TEST(MeshRaycast, SliversCoplanarStacksAndDuplicates) {
  Rng rng(4);
  TriangleMesh m;
  // Slivers: long needles with widths down to 1e-12.
  for (int i = 0; i < 200; ++i) {
    const Vec3 a = rng.inCube(2), dir = rng.unit(), side = normalizedOr(cross(dir, rng.unit()), Vec3{0, 1, 0});
    const int base = static_cast<int>(m.vertices.size());
    m.vertices.push_back(a);
    m.vertices.push_back(a + dir * 3);
    m.vertices.push_back(a + dir * 1.5 + side * std::pow(10.0, -rng.uniform(1, 12)));
    m.triangles.push_back({base, base + 1, base + 2});
  }
  // Coplanar stack: overlapping triangles all in z = 0.5, and parallel
  // copies 1e-9 apart.
  for (int i = 0; i < 200; ++i) {
    const double z = i % 2 ? 0.5 : 0.5 + 1e-9 * (i % 7);
    const int base = static_cast<int>(m.vertices.size());
    const Vec3 c{rng.uniform(-1, 1), rng.uniform(-1, 1), z};
    m.vertices.push_back(c + Vec3{-1, -1, 0});
    m.vertices.push_back(c + Vec3{1, -0.5, 0});
    m.vertices.push_back(c + Vec3{0, 1, 0});
    m.triangles.push_back({base, base + 1, base + 2});
  }
  // Exact duplicates (repeated indices and repeated positions) and a
  // degenerate one.
  for (int i = 0; i < 50; ++i) m.triangles.push_back(m.triangles[rng.integer(400)]);
  m.triangles.push_back({0, 0, 1});
  MeshReport report;
  ShapeError err;
  ASSERT_TRUE(validateMesh(m, &err, &report));
  EXPECT_GE(report.duplicates.size(), 50u);
  EXPECT_FALSE(report.degenerate.empty());
  for (int leaf : {1, 2}) {
    const ObbTree tree = build(m, leaf);
    checkTree(m, tree, leaf);
    ASSERT_GE(checkRays(m, tree, rng, 3000), 0);
    // Straight down through the stack: many ties at equal t, smallest index wins.
    for (int i = 0; i < 300; ++i) {
      const Vec3 o{rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5), 3};
      ASSERT_TRUE(agrees(m, tree, o, {0, 0, -1}, kInf));
    }
  }
}

TEST(MeshRaycast, WatertightFromInside) {
  // Rays from inside a closed mesh must hit it: aimed at random points, at
  // vertices, and at edge midpoints, from the centre and from random
  // interior points.
  Rng rng(6);
  const std::vector<TriangleMesh> meshes = {icosphere(3), unweld(icosphere(2)), torus(32, 12, 3, 1)};
  for (std::size_t k = 0; k < meshes.size(); ++k) {
    const TriangleMesh& m = meshes[k];
    const bool isTorus = k == 2;
    const ObbTree tree = build(m);
    int rays = 0;
    for (int i = 0; i < 3000; ++i) {
      Vec3 o;
      if (isTorus) {  // inside the tube: near its centre circle
        const double u = rng.uniform(0, 2 * M_PI);
        o = Vec3{3 * std::cos(u), 0, 3 * std::sin(u)} + rng.inCube(0.3);
      } else {
        o = i % 2 ? Vec3{} : rng.inCube(0.5);
      }
      const Tri& t = m.triangles[rng.integer(static_cast<int>(m.triangles.size()))];
      Vec3 target;
      switch (i % 3) {
        case 0: target = m.vertices[t[0]]; break;
        case 1: target = (m.vertices[t[0]] + m.vertices[t[1]]) * 0.5; break;
        default: target = o + rng.unit(); break;
      }
      const MeshRayHit h = rayCastMeshLocal(m, tree, o, target - o, kInf);
      ASSERT_TRUE(h.hit) << "mesh " << k << " ray " << i;
      EXPECT_GT(h.t, 0);
      ++rays;
    }
    EXPECT_EQ(rays, 3000);
  }
}

TEST(MeshRaycast, WithAPose) {
  Rng rng(8);
  const TriangleMesh local = torus(30, 10, 2, 0.7);
  const ObbTree tree = build(local);
  int compared = 0;
  for (int p = 0; p < 20; ++p) {
    Transform pose;
    pose.position = rng.inCube(10);
    pose.rotation = rng.rotation();
    TriangleMesh world = local;
    for (Vec3& v : world.vertices) v = pose.apply(v);
    for (int i = 0; i < 100; ++i) {
      // Aim at a triangle's centroid from outside: well away from edges.
      const int ti = rng.integer(static_cast<int>(local.triangles.size()));
      const Tri& t = world.triangles[ti];
      const Vec3 target = (world.vertices[t[0]] + world.vertices[t[1]] + world.vertices[t[2]]) / 3.0;
      const Vec3 o = pose.position + rng.unit() * 8;
      const Vec3 d = target - o;
      const MeshRayHit h = rayCastMesh(local, tree, pose, o, d, kInf);
      const Brute b = bruteForce(world, o, d, kInf);
      ASSERT_TRUE(h.hit);
      ASSERT_TRUE(b.hit);
      EXPECT_NEAR(h.t, b.t, 1e-12 * (1 + b.t));
      if (h.triangle != b.triangle) continue;  // equal t within rounding: either may win
      ++compared;
      const Tri& ht = world.triangles[h.triangle];
      const Vec3 expected = o + d * b.t;
      EXPECT_NEAR(h.point.x, expected.x, 1e-11);
      EXPECT_NEAR(h.point.y, expected.y, 1e-11);
      EXPECT_NEAR(h.point.z, expected.z, 1e-11);
      const Vec3 n = triangleUnitNormal(world.vertices[ht[0]], world.vertices[ht[1]], world.vertices[ht[2]]);
      EXPECT_NEAR(dot(h.normal, n), 1.0, 1e-12);
      // The barycentric coordinates reproduce the world point too.
      const Vec3 q = world.vertices[ht[0]] * h.barycentric.x + world.vertices[ht[1]] * h.barycentric.y +
                     world.vertices[ht[2]] * h.barycentric.z;
      EXPECT_NEAR(length(q - h.point), 0.0, 1e-11);
    }
  }
  EXPECT_GT(compared, 1900);  // the same triangle but for rare ties at an edge
}

TEST(MeshRaycast, BackFaceHitKeepsTheCcwNormal) {
  TriangleMesh m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.triangles = {{0, 1, 2}};  // normal +z
  const ObbTree tree = build(m);
  const MeshRayHit front = rayCastMeshLocal(m, tree, {0.2, 0.2, 1}, {0, 0, -1}, kInf);
  const MeshRayHit back = rayCastMeshLocal(m, tree, {0.2, 0.2, -1}, {0, 0, 1}, kInf);
  ASSERT_TRUE(front.hit);
  ASSERT_TRUE(back.hit);
  EXPECT_EQ(front.normal, (Vec3{0, 0, 1}));
  EXPECT_EQ(back.normal, (Vec3{0, 0, 1}));
  EXPECT_EQ(back.t, 1.0);
  EXPECT_NEAR(back.barycentric.x, 0.6, 1e-15);
  EXPECT_NEAR(back.barycentric.y, 0.2, 1e-15);
  EXPECT_NEAR(back.barycentric.z, 0.2, 1e-15);
  EXPECT_NEAR(back.point.x, 0.2, 1e-15);
}

TEST(MeshRaycast, InvalidRaysAreRefused) {
  const TriangleMesh m = grid(2);
  const ObbTree tree = build(m);
  const double nan = std::nan("");
  const Vec3 o{0.5, 0.5, 1}, d{0, 0, -1};
  EXPECT_EQ(rayCastMeshLocal(m, tree, o, {0, 0, 0}, kInf).status, MeshRayStatus::InvalidInput);
  EXPECT_EQ(rayCastMeshLocal(m, tree, {nan, 0, 0}, d, kInf).status, MeshRayStatus::InvalidInput);
  EXPECT_EQ(rayCastMeshLocal(m, tree, o, {0, kInf, -1}, kInf).status, MeshRayStatus::InvalidInput);
  EXPECT_EQ(rayCastMeshLocal(m, tree, o, d, nan).status, MeshRayStatus::InvalidInput);
  EXPECT_EQ(rayCastMeshLocal(m, tree, o, d, -1).status, MeshRayStatus::InvalidInput);
  EXPECT_FALSE(rayCastMeshLocal(m, tree, o, d, -1).hit);
  EXPECT_EQ(rayCastMesh(m, tree, Transform{}, {nan, 0, 0}, d, kInf).status, MeshRayStatus::InvalidInput);
  // A tree built from another mesh is refused, not read out of bounds.
  const TriangleMesh other = grid(3);
  EXPECT_EQ(rayCastMeshLocal(other, tree, o, d, kInf).status, MeshRayStatus::InvalidInput);
  EXPECT_EQ(rayCastMeshLocal(m, ObbTree{}, o, d, kInf).status, MeshRayStatus::InvalidInput);
  // maxT = 0 with the origin off the surface: a valid query, no hit.
  const MeshRayHit z = rayCastMeshLocal(m, tree, o, d, 0);
  EXPECT_EQ(z.status, MeshRayStatus::Converged);
  EXPECT_FALSE(z.hit);
}

TEST(MeshRaycast, StartingInsideIsNotAHitAtZero) {
  const TriangleMesh m = icosphere(2);
  const ObbTree tree = build(m);
  const MeshRayHit h = rayCastMeshLocal(m, tree, {0, 0, 0}, {0.3, 0.4, 0.5}, kInf);
  ASSERT_TRUE(h.hit);
  // The sphere's inscribed radius bounds the exit distance from below.
  EXPECT_GT(h.t * length(Vec3{0.3, 0.4, 0.5}), 0.9);
  EXPECT_LE(h.t * length(Vec3{0.3, 0.4, 0.5}), 1.0 + 1e-12);
}

// ------------------------------------------- the ray layout (obbtree_rays.h)

// Walks the layout from its root: every child box inside its parent's (in
// floats, exactly), every corner of a leaf's triangles inside the leaf's
// box (in doubles, exactly), leaves of 1 … kRayLeafTriangles triangles,
// every non-degenerate triangle in exactly one leaf and no degenerate one
// in any, depth within the queries' stack. Returns the depth.
int checkRayLayout(const TriangleMesh& m, const ObbTree& tree) {
  const RayTree& rt = tree.rays;
  EXPECT_TRUE(rt.built);
  std::vector<int> seen(m.triangles.size(), 0);
  struct Item {
    int ref;
    const float* box;
    int depth;
  };
  std::vector<Item> todo = {{rt.root, rt.rootBox, 1}};
  std::size_t inner = 0;
  int depth = 0;
  while (!todo.empty()) {
    const Item it = todo.back();
    todo.pop_back();
    depth = std::max(depth, it.depth);
    if (rayLeaf(it.ref)) {
      const int first = rayLeafFirst(it.ref), count = rayLeafCount(it.ref);
      EXPECT_LE(first + count, static_cast<int>(rt.triangles.size()));
      EXPECT_LE(count, kRayLeafTriangles);
      if (first + count > static_cast<int>(rt.triangles.size())) return depth;
      for (int i = first; i < first + count; ++i) {
        const int t = rt.triangles[static_cast<std::size_t>(i)];
        ++seen[static_cast<std::size_t>(t)];
        for (int k = 0; k < 3; ++k) {
          const Vec3& v = m.vertices[static_cast<std::size_t>(m.triangles[static_cast<std::size_t>(t)][k])];
          // The leaf's copy of the corner is the vertex itself, bit for bit
          // (widened back from floats when the layout keeps them).
          const std::size_t at = 3 * static_cast<std::size_t>(i) + k;
          const Vec3 copy = rt.floatCorners.empty()
                                ? rt.corners[at]
                                : Vec3{rt.floatCorners[3 * at], rt.floatCorners[3 * at + 1], rt.floatCorners[3 * at + 2]};
          EXPECT_TRUE(std::memcmp(&copy, &v, sizeof(Vec3)) == 0) << "triangle " << t << " corner " << k;
          for (int a = 0; a < 3; ++a) {
            EXPECT_LE(static_cast<double>(it.box[a]), v[a]) << "triangle " << t << " axis " << a;
            EXPECT_GE(static_cast<double>(it.box[3 + a]), v[a]) << "triangle " << t << " axis " << a;
          }
        }
      }
      continue;
    }
    EXPECT_LT(it.ref, static_cast<int>(rt.nodes.size()));
    if (it.ref >= static_cast<int>(rt.nodes.size())) return depth;
    ++inner;
    const RayNode& n = rt.nodes[static_cast<std::size_t>(it.ref)];
    for (int c = 0; c < 2; ++c) {
      for (int a = 0; a < 3; ++a) {
        EXPECT_LE(it.box[a], n.box[c][a]);
        EXPECT_GE(it.box[3 + a], n.box[c][3 + a]);
      }
      todo.push_back({n.child[c], n.box[c], it.depth + 1});
    }
  }
  EXPECT_LE(depth, kObbTreeMaxDepth);
  EXPECT_EQ(inner, rt.nodes.size());  // every node reached once
  // One copy of the corners: in floats exactly when every corner is a float.
  bool allFloats = true;
  for (const int t : rt.triangles)
    for (const int v : m.triangles[static_cast<std::size_t>(t)])
      for (int a = 0; a < 3; ++a) {
        const double x = m.vertices[static_cast<std::size_t>(v)][a];
        allFloats = allFloats && static_cast<double>(static_cast<float>(x)) == x;
      }
  EXPECT_EQ(rt.floatCorners.size(), allFloats ? 9 * rt.triangles.size() : 0);
  EXPECT_EQ(rt.corners.size(), allFloats ? 0 : 3 * rt.triangles.size());
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const Tri& tri = m.triangles[t];
    const bool degenerate =
        !(maxAbs(triangleUnitNormal(m.vertices[tri[0]], m.vertices[tri[1]], m.vertices[tri[2]])) > 0);
    EXPECT_EQ(seen[t], degenerate ? 0 : 1) << "triangle " << t;
  }
  return depth;
}

TriangleMesh moved(TriangleMesh m, const Vec3& by) {
  for (Vec3& v : m.vertices) v = v + by;
  return m;
}

TriangleMesh roundedToFloats(TriangleMesh m) {
  // Through a volatile float: g++ 12 at -O2 (its SLP vectorizer) left some
  // coordinates unrounded when they were rounded in one expression.
  for (Vec3& v : m.vertices)
    for (int a = 0; a < 3; ++a) {
      volatile float f = static_cast<float>(v[a]);
      v[a] = f;
    }
  return m;
}

TEST(MeshRaycast, FloatMeshesMatchBruteForce) {
  // Meshes whose every coordinate is a float (as from a Float32Array): the
  // ray layout keeps its corners in floats, and the answers are still
  // brute force's over the mesh's doubles, bit for bit. One coordinate off
  // the float grid sends the layout back to doubles.
  Rng rng(5);
  const std::vector<TriangleMesh> meshes = {
      roundedToFloats(randomSoup(rng, 600, 4, 0.5)), roundedToFloats(torus(40, 16, 3, 1)),
      roundedToFloats(unweld(icosphere(2))), roundedToFloats(sliverSoup(rng, 300, 2)),
      roundedToFloats(moved(randomSoup(rng, 400, 2, 0.3), {1e6, -1e6, 1.5e6}))};
  for (const TriangleMesh& m : meshes) {
    const ObbTree tree = build(m);
    checkRayLayout(m, tree);
    EXPECT_EQ(tree.rays.floatCorners.size(), 9 * tree.rays.triangles.size());
    EXPECT_TRUE(tree.rays.corners.empty());
    const int hits = checkRays(m, tree, rng, 1500);
    ASSERT_GE(hits, 0);
    EXPECT_GT(hits, 300);
  }
  TriangleMesh off = meshes[0];
  off.vertices[off.triangles[7][1]].y += 0x1p-40;  // not a float any more
  const ObbTree tree = build(off);
  checkRayLayout(off, tree);
  EXPECT_TRUE(tree.rays.floatCorners.empty());
  EXPECT_EQ(tree.rays.corners.size(), 3 * tree.rays.triangles.size());
  ASSERT_GE(checkRays(off, tree, rng, 500), 0);
}

TEST(RayLayout, BoxesHoldTheirTrianglesAndChildren) {
  Rng rng(31);
  const Vec3 far{1e6, -1e6, 1.5e6};
  const std::vector<TriangleMesh> meshes = {
      randomSoup(rng, 500, 2, 0.3), sliverSoup(rng, 300, 2), coplanarStack(rng, 200, 0.5, 20),
      torus(30, 10, 1, 0.35), moved(randomSoup(rng, 400, 2, 0.3), far), moved(sliverSoup(rng, 300, 1), far),
      moved(torus(30, 10, 1, 0.35), far), grid(1)};
  for (const TriangleMesh& m : meshes)
    for (int leaf : {1, 3, 8}) {
      const ObbTree tree = build(m, leaf);
      checkRayLayout(m, tree);
    }
}

TEST(RayLayout, DepthCapHoldsOnExponentialSpacing) {
  // Triangles at x ≈ 2^(i/6) (up to 2^49, near the largest coordinate a
  // mesh takes): cuts by area peel off the farthest few, so the layout is
  // far deeper than halving would make it (10 levels for 300 triangles);
  // its depth stays within the queries' stack (checkRayLayout), and rays
  // still agree with brute force.
  TriangleMesh m;
  for (int i = 0; i < 300; ++i) {
    const double x = std::ldexp(1.0, i / 6) + 0.1 * (1 + i % 6);
    const int base = static_cast<int>(m.vertices.size());
    m.vertices.push_back({x, 0, 0});
    m.vertices.push_back({x, 1, 0});
    m.vertices.push_back({x, 0, 1});
    m.triangles.push_back({base, base + 1, base + 2});
  }
  const ObbTree tree = build(m);
  const int depth = checkRayLayout(m, tree);
  EXPECT_GT(depth, 15);
  for (int i = 0; i < 300; i += 7) {
    const double x = m.vertices[static_cast<std::size_t>(3 * i)].x;
    ASSERT_TRUE(agrees(m, tree, {0.5 * x, 0.2, 0.3}, {0.5 * x, 0.01, 0}, kInf));
    ASSERT_TRUE(agrees(m, tree, {2 * x, 0.25, 0.25}, {-1, 0, 0}, kInf));
  }
}

TEST(RayLayout, LeavesHoldAFewTriangles) {
  // One triangle is a lone leaf, and so are kRayLeafTriangles copies of
  // one triangle (no cut separates them); a larger mesh has leaves of at
  // most kRayLeafTriangles (checkRayLayout), so at least
  // n / kRayLeafTriangles − 1 inner nodes, and at most n − 1.
  Rng rng(32);
  TriangleMesh small = randomSoup(rng, 1, 1, 0.5);
  const ObbTree t0 = build(small);
  EXPECT_TRUE(t0.rays.nodes.empty());
  EXPECT_TRUE(rayLeaf(t0.rays.root));
  EXPECT_EQ(rayLeafCount(t0.rays.root), 1);
  for (int i = 1; i < kRayLeafTriangles; ++i) small.triangles.push_back(small.triangles[0]);
  const ObbTree t1 = build(small);
  EXPECT_TRUE(t1.rays.nodes.empty());
  EXPECT_TRUE(rayLeaf(t1.rays.root));
  EXPECT_EQ(rayLeafCount(t1.rays.root), kRayLeafTriangles);
  const TriangleMesh big = randomSoup(rng, 1000, 2, 0.2);
  const ObbTree t2 = build(big);
  checkRayLayout(big, t2);
  EXPECT_LE(t2.rays.nodes.size(), big.triangles.size() - 1);
  EXPECT_GE(t2.rays.nodes.size(), big.triangles.size() / kRayLeafTriangles - 1);
  // mesh.h's memory budget: under 140 bytes per triangle by the bound
  // above, about 90 in practice (here under 116: 72 of corners), whatever
  // the OBB leaves.
  auto bytesPerTriangle = [&](const ObbTree& t) {
    const RayTree& rt = t.rays;
    return static_cast<double>(rt.nodes.size() * sizeof(RayNode) + rt.triangles.size() * sizeof(int) +
                               rt.corners.size() * sizeof(Vec3) + rt.floatCorners.size() * sizeof(float)) /
           static_cast<double>(big.triangles.size());
  };
  EXPECT_LT(bytesPerTriangle(t2), 116.0);
  EXPECT_LT(bytesPerTriangle(build(big, 8)), 116.0);
}

// An axis-aligned lattice of grids in the planes x = k, y = k and z = k
// (k = 0 … 3): many layout boxes are flat, share faces, and have bounds
// at the integers the rays below start on and run along.
TriangleMesh lattice() {
  TriangleMesh m;
  const TriangleMesh g = grid(3);
  for (int axis = 0; axis < 3; ++axis)
    for (int k = 0; k <= 3; ++k) {
      const int base = static_cast<int>(m.vertices.size());
      for (const Vec3& v : g.vertices) {
        Vec3 p;
        p[axis] = k;
        p[(axis + 1) % 3] = v.x;
        p[(axis + 2) % 3] = v.y;
        m.vertices.push_back(p);
      }
      for (const Tri& t : g.triangles) m.triangles.push_back({base + t[0], base + t[1], base + t[2]});
    }
  return m;
}

TEST(MeshRaycast, AxisAlignedRaysOnFacesEdgesAndVertices) {
  const TriangleMesh base = lattice();
  for (const Vec3& shift : {Vec3{0, 0, 0}, Vec3{1e6, 1e6, -1e6}})
    for (int leaf : {1, 4}) {
      const TriangleMesh m = moved(base, shift);
      const ObbTree tree = build(m, leaf);
      checkRayLayout(m, tree);
      int rays = 0, hits = 0;
      // Origins on the lattice's integer and half-integer points (inside
      // box faces, on edges and corners), directions along ±x, ±y, ±z (zero
      // components: infinite inverses) and a few diagonals through vertices.
      const Vec3 dirs[] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1},
                           {1, 1, 0}, {0, -1, 1}, {1, 1, 1}, {-1, 2, 0.5}};
      for (int i = -1; i <= 8; ++i)
        for (int j = -1; j <= 8; ++j)
          for (int k : {-1, 0, 3, 5}) {
            const Vec3 o = shift + Vec3{0.5 * i, 0.5 * j, 0.5 * k};
            for (const Vec3& d : dirs) {
              for (double maxT : {kInf, 1.0}) {
                ASSERT_TRUE(agrees(m, tree, o, d, maxT)) << "o " << o.x << " " << o.y << " " << o.z;
                hits += bruteForce(m, o, d, maxT).hit;
                ++rays;
              }
            }
          }
      EXPECT_GT(hits, rays / 4);
      EXPECT_LT(hits, rays);
    }
}

TEST(MeshRaycast, FarFromTheOriginMatchesBruteForce) {
  Rng rng(33);
  const Vec3 far{-2e6, 1e6, 3e6};
  const std::vector<TriangleMesh> meshes = {moved(torus(40, 16, 3, 1), far),
                                            moved(randomSoup(rng, 600, 4, 0.5), far)};
  for (const TriangleMesh& m : meshes)
    for (int leaf : {1, 4}) {
      const ObbTree tree = build(m, leaf);
      // checkRays starts rays 3·(largest coordinate) away: 10⁷ here. Also
      // rays from near the mesh.
      ASSERT_GE(checkRays(m, tree, rng, 1000), 0);
      int hits = 0;
      for (int i = 0; i < 1000; ++i) {
        const Tri& t = m.triangles[static_cast<std::size_t>(rng.integer(static_cast<int>(m.triangles.size())))];
        const Vec3 target = (m.vertices[t[0]] + m.vertices[t[1]] * 2.0 + m.vertices[t[2]]) / 4.0;
        const Vec3 o = far + rng.unit() * 10.0;
        ASSERT_TRUE(agrees(m, tree, o, (target - o) * rng.uniform(0.5, 2), kInf));
        hits += bruteForce(m, o, target - o, kInf).hit;
      }
      EXPECT_EQ(hits, 1000);  // aimed at an interior point of a triangle
    }
}

TEST(MeshRaycast, TreeTestsFarFewerTrianglesThanBruteForce) {
  const TriangleMesh m = icosphere(5);  // 20480 triangles
  const ObbTree tree = build(m);
  Rng rng(9);
  long long tests = 0;
  for (int i = 0; i < 200; ++i) {
    const Vec3 o = rng.unit() * 3;
    const MeshRayHit h = rayCastMeshLocal(m, tree, o, rng.unit() * 0.5 - o * 0.3, kInf);
    tests += h.triangleTests;
  }
  EXPECT_LT(tests / 200, 200);  // a few dozen per ray, not 20480
}

}  // namespace

namespace {

// The README's example, as written there.
TEST(MeshRaycast, ReadmeExample) {
  using namespace collidoscope;
  TriangleMesh m{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}}};
  ObbTree tree;
  ShapeError err;
  ASSERT_TRUE(buildObbTree(m, ObbTreeSettings{}, &tree, &err));
  MeshRayHit h = rayCastMesh(m, tree, Transform{}, {0.2, 0.2, 1}, {0, 0, -1}, 10.0);
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.t, 1.0);
  EXPECT_EQ(h.triangle, 0);
  EXPECT_NEAR(h.barycentric.x, 0.6, 1e-15);
  EXPECT_NEAR(h.barycentric.y, 0.2, 1e-15);
  EXPECT_NEAR(h.barycentric.z, 0.2, 1e-15);
  EXPECT_EQ(h.normal, (Vec3{0, 0, 1}));
}

}  // namespace
