// The "obbtree" scene query (obbtree_view.h): the tree's levels, the descent's
// steps and the counts, checked against independent facts:
//   * levels: every node of the tree appears once, at the level its parent
//     link gives (parent level + 1), and each level's triangle counts add up
//     to the mesh's triangles until leaves drop out;
//   * steps: a "box-apart" step's two boxes are really apart along the named
//     axis (their projections, computed here from the frame's boxes, do not
//     overlap); a "sphere-apart" step's spheres (centre, |halfExtents|) are
//     apart; a triangle step's corners are the mesh's corners under its pose;
//   * counts: the last step's running counts equal the result's, and the
//     result's answer equals brute force over all triangle pairs
//     (trianglesIntersect on world corners, written here).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "collidoscope/json.h"
#include "collidoscope/gjk.h"
#include "collidoscope/mesh_pair.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/support.h"
#include "collidoscope/obbtree_view.h"
#include "collidoscope/scene.h"
#include "collidoscope/triangle.h"
#include "mesh_gen.h"

namespace {

using namespace collidoscope;
using namespace meshgen;

Shape meshShape(const TriangleMesh& m, const Vec3& at, const Quat& q = Quat{}) {
  Shape s;
  ShapeError err;
  EXPECT_TRUE(makeMeshShape(m, &s, &err)) << err.message;
  s.pose.position = at;
  s.pose.rotation = q;
  return s;
}

Quat unitQuat(double x, double y, double z, double w) {
  const double n = std::sqrt(x * x + y * y + z * z + w * w);
  return Quat{x / n, y / n, z / n, w / n};
}

double projectRadius(const Obb& b, const Vec3& u) {
  return std::fabs(dot(b.axes[0], u)) * b.halfExtents.x + std::fabs(dot(b.axes[1], u)) * b.halfExtents.y +
         std::fabs(dot(b.axes[2], u)) * b.halfExtents.z;
}

bool bruteForce(const Shape& a, const Shape& b) {
  const TriangleMesh& ma = a.meshData->mesh;
  const TriangleMesh& mb = b.meshData->mesh;
  for (const auto& ta : ma.triangles)
    for (const auto& tb : mb.triangles) {
      const Vec3 p[3] = {a.pose.apply(ma.vertices[ta[0]]), a.pose.apply(ma.vertices[ta[1]]), a.pose.apply(ma.vertices[ta[2]])};
      const Vec3 q[3] = {b.pose.apply(mb.vertices[tb[0]]), b.pose.apply(mb.vertices[tb[1]]), b.pose.apply(mb.vertices[tb[2]])};
      if (trianglesIntersect(p[0], p[1], p[2], q[0], q[1], q[2])) return true;
    }
  return false;
}

void checkLevels(const Shape& a, const std::vector<ObbViewFrame>& frames) {
  const int nodes = static_cast<int>(a.meshData->buildTree().nodes.size());
  std::set<int> seen;
  std::vector<int> levelOf(static_cast<std::size_t>(nodes), -1);
  for (const ObbViewFrame& f : frames) {
    if (f.kind != ObbViewFrameKind::Level) continue;
    for (const ObbViewNode& n : f.nodes) {
      EXPECT_TRUE(seen.insert(n.node).second) << "node " << n.node << " twice";
      levelOf[static_cast<std::size_t>(n.node)] = f.level;
      if (n.parent < 0) EXPECT_EQ(f.level, 0);
      else EXPECT_EQ(levelOf[static_cast<std::size_t>(n.parent)], f.level - 1);
    }
  }
  EXPECT_EQ(static_cast<int>(seen.size()), std::min(nodes, kObbViewNodeCap));
}

void checkSteps(const std::vector<ObbViewFrame>& frames, const ObbViewResult& r) {
  const ObbViewFrame* last = nullptr;
  int apart = 0;
  for (const ObbViewFrame& f : frames) {
    if (f.kind != ObbViewFrameKind::Step) continue;
    last = &f;
    if (f.event == MeshMeshEventKind::BoxApart) {
      ++apart;
      ASSERT_GE(f.axis, 0);
      ASSERT_LE(f.axis, 14);
      const Vec3 u = f.axisDirection;
      ASSERT_NEAR(length(u), 1.0, 1e-9);
      const double gap = std::fabs(dot(f.boxB.center - f.boxA.center, u)) - projectRadius(f.boxA, u) - projectRadius(f.boxB, u);
      EXPECT_GT(gap, 0) << "axis " << f.axis;
    } else if (f.event == MeshMeshEventKind::SphereApart) {
      EXPECT_GT(length(f.boxB.center - f.boxA.center), length(f.boxA.halfExtents) + length(f.boxB.halfExtents));
    }
  }
  ASSERT_NE(last, nullptr);
  if (!r.stepsTruncated) {
    EXPECT_EQ(last->nodePairs, r.nodePairs);
    EXPECT_EQ(last->boxTests, r.boxTests);
  }
  EXPECT_GT(apart + r.sphereApart, 0);
  EXPECT_EQ(frames.back().kind, ObbViewFrameKind::Done);
}

TEST(ObbTreeView, TreeLevelsCoverEveryNodeOnce) {
  const Shape a = meshShape(torus(12, 8, 1.0, 0.3), {0.5, -1, 2});
  std::vector<ObbViewFrame> frames;
  const ObbViewResult r = runObbView(a, nullptr, &frames);
  EXPECT_EQ(r.mode, ObbViewMode::Tree);
  EXPECT_EQ(r.triangles, 12 * 8 * 2);
  EXPECT_EQ(r.leaves, r.triangles);  // one-triangle leaves
  EXPECT_EQ(r.nodes, 2 * r.leaves - 1);  // a binary tree
  EXPECT_EQ(r.meanSplits + r.medianSplits, r.nodes - r.leaves);
  EXPECT_FALSE(r.levelsTruncated);
  checkLevels(a, frames);
  // Levels run 0 … depth − 1, then the done frame.
  EXPECT_EQ(static_cast<int>(frames.size()), r.depth + 1);
}

TEST(ObbTreeView, LargeTreeIsCappedAndSaysSo) {
  const Shape a = meshShape(torus(41, 20, 1.0, 0.3), {});  // 1640 triangles, 3279 nodes
  std::vector<ObbViewFrame> frames;
  const ObbViewResult r = runObbView(a, nullptr, &frames);
  EXPECT_TRUE(r.levelsTruncated);
  checkLevels(a, frames);
  // Nodes per level from the tree's own links (left child = next node, right = index), walked here.
  const ObbTree& tree = a.meshData->buildTree();
  std::vector<int> perLevel;
  std::vector<std::pair<int, int>> stack{{0, 0}};
  while (!stack.empty()) {
    const auto [node, level] = stack.back();
    stack.pop_back();
    if (static_cast<int>(perLevel.size()) <= level) perLevel.resize(static_cast<std::size_t>(level) + 1, 0);
    ++perLevel[static_cast<std::size_t>(level)];
    const ObbTreeNode& n = tree.nodes[static_cast<std::size_t>(node)];
    if (!n.leaf()) {
      stack.push_back({node + 1, level + 1});
      stack.push_back({n.right, level + 1});
    }
  }
  for (const ObbViewFrame& f : frames) {
    if (f.kind != ObbViewFrameKind::Level) continue;
    const int whole = perLevel[static_cast<std::size_t>(f.level)];
    EXPECT_EQ(f.levelCut, static_cast<int>(f.nodes.size()) < whole) << "level " << f.level;
  }
}

TEST(ObbTreeView, MeshMeshStepsAgreeWithBruteForce) {
  const TriangleMesh t = torus(10, 6, 1.0, 0.35);
  for (double dx : {0.6, 1.5, 3.0}) {
    const Shape a = meshShape(t, {0, 0, 0});
    const Shape b = meshShape(icosphere(1), {dx, 0.2, 0}, unitQuat(0.2, 0.1, 0.3, 0.9));
    std::vector<ObbViewFrame> frames;
    const ObbViewResult r = runObbView(a, &b, &frames);
    EXPECT_EQ(r.mode, ObbViewMode::MeshMesh);
    EXPECT_EQ(r.intersecting, bruteForce(a, b)) << dx;
    checkSteps(frames, r);
    if (!r.stepsTruncated) {
      long long tris = 0;
      for (const ObbViewFrame& f : frames)
        if (f.kind == ObbViewFrameKind::Step && f.event == MeshMeshEventKind::Triangle) {
          ++tris;
          const auto& k = a.meshData->mesh.triangles[static_cast<std::size_t>(f.triangleA)];
          EXPECT_EQ(f.cornersA[1].x, a.pose.apply(a.meshData->mesh.vertices[k[1]]).x);
        }
      EXPECT_EQ(tris, r.triangleTests);
    }
    // The seed's bounds, by hand: 2·log₂(nA·nB) + 1.
    EXPECT_NEAR(r.bounds.singleContact, 2 * std::log2(double(r.triangles) * r.trianglesB) + 1, 1e-9);
  }
}

// Brute force for a convex B: GJK on every triangle's world corners against
// B at its own pose (not the view's frame of the mesh), in index order.
std::vector<bool> touchingTriangles(const Shape& a, const Shape& b) {
  const TriangleMesh& m = a.meshData->mesh;
  std::vector<bool> out;
  for (const auto& k : m.triangles) {
    const TriangleShape t{{a.pose.apply(m.vertices[k[0]]), a.pose.apply(m.vertices[k[1]]), a.pose.apply(m.vertices[k[2]])}};
    out.push_back(gjkIntersect(t, ShapeAtPose(b, b.pose), GjkSettings{}).intersecting);
  }
  return out;
}

TEST(ObbTreeView, MeshConvexStepsThroughEachCandidateTriangle) {
  const Shape a = meshShape(grid(8), {0.2, -0.1, 0.3}, unitQuat(0.1, 0.3, 0.0, 0.95));
  Shape sphere = Shape::sphere(0.3);
  Shape box = Shape::box({0.15, 0.1, 0.2});
  box.pose.rotation = unitQuat(0.3, -0.2, 0.1, 0.9);
  Shape capsule = Shape::capsule(0.05, 0.2);
  int touchingCases = 0, apartCases = 0, apartSteps = 0;
  for (Shape* b : {&sphere, &box, &capsule})
    // In the grid's frame (cells of 1 in z = 0, 0 … 8): over the middle, off a corner (the box of a sphere
    // reaches the corner's triangles, the sphere does not), below an edge.
    for (const Vec3& at : {Vec3{3.5, 4.2, 0.1}, Vec3{8.25, 8.25, 0.0}, Vec3{2.3, 0.6, -0.15}}) {
      b->pose.position = a.pose.apply(at);
      std::vector<ObbViewFrame> frames;
      const ObbViewResult r = runObbView(a, b, &frames);
      ASSERT_EQ(r.mode, ObbViewMode::MeshConvex);
      ASSERT_FALSE(r.stepsTruncated);
      checkSteps(frames, r);
      const MeshIntersectResult query = meshPairIntersect(a, *b);
      const MeshDistanceResult nearest = meshPairDistance(a, *b);
      const std::vector<bool> brute = touchingTriangles(a, *b);
      std::set<int> shown;
      int firstHit = -1, firstHits = 0, leafTriangles = 0;
      int lastLeaf = -1;
      for (const ObbViewFrame& f : frames) {
        if (f.kind != ObbViewFrameKind::Step) continue;
        if (f.event == MeshMeshEventKind::Leaves) {
          lastLeaf = f.nodeA;
          leafTriangles += a.meshData->buildTree().nodes[static_cast<std::size_t>(f.nodeA)].count;
        }
        if (f.event != MeshMeshEventKind::Triangle) continue;
        EXPECT_EQ(f.nodeA, lastLeaf);  // a leaf's triangles follow it
        EXPECT_EQ(f.triangleB, -1);
        EXPECT_EQ(f.hit, brute[static_cast<std::size_t>(f.triangleA)]) << "triangle " << f.triangleA;
        EXPECT_GE(f.iterations, 1);
        const auto& k = a.meshData->mesh.triangles[static_cast<std::size_t>(f.triangleA)];
        for (int c = 0; c < 3; ++c) EXPECT_EQ(f.cornersA[c].z, a.pose.apply(a.meshData->mesh.vertices[k[c]]).z);
        EXPECT_TRUE(shown.insert(f.triangleA).second);
        if (f.firstHit) {
          ++firstHits;
          firstHit = f.triangleA;
        }
        if (f.hit && firstHit < 0) ADD_FAILURE() << "a touching triangle before the first hit";
        apartSteps += f.hit ? 0 : 1;
        if (!f.hit) {
          // The measured gap: positive, the length between its points, pointA in the triangle's plane, and
          // never below the distance query's answer (the least over all triangles).
          EXPECT_GT(f.distance, 0);
          EXPECT_NEAR(length(f.pointB - f.pointA), f.distance, 1e-12);
          const Vec3 n = cross(f.cornersA[1] - f.cornersA[0], f.cornersA[2] - f.cornersA[0]);
          EXPECT_NEAR(dot(f.pointA - f.cornersA[0], n / length(n)), 0, 1e-12);
          EXPECT_GE(f.distance, nearest.distance - 1e-12);
        }
      }
      // Every candidate shown once, every touching triangle among them, the first one the query's answer.
      EXPECT_EQ(static_cast<long long>(shown.size()), r.triangleTests);
      EXPECT_EQ(leafTriangles, r.triangleTests);
      for (std::size_t t = 0; t < brute.size(); ++t)
        EXPECT_TRUE(!brute[t] || shown.count(static_cast<int>(t))) << "touching triangle " << t << " not tested";
      EXPECT_EQ(firstHits, query.intersecting ? 1 : 0);
      EXPECT_EQ(firstHit, query.triangle);
      EXPECT_EQ(r.firstA, query.triangle);
      EXPECT_EQ(frames[frames.size() - 2].triangleTests, r.triangleTests);
      (query.intersecting ? touchingCases : apartCases)++;
    }
  EXPECT_GT(touchingCases, 0);
  EXPECT_GT(apartCases, 0);
  EXPECT_GT(apartSteps, 0);
}

TEST(ObbTreeView, MeshConvexTriangleStepsAreCapped) {
  // A box over the whole of a dense grid: every triangle is a candidate, more than the cap.
  const Shape a = meshShape(grid(40), {});
  Shape box = Shape::box({25, 25, 0.2});
  box.pose.position = {20, 20, 0};
  std::vector<ObbViewFrame> frames;
  const ObbViewResult r = runObbView(a, &box, &frames);
  EXPECT_EQ(r.triangleTests, 40 * 40 * 2);
  EXPECT_TRUE(r.stepsTruncated);
  long long steps = 0;
  for (const ObbViewFrame& f : frames) steps += f.kind == ObbViewFrameKind::Step ? 1 : 0;
  EXPECT_EQ(steps, kObbViewStepCap);
}

TEST(ObbTreeView, SceneRunsAndRefusesBadShapes) {
  Scene scene;
  SceneError err;
  const std::string mesh =
      R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]],"triangles":[[0,2,1],[0,1,3],[0,3,2],[1,2,3]]})";
  ASSERT_TRUE(parseScene(R"({"version":1,"query":"obbtree","shapes":[)" + mesh + "]}", &scene, &err)) << err.message;
  std::string json;
  ASSERT_TRUE(runScene(scene, false, &json, &err)) << err.message;
  JsonValue v;
  std::string why;
  ASSERT_TRUE(parseJson(json, &v, &why)) << why;
  EXPECT_EQ(v.find("mode")->string, "tree");
  EXPECT_EQ(v.find("triangles")->number, 4);
  EXPECT_EQ(v.find("nodes")->number, 7);
  ASSERT_TRUE(runScene(scene, true, &json, &err)) << err.message;
  ASSERT_TRUE(parseJson(json, &v, &why)) << why;
  EXPECT_EQ(v.find("query")->string, "obbtree");
  EXPECT_GE(v.find("frames")->items.size(), 2u);

  ASSERT_TRUE(parseScene(R"({"version":1,"query":"obbtree","shapes":[{"type":"sphere","radius":1}]})", &scene, &err));
  EXPECT_FALSE(runScene(scene, false, &json, &err));
  EXPECT_EQ(err.field, "shapes[0].type");
  ASSERT_TRUE(parseScene(R"({"version":1,"query":"obbtree","shapes":[)" + mesh +
                             R"(,{"type":"plane","normal":[0,1,0],"offset":0}]})",
                         &scene, &err))
      << err.message;
  EXPECT_FALSE(runScene(scene, false, &json, &err));
  EXPECT_EQ(err.field, "shapes[1].type");
  EXPECT_FALSE(parseScene(R"({"version":1,"query":"obbtree","shapes":[]})", &scene, &err));
  EXPECT_EQ(err.field, "shapes");
}

}  // namespace
