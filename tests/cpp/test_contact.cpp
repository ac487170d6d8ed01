// contact() (contact.h, and the object API's Kind::Contact) against the
// queries it is defined by and against analytic answers:
//   * random pairs of every shape type, with and without shape margins, at
//     random contact margins: null exactly when distance() > margin; else
//     distance()'s distance and points (apart) or penetration()'s normal,
//     points and −depth (overlapping), bit for bit;
//   * sphere pairs against |c_B − c_A| − r_A − r_B by hand;
//   * touching pairs, margin 0, a huge margin;
//   * the early stop: far pairs end after fewer GJK steps than distance().
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/contact.h"
#include "collidoscope/json.h"
#include "collidoscope/scene.h"
#include "scene_json.h"
#include "reference.h"

namespace collidoscope {
namespace {

using api::Kind;
using api::Registry;

constexpr int kContact = static_cast<int>(Kind::Contact);
constexpr int kDistance = static_cast<int>(Kind::Distance);
constexpr int kPenetration = static_cast<int>(Kind::Penetration);

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// One query's doubles through the registry.
std::vector<double> ask(Registry& reg, Kind kind, int a, int b, const double* poses, double margin) {
  double in[api::kInputSize] = {};
  std::memcpy(in, poses, sizeof(double) * 2 * api::kPoseSize);
  in[2 * api::kPoseSize] = margin;
  std::vector<double> out(api::kMaxResultStride);
  SceneError err;
  EXPECT_TRUE(reg.query(kind, a, b, in, nullptr, out.data(), &err)) << err.field << ": " << err.message;
  return out;
}

void randomPoses(ref::Rng& rng, double* poses, double spread) {
  for (int i = 0; i < 2; ++i) {
    const Vec3 p = rng.inCube(spread);
    const Quat q = rng.rotation();
    const double v[7] = {p.x, p.y, p.z, q.x, q.y, q.z, q.w};
    std::memcpy(poses + api::kPoseSize * i, v, sizeof v);
  }
}

// The definition, field by field: returns how the pair was answered (0 null, 1 apart, 2 overlapping).
int checkAgainstDefinition(Registry& reg, int a, int b, const double* poses, double margin, const char* what) {
  const std::vector<double> c = ask(reg, Kind::Contact, a, b, poses, margin);
  const std::vector<double> d = ask(reg, Kind::Distance, a, b, poses, 0);
  const std::vector<double> p = ask(reg, Kind::Penetration, a, b, poses, 0);
  const auto at = [](int kind, const char* name) { return api::offsetOf(kind, name); };
  const double dist = d[static_cast<std::size_t>(at(kDistance, "distance"))];
  const bool contact = c[static_cast<std::size_t>(at(kContact, "contact"))] != 0;
  EXPECT_EQ(contact, dist <= margin) << what << ": distance " << dist << " margin " << margin;
  if (!contact) {
    EXPECT_TRUE(std::isnan(c[static_cast<std::size_t>(at(kContact, "distance"))])) << what;
    for (const char* v : {"normal", "pointA", "pointB"})
      EXPECT_TRUE(std::isnan(c[static_cast<std::size_t>(at(kContact, v))])) << what << " " << v;
    return 0;
  }
  const auto same = [&](const char* field, const std::vector<double>& ref, int refKind, const char* refField) {
    for (int i = 0; i < (std::strcmp(field, "distance") == 0 ? 1 : 3); ++i)
      EXPECT_TRUE(sameBits(c[static_cast<std::size_t>(at(kContact, field) + i)],
                           ref[static_cast<std::size_t>(at(refKind, refField) + i)]))
          << what << ": " << field << "[" << i << "] " << c[static_cast<std::size_t>(at(kContact, field) + i)]
          << " vs " << refField << " " << ref[static_cast<std::size_t>(at(refKind, refField) + i)];
  };
  same("normal", p, kPenetration, "normal");
  const double cd = c[static_cast<std::size_t>(at(kContact, "distance"))];
  if (dist > 0) {
    same("distance", d, kDistance, "distance");
    same("pointA", d, kDistance, "pointA");
    same("pointB", d, kDistance, "pointB");
    return 1;
  }
  const double depth = p[static_cast<std::size_t>(at(kPenetration, "depth"))];
  EXPECT_EQ(p[static_cast<std::size_t>(at(kPenetration, "intersecting"))], 1.0) << what;
  EXPECT_TRUE(sameBits(cd, depth > 0 ? -depth : 0.0)) << what << ": " << cd << " vs depth " << depth;
  same("pointA", p, kPenetration, "pointA");
  same("pointB", p, kPenetration, "pointB");
  return 2;
}

TEST(Contact, RandomPairsOfEveryTypeMatchDistanceAndPenetrationBitForBit) {
  ref::Rng rng(1701);
  Registry reg;
  std::vector<int> handles;
  for (ShapeType t : ref::kAllTypes) {
    for (int k = 0; k < 2; ++k) {
      Shape s = ref::randomShape(rng, t, 1.0);
      if (k == 1) s.margin = 0.05;
      SceneError err;
      handles.push_back(reg.add(s, &err));
      ASSERT_GT(handles.back(), 0) << err.message;
    }
  }
  int counts[3] = {0, 0, 0};
  const int n = static_cast<int>(handles.size());
  for (int ia = 0; ia < n; ++ia) {
    for (int ib = 0; ib < n; ++ib) {
      for (int trial = 0; trial < 12; ++trial) {
        double poses[2 * api::kPoseSize];
        randomPoses(rng, poses, trial % 2 == 0 ? 1.2 : 3);
        const double margin = trial % 4 == 0 ? 0.0 : rng.uniform(0, 2);
        ++counts[checkAgainstDefinition(reg, handles[static_cast<std::size_t>(ia)],
                                        handles[static_cast<std::size_t>(ib)], poses, margin, "random pair")];
      }
    }
  }
  // Every branch was met many times.
  std::printf("[contact] %d pairs: %d beyond the margin, %d apart within it, %d overlapping\n",
              counts[0] + counts[1] + counts[2], counts[0], counts[1], counts[2]);
  EXPECT_GT(counts[0], 500);
  EXPECT_GT(counts[1], 500);
  EXPECT_GT(counts[2], 500);
}

// Spheres by hand: signed distance |c_B − c_A| − r_A − r_B, normal along
// c_B − c_A, points on the spheres; null beyond the margin. Through the
// closed form (sphere–sphere) and through GJK/EPA (a sphere against a
// zero-radius-core ellipsoid of equal radii, which has no closed form).
TEST(Contact, SpheresMatchTheAnalyticAnswer) {
  ref::Rng rng(1702);
  Registry reg;
  SceneError err;
  for (int trial = 0; trial < 400; ++trial) {
    const double ra = rng.uniform(0.1, 2), rb = rng.uniform(0.1, 2);
    const int a = reg.add(Shape::sphere(ra), &err);
    const int b = reg.add(Shape::sphere(rb), &err);
    const int e = reg.add(Shape::ellipsoid({rb, rb, rb}), &err);
    const Vec3 ca = rng.inCube(2), cb = rng.inCube(2);
    const double margin = rng.uniform(0, 1);
    const double poses[14] = {ca.x, ca.y, ca.z, 0, 0, 0, 1, cb.x, cb.y, cb.z, 0, 0, 0, 1};
    const double len = std::sqrt((cb.x - ca.x) * (cb.x - ca.x) + (cb.y - ca.y) * (cb.y - ca.y) +
                                 (cb.z - ca.z) * (cb.z - ca.z));
    const double expected = len - ra - rb;
    const Vec3 n{(cb.x - ca.x) / len, (cb.y - ca.y) / len, (cb.z - ca.z) / len};
    for (int other : {b, e}) {
      const std::vector<double> c = ask(reg, Kind::Contact, a, other, poses, margin);
      // The general path on the curved ellipsoid is as accurate as GJK's and
      // EPA's tolerances make it: the depth to ~1e-10, the normal (and so
      // the points) to about its square root.
      const double tol = other == b ? 1e-12 : 1e-8;
      const double ntol = other == b ? 1e-12 : 1e-4;
      if (std::fabs(expected - margin) < tol) continue;  // too close to the margin to call
      ASSERT_EQ(c[0] != 0, expected <= margin) << "expected " << expected << " margin " << margin;
      if (c[0] == 0) continue;
      EXPECT_NEAR(c[1], expected, tol);
      const Vec3 pa = ca + n * ra, pb = cb - n * rb;
      const double* normal = &c[static_cast<std::size_t>(api::offsetOf(kContact, "normal"))];
      const double* pointA = &c[static_cast<std::size_t>(api::offsetOf(kContact, "pointA"))];
      const double* pointB = &c[static_cast<std::size_t>(api::offsetOf(kContact, "pointB"))];
      EXPECT_NEAR(normal[0], n.x, ntol);
      EXPECT_NEAR(normal[1], n.y, ntol);
      EXPECT_NEAR(normal[2], n.z, ntol);
      // Overlapping: pointA is A's deepest point in B, pointB B's deepest in A.
      EXPECT_NEAR(pointA[0], pa.x, ntol);
      EXPECT_NEAR(pointA[1], pa.y, ntol);
      EXPECT_NEAR(pointA[2], pa.z, ntol);
      EXPECT_NEAR(pointB[0], pb.x, ntol);
      EXPECT_NEAR(pointB[1], pb.y, ntol);
      EXPECT_NEAR(pointB[2], pb.z, ntol);
    }
    reg.remove(a);
    reg.remove(b);
    reg.remove(e);
  }
}

// Touching at margin 0 is a contact of distance 0; a hair apart is not.
TEST(Contact, TouchingPairsAreContactsAtMarginZero) {
  Registry reg;
  SceneError err;
  const int box = reg.add(Shape::box({1, 1, 1}), &err);
  const int sph = reg.add(Shape::sphere(0.5), &err);
  const int cap = reg.add(Shape::capsule(0.5, 1), &err);
  struct Case {
    int a, b;
    double x;  // B's x when touching A
  };
  for (const Case& t : {Case{box, box, 2}, Case{box, sph, 1.5}, Case{sph, sph, 1}, Case{cap, cap, 1}, Case{box, cap, 1.5}}) {
    const double touching[14] = {0, 0, 0, 0, 0, 0, 1, t.x, 0, 0, 0, 0, 0, 1};
    const std::vector<double> c = ask(reg, Kind::Contact, t.a, t.b, touching, 0);
    EXPECT_EQ(c[0], 1.0) << t.x;
    EXPECT_EQ(c[1], 0.0) << t.x;
    EXPECT_FALSE(std::signbit(c[1])) << "touching is +0, not -0";
    const double* normal = &c[static_cast<std::size_t>(api::offsetOf(kContact, "normal"))];
    EXPECT_NEAR(normal[0], 1, 1e-12);
    checkAgainstDefinition(reg, t.a, t.b, touching, 0, "touching");
    const double apart[14] = {0, 0, 0, 0, 0, 0, 1, t.x + 1e-6, 0, 0, 0, 0, 0, 1};
    EXPECT_EQ(ask(reg, Kind::Contact, t.a, t.b, apart, 0)[0], 0.0) << t.x;
    const std::vector<double> within = ask(reg, Kind::Contact, t.a, t.b, apart, 2e-6);
    EXPECT_EQ(within[0], 1.0);
    EXPECT_NEAR(within[1], 1e-6, 1e-12);
  }
}

// A margin larger than any gap: every pair is a contact, and the answer is
// still the definition's.
TEST(Contact, AHugeMarginMakesEveryPairAContact) {
  ref::Rng rng(1703);
  Registry reg;
  SceneError err;
  for (int trial = 0; trial < 300; ++trial) {
    const ShapeType ta = ref::kAllTypes[rng.integer(0, 9)], tb = ref::kAllTypes[rng.integer(0, 9)];
    const int a = reg.add(ref::randomShape(rng, ta, 1), &err);
    const int b = reg.add(ref::randomShape(rng, tb, 1), &err);
    double poses[14];
    randomPoses(rng, poses, 50);
    EXPECT_EQ(checkAgainstDefinition(reg, a, b, poses, 1e6, "huge margin") != 0, true);
    // And 1e300, where the early stop's bound overflows to infinity.
    EXPECT_EQ(ask(reg, Kind::Contact, a, b, poses, 1e300)[0], 1.0);
    reg.remove(a);
    reg.remove(b);
  }
}

// The early stop: pairs far beyond the margin end on GJK's first steps,
// before distance() has converged, and say so without closest points.
TEST(Contact, FarPairsStopEarly) {
  ref::Rng rng(1704);
  int fewer = 0, trials = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Vec3> pa(40), pb(40);
    for (Vec3& p : pa) p = rng.inBall(1);
    for (Vec3& p : pb) p = rng.inBall(1);
    Shape a = Shape::polytope(pa), b = Shape::ellipsoid({0.5, 0.7, 0.9});
    a.pose = {rng.inCube(1), rng.rotation()};
    b.pose = {a.pose.position + rng.direction() * rng.uniform(4, 10), rng.rotation()};
    const PosedShape sa(a), sb(b);
    const ContactResult c = contact(sa, sb, 0.1);
    const DistanceResult d = gjkDistance(sa, sb);
    ASSERT_GT(d.distance, 0.1);
    EXPECT_FALSE(c.contact);
    EXPECT_EQ(c.status, EpaStatus::Converged);
    EXPECT_LE(c.iterations, d.iterations);
    NoTrace none;
    const DistanceResult g = gjkDistanceWithin(sa, sb, 0.1, GjkSettings{}, none);
    EXPECT_TRUE(g.beyondMargin);
    // Its distance is a certified lower bound.
    EXPECT_GT(g.distance, 0.1);
    EXPECT_LE(g.distance, d.distance + 1e-12);
    fewer += c.iterations < d.iterations;
    ++trials;
  }
  EXPECT_GT(fewer, trials * 9 / 10) << "the early stop saved GJK steps on " << fewer << " of " << trials;

  // Along the centres' direction the gap is proved before the first step:
  // two boxes 10 apart on x, and a box against a capsule 10 apart on y.
  Shape a = Shape::box({1, 2, 3}), b = Shape::box({0.5, 0.5, 0.5}), c = Shape::capsule(0.5, 2);
  b.pose.position = {10, 0.3, -0.2};
  c.pose = {{0.4, 10, 0}, Quat{0, 0, std::sin(0.4), std::cos(0.4)}};
  for (const Shape* other : {&b, &c}) {
    const ContactResult r = contact(PosedShape(a), PosedShape(*other), 0.1);
    EXPECT_FALSE(r.contact);
    EXPECT_EQ(r.iterations, 1);
    EXPECT_GT(gjkDistance(PosedShape(a), PosedShape(*other)).iterations, 1);
  }
}

// A margin of +∞ is gjkDistance itself, and a pair within the margin runs
// the same steps: the same bits everywhere.
TEST(Contact, WithinTheMarginGjkRunsAsDistanceDoes) {
  ref::Rng rng(1705);
  for (int trial = 0; trial < 300; ++trial) {
    Shape a = ref::randomShape(rng, ref::kAllTypes[rng.integer(0, 9)], 1);
    Shape b = ref::randomShape(rng, ref::kAllTypes[rng.integer(0, 9)], 1);
    a.pose = {rng.inCube(1.5), rng.rotation()};
    b.pose = {rng.inCube(1.5), rng.rotation()};
    const PosedShape sa(a), sb(b);
    const DistanceResult d = gjkDistance(sa, sb);
    NoTrace none;
    const DistanceResult w = gjkDistanceWithin(sa, sb, d.distance + 1e-9, GjkSettings{}, none);
    EXPECT_FALSE(w.beyondMargin);
    EXPECT_TRUE(sameBits(w.distance, d.distance));
    EXPECT_EQ(w.iterations, d.iterations);
    EXPECT_TRUE(sameBits(w.pointA.x, d.pointA.x) && sameBits(w.pointB.z, d.pointB.z));
  }
}

// The scene format's "contact" query (api::runContactScene) on a box and a
// capsule at random poses and margins: the registry's contact bit for bit
// (the scene writes −0 as +0, hence the + 0.0); and two unit spheres 2.5
// apart, a gap of exactly 0.5, at margins 0.5 and one ulp either side.
TEST(Contact, TheSceneQueryIsTheRegistrysBitForBit) {
  ref::Rng rng(913);
  Registry reg;
  SceneError err;
  Shape box;
  box.type = ShapeType::Box;
  box.halfExtents = {0.6, 0.4, 0.3};
  Shape capsule;
  capsule.type = ShapeType::Capsule;
  capsule.radius = 0.3;
  capsule.halfHeight = 0.5;
  const int a = reg.add(box, &err), b = reg.add(capsule, &err);
  const auto sceneOf = [](const double* poses, double margin) {
    Transform t[2];
    for (int i = 0; i < 2; ++i) {
      const double* p = poses + api::kPoseSize * i;
      t[i].position = {p[0], p[1], p[2]};
      t[i].rotation = {p[3], p[4], p[5], p[6]};
    }
    return "{\"version\":1,\"query\":\"contact\",\"margin\":" + scenejson::num(margin) +
           ",\"shapes\":[{\"type\":\"box\",\"halfExtents\":[0.6,0.4,0.3]" + scenejson::poseJson(t[0]) +
           "},{\"type\":\"capsule\",\"radius\":0.3,\"halfHeight\":0.5" + scenejson::poseJson(t[1]) + "}]}";
  };
  const auto run = [&err](const std::string& text) {
    Scene scene;
    std::string json, why;
    EXPECT_TRUE(parseScene(text, &scene, &err)) << err.field << ": " << err.message;
    EXPECT_TRUE(runScene(scene, false, &json, &err)) << err.field << ": " << err.message;
    JsonValue v;
    EXPECT_TRUE(parseJson(json, &v, &why)) << why;
    return v;
  };
  int seen[2] = {0, 0};
  for (int k = 0; k < 300; ++k) {
    double poses[2 * api::kPoseSize];
    randomPoses(rng, poses, 1.5);
    const double margin = k % 3 == 0 ? 0 : rng.uniform(0, 1);
    const std::vector<double> c = ask(reg, Kind::Contact, a, b, poses, margin);
    const JsonValue r = run(sceneOf(poses, margin));
    const bool contact = c[static_cast<std::size_t>(api::offsetOf(kContact, "contact"))] != 0;
    ASSERT_EQ(r.find("contact")->boolean, contact);
    ++seen[contact];
    EXPECT_EQ(r.find("iterations")->number, c[static_cast<std::size_t>(api::offsetOf(kContact, "iterations"))]);
    for (const char* field : {"distance", "normal", "pointA", "pointB"}) {
      const JsonValue& f = *r.find(field);
      const double* want = &c[static_cast<std::size_t>(api::offsetOf(kContact, field))];
      if (!contact) {
        EXPECT_EQ(f.kind, JsonValue::Kind::Null) << field;
        continue;
      }
      if (f.isNumber()) EXPECT_TRUE(sameBits(f.number, want[0])) << field;
      else
        for (int i = 0; i < 3; ++i) EXPECT_TRUE(sameBits(f.items[static_cast<std::size_t>(i)].number, want[i] + 0.0)) << field;
    }
  }
  EXPECT_GT(seen[0], 50);
  EXPECT_GT(seen[1], 50);

  const auto spheres = [&](double margin) {
    return run("{\"version\":1,\"query\":\"contact\",\"margin\":" + scenejson::num(margin) +
               ",\"shapes\":[{\"type\":\"sphere\",\"radius\":1},{\"type\":\"sphere\",\"radius\":1,\"position\":[2.5,0,0]}]}");
  };
  const JsonValue at = spheres(0.5);
  EXPECT_TRUE(at.find("contact")->boolean);
  EXPECT_EQ(at.find("distance")->number, 0.5);
  EXPECT_TRUE(spheres(std::nextafter(0.5, 1.0)).find("contact")->boolean);
  EXPECT_FALSE(spheres(std::nextafter(0.5, 0.0)).find("contact")->boolean);
}

TEST(Contact, TheSceneQueryNamesBadMargins) {
  const std::string shapes = ",\"shapes\":[{\"type\":\"sphere\",\"radius\":1},{\"type\":\"point\"}]}";
  const std::pair<std::string, std::string> cases[] = {
      {"{\"version\":1,\"query\":\"contact\",\"margin\":-1" + shapes, "must not be negative"},
      {"{\"version\":1,\"query\":\"contact\",\"margin\":\"NaN\"" + shapes, "finite number, got NaN"},
      {"{\"version\":1,\"query\":\"contact\",\"margin\":true" + shapes, "must be a number"},
      {"{\"version\":1,\"query\":\"intersect\",\"margin\":0.5" + shapes, "only used by the contact and contacts queries"},
  };
  for (const auto& [text, message] : cases) {
    Scene scene;
    SceneError err;
    EXPECT_FALSE(parseScene(text, &scene, &err)) << text;
    EXPECT_EQ(err.field, "margin") << text;
    EXPECT_NE(err.message.find(message), std::string::npos) << err.message;
  }
}

}  // namespace
}  // namespace collidoscope
