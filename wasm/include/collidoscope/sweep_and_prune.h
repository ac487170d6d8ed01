// collidoscope — sweep and prune: the broad phase of sorted interval lists.
//
// Reference: J. Rasku, "Törmäysten havaitseminen tietokoneanimaatiossa",
// master's thesis, University of Tampere, 2003, §5, which presents the
// method of I-COLLIDE (J. D. Cohen, M. C. Lin, D. Manocha, M. Ponamgi, 1995)
// after Möller & Haines, "Real-Time Rendering", pp. 358–360: each body is bounded by an axis-aligned
// box; two boxes meet exactly when their intervals overlap on all three axes;
// the endpoints (value, id, min or max) of each axis are kept in a sorted
// list, and since bodies move little between frames (temporal coherence)
// insertion sort restores the three lists in O(n + swaps).
//
// The pairs follow from the swaps. Order each list by (value, max after min,
// id); then on an axis [min_i, max_i] and [min_j, max_j] overlap (closed) iff
// min_i comes before max_j and min_j before max_i. Insertion sort exchanges
// every pair of endpoints whose order changed exactly once, so a pair's
// overlap on an axis changes exactly when one of these two exchanges happens:
//   a min moves before another body's max:  the intervals begin to overlap —
//       the pair is added if the two boxes (their final values) overlap on
//       all axes;
//   a max moves before another body's min:  they stop overlapping — the pair
//       is removed.
// By induction the set of pairs equals the pairs overlapping on all three
// axes after each pairs(): one that overlaps at the end and did not before
// began to overlap on some axis, where the full test (on final values) added
// it; one that no longer overlaps stopped on some axis and was removed; a
// pair added is never removed later in the same pass, since a removal means
// it does not overlap at the end. A new body's endpoints start at the end of
// each list (after everything: overlapping nothing) and sort into place the
// same way.
//
// Where this departs from the thesis, and why. The thesis sweeps the three
// lists every frame and counts, per pair, the axes on which the intervals
// overlap; those counters exist for every pair overlapping on ONE axis, which
// can be Θ(n²) (10 000 boxes on a floor all overlap vertically), and the sweep
// costs O(n + those pairs) every frame. Here only the pairs overlapping on all
// three axes are stored (a hash set, O(k)), and a frame of small moves costs
// O(n + swaps + k log k) (the last term sorts the output).
//
// When coherence fails (a teleport, a batch of insertions, bodies jittering
// in a thin layer so that a list reshuffles each frame) insertion sort costs
// up to O(n²). A pass that shifts more than kSapShiftsPerEndpoint·2n endpoints
// on an axis stops; std::sort finishes that list (and sorts it directly, with
// no pass, for up to kSapRetryFrames frames; the other axes' passes run
// without events), and the pair set is rebuilt by one sweep of the thesis's
// kind over the list of widest spread (an active list of open
// intervals; each new min is tested against the whole box of every open
// interval): O(n log n + k_s), k_s the pairs overlapping on that axis. The
// first pairs() builds so as well.
//
// Costs: insert, update O(1) (the box is stored; the next pairs() refreshes
// the lists' values and sorts); remove O(n + table) (the body's endpoints and
// pairs are taken out at once, so that its id can be inserted again).
// Allocation: insert, reserve and a growing pair set allocate; pairs()
// allocates nothing once `out`, the pair set and the scratch arrays have
// reached their largest size (amortized); update never.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "collidoscope/aabb.h"
#include "collidoscope/broadphase_ids.h"
#include "collidoscope/trace.h"

namespace collidoscope {

// The insertion-sort pass of an axis gives up (and the structure is rebuilt)
// after this many shifts per endpoint: a rebuild costs a sort (about
// log2(2n) ≈ 14 comparisons per endpoint at n = 10⁴) plus a sweep, so beyond
// some 16 shifts per endpoint the incremental pass no longer pays.
constexpr int kSapShiftsPerEndpoint = 16;
// An axis whose pass gave up is sorted directly (std::sort, no pass) until
// the pairs() call whose count is a multiple of this, then tried again: a
// list that reshuffles every frame (a jittering layer) would spend the pass's
// budget for nothing, one that calmed down gets its O(n) passes back.
constexpr int kSapRetryFrames = 16;

// One end of a body's interval along an axis, as in the thesis's lists.
struct SapEndpoint {
  double value = 0;
  int id = 0;
  bool isMin = false;
};

// One step of the rebuild sweep, for views of the thesis's figure 6: the
// endpoint of the swept axis just passed, the open intervals after it (the
// active list, in its own order: a max swaps the last one into its hole),
// and the pairs that endpoint reported (a min: the open boxes it overlaps on
// all three axes; a max reports none).
struct SapSweepEvent {
  int axis = 0;           // the swept axis (widest spread of the box centres)
  int position = 0;       // the endpoint's place in the axis's sorted list
  SapEndpoint endpoint;
  std::vector<int> active;
  std::vector<IdPair> found;  // {a, b}, a < b
};
using SapSweepRecorder = FrameRecorder<SapSweepEvent>;

class SweepAndPrune {
 public:
  // Grows storage for `bodies` bodies with ids below it (may allocate).
  void reserve(int bodies);
  // Adds a body (may allocate). False, nothing changed: id out of range or present.
  bool insert(int id, const Aabb& box);
  // Moves a body's box, O(1); the lists follow at the next pairs().
  // False, nothing changed: id absent.
  bool update(int id, const Aabb& box);
  // False, nothing changed: id absent.
  bool remove(int id);
  bool contains(int id) const { return id >= 0 && id < static_cast<int>(boxOf_.size()) && present_[id]; }
  int size() const { return count_; }
  // The box last given for id (contains(id) must hold).
  const Aabb& box(int id) const { return boxOf_[id]; }

  // Every pair {a, b}, a < b, whose boxes overlap (closed: touching counts),
  // into *out (cleared first), sorted by (a, b). Sorts the lists first.
  // False, *out empty, when more than maxPairs pairs overlap: the search
  // stops there (a heap of bodies in one place would otherwise take
  // quadratic time and memory), and the next call rebuilds the pair set.
  bool pairs(std::vector<IdPair>* out, std::int64_t maxPairs = INT64_MAX) {
    NoTrace none;
    return pairs(out, maxPairs, none);
  }
  // The same, recording each step of the rebuild sweep when it runs (the
  // first call always sweeps). Trace: NoTrace (the call above) or
  // SapSweepRecorder; the events are built only when Trace::enabled.
  template <class Trace>
  bool pairs(std::vector<IdPair>* out, std::int64_t maxPairs, Trace& trace);

  // For views of the thesis's method: the sorted list of an axis (0, 1, 2) as
  // of the last pairs(), 2·size() endpoints ordered by (value, min before max,
  // id), copied into *out (empty for another axis). Bodies inserted since then
  // are listed last with value +∞; moves since then are not shown.
  void endpoints(int axis, std::vector<SapEndpoint>* out) const;
  // How many times the pair set was rebuilt (the first pairs() included):
  // a diagnostic of lost coherence for tests and benchmarks.
  long long rebuilds() const { return rebuilds_; }

 private:
  // An endpoint: its value and, packed in one integer, max-ness then id, so
  // that (value, key) orders the list as the header says.
  struct End {
    double value;
    std::uint32_t key;  // isMax << 20 | id
  };
  static bool less(const End& e, const End& f) { return e.value < f.value || (e.value == f.value && e.key < f.key); }
  void refreshValues(int axis);
  // Sorts a list by insertion, adding and removing pairs at the swaps when
  // `events`; false when it gave up (over budget), the list half sorted.
  bool insertionPass(int axis, bool events);
  // The pair set anew, by the thesis's sweep of the (sorted) list of widest spread.
  template <class Trace>
  void sweepPairs(Trace& trace);
  void addPair(std::uint64_t key);
  void erasePair(std::uint64_t key);
  void eraseAt(std::size_t slot);
  void growTable();

  int count_ = 0;
  long long rebuilds_ = 0;
  bool built_ = false;
  unsigned frame_ = 0;  // pairs() calls (mod 2^32), for kSapRetryFrames
  int unstable_ = 0;    // bit a: axis a's pass gave up since the last retry
  std::vector<unsigned char> present_;  // by id
  std::vector<Aabb> boxOf_;             // by id
  std::vector<End> lists_[3];
  // The pair set: open addressing with linear probing over keys a·2^20 + b;
  // kEmpty marks a free slot; capacity a power of two, at most half full.
  std::vector<std::uint64_t> table_;
  int tableCount_ = 0;
  std::int64_t limit_ = INT64_MAX;  // pairs()'s maxPairs: addPair refuses beyond it
  bool overflowed_ = false;         // addPair refused a pair in this pairs()
  // Scratch of the rebuild sweep, kept so that pairs() stops allocating.
  std::vector<int> active_, activePos_;  // open intervals' ids; an id's place in active_
  std::vector<Aabb> activeBoxes_;        // their boxes, in active_'s order
};

}  // namespace collidoscope
