// collidoscope — the coherent ray order of ray_order.h: Morton keys of where each ray enters the root box, radix-sorted.
#include "collidoscope/ray_order.h"

namespace collidoscope {
namespace {

// Cells per axis of the key: 10 bits for each coordinate of the entry
// point, 30 in all. 20 000 rays use about the top 15 of them.
constexpr int kCellBits = 10;
constexpr int kCells = 1 << kCellBits;
constexpr int kKeyBits = 3 * kCellBits;
static_assert(kKeyBits + kRayOrderIndexBits <= 64, "an item holds a key above a ray's index");

// Three passes of a least-significant-digit radix sort cover the 30 key
// bits, each counting into 1 024 bins (8 KB of stack).
constexpr int kDigitBits = 10;
constexpr int kBins = 1 << kDigitBits;
constexpr int kPasses = kKeyBits / kDigitBits;
static_assert(kPasses * kDigitBits == kKeyBits, "the passes cover the key exactly");
static_assert(kPasses % 2 == 1, "an odd number of passes from swap ends in items");

// The cell of x in [-h, h]: clamped to the grid, and cell 0 for NaN (whose
// comparisons are all false) and for a flat box (h = 0).
int cellOf(double x, double h) {
  const double c = h > 0 ? (x + h) * (kCells / (2 * h)) : 0;
  if (!(c > 0)) return 0;
  if (c >= kCells - 1) return kCells - 1;
  return static_cast<int>(c);
}

}  // namespace

void coherentRayOrder(const double* rays, std::int64_t count, const Obb& box, std::uint64_t* items,
                      std::uint64_t* swap) {
  const double h[3] = {box.halfExtents.x, box.halfExtents.y, box.halfExtents.z};
  for (std::int64_t i = 0; i < count; ++i) {
    const double* r = rays + 7 * i;
    // The ray in the box's frame, clipped to its slabs from t = 0 on: the
    // entry point (the origin when it starts inside).
    const Vec3 o{r[0] - box.center.x, r[1] - box.center.y, r[2] - box.center.z};
    const Vec3 d{r[3], r[4], r[5]};
    double ob[3], db[3];
    double t = 0;
    for (int a = 0; a < 3; ++a) {
      ob[a] = dot(box.axes[a], o);
      db[a] = dot(box.axes[a], d);
      if (db[a] != 0) {
        const double near = ((db[a] > 0 ? -h[a] : h[a]) - ob[a]) / db[a];
        t = near > t ? near : t;
      }
    }
    int cell[3];
    for (int a = 0; a < 3; ++a) cell[a] = cellOf(ob[a] + t * db[a], h[a]);
    // Morton interleave, coarsest bits first: rays close in the order
    // enter close together.
    std::uint64_t key = 0;
    for (int b = kCellBits - 1; b >= 0; --b)
      for (int a = 0; a < 3; ++a) key = (key << 1) | static_cast<std::uint64_t>((cell[a] >> b) & 1);
    swap[i] = (key << kRayOrderIndexBits) | static_cast<std::uint64_t>(i);
  }
  // Stable counting passes, lowest digit first, swap → items → swap → items.
  std::uint64_t* from = swap;
  std::uint64_t* to = items;
  for (int pass = 0; pass < kPasses; ++pass) {
    const int shift = kRayOrderIndexBits + pass * kDigitBits;
    std::int64_t start[kBins + 1] = {};
    for (std::int64_t i = 0; i < count; ++i) ++start[((from[i] >> shift) & (kBins - 1)) + 1];
    for (int b = 0; b < kBins; ++b) start[b + 1] += start[b];
    for (std::int64_t i = 0; i < count; ++i) to[start[(from[i] >> shift) & (kBins - 1)]++] = from[i];
    std::uint64_t* t = from;
    from = to;
    to = t;
  }
}

}  // namespace collidoscope
