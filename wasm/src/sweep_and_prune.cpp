// collidoscope — sweep and prune (see sweep_and_prune.h for the method).
#include "collidoscope/sweep_and_prune.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "collidoscope/heap_room.h"

namespace collidoscope {

namespace {

// An endpoint's key isMax · 2^20 + id; a pair sorts as a · 2^20 + b.
constexpr int kIdBits = 20;
static_assert(kMaxBroadphaseId == 1 << kIdBits, "keys pack ids of kIdBits bits");
constexpr std::uint32_t kIdMask = (1u << kIdBits) - 1;
constexpr std::uint32_t kMaxFlag = 1u << kIdBits;

std::uint64_t pairKey(const IdPair& p) { return (static_cast<std::uint64_t>(p.a) << kIdBits) | static_cast<std::uint64_t>(p.b); }
// The sort value of an endpoint: a NaN (a box the World should have refused)
// sorts as +∞, so that the order stays a strict weak order and std::sort safe.
double sortValue(double v) { return std::isnan(v) ? std::numeric_limits<double>::infinity() : v; }

}  // namespace

void SweepAndPrune::reserve(int bodies) {
  if (bodies <= 0) return;
  const std::size_t n = static_cast<std::size_t>(std::min(bodies, kMaxBroadphaseId));
  reserveExactly(present_, n);
  reserveExactly(boxOf_, n);
  reserveExactly(list_, 2 * n);
  reserveExactly(active_, n);
  reserveExactly(activePos_, n);
}

bool SweepAndPrune::insert(int id, const Aabb& box) {
  if (!validBroadphaseId(id) || contains(id)) return false;
  if (id >= static_cast<int>(boxOf_.size())) {
    present_.resize(static_cast<std::size_t>(id) + 1, 0);
    boxOf_.resize(static_cast<std::size_t>(id) + 1);
  }
  present_[id] = 1;
  boxOf_[id] = box;
  ++count_;
  // At the end of the list, min before max; pairs() sorts them in.
  const double end = std::numeric_limits<double>::infinity();
  const std::uint32_t key = static_cast<std::uint32_t>(id);
  list_.push_back({end, key});
  list_.push_back({end, key | kMaxFlag});
  return true;
}

bool SweepAndPrune::update(int id, const Aabb& box) {
  if (!contains(id)) return false;
  boxOf_[id] = box;
  return true;
}

bool SweepAndPrune::remove(int id) {
  if (!contains(id)) return false;
  present_[id] = 0;
  --count_;
  list_.erase(std::remove_if(list_.begin(), list_.end(),
                             [id](const End& e) { return static_cast<int>(e.key & kIdMask) == id; }),
              list_.end());
  return true;
}

void SweepAndPrune::spreads(double variance[3]) const {
  // Doubled centres, taken about the first body's, which keeps the sums
  // small far from the origin.
  const Aabb& first = boxOf_[list_[0].key & kIdMask];
  for (int a = 0; a < 3; ++a) {
    const double ref = first.min[a] + first.max[a];
    double sum = 0, sumSq = 0;
    for (const End& e : list_) {
      if (e.key & kMaxFlag) continue;
      const Aabb& b = boxOf_[e.key & kIdMask];
      const double c = b.min[a] + b.max[a] - ref;
      sum += c;
      sumSq += c * c;
    }
    variance[a] = sumSq / count_ - (sum / count_) * (sum / count_);
  }
}

void SweepAndPrune::refreshValues() {
  for (End& e : list_) {
    const Aabb& b = boxOf_[e.key & kIdMask];
    e.value = sortValue(e.key & kMaxFlag ? b.max[axis_] : b.min[axis_]);
  }
}

bool SweepAndPrune::insertionPass() {
  const int m = static_cast<int>(list_.size());
  long long budget = static_cast<long long>(kSapShiftsPerEndpoint) * m;
  for (int i = 1; i < m; ++i) {
    if (!less(list_[i], list_[i - 1])) continue;
    const End e = list_[i];
    int j = i;
    // j > 0 bounds the loop.
    while (j > 0 && less(e, list_[j - 1])) {
      list_[j] = list_[j - 1];
      --j;
    }
    list_[j] = e;
    budget -= i - j;
    if (budget < 0) return false;
  }
  return true;
}

void SweepAndPrune::layGrid() {
  // The extent of the boxes' centres on u and w, and the boxes' mean size
  // there. Centres, not the boxes' ends: one large box (a floor under a
  // pile) would stretch the grid over its whole extent and leave the pile in
  // a cell or two. A box beyond the span is listed in the edge cells
  // (cellOf clamps), which changes which lists are read, not the pairs.
  const int u = (axis_ + 1) % 3, w = (axis_ + 2) % 3;
  double lo[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  double hi[2] = {-lo[0], -lo[1]};
  double size = 0;
  for (const End& e : list_) {
    if (e.key & kMaxFlag) continue;
    const Aabb& b = boxOf_[e.key & kIdMask];
    const double cu = 0.5 * (b.min[u] + b.max[u]), cw = 0.5 * (b.min[w] + b.max[w]);
    // Comparisons, not fmin (a call in wasm and here); a NaN is skipped.
    if (cu < lo[0]) lo[0] = cu;
    if (cu > hi[0]) hi[0] = cu;
    if (cw < lo[1]) lo[1] = cw;
    if (cw > hi[1]) hi[1] = cw;
    size += (b.max[u] - b.min[u]) + (b.max[w] - b.min[w]);
  }
  const double cell = kSapCellSize * size / (2.0 * count_);
  const double most = std::floor(std::sqrt(count_ / kSapCellBodies));
  for (int k = 0; k < 2; ++k) {
    // Written so that NaN, infinite or zero spans and sizes give one cell.
    const double span = hi[k] - lo[k];
    double cells = span / cell;
    if (cells > most) cells = most;
    grid_[k] = cells >= 2 ? static_cast<int>(cells) : 1;
    origin_[k] = lo[k];
    scale_[k] = grid_[k] > 1 ? grid_[k] / span : 0;
  }
  const std::size_t cells = static_cast<std::size_t>(grid_[0]) * static_cast<std::size_t>(grid_[1]);
  // The cells' lists live in one pool, an entry per (body, cell it covers):
  // counted here, so that the sweep never grows it.
  // Each body's cells, kept for the sweep.
  if (span_.size() < boxOf_.size()) span_.resize(boxOf_.size());
  std::size_t entries = 0;
  for (const End& e : list_) {
    if (e.key & kMaxFlag) continue;
    const Aabb& b = boxOf_[e.key & kIdMask];
    CellSpan& c = span_[e.key & kIdMask];
    c = {cellOf(0, b.min[u]), cellOf(0, b.max[u]), cellOf(1, b.min[w]), cellOf(1, b.max[w])};
    if (c.u1 >= c.u0 && c.w1 >= c.w0)
      entries += static_cast<std::size_t>(c.u1 - c.u0 + 1) * static_cast<std::size_t>(c.w1 - c.w0 + 1);
  }
  // A quarter to spare: the next frames' small moves rarely need more (a
  // pool twice as big would cost 10⁸ bytes at a million bodies).
  if (head_.size() < cells) head_.resize(cells + cells / 4);
  if (pool_.size() < entries) pool_.resize(entries + entries / 4);
  std::fill(head_.begin(), head_.begin() + static_cast<std::ptrdiff_t>(cells), -1);
}

int SweepAndPrune::cellOf(int k, double x) const {
  // Monotonic in x (so that the cell of the larger of two mins is the larger
  // of their cells), clamped, NaN to the last cell.
  const double c = std::floor((x - origin_[k]) * scale_[k]);
  if (!(c > 0)) return c < 0 || c == 0 ? 0 : grid_[k] - 1;
  return c < grid_[k] - 1 ? static_cast<int>(c) : grid_[k] - 1;
}

template <class Trace>
bool SweepAndPrune::sweep(std::vector<IdPair>* out, std::int64_t maxPairs, Trace& trace) {
  // The thesis's sweep: each min opens its interval and meets every interval
  // open at that point, all of which overlap it on the swept axis; each max
  // closes its own. The open intervals are kept per cell of a grid on the
  // other two axes (u, w), in every cell their box covers, so that a min
  // tests only the open intervals of the cells its own box covers; a pair
  // that shares several cells is reported in one, the cell of the corner
  // (larger u min, larger w min) of the two boxes' overlap. An interval
  // leaves a cell's list lazily: the next min that scans the cell drops it
  // when it closed before that min (its max is smaller: min before max on
  // ties). A cell's entry carries the box on u and w and the min's cell, so
  // the inner loop reads only the list.
  layGrid();
  const int u = (axis_ + 1) % 3, w = (axis_ + 2) % 3;
  if constexpr (Trace::enabled) {
    // The view's active list: all open intervals, in one list.
    active_.clear();
    if (activePos_.size() < boxOf_.size()) activePos_.resize(boxOf_.size());
  }
  int used = 0;  // pool entries
  const int m = static_cast<int>(list_.size());
  for (int position = 0; position < m; ++position) {
    const End& e = list_[position];
    const int id = static_cast<int>(e.key & kIdMask);
    // With NoTrace the event is a byte the compiler drops: no vectors exist.
    [[maybe_unused]] std::conditional_t<Trace::enabled, SapSweepEvent, char> event{};
    if constexpr (Trace::enabled) {
      event.axis = axis_;
      event.position = position;
      event.endpoint = {e.value, id, (e.key & kMaxFlag) == 0};
    }
    if (!(e.key & kMaxFlag)) {
      const Aabb& box = boxOf_[id];
      const Cross c{box.min[u], box.max[u], box.min[w], box.max[w]};
      const CellSpan& cells = span_[static_cast<std::size_t>(id)];
      const int u0 = cells.u0, u1 = cells.u1, w0 = cells.w0, w1 = cells.w1;
      const double closesAt = sortValue(box.max[axis_]);
      for (int cu = u0; cu <= u1; ++cu) {
        for (int cw = w0; cw <= w1; ++cw) {
          int* link = &head_[static_cast<std::size_t>(cu) * static_cast<std::size_t>(grid_[1]) + static_cast<std::size_t>(cw)];
          // A list holds at most the entries made so far.
          for (int steps = 0; *link >= 0 && steps < used; ++steps) {
            CellEntry& o = pool_[static_cast<std::size_t>(*link)];
            if (o.closesAt < e.value) {  // closed before this min: unlink
              *link = o.next;
              continue;
            }
            // One branch on all the tests (each alone is a coin toss the
            // processor would mispredict; together they rarely hold).
            const bool meet = (c.uMin <= o.box.uMax) & (o.box.uMin <= c.uMax) & (c.wMin <= o.box.wMax) &
                              (o.box.wMin <= c.wMax) & (std::max(u0, o.u0) == cu) & (std::max(w0, o.w0) == cw);
            if (meet) {
              if (static_cast<std::int64_t>(out->size()) >= maxPairs) return false;
              out->push_back({std::min(id, o.id), std::max(id, o.id)});
              if constexpr (Trace::enabled) event.found.push_back(out->back());
            }
            link = &o.next;
          }
          // Appended at the list's end (link points at its terminator).
          pool_[static_cast<std::size_t>(used)] = {c, closesAt, id, u0, w0, -1};
          *link = used++;
        }
      }
      if constexpr (Trace::enabled) {
        activePos_[id] = static_cast<int>(active_.size());
        active_.push_back(id);
      }
    } else if constexpr (Trace::enabled) {
      const int p = activePos_[id], last = active_.back();
      active_[p] = last;
      activePos_[last] = p;
      active_.pop_back();
    }
    if constexpr (Trace::enabled) {
      event.active = active_;
      trace.record(std::move(event));
    }
  }
  return true;
}

template <class Trace>
bool SweepAndPrune::pairs(std::vector<IdPair>* out, std::int64_t maxPairs, Trace& trace) {
  out->clear();
  if (count_ == 0) return true;
  // The axis, chosen on the first call and every kSapAxisFrames calls; a new
  // axis's list is sorted anew, as is one whose insertion pass gives up.
  bool sorted = false;
  if (!built_ || ++frame_ % kSapAxisFrames == 0) {
    double variance[3];
    spreads(variance);
    int widest = 0;
    for (int a = 1; a < 3; ++a)
      if (variance[a] > variance[widest]) widest = a;
    if (!built_ || variance[widest] > kSapAxisSwitch * variance[axis_]) {
      axis_ = widest;
      refreshValues();
      std::sort(list_.begin(), list_.end(), less);
      ++rebuilds_;
      sorted = true;
    }
    built_ = true;
  }
  if (!sorted) {
    refreshValues();
    if (!insertionPass()) {
      std::sort(list_.begin(), list_.end(), less);
      ++rebuilds_;
    }
  }
  if (!sweep(out, maxPairs, trace)) {
    out->clear();
    return false;
  }
  std::sort(out->begin(), out->end(), [](const IdPair& p, const IdPair& q) { return pairKey(p) < pairKey(q); });
  return true;
}

template bool SweepAndPrune::pairs<NoTrace>(std::vector<IdPair>*, std::int64_t, NoTrace&);
template bool SweepAndPrune::pairs<SapSweepRecorder>(std::vector<IdPair>*, std::int64_t, SapSweepRecorder&);

void SweepAndPrune::endpoints(int axis, std::vector<SapEndpoint>* out) const {
  out->clear();
  if (axis < 0 || axis > 2) return;
  out->reserve(list_.size());
  if (built_ && axis == axis_) {
    for (const End& e : list_) out->push_back({e.value, static_cast<int>(e.key & kIdMask), (e.key & kMaxFlag) == 0});
    return;
  }
  std::vector<End> list;
  list.reserve(list_.size());
  for (const End& e : list_) {
    const Aabb& b = boxOf_[e.key & kIdMask];
    list.push_back({sortValue(e.key & kMaxFlag ? b.max[axis] : b.min[axis]), e.key});
  }
  std::sort(list.begin(), list.end(), less);
  for (const End& e : list) out->push_back({e.value, static_cast<int>(e.key & kIdMask), (e.key & kMaxFlag) == 0});
}

}  // namespace collidoscope
