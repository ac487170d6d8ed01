// Pair queries with a mesh in the scene format (mesh_pair.h through
// runScene): intersect, distance, shapecast and contacts between a mesh and
// a convex shape, in both orders, and "contacts" between convex shapes.
//
// What is checked here is the wiring: which side is A, where the points
// go, which way normals point, how two motions compose. References are
// independent of mesh_convex.h's tree:
//   * analytic answers for a sphere over a flat floor (distance = height −
//     radius, time of impact of a fall, contact depth and normal);
//   * brute force over every triangle of the posed mesh, each a "triangle"
//     shape of the library against the convex shape with the convex pair
//     queries (gjkDistance, gjkShapeCast with BOTH translations, so the
//     moving-frame composition of mesh_pair.cpp is not reused);
//   * swapping A and B swaps the points and flips the normals, to rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/contact.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/gjk.h"
#include "collidoscope/json.h"
#include "collidoscope/raycast.h"
#include "collidoscope/scene.h"
#include "collidoscope/support.h"
#include "collidoscope/triangle.h"
#include "mesh_gen.h"
#include "scene_json.h"

namespace collidoscope {
namespace {

using meshgen::Rng;
using scenejson::meshJson;
using scenejson::quat;
using scenejson::vec;

std::string sphereJson(double r, const Vec3& p) {
  return "{\"type\":\"sphere\",\"radius\":" + std::to_string(r) + ",\"position\":" + vec(p) + "}";
}

JsonValue run(const std::string& a, const std::string& b, const std::string& query, const std::string& extra = "") {
  const std::string text = "{\"version\":1,\"query\":\"" + query + "\",\"shapes\":[" + a + "," + b + "]" + extra + "}";
  Scene scene;
  SceneError err;
  std::string out;
  EXPECT_TRUE(parseScene(text, &scene, &err)) << err.field << ": " << err.message;
  EXPECT_TRUE(runScene(scene, false, &out, &err)) << err.field << ": " << err.message;
  JsonValue v;
  std::string why;
  EXPECT_TRUE(parseJson(out, &v, &why)) << why;
  return v;
}

SceneError runError(const std::string& text) {
  Scene scene;
  SceneError err;
  std::string out;
  const bool ok = parseScene(text, &scene, &err) && runScene(scene, false, &out, &err);
  EXPECT_FALSE(ok) << text.substr(0, 200);
  return err;
}

Vec3 v3(const JsonValue& v) { return {v.items[0].number, v.items[1].number, v.items[2].number}; }
double num(const JsonValue& o, const char* k) { return o.find(k)->number; }

// A floor: the n × n grid of mesh_gen.h, centred and laid in y = 0 (normal +y).
TriangleMesh floorMesh(int n) {
  TriangleMesh m = meshgen::grid(n);
  for (Vec3& p : m.vertices) p = {p.x - n / 2.0, 0.0, n / 2.0 - p.y};  // (x, y, 0) → (x, 0, −y): CCW seen from +y
  return m;
}

TEST(MeshPair, SphereOverAFloorAgreesWithTheAnalyticAnswers) {
  const TriangleMesh floor = floorMesh(8);
  const std::string f = meshJson(floor, Transform{});
  for (const double h : {2.0, 0.75, 0.5, 0.3}) {
    const std::string s = sphereJson(0.5, {0.3, h, -0.2});
    SCOPED_TRACE(h);
    // intersect and distance, both orders.
    EXPECT_EQ(run(f, s, "intersect").find("intersecting")->boolean, h <= 0.5);
    EXPECT_EQ(run(s, f, "intersect").find("intersecting")->boolean, h <= 0.5);
    const JsonValue d = run(f, s, "distance");
    EXPECT_NEAR(num(d, "distance"), std::max(0.0, h - 0.5), 1e-12);
    if (h > 0.5) {
      EXPECT_NEAR(v3(*d.find("pointA")).y, 0.0, 1e-12);        // on the floor (A)
      EXPECT_NEAR(v3(*d.find("pointB")).y, h - 0.5, 1e-12);    // on the sphere (B)
      const JsonValue e = run(s, f, "distance");
      EXPECT_NEAR(v3(*e.find("pointA")).y, h - 0.5, 1e-12);    // swapped: A is the sphere
      EXPECT_NEAR(v3(*e.find("pointB")).y, 0.0, 1e-12);
    }
    // contacts within a margin of 0.3: one or more triangles under the
    // sphere, the deepest at depth r − h along +y (move the sphere, B, up).
    const JsonValue c = run(f, s, "contacts", ",\"margin\":0.3");
    const auto& list = c.find("contacts")->items;
    if (h - 0.5 > 0.3) {
      EXPECT_TRUE(list.empty());
      continue;
    }
    ASSERT_FALSE(list.empty());
    double deepest = -INFINITY;
    Vec3 n;
    for (const JsonValue& x : list) {
      EXPECT_TRUE(x.find("triangle")->isNumber());
      if (num(x, "depth") > deepest) deepest = num(x, "depth"), n = v3(*x.find("normal"));
    }
    EXPECT_NEAR(deepest, 0.5 - h, 1e-12);
    EXPECT_NEAR(n.y, 1.0, 1e-12);
    // Swapped: the normal moves B (now the floor) away from A: down.
    const JsonValue c2 = run(s, f, "contacts", ",\"margin\":0.3");
    ASSERT_EQ(c2.find("contacts")->items.size(), list.size());
    double deepest2 = -INFINITY;
    Vec3 n2;
    for (const JsonValue& x : c2.find("contacts")->items)
      if (num(x, "depth") > deepest2) deepest2 = num(x, "depth"), n2 = v3(*x.find("normal"));
    EXPECT_NEAR(deepest2, 0.5 - h, 1e-12);
    EXPECT_NEAR(n2.y, -1.0, 1e-12);
  }
}

TEST(MeshPair, FallingSphereHitsTheMovingFloorAtTheAnalyticTime) {
  // The sphere falls by 3, the floor rises by 1: they meet when the gap of
  // 1.5 has closed at speed 4 per step, t = 0.375, at height 1 − ... of the
  // floor: floor at y = 0.375, sphere bottom there too.
  const TriangleMesh floor = floorMesh(6);
  const std::string f = meshJson(floor, Transform{});
  const std::string s = sphereJson(0.5, {0.1, 2.0, 0.2});
  const std::string motionFloorA = ",\"motion\":{\"translationA\":[0,1,0],\"translationB\":[0,-3,0]}";
  const JsonValue r = run(f, s, "shapecast", motionFloorA);
  ASSERT_TRUE(r.find("hit")->boolean);
  EXPECT_NEAR(num(r, "t"), 0.375, 1e-9);
  EXPECT_NEAR(v3(*r.find("pointA")).y, 0.375, 1e-9);  // on the floor, moved with it
  EXPECT_NEAR(v3(*r.find("pointB")).y, 0.375, 1e-9);
  EXPECT_NEAR(v3(*r.find("normal")).y, 1.0, 1e-9);    // from A (floor) to B (sphere)
  EXPECT_TRUE(r.find("triangle")->isNumber());
  const std::string motionFloorB = ",\"motion\":{\"translationA\":[0,-3,0],\"translationB\":[0,1,0]}";
  const JsonValue q = run(s, f, "shapecast", motionFloorB);
  ASSERT_TRUE(q.find("hit")->boolean);
  EXPECT_NEAR(num(q, "t"), 0.375, 1e-9);
  EXPECT_NEAR(v3(*q.find("pointB")).y, 0.375, 1e-9);
  EXPECT_NEAR(v3(*q.find("normal")).y, -1.0, 1e-9);   // from A (sphere) down to B (floor)
  // Too short a step misses.
  const JsonValue miss = run(f, s, "shapecast", ",\"motion\":{\"translationA\":[0,0.5,0],\"translationB\":[0,-0.5,0]}");
  EXPECT_FALSE(miss.find("hit")->boolean);
  EXPECT_TRUE(miss.find("t")->kind == JsonValue::Kind::Null);
}

// Brute force over the posed mesh's triangles as "triangle" shapes.
struct BruteCast {
  bool hit = false;
  double t = INFINITY;
};

TEST(MeshPair, RandomPairsMatchBruteForceInBothOrders) {
  Rng rng(31);
  const TriangleMesh meshes[] = {meshgen::icosphere(1), meshgen::torus(10, 6, 1.0, 0.3), meshgen::randomSoup(rng, 40, 1.0, 0.4)};
  int checked = 0, casts = 0;
  for (const TriangleMesh& m : meshes) {
    for (int n = 0; n < 40; ++n) {
      Transform pose;
      pose.position = rng.inCube(1);
      pose.rotation = rng.rotation();
      Shape other = (n % 2 == 0) ? Shape::capsule(0.2, 0.3) : Shape::box({0.3, 0.2, 0.25});
      other.pose.position = rng.inCube(2.2);
      other.pose.rotation = rng.rotation();
      const std::string otherJson =
          other.type == ShapeType::Capsule
              ? "{\"type\":\"capsule\",\"radius\":0.2,\"halfHeight\":0.3,\"position\":" + vec(other.pose.position) +
                    ",\"rotation\":" + quat(other.pose.rotation) + "}"
              : "{\"type\":\"box\",\"halfExtents\":[0.3,0.2,0.25],\"position\":" + vec(other.pose.position) +
                    ",\"rotation\":" + quat(other.pose.rotation) + "}";
      const std::string mj = meshJson(m, pose);
      // Brute-force distance and cast over every triangle.
      const Vec3 ta = rng.inCube(1.5), tb = rng.inCube(1.5);
      double best = INFINITY;
      BruteCast cast;
      for (const auto& tri : m.triangles) {
        const Shape t = Shape::triangle(pose.apply(m.vertices[tri[0]]), pose.apply(m.vertices[tri[1]]),
                                        pose.apply(m.vertices[tri[2]]));
        best = std::min(best, gjkDistance(PosedShape(t), PosedShape(other)).distance);
        const ShapeCastResult c = gjkShapeCast(PosedShape(t), PosedShape(other), ta, tb);
        if (c.hit && c.t < cast.t) cast = {true, c.t};
      }
      const double tol = 1e-9 * 3;
      const JsonValue d = run(mj, otherJson, "distance");
      EXPECT_NEAR(num(d, "distance"), best, tol) << n;
      const JsonValue e = run(otherJson, mj, "distance");
      EXPECT_NEAR(num(e, "distance"), best, tol) << n;
      if (best > tol) {
        // pointA on A: the swapped run's pointA is the forward run's pointB.
        EXPECT_LE(maxAbs(v3(*d.find("pointB")) - v3(*e.find("pointA"))), 1e-7) << n;
        EXPECT_NEAR(length(v3(*d.find("pointA")) - v3(*d.find("pointB"))), best, tol) << n;
      }
      if (std::fabs(best) > 1e-6) {
        EXPECT_EQ(run(mj, otherJson, "intersect").find("intersecting")->boolean, best == 0) << n;
      }
      const std::string motion = ",\"motion\":{\"translationA\":" + vec(ta) + ",\"translationB\":" + vec(tb) + "}";
      const JsonValue c = run(mj, otherJson, "shapecast", motion);
      EXPECT_EQ(c.find("hit")->boolean, cast.hit) << n;
      if (cast.hit && c.find("hit")->boolean) {
        EXPECT_NEAR(num(c, "t"), cast.t, 1e-7) << n;
        ++casts;
        // Swapped order, swapped motions: the same time.
        const std::string swapped = ",\"motion\":{\"translationA\":" + vec(tb) + ",\"translationB\":" + vec(ta) + "}";
        const JsonValue c2 = run(otherJson, mj, "shapecast", swapped);
        ASSERT_TRUE(c2.find("hit")->boolean) << n;
        EXPECT_NEAR(num(c2, "t"), num(c, "t"), 1e-12) << n;
        EXPECT_LE(maxAbs(v3(*c2.find("pointA")) - v3(*c.find("pointB"))), 1e-9) << n;
        if (c.find("normal")->kind != JsonValue::Kind::Null) {
          EXPECT_LE(maxAbs(v3(*c2.find("normal")) + v3(*c.find("normal"))), 1e-12) << n;
        }
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 120);
  EXPECT_GT(casts, 10);
}

TEST(MeshPair, ConvexContactsAreTheContactQuery) {
  Rng rng(5);
  for (int n = 0; n < 50; ++n) {
    Shape a = Shape::box({0.5, 0.3, 0.4}), b = Shape::capsule(0.25, 0.4);
    a.pose.position = rng.inCube(0.3);
    a.pose.rotation = rng.rotation();
    b.pose.position = rng.inCube(1.0);
    b.pose.rotation = rng.rotation();
    const std::string aj = "{\"type\":\"box\",\"halfExtents\":[0.5,0.3,0.4],\"position\":" + vec(a.pose.position) +
                           ",\"rotation\":" + quat(a.pose.rotation) + "}";
    const std::string bj = "{\"type\":\"capsule\",\"radius\":0.25,\"halfHeight\":0.4,\"position\":" +
                           vec(b.pose.position) + ",\"rotation\":" + quat(b.pose.rotation) + "}";
    const ContactResult ref = contact(PosedShape(a), PosedShape(b), 0.2);
    const JsonValue c = run(aj, bj, "contacts", ",\"margin\":0.2");
    const auto& list = c.find("contacts")->items;
    ASSERT_EQ(list.size(), ref.contact ? 1u : 0u) << n;
    if (!ref.contact) continue;
    EXPECT_TRUE(list[0].find("triangle")->kind == JsonValue::Kind::Null);
    EXPECT_EQ(num(list[0], "depth"), -ref.distance);
    EXPECT_EQ(v3(*list[0].find("normal")).x, ref.normal.x);
    EXPECT_EQ(v3(*list[0].find("pointB")).z, ref.pointB.z);
  }
}

TEST(MeshPair, ContactsMarginIsCheckedAndWrittenBack) {
  const std::string shapes = "\"shapes\":[{\"type\":\"sphere\",\"radius\":1},{\"type\":\"point\"}]";
  EXPECT_EQ(runError("{\"version\":1,\"query\":\"contacts\"," + shapes + ",\"margin\":-1}").field, "margin");
  EXPECT_EQ(runError("{\"version\":1,\"query\":\"contacts\"," + shapes + ",\"margin\":\"x\"}").field, "margin");
  EXPECT_EQ(runError("{\"version\":1,\"query\":\"distance\"," + shapes + ",\"margin\":0.1}").field, "margin");
  Scene scene;
  SceneError err;
  ASSERT_TRUE(parseScene("{\"version\":1,\"query\":\"contacts\"," + shapes + ",\"margin\":0.25}", &scene, &err));
  const std::string back = sceneToJson(scene);
  EXPECT_NE(back.find("\"margin\":0.25"), std::string::npos) << back;
  Scene again;
  ASSERT_TRUE(parseScene(back, &again, &err)) << err.message;
  EXPECT_EQ(again.margin, 0.25);
  // Without a margin, contacts are overlaps and touches only.
  ASSERT_TRUE(parseScene("{\"version\":1,\"query\":\"contacts\"," + shapes + "}", &scene, &err));
  EXPECT_EQ(sceneToJson(scene).find("margin"), std::string::npos);
}

TEST(MeshPair, TwoMeshesAndTracesAreClearRefusals) {
  const TriangleMesh floor = floorMesh(2);
  const std::string f = meshJson(floor, Transform{});
  for (const char* q : {"distance", "shapecast", "contacts"}) {
    const std::string extra = std::string(q) == "shapecast" ? ",\"motion\":{\"translationA\":[0,0,0],\"translationB\":[0,1,0]}" : "";
    const SceneError e = runError("{\"version\":1,\"query\":\"" + std::string(q) + "\",\"shapes\":[" + f + "," + f + "]" + extra + "}");
    EXPECT_EQ(e.code, "unsupported-query") << q;
    EXPECT_NE(e.message.find("two meshes"), std::string::npos) << e.message;
  }
  const SceneError p = runError("{\"version\":1,\"query\":\"penetration\",\"shapes\":[" + f + "," + sphereJson(0.5, {0, 2, 0}) + "]}");
  EXPECT_EQ(p.code, "unsupported-query");
  EXPECT_NE(p.message.find("contacts"), std::string::npos) << p.message;  // says what a mesh takes
  Scene scene;
  SceneError err;
  std::string out;
  ASSERT_TRUE(parseScene("{\"version\":1,\"query\":\"distance\",\"shapes\":[" + f + "," + sphereJson(0.5, {0, 2, 0}) + "]}",
                         &scene, &err));
  EXPECT_FALSE(runScene(scene, true, &out, &err));
  EXPECT_EQ(err.code, "unsupported-query");
  EXPECT_NE(err.message.find("no steps to trace"), std::string::npos) << err.message;
}

TEST(MeshPairApi, SingleAndBatchEqualTheSceneBitForBit) {
  Rng rng(77);
  const TriangleMesh m = meshgen::torus(12, 6, 1.0, 0.35);
  Shape mesh;
  ShapeError se;
  ASSERT_TRUE(makeMeshShape(m, &mesh, &se));
  api::Registry reg;
  SceneError err;
  const int hm = reg.add(mesh, &err);
  const int hc = reg.add(Shape::capsule(0.2, 0.3), &err);
  ASSERT_GT(hm, 0);
  ASSERT_GT(hc, 0);
  int hits = 0;
  for (const api::Kind kind : {api::Kind::Intersect, api::Kind::Distance, api::Kind::Shapecast}) {
    const int k = static_cast<int>(kind);
    const int stride = api::kResultStride[k];
    const int n = 40;
    std::vector<double> poses, extras, batchOut(static_cast<std::size_t>(stride * n));
    std::vector<std::uint32_t> pairs;
    std::vector<double> singles;
    std::vector<int> sceneFeatures;  // [A, B] per query: the scene's triangle at the mesh's side
    for (int i = 0; i < n; ++i) {
      const Transform pm{rng.inCube(0.5), rng.rotation()};
      const Transform pc{rng.inCube(1.6), rng.rotation()};
      const bool meshFirst = i % 2 == 0;
      const Transform& pa = meshFirst ? pm : pc;
      const Transform& pb = meshFirst ? pc : pm;
      const Vec3 ta = rng.inCube(1), tb = rng.inCube(1);
      double in[api::kInputSize] = {pa.position.x, pa.position.y, pa.position.z, pa.rotation.x, pa.rotation.y,
                                    pa.rotation.z, pa.rotation.w, pb.position.x, pb.position.y, pb.position.z,
                                    pb.rotation.x, pb.rotation.y, pb.rotation.z, pb.rotation.w,
                                    ta.x, ta.y, ta.z, tb.x, tb.y, tb.z, 0};
      double out[api::kMaxResultStride];
      const int ha = meshFirst ? hm : hc, hb = meshFirst ? hc : hm;
      ASSERT_TRUE(reg.query(kind, ha, hb, in, nullptr, out, &err)) << err.message;
      const MeshRayHit& last = reg.lastMeshHit();
      singles.insert(singles.end(), out, out + stride);
      poses.insert(poses.end(), in, in + 14);
      extras.insert(extras.end(), in + 14, in + 14 + api::kExtraSize);  // 7 per query (the last unused here)
      pairs.push_back(static_cast<std::uint32_t>(2 * i + (meshFirst ? 0 : 1)));
      pairs.push_back(static_cast<std::uint32_t>(2 * i + (meshFirst ? 1 : 0)));
      // The scene route.
      const std::string capsule = "{\"type\":\"capsule\",\"radius\":0.2,\"halfHeight\":0.3,\"position\":" +
                                  vec(pc.position) + ",\"rotation\":" + quat(pc.rotation) + "}";
      const std::string mj = meshJson(m, pm);
      const std::string extra = kind == api::Kind::Shapecast
                                    ? ",\"motion\":{\"translationA\":" + vec(ta) + ",\"translationB\":" + vec(tb) + "}"
                                    : "";
      const char* q = kind == api::Kind::Intersect ? "intersect" : kind == api::Kind::Distance ? "distance" : "shapecast";
      const JsonValue r = meshFirst ? run(mj, capsule, q, extra) : run(capsule, mj, q, extra);
      const JsonValue* triangle = r.find("triangle");
      ASSERT_NE(triangle, nullptr);
      const int t = triangle->isNumber() ? static_cast<int>(triangle->number) : -1;
      sceneFeatures.push_back(meshFirst ? t : -1);
      sceneFeatures.push_back(meshFirst ? -1 : t);
      EXPECT_EQ(last.hit ? last.triangle : -1, t);
      if (kind == api::Kind::Intersect) {
        EXPECT_EQ(out[api::offsetOf(k, "intersecting")], r.find("intersecting")->boolean ? 1.0 : 0.0);
        EXPECT_EQ(out[api::offsetOf(k, "iterations")], num(r, "iterations"));
      } else if (kind == api::Kind::Distance) {
        EXPECT_EQ(out[api::offsetOf(k, "distance")], num(r, "distance"));
        for (int j = 0; j < 3; ++j) EXPECT_EQ(out[api::offsetOf(k, "pointA") + j], r.find("pointA")->items[j].number);
        for (int j = 0; j < 3; ++j) EXPECT_EQ(out[api::offsetOf(k, "pointB") + j], r.find("pointB")->items[j].number);
      } else {
        const bool hit = r.find("hit")->boolean;
        EXPECT_EQ(out[api::offsetOf(k, "hit")], hit ? 1.0 : 0.0);
        if (hit) {
          ++hits;
          EXPECT_EQ(out[api::offsetOf(k, "t")], num(r, "t"));
          for (int j = 0; j < 3; ++j) EXPECT_EQ(out[api::offsetOf(k, "pointB") + j], r.find("pointB")->items[j].number);
        }
      }
    }
    // batch(): shapes [mesh, capsule] per query in the order of the pair.
    std::vector<int> handles;
    for (int i = 0; i < n; ++i) {
      handles.push_back(i % 2 == 0 ? hm : hc);
      handles.push_back(i % 2 == 0 ? hc : hm);
    }
    std::vector<std::uint32_t> seq;
    for (int i = 0; i < 2 * n; ++i) seq.push_back(static_cast<std::uint32_t>(i));
    ASSERT_TRUE(reg.batch(kind, handles.data(), 2 * n, poses.data(), seq.data(), n,
                          kind == api::Kind::Shapecast ? extras.data() : nullptr, nullptr, batchOut.data(), &err))
        << err.message;
    for (int j = 0; j < stride * n; ++j) {
      const double a = singles[static_cast<std::size_t>(j)], b = batchOut[static_cast<std::size_t>(j)];
      EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << api::kindName(kind) << " at " << j << ": " << a << " vs " << b;
    }
    // With features: the same results, and the scene's triangle at the mesh's side.
    std::vector<double> withFeatures(batchOut.size());
    std::vector<int> features(static_cast<std::size_t>(2 * n), 7);
    ASSERT_TRUE(reg.batch(kind, handles.data(), 2 * n, poses.data(), seq.data(), n,
                          kind == api::Kind::Shapecast ? extras.data() : nullptr, nullptr, withFeatures.data(), &err,
                          features.data()))
        << err.message;
    for (std::size_t j = 0; j < batchOut.size(); ++j)
      EXPECT_TRUE(batchOut[j] == withFeatures[j] || (std::isnan(batchOut[j]) && std::isnan(withFeatures[j])));
    EXPECT_EQ(features, sceneFeatures) << api::kindName(kind);
  }
  EXPECT_GT(hits, 3);
}

// One contact record (batch_layout.h kContactRecord) equals a scene's ContactPoint.
void expectRecord(const double* o, const JsonValue& c) {
  const api::ResultLayout& l = api::kContactRecordLayout;
  const JsonValue* triangle = c.find("triangle");
  EXPECT_EQ(o[api::offsetIn(l, "triangle")], triangle->isNumber() ? triangle->number : -1.0);
  EXPECT_EQ(o[api::offsetIn(l, "depth")], num(c, "depth"));
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(o[api::offsetIn(l, "normal") + j], c.find("normal")->items[j].number);
    EXPECT_EQ(o[api::offsetIn(l, "pointA") + j], c.find("pointA")->items[j].number);
    EXPECT_EQ(o[api::offsetIn(l, "pointB") + j], c.find("pointB")->items[j].number);
  }
}

TEST(MeshPairApi, ContactsEqualTheSceneBitForBit) {
  Rng rng(78);
  const TriangleMesh m = floorMesh(6);
  Shape mesh;
  ShapeError se;
  ASSERT_TRUE(makeMeshShape(m, &mesh, &se));
  api::Registry reg;
  SceneError err;
  const int hm = reg.add(mesh, &err);
  const int hc = reg.add(Shape::capsule(0.3, 0.5), &err);
  const int hb = reg.add(Shape::box({0.4, 0.4, 0.4}), &err);
  int total = 0;
  for (int i = 0; i < 30; ++i) {
    const Transform pm{rng.inCube(0.1), rng.rotation()};
    const Transform pc{rng.inCube(0.6), rng.rotation()};
    const bool meshFirst = i % 2 == 0;
    const Transform& pa = meshFirst ? pm : pc;
    const Transform& pb = meshFirst ? pc : pm;
    double in[api::kInputSize] = {pa.position.x, pa.position.y, pa.position.z, pa.rotation.x, pa.rotation.y,
                                  pa.rotation.z, pa.rotation.w, pb.position.x, pb.position.y, pb.position.z,
                                  pb.rotation.x, pb.rotation.y, pb.rotation.z, pb.rotation.w, 0.1};
    std::vector<double> out(api::kContactsHeader + api::kContactSize * 64);
    ASSERT_TRUE(reg.contacts(meshFirst ? hm : hc, meshFirst ? hc : hm, in, out.data(), 64, &err)) << err.message;
    const std::string capsule = "{\"type\":\"capsule\",\"radius\":0.3,\"halfHeight\":0.5,\"position\":" +
                                vec(pc.position) + ",\"rotation\":" + quat(pc.rotation) + "}";
    const std::string mj = meshJson(m, pm);
    const JsonValue r = meshFirst ? run(mj, capsule, "contacts", ",\"margin\":0.1") : run(capsule, mj, "contacts", ",\"margin\":0.1");
    const auto& list = r.find("contacts")->items;
    ASSERT_EQ(out[0], static_cast<double>(list.size())) << i;
    EXPECT_EQ(out[1], 0.0);
    for (std::size_t c = 0; c < list.size(); ++c) {
      const double* o = out.data() + api::kContactsHeader + api::kContactSize * c;
      expectRecord(o, list[c]);
    }
    total += static_cast<int>(list.size());
    // Too small a buffer: the first contacts, flagged truncated.
    if (list.size() > 1) {
      ASSERT_TRUE(reg.contacts(meshFirst ? hm : hc, meshFirst ? hc : hm, in, out.data(), 1, &err));
      EXPECT_EQ(out[0], 1.0);
      EXPECT_EQ(out[1], 1.0);
      EXPECT_EQ(out[api::kContactsHeader + api::offsetIn(api::kContactRecordLayout, "depth")], num(list[0], "depth"));
    }
    // Two convex shapes: left to the contact query (out[0] = −1).
    out[0] = 7;
    ASSERT_TRUE(reg.contacts(hb, hc, in, out.data(), 64, &err)) << err.message;
    EXPECT_EQ(out[0], -1.0);
  }
  EXPECT_GT(total, 20);
  // Bad input names the argument.
  double in[api::kInputSize] = {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, -1};
  std::vector<double> out(api::kContactsHeader);
  EXPECT_FALSE(reg.contacts(hm, hc, in, out.data(), 0, &err));
  EXPECT_EQ(err.field, "margin");
  in[14] = 0;
  EXPECT_FALSE(reg.contacts(hm, hm, in, out.data(), 0, &err));
  EXPECT_EQ(err.code, "unsupported-query");
  EXPECT_FALSE(reg.contacts(hm, hc, in, out.data(), api::kMaxResultStride + kMaxMeshContacts, &err));
  EXPECT_EQ(err.field, "capacity");
  EXPECT_FALSE(reg.contacts(hm, 999, in, out.data(), 0, &err));
  EXPECT_EQ(err.field, "b");
}

// Random poses of [mesh, capsule, box, sphere, mesh] as a batch takes them.
std::vector<double> randomPoses(Rng& rng, int nShapes, double spread) {
  std::vector<double> poses;
  for (int i = 0; i < nShapes; ++i) {
    const Transform p{rng.inCube(spread), rng.rotation()};
    const double pose[api::kPoseSize] = {p.position.x, p.position.y, p.position.z, p.rotation.x,
                                         p.rotation.y, p.rotation.z, p.rotation.w};
    poses.insert(poses.end(), pose, pose + api::kPoseSize);
  }
  return poses;
}

TEST(MeshPairApi, ContactsBatchEqualsContactsPerPair) {
  Rng rng(79);
  Shape mesh;
  ShapeError se;
  ASSERT_TRUE(makeMeshShape(floorMesh(6), &mesh, &se));
  api::Registry reg;
  SceneError err;
  const int hm = reg.add(mesh, &err);
  const int handles[] = {hm, reg.add(Shape::capsule(0.3, 0.5), &err), reg.add(Shape::box({0.4, 0.4, 0.4}), &err),
                         reg.add(Shape::sphere(0.5), &err), hm};
  const int nShapes = 5;
  int meshContacts = 0, convexContacts = 0;
  for (int round = 0; round < 20; ++round) {
    std::vector<double> poses = randomPoses(rng, nShapes, 0.5);
    // Every ordered pair but mesh–mesh (shapes 0 and 4 are the mesh).
    std::vector<std::uint32_t> pairs;
    std::vector<double> margins;
    for (std::uint32_t i = 0; i < nShapes; ++i)
      for (std::uint32_t j = 0; j < nShapes; ++j)
        if (i != j && !((i == 0 || i == 4) && (j == 0 || j == 4))) {
          pairs.push_back(i);
          pairs.push_back(j);
          margins.push_back(rng.uniform(0, 0.2));
        }
    const std::int64_t n = static_cast<std::int64_t>(margins.size());
    const std::int64_t capacity = 2000;
    std::vector<double> records(static_cast<std::size_t>(api::kContactSize * capacity));
    std::vector<std::uint32_t> offsets(static_cast<std::size_t>(n + 1));
    std::vector<double> perPair(static_cast<std::size_t>(2 * n));
    ASSERT_TRUE(api::contactsBatch(reg, handles, nShapes, poses.data(), pairs.data(), n, margins.data(), records.data(),
                                  capacity, offsets.data(), perPair.data(), &err))
        << err.field << ": " << err.message;
    EXPECT_EQ(offsets[0], 0u);
    for (std::int64_t q = 0; q < n; ++q) {
      const std::uint32_t ia = pairs[2 * q], ib = pairs[2 * q + 1];
      double in[api::kInputSize] = {};
      std::copy(poses.begin() + api::kPoseSize * ia, poses.begin() + api::kPoseSize * (ia + 1), in);
      std::copy(poses.begin() + api::kPoseSize * ib, poses.begin() + api::kPoseSize * (ib + 1), in + api::kPoseSize);
      in[2 * api::kPoseSize] = margins[static_cast<std::size_t>(q)];
      std::vector<double> single(api::kContactsHeader + api::kContactSize * kMaxMeshContacts);
      ASSERT_TRUE(reg.contacts(handles[ia], handles[ib], in, single.data(), kMaxMeshContacts, &err));
      const std::uint32_t count = offsets[q + 1] - offsets[q];
      const double* got = records.data() + api::kContactSize * offsets[q];
      if (single[0] >= 0) {
        ASSERT_EQ(count, single[0]) << q;
        EXPECT_EQ(perPair[2 * q], single[2]);
        EXPECT_EQ(perPair[2 * q + 1], single[1]);
        for (std::size_t j = 0; j < api::kContactSize * count; ++j) EXPECT_EQ(got[j], single[api::kContactsHeader + j]);
        meshContacts += static_cast<int>(count);
        continue;
      }
      // Two convex shapes: the contact query's one contact.
      double one[api::kMaxResultStride];
      ASSERT_TRUE(reg.query(api::Kind::Contact, handles[ia], handles[ib], in, nullptr, one, &err));
      constexpr int k = static_cast<int>(api::Kind::Contact);
      const api::ResultLayout& l = api::kContactRecordLayout;
      EXPECT_EQ(perPair[2 * q], one[api::offsetOf(k, "iterations")]);
      EXPECT_EQ(perPair[2 * q + 1], 0.0);
      ASSERT_EQ(count, one[api::offsetOf(k, "contact")]) << q;
      if (count == 0) continue;
      ++convexContacts;
      EXPECT_EQ(got[api::offsetIn(l, "depth")], -one[api::offsetOf(k, "distance")]);
      EXPECT_EQ(got[api::offsetIn(l, "triangle")], -1.0);
      for (int j = 0; j < 3; ++j) {
        EXPECT_EQ(got[api::offsetIn(l, "normal") + j], one[api::offsetOf(k, "normal") + j]);
        EXPECT_EQ(got[api::offsetIn(l, "pointA") + j], one[api::offsetOf(k, "pointA") + j]);
        EXPECT_EQ(got[api::offsetIn(l, "pointB") + j], one[api::offsetOf(k, "pointB") + j]);
      }
    }
    // A buffer too small: every pair still answers, those that lost contacts say truncated.
    const std::int64_t total = offsets[static_cast<std::size_t>(n)];
    if (total > 3) {
      std::vector<std::uint32_t> small(offsets.size());
      ASSERT_TRUE(api::contactsBatch(reg, handles, nShapes, poses.data(), pairs.data(), n, margins.data(), records.data(),
                                    3, small.data(), perPair.data(), &err));
      EXPECT_EQ(small[static_cast<std::size_t>(n)], 3u);
      int truncated = 0;
      for (std::int64_t q = 0; q < n; ++q) {
        const bool lost = small[q + 1] - small[q] < offsets[q + 1] - offsets[q];
        EXPECT_EQ(perPair[2 * q + 1], lost ? 1.0 : 0.0) << q;
        truncated += lost;
      }
      EXPECT_GT(truncated, 0);
    }
  }
  EXPECT_GT(meshContacts, 20);
  EXPECT_GT(convexContacts, 5);
  // Refusals name the argument; nothing is written.
  std::vector<double> poses = randomPoses(rng, nShapes, 0.5);
  std::uint32_t offsets[3] = {9, 9, 9};
  double records[api::kContactSize * 4], perPair[4];
  const std::uint32_t meshMesh[] = {1, 2, 0, 4};
  const double margins[] = {0, 0};
  EXPECT_FALSE(api::contactsBatch(reg, handles, nShapes, poses.data(), meshMesh, 2, margins, records, 4, offsets, perPair, &err));
  EXPECT_EQ(err.code, "unsupported-query");
  EXPECT_EQ(err.field, "shapes[4].type");
  EXPECT_EQ(offsets[0], 9u);
  const std::uint32_t ok[] = {1, 2, 0, 3};
  const double negative[] = {0, -1};
  EXPECT_FALSE(api::contactsBatch(reg, handles, nShapes, poses.data(), ok, 2, negative, records, 4, offsets, perPair, &err));
  EXPECT_EQ(err.field, "options.margins[1]");
  const double nan[] = {std::nan(""), 0};
  EXPECT_FALSE(api::contactsBatch(reg, handles, nShapes, poses.data(), ok, 2, nan, records, 4, offsets, perPair, &err));
  EXPECT_EQ(err.field, "options.margins[0]");
  const std::uint32_t outOfRange[] = {1, 5};
  EXPECT_FALSE(api::contactsBatch(reg, handles, nShapes, poses.data(), outOfRange, 1, margins, records, 4, offsets, perPair, &err));
  EXPECT_EQ(err.field, "pairs[1]");
  EXPECT_FALSE(api::contactsBatch(reg, handles, nShapes, poses.data(), ok, 2, margins, records, -1, offsets, perPair, &err));
  EXPECT_EQ(err.field, "capacity");
  poses[api::kPoseSize * 3 + 1] = std::nan("");
  EXPECT_FALSE(api::contactsBatch(reg, handles, nShapes, poses.data(), ok, 2, margins, records, 4, offsets, perPair, &err));
  EXPECT_EQ(err.field, "poses[3][1]");
  EXPECT_EQ(offsets[0], 9u);
}

TEST(MeshPairApi, RaycastBatchFeaturesEqualTheSingleQuery) {
  Rng rng(80);
  Shape mesh;
  ShapeError se;
  ASSERT_TRUE(makeMeshShape(meshgen::torus(12, 6, 1.0, 0.35), &mesh, &se));
  api::Registry reg;
  SceneError err;
  const int handles[] = {reg.add(mesh, &err), reg.add(Shape::sphere(0.5), &err)};
  const int n = 200;
  std::vector<double> poses = randomPoses(rng, 2, 0.3);
  std::vector<std::uint32_t> which;
  std::vector<double> rays;
  for (int i = 0; i < n; ++i) {
    // Aimed at a point near the torus: most rays hit it.
    const Vec3 o = rng.inCube(2.5), d = rng.inCube(1.2) - o;
    const double ray[api::kExtraSize] = {o.x, o.y, o.z, d.x, d.y, d.z, 2};
    rays.insert(rays.end(), ray, ray + api::kExtraSize);
    which.push_back(i % 5 == 4 ? 1 : 0);
  }
  const int stride = api::kResultStride[static_cast<int>(api::Kind::Raycast)];
  std::vector<double> out(static_cast<std::size_t>(stride * n));
  std::vector<int> features(static_cast<std::size_t>(2 * n), 7);
  std::vector<double> bary(static_cast<std::size_t>(3 * n), 7);
  ASSERT_TRUE(reg.batch(api::Kind::Raycast, handles, 2, poses.data(), which.data(), n, rays.data(), nullptr,
                        out.data(), &err, features.data(), bary.data()))
      << err.message;
  int hits = 0;
  for (int i = 0; i < n; ++i) {
    double in[api::kInputSize] = {};
    std::copy(poses.begin() + api::kPoseSize * which[i], poses.begin() + api::kPoseSize * (which[i] + 1), in);
    std::copy(rays.begin() + api::kExtraSize * i, rays.begin() + api::kExtraSize * (i + 1), in + 2 * api::kPoseSize);
    double one[api::kMaxResultStride];
    ASSERT_TRUE(reg.query(api::Kind::Raycast, handles[which[i]], 0, in, nullptr, one, &err));
    for (int j = 0; j < stride; ++j) {
      const double a = one[j], b = out[static_cast<std::size_t>(stride * i + j)];
      EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b)));
    }
    EXPECT_EQ(features[2 * i + 1], -1);
    const MeshRayHit& h = reg.lastMeshHit();
    if (which[i] == 1 || !h.hit) {
      EXPECT_EQ(features[2 * i], -1) << i;
      for (int j = 0; j < 3; ++j) EXPECT_TRUE(std::isnan(bary[3 * i + j])) << i;
      continue;
    }
    ++hits;
    EXPECT_EQ(features[2 * i], h.triangle);
    EXPECT_EQ(bary[3 * i], h.barycentric.x);
    EXPECT_EQ(bary[3 * i + 1], h.barycentric.y);
    EXPECT_EQ(bary[3 * i + 2], h.barycentric.z);
  }
  EXPECT_GT(hits, 50);
}

TEST(MeshPair, TwoMeshesIntersectAsBruteForceOverTrianglePairs) {
  Rng rng(41);
  const TriangleMesh a = meshgen::icosphere(1), b = meshgen::torus(8, 5, 0.8, 0.25);
  Shape sb;
  ShapeError se;
  ASSERT_TRUE(makeMeshShape(b, &sb, &se));
  Shape sa;
  ASSERT_TRUE(makeMeshShape(a, &sa, &se));
  api::Registry reg;
  SceneError err;
  const int ha = reg.add(sa, &err), hb = reg.add(sb, &err);
  int yes = 0, no = 0;
  for (int n = 0; n < 60; ++n) {
    const Transform pa{rng.inCube(0.2), rng.rotation()};
    const Transform pb{rng.inCube(1.6), rng.rotation()};
    bool brute = false;
    for (const auto& ta : a.triangles) {
      for (const auto& tb : b.triangles)
        if (trianglesIntersect(pa.apply(a.vertices[ta[0]]), pa.apply(a.vertices[ta[1]]), pa.apply(a.vertices[ta[2]]),
                               pb.apply(b.vertices[tb[0]]), pb.apply(b.vertices[tb[1]]), pb.apply(b.vertices[tb[2]]))) {
          brute = true;
          break;
        }
      if (brute) break;
    }
    const JsonValue r = run(meshJson(a, pa), meshJson(b, pb), "intersect");
    EXPECT_EQ(r.find("intersecting")->boolean, brute) << n;
    if (brute) {
      const auto& t = r.find("triangles")->items;
      ASSERT_EQ(t.size(), 2u);
      const auto& ta = a.triangles[static_cast<std::size_t>(t[0].number)];
      const auto& tb = b.triangles[static_cast<std::size_t>(t[1].number)];
      EXPECT_TRUE(trianglesIntersect(pa.apply(a.vertices[ta[0]]), pa.apply(a.vertices[ta[1]]), pa.apply(a.vertices[ta[2]]),
                                     pb.apply(b.vertices[tb[0]]), pb.apply(b.vertices[tb[1]]), pb.apply(b.vertices[tb[2]])));
    }
    (brute ? yes : no)++;
    double in[api::kInputSize] = {pa.position.x, pa.position.y, pa.position.z, pa.rotation.x, pa.rotation.y,
                                  pa.rotation.z, pa.rotation.w, pb.position.x, pb.position.y, pb.position.z,
                                  pb.rotation.x, pb.rotation.y, pb.rotation.z, pb.rotation.w};
    double out[api::kMaxResultStride];
    ASSERT_TRUE(reg.query(api::Kind::Intersect, ha, hb, in, nullptr, out, &err)) << err.message;
    EXPECT_EQ(out[api::offsetOf(static_cast<int>(api::Kind::Intersect), "intersecting")], brute ? 1.0 : 0.0) << n;
  }
  EXPECT_GT(yes, 10);
  EXPECT_GT(no, 10);
  // Distance between two meshes is a clear refusal in the API too.
  double in[api::kInputSize] = {0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 1};
  double out[api::kMaxResultStride];
  EXPECT_FALSE(reg.query(api::Kind::Distance, ha, hb, in, nullptr, out, &err));
  EXPECT_EQ(err.code, "unsupported-query");
  EXPECT_EQ(err.field, "b.type");
}

}  // namespace
}  // namespace collidoscope
