// Polytope distance against brute force over all feature pairs.
//
// For separated conv(P), conv(Q), the distance equals the minimum over every
// triangle of P × every triangle of Q of the triangle–triangle distance,
// which for disjoint triangles is the minimum over the 9 edge pairs and 6
// vertex–triangle pairs (ref::hullHullDistanceBrute). Pairs are separated
// by construction: Q is shifted along a random unit u until
// min_Q u·q = max_P u·p + gap, so the distance is at least `gap` (and the
// brute force, valid only for disjoint hulls, applies).
//
// Tolerance: polytopal cores make GJK terminate exactly, so the promise is
// the general one, 1e-9 of the scene scale.
#include <gtest/gtest.h>

#include "gjk_helpers.h"
#include "reference.h"

namespace {

using namespace testutil;
using ref::Rng;

constexpr double kRel = 1e-9;

struct Pair {
  std::vector<Vec3> P, Q;
};

// P and Q of 4..8 points each, Q shifted along u so the slab between them
// along u has width `gap`.
Pair separatedPair(Rng& rng, double gap, double spread) {
  Pair pr;
  pr.P.resize(static_cast<std::size_t>(rng.integer(4, 8)));
  pr.Q.resize(static_cast<std::size_t>(rng.integer(4, 8)));
  const Vec3 cp = rng.inCube(spread), cq = rng.inCube(spread);
  for (Vec3& p : pr.P) p = cp + rng.inBall(rng.uniform(0.2, 2));
  for (Vec3& q : pr.Q) q = cq + rng.inBall(rng.uniform(0.2, 2));
  const Vec3 u = rng.direction();
  double maxP = -1e300, minQ = 1e300;
  for (const Vec3& p : pr.P) maxP = std::max(maxP, ref::dot3(u, p));
  for (const Vec3& q : pr.Q) minQ = std::min(minQ, ref::dot3(u, q));
  const Vec3 shift = u * (maxP + gap - minQ);
  for (Vec3& q : pr.Q) q = q + shift;
  return pr;
}

double pointsScale(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double s = 0;
  for (const Vec3& p : a) s = std::max(s, ref::maxAbs3(p));
  for (const Vec3& p : b) s = std::max(s, ref::maxAbs3(p));
  return s;
}

void checkPair(const Pair& pr, double gap, Rng& rng) {
  const Shape A = Shape::polytope(pr.P);
  const Shape B = Shape::polytope(pr.Q);
  const double scale = pointsScale(pr.P, pr.Q);
  const double tol = kRel * scale;
  const double expected = ref::hullHullDistanceBrute(pr.P, pr.Q);
  ASSERT_GE(expected, gap * (1 - 1e-12) - 1e-15) << "construction error in the test";
  const DistanceResult r = distance(A, B);
  SCOPED_TRACE(describe(A) + " vs " + describe(B));
  ASSERT_TRUE(statusOk(r.status)) << collidoscope::gjkStatusName(r.status);
  EXPECT_NEAR(r.distance, expected, tol);
  EXPECT_NEAR(ref::dist(r.pointA, r.pointB), r.distance, tol);
  EXPECT_TRUE(insideShape(r.pointA, A, tol, rng));
  EXPECT_TRUE(insideShape(r.pointB, B, tol, rng));
  const IntersectResult ir = intersect(A, B);
  if (expected > tol) {
    EXPECT_FALSE(ir.intersecting);
  }
}

TEST(PolytopeBruteForce, SeparatedRandomHulls) {
  Rng rng(201);
  for (int i = 0; i < 2000; ++i) {
    const double gap = rng.logUniform(1e-3, 3);
    checkPair(separatedPair(rng, gap, 3), gap, rng);
  }
}

TEST(PolytopeBruteForce, NearTouchingRandomHulls) {
  Rng rng(202);
  for (int i = 0; i < 1000; ++i) {
    const double gap = rng.logUniform(1e-8, 1e-4);
    checkPair(separatedPair(rng, gap, 2), gap, rng);
  }
}

TEST(PolytopeBruteForce, FlatAndCollinearPointSets) {
  Rng rng(203);
  for (int i = 0; i < 300; ++i) {
    Pair pr;
    const int n = rng.integer(4, 8), m = rng.integer(4, 8);
    // P coplanar (z = 0), Q collinear along a random line, with duplicates.
    for (int k = 0; k < n; ++k) pr.P.push_back({rng.uniform(-1, 1), rng.uniform(-1, 1), 0});
    const Vec3 o = rng.inCube(1), d = rng.direction();
    for (int k = 0; k < m; ++k) pr.Q.push_back(o + d * rng.uniform(-1, 1));
    pr.Q.push_back(pr.Q[0]);
    pr.P.push_back(pr.P[1]);
    const Vec3 u = rng.direction();
    double maxP = -1e300, minQ = 1e300;
    for (const Vec3& p : pr.P) maxP = std::max(maxP, ref::dot3(u, p));
    for (const Vec3& q : pr.Q) minQ = std::min(minQ, ref::dot3(u, q));
    const double gap = rng.logUniform(1e-6, 1);
    for (Vec3& q : pr.Q) q = q + u * (maxP + gap - minQ);
    checkPair(pr, gap, rng);
  }
}

TEST(PolytopeBruteForce, RotatedBoxesAgainstTheirCorners) {
  // Box shapes (with rotation handled by the library) against polytopes of
  // their corners computed with our own rotation matrix and brute force.
  Rng rng(204);
  for (int i = 0; i < 300; ++i) {
    Shape a = Shape::box({rng.uniform(0.1, 2), rng.uniform(0.1, 2), rng.uniform(0.1, 2)});
    Shape b = Shape::box({rng.uniform(0.1, 2), rng.uniform(0.1, 2), rng.uniform(0.1, 2)});
    a.at({0, 0, 0}, rng.rotation());
    b.at({0, 0, 0}, rng.rotation());
    const Vec3 u = rng.direction();
    const double gap = rng.logUniform(1e-6, 2);
    const double t = ref::supportValue(a, u) + ref::supportValue(b, u * -1.0) + gap;
    const Vec3 pa = rng.inCube(3);
    a.at(pa, a.pose.rotation);
    b.at(pa + u * t, b.pose.rotation);
    auto corners = [](const Shape& s) {
      std::vector<Vec3> c;
      for (int k = 0; k < 8; ++k)
        c.push_back(ref::toWorld(s, {(k & 1) ? s.halfExtents.x : -s.halfExtents.x,
                                     (k & 2) ? s.halfExtents.y : -s.halfExtents.y,
                                     (k & 4) ? s.halfExtents.z : -s.halfExtents.z}));
      return c;
    };
    const double expected = ref::hullHullDistanceBrute(corners(a), corners(b));
    const DistanceResult r = distance(a, b);
    SCOPED_TRACE(describe(a) + " vs " + describe(b));
    ASSERT_TRUE(statusOk(r.status));
    EXPECT_NEAR(r.distance, expected, kRel * ref::sceneScale(a, b));
    EXPECT_NEAR(ref::pointBoxDistance(r.pointA, a), 0, kRel * ref::sceneScale(a, b));
    EXPECT_NEAR(ref::pointBoxDistance(r.pointB, b), 0, kRel * ref::sceneScale(a, b));
  }
}

TEST(PolytopeBruteForce, RoundedPolytopesSubtractMargins) {
  Rng rng(205);
  for (int i = 0; i < 200; ++i) {
    const double gap = rng.logUniform(1e-3, 2);
    const Pair pr = separatedPair(rng, gap, 3);
    const double ma = rng.uniform(0, 0.5), mb = rng.uniform(0, 0.5);
    const Shape A = Shape::polytope(pr.P).withMargin(ma);
    const Shape B = Shape::polytope(pr.Q).withMargin(mb);
    const double expected = std::max(0.0, ref::hullHullDistanceBrute(pr.P, pr.Q) - ma - mb);
    const DistanceResult r = distance(A, B);
    ASSERT_TRUE(statusOk(r.status));
    EXPECT_NEAR(r.distance, expected, kRel * (pointsScale(pr.P, pr.Q) + 1)) << describe(A) << " vs " << describe(B);
    if (expected == 0 && ref::hullHullDistanceBrute(pr.P, pr.Q) < ma + mb - 1e-9) {
      EXPECT_TRUE(intersect(A, B).intersecting) << describe(A) << " vs " << describe(B);
    }
  }
}

}  // namespace
