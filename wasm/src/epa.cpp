// collidoscope — names of EPA's statuses and reasons (the algorithm is in epa.h).
#include "collidoscope/epa.h"

namespace collidoscope {

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
    case EpaReason::Polygon: return "polygon";
    case EpaReason::Refined: return "refined";
  }
  return "none";
}

}  // namespace collidoscope
