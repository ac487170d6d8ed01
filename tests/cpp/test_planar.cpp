// 2D scenes ("dimension": 2, DESIGN.md "2D scenes"): parsing with errors
// that name the field; distance, intersect and penetration against analytic
// answers and a brute-force reference (vertex–edge distances, the overlap of
// the polygons' edge normals); seed 004's worked example; and a 2D scene
// answering exactly what its twin in the plane z = 0 answers in 3D.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "collidoscope/epa2d.h"
#include "collidoscope/json.h"
#include "collidoscope/scene.h"
#include "collidoscope/support.h"

namespace {

using collidoscope::JsonValue;
using collidoscope::Scene;
using collidoscope::SceneError;

struct P2 {
  double x, y;
};

JsonValue runJson(const std::string& sceneJson, bool trace = false) {
  Scene s;
  SceneError err;
  JsonValue out;
  EXPECT_TRUE(collidoscope::parseScene(sceneJson, &s, &err)) << sceneJson << "\n  " << err.field << ": " << err.message;
  std::string text;
  EXPECT_TRUE(collidoscope::runScene(s, trace, &text, &err)) << sceneJson << "\n  " << err.field << ": " << err.message;
  std::string why;
  EXPECT_TRUE(collidoscope::parseJson(text, &out, &why)) << text;
  return out;
}

double num(const JsonValue& r, const char* key) {
  const JsonValue* v = r.find(key);
  EXPECT_NE(v, nullptr) << key;
  return v == nullptr ? std::nan("") : v->number;
}

P2 vec2(const JsonValue& r, const char* key) {
  const JsonValue* v = r.find(key);
  EXPECT_NE(v, nullptr) << key;
  if (v == nullptr) return {std::nan(""), std::nan("")};
  EXPECT_EQ(v->items.size(), 2u) << key << " must be a 2D vector";
  if (v->items.size() < 2) return {std::nan(""), std::nan("")};
  return {v->items[0].number, v->items[1].number};
}

std::string scene2d(const std::string& a, const std::string& b, const std::string& query) {
  return R"({"version":1,"dimension":2,"shapes":[)" + a + "," + b + R"(],"query":")" + query + R"("})";
}

void expectError(const std::string& json, const std::string& code, const std::string& field) {
  Scene s;
  SceneError err;
  EXPECT_FALSE(collidoscope::parseScene(json, &s, &err)) << json;
  EXPECT_EQ(err.code, code) << json << "\n  " << err.message;
  EXPECT_EQ(err.field, field) << json << "\n  " << err.message;
  EXPECT_FALSE(err.message.empty());
}

constexpr double kTol = 1e-12;

// ---- analytic answers -------------------------------------------------------

TEST(Planar, CircleCircleDistanceIsCentreDistanceMinusRadii) {
  // Centres 5 apart along (3, 4)/5: distance 5 − 1 − 0.5.
  const JsonValue r = runJson(scene2d(R"({"type":"circle","radius":1})",
                                      R"({"type":"circle","radius":0.5,"position":[3,4]})", "distance"));
  EXPECT_NEAR(num(r, "distance"), 3.5, kTol);
  const P2 a = vec2(r, "pointA"), b = vec2(r, "pointB");
  EXPECT_NEAR(a.x, 0.6, kTol);
  EXPECT_NEAR(a.y, 0.8, kTol);
  EXPECT_NEAR(b.x, 2.7, kTol);
  EXPECT_NEAR(b.y, 3.6, kTol);
}

TEST(Planar, CircleCirclePenetrationIsRadiiMinusCentreDistance) {
  const JsonValue r = runJson(scene2d(R"({"type":"circle","radius":1})",
                                      R"({"type":"circle","radius":1,"position":[1.5,0]})", "penetration"));
  EXPECT_TRUE(r.find("intersecting")->boolean);
  EXPECT_NEAR(num(r, "depth"), 0.5, kTol);
  const P2 n = vec2(r, "normal"), a = vec2(r, "pointA"), b = vec2(r, "pointB");
  EXPECT_NEAR(n.x, 1, kTol);
  EXPECT_NEAR(n.y, 0, kTol);
  EXPECT_NEAR(a.x, 1, kTol);
  EXPECT_NEAR(b.x, 0.5, kTol);
}

TEST(Planar, ConcentricCirclesPenetrateBySumOfRadii) {
  const JsonValue r = runJson(scene2d(R"({"type":"circle","radius":1})", R"({"type":"circle","radius":2})",
                                      "penetration"));
  EXPECT_NEAR(num(r, "depth"), 3, kTol);
  const P2 n = vec2(r, "normal");
  EXPECT_NEAR(std::hypot(n.x, n.y), 1, kTol);
}

TEST(Planar, AxisAlignedBoxesDistanceAndPenetration) {
  const std::string a = R"({"type":"box","halfExtents":[1,2]})";
  // Apart along x: 3 − 1 − 0.5 (B's y-range [0.5, 1.5] lies within A's).
  const JsonValue d = runJson(scene2d(a, R"({"type":"box","halfExtents":[0.5,0.5],"position":[3,1]})", "distance"));
  EXPECT_NEAR(num(d, "distance"), 1.5, kTol);
  EXPECT_NEAR(vec2(d, "pointA").x, 1, kTol);
  EXPECT_NEAR(vec2(d, "pointB").x, 2.5, kTol);
  // Overlap 1 + 0.5 − 1.2 = 0.3 along x, 2 + 0.5 − 0.3 = 2.2 along y: the
  // smaller is the depth, B moves along +x.
  const JsonValue p =
      runJson(scene2d(a, R"({"type":"box","halfExtents":[0.5,0.5],"position":[1.2,0.3]})", "penetration"));
  EXPECT_NEAR(num(p, "depth"), 0.3, kTol);
  const P2 n = vec2(p, "normal");
  EXPECT_NEAR(n.x, 1, kTol);
  EXPECT_NEAR(n.y, 0, kTol);
  const P2 pa = vec2(p, "pointA"), pb = vec2(p, "pointB");
  EXPECT_NEAR(pa.x - pb.x, 0.3, kTol);
  EXPECT_NEAR(pa.y - pb.y, 0, kTol);
  const JsonValue i = runJson(scene2d(a, R"({"type":"box","halfExtents":[0.5,0.5],"position":[1.2,0.3]})", "intersect"));
  EXPECT_TRUE(i.find("intersecting")->boolean);
}

TEST(Planar, PointPolygonDistanceAndDepth) {
  // Triangle (0,0), (4,0), (0,3): its hypotenuse is 3x + 4y = 12.
  const std::string tri = R"({"type":"polygon","points":[[0,0],[4,0],[0,3],[1,1],[4,0]]})";
  const JsonValue d = runJson(scene2d(tri, R"({"type":"point","position":[3,3]})", "distance"));
  EXPECT_NEAR(num(d, "distance"), (9.0 + 12 - 12) / 5, kTol);
  // (0.5, 1) inside: nearest side x = 0 at 0.5 (y = 0 is 1 away, the
  // hypotenuse (12 − 1.5 − 4)/5 = 1.3).
  const JsonValue p = runJson(scene2d(tri, R"({"type":"point","position":[0.5,1]})", "penetration"));
  EXPECT_NEAR(num(p, "depth"), 0.5, kTol);
  EXPECT_NEAR(vec2(p, "normal").x, -1, kTol);
  EXPECT_NEAR(vec2(p, "pointA").x, 0, kTol);
  EXPECT_NEAR(vec2(p, "pointA").y, 1, kTol);
}

TEST(Planar, CapsuleTurnedByAngle) {
  // A capsule along local y turned by π/2 lies along x: its end cap reaches
  // x = 2 + 0.5; a point at (4, 0) is 1.5 away.
  const JsonValue d = runJson(scene2d(R"({"type":"capsule","radius":0.5,"halfHeight":2,"angle":1.5707963267948966})",
                                      R"({"type":"point","position":[4,0]})", "distance"));
  EXPECT_NEAR(num(d, "distance"), 1.5, 1e-12);
}

TEST(Planar, RaycastAndShapecastInThePlane) {
  const JsonValue r = runJson(
      R"({"version":1,"dimension":2,"shapes":[{"type":"circle","radius":1,"position":[0,0.5]}],"query":"raycast",)"
      R"("ray":{"origin":[-5,0],"direction":[1,0],"maxT":10}})");
  const double x = -std::sqrt(1 - 0.25);
  EXPECT_TRUE(r.find("hit")->boolean);
  EXPECT_NEAR(num(r, "t"), x + 5, 1e-9);
  const P2 n = vec2(r, "normal");
  EXPECT_NEAR(n.x, x, 1e-9);
  EXPECT_NEAR(n.y, -0.5, 1e-9);
  // A circle of radius 1 moving 10 along x towards a box face at x = 4: it
  // touches after 3 units, t = 0.3.
  const JsonValue c = runJson(
      R"({"version":1,"dimension":2,"shapes":[{"type":"circle","radius":1},{"type":"box","halfExtents":[1,1],)"
      R"("position":[5,0]}],"query":"shapecast","motion":{"translationA":[10,0],"translationB":[0,0]}})");
  EXPECT_TRUE(c.find("hit")->boolean);
  EXPECT_NEAR(num(c, "t"), 0.3, 1e-9);
  EXPECT_NEAR(vec2(c, "normal").x, 1, 1e-9);
}

// ---- seed 004's worked example ----------------------------------------------

std::vector<collidoscope::Vec3> supportsOver(const collidoscope::Shape& a, const collidoscope::Shape& b, int n) {
  const collidoscope::PosedShape pa(a), pb(b);
  std::vector<collidoscope::Vec3> out;
  for (int i = 0; i < n; ++i) {
    const double t = 2 * M_PI * (i + 0.5) / n;
    out.push_back(collidoscope::minkowskiSupport(pa, pb, {std::cos(t), std::sin(t), 0}).w);
  }
  return out;
}

// The set of distinct support points equals `expected` exactly.
void expectVertexSet(std::vector<collidoscope::Vec3> got, std::vector<P2> expected) {
  std::sort(got.begin(), got.end(), [](auto& p, auto& q) { return p.x < q.x || (p.x == q.x && p.y < q.y); });
  got.erase(std::unique(got.begin(), got.end()), got.end());
  std::sort(expected.begin(), expected.end(), [](auto& p, auto& q) { return p.x < q.x || (p.x == q.x && p.y < q.y); });
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].x, expected[i].x);
    EXPECT_EQ(got[i].y, expected[i].y);
    EXPECT_EQ(got[i].z, 0);
  }
}

collidoscope::Shape polygon(std::vector<P2> pts) {
  std::vector<collidoscope::Vec3> v;
  for (const P2& p : pts) v.push_back({p.x, p.y, 0});
  return collidoscope::Shape::polytope(v);
}

TEST(Planar, SeedMinkowskiSumExample) {
  // A = {(−3,1), (−3,2), (−1,1)}, B = {(0,0), (2,0), (0,2), (2,2)}:
  // A + B = {(−3,1), (−3,4), (−1,4), (1,3), (1,1)}, as A − (−B).
  const auto a = polygon({{-3, 1}, {-3, 2}, {-1, 1}});
  const auto minusB = polygon({{0, 0}, {-2, 0}, {0, -2}, {-2, -2}});
  expectVertexSet(supportsOver(a, minusB, 720), {{-3, 1}, {-3, 4}, {-1, 4}, {1, 3}, {1, 1}});
}

TEST(Planar, SeedMinkowskiDifferenceExampleAndItsDepth) {
  // A = {(0,2), (0,3), (2,2)}, B = {(1,1), (3,1), (3,4), (1,4)}. The seed's
  // difference {(−1,−1), (−1,2), (3,2), (3,−2), (1,−2)} is that of b − a
  // (its figure subtracts A from B), so the hull of a − b is its negation.
  const auto a = polygon({{0, 2}, {0, 3}, {2, 2}});
  const auto b = polygon({{1, 1}, {3, 1}, {3, 4}, {1, 4}});
  expectVertexSet(supportsOver(b, a, 720), {{-1, -1}, {-1, 2}, {3, 2}, {3, -2}, {1, -2}});
  // The origin lies in it (A's corner (2,2) is inside B): they intersect.
  // Nearest side of A − B to the origin is x = 1 (the others are 2, 2, 3
  // and 3/√5 away): depth 1, B moves along +x.
  const std::string sa = R"({"type":"polygon","points":[[0,2],[0,3],[2,2]]})";
  const std::string sb = R"({"type":"polygon","points":[[1,1],[3,1],[3,4],[1,4]]})";
  EXPECT_TRUE(runJson(scene2d(sa, sb, "intersect")).find("intersecting")->boolean);
  EXPECT_EQ(num(runJson(scene2d(sa, sb, "distance")), "distance"), 0);
  const JsonValue p = runJson(scene2d(sa, sb, "penetration"));
  EXPECT_NEAR(num(p, "depth"), 1, kTol);
  EXPECT_NEAR(vec2(p, "normal").x, 1, kTol);
  EXPECT_NEAR(vec2(p, "normal").y, 0, kTol);
}

// ---- brute force: random polygons -------------------------------------------

struct Poly {
  std::vector<P2> pts;  // world points (the hull is what counts)
};

double cross2(P2 o, P2 a, P2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

// Hull edges by brute force: (i, j) is an edge when no point lies right of it.
std::vector<std::pair<P2, P2>> hullEdges(const std::vector<P2>& p) {
  std::vector<std::pair<P2, P2>> e;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (i == j) continue;
      bool ok = true;
      for (std::size_t k = 0; k < p.size() && ok; ++k) ok = cross2(p[i], p[j], p[k]) >= 0;
      if (ok) e.emplace_back(p[i], p[j]);
    }
  return e;
}

double pointSegment(P2 q, P2 a, P2 b) {
  const double ex = b.x - a.x, ey = b.y - a.y;
  double t = ((q.x - a.x) * ex + (q.y - a.y) * ey) / (ex * ex + ey * ey);
  t = std::min(1.0, std::max(0.0, t));
  return std::hypot(q.x - a.x - t * ex, q.y - a.y - t * ey);
}

// Overlap of the projections on every hull edge normal: the smallest is the
// penetration depth when all are positive (2D SAT), else they are apart.
double satDepth(const std::vector<P2>& a, const std::vector<P2>& b) {
  double best = 1e300;
  for (const auto* s : {&a, &b})
    for (const auto& e : hullEdges(*s)) {
      double nx = e.second.y - e.first.y, ny = e.first.x - e.second.x;
      const double l = std::hypot(nx, ny);
      nx /= l;
      ny /= l;
      double minA = 1e300, maxA = -1e300, minB = 1e300, maxB = -1e300;
      for (const P2& p : a) {
        minA = std::min(minA, p.x * nx + p.y * ny);
        maxA = std::max(maxA, p.x * nx + p.y * ny);
      }
      for (const P2& p : b) {
        minB = std::min(minB, p.x * nx + p.y * ny);
        maxB = std::max(maxB, p.x * nx + p.y * ny);
      }
      best = std::min(best, std::min(maxA - minB, maxB - minA));
    }
  return best;
}

double bruteDistance(const std::vector<P2>& a, const std::vector<P2>& b) {
  double best = 1e300;
  for (const auto& e : hullEdges(b))
    for (const P2& p : a) best = std::min(best, pointSegment(p, e.first, e.second));
  for (const auto& e : hullEdges(a))
    for (const P2& p : b) best = std::min(best, pointSegment(p, e.first, e.second));
  return best;
}

std::string polygonJson(const std::vector<P2>& local, double angle, P2 pos) {
  std::string s = R"({"type":"polygon","points":[)";
  for (std::size_t i = 0; i < local.size(); ++i) {
    char buf[80];
    std::snprintf(buf, sizeof buf, "%s[%.17g,%.17g]", i ? "," : "", local[i].x, local[i].y);
    s += buf;
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, R"(],"position":[%.17g,%.17g],"angle":%.17g})", pos.x, pos.y, angle);
  return s + buf;
}

std::vector<P2> world(const std::vector<P2>& local, double angle, P2 pos) {
  std::vector<P2> w;
  for (const P2& p : local)
    w.push_back({std::cos(angle) * p.x - std::sin(angle) * p.y + pos.x, std::sin(angle) * p.x + std::cos(angle) * p.y + pos.y});
  return w;
}

TEST(Planar, RandomPolygonsAgreeWithBruteForce) {
  std::mt19937_64 rng(20261125);
  std::uniform_real_distribution<double> u(-1, 1);
  int apart = 0, overlapping = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<P2> la, lb;
    const int na = 3 + trial % 7, nb = 3 + (trial / 7) % 6;
    for (int i = 0; i < na; ++i) la.push_back({u(rng), u(rng)});
    for (int i = 0; i < nb; ++i) lb.push_back({0.7 * u(rng), 1.3 * u(rng)});
    const double angA = 3 * u(rng), angB = 3 * u(rng);
    const P2 posA{u(rng), u(rng)}, posB{1.5 * u(rng), 1.5 * u(rng)};
    const std::vector<P2> wa = world(la, angA, posA), wb = world(lb, angB, posB);
    const double depth = satDepth(wa, wb);
    if (std::fabs(depth) < 1e-6) continue;  // touching to rounding: either answer is right
    const std::string sa = polygonJson(la, angA, posA), sb = polygonJson(lb, angB, posB);
    const bool overlap = depth > 0;
    EXPECT_EQ(runJson(scene2d(sa, sb, "intersect")).find("intersecting")->boolean, overlap) << trial;
    const JsonValue d = runJson(scene2d(sa, sb, "distance"));
    const JsonValue p = runJson(scene2d(sa, sb, "penetration"));
    EXPECT_EQ(p.find("intersecting")->boolean, overlap) << trial;
    if (overlap) {
      ++overlapping;
      EXPECT_EQ(num(d, "distance"), 0) << trial;
      EXPECT_NEAR(num(p, "depth"), depth, 1e-9) << trial;
      const P2 n = vec2(p, "normal"), pa = vec2(p, "pointA"), pb = vec2(p, "pointB");
      EXPECT_NEAR(std::hypot(n.x, n.y), 1, 1e-12) << trial;
      EXPECT_NEAR(pa.x - pb.x, depth * n.x, 1e-9) << trial;
      EXPECT_NEAR(pa.y - pb.y, depth * n.y, 1e-9) << trial;
      // B moved by depth·normal touches A: the overlap along every axis is ≤ 0 + rounding.
      std::vector<P2> moved = wb;
      for (P2& q : moved) q = {q.x + n.x * num(p, "depth"), q.y + n.y * num(p, "depth")};
      EXPECT_NEAR(satDepth(wa, moved), 0, 1e-9) << trial;
    } else {
      ++apart;
      EXPECT_NEAR(num(d, "distance"), bruteDistance(wa, wb), 1e-9) << trial;
      const P2 pa = vec2(d, "pointA"), pb = vec2(d, "pointB");
      EXPECT_NEAR(std::hypot(pa.x - pb.x, pa.y - pb.y), num(d, "distance"), 1e-9) << trial;
    }
  }
  EXPECT_GT(apart, 50);
  EXPECT_GT(overlapping, 50);
}

// Rounded shapes: the depth of core ⊕ disc is the cores' depth plus the
// radii (the origin's distance to the boundary of C grows by r_A + r_B), and
// their distance the cores' distance minus the radii.
TEST(Planar, RoundedShapesAgreeWithTheirCoresPlusRadii) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    struct Made {
      std::string json;
      std::vector<P2> core;  // world core points
      double radius;
    };
    auto make = [&](int kind) {
      const double angle = 3 * u(rng), r = 0.05 + 0.3 * (u(rng) + 1);
      const P2 pos{u(rng), u(rng)};
      char buf[320];
      if (kind == 0) {  // capsule
        const double h = 0.2 + 0.5 * (u(rng) + 1);
        std::snprintf(buf, sizeof buf,
                      R"({"type":"capsule","radius":%.17g,"halfHeight":%.17g,"position":[%.17g,%.17g],"angle":%.17g})",
                      r, h, pos.x, pos.y, angle);
        return Made{buf, world({{0, -h}, {0, h}}, angle, pos), r};
      }
      if (kind == 1) {  // segment with a margin
        const P2 a{u(rng), u(rng)}, b{u(rng), u(rng)};
        std::snprintf(buf, sizeof buf, R"({"type":"segment","points":[[%.17g,%.17g],[%.17g,%.17g]],"margin":%.17g})",
                      a.x, a.y, b.x, b.y, r);
        return Made{buf, {a, b}, r};
      }
      std::vector<P2> local;  // polygon with a margin
      for (int i = 0; i < 5; ++i) local.push_back({u(rng), u(rng)});
      std::string j = polygonJson(local, angle, pos);
      std::snprintf(buf, sizeof buf, R"(,"margin":%.17g})", r);
      j = j.substr(0, j.size() - 1) + buf;
      return Made{j, world(local, angle, pos), r};
    };
    const Made a = make(trial % 3), b = make((trial / 3) % 3);
    const double coreDepth = satDepth(a.core, b.core);
    if (std::fabs(coreDepth) < 1e-6) continue;
    const JsonValue p = runJson(scene2d(a.json, b.json, "penetration"));
    const JsonValue d = runJson(scene2d(a.json, b.json, "distance"));
    const double radii = a.radius + b.radius;
    if (coreDepth > 0) {
      EXPECT_NEAR(num(p, "depth"), coreDepth + radii, 1e-9) << trial;
      EXPECT_EQ(num(d, "distance"), 0) << trial;
    } else {
      const double gap = bruteDistance(a.core, b.core) - radii;
      EXPECT_NEAR(num(d, "distance"), std::max(gap, 0.0), 1e-9) << trial;
      if (gap < -1e-6) {
        EXPECT_NEAR(num(p, "depth"), -gap, 1e-9) << trial;
      }
      if (gap > 1e-6) {
        EXPECT_FALSE(p.find("intersecting")->boolean) << trial;
      }
    }
    const P2 n = vec2(p, "normal"), pa = vec2(p, "pointA"), pb = vec2(p, "pointB");
    if (p.find("intersecting")->boolean) {
      EXPECT_NEAR(pa.x - pb.x, num(p, "depth") * n.x, 1e-9) << trial;
      EXPECT_NEAR(pa.y - pb.y, num(p, "depth") * n.y, 1e-9) << trial;
    }
    ++checked;
  }
  EXPECT_GT(checked, 250);
}

TEST(Planar, TouchingAndFlatDifferences) {
  // A point on a segment: C is a segment through the origin, the cores
  // touch: depth 0, a unit normal across the segment.
  JsonValue p = runJson(scene2d(R"({"type":"segment","points":[[-1,0],[1,0]]})",
                                R"({"type":"point","position":[0.25,0]})", "penetration"));
  EXPECT_TRUE(p.find("intersecting")->boolean);
  EXPECT_EQ(num(p, "depth"), 0);
  EXPECT_EQ(std::fabs(vec2(p, "normal").y), 1);
  // The same with radii: the depth is the radii.
  p = runJson(scene2d(R"({"type":"capsule","radius":0.5,"halfHeight":1})",
                      R"({"type":"circle","radius":0.25,"position":[0,0.5]})", "penetration"));
  EXPECT_NEAR(num(p, "depth"), 0.75, kTol);
  EXPECT_NEAR(std::fabs(vec2(p, "normal").x), 1, kTol);
  // Boxes sharing an edge exactly: touching, normal along the shared edge's normal.
  p = runJson(scene2d(R"({"type":"box","halfExtents":[1,1]})", R"({"type":"box","halfExtents":[1,1],"position":[2,0.5]})",
                      "penetration"));
  EXPECT_TRUE(p.find("intersecting")->boolean);
  EXPECT_EQ(num(p, "depth"), 0);
  EXPECT_EQ(num(p, "depth"), 0);
  EXPECT_NEAR(vec2(p, "normal").x, 1, kTol);
  // Crossing segments: C is a parallelogram around the origin.
  p = runJson(scene2d(R"({"type":"segment","points":[[-1,0],[1,0]]})", R"({"type":"segment","points":[[0,-2],[0,1]]})",
                      "penetration"));
  EXPECT_NEAR(num(p, "depth"), 1, kTol);  // move B up 1 (its lower part is 2 long, its upper 1)
  EXPECT_NEAR(vec2(p, "normal").y, -1, kTol);
}

TEST(Planar, DepthScalesWithTheScene) {
  for (double s : {1e-300, 1e-200, 1e-6, 1.0, 1e6, 1e14}) {
    char a[200], b[200];
    std::snprintf(a, sizeof a, R"({"type":"polygon","points":[[0,0],[%.17g,0],[0,%.17g]]})", 4 * s, 3 * s);
    std::snprintf(b, sizeof b, R"({"type":"point","position":[%.17g,%.17g]})", 0.5 * s, 1 * s);
    const JsonValue p = runJson(scene2d(a, b, "penetration"));
    EXPECT_NEAR(num(p, "depth"), 0.5 * s, 1e-12 * s) << s;
    EXPECT_NEAR(vec2(p, "normal").x, -1, 1e-12) << s;
    // Two boxes of half-size s, B moved s along x: they overlap by s along x.
    std::snprintf(a, sizeof a, R"({"type":"box","halfExtents":[%.17g,%.17g]})", s, s);
    std::snprintf(b, sizeof b, R"({"type":"box","halfExtents":[%.17g,%.17g],"position":[%.17g,0]})", s, s, s);
    const JsonValue q = runJson(scene2d(a, b, "penetration"));
    EXPECT_NEAR(num(q, "depth"), s, 1e-12 * s) << s;
    EXPECT_NEAR(vec2(q, "normal").x, 1, 1e-12) << s;
    const JsonValue t = runJson(scene2d(a, b, "penetration"), true);
    EXPECT_EQ(num(*t.find("result"), "depth"), num(q, "depth")) << s;
    EXPECT_NEAR(t.find("frames")->items.back().find("depth")->number, s, 1e-12 * s) << s;
  }
}

std::string regularPolygon(int n) {
  std::string pts;
  for (int i = 0; i < n; ++i) {
    char buf[80];
    std::snprintf(buf, sizeof buf, "%s[%.17g,%.17g]", i ? "," : "", std::cos(2 * M_PI * i / n), std::sin(2 * M_PI * i / n));
    pts += buf;
  }
  return R"({"type":"polygon","points":[)" + pts + "]}";
}

TEST(Planar, RegularPolygonAroundThePointUsesItsCapacity) {
  // The centre of a regular n-gon of circumradius 1 is the inradius
  // cos(π/n) from every edge: EPA must find every vertex. 600 fit.
  JsonValue p = runJson(scene2d(regularPolygon(600), R"({"type":"point"})", "penetration"));
  EXPECT_NEAR(num(p, "depth"), std::cos(M_PI / 600), 1e-12);
  EXPECT_EQ(p.find("status")->string, "converged");
  // 5000 do not: the cap ends it with a lower bound of the depth.
  p = runJson(scene2d(regularPolygon(5000), R"({"type":"point"})", "penetration"));
  EXPECT_EQ(p.find("status")->string, "max-iterations");
  EXPECT_LE(num(p, "depth"), std::cos(M_PI / 5000) + 1e-15);
  EXPECT_GT(num(p, "depth"), std::cos(M_PI / 5000) - 1e-4);
}

// ---- a 2D scene is its 3D twin in the plane z = 0 ---------------------------

// `planar` is `spatial` with every vector's z dropped, bit for bit; z is 0
// in every vector of `spatial`.
void expectPlanarTwin(const JsonValue& planar, const JsonValue& spatial, const std::string& path) {
  ASSERT_EQ(planar.kind, spatial.kind) << path;
  if (planar.isArray()) {
    const bool vector = spatial.items.size() == 3 && planar.items.size() == 2 &&
                        std::all_of(spatial.items.begin(), spatial.items.end(), [](auto& x) { return x.isNumber(); });
    if (vector) {
      EXPECT_EQ(spatial.items[2].number, 0) << path;
      for (int i = 0; i < 2; ++i) EXPECT_EQ(planar.items[i].number, spatial.items[i].number) << path << "[" << i << "]";
      return;
    }
    ASSERT_EQ(planar.items.size(), spatial.items.size()) << path;
    for (std::size_t i = 0; i < planar.items.size(); ++i)
      expectPlanarTwin(planar.items[i], spatial.items[i], path + "[" + std::to_string(i) + "]");
  } else if (planar.isObject()) {
    ASSERT_EQ(planar.members.size(), spatial.members.size()) << path;
    for (std::size_t i = 0; i < planar.members.size(); ++i) {
      EXPECT_EQ(planar.members[i].first, spatial.members[i].first) << path;
      expectPlanarTwin(planar.members[i].second, spatial.members[i].second, path + "." + planar.members[i].first);
    }
  } else if (planar.isNumber()) {
    EXPECT_EQ(planar.number, spatial.number) << path;
  } else if (planar.isString()) {
    EXPECT_EQ(planar.string, spatial.string) << path;
  } else if (planar.kind == JsonValue::Kind::Bool) {
    EXPECT_EQ(planar.boolean, spatial.boolean) << path;
  }
}

TEST(Planar, AnswersAndTracesEqualTheTwinInTheXyPlane) {
  const double angle = 0.7;
  char q[120];
  std::snprintf(q, sizeof q, "[0,0,%.17g,%.17g]", std::sin(angle / 2), std::cos(angle / 2));
  const std::string rot = q;
  struct Pair {
    std::string a2, b2, a3, b3;
  };
  const std::vector<Pair> pairs = {
      {R"({"type":"circle","radius":0.5,"position":[2,1]})", R"({"type":"box","halfExtents":[1,0.5],"angle":0.7})",
       R"({"type":"sphere","radius":0.5,"position":[2,1,0]})",
       R"({"type":"box","halfExtents":[1,0.5,0],"rotation":)" + rot + "}"},
      {R"({"type":"polygon","points":[[0,0],[2,0.5],[1,2]],"position":[0.5,0.2],"angle":0.7})",
       R"({"type":"capsule","radius":0.3,"halfHeight":1,"position":[3,0]})",
       R"({"type":"polytope","points":[[0,0,0],[2,0.5,0],[1,2,0]],"position":[0.5,0.2,0],"rotation":)" + rot + "}",
       R"({"type":"capsule","radius":0.3,"halfHeight":1,"position":[3,0,0]})"},
      {R"({"type":"segment","points":[[-1,-1],[1,2]]})", R"({"type":"point","position":[0.1,0.4]})",
       R"({"type":"segment","points":[[-1,-1,0],[1,2,0]]})", R"({"type":"point","position":[0.1,0.4,0]})"},
      {R"({"type":"polygon","points":[[0,0],[2,0.5],[1,2]]})", R"({"type":"box","halfExtents":[0.5,0.5],"position":[1,0.8]})",
       R"({"type":"polytope","points":[[0,0,0],[2,0.5,0],[1,2,0]]})",
       R"({"type":"box","halfExtents":[0.5,0.5,0],"position":[1,0.8,0]})"},
  };
  for (const Pair& p : pairs) {
    for (const char* query : {"distance", "intersect"}) {
      const std::string s2 = scene2d(p.a2, p.b2, query);
      const std::string s3 = R"({"version":1,"shapes":[)" + p.a3 + "," + p.b3 + R"(],"query":")" + query + R"("})";
      for (bool trace : {false, true}) expectPlanarTwin(runJson(s2, trace), runJson(s3, trace), s2);
    }
    // The casts: a ray at A from its lower left, B moving at A.
    const std::string ray2 = R"(,"ray":{"origin":[-4,-3],"direction":[2,1.5],"maxT":4}})";
    const std::string ray3 = R"(,"ray":{"origin":[-4,-3,0],"direction":[2,1.5,0],"maxT":4}})";
    const std::string cast2 = R"(,"motion":{"translationA":[0.5,0],"translationB":[-6,-1]}})";
    const std::string cast3 = R"(,"motion":{"translationA":[0.5,0,0],"translationB":[-6,-1,0]}})";
    const std::string r2 = R"({"version":1,"dimension":2,"shapes":[)" + p.a2 + R"(],"query":"raycast")" + ray2;
    const std::string r3 = R"({"version":1,"shapes":[)" + p.a3 + R"(],"query":"raycast")" + ray3;
    std::string c2 = scene2d(p.a2, p.b2, "shapecast");
    c2 = c2.substr(0, c2.size() - 1) + cast2;
    const std::string c3 = R"({"version":1,"shapes":[)" + p.a3 + "," + p.b3 + R"(],"query":"shapecast")" + cast3;
    for (bool trace : {false, true}) {
      expectPlanarTwin(runJson(r2, trace), runJson(r3, trace), r2);
      expectPlanarTwin(runJson(c2, trace), runJson(c3, trace), c2);
    }
  }
}

// ---- the scene format -------------------------------------------------------

TEST(Planar, SceneRoundTripsIn2D) {
  const std::string text =
      R"({"version":1,"dimension":2,"shapes":[{"type":"polygon","points":[[0,0],[1,0],[0.125,0.375]],"margin":0.0625,)"
      R"("position":[1,2],"angle":0.25},{"type":"circle","radius":0.5,"position":[0,0]}],"query":"raycast",)"
      R"("ray":{"origin":[0,-3],"direction":[0,1],"maxT":4},"step":2})";
  Scene s;
  SceneError err;
  ASSERT_TRUE(collidoscope::parseScene(text, &s, &err)) << err.message;
  EXPECT_EQ(s.dimension, 2);
  EXPECT_EQ(collidoscope::sceneToJson(s), text);
  EXPECT_EQ(s.shapes[0].pose.position.z, 0);
  EXPECT_EQ(s.shapes[1].type, collidoscope::ShapeType::Sphere);
}

TEST(Planar, BadInputNamesTheField) {
  const std::string circle = R"({"type":"circle","radius":1})";
  expectError(scene2d(R"({"type":"circle","radius":1,"position":[1,2,3]})", circle, "distance"), "invalid-scene",
              "shapes[0].position");
  expectError(scene2d(R"({"type":"box","halfExtents":[1,1],"rotation":[0,0,0,1]})", circle, "distance"),
              "invalid-scene", "shapes[0].rotation");
  expectError(scene2d(R"({"type":"circle","radius":1,"angle":1})", circle, "distance"), "invalid-scene",
              "shapes[0].angle");
  expectError(scene2d(circle, R"({"type":"box","halfExtents":[1,1],"colour":"red"})", "distance"), "invalid-scene",
              "shapes[1].colour");
  expectError(scene2d(R"({"type":"sphere","radius":1})", circle, "distance"), "invalid-scene", "shapes[0].type");
  expectError(scene2d(circle, R"({"type":"polygon","points":[[0,0],[1,0,0]]})", "distance"), "invalid-scene",
              "shapes[1].points[1]");
  expectError(scene2d(circle, R"({"type":"segment","points":[[0,0],[1,0],[2,0]]})", "distance"), "invalid-scene",
              "shapes[1].points");
  expectError(scene2d(circle, R"({"type":"box","halfExtents":[1,-1]})", "distance"), "invalid-scene",
              "shapes[1].halfExtents[1]");
  expectError(scene2d(circle, R"({"type":"capsule","radius":1,"halfHeight":1,"angle":"NaN"})", "distance"),
              "invalid-scene", "shapes[1].angle");
  expectError(scene2d(circle, R"({"type":"polygon","points":[]})", "distance"), "invalid-scene", "shapes[1].points");
  expectError(scene2d(circle, circle, "sat"), "unsupported-query", "query");
  expectError(scene2d(circle, circle, "hull"), "unsupported-query", "query");
  expectError(R"({"version":1,"dimension":4,"shapes":[{"type":"point"},{"type":"point"}],"query":"distance"})",
              "invalid-scene", "dimension");
  expectError(R"({"version":1,"dimension":2,"shapes":[{"type":"circle","radius":1}],"query":"raycast",)"
              R"("ray":{"origin":[0,0,0],"direction":[1,0]}})",
              "invalid-scene", "ray.origin");
  // A 2D vector in a 3D scene is still a 3D scene's error.
  expectError(R"({"version":1,"shapes":[{"type":"point","position":[1,2]},{"type":"point"}],"query":"distance"})",
              "invalid-scene", "shapes[0].position");
}

TEST(Planar, PenetrationTraceStepsThePlanarEpa) {
  // Seed 004's pair: depth 1 along +x. The trace starts with a seed polygon,
  // alternates closest / support (/ expand) frames with a non-decreasing
  // depth estimate, and ends with the result's depth.
  const std::string sa = R"({"type":"polygon","points":[[0,2],[0,3],[2,2]]})";
  const std::string sb = R"({"type":"polygon","points":[[1,1],[3,1],[3,4],[1,4]]})";
  const JsonValue t = runJson(scene2d(sa, sb, "penetration"), true);
  EXPECT_EQ(t.find("dimension")->number, 2);
  const auto& frames = t.find("frames")->items;
  ASSERT_GE(frames.size(), 3u);
  EXPECT_EQ(frames.front().find("kind")->string, "seed");
  EXPECT_EQ(frames.front().find("reason")->string, "polygon");
  EXPECT_GE(frames.front().find("vertices")->items.size(), 3u);
  EXPECT_EQ(frames.back().find("kind")->string, "done");
  EXPECT_EQ(frames.back().find("reason")->string, "gap-within-tolerance");
  double lastDepth = -1e300;
  for (const JsonValue& f : frames) {
    for (const JsonValue& v : f.find("vertices")->items) EXPECT_EQ(v.find("w")->items.size(), 2u);
    if (f.find("kind")->string == "closest") {
      EXPECT_GE(f.find("depth")->number, lastDepth);
      lastDepth = f.find("depth")->number;
    }
  }
  EXPECT_NEAR(frames.back().find("depth")->number, 1, kTol);
  EXPECT_NEAR(num(*t.find("result"), "depth"), 1, kTol);
  // The traced run answers what the untraced one does, bit for bit.
  const JsonValue r = runJson(scene2d(sa, sb, "penetration"));
  EXPECT_EQ(num(*t.find("result"), "depth"), num(r, "depth"));
  // Apart: one done frame, reason apart.
  const JsonValue apart = runJson(scene2d(sa, R"({"type":"point","position":[5,5]})", "penetration"), true);
  ASSERT_EQ(apart.find("frames")->items.size(), 1u);
  EXPECT_EQ(apart.find("frames")->items[0].find("reason")->string, "apart");
}

}  // namespace
