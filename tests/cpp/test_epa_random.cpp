// EPA on random pairs, against references that share nothing with it
// (epa_reference.h):
//   * polytopal cores (point, sphere, box, capsule, segment, triangle,
//     polytope, any with a margin): brute-force SAT over a superset of the
//     facet normals of core(A) − core(B), plus the radii — exact up to
//     rounding; 10 000 pairs.
//   * pairs with a curved core (cylinder, cone, ellipsoid): the numeric
//     minimum of f(n) = h_A(n) + h_B(−n) over the sphere from closed-form
//     support values — an upper bound that tests/validation put within
//     ~1e-14·scale of the exact SAT answer on polytopes; 1 000 pairs.
// Plus properties: depth ≥ 0 and finite, unit normal, pointA − pointB =
// depth·normal, the normal achieves the depth, points are the support points,
// symmetry A↔B, agreement with gjkIntersect, separated pairs answered with
// GJK's closest points; max-iterations never on polytopal pairs and rarely
// (≤ 0.5%, answer a lower bound within 1e-4·scale) on curved ones.
//
// Tolerances (scale = largest coordinate of the scene, ref::sceneScale):
//   polytopal depth: 2e-10·scale + 1e-9·depth. EPA stops when the gap n·w − d
//     ≤ max(1e-10·d, 1e-10·S) with S ≤ scale (contract), and d ≤ truth ≤
//     n·w, so its error is at most 1e-10·scale plus rounding; the relative
//     term is the "1e-9 relative".
//   everything else that compares the library with itself or with support
//     values (the normal achieves the depth, points on the shapes, pointA −
//     pointB = depth·normal): 1e-9·scale, the design's accuracy promise.
//   curved: the library's value may not exceed the reference's best
//     direction value by more than 1e-9·scale (it would then have stopped at
//     a worse direction than one we found); the reference may exceed the
//     library's value by at most 1e-7·scale (how far our numeric search may
//     lag; measured lag ~1e-14·scale, so 1e-7 is generous, and a miss there
//     is flagged as a reference problem, not a library one).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "epa_reference.h"

namespace {

using collidoscope::EpaStatus;
using collidoscope::PenetrationResult;
using collidoscope::PosedShape;
using collidoscope::Shape;
using collidoscope::ShapeType;
using collidoscope::Vec3;
using epacheck::pen;
using epacheck::repro;
using ref::Rng;

// Collects failures by category, prints the first few of each with a
// repro, and fails the test once per category with the count.
struct Failures {
  std::map<std::string, int> count;
  void add(const std::string& what, const std::string& detail) {
    if (++count[what] <= 3) ADD_FAILURE() << what << detail;
  }
  void check(bool ok, const std::string& what, const std::string& detail) {
    if (!ok) add(what, detail);
  }
  void report(int total) {
    for (const auto& c : count) ADD_FAILURE() << c.first << ": " << c.second << " of " << total << " pairs";
  }
};

Shape scaled(Shape s, double k, const Vec3& offset) {
  s.radius *= k;
  s.halfHeight *= k;
  s.halfExtents = s.halfExtents * k;
  s.radii = s.radii * k;
  for (Vec3& p : s.points) p = p * k;
  s.margin *= k;
  s.pose.position = s.pose.position * k + offset;
  return s;
}

// A random pair, B placed so that about 3/4 of pairs overlap; 10% of scenes
// scaled by 1e-3..1e3, 5% moved ~1e4 from the origin.
void randomPair(Rng& rng, const std::vector<ShapeType>& typesA, const std::vector<ShapeType>& typesB, Shape* a,
                Shape* b) {
  *a = ref::randomShape(rng, typesA[static_cast<std::size_t>(rng.integer(0, static_cast<int>(typesA.size()) - 1))],
                        rng.uniform(0.2, 2));
  *b = ref::randomShape(rng, typesB[static_cast<std::size_t>(rng.integer(0, static_cast<int>(typesB.size()) - 1))],
                        rng.uniform(0.2, 2));
  if (rng.integer(0, 4) == 0) a->withMargin(rng.uniform(0, 0.3));
  if (rng.integer(0, 9) == 0) b->withMargin(rng.uniform(0, 0.3));
  a->at(rng.inCube(1), rng.rotation());
  const double reach = ref::boundingRadius(*a) + ref::boundingRadius(*b);
  b->at(a->pose.position + rng.direction() * (reach * rng.uniform(0, 0.8)), rng.rotation());
  const int kind = rng.integer(0, 19);
  if (kind < 2) {
    const double k = rng.logUniform(1e-3, 1e3);
    *a = scaled(*a, k, {});
    *b = scaled(*b, k, {});
  } else if (kind == 2) {
    const Vec3 off = rng.inCube(1e4);
    *a = scaled(*a, 1, off);
    *b = scaled(*b, 1, off);
  }
}

// Checks one pair against a reference whose value is min_n f(n) (the depth
// when positive, −distance when negative). `refExact`: the SAT reference
// (exact; compare the depth directly, and the normal when unique);
// otherwise the numeric upper bound (one-sided comparisons, see above).
struct PairChecker {
  Failures fails;
  int overlapping = 0, separated = 0, degenerate = 0, capped = 0, total = 0;
  // The worst |depth − reference| of the uncertified (max-iterations)
  // answers, relative to the scene's scale: README's known limit.
  double worstCapped = 0;
  Rng rng{99};

  // Runs the checks on (a, b); with checkSymmetry also on (b, a) — the
  // reference value is the same, its normal reversed — and compares the two.
  void run(const Shape& a, const Shape& b, const eparef::Reference& rf, bool refExact, bool checkSymmetry) {
    const PenetrationResult r = one(a, b, rf, refExact);
    if (!checkSymmetry) return;
    eparef::Reference swapped = rf;
    swapped.normal = rf.normal * -1.0;
    const PenetrationResult s = one(b, a, swapped, refExact);
    const double scale = ref::sceneScale(a, b);
    const double depthTol = 2e-10 * scale + 1e-9 * std::fabs(rf.value);
    const std::string rp = repro(a, b, r) + "\n  swapped: depth " + std::to_string(s.depth) + " normal " +
                           testutil::str(s.normal) + " status " + collidoscope::epaStatusName(s.status);
    fails.check(r.intersecting == s.intersecting, "intersecting(A,B) ≠ intersecting(B,A)", rp);
    if (certified(r) && certified(s) && r.intersecting && s.intersecting) {
      fails.check(std::fabs(s.depth - r.depth) <= 2 * depthTol + (refExact ? 0 : 2e-9 * scale),
                  "depth(A,B) ≠ depth(B,A)", rp);
      if (refExact && rf.uniqueNormal && rf.value > depthTol)
        fails.check(ref::dist(s.normal, r.normal * -1.0) <= 2e-6, "normal(B,A) ≠ −normal(A,B)", rp);
    }
  }

  static bool certified(const PenetrationResult& r) {
    return r.status == EpaStatus::Converged || r.status == EpaStatus::Touching;
  }

  PenetrationResult one(const Shape& a, const Shape& b, const eparef::Reference& rf, bool refExact) {
    ++total;
    const double scale = ref::sceneScale(a, b);
    const double tol = 1e-9 * scale;
    const double depthTol = 2e-10 * scale + 1e-9 * std::fabs(rf.value);
    const PenetrationResult r = pen(a, b);
    const std::string rp = repro(a, b, r) + "\n  reference value " + std::to_string(rf.value);
    auto wf = epacheck::wellFormed(r, tol);
    fails.check(bool(wf), "malformed result", wf.message() + rp);
    if (r.status == EpaStatus::MaxIterations) {
      // EPA's known limit: where the depth is nearly the same over a whole
      // circle of directions (a point near a cylinder's axis or the centre
      // of a near-spherical ellipsoid) its polytope fills up and the normal
      // is refined on the support function; the answer, h at that normal,
      // is then uncertified. Allowed only on curved pairs, rarely (see the
      // counts below), and within 1e-9·scale of the reference either way
      // (both are values of h; worst seen 2.7e-14 of the scale, where the
      // nearest face reported before the refinement was 5.4e-6 short).
      ++capped;
      worstCapped = std::fmax(worstCapped, std::fabs(rf.value - r.depth) / scale);
      fails.check(!refExact, "max-iterations on a polytopal pair", rp);
      fails.check(std::fabs(rf.value - r.depth) <= tol, "max-iterations answer off by > 1e-9·scale", rp);
    }
    if (r.status == EpaStatus::Degenerate) ++degenerate;

    const double D = ref::dist(r.pointA, r.pointB);
    const double fLib = eparef::overlapAlong(a, b, r.normal);
    const bool clearlyIn = rf.value > (refExact ? depthTol : 1e-7 * scale + depthTol);
    const bool clearlyOut = refExact ? rf.value < -depthTol : (!r.intersecting && fLib < -tol);

    if (clearlyIn) {
      ++overlapping;
      fails.check(r.intersecting, "overlapping pair reported apart", rp);
      fails.check(testutil::intersect(a, b).intersecting, "gjkIntersect disagrees (overlap)", rp);
      if (certified(r) && r.intersecting) {
        auto c = epacheck::normalAndPointsConsistent(a, b, r, tol, rng);
        fails.check(bool(c), "normal/points inconsistent", c.message() + rp);
        if (refExact) {
          fails.check(std::fabs(r.depth - rf.value) <= depthTol, "depth differs from SAT",
                      " diff " + std::to_string(r.depth - rf.value) + rp);
          if (rf.uniqueNormal)
            fails.check(ref::dist(r.normal, rf.normal) <= 1e-6, "normal differs from the unique SAT axis",
                        " ref normal " + testutil::str(rf.normal) + rp);
        } else {
          fails.check(r.depth <= rf.value + tol, "depth above the reference's best direction",
                      " excess " + std::to_string(r.depth - rf.value) + rp);
          fails.check(rf.value <= r.depth + 1e-7 * scale, "REFERENCE lags the library by > 1e-7·scale",
                      " lag " + std::to_string(rf.value - r.depth) + rp);
        }
      }
    } else if (clearlyOut) {
      ++separated;
      fails.check(!r.intersecting && r.depth == 0, "separated pair reported intersecting", rp);
      fails.check(!testutil::intersect(a, b).intersecting, "gjkIntersect disagrees (apart)", rp);
      if (!r.intersecting) {
        const collidoscope::DistanceResult g = testutil::distance(a, b);
        fails.check(ref::dist(r.pointA, g.pointA) <= tol && ref::dist(r.pointB, g.pointB) <= tol,
                    "separated: points are not GJK's closest points", rp);
        fails.check(D > 0 && ref::dist(r.normal, (r.pointB - r.pointA) / D) <= 1e-9 * scale / D + 1e-12,
                    "separated: normal is not (pointB − pointA)/distance", rp);
        // f(n) ≈ −D certifies the separation along n; nothing separates more.
        fails.check(std::fabs(fLib + D) <= tol, "separated: normal does not achieve the distance",
                    " f(n) = " + std::to_string(fLib) + rp);
        fails.check(rf.value >= -D - tol, "separated: distance below the reference distance",
                    " ref " + std::to_string(rf.value) + rp);
      }
    }
    return r;
  }
};

TEST(EpaRandom, PolytopalPairsMatchBruteForceSat) {
  const std::vector<ShapeType> types = {ShapeType::Point,   ShapeType::Sphere,   ShapeType::Box,     ShapeType::Capsule,
                                        ShapeType::Segment, ShapeType::Triangle, ShapeType::Polytope};
  const std::vector<ShapeType> solid = {ShapeType::Box, ShapeType::Polytope, ShapeType::Box, ShapeType::Sphere,
                                        ShapeType::Capsule};
  Rng rng(20240611);
  PairChecker pc;
  // 13 000 pairs give ~8 300 overlapping ones; with the curved test's
  // ~1 750 that is the "at least 10 000 random overlapping pairs".
  for (int i = 0; i < 13000; ++i) {
    Shape a, b;
    // Half the pairs box/polytope against anything, half fully mixed.
    randomPair(rng, i % 2 ? types : solid, types, &a, &b);
    const double scale = ref::sceneScale(a, b);
    const eparef::Reference rf = eparef::satDepth(a, b, 4e-10 * scale);
    pc.run(a, b, rf, true, i % 4 == 0);
  }
  pc.fails.report(pc.total);
  std::printf("[ polytopal ] %d pairs: %d overlapping, %d separated, %d degenerate\n", pc.total, pc.overlapping,
              pc.separated, pc.degenerate);
  EXPECT_GE(pc.overlapping, 8250);
  EXPECT_GT(pc.separated, 800);
  // Degenerate is an honest answer, but not for random, well-posed pairs.
  EXPECT_LE(pc.degenerate, pc.total / 200);
  EXPECT_EQ(pc.capped, 0);
}

TEST(EpaRandom, CurvedPairsMatchNumericSupportMinimum) {
  const std::vector<ShapeType> curved = {ShapeType::Cylinder, ShapeType::Cone, ShapeType::Ellipsoid};
  std::vector<ShapeType> all(std::begin(ref::kAllTypes), std::end(ref::kAllTypes));
  Rng rng(777);
  PairChecker pc;
  for (int i = 0; i < 2000; ++i) {
    Shape a, b;
    if (i % 2)
      randomPair(rng, curved, all, &a, &b);
    else
      randomPair(rng, all, curved, &a, &b);
    const eparef::Reference rf = eparef::numericDepth(a, b);
    pc.run(a, b, rf, false, i % 4 == 0);
  }
  pc.fails.report(pc.total);
  std::printf("[ curved ] %d pairs: %d overlapping, %d separated, %d degenerate, %d max-iterations (worst %.2g of "
              "the scale)\n",
              pc.total, pc.overlapping, pc.separated, pc.degenerate, pc.capped, pc.worstCapped);
  EXPECT_GE(pc.overlapping, 1750);
  EXPECT_LE(pc.degenerate, pc.total / 100);
  EXPECT_LE(pc.capped, pc.total / 200);
}

}  // namespace
