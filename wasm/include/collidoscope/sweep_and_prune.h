// collidoscope — sweep and prune: the broad phase of sorted intervals.
//
// Reference: J. Rasku, "Törmäysten havaitseminen tietokoneanimaatiossa",
// master's thesis, University of Tampere, 2003, §5 (after J. D. Cohen,
// M. C. Lin, D. Manocha, M. Ponamgi, "I-COLLIDE", 1995, and Möller & Haines,
// "Real-Time Rendering", pp. 358–360): each body is bounded by an axis-aligned
// box; two boxes meet exactly when their intervals overlap on all three axes;
// the intervals of each axis are kept in a list sorted by their endpoints, and
// since bodies move little between frames (temporal coherence) insertion sort
// restores the order in O(n + swaps), so a frame costs O(n + k) at best.
//
// Where this departs from the thesis, and why. The thesis sweeps all three
// lists and counts, per pair, the axes on which its intervals overlap (a pair
// with three is a candidate). That count must be stored for every pair that
// overlaps on one axis, and those pairs can be Θ(n²) even when few boxes
// meet: 10 000 boxes resting on a floor all overlap on the vertical axis, 5·10⁷
// counters. Here one axis is swept and the other two are tested directly:
//
//   rows sorted by (min on the sweep axis, id);
//   for each row i, for j = i+1, … while min_j ≤ max_i:      (1)
//       report {i, j} if their intervals overlap on the two other axes.
//
// (1) finds exactly the pairs that overlap on the sweep axis: for j after i,
// min_i ≤ min_j, so [min_i, max_i] ∩ [min_j, max_j] ≠ ∅ ⇔ min_j ≤ max_i (closed
// intervals; boxes have min ≤ max), and no later row can overlap once one
// fails since mins only grow. Every pair is considered once, from its earlier
// row. The work is O(n + k_s), k_s the pairs overlapping on the sweep axis, and
// no per-pair state lives between frames. To keep k_s small, the sweep axis is
// the one along which the boxes' centres spread most (largest variance, as in
// C. Ericson, "Real-Time Collision Detection", §7.5.1), re-chosen at every
// pairs() but switched only when another axis spreads kSapAxisSwitch times
// more (a switch re-sorts everything, O(n log n)).
//
// Storage: the sorted rows as arrays (structure of arrays), so the inner loop
// (1) reads the sweep-axis mins contiguously, and the two other axes' intervals
// of a row side by side (32 bytes) for the test; plus each id's row and box.
//
// Costs. insert, update: O(1) — the row is written and marked unsorted; the
// next pairs() restores the order by one insertion-sort pass over the rows,
// O(n + s) with s the rows' displacements (small after small moves). A pass
// that would shift more than kSapShiftsPerBody·n rows (teleports, a batch of
// insertions) stops and std::sort finishes, O(n log n). remove: O(n) (the rows
// after it move up one place, keeping the order). pairs(): O(n + s + k_s +
// k log k), the last term sorting the output by (a, b).
//
// Allocation: insert and reserve grow the arrays; pairs() allocates nothing
// once `out` and the scratch arrays have reached their largest size
// (amortized), update and remove never.
#pragma once

#include <vector>

#include "collidoscope/aabb.h"
#include "collidoscope/broadphase_ids.h"

namespace collidoscope {

// Another axis becomes the sweep axis when the variance of the centres along
// it exceeds the current axis's by this factor: the hysteresis keeps a world
// whose spread is about the same on two axes from re-sorting back and forth.
constexpr double kSapAxisSwitch = 2.0;
// The insertion-sort pass gives up (and std::sort takes over) after this many
// row shifts per body: std::sort costs about log2(n) ≈ 13 comparisons per row
// at n = 10⁴ and moves each row about as often, so 8 shifts per row is where
// the adaptive pass stops paying.
constexpr int kSapShiftsPerBody = 8;

// One end of a body's interval along an axis, as in the thesis's lists.
struct SapEndpoint {
  double value = 0;
  int id = 0;
  bool isMin = false;
};

class SweepAndPrune {
 public:
  // Grows storage for ids below `bodies` (may allocate).
  void reserve(int bodies);
  // Adds a body (may allocate). False, nothing changed: id out of range or present.
  bool insert(int id, const Aabb& box);
  // Moves a body's box; O(1), the order is restored by the next pairs().
  // False, nothing changed: id absent.
  bool update(int id, const Aabb& box);
  // False, nothing changed: id absent.
  bool remove(int id);
  bool contains(int id) const { return id >= 0 && id < static_cast<int>(slot_.size()) && slot_[id] >= 0; }
  int size() const { return static_cast<int>(ids_.size()); }
  // The box last given for id (contains(id) must hold).
  const Aabb& box(int id) const { return boxOf_[id]; }

  // Every pair {a, b}, a < b, whose boxes overlap (closed: touching counts),
  // into *out (cleared first), sorted by (a, b). Sorts the rows first.
  void pairs(std::vector<IdPair>* out);

  // The axis (0 = x, 1 = y, 2 = z) of the last pairs() sweep.
  int sweepAxis() const { return axis_; }
  // For views of the thesis's method: the sorted interval list of an axis,
  // the 2·size() endpoints ordered by (value, min before max, id), so that a
  // walk through it meets the min of every interval that touches another
  // before that other's max. Computed on each call (O(n log n), allocates
  // into *out); the structure keeps only the sweep axis sorted, and only by
  // min.
  void endpoints(int axis, std::vector<SapEndpoint>* out) const;

 private:
  // A row's intervals on the two axes other than the sweep axis.
  struct Cross {
    double min1, max1, min2, max2;
  };
  void setRow(int row, const Aabb& box);
  bool before(int r, int s) const { return lo_[r] < lo_[s] || (lo_[r] == lo_[s] && ids_[r] < ids_[s]); }
  void chooseAxis();
  void insertionPass();
  void sortRows();

  int axis_ = 0;
  bool sorted_ = true;
  // Indexed by id.
  std::vector<int> slot_;     // the id's row, −1 when absent
  std::vector<Aabb> boxOf_;   // the id's box
  // Rows, sorted by (lo_, ids_) after pairs().
  std::vector<double> lo_, hi_;  // the interval on the sweep axis
  std::vector<int> ids_;
  std::vector<Cross> cross_;
  // Scratch, kept between calls so that pairs() stops allocating.
  std::vector<int> perm_;
  std::vector<double> tmpLo_, tmpHi_;
  std::vector<int> tmpIds_;
  std::vector<Cross> tmpCross_;
};

}  // namespace collidoscope
