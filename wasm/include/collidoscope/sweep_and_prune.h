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
// The seed keeps all three lists sorted and follows the pairs through the
// swaps. Here one list is kept, that of the axis where the boxes spread
// widest, and every pairs() sweeps it (the thesis's sweep): an active list
// of the open intervals; each min meets every open interval on the swept
// axis already (it opened before and has not closed: min before max on
// ties, so touching counts), so the new box is tested on the other two axes
// only; each max closes its own interval. Every overlapping pair is reported
// once, at the later of the two mins, so no pair set is kept and nothing has
// to be followed from frame to frame but the list's order.
//
// Why not the swaps. Following the pairs through the swaps of three lists
// costs O(swaps) hash-set operations, and in a crowd where every body moves
// each frame the swaps are many: 10 000 bodies moving ~0.03 per axis, about
// one neighbour each, made ~10⁶ swaps a frame, more than the pass's budget,
// so the lists were sorted anew and the pairs swept every frame anyway. The
// sweep costs O(n + Σ open intervals at each min): when bodies are spread
// through a volume, n times the bodies one interval long on the swept axis.
// The thesis's counters per axis are not needed either: the full box test at
// each min replaces them.
//
// The grid. In a crowd the active list is long (~290 open intervals at each
// min for 10 000 bodies of size ≈ 1 in a cube of side 35: 2.3·10⁶ box tests
// a frame). So the active list is kept per cell of a grid on the other two
// axes (a multi-SAP, as rapier's broad phase is, but one sweep): an open
// interval is listed in every cell its box covers, a min tests the lists of
// the cells its box covers, and a pair sharing several cells is reported in
// one (the cell of the corner of their overlap with the larger mins). That
// is ~5 tests per min in that crowd. Cells are kSapCellSize times the boxes'
// mean size, at most one per kSapCellBodies bodies (few bodies: one cell,
// the plain sweep), over the span of the boxes' centres (a box reaching
// beyond it is listed in the edge cells): a floor 100 m wide under a pile
// 12 m wide would otherwise spread the cells over the floor, the pile in two
// of them. The sweep, its order of endpoints and the pairs are the same;
// only which open intervals a min looks at changes.
//
// The list is restored between frames by insertion sort (bodies move
// little: temporal coherence, O(n + swaps) on one axis). When coherence fails
// (a teleport, a batch of insertions, bodies jittering in a thin layer along
// that axis) insertion sort costs up to O(n²): a pass that shifts more than
// kSapShiftsPerEndpoint·2n endpoints stops and std::sort finishes the list.
// Every kSapAxisFrames calls the spread of the box centres is measured again,
// and the list moves to another axis (sorted anew) when it spreads wider
// there by more than kSapAxisSwitch: a heap that falls into a layer is swept
// along the layer. The first pairs() chooses the axis and sorts.
//
// Costs: insert, update O(1) (the box is stored; the next pairs() refreshes
// the list's values and sorts); remove O(n) (the body's endpoints are taken
// out at once, so that its id can be inserted again); pairs() O(n + swaps +
// tests + k log k), k the pairs (the last term sorts the output).
// Allocation: insert, reserve allocate; pairs() allocates nothing once `out`
// and the scratch arrays have reached their largest size (amortized); update
// never.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "collidoscope/aabb.h"
#include "collidoscope/broadphase_ids.h"
#include "collidoscope/trace.h"

namespace collidoscope {

// The insertion-sort pass gives up (and std::sort finishes the list) after
// this many shifts per endpoint: a sort costs about log2(2n) ≈ 14
// comparisons per endpoint at n = 10⁴, so beyond some 16 shifts per
// endpoint the incremental pass no longer pays.
constexpr int kSapShiftsPerEndpoint = 16;
// Every this many pairs() calls the swept axis is chosen again (an O(n) pass
// over the boxes), and the list changes axis when the boxes' centres spread
// wider (variance) on another by more than the factor kSapAxisSwitch (which
// keeps the list on its axis while two spread about equally: a change costs a
// full sort).
constexpr int kSapAxisFrames = 16;
constexpr double kSapAxisSwitch = 1.5;
// The sweep's grid on the other two axes: cells of kSapCellSize times the
// boxes' mean size there, and at most one cell per kSapCellBodies bodies (so
// that a few bodies, as in the page's scenes, are swept in one cell: the
// seed's sweep exactly).
constexpr double kSapCellSize = 2.0;
constexpr double kSapCellBodies = 8.0;

// One end of a body's interval along an axis, as in the thesis's lists.
struct SapEndpoint {
  double value = 0;
  int id = 0;
  bool isMin = false;
};

// One step of the sweep, for views of the thesis's figure 6: the endpoint of
// the swept axis just passed, the open intervals after it (the active list,
// in its own order: a max swaps the last one into its hole), and the pairs
// that endpoint reported (a min: the open boxes it overlaps on all three
// axes; a max reports none).
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
  // Moves a body's box, O(1); the list follows at the next pairs().
  // False, nothing changed: id absent.
  bool update(int id, const Aabb& box);
  // False, nothing changed: id absent.
  bool remove(int id);
  bool contains(int id) const { return id >= 0 && id < static_cast<int>(boxOf_.size()) && present_[id]; }
  int size() const { return count_; }
  // The box last given for id (contains(id) must hold).
  const Aabb& box(int id) const { return boxOf_[id]; }

  // Every pair {a, b}, a < b, whose boxes overlap (closed: touching counts),
  // into *out (cleared first), sorted by (a, b). Sorts the list and sweeps it.
  // False, *out empty, when more than maxPairs pairs overlap: the sweep stops
  // there (a heap of bodies in one place would otherwise take quadratic time
  // and memory).
  bool pairs(std::vector<IdPair>* out, std::int64_t maxPairs = INT64_MAX) {
    NoTrace none;
    return pairs(out, maxPairs, none);
  }
  // The same, recording each step of the sweep. Trace: NoTrace (the call
  // above) or SapSweepRecorder; the events are built only when Trace::enabled.
  template <class Trace>
  bool pairs(std::vector<IdPair>* out, std::int64_t maxPairs, Trace& trace);

  // The swept axis (0, 1, 2) of the last pairs(); −1 before the first.
  int axis() const { return built_ ? axis_ : -1; }
  // For views of the thesis's method: the endpoints of an axis (0, 1, 2),
  // 2·size() of them ordered by (value, min before max, id), into *out
  // (empty for another axis). The swept axis's is the kept list as of the
  // last pairs() (bodies inserted since then are listed last with value +∞;
  // moves since then are not shown); the other two, which the seed kept
  // too and this structure does not, are sorted here from the boxes as last
  // given (may allocate).
  void endpoints(int axis, std::vector<SapEndpoint>* out) const;
  // How many times the list was sorted anew (std::sort: the first pairs(),
  // a pass over budget, a change of axis): a diagnostic of lost coherence
  // for tests and benchmarks.
  long long rebuilds() const { return rebuilds_; }

 private:
  // An endpoint: its value and, packed in one integer, max-ness then id, so
  // that (value, key) orders the list as the header says.
  struct End {
    double value;
    std::uint32_t key;  // isMax << 20 | id
  };
  static bool less(const End& e, const End& f) { return e.value < f.value || (e.value == f.value && e.key < f.key); }
  // An open interval's box on the two axes besides the swept one (u, w).
  struct Cross {
    double uMin, uMax, wMin, wMax;
  };
  // The spread (variance) of the box centres along each axis.
  void spreads(double variance[3]) const;
  // The list's values from the boxes on axis_ (any order).
  void refreshValues();
  // Sorts the list by insertion; false when it gave up (over budget), the
  // list half sorted.
  bool insertionPass();
  // The grid of the sweep's cells on u, w for the boxes as they are, and
  // room in the pool for their entries.
  void layGrid();
  // The cell (0 … grid_[k] − 1) of coordinate x on u (k 0) or w (k 1).
  int cellOf(int k, double x) const;
  template <class Trace>
  bool sweep(std::vector<IdPair>* out, std::int64_t maxPairs, Trace& trace);

  int count_ = 0;
  long long rebuilds_ = 0;
  bool built_ = false;  // list_ is in some order of axis_ (the first pairs() sorts)
  int axis_ = 0;
  unsigned frame_ = 0;  // pairs() calls (mod 2^32), for kSapAxisFrames
  std::vector<unsigned char> present_;  // by id
  std::vector<Aabb> boxOf_;             // by id
  std::vector<End> list_;               // the swept axis's endpoints
  // An open interval in a cell's list (a singly linked list in pool_).
  struct CellEntry {
    Cross box;
    double closesAt;  // its max on the swept axis
    int id;
    int u0, w0;       // the cell of its box's min on u, w
    int next;         // the next entry of the cell, −1 at the end
  };
  // The cells a box covers on u, w: [u0, u1] × [w0, w1] (empty for a NaN box).
  struct CellSpan {
    int u0, u1, w0, w1;
  };
  // The sweep's grid: cells per axis (u, w), where cell 0 begins, cells per unit.
  int grid_[2] = {1, 1};
  double origin_[2] = {0, 0}, scale_[2] = {0, 0};
  // Scratch of the sweep, kept so that pairs() stops allocating.
  std::vector<CellSpan> span_;           // by id: its box's cells (layGrid)
  std::vector<int> head_;                // per cell: its first entry, −1 when empty
  std::vector<CellEntry> pool_;
  std::vector<int> active_, activePos_;  // traced only: open intervals' ids; an id's place in active_
};

}  // namespace collidoscope
