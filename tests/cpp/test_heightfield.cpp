// The "heightfield" shape (heightfield.h) in the scene format: parsing with
// errors naming the field, writing back as a heightfield, and the mesh
// queries on its cells.
//
// References are independent of the library's triangulation and tree:
//   * a flat field against a "plane" shape (closed forms, plane.h) at
//     points well inside the field's extent, where the two answer the
//     same question;
//   * the two triangles of every cell written out here from the documented
//     layout, cast against with a Möller–Trumbore test (a different
//     ray–triangle method from the library's watertight one), and measured
//     against with the library's convex "distance" on each triangle as a
//     "triangle" shape.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "collidoscope/heightfield.h"
#include "collidoscope/json.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/scene.h"
#include "mesh_gen.h"
#include "scene_json.h"

namespace collidoscope {
namespace {

using meshgen::Rng;
using scenejson::num;
using scenejson::vec;

using Grid = std::vector<std::vector<double>>;

std::string fieldJson(const Grid& h, double sx, double sz, const std::string& extra = "") {
  std::string s = "{\"type\":\"heightfield\",\"heights\":[";
  for (std::size_t i = 0; i < h.size(); ++i) {
    s += i ? ",[" : "[";
    for (std::size_t j = 0; j < h[i].size(); ++j) s += (j ? "," : "") + num(h[i][j]);
    s += "]";
  }
  return s + "],\"cellSize\":[" + num(sx) + "," + num(sz) + "]" + extra + "}";
}

std::string sphereJson(double r, const Vec3& p) {
  return "{\"type\":\"sphere\",\"radius\":" + num(r) + ",\"position\":" + vec(p) + "}";
}

JsonValue runOk(const std::string& text) {
  Scene scene;
  SceneError err;
  std::string out;
  EXPECT_TRUE(parseScene(text, &scene, &err) && runScene(scene, false, &out, &err))
      << err.field << ": " << err.message;
  JsonValue v;
  std::string why;
  EXPECT_TRUE(parseJson(out, &v, &why)) << why;
  return v;
}

std::string pairScene(const std::string& query, const std::string& a, const std::string& b, const std::string& extra = "") {
  return "{\"version\":1,\"query\":\"" + query + "\",\"shapes\":[" + a + "," + b + "]" + extra + "}";
}

std::string rayScene(const std::string& a, const Vec3& o, const Vec3& d, double maxT) {
  return "{\"version\":1,\"query\":\"raycast\",\"shapes\":[" + a + "],\"ray\":{\"origin\":" + vec(o) +
         ",\"direction\":" + vec(d) + ",\"maxT\":" + num(maxT) + "}}";
}

SceneError parseError(const std::string& shape) {
  Scene scene;
  SceneError err;
  EXPECT_FALSE(parseScene(rayScene(shape, {0, 5, 0}, {0, -1, 0}, 10), &scene, &err)) << shape.substr(0, 200);
  return err;
}

Vec3 v3(const JsonValue& v) { return {v.items[0].number, v.items[1].number, v.items[2].number}; }
double field(const JsonValue& o, const char* k) { return o.find(k)->number; }

Grid randomGrid(Rng& rng, int rows, int cols, double amplitude) {
  Grid h(static_cast<std::size_t>(rows), std::vector<double>(static_cast<std::size_t>(cols)));
  for (auto& row : h)
    for (double& x : row) x = rng.uniform(-amplitude, amplitude);
  return h;
}

// The world-space triangles of the field, from the layout heightfield.h
// documents: grid point (i, j) at (i·sx, h[i][j], j·sz), cell (i, j) split
// along (i, j)–(i+1, j+1) into [a, c, b] and [a, d, c], in that order.
std::vector<std::array<Vec3, 3>> cellTriangles(const Grid& h, double sx, double sz, const Transform& pose) {
  std::vector<std::array<Vec3, 3>> out;
  auto at = [&](std::size_t i, std::size_t j) { return pose.apply({double(i) * sx, h[i][j], double(j) * sz}); };
  for (std::size_t i = 0; i + 1 < h.size(); ++i)
    for (std::size_t j = 0; j + 1 < h[0].size(); ++j) {
      const Vec3 a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
      out.push_back({a, c, b});
      out.push_back({a, d, c});
    }
  return out;
}

// Möller–Trumbore, two-sided.
bool mollerTrumbore(const Vec3& o, const Vec3& d, const std::array<Vec3, 3>& t, double* tt) {
  const Vec3 e1 = t[1] - t[0], e2 = t[2] - t[0];
  const Vec3 p = cross(d, e2);
  const double det = dot(e1, p);
  if (std::fabs(det) < 1e-300) return false;
  const Vec3 s = o - t[0];
  const double u = dot(s, p) / det;
  if (u < -1e-12 || u > 1 + 1e-12) return false;
  const Vec3 q = cross(s, e1);
  const double v = dot(d, q) / det;
  if (v < -1e-12 || u + v > 1 + 1e-12) return false;
  *tt = dot(e2, q) / det;
  return true;
}

// ------------------------------------------------------------ the scene format
TEST(Heightfield, ParsesAsAMeshAndWritesBackAsAHeightfield) {
  Rng rng(3);
  const Grid h = randomGrid(rng, 4, 6, 1.5);
  const std::string shape = fieldJson(h, 0.5, 0.25, ",\"position\":[1,2,3]");
  Scene scene;
  SceneError err;
  ASSERT_TRUE(parseScene(rayScene(shape, {0, 5, 0}, {0, -1, 0}, 10), &scene, &err)) << err.message;
  const Shape& s = scene.shapes[0];
  ASSERT_EQ(s.type, ShapeType::Mesh);
  ASSERT_NE(s.meshData->heightfield, nullptr);
  EXPECT_EQ(s.meshData->mesh.vertices.size(), 24u);
  EXPECT_EQ(s.meshData->mesh.triangles.size(), 2u * 3 * 5);
  EXPECT_TRUE(s.meshData->report().degenerate.empty());
  const std::string text = sceneToJson(scene);
  EXPECT_NE(text.find("\"type\":\"heightfield\""), std::string::npos) << text;
  EXPECT_EQ(text.find("\"vertices\""), std::string::npos) << text;
  Scene back;
  ASSERT_TRUE(parseScene(text, &back, &err)) << err.message;
  EXPECT_EQ(sceneToJson(back), text);
  EXPECT_EQ(back.shapes[0].meshData->mesh.vertices, s.meshData->mesh.vertices);
  EXPECT_EQ(back.shapes[0].meshData->heightfield->heights, s.meshData->heightfield->heights);
}

TEST(Heightfield, BadFieldsAreRefusedNamingTheField) {
  struct Case {
    std::string shape, field, words;
  };
  const std::string hf = "{\"type\":\"heightfield\",";
  const std::vector<Case> cases = {
      {hf + "\"cellSize\":[1,1]}", "shapes[0].heights", "missing"},
      {hf + "\"heights\":[[0,0],[0,0]]}", "shapes[0].cellSize", "missing"},
      {hf + "\"heights\":[[0,0],[0,0,0]],\"cellSize\":[1,1]}", "shapes[0].heights[1]", "every row must have 2"},
      {hf + "\"heights\":[[0,0]],\"cellSize\":[1,1]}", "shapes[0].heights", "at least 2 rows"},
      {hf + "\"heights\":[[0],[0]],\"cellSize\":[1,1]}", "shapes[0].heights[0]", "at least 2 heights"},
      {hf + "\"heights\":[[0,0],[0,\"NaN\"]],\"cellSize\":[1,1]}", "shapes[0].heights[1][1]", "finite"},
      {hf + "\"heights\":[[0,0],5],\"cellSize\":[1,1]}", "shapes[0].heights[1]", "array of heights"},
      {hf + "\"heights\":[[0,0],[0,2e15]],\"cellSize\":[1,1]}", "shapes[0].heights[1][1]", "1e15"},
      {hf + "\"heights\":[[0,0],[0,0]],\"cellSize\":[0,1]}", "shapes[0].cellSize[0]", "positive"},
      {hf + "\"heights\":[[0,0],[0,0]],\"cellSize\":[1,-2]}", "shapes[0].cellSize[1]", "positive"},
      {hf + "\"heights\":[[0,0],[0,0]],\"cellSize\":[1,\"Infinity\"]}", "shapes[0].cellSize[1]", "finite"},
      {hf + "\"heights\":[[0,0],[0,0]],\"cellSize\":[1,1,1]}", "shapes[0].cellSize", "2 numbers"},
      {hf + "\"heights\":[[0,0],[0,0]],\"cellSize\":[1,1],\"vertices\":[]}", "shapes[0].vertices", "unknown field"},
      {hf + "\"heights\":[[0,0],[0,0]],\"cellSize\":[1,1],\"margin\":0.1}", "shapes[0].margin", "margin"},
      {hf + "\"heights\":[[0,0],[0,0]],\"cellSize\":[1,1],\"scale\":[1,0,1]}", "shapes[0].scale[1]", ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.shape);
    const SceneError err = parseError(c.shape);
    EXPECT_EQ(err.field, c.field) << err.message;
    EXPECT_NE(err.message.find(c.words), std::string::npos) << err.message;
  }
}

TEST(Heightfield, TheCellCapIsCheckedBeforeTheHeightsAreRead) {
  // 2 rows of 1 000 002 columns: 1 000 001 cells, one past the cap. The
  // second row is not even an array: the cap is what gets reported.
  std::string row = "[0";
  for (int j = 1; j < 1000002; ++j) row += ",0";
  row += "]";
  const SceneError err = parseError("{\"type\":\"heightfield\",\"heights\":[" + row + ",7],\"cellSize\":[1,1]}");
  EXPECT_EQ(err.field, "shapes[0].heights");
  EXPECT_NE(err.message.find("the limit is 1000000"), std::string::npos) << err.message;
  // The same limit on the C++ constructor, before any height is looked at.
  Heightfield big;
  big.rows = 1001;
  big.cols = 1002;
  Shape out;
  ShapeError se;
  EXPECT_FALSE(makeHeightfieldShape(big, &out, &se));
  EXPECT_EQ(se.field, "heights");
  EXPECT_NE(se.message.find("1001000 cells"), std::string::npos) << se.message;
}

// ------------------------------------------------------------ queries
TEST(Heightfield, AFlatFieldAnswersAsAPlaneInsideItsExtent) {
  // 9 × 9 points, cells 0.5: x, z in [−2, 2] after the pose.
  const Grid flat(9, std::vector<double>(9, 0.0));
  const std::string f = fieldJson(flat, 0.5, 0.5, ",\"position\":[-2,0,-2]");
  const std::string p = "{\"type\":\"plane\",\"normal\":[0,1,0],\"offset\":0}";
  for (const double y : {1.5, 0.6, 0.4, 0.1}) {
    SCOPED_TRACE(y);
    const std::string s = sphereJson(0.5, {0.3, y, -0.7});
    const JsonValue fd = runOk(pairScene("distance", f, s)), pd = runOk(pairScene("distance", p, s));
    EXPECT_NEAR(field(fd, "distance"), field(pd, "distance"), 1e-12);
    EXPECT_EQ(runOk(pairScene("intersect", f, s)).find("intersecting")->boolean,
              runOk(pairScene("intersect", p, s)).find("intersecting")->boolean);
    if (field(pd, "distance") > 0) {
      EXPECT_NEAR(length(v3(*fd.find("pointA")) - v3(*pd.find("pointA"))), 0, 1e-12);
      EXPECT_NEAR(length(v3(*fd.find("pointB")) - v3(*pd.find("pointB"))), 0, 1e-12);
    } else {
      // Touching or overlapping: the deepest contact is the plane's contact.
      const JsonValue fc = runOk(pairScene("contacts", f, s, ",\"margin\":0"));
      const JsonValue pcs = runOk(pairScene("contacts", p, s, ",\"margin\":0"));
      ASSERT_EQ(pcs.find("contacts")->items.size(), 1u);
      const JsonValue& pc = pcs.find("contacts")->items[0];
      double deepest = -INFINITY;
      Vec3 n;
      for (const JsonValue& c : fc.find("contacts")->items)
        if (field(c, "depth") > deepest) deepest = field(c, "depth"), n = v3(*c.find("normal"));
      EXPECT_NEAR(deepest, field(pc, "depth"), 1e-12);
      EXPECT_NEAR(length(n - v3(*pc.find("normal"))), 0, 1e-12);
    }
    const Vec3 o{0.35, y + 2, -1.1};
    const Vec3 d{0.1, -1, 0.05};
    const JsonValue fr = runOk(rayScene(f, o, d, 10)), pr = runOk(rayScene(p, o, d, 10));
    ASSERT_TRUE(fr.find("hit")->boolean);
    EXPECT_NEAR(field(fr, "t"), field(pr, "t"), 1e-12);
    EXPECT_NEAR(length(v3(*fr.find("normal")) - Vec3{0, 1, 0}), 0, 1e-15);
  }
  // A falling sphere meets the floor when its bottom reaches y = 0.
  const JsonValue cast = runOk(pairScene("shapecast", f, sphereJson(0.5, {0.2, 2.5, 0.4}),
                                         ",\"motion\":{\"translationB\":[0,-4,0]}"));
  ASSERT_TRUE(cast.find("hit")->boolean);
  EXPECT_NEAR(field(cast, "t"), 0.5, 1e-9);
}

TEST(Heightfield, RaycastsMatchTheCellsTrianglesByBruteForce) {
  Rng rng(11);
  for (int trial = 0; trial < 6; ++trial) {
    const int rows = 3 + trial, cols = 2 + 2 * trial;
    const double sx = rng.uniform(0.2, 1.5), sz = rng.uniform(0.2, 1.5);
    const Grid h = randomGrid(rng, rows, cols, 1.0);
    const Transform pose{{rng.uniform(-2, 2), rng.uniform(-2, 2), rng.uniform(-2, 2)},
                         Quat{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)}};
    const Quat& q = pose.rotation;
    const std::string shape = fieldJson(h, sx, sz, ",\"position\":" + vec(pose.position) + ",\"rotation\":[" + num(q.x) +
                                                       "," + num(q.y) + "," + num(q.z) + "," + num(q.w) + "]");
    // The pose as the scene normalizes the quaternion, for the reference.
    Scene scene;
    SceneError err;
    ASSERT_TRUE(parseScene(rayScene(shape, {0, 0, 0}, {1, 0, 0}, 1), &scene, &err)) << err.message;
    const auto tris = cellTriangles(h, sx, sz, scene.shapes[0].pose);
    const Vec3 centre = scene.shapes[0].pose.apply({0.5 * sx * (rows - 1), 0, 0.5 * sz * (cols - 1)});
    int hits = 0;
    for (int k = 0; k < 40; ++k) {
      const Vec3 o = centre + Vec3{rng.uniform(-6, 6), rng.uniform(-6, 6), rng.uniform(-6, 6)};
      const Vec3 target = centre + Vec3{rng.uniform(-2, 2), rng.uniform(-1, 1), rng.uniform(-2, 2)};
      const Vec3 d = target - o;
      double best = INFINITY, second = INFINITY;
      int bestTri = -1;
      for (std::size_t t = 0; t < tris.size(); ++t) {
        double tt;
        if (!mollerTrumbore(o, d, tris[t], &tt) || tt < 0 || tt > 2) continue;
        if (tt < best) second = best, best = tt, bestTri = static_cast<int>(t);
        else if (tt < second) second = tt;
      }
      const JsonValue r = runOk(rayScene(shape, o, d, 2));
      SCOPED_TRACE(trial * 100 + k);
      ASSERT_EQ(r.find("hit")->boolean, bestTri >= 0);
      if (bestTri < 0) continue;
      ++hits;
      EXPECT_NEAR(field(r, "t"), best, 1e-9);
      if (second - best > 1e-9) {
        EXPECT_EQ(static_cast<int>(field(r, "triangle")), bestTri);
        // The point from the barycentric coordinates, on the reference's triangle.
        const Vec3 b = v3(*r.find("barycentric"));
        const auto& tr = tris[static_cast<std::size_t>(bestTri)];
        const Vec3 p = tr[0] * b.x + tr[1] * b.y + tr[2] * b.z;
        EXPECT_NEAR(length(p - (o + d * best)), 0, 1e-9);
        // The reported normal is the CCW normal of the layout's triangle.
        const Vec3 c = cross(tr[1] - tr[0], tr[2] - tr[0]);
        const Vec3 n = c / length(c);
        EXPECT_NEAR(length(v3(*r.find("normal")) - n), 0, 1e-9);
      }
    }
    EXPECT_GT(hits, 5);
  }
}

TEST(Heightfield, DistanceAndIntersectMatchTheCellsTrianglesByBruteForce) {
  Rng rng(19);
  const Grid h = randomGrid(rng, 5, 4, 0.8);
  const double sx = 0.7, sz = 0.9;
  const std::string f = fieldJson(h, sx, sz);
  const auto tris = cellTriangles(h, sx, sz, Transform{});
  for (int k = 0; k < 25; ++k) {
    const Vec3 c{rng.uniform(-0.5, 3.3), rng.uniform(-1.5, 1.5), rng.uniform(-0.5, 3.2)};
    const double r = rng.uniform(0.05, 0.4);
    const std::string s = sphereJson(r, c);
    double best = INFINITY;
    for (const auto& t : tris) {
      const std::string tri = "{\"type\":\"triangle\",\"points\":[" + vec(t[0]) + "," + vec(t[1]) + "," + vec(t[2]) + "]}";
      best = std::fmin(best, field(runOk(pairScene("distance", tri, s)), "distance"));
    }
    SCOPED_TRACE(k);
    EXPECT_NEAR(field(runOk(pairScene("distance", f, s)), "distance"), best, 1e-9);
    EXPECT_EQ(runOk(pairScene("intersect", s, f)).find("intersecting")->boolean, best <= 0);
  }
}

TEST(Heightfield, ATriangleIndexNamesItsCell) {
  // Cell (i, j) owns triangles 2·(i·(cols − 1) + j) (the side of the
  // diagonal towards +x) and the next one (towards +z).
  const Grid flat(4, std::vector<double>(5, 0.0));
  const std::string f = fieldJson(flat, 1, 1);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      const JsonValue xSide = runOk(rayScene(f, {i + 0.7, 1, j + 0.2}, {0, -1, 0}, 2));
      const JsonValue zSide = runOk(rayScene(f, {i + 0.2, 1, j + 0.7}, {0, -1, 0}, 2));
      EXPECT_EQ(field(xSide, "triangle"), 2 * (i * 4 + j));
      EXPECT_EQ(field(zSide, "triangle"), 2 * (i * 4 + j) + 1);
    }
}

TEST(Heightfield, MeshMeshIntersectSeesAFieldAsItsTriangles) {
  // A hill at grid point (1, 1) of height 1 under a flat field at height
  // y0: they cross when y0 < 1 (and y0 > 0, where the hill's base is).
  Grid hill(3, std::vector<double>(3, 0.0));
  hill[1][1] = 1;
  const std::string a = fieldJson(hill, 1, 1);
  for (const double y0 : {1.2, 0.5}) {
    const Grid flat(2, std::vector<double>(2, y0));
    const std::string b = fieldJson(flat, 2, 2);
    EXPECT_EQ(runOk(pairScene("intersect", a, b)).find("intersecting")->boolean, y0 < 1) << y0;
  }
}

TEST(Heightfield, AScaledFieldIsTheFieldOfScaledCells) {
  Rng rng(23);
  const Grid h = randomGrid(rng, 4, 3, 1.0);
  Grid scaled = h;
  for (auto& row : scaled)
    for (double& x : row) x *= 1.5;
  // scale [2, 1.5, 3] on cells 0.5 × 0.25 is the field of heights × 1.5 on
  // cells 1 × 0.75: the same vertices bit for bit (×2 and ×3 of 0.5 and 0.25
  // are exact, and so is the reference's own ×1.5 of each height).
  const std::string a = fieldJson(h, 0.5, 0.25, ",\"scale\":[2,1.5,3]");
  const std::string b = fieldJson(scaled, 1, 0.75);
  for (int k = 0; k < 10; ++k) {
    const Vec3 o{rng.uniform(0, 3), 4, rng.uniform(0, 1.5)};
    const Vec3 d{rng.uniform(-0.2, 0.2), -1, rng.uniform(-0.2, 0.2)};
    EXPECT_EQ(runOk(rayScene(a, o, d, 10)).find("t")->number, runOk(rayScene(b, o, d, 10)).find("t")->number);
    const std::string s = sphereJson(0.3, {o.x, rng.uniform(-1, 2), o.z});
    EXPECT_EQ(field(runOk(pairScene("distance", a, s)), "distance"), field(runOk(pairScene("distance", b, s)), "distance"));
  }
  // Written back as given: the heightfield and its scale.
  Scene scene;
  SceneError err;
  ASSERT_TRUE(parseScene(rayScene(a, {0, 5, 0}, {0, -1, 0}, 10), &scene, &err)) << err.message;
  const std::string text = sceneToJson(scene);
  EXPECT_NE(text.find("\"cellSize\":[0.5,0.25],\"scale\":[2,1.5,3]"), std::string::npos) << text;
  // A mirror (x → −x) keeps the normals up.
  const std::string m = fieldJson(h, 0.5, 0.25, ",\"scale\":[-1,1,1]");
  const JsonValue r = runOk(rayScene(m, {-0.6, 5, 0.2}, {0, -1, 0}, 10));
  ASSERT_TRUE(r.find("hit")->boolean);
  EXPECT_GT(v3(*r.find("normal")).y, 0);
}

}  // namespace
}  // namespace collidoscope
