// collidoscope — names of GJK's statuses and reasons (the algorithm is in gjk.h).
#include "collidoscope/gjk.h"

namespace collidoscope {

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
    case GjkReason::BoundsWithinTolerance: return "bounds-within-tolerance";
    case GjkReason::Refine: return "refine";
  }
  return "none";
}

}  // namespace collidoscope
