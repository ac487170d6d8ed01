// collidoscope — the Chung–Wang separating-vector algorithm: a boolean
// intersection test for two convex shapes given by support mappings, with a
// separating axis as the certificate when they are apart.
//
// References: K. Chung, W. Wang, "Quick collision detection of polytopes in
// virtual environments", VRST 1996; K. Chung, master's thesis, University of
// Hong Kong, 1996; as presented by M. Huotari, "Törmäyksen tunnistus
// 3D-ympäristössä", bachelor's thesis, Mikkeli University of Applied
// Sciences, 2011 (ch. 5.4, pseudocode 7 and 8, equations 15–19; "Huotari"
// below). G. van den Bergen's critique of the convergence proof ("Collision
// Detection in Interactive 3D Computer Animation", PhD thesis, Eindhoven
// University of Technology, 1999) is summarized there in ch. 5.4.3.
//
// The main loop. A unit vector s separates A and B when A lies strictly on
// the −s side of B along s:  max_{x∈A} s·x < min_{y∈B} s·y. With the support
// points p = S_A(s) and q = S_B(−s) that reads s·p < s·q. If s does not
// separate, r = (q − p)/‖q − p‖ is a unit direction of a point of B − A, and
// s is reflected in the plane orthogonal to r (Huotari eq. 15):
//     s ← s − 2 (r·s) r.
// For two spheres one reflection turns any s into a separating vector
// (Huotari fig. 32–33); in general s·w grows for every separating w (eq. 20–22),
// though not necessarily strictly (van den Bergen), so the loop needs the
// exits below and a cap.
//
// Rounded shapes. Shapes are cores plus radii (shapes.h): the support of the
// full shape A = core ⊕ sphere(r_A) is S_A(s) = S_core(s) + r_A s for unit s.
// So p = p_core + r_A s, q = q_core − r_B s, and s separates the full shapes
// iff
//     s·p_core + r_A < s·q_core − r_B,   i.e.   gap = s·(q_core − p_core) − r_A − r_B > 0.
// The loop runs on these rounded support points throughout (separation test,
// r, the hemisphere test), i.e. on the full shapes, as Huotari's sphere
// example does. (Running the reflections on the cores and adding the radii
// only in the test would be wrong: two overlapping spheres have point cores,
// r never changes, and the "repeated r" exit below would call them apart.)
//
// The hemisphere sub-algorithm (Huotari ch. 5.4.1, pseudocode 8). Every r_i is
// a point of B − A scaled to unit length. If some w has w·r_i ≥ 0 for all i,
// the r_i lie in a closed hemisphere and w is a candidate separating axis for
// every point seen. It is incremental: the last w is kept, and a new r with
// w·r ≥ 0 costs one dot product. Otherwise (LP reasoning: if R still fits,
// some fitting w lies on the plane of the violated constraint) w must be
// orthogonal to the new r: rotate so that r is the z axis (M of eq. 18),
// drop z from the older r_j, and ask whether these 2D vectors fit in a
// half-plane, sweeping a wedge [r_a, r_b] that holds them all; then
// w = M⁻¹(bisector of r_a, r_b). A vector in the opposite wedge means the
// projections surround the origin: Σ λ_j r_j = c·r_new with λ_j > 0, and
// c ≤ 0 because the old w has w·r_j ≥ 0 > w·r_new. So 0 is a convex
// combination of the r_i, hence of the points q_i − p_i: 0 ∈ B − A, the
// shapes intersect (or touch, when 0 is on the boundary of conv R). This is
// the algorithm's proof of intersection; it rests on four directions
// (r_a, r_b, r_j, r_new), and is accepted only when the origin lies within
// rounding of their hull (ChungWangHemisphere::surroundsOrigin).
//
// Extra exits (Huotari ch. 5.4.2):
//  * r repeats consecutively (r_i = r_{i−1} exactly, i.e. the same support
//    points) and s_i is the reflection of s_{i−1}: then s_i·r_i =
//    −s_{i−1}·r_{i−1} (eq. 19) — the reflection flipped the sign of
//    s·(q − p), so s_i separates in the closed sense. In exact arithmetic
//    the separation test would already have accepted s_i; the exit fires
//    only when s·(q − p) is zero to rounding, i.e. the shapes' projections
//    on s touch (overlap ≤ τ). Huotari reports "no collision" (the
//    thesis's convention: distance zero is not a collision) and so do we,
//    with s as the axis; `gap` then lies within rounding of 0. (Huotari's
//    code also compares across a switch, where eq. 19 does not hold, so an
//    overlapping pair can be called apart; here a switch resets r_prev.)
//  * r repeats non-consecutively once R holds more than
//    kChungWangSwitchAfter directions: the reflections cycle (Huotari fig. 39),
//    so s is replaced by w, the direction that has w·(q_j − p_j) ≥ 0 for
//    every point seen — the best candidate separating axis R knows.
// Departures from Huotari's presentation:
//  * "r repeats" (for the switch) means within kChungWangRepeatAngle of an
//    r_j, not bitwise: on curved shapes exact repeats never happen, and
//    overlapping pairs bounce s ↔ ≈ −s between two slowly drifting caps
//    (any two such caps fit in a hemisphere) until the iteration cap.
//  * The switch goes to w tilted into the interior of the cone of fitting
//    directions (ChungWangHemisphere::interiorW). Huotari's w is orthogonal
//    to the newest r_j, so for separated polytopes it often just touches
//    (s·(q − p) = 0 for that vertex pair) and the reflection in r leaves it
//    unchanged: the cycle comes straight back. Past half the iteration
//    cap, the switch goes to the centre of the cone instead, the w of
//    largest margin min_j w·r_j (ChungWangHemisphere::centreW): for a
//    segment 2e6 long 9 from a triangle with an arm 1e6 long, the
//    reflections settle on an s 9e-6 rad off the separating direction,
//    along which the shapes touch to 7e-10, and each reflection turns s by
//    ~1e-15 (s·r ≈ gap/‖q − p‖); the tilted w stays there and the query
//    ran to its cap, while the centre weighs every direction seen and
//    separates. Only late: pairs that decide do so within ~90 iterations
//    (test_chung_wang.cpp), and going to the centre from the start left
//    more of its 1 200 near-touching pairs at the cap (51, not 36), as did
//    going there whenever the tilted w stayed within the repeat angle of s
//    (150). A second switch needs R to have grown since the first (else it
//    would repeat exactly); otherwise the step reflects as usual.
//  * Huotari's code checks the hemisphere before adding the new r (so the
//    newest direction is never tested) and sweeps r_2..r_{n−3}; here r is
//    added first and all older r_j are swept. Ties (zero cross products,
//    antipodal projections, r_j ∥ new r) are classified explicitly instead
//    of falling into "no half-plane", and the bisector stays defined when
//    the wedge is a half-plane.
//  * The iteration cap is a named setting, and R has fixed capacity.
//
// Known weakness (Huotari ch. 5.4.3): near touching contact the reflections
// make slow progress, and pairs that touch exactly (distance 0 with no
// overlap) have neither a separating axis nor directions that surround the
// origin strictly: they run to the cap and end with status MaxIterations
// (reported intersecting, as GJK reports touching). test_chung_wang.cpp
// prints the iteration counts next to GJK intersect's on the same pairs.
//
// Memory: R is a fixed array of kChungWangMaxDirections unit vectors (6 KB)
// on the stack; nothing in a NoTrace query allocates.
#pragma once

#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "collidoscope/gjk.h"
#include "collidoscope/math.h"
#include "collidoscope/portable_math.h"
#include "collidoscope/simplex.h"
#include "collidoscope/support.h"
#include "collidoscope/trace.h"

namespace collidoscope {

// Capacity of R. Each iteration adds at most one direction, so the iteration
// cap is clamped to it and R never overflows.
constexpr int kChungWangMaxDirections = 256;

// Default iteration cap. Pairs away from touching decide within a few
// dozen iterations and pairs near touching within about a hundred
// (test_chung_wang.cpp prints the counts) — except pairs that touch
// exactly, which never decide (see "Known weakness") and end here with
// MaxIterations. Raising the cap does not change that, so it is also the
// capacity.
constexpr int kChungWangMaxIterations = kChungWangMaxDirections;

// Huotari's LOOPS_UNTIL_S_IS_W: a repeated (not consecutive) r only switches
// s to w once R holds more than this many directions. Below it the
// hemisphere's w is built from too few directions to be a useful axis and a
// repeat is as likely a short transient as a cycle.
constexpr int kChungWangSwitchAfter = 3;

// Two directions r count as a repeat (for the switch to w) when they are
// within this angle, in radians. Huotari compares r exactly, which
// suffices for polytopes (finitely many vertex pairs); on curved shapes the
// reflections bounce between two slowly drifting caps of directions
// without ever repeating exactly, and an exact test leaves such pairs
// cycling to the iteration cap (apart ones then reported intersecting).
// Switching never affects correctness (s = w is just another candidate),
// so the value only trades iterations: they fall steeply as the angle
// grows towards 0.03 (1.7°) and level off beyond it.
constexpr double kChungWangRepeatAngle = 0.03;

// The search for the centre of R's cone (ChungWangHemisphere::centreW):
// at most this many steps, and it stops when the nearest point v is
// optimal to this relative accuracy (|v|² − min_j v·r_j ≤ tol·|v|²). The
// centre is only a starting axis, so a rough one does: every r_j then has
// a margin of at least 99% of the best (v·r_j ≥ |v|²·(1 − tol) and the best
// is ≤ |v|), and the search stays short (it runs at every switch).
constexpr int kChungWangCentreSteps = 16;
constexpr double kCentreTolerance = 1e-2;

// An older r_j whose projection on the plane ⊥ r_new is shorter than this is
// parallel to r_new (to rounding): it puts no constraint on a w ⊥ r_new
// (w·r_j = ±|projection|), and its 2D direction would be rounding noise —
// 4u/|projection| radians — that could wrongly land in the opposite wedge.
// Skipping it can only miss a proof of intersection (the loop then goes on),
// never invent one; the witness w then has w·r_j ≥ −1e-10 for such r_j.
constexpr double kHemisphereParallel = 1e-10;

// The proof of "no hemisphere" rests on four directions r_a, r_b, r_j,
// r_new and is accepted when the origin lies within this distance of their
// convex hull. Then Σ λ_i r_i = e with |e| ≤ ε, and with the points
// x_i = ρ_i r_i (ρ_i = ‖q_i − p_i‖ ≤ 2S) some convex combination of the x_i
// has length ≤ 2εS: B − A comes within 2e-12 of the scene scale S of the
// origin, i.e. the shapes overlap or touch to that accuracy (GJK intersect
// also reports touching within its tolerance as intersecting). The hull
// distance of unit vectors is computed to ~1e-15, so 1e-12 is far above
// rounding and far below the margin of a pair apart by 1e-9 of its scale.
constexpr double kHemisphereProofTolerance = 1e-12;

enum class ChungWangStatus {
  Separated,      // separatingAxis separates the shapes (intersecting = false)
  Intersecting,   // R surrounds the origin, or p ≈ q: the shapes overlap or touch (to ~1e-12 of the scale)
  MaxIterations,  // the cap was reached without a decision: reported intersecting
  Degenerate,     // a support point is not finite (bad input): reported intersecting
};

inline const char* chungWangStatusName(ChungWangStatus s) {
  switch (s) {
    case ChungWangStatus::Separated: return "separated";
    case ChungWangStatus::Intersecting: return "intersecting";
    case ChungWangStatus::MaxIterations: return "max-iterations";
    case ChungWangStatus::Degenerate: return "degenerate";
  }
  return "unknown";
}

struct ChungWangSettings {
  int maxIterations = kChungWangMaxIterations;  // clamped to [0, kChungWangMaxDirections]
  int switchAfter = kChungWangSwitchAfter;      // Huotari's LOOPS_UNTIL_S_IS_W
  double repeatAngle = kChungWangRepeatAngle;
};

// Warm start: the last s, kept by the caller between frames (as GjkCache).
// When the poses change little the old separating axis still separates and
// the query ends after one pair of support calls.
struct ChungWangCache {
  Vec3 axis;
  bool valid = false;
};

struct ChungWangResult {
  bool intersecting = true;
  Vec3 separatingAxis;  // unit, from A towards B; valid only when status == Separated (else 0)
  // s·(q − p) − r_A − r_B along the final s: a lower bound on the distance
  // of the full shapes when separated (> 0 by the certificate, or within
  // rounding of 0 for the repeated-r exit).
  double gap = 0;
  int iterations = 0;  // pairs of support calls
  ChungWangStatus status = ChungWangStatus::MaxIterations;
};

// ---- trace ---------------------------------------------------------------

enum class ChungWangEvent {
  Init,        // first s chosen
  Support,     // p, q computed and the separation test evaluated
  Switch,      // r repeated: s ← w
  Hemisphere,  // r added to R and the hemisphere sub-algorithm ran
  Reflect,     // s reflected in the plane ⊥ r
  Done,
};

enum class ChungWangReason {
  None,
  StartFromCentres,   // s from A's centre towards B's
  StartFromCache,     // s = cached axis
  Progress,           // s does not separate: go on
  Separated,          // gap > τ: s separates
  CommonPoint,        // ‖q − p‖ ≤ τ: p ≈ q is a common point
  RepeatedDirection,  // r = r_prev: s separates in the closed sense (Huotari eq. 19)
  SwitchToW,          // r ∈ R after kChungWangSwitchAfter directions: s ← w
  HemisphereFits,     // R still fits in a closed hemisphere
  NoHemisphere,       // R surrounds the origin: intersecting
  NonFinite,          // a support point is not finite
  IterationCap,
};

inline const char* chungWangReasonName(ChungWangReason r) {
  switch (r) {
    case ChungWangReason::None: return "none";
    case ChungWangReason::StartFromCentres: return "start-from-centres";
    case ChungWangReason::StartFromCache: return "start-from-cache";
    case ChungWangReason::Progress: return "progress";
    case ChungWangReason::Separated: return "separated";
    case ChungWangReason::CommonPoint: return "common-point";
    case ChungWangReason::RepeatedDirection: return "repeated-direction";
    case ChungWangReason::SwitchToW: return "switch-to-w";
    case ChungWangReason::HemisphereFits: return "hemisphere-fits";
    case ChungWangReason::NoHemisphere: return "no-hemisphere";
    case ChungWangReason::NonFinite: return "non-finite";
    case ChungWangReason::IterationCap: return "iteration-cap";
  }
  return "unknown";
}

// How the hemisphere sub-algorithm treated one direction.
enum class HemisphereCase {
  First,        // |R| = 1: w = r
  KeepW,        // w·r_new ≥ 0: the stored w still fits (one dot product)
  Parallel,     // r_j ∥ r_new: projects to ~0, no constraint on w ⊥ r_new
  Seed,         // first non-zero projection: the wedge is one direction
  Inside,       // r_j within the wedge: nothing changes
  WidenA,       // r_j counter-clockwise of r_a, within π of r_b: r_a ← r_j
  WidenB,       // r_j clockwise of r_b, within π of r_a: r_b ← r_j
  NoHalfPlane,  // r_j in the opposite wedge: no half-plane, no hemisphere
  Unresolved,   // r_j in the opposite wedge, but r_a, r_b, r_j, r_new do not surround O: skipped
  Fits,         // sweep done: w ← M⁻¹ · bisector(r_a, r_b)
  Failed,       // R was already known not to fit
};

inline const char* hemisphereCaseName(HemisphereCase c) {
  switch (c) {
    case HemisphereCase::First: return "first";
    case HemisphereCase::KeepW: return "keep-w";
    case HemisphereCase::Parallel: return "parallel";
    case HemisphereCase::Seed: return "seed";
    case HemisphereCase::Inside: return "inside";
    case HemisphereCase::WidenA: return "widen-a";
    case HemisphereCase::WidenB: return "widen-b";
    case HemisphereCase::NoHalfPlane: return "no-half-plane";
    case HemisphereCase::Unresolved: return "unresolved";
    case HemisphereCase::Fits: return "fits";
    case HemisphereCase::Failed: return "failed";
  }
  return "unknown";
}

// One step of the 2D sweep. Plane vectors are (x, y, 0) in the rotated frame
// (M·r_j with z dropped), unit length except `projected`, which is the raw
// projection (its length is sin ∠(r_j, r_new)).
struct ChungWangWedgeStep {
  int index = -1;  // j: the r_j classified
  HemisphereCase kase = HemisphereCase::Seed;
  Vec3 projected;  // (M r_j).xy
  Vec3 ra, rb;     // the wedge after this step: the clockwise sweep from ra to rb (≤ π)
  int ia = -1, ib = -1;
};

// What one call of the hemisphere sub-algorithm did; filled only when the
// caller passes a log (trace builds), so the NoTrace path never allocates.
struct HemisphereLog {
  HemisphereCase outcome = HemisphereCase::First;
  bool projectedToPlane = false;  // the 2D solve ran
  Vec3 planeX, planeY, planeZ;    // rows of M (world vectors); planeZ = r_new
  std::vector<Vec3> projected;    // (M r_j).xy for every r_j in R (r_new → 0)
  std::vector<ChungWangWedgeStep> steps;
  Vec3 ra, rb;  // final wedge (plane vectors), when the 2D solve found one
  int ia = -1, ib = -1;
  bool hasWedge = false;
  Vec3 w;  // after the call (world), when fits
  bool fits = true;
};

struct ChungWangFrame {
  ChungWangEvent event = ChungWangEvent::Init;
  ChungWangReason reason = ChungWangReason::None;
  int line = 0;       // 1-based pseudocode line (chung_wang_lines)
  int iteration = 0;  // 0 for Init
  Vec3 s;             // the candidate axis of this step (unit)
  bool hasSupport = false;
  Vec3 pCore, qCore;  // S_core(A)(s), S_core(B)(−s)
  Vec3 p, q;          // rounded support points: p = pCore + r_A s, q = qCore − r_B s
  double gap = 0;       // s·(q − p) = s·(qCore − pCore) − r_A − r_B
  double tolerance = 0; // τ: separated iff gap > τ
  bool hasR = false;
  Vec3 r;                        // (q − p)/‖q − p‖
  std::vector<Vec3> directions;  // R after this step (points on the Gauss sphere)
  bool hemisphere = true;        // a closed hemisphere still contains R
  bool hasW = false;
  Vec3 w;  // the hemisphere's witness: w·r_j ≥ 0 for all r_j in R
  // Hemisphere event: the 2D problem on the plane ⊥ r.
  bool hasPlane = false;
  HemisphereCase outcome = HemisphereCase::First;
  Vec3 planeX, planeY, planeZ;   // rows of M; planeZ = r
  std::vector<Vec3> projected;   // (M r_j).xy per direction (z = 0)
  bool hasWedge = false;
  Vec3 ra, rb;                   // final wedge: clockwise sweep from ra to rb
  int ia = -1, ib = -1;          // their indices in directions
  std::vector<ChungWangWedgeStep> wedgeSteps;
  bool hasNextS = false;
  Vec3 nextS;  // Reflect: s − 2(r·s) r;  Switch: w
};

using ChungWangRecorder = FrameRecorder<ChungWangFrame>;

// Pseudocode line numbers (1-based) that frames name; the text of each line
// is the caller's (web/lib/captions.ts), numbered the same way.
namespace chung_wang_lines {
constexpr int kInit = 1, kLoop = 2, kSupport = 3, kSeparated = 4, kDirection = 5, kRepeat = 6, kSwitch = 7,
              kHemisphere = 8, kReflect = 9, kCap = 10;
// The sub-algorithm (pseudocode 8).
constexpr int kHsQuick = 11, kHsProject = 12, kHsSweep = 13, kHsFail = 14, kHsW = 15;
constexpr int kCount = 15;  // lines of the pseudocode
}  // namespace chung_wang_lines


// ---- the hemisphere sub-algorithm ---------------------------------------

// Keeps unit vectors r_0 … r_{n−1} and answers, after each add, whether a
// closed hemisphere {x : w·x ≥ 0} contains them all, with the witness w.
class ChungWangHemisphere {
 public:
  static constexpr int kCapacity = kChungWangMaxDirections;

  int size() const { return n_; }
  bool full() const { return n_ == kCapacity; }
  const Vec3& direction(int i) const { return r_[i]; }
  // Unit witness: w·r_j ≥ 0 for all j, valid while fits() — to rounding,
  // and to −1e-10 for r_j skipped as parallel or unresolved in a sweep.
  const Vec3& w() const { return w_; }
  bool fits() const { return fits_; }

  // Exact (bitwise) membership, as Huotari's repeat test.
  bool contains(const Vec3& r) const {
    for (int i = 0; i < n_; ++i)
      if (r_[i] == r) return true;
    return false;
  }

  // Some r_j with r_j·r ≥ minCos (r unit): r repeats to within an angle.
  bool containsNear(const Vec3& r, double minCos) const {
    for (int i = 0; i < n_; ++i)
      if (r_[i] == r || dot(r_[i], r) >= minCos) return true;
    return false;
  }

  // The newest direction w was made orthogonal to (r_0 after the first add).
  const Vec3& pivot() const { return pivot_; }

  // w tilted into the interior of the cone of fitting directions. Huotari's
  // w is orthogonal to the pivot, so it lies on the cone's boundary; a
  // vertex pair whose direction is the pivot then has s·r = 0 for s = w, and
  // the reflection in r leaves s unchanged. w + t·pivot with
  //     t = min(1, ½ · min_{j : b_j < 0} a_j / (−b_j)),  a_j = w·r_j ≥ 0, b_j = pivot·r_j,
  // keeps a_j + t b_j ≥ a_j / 2 for every r_j and raises the pivot's to t.
  Vec3 interiorW() const {
    double t = 1;
    for (int j = 0; j < n_; ++j) {
      const double b = dot(pivot_, r_[j]);
      if (b < 0) t = std::fmin(t, 0.5 * std::fmax(0.0, dot(w_, r_[j])) / -b);
    }
    return normalizedOr(w_ + pivot_ * t, w_);
  }

  // The centre of the cone of fitting directions: the unit w of largest
  // margin min_j w·r_j, which is the direction of v, the point of conv(R)
  // nearest the origin (v·r_j ≥ |v|² for every j, and no unit w has a
  // margin above |v|). Found as GJK finds a nearest point, with R's
  // directions as the points: v ← the nearest point of the simplex plus
  // the r_j of least v·r_j, at most kChungWangCentreSteps times. False when
  // the origin lies in conv(R) to rounding (R only just fits: no interior).
  bool centreW(Vec3* out) const {
    if (n_ == 0) return false;
    Vec3 y[4] = {r_[0]};
    int m = 1;
    Vec3 v = r_[0];
    double vv = 1;
    for (int step = 0; step < kChungWangCentreSteps; ++step) {
      int next = 0;
      double least = dot(v, r_[0]);
      for (int j = 1; j < n_; ++j) {
        const double x = dot(v, r_[j]);
        if (x < least) least = x, next = j;
      }
      // v is the nearest point to rounding: no direction lies below its plane.
      if (vv - least <= kCentreTolerance * vv) break;
      bool known = false;
      for (int k = 0; k < m; ++k) known = known || y[k] == r_[next];
      if (known) break;
      y[m++] = r_[next];
      const detail::SubSolution sol = m == 2   ? detail::solveSegment(y, 0, 1)
                                      : m == 3 ? detail::solveTriangle(y, 0, 1, 2)
                                               : detail::solveTetrahedron(y);
      if (sol.size == 4 || !(sol.vv > kHemisphereProofTolerance * kHemisphereProofTolerance)) return false;
      Vec3 kept[4];
      for (int k = 0; k < sol.size; ++k) kept[k] = y[sol.index[k]];
      for (int k = 0; k < sol.size; ++k) y[k] = kept[k];
      m = sol.size;
      v = sol.v;
      vv = sol.vv;
    }
    *out = v * (1 / std::sqrt(vv));
    return true;
  }

  // The rows of M (Huotari eq. 18, with d = √(x² + y²) — the thesis prints
  // d = ‖r‖, but only √(x² + y²) makes the rows unit): X = (xz, yz, −d²)/d,
  // Y = (−y, x, 0)/d, Z = r. They are orthonormal and right-handed, and
  // M r = (X·r, Y·r, Z·r) = (0, 0, 1). For r = ±z (d = 0) the limit y = 0,
  // x → 0⁺ is used: X = (z, 0, 0), Y = (0, 1, 0).
  static void basis(const Vec3& r, Vec3* X, Vec3* Y) {
    const double d = portable::hypot(r.x, r.y);
    if (!(d > 0)) {
      *X = Vec3{r.z, 0, 0};
      *Y = Vec3{0, 1, 0};
      return;
    }
    const double cx = r.x / d, cy = r.y / d;
    *X = Vec3{cx * r.z, cy * r.z, -d};
    *Y = Vec3{-cy, cx, 0};
  }

  // Whether the origin lies in conv{a, b, c, d} of four unit vectors, to
  // within kHemisphereProofTolerance: GJK's signed-volume solver
  // (simplex.h) returns a point of the hull nearest the origin — never a
  // point outside it, so a short one is a sound certificate. Flat hulls
  // count (all r seen so far in a plane around the origin, as for two
  // overlapping spheres, whose r_i all lie in the plane of s_0 and the
  // centres): 0 ∈ conv R ⊆ B − A needs no volume.
  static bool surroundsOrigin(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    const Vec3 y[4] = {a, b, c, d};
    const detail::SubSolution nearest = detail::solveTetrahedron(y);
    return nearest.vv <= kHemisphereProofTolerance * kHemisphereProofTolerance;
  }

  // Adds r (unit) and returns whether R still fits in a closed hemisphere.
  // Once it does not, it never will again (adding vectors cannot help).
  // Precondition: !full() (the main loop's cap guarantees it); when full the
  // vector is dropped and the previous answer returned.
  bool add(const Vec3& r, HemisphereLog* log = nullptr) {
    if (log) {
      *log = HemisphereLog{};
      log->planeZ = r;
    }
    if (!fits_) {
      if (log) {
        log->outcome = HemisphereCase::Failed;
        log->fits = false;
      }
      return false;
    }
    if (full()) return fits_;
    r_[n_++] = r;
    if (n_ == 1) {
      w_ = r;
      pivot_ = r;
      if (log) finishLog(log, HemisphereCase::First);
      return true;
    }
    // Pseudocode 8, first test: the stored w still fits.
    if (dot(w_, r) >= 0) {
      if (log) finishLog(log, HemisphereCase::KeepW);
      return true;
    }

    // w·r < 0: if R fits at all, it fits with a w ⊥ r (the segment from the
    // old w to any fitting w crosses the plane ⊥ r inside the old cone), so
    // the question is whether the older r_j, projected on that plane, fit
    // in a half-plane through the origin.
    Vec3 X, Y;
    basis(r, &X, &Y);
    if (log) {
      log->projectedToPlane = true;
      log->planeX = X;
      log->planeY = Y;
      log->projected.resize(static_cast<std::size_t>(n_));
      for (int j = 0; j < n_; ++j) log->projected[static_cast<std::size_t>(j)] = Vec3{dot(r_[j], X), dot(r_[j], Y), 0};
      log->projected.back() = Vec3{};
    }

    // The wedge is the clockwise sweep from ra to rb, of angle θ ∈ [0, π];
    // `single` while θ = 0 (one direction seen). With cross(a, b) =
    // a.x b.y − a.y b.x, cross(ra, u) < 0 means u lies clockwise of ra
    // (within π). Huotari's four cases, with ties (zero crosses) assigned
    // so that θ never exceeds π:
    //   inside  cross(ra, u) ≤ 0 ≤ cross(rb, u)
    //   widen a cross(ra, u) > 0 and cross(rb, u) ≥ 0  (new θ ≤ π)
    //   widen b cross(ra, u) ≤ 0 and cross(rb, u) < 0  (new θ ≤ π)
    //   else    u in the opposite wedge: no half-plane holds them.
    // A u in the opposite wedge is the proof of intersection, and it rests
    // on four directions only: r_a, r_b, r_j and r_new. It is accepted only
    // when the origin is within rounding of their hull (surroundsOrigin): a
    // projection's direction has error ~u/|projection|, large for r_j nearly
    // parallel to r_new, so the 2D signs alone are no proof. An unresolved
    // r_j is skipped like a parallel one (which can only delay a proof).
    bool any = false, single = true;
    Vec3 ra, rb;
    int ia = -1, ib = -1;
    for (int j = 0; j + 1 < n_; ++j) {
      const double x = dot(r_[j], X), y = dot(r_[j], Y);
      const double len = portable::hypot(x, y);
      HemisphereCase kase;
      Vec3 u;
      if (!(len > kHemisphereParallel)) {
        kase = HemisphereCase::Parallel;
      } else {
        u = Vec3{x / len, y / len, 0};
        if (!any) {
          any = true;
          ra = rb = u;
          ia = ib = j;
          kase = HemisphereCase::Seed;
        } else {
          const double a = cross2(ra, u), b = cross2(rb, u);
          if (single) {
            // θ = 0: any u fits; an antipodal u makes the half-plane
            // clockwise of ra (θ = π), a choice that costs nothing: a later
            // vector on the other side is outside every half-plane anyway.
            if (a > 0) {
              kase = HemisphereCase::WidenA;
            } else if (a < 0 || dot2(ra, u) < 0) {
              kase = HemisphereCase::WidenB;
            } else {
              kase = HemisphereCase::Inside;
            }
            if (kase != HemisphereCase::Inside) single = false;
          } else if (a <= 0 && b >= 0) {
            kase = HemisphereCase::Inside;
          } else if (a > 0 && b >= 0) {
            kase = HemisphereCase::WidenA;
          } else if (a <= 0 && b < 0) {
            kase = HemisphereCase::WidenB;
          } else if (surroundsOrigin(r_[ia], r_[ib], r_[j], r)) {
            kase = HemisphereCase::NoHalfPlane;
          } else {
            kase = HemisphereCase::Unresolved;
          }
          if (kase == HemisphereCase::WidenA) {
            ra = u;
            ia = j;
          } else if (kase == HemisphereCase::WidenB) {
            rb = u;
            ib = j;
          }
        }
      }
      if (log) log->steps.push_back(ChungWangWedgeStep{j, kase, Vec3{x, y, 0}, ra, rb, ia, ib});
      if (kase == HemisphereCase::NoHalfPlane) {
        fits_ = false;
        if (log) {
          log->hasWedge = any;
          log->ra = ra;
          log->rb = rb;
          log->ia = ia;
          log->ib = ib;
          finishLog(log, HemisphereCase::NoHalfPlane);
        }
        return false;
      }
    }

    // w = M⁻¹ m, m the wedge's bisector (in the plane, so w ⊥ r). Huotari
    // takes m = ra + rb, which vanishes as θ → π; the sum of the inward
    // normals, perpCW(ra) + perpCCW(rb), has the same direction and length
    // 2 sin(θ/2), so the longer of the two is used (both ≥ √2).
    Vec3 m{1, 0, 0};  // no constraint in the plane: any w ⊥ r fits
    if (any) {
      const Vec3 sum = ra + rb;
      const Vec3 normals = Vec3{ra.y, -ra.x, 0} + Vec3{-rb.y, rb.x, 0};
      m = dot2(ra, rb) >= 0 ? sum : normals;
    }
    w_ = normalizedOr(X * m.x + Y * m.y, X);
    pivot_ = r;
    if (log) {
      log->hasWedge = any;
      log->ra = ra;
      log->rb = rb;
      log->ia = ia;
      log->ib = ib;
      finishLog(log, HemisphereCase::Fits);
    }
    return true;
  }

 private:
  static double cross2(const Vec3& a, const Vec3& b) { return a.x * b.y - a.y * b.x; }
  static double dot2(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y; }

  void finishLog(HemisphereLog* log, HemisphereCase outcome) const {
    log->outcome = outcome;
    log->fits = fits_;
    log->w = w_;
  }

  Vec3 r_[kCapacity];
  int n_ = 0;
  Vec3 w_;
  Vec3 pivot_;
  bool fits_ = true;
};

// ---- the main loop ---------------------------------------------------------

namespace detail {

struct ChungWangState {
  int iteration = 0;
  Vec3 s;
  bool hasSupport = false;
  Vec3 pCore, qCore, p, q;
  double gap = 0, tolerance = 0;
  bool hasR = false;
  Vec3 r;
};

template <class Trace>
inline void recordChungWang(Trace& trace, ChungWangEvent event, ChungWangReason reason, int line,
                            const ChungWangState& st, const ChungWangHemisphere& R, const HemisphereLog* log,
                            const Vec3* nextS) {
  ChungWangFrame f;
  f.event = event;
  f.reason = reason;
  f.line = line;
  f.iteration = st.iteration;
  f.s = st.s;
  f.hasSupport = st.hasSupport;
  f.pCore = st.pCore;
  f.qCore = st.qCore;
  f.p = st.p;
  f.q = st.q;
  f.gap = st.gap;
  f.tolerance = st.tolerance;
  f.hasR = st.hasR;
  f.r = st.r;
  f.directions.reserve(static_cast<std::size_t>(R.size()));
  for (int i = 0; i < R.size(); ++i) f.directions.push_back(R.direction(i));
  f.hemisphere = R.fits();
  f.hasW = R.size() > 0 && R.fits();
  if (f.hasW) f.w = R.w();
  if (log != nullptr) {
    f.outcome = log->outcome;
    f.hasPlane = log->projectedToPlane;
    f.planeX = log->planeX;
    f.planeY = log->planeY;
    f.planeZ = log->planeZ;
    f.projected = log->projected;
    f.hasWedge = log->hasWedge;
    f.ra = log->ra;
    f.rb = log->rb;
    f.ia = log->ia;
    f.ib = log->ib;
    f.wedgeSteps = log->steps;
  }
  f.hasNextS = nextS != nullptr;
  if (nextS) f.nextS = *nextS;
  trace.record(std::move(f));
}

}  // namespace detail

// Chung–Wang intersection test. SA and SB provide `Vec3 support(const Vec3&)
// const` (world-space core), `double radius() const` and `Vec3 center()
// const` — PosedShape does. The cache (optional) is read at the start and
// receives the final s.
template <class Trace = NoTrace, class SA, class SB>
ChungWangResult chungWangIntersect(const SA& shapeA, const SB& shapeB, const ChungWangSettings& settings,
                                   ChungWangCache* cache, Trace& trace) {
  using namespace chung_wang_lines;
  ChungWangResult out;
  const double rA = shapeA.radius(), rB = shapeB.radius();
  const int cap = settings.maxIterations < 0 ? 0
                  : (settings.maxIterations > kChungWangMaxDirections ? kChungWangMaxDirections
                                                                       : settings.maxIterations);

  // s points from A towards B: A must end up on the −s side.
  const bool warm = cache != nullptr && cache->valid && isFinite(cache->axis) && maxAbs(cache->axis) > 0;
  detail::ChungWangState st;
  st.s = warm ? normalizedOr(cache->axis, Vec3{1, 0, 0})
              : normalizedOr(shapeB.center() - shapeA.center(), Vec3{1, 0, 0});
  ChungWangHemisphere R;
  if constexpr (Trace::enabled) {
    detail::recordChungWang(trace, ChungWangEvent::Init,
                            warm ? ChungWangReason::StartFromCache : ChungWangReason::StartFromCentres, kInit, st, R,
                            nullptr, nullptr);
  }

  ChungWangStatus status = ChungWangStatus::MaxIterations;
  ChungWangReason reason = ChungWangReason::IterationCap;
  int line = kCap;
  double scale = 0;
  bool havePrev = false;
  Vec3 rPrev;
  int sizeAtSwitch = -1;
  const double minCos = portable::cos(settings.repeatAngle);
  bool decided = false;
  while (!decided && st.iteration < cap) {
    ++st.iteration;
    const Vec3 s = st.s;
    st.pCore = shapeA.support(s);
    st.qCore = shapeB.support(-s);
    st.hasSupport = true;
    st.hasR = false;
    if (!isFinite(st.pCore) || !isFinite(st.qCore) || !std::isfinite(rA + rB)) {
      status = ChungWangStatus::Degenerate;
      reason = ChungWangReason::NonFinite;
      line = kSupport;
      decided = true;
      break;
    }
    // τ: the rounding error of s·(qCore − pCore) — a few roundings of
    // numbers up to S, the largest support coordinate (plus radius) seen —
    // with the same 64-ulp headroom as GJK (gjk.h).
    scale = std::fmax(scale, std::fmax(maxAbs(st.pCore) + rA, maxAbs(st.qCore) + rB));
    const double tau = kRoundingBound * scale;
    st.p = st.pCore + s * rA;
    st.q = st.qCore - s * rB;
    st.gap = dot(s, st.qCore - st.pCore) - (rA + rB);
    st.tolerance = tau;

    // Separation test on the rounded support values (see the header note).
    if (st.gap > tau) {
      status = ChungWangStatus::Separated;
      reason = ChungWangReason::Separated;
      line = kSeparated;
      decided = true;
    }
    Vec3 r;
    if (!decided) {
      const Vec3 d = st.q - st.p;
      if (!(maxAbs(d) > tau)) {
        // p ∈ A and q ∈ B coincide to rounding: a common point (touching).
        status = ChungWangStatus::Intersecting;
        reason = ChungWangReason::CommonPoint;
        line = kDirection;
        decided = true;
      } else {
        r = normalizedOr(d, s);
        st.r = r;
        st.hasR = true;
        // Huotari ch. 5.4.2: same support points twice in a row. The exit
        // reports a separation whose gap is within rounding of 0
        // (ChungWangResult::gap), so it is taken only when the gap is.
        // Rounding can repeat the support points elsewhere: for a point at
        // the local origin of a polytope 1e15 across (its small vertices
        // quantized to 1/8 there) they can repeat with a gap of the order
        // of the polytope, and "separated" would come with an axis along
        // which the shapes overlap by that much. Then the loop goes on
        // (the switch to W breaks the cycle, or the cap ends it).
        if (havePrev && r == rPrev && st.gap >= -tau) {
          status = ChungWangStatus::Separated;
          reason = ChungWangReason::RepeatedDirection;
          line = kRepeat;
          decided = true;
        }
      }
    }
    if constexpr (Trace::enabled) {
      detail::recordChungWang(trace, ChungWangEvent::Support, decided ? reason : ChungWangReason::Progress,
                              decided ? line : kSupport, st, R, nullptr, nullptr);
    }
    if (decided) break;
    rPrev = r;
    havePrev = true;

    if (R.size() > settings.switchAfter && R.size() != sizeAtSwitch && R.containsNear(r, minCos)) {
      sizeAtSwitch = R.size();
      // Eq. 19 relates consecutive steps only when one reflected into the
      // other: after a switch the next r must not be compared with this one.
      havePrev = false;
      // w tilted into the cone; past half the cap, the cone's centre.
      Vec3 next;
      if (2 * st.iteration <= cap || !R.centreW(&next)) next = R.interiorW();
      if constexpr (Trace::enabled) {
        detail::recordChungWang(trace, ChungWangEvent::Switch, ChungWangReason::SwitchToW, kSwitch, st, R, nullptr,
                                &next);
      }
      st.s = next;
      continue;
    }

    bool fits;
    if constexpr (Trace::enabled) {
      HemisphereLog log;
      fits = R.add(r, &log);
      detail::recordChungWang(trace, ChungWangEvent::Hemisphere,
                              fits ? ChungWangReason::HemisphereFits : ChungWangReason::NoHemisphere,
                              fits ? (log.projectedToPlane ? kHsW : kHsQuick) : kHsFail, st, R, &log, nullptr);
    } else {
      fits = R.add(r);
    }
    if (!fits) {
      status = ChungWangStatus::Intersecting;
      reason = ChungWangReason::NoHemisphere;
      line = kHemisphere;
      decided = true;
      break;
    }

    // Huotari eq. 15. The reflection keeps ‖s‖ = 1 up to rounding; the
    // renormalization stops drift over hundreds of steps.
    const Vec3 next = normalizedOr(s - r * (2 * dot(r, s)), s);
    if constexpr (Trace::enabled) {
      detail::recordChungWang(trace, ChungWangEvent::Reflect, ChungWangReason::Progress, kReflect, st, R, nullptr,
                              &next);
    }
    st.s = next;
  }

  out.status = status;
  out.intersecting = status != ChungWangStatus::Separated;
  out.iterations = st.iteration;
  out.gap = st.hasSupport ? st.gap : 0;
  if (!out.intersecting) out.separatingAxis = st.s;
  if (cache != nullptr && isFinite(st.s)) {
    cache->axis = st.s;
    cache->valid = true;
  }
  if constexpr (Trace::enabled) {
    detail::recordChungWang(trace, ChungWangEvent::Done, reason, line, st, R, nullptr, nullptr);
  }
  return out;
}

template <class SA, class SB>
ChungWangResult chungWangIntersect(const SA& a, const SB& b, const ChungWangSettings& settings = {},
                                   ChungWangCache* cache = nullptr) {
  NoTrace none;
  return chungWangIntersect(a, b, settings, cache, none);
}

}  // namespace collidoscope
