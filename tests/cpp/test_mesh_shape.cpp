// The "mesh" shape of the scene format and the object API (mesh_shape.h):
// parsing with errors naming the field, writing back exactly, the reported
// (not fatal) degenerate and duplicate triangles, the raycast query on a
// posed mesh, and the refusal of every other query.
//
// The ray reference is independent of the library's watertight test: a
// Möller–Trumbore ray–triangle test (T. Möller, B. Trumbore, "Fast, minimum
// storage ray/triangle intersection", 1997) written here, over every
// triangle of the world-space mesh. Its t agrees with the library's to
// rounding, so hits are compared with a tolerance and the triangle index
// only where the best two triangles are not within that tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/json.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/scene.h"
#include "mesh_gen.h"

namespace collidoscope {
namespace {

using meshgen::Rng;

// ------------------------------------------------------------ references
struct MtHit {
  bool hit = false;
  double t = 0;
  int triangle = -1;
  double second = std::numeric_limits<double>::infinity();  // next-best t of another triangle
};

// Möller–Trumbore, two-sided: t with o + t·d on triangle (a, b, c).
bool mollerTrumbore(const Vec3& o, const Vec3& d, const Vec3& a, const Vec3& b, const Vec3& c, double* t) {
  const Vec3 e1 = b - a, e2 = c - a;
  const Vec3 p = cross(d, e2);
  const double det = dot(e1, p);
  if (std::fabs(det) < 1e-300) return false;
  const double inv = 1 / det;
  const Vec3 s = o - a;
  const double u = dot(s, p) * inv;
  if (u < -1e-12 || u > 1 + 1e-12) return false;
  const Vec3 q = cross(s, e1);
  const double v = dot(d, q) * inv;
  if (v < -1e-12 || u + v > 1 + 1e-12) return false;
  *t = dot(e2, q) * inv;
  return true;
}

MtHit bruteForce(const TriangleMesh& m, const Transform& pose, const Vec3& o, const Vec3& d, double maxT) {
  MtHit best;
  for (int i = 0; i < static_cast<int>(m.triangles.size()); ++i) {
    const auto& tri = m.triangles[static_cast<std::size_t>(i)];
    double t;
    if (!mollerTrumbore(o, d, pose.apply(m.vertices[tri[0]]), pose.apply(m.vertices[tri[1]]),
                        pose.apply(m.vertices[tri[2]]), &t))
      continue;
    if (t < 0 || t > maxT) continue;
    if (!best.hit || t < best.t) {
      best.second = best.hit ? best.t : best.second;
      best = {true, t, i, best.second};
    } else if (t < best.second) {
      best.second = t;
    }
  }
  return best;
}

std::string meshJson(const TriangleMesh& m) {
  std::string s = "{\"type\": \"mesh\", \"vertices\": [";
  JsonWriter w;
  w.beginArray();
  for (const Vec3& v : m.vertices) {
    const double d[3] = {v.x, v.y, v.z};
    w.vec(d, 3);
  }
  w.endArray();
  s += w.str().substr(1);
  s += ", \"triangles\": [";
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    if (t) s += ", ";
    s += "[" + std::to_string(m.triangles[t][0]) + ", " + std::to_string(m.triangles[t][1]) + ", " +
         std::to_string(m.triangles[t][2]) + "]";
  }
  return s + "]";
}

// A raycast scene on mesh m at pose (position p, rotation q).
std::string rayScene(const TriangleMesh& m, const Transform& pose, const Vec3& o, const Vec3& d, double maxT,
                     const std::string& query = "raycast") {
  JsonWriter w;
  const double pp[3] = {pose.position.x, pose.position.y, pose.position.z};
  const double qq[4] = {pose.rotation.x, pose.rotation.y, pose.rotation.z, pose.rotation.w};
  const double oo[3] = {o.x, o.y, o.z}, dd[3] = {d.x, d.y, d.z};
  w.beginObject().key("position").vec(pp, 3).key("rotation").vec(qq, 4).endObject();
  std::string posePart = w.str();  // {"position":..,"rotation":..}
  JsonWriter r;
  r.beginObject().key("origin").vec(oo, 3).key("direction").vec(dd, 3).key("maxT").value(maxT).endObject();
  return "{\"version\": 1, \"query\": \"" + query + "\", \"shapes\": [" + meshJson(m) + ", " +
         posePart.substr(1, posePart.size() - 2) + "}], \"ray\": " + r.str() + "}";
}

JsonValue parseOk(const std::string& text) {
  JsonValue v;
  std::string why;
  EXPECT_TRUE(parseJson(text, &v, &why)) << why;
  return v;
}

bool run(const std::string& text, std::string* out, SceneError* err) {
  Scene scene;
  return parseScene(text, &scene, err) && runScene(scene, false, out, err);
}

SceneError sceneError(const std::string& text) {
  Scene scene;
  SceneError err;
  std::string out;
  EXPECT_FALSE(parseScene(text, &scene, &err) && runScene(scene, false, &out, &err)) << text.substr(0, 200);
  return err;
}

TriangleMesh tetra() {
  TriangleMesh m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  m.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  return m;
}

const char* kTetraShape =
    R"({"type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "triangles": [[0,2,1],[0,1,3],[0,3,2],[1,2,3]]})";

std::string withShape(const std::string& shape, const std::string& query = "raycast") {
  return "{\"version\": 1, \"query\": \"" + query + "\", \"shapes\": [" + shape +
         "], \"ray\": {\"origin\": [0.2, 0.2, 5], \"direction\": [0, 0, -1], \"maxT\": 10}}";
}

// ------------------------------------------------------------ the scene format
TEST(MeshShape, ParsesAndWritesBackExactly) {
  Rng rng(5);
  const TriangleMesh m = meshgen::randomSoup(rng, 40, 2.0, 0.7);
  const std::string text = rayScene(m, Transform{{0.5, -1, 2}, Quat{0, 0, 0, 1}}, {0, 0, 9}, {0, 0, -1}, 20);
  Scene scene;
  SceneError err;
  ASSERT_TRUE(parseScene(text, &scene, &err)) << err.field << ": " << err.message;
  ASSERT_EQ(scene.shapes[0].type, ShapeType::Mesh);
  ASSERT_NE(scene.shapes[0].meshData, nullptr);
  EXPECT_EQ(scene.shapes[0].meshData->mesh.vertices, m.vertices);
  EXPECT_EQ(scene.shapes[0].meshData->mesh.triangles, m.triangles);
  EXPECT_EQ(scene.shapes[0].meshData->forRays().normals.size(), m.triangles.size());
  const std::string again = sceneToJson(scene);
  Scene back;
  ASSERT_TRUE(parseScene(again, &back, &err)) << err.message;
  EXPECT_EQ(sceneToJson(back), again);
  EXPECT_EQ(back.shapes[0].meshData->mesh.vertices, m.vertices);
  EXPECT_EQ(back.shapes[0].meshData->mesh.triangles, m.triangles);
  EXPECT_NE(again.find("\"triangles\":[[0,1,2],[3,4,5]"), std::string::npos) << again.substr(0, 300);
}

TEST(MeshShape, CopiesShareTheImmutableRecord) {
  Shape s;
  ShapeError err;
  ASSERT_TRUE(makeMeshShape(tetra(), &s, &err));
  const Shape copy = s;
  EXPECT_EQ(copy.meshData.get(), s.meshData.get());
  EXPECT_EQ(s.meshData.use_count(), 2);
}

TEST(MeshShape, BadMeshesNameTheField) {
  struct Case {
    const char* shape;
    const char* field;
    const char* words;
  };
  const Case cases[] = {
      {R"({"type":"mesh","triangles":[[0,1,2]]})", "shapes[0].vertices", "missing"},
      {R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0]]})", "shapes[0].triangles", "missing"},
      {R"({"type":"mesh","vertices":[],"triangles":[]})", "shapes[0].vertices", "at least 1"},
      {R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0]],"triangles":[]})", "shapes[0].triangles", "at least 1"},
      {R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,"NaN",0]],"triangles":[[0,1,2]]})", "shapes[0].vertices[2][1]", "finite"},
      {R"({"type":"mesh","vertices":[[0,0,0],[1,0],[0,1,0]],"triangles":[[0,1,2]]})", "shapes[0].vertices[1]", "3 numbers"},
      {R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1e300,0]],"triangles":[[0,1,2]]})", "shapes[0].vertices[2][1]", "1e"},
      {R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0]],"triangles":[[0,1,2],[0,1,3]]})", "shapes[0].triangles[1][2]", "below the vertex count 3"},
      {R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0]],"triangles":[[0,-1,2]]})", "shapes[0].triangles[0][1]", "negative"},
      {R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0]],"triangles":[[0,1.5,2]]})", "shapes[0].triangles[0][1]", "whole number"},
      {R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0]],"triangles":[[0,1]]})", "shapes[0].triangles[0]", "3 numbers"},
      {R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0]],"triangles":[[0,1,1e20]]})", "shapes[0].triangles[0][2]", "below"},
      {R"({"type":"mesh","vertices":{},"triangles":[[0,1,2]]})", "shapes[0].vertices", "array"},
      {R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0]],"triangles":"x"})", "shapes[0].triangles", "array"},
      {R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0]],"triangles":[[0,1,2]],"points":[]})", "shapes[0].points", "unknown field"},
      {R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0]],"triangles":[[0,1,2]],"margin":0.1})", "shapes[0].margin", "no margin"},
  };
  for (const Case& c : cases) {
    const SceneError err = sceneError(withShape(c.shape));
    EXPECT_EQ(err.code, "invalid-scene") << c.shape;
    EXPECT_EQ(err.field, c.field) << c.shape << " → " << err.message;
    EXPECT_NE(err.message.find(c.words), std::string::npos) << c.shape << " → " << err.message;
  }
}

TEST(MeshShape, TooManyTrianglesAreRefusedBeforeReadingThem) {
  // kMaxMeshTriangles + 1 triangles of one repeated triple: refused by count
  // with the field "triangles", not by reading (or validating) them.
  std::string tris = "[";
  for (std::size_t i = 0; i <= kMaxMeshTriangles; ++i) tris += i ? ",[0,1,2]" : "[0,1,2]";
  tris += "]";
  const SceneError err =
      sceneError(withShape(std::string(R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0]],"triangles":)") + tris + "}"));
  EXPECT_EQ(err.field, "shapes[0].triangles");
  EXPECT_NE(err.message.find("the limit is 2000000"), std::string::npos) << err.message;
}

TEST(MeshShape, DegenerateAndDuplicateTrianglesAreReportedNotFatal) {
  // Triangle 1 is collinear (degenerate), triangle 2 repeats triangle 0
  // reversed: the mesh parses, the report names both, rays skip the
  // degenerate one and still hit the duplicate pair at the smaller index.
  const std::string shape =
      R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0],[2,0,0]],"triangles":[[0,1,2],[0,1,3],[0,2,1]]})";
  Scene scene;
  SceneError err;
  ASSERT_TRUE(parseScene(withShape(shape), &scene, &err)) << err.message;
  const MeshReport& r = scene.shapes[0].meshData->report();
  ASSERT_EQ(r.degenerate, std::vector<int>{1});
  ASSERT_EQ(r.duplicates.size(), 1u);
  EXPECT_EQ(r.duplicates[0][0], 2);
  EXPECT_EQ(r.duplicates[0][1], 0);
  const std::vector<std::string> lines = meshWarnings(r, 10);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].rfind("triangles[1]: degenerate", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("triangles[2]: duplicates triangles[0]", 0), 0u) << lines[1];
  EXPECT_EQ(meshWarnings(r, 1).back(), "... and 1 more");
  std::string out;
  ASSERT_TRUE(runScene(scene, false, &out, &err)) << err.message;
  const JsonValue res = parseOk(out);
  EXPECT_TRUE(res.find("hit")->boolean);
  EXPECT_EQ(res.find("triangle")->number, 0);
  EXPECT_EQ(res.find("t")->number, 5);
}

// ------------------------------------------------------------ raycast through the scene
// |e1|·|e2| / |e1 × e2| maximized over the corners: 1/sin of the smallest
// angle, the factor by which rounding grows in a triangle's normal and in t.
double conditionOf(const Vec3& a, const Vec3& b, const Vec3& c) {
  const double area2 = length(cross(b - a, c - a));
  const double la = length(b - c), lb = length(c - a), lc = length(a - b);
  const double longest = std::fmax(la, std::fmax(lb, lc));
  return std::fmax(1.0, longest * longest / std::fmax(area2, 1e-300));
}


void checkAgainstBruteForce(const TriangleMesh& m, Rng& rng, int rays, int* hitsOut) {
  const double s = meshgen::meshScale(m);
  int hits = 0;
  for (int i = 0; i < rays; ++i) {
    const Transform pose{rng.inCube(2), rng.rotation()};
    const auto& tri = m.triangles[static_cast<std::size_t>(rng.integer(static_cast<int>(m.triangles.size())))];
    const Vec3 target = i % 3 == 0 ? pose.apply(rng.inCube(s))
                                   : pose.apply((m.vertices[tri[0]] + m.vertices[tri[1]] * 2.0 + m.vertices[tri[2]]) / 4.0);
    const Vec3 o = pose.position + rng.unit() * (3 * s + 1);
    const Vec3 d = (target - o) * rng.uniform(0.3, 2);
    const double maxT = i % 4 == 0 ? rng.uniform(0.2, 1.2) * length(target - o) / length(d) : 1e300;
    std::string out;
    SceneError err;
    ASSERT_TRUE(run(rayScene(m, pose, o, d, maxT), &out, &err)) << err.field << ": " << err.message;
    const JsonValue r = parseOk(out);
    const MtHit b = bruteForce(m, pose, o, d, maxT);
    const double tol = 1e-9 * (1 + length(o) + s) / length(d);
    const bool hit = r.find("hit")->boolean;
    // Rays that graze maxT or an edge within rounding may differ; skip only those.
    const bool nearEdgeOfRange = b.hit && std::fabs(b.t - maxT) <= tol;
    if (hit != b.hit && !nearEdgeOfRange) {
      ADD_FAILURE() << "ray " << i << ": scene hit " << hit << ", brute force " << b.hit << " t " << b.t;
      return;
    }
    if (!hit || !b.hit) continue;
    ++hits;
    // Slivers: t and the normal are conditioned by 1/sin of the triangle's
    // smallest angle (cond below) and t by 1/|cos| of the ray's incidence.
    const auto& bt = m.triangles[static_cast<std::size_t>(b.triangle)];
    const double cond = conditionOf(pose.apply(m.vertices[bt[0]]), pose.apply(m.vertices[bt[1]]), pose.apply(m.vertices[bt[2]]));
    const double t = r.find("t")->number;
    EXPECT_NEAR(t, b.t, tol * cond) << "ray " << i;
    const int triangle = static_cast<int>(r.find("triangle")->number);
    if (b.second - b.t > tol) {
      EXPECT_EQ(triangle, b.triangle) << "ray " << i;
    }
    // The point from the barycentric coordinates equals origin + t·direction,
    // and the normal is the unit CCW normal of the reported triangle.
    const auto& ht = m.triangles[static_cast<std::size_t>(triangle)];
    const JsonValue* w = r.find("barycentric");
    const Vec3 a = pose.apply(m.vertices[ht[0]]), bb = pose.apply(m.vertices[ht[1]]), c = pose.apply(m.vertices[ht[2]]);
    const Vec3 p = a * w->items[0].number + bb * w->items[1].number + c * w->items[2].number;
    const Vec3 onRay = o + d * t;
    EXPECT_NEAR(length(p - onRay), 0, 1e-9 * (1 + length(o) + s)) << "ray " << i;
    const JsonValue* n = r.find("normal");
    const Vec3 normal{n->items[0].number, n->items[1].number, n->items[2].number};
    const Vec3 expect = cross(bb - a, c - a) / length(cross(bb - a, c - a));
    EXPECT_NEAR(length(normal - expect), 0, 1e-13 * conditionOf(a, bb, c)) << "ray " << i;
    EXPECT_FALSE(r.find("startedInside")->boolean);
    EXPECT_EQ(r.find("status")->string, "converged");
  }
  *hitsOut = hits;
}

TEST(MeshShapeRaycast, RandomSoupsMatchBruteForce) {
  Rng rng(11);
  for (int k = 0; k < 4; ++k) {
    const TriangleMesh m = meshgen::randomSoup(rng, 60 + 40 * k, 1.5, 0.6);
    int hits = 0;
    checkAgainstBruteForce(m, rng, 150, &hits);
    EXPECT_GT(hits, 40);
  }
}

TEST(MeshShapeRaycast, ClosedMeshesMatchBruteForce) {
  Rng rng(12);
  for (const TriangleMesh& m : {meshgen::icosphere(2), meshgen::torus(24, 8, 1.0, 0.3)}) {
    int hits = 0;
    checkAgainstBruteForce(m, rng, 200, &hits);
    EXPECT_GT(hits, 100);
  }
}

TEST(MeshShapeRaycast, SliversAndUnweldedCopies) {
  Rng rng(13);
  TriangleMesh sliver;
  sliver.vertices = {{0, 0, 0}, {1, 0, 0}, {0.5, 1e-7, 0}, {0, 0, 1}, {1, 1e-9, 1}, {0.5, 0, 1e-6}};
  sliver.triangles = {{0, 1, 2}, {3, 4, 5}, {0, 1, 3}};
  int hits = 0;
  checkAgainstBruteForce(sliver, rng, 100, &hits);
  checkAgainstBruteForce(meshgen::unweld(meshgen::icosphere(1)), rng, 150, &hits);
  EXPECT_GT(hits, 50);
}

TEST(MeshShapeRaycast, FromInsideAClosedMeshHitsTheSurfaceAhead) {
  // A ray from the centre of the unit icosphere: a mesh is a surface, so the
  // hit is at distance ~1 (the sphere's radius), not t = 0.
  std::string out;
  SceneError err;
  ASSERT_TRUE(run(rayScene(meshgen::icosphere(2), Transform{}, {0, 0, 0}, {0.3, 0.4, 0.5}, 100), &out, &err));
  const JsonValue r = parseOk(out);
  ASSERT_TRUE(r.find("hit")->boolean);
  const double dist = r.find("t")->number * std::sqrt(0.5);
  EXPECT_GT(dist, 0.9);
  EXPECT_LE(dist, 1 + 1e-12);
}

TEST(MeshShapeRaycast, MissHasNullFields) {
  std::string out;
  SceneError err;
  ASSERT_TRUE(run(rayScene(tetra(), Transform{}, {5, 5, 5}, {1, 0, 0}, 10), &out, &err)) << err.message;
  const JsonValue r = parseOk(out);
  EXPECT_FALSE(r.find("hit")->boolean);
  for (const char* k : {"t", "point", "normal", "triangle", "barycentric"})
    EXPECT_EQ(r.find(k)->kind, JsonValue::Kind::Null) << k;
}

// ------------------------------------------------------------ other queries are refused
TEST(MeshShape, OtherQueriesAreRefusedNamingTheShape) {
  // A mesh answers raycast, intersect, distance, shapecast and contacts
  // (test_mesh_pair.cpp); the rest are refused, naming the mesh.
  const std::string sphere = R"({"type": "sphere", "radius": 1})";
  const std::string mesh = kTetraShape;
  for (const char* q : {"penetration", "chungwang", "sat"}) {
    for (int meshAt = 0; meshAt < 2; ++meshAt) {
      const std::string shapes = meshAt == 0 ? mesh + ", " + sphere : sphere + ", " + mesh;
      const SceneError err =
          sceneError("{\"version\": 1, \"query\": \"" + std::string(q) + "\", \"shapes\": [" + shapes + "]}");
      EXPECT_EQ(err.code, "unsupported-query") << q;
      EXPECT_EQ(err.field, "shapes[" + std::to_string(meshAt) + "].type") << q << ": " << err.message;
      EXPECT_NE(err.message.find("not available"), std::string::npos) << q << ": " << err.message;
    }
  }
  // A surface contains no point (project answers: test_mesh_project.cpp).
  const SceneError err =
      sceneError("{\"version\": 1, \"query\": \"contains\", \"shapes\": [" + mesh + "], \"point\": [0, 0, 0]}");
  EXPECT_EQ(err.code, "unsupported-query");
  EXPECT_EQ(err.field, "shapes[0].type");
  EXPECT_NE(err.message.find("a mesh is a surface, not a solid"), std::string::npos) << err.message;
}

TEST(MeshShapeRaycast, TraceIsOneFrameWithTheAnswer) {
  // A ray down through (0.2, 0.2) from z = 5 meets the tetrahedron's
  // slanted face [1, 2, 3] (x + y + z = 1) first, at z = 0.6, moved up by
  // the pose to 1.6: t = 3.4.
  Scene scene;
  SceneError err;
  std::string out, plain;
  const std::string shape = std::string(kTetraShape).substr(0, std::string(kTetraShape).size() - 1) +
                            ", \"position\": [0, 0, 1]}";
  ASSERT_TRUE(parseScene(withShape(shape), &scene, &err)) << err.message;
  ASSERT_TRUE(runScene(scene, true, &out, &err)) << err.message;
  ASSERT_TRUE(runScene(scene, false, &plain, &err));
  const JsonValue t = parseOk(out);
  EXPECT_EQ(t.find("query")->string, "raycast");
  EXPECT_TRUE(t.find("mesh")->boolean);
  ASSERT_EQ(t.find("frames")->items.size(), 1u);
  const JsonValue& f = t.find("frames")->items[0];
  EXPECT_TRUE(f.find("hit")->boolean);
  EXPECT_EQ(f.find("triangle")->number, 3);
  EXPECT_EQ(f.find("triangleCount")->number, 4);
  const double corners[3][3] = {{1, 0, 1}, {0, 1, 1}, {0, 0, 2}};  // vertices 1, 2, 3 moved up by 1
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(f.find("vertices")->items[k].items[j].number, corners[k][j]);
  EXPECT_DOUBLE_EQ(t.find("result")->find("t")->number, 3.4);
  EXPECT_EQ(out.find(plain), out.find("\"result\":") + 9) << out;  // the result is run's, verbatim
}

TEST(MeshShape, HullAndObbTakeTheVertices) {
  // The tetrahedron's hull is itself: 4 vertices, 4 faces.
  std::string out;
  SceneError err;
  ASSERT_TRUE(run("{\"version\": 1, \"query\": \"hull\", \"shapes\": [" + std::string(kTetraShape) + "]}", &out, &err))
      << err.message;
  const JsonValue r = parseOk(out);
  EXPECT_EQ(r.find("vertices")->items.size(), 4u);
  EXPECT_EQ(r.find("faces")->items.size(), 4u);
  ASSERT_TRUE(run("{\"version\": 1, \"query\": \"obb\", \"shapes\": [" + std::string(kTetraShape) + "]}", &out, &err))
      << err.message;
}

// ------------------------------------------------------------ the object API
TEST(MeshShapeApi, SingleAndBatchEqualTheSceneBitForBit) {
  Rng rng(21);
  const TriangleMesh m = meshgen::torus(16, 6, 1.0, 0.35);
  Shape s;
  ShapeError se;
  ASSERT_TRUE(makeMeshShape(m, &s, &se));
  api::Registry reg;
  SceneError err;
  const int h = reg.add(s, &err);
  ASSERT_GT(h, 0);
  constexpr int k = static_cast<int>(api::Kind::Raycast);
  const int stride = api::kResultStride[k];
  const int n = 64;
  std::vector<double> poses, extras, batchOut(static_cast<std::size_t>(stride * n));
  std::vector<std::uint32_t> pairs;
  int hits = 0;
  for (int i = 0; i < n; ++i) {
    const Transform pose{rng.inCube(1), rng.rotation()};
    const Vec3 o = pose.position + rng.unit() * 4.0;
    const Vec3 d = (pose.apply(rng.inCube(1)) - o) * rng.uniform(0.5, 2);
    const double maxT = 1e9;
    double in[api::kInputSize] = {pose.position.x, pose.position.y, pose.position.z, pose.rotation.x,
                                  pose.rotation.y, pose.rotation.z, pose.rotation.w};
    const double extra[7] = {o.x, o.y, o.z, d.x, d.y, d.z, maxT};
    for (int j = 0; j < 7; ++j) in[2 * api::kPoseSize + j] = extra[j];
    double out[api::kMaxResultStride];
    ASSERT_TRUE(reg.query(api::Kind::Raycast, h, 0, in, nullptr, out, &err)) << err.message;
    poses.insert(poses.end(), in, in + 7);
    extras.insert(extras.end(), extra, extra + 7);
    pairs.push_back(static_cast<std::uint32_t>(i));
    // The scene route on the same shape and pose.
    std::string json;
    ASSERT_TRUE(run(rayScene(m, pose, o, d, maxT), &json, &err)) << err.message;
    const JsonValue r = parseOk(json);
    const bool hit = r.find("hit")->boolean;
    EXPECT_EQ(out[api::offsetOf(k, "hit")], hit ? 1.0 : 0.0);
    const MeshRayHit& last = reg.lastMeshHit();
    EXPECT_EQ(last.hit, hit);
    if (!hit) {
      EXPECT_TRUE(std::isnan(out[api::offsetOf(k, "t")]));
      continue;
    }
    ++hits;
    EXPECT_EQ(out[api::offsetOf(k, "t")], r.find("t")->number);
    EXPECT_EQ(last.triangle, r.find("triangle")->number);
    EXPECT_EQ(last.barycentric.x, r.find("barycentric")->items[0].number);
    EXPECT_EQ(last.barycentric.y, r.find("barycentric")->items[1].number);
    EXPECT_EQ(last.barycentric.z, r.find("barycentric")->items[2].number);
    for (int j = 0; j < 3; ++j) {
      EXPECT_EQ(out[api::offsetOf(k, "point") + j], r.find("point")->items[j].number);
      EXPECT_EQ(out[api::offsetOf(k, "normal") + j], r.find("normal")->items[j].number);
    }
  }
  EXPECT_GT(hits, 20);
  std::vector<int> handles(static_cast<std::size_t>(n), h);
  ASSERT_TRUE(reg.batch(api::Kind::Raycast, handles.data(), n, poses.data(), pairs.data(), n, extras.data(), nullptr,
                        batchOut.data(), &err))
      << err.message;
  for (int i = 0; i < n; ++i) {
    double in[api::kInputSize] = {};
    for (int j = 0; j < 7; ++j) in[j] = poses[static_cast<std::size_t>(7 * i + j)];
    for (int j = 0; j < 7; ++j) in[2 * api::kPoseSize + j] = extras[static_cast<std::size_t>(7 * i + j)];
    double out[api::kMaxResultStride];
    ASSERT_TRUE(reg.query(api::Kind::Raycast, h, 0, in, nullptr, out, &err));
    for (int j = 0; j < stride; ++j) {
      const double a = out[j], b = batchOut[static_cast<std::size_t>(stride * i + j)];
      EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << "query " << i << " field " << j;
    }
  }
}

TEST(MeshShapeApi, OtherQueriesAreRefusedNotAborted) {
  Shape s;
  ShapeError se;
  ASSERT_TRUE(makeMeshShape(tetra(), &s, &se));
  api::Registry reg;
  SceneError err;
  const int mesh = reg.add(s, &err);
  const int sphere = reg.add(Shape::sphere(1), &err);
  double in[api::kInputSize] = {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  double out[api::kMaxResultStride];
  for (int kind = 0; kind < static_cast<int>(api::Kind::Count); ++kind) {
    const api::Kind kd = static_cast<api::Kind>(kind);
    // Answered for a mesh and a convex shape (test_mesh_pair.cpp), and project (test_mesh_project.cpp).
    if (kd == api::Kind::Raycast || kd == api::Kind::Intersect || kd == api::Kind::Distance ||
        kd == api::Kind::Shapecast || kd == api::Kind::Project)
      continue;
    for (int meshAt = 0; meshAt < 2; ++meshAt) {
      if (api::isSingleShape(kd) && meshAt == 1) continue;
      const int a = meshAt == 0 ? mesh : sphere, b = meshAt == 0 ? sphere : mesh;
      EXPECT_FALSE(reg.query(kd, a, b, in, nullptr, out, &err)) << api::kindName(kd);
      EXPECT_EQ(err.code, "unsupported-query") << api::kindName(kd) << ": " << err.message;
      const std::string field = api::isSingleShape(kd) ? "shape.type" : (meshAt == 0 ? "a.type" : "b.type");
      EXPECT_EQ(err.field, field) << api::kindName(kd);
    }
  }
}

}  // namespace
}  // namespace collidoscope
