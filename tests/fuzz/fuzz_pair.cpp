// Fuzz target: the pair queries on two shapes of any type with any
// parameters and poses decoded from bytes — gjkDistance, gjkIntersect (cold
// and warm-started), penetration (GJK + EPA), chungWangIntersect,
// gjkRayCast (on A), gjkShapeCast and sat (polytopal cores).
//
// Half the inputs clamp every number into the valid range (and normalize
// the rotation); the other half pass the raw numbers (NaN, ±∞, negative
// sizes, non-unit quaternions, magnitudes beyond kMaxMagnitude). Invalid
// shapes must be rejected by validateShape with a field and a message; the
// queries still run on them (the C++ templates do not validate) and must
// not crash, trigger undefined behaviour or exceed an iteration cap.
//
// On valid shapes the answers are checked against each other and against
// closed-form support values h_S(u) (tests/cpp/reference.h, which shares
// no geometry code with the library). S is the scene scale (largest
// coordinate, ray and motion included), tol = kTol·S, the design's
// accuracy promise ("within about 1e-9 of the scene's scale") with a
// factor for the rounding of our own support values; statuses that
// report a best estimate instead of a certified one (max-iterations,
// degenerate) are held to kLoose·S.
//
//   distance     finite, ≥ 0, |pA − pB| = d, pA ∈ A and pB ∈ B (no test
//                direction u sees them beyond h(u) + tol); when d > 0 the
//                gap of the shapes along GJK's −v̂ is d (a certificate:
//                the true distance lies between the gap and |pA − pB|)
//   intersect    consistent with distance: intersecting ⇒ d ≤ tol,
//                separated ⇒ d > 0; a warm start does not change the answer
//   penetration  depth ≥ 0, unit normal, intersecting ⇔ GJK's cores within
//                the radii (separated ⇒ d > 0, depth 0); when intersecting,
//                pA − pB = depth·normal, pA ∈ A, pB ∈ B, depth ≤ the
//                overlap h_A(u) + h_B(−u) along every test direction u (it
//                is the minimum) and = the overlap along the normal (so
//                moving B by depth·normal separates them)
//   chungwang    separated ⇒ the axis is unit and separates (overlap along
//                it ≤ tol, its gap matches h_A, h_B and is ≤ d + tol);
//                intersecting ⇒ d ≤ tol; degenerate never on valid shapes
//   raycast      t ∈ [0, maxT]; a hit point is origin + t·dir and on A; the
//                normal is unit and supports A at the point, with the ray
//                origin on its outer side (so no earlier point of the ray
//                is in A); started inside ⇒ t = 0 and the origin in A; a
//                certified miss never passes through A by more than tol
//   shapecast    t ∈ [0, 1]; at time t pA ≈ pB, on their moved shapes, the
//                normal separates them (overlap along it within ±tol) and B
//                approaches along it (so they were apart before t);
//                overlapping at t = 0 ⇔ a hit at t = 0 flagged so; a
//                certified miss never overlaps by more than tol at 9 times
//   sat          (polytopal cores) status NotPolytopal exactly for curved
//                cores; the axis is unit and its overlap matches the depth;
//                status ok ⇒ depth = EPA's depth, and intersecting agrees
//                with GJK; rounded-bound ⇒ depth below the radii (its
//                "intersecting" may be a false positive at any distance)
//   caps         every query's iterations ≤ its cap
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "collidoscope/chung_wang.h"
#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/raycast.h"
#include "collidoscope/sat.h"
#include "collidoscope/support.h"
#include "fuzz_common.h"

namespace {

using namespace collidoscope;
using fuzz::outside;
using fuzz::overlapAlong;
using fuzz::str;

constexpr const char* kTarget = "fuzz_pair";
// Accuracy, in units of the scene scale: the promise is ~1e-9 (DESIGN.md);
// our own support values add a few ulps of S.
constexpr double kTol = 2e-9;
// Best estimates (max-iterations, degenerate): EPA's documented worst case
// on curved pairs at its capacity is ~1e-7 relative (epa.h).
constexpr double kLoose = 1e-6;
// Accuracy of a ray's hit normal, in radians (raycast.h: ≤ ~3e-5 on a
// cylinder's side, far better elsewhere).
constexpr double kNormalAngle = 1e-4;
// Rounding of touching decisions, in units of the scene scale: 64 ulps
// (gjk.h kRoundingUlps) of it, with room for the two queries' different
// views of the scale.
constexpr double kRounding = 1e-12;

struct Case {
  Shape a, b;
  Vec3 origin, direction;
  double maxT = 1;
  Vec3 translationA, translationB;
  bool valid = false;

  std::string repro() const {
    return "A = " + fuzz::describe(a) + "\nB = " + fuzz::describe(b) + "\nray origin " + str(origin) +
           " direction " + str(direction) + " maxT " + str(maxT) + "\nmotion translationA " + str(translationA) +
           " translationB " + str(translationB);
  }
};

[[noreturn]] void fail(const Case& c, const std::string& what) { fuzz::fail(kTarget, what, c.repro()); }

Shape moved(const Shape& s, const Vec3& by) {
  Shape m = s;
  m.pose.position = m.pose.position + by;
  return m;
}

double unitError(const Vec3& n) { return std::fabs(ref::norm(n) - 1); }

// Large polytopes (96+ points) take the precomputed hill-climbing support
// (polytope_support.h) once prepared; the byte decoder makes small ones, so
// this replaces a polytope's points by ~100 points of a stretched sphere
// around its first point, on a lattice of spacing 2^-4 to 2^-13 of its
// largest radius. The lattice keeps the cloud within what buildHull builds
// reliably (fuzz_hull's domain): the support structure is built on the
// hull, and on the nearly degenerate clouds of tests/fuzz/known a broken
// hull gives the walk local maxima (found here: a support 0.06 short of the
// maximum on a cloud mixing 1e6 and denormal coordinates).
void maybeGrow(FuzzedDataProvider& in, Shape* s) {
  if (s->type != ShapeType::Polytope || in.remaining_bytes() == 0 || in.ConsumeIntegralInRange<int>(0, 3) != 0) return;
  const Vec3 centre = s->points[0];
  Vec3 radii = fuzz::clampSize(fuzz::vec(in));
  const double largest = std::fmax(radii.x, std::fmax(radii.y, radii.z));
  if (!(largest > 0)) return;
  const int k = in.ConsumeIntegralInRange<int>(4, 13);
  const int e = std::ilogb(largest) - k;
  const int n = in.ConsumeIntegralInRange<int>(96, 160);
  s->points.clear();
  for (int i = 0; i < n; ++i) {
    const double y = 1 - (2.0 * i + 1) / n, r = std::sqrt(std::fmax(0.0, 1 - y * y)), phi = 2.399963229728653 * i;
    const Vec3 p{radii.x * r * std::cos(phi), radii.y * y, radii.z * r * std::sin(phi)};
    const Vec3 q{std::ldexp(std::round(std::ldexp(p.x, -e)), e), std::ldexp(std::round(std::ldexp(p.y, -e)), e),
                 std::ldexp(std::round(std::ldexp(p.z, -e)), e)};
    s->points.push_back(centre + q);
  }
  preparePolytopeSupport(s);
}

Case decode(FuzzedDataProvider& in) {
  Case c;
  c.valid = in.ConsumeBool();
  c.a = fuzz::shape(in, c.valid);
  c.b = fuzz::shape(in, c.valid);
  if (c.valid) {
    maybeGrow(in, &c.a);
    maybeGrow(in, &c.b);
    // Often put B's origin near A's (small integer offsets: overlap and
    // touching are where the algorithms differ from the easy case).
    if (in.ConsumeBool()) c.b.pose.position = c.a.pose.position + fuzz::clampCoord(fuzz::vec(in), 4);
  }
  c.origin = fuzz::vec(in);
  c.direction = fuzz::vec(in);
  c.maxT = fuzz::number(in);
  c.translationA = fuzz::vec(in);
  c.translationB = fuzz::vec(in);
  if (c.valid) {
    c.origin = fuzz::clampCoord(c.origin);
    c.direction = fuzz::clampCoord(c.direction);
    if (!(maxAbs(c.direction) > 0)) c.direction = {1, 0, 0};
    c.maxT = std::isinf(c.maxT) && c.maxT > 0 ? c.maxT : fuzz::clampSize(c.maxT);
    c.translationA = fuzz::clampCoord(c.translationA);
    c.translationB = fuzz::clampCoord(c.translationB);
  }
  return c;
}

void checkShapeError(const Case& c, const Shape& s, const char* name) {
  ShapeError e;
  if (validateShape(s, &e)) return;
  if (e.field.empty() || e.message.empty()) fail(c, std::string("validateShape(") + name + ") fails without a field or message");
}

// ---- the queries on anything: caps only --------------------------------------------

struct Answers {
  DistanceResult dist;
  IntersectResult inter, warm;
  GjkCache afterCold, afterWarm;  // the final v of each (the separating direction when separated)
  PenetrationResult pen;
  ChungWangResult cw, cwWarm;
  RayCastResult ray;
  ShapeCastResult cast;
};

// gjkDistance's distance is an upper bound on the true one: within tol of it
// when certified (status converged), within loose otherwise (degenerate or
// max-iterations: the best bound reached; a point 9e-12 inside the flat
// side of a capsule-like difference stalled at 4.8e-8 on a scene of 16).
// "The query says they touch, so the distance is ≤ t" allows for that.
double distanceSlack(const Answers& r, double t, double loose) {
  return r.dist.status == GjkStatus::Converged ? t : std::fmax(t, loose);
}

Answers runAll(const Case& c) {
  const PosedShape a(c.a), b(c.b);
  Answers r;
  r.dist = gjkDistance(a, b);
  if (r.dist.iterations > GjkSettings{}.maxIterations) fail(c, "gjkDistance iterations above the cap");
  GjkCache cache;
  r.inter = gjkIntersect(a, b, GjkSettings{}, &cache);
  r.afterCold = cache;
  r.warm = gjkIntersect(a, b, GjkSettings{}, &cache);
  r.afterWarm = cache;
  if (r.inter.iterations > GjkSettings{}.maxIterations || r.warm.iterations > GjkSettings{}.maxIterations)
    fail(c, "gjkIntersect iterations above the cap");
  r.pen = penetration(a, b);
  if (r.pen.iterations > EpaSettings{}.maxIterations) fail(c, "EPA iterations above the cap");
  ChungWangCache cwCache;
  r.cw = chungWangIntersect(a, b, ChungWangSettings{}, &cwCache);
  r.cwWarm = chungWangIntersect(a, b, ChungWangSettings{}, &cwCache);
  if (r.cw.iterations > kChungWangMaxIterations || r.cwWarm.iterations > kChungWangMaxIterations)
    fail(c, "chungWangIntersect iterations above the cap");
  r.ray = gjkRayCast(a, c.origin, c.direction, c.maxT);
  if (r.ray.iterations > RayCastSettings{}.maxIterations) fail(c, "gjkRayCast iterations above the cap");
  r.cast = gjkShapeCast(a, b, c.translationA, c.translationB);
  if (r.cast.iterations > RayCastSettings{}.maxIterations) fail(c, "gjkShapeCast iterations above the cap");
  return r;
}

// ---- invariants on valid shapes --------------------------------------------------------

// A prepared polytope (hill-climbing support over its hull) must return a
// maximizer in every direction, as the scan over its points does.
void checkPreparedSupport(const Case& c, const Shape& s, const char* name) {
  if (s.type != ShapeType::Polytope || !s.polytopeSupport) return;
  double extent = 0;
  for (const Vec3& p : s.points) extent = std::fmax(extent, maxAbs(p));
  for (const Vec3& u : fuzz::testDirections()) {
    double best = -std::numeric_limits<double>::infinity();
    for (const Vec3& p : s.points) best = std::fmax(best, dot(p, u));
    const Vec3 got = localCoreSupport(s, u);
    if (dot(got, u) < best - 1e-12 * extent)
      fail(c, std::string("prepared polytope support of ") + name + " along " + str(u) + " returns a point " +
                  str(best - dot(got, u)) + " short of the maximum (a local maximum of the walk)");
  }
}

void checkDistance(const Case& c, const Answers& r, double tol, double loose) {
  const DistanceResult& d = r.dist;
  if (!std::isfinite(d.distance) || !fuzz::finite(d.pointA) || !fuzz::finite(d.pointB))
    fail(c, "gjkDistance: non-finite result");
  if (!(d.distance >= 0)) fail(c, "gjkDistance: negative distance " + str(d.distance));
  const double t = d.status == GjkStatus::Converged ? tol : loose;
  const double sep = ref::dist(d.pointA, d.pointB);
  if (std::fabs(sep - d.distance) > t)
    fail(c, "gjkDistance: |pointA − pointB| = " + str(sep) + " but distance = " + str(d.distance));
  const double outA = outside(d.pointA, c.a), outB = outside(d.pointB, c.b);
  if (outA > t) fail(c, "gjkDistance: pointA lies " + str(outA) + " outside A (tol " + str(t) + ")");
  if (outB > t) fail(c, "gjkDistance: pointB lies " + str(outB) + " outside B (tol " + str(t) + ")");
  // The certificate is along axis (GJK's termination test bounds the gap
  // along its v̂ by ε·S, and axis is the v of the step that certified): the
  // closest points' own direction pB − pA can be off by their error over
  // the distance, which a shape 1e6 long turns into a gap 1e-2 short when
  // the distance is 0.01; and so can the final v after a stall certified by
  // an earlier step (a segment 2e6 long 303 from an ellipsoid: 5.5e-3).
  if (d.distance > t && maxAbs(d.axis) > 0) {
    const Vec3 n = normalizedOr(-d.axis, Vec3{1, 0, 0});
    const double gap = -overlapAlong(c.a, c.b, n);
    if (gap < d.distance - t)
      fail(c, "gjkDistance: distance " + str(d.distance) + " but the gap along its axis is only " + str(gap) +
                  " (status " + gjkStatusName(d.status) + ")");
  }
}

void checkIntersect(const Case& c, const Answers& r, double scale, double tol, double loose) {
  for (const IntersectResult* ir : {&r.inter, &r.warm}) {
    const char* which = ir == &r.inter ? "gjkIntersect" : "gjkIntersect (warm start)";
    if (ir->intersecting) {
      const double t = distanceSlack(r, ir->status == GjkStatus::Converged ? tol : loose, loose);
      if (r.dist.distance > t)
        fail(c, std::string(which) + ": intersecting (status " + gjkStatusName(ir->status) + ") but distance " +
                    str(r.dist.distance));
    } else if (!(r.dist.distance > 0)) {
      // Both decide "touching" at 64 ulps of the largest support coordinate
      // each has seen, and they see different ones: a point 1e-9 below the
      // base of a cone of radius 1e6 is separated for gjkIntersect (its
      // support points stayed near the point, τ ~ 1e-13) and touching for
      // gjkDistance (it saw the rim, τ ~ 1e-8). Fine while the gap along
      // gjkIntersect's axis is within rounding of the scene scale.
      const Vec3 v = (ir == &r.inter ? r.afterCold : r.afterWarm).direction;
      const double gap = -overlapAlong(c.a, c.b, normalizedOr(-v, Vec3{1, 0, 0}));
      if (gap > kRounding * scale)
        fail(c, std::string(which) + ": separated by " + str(gap) + " along its axis, but gjkDistance gives distance 0 (status " +
                    gjkStatusName(r.dist.status) + ")");
    }
  }
  // The warm start may only change the answer within the tolerance of
  // touching. Not only rounding: gjkIntersect also answers "intersecting"
  // when GJK converges without a separating axis (gap within ε_abs·S,
  // gjk.h), i.e. for shapes apart by up to its tolerance, which the check
  // above accepts for each run; a cold and a warm run start from different
  // directions and may stop on either side of that band (found: a polytope
  // against a sphere of radius 1e6, 1.4e-4 apart, S = 2e6: cold
  // "intersecting", warm separated).
  const double margin = r.dist.distance > 0 ? r.dist.distance : r.pen.depth;
  if (r.inter.intersecting != r.warm.intersecting && r.inter.status == GjkStatus::Converged &&
      r.warm.status == GjkStatus::Converged && margin > tol)
    fail(c, "gjkIntersect: the warm start changes the answer (distance " + str(r.dist.distance) + ", depth " +
                str(r.pen.depth) + ")");
}

void checkPenetration(const Case& c, const Answers& r, double tol, double loose) {
  const PenetrationResult& p = r.pen;
  if (!std::isfinite(p.depth) || !fuzz::finite(p.normal) || !fuzz::finite(p.pointA) || !fuzz::finite(p.pointB))
    fail(c, "penetration: non-finite result");
  if (!(p.depth >= 0)) fail(c, "penetration: negative depth " + str(p.depth));
  if (unitError(p.normal) > 1e-9) fail(c, "penetration: normal " + str(p.normal) + " is not unit");
  if (!p.intersecting) {
    if (p.depth != 0) fail(c, "penetration: not intersecting but depth " + str(p.depth));
    if (!(r.dist.distance > 0)) fail(c, "penetration: not intersecting but gjkDistance gives 0");
    return;
  }
  const bool certified = p.status == EpaStatus::Converged || p.status == EpaStatus::Touching;
  const double t = certified ? tol : loose;
  if (r.dist.distance > distanceSlack(r, t, loose))
    fail(c, "penetration: intersecting but distance " + str(r.dist.distance));
  const double off = ref::norm((p.pointA - p.pointB) - p.normal * p.depth);
  if (off > t) fail(c, "penetration: pointA − pointB differs from depth·normal by " + str(off));
  const double outA = outside(p.pointA, c.a), outB = outside(p.pointB, c.b);
  if (outA > t) fail(c, "penetration: pointA lies " + str(outA) + " outside A (status " + epaStatusName(p.status) + ")");
  if (outB > t) fail(c, "penetration: pointB lies " + str(outB) + " outside B (status " + epaStatusName(p.status) + ")");
  // The depth is the least overlap over all directions: no test direction
  // may show less, and the normal must show (about) the depth.
  for (const Vec3& u : fuzz::testDirections()) {
    const double o = overlapAlong(c.a, c.b, u);
    if (o < p.depth - t)
      fail(c, "penetration: depth " + str(p.depth) + " but the overlap along " + str(u) + " is only " + str(o) +
                  " (status " + epaStatusName(p.status) + ")");
  }
  // At the cap (max-iterations) EPA's depth is its lower bound d, and the
  // normal's overlap its upper bound: they need not meet. Measured: a point
  // at the centre of a cone (r = hh = 8) stops 5.4e-4 short (1.5e-4
  // relative; epa.h quotes ~1e-7 for its 30 000 random curved pairs). The
  // minimality test above still holds for it.
  const double along = overlapAlong(c.a, c.b, p.normal);
  if (certified && std::fabs(along - p.depth) > t)
    fail(c, "penetration: depth " + str(p.depth) + " but the overlap along the normal is " + str(along) +
                " (moving B by depth·normal leaves " + str(along - p.depth) + "; status " + epaStatusName(p.status) + ")");
}

void checkChungWang(const Case& c, const Answers& r, double tol, double loose) {
  for (const ChungWangResult* cw : {&r.cw, &r.cwWarm}) {
    const std::string which = cw == &r.cw ? "chungWangIntersect" : "chungWangIntersect (warm start)";
    if (cw->status == ChungWangStatus::Degenerate) fail(c, which + ": degenerate on valid shapes");
    if (cw->status == ChungWangStatus::Separated) {
      if (cw->intersecting) fail(c, which + ": separated but intersecting = true");
      if (unitError(cw->separatingAxis) > 1e-9) fail(c, which + ": separating axis is not unit");
      const double o = overlapAlong(c.a, c.b, cw->separatingAxis);
      if (o > tol) fail(c, which + ": the separating axis shows an overlap of " + str(o));
      if (std::fabs(-o - cw->gap) > tol) fail(c, which + ": gap " + str(cw->gap) + " but the supports give " + str(-o));
      if (cw->gap > r.dist.distance + tol)
        fail(c, which + ": gap " + str(cw->gap) + " exceeds the distance " + str(r.dist.distance));
    } else {
      if (!cw->intersecting) fail(c, which + ": not separated but intersecting = false");
      const double t = distanceSlack(r, cw->status == ChungWangStatus::Intersecting ? tol : loose, loose);
      if (r.dist.distance > t)
        fail(c, which + ": intersecting (status " + chungWangStatusName(cw->status) + ") but distance " +
                    str(r.dist.distance));
    }
  }
}

void checkRay(const Case& c, const Answers& r, double scale, double tol, double loose) {
  const RayCastResult& ray = r.ray;
  const bool badInput = !(maxAbs(c.direction) > 0) || std::isnan(c.maxT) || !(c.maxT >= 0);
  if (badInput != (ray.status == RayCastStatus::InvalidInput))
    fail(c, std::string("gjkRayCast: status ") + rayCastStatusName(ray.status) + " for " +
                (badInput ? "an invalid ray" : "a valid ray"));
  if (badInput) return;
  if (!ray.hit) {
    if (ray.status != RayCastStatus::Converged) fail(c, "gjkRayCast: a miss that is not certified");
    // A certified miss: the ray segment must not pass through A.
    const Vec3 end = c.origin + c.direction * c.maxT;
    if (fuzz::finite(end) && maxAbs(end) <= kMaxMagnitude) {
      Shape seg = Shape::segment(c.origin, end);
      const PenetrationResult p = penetration(PosedShape(seg), PosedShape(c.a));
      const double t = 1e-9 * std::fmax(scale, maxAbs(end)) * 2;
      if (p.intersecting && p.depth > t && (p.status == EpaStatus::Converged || p.status == EpaStatus::Touching))
        fail(c, "gjkRayCast: miss, but the ray segment overlaps A by " + str(p.depth));
    }
    return;
  }
  if (!std::isfinite(ray.t) || !(ray.t >= 0) || !(ray.t <= c.maxT))
    fail(c, "gjkRayCast: hit at t = " + str(ray.t) + " outside [0, maxT]");
  if (!fuzz::finite(ray.point) || !fuzz::finite(ray.normal)) fail(c, "gjkRayCast: non-finite point or normal");
  const Vec3 onRay = c.origin + c.direction * ray.t;
  if (ref::dist(onRay, ray.point) > tol) fail(c, "gjkRayCast: point is not origin + t·direction");
  if (ray.startedInside) {
    if (ray.t != 0) fail(c, "gjkRayCast: started inside but t = " + str(ray.t));
    if (!(ray.normal == Vec3{})) fail(c, "gjkRayCast: started inside with a non-zero normal");
    // A stall at λ = 0 (status degenerate) is a best estimate, as for the
    // other queries: held to loose (a ray 5e-8 above a disk of radius 10,
    // where rounding tilts v by 2e-8 rad and the disk's support jumps
    // between rim points, cannot be told from one on it).
    const double out = outside(c.origin, c.a);
    if (out > (ray.status == RayCastStatus::Converged ? tol : loose))
      fail(c, "gjkRayCast: started inside, but the origin lies " + str(out) + " outside A");
    return;
  }
  if (ray.status != RayCastStatus::Converged) return;  // a lower bound on the hit time, not a surface point
  if (unitError(ray.normal) > 1e-9) fail(c, "gjkRayCast: hit normal is not unit");
  const double out = outside(ray.point, c.a);
  if (out > tol) fail(c, "gjkRayCast: the hit point lies " + str(out) + " outside A");
  // The normal supports A at the point (h_A(n) = n·point) ... A normal off
  // by θ moves the support value by up to θ·(A's size), and raycast.h
  // documents θ up to ~3e-5 rad on a cylinder's side; on a rounded shape
  // the normal is v̂, with v known to ~1e-10·S, so θ ~ 1e-10·S/ρ (measured
  // 6e-6 rad on a cone of radius 1e6 with a margin of 1).
  const double rho = coreRadius(c.a);
  const double theta = kNormalAngle + (rho > 0 ? 10 * kTol * scale / rho : 0);
  const double lift = ref::supportValue(c.a, ray.normal) - ref::dot3(ray.normal, ray.point);
  if (std::fabs(lift) > tol + theta * 2 * ref::boundingRadius(c.a))
    fail(c, "gjkRayCast: the normal does not support A at the hit point (h_A(n) − n·point = " + str(lift) + ")");
  // ... and the ray comes from its outer side: nothing before t is in A.
  if (ref::dot3(ray.normal, c.origin - ray.point) < -tol)
    fail(c, "gjkRayCast: the ray origin lies behind the hit's supporting plane");
}

void checkCast(const Case& c, const Answers& r, double scale, double tol, double loose) {
  const ShapeCastResult& s = r.cast;
  if (s.status == RayCastStatus::InvalidInput) fail(c, "gjkShapeCast: invalid input for valid shapes and motion");
  auto deepOverlap = [&](double time) {
    const Shape at = moved(c.a, c.translationA * time), bt = moved(c.b, c.translationB * time);
    if (!gjkIntersect(PosedShape(at), PosedShape(bt)).intersecting) return 0.0;
    const PenetrationResult p = penetration(PosedShape(at), PosedShape(bt));
    return p.intersecting && (p.status == EpaStatus::Converged || p.status == EpaStatus::Touching) ? p.depth : 0.0;
  };
  if (!s.hit) {
    if (s.status != RayCastStatus::Converged) fail(c, "gjkShapeCast: a miss that is not certified");
    for (int k = 0; k <= 8; ++k) {
      const double depth = deepOverlap(k / 8.0);
      if (depth > tol) fail(c, "gjkShapeCast: miss, but at t = " + str(k / 8.0) + " the shapes overlap by " + str(depth));
    }
    return;
  }
  if (!std::isfinite(s.t) || !(s.t >= 0) || !(s.t <= 1)) fail(c, "gjkShapeCast: t = " + str(s.t) + " outside [0, 1]");
  if (!fuzz::finite(s.pointA) || !fuzz::finite(s.pointB) || !fuzz::finite(s.normal))
    fail(c, "gjkShapeCast: non-finite point or normal");
  const Shape at = moved(c.a, c.translationA * s.t), bt = moved(c.b, c.translationB * s.t);
  if (s.initiallyOverlapping) {
    if (s.t != 0) fail(c, "gjkShapeCast: initially overlapping but t = " + str(s.t));
    // (A stall at t = 0, status degenerate, is a best estimate: loose, as
    // for the ray above a disk.)
    if (r.dist.distance > distanceSlack(r, s.status == RayCastStatus::Converged ? tol : loose, loose))
      fail(c, "gjkShapeCast: initially overlapping but the distance at t = 0 is " + str(r.dist.distance));
    return;
  }
  if (s.status != RayCastStatus::Converged) return;  // a lower bound on the time of impact
  const double t0depth = deepOverlap(0);
  if (t0depth > tol) fail(c, "gjkShapeCast: not initially overlapping, but at t = 0 they overlap by " + str(t0depth));
  if (unitError(s.normal) > 1e-9) fail(c, "gjkShapeCast: normal is not unit");
  if (ref::dist(s.pointA, s.pointB) > tol)
    fail(c, "gjkShapeCast: contact points " + str(ref::dist(s.pointA, s.pointB)) + " apart");
  const double outA = outside(s.pointA, at), outB = outside(s.pointB, bt);
  if (outA > tol) fail(c, "gjkShapeCast: pointA lies " + str(outA) + " outside A at time t");
  if (outB > tol) fail(c, "gjkShapeCast: pointB lies " + str(outB) + " outside B at time t");
  // As for the ray's normal: an angle error θ moves the overlap by up to
  // θ·(the shapes' sizes); θ ~ 1e-10·S/ρ for rounded shapes.
  const double rho = coreRadius(c.a) + coreRadius(c.b);
  const double theta = kNormalAngle + (rho > 0 ? 10 * kTol * scale / rho : 0);
  const double o = overlapAlong(at, bt, s.normal);
  if (std::fabs(o) > tol + theta * 2 * (ref::boundingRadius(c.a) + ref::boundingRadius(c.b)))
    fail(c, "gjkShapeCast: at time t the overlap along the normal is " + str(o) + ", not 0");
  const double approach = ref::dot3(s.normal, c.translationB - c.translationA);
  if (approach > tol) fail(c, "gjkShapeCast: B moves away from A along the contact normal (" + str(approach) + ")");
  (void)scale;
  (void)loose;
}

void checkSat(const Case& c, const Answers& r, double tol, double loose) {
  const SatResult s = sat(c.a, c.b);
  const bool polytopal = hasPolytopalCore(c.a) && hasPolytopalCore(c.b);
  if ((s.status == SatStatus::NotPolytopal) != !polytopal)
    fail(c, std::string("sat: status ") + satStatusName(s.status) + (polytopal ? " for polytopal cores" : " for a curved core"));
  if (s.status == SatStatus::InvalidShape) fail(c, "sat: invalid-shape for valid shapes");
  if (s.status != SatStatus::Ok && s.status != SatStatus::RoundedBound) return;
  if (!std::isfinite(s.depth) || !(s.depth >= 0)) fail(c, "sat: depth " + str(s.depth));
  if (unitError(s.axis) > 1e-9) fail(c, "sat: axis is not unit");
  const double o = overlapAlong(c.a, c.b, s.axis);
  if (std::fabs(o - s.signedOverlap()) > tol)
    fail(c, "sat: " + std::string(s.intersecting ? "depth " : "gap ") + str(s.depth) + " but the overlap along the axis is " + str(o));
  if (s.intersecting) {
    // Status ok: exact, so the shapes touch. Rounded-bound: "intersecting"
    // holds for the candidate axes only (sat.h), and no bound on the
    // distance follows: a candidate axis's gap can be far below the cores'
    // distance where their closest features are a vertex or an edge (found
    // here: a point 9 from a sliver tetrahedron 1e5 long, margin 3.375, gap
    // 1.25 along the best face normal, distance 5.6). What sat.h does promise is that the flag means
    // the best overlap is below the radii.
    const double radii = coreRadius(c.a) + coreRadius(c.b);
    if (s.status == SatStatus::Ok && r.dist.distance > distanceSlack(r, tol, loose))
      fail(c, "sat: intersecting but distance " + str(r.dist.distance));
    if (s.status == SatStatus::RoundedBound && !(s.depth < radii + tol))
      fail(c, "sat: rounded-bound with depth " + str(s.depth) + " not below the radii " + str(radii));
    const bool epaCertified = r.pen.status == EpaStatus::Converged || r.pen.status == EpaStatus::Touching;
    if (s.status == SatStatus::Ok && r.pen.intersecting && epaCertified && std::fabs(s.depth - r.pen.depth) > tol)
      fail(c, "sat: depth " + str(s.depth) + " but EPA's depth is " + str(r.pen.depth));
  } else {
    if (s.depth > r.dist.distance + tol) fail(c, "sat: gap " + str(s.depth) + " exceeds the distance " + str(r.dist.distance));
    if (r.pen.intersecting && r.pen.depth > tol) fail(c, "sat: separated but EPA's depth is " + str(r.pen.depth));
  }
  (void)loose;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const Case c = decode(in);
  checkShapeError(c, c.a, "A");
  checkShapeError(c, c.b, "B");
  const Answers r = runAll(c);

  ShapeError ea, eb;
  if (!validateShape(c.a, &ea) || !validateShape(c.b, &eb)) return 0;
  if (!fuzz::conditioned(c.a) || !fuzz::conditioned(c.b)) return 0;
  // Clamped inputs are valid by construction (a broken clamp would hide
  // every check below).
  if (!fuzz::finite(c.origin) || !fuzz::finite(c.direction) || !fuzz::finite(c.translationA) ||
      !fuzz::finite(c.translationB))
    return 0;
  // Nor beyond kMaxMagnitude: the scene parser and the API reject such ray
  // origins, directions and translations (scene.cpp readCastVec3, api.cpp
  // checkMagnitudes: the casts' arithmetic overflows there). Found on a raw
  // input whose shapes happened to be valid: a ray origin at -4e305
  // "started inside" a triangle.
  for (const Vec3& v : {c.origin, c.direction, c.translationA, c.translationB})
    if (maxAbs(v) > kMaxMagnitude) return 0;

  double scale = ref::sceneScale(c.a, c.b);
  for (const Vec3& v : {c.origin, c.direction, c.translationA, c.translationB}) scale = std::fmax(scale, maxAbs(v));
  const double tol = kTol * scale, loose = kLoose * scale;
  checkPreparedSupport(c, c.a, "A");
  checkPreparedSupport(c, c.b, "B");
  checkDistance(c, r, tol, loose);
  checkIntersect(c, r, scale, tol, loose);
  checkPenetration(c, r, tol, loose);
  checkChungWang(c, r, tol, loose);
  checkRay(c, r, scale, tol, loose);
  checkCast(c, r, scale, tol, loose);
  checkSat(c, r, tol, loose);
  return 0;
}
