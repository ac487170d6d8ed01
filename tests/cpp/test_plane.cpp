// The plane (half-space n·x ≤ d, plane.h) against independent answers:
//   * the signed height of each convex type over the surface from its own
//     formula (sphere n·c − r, box n·c − Σ h_i |n·a_i|, capsule, cylinder
//     n·c − h|n·a| − r√(1 − (n·a)²)), polytopes by brute force over their
//     points; intersect, distance and penetration follow from it;
//   * penetration's conventions: pointA − pointB = depth·normal, normal from
//     A to B whichever of the two is the plane;
//   * two planes: opposite normals apart and overlapping, others unbounded;
//   * raycast, contains and project against the line–plane formulas;
//   * the scene format: parsing, round trip, errors naming the field,
//     queries a plane does not take.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/plane.h"
#include "collidoscope/point_query.h"
#include "collidoscope/scene.h"
#include "reference.h"

namespace collidoscope {
namespace {

constexpr double kTol = 1e-12;

// The world normal and offset written out by hand: n̂ = R n/|n|, d̂ = d/|n| + margin + n̂·p.
void handPlane(const Shape& pl, Vec3* n, double* d) {
  const double len = std::sqrt(dot(pl.normal, pl.normal));
  *n = rotate(pl.pose.rotation, pl.normal / len);
  *d = pl.offset / len + pl.margin + dot(*n, pl.pose.position);
}

// The lowest value of n·x over the shape, by type.
double lowest(const Shape& s, const Vec3& n) {
  const Vec3 c = s.pose.position;
  const Vec3 ax = rotate(s.pose.rotation, {1, 0, 0}), ay = rotate(s.pose.rotation, {0, 1, 0}),
             az = rotate(s.pose.rotation, {0, 0, 1});
  const double m = s.margin;
  switch (s.type) {
    case ShapeType::Sphere: return dot(n, c) - s.radius - m;
    case ShapeType::Box:
      return dot(n, c) - s.halfExtents.x * std::fabs(dot(n, ax)) - s.halfExtents.y * std::fabs(dot(n, ay)) -
             s.halfExtents.z * std::fabs(dot(n, az)) - m;
    case ShapeType::Capsule: return dot(n, c) - s.halfHeight * std::fabs(dot(n, ay)) - s.radius - m;
    case ShapeType::Cylinder: {
      const double k = dot(n, ay);
      return dot(n, c) - s.halfHeight * std::fabs(k) - s.radius * std::sqrt(std::fmax(0.0, 1 - k * k)) - m;
    }
    default: {  // polytope: brute force over the points
      double best = 1e300;
      for (const Vec3& p : s.points) best = std::fmin(best, dot(n, s.pose.apply(p)));
      return best - m;
    }
  }
}

TEST(Plane, ConvexShapesAgainstTheirLowestPoint) {
  ref::Rng rng(1801);
  const ShapeType types[] = {ShapeType::Sphere, ShapeType::Box, ShapeType::Capsule, ShapeType::Cylinder,
                             ShapeType::Polytope};
  int apart = 0, overlapping = 0;
  for (int i = 0; i < 1000; ++i) {
    Shape pl = Shape::plane(rng.direction() * rng.uniform(0.1, 10), rng.uniform(-2, 2));
    pl.pose.position = rng.inCube(1);
    pl.pose.rotation = rng.rotation();
    if (i % 4 == 0) pl.margin = rng.uniform(0, 0.3);
    Shape s = ref::randomShape(rng, types[i % 5], 1.5);
    s.pose.position = rng.inCube(3);
    s.pose.rotation = rng.rotation();
    if (i % 3 == 0) s.margin = rng.uniform(0, 0.3);
    Vec3 n;
    double d;
    handPlane(pl, &n, &d);
    const double h = lowest(s, n) - d;  // signed height of s over the plane
    const bool planeA = i % 2 == 0;
    const Shape& a = planeA ? pl : s;
    const Shape& b = planeA ? s : pl;

    EXPECT_EQ(planeIntersect(a, b).intersecting, h <= 0) << h;
    const DistanceResult dr = planeDistance(a, b);
    EXPECT_NEAR(dr.distance, std::fmax(h, 0.0), kTol * 10);
    EXPECT_NEAR(length(dr.pointA - dr.pointB), dr.distance, kTol * 10);
    PenetrationResult pr;
    ASSERT_EQ(planePenetration(a, b, &pr), PlaneStatus::Ok);
    EXPECT_EQ(pr.intersecting, h <= 0);
    EXPECT_NEAR(pr.depth, std::fmax(-h, 0.0), kTol * 10);
    const Vec3 away = planeA ? n : -n;
    EXPECT_NEAR(length(pr.normal - away), 0, kTol);
    // The shape's point is its lowest (n·x = lowest); the plane's is on the surface.
    const Vec3 onShape = planeA ? pr.pointB : pr.pointA;
    const Vec3 onPlane = planeA ? pr.pointA : pr.pointB;
    EXPECT_NEAR(dot(n, onShape), lowest(s, n), kTol * 10);
    EXPECT_NEAR(dot(n, onPlane), d, kTol * 10);
    if (pr.intersecting) {
      const Vec3 diff = pr.pointA - pr.pointB - pr.normal * pr.depth;
      EXPECT_NEAR(length(diff), 0, kTol * 10);
      ++overlapping;
    } else {
      ++apart;
    }
    ContactResult cr;
    ASSERT_EQ(planeContact(a, b, 0.1, &cr), PlaneStatus::Ok);
    EXPECT_NEAR(cr.distance, h, kTol * 10);
    EXPECT_EQ(cr.contact, cr.distance <= 0.1);
  }
  EXPECT_GT(apart, 200);
  EXPECT_GT(overlapping, 200);
}

TEST(Plane, TwoPlanes) {
  // Floor y ≤ 0 and ceiling y ≥ 3 (normal −y, offset −3): opposite, 3 apart.
  const Shape floor = Shape::plane({0, 1, 0}, 0);
  const Shape ceiling = Shape::plane({0, -2, 0}, -6);
  EXPECT_FALSE(planeIntersect(floor, ceiling).intersecting);
  const DistanceResult d = planeDistance(floor, ceiling);
  EXPECT_DOUBLE_EQ(d.distance, 3);
  EXPECT_DOUBLE_EQ(d.pointB.y - d.pointA.y, 3);
  PenetrationResult p;
  ASSERT_EQ(planePenetration(floor, ceiling, &p), PlaneStatus::Ok);
  EXPECT_FALSE(p.intersecting);
  EXPECT_EQ(p.depth, 0);
  // Lowered to y ≥ −1: they overlap by 1; moving the ceiling up by 1 separates them.
  const Shape low = Shape::plane({0, -1, 0}, 1);
  EXPECT_TRUE(planeIntersect(floor, low).intersecting);
  ASSERT_EQ(planePenetration(floor, low, &p), PlaneStatus::Ok);
  EXPECT_TRUE(p.intersecting);
  EXPECT_DOUBLE_EQ(p.depth, 1);
  EXPECT_EQ(p.normal.y, 1);
  EXPECT_NEAR(length(p.pointA - p.pointB - p.normal * p.depth), 0, 1e-15);
  // A wall x ≤ 2: not opposite, always overlapping, unbounded depth.
  const Shape wall = Shape::plane({1, 0, 0}, 2);
  EXPECT_TRUE(planeIntersect(floor, wall).intersecting);
  const DistanceResult dw = planeDistance(floor, wall);
  EXPECT_EQ(dw.distance, 0);
  EXPECT_LE(dw.pointA.y, 1e-15);  // the common point is in both
  EXPECT_LE(dw.pointA.x, 2 + 1e-15);
  EXPECT_EQ(planePenetration(floor, wall, &p), PlaneStatus::Unbounded);
  // The same wall seen from a far-off point: the common point is on both surfaces.
  const Shape far = Shape::plane({1, 1, 0}, -10);
  const DistanceResult df = planeDistance(floor, far);
  EXPECT_EQ(df.distance, 0);
  EXPECT_LE(df.pointA.y, 1e-12);
  EXPECT_LE(df.pointA.x + df.pointA.y, -10 + 1e-12);
}

TEST(Plane, RaycastContainsProject) {
  ref::Rng rng(1802);
  for (int i = 0; i < 500; ++i) {
    Shape pl = Shape::plane(rng.direction(), rng.uniform(-1, 1));
    pl.pose.position = rng.inCube(1);
    pl.pose.rotation = rng.rotation();
    Vec3 n;
    double d;
    handPlane(pl, &n, &d);
    const Vec3 o = rng.inCube(3), dir = rng.direction() * rng.uniform(0.5, 2);
    const double maxT = rng.uniform(0, 5);
    const RayCastResult r = planeRayCast(pl, o, dir, maxT);
    const double above = dot(n, o) - d;
    if (above <= 0) {
      EXPECT_TRUE(r.hit && r.startedInside);
      EXPECT_EQ(r.t, 0);
    } else {
      const double t = above / -dot(n, dir);  // the crossing, when heading down
      const bool hit = dot(n, dir) < 0 && t <= maxT;
      ASSERT_EQ(r.hit, hit);
      if (hit) {
        EXPECT_NEAR(r.t, t, 1e-12 * (1 + t));
        EXPECT_NEAR(dot(n, r.point) - d, 0, 1e-11);
        EXPECT_NEAR(length(r.normal - n), 0, 1e-14);
      }
    }
    const Vec3 p = rng.inCube(3);
    const double h = dot(n, p) - d;
    EXPECT_EQ(containsPoint(pl, p).inside, h <= 0);
    const ProjectResult pr = projectPoint(pl, p);
    EXPECT_EQ(pr.inside, h <= 0);
    EXPECT_NEAR(pr.distance, std::fabs(h), 1e-12);
    EXPECT_NEAR(dot(n, pr.point) - d, 0, 1e-12);
    EXPECT_NEAR(length(pr.point - p), pr.distance, 1e-12);
  }
}

std::string runText(const std::string& text, bool trace, SceneError* err) {
  Scene scene;
  std::string json;
  if (!parseScene(text, &scene, err)) return "";
  if (!runScene(scene, trace, &json, err)) return "";
  return json;
}

const char* const kFloor = R"({"type": "plane", "normal": [0, 1, 0], "offset": 0})";

TEST(PlaneScene, QueriesAnswerInTheFormat) {
  SceneError err;
  const std::string ball = R"({"type": "sphere", "radius": 1, "position": [0, 0.5, 0]})";
  EXPECT_EQ(runText(std::string(R"({"version": 1, "query": "penetration", "shapes": [)") + kFloor + "," + ball + "]}",
                    false, &err),
            R"({"intersecting":true,"depth":0.5,"normal":[0,1,0],"pointA":[0,0,0],"pointB":[0,-0.5,0],"iterations":0,"status":"converged"})")
      << err.message;
  EXPECT_EQ(runText(std::string(R"({"version": 1, "query": "distance", "shapes": [)") + ball + "," +
                        R"({"type": "plane", "normal": [0, 1, 0], "offset": -2}]})",
                    false, &err),
            R"({"distance":1.5,"pointA":[0,-0.5,0],"pointB":[0,-2,0],"iterations":0,"status":"converged"})")
      << err.message;
  EXPECT_EQ(runText(std::string(R"({"version": 1, "query": "raycast", "shapes": [)") + kFloor +
                        R"(], "ray": {"origin": [0, 2, 0], "direction": [0, -1, 0], "maxT": 5}})",
                    false, &err),
            R"({"hit":true,"t":2,"point":[0,0,0],"normal":[0,1,0],"startedInside":false,"iterations":0,"status":"converged"})")
      << err.message;
  EXPECT_EQ(runText(std::string(R"({"version": 1, "query": "project", "shapes": [)") + kFloor +
                        R"(], "point": [1, -3, 2]})",
                    false, &err),
            R"({"point":[1,0,2],"distance":3,"inside":true,"iterations":0,"status":"converged",)"
            R"("feature":{"kind":"face","vertices":[]}})")
      << err.message;
}

TEST(PlaneScene, RoundTrip) {
  Scene scene;
  SceneError err;
  ASSERT_TRUE(parseScene(R"({"version": 1, "query": "intersect", "shapes": [{"type": "plane", "normal": [0, 2, 0],
                            "offset": 1.5, "margin": 0.25}, {"type": "point"}]})",
                         &scene, &err))
      << err.message;
  const std::string json = sceneToJson(scene);
  EXPECT_NE(json.find(R"("type":"plane","normal":[0,2,0],"offset":1.5,"margin":0.25)"), std::string::npos) << json;
  Scene again;
  ASSERT_TRUE(parseScene(json, &again, &err)) << err.message;
  EXPECT_EQ(again.shapes[0].type, ShapeType::Plane);
  EXPECT_EQ(again.shapes[0].offset, 1.5);
}

void expectError(const std::string& text, bool trace, const std::string& code, const std::string& field,
                 const std::string& inMessage) {
  SceneError err;
  EXPECT_EQ(runText(text, trace, &err), "") << text;
  EXPECT_EQ(err.code, code) << text << ": " << err.message;
  EXPECT_EQ(err.field, field) << text << ": " << err.message;
  EXPECT_NE(err.message.find(inMessage), std::string::npos) << err.message;
}

TEST(PlaneScene, BadPlanesAndQueriesNameTheField) {
  const std::string head = R"({"version": 1, "query": "intersect", "shapes": [{"type": "point"}, )";
  expectError(head + R"({"type": "plane", "normal": [0, 0, 0], "offset": 0}]})", false, "invalid-scene",
              "shapes[1].normal", "zero vector");
  expectError(head + R"({"type": "plane", "normal": [0, "NaN", 0], "offset": 0}]})", false, "invalid-scene",
              "shapes[1].normal[1]", "");
  expectError(head + R"({"type": "plane", "normal": [0, 1], "offset": 0}]})", false, "invalid-scene",
              "shapes[1].normal", "3 numbers");
  expectError(head + R"({"type": "plane", "normal": [0, 1, 0], "offset": "Infinity"}]})", false, "invalid-scene",
              "shapes[1].offset", "");
  expectError(head + R"({"type": "plane", "normal": [0, 1, 0], "offset": 2e15}]})", false, "invalid-scene",
              "shapes[1].offset", "1e15");
  expectError(head + R"({"type": "plane", "normal": [0, 1, 0]}]})", false, "invalid-scene", "shapes[1].offset",
              "is missing");
  expectError(head + R"({"type": "plane", "normal": [0, 1, 0], "offset": 0, "radius": 1}]})", false,
              "invalid-scene", "shapes[1].radius", "unknown field");
  const std::string two = std::string(R"({"version": 1, "shapes": [)") + kFloor + R"(, {"type": "box", "halfExtents": [1, 1, 1]}], )";
  expectError(two + R"("query": "sat"})", false, "invalid-scene", "shapes[0].type", "vertices");
  expectError(two + R"("query": "chungwang"})", false, "unsupported-query", "shapes[0].type", "plane");
  expectError(two + R"("query": "shapecast", "motion": {"translationA": [0, 1, 0]}})", false, "unsupported-query",
              "shapes[0].type", "plane");
  expectError(two + R"("query": "distance"})", true, "unsupported-query", "shapes[0].type", "no trace");
  expectError(std::string(R"({"version": 1, "shapes": [)") + kFloor + R"(], "query": "hull"})", false,
              "invalid-scene", "shapes[0].type", "vertices");
  expectError(std::string(R"({"version": 1, "query": "penetration", "shapes": [)") + kFloor +
                  R"(, {"type": "plane", "normal": [1, 0, 0], "offset": 0}]})",
              false, "invalid-scene", "shapes", "unbounded");
}

// ---- the object API ---------------------------------------------------------

TEST(PlaneApi, QueriesAndBatchesAnswerAsTheFunctions) {
  ref::Rng rng(1803);
  api::Registry reg;
  SceneError err;
  Shape floor = Shape::plane({0, 2, 0}, 0.5);
  floor.margin = 0.125;
  const Shape shapes[] = {floor, Shape::box({1, 0.5, 0.25}), Shape::sphere(0.75), Shape::capsule(0.25, 1)};
  int handles[4];
  for (int i = 0; i < 4; ++i) {
    handles[i] = reg.add(shapes[i], &err);
    ASSERT_GT(handles[i], 0) << err.message;
  }
  double poses[4 * api::kPoseSize];
  for (int i = 0; i < 4; ++i) {
    const Vec3 p = rng.inCube(1.5);
    const Quat q = rng.rotation();
    const double v[7] = {p.x, p.y, p.z, q.x, q.y, q.z, q.w};
    std::copy(v, v + 7, poses + api::kPoseSize * i);
  }
  const auto posed = [&](int i) {
    Shape s = shapes[i];
    const double* v = poses + api::kPoseSize * i;
    s.pose = {{v[0], v[1], v[2]}, Quat{v[3], v[4], v[5], v[6]}};
    return s;
  };
  // The plane against each shape, both ways round.
  const std::uint32_t pairs[] = {0, 1, 2, 0, 0, 3, 1, 0};
  double extras[4 * api::kExtraSize] = {};
  extras[0] = 0.5;  // contact margins
  for (api::Kind kind : {api::Kind::Intersect, api::Kind::Distance, api::Kind::Penetration, api::Kind::Contact}) {
    const int stride = api::kResultStride[static_cast<int>(kind)];
    std::vector<double> out(static_cast<std::size_t>(4 * stride));
    ASSERT_TRUE(reg.batch(kind, handles, 4, poses, pairs, 4, extras, nullptr, out.data(), &err)) << err.message;
    for (int q = 0; q < 4; ++q) {
      const int ia = static_cast<int>(pairs[2 * q]), ib = static_cast<int>(pairs[2 * q + 1]);
      double in[api::kInputSize];
      std::copy(poses + api::kPoseSize * ia, poses + api::kPoseSize * (ia + 1), in);
      std::copy(poses + api::kPoseSize * ib, poses + api::kPoseSize * (ib + 1), in + api::kPoseSize);
      std::copy(extras + api::kExtraSize * q, extras + api::kExtraSize * (q + 1), in + 2 * api::kPoseSize);
      double single[api::kMaxResultStride];
      ASSERT_TRUE(reg.query(kind, handles[ia], handles[ib], in, nullptr, single, &err)) << err.message;
      for (int i = 0; i < stride; ++i) EXPECT_EQ(single[i], out[static_cast<std::size_t>(stride * q + i)]);
      const int k = static_cast<int>(kind);
      const Shape a = posed(ia), b = posed(ib);
      if (kind == api::Kind::Distance) {
        EXPECT_EQ(single[api::offsetOf(k, "distance")], planeDistance(a, b).distance);
      } else if (kind == api::Kind::Penetration) {
        PenetrationResult p;
        ASSERT_EQ(planePenetration(a, b, &p), PlaneStatus::Ok);
        EXPECT_EQ(single[api::offsetOf(k, "depth")], p.depth);
        EXPECT_EQ(single[api::offsetOf(k, "normal") + 1], p.normal.y);
      } else if (kind == api::Kind::Intersect) {
        EXPECT_EQ(single[api::offsetOf(k, "intersecting")] != 0, planeIntersect(a, b).intersecting);
      }
    }
  }
  // Raycast, contains and project on the plane itself.
  double in[api::kInputSize] = {};
  std::copy(poses, poses + api::kPoseSize, in);
  const double ray[7] = {0, 5, 0, 0, -1, 0, 10};
  std::copy(ray, ray + 7, in + 2 * api::kPoseSize);
  double out[api::kMaxResultStride];
  ASSERT_TRUE(reg.query(api::Kind::Raycast, handles[0], 0, in, nullptr, out, &err)) << err.message;
  const RayCastResult r = planeRayCast(posed(0), {0, 5, 0}, {0, -1, 0}, 10);
  EXPECT_EQ(out[api::offsetOf(static_cast<int>(api::Kind::Raycast), "t")], r.t);
  ASSERT_TRUE(reg.query(api::Kind::Project, handles[0], 0, in, nullptr, out, &err)) << err.message;
  EXPECT_EQ(out[api::offsetOf(static_cast<int>(api::Kind::Project), "distance")], projectPoint(posed(0), {0, 5, 0}).distance);
  // What a plane does not take, and two planes that are not opposite.
  std::copy(poses + api::kPoseSize, poses + 2 * api::kPoseSize, in + api::kPoseSize);
  EXPECT_FALSE(reg.query(api::Kind::ChungWang, handles[0], handles[1], in, nullptr, out, &err));
  EXPECT_EQ(err.field, "a.type");
  EXPECT_FALSE(reg.query(api::Kind::Shapecast, handles[1], handles[0], in, nullptr, out, &err));
  EXPECT_EQ(err.field, "b.type");
  EXPECT_FALSE(reg.query(api::Kind::Sat, handles[0], handles[1], in, nullptr, out, &err));
  EXPECT_EQ(err.field, "a.type");
  const int wall = reg.add(Shape::plane({1, 0, 0}, 0), &err);
  EXPECT_TRUE(reg.query(api::Kind::Intersect, handles[0], wall, in, nullptr, out, &err)) << err.message;
  EXPECT_FALSE(reg.query(api::Kind::Penetration, handles[0], wall, in, nullptr, out, &err));
  EXPECT_EQ(err.field, "b");
  EXPECT_NE(err.message.find("unbounded"), std::string::npos);
}

}  // namespace
}  // namespace collidoscope
