// A shape's "scale" (S = diag(scale), applied before the pose) against
// independent answers:
//   * a sphere scaled by (a, b, c) is the ellipsoid of radii (a·r, b·r, c·r):
//     point distances against Eberly's bisection (reference.h), rays against
//     the quadratic of the ray mapped into the unit sphere, penetration of a
//     slab against the ellipsoid's support value √Σ(rᵢnᵢ)²;
//   * a scaled box is the box with |s|·h, a uniformly scaled capsule the
//     capsule with |s|·r, |s|·h, a scaled point set the set of scaled points
//     (the scene path bakes these, so the answers are the same bits);
//   * the general path (a Shape built in C++ with a scale, not baked: the
//     support S·s_K(S·d)) agrees with the baked shape to 1e-9;
//   * a mirrored polytope's hull has outward faces;
//   * a scaled plane is the plane with normal S⁻¹n;
//   * cylinders and cones scaled unevenly: contains against the point mapped
//     back by S⁻¹ into the unscaled solid, distances against dense samples
//     of the scaled surface and the support-function certificate;
//   * errors name scale[k] for zero, non-finite and wrong lengths; scenes
//     without a scale are written back without one.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/json.h"
#include "collidoscope/point_query.h"
#include "collidoscope/raycast.h"
#include "collidoscope/sat.h"
#include "collidoscope/scene.h"
#include "collidoscope/support.h"
#include "reference.h"

namespace collidoscope {
namespace {

using namespace ref;

constexpr double kTol = 1e-9;

Shape parsed(const std::string& json) {
  JsonValue v;
  std::string perr;
  EXPECT_TRUE(parseJson(json, &v, &perr)) << perr;
  Shape s;
  SceneError err;
  EXPECT_TRUE(parseShape(v, "", &s, &err)) << err.field << ": " << err.message;
  return s;
}

SceneError shapeError(const std::string& json) {
  JsonValue v;
  std::string perr;
  EXPECT_TRUE(parseJson(json, &v, &perr)) << perr;
  Shape s;
  SceneError err;
  EXPECT_FALSE(parseShape(v, "shapes[0]", &s, &err)) << json;
  return err;
}

std::string run(const std::string& sceneJson, bool trace = false) {
  Scene scene;
  SceneError err;
  EXPECT_TRUE(parseScene(sceneJson, &scene, &err)) << err.field << ": " << err.message;
  std::string out;
  EXPECT_TRUE(runScene(scene, trace, &out, &err)) << err.field << ": " << err.message;
  return out;
}

std::string scene2(const std::string& a, const std::string& b, const std::string& query) {
  std::string extra;
  if (query == "raycast") extra = R"(,"ray":{"origin":[-6,0.3,0.2],"direction":[1,0.05,0],"maxT":12})";
  if (query == "shapecast") extra = R"(,"motion":{"translationA":[0,0,0],"translationB":[-3,-2,0.5]})";
  return R"({"version":1,"shapes":[)" + a + "," + b + R"(],"query":")" + query + "\"" + extra + "}";
}

Vec3 mulv(const Vec3& a, const Vec3& b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
Vec3 absv(const Vec3& a) { return {std::fabs(a.x), std::fabs(a.y), std::fabs(a.z)}; }

// ---- parsing, errors, writing back -------------------------------------------------

TEST(Scale, MissingScaleIsNotWrittenBack) {
  Scene scene;
  SceneError err;
  const std::string text =
      R"({"version":1,"shapes":[{"type":"box","halfExtents":[1,2,3]},{"type":"sphere","radius":1}],"query":"distance"})";
  ASSERT_TRUE(parseScene(text, &scene, &err));
  EXPECT_EQ(sceneToJson(scene).find("scale"), std::string::npos);
}

TEST(Scale, WrittenBackAsGivenAndIdempotent) {
  const std::string text =
      R"({"version":1,"shapes":[{"type":"sphere","radius":0.5,"margin":0.25,"scale":[2,-1,3],"position":[1,0,0]},)"
      R"({"type":"polytope","points":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]],"scale":[-1,1,1]}],"query":"distance"})";
  Scene scene;
  SceneError err;
  ASSERT_TRUE(parseScene(text, &scene, &err)) << err.message;
  // Baked: the sphere is now an ellipsoid and the polytope's points mirrored.
  EXPECT_EQ(scene.shapes[0].type, ShapeType::Ellipsoid);
  EXPECT_EQ(scene.shapes[0].radii, (Vec3{1, 0.5, 1.5}));
  EXPECT_EQ(scene.shapes[1].points[1], (Vec3{-1, 0, 0}));
  const std::string out = sceneToJson(scene);
  EXPECT_NE(out.find(R"("type":"sphere","radius":0.5,"margin":0.25,"scale":[2,-1,3],"position":[1,0,0])"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find(R"([1,0,0],[0,1,0],[0,0,1]],"scale":[-1,1,1])"), std::string::npos) << out;
  Scene again;
  ASSERT_TRUE(parseScene(out, &again, &err)) << err.message;
  EXPECT_EQ(sceneToJson(again), out);
}

TEST(Scale, ExplicitOnesAreTheDefault) {
  const Shape s = parsed(R"({"type":"box","halfExtents":[1,2,3],"scale":[1,1,1]})");
  EXPECT_EQ(s.written, nullptr);
  EXPECT_TRUE(isUnscaled(s));
}

TEST(Scale, ErrorsNameTheComponent) {
  SceneError e = shapeError(R"({"type":"box","halfExtents":[1,1,1],"scale":[1,0,1]})");
  EXPECT_EQ(e.field, "shapes[0].scale[1]");
  EXPECT_NE(e.message.find("must not be 0"), std::string::npos) << e.message;
  e = shapeError(R"({"type":"box","halfExtents":[1,1,1],"scale":[1,1,"NaN"]})");
  EXPECT_EQ(e.field, "shapes[0].scale[2]");
  e = shapeError(R"({"type":"sphere","radius":1,"scale":[1e300,1,1]})");
  EXPECT_EQ(e.field, "shapes[0].scale[0]");
  e = shapeError(R"({"type":"sphere","radius":1,"scale":[1,1]})");
  EXPECT_EQ(e.field, "shapes[0].scale");
  EXPECT_NE(e.message.find("3 numbers"), std::string::npos) << e.message;
  e = shapeError(R"({"type":"sphere","radius":1,"scale":2})");
  EXPECT_EQ(e.field, "shapes[0].scale");
  e = shapeError(R"({"type":"plane","normal":[0,1e15,0],"offset":0,"scale":[1,-1e-16,1]})");
  EXPECT_EQ(e.field, "shapes[0].scale[1]");
  e = shapeError(R"({"type":"sphere","radius":1e10,"scale":[1e10,1,1]})");
  EXPECT_EQ(e.field, "shapes[0].scale");
  ShapeError se;
  EXPECT_FALSE(validateShape(Shape::box({1, 1, 1}).withScale({0, 1, 1}), &se));
  EXPECT_EQ(se.field, "scale[0]");
}

// ---- sphere → ellipsoid -------------------------------------------------------------

// Smallest t ≥ 0 where o + t·d meets the ellipsoid of radii r at c (axis
// aligned): the ray mapped into the unit sphere, |o' + t·d'|² = 1.
double rayEllipsoid(const Vec3& o, const Vec3& d, const Vec3& c, const Vec3& r) {
  const Vec3 oo{(o.x - c.x) / r.x, (o.y - c.y) / r.y, (o.z - c.z) / r.z};
  const Vec3 dd{d.x / r.x, d.y / r.y, d.z / r.z};
  const double A = dot3(dd, dd), B = dot3(oo, dd), C = dot3(oo, oo) - 1;
  const double disc = B * B - A * C;
  if (disc < 0) return -1;
  return (-B - std::sqrt(disc)) / A;
}

TEST(Scale, SphereIsTheEllipsoidOfScaledRadii) {
  Rng rng(18);
  for (int trial = 0; trial < 60; ++trial) {
    const double r = rng.uniform(0.3, 2);
    Vec3 sc{rng.uniform(0.2, 3), rng.uniform(0.2, 3), rng.uniform(0.2, 3)};
    if (trial % 3 == 1) sc.y = -sc.y;  // a mirror changes nothing on a sphere
    const Vec3 radii = absv(sc) * r;
    // The general path: a C++ shape with a scale (no baking).
    Shape general = Shape::sphere(r).withScale(sc);
    Shape ell = Shape::ellipsoid(radii);
    const Vec3 p = rng.direction() * rng.uniform(1.2, 3) * maxAbs3(radii);
    const double scale = maxAbs3(radii) + norm(p);
    const double want = pointEllipsoidDistance(p, ell);
    const DistanceResult g = gjkDistance(PosedShape(general), PosedShape(Shape::point().at(p)));
    EXPECT_NEAR(g.distance, want, kTol * scale) << trial;
    // The scene path (baked into an ellipsoid).
    char buf[256];
    std::snprintf(buf, sizeof buf, R"({"type":"sphere","radius":%.17g,"scale":[%.17g,%.17g,%.17g]})", r, sc.x, sc.y,
                  sc.z);
    const Shape baked = parsed(buf);
    const DistanceResult b = gjkDistance(PosedShape(baked), PosedShape(Shape::point().at(p)));
    EXPECT_NEAR(b.distance, want, kTol * scale) << trial;
    // Rays from outside towards a point inside.
    const Vec3 dir = rng.inBall(0.3 * r) - p;
    const double tWant = rayEllipsoid(p, dir, {}, radii);
    const RayCastResult rg = gjkRayCast(PosedShape(general), p, dir, 2.0);
    const RayCastResult rb = gjkRayCast(PosedShape(baked), p, dir, 2.0);
    ASSERT_TRUE(rg.hit && rb.hit) << trial;
    EXPECT_NEAR(rg.t * norm(dir), tWant * norm(dir), kTol * scale) << trial;
    EXPECT_NEAR(rb.t * norm(dir), tWant * norm(dir), kTol * scale) << trial;
  }
}

TEST(Scale, ScaledSpherePenetratesASlabByTheSupportValue) {
  // A slab (big box) whose top face is at height top; the ellipsoid at the
  // origin reaches down to −r_y, so it overlaps by top + r_y along y.
  const Vec3 sc{1.5, 0.5, 2.0};
  const double r = 1.2, top = -0.4;
  const Shape slab = Shape::box({50, 1, 50}).at({0, top - 1, 0});
  for (const Shape& s : {Shape::sphere(r).withScale(sc), parsed(R"({"type":"sphere","radius":1.2,"scale":[1.5,0.5,2]})")}) {
    const PenetrationResult pr = penetration(PosedShape(s), PosedShape(slab));
    ASSERT_TRUE(pr.intersecting);
    EXPECT_NEAR(pr.depth, top + r * sc.y, kTol * 50);
    EXPECT_NEAR(std::fabs(pr.normal.y), 1.0, kTol);
  }
  // A margin is not scaled: it adds its own radius to the depth.
  Shape m = Shape::sphere(r).withScale(sc).withMargin(0.1);
  EXPECT_NEAR(penetration(PosedShape(m), PosedShape(slab)).depth, top + r * sc.y + 0.1, kTol * 50);
}

// ---- baked shapes: the same bits as the unscaled shape -----------------------------

TEST(Scale, BoxCapsulePolytopeSceneAnswersAreTheScaledShapes) {
  const char* const pose = R"("position":[0.3,2.1,-0.2],"rotation":[0.1,0.2,0.3,0.927])";
  const std::string b = std::string(R"({"type":"sphere","radius":0.4,)") + pose + "}";
  struct Pair {
    std::string scaled, plain;
  };
  const Pair pairs[] = {
      {R"({"type":"box","halfExtents":[1,0.5,2],"scale":[-2,0.5,3]})", R"({"type":"box","halfExtents":[2,0.25,6]})"},
      {R"({"type":"capsule","radius":0.5,"halfHeight":1,"scale":[-1.5,1.5,1.5]})",
       R"({"type":"capsule","radius":0.75,"halfHeight":1.5})"},
      {R"({"type":"cylinder","radius":0.5,"halfHeight":1,"scale":[2,-1.5,2]})",
       R"({"type":"cylinder","radius":1,"halfHeight":1.5})"},
      {R"({"type":"polytope","points":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]],"scale":[-2,1,3]})",
       R"({"type":"polytope","points":[[-0,0,0],[-2,0,0],[-0,1,0],[-0,0,3]]})"},
      {R"({"type":"ellipsoid","radii":[1,2,3],"scale":[0.5,-1,2]})", R"({"type":"ellipsoid","radii":[0.5,2,6]})"},
  };
  for (const Pair& p : pairs) {
    for (const char* q : {"distance", "penetration", "intersect", "chungwang", "raycast", "shapecast"}) {
      EXPECT_EQ(run(scene2(p.scaled, b, q)), run(scene2(p.plain, b, q))) << p.scaled << " " << q;
      EXPECT_EQ(run(scene2(b, p.scaled, q)), run(scene2(b, p.plain, q))) << p.scaled << " " << q;
      // Traces too: their frames are in world coordinates, so the same solid gives the same frames.
      EXPECT_EQ(run(scene2(p.scaled, b, q), true), run(scene2(p.plain, b, q), true)) << p.scaled << " " << q;
    }
  }
  // Boxes take the box closed forms and SAT.
  const std::string box2 = R"({"type":"box","halfExtents":[1,1,1],"position":[2.5,0.2,0]})";
  for (const char* q : {"distance", "penetration", "sat"})
    EXPECT_EQ(run(scene2(pairs[0].scaled, box2, q)), run(scene2(pairs[0].plain, box2, q))) << q;
}

// The general path (scale kept, support S·s_K(S·d)) against the baked shapes.
TEST(Scale, GeneralPathAgreesWithBakedShapes) {
  Rng rng(7);
  const std::vector<Vec3> pts{{0, 0, 0}, {1, 0.2, 0}, {0, 1, 0.3}, {0.1, 0, 1}, {0.6, 0.7, 0.5}};
  for (int trial = 0; trial < 40; ++trial) {
    Vec3 sc{rng.uniform(0.3, 2.5), rng.uniform(0.3, 2.5), rng.uniform(0.3, 2.5)};
    if (trial & 1) sc.x = -sc.x;
    if (trial & 2) sc.z = -sc.z;
    const double u = sc.x;
    std::vector<Vec3> scaledPts;
    for (const Vec3& p : pts) scaledPts.push_back(mulv(sc, p));
    const Shape general[] = {Shape::box({1, 0.5, 0.8}).withScale(sc), Shape::polytope(pts).withScale(sc),
                             Shape::capsule(0.4, 0.7).withScale({u, -u, u}), Shape::segment(pts[1], pts[2]).withScale(sc)};
    const Shape plain[] = {Shape::box(mulv(absv(sc), {1, 0.5, 0.8})), Shape::polytope(scaledPts),
                           Shape::capsule(0.4 * std::fabs(u), 0.7 * std::fabs(u)),
                           Shape::segment(mulv(sc, pts[1]), mulv(sc, pts[2]))};
    const Quat rot = rng.rotation();
    const Vec3 at = rng.inCube(1);
    const Shape other = Shape::sphere(0.3).at(rng.inCube(2.5), rng.rotation());
    for (int k = 0; k < 4; ++k) {
      Shape g = general[k], p = plain[k];
      g.at(at, rot);
      p.at(at, rot);
      const double scale = 6;
      const DistanceResult dg = gjkDistance(PosedShape(g), PosedShape(other));
      const DistanceResult dp = gjkDistance(PosedShape(p), PosedShape(other));
      EXPECT_NEAR(dg.distance, dp.distance, kTol * scale) << trial << " " << k;
      const PenetrationResult pg = penetration(PosedShape(g), PosedShape(other));
      const PenetrationResult pp = penetration(PosedShape(p), PosedShape(other));
      EXPECT_EQ(pg.intersecting, pp.intersecting) << trial << " " << k;
      EXPECT_NEAR(pg.depth, pp.depth, kTol * scale) << trial << " " << k;
      const Vec3 o = rng.inCube(4);
      const Vec3 d = at - o;
      const RayCastResult rg = gjkRayCast(PosedShape(g), o, d, 1.0);
      const RayCastResult rp = gjkRayCast(PosedShape(p), o, d, 1.0);
      EXPECT_EQ(rg.hit, rp.hit) << trial << " " << k;
      if (rg.hit && rp.hit) {
        EXPECT_NEAR(rg.t * norm(d), rp.t * norm(d), kTol * scale) << trial << " " << k;
      }
      const Vec3 q = at + rng.inCube(1.5);
      EXPECT_EQ(containsPoint(g, q).inside, containsPoint(p, q).inside) << trial << " " << k;
    }
  }
}

// SAT: a scaled box (kept scaled, so it goes through its hull) against the
// box of |s|·h (the 15-axis box test): the same verdict and overlap.
TEST(Scale, SatOfAScaledBoxIsTheBoxOfScaledHalfExtents) {
  Rng rng(23);
  int overlapping = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const Vec3 h{rng.uniform(0.2, 1), rng.uniform(0.2, 1), rng.uniform(0.2, 1)};
    const Vec3 sc{rng.uniform(-2, -0.3), rng.uniform(0.3, 2), rng.uniform(0.3, 2)};
    const Vec3 at = rng.inCube(2);
    const Quat rot = rng.rotation();
    Shape g = Shape::box(h).withScale(sc), p = Shape::box(mulv(absv(sc), h));
    g.at(at, rot);
    p.at(at, rot);
    const Shape other = Shape::box({rng.uniform(0.2, 1), rng.uniform(0.2, 1), rng.uniform(0.2, 1)}).at(rng.inCube(2), rng.rotation());
    const SatResult sg = sat(g, other), sp = sat(p, other);
    ASSERT_EQ(sg.status, SatStatus::Ok);
    ASSERT_EQ(sp.status, SatStatus::Ok);
    EXPECT_EQ(sg.intersecting, sp.intersecting) << trial;
    if (sp.intersecting) {
      ++overlapping;
      EXPECT_NEAR(sg.depth, sp.depth, kTol * 5) << trial;
    } else {
      // Apart, SAT stops at the first separating axis (its order differs
      // between the box test and the hull): a gap that bounds the distance.
      const double d = gjkDistance(PosedShape(p), PosedShape(other)).distance;
      EXPECT_GT(sg.depth, 0) << trial;
      EXPECT_LE(sg.depth, d + kTol * 5) << trial;
    }
  }
  EXPECT_GE(overlapping, 5) << "too few overlapping pairs";
}

TEST(Scale, MirroredPolytopeHullHasOutwardFaces) {
  const std::string text =
      R"({"version":1,"shapes":[{"type":"polytope","points":[[0,0,0],[1,0,0],[0,1,0],[0,0,1],[1,1,1]],)"
      R"("scale":[-1,2,1],"position":[1,2,3]}],"query":"hull"})";
  JsonValue v;
  std::string perr;
  ASSERT_TRUE(parseJson(run(text), &v, &perr));
  const JsonValue* verts = v.find("vertices");
  const JsonValue* faces = v.find("faces");
  ASSERT_TRUE(verts && faces);
  std::vector<Vec3> V;
  for (const JsonValue& p : verts->items) V.push_back({p.items[0].number, p.items[1].number, p.items[2].number});
  ASSERT_EQ(V.size(), 5u);
  // Every vertex is the mirrored, scaled, moved input.
  for (const Vec3& p : V) EXPECT_LE(p.x, 1.0) << "mirrored in x about the position";
  Vec3 centroid;
  for (const Vec3& p : V) centroid = centroid + p / 5.0;
  for (const JsonValue& f : faces->items) {
    const Vec3 a = V[static_cast<std::size_t>(f.items[0].number)], b = V[static_cast<std::size_t>(f.items[1].number)],
               c = V[static_cast<std::size_t>(f.items[2].number)];
    const Vec3 n = cross3(b - a, c - a);
    EXPECT_LT(dot3(n, centroid - a), 0) << "face turned inward";
    for (const Vec3& p : V) EXPECT_LE(dot3(n, p - a), 1e-12);
  }
}

// ---- planes -----------------------------------------------------------------------------

TEST(Scale, PlaneNormalMapsByTheInverseScale) {
  const Vec3 sc{2, -0.5, 4}, n{1, 1, 1};
  const double d = 0.7;
  const Shape scaled = parsed(R"({"type":"plane","normal":[1,1,1],"offset":0.7,"scale":[2,-0.5,4]})");
  Shape general = Shape::plane(n, d).withScale(sc);
  const Shape want = Shape::plane({n.x / sc.x, n.y / sc.y, n.z / sc.z}, d);
  Rng rng(3);
  for (int i = 0; i < 50; ++i) {
    const Vec3 p = rng.inCube(5);
    const double h = planeHeight(p, want);
    EXPECT_EQ(containsPoint(scaled, p).inside, h <= 0);
    EXPECT_EQ(containsPoint(general, p).inside, h <= 0);
    EXPECT_NEAR(projectPoint(scaled, p).distance, std::fabs(h), kTol * 10);
    EXPECT_NEAR(projectPoint(general, p).distance, std::fabs(h), kTol * 10);
  }
  // A point x of the unscaled plane's surface, scaled, lies on the surface.
  const Vec3 x{0.2, 0.4, 0.1};  // n·x = 0.7
  EXPECT_NEAR(projectPoint(general, mulv(sc, x)).distance, 0, kTol);
}

// ---- cylinders and cones scaled unevenly: the general path --------------------------

// Dense samples of the surface of the unscaled cylinder or cone, scaled.
std::vector<Vec3> scaledSurface(const Shape& s, const Vec3& sc) {
  std::vector<Vec3> out;
  const int nA = 720, nH = 240, nR = 240;
  const double h = s.halfHeight, r = s.radius;
  for (int i = 0; i < nA; ++i) {
    const double a = 2 * M_PI * i / nA, c = std::cos(a), sn = std::sin(a);
    for (int j = 0; j <= nH; ++j) {
      const double y = -h + 2 * h * j / nH;
      const double rr = s.type == ShapeType::Cone ? r * (h - y) / (2 * h) : r;
      out.push_back(mulv(sc, {rr * c, y, rr * sn}));
    }
    for (int j = 0; j <= nR; ++j) {
      const double rr = r * j / nR;
      out.push_back(mulv(sc, {rr * c, -h, rr * sn}));
      if (s.type == ShapeType::Cylinder) out.push_back(mulv(sc, {rr * c, h, rr * sn}));
    }
  }
  return out;
}

bool insideUnscaled(const Shape& s, const Vec3& q) {
  const double rho = std::sqrt(q.x * q.x + q.z * q.z);
  if (q.y < -s.halfHeight || q.y > s.halfHeight) return false;
  const double rr = s.type == ShapeType::Cone ? s.radius * (s.halfHeight - q.y) / (2 * s.halfHeight) : s.radius;
  return rho <= rr;
}

TEST(Scale, UnevenCylinderAndConeAgainstSamples) {
  constexpr double kInsideTol = 1e-6;
  int insideCount = 0;
  Rng rng(11);
  for (const Shape& base : {Shape::cylinder(0.8, 1.0), Shape::cone(0.9, 1.1)}) {
    for (const Vec3& sc : {Vec3{2, 1, 0.5}, Vec3{0.7, -1.3, 1.6}}) {
      Shape s = base;
      s.scale = sc;
      // The scene path keeps this scale (no exact bake) and answers alike.
      char buf[200];
      std::snprintf(buf, sizeof buf, R"({"type":"%s","radius":%.17g,"halfHeight":%.17g,"scale":[%.17g,%.17g,%.17g]})",
                    shapeTypeName(base.type), base.radius, base.halfHeight, sc.x, sc.y, sc.z);
      const Shape fromScene = parsed(buf);
      EXPECT_EQ(fromScene.scale, sc);
      const std::vector<Vec3> samples = scaledSurface(base, sc);
      // Sample spacing bound: arc step r·2π/720 and height step 2h/240, scaled.
      const double spacing = maxAbs3(absv(sc)) * 2.2 * (2 * M_PI / 720 + 2.0 / 240);
      for (int i = 0; i < 60; ++i) {
        // 40 points anywhere, then 20 inside: a point of the unscaled solid, scaled.
        Vec3 p = rng.inCube(2.5);
        if (i >= 40) {
          const double y = rng.uniform(-0.95, 0.95) * base.halfHeight, a = rng.uniform(0, 2 * M_PI);
          const double rr = (base.type == ShapeType::Cone ? base.radius * (base.halfHeight - y) / (2 * base.halfHeight)
                                                          : base.radius) * std::sqrt(rng.uniform(0, 0.9));
          p = mulv(sc, {rr * std::cos(a), y, rr * std::sin(a)});
        }
        const Vec3 q{p.x / sc.x, p.y / sc.y, p.z / sc.z};
        const bool in = insideUnscaled(base, q);
        EXPECT_EQ(containsPoint(s, p).inside, in) << p.x << " " << p.y << " " << p.z;
        EXPECT_EQ(containsPoint(fromScene, p).inside, in);
        double best = 1e300;
        for (const Vec3& x : samples) best = std::fmin(best, dist(p, x));
        const ProjectResult pr = projectPoint(s, p);
        EXPECT_EQ(pr.inside, in);
        EXPECT_LE(pr.distance, best + 1e-6) << "no sample is nearer than the answer";
        EXPECT_GE(pr.distance, best - spacing);
        if (!in) {
          // Outside: GJK's closest point x and the certificate h(u) = u·x,
          // with h of the scaled solid at world direction u equal to the
          // unscaled support value at S·u (reference.h's own formulas).
          const DistanceResult g = gjkDistance(PosedShape(s), PosedShape(Shape::point().at(p)));
          EXPECT_NEAR(g.distance, pr.distance, kTol * 5);
          const Vec3 u = unit(p - g.pointA);
          EXPECT_NEAR(localCoreSupportValue(base, mulv(sc, u)), dot3(u, g.pointA), kTol * 5);
        } else {
          // Inside: the depth is min over unit u of h(u) − u·p, reached at
          // u = (x − p)/|x − p| where h(u) = u·x. EPA on a curved core
          // converges to about 1e-6 (point_query.cpp), hence kInsideTol.
          ++insideCount;
          const Vec3 u = unit(pr.point - p);
          EXPECT_NEAR(dist(pr.point, p), pr.distance, kTol * 5);
          EXPECT_NEAR(localCoreSupportValue(base, mulv(sc, u)), dot3(u, pr.point), kInsideTol);
          double minGap = 1e300;
          for (int k = 0; k < 4000; ++k) {
            const double y = 1 - (2.0 * k + 1) / 4000, rr = std::sqrt(1 - y * y), phi = 2.399963229728653 * k;
            const Vec3 v{rr * std::cos(phi), y, rr * std::sin(phi)};
            minGap = std::fmin(minGap, localCoreSupportValue(base, mulv(sc, v)) - dot3(v, p));
          }
          EXPECT_LE(pr.distance, minGap + kInsideTol) << "a supporting plane is nearer than the answer";
        }
      }
    }
  }
  EXPECT_GE(insideCount, 80) << "too few points inside to test the inside branch";
}

TEST(Scale, UnevenCapsuleKeepsItsRadiusInTheSupport) {
  // A capsule scaled (2, 1, 1): the segment core stays, its ball becomes an
  // ellipsoid of radii (2r, r, r). Along +x the support is 2r; along +y, h + r.
  const Shape s = Shape::capsule(0.5, 1).withScale({2, 1, 1});
  EXPECT_EQ(coreRadius(s), 0.0);
  EXPECT_FALSE(hasPolytopalCore(s));
  EXPECT_NEAR(localCoreSupport(s, {1, 0, 0}).x, 1.0, kTol);
  EXPECT_NEAR(localCoreSupport(s, {0, 1, 0}).y, 1.5, kTol);
  const DistanceResult d = gjkDistance(PosedShape(s), PosedShape(Shape::point().at({3, 0, 0})));
  EXPECT_NEAR(d.distance, 2.0, kTol * 3);
  // A uniform scale keeps the ball out of the core: a capsule of radius |s|·r.
  const Shape u = Shape::capsule(0.5, 1).withScale({-2, 2, 2}).withMargin(0.1);
  EXPECT_EQ(coreRadius(u), 1.1);
  EXPECT_TRUE(hasPolytopalCore(u));
}

}  // namespace
}  // namespace collidoscope
