// collidoscope — ray casts and linear shape casts (time of impact) against
// convex shapes given by support mappings.
//
// Reference: G. van den Bergen, "Ray casting against general convex objects
// with application to continuous collision detection", 2004, as presented
// by M. Huotari, "Törmäyksen tunnistus 3D-ympäristössä", bachelor's thesis,
// Mikkeli University of Applied Sciences, 2011, ch. 6.2, pseudocode 12;
// the moving-spheres quadratic of the same thesis (ch. 6.1, after
// C. Ericson, "Real-Time Collision Detection", 2005).
//
// The ray cast. Find the smallest λ ∈ [0, maxT] with x = s + λr in C. Keep
// x (a point of the ray that lies before any point of C), a set P of support
// points of C (at most 4), and v = x − q, q the point of conv(P) nearest x,
// so ‖v‖ ≥ d(x, C). Each step takes p = s_C(v) and w = x − p. The plane
// through p with normal v bounds C: every y ∈ C has v·y ≤ v·p. Then
//
//   v·w > 0   x lies in front of that plane. If v·r ≥ 0 the whole ray
//             beyond x does too: miss. Otherwise slide x along the ray onto
//             the plane, λ ← λ − v·w / v·r (v·w > 0 and v·r < 0, so λ only
//             grows); every ray point skipped lies in front of some
//             supporting plane, so λ stays a lower bound on the hit. The
//             plane's normal is the candidate surface normal n ← v.
//   always    P ← the smallest subset of P ∪ {p} whose hull holds the point
//             nearest x, and v ← x minus that point (simplex.h, applied to
//             the points x − p_i: the signed-volume sub-algorithm of GJK).
//
// until ‖v‖ is within tolerance of zero (x lies in C: hit at λ). When x
// moves, P is kept but its points are re-expressed for the new x: the
// simplex stores the support points p_i themselves (as a_i − b_i) and
// every w_i = x − p_i is recomputed from them, never translated — as in
// van den Bergen's formulation, which keeps P and uses x − p. (Huotari's
// pseudocode resets P to {p} instead; keeping P converges in fewer steps
// and is equally valid, since the points of P stay points of C.)
//
// Rounded shapes (core ⊕ sphere of radius ρ, shapes.h). The cast runs on
// the core and the radius enters the plane test only: the rounded shape's
// supporting plane for normal v passes through p + ρ v̂, so "x in front"
// becomes v·w > ρ‖v‖, the step becomes λ ← λ − (v·w − ρ‖v‖)/v·r, and the
// hit test becomes ‖v‖ ≤ ρ + tolerance. On a sphere (a point core) the step
// is exactly Newton's method on d(λ) = |s + λr − c| − ρ, which converges
// quadratically from outside; a capsule or a rounded box converges in
// finitely many steps, like their polytopal cores. Curved cores (cylinder,
// cone, ellipsoid) converge linearly, as GJK does near touching contact:
// x always sits within a step of the surface. Grazing rays take the most
// steps (on ellipsoids, and near a cone's apex); the default cap of 256
// leaves them room.
//
// Termination and accuracy. With x fixed, the loop is GJK on the point x
// against C, so ‖v‖ decreases; when x moves, ‖v‖ may grow again, and the
// iteration converges as shown in the paper. The hit is accepted when
//     ‖v‖ − ρ ≤ max(τ·c, 64u·S),   τ = max(ε_rel·(ρ + max‖w_i‖), ε_abs·S),
// S the largest coordinate seen (ray origin, x, support points, ρ) and c
// the cosine between the ray and the last plane normal (1 before x has
// moved). ‖v‖ bounds d(x, C) from above, so x is within that distance of
// the surface; by convexity of d along the ray the hit time is then off by
// at most (‖v‖ − ρ)/(c*·|r|), c* the cosine at the true hit. Scaling by
// the estimate c of c* makes the position error along the ray about τ even
// for grazing rays (which take a few more steps), instead of τ/c*. The
// relative term is van den Bergen's ‖v‖² ≤ ε²·max‖w‖²; the absolute one
// is gjk.h's. 64u·S is the floor rounding allows (numeric.h kRoundingBound).
// A tetrahedron P that simplex.h says holds x is a hit only when its
// weights (refined once if need be) reproduce x within the same bound,
// |Σ λ_i w_i| ≤ tolerance; otherwise it is flat within rounding and its
// faces' nearest point is used as v (rayCastLoop, weightsExpressOrigin).
//
// Other exits, all with a status. Rounding can stall the GJK part while x
// stays put: the same support point twice, or ‖v‖ not decreasing (both
// impossible in exact arithmetic, where the hit test would stop first).
// Typically a sliver simplex causes it (on a cylinder's rim, a far cap
// point kept with weight 1e-8), so P restarts from the newest point, at
// most kRayMaxRestarts times; the next stall ends the query (Degenerate).
// That and the iteration cap (MaxIterations) report a hit at λ: λ is a
// certified lower bound on any hit time and no test proved a miss, so a
// game using the result cannot tunnel. Misses are only reported with a
// certificate (a plane with the rest of the ray in front of it, or λ past
// maxT), so status Converged.
//
// Results. A hit gives t = λ, point = x (within the tolerance above of the
// surface), and the outward unit normal. For ρ > 0 it is the final v̂ (from
// the core's nearest point to x: the rounded surface's normal, accurate to
// ~1e-9). For ρ = 0 it is the last plane normal n (on a polytope face the
// face normal; at a vertex or edge a valid normal of its normal cone), or,
// where the core is smooth, the weighted normal m of the final simplex's
// points, which is accurate to second order (see the end of rayCastLoop):
// ~1e-8 rad on ellipsoids instead of n's 1e-4. On a cylinder's side the
// support points are rim points and m does not apply: n is off by up to
// ~3e-5 rad there (its touching point is a chord's sagitta, ~√(τ·radius),
// from x). A ray whose origin lies in the shape (within tolerance) hits at
// t = 0 with startedInside = true and normal = zero: there is no entry
// surface, and a zero vector cannot be mistaken for one.
//
// The shape cast. A and B translate by tA and tB over t ∈ [0, 1]. They touch
// when a + t·tA = b + t·tB, i.e. t·(tB − tA) = a − b ∈ A − B: a ray from the
// origin with r = tB − tA against C = A − B (support minkowskiSupport,
// radius ρ_A + ρ_B, maxT = 1). C's outward normal at the hit points from A
// to B (the penetration normal of the scene format, README.md: the
// direction to move B to separate it). The simplex keeps each support
// point's sources a_i, b_i, so the weights of the final v give the contact
// points on A and B.
// A zero relative motion is valid: then the answer is "hit at 0" iff the
// shapes overlap.
//
// Spheres. A point core against a point core (spheres, or points with a
// margin) is solved in closed form: |s + t r − c|² = R² is a quadratic, the
// smaller root taken in the cancellation-free form t = c₀/q (see
// analyticSphereCast). RayCastSettings::analyticSpheres = false sends
// spheres through the GJK loop too (tests compare the two).
//
// Memory: fixed-size simplex; nothing in a query allocates (RayRecorder
// does, outside the NoTrace fast path).
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "collidoscope/gjk.h"
#include "collidoscope/math.h"
#include "collidoscope/shapes.h"
#include "collidoscope/simplex.h"
#include "collidoscope/support.h"
#include "collidoscope/trace.h"

namespace collidoscope {

// The casts' settings (numeric.h). The cap: polytopal and rounded-polytope
// cores hit in < 25 steps, spheres (Newton) in < 10 except near tangency;
// curved cores converge linearly, grazing rays slowest (header comment);
// at the cap the hit is reported at the lower bound λ.
// ε_rel and ε_abs are the hit test's (header comment).
struct RayCastSettings : IterativeSettings {
  // Solve point-core pairs (spheres) in closed form instead of by GJK.
  bool analyticSpheres = true;
};

enum class RayCastStatus {
  Converged,      // the hit or the miss is certified (within tolerance)
  MaxIterations,  // iteration cap: hit reported at the lower bound λ
  Degenerate,     // rounding stopped progress: hit reported at the lower bound λ
  InvalidInput,   // zero or non-finite direction, non-finite origin, maxT < 0 or NaN,
                  // negative radius or a non-finite support point: no hit
};

// Why the query stopped (and, in frames, what a step did).
enum class RayReason {
  None,
  Start,             // first point of C chosen
  AnalyticSphere,    // point cores: closed-form quadratic
  InvalidInput,      // see RayCastStatus::InvalidInput
  Progress,          // nothing decided yet
  Advanced,          // x was in front of the supporting plane: λ moved onto it
  PointsAway,        // miss: x in front of the plane and v·r ≥ 0
  BeyondMaxT,        // miss: the plane is reached only after maxT (or never, in doubles, or
                     // after the ray has left C's bounding box)
  PointInside,       // hit: x lies in the tetrahedron conv(P) ⊆ C
  WithinTolerance,   // hit: ‖v‖ − ρ within tolerance
  DuplicateSupport,  // degenerate: p already in P and x did not move (after the restarts)
  NoProgress,        // degenerate: ‖v‖ did not decrease with x fixed (after the restarts)
  Restart,           // one of the two stalls above: P restarted from {p}
  IterationCap,      // maxIterations reached
};

inline const char* rayCastStatusName(RayCastStatus s) {
  switch (s) {
    case RayCastStatus::Converged: return "converged";
    case RayCastStatus::MaxIterations: return "max-iterations";
    case RayCastStatus::Degenerate: return "degenerate";
    case RayCastStatus::InvalidInput: return "invalid-input";
  }
  return "degenerate";
}

inline const char* rayReasonName(RayReason r) {
  switch (r) {
    case RayReason::None: return "none";
    case RayReason::Start: return "start";
    case RayReason::AnalyticSphere: return "analytic-sphere";
    case RayReason::InvalidInput: return "invalid-input";
    case RayReason::Progress: return "progress";
    case RayReason::Advanced: return "advanced";
    case RayReason::PointsAway: return "points-away";
    case RayReason::BeyondMaxT: return "beyond-max-t";
    case RayReason::PointInside: return "point-inside";
    case RayReason::WithinTolerance: return "within-tolerance";
    case RayReason::DuplicateSupport: return "duplicate-support";
    case RayReason::NoProgress: return "no-progress";
    case RayReason::Restart: return "restart";
    case RayReason::IterationCap: return "iteration-cap";
  }
  return "none";
}

// Rounding stalls (p ∈ P, or ‖v‖ not decreasing, with x fixed) restart P
// from the newest support point at most this often per query; the next
// stall ends it with status Degenerate. A restart from one point clears a
// sliver simplex, so one or two suffice except on rays tangent to within
// rounding (where hit or miss is a coin toss anyway); 4 leaves room.
constexpr int kRayMaxRestarts = 4;

struct RayCastResult {
  bool hit = false;
  double t = 0;               // hit time, in units of direction (0 ≤ t ≤ maxT)
  Vec3 point;                 // origin + t·direction, on the surface within tolerance
  Vec3 normal;                // outward unit surface normal; zero on a miss or startedInside
  bool startedInside = false; // the origin lies in the shape: t = 0, normal zero
  int iterations = 0;
  RayCastStatus status = RayCastStatus::Converged;
  RayReason reason = RayReason::None;
};

struct ShapeCastResult {
  bool hit = false;
  double t = 0;                      // time of impact in [0, 1]
  Vec3 normal;                       // unit, from A to B at contact (move B along it to separate);
                                     // zero on a miss or when initiallyOverlapping
  Vec3 pointA;                       // contact point on A, at its position at time t
  Vec3 pointB;                       // contact point on B, at time t (= pointA within tolerance)
  bool initiallyOverlapping = false; // the shapes overlap at t = 0
  int iterations = 0;
  RayCastStatus status = RayCastStatus::Converged;
  RayReason reason = RayReason::None;
};

// A tiny scene's scaled run in the caller's units (tiny_scene.h): points
// times g; t (a fraction of the direction or motion) and normals unchanged.
inline void scaleLengths(RayCastResult* r, double g) { r->point = r->point * g; }
inline void scaleLengths(ShapeCastResult* r, double g) {
  r->pointA = r->pointA * g;
  r->pointB = r->pointB * g;
}

// ---- trace -----------------------------------------------------------------

enum class RayEvent {
  Init,     // x = s, first point of C, first v
  Support,  // p = s_C(v), the plane test, and the λ update if any
  Simplex,  // P ∪ {p} reduced, new v, hit test
  Done,     // the query returned
};

struct RayFrame {
  RayEvent event = RayEvent::Init;
  RayReason reason = RayReason::None;
  int line = 0;       // 1-based pseudocode line (ray_lines)
  int iteration = 0;  // 0 for Init
  double lambda = 0;  // λ after this step
  Vec3 x;             // s + λ r after this step
  // Support frames: whether λ moved, and from where to where.
  bool updated = false;
  double oldLambda = 0;
  double newLambda = 0;
  // P after this step. Support point i of C is simplex.vertex[i].a −
  // simplex.vertex[i].b (ray cast: b = 0; shape cast: the points on A and
  // B); simplex.vertex[i].w = x − p_i; simplex.lambda: weights of v.
  Simplex simplex;
  Vec3 v;  // Support: the v used for the support call; Simplex/Done: the new v
  bool hasSupport = false;
  SimplexVertex support;  // p = support.a − support.b (support.w = x − p with x before the update)
  Vec3 supportPoint;      // p
  Vec3 w;                 // x − p, x before the update (the quantity tested)
  // The supporting plane of the (rounded) shape tested in this step:
  // normal v̂ through p + ρ v̂.
  Vec3 planeNormal;
  Vec3 planePoint;
  double vw = 0;         // v·w
  double threshold = 0;  // ρ‖v‖: x is in front of the plane when v·w > threshold
  double vr = 0;         // v·r (meaningful when vw > threshold)
  double vv = 0;         // ‖v‖²
  double radius = 0;     // ρ
  double tolerance = 0;  // Simplex frames: the hit test's bound on ‖v‖ − ρ
  Vec3 normal;           // n: last plane normal (unnormalized; zero before any update);
                         // Done: the result's unit normal
  bool hit = false;      // Done: the result
  RayCastStatus status = RayCastStatus::Converged;  // Done: the result's status
};

// Lengths times g, squares times g², λ and unit normals unchanged.
inline void scaleLengths(RayFrame* f, double g) {
  f->x = f->x * g;
  scaleLengths(&f->simplex, g);
  f->v = f->v * g;
  scaleLengths(&f->support, g);
  f->supportPoint = f->supportPoint * g;
  f->w = f->w * g;
  f->planePoint = f->planePoint * g;
  f->vw *= g * g;
  f->threshold *= g * g;
  f->vr *= g * g;
  f->vv *= g * g;
  f->radius *= g;
  f->tolerance *= g;
  if (f->event != RayEvent::Done) f->normal = f->normal * g;  // n is unnormalized until Done
}

using RayRecorder = FrameRecorder<RayFrame>;

// Pseudocode line numbers (1-based) that frames name, the same for the ray
// and the shape cast; the text of each line is the caller's
// (web/lib/captions.ts), numbered the same way.
namespace ray_lines {
constexpr int kInit = 1, kLoop = 2, kSupport = 3, kInFront = 4, kAway = 5, kAdvance = 6, kMoveX = 7,
              kDuplicate = 8, kReduce = 9, kHit = 10, kNoProgress = 11, kCap = 12, kResult = 13, kAnalytic = 14;
constexpr int kCount = 14;  // lines of the pseudocode
}


// ---- closed form: a ray against a ball ---------------------------------------

// Ray s + t r (0 ≤ t ≤ maxT) against the ball |y − c| ≤ R. With m = s − c:
//     |m + t r|² = R²  ⇔  a t² + 2 b t + c₀ = 0,  a = r·r, b = r·m, c₀ = m·m − R².
// c₀ ≤ 0: s is inside (t = 0). b ≥ 0: moving away (miss). Otherwise the
// discriminant b² − a c₀ is evaluated as a(R² − |l|²) with l = m − (b/a) r
// the offset of the line's closest approach (no cancellation between b²
// and a c₀ near tangency; Hearn–Baker), and the smaller root as
// t = c₀ / q, q = −b + √disc > 0 (the product of the roots is c₀/a; this
// form never subtracts nearly equal numbers, unlike (−b − √disc)/a).
// Returns hit/t/point/normal; status InvalidInput for bad numbers. a = 0 is
// allowed here (used by the shape cast for zero relative motion).
inline RayCastResult analyticSphereCast(const Vec3& s, const Vec3& r, double maxT, const Vec3& c, double R) {
  RayCastResult out;
  out.reason = RayReason::AnalyticSphere;
  if (!isFinite(s) || !isFinite(r) || !isFinite(c) || !(R >= 0) || !std::isfinite(R) || std::isnan(maxT) ||
      !(maxT >= 0)) {
    out.status = RayCastStatus::InvalidInput;
    out.reason = RayReason::InvalidInput;
    return out;
  }
  // m and R at unit size when the sphere and the origin lie within 2^-500
  // of each other (a point 2.5e-316 from the origin, and a ray 4 long, which
  // keeps the tiny scene from magnifying them further: tiny_scene.h):
  // squared, they would underflow to 0, "inside". Powers of two, so exact;
  // t, in units of the same u, scales back by the same power.
  const double size = std::fmax(maxAbs(s - c), R);
  const int k = size > 0 && size < 0x1p-500 ? -std::ilogb(size) : 0;
  const Vec3 m = (s - c) * std::ldexp(1.0, k);
  R = std::ldexp(R, k);
  const double mm = length(m);
  const double c0 = (mm - R) * (mm + R);  // m·m − R², factored: relative error ~u
  if (c0 <= 0) {
    out.hit = true;
    out.startedInside = true;
    out.point = s;
    return out;
  }
  // t scales as 1/|r|: solve for u = r/2^e, |u| in [0.5, 1) (a power of two,
  // so exact: the same bits as with r itself), then t = t_u/2^e. Otherwise
  // a = r·r overflows for |r| > ~1e154 or underflows for |r| < ~1e-154 and a
  // hit is reported as a miss.
  int e = 0;
  std::frexp(maxAbs(r), &e);
  const Vec3 u = r * std::ldexp(1.0, -e);
  const double a = dot(u, u);
  const double b = dot(u, m);
  if (!(a > 0) || b >= 0) return out;  // no motion, or moving away from the centre
  const Vec3 l = m - u * (b / a);
  const double ll = length(l);
  const double disc = a * ((R - ll) * (R + ll));
  if (disc < 0) return out;  // the line passes farther than R from the centre
  const double q = -b + std::sqrt(disc);
  const double tu = c0 / q;
  const double t = std::ldexp(tu, -e - k);
  if (!(t <= maxT)) return out;
  out.hit = true;
  out.t = t;
  out.point = s + u * std::ldexp(tu, -k);
  // The outward normal at the hit: (hit − c)/R. hit − c carries the
  // rounding of m + u·t_u, ~4u·|m|: for a radius within (64 times) that —
  // a point, whose ray passes exactly through it — it is noise (a random
  // normal, possibly with the ray's origin behind its plane), and the
  // ray's reverse direction is used.
  // Otherwise a normal that rounding tilted past tangent at a grazing hit
  // loses its component along the ray, so that it always faces the ray.
  const Vec3 back = normalizedOr(-u, Vec3{0, 1, 0});
  if (!(R > 4 * kRoundingBound * mm)) {
    out.normal = back;
  } else {
    out.normal = normalizedOr(m + u * tu, back);
    const double along = dot(out.normal, back);
    if (along < 0) out.normal = normalizedOr(out.normal - back * along, back);
  }
  return out;
}

namespace detail {

// Result of the shared loop (ray cast or shape cast).
struct RayLoopResult {
  bool hit = false;
  bool startedInside = false;
  double lambda = 0;
  Vec3 x;
  Vec3 normal;  // unit or zero
  Vec3 v;
  Simplex simplex;
  int iterations = 0;
  RayCastStatus status = RayCastStatus::Converged;
  RayReason reason = RayReason::None;
};

// A support mapping of one shape as a source of SimplexVertex (a = p, b = 0).
template <class S>
struct SingleSupport {
  const S* shape;
  SimplexVertex operator()(const Vec3& d) const {
    SimplexVertex sv;
    sv.a = shape->support(d);
    sv.w = sv.a;
    return sv;
  }
};

// The Minkowski difference A − B (a on A, b on B, p = a − b).
template <class SA, class SB>
struct DifferenceSupport {
  const SA* a;
  const SB* b;
  SimplexVertex operator()(const Vec3& d) const { return minkowskiSupport(*a, *b, d); }
};

inline Vec3 supportPointOf(const SimplexVertex& sv) { return sv.a - sv.b; }

// v for a 2-point P, recomputed from the end nearer the origin. simplex.h
// forms v = (1 − t) y_0 + t y_1; when the nearest point lies 1e-7 of the
// way along a long segment from one end — a ray grazing a polytope vertex,
// with x 1e-8 from the vertex and 0.3 from the other end — 1 − t keeps
// only 9 digits and v's direction is off by ~1e-7, enough to stall the next
// support call. With y_n the nearer end and e = y_f − y_n,
//     v = y_n + e·s,  s = −(y_n·e)/(e·e),
// has an absolute error of u·|y_n| + u·s·|e|, i.e. relative to ‖v‖ itself.
// The weights are set to match (λ_f = s, λ_n = 1 − s).
inline Vec3 accurateSegmentV(Simplex* simplex) {
  const int nearer = lengthSquared(simplex->vertex[0].w) <= lengthSquared(simplex->vertex[1].w) ? 0 : 1;
  const int farther = 1 - nearer;
  const Vec3 yn = simplex->vertex[nearer].w;
  const Vec3 e = simplex->vertex[farther].w - yn;
  const double ee = dot(e, e);
  if (!(ee > 0)) return simplex->point();
  const double s = std::fmin(1.0, std::fmax(0.0, -dot(yn, e) / ee));
  simplex->lambda[nearer] = 1 - s;
  simplex->lambda[farther] = s;
  return yn + e * s;
}

// The van den Bergen loop (see the header comment). `support(d)` returns a
// SimplexVertex whose a − b is s_C(d); rho is C's radius; firstDirection
// picks the first point of C (any point of C will do).
template <class Trace, class Support>
RayLoopResult rayCastLoop(const Support& support, double rho, const Vec3& s, const Vec3& r, double maxT,
                          const Vec3& firstDirection, const RayCastSettings& settings, Trace& trace) {
  using namespace ray_lines;
  RayLoopResult out;
  const double roundFloor = kRoundingBound;  // 64u: rounding of a coordinate difference
  const double absBound = std::fmax(settings.absoluteTolerance, roundFloor);
  const double rNorm = length(r);

  double lambda = 0;
  Vec3 x = s;
  Vec3 n;             // last plane normal (unnormalized)
  bool moved = false; // λ > 0 has been reached
  Simplex simplex;    // P: a_i − b_i are points of C, w_i = x − p_i
  Vec3 dirs[4];       // the direction each point of P was the support point for
  Vec3 lastP;         // support point of the last λ update (its plane holds x)
  double lastTol = 0; // the hit test's bound in the last step
  int restarts = 0;   // rounding stalls survived (kRayMaxRestarts)

  // Every hit lies in C's bounding box grown by ρ. A step that would take x
  // far beyond everything the loop has seen (a ray grazing a face crosses
  // the nearly parallel plane far away, up to maxT) is checked against the
  // ray's exit from that box: past the exit it is a miss. The box costs six
  // supports, once per query and only then; it also keeps ‖x‖² finite.
  bool boxKnown = false;
  double boxExit = std::numeric_limits<double>::infinity();
  auto pastBox = [&](double next) {
    if (!boxKnown) {
      boxKnown = true;
      for (int axis = 0; axis < 3; ++axis) {
        Vec3 e;
        e[axis] = 1;
        const double hi = supportPointOf(support(e))[axis] + rho;
        const double lo = supportPointOf(support(-e))[axis] - rho;
        if (!std::isfinite(hi) || !std::isfinite(lo)) {
          boxExit = std::numeric_limits<double>::infinity();
          break;
        }
        const double pad = roundFloor * std::fmax(std::fmax(std::fabs(lo), std::fabs(hi)), std::fabs(s[axis]));
        if (r[axis] == 0) {
          if (s[axis] < lo - pad || s[axis] > hi + pad) boxExit = -std::numeric_limits<double>::infinity();
          continue;
        }
        const double t0 = (lo - pad - s[axis]) / r[axis], t1 = (hi + pad - s[axis]) / r[axis];
        boxExit = std::fmin(boxExit, std::fmax(t0, t1));
      }
    }
    // (A ray beside the box, parallel to one of its slabs, never enters it:
    // boxExit = −∞, and any step is past it.)
    return next > boxExit + (std::isfinite(boxExit) ? std::fabs(boxExit) * roundFloor : 0.0);
  };

  const SimplexVertex first = support(firstDirection);
  const Vec3 p0 = supportPointOf(first);
  Vec3 v = x - p0;
  double vv = dot(v, v);
  double scale = std::fmax(std::fmax(maxAbs(s), magnitudeOf(first)), rho);

  // Hit test on ‖v‖ − ρ (header comment). maxW: largest ‖w_i‖ of P.
  auto tolerance = [&](double maxW) {
    const double tau = std::fmax(settings.relativeTolerance * (rho + maxW), absBound * scale);
    double c = 1;
    if (moved && rNorm > 0) {
      const double nn = length(n);
      c = nn > 0 ? std::fmin(1.0, std::fmax(0.0, -dot(n, r) / (nn * rNorm))) : 1.0;
    }
    return std::fmax(tau * c, roundFloor * scale);
  };

  int iteration = 0;
  RayReason reason = RayReason::IterationCap;
  RayCastStatus status = RayCastStatus::MaxIterations;
  bool hit = true;  // the cap reports a hit at the lower bound (header comment)
  int line = kCap;
  bool decided = false;

  if (!isFinite(p0)) {
    decided = true;
    hit = false;
    status = RayCastStatus::InvalidInput;
    reason = RayReason::InvalidInput;
    line = kSupport;
  } else {
    // v = x − p0 with p0 ∈ C already bounds d(x, C): the origin may be
    // inside before any iteration.
    const double tol0 = tolerance(std::sqrt(vv));
    if (std::sqrt(vv) - rho <= tol0) {
      decided = true;
      reason = RayReason::WithinTolerance;
      status = RayCastStatus::Converged;
      line = kHit;
    }
  }
  if constexpr (Trace::enabled) {
    RayFrame f;
    f.event = RayEvent::Init;
    f.reason = RayReason::Start;
    f.line = kInit;
    f.x = x;
    f.v = v;
    f.vv = vv;
    f.radius = rho;
    f.hasSupport = true;
    f.support = first;
    f.supportPoint = p0;
    trace.record(std::move(f));
  }

  while (!decided && iteration < settings.maxIterations) {
    ++iteration;
    const Vec3 dir = v;
    const SimplexVertex sv = support(dir);
    const Vec3 p = supportPointOf(sv);
    if (!isFinite(p)) {
      hit = false;
      status = RayCastStatus::InvalidInput;
      reason = RayReason::InvalidInput;
      line = kSupport;
      break;
    }
    scale = std::fmax(scale, magnitudeOf(sv));
    const Vec3 w = x - p;
    const double vNorm = std::sqrt(vv);
    const double vw = dot(v, w);
    const double threshold = rho * vNorm;
    double vr = 0;
    bool updated = false;
    bool miss = false;
    const double oldLambda = lambda;
    if (vw > threshold) {
      // x lies in front of the plane v·y = v·p + ρ‖v‖ of the rounded shape.
      vr = dot(v, r);
      if (!(vr < 0)) {
        miss = true;
        reason = RayReason::PointsAway;
        line = kAway;
      } else {
        // The ray reaches the plane at λ + (v·w − ρ‖v‖)/(−v·r). The
        // division is guarded by the tests below: a tiny −v·r gives a huge
        // or infinite step, which is a miss (past maxT, or never in doubles).
        const double next = lambda + (vw - threshold) / -vr;
        if (!std::isfinite(next) || !(next <= maxT) || (maxAbs(s + r * next) > 4 * scale && pastBox(next))) {
          miss = true;
          reason = RayReason::BeyondMaxT;
          line = kAdvance;
        } else {
          lambda = next;
          x = s + r * lambda;
          n = v;
          lastP = p;
          moved = lambda > 0;
          updated = true;
          scale = std::fmax(scale, maxAbs(x));
          for (int i = 0; i < simplex.size; ++i) simplex.vertex[i].w = x - supportPointOf(simplex.vertex[i]);
        }
      }
    }
    SimplexVertex added = sv;
    added.w = x - p;
    const bool duplicate = [&] {
      for (int i = 0; i < simplex.size; ++i)
        if (simplex.vertex[i].a == sv.a && simplex.vertex[i].b == sv.b) return true;
      return false;
    }();
    // Rounding stall: p ∈ P while x stayed put (in exact arithmetic the
    // gap test would have stopped first). Restart P from {p} a few times —
    // a sliver simplex (e.g. on a cylinder's rim, one far cap point kept
    // with weight 1e-8) is what usually stalls, and a fresh start from the
    // newest point escapes it — then give up with status Degenerate.
    const bool stall = !miss && duplicate && !updated;
    const bool restartOnStall = stall && restarts < kRayMaxRestarts;
    if (stall && !restartOnStall) {
      reason = RayReason::DuplicateSupport;
      line = kDuplicate;
      status = RayCastStatus::Degenerate;
    }
    if constexpr (Trace::enabled) {
      RayFrame f;
      f.event = RayEvent::Support;
      f.reason = miss ? reason
                      : stall ? (restartOnStall ? RayReason::Restart : RayReason::DuplicateSupport)
                              : (updated ? RayReason::Advanced : RayReason::Progress);
      f.line = miss ? line : stall ? kDuplicate : (updated ? kMoveX : kSupport);
      f.iteration = iteration;
      f.lambda = lambda;
      f.x = x;
      f.updated = updated;
      f.oldLambda = oldLambda;
      f.newLambda = lambda;
      f.simplex = simplex;
      f.v = dir;
      f.vv = vv;
      f.hasSupport = true;
      f.support = sv;
      f.support.w = w;
      f.supportPoint = p;
      f.w = w;
      f.planeNormal = normalizedOr(dir, Vec3{});
      f.planePoint = p + f.planeNormal * rho;
      f.vw = vw;
      f.threshold = threshold;
      f.vr = vr;
      f.radius = rho;
      f.normal = n;
      trace.record(std::move(f));
    }
    if (miss) {
      hit = false;
      status = RayCastStatus::Converged;
      decided = true;
      break;
    }
    if (stall && !restartOnStall) {
      decided = true;
      break;
    }

    const Simplex previous = simplex;
    Vec3 previousDirs[4];
    for (int i = 0; i < 4; ++i) previousDirs[i] = dirs[i];
    const double previousVV = vv;
    const bool comparable = !updated && previous.size > 0 && !restartOnStall;
    auto restartFromNewest = [&]() {
      ++restarts;
      simplex.size = 1;
      simplex.vertex[0] = added;
      simplex.lambda[0] = 1;
      dirs[0] = dir;
      return added.w;
    };
    Vec3 next;
    if (restartOnStall) {
      next = restartFromNewest();
    } else {
      next = duplicate ? reduceSimplex(&simplex) : addAndReduce(&simplex, added);
      if (simplex.size == 4) {
        // "x lies in the tetrahedron" is a hit only if the weights express
        // x (simplex.h weightsExpressOrigin): Σ λ_i w_i within the hit
        // tolerance of zero, as v must be for a WithinTolerance hit (the
        // shape cast's contact points are Σ λ_i a_i and Σ λ_i b_i, which
        // differ by exactly that sum). For a needle (three support points
        // within 3e-5 on a cylinder's rim, 8 from x, the fourth 16 away)
        // the signed volumes are rounding noise, and weights from them can
        // put the contact points a unit apart. Such a tetrahedron is flat
        // within rounding: its faces' nearest point becomes v, and the
        // loop goes on from there.
        double maxW4 = 0;
        for (int i = 0; i < 4; ++i) maxW4 = std::fmax(maxW4, length(simplex.vertex[i].w));
        if (!weightsExpressOrigin(&simplex, tolerance(maxW4))) next = reduceTetrahedronToFaces(&simplex);
      }
      if (simplex.size == 2) next = accurateSegmentV(&simplex);
      // The reduction keeps a subset of the points, possibly reordered:
      // carry each point's direction along (a new point's is this step's v).
      for (int k = 0; k < simplex.size; ++k) {
        dirs[k] = dir;
        for (int j = 0; j < previous.size; ++j)
          if (previous.vertex[j].a == simplex.vertex[k].a && previous.vertex[j].b == simplex.vertex[k].b) {
            dirs[k] = previousDirs[j];
            break;
          }
      }
    }
    const double nextVV = dot(next, next);
    double maxW = 0;
    for (int i = 0; i < simplex.size; ++i) maxW = std::fmax(maxW, length(simplex.vertex[i].w));
    const double tol = tolerance(maxW);
    lastTol = tol;
    RayReason stepReason = restartOnStall ? RayReason::Restart : RayReason::Progress;
    int stepLine = restartOnStall ? kDuplicate : kReduce;
    if (simplex.size == 4) {
      v = Vec3{};
      vv = 0;
      decided = true;
      stepReason = RayReason::PointInside;
      stepLine = kHit;
      status = RayCastStatus::Converged;
    } else if (std::sqrt(nextVV) - rho <= tol) {
      v = next;
      vv = nextVV;
      decided = true;
      stepReason = RayReason::WithinTolerance;
      stepLine = kHit;
      status = RayCastStatus::Converged;
    } else if (comparable && !(nextVV < previousVV)) {
      // With x fixed this is GJK, where ‖v‖ strictly decreases in exact
      // arithmetic: only rounding gets here. Restart from the newest point
      // (as for a duplicate), or give up keeping the previous simplex.
      stepLine = kNoProgress;
      if (restarts < kRayMaxRestarts) {
        const Vec3 restartV = restartFromNewest();
        v = restartV;
        vv = dot(restartV, restartV);
        stepReason = RayReason::Restart;
      } else {
        simplex = previous;
        for (int i = 0; i < 4; ++i) dirs[i] = previousDirs[i];
        decided = true;
        stepReason = RayReason::NoProgress;
        status = RayCastStatus::Degenerate;
      }
    } else {
      v = next;
      vv = nextVV;
    }
    if (decided) {
      reason = stepReason;
      line = stepLine;
    }
    if constexpr (Trace::enabled) {
      RayFrame f;
      f.event = RayEvent::Simplex;
      f.reason = stepReason;
      f.line = stepLine;
      f.iteration = iteration;
      f.lambda = lambda;
      f.x = x;
      f.updated = updated;
      f.oldLambda = oldLambda;
      f.newLambda = lambda;
      f.simplex = simplex;
      f.v = v;
      f.vv = vv;
      f.radius = rho;
      f.tolerance = tol;
      f.normal = n;
      trace.record(std::move(f));
    }
  }

  out.hit = hit;
  out.iterations = iteration;
  out.status = status;
  out.reason = reason;
  out.lambda = hit ? lambda : 0;
  out.x = hit ? x : Vec3{};
  out.v = v;
  out.simplex = simplex;
  if (hit) {
    out.startedInside = !moved;
    if (moved) {
      const double vNorm = std::sqrt(vv);
      if (rho > 0 && vNorm >= 0.5 * rho && vNorm > 2 * lastTol) {
        // v̂ (from the core's nearest point to x) is the rounded surface's
        // normal, as accurate as v (used when ‖v‖ clearly exceeds rounding:
        // half the radius, and twice the hit test's bound — a radius below
        // the tolerance, a margin of 1e-155 say, leaves v pure noise, which
        // could flip a shape cast's normal).
        out.normal = v / vNorm;
      } else {
        // The last plane's normal n is exact at its support point p, but on
        // a curved core p lies ~√(tolerance·radius) from x (the step that
        // put x on that plane left x that far out), so n is off by ~1e-5
        // rad there. The points of P bracket x with weights λ_i, and near a
        // smooth spot the normal varies linearly with the support point, so
        // m = Σ λ_i û_i (û_i the direction p_i was extreme for) is the
        // normal at x to second order. m is taken only when its plane
        // supports C at x (m·(s_C(m) − x) within tolerance: rejects a mix
        // of a polytope's vertex normals off a face), touches C closer to x
        // than n's plane does, and faces the ray as n does (m·r < 0: at a
        // vertex, m can be any direction the vertex was extreme for, e.g.
        // the first search direction, which a ray grazing past a segment's
        // end may be travelling along).
        out.normal = normalizedOr(n, Vec3{});
        Vec3 m;
        for (int i = 0; i < simplex.size; ++i) m += normalizedOr(dirs[i], Vec3{}) * simplex.lambda[i];
        const Vec3 mHat = normalizedOr(m, Vec3{});
        if (maxAbs(mHat) > 0) {
          const Vec3 pm = supportPointOf(support(mHat));
          if (isFinite(pm) && dot(mHat, pm - x) <= lastTol && lengthSquared(pm - x) < lengthSquared(lastP - x) &&
              dot(mHat, r) < 0)
            out.normal = mHat;
        }
      }
      // As in analyticSphereCast: a normal that rounding tilted past
      // tangent at a grazing hit (v's direction carries the tolerance's
      // error, ~ε·S/ρ rad) loses its component along the ray, so that it
      // always faces the ray.
      const Vec3 back = normalizedOr(-r, Vec3{});
      const double along = dot(out.normal, back);
      if (along < 0) out.normal = normalizedOr(out.normal - back * along, out.normal);
    }
  }
  if constexpr (Trace::enabled) {
    RayFrame f;
    f.event = RayEvent::Done;
    f.reason = reason;
    f.line = hit && status == RayCastStatus::Converged ? kResult : line;
    f.iteration = iteration;
    f.lambda = out.lambda;
    f.x = x;
    f.simplex = simplex;
    f.v = v;
    f.vv = vv;
    f.radius = rho;
    f.normal = out.normal;
    f.hit = hit;
    f.status = status;
    trace.record(std::move(f));
  }
  return out;
}

// Point cores (spheres; points and boxes of no extent, with a margin) of PosedShape, for the
// closed form. Other shape types never take the analytic path.
template <class S>
inline bool pointCore(const S& shape, Vec3* centre) {
  if constexpr (std::is_same_v<S, PosedShape>) {
    const Shape& s = shape.shape();
    const ShapeType t = s.type;
    // A box of no extent is a point too (its margin the radius).
    const bool pointBox = t == ShapeType::Box && s.halfExtents == Vec3{0, 0, 0};
    if ((t == ShapeType::Sphere || t == ShapeType::Point || pointBox) && isUnscaled(s)) {
      *centre = shape.center();
      return true;
    }
  } else if constexpr (IsScaledShape<S>::value) {
    // A tiny scene run scaled (tiny_scene.h): the same closed form.
    if (pointCore(*shape.shape, centre)) {
      *centre = *centre * shape.factor;
      return true;
    }
    return false;
  }
  (void)shape;
  (void)centre;
  return false;
}

template <class Trace>
inline void recordAnalytic(Trace& trace, const Vec3& s, const Vec3& c, double rho, const RayCastResult& r) {
  using namespace ray_lines;
  RayFrame init;
  init.event = RayEvent::Init;
  init.reason = RayReason::AnalyticSphere;
  init.line = kAnalytic;
  init.x = s;
  init.v = s - c;
  init.vv = dot(init.v, init.v);
  init.radius = rho;
  init.hasSupport = true;
  init.support.a = c;
  init.support.w = s - c;
  init.supportPoint = c;
  trace.record(std::move(init));
  RayFrame done;
  done.event = RayEvent::Done;
  done.reason = r.status == RayCastStatus::InvalidInput ? RayReason::InvalidInput : RayReason::AnalyticSphere;
  done.line = kAnalytic;
  done.lambda = r.t;
  done.x = r.hit ? r.point : s;
  done.v = done.x - c;
  done.vv = dot(done.v, done.v);
  done.radius = rho;
  done.normal = r.normal;
  done.hit = r.hit;
  done.status = r.status;
  trace.record(std::move(done));
}

template <class Trace>
inline void recordInvalid(Trace& trace, const Vec3& s) {
  RayFrame f;
  f.event = RayEvent::Done;
  f.reason = RayReason::InvalidInput;
  f.line = ray_lines::kInit;
  f.x = s;
  f.status = RayCastStatus::InvalidInput;
  trace.record(std::move(f));
}

}  // namespace detail


// Ray x(t) = origin + t·direction, 0 ≤ t ≤ maxT (maxT may be +∞), against a
// convex shape: any type with `Vec3 support(const Vec3&) const` (world-space
// core), `double radius() const` and `Vec3 center() const` (PosedShape).
// direction need not be unit but must be non-zero and finite.
template <class Trace = NoTrace, class S>
RayCastResult gjkRayCast(const S& shape, const Vec3& origin, const Vec3& direction, double maxT,
                         const RayCastSettings& settings, Trace& trace) {
  RayCastResult out;
  const double rho = shape.radius();
  if (!isFinite(origin) || !isFinite(direction) || !(maxAbs(direction) > 0) || std::isnan(maxT) || !(maxT >= 0) ||
      !std::isfinite(rho) || !(rho >= 0)) {
    out.status = RayCastStatus::InvalidInput;
    out.reason = RayReason::InvalidInput;
    if constexpr (Trace::enabled) detail::recordInvalid(trace, origin);
    return out;
  }
  if constexpr (detail::measuresTinyScene<S, S>()) {
    // A tiny scene (tiny_scene.h) runs scaled; t is unchanged.
    if (const int k = detail::tinyCastExponent(shape, shape, maxAbs(origin), maxAbs(direction))) {
      return detail::runScaled(shape, shape, k, trace, [&](const auto& scaled, const auto&, double f, auto& st) {
        return gjkRayCast(scaled, origin * f, direction * f, maxT, settings, st);
      });
    }
  }

  Vec3 centre;
  if (settings.analyticSpheres && detail::pointCore(shape, &centre)) {
    out = analyticSphereCast(origin, direction, maxT, centre, rho);
    if constexpr (Trace::enabled) detail::recordAnalytic(trace, origin, centre, rho, out);
    return out;
  }
  // First point of C: the one facing the ray origin (or the ray).
  const Vec3 first = normalizedOr(origin - shape.center(), normalizedOr(-direction, Vec3{1, 0, 0}));
  const detail::SingleSupport<S> support{&shape};
  const detail::RayLoopResult loop =
      detail::rayCastLoop(support, rho, origin, direction, maxT, first, settings, trace);
  out.hit = loop.hit;
  out.t = loop.lambda;
  out.point = loop.x;
  out.normal = loop.normal;
  out.startedInside = loop.startedInside;
  out.iterations = loop.iterations;
  out.status = loop.status;
  out.reason = loop.reason;
  return out;
}

template <class S>
RayCastResult gjkRayCast(const S& shape, const Vec3& origin, const Vec3& direction, double maxT,
                         const RayCastSettings& settings = {}) {
  NoTrace none;
  return gjkRayCast(shape, origin, direction, maxT, settings, none);
}

// Linear cast: A moves by translationA and B by translationB over t ∈ [0, 1].
// Returns the first time they touch (the rounded shapes), the contact
// normal (unit, from A to B) and the contact points at that time. SA, SB as
// for gjkDistance.
template <class Trace = NoTrace, class SA, class SB>
ShapeCastResult gjkShapeCast(const SA& shapeA, const SB& shapeB, const Vec3& translationA, const Vec3& translationB,
                             const RayCastSettings& settings, Trace& trace) {
  ShapeCastResult out;
  const double rhoA = shapeA.radius(), rhoB = shapeB.radius();
  const double rho = rhoA + rhoB;
  const Vec3 r = translationB - translationA;
  if (!isFinite(translationA) || !isFinite(translationB) || !isFinite(r) || !std::isfinite(rho) || !(rhoA >= 0) ||
      !(rhoB >= 0)) {
    out.status = RayCastStatus::InvalidInput;
    out.reason = RayReason::InvalidInput;
    if constexpr (Trace::enabled) detail::recordInvalid(trace, Vec3{});
    return out;
  }
  if constexpr (detail::measuresTinyScene<SA, SB>()) {
    // A tiny scene (tiny_scene.h) runs scaled; t is unchanged.
    if (const int k =
            detail::tinyCastExponent(shapeA, shapeB, 0.0, std::fmax(maxAbs(translationA), maxAbs(translationB)))) {
      return detail::runScaled(shapeA, shapeB, k, trace, [&](const auto& sa, const auto& sb, double f, auto& st) {
        return gjkShapeCast(sa, sb, translationA * f, translationB * f, settings, st);
      });
    }
  }

  Vec3 ca, cb;
  if (settings.analyticSpheres && detail::pointCore(shapeA, &ca) && detail::pointCore(shapeB, &cb)) {
    // C = ball(ca − cb, ρ), ray from the origin along r.
    const RayCastResult ray = analyticSphereCast(Vec3{}, r, 1.0, ca - cb, rho);
    if constexpr (Trace::enabled) detail::recordAnalytic(trace, Vec3{}, ca - cb, rho, ray);
    out.hit = ray.hit;
    out.status = ray.status;
    out.reason = ray.reason;
    out.initiallyOverlapping = ray.startedInside;
    if (ray.hit) {
      out.t = ray.t;
      const Vec3 pa = ca + translationA * ray.t, pb = cb + translationB * ray.t;
      if (ray.startedInside) {
        // A common point: on the centre line, splitting it ρ_A : ρ_B.
        const Vec3 d = pb - pa;
        out.pointA = out.pointB = pa + d * (rho > 0 ? rhoA / rho : 0.5);
      } else {
        // C's outward normal at x = t·r ∈ ∂C is (x − (ca − cb))/ρ =
        // (pb − pa)/ρ at time t: from A's centre to B's.
        // (For radii within rounding of the centres' distance, points say,
        // pb − pa is noise: the closed form's normal, which then faces
        // the motion, is used as it is.)
        const bool noise = !(rho > 4 * kRoundingBound * length(ca - cb));
        out.normal = noise ? ray.normal : normalizedOr(pb - pa, ray.normal);
        out.pointA = pa + out.normal * rhoA;
        out.pointB = pb - out.normal * rhoB;
      }
    }
    return out;
  }
  // First point of C: facing the origin, i.e. along B's centre − A's.
  const Vec3 first =
      normalizedOr(shapeB.center() - shapeA.center(), normalizedOr(-r, Vec3{1, 0, 0}));
  const detail::DifferenceSupport<SA, SB> support{&shapeA, &shapeB};
  const detail::RayLoopResult loop = detail::rayCastLoop(support, rho, Vec3{}, r, 1.0, first, settings, trace);
  out.hit = loop.hit;
  out.status = loop.status;
  out.reason = loop.reason;
  out.iterations = loop.iterations;
  if (!loop.hit) return out;
  out.t = loop.lambda;
  out.initiallyOverlapping = loop.startedInside;
  out.normal = loop.normal;
  // Core points from the weights of v (P's sources), then moved to time t.
  // With a single stored point (initial hit on p0) fall back to it.
  Vec3 coreA, coreB;
  if (loop.simplex.size > 0) {
    coreA = loop.simplex.pointA();
    coreB = loop.simplex.pointB();
  } else {
    const SimplexVertex p0 = support(first);
    coreA = p0.a;
    coreB = p0.b;
  }
  coreA += translationA * out.t;
  coreB += translationB * out.t;
  if (loop.startedInside) {
    // Overlap at t = 0 (no normal): a common point, as gjkDistance gives —
    // the core gap split in the ratio ρ_A : ρ_B.
    const Vec3 d = coreB - coreA;
    out.pointA = out.pointB = coreA + d * (rho > 0 ? rhoA / rho : 0.5);
  } else {
    out.pointA = coreA + out.normal * rhoA;
    out.pointB = coreB - out.normal * rhoB;
  }
  return out;
}

template <class SA, class SB>
ShapeCastResult gjkShapeCast(const SA& a, const SB& b, const Vec3& translationA, const Vec3& translationB,
                             const RayCastSettings& settings = {}) {
  NoTrace none;
  return gjkShapeCast(a, b, translationA, translationB, settings, none);
}

}  // namespace collidoscope
