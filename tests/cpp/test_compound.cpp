// The "compound" shape (compound.h) in the scene format: parsing with errors
// naming the field, writing back, and every query it takes against the
// same scene with the children as separate shapes — the reference runs the
// library's convex query on each child on its own (its pose composed here,
// with a quaternion product written here) and combines the answers by the
// documented rule by brute force: no prefilter, every child or child pair.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "collidoscope/compound.h"
#include "collidoscope/json.h"
#include "collidoscope/scene.h"
#include "mesh_gen.h"
#include "scene_json.h"

namespace collidoscope {
namespace {

using meshgen::Rng;
using scenejson::num;
using scenejson::quat;
using scenejson::vec;

Quat unitQuat(Rng& rng) {
  Quat q{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)};
  const double n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return {q.x / n, q.y / n, q.z / n, q.w / n};
}

// a ∘ b as rotations (b first).
Quat product(const Quat& a, const Quat& b) {
  return {a.w * b.x + b.w * a.x + (a.y * b.z - a.z * b.y), a.w * b.y + b.w * a.y + (a.z * b.x - a.x * b.z),
          a.w * b.z + b.w * a.z + (a.x * b.y - a.y * b.x), a.w * b.w - (a.x * b.x + a.y * b.y + a.z * b.z)};
}

struct Child {
  std::string spec;  // "{"type": ..., sizes" without the closing brace and pose
  Vec3 position;
  Quat rotation;
};

std::string placed(const std::string& spec, const Vec3& p, const Quat& q) {
  return spec + ",\"position\":" + vec(p) + ",\"rotation\":" + quat(q) + "}";
}

std::string compoundJson(const std::vector<Child>& cs, const Transform& pose) {
  std::string s = "{\"type\":\"compound\",\"children\":[";
  for (std::size_t i = 0; i < cs.size(); ++i) s += (i ? "," : "") + placed(cs[i].spec, cs[i].position, cs[i].rotation);
  return s + "],\"position\":" + vec(pose.position) + ",\"rotation\":" + quat(pose.rotation) + "}";
}

// Child i as a shape of its own, in the world.
std::string separate(const Child& c, const Transform& pose) {
  return placed(c.spec, pose.apply(c.position), product(pose.rotation, c.rotation));
}

std::vector<Child> randomChildren(Rng& rng, int n) {
  const char* specs[] = {"{\"type\":\"box\",\"halfExtents\":[0.4,0.25,0.3]", "{\"type\":\"sphere\",\"radius\":0.35",
                         "{\"type\":\"capsule\",\"radius\":0.2,\"halfHeight\":0.4",
                         "{\"type\":\"cylinder\",\"radius\":0.3,\"halfHeight\":0.2",
                         "{\"type\":\"polytope\",\"points\":[[0,0,0],[0.6,0,0],[0,0.5,0],[0,0,0.4],[0.3,0.3,0.3]]",
                         "{\"type\":\"ellipsoid\",\"radii\":[0.5,0.2,0.3]"};
  std::vector<Child> cs;
  for (int i = 0; i < n; ++i) cs.push_back({specs[rng.integer(6)], rng.inCube(1.2), unitQuat(rng)});
  return cs;
}

bool runText(const std::string& text, JsonValue* out, SceneError* err) {
  Scene scene;
  std::string json;
  if (!parseScene(text, &scene, err) || !runScene(scene, false, &json, err)) return false;
  std::string why;
  EXPECT_TRUE(parseJson(json, out, &why)) << why;
  return true;
}

JsonValue runOk(const std::string& text) {
  JsonValue v;
  SceneError err;
  EXPECT_TRUE(runText(text, &v, &err)) << err.field << ": " << err.message << "\n" << text.substr(0, 300);
  return v;
}

std::string scene(const std::string& query, const std::string& a, const std::string& b, const std::string& extra) {
  return "{\"version\":1,\"query\":\"" + query + "\",\"shapes\":[" + a + (b.empty() ? "" : "," + b) + "]" + extra + "}";
}

double number(const JsonValue& v, const char* k) { return v.find(k)->number; }
bool flag(const JsonValue& v, const char* k) { return v.find(k)->boolean; }

// The reference's choice among the children's own results (child order,
// ties to the smaller index), by the rule of compound.h; −1: none.
int choose(const std::string& query, const std::vector<JsonValue>& rs) {
  int best = -1;
  double key = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < rs.size(); ++i) {
    const JsonValue& r = rs[i];
    double k = std::numeric_limits<double>::infinity();
    if (query == "intersect" && flag(r, "intersecting")) return static_cast<int>(i);
    if (query == "contains" && flag(r, "inside")) return static_cast<int>(i);
    if (query == "distance") k = number(r, "distance");
    if (query == "penetration" && flag(r, "intersecting")) k = -number(r, "depth");
    if ((query == "raycast" || query == "shapecast") && flag(r, "hit")) k = number(r, "t");
    if (query == "project") k = flag(r, "inside") ? -number(r, "distance") : number(r, "distance");
    if (k < key) key = k, best = static_cast<int>(i);
  }
  return best;
}

// Every field of the child's result equals the compound's (tolerance tol on
// numbers; 0: bit for bit).
void expectSameFields(const JsonValue& child, const JsonValue& compound, double tol) {
  for (const auto& m : child.members) {
    const JsonValue* x = compound.find(m.first);
    ASSERT_NE(x, nullptr) << m.first;
    if (m.first == "iterations") continue;
    // Overlapping shapes are at distance 0 with witness points anywhere in
    // the overlap: a pose that differs by rounding may move them.
    const JsonValue* dist = child.find("distance");
    if (tol != 0 && dist != nullptr && dist->isNumber() && dist->number == 0 && m.first.rfind("point", 0) == 0) continue;
    if (m.second.isNumber()) {
      if (tol == 0) EXPECT_EQ(x->number, m.second.number) << m.first;
      else EXPECT_NEAR(x->number, m.second.number, tol) << m.first;
    } else if (m.second.isArray() && !m.second.items.empty() && m.second.items[0].isNumber()) {
      for (std::size_t k = 0; k < m.second.items.size(); ++k)
        if (tol == 0) EXPECT_EQ(x->items[k].number, m.second.items[k].number) << m.first;
        else EXPECT_NEAR(x->items[k].number, m.second.items[k].number, tol) << m.first;
    } else if (m.second.kind == JsonValue::Kind::Bool) {
      EXPECT_EQ(x->boolean, m.second.boolean) << m.first;
    }
  }
}

struct Query {
  std::string name, other, extra;
};

void checkAgainstSeparateChildren(const Transform& pose, double tol, std::uint64_t seed) {
  Rng rng(seed);
  int chosenSeen = 0, noneSeen = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const std::vector<Child> cs = randomChildren(rng, 1 + rng.integer(5));
    const std::string c = compoundJson(cs, pose);
    const Vec3 at = pose.position + rng.inCube(2.2);
    const std::string other = placed("{\"type\":\"box\",\"halfExtents\":[0.3,0.2,0.25]", at, unitQuat(rng));
    const Vec3 o = pose.position + rng.unit() * 4;
    const Vec3 d = pose.position + rng.inCube(0.8) - o;
    const std::vector<Query> queries = {
        {"intersect", other, ""},
        {"distance", other, ""},
        {"penetration", other, ""},
        {"shapecast", other, ",\"motion\":{\"translationB\":" + vec((pose.position - at) * 1.5) + "}"},
        {"raycast", "", ",\"ray\":{\"origin\":" + vec(o) + ",\"direction\":" + vec(d) + ",\"maxT\":1.5}"},
        {"contains", "", ",\"point\":" + vec(pose.position + rng.inCube(1.3))},
        {"project", "", ",\"point\":" + vec(pose.position + rng.inCube(1.6))},
    };
    for (const Query& q : queries) {
      SCOPED_TRACE(q.name + " trial " + std::to_string(trial));
      std::vector<JsonValue> rs;
      for (const Child& ch : cs) rs.push_back(runOk(scene(q.name, separate(ch, pose), q.other, q.extra)));
      const int want = choose(q.name, rs);
      // Compound as A and, for pairs, as B (the other shape first).
      const JsonValue got = runOk(scene(q.name, c, q.other, q.extra));
      ASSERT_NE(got.find("child"), nullptr);
      if (want < 0) {
        EXPECT_EQ(got.find("child")->kind, JsonValue::Kind::Null);
        ++noneSeen;
      } else {
        ASSERT_TRUE(got.find("child")->isNumber());
        // A tie within rounding may pick another child of the same answer.
        const int child = static_cast<int>(number(got, "child"));
        expectSameFields(rs[static_cast<std::size_t>(tol == 0 ? want : child)], got, tol);
        if (tol == 0) {
          EXPECT_EQ(child, want);
        }
        ++chosenSeen;
      }
      if (q.other.empty()) continue;
      std::vector<JsonValue> swapped;
      for (const Child& ch : cs) swapped.push_back(runOk(scene(q.name, q.other, separate(ch, pose), q.extra)));
      const int want2 = choose(q.name, swapped);
      const JsonValue got2 = runOk(scene(q.name, q.other, c, q.extra));
      if (want2 < 0) {
        EXPECT_EQ(got2.find("child")->kind, JsonValue::Kind::Null);
      } else {
        const int child = static_cast<int>(number(got2, "child"));
        expectSameFields(swapped[static_cast<std::size_t>(tol == 0 ? want2 : child)], got2, tol);
        if (tol == 0) {
          EXPECT_EQ(child, want2);
        }
      }
    }
    // contacts: one per child within the margin, in child order.
    const std::string extra = ",\"margin\":0.2";
    std::vector<int> touching;
    std::vector<JsonValue> one;
    for (std::size_t i = 0; i < cs.size(); ++i) {
      const JsonValue r = runOk(scene("contacts", separate(cs[i], pose), other, extra));
      for (const JsonValue& x : r.find("contacts")->items) touching.push_back(static_cast<int>(i)), one.push_back(x);
    }
    const JsonValue got = runOk(scene("contacts", c, other, extra));
    const auto& list = got.find("contacts")->items;
    ASSERT_EQ(list.size(), touching.size());
    for (std::size_t k = 0; k < list.size(); ++k) {
      EXPECT_EQ(number(list[k], "child"), touching[k]);
      expectSameFields(one[k], list[k], tol);
    }
  }
  EXPECT_GT(chosenSeen, 30);
  EXPECT_GT(noneSeen, 5);
}

TEST(Compound, AtTheOriginEveryQueryIsItsChildrensBitForBit) {
  checkAgainstSeparateChildren(Transform{}, 0, 1);
}

TEST(Compound, PosedEveryQueryIsItsChildrensPosed) {
  Rng rng(2);
  checkAgainstSeparateChildren(Transform{{1.5, -0.5, 2}, unitQuat(rng)}, 1e-9, 3);
}

TEST(Compound, TwoCompoundsAnswerAsTheirNearestOrFirstChildPair) {
  Rng rng(4);
  int hits = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const std::vector<Child> a = randomChildren(rng, 1 + rng.integer(4));
    const std::vector<Child> b = randomChildren(rng, 1 + rng.integer(4));
    const Transform pa{rng.inCube(0.5), unitQuat(rng)};
    const Transform pb{rng.inCube(1.0), unitQuat(rng)};
    for (const char* q : {"intersect", "distance"}) {
      std::vector<JsonValue> rs;
      for (const Child& x : a)
        for (const Child& y : b) rs.push_back(runOk(scene(q, separate(x, pa), separate(y, pb), "")));
      const int want = choose(q, rs);
      const JsonValue got = runOk(scene(q, compoundJson(a, pa), compoundJson(b, pb), ""));
      SCOPED_TRACE(std::string(q) + " " + std::to_string(trial));
      if (want < 0) {
        EXPECT_EQ(got.find("childA")->kind, JsonValue::Kind::Null);
        EXPECT_EQ(got.find("childB")->kind, JsonValue::Kind::Null);
        continue;
      }
      const int i = static_cast<int>(number(got, "childA")), j = static_cast<int>(number(got, "childB"));
      expectSameFields(rs[static_cast<std::size_t>(i) * b.size() + static_cast<std::size_t>(j)], got, 1e-9);
      if (std::string(q) == "distance") {
        EXPECT_NEAR(number(got, "distance"), number(rs[static_cast<std::size_t>(want)], "distance"), 1e-9);
      } else {
        EXPECT_EQ(i * static_cast<int>(b.size()) + j, want);
        ++hits;
      }
    }
  }
  EXPECT_GT(hits, 5);
}

TEST(Compound, ATraceIsTheAnsweringChildsOwnWithTheCompoundsAnswer) {
  // Child 1 (a box at x = 2) is the nearest to the sphere at x = 4.
  const std::string c =
      "{\"type\":\"compound\",\"children\":[{\"type\":\"sphere\",\"radius\":0.5,\"position\":[-2,0,0]},"
      "{\"type\":\"box\",\"halfExtents\":[0.5,0.5,0.5],\"position\":[2,0,0],\"rotation\":[0,0,0.38268343236508978,0.92387953251128674]}]}";
  const std::string b = "{\"type\":\"sphere\",\"radius\":0.5,\"position\":[4,0.3,0]}";
  const std::string child = "{\"type\":\"box\",\"halfExtents\":[0.5,0.5,0.5],\"position\":[2,0,0],\"rotation\":[0,0,0.38268343236508978,0.92387953251128674]}";
  Scene s, alone;
  SceneError err;
  std::string traced, own;
  ASSERT_TRUE(parseScene(scene("distance", c, b, ""), &s, &err)) << err.message;
  ASSERT_TRUE(runScene(s, true, &traced, &err)) << err.message;
  ASSERT_TRUE(parseScene(scene("distance", child, b, ""), &alone, &err)) << err.message;
  ASSERT_TRUE(runScene(alone, true, &own, &err)) << err.message;
  JsonValue t, o;
  std::string why;
  ASSERT_TRUE(parseJson(traced, &t, &why)) << why;
  ASSERT_TRUE(parseJson(own, &o, &why)) << why;
  EXPECT_EQ(number(t, "child"), 1);
  EXPECT_EQ(number(*t.find("result"), "child"), 1);
  ASSERT_FALSE(t.find("frames")->items.empty());
  ASSERT_EQ(t.find("frames")->items.size(), o.find("frames")->items.size());
  expectSameFields(*o.find("result"), *t.find("result"), 0);
  EXPECT_EQ(number(*t.find("result"), "distance"), number(runOk(scene("distance", c, b, "")), "distance"));
}

TEST(Compound, ParsesAndWritesBackAsGiven) {
  const std::string c =
      "{\"type\":\"compound\",\"children\":[{\"type\":\"box\",\"halfExtents\":[1,0.5,0.25],\"position\":[1,0,0]},"
      "{\"type\":\"sphere\",\"radius\":0.5,\"margin\":0.1,\"rotation\":[0,0,0.6,0.8]}],\"position\":[0,2,0]}";
  Scene s;
  SceneError err;
  ASSERT_TRUE(parseScene(scene("distance", c, "{\"type\":\"point\"}", ""), &s, &err)) << err.message;
  ASSERT_EQ(s.shapes[0].type, ShapeType::Compound);
  ASSERT_EQ(s.shapes[0].compoundData->children.size(), 2u);
  EXPECT_EQ(s.shapes[0].compoundData->children[0].pose.position.x, 1);  // relative to the compound
  const std::string text = sceneToJson(s);
  EXPECT_NE(text.find("\"type\":\"compound\",\"children\":[{\"type\":\"box\""), std::string::npos) << text;
  Scene back;
  ASSERT_TRUE(parseScene(text, &back, &err)) << err.message;
  EXPECT_EQ(sceneToJson(back), text);
}

TEST(Compound, BadCompoundsAreRefusedNamingTheField) {
  std::string many = "{\"type\":\"compound\",\"children\":[";
  for (int i = 0; i < 257; ++i) many += (i ? "," : "") + std::string("{\"type\":\"point\"}");
  many += "]}";
  const std::string sph = "{\"type\":\"sphere\",\"radius\":1}";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"type\":\"compound\"}", "shapes[0].children"},
      {"{\"type\":\"compound\",\"children\":{}}", "shapes[0].children"},
      {"{\"type\":\"compound\",\"children\":[]}", "shapes[0].children"},
      {many, "shapes[0].children"},
      {"{\"type\":\"compound\",\"children\":[" + sph + ",{\"type\":\"plane\",\"normal\":[0,1,0],\"offset\":0}]}", "shapes[0].children[1].type"},
      {"{\"type\":\"compound\",\"children\":[{\"type\":\"compound\",\"children\":[" + sph + "]}]}", "shapes[0].children[0].type"},
      {"{\"type\":\"compound\",\"children\":[{\"type\":\"heightfield\",\"heights\":[[0,0],[0,0]],\"cellSize\":[1,1]}]}", "shapes[0].children[0].type"},
      {"{\"type\":\"compound\",\"children\":[{\"type\":\"mesh\",\"vertices\":[[0,0,0],[1,0,0],[0,1,0]],\"triangles\":[[0,1,2]]}]}", "shapes[0].children[0].type"},
      {"{\"type\":\"compound\",\"children\":[{\"type\":\"sphere\",\"radius\":-1}]}", "shapes[0].children[0].radius"},
      {"{\"type\":\"compound\",\"children\":[" + sph + "],\"margin\":0.1}", "shapes[0].margin"},
      {"{\"type\":\"compound\",\"children\":[" + sph + "],\"scale\":[1,2,1]}", "shapes[0].scale"},
      {"{\"type\":\"compound\",\"children\":[" + sph + "],\"points\":[]}", "shapes[0].points"},
  };
  for (const auto& c : cases) {
    Scene s;
    SceneError err;
    EXPECT_FALSE(parseScene(scene("distance", c.first, sph, ""), &s, &err)) << c.first.substr(0, 200);
    EXPECT_EQ(err.field, c.second) << err.message;
  }
}

TEST(Compound, QueriesItDoesNotTakeAreClearRefusals) {
  const std::string c = "{\"type\":\"compound\",\"children\":[{\"type\":\"sphere\",\"radius\":1}]}";
  const std::string b = "{\"type\":\"box\",\"halfExtents\":[1,1,1],\"position\":[3,0,0]}";
  for (const char* q : {"sat", "chungwang", "hull", "obb"}) {
    JsonValue v;
    SceneError err;
    EXPECT_FALSE(runText(scene(q, c, b, ""), &v, &err)) << q;
    EXPECT_EQ(err.code, "unsupported-query");
    EXPECT_EQ(err.field, "shapes[0].type");
  }
  Scene s;
  SceneError err;
  std::string out;
  ASSERT_TRUE(parseScene(scene("project", c, "", ",\"point\":[0,0,0]"), &s, &err)) << err.message;
  EXPECT_FALSE(runScene(s, true, &out, &err));
  EXPECT_EQ(err.field, "shapes[0].type");
  EXPECT_NE(err.message.find("no steps to trace"), std::string::npos) << err.message;
  JsonValue v;
  // Against a mesh: intersect, distance, shapecast and contacts, not penetration.
  EXPECT_FALSE(runText(scene("penetration", c, "{\"type\":\"mesh\",\"vertices\":[[0,0,0],[1,0,0],[0,1,0]],\"triangles\":[[0,1,2]]}", ""), &v, &err));
  EXPECT_EQ(err.field, "shapes[1].type");
  EXPECT_NE(err.message.find("takes intersect, distance, shapecast and contacts"), std::string::npos) << err.message;
}

}  // namespace
}  // namespace collidoscope
