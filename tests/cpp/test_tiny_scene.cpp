// The tiny-scene rescue (tiny_scene.h) with shape types of the caller's
// own, which the algorithms accept beside PosedShape: a ball given only by
// its support mapping. A scene of such balls below 2^-400 runs magnified
// (the caller's type wrapped in ScaledShape, PosedShape magnified as
// itself, in either order), and every query answers what the same scene at
// unit size answers, times the power of two, which the closed forms of two
// balls check independently.
#include <gtest/gtest.h>

#include <cmath>

#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/raycast.h"
#include "collidoscope/shapes.h"
#include "collidoscope/support.h"

namespace {

using collidoscope::PosedShape;
using collidoscope::Shape;
using collidoscope::Vec3;

// A ball as a caller might write one: no Shape, no scaled().
struct Ball {
  Vec3 c;
  double r;
  Vec3 support(const Vec3& d) const {
    const double n = collidoscope::length(d);
    return n > 0 ? c + d * (r / n) : c;
  }
  double radius() const { return 0; }
  Vec3 center() const { return c; }
};

constexpr double kTiny = 0x1p-1000;  // a power of two: the scene scales exactly

// The distance between balls (ca, ra) and (cb, rb) by the closed form.
double ballDistance(const Vec3& ca, double ra, const Vec3& cb, double rb) {
  return std::fmax(0.0, collidoscope::length(cb - ca) - ra - rb);
}

TEST(TinyScene, CallerShapeTypesRunMagnified) {
  const Vec3 ca{0.25, -0.5, 0.125}, cb{1.5, 0.75, -0.25};
  const double ra = 0.5, rb = 0.25;
  const Ball a{ca * kTiny, ra * kTiny};
  const Ball b{cb * kTiny, rb * kTiny};
  const double expected = ballDistance(ca, ra, cb, rb) * kTiny;

  const auto d = collidoscope::gjkDistance(a, b);
  EXPECT_NEAR(d.distance, expected, 1e-9 * kTiny);
  EXPECT_GT(d.distance, 0.5 * expected);  // not underflowed to touching
  EXPECT_FALSE(collidoscope::gjkIntersect(a, b).intersecting);
  EXPECT_FALSE(collidoscope::penetration(a, b).intersecting);

  // The caller's type against a PosedShape sphere, in both orders.
  const Shape sphere = Shape::sphere(rb * kTiny).at(cb * kTiny);
  const auto ab = collidoscope::gjkDistance(a, PosedShape(sphere));
  const auto ba = collidoscope::gjkDistance(PosedShape(sphere), a);
  EXPECT_NEAR(ab.distance, expected, 1e-9 * kTiny);
  EXPECT_NEAR(ba.distance, expected, 1e-9 * kTiny);
  EXPECT_FALSE(collidoscope::gjkIntersect(a, PosedShape(sphere)).intersecting);
  EXPECT_FALSE(collidoscope::gjkIntersect(PosedShape(sphere), a).intersecting);

  // Overlapping: the depth is the closed form's overlap.
  const Vec3 cd = ca + Vec3{0.5, 0, 0};
  const Ball deep{cd * kTiny, rb * kTiny};
  const double overlap = (ra + rb - collidoscope::length(cd - ca)) * kTiny;
  ASSERT_GT(overlap, 0);
  const auto pen = collidoscope::penetration(a, deep);
  EXPECT_TRUE(pen.intersecting);
  EXPECT_NEAR(pen.depth, overlap, 1e-9 * kTiny);
  EXPECT_TRUE(collidoscope::gjkIntersect(a, deep).intersecting);

  // A ray along x through a's centre hits its surface at x = c.x − r; a
  // shape cast of b towards a stops where the gap closes.
  const Vec3 origin = Vec3{-2, ca.y, ca.z} * kTiny;
  const auto ray = collidoscope::gjkRayCast(a, origin, Vec3{1, 0, 0} * kTiny, 10.0);
  ASSERT_TRUE(ray.hit);
  EXPECT_NEAR(ray.point.x, (ca.x - ra) * kTiny, 1e-9 * kTiny);
  EXPECT_NEAR(ray.t, (ca.x - ra) + 2, 1e-9);
  const Vec3 towards = (ca - cb) * kTiny;
  const auto cast = collidoscope::gjkShapeCast(a, PosedShape(sphere), Vec3{}, towards);
  ASSERT_TRUE(cast.hit);
  EXPECT_NEAR(cast.t, ballDistance(ca, ra, cb, rb) / collidoscope::length(ca - cb), 1e-9);
}

}  // namespace
