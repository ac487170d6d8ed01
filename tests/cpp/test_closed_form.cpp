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
  EXPECT_EQ(collidoscope::closedFormOf(sphere, box), ClosedForm::PointBox);
  EXPECT_EQ(collidoscope::closedFormOf(box, Shape::point()), ClosedForm::BoxPoint);
  EXPECT_EQ(collidoscope::closedFormOf(box, box), ClosedForm::BoxBox);
  EXPECT_EQ(collidoscope::closedFormOf(capsule, box), ClosedForm::None);
  EXPECT_EQ(collidoscope::closedFormOf(box, Shape::cylinder(1, 1)), ClosedForm::None);
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

// ---- boxes ------------------------------------------------------------------

// A box (or a point or sphere) of random size, rotation and margin.
Shape randomBoxOrPoint(Rng& rng, bool box) {
  Shape s = box ? Shape::box({rng.uniform(0.05, 1), rng.uniform(0.05, 1), rng.uniform(0.05, 1)})
                : (rng.integer(0, 3) == 0 ? Shape::point() : Shape::sphere(rng.uniform(0.02, 0.8)));
  if (rng.integer(0, 2) == 0) s.margin = rng.uniform(0, 0.2);
  s.pose.rotation = rng.rotation();
  return s;
}

double boxScaleOf(const Shape& a, const Shape& b) {
  double m = 0;
  for (const Shape* s : {&a, &b}) {
    m = std::max(m, ref::maxAbs3(s->pose.position) + s->halfExtents.x + s->halfExtents.y + s->halfExtents.z);
    m = std::max(m, radiusOf(*s));
  }
  return m;
}

// Checks shared by the penetration answers: a unit normal, pointA − pointB =
// depth·normal, and B moved by depth along the normal just touches A (the
// general distance query, independent of the closed forms, finds 0, and a
// little farther finds that gap).
void expectSeparatingMove(const Shape& a, const Shape& b, const PenetrationResult& p, double scale,
                          const std::string& what) {
  EXPECT_NEAR(ref::norm(p.normal), 1, 1e-15) << what;
  const Vec3 diff = p.pointA - p.pointB - p.normal * p.depth;
  EXPECT_LE(ref::maxAbs3(diff), 1e-12 * scale) << what;
  Shape moved = b;
  moved.pose.position = b.pose.position + p.normal * p.depth;
  EXPECT_LE(distance(a, moved).distance, 1e-9 * scale) << what;
  moved.pose.position = b.pose.position + p.normal * (p.depth + 1e-3 * scale);
  EXPECT_NEAR(distance(a, moved).distance, 1e-3 * scale, 1e-9 * scale) << what;
}

// Random point/sphere–box pairs, both orders: apart, near touching, the
// centre inside the box, on the box's centre. References: the clamp in the
// box frame from a rotation matrix (reference.h) and the general queries.
TEST(ClosedForm, PointBoxAgreesWithTheReferenceAndTheGeneralQueries) {
  Rng rng(20261127);
  int pairs = 0, inside = 0, nearTouching = 0, centred = 0;
  double worstGjk = 0, worstDepth = 0;
  for (int i = 0; i < 4000; ++i) {
    const bool boxFirst = i % 2 == 1;
    Shape box = randomBoxOrPoint(rng, true), pt = randomBoxOrPoint(rng, false);
    box.pose.position = rng.inCube(2);
    const int placement = (i / 2) % 4;
    if (placement == 0) {
      pt.pose.position = rng.inCube(3);
    } else if (placement == 1) {
      // Near touching: along a random outward direction from a surface point.
      const Vec3 local{rng.uniform(-1, 1) * box.halfExtents.x, rng.uniform(-1, 1) * box.halfExtents.y,
                       rng.uniform(-1, 1) * box.halfExtents.z};
      Vec3 onFace = local;
      const int axis = rng.integer(0, 2);
      onFace[axis] = (rng.integer(0, 1) == 0 ? -1 : 1) * box.halfExtents[axis];
      Vec3 dir;
      dir[axis] = onFace[axis] > 0 ? 1 : -1;
      const double gap = rng.uniform(-1, 1) * rng.logUniform(1e-9, 1e-3);
      const double want = radiusOf(box) + radiusOf(pt) + gap;
      pt.pose.position = ref::toWorld(box, onFace + dir * want);
      if (want < 0) continue;
      ++nearTouching;
    } else if (placement == 2) {
      pt.pose.position = ref::toWorld(box, {rng.uniform(-1, 1) * box.halfExtents.x, rng.uniform(-1, 1) * box.halfExtents.y,
                                            rng.uniform(-1, 1) * box.halfExtents.z});
    } else {
      pt.pose.position = box.pose.position;
      ++centred;
    }
    ++pairs;
    const Shape& a = boxFirst ? box : pt;
    const Shape& b = boxFirst ? pt : box;
    const double scale = boxScaleOf(a, b) + ref::maxAbs3(pt.pose.position);
    const double rA = radiusOf(a), rB = radiusOf(b);
    const double refCore = ref::pointBoxDistance(pt.pose.position, box);
    const double refDistance = std::max(0.0, refCore - rA - rB);
    const std::string what = describe(a) + " vs " + describe(b);
    EXPECT_EQ(collidoscope::closedFormOf(a, b), boxFirst ? ClosedForm::BoxPoint : ClosedForm::PointBox);

    ClosedFormFrame frame;
    DistanceResult d;
    ASSERT_TRUE(collidoscope::closedDistance(a, b, &d, &frame)) << what;
    EXPECT_NEAR(d.distance, refDistance, 1e-12 * scale) << what;
    const DistanceResult g = distance(a, b);
    EXPECT_NEAR(d.distance, g.distance, 1e-9 * scale) << what;
    worstGjk = std::max(worstGjk, std::fabs(d.distance - g.distance) / scale);
    EXPECT_NEAR(ref::dist(d.pointA, d.pointB), d.distance, 1e-12 * scale) << what;
    if (d.distance > 1e-9 * scale) {
      EXPECT_LE(ref::dist(d.pointA, g.pointA), 1e-7 * scale) << what;  // unique closest points
      EXPECT_LE(ref::dist(d.pointB, g.pointB), 1e-7 * scale) << what;
    }

    IntersectResult in;
    ASSERT_TRUE(collidoscope::closedIntersect(a, b, &in)) << what;
    if (std::fabs(refCore - rA - rB) > 1e-9 * scale) {
      EXPECT_EQ(in.intersecting, refCore < rA + rB) << what;
      EXPECT_EQ(in.intersecting, intersect(a, b).intersecting) << what;
    }

    PenetrationResult p;
    ASSERT_TRUE(collidoscope::closedPenetration(a, b, &p, &frame)) << what;
    const PenetrationResult e = collidoscope::penetration(PosedShape(a), PosedShape(b));
    // The analytic depth: the centre inside the box core is (least distance
    // to a face) + rA + rB deep; outside, rA + rB − its distance.
    double refDepth = std::max(0.0, rA + rB - refCore);
    if (refCore == 0) {
      const Vec3 l = ref::toLocal(box, pt.pose.position);
      const Vec3 h = box.halfExtents;
      refDepth = std::min({h.x - std::fabs(l.x), h.y - std::fabs(l.y), h.z - std::fabs(l.z)}) + rA + rB;
      ++inside;
      EXPECT_TRUE(frame.hasAxis) << what;
      EXPECT_EQ(frame.axisKind, boxFirst ? collidoscope::SatAxisKind::FaceA : collidoscope::SatAxisKind::FaceB);
    }
    EXPECT_NEAR(p.depth, refDepth, 1e-12 * scale) << what;
    EXPECT_NEAR(p.depth, e.depth, 1e-9 * scale) << what;
    worstDepth = std::max(worstDepth, std::fabs(p.depth - e.depth) / scale);
    if (std::fabs(refCore - rA - rB) > 1e-9 * scale) {
      EXPECT_EQ(p.intersecting, refCore < rA + rB) << what;
    }
    if (p.intersecting) {
      expectSeparatingMove(a, b, p, scale, what);
    } else {
      EXPECT_NEAR(ref::dist(p.pointA, p.pointB), d.distance, 1e-12 * scale) << what;
    }
  }
  EXPECT_GT(pairs, 3500);
  EXPECT_GT(inside, 1500);
  EXPECT_GT(nearTouching, 800);
  EXPECT_GT(centred, 900);
  std::printf("[point-box] %d pairs (%d inside, %d near touching, %d centred); worst |d − GJK|/S %.2g, "
              "|depth − EPA|/S %.2g\n",
              pairs, inside, nearTouching, centred, worstGjk, worstDepth);
}

// Ties between faces: the lowest axis, the + face at q = 0.
TEST(ClosedForm, PointInBoxTiesAreDeterministic) {
  Shape box = Shape::box({1, 1, 2}), pt = Shape::point();
  PenetrationResult p;
  ClosedFormFrame f;
  ASSERT_TRUE(collidoscope::closedPenetration(pt, box, &p, &f));
  EXPECT_EQ(p.depth, 1);
  EXPECT_EQ(p.normal, (Vec3{-1, 0, 0}));  // the box moves along −x: the point leaves through its +x face
  EXPECT_EQ(f.featureB, 0);
  ASSERT_TRUE(collidoscope::closedPenetration(box, pt, &p, &f));
  EXPECT_EQ(p.normal, (Vec3{1, 0, 0}));
  EXPECT_EQ(f.featureA, 0);
  EXPECT_EQ(p.pointA, (Vec3{1, 0, 0}));
  EXPECT_EQ(p.pointB, (Vec3{0, 0, 0}));
}

// Two boxes, the reference depth of axis-aligned ones: the least per-axis
// overlap h_A + h_B + r_A + r_B − |t_i|, along ±e_i.
TEST(ClosedForm, AxisAlignedBoxesOverlapPerAxis) {
  Rng rng(77);
  int answered = 0;
  for (int i = 0; i < 2000; ++i) {
    Shape a = Shape::box(rng.inCube(1) * 0.5 + Vec3{0.6, 0.6, 0.6});
    Shape b = Shape::box(rng.inCube(1) * 0.5 + Vec3{0.6, 0.6, 0.6});
    if (i % 3 == 0) a.margin = rng.uniform(0, 0.3), b.margin = rng.uniform(0, 0.3);
    a.pose.position = rng.inCube(1);
    b.pose.position = i % 7 == 0 ? a.pose.position : rng.inCube(2);
    const double r = a.margin + b.margin;
    double best = 1e300;
    int axis = -1;
    for (int k = 0; k < 3; ++k) {
      const double o = a.halfExtents[k] + b.halfExtents[k] - std::fabs(b.pose.position[k] - a.pose.position[k]);
      if (o < best) best = o, axis = k;
    }
    PenetrationResult p;
    ClosedFormFrame f;
    const bool ok = collidoscope::closedPenetration(a, b, &p, &f);
    EXPECT_EQ(ok, best >= 0) << i;  // apart cores go to the general query
    IntersectResult in;
    const bool okIn = collidoscope::closedIntersect(a, b, &in);
    if (best < -r - 1e-12) {
      EXPECT_TRUE(okIn);
      EXPECT_FALSE(in.intersecting);
    }
    if (!ok) continue;
    ++answered;
    ASSERT_TRUE(okIn);
    EXPECT_TRUE(in.intersecting);
    EXPECT_NEAR(p.depth, best + r, 1e-12) << i;
    EXPECT_EQ(f.axisKind, collidoscope::SatAxisKind::FaceA);
    EXPECT_EQ(f.featureA, axis);
    const double t = b.pose.position[axis] - a.pose.position[axis];
    EXPECT_EQ(p.normal[axis], t < 0 ? -1 : 1) << i;
  }
  EXPECT_GT(answered, 500);
}

// Random box pairs: rotations, sizes, margins; apart, overlapping, deep,
// coincident centres, face-parallel (B turned from A by quarter turns).
// Against the general queries (GJK + EPA, which the closed form bypasses
// here: they are called directly).
TEST(ClosedForm, BoxBoxAgreesWithTheGeneralQueries) {
  Rng rng(20261128);
  int pairs = 0, penetrations = 0, intersects = 0, apart = 0, edgeEdge = 0, declined = 0;
  double worstDepth = 0;
  const Quat quarter[4] = {{0, 0, 0, 1}, {std::sqrt(0.5), 0, 0, std::sqrt(0.5)}, {0, std::sqrt(0.5), 0, std::sqrt(0.5)},
                           {0, 0, 1, 0}};
  for (int i = 0; i < 4000; ++i) {
    Shape a = randomBoxOrPoint(rng, true), b = randomBoxOrPoint(rng, true);
    a.pose.position = rng.inCube(1);
    const int placement = i % 5;
    if (placement == 0) b.pose.position = a.pose.position + rng.inCube(2.5);                    // anywhere
    if (placement == 1) b.pose.position = a.pose.position + rng.inCube(0.4);                    // deep
    if (placement == 2) b.pose.position = a.pose.position;                                      // coincident centres
    if (placement == 3) {                                                                       // face-parallel
      const Quat& q = quarter[rng.integer(0, 3)];
      const Quat& r = a.pose.rotation;
      b.pose.rotation = {r.w * q.x + r.x * q.w + r.y * q.z - r.z * q.y, r.w * q.y - r.x * q.z + r.y * q.w + r.z * q.x,
                         r.w * q.z + r.x * q.y - r.y * q.x + r.z * q.w, r.w * q.w - r.x * q.x - r.y * q.y - r.z * q.z};
      b.pose.position = a.pose.position + rng.inCube(1.5);
    }
    if (placement == 4) b.pose.position = a.pose.position + rng.direction() * rng.uniform(0.5, 2);  // near the surface
    ++pairs;
    const double scale = boxScaleOf(a, b);
    const std::string what = describe(a) + " vs " + describe(b);
    DistanceResult d;
    EXPECT_FALSE(collidoscope::closedDistance(a, b, &d)) << what;  // not a SAT answer
    const DistanceResult g = distance(a, b);
    IntersectResult in;
    ClosedFormFrame f;
    if (collidoscope::closedIntersect(a, b, &in, &f)) {
      ++intersects;
      if (!in.intersecting) ++apart;
      EXPECT_TRUE(f.hasAxis);
      if (g.distance > 1e-9 * scale || g.distance == 0) {
        EXPECT_EQ(in.intersecting, g.distance == 0) << what << " GJK distance " << g.distance;
      }
      if (!in.intersecting) {
        EXPECT_LT(f.overlap, 0) << what;
        EXPECT_LE(-f.overlap, g.distance + 1e-9 * scale) << what;  // a gap along an axis bounds the distance
      }
    } else {
      ++declined;
      // Declined only where the cores are apart but perhaps within the radii.
      EXPECT_GT(radiusOf(a) + radiusOf(b), 0) << what;
      EXPECT_GT(distance(Shape(a).withMargin(0), Shape(b).withMargin(0)).distance, 0) << what;
    }
    PenetrationResult p;
    if (!collidoscope::closedPenetration(a, b, &p, &f)) {
      // Declined only for apart cores (their closest points are GJK's).
      EXPECT_GT(distance(Shape(a).withMargin(0), Shape(b).withMargin(0)).distance, 0) << what;
      continue;
    }
    ++penetrations;
    if (f.axisKind == collidoscope::SatAxisKind::EdgeEdge) ++edgeEdge;
    EXPECT_TRUE(p.intersecting) << what;
    const PenetrationResult e = collidoscope::penetration(PosedShape(a), PosedShape(b));
    EXPECT_NEAR(p.depth, e.depth, 1e-9 * scale) << what;
    worstDepth = std::max(worstDepth, std::fabs(p.depth - e.depth) / scale);
    expectSeparatingMove(a, b, p, scale, what);
    // The witness lies on its shape: B's point for a face of A, A's for a
    // face of B, both for an edge pair (the other point of a face axis is
    // on the face's plane, on the face itself unless the boxes have
    // parallel faces or edges).
    Shape pointA = Shape::point(), pointB = Shape::point();
    pointA.pose.position = p.pointA;
    pointB.pose.position = p.pointB;
    if (f.axisKind != collidoscope::SatAxisKind::FaceA) {
      EXPECT_LE(distance(pointA, a).distance, 1e-9 * scale) << what;
    }
    if (f.axisKind != collidoscope::SatAxisKind::FaceB) {
      EXPECT_LE(distance(pointB, b).distance, 1e-9 * scale) << what;
    }
    if (placement != 3) {
      EXPECT_LE(distance(pointA, a).distance, 1e-9 * scale) << what;
      EXPECT_LE(distance(pointB, b).distance, 1e-9 * scale) << what;
    }
  }
  EXPECT_GT(penetrations, 1500);
  EXPECT_GT(apart, 300);
  EXPECT_GT(edgeEdge, 30);
  std::printf("[box-box] %d pairs: %d intersect answers (%d apart), %d declined to GJK, %d penetrations (%d edge-edge); "
              "worst |depth − EPA|/S %.2g\n",
              pairs, intersects, apart, declined, penetrations, edgeEdge, worstDepth);
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

TEST(ClosedForm, BoxTracesNameTheirFormAndAxis) {
  struct Case {
    const char* scene;
    const char* form;
    const char* kind;
  } cases[] = {
      {R"({"version":1,"shapes":[{"type":"sphere","radius":0.5,"position":[0.9,0.2,0]},)"
       R"({"type":"box","halfExtents":[1,1,1]}],"query":"penetration"})",
       "point-box", "face-b"},
      {R"({"version":1,"shapes":[{"type":"box","halfExtents":[1,1,1]},)"
       R"({"type":"box","halfExtents":[0.5,0.5,0.5],"position":[1.25,0.25,0]}],"query":"penetration"})",
       "box-box", "face-a"},
      {R"({"version":1,"shapes":[{"type":"box","halfExtents":[1,1,1]},)"
       R"({"type":"box","halfExtents":[0.5,0.5,0.5],"position":[3,0,0]}],"query":"intersect"})",
       "box-box", "face-a"},
  };
  for (const Case& c : cases) {
    collidoscope::Scene s;
    collidoscope::SceneError err;
    ASSERT_TRUE(collidoscope::parseScene(c.scene, &s, &err)) << err.message;
    std::string traced;
    ASSERT_TRUE(collidoscope::runScene(s, true, &traced, &err)) << err.message;
    collidoscope::JsonValue t;
    std::string why;
    ASSERT_TRUE(collidoscope::parseJson(traced, &t, &why)) << why;
    ASSERT_NE(t.find("closedForm"), nullptr) << traced;
    EXPECT_EQ(t.find("closedForm")->string, c.form);
    ASSERT_EQ(t.find("frames")->items.size(), 1u);
    EXPECT_EQ(t.find("frames")->items[0].find("axisKind")->string, c.kind) << traced;
  }
  // A box–box distance is not a closed form: GJK's frames.
  collidoscope::Scene s;
  collidoscope::SceneError err;
  ASSERT_TRUE(collidoscope::parseScene(R"({"version":1,"shapes":[{"type":"box","halfExtents":[1,1,1]},)"
                                       R"({"type":"box","halfExtents":[1,1,1],"position":[3,0,0]}],"query":"distance"})",
                                       &s, &err));
  std::string traced;
  ASSERT_TRUE(collidoscope::runScene(s, true, &traced, &err));
  EXPECT_EQ(traced.find("closedForm"), std::string::npos);
}

}  // namespace

namespace {

// "closedForms": false runs the general algorithms on a pair that has a
// closed form (the gallery's GJK and EPA lessons on boxes); the answers
// agree, the trace shows the steps, and the key is written back.
TEST(ClosedForm, SceneKeyClosedFormsFalseRunsTheGeneralAlgorithms) {
  const std::string base = R"({"version":1,"shapes":[{"type":"box","halfExtents":[1,1,1]},)"
                           R"({"type":"box","halfExtents":[0.5,0.5,0.5],"position":[1.25,0.25,0]}],"query":"penetration")";
  collidoscope::Scene on, off;
  collidoscope::SceneError err;
  ASSERT_TRUE(collidoscope::parseScene(base + "}", &on, &err)) << err.message;
  ASSERT_TRUE(collidoscope::parseScene(base + R"(,"closedForms":false})", &off, &err)) << err.message;
  EXPECT_TRUE(on.closedForms);
  EXPECT_FALSE(off.closedForms);
  std::string a, b;
  ASSERT_TRUE(collidoscope::runScene(on, true, &a, &err));
  ASSERT_TRUE(collidoscope::runScene(off, true, &b, &err));
  EXPECT_NE(a.find("\"closedForm\":\"box-box\""), std::string::npos) << a;
  EXPECT_EQ(b.find("closedForm"), std::string::npos) << b;
  collidoscope::JsonValue ja, jb;
  std::string why;
  ASSERT_TRUE(collidoscope::parseJson(a, &ja, &why));
  ASSERT_TRUE(collidoscope::parseJson(b, &jb, &why));
  EXPECT_GT(jb.find("frames")->items.size(), 1u);
  EXPECT_NEAR(ja.find("result")->find("depth")->number, 0.25, 1e-15);
  EXPECT_NEAR(jb.find("result")->find("depth")->number, 0.25, 1e-12);
  EXPECT_NE(collidoscope::sceneToJson(off).find("\"closedForms\":false"), std::string::npos);
  EXPECT_EQ(collidoscope::sceneToJson(on).find("closedForms"), std::string::npos);
  // Not a boolean: named.
  EXPECT_FALSE(collidoscope::parseScene(base + R"(,"closedForms":0})", &off, &err));
  EXPECT_EQ(err.field, "closedForms");
  EXPECT_NE(err.message.find("true or false"), std::string::npos) << err.message;
}

}  // namespace

namespace {

// A 2D scene's boxes are flat (z half-extent 0): the frame's axis is an
// in-plane one (the nearest side of the rectangle, or a side normal of the
// two rectangles), while the answers are those of the 3D twin.
TEST(ClosedForm, PlanarBoxFramesUseTheInPlaneAxes) {
  const char* scenes[] = {
      R"({"version":1,"dimension":2,"query":"distance","shapes":[{"type":"circle","radius":0.3,"position":[0.5,0.2]},)"
      R"({"type":"box","halfExtents":[1,1]}]})",
      R"({"version":1,"dimension":2,"query":"intersect","shapes":[{"type":"box","halfExtents":[1,1]},)"
      R"({"type":"box","halfExtents":[0.5,0.5],"position":[1.2,0.3],"angle":0.4}]})",
  };
  for (const char* text : scenes) {
    collidoscope::Scene s;
    collidoscope::SceneError err;
    ASSERT_TRUE(collidoscope::parseScene(text, &s, &err)) << err.message;
    std::string traced;
    ASSERT_TRUE(collidoscope::runScene(s, true, &traced, &err)) << err.message;
    collidoscope::JsonValue t;
    std::string why;
    ASSERT_TRUE(collidoscope::parseJson(traced, &t, &why)) << why;
    const collidoscope::JsonValue& f = t.find("frames")->items[0];
    ASSERT_EQ(f.find("axis")->items.size(), 2u) << traced;
    EXPECT_NEAR(std::hypot(f.find("axis")->items[0].number, f.find("axis")->items[1].number), 1, 1e-15) << traced;
    const collidoscope::JsonValue* feature = f.find(f.find("axisKind")->string == "face-a" ? "featureA" : "featureB");
    EXPECT_LT(feature->number, 2) << traced;
  }
}

}  // namespace
