// collidoscope — sweep and prune (see sweep_and_prune.h for the method).
#include "collidoscope/sweep_and_prune.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

namespace collidoscope {

namespace {

// A pair as one integer a · 2^20 + b: ordered as (a, b) since b < 2^20, and
// an endpoint's key isMax · 2^20 + id.
constexpr int kIdBits = 20;
static_assert(kMaxBroadphaseId == 1 << kIdBits, "keys pack ids of kIdBits bits");
constexpr std::uint32_t kIdMask = (1u << kIdBits) - 1;
constexpr std::uint32_t kMaxFlag = 1u << kIdBits;
constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
// Smallest pair-set capacity (slots).
constexpr std::size_t kMinTable = 64;

std::uint64_t pairKey(int i, int j) {
  const std::uint64_t a = static_cast<std::uint64_t>(std::min(i, j)), b = static_cast<std::uint64_t>(std::max(i, j));
  return (a << kIdBits) | b;
}
bool involves(std::uint64_t key, int id) {
  return static_cast<int>(key >> kIdBits) == id || static_cast<int>(key & kIdMask) == id;
}
// Fibonacci hashing: the multiplication mixes the low bits (b) into the high
// ones, which the fold brings back down.
std::size_t homeSlot(std::uint64_t key, std::size_t mask) {
  const std::uint64_t h = key * 0x9E3779B97F4A7C15ull;
  return static_cast<std::size_t>(h ^ (h >> 32)) & mask;
}
// The sort value of an endpoint: a NaN (a box the World should have refused)
// sorts as +∞, so that the order stays a strict weak order and std::sort safe.
double sortValue(double v) { return std::isnan(v) ? std::numeric_limits<double>::infinity() : v; }

}  // namespace

void SweepAndPrune::reserve(int bodies) {
  if (bodies <= 0) return;
  const std::size_t n = static_cast<std::size_t>(std::min(bodies, kMaxBroadphaseId));
  present_.reserve(n);
  boxOf_.reserve(n);
  for (auto& list : lists_) list.reserve(2 * n);
  active_.reserve(n);
  activeBoxes_.reserve(n);
  activePos_.reserve(n);
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
  // At the end of each list, min before max: after every other endpoint, so
  // overlapping nothing, as the pair set says; pairs() sorts them in.
  const double end = std::numeric_limits<double>::infinity();
  const std::uint32_t key = static_cast<std::uint32_t>(id);
  for (auto& list : lists_) {
    list.push_back({end, key});
    list.push_back({end, key | kMaxFlag});
  }
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
  for (auto& list : lists_) {
    list.erase(std::remove_if(list.begin(), list.end(),
                              [id](const End& e) { return static_cast<int>(e.key & kIdMask) == id; }),
               list.end());
  }
  // Erasing shifts later entries back into slot i, so slot i is looked at
  // again; an entry never moves past the slot being looked at (see eraseAt).
  for (std::size_t i = 0; i < table_.size(); ++i) {
    while (table_[i] != kEmpty && involves(table_[i], id)) eraseAt(i);
  }
  return true;
}

void SweepAndPrune::growTable() {
  std::vector<std::uint64_t> old(std::max(kMinTable, 2 * table_.size()), kEmpty);
  old.swap(table_);
  tableCount_ = 0;
  for (std::uint64_t key : old) {
    if (key != kEmpty) addPair(key);
  }
}

void SweepAndPrune::addPair(std::uint64_t key) {
  if (tableCount_ >= limit_) {
    overflowed_ = true;
    return;
  }
  if (2 * (static_cast<std::size_t>(tableCount_) + 1) > table_.size()) growTable();
  const std::size_t mask = table_.size() - 1;
  // At most half full: the probe meets a free slot within table_.size() steps.
  for (std::size_t i = homeSlot(key, mask), steps = 0; steps < table_.size(); i = (i + 1) & mask, ++steps) {
    if (table_[i] == key) return;
    if (table_[i] == kEmpty) {
      table_[i] = key;
      ++tableCount_;
      return;
    }
  }
}

void SweepAndPrune::erasePair(std::uint64_t key) {
  if (table_.empty()) return;
  const std::size_t mask = table_.size() - 1;
  for (std::size_t i = homeSlot(key, mask), steps = 0; steps < table_.size(); i = (i + 1) & mask, ++steps) {
    if (table_[i] == kEmpty) return;
    if (table_[i] == key) {
      eraseAt(i);
      return;
    }
  }
}

// Deletion without tombstones (backward shift): the entries after the hole,
// up to the next free slot, move back into it when their home slot does not
// lie cyclically in (hole, j] — otherwise a probe from their home would stop
// at the hole.
void SweepAndPrune::eraseAt(std::size_t hole) {
  const std::size_t mask = table_.size() - 1;
  std::size_t j = hole;
  for (std::size_t steps = 0; steps < table_.size(); ++steps) {
    j = (j + 1) & mask;
    if (table_[j] == kEmpty) break;
    const std::size_t home = homeSlot(table_[j], mask);
    const bool homeInGap = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (!homeInGap) {
      table_[hole] = table_[j];
      hole = j;
    }
  }
  table_[hole] = kEmpty;
  --tableCount_;
}

void SweepAndPrune::refreshValues(int axis) {
  for (End& e : lists_[axis]) {
    const Aabb& b = boxOf_[e.key & kIdMask];
    e.value = sortValue(e.key & kMaxFlag ? b.max[axis] : b.min[axis]);
  }
}

bool SweepAndPrune::insertionPass(int axis, bool events) {
  std::vector<End>& list = lists_[axis];
  const int m = static_cast<int>(list.size());
  long long budget = static_cast<long long>(kSapShiftsPerEndpoint) * m;
  for (int i = 1; i < m; ++i) {
    if (!less(list[i], list[i - 1])) continue;
    const End e = list[i];
    const int eId = static_cast<int>(e.key & kIdMask);
    const bool eMax = (e.key & kMaxFlag) != 0;
    int j = i;
    // e moves before each endpoint f it passes (j > 0 bounds the loop).
    while (j > 0 && less(e, list[j - 1])) {
      const End f = list[j - 1];
      const int fId = static_cast<int>(f.key & kIdMask);
      const bool fMax = (f.key & kMaxFlag) != 0;
      if (events && fId != eId && eMax != fMax) {
        if (!eMax) {  // a min before another's max: they begin to overlap here
          if (overlaps(boxOf_[eId], boxOf_[fId])) addPair(pairKey(eId, fId));
        } else {  // a max before another's min: they stop overlapping
          erasePair(pairKey(eId, fId));
        }
      }
      list[j] = f;
      --j;
    }
    list[j] = e;
    budget -= i - j;
    if (budget < 0) return false;
  }
  return true;
}

template <class Trace>
void SweepAndPrune::sweepPairs(Trace& trace) {
  std::fill(table_.begin(), table_.end(), kEmpty);
  tableCount_ = 0;
  ++rebuilds_;
  if (count_ < 2) return;
  // The sweep axis: the widest spread of the box centres (largest variance;
  // doubled centres, taken about the first body's, which keeps the sums small
  // far from the origin).
  int axis = 0;
  double widest = -1;
  for (int a = 0; a < 3; ++a) {
    const Aabb& first = boxOf_[lists_[0][0].key & kIdMask];
    const double ref = first.min[a] + first.max[a];
    double sum = 0, sumSq = 0;
    for (const End& e : lists_[0]) {
      if (e.key & kMaxFlag) continue;
      const Aabb& b = boxOf_[e.key & kIdMask];
      const double c = b.min[a] + b.max[a] - ref;
      sum += c;
      sumSq += c * c;
    }
    const double var = sumSq / count_ - (sum / count_) * (sum / count_);
    if (var > widest) widest = var, axis = a;
  }
  // The thesis's sweep: each min opens its interval and meets every interval
  // open at that point (min before max on ties: touching counts); each max
  // closes its own.
  // The open intervals' boxes are copied beside their ids, so that the inner
  // loop reads memory in order.
  active_.clear();
  activeBoxes_.clear();
  if (activePos_.size() < boxOf_.size()) activePos_.resize(boxOf_.size());
  const int m = static_cast<int>(lists_[axis].size());
  for (int position = 0; position < m; ++position) {
    const End& e = lists_[axis][position];
    const int id = static_cast<int>(e.key & kIdMask);
    // With NoTrace the event is a byte the compiler drops: no vectors exist.
    [[maybe_unused]] std::conditional_t<Trace::enabled, SapSweepEvent, char> event{};
    if constexpr (Trace::enabled) {
      event.axis = axis;
      event.position = position;
      event.endpoint = {e.value, id, (e.key & kMaxFlag) == 0};
    }
    if (!(e.key & kMaxFlag)) {
      const Aabb& box = boxOf_[id];
      const int open = static_cast<int>(active_.size());
      for (int k = 0; k < open; ++k) {
        if (overlaps(box, activeBoxes_[k])) {
          addPair(pairKey(id, active_[k]));
          if constexpr (Trace::enabled) event.found.push_back({std::min(id, active_[k]), std::max(id, active_[k])});
        }
      }
      if (overflowed_) return;
      activePos_[id] = open;
      active_.push_back(id);
      activeBoxes_.push_back(box);
    } else {
      const int p = activePos_[id], last = active_.back();
      active_[p] = last;
      activeBoxes_[p] = activeBoxes_.back();
      activePos_[last] = p;
      active_.pop_back();
      activeBoxes_.pop_back();
    }
    if constexpr (Trace::enabled) {
      event.active = active_;
      trace.record(std::move(event));
    }
  }
}

template <class Trace>
bool SweepAndPrune::pairs(std::vector<IdPair>* out, std::int64_t maxPairs, Trace& trace) {
  out->clear();
  limit_ = maxPairs;
  overflowed_ = false;
  // exact: the pair set has followed every swap so far. An axis whose pass
  // gives up is finished by std::sort, and the pair set is swept anew; the
  // passes after it need no events. An axis that gave up recently is sorted
  // first and directly (its pass would likely give up again, after spending
  // its budget), so that the others run without events.
  if (++frame_ % kSapRetryFrames == 0) unstable_ = 0;
  int order[3], k = 0;
  for (int a = 0; a < 3; ++a) {
    if (unstable_ & (1 << a)) order[k++] = a;
  }
  for (int a = 0; a < 3; ++a) {
    if (!(unstable_ & (1 << a))) order[k++] = a;
  }
  bool exact = built_;
  for (int a : order) {
    refreshValues(a);
    const bool direct = !built_ || (unstable_ & (1 << a));
    if (direct || !insertionPass(a, exact)) {
      if (!direct) unstable_ |= 1 << a;
      std::sort(lists_[a].begin(), lists_[a].end(), less);
      exact = false;
    }
  }
  built_ = true;
  if (!exact) sweepPairs(trace);
  if (overflowed_) {
    built_ = false;  // the pair set is incomplete: the next call sweeps anew
    return false;
  }
  for (std::uint64_t key : table_) {
    if (key != kEmpty) out->push_back({static_cast<int>(key >> kIdBits), static_cast<int>(key & kIdMask)});
  }
  std::sort(out->begin(), out->end(), [](const IdPair& p, const IdPair& q) {
    return pairKey(p.a, p.b) < pairKey(q.a, q.b);
  });
  return true;
}

template bool SweepAndPrune::pairs<NoTrace>(std::vector<IdPair>*, std::int64_t, NoTrace&);
template bool SweepAndPrune::pairs<SapSweepRecorder>(std::vector<IdPair>*, std::int64_t, SapSweepRecorder&);

void SweepAndPrune::endpoints(int axis, std::vector<SapEndpoint>* out) const {
  out->clear();
  if (axis < 0 || axis > 2) return;
  out->reserve(lists_[axis].size());
  for (const End& e : lists_[axis]) {
    out->push_back({e.value, static_cast<int>(e.key & kIdMask), (e.key & kMaxFlag) == 0});
  }
}

}  // namespace collidoscope
