// collidoscope — names and pseudocode for GJK (the algorithm is in gjk.h).
#include "collidoscope/gjk.h"

namespace collidoscope {

namespace {

// Line numbers must match gjk_lines in gjk.h.
const char* const kDistancePseudocode[] = {
    "v ← a point of A − B;  W ← {v}",
    "repeat (at most maxIterations times)",
    "  w ← s_A(−v) − s_B(v)                      // support point of A − B",
    "  if ‖v‖² − v·w ≤ max(ε‖v‖², rounding): stop  // error bound met",
    "  if w ∈ W: stop                            // rounding hides progress (degenerate)",
    "  v ← point of conv(W ∪ {w}) nearest O;  W ← the vertices it needs",
    "  if |W| = 4 or v ≈ 0: return 0            // O inside A − B: overlap",
    "  if ‖v‖ grew by over τ = 64u·S, or did not shrink 5 times: stop  // rounding",
    "stop: iteration cap",
    "distance ← max(0, ‖v‖ − r_A − r_B); points from the weights of W",
    nullptr,
};

const char* const kIntersectPseudocode[] = {
    "v ← cached direction, or from B towards A;  W ← ∅",
    "repeat (at most maxIterations times)",
    "  w ← s_A(−v) − s_B(v)                      // support point of A − B",
    "  if v·w > (r_A + r_B)‖v‖: return separated   // v is a separating axis",
    "  if ‖v‖² − v·w ≤ tolerance or w ∈ W: return intersecting  // touching",
    "  v ← point of conv(W ∪ {w}) nearest O;  W ← the vertices it needs",
    "  if |W| = 4 or ‖v‖ ≤ r_A + r_B: return intersecting",
    "  if ‖v‖ grew by over τ, or did not shrink 5 times: return intersecting",
    "stop: iteration cap; no separating axis found: intersecting",
    nullptr,
};

}  // namespace

const char* const* gjkPseudocode(bool intersect) {
  return intersect ? kIntersectPseudocode : kDistancePseudocode;
}

const char* gjkStatusName(GjkStatus s) {
  switch (s) {
    case GjkStatus::Converged:
      return "converged";
    case GjkStatus::MaxIterations:
      return "max-iterations";
    case GjkStatus::Degenerate:
      return "degenerate";
  }
  return "degenerate";
}

const char* gjkReasonName(GjkReason r) {
  switch (r) {
    case GjkReason::None: return "none";
    case GjkReason::StartFromPoint: return "start-from-point";
    case GjkReason::StartFromCache: return "start-from-cache";
    case GjkReason::Progress: return "progress";
    case GjkReason::GapWithinTolerance: return "gap-within-tolerance";
    case GjkReason::DuplicateSupport: return "duplicate-support";
    case GjkReason::OriginInside: return "origin-inside";
    case GjkReason::OriginTouching: return "origin-touching";
    case GjkReason::NoProgress: return "no-progress";
    case GjkReason::Separated: return "separated";
    case GjkReason::WithinMargins: return "within-margins";
    case GjkReason::IterationCap: return "iteration-cap";
  }
  return "none";
}

}  // namespace collidoscope
