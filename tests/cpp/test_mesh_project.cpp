// project on a mesh (mesh_pair.h projectOnMesh) against brute force over
// every triangle: the nearest point of each triangle by elementary geometry
// (the foot on its plane when it falls inside, else the nearest point of
// its three edges), the nearest of them all; the feature by point_query.h's
// rule on the mesh's vertices and triangle edges. Random soups, a torus, a
// grid, far from the origin; query points in space, exactly on vertices,
// on edges and on faces. Plus the scene format, and contains refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "collidoscope/mesh_pair.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/scene.h"
#include "mesh_gen.h"
#include "scene_json.h"

namespace collidoscope {
namespace {

Vec3 nearestOnSegment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 e = b - a;
  return a + e * std::clamp(dot(p - a, e) / dot(e, e), 0.0, 1.0);
}

Vec3 nearestOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 n = cross(b - a, c - a);
  const Vec3 foot = p - n * (dot(n, p - a) / dot(n, n));
  const double s0 = dot(cross(b - a, foot - a), n), s1 = dot(cross(c - b, foot - b), n), s2 = dot(cross(a - c, foot - c), n);
  if (s0 >= 0 && s1 >= 0 && s2 >= 0) return foot;
  Vec3 best = nearestOnSegment(p, a, b);
  for (const Vec3& x : {nearestOnSegment(p, b, c), nearestOnSegment(p, c, a)})
    if (length(x - p) < length(best - p)) best = x;
  return best;
}

std::string describe(const PointFeature& f) {
  std::string out = featureKindName(f.kind);
  for (int v : f.vertices) out += " " + std::to_string(v);
  return out;
}

// The reference: the nearest point over all triangles, then a mesh vertex
// within tol of it, else a triangle edge, else the nearest triangle.
struct Reference {
  Vec3 point;
  double distance;
  std::string feature;
};

Reference reference(const TriangleMesh& m, const Transform& pose, const Vec3& p, double tol) {
  std::vector<Vec3> w;
  for (const Vec3& v : m.vertices) w.push_back(pose.apply(v));
  Reference r{{}, INFINITY, ""};
  int nearest = -1;
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const auto& tri = m.triangles[t];
    const Vec3 x = nearestOnTriangle(p, w[tri[0]], w[tri[1]], w[tri[2]]);
    if (length(x - p) < r.distance) r = {x, length(x - p), ""}, nearest = static_cast<int>(t);
  }
  double best = tol;
  for (const auto& tri : m.triangles)
    for (int k = 0; k < 3; ++k)
      if (length(w[tri[k]] - r.point) <= best) best = length(w[tri[k]] - r.point), r.feature = "vertex " + std::to_string(tri[k]);
  if (!r.feature.empty()) return r;
  best = tol;
  for (const auto& tri : m.triangles)
    for (int k = 0; k < 3; ++k) {
      const int i = tri[k], j = tri[(k + 1) % 3];
      const double d = length(nearestOnSegment(r.point, w[i], w[j]) - r.point);
      if (d <= best) best = d, r.feature = "edge " + std::to_string(std::min(i, j)) + " " + std::to_string(std::max(i, j));
    }
  if (!r.feature.empty()) return r;
  const auto& tri = m.triangles[static_cast<std::size_t>(nearest)];
  r.feature = "face " + std::to_string(tri[0]) + " " + std::to_string(tri[1]) + " " + std::to_string(tri[2]);
  return r;
}

TEST(MeshProject, AgainstBruteForceOverEveryTriangle) {
  meshgen::Rng rng(1820);
  const TriangleMesh meshes[] = {meshgen::randomSoup(rng, 60, 3, 1), meshgen::torus(12, 8, 2, 0.5), meshgen::grid(6)};
  int counts[3] = {0, 0, 0};
  for (int round = 0; round < 2; ++round)
    for (const TriangleMesh& m : meshes) {
      Shape s;
      ShapeError se;
      ASSERT_TRUE(makeMeshShape(m, &s, &se)) << se.message;
      s.pose.position = round == 0 ? rng.inCube(2) : rng.inCube(1e4);
      s.pose.rotation = rng.rotation();
      const double tol = kFeatureTolerance * localBoundingRadius(s);
      const double scale = localBoundingRadius(s) + length(s.pose.position);
      for (int q = 0; q < 120; ++q) {
        const auto& tri = m.triangles[static_cast<std::size_t>(rng.integer(static_cast<int>(m.triangles.size())))];
        const Vec3 a = m.vertices[tri[0]], b = m.vertices[tri[1]], c = m.vertices[tri[2]];
        Vec3 local;
        switch (q % 4) {
          case 0: local = a; break;                                   // on a vertex
          case 1: local = a * 0.3 + b * 0.7; break;                   // on an edge
          case 2: local = a * 0.5 + b * 0.3 + c * 0.2; break;         // on a face
          default: local = rng.inCube(1.2 * localBoundingRadius(s));  // anywhere near
        }
        const Vec3 p = s.pose.apply(local);
        const Reference want = reference(m, s.pose, p, tol);
        MeshProjectResult r;
        projectOnMesh(s, p, &r);
        EXPECT_FALSE(r.inside);
        EXPECT_NEAR(r.distance, want.distance, 1e-9 * scale) << q;
        EXPECT_NEAR(length(r.point - p), r.distance, 1e-9 * scale) << q;
        EXPECT_EQ(describe(r.feature), want.feature) << "mesh " << (&m - meshes) << " round " << round << " query " << q;
        // The barycentric coordinates rebuild the point on the triangle named.
        const auto& t = m.triangles[static_cast<std::size_t>(r.triangle)];
        const Vec3 rebuilt = s.pose.apply(m.vertices[t[0]]) * r.barycentric.x + s.pose.apply(m.vertices[t[1]]) * r.barycentric.y +
                             s.pose.apply(m.vertices[t[2]]) * r.barycentric.z;
        EXPECT_NEAR(length(rebuilt - r.point), 0, 1e-9 * scale) << q;
        EXPECT_NEAR(r.barycentric.x + r.barycentric.y + r.barycentric.z, 1, 1e-12);
        for (double u : {r.barycentric.x, r.barycentric.y, r.barycentric.z}) EXPECT_GE(u, -1e-9);
        ++counts[static_cast<int>(r.feature.kind)];
      }
    }
  EXPECT_GT(counts[0], 150);
  EXPECT_GT(counts[1], 150);
  EXPECT_GT(counts[2], 150);
}

std::string runText(const std::string& text, SceneError* err) {
  Scene scene;
  std::string json;
  if (!parseScene(text, &scene, err) || !runScene(scene, false, &json, err)) return "";
  return json;
}

TEST(MeshProject, SceneFormatAnswersAndContainsIsRefused) {
  const std::string grid = scenejson::meshJson(meshgen::grid(2));
  SceneError err;
  // Above the centre of the 2 × 2 grid: vertex (1, 1) is vertices[4].
  const std::string json = runText(R"({"version":1,"query":"project","point":[1,1,3],"shapes":[)" + grid + "]}", &err);
  ASSERT_NE(json, "") << err.message;
  EXPECT_NE(json.find(R"("point":[1,1,0],"distance":3,"inside":false)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("feature":{"kind":"vertex","vertices":[4]})"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("triangle":)"), std::string::npos) << json;
  const std::string face = runText(R"({"version":1,"query":"project","point":[0.75,0.25,-2],"shapes":[)" + grid + "]}", &err);
  EXPECT_NE(face.find(R"("distance":2,"inside":false)"), std::string::npos) << face;
  EXPECT_NE(face.find(R"("feature":{"kind":"face","vertices":[0,3,4]},"triangle":0,"barycentric":[)"), std::string::npos)
      << face;
  // A heightfield's vertices are its grid points, i·columns + j: the peak is 4 (README's example).
  const std::string peak = runText(
      R"({"version":1,"query":"project","point":[0,5,0],"shapes":[{"type":"heightfield","heights":[[0,0,0],[0,1,0],[0,0,0]],)"
      R"("cellSize":[2,2],"position":[-2,0,-2]}]})",
      &err);
  EXPECT_NE(peak.find(R"("point":[0,1,0],"distance":4,"inside":false)"), std::string::npos) << peak << err.message;
  EXPECT_NE(peak.find(R"("feature":{"kind":"vertex","vertices":[4]})"), std::string::npos) << peak;
  EXPECT_EQ(runText(R"({"version":1,"query":"contains","point":[1,1,3],"shapes":[)" + grid + "]}", &err), "");
  EXPECT_EQ(err.code, "unsupported-query");
  EXPECT_EQ(err.field, "shapes[0].type");
  EXPECT_NE(err.message.find("a mesh is a surface, not a solid"), std::string::npos) << err.message;
}

}  // namespace
}  // namespace collidoscope
