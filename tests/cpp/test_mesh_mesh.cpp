// Mesh–mesh intersection on two OBB trees (mesh_mesh.h), its trace, the
// tree's level order and the seed's bounds on the number of tests.
//
// References are independent of the code under test:
//   * brute force: trianglesIntersect on every pair of world triangles
//     (each corner mapped by its pose), written here; the query's set of
//     intersecting pairs must equal it, and its First answer must be one of
//     them — on random soups, slivers, closed icospheres and tori, open
//     grids, unwelded copies, meshes far from the origin, random poses, and
//     exactly touching configurations (a shared vertex, a shared edge,
//     coplanar overlapping faces) whose answer is also known by hand;
//   * the trace: every pair the query found apart must hold no
//     intersecting triangle pair in the brute-force contact matrix (the
//     block the seed's §8.4 says it closes);
//   * counts: the seed's invariant D − I + 2S + 2K = 1 (§8.1), and on
//     single-contact configurations the path bound 2(ℓA + ℓB) + 1 (§8.7);
//   * the bounds: the seed's formulas evaluated by hand;
//   * levels: the tree's own links (left = next node, right index).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>
#include <vector>

#include "collidoscope/mesh.h"
#include "collidoscope/mesh_mesh.h"
#include "collidoscope/obb_overlap.h"
#include "collidoscope/obbtree.h"
#include "collidoscope/triangle.h"
#include "mesh_gen.h"

namespace {

using namespace collidoscope;
using namespace meshgen;
using PairSet = std::set<std::pair<int, int>>;

ObbTree build(const TriangleMesh& m, int leaf = kObbTreeLeafTriangles) {
  ObbTree tree;
  ShapeError err;
  ObbTreeSettings s;
  s.leafTriangles = leaf;
  EXPECT_TRUE(buildObbTree(m, s, &tree, &err)) << err.field << ": " << err.message;
  return tree;
}

Transform randomPose(Rng& rng, double spread) {
  Transform p;
  p.position = rng.inCube(spread);
  p.rotation = rng.rotation();
  return p;
}

std::vector<std::array<Vec3, 3>> world(const TriangleMesh& m, const Transform& pose) {
  std::vector<std::array<Vec3, 3>> out;
  for (const auto& t : m.triangles)
    out.push_back({pose.apply(m.vertices[t[0]]), pose.apply(m.vertices[t[1]]), pose.apply(m.vertices[t[2]])});
  return out;
}

// Every pair of world triangles, exactly.
PairSet bruteForce(const TriangleMesh& a, const Transform& pa, const TriangleMesh& b, const Transform& pb) {
  const auto wa = world(a, pa), wb = world(b, pb);
  PairSet out;
  for (int i = 0; i < static_cast<int>(wa.size()); ++i)
    for (int j = 0; j < static_cast<int>(wb.size()); ++j)
      if (trianglesIntersect(wa[i][0], wa[i][1], wa[i][2], wb[j][0], wb[j][1], wb[j][2])) out.insert({i, j});
  return out;
}

struct Case {
  TriangleMesh a, b;
  Transform pa, pb;
  int leaf = kObbTreeLeafTriangles;
};

// Runs All and First on one configuration and checks them against brute
// force and the invariants. Returns the brute-force pair count.
int check(const Case& c, const char* what) {
  SCOPED_TRACE(what);
  const ObbTree ta = build(c.a, c.leaf), tb = build(c.b, c.leaf);
  const PairSet expected = bruteForce(c.a, c.pa, c.b, c.pb);

  std::vector<TrianglePair> buffer(expected.size() + 4);
  MeshMeshSettings all;
  all.mode = MeshMeshMode::All;
  all.pairs = buffer.data();
  all.pairCapacity = static_cast<int>(buffer.size());
  const MeshMeshResult r = meshesIntersect(c.a, ta, c.pa, c.b, tb, c.pb, all);
  EXPECT_EQ(r.status, MeshMeshStatus::Converged);
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.pairCount, static_cast<long long>(expected.size()));
  PairSet got;
  for (long long i = 0; i < std::min<long long>(r.pairCount, all.pairCapacity); ++i) {
    const bool fresh = got.insert({buffer[i].a, buffer[i].b}).second;
    EXPECT_TRUE(fresh) << "pair reported twice: " << buffer[i].a << ", " << buffer[i].b;
  }
  EXPECT_EQ(got, expected);
  EXPECT_EQ(r.intersecting, !expected.empty());
  if (!expected.empty()) {
    EXPECT_TRUE(expected.count({r.first.a, r.first.b}));
  }

  // Counts: every pair takes the sphere test; the box test runs on those the
  // sphere test did not reject; D + I = node pairs.
  EXPECT_EQ(r.sphereTests, r.nodePairs);
  EXPECT_EQ(r.boxTests, r.sphereTests - r.sphereApart);
  EXPECT_EQ(r.apart() + r.overlapping, r.nodePairs);
  if (c.leaf == 1) {
    // The seed's binary test-tree invariant (§8.1), S + K = triangle tests.
    EXPECT_EQ(r.apart() - r.overlapping + 2 * r.triangleTests, 1);
  }

  const MeshMeshResult f = meshesIntersect(c.a, ta, c.pa, c.b, tb, c.pb);
  EXPECT_EQ(f.status, MeshMeshStatus::Converged);
  EXPECT_EQ(f.intersecting, !expected.empty());
  EXPECT_EQ(f.pairCount, expected.empty() ? 0 : 1);
  if (f.intersecting) {
    EXPECT_TRUE(expected.count({f.first.a, f.first.b})) << f.first.a << ", " << f.first.b;
    EXPECT_LE(f.nodePairs, r.nodePairs);
  }
  return static_cast<int>(expected.size());
}

// ------------------------------------------------------------ brute force

TEST(MeshMesh, RandomSoupsMatchBruteForce) {
  Rng rng(1801);
  int configs = 0, hits = 0;
  for (int it = 0; it < 1200; ++it) {
    Case c;
    const int na = 1 + rng.integer(40), nb = 1 + rng.integer(40);
    c.a = randomSoup(rng, na, 1.0, rng.uniform(0.05, 0.6));
    c.b = randomSoup(rng, nb, 1.0, rng.uniform(0.05, 0.6));
    c.pa = randomPose(rng, 0.5);
    c.pb = randomPose(rng, 1.5);
    hits += check(c, "soup") > 0;
    ++configs;
    if (::testing::Test::HasFailure()) break;
  }
  // Both outcomes must be exercised many times.
  EXPECT_GT(hits, configs / 5);
  EXPECT_LT(hits, configs * 4 / 5 + 1);
}

TEST(MeshMesh, LargerLeavesMatchBruteForce) {
  Rng rng(1802);
  for (int it = 0; it < 200 && !::testing::Test::HasFailure(); ++it) {
    Case c;
    c.a = randomSoup(rng, 1 + rng.integer(60), 1.0, 0.3);
    c.b = randomSoup(rng, 1 + rng.integer(60), 1.0, 0.3);
    c.pa = randomPose(rng, 0.5);
    c.pb = randomPose(rng, 1.5);
    c.leaf = 1 + rng.integer(8);
    check(c, "leaf > 1");
  }
}

TEST(MeshMesh, SliversMatchBruteForce) {
  Rng rng(1803);
  int hits = 0;
  for (int it = 0; it < 400 && !::testing::Test::HasFailure(); ++it) {
    Case c;
    c.a = slivers(rng, 1 + rng.integer(40), 1.0, 0.7, it % 2 ? 1e-9 : 1e-4);
    c.b = it % 3 ? slivers(rng, 1 + rng.integer(40), 1.0, 0.7, 1e-6) : randomSoup(rng, 20, 1.0, 0.3);
    c.pa = randomPose(rng, 0.3);
    c.pb = randomPose(rng, 0.4);
    hits += check(c, "slivers") > 0;
  }
  EXPECT_GT(hits, 40);  // thin triangles rarely meet; both outcomes occur
}

TEST(MeshMesh, ClosedMeshesMatchBruteForce) {
  Rng rng(1804);
  const TriangleMesh sphere = icosphere(2);   // 320 triangles
  const TriangleMesh ring = torus(16, 8, 1.0, 0.35);  // 256 triangles
  int hits = 0, misses = 0;
  for (int it = 0; it < 120 && !::testing::Test::HasFailure(); ++it) {
    Case c;
    c.a = it % 2 ? sphere : ring;
    c.b = it % 3 ? ring : sphere;
    c.pa = randomPose(rng, 0.2);
    // Centre distances around contact (the sum of the outer radii is ~2.35).
    c.pb = randomPose(rng, 0);
    c.pb.position = c.pa.position + rng.unit() * rng.uniform(0.5, 2.6);
    (check(c, "closed") > 0 ? hits : misses)++;
  }
  EXPECT_GT(hits, 20);
  EXPECT_GT(misses, 5);
}

TEST(MeshMesh, OpenAndUnweldedMeshesMatchBruteForce) {
  Rng rng(1805);
  const TriangleMesh g = grid(6);  // open, 72 triangles in z = 0
  const TriangleMesh loose = unweld(icosphere(1));
  for (int it = 0; it < 150 && !::testing::Test::HasFailure(); ++it) {
    Case c;
    c.a = it % 2 ? g : loose;
    c.b = it % 3 ? loose : g;
    c.pa = randomPose(rng, 1.0);
    c.pb = randomPose(rng, 3.0);
    check(c, "open / unwelded");
  }
}

TEST(MeshMesh, FarFromTheOriginMatchesBruteForce) {
  Rng rng(1806);
  int hits = 0;
  for (int it = 0; it < 200 && !::testing::Test::HasFailure(); ++it) {
    Case c;
    // The meshes' own coordinates far away, and the poses farther.
    TriangleMesh a = randomSoup(rng, 1 + rng.integer(30), 1.0, 0.5);
    TriangleMesh b = randomSoup(rng, 1 + rng.integer(30), 1.0, 0.5);
    const Vec3 off{1e5, -2e5, 3e5};
    for (Vec3& v : a.vertices) v += off;
    for (Vec3& v : b.vertices) v += off;
    c.a = a;
    c.b = b;
    c.pa.position = Vec3{4e6, 1e6, -7e6};
    c.pa.rotation = rng.rotation();
    c.pb.rotation = c.pa.rotation;
    c.pb.position = c.pa.position + rng.inCube(1.5);
    hits += check(c, "far") > 0;
  }
  EXPECT_GT(hits, 20);
}

TEST(MeshMesh, DeepUnbalancedTreesMatchBruteForce) {
  // Triangles at geometrically growing distances: the mean split peels off
  // the few farthest triangles at each level, a tree deeper than balanced.
  TriangleMesh a;
  for (int i = 0; i < 300; ++i) {
    const double x = std::pow(1.2, i % 150) * (i < 150 ? 1 : -1);
    const int base = static_cast<int>(a.vertices.size());
    a.vertices.push_back({x, 0, 0});
    a.vertices.push_back({x + 0.5, 0.5, 0});
    a.vertices.push_back({x, 0.5, 0.5});
    a.triangles.push_back({base, base + 1, base + 2});
  }
  const ObbTree ta = build(a);
  EXPECT_GT(ta.depth, 12);  // a balanced tree of 300 triangles has 10 levels
  Rng rng(1807);
  for (int it = 0; it < 40 && !::testing::Test::HasFailure(); ++it) {
    Case c;
    c.a = a;
    c.b = a;
    c.pb = randomPose(rng, 0.5);
    c.pb.position.x += (it % 2 ? 1 : -1) * std::pow(1.2, rng.integer(150));
    check(c, "deep");
  }
}

TEST(MeshMesh, WorldCopiesAreFoundUnderAnyPose) {
  // B is A's world triangles as its own vertices (identity pose): each
  // triangle meets its copy exactly, in every pose of A, near or far from
  // the origin. Boxes of A's tree (rotated, far) and of B's (world-aligned
  // data) then coincide to rounding: the slack must keep every pair.
  Rng rng(1813);
  for (int it = 0; it < 150 && !::testing::Test::HasFailure(); ++it) {
    Case c;
    c.a = it % 3 == 0 ? icosphere(1) : it % 3 == 1 ? slivers(rng, 30, 1.0, 0.5, 1e-7) : randomSoup(rng, 40, 1.0, 0.3);
    c.pa = randomPose(rng, 1.0);
    c.pa.position = c.pa.position * std::pow(10.0, it % 7);
    c.b = c.a;
    for (Vec3& v : c.b.vertices) v = c.pa.apply(v);
    SCOPED_TRACE(it);
    const PairSet expected = bruteForce(c.a, c.pa, c.b, c.pb);
    for (int i = 0; i < static_cast<int>(c.a.triangles.size()); ++i) ASSERT_TRUE(expected.count({i, i}));
    check(c, "world copy");
    // Swapped roles: the far, rotated mesh as B.
    Case d;
    d.a = c.b;
    d.b = c.a;
    d.pb = c.pa;
    check(d, "world copy, swapped");
  }
}

// ------------------------------------------------------------ touching

TriangleMesh single(const Vec3& p, const Vec3& q, const Vec3& r) {
  TriangleMesh m;
  m.vertices = {p, q, r};
  m.triangles = {{0, 1, 2}};
  return m;
}

TEST(MeshMesh, SharedVertexTouches) {
  // Exact coordinates, identity poses: the triangles meet in one point only.
  Case c;
  c.a = single({0, 0, 0}, {1, 0, 0}, {0, 1, 0});
  c.b = single({0, 0, 0}, {-1, 0, 0.5}, {0, -1, -0.5});
  EXPECT_EQ(check(c, "vertex"), 1);
  // Moved 2^-50 along −x: no point in common (B's points in z = 0 have x < 0).
  c.b = single({-std::ldexp(1.0, -50), 0, 0}, {-1, 0, 0.5}, {0, -1, -0.5});
  EXPECT_EQ(check(c, "vertex apart"), 0);
}

TEST(MeshMesh, SharedEdgeTouches) {
  // Two faces of a folded strip share the edge (0,0,0)–(1,0,0); translating
  // B by an integer keeps every coordinate exact.
  Case c;
  c.a = single({0, 0, 0}, {1, 0, 0}, {0, 1, 0});
  c.b = single({2, 0, 0}, {3, 0, 0}, {2, 0, 1});
  c.pb.position = {-2, 0, 0};
  EXPECT_EQ(check(c, "edge"), 1);
  c.pb.position = {-2, -0.125, 0};  // off the edge by 1/8: apart
  EXPECT_EQ(check(c, "edge apart"), 0);
}

TEST(MeshMesh, CoplanarOverlappingFaces) {
  // Two 4 × 4 grids in z = 0, B shifted by (1/2, 1/4): coplanar overlaps.
  // A triangle of B meets a triangle of A iff their closed 2D regions share
  // a point; brute force decides, and the count must be large.
  Case c;
  c.a = grid(4);
  c.b = grid(4);
  c.pb.position = {0.5, 0.25, 0};
  EXPECT_GT(check(c, "coplanar"), 32);
  // Lifted by 1/1024 along z: parallel planes, nothing in common.
  c.pb.position = {0.5, 0.25, 1.0 / 1024};
  EXPECT_EQ(check(c, "parallel"), 0);
  // Identical grids: each triangle meets itself and its neighbours.
  c.pb.position = {0, 0, 0};
  EXPECT_GT(check(c, "identical"), 32);
}

TEST(MeshMesh, MeshTouchingItselfShiftedByAnExactVertex) {
  // An icosphere against a copy translated by 2·v₀, where v₃ = −v₀ (the
  // normalization of a negated vector is the negation): the copy's v₃ lands
  // exactly on v₀ (identity rotations add nothing). A lies in x·v₀ ≤ v₀·v₀
  // with equality only at v₀, B in x·v₀ ≥ v₀·v₀ with equality only at its
  // v₃: they share that point alone, so the contacts are the 5 × 5 pairs of
  // the triangles around the two (valence-5) vertices.
  Case c;
  c.a = icosphere(1);
  c.b = icosphere(1);
  const Vec3 top = c.a.vertices[0];
  const Vec3 far = c.a.vertices[3];
  ASSERT_EQ(far, -top);
  c.pb.position = top - far;
  EXPECT_EQ(check(c, "antipodal vertex"), 25);
}

// ------------------------------------------------------------ buffers and trace

TEST(MeshMesh, PairBufferTruncates) {
  Case c;
  c.a = grid(4);
  c.b = grid(4);
  const ObbTree ta = build(c.a), tb = build(c.b);
  const PairSet expected = bruteForce(c.a, c.pa, c.b, c.pb);
  ASSERT_GT(expected.size(), 10u);
  std::vector<TrianglePair> buffer(5);
  MeshMeshSettings s;
  s.mode = MeshMeshMode::All;
  s.pairs = buffer.data();
  s.pairCapacity = 5;
  const MeshMeshResult r = meshesIntersect(c.a, ta, c.pa, c.b, tb, c.pb, s);
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.pairCount, static_cast<long long>(expected.size()));
  for (const TrianglePair& p : buffer) EXPECT_TRUE(expected.count({p.a, p.b}));
  // Capacity 0: counts only.
  s.pairs = nullptr;
  s.pairCapacity = 0;
  const MeshMeshResult z = meshesIntersect(c.a, ta, c.pa, c.b, tb, c.pb, s);
  EXPECT_EQ(z.pairCount, r.pairCount);
  EXPECT_TRUE(z.truncated);
}

// Triangles under node n: order[first, first + count).
std::vector<int> under(const ObbTree& t, int n) {
  const ObbTreeNode& node = t.nodes[n];
  return std::vector<int>(t.order.begin() + node.first, t.order.begin() + node.first + node.count);
}

TEST(MeshMesh, TraceAgreesWithCountsAndBruteForce) {
  Rng rng(1808);
  for (int it = 0; it < 60 && !::testing::Test::HasFailure(); ++it) {
    const TriangleMesh a = randomSoup(rng, 30, 1.0, 0.4), b = randomSoup(rng, 25, 1.0, 0.4);
    const Transform pa = randomPose(rng, 0.3), pb = randomPose(rng, 1.0);
    const ObbTree ta = build(a), tb = build(b);
    const PairSet expected = bruteForce(a, pa, b, pb);
    std::vector<MeshMeshEvent> trace;
    MeshMeshSettings s;
    s.mode = MeshMeshMode::All;
    s.trace = &trace;
    const MeshMeshResult r = meshesIntersect(a, ta, pa, b, tb, pb, s);
    // The untraced query does the same work.
    MeshMeshSettings quiet;
    quiet.mode = MeshMeshMode::All;
    const MeshMeshResult q = meshesIntersect(a, ta, pa, b, tb, pb, quiet);
    EXPECT_EQ(q.nodePairs, r.nodePairs);
    EXPECT_EQ(q.pairCount, r.pairCount);
    EXPECT_FALSE(r.traceTruncated);

    long long sphere = 0, box = 0, descend = 0, leaves = 0, tris = 0, hits = 0;
    for (const MeshMeshEvent& e : trace) {
      ASSERT_GE(e.nodeA, 0);
      ASSERT_LT(e.nodeA, static_cast<int>(ta.nodes.size()));
      ASSERT_GE(e.nodeB, 0);
      ASSERT_LT(e.nodeB, static_cast<int>(tb.nodes.size()));
      switch (e.kind) {
        case MeshMeshEventKind::SphereApart:
        case MeshMeshEventKind::BoxApart: {
          (e.kind == MeshMeshEventKind::SphereApart ? sphere : box)++;
          if (e.kind == MeshMeshEventKind::BoxApart) {
            EXPECT_GE(e.axis, 0);
            EXPECT_LT(e.axis, kObbAxisCount);
          } else {
            EXPECT_EQ(e.axis, -1);
          }
          // The closed block of the contact matrix holds no contact.
          for (int i : under(ta, e.nodeA))
            for (int j : under(tb, e.nodeB)) EXPECT_FALSE(expected.count({i, j})) << i << ", " << j;
          break;
        }
        case MeshMeshEventKind::DescendA:
          ++descend;
          EXPECT_FALSE(ta.nodes[e.nodeA].leaf());
          break;
        case MeshMeshEventKind::DescendB:
          ++descend;
          EXPECT_FALSE(tb.nodes[e.nodeB].leaf());
          break;
        case MeshMeshEventKind::Leaves:
          ++leaves;
          EXPECT_TRUE(ta.nodes[e.nodeA].leaf() && tb.nodes[e.nodeB].leaf());
          break;
        case MeshMeshEventKind::Triangle:
          ++tris;
          hits += e.hit;
          EXPECT_EQ(e.hit, expected.count({e.triA, e.triB}) == 1);
          break;
      }
    }
    EXPECT_EQ(sphere, r.sphereApart);
    EXPECT_EQ(box, r.boxApart);
    EXPECT_EQ(descend + leaves, r.overlapping);
    EXPECT_EQ(tris, r.triangleTests);
    EXPECT_EQ(hits, static_cast<long long>(expected.size()));
  }
}

TEST(MeshMesh, DescentGoesIntoTheLargerNode) {
  Rng rng(1809);
  const TriangleMesh big = icosphere(2);
  TriangleMesh small = icosphere(1);
  for (Vec3& v : small.vertices) v = v * 0.1;
  const ObbTree tb = build(big), ts = build(small);
  Transform pb;
  pb.position = {0.95, 0, 0};
  std::vector<MeshMeshEvent> trace;
  MeshMeshSettings s;
  s.mode = MeshMeshMode::All;
  s.trace = &trace;
  meshesIntersect(big, tb, Transform{}, small, ts, pb, s);
  int checked = 0;
  for (const MeshMeshEvent& e : trace) {
    if (e.kind != MeshMeshEventKind::DescendA && e.kind != MeshMeshEventKind::DescendB) continue;
    const ObbTreeNode &na = tb.nodes[e.nodeA], &nb = ts.nodes[e.nodeB];
    const double ra = length(na.box.halfExtents), rb = length(nb.box.halfExtents);
    if (na.leaf()) EXPECT_EQ(e.kind, MeshMeshEventKind::DescendB);
    else if (nb.leaf()) EXPECT_EQ(e.kind, MeshMeshEventKind::DescendA);
    else EXPECT_EQ(e.kind, ra >= rb ? MeshMeshEventKind::DescendA : MeshMeshEventKind::DescendB);
    ++checked;
  }
  EXPECT_GT(checked, 10);
  // The root pair descends into the big sphere.
  ASSERT_FALSE(trace.empty());
  EXPECT_EQ(trace[0].kind, MeshMeshEventKind::DescendA);
}

TEST(MeshMesh, TraceCapTruncates) {
  const TriangleMesh g = grid(4);
  const ObbTree t = build(g);
  std::vector<MeshMeshEvent> trace;
  MeshMeshSettings s;
  s.mode = MeshMeshMode::All;
  s.trace = &trace;
  s.traceCap = 7;
  const MeshMeshResult r = meshesIntersect(g, t, Transform{}, g, t, Transform{}, s);
  EXPECT_TRUE(r.traceTruncated);
  EXPECT_EQ(trace.size(), 7u);
  EXPECT_GT(r.nodePairs, 7);  // the query itself went on
}

TEST(MeshMesh, AxisKinds) {
  for (int k = 0; k < 3; ++k) EXPECT_EQ(obbAxisKind(k), ObbAxisKind::FaceA);
  for (int k = 3; k < 6; ++k) EXPECT_EQ(obbAxisKind(k), ObbAxisKind::FaceB);
  for (int k = 6; k < 15; ++k) EXPECT_EQ(obbAxisKind(k), ObbAxisKind::EdgePair);
  EXPECT_STREQ(obbAxisKindName(ObbAxisKind::EdgePair), "edge-pair");
  EXPECT_STREQ(meshMeshEventKindName(MeshMeshEventKind::DescendB), "descend-b");
  EXPECT_STREQ(meshMeshStatusName(MeshMeshStatus::InvalidInput), "invalid-input");
  EXPECT_STREQ(obbSplitName(ObbSplit::Median), "median");
}

// ------------------------------------------------------------ a box against the tree

// Least penetration of triangle t and box b over the 13 separating axes of
// a triangle and a box, each normalised to unit length (axes shorter than
// 1e-9 skipped): > 0 means no axis separates them, so they intersect; the
// test below trusts only a clear margin.
double satOverlap(const std::array<Vec3, 3>& t, const Obb& b) {
  std::vector<Vec3> axes(b.axes, b.axes + 3);
  const Vec3 e[3] = {t[1] - t[0], t[2] - t[1], t[0] - t[2]};
  axes.push_back(cross(e[0], e[1]));
  for (const Vec3& edge : e)
    for (const Vec3& a : b.axes) axes.push_back(cross(edge, a));
  double least = 1e300;
  for (const Vec3& raw : axes) {
    const double l = length(raw);
    if (l < 1e-9) continue;
    const Vec3 L = raw / l;
    double lo = 1e300, hi = -1e300;
    for (const Vec3& p : t) {
      lo = std::min(lo, dot(p, L));
      hi = std::max(hi, dot(p, L));
    }
    const double r = b.halfExtents.x * std::fabs(dot(b.axes[0], L)) + b.halfExtents.y * std::fabs(dot(b.axes[1], L)) +
                     b.halfExtents.z * std::fabs(dot(b.axes[2], L));
    const double c = dot(b.center, L);
    // How far the triangle would have to move along ±L to leave the box's slab.
    least = std::min(least, std::min(hi - (c - r), (c + r) - lo));
  }
  return least;
}

Obb randomBox(Rng& rng, double spread, double size) {
  Obb b;
  b.center = rng.inCube(spread);
  const Quat q = rng.rotation();
  b.axes[0] = rotate(q, {1, 0, 0});
  b.axes[1] = rotate(q, {0, 1, 0});
  b.axes[2] = rotate(q, {0, 0, 1});
  b.halfExtents = {rng.uniform(0.01, size), rng.uniform(0.01, size), rng.uniform(0, size)};
  return b;
}

TEST(MeshBox, CandidatesHoldEveryTriangleThatMeetsTheBox) {
  Rng rng(1812);
  const TriangleMesh closed = torus(24, 10, 1.0, 0.35);
  long long candidates = 0, meeting = 0, total = 0;
  for (int it = 0; it < 400 && !::testing::Test::HasFailure(); ++it) {
    const TriangleMesh m = it % 2 ? closed : randomSoup(rng, 1 + rng.integer(200), 1.0, 0.2);
    const ObbTree t = build(m, 1 + it % 3);
    const Transform pose = randomPose(rng, 1.0);
    const Obb box = randomBox(rng, 1.5, 0.5);
    std::vector<int> buffer(m.triangles.size());
    std::vector<MeshMeshEvent> trace;
    MeshBoxSettings s;
    s.candidates = buffer.data();
    s.capacity = static_cast<int>(buffer.size());
    s.trace = &trace;
    const MeshBoxResult r = meshBoxCandidates(m, t, pose, box, s);
    ASSERT_EQ(r.status, MeshMeshStatus::Converged);
    EXPECT_FALSE(r.truncated);
    std::set<int> got(buffer.begin(), buffer.begin() + r.candidateCount);
    EXPECT_EQ(static_cast<long long>(got.size()), r.candidateCount);  // no repeats
    const auto w = world(m, pose);
    std::set<int> clearlyMeeting;
    for (int i = 0; i < static_cast<int>(w.size()); ++i)
      if (satOverlap(w[i], box) > 1e-9) clearlyMeeting.insert(i);
    for (int i : clearlyMeeting) EXPECT_TRUE(got.count(i)) << "triangle " << i;
    // Nodes found apart hold no triangle that clearly meets the box.
    long long apart = 0, leaves = 0, descend = 0;
    for (const MeshMeshEvent& e : trace) {
      EXPECT_EQ(e.nodeB, -1);
      if (e.kind == MeshMeshEventKind::SphereApart || e.kind == MeshMeshEventKind::BoxApart) {
        ++apart;
        for (int i : under(t, e.nodeA)) EXPECT_FALSE(clearlyMeeting.count(i)) << i;
        if (e.kind == MeshMeshEventKind::BoxApart) {
          EXPECT_GE(e.axis, 0);
          EXPECT_LT(e.axis, 15);
        }
      } else if (e.kind == MeshMeshEventKind::Leaves) {
        ++leaves;
        EXPECT_TRUE(t.nodes[e.nodeA].leaf());
      } else {
        EXPECT_EQ(e.kind, MeshMeshEventKind::DescendA);
        ++descend;
      }
    }
    EXPECT_EQ(apart, r.sphereApart + r.boxApart);
    EXPECT_EQ(leaves + descend, r.overlapping);
    EXPECT_EQ(apart + leaves + descend, r.nodes);
    candidates += r.candidateCount;
    meeting += static_cast<long long>(clearlyMeeting.size());
    total += static_cast<long long>(m.triangles.size());
  }
  // The tree prunes: far fewer candidates than triangles, not far more than meet.
  EXPECT_LT(candidates, total / 4);
  EXPECT_GT(meeting, 100);
  std::printf("[ mesh box ] candidates %lld, clearly meeting %lld, triangles %lld\n", candidates, meeting, total);
}

TEST(MeshBox, CapacityAndBadInput) {
  const TriangleMesh g = grid(4);
  const ObbTree t = build(g);
  Obb box;
  box.center = {2, 2, 0};
  box.halfExtents = {10, 10, 1};
  std::vector<int> buffer(3);
  MeshBoxSettings s;
  s.candidates = buffer.data();
  s.capacity = 3;
  const MeshBoxResult r = meshBoxCandidates(g, t, Transform{}, box, s);
  EXPECT_EQ(r.candidateCount, 32);  // the box holds the whole grid
  EXPECT_TRUE(r.truncated);
  Obb nan = box;
  nan.center.y = std::nan("");
  EXPECT_EQ(meshBoxCandidates(g, t, Transform{}, nan).status, MeshMeshStatus::InvalidInput);
  Obb negative = box;
  negative.halfExtents.z = -1;
  EXPECT_EQ(meshBoxCandidates(g, t, Transform{}, negative).status, MeshMeshStatus::InvalidInput);
  EXPECT_EQ(meshBoxCandidates(g, ObbTree{}, Transform{}, box).status, MeshMeshStatus::InvalidInput);
}

// ------------------------------------------------------------ bad input

TEST(MeshMesh, InvalidInputIsRefused) {
  const TriangleMesh a = icosphere(0), b = grid(2);
  const ObbTree ta = build(a), tb = build(b);
  Transform nan;
  nan.position = {std::nan(""), 0, 0};
  EXPECT_EQ(meshesIntersect(a, ta, nan, b, tb, Transform{}).status, MeshMeshStatus::InvalidInput);
  Transform unnormalized;
  unnormalized.rotation = {0, 0, 0, 2};
  EXPECT_EQ(meshesIntersect(a, ta, Transform{}, b, tb, unnormalized).status, MeshMeshStatus::InvalidInput);
  // A tree of another mesh.
  EXPECT_EQ(meshesIntersect(a, tb, Transform{}, b, tb, Transform{}).status, MeshMeshStatus::InvalidInput);
  EXPECT_EQ(meshesIntersect(a, ta, Transform{}, b, ObbTree{}, Transform{}).status, MeshMeshStatus::InvalidInput);
  // A capacity without a buffer.
  MeshMeshSettings s;
  s.mode = MeshMeshMode::All;
  s.pairCapacity = 3;
  const MeshMeshResult r = meshesIntersect(a, ta, Transform{}, b, tb, Transform{}, s);
  EXPECT_EQ(r.status, MeshMeshStatus::InvalidInput);
  EXPECT_FALSE(r.intersecting);
  EXPECT_EQ(r.nodePairs, 0);
}

TEST(MeshMesh, CorruptTreeStopsWithMaxIterations) {
  // A right link pointing back at the root makes the descent revisit pairs
  // forever; the pair cap stops it.
  const TriangleMesh a = grid(2);
  ObbTree ta = build(a);
  ASSERT_FALSE(ta.nodes[0].leaf());
  ta.nodes[0].right = 0;
  MeshMeshSettings s;
  s.mode = MeshMeshMode::All;
  const MeshMeshResult r = meshesIntersect(a, ta, Transform{}, a, build(a), Transform{}, s);
  EXPECT_EQ(r.status, MeshMeshStatus::MaxIterations);
  EXPECT_LE(r.nodePairs, static_cast<long long>(ta.nodes.size()) * static_cast<long long>(ta.nodes.size()));
}

// ------------------------------------------------------------ the seed's bounds

TEST(MeshMesh, SeedBoundsByHand) {
  // n = 8: the matrix has 64 cells, log₂ 64 = 6.
  const SeedTestBounds b = seedTestBounds(8, 8, 1);
  EXPECT_DOUBLE_EQ(b.singleContact, 13);
  EXPECT_DOUBLE_EQ(b.lower, 13);  // k = 1: the single-contact count
  EXPECT_DOUBLE_EQ(b.upper, 13);
  // k = 4: log₂(64/4) = 4; lower 2·4 + 8 − 1 = 15, upper 2·4·4 + 8 − 1 = 39.
  const SeedTestBounds k4 = seedTestBounds(8, 8, 4);
  EXPECT_DOUBLE_EQ(k4.lower, 15);
  EXPECT_DOUBLE_EQ(k4.upper, 39);
  // nA ≠ nB: 4 · 16 = 64 cells, as above.
  EXPECT_DOUBLE_EQ(seedTestBounds(4, 16, 1).singleContact, 13);
  EXPECT_EQ(pathVolumeTestBound(3, 3), 13);
  EXPECT_EQ(pathVolumeTestBound(0, 0), 1);
}

TEST(MeshMesh, SingleContactCountsRespectThePathBound) {
  // Random configurations with exactly one intersecting pair: every pair on
  // the path to the two leaves and every sibling is tested, so the volume
  // tests are at least 2(ℓA + ℓB) + 1; the excess is what the OBBs cost
  // over an ideal volume.
  Rng rng(1810);
  int found = 0;
  double excess = 0, overSeed = 0;
  for (int it = 0; it < 3000 && found < 200; ++it) {
    const TriangleMesh a = randomSoup(rng, 64, 1.0, 0.15), b = randomSoup(rng, 64, 1.0, 0.15);
    const Transform pa = randomPose(rng, 0.2), pb = randomPose(rng, 1.6);
    const PairSet expected = bruteForce(a, pa, b, pb);
    if (expected.size() != 1) continue;
    ++found;
    const ObbTree ta = build(a), tb = build(b);
    MeshMeshSettings s;
    s.mode = MeshMeshMode::All;
    const MeshMeshResult r = meshesIntersect(a, ta, pa, b, tb, pb, s);
    const int la = obbTreeLeafLevel(ta, expected.begin()->first);
    const int lb = obbTreeLeafLevel(tb, expected.begin()->second);
    ASSERT_GE(la, 0);
    ASSERT_GE(lb, 0);
    const long long bound = pathVolumeTestBound(la, lb);
    EXPECT_GE(r.nodePairs, bound);
    excess += static_cast<double>(r.nodePairs) / bound;
    overSeed += r.nodePairs / seedTestBounds(64, 64, 1).singleContact;
  }
  ASSERT_GT(found, 50);
  std::printf("[ single contact ] %d configurations of 64 × 64 triangles: volume tests / path bound = %.2f, "
              "/ seed's 2·log2(n²)+1 = 25: %.2f (means)\n",
              found, excess / found, overSeed / found);
}

TEST(MeshMesh, LeafLevelsAgreeWithLevelOrder) {
  Rng rng(1811);
  const TriangleMesh m = randomSoup(rng, 100, 1.0, 0.2);
  const ObbTree t = build(m);
  bool truncated = true;
  const std::vector<ObbBuildEvent> levels = obbTreeLevels(t, 1 << 20, &truncated);
  EXPECT_FALSE(truncated);
  ASSERT_EQ(levels.size(), t.nodes.size());
  std::vector<int> seen(t.nodes.size(), 0), levelOf(t.nodes.size(), -1);
  int prevLevel = 0;
  for (const ObbBuildEvent& e : levels) {
    ++seen[e.node];
    levelOf[e.node] = e.level;
    EXPECT_GE(e.level, prevLevel);  // level order
    prevLevel = e.level;
    const ObbTreeNode& n = t.nodes[e.node];
    EXPECT_EQ(e.count, n.count);
    EXPECT_EQ(e.first, n.first);
    if (e.parent < 0) {
      EXPECT_EQ(e.node, 0);
    } else {
      EXPECT_EQ(levelOf[e.parent], e.level - 1);
      EXPECT_TRUE(e.node == e.parent + 1 || e.node == t.nodes[e.parent].right);
    }
    if (n.leaf()) {
      EXPECT_EQ(e.splitAxis, -1);
      EXPECT_EQ(e.split, ObbSplit::Leaf);
      for (int i = 0; i < n.count; ++i) EXPECT_EQ(obbTreeLeafLevel(t, t.order[n.first + i]), e.level);
    } else {
      EXPECT_GE(e.splitAxis, 0);
      EXPECT_LE(e.splitAxis, 2);
      EXPECT_NE(e.split, ObbSplit::Leaf);
    }
  }
  for (int s : seen) EXPECT_EQ(s, 1);
  EXPECT_EQ(levels.back().level, t.depth - 1);
  // Capped.
  const std::vector<ObbBuildEvent> few = obbTreeLevels(t, 5, &truncated);
  EXPECT_TRUE(truncated);
  EXPECT_EQ(few.size(), 5u);
  EXPECT_EQ(obbTreeLeafLevel(t, 100), -1);
}

}  // namespace
