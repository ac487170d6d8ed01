// GJK distance against closed-form references (reference.h).
//
// Tolerance: the library promises distances and closest points within
// ~1e-9 of the scene scale (largest coordinate) with default settings.
// Polytopal cores terminate exactly, curved cores stop at a relative error of
// 1e-10 of the distance; so every comparison below uses kRel·scale with
// kRel = 1e-9 (scale = largest |coordinate| of the scene, see
// ref::sceneScale). The references themselves are accurate to a few ulps of
// the scale, far inside that.
#include <gtest/gtest.h>

#include "gjk_helpers.h"
#include "reference.h"

namespace {

using namespace testutil;
using ref::Rng;

constexpr double kRel = 1e-9;

TEST(Analytic, SphereSphereDistanceAndPoints) {
  Rng rng(101);
  for (int i = 0; i < 400; ++i) {
    Shape a = Shape::sphere(rng.uniform(0.05, 3));
    Shape b = Shape::sphere(rng.uniform(0.05, 3));
    a.at(rng.inCube(10), rng.rotation());
    b.at(rng.inCube(10), rng.rotation());
    const Vec3 ca = a.pose.position, cb = b.pose.position;
    const double centre = ref::dist(ca, cb);
    const double expected = std::max(0.0, centre - a.radius - b.radius);
    const double tol = kRel * ref::sceneScale(a, b);
    const DistanceResult r = distance(a, b);
    SCOPED_TRACE(describe(a) + " vs " + describe(b));
    ASSERT_TRUE(statusOk(r.status));
    EXPECT_NEAR(r.distance, expected, tol);
    if (expected > tol) {
      const Vec3 n = (cb - ca) / centre;
      EXPECT_NEAR(ref::dist(r.pointA, ca + n * a.radius), 0, tol);
      EXPECT_NEAR(ref::dist(r.pointB, cb - n * b.radius), 0, tol);
    } else if (centre < a.radius + b.radius - tol) {
      EXPECT_EQ(r.distance, 0.0) << "overlapping spheres must report exactly 0";
    }
  }
}

TEST(Analytic, PointBoxRotated) {
  Rng rng(102);
  for (int i = 0; i < 500; ++i) {
    Shape box = Shape::box({rng.uniform(0.01, 3), rng.uniform(0.01, 3), rng.uniform(0.01, 3)});
    box.at(rng.inCube(5), rng.rotation());
    Shape p = Shape::point();
    p.at(box.pose.position + rng.inBall(8));
    const double expected = ref::pointBoxDistance(p.pose.position, box);
    const double tol = kRel * ref::sceneScale(p, box);
    SCOPED_TRACE(describe(p) + " vs " + describe(box));
    const DistanceResult r = distance(p, box);
    ASSERT_TRUE(statusOk(r.status));
    EXPECT_NEAR(r.distance, expected, tol);
    EXPECT_NEAR(ref::dist(r.pointA, p.pose.position), 0, tol);
    EXPECT_NEAR(ref::pointBoxDistance(r.pointB, box), 0, tol) << "pointB must lie on the box";
    EXPECT_NEAR(ref::dist(r.pointA, r.pointB), r.distance, tol);
  }
}

TEST(Analytic, SphereBoxRotated) {
  Rng rng(103);
  for (int i = 0; i < 500; ++i) {
    Shape box = Shape::box({rng.uniform(0.01, 3), rng.uniform(0.01, 3), rng.uniform(0.01, 3)});
    box.at(rng.inCube(5), rng.rotation());
    Shape s = Shape::sphere(rng.uniform(0.01, 2));
    s.at(box.pose.position + rng.inBall(8), rng.rotation());
    const double expected = std::max(0.0, ref::pointBoxDistance(s.pose.position, box) - s.radius);
    const double tol = kRel * ref::sceneScale(s, box);
    SCOPED_TRACE(describe(s) + " vs " + describe(box));
    for (int order = 0; order < 2; ++order) {
      const DistanceResult r = order == 0 ? distance(s, box) : distance(box, s);
      ASSERT_TRUE(statusOk(r.status));
      EXPECT_NEAR(r.distance, expected, tol);
      if (expected > tol) {
        const Vec3 onSphere = order == 0 ? r.pointA : r.pointB;
        const Vec3 onBox = order == 0 ? r.pointB : r.pointA;
        EXPECT_NEAR(ref::dist(onSphere, s.pose.position), s.radius, tol);
        EXPECT_NEAR(ref::pointBoxDistance(onBox, box), 0, tol);
      }
    }
  }
}

TEST(Analytic, CapsuleCapsuleViaSegmentSegment) {
  Rng rng(104);
  for (int i = 0; i < 600; ++i) {
    Shape a = Shape::capsule(rng.uniform(0.01, 1), rng.uniform(0, 3));
    Shape b = Shape::capsule(rng.uniform(0.01, 1), rng.uniform(0, 3));
    a.at(rng.inCube(4), rng.rotation());
    // Every fourth pair is exactly parallel (same rotation), the case that
    // breaks naive segment-segment formulas.
    b.at(rng.inCube(4), i % 4 == 0 ? a.pose.rotation : rng.rotation());
    const Vec3 a0 = ref::toWorld(a, {0, a.halfHeight, 0}), a1 = ref::toWorld(a, {0, -a.halfHeight, 0});
    const Vec3 b0 = ref::toWorld(b, {0, b.halfHeight, 0}), b1 = ref::toWorld(b, {0, -b.halfHeight, 0});
    const double core = ref::segmentSegmentDistance(a0, a1, b0, b1);
    const double expected = std::max(0.0, core - a.radius - b.radius);
    const double tol = kRel * ref::sceneScale(a, b);
    SCOPED_TRACE(describe(a) + " vs " + describe(b));
    const DistanceResult r = distance(a, b);
    ASSERT_TRUE(statusOk(r.status));
    EXPECT_NEAR(r.distance, expected, tol);
    if (expected > tol) {
      EXPECT_NEAR(ref::pointSegmentDistance(r.pointA, a0, a1), a.radius, tol);
      EXPECT_NEAR(ref::pointSegmentDistance(r.pointB, b0, b1), b.radius, tol);
    }
  }
}

TEST(Analytic, ParallelCapsulesSideBySide) {
  // Two vertical capsules, overlapping in height, 3 apart: core distance 3.
  for (double offset : {0.0, 0.5, 1.9, 2.0, 2.1, 5.0}) {
    Shape a = Shape::capsule(0.5, 1.0);
    Shape b = Shape::capsule(0.25, 1.0);
    b.at({3, offset, 0});
    const double gapY = std::max(0.0, offset - 2.0);
    const double expected = std::hypot(3.0, gapY) - 0.75;
    const DistanceResult r = distance(a, b);
    EXPECT_TRUE(statusOk(r.status));
    EXPECT_NEAR(r.distance, expected, 1e-9 * 7) << "offset " << offset;
  }
}

TEST(Analytic, SegmentSegmentShapes) {
  Rng rng(105);
  for (int i = 0; i < 600; ++i) {
    const Vec3 p0 = rng.inCube(3), p1 = (i % 5 == 0) ? p0 + Vec3{1, 2, 3} * rng.uniform(0.1, 1) : rng.inCube(3);
    const Vec3 shift = rng.inCube(2);
    // i % 5 == 0: parallel (or anti-parallel) segments.
    const Vec3 q0 = (i % 5 == 0) ? p0 + shift : rng.inCube(3);
    const Vec3 q1 = (i % 5 == 0) ? q0 + Vec3{1, 2, 3} * rng.uniform(-1, 1) : rng.inCube(3);
    const Shape a = Shape::segment(p0, p1), b = Shape::segment(q0, q1);
    const double expected = ref::segmentSegmentDistance(p0, p1, q0, q1);
    const double tol = kRel * ref::sceneScale(a, b);
    SCOPED_TRACE(describe(a) + " vs " + describe(b));
    const DistanceResult r = distance(a, b);
    ASSERT_TRUE(statusOk(r.status));
    EXPECT_NEAR(r.distance, expected, tol);
    EXPECT_NEAR(ref::pointSegmentDistance(r.pointA, p0, p1), 0, tol);
    EXPECT_NEAR(ref::pointSegmentDistance(r.pointB, q0, q1), 0, tol);
  }
}

TEST(Analytic, PointTriangle) {
  Rng rng(106);
  for (int i = 0; i < 800; ++i) {
    const Vec3 a = rng.inCube(3), b = rng.inCube(3), c = rng.inCube(3);
    Shape tri = Shape::triangle(a, b, c);
    Shape p = Shape::point();
    // Points near the plane and far from it, inside and outside the prism.
    const Vec3 n = ref::unit(ref::cross3(b - a, c - a));
    p.at((a + b + c) / 3 + rng.inBall(4) + n * (i % 3 == 0 ? 0.0 : rng.uniform(-2, 2)));
    const Vec3 pp = p.pose.position;
    const double expected = ref::pointTriangleDistance(pp, a, b, c);
    const double tol = kRel * ref::sceneScale(p, tri);
    SCOPED_TRACE(describe(p) + " vs " + describe(tri));
    const DistanceResult r = distance(tri, p);
    ASSERT_TRUE(statusOk(r.status));
    EXPECT_NEAR(r.distance, expected, tol);
    EXPECT_NEAR(ref::dist(r.pointA, ref::closestOnTriangle(pp, a, b, c)), 0, tol * 10);
  }
}

TEST(Analytic, PointTriangleReferenceAgreesWithDenseGrid) {
  // Guards the reference itself: region-based closest point vs a fine
  // barycentric grid plus the three edges sampled densely.
  Rng rng(107);
  for (int i = 0; i < 20; ++i) {
    const Vec3 a = rng.inCube(1), b = rng.inCube(1), c = rng.inCube(1), p = rng.inCube(2);
    double best = 1e300;
    const int n = 300;
    for (int u = 0; u <= n; ++u)
      for (int v = 0; u + v <= n; ++v) {
        const double s = double(u) / n, t = double(v) / n;
        best = std::min(best, ref::dist(p, a + (b - a) * s + (c - a) * t));
      }
    const double exact = ref::pointTriangleDistance(p, a, b, c);
    EXPECT_LE(exact, best + 1e-12);
    EXPECT_NEAR(exact, best, 2e-2);  // grid spacing ~ 1/300 of the edge length
  }
}

TEST(Analytic, MarginRoundsAnyShape) {
  Rng rng(108);
  for (int i = 0; i < 300; ++i) {
    const double m = rng.uniform(0.01, 0.5);
    Shape box = Shape::box({rng.uniform(0.1, 2), rng.uniform(0.1, 2), rng.uniform(0.1, 2)}).withMargin(m);
    box.at(rng.inCube(3), rng.rotation());
    Shape p = Shape::point();
    p.at(box.pose.position + rng.inBall(6));
    const double tol = kRel * ref::sceneScale(box, p);
    SCOPED_TRACE(describe(p) + " vs " + describe(box));
    const double expected = std::max(0.0, ref::pointBoxDistance(p.pose.position, box) - m);
    const DistanceResult r = distance(p, box);
    ASSERT_TRUE(statusOk(r.status));
    EXPECT_NEAR(r.distance, expected, tol);
    if (expected > tol) {
      EXPECT_NEAR(ref::pointBoxDistance(r.pointB, box), m, tol);
    }

    // A sphere with a margin is a sphere of radius r + margin; a triangle
    // with a margin against it subtracts both.
    const Vec3 ta = rng.inCube(2), tb = rng.inCube(2), tc = rng.inCube(2);
    const double tm = rng.uniform(0, 0.3);
    Shape tri = Shape::triangle(ta, tb, tc).withMargin(tm);
    Shape s = Shape::sphere(rng.uniform(0.05, 0.5)).withMargin(rng.uniform(0, 0.2));
    s.at(rng.inCube(4));
    const double exp2 =
        std::max(0.0, ref::pointTriangleDistance(s.pose.position, ta, tb, tc) - tm - s.radius - s.margin);
    const DistanceResult r2 = distance(s, tri);
    ASSERT_TRUE(statusOk(r2.status));
    EXPECT_NEAR(r2.distance, exp2, kRel * ref::sceneScale(s, tri)) << describe(s) << " vs " << describe(tri);
  }
}

TEST(Analytic, PointCylinderCurvedCore) {
  Rng rng(109);
  for (int i = 0; i < 300; ++i) {
    Shape cyl = Shape::cylinder(rng.uniform(0.1, 2), rng.uniform(0.1, 2)).withMargin(i % 3 == 0 ? 0.1 : 0.0);
    cyl.at(rng.inCube(3), rng.rotation());
    Shape p = Shape::point();
    p.at(cyl.pose.position + rng.inBall(6));
    const double expected = std::max(0.0, ref::pointCylinderDistance(p.pose.position, cyl) - cyl.margin);
    const double tol = kRel * ref::sceneScale(cyl, p);
    SCOPED_TRACE(describe(p) + " vs " + describe(cyl));
    const DistanceResult r = distance(p, cyl);
    ASSERT_TRUE(statusOk(r.status));
    EXPECT_NEAR(r.distance, expected, tol);
  }
}

TEST(Analytic, PointConeCurvedCore) {
  Rng rng(110);
  for (int i = 0; i < 300; ++i) {
    Shape cone = Shape::cone(rng.uniform(0.1, 2), rng.uniform(0.1, 2));
    cone.at(rng.inCube(3), rng.rotation());
    Shape p = Shape::point();
    p.at(cone.pose.position + rng.inBall(6));
    const double expected = ref::pointConeDistance(p.pose.position, cone);
    const double tol = kRel * ref::sceneScale(cone, p);
    SCOPED_TRACE(describe(p) + " vs " + describe(cone));
    const DistanceResult r = distance(cone, p);
    ASSERT_TRUE(statusOk(r.status));
    EXPECT_NEAR(r.distance, expected, tol);
  }
}

TEST(Analytic, PointEllipsoidCurvedCore) {
  Rng rng(111);
  for (int i = 0; i < 300; ++i) {
    Shape e = Shape::ellipsoid({rng.uniform(0.1, 2), rng.uniform(0.1, 2), rng.uniform(0.1, 2)});
    e.at(rng.inCube(3), rng.rotation());
    Shape p = Shape::point();
    p.at(e.pose.position + rng.inBall(6));
    const double expected = ref::pointEllipsoidDistance(p.pose.position, e);
    const double tol = kRel * ref::sceneScale(e, p);
    SCOPED_TRACE(describe(p) + " vs " + describe(e));
    const DistanceResult r = distance(p, e);
    ASSERT_TRUE(statusOk(r.status));
    EXPECT_NEAR(r.distance, expected, tol);
  }
}

TEST(Analytic, SphereEllipsoidWithEqualRadiiIsSphere) {
  Rng rng(112);
  for (int i = 0; i < 200; ++i) {
    const double rr = rng.uniform(0.1, 2);
    Shape e = Shape::ellipsoid({rr, rr, rr});
    e.at(rng.inCube(3), rng.rotation());
    Shape s = Shape::sphere(rng.uniform(0.1, 1));
    s.at(rng.inCube(5));
    const double expected = std::max(0.0, ref::dist(e.pose.position, s.pose.position) - rr - s.radius);
    const DistanceResult r = distance(e, s);
    ASSERT_TRUE(statusOk(r.status));
    EXPECT_NEAR(r.distance, expected, kRel * ref::sceneScale(e, s)) << describe(e) << " vs " << describe(s);
  }
}

}  // namespace
