// collidoscope — trace policies.
//
// Each algorithm is written once, as a template over a trace policy, so the
// stepping page shows the code that ships. A policy has a compile-time flag
// `enabled`; the algorithms build a frame only inside
// `if constexpr (Trace::enabled)`, so with NoTrace neither the frame nor the
// arguments that fill it exist in the compiled query.
#pragma once

#include <utility>
#include <vector>

#include "collidoscope/math.h"
#include "collidoscope/simplex.h"

namespace collidoscope {

enum class GjkStatus {
  Converged,      // a termination test proved the answer (within tolerance)
  MaxIterations,  // the iteration cap was reached; the answer is the best bound so far
  Degenerate,     // rounding stopped progress before the tolerance was met
};

const char* gjkStatusName(GjkStatus s);

// What a GJK frame shows. `line` (in the frame) is the pseudocode line.
enum class GjkEvent {
  Init,     // first point / direction chosen
  Support,  // a new support point w was computed and the exit tests evaluated
  Simplex,  // W ∪ {w} reduced to the sub-simplex nearest the origin
  Done,     // the query returned
};

// Why a step did what it did (drives the page's caption).
enum class GjkReason {
  None,
  StartFromPoint,      // v = first support point
  StartFromCache,      // v = cached direction (intersect warm start)
  Progress,            // gap above tolerance: keep going
  GapWithinTolerance,  // ‖v‖² − v·w ≤ tolerance
  DuplicateSupport,    // w already in W: no new information
  OriginInside,        // the tetrahedron contains the origin
  OriginTouching,      // ‖v‖ within rounding of zero
  NoProgress,          // ‖v‖ did not decrease (rounding limit)
  Separated,           // intersect: v·w > r‖v‖ proves separation
  WithinMargins,       // intersect: ‖v‖ ≤ r, the rounded shapes overlap
  IterationCap,        // maxIterations reached
  BoundsWithinTolerance,  // distance, at a stall: ‖v‖ − (best lower bound) ≤ tolerance, certified
  Refine,                 // distance, at a stall: v re-solved perpendicular to W's edge, go on
};

const char* gjkReasonName(GjkReason r);

struct GjkFrame {
  GjkEvent event = GjkEvent::Init;
  GjkReason reason = GjkReason::None;
  int line = 0;       // 1-based pseudocode line that produced the frame
  int iteration = 0;  // 0 for Init
  Simplex simplex;    // W after this step, with the weights of v
  Vec3 v;             // current v (nearest point of conv W), or the cached direction at Init
  Vec3 direction;     // search direction of this step's support (−v)
  bool hasSupport = false;
  SimplexVertex support;  // w = a − b, with a on A and b on B
  bool hasTest = false;   // vw, gap and tolerance are meaningful
  double vv = 0;          // ‖v‖²
  double vw = 0;          // v·w
  double lowerBound = 0;  // distance: the best certified lower bound on the cores' distance so far
  double gap = 0;         // ‖v‖² − v·w
  double tolerance = 0;   // what gap is compared with
};

// A frame of a tiny scene's scaled run in the caller's units (tiny_scene.h):
// lengths times g, squared lengths times g².
inline void scaleLengths(GjkFrame* f, double g) {
  scaleLengths(&f->simplex, g);
  f->v = f->v * g;
  f->direction = f->direction * g;
  scaleLengths(&f->support, g);
  f->vv = f->vv * g * g;
  f->vw = f->vw * g * g;
  f->lowerBound = f->lowerBound * g;
  f->gap = f->gap * g * g;
  f->tolerance = f->tolerance * g * g;
}

struct NoTrace {
  static constexpr bool enabled = false;
  void record(const GjkFrame&) {}
};

// Keeps every frame of one algorithm. Used by the page, the CLI's `trace`
// and the tests; the vector grows outside the NoTrace fast path only.
template <class Frame>
struct FrameRecorder {
  static constexpr bool enabled = true;
  std::vector<Frame> frames;
  void record(const Frame& f) { frames.push_back(f); }
  void record(Frame&& f) { frames.push_back(std::move(f)); }
};

using GjkRecorder = FrameRecorder<GjkFrame>;

}  // namespace collidoscope
