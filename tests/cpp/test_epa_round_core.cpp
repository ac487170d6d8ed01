// EPA on round cores with a circle of (nearly) deepest directions — the
// pairs whose polytope fills up before it certifies the depth, and which
// the refinement of the best normal (epa.h, refineNormal) answers:
//   * a point near a cylinder's axis: the depth is the distance to the
//     nearest of the side and the caps, min(R − δ, H − |y|) (closed form);
//   * identical cylinders at one pose: A − B is the cylinder of radius 2R
//     and half-height 2H, so the depth is 2·min(R, H) (closed form);
//   * identical cones at one pose: the depth is the cone's least width,
//     min over directions of h(n) + h(−n); by the cone's symmetry that is
//     a function of the angle to the axis alone, minimised here by a dense
//     1D scan refined by golden sections (own closed-form support values);
//   * a point near the centre of a near-spherical ellipsoid: the numeric
//     minimum of the support function over the sphere (epa_reference.h,
//     gradient sampling from a 2 000-point grid), an upper bound;
//   * a needle inside a cone (up to a million wide, where the least of h
//     lies in a narrow curved valley along the cone's slant side): the
//     least of h over the directions the deepest one must be among (the
//     base's normal, and two circles, each by a dense 1D scan refined by
//     golden sections).
// Each asserts the depth within the documented accuracy (1e-9 of the
// scale), that the normal achieves the depth (f(n) = depth), that the
// points differ by depth·normal, and a status that is converged or
// max-iterations (the refined value uncertified; counted and printed).
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

struct Tally {
  const char* name;
  int total = 0, converged = 0, capped = 0;
  double worst = 0;        // |depth − reference| / scale
  double worstPoints = 0;  // |pointA − pointB − depth·normal| / scale
  ~Tally() {
    std::printf(
        "[round core] %s: %d pairs, %d converged, %d max-iterations, worst error %.2g of the scale, points off "
        "depth·normal by %.2g of it\n",
        name, total, converged, capped, worst, worstPoints);
  }
};

// The checks every case shares, against the case's reference depth.
void check(const Shape& a, const Shape& b, double expected, Tally* t) {
  const double scale = ref::sceneScale(a, b);
  const double tol = 1e-9 * scale;
  const PenetrationResult r = pen(a, b);
  const std::string rp = repro(a, b, r) + "\n  expected " + std::to_string(expected);
  ++t->total;
  t->converged += r.status == EpaStatus::Converged;
  t->capped += r.status == EpaStatus::MaxIterations;
  t->worst = std::fmax(t->worst, std::fabs(r.depth - expected) / scale);
  t->worstPoints = std::fmax(t->worstPoints, ref::dist(r.pointA - r.pointB, r.normal * r.depth) / scale);
  ASSERT_TRUE(epacheck::wellFormed(r, tol)) << rp;
  EXPECT_TRUE(r.intersecting) << rp;
  EXPECT_TRUE(r.status == EpaStatus::Converged || r.status == EpaStatus::MaxIterations) << rp;
  EXPECT_NEAR(r.depth, expected, tol) << rp;
  // The normal achieves the depth: A − B reaches exactly that far along it.
  EXPECT_NEAR(eparef::overlapAlong(a, b, r.normal), r.depth, tol) << rp;
  EXPECT_LE(ref::dist(r.pointA - r.pointB, r.normal * r.depth), tol) << rp;
}

TEST(EpaRoundCore, PointNearCylinderAxis) {
  Rng rng(2011);
  Tally t{"point near a cylinder's axis"};
  const double offsets[] = {0, 1e-12, 1e-9, 1e-7, 1e-5, 1e-4, 1e-3, 1e-2};
  for (int i = 0; i < 160; ++i) {
    const double R = rng.uniform(0.3, 2), H = R * rng.uniform(1.2, 3);
    Shape cyl = Shape::cylinder(R, H);
    cyl.at(rng.inCube(2), rng.rotation());
    const double delta = offsets[i % 8] * R, phi = rng.uniform(0, 2 * M_PI);
    // Inside, the side nearer than the caps: |y| < H − R.
    const double y = rng.uniform(-1, 1) * (H - R) * 0.9;
    Shape p = Shape::point();
    p.at(ref::toWorld(cyl, {delta * std::cos(phi), y, delta * std::sin(phi)}));
    check(cyl, p, std::fmin(R - delta, H - std::fabs(y)), &t);
    check(p, cyl, std::fmin(R - delta, H - std::fabs(y)), &t);
  }
  EXPECT_EQ(t.converged + t.capped, t.total);
}

TEST(EpaRoundCore, IdenticalCylindersAtOnePose) {
  Rng rng(2012);
  Tally t{"identical cylinders at one pose"};
  for (int i = 0; i < 60; ++i) {
    const double R = rng.uniform(0.2, 2), H = rng.uniform(0.2, 2);
    Shape a = Shape::cylinder(R, H);
    a.at(rng.inCube(2), rng.rotation());
    // h_{A−A}(n) = 2·h_A(n) about the centre: the least is 2·min(R, H).
    check(a, a, 2 * std::fmin(R, H), &t);
  }
}

// Half the width of a cone (apex at +H, base radius R at −H) across a
// direction at angle α to its axis, from the two candidate support points.
double coneWidth(double R, double H, double alpha) {
  const double c = std::cos(alpha), s = std::sin(alpha);
  const double up = std::fmax(H * c, -H * c + R * s);    // h(n), n = (s, c)
  const double down = std::fmax(-H * c, H * c + R * s);  // h(−n)
  return up + down;
}

double leastConeWidth(double R, double H) {
  const int kSteps = 200000;
  double best = 1e300;
  int at = 0;
  for (int k = 0; k <= kSteps; ++k) {
    const double w = coneWidth(R, H, M_PI * k / kSteps);
    if (w < best) {
      best = w;
      at = k;
    }
  }
  // Golden sections in the bracket around the best sample (the width is
  // unimodal there: piecewise a·cos α + b·sin α).
  double lo = M_PI * std::max(at - 1, 0) / kSteps, hi = M_PI * std::min(at + 1, kSteps) / kSteps;
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int it = 0; it < 200; ++it) {
    const double m1 = hi - g * (hi - lo), m2 = lo + g * (hi - lo);
    if (coneWidth(R, H, m1) < coneWidth(R, H, m2))
      hi = m2;
    else
      lo = m1;
  }
  return std::fmin(best, coneWidth(R, H, (lo + hi) / 2));
}

TEST(EpaRoundCore, IdenticalConesAtOnePose) {
  Rng rng(2013);
  Tally t{"identical cones at one pose"};
  for (int i = 0; i < 60; ++i) {
    const double R = rng.uniform(0.2, 2), H = rng.uniform(0.2, 2);
    Shape a = Shape::cone(R, H);
    a.at(rng.inCube(2), rng.rotation());
    check(a, a, leastConeWidth(R, H), &t);
  }
}

TEST(EpaRoundCore, PointNearEllipsoidCentre) {
  Rng rng(2014);
  Tally t{"point near a near-spherical ellipsoid's centre"};
  const double spreads[] = {1e-6, 1e-4, 1e-3, 1e-2};
  for (int i = 0; i < 40; ++i) {
    const double r = rng.uniform(0.3, 2), e = spreads[i % 4];
    Shape ell = Shape::ellipsoid({r, r * (1 + e), r * (1 + 2 * e)});
    ell.at(rng.inCube(2), rng.rotation());
    Shape p = Shape::point();
    p.at(ref::toWorld(ell, rng.direction() * (r * rng.uniform(0, 1e-3))));
    const eparef::Reference rf = eparef::numericDepth(ell, p);
    check(ell, p, rf.value, &t);
  }
}

// The depth of a segment (from e0 to e1) inside a cone, from the closed-form
// support values alone. C = cone − segment; the direction n* of its
// boundary point nearest the origin holds a face of C that is not a single
// point (the ball of radius depth about the origin lies in C and touches
// it there, which a ridge or vertex of C would not allow, and every smooth
// part of C's boundary is ruled), so either the cone's support at n* is not
// a point — n* is the base's normal or a normal of the slant side — or the
// segment's is: n* ⊥ the segment. The least of f(n) = h_A(n) + h_B(−n) over
// the base's normal, the circle of side normals and the great circle ⊥ the
// segment is therefore the depth (every f value bounds it from above).
double needleInConeDepth(const Shape& cone, const Shape& needle, const Vec3& e0, const Vec3& e1) {
  const double R = cone.radius, H = cone.halfHeight;
  const ref::Mat3 m = ref::matrixOf(cone.pose.rotation);
  auto f = [&](const Vec3& n) { return eparef::overlapAlong(cone, needle, n); };
  // Side normals: the slant from the apex (0, H, 0) to the rim (R, −H, 0)
  // has the outward normal (2H, R) in its half-plane.
  const double slant = std::hypot(2 * H, R);
  auto side = [&](double phi) {
    return f(m.mul(Vec3{2 * H * std::cos(phi) / slant, R / slant, 2 * H * std::sin(phi) / slant}));
  };
  const Vec3 along = (e1 - e0) / ref::norm(e1 - e0);
  const Vec3 pick = std::fabs(along.x) < 0.5 ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  const Vec3 u = ref::cross3(along, pick) / ref::norm(ref::cross3(along, pick)), v = ref::cross3(along, u);
  auto across = [&](double theta) { return f(u * std::cos(theta) + v * std::sin(theta)); };
  auto least = [](auto&& g) {
    const int kSteps = 400000;
    double best = 1e300;
    int at = 0;
    for (int k = 0; k < kSteps; ++k) {
      const double value = g(2 * M_PI * k / kSteps);
      if (value < best) {
        best = value;
        at = k;
      }
    }
    double lo = 2 * M_PI * (at - 1) / kSteps, hi = 2 * M_PI * (at + 1) / kSteps;
    const double gold = (std::sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 200; ++it) {
      const double m1 = hi - gold * (hi - lo), m2 = lo + gold * (hi - lo);
      if (g(m1) < g(m2))
        hi = m2;
      else
        lo = m1;
    }
    return std::fmin(best, g((lo + hi) / 2));
  };
  return std::fmin(f(m.mul(Vec3{0, -1, 0})), std::fmin(least(side), least(across)));
}

// Found by fuzz_pair: a cone 2e6 wide and a needle 16 long near its axis.
// EPA's polytope fills up (the chords of the rim are all about as near);
// the refinement's straight steps along the slant side's valley climbed
// its walls, so it stalled 0.7 rad from the deepest direction with h 8
// (5.8e-6 of the scale) above the depth, and points 3.5 off depth·normal.
TEST(EpaRoundCore, NeedleInsideAHugeCone) {
  Tally t{"needle inside a cone"};
  {
    Shape cone = Shape::cone(1e6, 1e6);
    cone.at({1, -8, -6}, Quat{0.57735026918962584, 0.57735026918962584, 5.7735026918962585e-307, 0.57735026918962584});
    Shape needle = Shape::cone(0, 8);
    needle.at({-8, -8, -8});
    const double expected = needleInConeDepth(cone, needle, {-8, -16, -8}, {-8, 0, -8});
    check(cone, needle, expected, &t);
    check(needle, cone, expected, &t);
  }
  // The same family at random poses and sizes, the needle near the cone's
  // centre (on its axis, 1e-5 of the size off).
  Rng rng(2015);
  const double sizes[] = {1, 1e3, 1e6};
  for (int i = 0; i < 12; ++i) {
    const double size = sizes[i % 3], R = size * rng.uniform(0.5, 2), H = size * rng.uniform(0.5, 2);
    Shape cone = Shape::cone(R, H);
    cone.at(rng.inCube(2 * size), rng.rotation());
    const Vec3 centre = ref::toWorld(cone, rng.inCube(1e-5 * size));
    const Vec3 half = rng.direction() * (size * rng.uniform(1e-6, 1e-5));
    const Vec3 e0 = centre - half, e1 = centre + half;
    const Shape needle = Shape::segment(e0, e1);
    const double expected = needleInConeDepth(cone, needle, e0, e1);
    check(cone, needle, expected, &t);
    check(needle, cone, expected, &t);
  }
  EXPECT_EQ(t.converged + t.capped, t.total);
}

// Found by fuzz_pair (seed 21): a cone (radius and half-height 8) inside a
// cylinder 2e6 wide and tall, both unrotated. Along +y the cone's apex
// reaches y = 1 and the cylinder's bottom cap lies at 5 − 1e6, so B must
// move 1 + 1e6 − 5 = 999996 up; along a horizontal u, 1e6 + 8 + u·(1, 0, 1)
// ≥ 1e6 + 8 − √2, and every tilted direction sees the cylinder's rim
// (h ≈ 1e6·(|cos| + |sin|)), so 999996 is the depth. The polytope filled
// up with chords of the side, its faces near ±y mixed the cone's apex and
// rim and sat 16 above the cap's depth, and the three starts (least h)
// all fell on the side: 1000006.59 along (−0.707, 0, −0.707).
TEST(EpaRoundCore, SmallConeInsideAHugeCylinder) {
  Tally t{"small shapes inside a huge cylinder"};
  {
    Shape cone = Shape::cone(8, 8);
    cone.at({-7, -7, -7});
    Shape cylinder = Shape::cylinder(1e6, 1e6);
    cylinder.at({-8, 5, -8});
    check(cone, cylinder, 999996, &t);
    check(cylinder, cone, 999996, &t);
  }
  {
    // The cone's top (y = 1) is 1e6 + 1 above the cylinder's bottom cap, nearer than the other cap (1e6 + 15)
    // or the side (1e6 + 8 + |(−5, 1)|): the faces near the cap screen above the side's for four steps.
    Shape cone = Shape::cone(8, 8);
    cone.at({-7, -7, 1});
    Shape cylinder = Shape::cylinder(1e6, 1e6);
    cylinder.at({-2, 0, -9e-12});
    check(cone, cylinder, 1000001, &t);
    check(cylinder, cone, 1000001, &t);
  }
  // The family: small cones, cylinders and ellipsoids near the centre of
  // a cylinder up to 2e6 wide, its cap nearer than its side or not,
  // against the numeric minimum of the support function (epa_reference.h,
  // which starts from the cylinder's axes among its grid).
  Rng rng(2016);
  for (int i = 0; i < 24; ++i) {
    const double R = rng.logUniform(1e3, 1e6), H = R * rng.uniform(0.8, 1.2);
    Shape cylinder = Shape::cylinder(R, H);
    cylinder.at(rng.inCube(10), i % 2 ? rng.rotation() : Quat{});
    const double size = rng.uniform(1, 16);
    Shape small = i % 3 == 0 ? Shape::cone(size, size * rng.uniform(0.5, 2))
                  : i % 3 == 1 ? Shape::cylinder(size, size * rng.uniform(0.5, 2))
                               : Shape::ellipsoid({size, size * rng.uniform(0.5, 2), size * rng.uniform(0.5, 2)});
    small.at(ref::toWorld(cylinder, rng.inCube(16)), i % 4 < 2 ? cylinder.pose.rotation : rng.rotation());
    const eparef::Reference rf = eparef::numericDepth(small, cylinder);
    check(small, cylinder, rf.value, &t);
  }
}

}  // namespace
