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
#include "collidoscope/mesh_shape.h"
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
  const int nodes = static_cast<int>(a.meshData->tree.nodes.size());
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
  const ObbTree& tree = a.meshData->tree;
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

TEST(ObbTreeView, MeshConvexCandidatesHoldTheTouchingTriangles) {
  const Shape a = meshShape(grid(8), {0, 0, 0});
  Shape box = Shape::box({0.1, 0.1, 0.1});
  const Vec3 lo = a.meshData->mesh.vertices[0];
  box.pose.position = lo + Vec3{0.3, 0.3, 0.05};
  std::vector<ObbViewFrame> frames;
  const ObbViewResult r = runObbView(a, &box, &frames);
  EXPECT_EQ(r.mode, ObbViewMode::MeshConvex);
  checkSteps(frames, r);
  const ObbViewFrame& c = frames[frames.size() - 2];
  ASSERT_EQ(c.kind, ObbViewFrameKind::Candidates);
  if (r.intersecting) {
    bool found = false;
    for (int t : c.candidates) found = found || t == r.firstA;
    EXPECT_TRUE(found);
  }
  EXPECT_EQ(static_cast<long long>(c.candidates.size()), r.triangleTests);
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
