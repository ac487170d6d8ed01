// Differential tests against libccd (Debian libccd-dev 2.1, double
// precision): ccdGJKIntersect, ccdMPRIntersect and ccdGJKPenetration against
// collidoscope's gjkIntersect and penetration, on thousands of seeded random
// pairs of boxes, polytopes, spheres and capsules (all 16 ordered class
// pairs, moderate coordinates: libccd's tolerances are absolute).
//
// Both libraries see the same shapes: libccd gets collidoscope's own support
// mapping (fullSupport: core support plus the radius along the direction)
// through its callbacks, and as centre (MPR) a point inside the shape. So a
// disagreement is a disagreement of the algorithms, not of the shapes.
//
// What must hold (counted and printed; the first few failures of each kind
// are reported with a scene that reproduces them):
//   * away from touching — our signed distance s (distance when apart, minus
//     the depth when overlapping) has |s| > kNear — libccd's intersection
//     answers agree with ours; where one does not, the exact reference
//     (epa_reference.h satDepth: brute-force SAT over a superset of the facet
//     normals of core(A) − core(B), plus the radii) must side with us; and
//     such misses must stay rare (kMaxIntersectMissRate), else the harness is
//     the suspect;
//   * overlapping by more than kNear: ccdGJKPenetration's depth is within
//     its own stopping bound of ours (below); where it is not, the reference
//     must give our depth (within 1e-9 of the scene scale, the design's
//     promise); the share within the bound must stay high
//     (kMinDepthAgreement);
//   * a sample (every kReferenceEvery-th pair) and every disagreement is
//     checked against the reference, so the signed distance that classifies
//     the pairs (ours) is itself verified.
//
// libccd's tolerances (CCD_INIT defaults, used here; libccd 2.1 src/ccd.c,
// mpr.c). Its GJK decides intersection with exact sign tests (touching within
// ~1e-8 counts as intersecting). MPR stops refining when the portal is within
// mpr_tolerance = 1e-4 of the boundary and then answers "no intersection", so
// overlaps below ~1e-4 may be missed: kNear = 1e-3 (shapes of size 0.15 … 1).
// Its EPA returns the distance d of the nearest face of its polytope (a lower
// bound on the depth) and stops when a new support point w along that face's
// witness v (|v| = d) gains little: w·v − d² < epa_tolerance, i.e. an error
// up to epa_tolerance/d, or when w lies within √epa_tolerance of the face,
// an error up to √epa_tolerance = 1e-2. Its bound is therefore
//     max(epa_tolerance / d, √epa_tolerance)       (kEpaTolerance = 1e-4),
// loose by our standards (we certify 1e-10), and that is the bound used:
// closer than that the two agree; beyond it libccd has broken its own
// stopping rule and the reference decides.
//
// What libccd 2.1 does here (seed 20250808, 8000 pairs): every intersection
// answer agrees with ours away from touching; its depth is never above ours
// and is below ours by more than its own bound on ~6% of the overlapping
// pairs, up to the whole depth (depth ~0 reported for pairs overlapping by
// 1.5: its "touching contact" exits, cf. libccd issue #25); the reference
// sides with us on every one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <ccd/ccd.h>

#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/scene.h"
#include "collidoscope/support.h"
#include "differential.h"
#include "epa_reference.h"

namespace {

using collidoscope::DistanceResult;
using collidoscope::IntersectResult;
using collidoscope::PenetrationResult;
using collidoscope::PosedShape;
using collidoscope::Quat;
using collidoscope::Shape;
using collidoscope::ShapeType;
using collidoscope::Vec3;

// |s| above this (shapes of size 0.15 … 1) is "away from touching" for the
// intersection answers: ten times libccd's MPR tolerance (see the header).
constexpr double kNear = 1e-3;
// libccd's epa_tolerance (CCD_INIT); its depth bound is derived from it.
constexpr double kEpaTolerance = 1e-4;
// The library against the exact reference: the design's accuracy promise.
constexpr double kReferenceTolerance = 1e-9;
// Every this-many-th pair is also checked against the reference.
constexpr int kReferenceEvery = 8;
// libccd's iteration cap (its default is unbounded; its GJK can cycle).
constexpr unsigned long kCcdMaxIterations = 1000;
// Intersection disagreements (decided for us by the reference), as a
// fraction of the pairs compared, above which the harness (not libccd) is
// the suspect.
constexpr double kMaxIntersectMissRate = 0.01;
// Share of overlapping pairs whose libccd depth must be within libccd's own
// bound of ours (measured 94%): far fewer would point at the harness.
constexpr double kMinDepthAgreement = 0.85;

// libccd's EPA error bound at depth d (see the header).
double ccdDepthBound(double d) { return std::max(kEpaTolerance / std::max(d, 1e-300), std::sqrt(kEpaTolerance)); }

// ---- libccd glue: collidoscope's support mapping behind libccd's callbacks

struct CcdObject {
  const Shape* shape;
  Vec3 center;  // a point inside the shape (MPR's starting portal)
  long* calls;  // support calls, to tell a capped GJK from an answer
};

void ccdSupportOf(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const CcdObject& o = *static_cast<const CcdObject*>(obj);
  ++*o.calls;
  const Vec3 p = collidoscope::fullSupport(*o.shape, Vec3{dir->v[0], dir->v[1], dir->v[2]});
  ccdVec3Set(out, p.x, p.y, p.z);
}

void ccdCenterOf(const void* obj, ccd_vec3_t* c) {
  const Vec3& p = static_cast<const CcdObject*>(obj)->center;
  ccdVec3Set(c, p.x, p.y, p.z);
}

ccd_t makeCcd() {
  ccd_t c;
  CCD_INIT(&c);  // epa_tolerance 1e-4, mpr_tolerance 1e-4, dist_tolerance 1e-6
  c.support1 = c.support2 = ccdSupportOf;
  c.center1 = c.center2 = ccdCenterOf;
  c.max_iterations = kCcdMaxIterations;
  return c;
}

// A point inside the shape in world space: the centroid of a polytope's
// points (its local origin need not be inside), else the position.
Vec3 interiorPoint(const Shape& s) {
  if (s.type != ShapeType::Polytope) return s.pose.position;
  Vec3 c;
  for (const Vec3& p : s.points) c += p;
  return s.pose.apply(c / static_cast<double>(s.points.size()));
}

// ---- random pairs (each draw its own statement: the order of draws must
// not depend on the compiler's order of evaluating arguments)

enum ShapeClass { kBox, kPolytope, kSphere, kCapsule, kClasses };
const char* const kClassNames[kClasses] = {"box", "polytope", "sphere", "capsule"};

Shape randomShape(ref::Rng& rng, int cls) {
  switch (cls) {
    case kBox: {
      const double x = rng.uniform(0.15, 0.8);
      const double y = rng.uniform(0.15, 0.8);
      const double z = rng.uniform(0.15, 0.8);
      return Shape::box({x, y, z});
    }
    case kPolytope: {
      const int n = rng.integer(4, 24);
      const bool onEllipsoid = rng.uniform(0, 1) < 0.5;
      const double rx = rng.uniform(0.3, 1.0);
      const double ry = rng.uniform(0.3, 1.0);
      const double rz = rng.uniform(0.3, 1.0);
      std::vector<Vec3> pts;
      for (int i = 0; i < n; ++i) {
        const Vec3 d = onEllipsoid ? rng.direction() : rng.inBall(1.0);
        pts.push_back({d.x * rx, d.y * ry, d.z * rz});
      }
      // Points off-centre: the local origin need not be inside.
      const Vec3 shift = rng.inBall(0.2);
      for (Vec3& p : pts) p += shift;
      return Shape::polytope(pts);
    }
    case kSphere:
      return Shape::sphere(rng.uniform(0.2, 0.9));
    default: {
      const double r = rng.uniform(0.1, 0.5);
      const double hh = rng.uniform(0.1, 0.8);
      return Shape::capsule(r, hh);
    }
  }
}

double boundingRadius(const Shape& s) { return ref::boundingRadius(s); }

// Ours, as a signed distance: distance when apart, −depth when overlapping.
struct Ours {
  double signedDistance = 0;
  bool intersecting = false;  // gjkIntersect
  PenetrationResult pen;
};

Ours runOurs(const Shape& a, const Shape& b) {
  Ours o;
  const PosedShape pa(a), pb(b);
  const DistanceResult d = collidoscope::gjkDistance(pa, pb);
  o.pen = collidoscope::penetration(pa, pb);
  o.signedDistance = d.distance > 0 ? d.distance : -o.pen.depth;
  o.intersecting = collidoscope::gjkIntersect(pa, pb).intersecting;
  return o;
}

// B moved along dir from A's interior so that our signed distance is
// `want` (bisection; used only to place pairs near a target, never to decide
// who is right).
void placeAt(const Shape& a, Shape* b, const Vec3& dir, double want) {
  const Vec3 start = interiorPoint(a);
  const Vec3 offset = b->pose.position - interiorPoint(*b);
  auto at = [&](double t) { b->pose.position = start + dir * t + offset; };
  double lo = 0, hi = 2 * (boundingRadius(a) + boundingRadius(*b)) + 1;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    at(mid);
    (runOurs(a, *b).signedDistance < want ? lo : hi) = mid;
  }
  at(hi);
}

struct Pair {
  Shape a, b;
  std::string kind;
};

// Pair i: classes from i, sizes, rotations and a placement: 3 in 4 at a
// random offset along a random direction (about half of them overlap), 1 in
// 4 placed near touching, |s| from 1e-3 to 3e-2 (just beyond kNear, where
// libccd's tolerances start to matter).
Pair makePair(ref::Rng& rng, int i) {
  Pair p;
  const int ca = i % kClasses, cb = (i / kClasses) % kClasses;
  p.a = randomShape(rng, ca);
  p.b = randomShape(rng, cb);
  const Quat qa = rng.rotation();
  const Quat qb = rng.rotation();
  const Vec3 base = rng.inCube(5.0);
  p.a.pose.rotation = qa;
  p.a.pose.position = base;
  p.b.pose.rotation = qb;
  const Vec3 dir = rng.direction();
  const double mode = rng.uniform(0, 1);
  const double reach = boundingRadius(p.a) + boundingRadius(p.b);
  if (mode < 0.75) {
    const double t = rng.uniform(0, 1.1 * reach);
    p.b.pose.position = interiorPoint(p.a) + dir * t + (p.b.pose.position - interiorPoint(p.b));
    p.kind = "random offset";
  } else {
    const double magnitude = rng.logUniform(1e-3, 3e-2);
    const double sign = rng.uniform(0, 1) < 0.5 ? -1.0 : 1.0;
    placeAt(p.a, &p.b, dir, sign * magnitude);
    p.kind = "near touching";
  }
  p.kind = std::string(kClassNames[ca]) + "-" + kClassNames[cb] + ", " + p.kind;
  return p;
}

// The exact reference, in coordinates relative to A's position (a
// translation changes nothing but the rounding of the brute force, which is
// relative to the coordinates it works with).
eparef::Reference exactReference(Shape a, Shape b) {
  const Vec3 o = a.pose.position;
  a.pose.position -= o;
  b.pose.position -= o;
  return eparef::satDepth(a, b, 1e-9 * ref::sceneScale(a, b));
}

std::string sceneOf(const Pair& p) {
  collidoscope::Scene sc;
  sc.shapes = {p.a, p.b};
  sc.query = collidoscope::QueryKind::Penetration;
  return collidoscope::sceneToJson(sc);
}

struct Tally {
  std::map<std::string, long> n;
  std::map<std::string, int> reported;
  void count(const std::string& k) { ++n[k]; }
  // Counts a failure and reports the first three of its kind in full.
  void fail(const std::string& k, const std::string& detail) {
    ++n[k];
    if (++reported[k] <= 3) ADD_FAILURE() << k << "\n" << detail;
  }
  long operator[](const std::string& k) const {
    auto it = n.find(k);
    return it == n.end() ? 0 : it->second;
  }
  void print() const {
    for (const auto& kv : n) std::printf("  %-62s %ld\n", kv.first.c_str(), kv.second);
  }
};

// Per class pair: overlapping pairs compared, within libccd's bound, and the
// largest shortfall of libccd's depth below ours.
struct DepthRow {
  long compared = 0, within = 0;
  double worst = 0;
  std::string worstScene;  // the pair of the largest shortfall beyond libccd's bound
};

TEST(DifferentialCcd, IntersectionAndPenetrationAgreeOrTheReferenceSidesWithUs) {
  const int pairs = differential::scaled(8000, 64);
  ref::Rng rng(20250808);
  long ccdCalls = 0;
  const ccd_t ccd = makeCcd();
  Tally t;
  std::map<std::string, DepthRow> rows;

  for (int i = 0; i < pairs; ++i) {
    const Pair p = makePair(rng, i);
    const Ours o = runOurs(p.a, p.b);
    const double scale = ref::sceneScale(p.a, p.b);
    const double refTol = kReferenceTolerance * scale;
    CcdObject ca{&p.a, interiorPoint(p.a), &ccdCalls}, cb{&p.b, interiorPoint(p.b), &ccdCalls};

    ccdCalls = 0;
    const bool gjk = ccdGJKIntersect(&ca, &cb, &ccd) != 0;
    const bool gjkCapped = ccdCalls >= 2 * static_cast<long>(kCcdMaxIterations);
    const bool mpr = ccdMPRIntersect(&ca, &cb, &ccd) != 0;
    ccd_real_t depth = 0;
    ccd_vec3_t dir, pos;
    ccdVec3Set(&dir, 0, 0, 0);
    ccdVec3Set(&pos, 0, 0, 0);
    const int penRc = ccdGJKPenetration(&ca, &cb, &ccd, &depth, &dir, &pos);

    const bool apart = o.signedDistance > kNear, deep = o.signedDistance < -kNear;
    const bool away = apart || deep;
    auto detail = [&]() {
      std::ostringstream d;
      d.precision(17);
      d << "  pair " << i << " (" << p.kind << "): ours s = " << o.signedDistance << " (gjkIntersect "
        << o.intersecting << "), libccd GJK " << gjk << ", MPR " << mpr << ", GJK+EPA rc " << penRc << " depth "
        << depth << "\n  scene: " << sceneOf(p);
      return d.str();
    };

    // The reference: on a sample, and wherever libccd and we disagree.
    bool haveRef = false;
    eparef::Reference rf;
    auto reference = [&]() -> const eparef::Reference& {
      if (!haveRef) rf = exactReference(p.a, p.b), haveRef = true;
      return rf;
    };
    // The reference gives our signed distance (so ours may classify).
    auto oursMatchesReference = [&]() {
      const double s = -reference().value;
      return std::fabs(s - o.signedDistance) <= refTol + 1e-9 * std::fabs(s);
    };
    auto withReference = [&]() {
      std::ostringstream d;
      d.precision(17);
      d << detail() << "\n  reference s = " << -reference().value;
      return d.str();
    };

    if (i % kReferenceEvery == 0) {
      t.count("sampled: checked against the reference");
      if (!oursMatchesReference()) t.fail("sampled: ours differs from the reference", withReference());
    }
    // Our own intersect agrees with our signed distance away from touching.
    if (away && o.intersecting != deep) t.fail("ours: gjkIntersect disagrees with our signed distance", detail());

    if (!away) {
      t.count("near touching (|s| <= 1e-3): intersection not compared");
    } else {
      if (gjkCapped) {
        t.count("intersect: libccd GJK hit its iteration cap (no answer)");
      } else {
        t.count("intersect compared (libccd GJK)");
        if (gjk != deep) {
          t.count("intersect: libccd GJK disagrees (reference decides)");
          if (!oursMatchesReference()) t.fail("intersect: libccd GJK disagrees and the reference sides with it", withReference());
        }
      }
      t.count("intersect compared (libccd MPR)");
      if (mpr != deep) {
        t.count("intersect: libccd MPR disagrees (reference decides)");
        if (!oursMatchesReference()) t.fail("intersect: libccd MPR disagrees and the reference sides with it", withReference());
      }
    }

    if (deep) {
      DepthRow& row = rows[p.kind.substr(0, p.kind.find(','))];
      ++row.compared;
      t.count("depth compared (overlap > 1e-3)");
      const double ours = o.pen.depth;
      if (penRc != 0 || !std::isfinite(depth)) {
        t.count("depth: libccd GJK+EPA gave none (reference decides)");
        if (!oursMatchesReference()) t.fail("depth: libccd gave none and the reference sides with it", withReference());
        continue;
      }
      if (depth > ours + refTol) {
        // EPA's nearest face bounds the depth from below: never deeper.
        t.count("depth: libccd deeper than ours (reference decides)");
        if (!oursMatchesReference()) t.fail("depth: libccd deeper than ours and the reference sides with it", withReference());
      } else if (ours - depth > ccdDepthBound(ours)) {
        t.count("depth: libccd short by more than its own bound (reference decides)");
        if (!oursMatchesReference()) t.fail("depth: libccd short and the reference sides with it", withReference());
        if (ours - depth > row.worst) {
          row.worst = ours - depth;
          std::ostringstream d;
          d.precision(17);
          d << "ours " << ours << ", reference " << reference().depth << ", libccd " << depth << ": " << sceneOf(p);
          row.worstScene = d.str();
        }
      } else {
        ++row.within;
        t.count("depth: libccd within its own bound");
      }
    }
  }

  std::printf("[ libccd vs collidoscope, %d pairs ]\n", pairs);
  t.print();
  std::printf("  depth by class pair: compared, within libccd's bound, largest shortfall beyond it\n");
  for (const auto& r : rows)
    std::printf("    %-18s %5ld %5ld  %.3g\n", r.first.c_str(), r.second.compared, r.second.within, r.second.worst);
  for (const auto& r : rows)
    if (!r.second.worstScene.empty()) std::printf("  worst %s: %s\n", r.first.c_str(), r.second.worstScene.c_str());

  // The generator still makes the intended mix.
  const long compared = t["intersect compared (libccd MPR)"];
  EXPECT_GE(compared, pairs * 9 / 10) << "too many pairs near touching: the generator changed";
  EXPECT_GE(t["depth compared (overlap > 1e-3)"], pairs / 4) << "too few overlapping pairs: the generator changed";
  EXPECT_GE(t["sampled: checked against the reference"], pairs / kReferenceEvery);
  // libccd misses are rare: many would mean the glue, not libccd, is wrong.
  const double allowed = kMaxIntersectMissRate * static_cast<double>(std::max(compared, 1L));
  EXPECT_LE(t["intersect: libccd GJK disagrees (reference decides)"], allowed);
  EXPECT_LE(t["intersect: libccd MPR disagrees (reference decides)"], allowed);
  EXPECT_GE(static_cast<double>(t["depth: libccd within its own bound"]),
            kMinDepthAgreement * static_cast<double>(t["depth compared (overlap > 1e-3)"]));
}

}  // namespace
