// collidoscope — names and pseudocode for EPA (the algorithm is in epa.h).
#include "collidoscope/epa.h"

namespace collidoscope {

namespace {

// Line numbers must match epa_lines in epa.h.
const char* const kEpaPseudocode[] = {
    "run GJK on the cores; if they are apart: depth ← max(0, r_A + r_B − ‖v‖)",
    "grow GJK's simplex into a tetrahedron P around O (flat A − B: touching)",
    "repeat (at most maxIterations times)",
    "  f ← the face of P nearest O (normal n, distance d)",
    "  w ← s_A(n) − s_B(−n)                     // support point of A − B",
    "  if n·w − d ≤ max(ε·d, ε_abs·S): stop      // f lies on the boundary",
    "  remove the faces of P that w can see; keep their horizon edges",
    "  join w to every horizon edge with a new face",
    "depth ← d + r_A + r_B; normal ← n; points from f's weights",
    nullptr,
};

}  // namespace

const char* const* epaPseudocode() { return kEpaPseudocode; }

const char* epaStatusName(EpaStatus s) {
  switch (s) {
    case EpaStatus::Converged: return "converged";
    case EpaStatus::Touching: return "touching";
    case EpaStatus::MaxIterations: return "max-iterations";
    case EpaStatus::Degenerate: return "degenerate";
  }
  return "degenerate";
}

const char* epaReasonName(EpaReason r) {
  switch (r) {
    case EpaReason::None: return "none";
    case EpaReason::Apart: return "apart";
    case EpaReason::Tetrahedron: return "tetrahedron";
    case EpaReason::Flat: return "flat";
    case EpaReason::NearestFace: return "nearest-face";
    case EpaReason::Progress: return "progress";
    case EpaReason::GapWithinTolerance: return "gap-within-tolerance";
    case EpaReason::DuplicateSupport: return "duplicate-support";
    case EpaReason::Capacity: return "capacity";
    case EpaReason::BrokenHorizon: return "broken-horizon";
    case EpaReason::IterationCap: return "iteration-cap";
  }
  return "none";
}

}  // namespace collidoscope
