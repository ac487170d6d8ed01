// The separating-axis test (sat.h) against references that share nothing
// with it:
//   * analytic: axis-aligned boxes (overlap per axis = hA + hB − |Δc|),
//     boxes rotated 45° about one axis, and crossing edges whose contact
//     axis is an edge cross product (depth 2√2 − c, derived below);
//   * separated pairs: the returned axis is checked by projecting every
//     vertex with reference.h's own rotation matrix (the gap is the
//     measured one), GJK's distance is > 0 and ≥ the gap;
//   * random overlapping pairs (boxes; polytope/box/triangle/segment/point):
//     the depth equals EPA's (penetration(), tested against brute force),
//     the axis equals EPA's normal when the brute-force SAT of
//     epa_reference.h says the minimum is unique, and the axis achieves the
//     depth when projected independently;
//   * near-parallel edges (relative rotations 1e-15 … 1e-8 rad): finite,
//     the answer of the aligned boxes within the rotation's effect;
//   * degenerate shapes: triangle–box, segment–triangle, point–box and the
//     flat/collinear configurations that need the extra axes;
//   * rounded shapes: exact when the cores overlap, an upper bound flagged
//     RoundedBound when they are apart; separation always real;
//   * the trace: NoTrace bits, frame consistency, independent projections.
//
// Tolerances (scale = ref::sceneScale, the largest coordinate):
//   depthTol = 1e-9·scale: the design's accuracy, for agreement with EPA
//     (itself within ~2e-10·scale of the exact depth, test_epa_random.cpp);
//   projTol = 1e-12·scale: recomputing a projection with our own matrix —
//     a handful of roundings of numbers ≤ scale;
//   kDirTol 1e-6: axis vs EPA's normal where the minimum is unique (EPA's
//     face normals come from plain cross products of polytope vertices;
//     the worst seen is printed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/sat.h"
#include "epa_reference.h"
#include "gjk_helpers.h"
#include "reference.h"

namespace {

using collidoscope::PenetrationResult;
using collidoscope::PosedShape;
using collidoscope::Quat;
using collidoscope::SatAxisKind;
using collidoscope::SatEvent;
using collidoscope::SatFrame;
using collidoscope::SatHull;
using collidoscope::SatRecorder;
using collidoscope::SatResult;
using collidoscope::SatSettings;
using collidoscope::SatStatus;
using collidoscope::Shape;
using collidoscope::ShapeType;
using collidoscope::Vec3;
using ref::Rng;

constexpr double kDirTol = 1e-6;
const double kSqrt2 = std::sqrt(2.0);

double depthTol(double scale) { return 1e-9 * scale; }
double projTol(double scale) { return 1e-12 * scale; }

// Rotation by angle t about unit axis u (quaternion, built here).
Quat axisAngle(Vec3 u, double t) {
  u = ref::unit(u);
  const double s = std::sin(t / 2);
  return {u.x * s, u.y * s, u.z * s, std::cos(t / 2)};
}
// Quaternion product b·a: the rotation that applies a, then b.
Quat mul(const Quat& b, const Quat& a) {
  return {b.w * a.x + b.x * a.w + b.y * a.z - b.z * a.y, b.w * a.y - b.x * a.z + b.y * a.w + b.z * a.x,
          b.w * a.z + b.x * a.y - b.y * a.x + b.z * a.w, b.w * a.w - b.x * a.x - b.y * a.y - b.z * a.z};
}

Shape boxAt(const Vec3& h, const Vec3& p, const Quat& q = Quat{}) {
  Shape s = Shape::box(h);
  s.at(p, q);
  return s;
}

// The same box as a polytope (its 8 corners), to run the hull path.
Shape boxAsPolytope(const Shape& box) {
  std::vector<Vec3> pts;
  for (int i = 0; i < 8; ++i) {
    const Vec3 h = box.halfExtents;
    pts.push_back({i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z});
  }
  Shape p = Shape::polytope(pts);
  p.pose = box.pose;
  p.margin = box.margin;
  return p;
}

// The hull path directly (sat() would take the box path for two boxes).
SatResult viaHulls(const Shape& a, const Shape& b, const SatSettings& st = {}) {
  SatHull ha, hb;
  EXPECT_EQ(collidoscope::buildSatHull(a, &ha), SatStatus::Ok);
  EXPECT_EQ(collidoscope::buildSatHull(b, &hb), SatStatus::Ok);
  return collidoscope::satHulls(ha, a.pose, hb, b.pose, st);
}

// Independent projection of a full shape (core vertices posed with our own
// matrix, ± the radius) onto unit axis L.
struct Interval {
  double lo, hi;
};
Interval project(const Shape& s, const Vec3& L) {
  Interval out{1e300, -1e300};
  for (const Vec3& p : eparef::worldCoreVertices(s)) {
    out.lo = std::min(out.lo, ref::dot3(L, p));
    out.hi = std::max(out.hi, ref::dot3(L, p));
  }
  const double r = ref::roundRadius(s);
  return {out.lo - r, out.hi + r};
}

bool finiteResult(const SatResult& r) { return std::isfinite(r.depth) && ref::finite(r.axis); }

// The result's axis, checked by projecting both shapes ourselves: unit;
// separated: A's interval ends below B's by the reported gap; intersecting:
// the overlap along it (maxA − minB, the side B moves to) is the depth and
// the other side is no smaller.
::testing::AssertionResult axisAchievesAnswer(const Shape& a, const Shape& b, const SatResult& r) {
  const double scale = ref::sceneScale(a, b);
  if (!finiteResult(r)) return ::testing::AssertionFailure() << "non-finite result";
  if (std::fabs(ref::norm(r.axis) - 1) > 1e-12) return ::testing::AssertionFailure() << "axis not unit";
  const Interval ia = project(a, r.axis), ib = project(b, r.axis);
  const double plus = ia.hi - ib.lo, minus = ib.hi - ia.lo;
  if (std::fabs(plus - r.signedOverlap()) > projTol(scale))
    return ::testing::AssertionFailure() << "overlap along the axis " << plus << " ≠ reported " << r.signedOverlap();
  if (minus < plus - projTol(scale))
    return ::testing::AssertionFailure() << "axis points the wrong way: other side overlaps " << minus;
  // (Separated answers have a gap above rounding; our own projection, in
  // world coordinates, may round differently by projTol.)
  if (!r.intersecting && !(r.depth > 0 && plus < projTol(scale)))
    return ::testing::AssertionFailure() << "axis does not separate: " << plus;
  return ::testing::AssertionSuccess();
}

double gjkDistance(const Shape& a, const Shape& b) { return testutil::distance(a, b).distance; }

std::string repro(const Shape& a, const Shape& b, const SatResult& r) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "\n  sat: intersecting %d depth %.17g axis %s status %s kind %s", r.intersecting,
                r.depth, testutil::str(r.axis).c_str(), collidoscope::satStatusName(r.status),
                collidoscope::satAxisKindName(r.bestKind));
  return "\n  A = " + testutil::describe(a) + "\n  B = " + testutil::describe(b) + buf;
}

Shape scaled(Shape s, double k, const Vec3& offset) {
  s.radius *= k;
  s.halfHeight *= k;
  s.halfExtents = s.halfExtents * k;
  s.radii = s.radii * k;
  for (Vec3& p : s.points) p = p * k;
  s.margin *= k;
  s.pose.position = s.pose.position * k + offset;
  if (s.type == ShapeType::Polytope) collidoscope::preparePolytopeSupport(&s);
  return s;
}

// ---- analytic ------------------------------------------------------------------

// Axis-aligned boxes: along axis k the boxes overlap by hA_k + hB_k − |Δc_k|;
// the depth is the smallest (along sign(Δc_k)·e_k), and when some are
// negative the pair is apart: the first negative one in x, y, z order stops
// the default search, the most negative one is the largest gap.
TEST(SatAnalytic, AxisAlignedBoxes) {
  Rng rng(501);
  int inter = 0, apart = 0;
  for (int i = 0; i < 500; ++i) {
    const Vec3 ha{rng.uniform(0.1, 2), rng.uniform(0.1, 2), rng.uniform(0.1, 2)};
    const Vec3 hb{rng.uniform(0.1, 2), rng.uniform(0.1, 2), rng.uniform(0.1, 2)};
    const Vec3 pa = rng.inCube(3), d = rng.inCube(3);
    const Shape a = boxAt(ha, pa), b = boxAt(hb, pa + d);
    double o[3];
    int kMin = 0, kFirstNeg = -1;
    for (int k = 0; k < 3; ++k) {
      o[k] = ha[k] + hb[k] - std::fabs(d[k]);
      if (o[k] < o[kMin]) kMin = k;
      if (o[k] < 0 && kFirstNeg < 0) kFirstNeg = k;
    }
    auto axisOf = [&](int k) {
      Vec3 e;
      e[k] = d[k] >= 0 ? 1 : -1;
      return e;
    };
    const double scale = ref::sceneScale(a, b);
    for (int path = 0; path < 2; ++path) {
      SatSettings all;
      all.stopAtFirstSeparatingAxis = false;
      const SatResult first = path == 0 ? collidoscope::sat(a, b) : viaHulls(boxAsPolytope(a), boxAsPolytope(b));
      const SatResult full =
          path == 0 ? collidoscope::sat(a, b, all) : viaHulls(boxAsPolytope(a), boxAsPolytope(b), all);
      const std::string rp = repro(a, b, first) + (path ? " (hull path)" : " (box path)");
      ASSERT_EQ(first.status, SatStatus::Ok) << rp;
      if (o[kMin] >= 0) {
        ++inter;
        EXPECT_TRUE(first.intersecting) << rp;
        EXPECT_NEAR(first.depth, o[kMin], projTol(scale)) << rp;
        EXPECT_LE(ref::dist(first.axis, axisOf(kMin)), 1e-15) << rp;
        EXPECT_EQ(first.bestKind, SatAxisKind::FaceA) << rp;  // ties go to the first candidate: A's faces
        EXPECT_EQ(full.depth, first.depth) << rp;
      } else {
        ++apart;
        EXPECT_FALSE(first.intersecting) << rp;
        if (path == 0) {
          // The box path tests A's x, y, z first and stops at the first
          // separating one.
          EXPECT_NEAR(first.depth, -o[kFirstNeg], projTol(scale)) << rp;
          EXPECT_LE(ref::dist(first.axis, axisOf(kFirstNeg)), 1e-15) << rp;
          EXPECT_EQ(first.axesTested, kFirstNeg + 1) << rp;
        } else {
          // The hull's faces come in the hull's order: some separating
          // face axis, and nothing after it.
          int k = 0;
          while (k < 3 && !(o[k] < 0 && ref::dist(first.axis, axisOf(k)) <= 1e-15)) ++k;
          ASSERT_LT(k, 3) << rp;
          EXPECT_NEAR(first.depth, -o[k], projTol(scale)) << rp;
          EXPECT_EQ(first.axesTested, first.bestAxisIndex + 1) << rp;
        }
        EXPECT_FALSE(full.intersecting) << rp;
        EXPECT_NEAR(full.depth, -o[kMin], projTol(scale)) << rp;
        EXPECT_LE(ref::dist(full.axis, axisOf(kMin)), 1e-15) << rp;
        EXPECT_LE(full.depth, gjkDistance(a, b) + projTol(scale)) << rp;
      }
    }
  }
  EXPECT_GT(inter, 100);
  EXPECT_GT(apart, 100);
}

// B = unit cube rotated 45° about z, centre (x, 0, 0); A = unit cube at the
// origin. Along x, B reaches √2 from its centre: overlap 1 + √2 − x. Along
// B's face normals (1, ±1, 0)/√2, A's radius is √2, B's 1, the centres x/√2
// apart: √2 + 1 − x/√2, larger for x > 0. Along y: 1 + √2; along z: 2.
// Every edge cross product is one of these directions or parallel to z.
// So for √2 − 1 < x < 1 + √2 the depth is 1 + √2 − x along +x; beyond, the
// gap along x is x − 1 − √2 — also the distance (B's vertex (x − √2, 0, ·)
// edge faces A's face x = 1).
TEST(SatAnalytic, BoxRotated45AboutOneAxis) {
  const Quat q45 = axisAngle({0, 0, 1}, M_PI / 4);
  for (double x : {0.5, 1.0, 1.5, 2.0, 2.4, 2.5, 3.0, 4.0}) {
    const Shape a = boxAt({1, 1, 1}, {0, 0, 0});
    const Shape b = boxAt({1, 1, 1}, {x, 0, 0}, q45);
    const double expected = 1 + kSqrt2 - x;
    for (int path = 0; path < 2; ++path) {
      SatSettings all;
      all.stopAtFirstSeparatingAxis = false;
      const SatResult r = path == 0 ? collidoscope::sat(a, b, all) : viaHulls(boxAsPolytope(a), boxAsPolytope(b), all);
      const std::string rp = repro(a, b, r) + (path ? " (hull path)" : " (box path)");
      EXPECT_EQ(r.intersecting, expected >= 0) << rp;
      EXPECT_NEAR(r.signedOverlap(), expected, 1e-14) << rp;
      EXPECT_LE(ref::dist(r.axis, Vec3{1, 0, 0}), 1e-15) << rp;
      EXPECT_TRUE(axisAchievesAnswer(a, b, r)) << rp;
      if (!r.intersecting) {
        EXPECT_NEAR(gjkDistance(a, b), -expected, 1e-12) << rp;
      }
    }
  }
  // Rotated about x instead, B above A along y: the same numbers along +y.
  const Shape a = boxAt({1, 1, 1}, {0, 0, 0});
  const Shape b = boxAt({1, 1, 1}, {0, 2, 0}, axisAngle({1, 0, 0}, M_PI / 4));
  const SatResult r = collidoscope::sat(a, b);
  EXPECT_TRUE(r.intersecting);
  EXPECT_NEAR(r.depth, kSqrt2 - 1, 1e-14);
  EXPECT_LE(ref::dist(r.axis, Vec3{0, 1, 0}), 1e-15);
}

// Crossing edges. A = unit cube rotated 45° about z: its extreme edge along
// +x is {(√2, 0, z): |z| ≤ 1}, parallel to z. B = unit cube rotated 45°
// about y, centre (c, y0, z0): its extreme edge along −x is
// {(c − √2, y0 + t, z0): |t| ≤ 1}, parallel to y. For |y0|, |z0| < 1 the
// edges cross when seen along x, and the shapes overlap in a small
// tetrahedron-like region around the crossing: moving B by 2√2 − c along
// +x = z × y separates them. The face axes give more: along A's
// (1, ±1, 0)/√2 the overlap is 1 + (1/2 + 1/√2 + 1/2) − (c ± y0)/√2, along
// B's (1, 0, ±1)/√2 likewise with z0, along A's z 1 + √2 − |z0| and along
// B's y 1 + √2 − |y0|. For c ∈ [2.5, 2.82] and |y0|, |z0| ≤ 0.3 the edge
// axis is the least (and the exact depth: EPA agrees below).
TEST(SatAnalytic, EdgeEdgeCrossing) {
  const Quat qa = axisAngle({0, 0, 1}, M_PI / 4), qb = axisAngle({0, 1, 0}, M_PI / 4);
  int n = 0;
  for (double c : {2.5, 2.6, 2.7, 2.8, 2.82}) {
    for (double y0 : {-0.3, 0.0, 0.2}) {
      for (double z0 : {-0.25, 0.1, 0.3}) {
        const Shape a = boxAt({1, 1, 1}, {0, 0, 0}, qa);
        const Shape b = boxAt({1, 1, 1}, {c, y0, z0}, qb);
        const double expected = 2 * kSqrt2 - c;
        for (int path = 0; path < 2; ++path) {
          const SatResult r = path == 0 ? collidoscope::sat(a, b) : viaHulls(boxAsPolytope(a), boxAsPolytope(b));
          const std::string rp = repro(a, b, r) + (path ? " (hull path)" : " (box path)");
          ASSERT_TRUE(r.intersecting) << rp;
          EXPECT_NEAR(r.depth, expected, 1e-14) << rp;
          EXPECT_EQ(r.bestKind, SatAxisKind::EdgeEdge) << rp;
          EXPECT_LE(ref::dist(r.axis, Vec3{1, 0, 0}), 1e-14) << rp;
          EXPECT_TRUE(axisAchievesAnswer(a, b, r)) << rp;
          EXPECT_EQ(r.axesTested, path == 0 ? 15 : 3 + 3 + 9) << rp;
        }
        const PenetrationResult e = collidoscope::penetration(PosedShape(a), PosedShape(b));
        EXPECT_NEAR(e.depth, expected, 1e-12);
        ++n;
      }
    }
  }
  EXPECT_EQ(n, 45);
  // Pulled apart along x: separated, and the gap c − 2√2 along x is the
  // distance between the two edges (they cross when seen along x).
  const Shape a = boxAt({1, 1, 1}, {0, 0, 0}, qa);
  const Shape b = boxAt({1, 1, 1}, {3.0, 0.1, -0.2}, qb);
  SatSettings all;
  all.stopAtFirstSeparatingAxis = false;
  const SatResult r = collidoscope::sat(a, b, all);
  ASSERT_FALSE(r.intersecting);
  EXPECT_EQ(r.bestKind, SatAxisKind::EdgeEdge);
  EXPECT_NEAR(r.depth, 3.0 - 2 * kSqrt2, 1e-14);
  EXPECT_NEAR(gjkDistance(a, b), 3.0 - 2 * kSqrt2, 1e-12);
}

// ---- random pairs --------------------------------------------------------------

// Box pair or polytopal pair, about 3/4 overlapping; 10% of scenes scaled
// by 1e-3…1e3, 5% moved ~1e4 from the origin.
void randomPair(Rng& rng, const std::vector<ShapeType>& typesA, const std::vector<ShapeType>& typesB, double reachFrac,
                Shape* a, Shape* b) {
  *a = ref::randomShape(rng, typesA[static_cast<std::size_t>(rng.integer(0, static_cast<int>(typesA.size()) - 1))],
                        rng.uniform(0.2, 2));
  *b = ref::randomShape(rng, typesB[static_cast<std::size_t>(rng.integer(0, static_cast<int>(typesB.size()) - 1))],
                        rng.uniform(0.2, 2));
  a->at(rng.inCube(1), rng.rotation());
  const double reach = ref::boundingRadius(*a) + ref::boundingRadius(*b);
  b->at(a->pose.position + rng.direction() * (reach * rng.uniform(0, reachFrac)), rng.rotation());
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

struct Stats {
  int pairs = 0, overlapping = 0, separated = 0, directionCompared = 0, directionSkipped = 0, epaUncertified = 0;
  double worstDepth = 0, worstDir = 0, worstBrute = 0;  // relative to scale / absolute for directions
  double worstGapExcess = -1e300;                       // max (gap − GJK distance)/scale
  int axesMin = 1 << 30, axesMax = 0;
  long long axesSum = 0;
  void print(const char* name) const {
    std::printf(
        "[%s] pairs %d: overlapping %d (direction compared %d, tie-skipped %d, EPA uncertified %d), separated %d;"
        " worst |depth − EPA|/scale %.3g, |depth − brute SAT|/scale %.3g, |axis − EPA normal| %.3g,"
        " max (gap − GJK)/scale %.3g; axes tested %d..%d (mean %.1f)\n",
        name, pairs, overlapping, directionCompared, directionSkipped, epaUncertified, separated, worstDepth,
        worstBrute, worstDir, worstGapExcess, axesMin, axesMax, pairs ? double(axesSum) / pairs : 0.0);
  }
};

// One pair: SAT against EPA / GJK / brute-force SAT / own projections.
void checkPair(const Shape& a, const Shape& b, bool useHullPath, Stats* st) {
  const double scale = ref::sceneScale(a, b);
  const SatResult r = useHullPath ? viaHulls(a, b) : collidoscope::sat(a, b);
  const std::string rp = repro(a, b, r);
  ++st->pairs;
  st->axesMin = std::min(st->axesMin, r.axesTested);
  st->axesMax = std::max(st->axesMax, r.axesTested);
  st->axesSum += r.axesTested;
  ASSERT_EQ(r.status, SatStatus::Ok) << rp;
  ASSERT_TRUE(finiteResult(r)) << rp;
  ASSERT_TRUE(axisAchievesAnswer(a, b, r)) << rp;
  const PenetrationResult e = collidoscope::penetration(PosedShape(a), PosedShape(b));
  const double dist = gjkDistance(a, b);
  if (r.intersecting) {
    // GJK must not find the cores apart by more than rounding.
    ASSERT_LE(dist, depthTol(scale)) << "SAT intersecting, GJK distance " << dist << rp;
    ++st->overlapping;
    if (!(e.status == collidoscope::EpaStatus::Converged || e.status == collidoscope::EpaStatus::Touching)) {
      ++st->epaUncertified;
      return;
    }
    const double err = std::fabs(r.depth - e.depth);
    st->worstDepth = std::max(st->worstDepth, err / scale);
    EXPECT_LE(err, depthTol(scale)) << "depth vs EPA " << e.depth << rp;
    // The brute-force SAT reference (every supporting plane through three
    // vertices, every pair of coplanar vertices as an edge): the same
    // minimum, and whether it is unique.
    const eparef::Reference bf = eparef::satDepth(a, b, depthTol(scale));
    const double errBrute = std::fabs(r.depth - bf.depth);
    st->worstBrute = std::max(st->worstBrute, errBrute / scale);
    EXPECT_LE(errBrute, depthTol(scale)) << "depth vs brute-force SAT " << bf.depth << rp;
    if (bf.uniqueNormal && bf.depth > depthTol(scale)) {
      ++st->directionCompared;
      const double dErr = ref::dist(r.axis, e.normal);
      st->worstDir = std::max(st->worstDir, dErr);
      EXPECT_LE(dErr, kDirTol) << "axis vs EPA normal " << testutil::str(e.normal) << rp;
    } else {
      ++st->directionSkipped;
    }
  } else {
    ++st->separated;
    EXPECT_FALSE(e.intersecting) << "SAT separated, EPA depth " << e.depth << rp;
    EXPECT_GT(dist, 0) << rp;
    st->worstGapExcess = std::max(st->worstGapExcess, (r.depth - dist) / scale);
    EXPECT_LE(r.depth, dist + depthTol(scale)) << "gap above the GJK distance " << dist << rp;
  }
}

TEST(SatRandom, BoxPairsAgreeWithEpa) {
  Rng rng(502);
  Stats st;
  const std::vector<ShapeType> boxes = {ShapeType::Box};
  for (int i = 0; i < 3000; ++i) {
    Shape a, b;
    randomPair(rng, boxes, boxes, 0.8, &a, &b);
    checkPair(a, b, false, &st);
    if (::testing::Test::HasFatalFailure()) return;
  }
  st.print("box pairs, box path");
  EXPECT_GE(st.overlapping, 2000);
  EXPECT_GE(st.directionCompared, 1800);
  EXPECT_EQ(st.epaUncertified, 0);
}

TEST(SatRandom, PolytopalPairsAgreeWithEpa) {
  Rng rng(503);
  Stats st;
  const std::vector<ShapeType> solid = {ShapeType::Polytope, ShapeType::Polytope, ShapeType::Box};
  const std::vector<ShapeType> any = {ShapeType::Polytope, ShapeType::Polytope, ShapeType::Box,
                                      ShapeType::Triangle, ShapeType::Segment,  ShapeType::Point};
  for (int i = 0; i < 3500; ++i) {
    Shape a, b;
    randomPair(rng, solid, any, 0.6, &a, &b);
    if (rng.integer(0, 1)) std::swap(a, b);
    checkPair(a, b, true, &st);
    if (::testing::Test::HasFatalFailure()) return;
  }
  st.print("polytopal pairs, hull path");
  EXPECT_GE(st.overlapping, 2000);
  EXPECT_GE(st.directionCompared, 1500);
  EXPECT_EQ(st.epaUncertified, 0);
}

// Pairs placed mostly apart (reach up to 1.3× the bounding radii): every
// separated answer is verified, every intersecting one too.
TEST(SatRandom, SeparatedPairsHaveRealSeparatingAxes) {
  Rng rng(504);
  Stats boxes, polys;
  const std::vector<ShapeType> b = {ShapeType::Box};
  const std::vector<ShapeType> any = {ShapeType::Polytope, ShapeType::Box,     ShapeType::Triangle,
                                      ShapeType::Segment,  ShapeType::Point};
  for (int i = 0; i < 1500; ++i) {
    Shape x, y;
    randomPair(rng, b, b, 1.3, &x, &y);
    checkPair(x, y, false, &boxes);
    randomPair(rng, any, any, 1.3, &x, &y);
    checkPair(x, y, true, &polys);
    if (::testing::Test::HasFatalFailure()) return;
  }
  boxes.print("near/apart box pairs");
  polys.print("near/apart polytopal pairs");
  EXPECT_GE(boxes.separated, 500);
  EXPECT_GE(polys.separated, 500);
}

// The box path and the hull path see the same boxes: same verdict and
// depth (within rounding), on random box pairs.
TEST(SatRandom, BoxPathMatchesHullPath) {
  Rng rng(505);
  const std::vector<ShapeType> boxes = {ShapeType::Box};
  SatSettings all;
  all.stopAtFirstSeparatingAxis = false;
  for (int i = 0; i < 500; ++i) {
    Shape a, b;
    randomPair(rng, boxes, boxes, 1.0, &a, &b);
    const double scale = ref::sceneScale(a, b);
    const SatResult r1 = collidoscope::satBoxes(a, b, all);
    const SatResult r2 = viaHulls(boxAsPolytope(a), boxAsPolytope(b), all);
    ASSERT_EQ(r1.intersecting, r2.intersecting) << repro(a, b, r1);
    EXPECT_NEAR(r1.depth, r2.depth, projTol(scale)) << repro(a, b, r1);
    EXPECT_EQ(r2.axesTested, 15) << repro(a, b, r2);
  }
}

// ---- near-parallel edges ---------------------------------------------------------

// B is A's orientation turned by θ about a generic axis: the aligned
// answer (θ = 0: axis-aligned in A's frame, overlap per axis hA + hB − |Δc|)
// changes by at most θ·(size) ≈ 3θ. Relative rotations down to 1e-15 rad
// and exactly 0: finite, that answer, and EPA's depth.
TEST(SatNearParallel, TinyRelativeRotations) {
  Rng rng(506);
  const Vec3 ha{1, 2, 3}, hb{0.5, 0.7, 0.9};
  for (int trial = 0; trial < 20; ++trial) {
    const Quat base = trial == 0 ? Quat{} : rng.rotation();
    const ref::Mat3 m = ref::matrixOf(base);
    for (double theta : {0.0, 1e-15, 1e-13, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8}) {
      const Quat qb = mul(base, axisAngle({1, 2, 3}, theta));  // base·R(θ): a tilt in A's frame
      for (const Vec3& localOffset : {Vec3{1.2, 0.3, -0.4}, Vec3{1.6, 0.3, -0.4}, Vec3{0.2, 2.5, 3.5}}) {
        const Shape a = boxAt(ha, {0.5, -0.25, 2}, base);
        const Shape b = boxAt(hb, a.pose.position + m.mul(localOffset), qb);
        double best = 1e300, firstNeg = 0;
        int k = 0;
        bool anyNeg = false;
        for (int i = 0; i < 3; ++i) {
          const double o = ha[i] + hb[i] - std::fabs(localOffset[i]);
          if (o < best) best = o, k = i;
          if (o < 0 && !anyNeg) anyNeg = true, firstNeg = o;
        }
        Vec3 e;
        e[k] = localOffset[k] >= 0 ? 1 : -1;
        const Vec3 expectedAxis = m.mul(e);
        const double slack = 4 * theta + 1e-14;
        for (int path = 0; path < 2; ++path) {
          SatRecorder rec;
          const SatResult r = path == 0 ? collidoscope::satBoxes(a, b, SatSettings{}, rec)
                                        : viaHulls(boxAsPolytope(a), boxAsPolytope(b));
          const std::string rp = repro(a, b, r) + " theta " + std::to_string(theta) + (path ? " (hull)" : " (box)");
          ASSERT_TRUE(finiteResult(r)) << rp;
          ASSERT_EQ(r.status, SatStatus::Ok) << rp;
          EXPECT_EQ(r.intersecting, !anyNeg) << rp;
          EXPECT_NEAR(r.signedOverlap(), anyNeg ? firstNeg : best, slack) << rp;
          EXPECT_LE(ref::dist(r.axis, expectedAxis), slack + 1e-15) << rp;
          EXPECT_TRUE(axisAchievesAnswer(a, b, r)) << rp;
          if (path == 0 && r.intersecting) {
            // The three nearly parallel pairs a_i ∥ b_i are skipped below the
            // threshold and tested above it.
            int skips = 0;
            for (const SatFrame& f : rec.frames) skips += f.event == SatEvent::Skip;
            EXPECT_EQ(skips, theta <= collidoscope::kSatParallelSine ? 3 : 0) << rp;
            EXPECT_EQ(r.axesTested, 15 - skips) << rp;
          }
        }
        if (!anyNeg) {
          const PenetrationResult pe = collidoscope::penetration(PosedShape(a), PosedShape(b));
          EXPECT_NEAR(collidoscope::sat(a, b).depth, pe.depth, depthTol(ref::sceneScale(a, b)));
        }
      }
    }
  }
}

// ---- degenerate shapes ----------------------------------------------------------

TEST(SatDegenerate, TriangleVersusBox) {
  const Shape box = boxAt({1, 1, 1}, {0, 0, 0});
  // A big triangle in the plane z = 0.9 (it covers the box's top face):
  // moving it up by 0.1 clears the box; every other direction needs more.
  Shape tri = Shape::triangle({-5, -5, 0.9}, {5, -5, 0.9}, {0, 6, 0.9});
  SatResult r = collidoscope::sat(box, tri);
  ASSERT_TRUE(r.intersecting) << repro(box, tri, r);
  EXPECT_NEAR(r.depth, 0.1, 1e-15);
  EXPECT_LE(ref::dist(r.axis, Vec3{0, 0, 1}), 1e-15);
  EXPECT_TRUE(axisAchievesAnswer(box, tri, r));
  // Lifted to z = 1.2: apart by 0.2 along z.
  tri = Shape::triangle({-5, -5, 1.2}, {5, -5, 1.2}, {0, 6, 1.2});
  r = collidoscope::sat(box, tri);
  EXPECT_FALSE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.2, 1e-15);
  EXPECT_NEAR(gjkDistance(box, tri), 0.2, 1e-12);
  // A triangle whose corner pokes into the box, tilted: EPA's depth.
  Rng rng(507);
  int n = 0;
  for (int i = 0; i < 200; ++i) {
    Shape t = Shape::triangle(rng.inBall(0.9), rng.inBall(0.9) + Vec3{3, 0, 0}, rng.inBall(0.9) + Vec3{0, 3, 0});
    t.at(Vec3{}, rng.rotation());
    const Shape bx = boxAt({1, 0.7, 0.5}, rng.inCube(0.3), rng.rotation());
    const SatResult s = collidoscope::sat(bx, t);
    const PenetrationResult e = collidoscope::penetration(PosedShape(bx), PosedShape(t));
    ASSERT_TRUE(axisAchievesAnswer(bx, t, s)) << repro(bx, t, s);
    ASSERT_EQ(s.intersecting, e.intersecting) << repro(bx, t, s);
    if (s.intersecting) {
      EXPECT_NEAR(s.depth, e.depth, depthTol(ref::sceneScale(bx, t))) << repro(bx, t, s);
      ++n;
    }
  }
  EXPECT_GT(n, 150);
}

TEST(SatDegenerate, SegmentVersusTriangle) {
  const Shape tri = Shape::triangle({-1, -1, 0}, {2, -1, 0}, {-1, 2, 0});
  // Piercing at (0, 0): the segment reaches 0.3 below and 0.5 above; in the
  // plane, (0, 0) is 1 from the legs and 1/√2 from the hypotenuse. Least:
  // move the triangle (B) down by 0.3.
  Shape seg = Shape::segment({0, 0, -0.3}, {0, 0, 0.5});
  SatResult r = collidoscope::sat(seg, tri);
  ASSERT_TRUE(r.intersecting) << repro(seg, tri, r);
  EXPECT_NEAR(r.depth, 0.3, 1e-15);
  EXPECT_LE(ref::dist(r.axis, Vec3{0, 0, -1}), 1e-15);
  // Coplanar, one end inside the triangle: they touch (A − B is flat), depth 0.
  seg = Shape::segment({0, 0, 0}, {5, 5, 0});
  r = collidoscope::sat(seg, tri);
  EXPECT_TRUE(r.intersecting) << repro(seg, tri, r);
  EXPECT_EQ(r.depth, 0);
  // Coplanar beside the hypotenuse x + y = 1, parallel to it, 0.25·√2 away:
  // only an in-plane side normal separates (the triangle's normal cannot).
  seg = Shape::segment({1.25, 0.25, 0}, {0.25, 1.25, 0});
  r = collidoscope::sat(seg, tri);
  ASSERT_FALSE(r.intersecting) << repro(seg, tri, r);
  EXPECT_EQ(r.bestKind, SatAxisKind::FlatSide);
  EXPECT_NEAR(r.depth, 0.25 * kSqrt2, 1e-15);
  EXPECT_TRUE(axisAchievesAnswer(seg, tri, r));
  EXPECT_NEAR(gjkDistance(seg, tri), 0.25 * kSqrt2, 1e-12);
  // Coplanar, crossing the leg y = −1 outside the triangle's span: apart.
  seg = Shape::segment({3, -2, 0}, {3, 0, 0});
  r = collidoscope::sat(seg, tri);
  EXPECT_FALSE(r.intersecting) << repro(seg, tri, r);
  EXPECT_TRUE(axisAchievesAnswer(seg, tri, r));
  // Skew, missing the triangle: apart, the gap below the distance.
  seg = Shape::segment({3, 3, -1}, {3, 3, 1});
  r = collidoscope::sat(seg, tri);
  EXPECT_FALSE(r.intersecting);
  EXPECT_TRUE(axisAchievesAnswer(seg, tri, r));
  EXPECT_LE(r.depth, gjkDistance(seg, tri) + 1e-12);
}

TEST(SatDegenerate, PointVersusBox) {
  const Shape box = boxAt({1, 1, 1}, {0.5, 0, 0}, axisAngle({0, 0, 1}, 0.3));
  const ref::Mat3 m = ref::matrixOf(box.pose.rotation);
  // Inside at local (0.3, −0.8, 0.1): nearest face y = −1, 0.2 away: move
  // the point (B) along −y_local.
  Shape p = Shape::point();
  p.at(box.pose.position + m.mul({0.3, -0.8, 0.1}));
  SatResult r = collidoscope::sat(box, p);
  ASSERT_TRUE(r.intersecting) << repro(box, p, r);
  EXPECT_NEAR(r.depth, 0.2, 1e-14);
  EXPECT_LE(ref::dist(r.axis, m.mul({0, -1, 0})), 1e-14);
  EXPECT_EQ(r.bestKind, SatAxisKind::FaceA);
  // The same with the point as A: the axis reverses.
  r = collidoscope::sat(p, box);
  ASSERT_TRUE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.2, 1e-14);
  EXPECT_LE(ref::dist(r.axis, m.mul({0, 1, 0})), 1e-14);
  EXPECT_EQ(r.bestKind, SatAxisKind::FaceB);
  // Outside beside a face: the gap is the distance, 0.5.
  p.at(box.pose.position + m.mul({1.5, 0.2, 0.3}));
  r = collidoscope::sat(box, p);
  EXPECT_FALSE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.5, 1e-14);
  EXPECT_NEAR(gjkDistance(box, p), 0.5, 1e-12);
  // Outside beyond an edge: a face axis separates by 0.5, less than the
  // distance 0.5·√2 (SAT's gap is a lower bound).
  p.at(box.pose.position + m.mul({1.5, 1.5, 0}));
  SatSettings all;
  all.stopAtFirstSeparatingAxis = false;
  r = collidoscope::sat(box, p, all);
  EXPECT_FALSE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.5, 1e-14);
  EXPECT_NEAR(gjkDistance(box, p), 0.5 * kSqrt2, 1e-12);
  EXPECT_TRUE(axisAchievesAnswer(box, p, r));
}

// Configurations where A − B has no volume: the in-plane and line axes.
TEST(SatDegenerate, FlatAndCollinearConfigurations) {
  auto pointAt = [](const Vec3& p) {
    Shape s = Shape::point();
    s.at(p);
    return s;
  };
  const Shape tri = Shape::triangle({0, 0, 0}, {1, 0, 0}, {0, 1, 0});
  // A point in the triangle's plane, outside it beyond the hypotenuse.
  SatResult r = collidoscope::sat(pointAt({1, 1, 0}), tri);
  ASSERT_FALSE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.5 * kSqrt2, 1e-15);
  EXPECT_EQ(r.bestKind, SatAxisKind::FlatSide);
  // In its plane and inside: touching.
  r = collidoscope::sat(pointAt({0.25, 0.25, 0}), tri);
  EXPECT_TRUE(r.intersecting);
  EXPECT_EQ(r.depth, 0);
  // Two coplanar triangles side by side, 0.5 apart ((1, 0) to (1.5, 0)):
  // the largest gap is along x (B's side x = 1.5); A's hypotenuse normal
  // separates them by only 0.5/√2.
  SatSettings all;
  all.stopAtFirstSeparatingAxis = false;
  r = collidoscope::sat(tri, Shape::triangle({1.5, 0, 0}, {2.5, 0, 0}, {1.5, 1, 0}), all);
  EXPECT_FALSE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.5, 1e-15);
  EXPECT_LE(ref::dist(r.axis, Vec3{1, 0, 0}), 1e-15);
  EXPECT_EQ(r.bestKind, SatAxisKind::FlatSide);
  r = collidoscope::sat(tri, Shape::triangle({0.2, 0.2, 0}, {2.5, 0, 0}, {1.5, 1, 0}));
  EXPECT_TRUE(r.intersecting);
  EXPECT_EQ(r.depth, 0);
  // Coplanar segments in an "L", apart by 0.5; crossing (touching).
  r = collidoscope::sat(Shape::segment({0, 0, 0}, {2, 0, 0}), Shape::segment({2.5, -1, 0}, {2.5, 1, 0}));
  EXPECT_FALSE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.5, 1e-15);
  r = collidoscope::sat(Shape::segment({0, 0, 0}, {2, 0, 0}), Shape::segment({1.5, -1, 0}, {1.5, 1, 0}));
  EXPECT_TRUE(r.intersecting);
  EXPECT_EQ(r.depth, 0);
  // Skew segments 0.7 apart along z.
  r = collidoscope::sat(Shape::segment({0, 0, 0}, {2, 0, 0}), Shape::segment({1, -1, 0.7}, {1, 1, 0.7}));
  EXPECT_FALSE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.7, 1e-15);
  // Parallel segments 0.3 apart; collinear with a gap of 0.4; collinear
  // overlapping (touching).
  r = collidoscope::sat(Shape::segment({0, 0, 0}, {2, 0, 0}), Shape::segment({1, 0.3, 0}, {3, 0.3, 0}));
  EXPECT_FALSE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.3, 1e-15);
  EXPECT_EQ(r.bestKind, SatAxisKind::Line);
  r = collidoscope::sat(Shape::segment({0, 0, 0}, {2, 0, 0}), Shape::segment({2.4, 0, 0}, {3, 0, 0}));
  EXPECT_FALSE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.4, 1e-15);
  r = collidoscope::sat(Shape::segment({0, 0, 0}, {2, 0, 0}), Shape::segment({1.4, 0, 0}, {3, 0, 0}));
  EXPECT_TRUE(r.intersecting);
  EXPECT_EQ(r.depth, 0);
  // Point and segment: off the line, beyond its end, on it.
  r = collidoscope::sat(pointAt({1, 0.5, 0.5}), Shape::segment({0, 0, 0}, {2, 0, 0}));
  EXPECT_FALSE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.5 * kSqrt2, 1e-15);
  r = collidoscope::sat(pointAt({2.5, 0, 0}), Shape::segment({0, 0, 0}, {2, 0, 0}));
  EXPECT_FALSE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.5, 1e-15);
  r = collidoscope::sat(pointAt({1.5, 0, 0}), Shape::segment({0, 0, 0}, {2, 0, 0}));
  EXPECT_TRUE(r.intersecting);
  // Two points: apart by their distance, or coincident (touching).
  r = collidoscope::sat(pointAt({1, 2, 3}), pointAt({1, 2, 5}));
  EXPECT_FALSE(r.intersecting);
  EXPECT_NEAR(r.depth, 2, 1e-15);
  EXPECT_LE(ref::dist(r.axis, Vec3{0, 0, 1}), 1e-15);
  r = collidoscope::sat(pointAt({1, 2, 3}), pointAt({1, 2, 3}));
  EXPECT_TRUE(r.intersecting);
  EXPECT_EQ(r.depth, 0);
  // Every separated answer above was checked along its axis: redo a few
  // with the independent projection.
  const Shape s1 = Shape::segment({0, 0, 0}, {2, 0, 0}), s2 = Shape::segment({2.5, -1, 0}, {2.5, 1, 0});
  EXPECT_TRUE(axisAchievesAnswer(s1, s2, collidoscope::sat(s1, s2)));
  const Shape p1 = pointAt({1, 1, 0});
  EXPECT_TRUE(axisAchievesAnswer(p1, tri, collidoscope::sat(p1, tri)));
}

// Random flat/low-dimensional pairs: a separated verdict is checked with
// our projection and GJK; an intersecting one must not have a GJK gap.
TEST(SatDegenerate, RandomLowDimensionalPairs) {
  Rng rng(508);
  const std::vector<ShapeType> flat = {ShapeType::Triangle, ShapeType::Segment, ShapeType::Point};
  int apart = 0, touching = 0;
  for (int i = 0; i < 1500; ++i) {
    Shape a = ref::randomShape(rng, flat[static_cast<std::size_t>(rng.integer(0, 2))], 1);
    Shape b = ref::randomShape(rng, flat[static_cast<std::size_t>(rng.integer(0, 2))], 1);
    // Half of the pairs coplanar (z = 0 for both, then a common rotation).
    const bool coplanar = rng.integer(0, 1) == 1;
    if (coplanar) {
      for (Vec3& p : a.points) p.z = 0;
      for (Vec3& p : b.points) p.z = 0;
    }
    const Quat q = rng.rotation();
    a.at(Vec3{}, q);
    Vec3 off = rng.inCube(0.8);
    if (coplanar) off.z = 0;
    b.at(ref::matrixOf(q).mul(off), q);
    const SatResult r = collidoscope::sat(a, b);
    const std::string rp = repro(a, b, r);
    ASSERT_EQ(r.status, SatStatus::Ok) << rp;
    ASSERT_TRUE(finiteResult(r)) << rp;
    const double d = gjkDistance(a, b);
    if (r.intersecting) {
      ++touching;
      EXPECT_LE(d, 1e-9) << rp;
      EXPECT_TRUE(axisAchievesAnswer(a, b, r)) << rp;
    } else {
      ++apart;
      EXPECT_TRUE(axisAchievesAnswer(a, b, r)) << rp;
      EXPECT_GT(d, 0) << rp;
      EXPECT_LE(r.depth, d + 1e-12) << rp;
    }
  }
  EXPECT_GT(apart, 500);
  EXPECT_GT(touching, 50);
}

// ---- rounded shapes ---------------------------------------------------------------

TEST(SatRounded, ExactWhenCoresOverlapBoundOtherwise) {
  Rng rng(509);
  int exact = 0, bound = 0, apart = 0, falsePositive = 0;
  for (int i = 0; i < 1000; ++i) {
    Shape a, b;
    const std::vector<ShapeType> types = {ShapeType::Box, ShapeType::Polytope, ShapeType::Sphere, ShapeType::Capsule};
    randomPair(rng, types, types, 0.9, &a, &b);
    if (rng.integer(0, 1)) a.withMargin(rng.uniform(0, 0.3) * ref::boundingRadius(a));
    if (rng.integer(0, 1)) b.withMargin(rng.uniform(0, 0.3) * ref::boundingRadius(b));
    const double scale = ref::sceneScale(a, b);
    const SatResult r = collidoscope::sat(a, b);
    const std::string rp = repro(a, b, r);
    ASSERT_TRUE(finiteResult(r)) << rp;
    ASSERT_TRUE(axisAchievesAnswer(a, b, r)) << rp;
    const PenetrationResult e = collidoscope::penetration(PosedShape(a), PosedShape(b));
    if (!r.intersecting) {
      ++apart;
      EXPECT_EQ(r.status, SatStatus::Ok) << rp;
      EXPECT_GT(gjkDistance(a, b), 0) << rp;
      EXPECT_LE(r.depth, gjkDistance(a, b) + depthTol(scale)) << rp;
      continue;
    }
    if (r.status == SatStatus::Ok) {
      ASSERT_TRUE(e.intersecting) << rp;
      // Cores overlap along every axis: depth = core depth + r_A + r_B.
      ++exact;
      EXPECT_NEAR(r.depth, e.depth, depthTol(scale)) << rp;
    } else {
      ++bound;
      EXPECT_EQ(r.status, SatStatus::RoundedBound) << rp;
      EXPECT_GE(r.depth, e.depth - depthTol(scale)) << rp;  // an upper bound (EPA: 0 when apart)
      EXPECT_LT(r.depth, ref::roundRadius(a) + ref::roundRadius(b)) << rp;
      if (!e.intersecting) {
        // The documented false positive: cores apart by less than r_A + r_B
        // along every candidate, the rounded shapes apart along a
        // non-candidate direction.
        ++falsePositive;
        EXPECT_GT(gjkDistance(a, b), 0) << rp;
      }
    }
  }
  std::printf("[rounded] exact %d, rounded-bound %d (of which apart: %d), apart %d\n", exact, bound, falsePositive,
              apart);
  EXPECT_GT(exact, 200);
  EXPECT_GT(bound, 50);
  EXPECT_GT(apart, 50);
}

// Face to face, cores 0.1 apart, margins 0.2 each: depth 0.3 exactly along
// the face axis (flagged RoundedBound: the flag cannot tell this case from
// an edge–vertex one). Edge against edge, cores apart by g along x and
// rounded by r: SAT says r − g along x, which is exact here too (the cores'
// closest points are the crossing edges, joined along x).
TEST(SatRounded, FaceFaceAndEdgeEdge) {
  Shape a = boxAt({1, 1, 1}, {0, 0, 0});
  Shape b = boxAt({1, 1, 1}, {2.1, 0.3, 0});
  a.withMargin(0.2);
  b.withMargin(0.2);
  SatResult r = collidoscope::sat(a, b);
  ASSERT_TRUE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.3, 1e-14);
  EXPECT_EQ(r.status, SatStatus::RoundedBound);
  EXPECT_LE(ref::dist(r.axis, Vec3{1, 0, 0}), 1e-15);
  const Quat qa = axisAngle({0, 0, 1}, M_PI / 4), qb = axisAngle({0, 1, 0}, M_PI / 4);
  Shape ea = boxAt({1, 1, 1}, {0, 0, 0}, qa), eb = boxAt({1, 1, 1}, {2 * kSqrt2 + 0.1, 0.1, 0.2}, qb);
  ea.withMargin(0.1);
  eb.withMargin(0.05);
  r = collidoscope::sat(ea, eb);
  ASSERT_TRUE(r.intersecting);
  EXPECT_NEAR(r.depth, 0.05, 1e-14);
  EXPECT_NEAR(collidoscope::penetration(PosedShape(ea), PosedShape(eb)).depth, 0.05, 1e-12);
  // A sphere near a box's corner, off every face axis: SAT claims overlap
  // (the corner direction is no candidate) although they are apart.
  Shape s = Shape::sphere(0.5);
  s.at({1.35, 1.35, 1.35});  // centre 0.35·√3 ≈ 0.606 from the corner
  const Shape box = boxAt({1, 1, 1}, {0, 0, 0});
  r = collidoscope::sat(box, s);
  EXPECT_TRUE(r.intersecting);
  EXPECT_EQ(r.status, SatStatus::RoundedBound);
  EXPECT_NEAR(r.depth, 0.15, 1e-14);
  EXPECT_GT(gjkDistance(box, s), 0.1);
}

// ---- refusals -----------------------------------------------------------------------

TEST(SatStatusCodes, RefusesWhatItCannotAnswer) {
  const Shape box = boxAt({1, 1, 1}, {0, 0, 0});
  EXPECT_EQ(collidoscope::sat(box, Shape::cylinder(1, 1)).status, SatStatus::NotPolytopal);
  EXPECT_EQ(collidoscope::sat(Shape::ellipsoid({1, 2, 3}), box).status, SatStatus::NotPolytopal);
  EXPECT_EQ(collidoscope::satBoxes(box, Shape::sphere(1)).status, SatStatus::InvalidShape);
  Shape bad = boxAt({1, std::nan(""), 1}, {0, 0, 0});
  EXPECT_EQ(collidoscope::sat(bad, box).status, SatStatus::InvalidShape);
  bad = Shape::triangle({0, 0, 0}, {1, 0, 0}, {0, INFINITY, 0});
  EXPECT_EQ(collidoscope::sat(box, bad).status, SatStatus::InvalidShape);
  SatHull h;
  ASSERT_EQ(collidoscope::buildSatHull(box, &h), SatStatus::Ok);
  collidoscope::Transform nanPose;
  nanPose.position = {0, std::nan(""), 0};
  EXPECT_EQ(collidoscope::satHulls(h, collidoscope::Transform{}, h, nanPose).status, SatStatus::InvalidShape);
  // Two 400-point round polytopes: ~1e3 edge directions each, ~1e9 dot
  // products — refused at once.
  Rng rng(510);
  std::vector<Vec3> pts(400);
  for (Vec3& p : pts) p = rng.direction();
  const Shape big = Shape::polytope(pts);
  const SatResult r = collidoscope::sat(big, big);
  EXPECT_EQ(r.status, SatStatus::TooLarge);
  EXPECT_EQ(r.axesTested, 0);
  // A small one is fine; traced, a medium one is refused by the trace limit
  // (its axes fit the projection budget).
  std::vector<Vec3> few(pts.begin(), pts.begin() + 12);
  EXPECT_EQ(collidoscope::sat(Shape::polytope(few), big).status, SatStatus::Ok);
  std::vector<Vec3> mid(pts.begin(), pts.begin() + 60);
  SatRecorder rec;
  EXPECT_EQ(collidoscope::sat(Shape::polytope(mid), Shape::polytope(mid), SatSettings{}, rec).status,
            SatStatus::TooLarge);
  EXPECT_EQ(collidoscope::sat(Shape::polytope(mid), Shape::polytope(mid)).status, SatStatus::Ok);
}

// ---- trace -------------------------------------------------------------------------

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits(const Vec3& a, const Vec3& b) { return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z); }

TEST(SatTrace, RecorderGivesNoTraceBitsAndConsistentFrames) {
  Rng rng(511);
  const std::vector<ShapeType> types = {ShapeType::Box,     ShapeType::Polytope, ShapeType::Triangle,
                                        ShapeType::Segment, ShapeType::Point,    ShapeType::Sphere};
  const int lines = collidoscope::sat_lines::kCount;
  for (int i = 0; i < 600; ++i) {
    Shape a, b;
    randomPair(rng, types, types, 1.0, &a, &b);
    SatSettings settings;
    settings.stopAtFirstSeparatingAxis = rng.integer(0, 1) == 1;
    const double scale = ref::sceneScale(a, b);
    const SatResult plain = collidoscope::sat(a, b, settings);
    SatRecorder rec;
    const SatResult traced = collidoscope::sat(a, b, settings, rec);
    const std::string rp = repro(a, b, plain);
    ASSERT_TRUE(plain.intersecting == traced.intersecting && sameBits(plain.depth, traced.depth) &&
                sameBits(plain.axis, traced.axis) && plain.axesTested == traced.axesTested &&
                plain.status == traced.status && plain.bestAxisIndex == traced.bestAxisIndex)
        << "trace changed the result" << rp;
    ASSERT_GE(rec.frames.size(), 2u) << rp;
    EXPECT_EQ(rec.frames.front().event, SatEvent::Prepare) << rp;
    const SatFrame& done = rec.frames.back();
    EXPECT_EQ(done.event, SatEvent::Done) << rp;
    EXPECT_EQ(done.intersecting, plain.intersecting) << rp;
    EXPECT_TRUE(sameBits(done.depth, plain.depth)) << rp;
    int next = 0;
    double best = 1e300;
    const SatFrame* bestFrame = nullptr;
    bool separatedSeen = false;
    for (const SatFrame& f : rec.frames) {
      EXPECT_GE(f.line, 1) << rp;
      EXPECT_LE(f.line, lines) << rp;
      if (f.event != SatEvent::Axis) continue;
      EXPECT_FALSE(separatedSeen && settings.stopAtFirstSeparatingAxis) << "frame after a separating axis" << rp;
      EXPECT_EQ(f.index, next++) << rp;
      EXPECT_NEAR(ref::norm(f.axis), 1, 1e-12) << rp;
      // Independent projections along the frame's axis.
      const Interval ia = project(a, f.axis), ib = project(b, f.axis);
      EXPECT_NEAR(f.minA, ia.lo, projTol(scale)) << rp;
      EXPECT_NEAR(f.maxA, ia.hi, projTol(scale)) << rp;
      EXPECT_NEAR(f.minB, ib.lo, projTol(scale)) << rp;
      EXPECT_NEAR(f.maxB, ib.hi, projTol(scale)) << rp;
      EXPECT_NEAR(f.overlap, ia.hi - ib.lo, projTol(scale)) << rp;
      EXPECT_LE(f.overlap, ib.hi - ia.lo + projTol(scale)) << rp;
      EXPECT_EQ(f.separates, f.overlap < 0) << rp;
      separatedSeen = separatedSeen || f.separates;
      if (f.overlap < best) {
        best = f.overlap;
        bestFrame = &f;
      }
      EXPECT_EQ(f.best, bestFrame->index) << rp;
      EXPECT_EQ(f.bestOverlap, best) << rp;
      // Features: a face is perpendicular to the axis and A's faces lie on
      // A's extreme plane toward B (B's toward A); edges are perpendicular.
      if (!f.face.empty() && (f.kind == SatAxisKind::FaceA || f.kind == SatAxisKind::FaceB)) {
        for (const Vec3& c : f.face) {
          EXPECT_NEAR(ref::dot3(f.axis, c - f.face[0]), 0, projTol(scale)) << rp;
          if (f.kind == SatAxisKind::FaceA && ref::roundRadius(a) == 0) {
            // The face facing B, or the opposite one when A has no face
            // facing that way (a polygon shows its one face).
            const double h = ref::dot3(f.axis, c);
            EXPECT_TRUE(std::fabs(h - ia.hi) <= projTol(scale) || std::fabs(h - ia.lo) <= projTol(scale)) << rp;
          }
        }
      }
      // (A Line axis runs along its segment; every other edge is ⟂ its axis.)
      if (f.hasEdgeA && f.kind != SatAxisKind::Line) {
        EXPECT_NEAR(ref::dot3(f.axis, ref::unit(f.edgeA[1] - f.edgeA[0])), 0, 1e-9) << rp;
      }
      if (f.hasEdgeB && f.kind != SatAxisKind::Line) {
        EXPECT_NEAR(ref::dot3(f.axis, ref::unit(f.edgeB[1] - f.edgeB[0])), 0, 1e-9) << rp;
      }
    }
    EXPECT_EQ(next, plain.axesTested) << rp;
    ASSERT_NE(bestFrame, nullptr) << rp;
    EXPECT_EQ(bestFrame->index, plain.bestAxisIndex) << rp;
    EXPECT_EQ(bestFrame->overlap, plain.signedOverlap()) << rp;
    EXPECT_TRUE(sameBits(bestFrame->axis, plain.axis)) << rp;
    EXPECT_EQ(bestFrame->kind, plain.bestKind) << rp;
  }
}

// Box–box frames: all 15 axes in order (3 face A, 3 face B, 9 edge) for
// an intersecting pair, and the featured edges are the supporting ones.
TEST(SatTrace, BoxFramesInOrder) {
  const Shape a = boxAt({1, 1, 1}, {0, 0, 0}, axisAngle({0, 0, 1}, M_PI / 4));
  const Shape b = boxAt({1, 1, 1}, {2.6, 0.1, 0.2}, axisAngle({0, 1, 0}, M_PI / 4));
  SatRecorder rec;
  const SatResult r = collidoscope::satBoxes(a, b, SatSettings{}, rec);
  ASSERT_TRUE(r.intersecting);
  std::vector<SatAxisKind> kinds;
  for (const SatFrame& f : rec.frames)
    if (f.event == SatEvent::Axis) kinds.push_back(f.kind);
  ASSERT_EQ(kinds.size(), 15u);
  for (int i = 0; i < 15; ++i)
    EXPECT_EQ(kinds[static_cast<std::size_t>(i)],
              i < 3 ? SatAxisKind::FaceA : (i < 6 ? SatAxisKind::FaceB : SatAxisKind::EdgeEdge));
  const SatFrame& best = rec.frames[static_cast<std::size_t>(1 + r.bestAxisIndex)];  // after the Prepare frame
  ASSERT_EQ(best.kind, SatAxisKind::EdgeEdge);
  // The crossing edges: A's {(√2, 0, ±1)}, B's {(2.6 − √2, 0.1 ± 1, 0.2)}.
  EXPECT_NEAR(best.edgeA[0].x, kSqrt2, 1e-14);
  EXPECT_NEAR(best.edgeA[1].x, kSqrt2, 1e-14);
  EXPECT_NEAR(std::fabs(best.edgeA[1].z - best.edgeA[0].z), 2, 1e-14);
  EXPECT_NEAR(best.edgeB[0].x, 2.6 - kSqrt2, 1e-14);
  EXPECT_NEAR(best.edgeB[0].z, 0.2, 1e-14);
  EXPECT_NEAR(std::fabs(best.edgeB[1].y - best.edgeB[0].y), 2, 1e-14);
  EXPECT_EQ(best.line, collidoscope::sat_lines::kLeastOverlap);
}

}  // namespace

// fuzz_pair's input (seed 22, sat-sliver-polytope-point-apart-8e-8): a
// polytope whose hull is a triangle 13.9 long and ~6e-7 wide along the
// diagonal, its corner c = (−5e-8, −5e-8, −5e-8) pointing at the origin,
// where a point sits (both posed at (−8, −8, −8)). The point is
// |c| = 8.66e-8 from the triangle, at its corner; along the sides' normals
// it is only ~1e-14 outside (distance × the corner's angle), below
// rounding, and SAT called the pair touching. The reference distance is the
// point–triangle distance by brute force over the triangle's features.
TEST(SatTouching, APointBeyondASliversSharpCornerIsApart) {
  const Vec3 far{-3.1764705882352935, -3.1764700108152972, -3.1764705882352935};
  const Vec3 c{-4.9999999999999998e-08, -4.9999999999999998e-08, -4.9999999999999998e-08};
  std::vector<Vec3> pts(6, far);
  pts.push_back({-8, -8, -8});
  pts.push_back(c);
  Shape a = Shape::polytope(pts);
  a.pose.position = {-8, -8, -8};
  Shape b = Shape::point();
  b.pose.position = {-8, -8, -8};
  const double distance = ref::pointTriangleDistance({0, 0, 0}, far, {-8, -8, -8}, c);
  ASSERT_NEAR(distance, 5e-8 * std::sqrt(3.0), 1e-15);  // at the corner
  for (bool swap : {false, true}) {
    const SatResult r = swap ? sat(b, a) : sat(a, b);
    EXPECT_EQ(r.status, SatStatus::Ok);
    EXPECT_FALSE(r.intersecting) << (swap ? "B, A" : "A, B");
    EXPECT_GT(r.depth, 0.5 * distance);        // a gap of the distance's order, not rounding's
    EXPECT_LE(r.depth, distance * (1 + 1e-9));  // and a lower bound of it
  }
}
