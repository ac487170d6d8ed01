// collidoscope — the scene query "pairs", traced: the broad phase of a world
// (sweep and prune, Rasku 2003, §5 and its figure 6) and the narrow phase after
// it, as frames for the page's `pairs` view.
//
// The shapes go into a World (world.h) as run() puts them, so each box is
// the World's (exact for convex shapes, the seed's cube for meshes and
// compounds, none for planes). The bounded boxes go into a fresh
// SweepAndPrune whose pairs() call, as every World's, sorts the list of the
// widest axis and sweeps it; its recording trace (SapSweepRecorder) gives
// the sweep's steps. Then the
// narrow phase: intersect() on each candidate pair (the box pairs, and every
// plane with every other body), as World::pairs runs it. The result is the
// World's own answer, so it equals run()'s bit for bit.
//
// Frames, in order:
//   boxes    every shape's box, planes marked unbounded;
//   sort     the three sorted endpoint lists (the seed's three lists; the
//            structure keeps the swept axis's, the view sorts the others);
//   sweep    one per endpoint of the swept axis: the sweep line's value, the
//            active list after it, the pairs reported so far;
//   narrow   one per candidate pair: intersect()'s answer.
// A big scene is cut: at most kSapViewFrameCap frames, and at most
// kSapViewEntryCap numbers (endpoints, ids, pairs) over all frames; the
// trace says "truncated" then, and the result is still the whole answer.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "collidoscope/aabb.h"
#include "collidoscope/scene.h"
#include "collidoscope/sweep_and_prune.h"
#include "collidoscope/world.h"

namespace collidoscope {

constexpr int kSapViewFrameCap = 2000;
// About 1.6 MB of JSON: a browser parses it in well under a second.
constexpr long long kSapViewEntryCap = 200000;

enum class SapViewFrameKind : std::uint8_t { Boxes, Sort, Sweep, Narrow };
const char* sapViewFrameKindName(SapViewFrameKind k);

struct SapViewBox {
  int shape = 0;
  bool unbounded = false;  // a plane: no box, paired with every other shape
  Aabb box;                // world; meaningless when unbounded
};

struct SapViewFrame {
  SapViewFrameKind kind = SapViewFrameKind::Boxes;
  std::vector<SapViewBox> boxes;            // boxes
  std::vector<SapEndpoint> lists[3];        // sort: x, y, z lists in sorted order
  int axis = -1;                            // sort, sweep: the swept axis (−1: fewer than 2 boxes, no sweep)
  int position = -1;                        // sweep: the endpoint's place in the swept list
  SapEndpoint endpoint;                     // sweep: the endpoint (its value is the sweep line's)
  std::vector<int> active;                  // sweep: the open intervals after it
  std::vector<std::array<int, 2>> found;    // sweep: the pairs this endpoint reported
  std::vector<std::array<int, 2>> pairs;    // sweep: the box pairs reported so far; narrow: the intersecting pairs so far
  std::array<int, 2> pair{{-1, -1}};        // narrow: the candidate pair
  bool planePair = false;                   // narrow: a plane's pair (no box test: planes meet everything)
  bool intersecting = false;                // narrow: intersect()'s answer
  int iterations = 0;                       // narrow: intersect()'s iterations
  int candidate = -1;                       // narrow: the candidate's index (0 …)
};

struct SapViewResult {
  PairsResult result;  // the World's answer (run()'s)
  int sweepAxis = -1;
  int boxPairs = 0;  // pairs of overlapping boxes the sweep found
  bool truncated = false;
};

// frames may be null (then only the result is computed). False with *err
// exactly when run() of the scene fails.
bool runSapView(const Scene& scene, std::vector<SapViewFrame>* frames, SapViewResult* r, SceneError* err);

namespace api {
// The "pairs" query's trace as JSON: {"query": "pairs", "frames": [...],
// "result": PairsResult, "sweepAxis", "boxPairs", "truncated"}.
bool runPairsTrace(const Scene& scene, std::string* json, SceneError* err);
}  // namespace api

}  // namespace collidoscope
