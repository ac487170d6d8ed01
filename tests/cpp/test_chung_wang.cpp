// Tests of the Chung–Wang separating-vector algorithm (chung_wang.h).
//
// References are independent of the code under test:
//  * separating axes are checked with reference.h's closed-form support
//    values h_S(u) (radii included): u separates A and B iff
//    h_A(u) + h_B(−u) < 0 (≤ 1e-12 of the scene scale allowed for the
//    reference's own rounding);
//  * intersection answers are compared with GJK's intersect (a different
//    algorithm) on 11 000 random pairs of all shape types, after excluding
//    pairs within 1e-6 of the scene scale of touching (signed distance from
//    gjkDistance / EPA's depth), which are counted;
//  * near touching, where GJK itself can stall (status degenerate), a
//    contact CW claims against GJK's distance is re-checked on its own: a
//    common point with closed-form point–shape distances, a set of
//    directions with the brute-force hull test below;
//  * the hemisphere sub-algorithm is compared with a brute force: unit
//    vectors fit in a closed hemisphere iff the origin is not in the
//    interior of their convex hull — decided by point-in-tetrahedron tests
//    over all 4-subsets and point–triangle distances over all 3-subsets,
//    with sets whose margin is within 1e-9 of the boundary skipped;
//  * the trace: a recorder run gives the NoTrace bits, and each frame's
//    support points, gap, reflection and plane projections match
//    closed-form recomputations.
// Iteration statistics (median, p99, max) of Chung–Wang and of GJK
// intersect on the same pairs are printed by the agreement and the
// near-touching tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "collidoscope/chung_wang.h"
#include "collidoscope/epa.h"
#include "gjk_helpers.h"
#include "reference.h"

namespace {

using collidoscope::ChungWangCache;
using collidoscope::ChungWangEvent;
using collidoscope::ChungWangFrame;
using collidoscope::ChungWangHemisphere;
using collidoscope::ChungWangRecorder;
using collidoscope::ChungWangResult;
using collidoscope::ChungWangSettings;
using collidoscope::ChungWangStatus;
using collidoscope::HemisphereCase;
using collidoscope::HemisphereLog;
using collidoscope::PosedShape;
using collidoscope::Quat;
using collidoscope::Shape;
using collidoscope::ShapeType;
using collidoscope::Vec3;
using ref::Rng;
using testutil::describe;
using testutil::str;

double originMargin(const std::vector<Vec3>& v);  // brute force, below

ChungWangResult cw(const Shape& a, const Shape& b, ChungWangCache* cache = nullptr) {
  return collidoscope::chungWangIntersect(PosedShape(a), PosedShape(b), ChungWangSettings{}, cache);
}

// h_A(u) + h_B(−u): negative iff u separates the full (rounded) shapes.
double overlapAlong(const Shape& a, const Shape& b, const Vec3& u) {
  return ref::supportValue(a, u) + ref::supportValue(b, u * -1.0);
}

bool isUnit(const Vec3& v) { return std::fabs(ref::norm(v) - 1) < 1e-12; }

// The axis of a separated answer: unit, and A and B do not overlap along it
// (to `tol`, which covers the reference's own rounding).
::testing::AssertionResult axisSeparates(const Shape& a, const Shape& b, const ChungWangResult& r, double tol) {
  if (!ref::finite(r.separatingAxis) || !isUnit(r.separatingAxis))
    return ::testing::AssertionFailure() << "axis not unit: " << str(r.separatingAxis);
  const double o = overlapAlong(a, b, r.separatingAxis);
  if (!(o <= tol))
    return ::testing::AssertionFailure() << "axis " << str(r.separatingAxis) << " does not separate: h_A(u)+h_B(-u) = "
                                         << o << " > " << tol;
  return ::testing::AssertionSuccess();
}

// A point of the shape's core in world space (own geometry): the local
// origin lies in every symmetric core, the centroid in a point-set core.
Vec3 interiorPoint(const Shape& s) {
  Vec3 local;
  if (!s.points.empty()) {
    for (const Vec3& p : s.points) local = local + p;
    local = local / static_cast<double>(s.points.size());
  }
  return ref::toWorld(s, local);
}

// Places B at u·t where t makes the slab between A and B along u have width
// `gap` (negative: the projections overlap by −gap).
void placeAlong(const Shape& a, Shape* b, const Vec3& u, double gap) {
  b->at({0, 0, 0}, b->pose.rotation);
  const double t = ref::supportValue(a, u) + ref::supportValue(*b, u * -1.0) + gap;
  b->at(u * t, b->pose.rotation);
}

// Moves B along the normal of its nearest (or deepest) points so that the
// signed distance becomes about `target` (< 0: overlap by about −target).
// The construction uses the library's GJK/EPA; the tests judge the result
// with other references.
void placeAtSignedDistance(const Shape& a, Shape* b, double target) {
  const PosedShape pa(a), pb(*b);
  const collidoscope::DistanceResult d = collidoscope::gjkDistance(pa, pb);
  Vec3 move;
  if (d.distance > 0) {
    const Vec3 n = (d.pointB - d.pointA) / d.distance;
    move = n * (target - d.distance);
  } else {
    const collidoscope::PenetrationResult p = collidoscope::penetration(pa, pb);
    move = p.normal * (p.depth + target);
  }
  b->at(b->pose.position + move, b->pose.rotation);
}

// Distance from a world point to the full shape (reference.h closed forms):
// the core distance minus the radius, 0 inside — except for polytopes, where
// the brute force measures to the hull's triangles, i.e. it is exact only
// for points on or outside the hull (enough for checking boundary points).
double pointShapeDistance(const Vec3& p, const Shape& s) {
  double core = 0;
  const Vec3 l = ref::toLocal(s, p);
  switch (s.type) {
    case ShapeType::Point:
    case ShapeType::Sphere: core = ref::norm(l); break;
    case ShapeType::Box: core = ref::pointBoxDistance(p, s); break;
    case ShapeType::Capsule:
      core = ref::pointSegmentDistance(l, {0, -s.halfHeight, 0}, {0, s.halfHeight, 0});
      break;
    case ShapeType::Cylinder: core = ref::pointCylinderDistance(p, s); break;
    case ShapeType::Cone: core = ref::pointConeDistance(p, s); break;
    case ShapeType::Ellipsoid: core = ref::pointEllipsoidDistance(p, s); break;
    case ShapeType::Segment: core = ref::pointSegmentDistance(l, s.points[0], s.points[1]); break;
    case ShapeType::Triangle: core = ref::pointTriangleDistance(l, s.points[0], s.points[1], s.points[2]); break;
    case ShapeType::Polytope: core = ref::hullHullDistanceBrute({l}, s.points); break;
    case ShapeType::Plane: core = std::max(0.0, ref::planeHeight(p, s)); break;
    case ShapeType::Mesh:
    case ShapeType::Compound: ADD_FAILURE() << "not a convex shape"; break;
  }
  return std::max(0.0, core - ref::roundRadius(s));
}

struct Stats {
  std::vector<int> v;
  void add(int x) { v.push_back(x); }
  int pct(double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    std::size_t i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
    if (i > 0) --i;
    return v[std::min(i, v.size() - 1)];
  }
  std::string text() {
    char buf[128];
    std::snprintf(buf, sizeof buf, "median %d, p99 %d, max %d (n=%zu)", pct(0.5), pct(0.99), pct(1.0), v.size());
    return buf;
  }
};

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits(const Vec3& a, const Vec3& b) { return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z); }

// ---- simple analytic cases --------------------------------------------------

TEST(ChungWangAnalytic, SeparatedSpheresOneReflectionAtMost) {
  Rng rng(11);
  for (int i = 0; i < 200; ++i) {
    const double ra = rng.uniform(0.1, 2), rb = rng.uniform(0.1, 2);
    const Vec3 ca = rng.inCube(5);
    const Vec3 u = rng.direction();
    const double gap = rng.logUniform(1e-6, 3) * (ra + rb);
    const Vec3 cb = ca + u * (ra + rb + gap);
    const Shape a = Shape::sphere(ra).at(ca), b = Shape::sphere(rb).at(cb);
    const ChungWangResult r = cw(a, b);
    ASSERT_EQ(r.status, ChungWangStatus::Separated) << describe(a) << " vs " << describe(b);
    EXPECT_FALSE(r.intersecting);
    // The first s runs from centre to centre, which is the separating axis
    // of two spheres: one iteration, axis = u, gap = the distance.
    EXPECT_EQ(r.iterations, 1);
    EXPECT_LT(ref::dist(r.separatingAxis, u), 1e-12);
    EXPECT_NEAR(r.gap, gap, 1e-12 * (ref::maxAbs3(ca) + ref::maxAbs3(cb) + ra + rb));
    EXPECT_TRUE(axisSeparates(a, b, r, 1e-12 * ref::sceneScale(a, b)));
  }
}

TEST(ChungWangAnalytic, SpheresStartedFromABadAxisReflectOnce) {
  // Seed fig. 32–33: for two disjoint spheres and any non-separating s,
  // the reflected s separates. A cached axis supplies the bad start.
  Rng rng(12);
  int checked = 0;
  for (int i = 0; i < 300; ++i) {
    const double ra = rng.uniform(0.5, 2), rb = rng.uniform(0.5, 2);
    const Vec3 u = rng.direction();
    const Shape a = Shape::sphere(ra).at({0, 0, 0});
    const Shape b = Shape::sphere(rb).at(u * (ra + rb + rng.uniform(0.5, 2)));
    ChungWangCache cache;
    cache.axis = rng.direction();
    cache.valid = true;
    if (overlapAlong(a, b, cache.axis) < 0) continue;  // the start already separates
    ++checked;
    const ChungWangResult r = cw(a, b, &cache);
    ASSERT_EQ(r.status, ChungWangStatus::Separated) << describe(b);
    EXPECT_EQ(r.iterations, 2) << describe(b);
    EXPECT_TRUE(axisSeparates(a, b, r, 1e-12 * ref::sceneScale(a, b)));
  }
  EXPECT_GT(checked, 100);
}

TEST(ChungWangAnalytic, OverlappingSpheresIntersect) {
  // Point cores with radii: the reflections must run on the rounded support
  // points, or r would never change and the repeated-r exit would call
  // these apart.
  Rng rng(13);
  for (int i = 0; i < 200; ++i) {
    const double ra = rng.uniform(0.1, 2), rb = rng.uniform(0.1, 2);
    const Vec3 ca = rng.inCube(5);
    const Vec3 cb = ca + rng.direction() * ((ra + rb) * rng.uniform(0.01, 0.999));
    const Shape a = Shape::sphere(ra).at(ca), b = Shape::sphere(rb).at(cb);
    const ChungWangResult r = cw(a, b);
    EXPECT_EQ(r.status, ChungWangStatus::Intersecting) << describe(a) << " vs " << describe(b);
    EXPECT_TRUE(r.intersecting);
    EXPECT_EQ(r.separatingAxis, Vec3{});
  }
}

TEST(ChungWangAnalytic, SeparatedBoxes) {
  Rng rng(14);
  for (int i = 0; i < 300; ++i) {
    Shape a = Shape::box({rng.uniform(0.2, 2), rng.uniform(0.2, 2), rng.uniform(0.2, 2)});
    Shape b = Shape::box({rng.uniform(0.2, 2), rng.uniform(0.2, 2), rng.uniform(0.2, 2)});
    a.at(rng.inCube(3), rng.rotation());
    b.at({0, 0, 0}, rng.rotation());
    const Vec3 u = rng.direction();
    // Slab of width gap along u: separated by construction, distance ≥ gap.
    placeAlong(a, &b, u, rng.logUniform(1e-4, 1));
    const ChungWangResult r = cw(a, b);
    ASSERT_EQ(r.status, ChungWangStatus::Separated) << describe(a) << " vs " << describe(b);
    EXPECT_TRUE(axisSeparates(a, b, r, 1e-12 * ref::sceneScale(a, b))) << describe(a) << " vs " << describe(b);
    EXPECT_GT(r.gap, 0);
    // gap is a lower bound on the slab width along the axis (own reference).
    EXPECT_NEAR(r.gap, -overlapAlong(a, b, r.separatingAxis), 1e-12 * ref::sceneScale(a, b));
  }
}

TEST(ChungWangAnalytic, MarginsDecideBetweenSeparatedAndIntersecting) {
  // Unit cubes 2.1 apart along x (a core gap of 0.1). Margins 0.04 each
  // leave a gap of 0.02: separated, with an axis that clears the rounded
  // shapes. Margins 0.06 each close it (−0.02): intersecting, though the
  // cores are apart.
  for (const double m : {0.04, 0.06}) {
    Shape a = Shape::box({1, 1, 1}).withMargin(m);
    Shape b = Shape::box({1, 1, 1}).withMargin(m);
    a.at({0, 0, 0});
    b.at({2.1, 0.3, -0.2});
    const ChungWangResult r = cw(a, b);
    if (m < 0.05) {
      ASSERT_EQ(r.status, ChungWangStatus::Separated);
      EXPECT_TRUE(axisSeparates(a, b, r, 1e-12));
      EXPECT_LE(r.gap, 0.02 + 1e-12);  // the distance is 0.02 exactly
    } else {
      EXPECT_EQ(r.status, ChungWangStatus::Intersecting);
    }
  }
  // A capsule lying 0.5 above a box, radius 0.4 (apart) and 0.6 (overlapping).
  for (const double rad : {0.4, 0.6}) {
    Shape box = Shape::box({2, 0.5, 2}).at({0, 0, 0});
    Shape cap = Shape::capsule(rad, 1.5).at({0.3, 1.0, 0.1}, Quat{0, 0, std::sqrt(0.5), std::sqrt(0.5)});
    const ChungWangResult r = cw(box, cap);
    if (rad < 0.5) {
      ASSERT_EQ(r.status, ChungWangStatus::Separated);
      EXPECT_TRUE(axisSeparates(box, cap, r, 1e-12));
    } else {
      EXPECT_EQ(r.status, ChungWangStatus::Intersecting);
    }
  }
}

TEST(ChungWangAnalytic, ConcentricSolidShapesIntersect) {
  // Every pair in which at least one shape has volume, with an interior
  // point of each placed at the same spot: B − A contains a ball around the
  // origin, so the answer must be intersecting, proven by the hemisphere
  // test (status Intersecting, not the cap).
  Rng rng(15);
  int pairs = 0;
  for (ShapeType ta : ref::kAllTypes)
    for (ShapeType tb : ref::kAllTypes) {
      auto flat = [](ShapeType t) {
        return t == ShapeType::Point || t == ShapeType::Segment || t == ShapeType::Triangle;
      };
      if (flat(ta) && flat(tb)) continue;
      for (int k = 0; k < 20; ++k, ++pairs) {
        Shape a = ref::randomShape(rng, ta, rng.uniform(0.5, 2));
        Shape b = ref::randomShape(rng, tb, rng.uniform(0.5, 2));
        if (ta == ShapeType::Polytope) a = Shape::polytope({{1, 1, 1}, {-1, -1, 1}, {-1, 1, -1}, {1, -1, -1}});
        a.at(rng.inCube(4), rng.rotation());
        b.at({0, 0, 0}, rng.rotation());
        b.at(interiorPoint(a) - interiorPoint(b), b.pose.rotation);
        const ChungWangResult r = cw(a, b);
        EXPECT_EQ(r.status, ChungWangStatus::Intersecting) << describe(a) << " vs " << describe(b);
      }
    }
  EXPECT_EQ(pairs, 91 * 20);
}

// ---- agreement with GJK on random pairs --------------------------------------

TEST(ChungWangRandom, AgreesWithGjkIntersectAwayFromTouching) {
  Rng rng(501);
  constexpr double kNear = 1e-6;  // |signed distance| below this fraction of the scale: excluded
  int pairs = 0, excluded = 0, disagreements = 0, separated = 0, intersecting = 0;
  int capped = 0, axisFailures = 0;
  std::string firstDisagreement, firstAxisFailure;
  Stats cwAll, gjkAll, cwSep, gjkSep, cwInt, gjkInt;
  for (ShapeType ta : ref::kAllTypes)
    for (ShapeType tb : ref::kAllTypes)
      for (int k = 0; k < 110; ++k) {
        const double size = rng.logUniform(0.1, 10);
        Shape a = ref::randomShape(rng, ta, size * rng.uniform(0.3, 1));
        Shape b = ref::randomShape(rng, tb, size * rng.uniform(0.3, 1));
        if (k % 5 == 0) a.withMargin(size * rng.uniform(0, 0.2));
        if (k % 7 == 0) b.withMargin(size * rng.uniform(0, 0.2));
        a.at(rng.inCube(3 * size), rng.rotation());
        b.at({0, 0, 0}, rng.rotation());
        switch (k % 4) {
          case 0:  // free
            b.at(a.pose.position + rng.inCube(2 * size), b.pose.rotation);
            break;
          case 1:  // separated by a slab
            placeAlong(a, &b, rng.direction(), size * rng.logUniform(1e-5, 2));
            break;
          case 2:  // close: signed distance ±(1e-7 … 1e-2)·size
            b.at(a.pose.position + rng.inCube(2 * size), b.pose.rotation);
            placeAtSignedDistance(a, &b, size * rng.logUniform(1e-7, 1e-2) * (rng.integer(0, 1) ? 1 : -1));
            break;
          case 3:  // sharing a point, pushed further in
            b.at(interiorPoint(a) - interiorPoint(b) + rng.inBall(0.3 * size), b.pose.rotation);
            break;
        }
        ++pairs;
        const double scale = ref::sceneScale(a, b);
        const std::string repro = describe(a) + " vs " + describe(b);
        // Signed distance from GJK (apart) or EPA (overlapping).
        const PosedShape pa(a), pb(b);
        const double d = collidoscope::gjkDistance(pa, pb).distance;
        const double signedDistance = d > 0 ? d : -collidoscope::penetration(pa, pb).depth;
        if (std::fabs(signedDistance) < kNear * scale) {
          ++excluded;
          continue;
        }
        const collidoscope::IntersectResult g = collidoscope::gjkIntersect(pa, pb);
        const ChungWangResult r = cw(a, b);
        if (r.status == ChungWangStatus::MaxIterations) ++capped;
        if (r.intersecting != g.intersecting) {
          if (disagreements++ == 0)
            firstDisagreement = repro + " gjk " + std::to_string(g.intersecting) + " cw status " +
                                collidoscope::chungWangStatusName(r.status) + " after " +
                                std::to_string(r.iterations) + " d=" + std::to_string(signedDistance);
        }
        if (!r.intersecting) {
          if (!axisSeparates(a, b, r, 1e-12 * scale) && axisFailures++ == 0) firstAxisFailure = repro;
        }
        cwAll.add(r.iterations);
        gjkAll.add(g.iterations);
        (r.intersecting ? cwInt : cwSep).add(r.iterations);
        (g.intersecting ? gjkInt : gjkSep).add(g.iterations);
        ++(r.intersecting ? intersecting : separated);
      }
  EXPECT_EQ(pairs, 11000);
  EXPECT_GE(pairs - excluded, 10000);
  EXPECT_EQ(disagreements, 0) << "first: " << firstDisagreement;
  EXPECT_EQ(axisFailures, 0) << "first: " << firstAxisFailure;
  EXPECT_EQ(capped, 0);
  EXPECT_GT(separated, 3000);
  EXPECT_GT(intersecting, 3000);
  std::printf("[chung-wang] %d pairs, %d excluded as near touching (|d| < 1e-6 scale), %d separated, %d intersecting\n",
              pairs, excluded, separated, intersecting);
  std::printf("[chung-wang] iterations all:          CW %s | GJK %s\n", cwAll.text().c_str(), gjkAll.text().c_str());
  std::printf("[chung-wang] iterations separated:    CW %s | GJK %s\n", cwSep.text().c_str(), gjkSep.text().c_str());
  std::printf("[chung-wang] iterations intersecting: CW %s | GJK %s\n", cwInt.text().c_str(), gjkInt.text().c_str());
}

// ---- near touching -----------------------------------------------------------

TEST(ChungWangNearTouching, TerminatesWithAStatusAndNoNaN) {
  Rng rng(502);
  const ChungWangSettings settings;
  int pairs = 0;
  int byStatus[4] = {0, 0, 0, 0};
  int touchingAxes = 0;  // separated with gap ≤ 1e-12 scale (the repeated-r exit)
  int gjkOverruled = 0;  // CW proved contact where a degenerate GJK run reported a distance
  int gjkUncertified = 0;  // GJK distance runs not converged (rounding stalls it could not certify)
  Stats cwIts, gjkIts, cwDecided;
  for (ShapeType ta : ref::kAllTypes)
    for (ShapeType tb : ref::kAllTypes)
      for (int k = 0; k < 12; ++k, ++pairs) {
        const double size = rng.logUniform(0.1, 10);
        Shape a = ref::randomShape(rng, ta, size * rng.uniform(0.3, 1));
        Shape b = ref::randomShape(rng, tb, size * rng.uniform(0.3, 1));
        if (k % 3 == 0) a.withMargin(size * rng.uniform(0, 0.2));
        a.at(rng.inCube(3 * size), rng.rotation());
        b.at({0, 0, 0}, rng.rotation());
        // Signed distances from −1e-5 to 1e-5 of the size, including 0.
        const double gap = k % 4 == 0 ? 0.0 : size * rng.logUniform(1e-12, 1e-5) * (k % 2 ? 1 : -1);
        b.at(a.pose.position + rng.inCube(2 * size), b.pose.rotation);
        placeAtSignedDistance(a, &b, gap);
        const std::string repro = describe(a) + " vs " + describe(b);
        const double scale = ref::sceneScale(a, b);
        const ChungWangResult r = cw(a, b);
        const PosedShape pa(a), pb(b);
        const collidoscope::IntersectResult g = collidoscope::gjkIntersect(pa, pb);
        const collidoscope::DistanceResult gd = collidoscope::gjkDistance(pa, pb);
        const double distance = gd.distance;
        const double depth = distance > 0 ? 0.0 : collidoscope::penetration(pa, pb).depth;
        if (gd.status != collidoscope::GjkStatus::Converged) ++gjkUncertified;
        ASSERT_GE(r.iterations, 1) << repro;
        ASSERT_LE(r.iterations, settings.maxIterations) << repro;
        ASSERT_TRUE(std::isfinite(r.gap) && ref::finite(r.separatingAxis)) << repro;
        const int st = static_cast<int>(r.status);
        ASSERT_TRUE(st >= 0 && st < 4) << repro;
        ++byStatus[st];
        EXPECT_EQ(r.intersecting, r.status != ChungWangStatus::Separated) << repro;
        if (!r.intersecting) {
          EXPECT_TRUE(axisSeparates(a, b, r, 1e-9 * scale)) << repro;
          if (r.gap <= 1e-12 * scale) ++touchingAxes;
        }
        // Both answers come with proofs, so neither may contradict a
        // distance or depth well above rounding (GJK's and EPA's).
        if (distance > 1e-9 * scale && r.status == ChungWangStatus::Intersecting) {
          // Only GJK's degenerate answers (rounding stopped it before its
          // error bound was met) may be overruled, and then CW's proof is
          // checked on its own: a common point must lie in both shapes
          // (closed-form point distances), a set of directions must have the
          // origin in its convex hull (brute force).
          EXPECT_EQ(gd.status, collidoscope::GjkStatus::Degenerate) << repro << " d=" << distance;
          ChungWangRecorder rec;
          collidoscope::chungWangIntersect(pa, pb, ChungWangSettings{}, nullptr, rec);
          const ChungWangFrame& done = rec.frames.back();
          if (done.reason == collidoscope::ChungWangReason::CommonPoint) {
            EXPECT_LE(pointShapeDistance(done.p, a), 1e-12 * scale) << repro;
            EXPECT_LE(pointShapeDistance(done.p, b), 1e-12 * scale) << repro;
          } else {
            ASSERT_EQ(done.reason, collidoscope::ChungWangReason::NoHemisphere) << repro;
            ASSERT_LE(done.directions.size(), 40u) << repro;
            EXPECT_LE(originMargin(done.directions), 1e-9) << repro;
          }
          ++gjkOverruled;
        }
        if (depth > 1e-9 * scale) {
          EXPECT_NE(r.status, ChungWangStatus::Separated) << repro << " depth=" << depth;
        }
        cwIts.add(r.iterations);
        gjkIts.add(g.iterations);
        if (r.status != ChungWangStatus::MaxIterations) cwDecided.add(r.iterations);
      }
  std::printf("[chung-wang] near touching: %d pairs: separated %d, intersecting %d, max-iterations %d, degenerate %d\n",
              pairs, byStatus[0], byStatus[1], byStatus[2], byStatus[3]);
  std::printf("[chung-wang] near touching iterations: CW %s | GJK %s\n", cwIts.text().c_str(), gjkIts.text().c_str());
  std::printf("[chung-wang] near touching, decided before the cap: CW %s; separated with a touching axis: %d; "
              "contact proven where degenerate GJK reported d > 1e-9 scale: %d\n",
              cwDecided.text().c_str(), touchingAxes, gjkOverruled);
  std::printf("[chung-wang] near touching: GJK distance not converged on %d pairs\n", gjkUncertified);
  EXPECT_EQ(byStatus[static_cast<int>(ChungWangStatus::Degenerate)], 0);
  // GJK's stalls near touching are certified or re-solved (gjk.h).
  EXPECT_EQ(gjkUncertified, 0);
}

TEST(ChungWangNearTouching, NonFiniteInputEndsDegenerate) {
  Shape a = Shape::box({1, 1, 1}).at({std::nan(""), 0, 0});
  Shape b = Shape::sphere(1).at({3, 0, 0});
  const ChungWangResult r = cw(a, b);
  EXPECT_EQ(r.status, ChungWangStatus::Degenerate);
  EXPECT_TRUE(r.intersecting);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_TRUE(ref::finite(r.separatingAxis));
}

TEST(ChungWangNearTouching, NonFiniteRadiusEndsDegenerate) {
  Shape a = Shape::sphere(std::nan("")).at({0, 0, 0});
  Shape b = Shape::box({1, 1, 1}).at({3, 0, 0});
  const ChungWangResult r = cw(a, b);
  EXPECT_EQ(r.status, ChungWangStatus::Degenerate);
  EXPECT_TRUE(r.intersecting);
}

TEST(ChungWangNearTouching, CapIsRespected) {
  // Two boxes sharing a face exactly: no axis separates and (the boxes only
  // touch) no set of directions surrounds the origin strictly.
  Shape a = Shape::box({1, 1, 1}).at({0, 0, 0});
  Shape b = Shape::box({1, 1, 1}).at({2, 0.5, 0.25});
  for (const int cap : {0, 1, 5, 50}) {
    ChungWangSettings s;
    s.maxIterations = cap;
    const ChungWangResult r = collidoscope::chungWangIntersect(PosedShape(a), PosedShape(b), s);
    EXPECT_LE(r.iterations, cap);
    if (r.status == ChungWangStatus::MaxIterations) {
      EXPECT_TRUE(r.intersecting);
    }
  }
}

// ---- warm start ---------------------------------------------------------------

TEST(ChungWangCacheTest, SecondQueryWithTheSamePosesTakesOneIteration) {
  Rng rng(503);
  int pairs = 0;
  for (ShapeType ta : ref::kAllTypes)
    for (ShapeType tb : ref::kAllTypes)
      for (int k = 0; k < 5; ++k, ++pairs) {
        const double size = rng.logUniform(0.1, 10);
        Shape a = ref::randomShape(rng, ta, size);
        Shape b = ref::randomShape(rng, tb, size);
        a.at(rng.inCube(3 * size), rng.rotation());
        b.at({0, 0, 0}, rng.rotation());
        placeAlong(a, &b, rng.direction(), size * rng.logUniform(1e-3, 1));
        const std::string repro = describe(a) + " vs " + describe(b);
        ChungWangCache cache;
        const ChungWangResult first = cw(a, b, &cache);
        ASSERT_EQ(first.status, ChungWangStatus::Separated) << repro;
        ASSERT_TRUE(cache.valid);
        EXPECT_TRUE(sameBits(cache.axis, first.separatingAxis));
        const ChungWangResult second = cw(a, b, &cache);
        EXPECT_EQ(second.status, ChungWangStatus::Separated) << repro;
        EXPECT_EQ(second.iterations, 1) << repro;
        // The same axis (renormalizing a unit vector may move the last bit).
        EXPECT_LT(ref::dist(second.separatingAxis, first.separatingAxis), 1e-15) << repro;
      }
  EXPECT_EQ(pairs, 500);
}

// ---- the hemisphere sub-algorithm on its own ----------------------------------

// Brute-force margin of the origin relative to conv V (independent of the
// sub-algorithm): > 0 is the distance from the origin to conv V (the set
// fits in an open hemisphere); < 0 is minus the largest inscribed margin of
// a tetrahedron of V that contains the origin (no closed hemisphere holds
// V). Carathéodory: 0 ∈ conv V iff 0 lies in some tetrahedron of V (or a
// lower-dimensional simplex, which then gives a margin ≈ 0); when 0 ∉
// conv V its nearest point lies in a triangle (or segment, point) of V.
double originMargin(const std::vector<Vec3>& v) {
  const std::size_t n = v.size();
  double inside = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k)
        for (std::size_t l = k + 1; l < n; ++l) {
          const Vec3 t[4] = {v[i], v[j], v[k], v[l]};
          const int face[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
          double m = 1e300;
          bool degenerate = false;
          for (const auto& f : face) {
            Vec3 nrm = ref::cross3(t[f[1]] - t[f[0]], t[f[2]] - t[f[0]]);
            const double len = ref::norm(nrm);
            if (len < 1e-12) {
              degenerate = true;
              break;
            }
            nrm = nrm / len;
            if (ref::dot3(nrm, t[f[3]] - t[f[0]]) < 0) nrm = nrm * -1.0;
            m = std::min(m, -ref::dot3(nrm, t[f[0]]));  // inward distance of the origin
          }
          if (!degenerate) inside = std::max(inside, m);
        }
  if (inside > 0) return -inside;
  double best = 1e300;
  const Vec3 o{0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    best = std::min(best, ref::norm(v[i]));
    for (std::size_t j = i + 1; j < n; ++j) {
      best = std::min(best, ref::pointSegmentDistance(o, v[i], v[j]));
      for (std::size_t k = j + 1; k < n; ++k) best = std::min(best, ref::pointTriangleDistance(o, v[i], v[j], v[k]));
    }
  }
  return best;
}

TEST(ChungWangHemisphereTest, HandMadeSets) {
  const Vec3 x{1, 0, 0}, y{0, 1, 0}, z{0, 0, 1};
  auto run = [](std::vector<Vec3> v) {
    ChungWangHemisphere h;
    bool fits = true;
    for (const Vec3& r : v) fits = h.add(r);
    if (fits) {
      for (const Vec3& r : v) EXPECT_GE(collidoscope::dot(h.w(), r), -1e-15) << "witness fails " << str(r);
    }
    return fits;
  };
  EXPECT_TRUE(run({x}));
  EXPECT_TRUE(run({x, x}));
  EXPECT_TRUE(run({x, x * -1.0}));                   // closed hemisphere: w ⊥ x
  EXPECT_TRUE(run({x, y, z}));
  EXPECT_TRUE(run({z, z * -1.0, x}));                // newest r = ±z uses the basis fallback
  EXPECT_TRUE(run({x, y, x * -1.0, y * -1.0}));      // a great circle: w = ±z
  // ... plus its pole z: the closed hemisphere w = z holds them, but O also
  // lies in conv R (between x and −x), on its boundary. The incremental
  // solve may answer either; "no hemisphere" must then mean O ∈ conv R,
  // which holds here, so both answers are sound for intersection.
  run({x, y, x * -1.0, y * -1.0, z});
  // A square pyramid's edge directions fit around z; one direction below
  // the horizon whose horizontal part the others can cancel closes them in.
  const std::vector<Vec3> pyramid = {ref::unit(Vec3{1, 0, 0.1}), ref::unit(Vec3{-1, 0, 0.1}),
                                     ref::unit(Vec3{0, 1, 0.1}), ref::unit(Vec3{0, -1, 0.1})};
  EXPECT_TRUE(run(pyramid));
  std::vector<Vec3> closed = pyramid;
  closed.push_back(ref::unit(Vec3{0.3, 0.2, -1}));
  EXPECT_FALSE(run(closed));
  EXPECT_FALSE(run({x, y, x * -1.0, y * -1.0, z, z * -1.0}));  // octahedron
  EXPECT_FALSE(run({x, y, z, ref::unit(Vec3{-1, -1, -1})}));   // tetrahedron around O
  EXPECT_FALSE(run({ref::unit(Vec3{1, 1, 1}), ref::unit(Vec3{-1, -1, 1}), ref::unit(Vec3{-1, 1, -1}),
                    ref::unit(Vec3{1, -1, -1})}));
  EXPECT_TRUE(run({ref::unit(Vec3{1, 1, 1}), ref::unit(Vec3{-1, -1, 1}), ref::unit(Vec3{-1, 1, -1})}));
  // Once failed, always failed.
  ChungWangHemisphere h;
  for (const Vec3& r : {x, y, z, ref::unit(Vec3{-1, -1, -1})}) h.add(r);
  EXPECT_FALSE(h.fits());
  EXPECT_FALSE(h.add(x));
}

TEST(ChungWangHemisphereTest, BasisIsOrthonormalAndMapsRToZ) {
  Rng rng(504);
  std::vector<Vec3> rs = {{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, ref::unit(Vec3{1e-200, 0, 1}), ref::unit(Vec3{0, 1e-9, -1})};
  for (int i = 0; i < 1000; ++i) rs.push_back(rng.direction());
  for (const Vec3& r : rs) {
    Vec3 X, Y;
    ChungWangHemisphere::basis(r, &X, &Y);
    EXPECT_NEAR(ref::norm(X), 1, 1e-15);
    EXPECT_NEAR(ref::norm(Y), 1, 1e-15);
    EXPECT_NEAR(ref::dot3(X, Y), 0, 1e-15);
    EXPECT_NEAR(ref::dot3(X, r), 0, 1e-15);
    EXPECT_NEAR(ref::dot3(Y, r), 0, 1e-15);
    EXPECT_LT(ref::dist(ref::cross3(X, Y), r), 1e-15) << str(r);  // right-handed: M r = z
  }
}

TEST(ChungWangHemisphereTest, MatchesBruteForceOnRandomSets) {
  Rng rng(505);
  int sets = 0, prefixes = 0, fitting = 0, notFitting = 0, ambiguous = 0, wrong = 0, badWitness = 0;
  std::string firstWrong;
  for (int t = 0; t < 3000; ++t) {
    // Directions from a cap around n of half-angle 17° … 180°, so both
    // answers are common: wide caps often surround the origin.
    const Vec3 n = rng.direction();
    const double halfAngle = rng.uniform(0.3, 3.2);
    const int count = rng.integer(1, 12);
    std::vector<Vec3> v;
    while (static_cast<int>(v.size()) < count) {
      const Vec3 d = rng.direction();
      if (std::acos(std::max(-1.0, std::min(1.0, ref::dot3(d, n)))) <= halfAngle) v.push_back(d);
    }
    ++sets;
    ChungWangHemisphere h;
    bool stillFits = true;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const bool fits = h.add(v[i]);
      ++prefixes;
      const std::vector<Vec3> prefix(v.begin(), v.begin() + static_cast<long>(i) + 1);
      const double margin = originMargin(prefix);
      if (stillFits && !fits) stillFits = false;
      if (std::fabs(margin) < 1e-9) {
        ++ambiguous;
        continue;
      }
      const bool expect = margin > 0;
      ++(expect ? fitting : notFitting);
      if (fits != expect && wrong++ == 0) {
        firstWrong = "set " + std::to_string(t) + " prefix " + std::to_string(i + 1) + " margin " +
                     std::to_string(margin) + " got " + std::to_string(fits);
      }
      if (fits) {
        // The witness: w·r ≥ 0 for every r of the prefix.
        for (const Vec3& r : prefix)
          if (ref::dot3(h.w(), r) < -1e-12) ++badWitness;
        if (!isUnit(h.w())) ++badWitness;
      }
    }
  }
  EXPECT_EQ(wrong, 0) << firstWrong;
  EXPECT_EQ(badWitness, 0);
  EXPECT_GT(fitting, 5000);
  EXPECT_GT(notFitting, 2000);
  std::printf("[chung-wang] hemisphere: %d sets, %d prefixes: %d fit, %d do not, %d within 1e-9 of the boundary (skipped)\n",
              sets, prefixes, fitting, notFitting, ambiguous);
}

TEST(ChungWangHemisphereTest, SetsInsideAHemisphereAlwaysFit) {
  // By construction n·r ≥ 0.01 for all r: must fit, with a valid witness.
  Rng rng(506);
  for (int t = 0; t < 2000; ++t) {
    const Vec3 n = rng.direction();
    ChungWangHemisphere h;
    const int count = rng.integer(1, 60);
    std::vector<Vec3> v;
    for (int i = 0; i < count; ++i) {
      Vec3 d = rng.direction();
      if (ref::dot3(d, n) < 0) d = d * -1.0;
      if (ref::dot3(d, n) < 0.01) continue;
      v.push_back(d);
      ASSERT_TRUE(h.add(d)) << "set " << t << " vector " << i;
    }
    for (const Vec3& r : v) ASSERT_GE(ref::dot3(h.w(), r), -1e-12);
  }
}

TEST(ChungWangHemisphereTest, LogDescribesTheSweep) {
  // x, y, then −(x + y) + z/10: w = x + y (normalized) fails for the third,
  // so the older two are projected on the plane ⊥ r_new and swept.
  ChungWangHemisphere h;
  HemisphereLog log;
  ASSERT_TRUE(h.add({1, 0, 0}, &log));
  EXPECT_EQ(log.outcome, HemisphereCase::First);
  ASSERT_TRUE(h.add({0, 1, 0}, &log));
  const Vec3 r = ref::unit(Vec3{-1, -1, 0.1});
  ASSERT_TRUE(h.add(r, &log));
  EXPECT_TRUE(log.projectedToPlane);
  EXPECT_EQ(log.outcome, HemisphereCase::Fits);
  ASSERT_EQ(log.projected.size(), 3u);
  ASSERT_EQ(log.steps.size(), 2u);
  EXPECT_EQ(log.steps[0].kase, HemisphereCase::Seed);
  for (int j = 0; j < 2; ++j) {
    const Vec3 rj = h.direction(j);
    EXPECT_NEAR(log.projected[static_cast<std::size_t>(j)].x, ref::dot3(rj, log.planeX), 1e-15);
    EXPECT_NEAR(log.projected[static_cast<std::size_t>(j)].y, ref::dot3(rj, log.planeY), 1e-15);
  }
  EXPECT_NEAR(ref::dot3(h.w(), r), 0, 1e-15);  // the new w lies on the plane ⊥ r_new
  EXPECT_GT(ref::dot3(h.w(), Vec3{1, 0, 0}), 0);
  EXPECT_GT(ref::dot3(h.w(), Vec3{0, 1, 0}), 0);
  // The wedge holds both projections: clockwise sweep from ra to rb.
  auto cross2 = [](const Vec3& a, const Vec3& b) { return a.x * b.y - a.y * b.x; };
  EXPECT_LE(cross2(log.ra, log.rb), 0);
}

// ---- trace --------------------------------------------------------------------

TEST(ChungWangTrace, RecorderGivesNoTraceBitsAndConsistentFrames) {
  Rng rng(507);
  const int lines = collidoscope::chung_wang_lines::kCount;
  int withPlane = 0, proofs = 0, switches = 0;
  for (int i = 0; i < 400; ++i) {
    Shape a = ref::randomShape(rng, ref::kAllTypes[rng.integer(0, 9)], rng.uniform(0.3, 2));
    Shape b = ref::randomShape(rng, ref::kAllTypes[rng.integer(0, 9)], rng.uniform(0.3, 2));
    if (rng.integer(0, 3) == 0) a.withMargin(rng.uniform(0, 0.3));
    a.at(rng.inCube(1), rng.rotation());
    b.at(a.pose.position + rng.direction() * rng.uniform(0, ref::boundingRadius(a) + ref::boundingRadius(b)),
         rng.rotation());
    const std::string repro = describe(a) + " vs " + describe(b);
    const PosedShape pa(a), pb(b);
    const ChungWangResult plain = collidoscope::chungWangIntersect(pa, pb);
    ChungWangRecorder rec;
    const ChungWangResult traced = collidoscope::chungWangIntersect(pa, pb, ChungWangSettings{}, nullptr, rec);
    ASSERT_TRUE(plain.status == traced.status && plain.iterations == traced.iterations &&
                sameBits(plain.separatingAxis, traced.separatingAxis) && sameBits(plain.gap, traced.gap))
        << "trace changed the result: " << repro;
    ASSERT_GE(rec.frames.size(), 3u);
    EXPECT_EQ(rec.frames.front().event, ChungWangEvent::Init);
    EXPECT_EQ(rec.frames.back().event, ChungWangEvent::Done);
    int supports = 0;
    std::size_t directions = 0;
    for (std::size_t f = 0; f < rec.frames.size(); ++f) {
      const ChungWangFrame& fr = rec.frames[f];
      EXPECT_GE(fr.line, 1);
      EXPECT_LE(fr.line, lines);
      EXPECT_TRUE(isUnit(fr.s)) << repro << " frame " << f;
      if (fr.event == ChungWangEvent::Support) {
        ++supports;
        EXPECT_EQ(fr.iteration, supports);
        // Extreme points of the cores (closed-form reference), and the
        // rounded points moved out by the radii along ±s.
        const double tol = 1e-12 * ref::sceneScale(a, b);
        const double hA = ref::localCoreSupportValue(a, ref::dirToLocal(a, fr.s)) + ref::dot3(fr.s, a.pose.position);
        const double hB = ref::localCoreSupportValue(b, ref::dirToLocal(b, fr.s * -1.0)) -
                          ref::dot3(fr.s, b.pose.position);
        EXPECT_NEAR(ref::dot3(fr.s, fr.pCore), hA, tol) << repro;
        EXPECT_NEAR(-ref::dot3(fr.s, fr.qCore), hB, tol) << repro;
        EXPECT_LT(ref::dist(fr.p, fr.pCore + fr.s * ref::roundRadius(a)), tol) << repro;
        EXPECT_LT(ref::dist(fr.q, fr.qCore - fr.s * ref::roundRadius(b)), tol) << repro;
        EXPECT_NEAR(fr.gap, -overlapAlong(a, b, fr.s), tol) << repro;
        if (fr.hasR) {
          EXPECT_LT(ref::dist(fr.r, ref::unit(fr.q - fr.p)), 1e-12) << repro;
        }
      }
      if (fr.event == ChungWangEvent::Hemisphere) {
        EXPECT_EQ(fr.directions.size(), directions + 1) << repro;
        EXPECT_TRUE(sameBits(fr.directions.back(), fr.r));
        // The witness, to the parallel-skip bound (kHemisphereParallel).
        if (fr.hasW) {
          for (const Vec3& r : fr.directions) EXPECT_GE(ref::dot3(fr.w, r), -2e-10) << repro;
        }
        // The proof of intersection, checked by brute force: O ∈ conv R.
        if (!fr.hemisphere && fr.directions.size() <= 40) {
          ++proofs;
          EXPECT_LE(originMargin(fr.directions), 1e-9) << repro;
        }
        if (fr.hasPlane) {
          ++withPlane;
          EXPECT_EQ(fr.projected.size(), fr.directions.size());
          EXPECT_TRUE(sameBits(fr.planeZ, fr.r));
          for (std::size_t j = 0; j + 1 < fr.directions.size(); ++j) {
            EXPECT_NEAR(fr.projected[j].x, ref::dot3(fr.directions[j], fr.planeX), 1e-15);
            EXPECT_NEAR(fr.projected[j].y, ref::dot3(fr.directions[j], fr.planeY), 1e-15);
            EXPECT_EQ(fr.projected[j].z, 0);
          }
          EXPECT_LE(fr.wedgeSteps.size() + 1, fr.directions.size());
        }
      }
      if (fr.event == ChungWangEvent::Switch) {
        // s ← w tilted inward: still a witness for every direction seen.
        ASSERT_TRUE(fr.hasNextS);
        EXPECT_TRUE(isUnit(fr.nextS));
        for (const Vec3& r : fr.directions) EXPECT_GE(ref::dot3(fr.nextS, r), -2e-10) << repro;
        ++switches;
      }
      directions = fr.directions.size();
      if (fr.event == ChungWangEvent::Reflect) {
        ASSERT_TRUE(fr.hasNextS && fr.hasR);
        const Vec3 expect = fr.s - fr.r * (2 * ref::dot3(fr.r, fr.s));
        EXPECT_LT(ref::dist(fr.nextS, expect), 1e-14) << repro;
        ASSERT_LT(f + 1, rec.frames.size());
        EXPECT_TRUE(sameBits(rec.frames[f + 1].s, fr.nextS));
      }
    }
    EXPECT_EQ(supports, plain.iterations) << repro;
    if (!plain.intersecting) {
      EXPECT_TRUE(sameBits(rec.frames.back().s, plain.separatingAxis)) << repro;
    }
  }
  EXPECT_GT(withPlane, 10);
  EXPECT_GT(proofs, 50);
  EXPECT_GT(switches, 5);
}

}  // namespace
