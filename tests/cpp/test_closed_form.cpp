// Closed forms for points, spheres, segments and capsules (closed_form.h),
// checked against references of their own and against the general
// algorithms on the same pairs:
//   * the cores' distance by a ternary search over one segment of the
//     point-to-segment distance (convex along the segment), with the end
//     points from rotation matrices (reference.h), not the library's
//     quaternion rotation;
//   * gjkDistance / gjkIntersect / penetration (GJK + EPA) on the same
//     shapes, which the API used for these pairs before;
//   * hand-made cases with known answers: touching, coincident centres,
//     parallel and crossing capsules, zero radii.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "collidoscope/api.h"
#include "collidoscope/closed_form.h"
#include "collidoscope/epa.h"
#include "collidoscope/json.h"
#include "collidoscope/scene.h"
#include "gjk_helpers.h"
#include "reference.h"

namespace {

using namespace testutil;
using collidoscope::ClosedForm;
using collidoscope::ClosedFormFrame;
using collidoscope::PenetrationResult;
using collidoscope::ShapeType;
using ref::Rng;

// End points of a shape's core in world space, from a rotation matrix.
void referenceCore(const Shape& s, Vec3* p0, Vec3* p1) {
  const ref::Mat3 r = ref::matrixOf(s.pose.rotation);
  Vec3 l0, l1;
  if (s.type == ShapeType::Capsule) l0 = {0, -s.halfHeight, 0}, l1 = {0, s.halfHeight, 0};
  if (s.type == ShapeType::Segment) l0 = s.points[0], l1 = s.points[1];
  *p0 = r.mul(l0) + s.pose.position;
  *p1 = r.mul(l1) + s.pose.position;
}

double pointSegment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 d = b - a;
  const double dd = ref::dot3(d, d);
  const double t = dd > 0 ? std::min(1.0, std::max(0.0, ref::dot3(p - a, d) / dd)) : 0;
  return ref::dist(p, a + d * t);
}

// min over s of |P(s) − segment Q|: convex in s, so a ternary search.
double referenceCoreDistance(const Shape& a, const Shape& b) {
  Vec3 a0, a1, b0, b1;
  referenceCore(a, &a0, &a1);
  referenceCore(b, &b0, &b1);
  auto f = [&](double s) { return pointSegment(a0 + (a1 - a0) * s, b0, b1); };
  double lo = 0, hi = 1;
  for (int i = 0; i < 200; ++i) {
    const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (f(m1) <= f(m2)) hi = m2;
    else lo = m1;
  }
  return std::min({f(0), f(1), f((lo + hi) / 2)});
}

double radiusOf(const Shape& s) {
  return (s.type == ShapeType::Sphere || s.type == ShapeType::Capsule ? s.radius : 0) + s.margin;
}

Shape randomShape(Rng& rng, int kind) {
  Shape s;
  switch (kind) {
    case 0: s = Shape::point(); break;
    case 1: s = Shape::sphere(rng.uniform(0.05, 1)); break;
    case 2: s = Shape::segment(rng.inCube(1), rng.inCube(1)); break;
    default: s = Shape::capsule(rng.uniform(0.05, 0.6), rng.integer(0, 9) == 0 ? 0.0 : rng.uniform(0.05, 1)); break;
  }
  if (rng.integer(0, 3) == 0) s.margin = rng.uniform(0, 0.2);
  s.pose.rotation = rng.rotation();
  return s;
}

double scaleOf(const Shape& a, const Shape& b) {
  Vec3 p[4];
  referenceCore(a, &p[0], &p[1]);
  referenceCore(b, &p[2], &p[3]);
  double m = 0;
  for (const Vec3& q : p) m = std::max(m, ref::maxAbs3(q));
  return std::max({m, radiusOf(a), radiusOf(b), 1e-300});
}

TEST(ClosedForm, PairsOfPointAndSegmentCoresOnly) {
  const Shape sphere = Shape::sphere(1), capsule = Shape::capsule(1, 1), box = Shape::box({1, 1, 1});
  EXPECT_EQ(collidoscope::closedFormOf(sphere, sphere), ClosedForm::PointPoint);
  EXPECT_EQ(collidoscope::closedFormOf(sphere, capsule), ClosedForm::PointSegment);
  EXPECT_EQ(collidoscope::closedFormOf(capsule, Shape::point()), ClosedForm::SegmentPoint);
  EXPECT_EQ(collidoscope::closedFormOf(capsule, Shape::segment({0, 0, 0}, {1, 0, 0})), ClosedForm::SegmentSegment);
  EXPECT_EQ(collidoscope::closedFormOf(sphere, box), ClosedForm::None);
  EXPECT_EQ(collidoscope::closedFormOf(Shape::cylinder(1, 1), capsule), ClosedForm::None);
  EXPECT_EQ(collidoscope::closedFormOf(Shape::triangle({0, 0, 0}, {1, 0, 0}, {0, 1, 0}), sphere), ClosedForm::None);
}

// Random pairs in three placements: free (anywhere within 3), near
// touching (B moved along the cores' closest direction to a gap of
// ±1e-9…1e-3) and with a core point of B put on a core point of A.
TEST(ClosedForm, RandomPairsAgreeWithTheReferenceAndTheGeneralQueries) {
  Rng rng(20261126);
  int pairs = 0, overlapping = 0, nearTouching = 0, coresMeet = 0;
  double worstRef = 0, worstGjk = 0, worstDepth = 0, worstNormal = 0;
  for (int i = 0; i < 6000; ++i) {
    Shape a = randomShape(rng, i % 4), b = randomShape(rng, (i / 4) % 4);
    a.pose.position = rng.inCube(2);
    b.pose.position = rng.inCube(2);
    const int placement = (i / 16) % 3;
    if (placement == 1) {
      // Near touching: shift B along the line of the cores' closest points.
      DistanceResult d;
      ASSERT_TRUE(collidoscope::closedDistance(a, b, &d));
      const double core = ref::norm(d.v);
      if (!(core > 1e-6)) continue;
      const double gap = rng.uniform(-1, 1) * rng.logUniform(1e-9, 1e-3);
      const double want = radiusOf(a) + radiusOf(b) + gap;
      b.pose.position = b.pose.position - d.v * ((want - core) / core);
      ++nearTouching;
    } else if (placement == 2) {
      Vec3 a0, a1, b0, b1;
      referenceCore(a, &a0, &a1);
      referenceCore(b, &b0, &b1);
      const double s = rng.uniform(0, 1), t = rng.uniform(0, 1);
      b.pose.position = b.pose.position + ((a0 + (a1 - a0) * s) - (b0 + (b1 - b0) * t));
    }
    ++pairs;
    const double scale = scaleOf(a, b);
    const double rA = radiusOf(a), rB = radiusOf(b);
    const double refCore = referenceCoreDistance(a, b);
    const double refDistance = std::max(0.0, refCore - rA - rB);
    const std::string what = describe(a) + " vs " + describe(b);

    ClosedFormFrame frame;
    DistanceResult d;
    ASSERT_TRUE(collidoscope::closedDistance(a, b, &d, &frame)) << what;
    EXPECT_EQ(d.iterations, 0);
    EXPECT_NEAR(frame.coreDistance, refCore, 1e-12 * scale) << what;
    EXPECT_NEAR(d.distance, refDistance, 1e-12 * scale) << what;
    EXPECT_NEAR(ref::dist(d.pointA, d.pointB), d.distance, 1e-12 * scale) << what;
    worstRef = std::max(worstRef, std::fabs(d.distance - refDistance) / scale);
    const DistanceResult g = distance(a, b);
    EXPECT_NEAR(d.distance, g.distance, 1e-9 * scale) << what;
    worstGjk = std::max(worstGjk, std::fabs(d.distance - g.distance) / scale);
    if (d.distance > 1e-9 * scale) {
      // Apart: the closest points are unique for a point core, and their
      // distance must match either way.
      EXPECT_NEAR(ref::dist(d.pointA, d.pointB), ref::dist(g.pointA, g.pointB), 1e-9 * scale) << what;
    }

    IntersectResult in;
    ASSERT_TRUE(collidoscope::closedIntersect(a, b, &in)) << what;
    if (std::fabs(refCore - rA - rB) > 1e-12 * scale) {
      EXPECT_EQ(in.intersecting, refCore - rA - rB < 0) << what;
    }
    // GJK counts a stall within its tolerance of touching as intersecting.
    if (std::fabs(refCore - rA - rB) > 1e-9 * scale) {
      EXPECT_EQ(in.intersecting, intersect(a, b).intersecting) << what;
    }
    overlapping += in.intersecting ? 1 : 0;

    PenetrationResult p;
    ASSERT_TRUE(collidoscope::closedPenetration(a, b, &p)) << what;
    const PenetrationResult e = collidoscope::penetration(PosedShape(a), PosedShape(b));
    const double refDepth = std::max(0.0, rA + rB - refCore);
    if (std::fabs(refCore - rA - rB) > 1e-12 * scale) {
      EXPECT_EQ(p.intersecting, refCore < rA + rB) << what;
    }
    EXPECT_NEAR(p.depth, refDepth, 1e-12 * scale) << what;
    EXPECT_NEAR(p.depth, e.depth, 1e-9 * scale) << what;
    worstDepth = std::max(worstDepth, std::fabs(p.depth - e.depth) / scale);
    EXPECT_NEAR(ref::norm(p.normal), 1, 1e-15) << what;
    // pointA − pointB = depth · normal, and moving B by depth along the
    // normal leaves the shapes touching: the core distance along it
    // becomes rA + rB.
    if (p.intersecting) {
      const Vec3 diff = p.pointA - p.pointB - p.normal * p.depth;
      EXPECT_LE(ref::maxAbs3(diff), 1e-12 * scale) << what;
    } else {
      EXPECT_NEAR(ref::dist(p.pointA, p.pointB), d.distance, 1e-12 * scale) << what;
    }
    if (p.intersecting && p.depth > 0) {
      Shape moved = b;
      moved.pose.position = b.pose.position + p.normal * p.depth;
      EXPECT_NEAR(referenceCoreDistance(a, moved), rA + rB, 1e-9 * scale) << what;
      if (refCore > 1e-6 * scale) {
        worstNormal = std::max(worstNormal, ref::norm(p.normal - e.normal));
        EXPECT_LE(ref::norm(p.normal - e.normal), 1e-7) << what;
      } else {
        ++coresMeet;
      }
    }
  }
  EXPECT_GT(pairs, 5000);
  EXPECT_GT(overlapping, 1000);
  EXPECT_GT(nearTouching, 1500);
  EXPECT_GT(coresMeet, 200);
  std::printf("[closed forms] %d pairs (%d overlapping, %d near touching, %d with meeting cores); worst |d − ref|/S %.2g, "
              "|d − GJK|/S %.2g, |depth − EPA|/S %.2g, |n − EPA n| %.2g\n",
              pairs, overlapping, nearTouching, coresMeet, worstRef, worstGjk, worstDepth, worstNormal);
}

TEST(ClosedForm, TouchingSpheresAndCapsules) {
  Shape a = Shape::sphere(1), b = Shape::sphere(0.5);
  b.pose.position = {1.5, 0, 0};
  IntersectResult in;
  DistanceResult d;
  PenetrationResult p;
  ASSERT_TRUE(collidoscope::closedIntersect(a, b, &in));
  ASSERT_TRUE(collidoscope::closedDistance(a, b, &d));
  ASSERT_TRUE(collidoscope::closedPenetration(a, b, &p));
  EXPECT_TRUE(in.intersecting);
  EXPECT_EQ(d.distance, 0);
  EXPECT_TRUE(p.intersecting);
  EXPECT_EQ(p.depth, 0);
  EXPECT_EQ(p.status, collidoscope::EpaStatus::Touching);
  EXPECT_EQ(p.normal, (Vec3{1, 0, 0}));
  // Two capsules side by side, parallel, their surfaces 0.25 apart; then touching.
  Shape c = Shape::capsule(0.5, 1), e = Shape::capsule(0.25, 2);
  e.pose.position = {1, 0.5, 0};
  ASSERT_TRUE(collidoscope::closedDistance(c, e, &d));
  EXPECT_DOUBLE_EQ(d.distance, 0.25);
  EXPECT_DOUBLE_EQ(d.pointA.x, 0.5);
  EXPECT_DOUBLE_EQ(d.pointB.x, 0.75);
  EXPECT_DOUBLE_EQ(d.pointA.y, d.pointB.y);  // any common height of the overlap
  EXPECT_GE(d.pointA.y, -1 - 1e-15);  // within both cores' heights
  EXPECT_LE(d.pointA.y, 1 + 1e-15);
  e.pose.position = {0.75, 0.5, 0};
  ASSERT_TRUE(collidoscope::closedIntersect(c, e, &in));
  ASSERT_TRUE(collidoscope::closedPenetration(c, e, &p));
  EXPECT_TRUE(in.intersecting);
  EXPECT_EQ(p.depth, 0);
}

TEST(ClosedForm, MeetingCores) {
  // Coincident centres: depth rA + rB along a unit normal.
  Shape a = Shape::sphere(1), b = Shape::sphere(0.5);
  a.pose.position = b.pose.position = {3, -2, 1};
  PenetrationResult p;
  DistanceResult d;
  ASSERT_TRUE(collidoscope::closedPenetration(a, b, &p));
  ASSERT_TRUE(collidoscope::closedDistance(a, b, &d));
  EXPECT_EQ(p.depth, 1.5);
  EXPECT_NEAR(ref::norm(p.normal), 1, 1e-15);
  EXPECT_EQ(d.distance, 0);
  EXPECT_TRUE(d.coresOverlap);
  // Crossing capsules (x and z axes through the origin): depth rA + rB along ±y.
  Shape c = Shape::capsule(0.3, 2), e = Shape::capsule(0.2, 2);
  c.pose.rotation = {0, 0, std::sqrt(0.5), std::sqrt(0.5)};  // local y → world −x
  e.pose.rotation = {std::sqrt(0.5), 0, 0, std::sqrt(0.5)};  // local y → world z
  ASSERT_TRUE(collidoscope::closedPenetration(c, e, &p));
  EXPECT_NEAR(p.depth, 0.5, 1e-15);
  EXPECT_NEAR(std::fabs(p.normal.y), 1, 1e-15);
  // The same pair in a 2D scene has no in-plane common normal: the planar
  // EPA answers it (false here).
  EXPECT_FALSE(collidoscope::closedPenetration(c, e, &p, nullptr, true));
  // A sphere centred on a capsule's axis: across the axis.
  Shape s = Shape::sphere(0.1);
  s.pose.position = {0, 0.5, 0};
  ASSERT_TRUE(collidoscope::closedPenetration(Shape::capsule(0.4, 1), s, &p));
  EXPECT_NEAR(p.depth, 0.5, 1e-15);
  EXPECT_NEAR(p.normal.y, 0, 1e-15);
  // Zero radii: two points at one place touch, apart they are apart.
  Shape q = Shape::point(), r = Shape::point();
  q.pose.position = r.pose.position = {1, 2, 3};
  IntersectResult in;
  ASSERT_TRUE(collidoscope::closedIntersect(q, r, &in));
  EXPECT_TRUE(in.intersecting);
  ASSERT_TRUE(collidoscope::closedPenetration(q, r, &p));
  EXPECT_EQ(p.depth, 0);
  EXPECT_EQ(p.status, collidoscope::EpaStatus::Touching);
  r.pose.position = {1, 2, 3 + 1e-3};
  ASSERT_TRUE(collidoscope::closedIntersect(q, r, &in));
  EXPECT_FALSE(in.intersecting);
}

TEST(ClosedForm, TinyScenesGoToTheGeneralQueries) {
  Shape a = Shape::sphere(1e-300), b = Shape::sphere(2e-300);
  b.pose.position = {5e-300, 0, 0};
  DistanceResult d;
  EXPECT_FALSE(collidoscope::closedDistance(a, b, &d));
  // The scene format and the API still answer it (scaled GJK): 2e-300 apart.
  collidoscope::api::Registry reg;
  collidoscope::SceneError err;
  const int ha = reg.add(a, &err), hb = reg.add(b, &err);
  double in[collidoscope::api::kInputSize] = {0, 0, 0, 0, 0, 0, 1, 5e-300, 0, 0, 0, 0, 0, 1};
  double out[16];
  ASSERT_TRUE(reg.query(collidoscope::api::Kind::Distance, ha, hb, in, nullptr, out, &err)) << err.message;
  EXPECT_NEAR(out[0], 2e-300, 1e-312);
}

// The scene format: a traced query on such a pair is one frame naming the
// closed form, and its result is the untraced answer.
TEST(ClosedForm, TraceIsOneFrameNamingTheForm) {
  for (const char* query : {"intersect", "distance", "penetration"}) {
    const std::string scene = std::string(R"({"version":1,"shapes":[{"type":"capsule","radius":0.5,"halfHeight":1},)") +
                              R"({"type":"sphere","radius":0.25,"position":[2,0.5,0]}],"query":")" + query + "\"}";
    collidoscope::Scene s;
    collidoscope::SceneError err;
    ASSERT_TRUE(collidoscope::parseScene(scene, &s, &err)) << err.message;
    std::string traced, plain;
    ASSERT_TRUE(collidoscope::runScene(s, true, &traced, &err)) << err.message;
    ASSERT_TRUE(collidoscope::runScene(s, false, &plain, &err)) << err.message;
    collidoscope::JsonValue t, r;
    std::string why;
    ASSERT_TRUE(collidoscope::parseJson(traced, &t, &why)) << why;
    ASSERT_TRUE(collidoscope::parseJson(plain, &r, &why)) << why;
    ASSERT_NE(t.find("closedForm"), nullptr) << traced;
    EXPECT_EQ(t.find("closedForm")->string, "segment-point");
    ASSERT_EQ(t.find("frames")->items.size(), 1u);
    const collidoscope::JsonValue& f = t.find("frames")->items[0];
    EXPECT_EQ(f.find("form")->string, "segment-point");
    EXPECT_EQ(f.find("coreDistance")->number, 2);  // from (0, 0.5, 0) on the axis to the centre
    EXPECT_EQ(f.find("coreA")->items[1].number, 0.5);
    // The same writer wrote both: the result's text is the untraced answer's.
    const std::size_t at = traced.find("\"result\":"), end = traced.find(",\"marginA\"");
    ASSERT_NE(at, std::string::npos);
    EXPECT_EQ(traced.substr(at + 9, end - at - 9), plain) << query;
  }
}

}  // namespace
