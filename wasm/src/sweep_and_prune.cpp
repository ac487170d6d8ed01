// collidoscope — sweep and prune (see sweep_and_prune.h for the method).
#include "collidoscope/sweep_and_prune.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace collidoscope {

namespace {

// A pair as one sortable integer: a · 2^20 + b, ordered as (a, b) since
// b < 2^20 = kMaxBroadphaseId.
constexpr int kIdBits = 20;
static_assert(kMaxBroadphaseId == 1 << kIdBits, "a pair key packs two ids of kIdBits bits");
inline std::uint64_t pairKey(const IdPair& p) {
  return (static_cast<std::uint64_t>(p.a) << kIdBits) | static_cast<std::uint64_t>(p.b);
}

// The axes other than the sweep axis, in increasing order.
constexpr int kOther[3][2] = {{1, 2}, {0, 2}, {0, 1}};

// The sort key of a min: a NaN (a box the World should have refused) sorts as
// +∞, so that the order stays a strict weak order and std::sort stays safe.
double sortKey(double v) { return std::isnan(v) ? std::numeric_limits<double>::infinity() : v; }

}  // namespace

void SweepAndPrune::reserve(int bodies) {
  if (bodies <= 0) return;
  const std::size_t n = static_cast<std::size_t>(std::min(bodies, kMaxBroadphaseId));
  slot_.reserve(n);
  boxOf_.reserve(n);
  lo_.reserve(n);
  hi_.reserve(n);
  ids_.reserve(n);
  cross_.reserve(n);
  perm_.reserve(n);
  tmpLo_.reserve(n);
  tmpHi_.reserve(n);
  tmpIds_.reserve(n);
  tmpCross_.reserve(n);
}

void SweepAndPrune::setRow(int row, const Aabb& box) {
  const int u = kOther[axis_][0], v = kOther[axis_][1];
  lo_[row] = sortKey(box.min[axis_]);
  hi_[row] = box.max[axis_];
  cross_[row] = {box.min[u], box.max[u], box.min[v], box.max[v]};
}

bool SweepAndPrune::insert(int id, const Aabb& box) {
  if (!validBroadphaseId(id) || contains(id)) return false;
  if (id >= static_cast<int>(slot_.size())) {
    slot_.resize(static_cast<std::size_t>(id) + 1, -1);
    boxOf_.resize(static_cast<std::size_t>(id) + 1);
  }
  const int row = size();
  lo_.push_back(0);
  hi_.push_back(0);
  ids_.push_back(id);
  cross_.push_back({});
  setRow(row, box);
  slot_[id] = row;
  boxOf_[id] = box;
  sorted_ = false;
  return true;
}

bool SweepAndPrune::update(int id, const Aabb& box) {
  if (!contains(id)) return false;
  boxOf_[id] = box;
  const int row = slot_[id];
  setRow(row, box);
  // Only a row now out of place with a neighbour needs the next pass.
  if ((row > 0 && before(row, row - 1)) || (row + 1 < size() && before(row + 1, row))) sorted_ = false;
  return true;
}

bool SweepAndPrune::remove(int id) {
  if (!contains(id)) return false;
  const int row = slot_[id];
  const int n = size();
  // Shift the later rows up one place: the order (and so sorted_) is kept.
  for (int r = row + 1; r < n; ++r) {
    lo_[r - 1] = lo_[r];
    hi_[r - 1] = hi_[r];
    ids_[r - 1] = ids_[r];
    cross_[r - 1] = cross_[r];
    slot_[ids_[r - 1]] = r - 1;
  }
  lo_.pop_back();
  hi_.pop_back();
  ids_.pop_back();
  cross_.pop_back();
  slot_[id] = -1;
  return true;
}

void SweepAndPrune::chooseAxis() {
  const int n = size();
  if (n < 2) return;
  // Variance of the box centres per axis (doubled centres: the factor 4 is
  // common to all axes). Taken about the first centre, which keeps the sums
  // small for worlds far from the origin.
  double var[3];
  for (int a = 0; a < 3; ++a) {
    const Aabb& first = boxOf_[ids_[0]];
    const double ref = first.min[a] + first.max[a];
    double sum = 0, sumSq = 0;
    for (int r = 0; r < n; ++r) {
      const Aabb& b = boxOf_[ids_[r]];
      const double c = b.min[a] + b.max[a] - ref;
      sum += c;
      sumSq += c * c;
    }
    var[a] = sumSq / n - (sum / n) * (sum / n);
  }
  int best = axis_;
  for (int a = 0; a < 3; ++a) {
    if (var[a] > var[best]) best = a;
  }
  if (best == axis_ || !(var[best] > kSapAxisSwitch * var[axis_])) return;
  axis_ = best;
  for (int r = 0; r < n; ++r) setRow(r, boxOf_[ids_[r]]);
  sorted_ = false;
  sortRows();
}

void SweepAndPrune::insertionPass() {
  const int n = size();
  long long budget = static_cast<long long>(kSapShiftsPerBody) * n;
  for (int i = 1; i < n; ++i) {
    if (!before(i, i - 1)) continue;
    const double lo = lo_[i], hi = hi_[i];
    const int id = ids_[i];
    const Cross cross = cross_[i];
    int j = i;
    // Shift the rows greater than row i one place down (j > 0 bounds it).
    while (j > 0 && (lo < lo_[j - 1] || (lo == lo_[j - 1] && id < ids_[j - 1]))) {
      lo_[j] = lo_[j - 1];
      hi_[j] = hi_[j - 1];
      ids_[j] = ids_[j - 1];
      cross_[j] = cross_[j - 1];
      slot_[ids_[j]] = j;
      --j;
    }
    lo_[j] = lo;
    hi_[j] = hi;
    ids_[j] = id;
    cross_[j] = cross;
    slot_[id] = j;
    budget -= i - j;
    if (budget < 0) {
      sortRows();
      return;
    }
  }
  sorted_ = true;
}

void SweepAndPrune::sortRows() {
  const int n = size();
  perm_.resize(n);
  for (int r = 0; r < n; ++r) perm_[r] = r;
  std::sort(perm_.begin(), perm_.end(), [this](int r, int s) { return before(r, s); });
  tmpLo_.resize(n);
  tmpHi_.resize(n);
  tmpIds_.resize(n);
  tmpCross_.resize(n);
  for (int r = 0; r < n; ++r) {
    const int p = perm_[r];
    tmpLo_[r] = lo_[p];
    tmpHi_[r] = hi_[p];
    tmpIds_[r] = ids_[p];
    tmpCross_[r] = cross_[p];
    slot_[ids_[p]] = r;
  }
  lo_.swap(tmpLo_);
  hi_.swap(tmpHi_);
  ids_.swap(tmpIds_);
  cross_.swap(tmpCross_);
  sorted_ = true;
}

void SweepAndPrune::pairs(std::vector<IdPair>* out) {
  out->clear();
  chooseAxis();
  if (!sorted_) insertionPass();
  const int n = size();
  for (int i = 0; i < n; ++i) {
    const double hi = hi_[i];
    const Cross c = cross_[i];
    const int idI = ids_[i];
    for (int j = i + 1; j < n && lo_[j] <= hi; ++j) {
      const Cross& d = cross_[j];
      if (d.min1 <= c.max1 && c.min1 <= d.max1 && d.min2 <= c.max2 && c.min2 <= d.max2) {
        const int idJ = ids_[j];
        out->push_back(idI < idJ ? IdPair{idI, idJ} : IdPair{idJ, idI});
      }
    }
  }
  // Ordered as one integer a·2^20 + b (b < 2^20): one comparison per step.
  std::sort(out->begin(), out->end(), [](const IdPair& p, const IdPair& q) { return pairKey(p) < pairKey(q); });
}

void SweepAndPrune::endpoints(int axis, std::vector<SapEndpoint>* out) const {
  out->clear();
  if (axis < 0 || axis > 2) return;
  out->reserve(2 * ids_.size());
  for (int id : ids_) {
    out->push_back({sortKey(boxOf_[id].min[axis]), id, true});
    out->push_back({sortKey(boxOf_[id].max[axis]), id, false});
  }
  std::sort(out->begin(), out->end(), [](const SapEndpoint& p, const SapEndpoint& q) {
    if (p.value != q.value) return p.value < q.value;
    if (p.isMin != q.isMin) return p.isMin;
    return p.id < q.id;
  });
}

}  // namespace collidoscope
