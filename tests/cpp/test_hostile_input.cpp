// Hostile input that once broke the library (found by tests/js/hostile.test.ts).
// The JSON reader:
// - a 40 MB "[0,0,0,…" (20e6 values, under the 96 MiB byte limit) made the
//   wasm module abort out of memory (2 GiB of JsonValues), leaking 1 GB of its
//   heap; the reader now stops at kJsonMaxValues values with an error;
// - an object of n distinct keys cost n² string comparisons (the duplicate
//   check searched every earlier key), so a million keys took an hour;
// - a JS string with a lone surrogate, which JSON.stringify writes as an
//   escape such as "\ud800", failed the whole document as "not valid JSON"
//   instead of letting the scene checks name the field;
// - a 10 MB unknown key was echoed whole in the error's field and message,
//   and echoed text could carry terminal escape sequences or bidi overrides.
// Casts at extreme scales:
// - the closed-form sphere cast squared the direction, so |direction| below
//   ~1e-154 (a ray with a huge maxT) or above ~1e154 reported a miss;
// - scenes took ray origins, directions and cast translations beyond
//   kMaxMagnitude (1e15), where GJK's ray cast reports a hit at t = 0 for a
//   ray starting 1e300 away; they are now refused as positions are.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "collidoscope/json.h"
#include "collidoscope/raycast.h"
#include "collidoscope/scene.h"
#include "collidoscope/shapes.h"

namespace {

using collidoscope::JsonValue;
using collidoscope::kJsonMaxValues;
using collidoscope::parseJson;
using collidoscope::Scene;
using collidoscope::SceneError;
using collidoscope::Shape;
using collidoscope::Vec3;

std::string flatArray(std::size_t values) {
  std::string s = "[";
  s.reserve(2 * values + 2);
  for (std::size_t i = 0; i < values; ++i) s += i ? ",0" : "0";
  return s + "]";
}

TEST(HostileJson, TooManyValuesIsAnErrorNotAnAbort) {
  // The cap at a small size (the default, 8.1e6, is exercised in wasm by tests/js/hostile.test.ts, where the
  // abort happened; natively it would take a gigabyte here).
  JsonValue v;
  std::string why;
  // The array itself is one value: 999 numbers fit exactly in 1000.
  ASSERT_TRUE(parseJson(flatArray(999), &v, &why, 1000)) << why;
  EXPECT_EQ(v.items.size(), 999u);
  EXPECT_FALSE(parseJson(flatArray(1000), &v, &why, 1000));
  EXPECT_NE(why.find("too many values (more than 1000)"), std::string::npos) << why;
  // Values inside objects and nested arrays count alike: {"a":[[0,0,0],…]} with 249 points is 1 + 1 + 249·4 = 998.
  std::string pts = R"({"a":[)";
  for (int i = 0; i < 249; ++i) pts += i ? ",[0,0,0]" : "[0,0,0]";
  EXPECT_TRUE(parseJson(pts + "]}", &v, &why, 998)) << why;
  EXPECT_FALSE(parseJson(pts + "]}", &v, &why, 997));
  // The default holds the largest scene: two polytopes of kMaxPolytopePoints points, 4 values a point.
  EXPECT_GE(kJsonMaxValues, 2 * 4 * collidoscope::kMaxPolytopePoints + 100);
}

TEST(HostileJson, ManyKeysParseAndDuplicatesAreFoundAnywhere) {
  // A million distinct keys: the n²/2 = 5e11 comparisons of the old check take far longer than ctest's
  // 300 s timeout; n log n takes a second or two.
  const int n = 1'000'000;
  std::string text = "{";
  for (int i = 0; i < n; ++i) text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
  JsonValue v;
  std::string why;
  ASSERT_TRUE(parseJson(text + "}", &v, &why)) << why;
  ASSERT_EQ(v.members.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(v.find("k123456")->number, 123456);
  EXPECT_EQ(v.find("k999999")->number, 999999);
  // A duplicate of an early key, of a key past the linear-search range, and of the last key.
  std::string some = "{";
  for (int i = 0; i < 20'000; ++i) some += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
  for (const char* dup : {"k0", "k15", "k16", "k9999", "k19999"}) {
    const std::string bad = some + ",\"" + dup + "\":1}";
    EXPECT_FALSE(parseJson(bad, &v, &why)) << dup;
    EXPECT_NE(why.find(std::string("duplicate key \"") + dup + "\""), std::string::npos) << why;
  }
  // Small objects too (the linear search).
  EXPECT_FALSE(parseJson(R"({"a":1,"b":2,"a":3})", &v, &why));
  EXPECT_NE(why.find("duplicate key \"a\""), std::string::npos) << why;
  // 16 and 17 keys, the switch-over, with a duplicate at the boundary.
  std::string sixteen = "{";
  for (int i = 0; i < 16; ++i) sixteen += (i ? ",\"" : "\"") + std::to_string(i) + "\":0";
  EXPECT_TRUE(parseJson(sixteen + "}", &v, &why)) << why;
  EXPECT_TRUE(parseJson(sixteen + ",\"16\":0}", &v, &why)) << why;
  EXPECT_FALSE(parseJson(sixteen + ",\"15\":0}", &v, &why));
  EXPECT_FALSE(parseJson(sixteen + ",\"16\":0,\"0\":1}", &v, &why));
}

TEST(HostileJson, LoneSurrogatesReadAsReplacementCharacters) {
  JsonValue v;
  std::string why;
  const std::string fffd = "\xEF\xBF\xBD";
  ASSERT_TRUE(parseJson(R"(["\ud800", "\udc00x", "a\ud800\u0041", "\ud83d\ude00", "\ud800\ud800"])", &v, &why)) << why;
  EXPECT_EQ(v.items[0].string, fffd);
  EXPECT_EQ(v.items[1].string, fffd + "x");
  EXPECT_EQ(v.items[2].string, "a" + fffd + "A");
  EXPECT_EQ(v.items[3].string, "\xF0\x9F\x98\x80");  // a real pair is still one character (U+1F600)
  EXPECT_EQ(v.items[4].string, fffd + fffd);
  // Truncated or invalid escapes are still errors.
  EXPECT_FALSE(parseJson(R"(["\ud800\u12"])", &v, &why));
  EXPECT_FALSE(parseJson(R"(["\ud800\uzzzz"])", &v, &why));
  // In a scene, the field is named.
  Scene scene;
  SceneError err;
  EXPECT_FALSE(collidoscope::parseScene(
      R"({"version":1,"query":"distance","shapes":[{"type":"sph\ud800ere","radius":1},{"type":"point"}]})", &scene, &err));
  EXPECT_EQ(err.code, "invalid-scene");
  EXPECT_EQ(err.field, "shapes[0].type");
}

TEST(HostileJson, EchoedTextIsClippedAndEscapedInErrors) {
  const std::string key(10'000'000, 'k');
  Scene scene;
  SceneError err;
  EXPECT_FALSE(collidoscope::parseScene(R"({"version":1,")" + key + R"(":1})", &scene, &err));
  EXPECT_EQ(err.code, "invalid-scene");
  EXPECT_EQ(err.field, std::string(64, 'k') + "…");
  EXPECT_LT(err.message.size(), 300u);
  // Clipping never splits a UTF-8 character: 'a' then 2-byte characters puts byte 64 inside one.
  std::string accents = "a";
  for (int i = 0; i < 50; ++i) accents += "\xC3\xA9";  // é
  const std::string clipped = collidoscope::clipForMessage(accents);
  EXPECT_EQ(clipped, accents.substr(0, 63) + "…");
  EXPECT_EQ(collidoscope::clipForMessage("short"), "short");
  // The 64 bytes count the escapes (found by fuzz_scene: a key of DEL bytes gave a 357-byte field): ten
  // 6-byte escapes fit, the eleventh would not; an escape is never cut.
  EXPECT_EQ(collidoscope::clipForMessage(std::string(100, '\x7f')), [] {
    std::string ten;
    for (int i = 0; i < 10; ++i) ten += "\\u007f";
    return ten + "…";
  }());
  EXPECT_EQ(collidoscope::clipForMessage("abc" + std::string(10, '\x7f')), "abc" + std::string("\\u007f\\u007f\\u007f\\u007f\\u007f\\u007f\\u007f\\u007f\\u007f\\u007f"));
  // Characters that act rather than show: a terminal's escape sequences, C1 controls, bidi overrides.
  EXPECT_EQ(collidoscope::clipForMessage("a\x1b[2Jb\n"), "a\\u001b[2Jb\\u000a");
  EXPECT_EQ(collidoscope::clipForMessage("x\xC2\x9By"), "x\\u009by");
  EXPECT_EQ(collidoscope::clipForMessage("\xE2\x80\xAE" "abc" "\xE2\x81\xA6"), "\\u202eabc\\u2066");
  EXPECT_EQ(collidoscope::clipForMessage("\xE2\x82\xAC \xC3\xA9"), "\xE2\x82\xAC \xC3\xA9");  // € é stay
  // In a scene's error: the type's ESC is escaped in the message.
  Scene esc;
  SceneError escErr;
  EXPECT_FALSE(collidoscope::parseScene(R"({"version":1,"query":"distance","shapes":[{"type":"\u001b[31mred"},{"type":"point"}]})", &esc, &escErr));
  EXPECT_EQ(escErr.field, "shapes[0].type");
  EXPECT_NE(escErr.message.find("\"\\u001b[31mred\""), std::string::npos) << escErr.message;
  EXPECT_EQ(escErr.message.find('\x1b'), std::string::npos);
  JsonValue v;
  std::string why;
  EXPECT_FALSE(parseJson("{\"" + key + "\":1,\"" + key + "\":2}", &v, &why));
  EXPECT_LT(why.size(), 200u);
}

// A unit sphere at the origin, a ray from (−5, 0.1, 0) along +x scaled by k: the hit is at k·t = 5 − √0.99
// for every k whose t = (5 − √0.99)/k is a double, and the point and normal do not depend on k.
TEST(HostileCasts, SphereRayCastAtEveryDirectionScale) {
  Shape sphere;
  sphere.type = collidoscope::ShapeType::Sphere;
  sphere.radius = 1;
  const collidoscope::PosedShape posed(sphere);
  const Vec3 origin{-5, 0.1, 0};
  const double expected = 5 - std::sqrt(0.99);
  const collidoscope::RayCastResult unit = collidoscope::gjkRayCast(posed, origin, Vec3{1, 0, 0}, 10.0);
  ASSERT_TRUE(unit.hit);
  EXPECT_NEAR(unit.t, expected, 1e-15);
  const double inf = std::numeric_limits<double>::infinity();
  for (const double k : {1e-300, 1e-200, 1e-160, 1e-100, 1e-8, 1.0, 3.0, 1e8, 1e100, 1e160, 1e200, 1e300}) {
    const collidoscope::RayCastResult r = collidoscope::gjkRayCast(posed, origin, Vec3{k, 0, 0}, inf);
    ASSERT_TRUE(r.hit) << k;
    EXPECT_NEAR(r.t * k, expected, 1e-14 * expected) << k;
    EXPECT_NEAR(r.point.x, unit.point.x, 1e-14) << k;
    EXPECT_NEAR(r.point.y, unit.point.y, 1e-14) << k;
    EXPECT_NEAR(r.normal.x, unit.normal.x, 1e-14) << k;
    EXPECT_NEAR(r.normal.y, unit.normal.y, 1e-14) << k;
    // A power-of-two scale changes t by exactly that power and nothing else: the same bits.
    const double p2 = std::ldexp(1.0, static_cast<int>(std::lround(std::log2(k))));
    const collidoscope::RayCastResult r2 = collidoscope::gjkRayCast(posed, origin, Vec3{p2, 0, 0}, inf);
    ASSERT_TRUE(r2.hit) << p2;
    EXPECT_EQ(r2.t * p2, unit.t) << p2;
    EXPECT_EQ(r2.point.x, unit.point.x) << p2;
    EXPECT_EQ(r2.point.y, unit.point.y) << p2;
    EXPECT_EQ(r2.normal.x, unit.normal.x) << p2;
    EXPECT_EQ(r2.normal.y, unit.normal.y) << p2;
  }
  // Beyond doubles: t = 4.3e310 is not a double, a miss (not a wrong hit).
  EXPECT_FALSE(collidoscope::gjkRayCast(posed, origin, Vec3{1e-310, 0, 0}, inf).hit);
  // Two spheres closing at 1e200 (shape cast, t in [0, 1]): impact at t = 3/1e200.
  Shape b = sphere;
  b.pose.position = {5, 0, 0};
  const collidoscope::ShapeCastResult c =
      collidoscope::gjkShapeCast(posed, collidoscope::PosedShape(b), Vec3{0, 0, 0}, Vec3{-1e200, 0, 0});
  ASSERT_TRUE(c.hit);
  EXPECT_NEAR(c.t * 1e200, 3, 1e-13);
}

TEST(HostileCasts, SceneCastVectorsBeyondKMaxMagnitudeAreRefused) {
  const std::string ray = R"({"version":1,"query":"raycast","shapes":[{"type":"sphere","radius":1}],"ray":)";
  const std::string cast = R"({"version":1,"query":"shapecast","shapes":[{"type":"point"},{"type":"point"}],"motion":)";
  const struct {
    std::string json;
    const char* field;
  } cases[] = {
      {ray + R"({"origin":[-1e300,0,0],"direction":[1,0,0],"maxT":1e308}})", "ray.origin[0]"},
      {ray + R"({"origin":[0,-2e15,0],"direction":[1,0,0]}})", "ray.origin[1]"},
      {ray + R"({"origin":[-5,0,0],"direction":[1,0,1e308]}})", "ray.direction[2]"},
      {cast + R"({"translationA":[0,0,1e16]}})", "motion.translationA[2]"},
      {cast + R"({"translationB":[-1e200,0,0]}})", "motion.translationB[0]"},
  };
  for (const auto& c : cases) {
    Scene scene;
    SceneError err;
    EXPECT_FALSE(collidoscope::parseScene(c.json, &scene, &err)) << c.json;
    EXPECT_EQ(err.code, "invalid-scene") << c.json;
    EXPECT_EQ(err.field, c.field) << c.json << ": " << err.message;
    EXPECT_NE(err.message.find("1e15"), std::string::npos) << err.message;
  }
  // 1e15 itself is accepted.
  Scene scene;
  SceneError err;
  EXPECT_TRUE(collidoscope::parseScene(ray + R"({"origin":[-1e15,0,0],"direction":[1e15,0,0]}})", &scene, &err))
      << err.field << ": " << err.message;
}

}  // namespace
