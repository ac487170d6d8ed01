// collidoscope — the Gilbert–Johnson–Keerthi algorithm: distance and
// intersection of two convex shapes given by support mappings.
//
// Reference: E. G. Gilbert, D. W. Johnson, S. S. Keerthi, "A fast procedure
// for computing the distance between complex objects in three-dimensional
// space", IEEE J. Robotics and Automation, 1988; the iteration and its error
// bound as presented in G. van den Bergen, "A fast and robust GJK
// implementation for collision detection of convex objects", JGT 1999, and
// in the article "Advanced Collision Detection" (sites.google.com/site/
// doc4code, 2011, GJK chapter, theorems 1–4).
//
// The iteration. Let C = A − B. Start from any v ∈ C. Each step takes the
// support point w = s_C(−v) = s_A(−v) − s_B(v), then replaces v by the point
// of conv(W ∪ {w}) nearest the origin, keeping in W only the vertices that
// point needs (simplex.h). ‖v‖ decreases strictly until v = v(C).
//
// Termination ("Advanced Collision Detection", theorem 4). For every step,
//     ‖v − v(C)‖² ≤ ‖v‖² − v·w,
// and since v·w/‖v‖ ≤ d(A, B) ≤ ‖v‖ the distance error is at most
// (‖v‖² − v·w)/‖v‖. We stop when the gap ‖v‖² − v·w is at most
//     max(ε_rel · ‖v‖²,  k·‖v‖·S)
// where ε_rel is GjkSettings::relativeTolerance (distance error ≤ ε_rel·‖v‖)
// and the absolute term bounds the error by a fraction of S, the largest
// support-point coordinate seen: k = GjkSettings::absoluteTolerance, never
// below 64u (u = 2^−53), the rounding error of v·w itself — w is the
// difference of two support points of magnitude up to S. Without it,
// shapes far from the world origin (S = 1e4) at small distances, or curved
// shapes nearly touching, would chase rounding noise until the cap.
//
// Other exits: the tetrahedron containing the origin (overlap), and two that
// only rounding can cause — w already in W (in real arithmetic that implies
// v·w = ‖v‖², caught by the test above) and ‖v‖ failing to decrease.
//
// Stalls. Those two are stalls, not answers. Every step's v·w/‖v‖ is a
// lower bound on the distance, so the distance lies in [L, ‖v‖], L the
// best of them less the rounding τ = 64u·S of v·w (and at least 0: a
// bound that stays 0 near touching contact). A stall is certified when
// ‖v‖² − L·‖v‖ meets the tolerance above: the termination test with the
// best step's bound in place of this step's; status Converged. Otherwise
// the usual culprit is v on a segment near touching contact, whose
// direction is off by ~u·S/‖v‖ (simplex.h resolveOnEdge): v is re-solved
// perpendicular to the segment and GJK goes on from it, at most
// kGjkRefinements times per query. A stall that neither certifies nor
// refines returns ‖v‖, an upper bound, with status Degenerate.
//
// Near touching contact ‖v‖ is far smaller than the support points it is
// made of; simplex.h computes v from the face normal so that its direction
// stays accurate (see solveTriangle).
//
// Rounded shapes. Shapes are cores plus radii (shapes.h). GJK runs on the
// cores; the distance is max(0, ‖v‖ − r_A − r_B) and the closest points move
// out along the normal by each radius. Curved cores (cylinder, cone,
// ellipsoid) converge asymptotically and rely on the tolerance; polytopal
// cores terminate in finitely many steps.
//
// Memory: the simplex is fixed-size; nothing in a query allocates (the
// GjkRecorder trace policy does, outside the NoTrace fast path).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "collidoscope/math.h"
#include "collidoscope/shapes.h"
#include "collidoscope/simplex.h"
#include "collidoscope/support.h"
#include "collidoscope/tiny_scene.h"
#include "collidoscope/trace.h"

namespace collidoscope {

// GJK's settings (numeric.h, IterativeSettings):
//   maxIterations  256. Polytopal cores need at most a handful of steps per
//                  face they visit (typically < 20); curved cores reach
//                  1e-10 relative accuracy in well under 100 steps except
//                  near touching contact.
//   ε_rel          stop when ‖v‖² − v·w ≤ ε_rel·‖v‖², which bounds the
//                  distance error by ε_rel·‖v‖. Games may loosen it (1e-6
//                  halves the iterations on curved shapes).
//   ε_abs          also stop when the certified distance error
//                  (‖v‖² − v·w)/‖v‖ is at most ε_abs·S, S the largest
//                  support-point coordinate seen. Near touching contact
//                  ‖v‖ → 0 and the relative test alone would demand more
//                  than doubles can resolve on curved surfaces (GJK
//                  converges linearly there, and a sliver simplex stalls
//                  near 1e-11·S).
struct GjkSettings : IterativeSettings {};

struct DistanceResult {
  double distance = 0;   // between the full (rounded) shapes; 0 when they overlap
  Vec3 pointA;           // on A
  Vec3 pointB;           // on B; |pointA − pointB| = distance
  int iterations = 0;
  GjkStatus status = GjkStatus::Converged;
  bool coresOverlap = false;  // the cores intersect (or touch within rounding)
  Vec3 v;                     // final v = core(A) point − core(B) point
  // The certificate of the distance: the shapes' gap along −axis/‖axis‖ is
  // within the tolerance of `distance`. It is v, except when a stall ended
  // the query certified by an earlier step's lower bound (see the header):
  // then it is that step's v. The final v can then be tilted from it by the
  // rounding of the closest points' weights, which a long shape turns into
  // a gap along v̂ short of the distance (a segment 2e6 long 303 from an
  // ellipsoid 1e6 long: 0.0055 short, while the answer was right to 1e-8).
  Vec3 axis;
  Simplex simplex;            // final W (EPA starts from it)
  double scale = 0;           // largest support-point coordinate seen (S)
  // gjkDistanceWithin only: a step proved the distance larger than the
  // margin and the query stopped there. `distance` is then that step's
  // certified lower bound (> margin) and the points are not computed.
  bool beyondMargin = false;
};

struct IntersectResult {
  bool intersecting = false;  // true also for touching within rounding
  int iterations = 0;
  GjkStatus status = GjkStatus::Converged;
};

// Results of a tiny scene's scaled run in the caller's units (tiny_scene.h).
inline void scaleLengths(DistanceResult* r, double g) {
  r->distance *= g;
  r->pointA = r->pointA * g;
  r->pointB = r->pointB * g;
  r->v = r->v * g;
  r->axis = r->axis * g;
  scaleLengths(&r->simplex, g);
  r->scale *= g;
}
inline void scaleLengths(IntersectResult*, double) {}

// Warm start for gjkIntersect: the last v, kept by the caller between
// frames. When the pose changes little, the old v still separates and the
// query ends after one support call.
struct GjkCache {
  Vec3 direction;
  bool valid = false;
};

// Pseudocode line numbers (1-based) that frames name; the text of each line
// is the caller's (web/lib/captions.ts), numbered the same way.
namespace gjk_lines {
constexpr int kDistInit = 1, kDistSupport = 3, kDistConverged = 4, kDistDuplicate = 5, kDistReduce = 6,
              kDistInside = 7, kDistNoProgress = 8, kDistStall = 9, kDistCap = 10, kDistRadii = 11;
constexpr int kDistCount = 11;  // lines of the distance pseudocode
constexpr int kIsInit = 1, kIsSupport = 3, kIsSeparated = 4, kIsConverged = 5, kIsReduce = 6, kIsInside = 7,
              kIsNoProgress = 8, kIsCap = 9;
constexpr int kIsCount = 9;  // lines of the intersect pseudocode
}  // namespace gjk_lines

namespace detail {

// The absolute termination factor: the caller's, but never below the
// rounding error of v·w (smaller values could never be met).
inline double absoluteBound(const GjkSettings& s) {
  return std::fmax(s.absoluteTolerance, kRoundingBound);
}

inline double magnitudeOf(const SimplexVertex& s) { return maxOfNonNegative(maxAbs(s.a), maxAbs(s.b)); }

// Sideways steps. In exact arithmetic ‖v‖ strictly decreases while the gap
// is positive; rounded, the new v can come out a hair longer although its
// direction is far better. The worst case is a long polytope: 1e6 long
// with the origin 1.7 from one of its edges, the segment's v can be 1e-5
// rad off the true normal (the triangle's v fixes it by tilting 1e-5
// towards a vertex 1e6 away) while its rounded length comes out ~5e-11
// longer, not shorter; stopping there for lack of progress would leave
// gjkIntersect with the wrong answer at a distance of 1.7. A new v at most
// τ = 64u·S longer than the old one is rounding's doing, so it is taken,
// at most kGjkSidewaysSteps times per query (which bounds any cycle such
// steps could make).
constexpr int kGjkSidewaysSteps = 4;

// Stalls re-solved (resolveOnEdge) per distance query. One re-solve on the
// segment GJK stalled on is what it needs; a few more cover a stall on a
// later segment, and the cap ends any cycle of them.
constexpr int kGjkRefinements = 4;

inline bool sidewaysWithinRounding(const Vec3& next, double nextVV, const Vec3& v, double vv, double tau,
                                   int* sideways) {
  if (*sideways >= kGjkSidewaysSteps || next == v) return false;
  const double bound = std::sqrt(vv) + tau;
  if (!(nextVV <= bound * bound)) return false;
  ++*sideways;
  return true;
}

// First search direction: from B's centre towards A's (so −v points from A
// to B), or +x when the centres coincide.
template <class SA, class SB>
inline Vec3 initialDirection(const SA& a, const SB& b) {
  return normalizedOr(a.center() - b.center(), Vec3{1, 0, 0});
}

// A frame showing the state after a step: the iteration, W with the
// weights of v, v and ‖v‖² (and distance's lower bound). The caller names
// the step (event, reason, pseudocode line) and adds what it computed.
inline GjkFrame stateFrame(int iteration, const Simplex& simplex, const Vec3& v, double vv, double lowerBound = 0) {
  GjkFrame f;
  f.iteration = iteration;
  f.simplex = simplex;
  f.v = v;
  f.vv = vv;
  f.lowerBound = lowerBound;
  return f;
}

}  // namespace detail

// Distance between two convex shapes and a pair of closest points, or, when
// the shapes are farther apart than `margin`, an early stop that says so
// (contact.h). With margin = +∞ this is gjkDistance, step for step.
//
// The early stop. v·w/‖v‖ is a lower bound on the core distance at every
// step (w the support point in −v, see the termination note above), so
// once
//     v·w > (r_A + r_B + margin + τ)·‖v‖,   τ = 64u·S,
// the rounded shapes are more than `margin` apart: τ covers the rounding of
// v·w, as in gjkIntersect's separation test. The query stops there with
// beyondMargin set; a pair within the margin never meets the test and runs
// exactly as gjkDistance does. Before the first step the same test runs
// along the centres' direction (below).
//
// SA and SB provide `Vec3 support(const Vec3&) const` (world-space core),
// `double radius() const` and `Vec3 center() const` — PosedShape does.
template <class Trace = NoTrace, class SA, class SB>
DistanceResult gjkDistanceWithin(const SA& shapeA, const SB& shapeB, double margin, const GjkSettings& settings,
                                 Trace& trace) {
  using namespace gjk_lines;
  DistanceResult out;
  const double radius = shapeA.radius() + shapeB.radius();

  // v starts as a point of A − B: the support point in the direction that
  // points from B to A, W = {it}.
  Simplex simplex;
  const Vec3 towardsA = detail::initialDirection(shapeA, shapeB);
  simplex.vertex[0] = minkowskiSupport(shapeA, shapeB, towardsA);
  simplex.lambda[0] = 1;
  simplex.size = 1;
  Vec3 v = simplex.vertex[0].w;
  double vv = dot(v, v);
  double scale = detail::magnitudeOf(simplex.vertex[0]);
  if constexpr (detail::measuresTinyScene<SA, SB>()) {
    // Possibly a tiny scene (tiny_scene.h): only then is the first support
    // point below kTinyScene.
    if (scale < kTinyScene) {
      if (const int k = detail::tinySceneExponent(shapeA, shapeB)) {
        return detail::runScaled(shapeA, shapeB, k, trace, [&](const auto& sa, const auto& sb, double f, auto& st) {
          return gjkDistanceWithin(sa, sb, margin * f, settings, st);
        });
      }
    }
  }
  if (margin < std::numeric_limits<double>::infinity()) {
    // The centres' direction first, as gjkIntersect starts: one support
    // call, w = s_{A−B}(−u) for the unit u from B's centre to A's, and
    // u·w bounds the core distance from below. It proves most pairs far
    // beyond the margin; when it does not, nothing of it is kept and GJK
    // runs as gjkDistance does (one support call more).
    const SimplexVertex w = minkowskiSupport(shapeA, shapeB, -towardsA);
    const double uw = dot(towardsA, w.w);
    const double bound = maxOfNonNegative(scale, detail::magnitudeOf(w)) * kRoundingBound;
    if (uw > radius + margin + bound) {
      out.beyondMargin = true;
      out.distance = uw - radius;
      out.iterations = 1;
      out.status = GjkStatus::Converged;
      out.v = v;
      out.axis = towardsA;
      out.simplex = simplex;
      out.scale = scale;
      if constexpr (Trace::enabled) {
        GjkFrame f = detail::stateFrame(1, simplex, towardsA, 1);
        f.event = GjkEvent::Done;
        f.reason = GjkReason::Separated;
        f.line = kDistConverged;
        f.direction = -towardsA;
        f.hasSupport = true;
        f.support = w;
        f.vw = uw;
        trace.record(f);
      }
      return out;
    }
  }

  GjkStatus status = GjkStatus::MaxIterations;
  GjkReason reason = GjkReason::IterationCap;
  int line = kDistCap;
  bool overlap = false;
  int iteration = 0;
  int sideways = 0;
  int refinements = 0;
  double lower = 0;  // L: the best lower bound on the core distance so far (stalls, above)
  Vec3 lowerV;       // the v whose support gave L (DistanceResult::axis)
  Simplex refined;   // a stall's W and v, re-solved
  Vec3 refinedV;
  if constexpr (Trace::enabled) {
    GjkFrame f = detail::stateFrame(iteration, simplex, v, vv, lower);
    f.event = GjkEvent::Init;
    f.reason = GjkReason::StartFromPoint;
    f.line = kDistInit;
    trace.record(f);
  }
  // ‖v‖ within this of zero counts as touching: below it v is rounding noise.
  auto zeroBound = [&]() { return kRoundingBound * scale; };

  if (!(vv > zeroBound() * zeroBound())) {
    overlap = true;
    status = GjkStatus::Converged;
    reason = GjkReason::OriginTouching;
    line = kDistInside;
  }
  while (!overlap && iteration < settings.maxIterations) {
    ++iteration;
    const Vec3 direction = -v;
    const SimplexVertex w = minkowskiSupport(shapeA, shapeB, direction);
    scale = maxOfNonNegative(scale, detail::magnitudeOf(w));
    const double vw = dot(v, w.w);
    const double vNorm = std::sqrt(vv);
    if (margin < std::numeric_limits<double>::infinity() && vw > (radius + margin + kRoundingBound * scale) * vNorm) {
      out.beyondMargin = true;
      out.distance = vw / vNorm - radius;
      out.iterations = iteration;
      out.status = GjkStatus::Converged;
      out.v = out.axis = v;
      out.simplex = simplex;
      out.scale = scale;
      if constexpr (Trace::enabled) {
        GjkFrame f = detail::stateFrame(iteration, simplex, v, vv, lower);
        f.event = GjkEvent::Done;
        f.reason = GjkReason::Separated;
        f.line = kDistConverged;
        f.direction = direction;
        f.hasSupport = true;
        f.support = w;
        f.vw = vw;
        trace.record(f);
      }
      return out;
    }
    const double gap = vv - vw;
    const double tolerance = maxOfNonNegative(settings.relativeTolerance * vv, detail::absoluteBound(settings) * vNorm * scale);
    const double bound = vw / vNorm - kRoundingBound * scale;
    if (bound > lower) {
      lower = bound;
      lowerV = v;
    }
    // A stall (see the header) is certified when ‖v‖² − L‖v‖ meets the
    // tolerance; else a v on a segment is re-solved (into `refined`).
    const bool certified = vv - lower * vNorm <= tolerance;
    auto refine = [&]() {
      refined = simplex;
      refinedV = v;
      return !certified && refinements < detail::kGjkRefinements && resolveOnEdge(&refined, &refinedV);
    };
    auto adoptRefined = [&]() {
      ++refinements;
      simplex = refined;
      v = refinedV;
      vv = dot(v, v);
    };

    bool stop = false;
    bool resolved = false;
    if (gap <= tolerance) {
      stop = true;
      reason = GjkReason::GapWithinTolerance;
      line = kDistConverged;
    } else if (simplex.contains(w.w)) {
      // In exact arithmetic w ∈ W implies gap ≤ 0, caught above; here it
      // means rounding hides the next support point: a stall.
      resolved = refine();
      stop = !resolved;
      reason = certified ? GjkReason::BoundsWithinTolerance : resolved ? GjkReason::Refine : GjkReason::DuplicateSupport;
      line = certified || resolved ? kDistStall : kDistDuplicate;
    }
    if (stop) status = reason == GjkReason::DuplicateSupport ? GjkStatus::Degenerate : GjkStatus::Converged;
    if constexpr (Trace::enabled) {
      GjkFrame f = detail::stateFrame(iteration, simplex, v, vv, lower);
      f.event = GjkEvent::Support;
      f.reason = stop || resolved ? reason : GjkReason::Progress;
      f.line = stop || resolved ? line : kDistSupport;
      f.direction = direction;
      f.hasSupport = true;
      f.support = w;
      f.hasTest = true;
      f.vw = vw;
      f.gap = gap;
      f.tolerance = tolerance;
      trace.record(f);
    }
    if (stop) break;
    if (resolved) {
      // Go on from the re-solved v: the next step's support point, in the
      // corrected direction, either meets the gap test or moves W on.
      adoptRefined();
      if constexpr (Trace::enabled) {
        GjkFrame f = detail::stateFrame(iteration, simplex, v, vv, lower);
        f.event = GjkEvent::Simplex;
        f.reason = GjkReason::Refine;
        f.line = kDistStall;
        f.direction = direction;
        f.hasSupport = true;
        f.support = w;
        trace.record(f);
      }
      continue;
    }

    const Simplex previous = simplex;
    Vec3 next = addAndReduce(&simplex, w);
    // "The origin lies in the tetrahedron" stands only if its weights
    // express the origin to the distance's accuracy, ε_abs·S (simplex.h
    // weightsExpressOrigin): the closest points are Σ λ_i a_i and Σ λ_i b_i,
    // which differ by Σ λ_i w_i. On a flat box 2e6 long against a cone of
    // radius 10 (w_i ~ 1e6 apart along the box, 16 across) the weights can
    // miss the origin by ~1e-2. They are refined once; a tetrahedron whose
    // weights still miss is flat within rounding, and its faces' nearest
    // point becomes v. (The bound is not the touching bound 64u·S: thin
    // tetrahedra of a curved core just inside contact miss by more than
    // that, and refusing them would end in no-progress with a distance of
    // ~1e-9 instead of 0.)
    if (simplex.size == 4 && !weightsExpressOrigin(&simplex, detail::absoluteBound(settings) * scale))
      next = reduceTetrahedronToFaces(&simplex);
    const double nextVV = dot(next, next);

    if (simplex.size == 4) {
      overlap = true;
      reason = GjkReason::OriginInside;
    } else if (!(nextVV > zeroBound() * zeroBound())) {
      overlap = true;
      reason = GjkReason::OriginTouching;
    } else if (!(nextVV < vv) && !detail::sidewaysWithinRounding(next, nextVV, v, vv, zeroBound(), &sideways)) {
      // Rounding only: in exact arithmetic ‖v‖ strictly decreases while the
      // gap is positive. Keep the previous (smaller) v: a stall.
      simplex = previous;
      const bool again = refine();
      const GjkReason why =
          certified ? GjkReason::BoundsWithinTolerance : again ? GjkReason::Refine : GjkReason::NoProgress;
      const int at = certified || again ? kDistStall : kDistNoProgress;
      if (again) adoptRefined();
      if constexpr (Trace::enabled) {
        GjkFrame f = detail::stateFrame(iteration, simplex, v, vv, lower);
        f.event = GjkEvent::Simplex;
        f.reason = why;
        f.line = at;
        f.direction = direction;
        f.hasSupport = true;
        f.support = w;
        f.tolerance = tolerance;
        trace.record(f);
      }
      if (again) continue;
      status = certified ? GjkStatus::Converged : GjkStatus::Degenerate;
      reason = why;
      line = at;
      break;
    }
    v = overlap ? Vec3{} : next;
    vv = overlap ? 0 : nextVV;
    if (overlap) {
      status = GjkStatus::Converged;
      line = kDistInside;
    }
    if constexpr (Trace::enabled) {
      GjkFrame f = detail::stateFrame(iteration, simplex, v, vv, lower);
      f.event = GjkEvent::Simplex;
      f.reason = overlap ? reason : GjkReason::Progress;
      f.line = overlap ? kDistInside : kDistReduce;
      f.direction = direction;
      f.hasSupport = true;
      f.support = w;
      trace.record(f);
    }
  }

  out.iterations = iteration;
  out.status = status;
  out.coresOverlap = overlap;
  out.v = v;
  out.axis = reason == GjkReason::BoundsWithinTolerance && lower > 0 ? lowerV : v;
  out.simplex = simplex;
  out.scale = scale;
  const Vec3 pa = simplex.pointA();
  const Vec3 pb = simplex.pointB();
  if (overlap) {
    // Σλa = Σλb in exact arithmetic when Σλw = 0: a common point.
    out.distance = 0;
    out.pointA = out.pointB = (pa + pb) * 0.5;
  } else {
    const double coreDistance = std::sqrt(vv);
    const Vec3 normal = v / -coreDistance;  // from A towards B
    if (coreDistance > radius) {
      out.distance = coreDistance - radius;
      out.pointA = pa + normal * shapeA.radius();
      out.pointB = pb - normal * shapeB.radius();
    } else {
      // The rounded shapes overlap: the point splitting the core gap in the
      // ratio r_A : r_B lies within r_A of A's core and r_B of B's.
      out.distance = 0;
      out.pointA = out.pointB = pa + normal * (radius > 0 ? coreDistance * (shapeA.radius() / radius) : 0);
    }
  }
  if constexpr (Trace::enabled) {
    GjkFrame f = detail::stateFrame(iteration, simplex, v, vv, lower);
    f.event = GjkEvent::Done;
    f.reason = reason;
    f.line = radius > 0 && !overlap ? kDistRadii : line;
    trace.record(f);
  }
  return out;
}

template <class Trace = NoTrace, class SA, class SB>
DistanceResult gjkDistance(const SA& shapeA, const SB& shapeB, const GjkSettings& settings, Trace& trace) {
  return gjkDistanceWithin(shapeA, shapeB, std::numeric_limits<double>::infinity(), settings, trace);
}

template <class SA, class SB>
DistanceResult gjkDistance(const SA& a, const SB& b, const GjkSettings& settings = {}) {
  NoTrace none;
  return gjkDistance(a, b, settings, none);
}

// Boolean intersection. "Separated" is only reported with a certificate:
// some v with v·w > (r + τ)‖v‖ (τ the rounding bound), i.e. a plane that
// separates the shapes by more than rounding. Everything else — overlap,
// touching, or a stall within tolerance of touching — is "intersecting".
// Separated pairs usually take a few steps, and one step with a warm cache. The cache (optional) is read at the start and updated with the
// final v.
template <class Trace = NoTrace, class SA, class SB>
IntersectResult gjkIntersect(const SA& shapeA, const SB& shapeB, const GjkSettings& settings, GjkCache* cache,
                             Trace& trace) {
  using namespace gjk_lines;
  IntersectResult out;
  const double radius = shapeA.radius() + shapeB.radius();
  if constexpr (detail::measuresTinyScene<SA, SB>()) {
    // A tiny scene (tiny_scene.h) runs scaled. Its support points are not
    // known yet, so it is measured by its centres and radii first. The
    // cache holds a direction only: the scaled run's v serves as is.
    if (const int k = detail::tinySceneExponent(shapeA, shapeB, 0.0)) {
      return detail::runScaled(shapeA, shapeB, k, trace, [&](const auto& sa, const auto& sb, double, auto& st) {
        return gjkIntersect(sa, sb, settings, cache, st);
      });
    }
  }


  // v starts as a direction only (the cached one, or from B's centre to
  // A's); W stays empty until the first support point arrives.
  Simplex simplex;
  const bool warm = cache != nullptr && cache->valid && isFinite(cache->direction) &&
                    maxAbs(cache->direction) > 0;
  Vec3 v = warm ? cache->direction : detail::initialDirection(shapeA, shapeB);
  double vv = dot(v, v);
  double scale = 0;
  int iteration = 0;
  int line = kIsCap;
  GjkReason reason = GjkReason::IterationCap;
  GjkStatus status = GjkStatus::MaxIterations;
  bool intersecting = false;
  bool decided = false;
  int sideways = 0;
  if constexpr (Trace::enabled) {
    GjkFrame f = detail::stateFrame(iteration, simplex, v, vv);
    f.event = GjkEvent::Init;
    f.reason = warm ? GjkReason::StartFromCache : GjkReason::StartFromPoint;
    f.line = kIsInit;
    trace.record(f);
  }
  while (!decided && iteration < settings.maxIterations) {
    ++iteration;
    const Vec3 direction = -v;
    const SimplexVertex w = minkowskiSupport(shapeA, shapeB, direction);
    scale = maxOfNonNegative(scale, detail::magnitudeOf(w));
    const double tau = kRoundingBound * scale;
    const double vNorm = std::sqrt(vv);
    const double vw = dot(v, w.w);
    const double tolerance = maxOfNonNegative(settings.relativeTolerance * vv, detail::absoluteBound(settings) * vNorm * scale);

    // v·w/‖v‖ is a lower bound on the core distance.
    if (vw > (radius + tau) * vNorm) {
      decided = true;
      intersecting = false;
      reason = GjkReason::Separated;
      line = kIsSeparated;
      status = GjkStatus::Converged;
    } else if (simplex.size > 0 && (vv - vw <= tolerance || simplex.contains(w.w))) {
      // Converged without a separating axis: the distance lies between
      // v·w/‖v‖ ≤ r + τ and ‖v‖, i.e. within tolerance of touching.
      // Separation is only ever reported with a certificate.
      decided = true;
      intersecting = true;
      const bool duplicate = !(vv - vw <= tolerance);
      reason = duplicate ? GjkReason::DuplicateSupport : GjkReason::GapWithinTolerance;
      line = kIsConverged;
      status = duplicate ? GjkStatus::Degenerate : GjkStatus::Converged;
    }
    if constexpr (Trace::enabled) {
      GjkFrame f = detail::stateFrame(iteration, simplex, v, vv);
      f.event = GjkEvent::Support;
      f.reason = decided ? reason : GjkReason::Progress;
      f.line = decided ? line : kIsSupport;
      f.direction = direction;
      f.hasSupport = true;
      f.support = w;
      f.vw = vw;
      // The gap is tested (and shown) once W holds a point.
      f.hasTest = simplex.size > 0;
      f.gap = vv - vw;
      f.tolerance = tolerance;
      trace.record(f);
    }
    if (decided) break;

    const Simplex previous = simplex;
    const Vec3 next = addAndReduce(&simplex, w);
    const double nextVV = dot(next, next);
    const double nextNorm = std::sqrt(nextVV);
    if (simplex.size == 4 || nextNorm <= radius + tau) {
      decided = true;
      intersecting = true;
      reason = simplex.size == 4 ? GjkReason::OriginInside
                                 : (radius > 0 ? GjkReason::WithinMargins : GjkReason::OriginTouching);
      line = kIsInside;
      status = GjkStatus::Converged;
    } else if (previous.size > 0 && !(nextVV < vv) &&
               !detail::sidewaysWithinRounding(next, nextVV, v, vv, tau, &sideways)) {
      simplex = previous;
      decided = true;
      intersecting = true;  // no separating axis found
      reason = GjkReason::NoProgress;
      line = kIsNoProgress;
      status = GjkStatus::Degenerate;
      if constexpr (Trace::enabled) {
        GjkFrame f = detail::stateFrame(iteration, simplex, v, vv);
        f.event = GjkEvent::Simplex;
        f.reason = reason;
        f.line = line;
        f.direction = direction;
        f.hasSupport = true;
        f.support = w;
        trace.record(f);
      }
      break;
    }
    v = simplex.size == 4 ? Vec3{} : next;
    vv = simplex.size == 4 ? 0 : nextVV;
    if constexpr (Trace::enabled) {
      GjkFrame f = detail::stateFrame(iteration, simplex, v, vv);
      f.event = GjkEvent::Simplex;
      f.reason = decided ? reason : GjkReason::Progress;
      f.line = decided ? line : kIsReduce;
      f.direction = direction;
      f.hasSupport = true;
      f.support = w;
      trace.record(f);
    }
  }
  if (!decided) intersecting = true;  // iteration cap without a separating axis

  if (cache != nullptr) {
    // Keep the last v as the next frame's first direction (only a non-zero one).
    cache->valid = maxAbs(v) > 0;
    if (cache->valid) cache->direction = v;
  }
  out.intersecting = intersecting;
  out.iterations = iteration;
  out.status = status;
  if constexpr (Trace::enabled) {
    GjkFrame f = detail::stateFrame(iteration, simplex, v, vv);
    f.event = GjkEvent::Done;
    f.reason = reason;
    f.line = line;
    trace.record(f);
  }
  return out;
}

template <class SA, class SB>
IntersectResult gjkIntersect(const SA& a, const SB& b, const GjkSettings& settings = {}, GjkCache* cache = nullptr) {
  NoTrace none;
  return gjkIntersect(a, b, settings, cache, none);
}

}  // namespace collidoscope
