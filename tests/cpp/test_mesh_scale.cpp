// "scale" on a mesh (bakeScale's mesh case, shapes.cpp): the vertices
// scaled, the tree built again, the winding reversed under a mirror.
//
// The reference is the mesh of the scaled vertices written out here (each
// coordinate times its scale component, the same one rounding as the
// library's, so the two meshes are equal bit for bit and so must every
// answer be), with the triangles' last two indices swapped under a mirror.
// Outward normals after a mirror are checked geometrically: every ray from
// outside a closed mesh towards its centre meets a triangle whose CCW
// normal faces the ray.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "collidoscope/json.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/scene.h"
#include "mesh_gen.h"
#include "scene_json.h"

namespace collidoscope {
namespace {

using meshgen::Rng;
using scenejson::meshJson;
using scenejson::num;
using scenejson::vec;

std::string sphereJson(double r, const Vec3& p) {
  return "{\"type\":\"sphere\",\"radius\":" + num(r) + ",\"position\":" + vec(p) + "}";
}

std::string rayScene(const std::string& a, const Vec3& o, const Vec3& d, double maxT) {
  return "{\"version\":1,\"query\":\"raycast\",\"shapes\":[" + a + "],\"ray\":{\"origin\":" + vec(o) +
         ",\"direction\":" + vec(d) + ",\"maxT\":" + num(maxT) + "}}";
}

std::string pairScene(const std::string& query, const std::string& a, const std::string& b) {
  return "{\"version\":1,\"query\":\"" + query + "\",\"shapes\":[" + a + "," + b + "]}";
}

std::string runOk(const std::string& text) {
  Scene scene;
  SceneError err;
  std::string out;
  EXPECT_TRUE(parseScene(text, &scene, &err) && runScene(scene, false, &out, &err))
      << err.field << ": " << err.message;
  return out;
}

JsonValue json(const std::string& text) {
  JsonValue v;
  std::string why;
  EXPECT_TRUE(parseJson(text, &v, &why)) << why;
  return v;
}

TriangleMesh scaled(const TriangleMesh& m, const Vec3& s) {
  TriangleMesh out = m;
  for (Vec3& v : out.vertices) v = {v.x * s.x, v.y * s.y, v.z * s.z};
  if (s.x * s.y * s.z < 0)
    for (auto& t : out.triangles) std::swap(t[1], t[2]);
  return out;
}

TEST(MeshScale, AScaledMeshAnswersAsTheMeshOfItsScaledVerticesBitForBit) {
  Rng rng(7);
  const TriangleMesh m = meshgen::torus(12, 8, 1.0, 0.35);
  for (const Vec3 s : {Vec3{2, 0.5, 1.5}, Vec3{-1.5, 1, 1}, Vec3{0.7, -0.3, -2.1}, Vec3{-1, -1, -1}}) {
    SCOPED_TRACE(vec(s));
    const std::string a = meshJson(m, ",\"scale\":" + vec(s) + ",\"position\":[0.5,-0.25,1]");
    const std::string b = meshJson(scaled(m, s), ",\"position\":[0.5,-0.25,1]");
    for (int k = 0; k < 12; ++k) {
      const Vec3 o = rng.inCube(5) + Vec3{0, 0, 8};
      const Vec3 d = rng.inCube(1.5) - o;
      EXPECT_EQ(runOk(rayScene(a, o, d, 2)), runOk(rayScene(b, o, d, 2)));
      const std::string sph = sphereJson(rng.uniform(0.1, 0.6), rng.inCube(2.5));
      EXPECT_EQ(runOk(pairScene("distance", a, sph)), runOk(pairScene("distance", b, sph)));
      EXPECT_EQ(runOk(pairScene("intersect", sph, a)), runOk(pairScene("intersect", sph, b)));
    }
    // A second mesh crossing the first: mesh–mesh intersect agrees too.
    const std::string other = meshJson(meshgen::icosphere(1), ",\"position\":[1.2,0,0.8]");
    EXPECT_EQ(runOk(pairScene("intersect", a, other)), runOk(pairScene("intersect", b, other)));
  }
}

TEST(MeshScale, AMirroredClosedMeshKeepsOutwardNormals) {
  Rng rng(13);
  const TriangleMesh m = meshgen::icosphere(2);
  for (const Vec3 s : {Vec3{-1, 1, 1}, Vec3{1.5, -0.5, 2}, Vec3{-2, -1, -0.75}}) {
    SCOPED_TRACE(vec(s));
    const std::string a = meshJson(m, ",\"scale\":" + vec(s));
    int hits = 0;
    for (int k = 0; k < 30; ++k) {
      const Vec3 o = rng.unit() * 6;
      const Vec3 d = rng.inCube(0.3) - o;
      const JsonValue r = json(runOk(rayScene(a, o, d, 1)));
      ASSERT_TRUE(r.find("hit")->boolean);
      ++hits;
      const JsonValue& n = *r.find("normal");
      EXPECT_LT(n.items[0].number * d.x + n.items[1].number * d.y + n.items[2].number * d.z, 0);
    }
    EXPECT_EQ(hits, 30);
  }
}

TEST(MeshScale, AScaledMeshIsWrittenBackAsGiven) {
  const TriangleMesh m = meshgen::icosphere(0);
  const std::string text = rayScene(meshJson(m, ",\"scale\":[-2,0.5,3]"), {0, 0, 9}, {0, 0, -1}, 20);
  Scene scene;
  SceneError err;
  ASSERT_TRUE(parseScene(text, &scene, &err)) << err.message;
  // The shape holds the scaled vertices; the scene written back holds the given ones and the scale.
  EXPECT_EQ(scene.shapes[0].meshData->mesh.vertices, scaled(m, {-2, 0.5, 3}).vertices);
  const std::string back = sceneToJson(scene);
  Scene again;
  ASSERT_TRUE(parseScene(back, &again, &err)) << err.message;
  EXPECT_EQ(sceneToJson(again), back);
  const JsonValue shape = json(back).find("shapes")->items[0];
  EXPECT_EQ(shape.find("scale")->items[0].number, -2);
  EXPECT_EQ(shape.find("vertices")->items[3].items[1].number, m.vertices[3].y);
  EXPECT_EQ(shape.find("triangles")->items[2].items[1].number, m.triangles[2][1]);
}

TEST(MeshScale, BadScalesAreRefusedNamingTheField) {
  // Radius 4: a scale of 5e14 takes it to 2e15, past the 1e15 bound on coordinates.
  const TriangleMesh m = scaled(meshgen::icosphere(0), {4, 4, 4});
  for (const auto& c : {std::make_pair(std::string("[1,0,1]"), std::string("shapes[0].scale[1]")),
                        std::make_pair(std::string("[5e14,1,1]"), std::string("shapes[0].scale")),
                        std::make_pair(std::string("[1,1,\"NaN\"]"), std::string("shapes[0].scale[2]"))}) {
    Scene scene;
    SceneError err;
    EXPECT_FALSE(parseScene(rayScene(meshJson(m, ",\"scale\":" + c.first), {0, 0, 9}, {0, 0, -1}, 20), &scene, &err));
    EXPECT_EQ(err.field, c.second) << err.message;
  }
}

}  // namespace
}  // namespace collidoscope
