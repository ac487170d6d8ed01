// The scene format, version 1 (DESIGN.md "Scene format"): valid scenes
// parse, bad input is answered with an error that names the field (never a
// crash or a silent default), runScene answers the format's result JSON,
// and parse → sceneToJson → parse keeps every double bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "collidoscope/chung_wang.h"
#include "collidoscope/json.h"
#include "collidoscope/raycast.h"
#include "collidoscope/sat.h"
#include "collidoscope/scene.h"
#include "reference.h"

namespace {

using collidoscope::JsonValue;
using collidoscope::Quat;
using collidoscope::QueryKind;
using collidoscope::Scene;
using collidoscope::SceneError;
using collidoscope::Shape;
using collidoscope::ShapeType;
using collidoscope::Vec3;

std::string sceneWith(const std::string& shapeA, const std::string& shapeB = R"({"type":"point"})",
                      const std::string& query = "distance") {
  return R"({"version":1,"shapes":[)" + shapeA + "," + shapeB + R"(],"query":")" + query + R"("})";
}

// Parses `json`, expects failure with `code` and `field`.
void expectError(const std::string& json, const std::string& code, const std::string& field) {
  Scene s;
  SceneError err;
  const bool ok = collidoscope::parseScene(json, &s, &err);
  EXPECT_FALSE(ok) << json;
  EXPECT_EQ(err.code, code) << json << "\n  message: " << err.message;
  EXPECT_EQ(err.field, field) << json << "\n  message: " << err.message;
  EXPECT_FALSE(err.message.empty());
}

Scene parseOk(const std::string& json) {
  Scene s;
  SceneError err;
  EXPECT_TRUE(collidoscope::parseScene(json, &s, &err)) << json << "\n  " << err.code << " " << err.field << ": "
                                                        << err.message;
  return s;
}

TEST(Scene, ValidScenesOfEveryShapeTypeParse) {
  const std::string shapes[] = {
      R"({"type":"point"})",
      R"({"type":"sphere","radius":0.5,"position":[1,2,3]})",
      R"({"type":"box","halfExtents":[1,2,3],"rotation":[0,0,0,2]})",
      R"({"type":"capsule","radius":0.25,"halfHeight":1,"margin":0.1})",
      R"({"type":"cylinder","radius":1,"halfHeight":0.5})",
      R"({"type":"cone","radius":1,"halfHeight":0.5})",
      R"({"type":"ellipsoid","radii":[1,2,3]})",
      R"({"type":"segment","points":[[0,0,0],[1,0,0]]})",
      R"({"type":"triangle","points":[[0,0,0],[1,0,0],[0,1,0]]})",
      R"({"type":"polytope","points":[[0,0,0]]})",
  };
  for (int i = 0; i < 10; ++i) {
    const Scene s = parseOk(sceneWith(shapes[i]));
    ASSERT_EQ(s.shapes.size(), 2u);
    EXPECT_EQ(s.shapes[0].type, static_cast<ShapeType>(i));
    EXPECT_EQ(s.query, QueryKind::Distance);
  }
  const Scene s = parseOk(sceneWith(shapes[1], shapes[2]));
  EXPECT_EQ(s.shapes[0].radius, 0.5);
  EXPECT_EQ(s.shapes[0].pose.position, Vec3(1, 2, 3));
  EXPECT_EQ(s.shapes[0].pose.rotation.w, 1.0);  // default rotation
  EXPECT_EQ(s.shapes[1].pose.rotation.w, 1.0);  // [0,0,0,2] normalized
  EXPECT_EQ(s.shapes[1].halfExtents, Vec3(1, 2, 3));
  EXPECT_EQ(parseOk(sceneWith(shapes[3])).shapes[0].margin, 0.1);

  const Scene cast = parseOk(
      R"({"version":1,"shapes":[{"type":"box","halfExtents":[1,1,1]}],"query":"raycast",)"
      R"("ray":{"origin":[0,0,0],"direction":[1,0,0],"maxT":2},"step":3})");
  EXPECT_TRUE(cast.hasRay);
  EXPECT_EQ(cast.ray.maxT, 2.0);
  EXPECT_EQ(cast.ray.direction, Vec3(1, 0, 0));
  EXPECT_TRUE(cast.hasStep);
  EXPECT_EQ(cast.step, 3);
  const Scene sweep = parseOk(
      R"({"version":1,"shapes":[{"type":"box","halfExtents":[1,1,1]},{"type":"sphere","radius":1}],)"
      R"("query":"shapecast","motion":{"translationA":[1,0,0]}})");
  EXPECT_TRUE(sweep.hasMotion);
  EXPECT_EQ(sweep.motion.translationA, Vec3(1, 0, 0));
  EXPECT_EQ(sweep.motion.translationB, Vec3(0, 0, 0));
  const Scene hull = parseOk(R"({"version":1,"shapes":[{"type":"polytope","points":[[0,0,0],[1,0,0]]}],"query":"hull"})");
  EXPECT_EQ(hull.shapes.size(), 1u);
}

TEST(Scene, ErrorsNameTheField) {
  const std::string P = R"({"type":"point"})";
  expectError(sceneWith(R"({"type":"blob"})"), "invalid-scene", "shapes[0].type");
  expectError(sceneWith(P, R"({"radius":1})"), "invalid-scene", "shapes[1].type");
  expectError(sceneWith(R"({"type":"sphere"})"), "invalid-scene", "shapes[0].radius");
  expectError(sceneWith(R"({"type":"capsule","radius":1})"), "invalid-scene", "shapes[0].halfHeight");
  expectError(sceneWith(R"({"type":"sphere","radius":-1})"), "invalid-scene", "shapes[0].radius");
  expectError(sceneWith(P, R"({"type":"cone","radius":1,"halfHeight":-0.5})"), "invalid-scene",
              "shapes[1].halfHeight");
  expectError(sceneWith(R"({"type":"sphere","radius":"NaN"})"), "invalid-scene", "shapes[0].radius");
  expectError(sceneWith(R"({"type":"sphere","radius":"Infinity"})"), "invalid-scene", "shapes[0].radius");
  expectError(sceneWith(R"({"type":"sphere","radius":1e999})"), "invalid-scene", "shapes[0].radius");
  expectError(sceneWith(P, R"({"type":"point","position":[0,0,-1e999]})"), "invalid-scene",
              "shapes[1].position[2]");
  expectError(sceneWith(R"({"type":"sphere","radius":"1"})"), "invalid-scene", "shapes[0].radius");
  expectError(sceneWith(R"({"type":"box","halfExtents":[1,2]})"), "invalid-scene", "shapes[0].halfExtents");
  expectError(sceneWith(R"({"type":"box","halfExtents":[1,-2,3]})"), "invalid-scene", "shapes[0].halfExtents[1]");
  expectError(sceneWith(R"({"type":"ellipsoid","radii":[1,2,"NaN"]})"), "invalid-scene", "shapes[0].radii[2]");
  expectError(sceneWith(R"({"type":"segment","points":[[0,0,0]]})"), "invalid-scene", "shapes[0].points");
  expectError(sceneWith(R"({"type":"segment","points":[[0,0,0],[1,1,1],[2,2,2]]})"), "invalid-scene",
              "shapes[0].points");
  expectError(sceneWith(R"({"type":"triangle","points":[[0,0,0],[1,1,1]]})"), "invalid-scene", "shapes[0].points");
  expectError(sceneWith(R"({"type":"polytope","points":[]})"), "invalid-scene", "shapes[0].points");
  expectError(sceneWith(R"({"type":"polytope","points":[[0,0,0],[1,1,1],[2,2],[3,3,3]]})"), "invalid-scene",
              "shapes[0].points[2]");
  expectError(sceneWith(R"({"type":"polytope","points":[[0,0,0],[1,1,1],[2,2,2],[3,"NaN",3]]})"), "invalid-scene",
              "shapes[0].points[3][1]");
  expectError(sceneWith(R"({"type":"box","halfExtents":[1,1,1],"radius":2})"), "invalid-scene", "shapes[0].radius");
  expectError(sceneWith(R"({"type":"point","rotation":[0,0,0,0]})"), "invalid-scene", "shapes[0].rotation");
  expectError(sceneWith(R"({"type":"point","rotation":[0,0,1]})"), "invalid-scene", "shapes[0].rotation");
  expectError(sceneWith(R"({"type":"point","margin":-0.1})"), "invalid-scene", "shapes[0].margin");
  expectError(sceneWith(R"({"type":"point","position":[1e16,0,0]})"), "invalid-scene", "shapes[0].position[0]");
}

TEST(Scene, TopLevelErrors) {
  const std::string two = R"("shapes":[{"type":"point"},{"type":"point"}])";
  expectError(R"({"version":1,)" + two + R"(,"query":"distance","colour":"red"})", "invalid-scene", "colour");
  expectError(R"({"version":2,)" + two + R"(,"query":"distance"})", "invalid-scene", "version");
  expectError(R"({"version":"1",)" + two + R"(,"query":"distance"})", "invalid-scene", "version");
  expectError(R"({)" + two + R"(,"query":"distance"})", "invalid-scene", "version");
  expectError(R"({"version":1,)" + two + R"(,"query":"teleport"})", "invalid-scene", "query");
  expectError(R"({"version":1,)" + two + R"(})", "invalid-scene", "query");
  expectError(R"({"version":1,"shapes":[{"type":"point"}],"query":"distance"})", "invalid-scene", "shapes");
  expectError(R"({"version":1,"query":"distance"})", "invalid-scene", "shapes");
  expectError(R"({"version":1,)" + two + R"(,"query":"distance","step":1.5})", "invalid-scene", "step");
  expectError(R"({"version":1,)" + two + R"(,"query":"raycast","ray":{"origin":[0,0,0],"direction":[1,0,0],"length":1}})",
              "invalid-scene", "ray.length");
  expectError(R"({"version":1,"shapes":[{"type":"point"}],"query":"raycast","ray":{"origin":[0,0,0],"direction":[0,0,0]}})",
              "invalid-scene", "ray.direction");
  expectError(R"({"version":1,"shapes":[{"type":"point"}],"query":"raycast","ray":{"origin":[0,0,"NaN"],"direction":[1,0,0]}})",
              "invalid-scene", "ray.origin[2]");
  expectError(R"([1,2,3])", "invalid-scene", "");
  expectError(R"({"version":1,)" + two + R"(,"query":"distance",})", "invalid-json", "");
  expectError(R"({"version":1,)" + two + R"(,"query":"distance"} x)", "invalid-json", "");
  expectError("", "invalid-json", "");
  expectError(R"({"version":NaN})", "invalid-json", "");
}

TEST(Scene, QueryInputsMissingOrUnusedAreErrors) {
  // DESIGN.md: a missing field is answered with an error naming it, never a
  // silent default. A raycast scene without its "ray" has nothing to cast.
  expectError(R"({"version":1,"shapes":[{"type":"sphere","radius":1}],"query":"raycast"})", "invalid-scene", "ray");
  const std::string two = R"("shapes":[{"type":"point"},{"type":"point"}])";
  expectError(R"({"version":1,)" + two + R"(,"query":"shapecast"})", "invalid-scene", "motion");
  // ...and a field that the query does not use is not silently ignored.
  expectError(R"({"version":1,)" + two + R"(,"query":"distance","ray":{"origin":[0,0,0],"direction":[1,0,0]}})",
              "invalid-scene", "ray");
}

TEST(Scene, DeepNestingIsInvalidJsonNotACrash) {
  for (int depth : {100, 10000, 200000}) {
    const std::string deep = std::string(depth, '[') + std::string(depth, ']');
    expectError(deep, "invalid-json", "");
    const std::string inShape = sceneWith(R"({"type":"point","position":)" + deep + "}");
    expectError(inShape, "invalid-json", "");
  }
  // 60 levels are within the documented cap (64) and parse as JSON.
  JsonValue v;
  std::string why;
  EXPECT_TRUE(collidoscope::parseJson(std::string(60, '[') + std::string(60, ']'), &v, &why)) << why;
}

// Runs a scene that must succeed and returns its parsed result.
static JsonValue runOk(const std::string& text) {
  const Scene s = parseOk(text);
  std::string out;
  SceneError err;
  EXPECT_TRUE(collidoscope::runScene(s, false, &out, &err)) << err.field << ": " << err.message;
  JsonValue v;
  std::string why;
  EXPECT_TRUE(collidoscope::parseJson(out, &v, &why)) << why;
  return v;
}

// Structural equality of two parsed JSON values (numbers bit for bit).
static bool sameJson(const JsonValue& a, const JsonValue& b) {
  if (a.kind != b.kind || a.boolean != b.boolean || a.string != b.string || a.items.size() != b.items.size() ||
      a.members.size() != b.members.size())
    return false;
  if (a.kind == JsonValue::Kind::Number && !(a.number == b.number || (a.number != a.number && b.number != b.number)))
    return false;
  for (std::size_t i = 0; i < a.items.size(); ++i)
    if (!sameJson(a.items[i], b.items[i])) return false;
  for (std::size_t i = 0; i < a.members.size(); ++i)
    if (a.members[i].first != b.members[i].first || !sameJson(a.members[i].second, b.members[i].second)) return false;
  return true;
}

// sat, chungwang, raycast and shapecast traces: the result is run's, bit
// for bit; every frame names a kind and a pseudocode line in range and
// carries no text (captions are written by the JS API); the last frame is
// "done".
TEST(Scene, NewQueriesTraceWithRunsResult) {
  const std::string boxes =
      R"("shapes":[{"type":"box","halfExtents":[1,1,1]},{"type":"box","halfExtents":[1,0.5,1],"position":[1.7,0.4,0.2],"rotation":[0.1,0.2,0.3,0.9]}])";
  const std::string curved =
      R"("shapes":[{"type":"cylinder","radius":1,"halfHeight":1},{"type":"ellipsoid","radii":[1,0.5,0.7],"position":[2.4,0.3,0]}])";
  const std::vector<std::string> scenes = {
      R"({"version":1,)" + boxes + R"(,"query":"sat"})",
      R"({"version":1,)" + boxes + R"(,"query":"chungwang"})",
      R"({"version":1,)" + curved + R"(,"query":"chungwang"})",
      R"({"version":1,"shapes":[{"type":"cylinder","radius":1,"halfHeight":1}],"query":"raycast","ray":{"origin":[-4,0.3,0.2],"direction":[1,0.05,0],"maxT":10}})",
      R"({"version":1,)" + curved + R"(,"query":"shapecast","motion":{"translationB":[-3,0,0]}})",
  };
  for (const std::string& text : scenes) {
    SCOPED_TRACE(text);
    const Scene s = parseOk(text);
    std::string ran, traced;
    SceneError err;
    ASSERT_TRUE(collidoscope::runScene(s, false, &ran, &err)) << err.message;
    ASSERT_TRUE(collidoscope::runScene(s, true, &traced, &err)) << err.message;
    JsonValue r, t;
    std::string why;
    ASSERT_TRUE(collidoscope::parseJson(ran, &r, &why)) << why;
    ASSERT_TRUE(collidoscope::parseJson(traced, &t, &why)) << why;
    EXPECT_TRUE(sameJson(r, *t.find("result"))) << ran << "\n" << traced.substr(0, 400);
    const std::string query = t.find("query")->string;
    const int lines = query == "sat"         ? collidoscope::sat_lines::kCount
                      : query == "chungwang" ? collidoscope::chung_wang_lines::kCount
                                             : collidoscope::ray_lines::kCount;
    EXPECT_EQ(t.find("pseudocode"), nullptr);
    const auto& frames = t.find("frames")->items;
    ASSERT_GE(frames.size(), 2u);
    for (const JsonValue& f : frames) {
      EXPECT_EQ(f.find("kind")->kind, JsonValue::Kind::String);
      EXPECT_GE(f.find("line")->number, 1);
      EXPECT_LE(f.find("line")->number, lines);
      EXPECT_EQ(f.find("caption"), nullptr);
    }
    EXPECT_EQ(frames.back().find("kind")->string, "done");
  }
}

TEST(Scene, ChungWangQueryAgreesWithTheGeometry) {
  // Unit spheres 3 apart: separated, the axis along +x; 1.5 apart: intersecting, no axis.
  const auto scene = [](double x) {
    return R"({"version":1,"shapes":[{"type":"sphere","radius":1},{"type":"sphere","radius":1,"position":[)" +
           std::to_string(x) + R"(,0,0]}],"query":"chungwang"})";
  };
  JsonValue v = runOk(scene(3));
  EXPECT_FALSE(v.find("intersecting")->boolean);
  EXPECT_NEAR(v.find("separatingAxis")->items[0].number, 1.0, 1e-12);
  EXPECT_EQ(v.find("status")->string, "separated");
  v = runOk(scene(1.5));
  EXPECT_TRUE(v.find("intersecting")->boolean);
  EXPECT_EQ(v.find("separatingAxis")->kind, JsonValue::Kind::Null);
}

TEST(Scene, SatQueryAnswersBoxes) {
  // Unit boxes, B at (1.5, 0.2, 0): overlap 2 − 1.5 = 0.5 along +x (the
  // least of 0.5, 1.8, 2). Apart at (2.5, 0, 0): gap 0.5 along +x.
  for (const double x : {1.5, 2.5}) {
    const std::string shapes = R"("shapes":[{"type":"box","halfExtents":[1,1,1]},{"type":"box","halfExtents":[1,1,1],)"
                               R"("position":[)" + std::to_string(x) + R"(,0.2,0]}])";
    const Scene s = parseOk(R"({"version":1,)" + shapes + R"(,"query":"sat"})");
    std::string out;
    SceneError err;
    ASSERT_TRUE(collidoscope::runScene(s, false, &out, &err)) << err.message;
    JsonValue v;
    std::string why;
    ASSERT_TRUE(collidoscope::parseJson(out, &v, &why)) << why;
    EXPECT_EQ(v.find("intersecting")->boolean, x < 2);
    EXPECT_NEAR(v.find(x < 2 ? "depth" : "gap")->number, 0.5, 1e-15);
    EXPECT_EQ(v.find(x < 2 ? "gap" : "depth")->number, 0.0);
    EXPECT_NEAR(v.find("axis")->items[0].number, 1.0, 1e-15);
    EXPECT_EQ(v.find("status")->string, "ok");
  }
  // A cylinder has no finite axis set: an error naming the shape.
  const Scene c = parseOk(
      R"({"version":1,"shapes":[{"type":"box","halfExtents":[1,1,1]},{"type":"cylinder","radius":1,"halfHeight":1}],"query":"sat"})");
  std::string out;
  SceneError err;
  EXPECT_FALSE(collidoscope::runScene(c, false, &out, &err));
  EXPECT_EQ(err.field, "shapes[1].type");
}

TEST(Scene, RaycastQueryAgainstAUnitSphere) {
  const std::string sphere = R"({"version":1,"shapes":[{"type":"sphere","radius":1}],"query":"raycast",)";
  // From (−5, 0, 0) along +x: enters at x = −1, t = 4, normal −x.
  JsonValue v = runOk(sphere + R"("ray":{"origin":[-5,0,0],"direction":[1,0,0],"maxT":10}})");
  EXPECT_TRUE(v.find("hit")->boolean);
  EXPECT_NEAR(v.find("t")->number, 4.0, 1e-12);
  EXPECT_NEAR(v.find("point")->items[0].number, -1.0, 1e-12);
  EXPECT_NEAR(v.find("normal")->items[0].number, -1.0, 1e-12);
  // Direction of length 2: t is in units of direction, so t = 2.
  v = runOk(sphere + R"("ray":{"origin":[-5,0,0],"direction":[2,0,0],"maxT":10}})");
  EXPECT_NEAR(v.find("t")->number, 2.0, 1e-12);
  // Passing 2 above the centre: a miss, with no t, point or normal.
  v = runOk(sphere + R"("ray":{"origin":[-5,2,0],"direction":[1,0,0],"maxT":10}})");
  EXPECT_FALSE(v.find("hit")->boolean);
  EXPECT_EQ(v.find("t")->kind, JsonValue::Kind::Null);
  EXPECT_EQ(v.find("normal")->kind, JsonValue::Kind::Null);
  // maxT short of the sphere: a miss. Starting inside: t = 0, no normal.
  v = runOk(sphere + R"("ray":{"origin":[-5,0,0],"direction":[1,0,0],"maxT":3.9}})");
  EXPECT_FALSE(v.find("hit")->boolean);
  v = runOk(sphere + R"("ray":{"origin":[0.2,0,0],"direction":[1,0,0],"maxT":3}})");
  EXPECT_TRUE(v.find("hit")->boolean);
  EXPECT_EQ(v.find("t")->number, 0.0);
  EXPECT_TRUE(v.find("startedInside")->boolean);
  EXPECT_EQ(v.find("normal")->kind, JsonValue::Kind::Null);
}

TEST(Scene, ShapecastQueryTwoSpheresAndAThinWall) {
  // Unit spheres 5 apart, B moving −4 along x: they touch when 2 apart,
  // after 3 of the 4 units: t = 3/4, contact at x = 1, normal +x.
  JsonValue v = runOk(
      R"({"version":1,"shapes":[{"type":"sphere","radius":1},{"type":"sphere","radius":1,"position":[5,0,0]}],)"
      R"("query":"shapecast","motion":{"translationA":[0,0,0],"translationB":[-4,0,0]}})");
  EXPECT_TRUE(v.find("hit")->boolean);
  EXPECT_NEAR(v.find("t")->number, 0.75, 1e-12);
  EXPECT_NEAR(v.find("normal")->items[0].number, 1.0, 1e-12);
  EXPECT_NEAR(v.find("pointA")->items[0].number, 1.0, 1e-12);
  EXPECT_NEAR(v.find("pointB")->items[0].number, 1.0, 1e-12);
  // A small box fired at a wall 1e-3 thick, 100 units in one step, does not
  // tunnel: its leading face starts at x = −49.99 and meets the wall's face
  // at x = −0.0005 after 49.9895 of the 100 units. The normal, the direction
  // to move B (coming from −x) off the wall A, is −x.
  v = runOk(
      R"({"version":1,"shapes":[{"type":"box","halfExtents":[0.0005,10,10]},{"type":"box","halfExtents":[0.01,0.01,0.01],"position":[-50,0,0]}],)"
      R"("query":"shapecast","motion":{"translationA":[0,0,0],"translationB":[100,0,0]}})");
  EXPECT_TRUE(v.find("hit")->boolean);
  EXPECT_NEAR(v.find("t")->number, (49.99 - 0.0005) / 100, 1e-12);
  EXPECT_NEAR(v.find("normal")->items[0].number, -1.0, 1e-12);
}

TEST(Scene, RunSceneAnswersDistanceAndIntersect) {
  // Box [−1,1]³ and a unit sphere at (4,0,0): distance 2 exactly.
  const std::string shapes =
      R"("shapes":[{"type":"box","halfExtents":[1,1,1]},{"type":"sphere","radius":1,"position":[4,0,0]}])";
  for (bool trace : {false, true}) {
    std::string out;
    SceneError err;
    ASSERT_TRUE(collidoscope::runScene(parseOk(R"({"version":1,)" + shapes + R"(,"query":"distance"})"), trace, &out,
                                       &err))
        << err.message;
    JsonValue v;
    std::string why;
    ASSERT_TRUE(collidoscope::parseJson(out, &v, &why)) << why;
    const JsonValue* result = trace ? v.find("result") : &v;
    ASSERT_NE(result, nullptr);
    ASSERT_NE(result->find("distance"), nullptr);
    EXPECT_NEAR(result->find("distance")->number, 2.0, 1e-12);
    const JsonValue* pa = result->find("pointA");
    ASSERT_TRUE(pa && pa->isArray() && pa->items.size() == 3);
    EXPECT_NEAR(pa->items[0].number, 1.0, 1e-12);
    EXPECT_NE(result->find("iterations"), nullptr);
    EXPECT_NE(result->find("status"), nullptr);
    if (trace) {
      // A box and a sphere have a closed form: one frame naming it.
      const JsonValue* frames = v.find("frames");
      ASSERT_TRUE(frames && frames->isArray());
      EXPECT_EQ(frames->items.size(), 1u);
      ASSERT_NE(v.find("closedForm"), nullptr);
      EXPECT_EQ(v.find("closedForm")->string, "box-point");
    }
    ASSERT_TRUE(collidoscope::runScene(parseOk(R"({"version":1,)" + shapes + R"(,"query":"intersect"})"), trace,
                                       &out, &err));
    ASSERT_TRUE(collidoscope::parseJson(out, &v, &why)) << why;
    result = trace ? v.find("result") : &v;
    ASSERT_TRUE(result && result->find("intersecting"));
    EXPECT_EQ(result->find("intersecting")->kind, JsonValue::Kind::Bool);
    EXPECT_FALSE(result->find("intersecting")->boolean);
  }
}

// ---- round trip -------------------------------------------------------------

// A random finite double with |x| ≤ maxMag: random sign, exponent and all 52
// mantissa bits, subnormals included (so every digit of "%.17g" matters).
// Zero is returned as +0: the writer deliberately prints −0 as 0.
double randomDouble(ref::Rng& rng, double maxMag, bool nonNegative) {
  for (;;) {
    std::uint64_t bits = rng.gen();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    if (!std::isfinite(d)) continue;
    d = std::fabs(d);
    if (d > maxMag) {
      // Fold the exponent into range, keep the mantissa.
      int e;
      const double m = std::frexp(d, &e);
      d = std::ldexp(m, rng.integer(-1074, 49));
    }
    if (d == 0) d = 0.0;
    if (!(d <= maxMag)) continue;
    if (!nonNegative && (bits & 1)) d = -d;
    if (d == 0) d = 0.0;
    return d;
  }
}

std::string num(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}
std::string vec(ref::Rng& rng, int n, double maxMag, bool nonNeg) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? "," : "") + num(randomDouble(rng, maxMag, nonNeg));
  return s + "]";
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every double a scene holds, in a fixed order.
std::vector<double> allDoubles(const Scene& s) {
  std::vector<double> d;
  for (const Shape& sh : s.shapes) {
    for (double x : {sh.radius, sh.halfHeight, sh.halfExtents.x, sh.halfExtents.y, sh.halfExtents.z, sh.radii.x,
                     sh.radii.y, sh.radii.z, sh.margin, sh.pose.position.x, sh.pose.position.y, sh.pose.position.z,
                     sh.pose.rotation.x, sh.pose.rotation.y, sh.pose.rotation.z, sh.pose.rotation.w})
      d.push_back(x);
    for (const Vec3& p : sh.points) {
      d.push_back(p.x);
      d.push_back(p.y);
      d.push_back(p.z);
    }
  }
  return d;
}

std::string randomShapeJson(ref::Rng& rng, int type, bool withRotation) {
  const double M = 1e15;  // kMaxMagnitude
  std::string s = "{";
  switch (type) {
    case 0: s += R"("type":"point")"; break;
    case 1: s += R"("type":"sphere","radius":)" + num(randomDouble(rng, M, true)); break;
    case 2: s += R"("type":"box","halfExtents":)" + vec(rng, 3, M, true); break;
    case 3: s += R"("type":"capsule","radius":)" + num(randomDouble(rng, M, true)) + R"(,"halfHeight":)" +
                 num(randomDouble(rng, M, true)); break;
    case 4: s += R"("type":"ellipsoid","radii":)" + vec(rng, 3, M, true); break;
    default: {
      s += R"("type":"polytope","points":[)";
      const int n = rng.integer(1, 6);
      for (int i = 0; i < n; ++i) s += (i ? "," : "") + vec(rng, 3, M, false);
      s += "]";
    }
  }
  s += R"(,"margin":)" + num(randomDouble(rng, M, true));
  s += R"(,"position":)" + vec(rng, 3, M, false);
  if (withRotation) {
    // Unit quaternions and (every other one) scaled ones, which the parser
    // normalizes: both must survive a second trip unchanged.
    Quat q = rng.rotation();
    if (rng.integer(0, 1)) {
      const double k = rng.logUniform(1e-3, 1e3);
      q = {q.x * k, q.y * k, q.z * k, q.w * k};
    }
    s += R"(,"rotation":[)" + num(q.x) + "," + num(q.y) + "," + num(q.z) + "," + num(q.w) + "]";
  }
  return s + "}";
}
// Empty string when parse -> write -> parse keeps every double's bits;
// otherwise what changed.
std::string roundTrip(const std::string& json) {
  const Scene first = parseOk(json);
  const std::string written = collidoscope::sceneToJson(first);
  const Scene second = parseOk(written);
  const std::vector<double> a = allDoubles(first), b = allDoubles(second);
  if (a.size() != b.size()) return "different number of doubles";
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!sameBits(a[i], b[i]))
      return "double #" + std::to_string(i) + " changed: " + num(a[i]) + " -> " + num(b[i]) + "\n  input: " + json +
             "\n  written: " + written;
  if (collidoscope::sceneToJson(second) != written) return "writing is not idempotent: " + written;
  return "";
}

TEST(Scene, JsonRoundTripKeepsEveryDoubleBitForBit) {
  ref::Rng rng(601);
  for (int i = 0; i < 1500; ++i) {
    const std::string json = R"({"version":1,"shapes":[)" + randomShapeJson(rng, i % 6, false) + "," +
                             randomShapeJson(rng, (i / 6) % 6, false) + R"(],"query":"distance","step":)" +
                             std::to_string(i) + "}";
    const std::string problem = roundTrip(json);
    ASSERT_TRUE(problem.empty()) << problem;
  }
}

TEST(Scene, RotationNormalizationIsIdempotent) {
  // Minimal reproduction for the round-trip failure below: [0, 0, 0.6, 0.8]
  // is a unit quaternion (to rounding); parsing it, writing the scene and
  // parsing again must give the same bits, or a shared link does not
  // reproduce the scene it came from.
  const std::string json =
      R"({"version":1,"shapes":[{"type":"point","rotation":[0,0,0.6,0.8]},{"type":"point"}],"query":"distance"})";
  const Scene first = parseOk(json);
  const Scene second = parseOk(collidoscope::sceneToJson(first));
  const Quat q1 = first.shapes[0].pose.rotation, q2 = second.shapes[0].pose.rotation;
  EXPECT_TRUE(sameBits(q1.z, q2.z)) << num(q1.z) << " -> " << num(q2.z);
  EXPECT_TRUE(sameBits(q1.w, q2.w)) << num(q1.w) << " -> " << num(q2.w);
}

TEST(Scene, JsonRoundTripKeepsRotationsBitForBit) {
  // A permalink re-parsed must reproduce the scene exactly (DESIGN.md:
  // "the same scene gives the same bits on every run"), so the rotation
  // normalization on input must leave a written (already normalized)
  // quaternion unchanged.
  ref::Rng rng(602);
  int failures = 0;
  std::string firstProblem;
  for (int i = 0; i < 1500; ++i) {
    const std::string json = R"({"version":1,"shapes":[)" + randomShapeJson(rng, i % 6, true) + "," +
                             randomShapeJson(rng, (i / 6) % 6, true) + R"(],"query":"intersect"})";
    const std::string problem = roundTrip(json);
    if (!problem.empty() && failures++ == 0) firstProblem = problem;
  }
  EXPECT_EQ(failures, 0) << "of 1500 scenes; first: " << firstProblem;
}

}  // namespace
