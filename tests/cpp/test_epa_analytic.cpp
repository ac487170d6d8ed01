// EPA against closed forms: sphere–sphere, sphere–box (centre outside and
// inside), capsule–capsule, face-to-face box stacks over a sweep of
// overlaps from gaps through exact touching to deep overlap, and inputs
// that are degenerate (flat differences, zero sizes) — never NaN, never a
// wrong answer reported as converged. Plus the settings: a tiny iteration
// cap must say max-iterations, and a looser tolerance must still bound the
// error it promises.
//
// Tolerances: depth 2e-10·scale + 1e-9·depth (EPA's stopping rule,
// contract) unless the case is exact by construction (said where used);
// points and "normal achieves depth" 1e-9·scale (design promise).
#include <gtest/gtest.h>

#include "epa_reference.h"

namespace {

using collidoscope::EpaSettings;
using collidoscope::EpaStatus;
using collidoscope::GjkSettings;
using collidoscope::PenetrationResult;
using collidoscope::PosedShape;
using collidoscope::Quat;
using collidoscope::Shape;
using collidoscope::Vec3;
using epacheck::pen;
using epacheck::repro;
using ref::Rng;

bool certified(const PenetrationResult& r) {
  return r.status == EpaStatus::Converged || r.status == EpaStatus::Touching;
}

TEST(EpaAnalytic, SphereSphere) {
  Rng rng(1);
  for (int i = 0; i < 1000; ++i) {
    Shape a = Shape::sphere(rng.uniform(0.1, 2)), b = Shape::sphere(rng.uniform(0.1, 2));
    a.at(rng.inCube(3));
    const double sum = a.radius + b.radius;
    const Vec3 dir = rng.direction();
    b.at(a.pose.position + dir * (sum * rng.uniform(0.01, 0.999)));
    const double scale = ref::sceneScale(a, b);
    const Vec3 c = b.pose.position - a.pose.position;
    const double expected = sum - ref::norm(c);
    const Vec3 n = ref::unit(c);
    const PenetrationResult r = pen(a, b);
    const std::string rp = repro(a, b, r);
    ASSERT_TRUE(epacheck::wellFormed(r, 1e-9 * scale)) << rp;
    EXPECT_TRUE(r.intersecting) << rp;
    EXPECT_TRUE(certified(r)) << rp;
    // Exact: point cores, the depth is r_A + r_B − |c| with a few roundings.
    EXPECT_NEAR(r.depth, expected, 1e-12 * scale) << rp;
    EXPECT_LE(ref::dist(r.normal, n), 1e-9 * scale / ref::norm(c)) << rp;
    EXPECT_LE(ref::dist(r.pointA, a.pose.position + n * a.radius), 1e-9 * scale) << rp;
    EXPECT_LE(ref::dist(r.pointB, b.pose.position - n * b.radius), 1e-9 * scale) << rp;
  }
  // Concentric: depth r_A + r_B in every direction; the normal is any unit vector.
  Shape a = Shape::sphere(1), b = Shape::sphere(0.5);
  a.at({1, 2, 3});
  b.at({1, 2, 3});
  const PenetrationResult r = pen(a, b);
  EXPECT_TRUE(epacheck::wellFormed(r, 1e-12)) << repro(a, b, r);
  EXPECT_EQ(r.depth, 1.5) << repro(a, b, r);
  EXPECT_TRUE(certified(r));
}

TEST(EpaAnalytic, SphereBoxCentreOutsideAndInside) {
  Rng rng(2);
  int inside = 0, outside = 0;
  for (int i = 0; i < 2000; ++i) {
    Shape box = Shape::box({rng.uniform(0.2, 2), rng.uniform(0.2, 2), rng.uniform(0.2, 2)});
    box.at(rng.inCube(2), rng.rotation());
    Shape s = Shape::sphere(rng.uniform(0.05, 1.5));
    const Vec3 h = box.halfExtents;
    const Vec3 local{rng.uniform(-1.5, 1.5) * h.x, rng.uniform(-1.5, 1.5) * h.y, rng.uniform(-1.5, 1.5) * h.z};
    s.at(ref::toWorld(box, local));
    const double scale = ref::sceneScale(box, s);
    const Vec3 l = ref::toLocal(box, s.pose.position);
    const Vec3 cl{std::clamp(l.x, -h.x, h.x), std::clamp(l.y, -h.y, h.y), std::clamp(l.z, -h.z, h.z)};
    const double d = ref::norm(l - cl);
    double expected;
    Vec3 normal;
    bool unique = true;
    if (d > 0) {  // centre outside: r − dist(centre, box), along closest point → centre
      expected = s.radius - d;
      normal = ref::unit(s.pose.position - ref::toWorld(box, cl));
      if (expected <= 1e-6 * scale) continue;
      ++outside;
    } else {  // centre inside: r + distance to the nearest face, through that face
      const double faces[6] = {h.x - l.x, h.x + l.x, h.y - l.y, h.y + l.y, h.z - l.z, h.z + l.z};
      const Vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
      int k = 0;
      for (int j = 1; j < 6; ++j)
        if (faces[j] < faces[k]) k = j;
      for (int j = 0; j < 6; ++j)
        if (j != k && faces[j] < faces[k] + 1e-6 * scale) unique = false;
      expected = s.radius + faces[k];
      normal = ref::matrixOf(box.pose.rotation).mul(axes[k]);
      ++inside;
    }
    const PenetrationResult r = pen(box, s);
    const std::string rp = repro(box, s, r);
    ASSERT_TRUE(epacheck::wellFormed(r, 1e-9 * scale)) << rp;
    EXPECT_TRUE(r.intersecting) << rp;
    EXPECT_TRUE(certified(r)) << rp;
    EXPECT_NEAR(r.depth, expected, 2e-10 * scale + 1e-9 * expected) << rp;
    if (unique) {
      EXPECT_LE(ref::dist(r.normal, normal), 1e-6) << rp;
    }
    EXPECT_NEAR(eparef::overlapAlong(box, s, r.normal), r.depth, 1e-9 * scale) << rp;
  }
  EXPECT_GT(inside, 300);
  EXPECT_GT(outside, 300);
}

TEST(EpaAnalytic, CapsuleCapsule) {
  // Core segments that miss each other: depth r_A + r_B − segment distance.
  Rng rng(3);
  int n = 0;
  for (int i = 0; i < 1000; ++i) {
    Shape a = Shape::capsule(rng.uniform(0.1, 1), rng.uniform(0.1, 2));
    Shape b = Shape::capsule(rng.uniform(0.1, 1), rng.uniform(0.1, 2));
    a.at(rng.inCube(1), rng.rotation());
    b.at(a.pose.position + rng.inBall(a.radius + b.radius), rng.rotation());
    const Vec3 a0 = ref::toWorld(a, {0, a.halfHeight, 0}), a1 = ref::toWorld(a, {0, -a.halfHeight, 0});
    const Vec3 b0 = ref::toWorld(b, {0, b.halfHeight, 0}), b1 = ref::toWorld(b, {0, -b.halfHeight, 0});
    Vec3 pa, pb;
    const double d = ref::segmentSegmentDistance(a0, a1, b0, b1, &pa, &pb);
    const double scale = ref::sceneScale(a, b);
    const double expected = a.radius + b.radius - d;
    if (d < 1e-6 * scale || expected < 1e-6 * scale) continue;
    ++n;
    const PenetrationResult r = pen(a, b);
    const std::string rp = repro(a, b, r);
    ASSERT_TRUE(epacheck::wellFormed(r, 1e-9 * scale)) << rp;
    EXPECT_TRUE(certified(r)) << rp;
    EXPECT_NEAR(r.depth, expected, 2e-10 * scale + 1e-9 * expected) << rp;
    EXPECT_LE(ref::dist(r.normal, (pb - pa) / d), 1e-9 * scale / d) << rp;
  }
  EXPECT_GT(n, 400);
}

TEST(EpaAnalytic, BoxStacksFromGapThroughTouchingToOverlap) {
  // Face-to-face, axis-aligned, along each of the six directions: B's face
  // at A's face ∓ s. Exact in doubles (A − B is an axis-aligned box whose
  // vertex differences are exact; a face normal of it is exactly an axis),
  // so overlaps as small as 1e-15 must come out exactly.
  const double overlaps[] = {-1e-3, -1e-9, -1e-15, 0, 1e-15, 1e-12, 1e-9, 1e-6, 1e-3, 1e-2, 0.3};
  const Vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (const Vec3& ax : axes)
    for (double s : overlaps) {
      Shape a = Shape::box({1, 1, 1}), b = Shape::box({0.5, 0.5, 0.5});
      // B's centre: 1.5 − s along the axis, offset 0.25/−0.125 across it.
      const Vec3 across = ax.x != 0 ? Vec3{0, 0.25, -0.125} : (ax.y != 0 ? Vec3{0.25, 0, -0.125} : Vec3{0.25, -0.125, 0});
      const double c = 1.5 - s;
      b.at(ax * c + across);
      const double exactOverlap = 1.5 - c;  // c is rounded; this is exact
      const PenetrationResult r = pen(a, b);
      const std::string rp = repro(a, b, r) + " overlap " + std::to_string(s);
      ASSERT_TRUE(epacheck::wellFormed(r, 1e-12)) << rp;
      EXPECT_LE(ref::dist(r.normal, ax), 1e-15) << "normal must be the face normal" << rp;
      if (std::fabs(exactOverlap) < 1e-14 && r.status == EpaStatus::Touching) {
        // Within rounding of touching (contract: "overlap by at most
        // rounding, ~1e-15·scale"): touching is a right answer on either side.
        EXPECT_TRUE(r.intersecting) << rp;
        EXPECT_EQ(r.depth, 0.0) << rp;
      } else if (exactOverlap > 0) {
        EXPECT_TRUE(r.intersecting) << rp;
        EXPECT_EQ(r.status, EpaStatus::Converged) << rp;
        EXPECT_NEAR(r.depth, exactOverlap, 4e-16) << rp;
      } else if (exactOverlap == 0) {
        EXPECT_TRUE(r.intersecting) << rp;
        EXPECT_EQ(r.status, EpaStatus::Touching) << rp;
        EXPECT_EQ(r.depth, 0.0) << rp;
      } else {
        EXPECT_FALSE(r.intersecting) << rp;
        EXPECT_EQ(r.depth, 0.0) << rp;
        EXPECT_NEAR(ref::dist(r.pointA, r.pointB), -exactOverlap, 4e-16) << rp;
      }
    }
}

TEST(EpaAnalytic, DegenerateInputsNeverGiveNaN) {
  // Flat or empty differences: the answer is "touching" or a depth made of
  // radii alone; always finite, unit normal, never converged-and-wrong.
  struct Case {
    Shape a, b;
    double depth;  // expected depth
  };
  std::vector<Case> cases;
  cases.push_back({Shape::point(), Shape::point(), 0});
  cases.push_back({Shape::box({0, 0, 0}), Shape::box({0, 0, 0}), 0});
  cases.push_back({Shape::sphere(0), Shape::box({1, 1, 1}).at({0.5, 0, 0}), 0.5});  // a point inside: to the +x face
  {
    // Two coplanar triangles overlapping: A − B is flat, the origin on it.
    Shape t1 = Shape::triangle({0, 0, 0}, {2, 0, 0}, {0, 2, 0});
    Shape t2 = Shape::triangle({0.5, 0.5, 0}, {3, 0.5, 0}, {0.5, 3, 0});
    cases.push_back({t1, t2, 0});
    cases.push_back({t1.withMargin(0.25), t2, 0.25});
  }
  cases.push_back({Shape::segment({-1, 0, 0}, {1, 0, 0}), Shape::segment({0, -1, 0}, {0, 1, 0}), 0});
  cases.push_back({Shape::segment({-1, 0, 0}, {1, 0, 0}), Shape::segment({-0.5, 0, 0}, {2, 0, 0}), 0});
  cases.push_back({Shape::box({1, 1, 0}), Shape::box({1, 1, 0}).at({0.5, 0.5, 0}), 0});  // flat boxes in a plane
  cases.push_back({Shape::capsule(0.5, 1), Shape::capsule(0.25, 1).at({0, 0.5, 0}), 0.75});  // collinear cores
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const PenetrationResult r = pen(c.a, c.b);
    const std::string rp = repro(c.a, c.b, r) + " case " + std::to_string(i);
    EXPECT_TRUE(epacheck::wellFormed(r, 1e-12)) << rp;
    EXPECT_TRUE(r.intersecting) << rp;
    if (certified(r)) {
      EXPECT_NEAR(r.depth, c.depth, 1e-12) << rp;
      EXPECT_NEAR(eparef::overlapAlong(c.a, c.b, r.normal), c.depth, 1e-12) << "normal must achieve the depth" << rp;
    }
    if (c.depth == 0 && certified(r)) {
      EXPECT_EQ(r.status, EpaStatus::Touching) << rp;
    }
  }
}

TEST(EpaAnalytic, SettingsAreHonoured) {
  // A cone against an ellipsoid needs many iterations for 1e-10.
  Shape a = Shape::cone(1, 1);
  Shape b = Shape::ellipsoid({0.7, 0.4, 0.9});
  const double qn = std::sqrt(0.01 + 0.04 + 0.09 + 0.927 * 0.927);  // the C++ API takes unit quaternions
  b.at({0.3, 0.4, 0.2}, Quat{0.1 / qn, 0.2 / qn, 0.3 / qn, 0.927 / qn});
  const eparef::Reference rf = eparef::numericDepth(a, b);
  const double scale = ref::sceneScale(a, b);
  ASSERT_GT(rf.value, 0.1);
  const PenetrationResult exact = pen(a, b);
  ASSERT_TRUE(certified(exact)) << repro(a, b, exact);
  EXPECT_NEAR(exact.depth, rf.value, 1e-9 * scale);

  EpaSettings capped;
  capped.maxIterations = 2;
  const PenetrationResult c = collidoscope::penetration(PosedShape(a), PosedShape(b), GjkSettings{}, capped);
  EXPECT_TRUE(epacheck::wellFormed(c, 1e-9 * scale)) << repro(a, b, c);
  EXPECT_LE(c.iterations, 2);
  EXPECT_EQ(c.status, EpaStatus::MaxIterations) << repro(a, b, c);
  // The estimate of a capped run is the nearest face: a lower bound.
  EXPECT_LE(c.depth, rf.value + 1e-9 * scale);

  EpaSettings loose;
  loose.relativeTolerance = 1e-4;
  loose.absoluteTolerance = 1e-4;
  const PenetrationResult l = collidoscope::penetration(PosedShape(a), PosedShape(b), GjkSettings{}, loose);
  EXPECT_EQ(l.status, EpaStatus::Converged) << repro(a, b, l);
  EXPECT_LE(l.iterations, exact.iterations);
  // Certified: the error is at most max(1e-4·depth, 1e-4·S), S ≤ scale.
  EXPECT_NEAR(l.depth, rf.value, 1e-4 * scale + 1e-9 * scale) << repro(a, b, l);
  EXPECT_NEAR(eparef::overlapAlong(a, b, l.normal), l.depth, 1e-4 * scale + 1e-9 * scale);
}

}  // namespace
