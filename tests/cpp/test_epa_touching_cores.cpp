// EPA on rounded shapes whose cores touch: GJK can leave such cores apart
// by a length within its tolerance of zero, where v's direction is rounding
// noise and no normal (epa.h, coresTouchWithinTolerance). The depth is then
// the sum of the radii and the normal must be one along which the shapes
// overlap by that much:
//   * the pair fuzz_pair found (a triangle whose corner is the centre of a
//     flat ellipsoid with a margin): the cores meet in one point, so the
//     depth is the margin, 8, exactly; the normal is checked on closed-form
//     support values;
//   * the family: random triangles and polytopes against flat ellipsoids
//     (one radius 0, margins 0–10), touching the disk at its centre or
//     elsewhere, crossing it, or a hair off it, against the numeric minimum
//     of the support function (epa_reference.h), an upper bound that shares
//     nothing with EPA.
// Certified answers (converged, touching) must be right to 1e-9 of the
// scale, the accuracy the package documents.
#include <gtest/gtest.h>

#include <cstdio>

#include "epa_reference.h"

namespace {

using collidoscope::EpaStatus;
using collidoscope::PenetrationResult;
using collidoscope::Quat;
using collidoscope::Shape;
using collidoscope::Vec3;
using epacheck::pen;
using epacheck::repro;
using ref::Rng;

// Found by fuzz_pair (seed 2): GJK stalled with ‖v‖ = 3.9e-7 on three rim
// points of the disk 6.7e5 out, v along the disk's normal but on the side
// the triangle does not reach, and EPA took r − ‖v‖ along −v, certified:
// depth 8 where the shapes overlap by 18 along that normal.
TEST(EpaTouchingCores, TriangleCornerAtTheCentreOfAFlatEllipsoid) {
  const double d = 4.9406564584124654e-324;
  Shape a = Shape::polytope({{8, 8, 8}, {-8, -7, 8}, {8, 8, 8}, {8, 8, 8}, {-8, -7, 8}, {8, 8, 8}, {8, 8, 8},
                             {8, 8, 8}, {8, 8, 8}, {8, 8, -7}});
  a.at({d, d, d});
  Shape b = Shape::ellipsoid({0, 1e6, 8});
  b.margin = 8;
  b.at({8, 8, 8}, Quat{0.57735026918962584, 0.57735026918962584, 0.57735026918962584, 0});
  const PenetrationResult r = pen(a, b);
  const double tol = 1e-9 * ref::sceneScale(a, b);
  const std::string rp = repro(a, b, r);
  // The triangle's corner (8, 8, 8) is the disk's centre and its other
  // corners lie on one side of the disk's plane (heights 10/3 − 8 and
  // −2 − 8 along its normal (−1, 2, 2)/3): the cores touch in that one
  // point, so the depth is the margin.
  EXPECT_TRUE(r.intersecting) << rp;
  EXPECT_NEAR(r.depth, 8.0, tol) << rp;
  EXPECT_TRUE(r.status == EpaStatus::Converged) << rp;
  EXPECT_NEAR(eparef::overlapAlong(a, b, r.normal), r.depth, tol) << rp;
  EXPECT_TRUE(epacheck::wellFormed(r, tol)) << rp;
}

// Found by fuzz_pair (seed 3): a polytope of collinear points, a segment
// along y 2e6 long, in the plane that touches an ellipsoid of radii
// (1, 1e6, 1e6) at the bottom of its rim (relative z = −1e6): the two
// meet in that one point, so the depth is 0, and a normal must be one
// along which they overlap by no more than that (+z; along the
// ellipsoid's short axis x they overlap by 1). GJK finds the cores
// overlapping; EPA's polytope held a face through the origin with normal
// +x from its seed, never expanded, and the answer was moved onto it
// (its triangle holds its foot): status touching along +x.
TEST(EpaTouchingCores, ALongSegmentTouchingAnEllipsoidsRim) {
  std::vector<Vec3> pts;
  for (int k = 0; k < 61; ++k) pts.push_back({1.4286933626883796e-101, -983048 + 32768.0 * k, -8});
  Shape a = Shape::polytope(pts);
  a.at({-8, 1, -1000000});
  Shape b = Shape::ellipsoid({1, 1e6, 1e6});
  b.at({-8, 3, -8});
  const PenetrationResult r = pen(a, b);
  const double tol = 1e-9 * ref::sceneScale(a, b);
  const std::string rp = repro(a, b, r);
  EXPECT_TRUE(r.intersecting) << rp;
  EXPECT_LE(r.depth, tol) << rp;
  EXPECT_NEAR(eparef::overlapAlong(a, b, r.normal), r.depth, tol) << rp;
  EXPECT_TRUE(epacheck::wellFormed(r, tol)) << rp;
}

struct Tally {
  int total = 0, certified = 0;
  double worst = 0;  // |f(normal) − depth| or |depth − reference|, of the scale
  ~Tally() {
    std::printf("[touching cores] %d pairs, %d certified, worst error %.2g of the scale\n", total, certified, worst);
  }
};

// A flat ellipsoid (one radius 0, which one at random) touched, crossed or
// nearly touched by a triangle or a small polytope.
TEST(EpaTouchingCores, PolytopesAgainstFlatEllipsoids) {
  Rng rng(20);
  Tally t;
  for (int i = 0; i < 400; ++i) {
    Vec3 radii{rng.logUniform(1, 1e6), rng.logUniform(1, 1e6), 0};
    const int flatAxis = rng.integer(0, 2);
    if (flatAxis == 0) radii = {0, radii.x, radii.y};
    if (flatAxis == 1) radii = {radii.x, 0, radii.y};
    Shape b = Shape::ellipsoid(radii);
    b.margin = i % 4 == 0 ? 0.0 : rng.uniform(0.5, 10);
    b.at(rng.inCube(10), rng.rotation());
    const ref::Mat3 m = ref::matrixOf(b.pose.rotation);
    const Vec3 up = m.mul(flatAxis == 0 ? Vec3{1, 0, 0} : flatAxis == 1 ? Vec3{0, 1, 0} : Vec3{0, 0, 1});
    // A point of the disk: its centre, or one inside its rim.
    Vec3 local{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)};
    local = {local.x * radii.x, local.y * radii.y, local.z * radii.z};
    const double rim = std::sqrt((radii.x > 0 ? local.x * local.x / (radii.x * radii.x) : 0) +
                                 (radii.y > 0 ? local.y * local.y / (radii.y * radii.y) : 0) +
                                 (radii.z > 0 ? local.z * local.z / (radii.z * radii.z) : 0));
    if (rim > 0.9) local = local * (0.9 / rim);
    const Vec3 onDisk = i % 3 == 0 ? b.pose.position : ref::toWorld(b, local);
    // The corner on the disk (or 1e-9..1e-6 of the size off it); the
    // others on one side of its plane (the cores touch), or either side
    // (they cross).
    const int mode = rng.integer(0, 2);
    const double size = rng.logUniform(1, 100);
    const double off = mode == 2 ? rng.logUniform(1e-9, 1e-6) * size * (rng.integer(0, 1) ? 1 : -1) : 0.0;
    std::vector<Vec3> pts{onDisk + up * off};
    const int count = rng.integer(0, 1) ? 3 : rng.integer(4, 8);
    const double side = rng.integer(0, 1) ? 1.0 : -1.0;
    for (int k = 1; k < count; ++k) {
      Vec3 p = rng.inCube(size);
      const double h = ref::dot3(p, up);
      if (mode != 1 && h * side < 0) p = p - up * (2 * h);  // mirrored onto the chosen side
      pts.push_back(onDisk + p);
    }
    Shape a = count == 3 ? Shape::triangle(pts[0], pts[1], pts[2]) : Shape::polytope(pts);
    a.margin = i % 5 == 0 ? rng.uniform(0.5, 10) : 0.0;
    const PenetrationResult r = pen(a, b);
    const double scale = ref::sceneScale(a, b), tol = 1e-9 * scale;
    const eparef::Reference rf = eparef::numericDepth(a, b);
    const std::string rp = repro(a, b, r) + "\n  reference " + std::to_string(rf.value);
    ++t.total;
    ASSERT_TRUE(epacheck::wellFormed(r, tol)) << rp;
    if (!r.intersecting) {
      // Cores apart by GJK's tolerance or less, no margins: they touch at most.
      EXPECT_LE(rf.value, tol) << rp;
      continue;
    }
    if (r.status != EpaStatus::Converged && r.status != EpaStatus::Touching) continue;
    ++t.certified;
    const double along = eparef::overlapAlong(a, b, r.normal);
    // f(normal) is an overlap, so no smaller than the depth; the reference
    // (an upper bound) may lag the true minimum by its own search error.
    EXPECT_NEAR(along, r.depth, tol) << "the normal does not achieve the depth" << rp;
    EXPECT_LE(r.depth, rf.value + tol) << rp;
    EXPECT_GE(r.depth, rf.value - 1e-7 * scale) << rp;
    t.worst = std::fmax(t.worst, std::fmax(std::fabs(along - r.depth), std::fmax(r.depth - rf.value, 0.0)) / scale);
  }
  EXPECT_GT(t.certified, t.total / 2);
}

}  // namespace
