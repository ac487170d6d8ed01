// collidoscope — the ray-traversal layout of a mesh (see obbtree_rays.h).
#include "collidoscope/obbtree_rays.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "collidoscope/obbtree.h"

namespace collidoscope {

namespace {

static_assert(sizeof(RayNode) == 64 && alignof(RayNode) == 64, "the memory bound in obbtree_rays.h counts on it");
static_assert((static_cast<long long>(kMaxMeshTriangles) << kRayLeafCountBits) <= 0x7fffffffLL,
              "a leaf's first triangle fits its bits");
static_assert((1 << kRayLeafCountBits) > kRayLeafTriangles, "a leaf's count fits its bits");

constexpr int kBins = 16;
// Ranges of at most this many triangles find their occupied bins by sorting
// the triangles' bins rather than by filling all kBins.
constexpr int kFewTriangles = 8;

// The float nearest d on the low (high) side: ≤ d (≥ d) exactly.
float floatBelow(double d) {
  float f = static_cast<float>(d);
  if (static_cast<double>(f) > d) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
  return f;
}
float floatAbove(double d) {
  float f = static_cast<float>(d);
  if (static_cast<double>(f) < d) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

// A float's bits as an int ordered as the floats are (−0 below +0; no
// NaN reaches the build): the bounds below are unions of these, taken with
// integer comparisons (with float ones, V8 took twice the native time on a
// triangle soup, as if each were a mispredicted branch; obbtree_rays.h).
std::int32_t orderKey(float f) {
  std::int32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits ^ ((bits >> 31) & 0x7fffffff);
}
float keyFloat(std::int32_t key) {
  key ^= (key >> 31) & 0x7fffffff;
  float f;
  std::memcpy(&f, &key, sizeof f);
  return f;
}

// A box as order keys of its float bounds; empty: lo = +∞, hi = −∞.
struct Bounds {
  std::int32_t lo[3] = {kEmptyLo, kEmptyLo, kEmptyLo};
  std::int32_t hi[3] = {kEmptyHi, kEmptyHi, kEmptyHi};
  static constexpr std::int32_t kEmptyLo = 0x7f800000;                               // +∞
  static constexpr std::int32_t kEmptyHi = static_cast<std::int32_t>(0x807fffffu);  // −∞
  void add(const Bounds& b) {
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], b.lo[a]);
      hi[a] = std::max(hi[a], b.hi[a]);
    }
  }
  void add(const std::int32_t* p) {
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], p[a]);
      hi[a] = std::max(hi[a], p[a]);
    }
  }
  float low(int a) const { return keyFloat(lo[a]); }
  float high(int a) const { return keyFloat(hi[a]); }
  double halfArea() const {
    const double x = double(high(0)) - low(0), y = double(high(1)) - low(1), z = double(high(2)) - low(2);
    return x * y + y * z + z * x;
  }
  void store(float* box) const {
    for (int a = 0; a < 3; ++a) {
      box[a] = low(a);
      box[3 + a] = high(a);
    }
  }
};

// 40 bytes per triangle, twice while building (the partition's scratch).
struct Prim {
  Bounds box;              // the triangle's corners, each bound rounded outward
  std::int32_t centre[3];  // of box, as order keys
  int triangle;
};

// The cost of visiting an inner node in triangle tests. Its two box tests
// take about half a triangle test's arithmetic, but on meshes larger than
// the cache a visit costs a fetch of the node, where a leaf's next triangle
// is in the lines already fetched (its corners lie side by side): counting
// four gives leaves of up to kRayLeafTriangles and half the nodes that two
// gave (rays on tori of 100 000 and 1 000 000 triangles took 5–10 % less
// time in WebAssembly, 10 000 as long).
constexpr double kInnerCost = 4.0;

// Levels of a tree of n primitives split in halves down to single ones.
int halvingLevels(int n) {
  int levels = 1;
  while (n > 1) {
    n = (n + 1) / 2;
    ++levels;
  }
  return levels;
}

}  // namespace

void buildRayTree(const TriangleMesh& m, const ObbTree& tree, RayTree* out) {
  *out = RayTree{};
  std::vector<Prim> prims;
  prims.reserve(m.triangles.size());
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const Vec3& nrm = tree.normals[t];
    if (nrm.x == 0 && nrm.y == 0 && nrm.z == 0) continue;  // degenerate: no ray hits it
    Prim p;
    const auto& tri = m.triangles[t];
    const Vec3 &a = m.vertices[static_cast<std::size_t>(tri[0])], &b = m.vertices[static_cast<std::size_t>(tri[1])],
               &c = m.vertices[static_cast<std::size_t>(tri[2])];
    for (int k = 0; k < 3; ++k) {
      const float low = floatBelow(std::min(std::min(a[k], b[k]), c[k]));
      const float high = floatAbove(std::max(std::max(a[k], b[k]), c[k]));
      p.box.lo[k] = orderKey(low);
      p.box.hi[k] = orderKey(high);
      p.centre[k] = orderKey(0.5f * low + 0.5f * high);
    }
    p.triangle = static_cast<int>(t);
    prims.push_back(p);
  }
  const int n = static_cast<int>(prims.size());
  // Two buffers of primitives: a range's partition writes the same range of
  // the other buffer, where its children find theirs (no copy back).
  std::vector<Prim> scratch(prims.size());
  Prim* const buffers[2] = {prims.data(), scratch.data()};
  // Each triangle's bin in the split of the range it is in (binOf, kept
  // from the binning for the partition).
  std::vector<std::uint8_t> binAt(prims.size());
  // Leaves write their triangles here, in leaf order.
  out->triangles.resize(prims.size());
  struct Task {
    int first, count, depth;
    int buffer;   // its range is in buffers[buffer]
    int* ref;     // where the reference to this subtree goes
    float* box;   // where its box goes
  };
  // Node storage must not move while tasks point into it: reserve the most
  // inner nodes a tree of n leaves-of-one could need.
  out->nodes.reserve(static_cast<std::size_t>(std::max(n - 1, 0)));
  std::vector<Task> stack;
  stack.push_back({0, n, 1, 0, &out->root, out->rootBox});
  while (!stack.empty()) {
    const Task task = stack.back();
    stack.pop_back();
    Prim* const range = buffers[task.buffer] + task.first;  // the range, from 0
    Bounds box, centres;
    for (int i = 0; i < task.count; ++i) {
      box.add(range[i].box);
      centres.add(range[i].centre);
    }
    if (task.count == 0) {
      for (int k = 0; k < 6; ++k) task.box[k] = 0;
    } else {
      box.store(task.box);
    }
    auto makeLeaf = [&]() {
      *task.ref = ~((task.first << kRayLeafCountBits) | task.count);
      for (int i = 0; i < task.count; ++i) out->triangles[static_cast<std::size_t>(task.first + i)] = range[i].triangle;
    };
    // A split costs at least its own box tests, kInnerCost times the area
    // (see below): for so few triangles that is no less than testing them
    // all, and they stay one leaf without binning.
    if (task.count <= kInnerCost) {
      makeLeaf();
      continue;
    }
    int axis = 0;
    for (int a = 1; a < 3; ++a)
      if (centres.high(a) - centres.low(a) > centres.high(axis) - centres.low(axis)) axis = a;
    // Bins per unit along the axis, in floats as the centres are (the same
    // operations on every platform). An extent below 2⁻¹²⁴ makes it +∞ (a
    // centre at lo goes to bin 0, the others to the last), an infinite one
    // 0 (all go to bin 0, and the range is halved instead).
    const float lo = centres.low(axis), extent = centres.high(axis) - lo;
    const float binScale = kBins / extent;
    // Binned surface-area heuristic along the axis of widest centres.
    int leftCount = 0;
    int splitBin = -1;
    double bestCost = std::numeric_limits<double>::infinity();
    auto binOf = [&](const Prim& p) {  // NaN (0 · ∞) goes to bin 0
      const float x = (keyFloat(p.centre[axis]) - lo) * binScale;
      return x >= kBins ? kBins - 1 : (x >= 1 ? static_cast<int>(x) : 0);
    };
    if (extent > 0) {
      // The occupied bins in increasing order: their bounds, counts and
      // indices. An empty bin moves no triangle from one side to the
      // other, so every cut in a gap between two occupied bins costs the
      // same, and the sweep below takes the gap's first cut, as a sweep
      // over all kBins cuts would: the same split, for work in proportion
      // to the occupied bins (most ranges are a few triangles).
      Bounds occupied[kBins];
      int occupiedCount[kBins], occupiedBin[kBins];
      int groups = 0;
      if (task.count <= kFewTriangles) {
        int order[kFewTriangles];
        std::uint8_t* bin = binAt.data() + task.first;
        for (int i = 0; i < task.count; ++i) {
          bin[i] = static_cast<std::uint8_t>(binOf(range[i]));
          int j = i;  // insertion sort by bin
          for (; j > 0 && bin[order[j - 1]] > bin[i]; --j) order[j] = order[j - 1];
          order[j] = i;
        }
        for (int k = 0; k < task.count; ++k) {
          const int i = order[k];
          if (groups == 0 || occupiedBin[groups - 1] != bin[i]) {
            occupied[groups] = Bounds{};
            occupiedCount[groups] = 0;
            occupiedBin[groups++] = bin[i];
          }
          occupied[groups - 1].add(range[i].box);
          ++occupiedCount[groups - 1];
        }
      } else {
        Bounds bins[kBins];
        int counts[kBins] = {};
        std::uint8_t* bin = binAt.data() + task.first;
        for (int i = 0; i < task.count; ++i) {
          const Prim& p = range[i];
          const int b = binOf(p);
          bin[i] = static_cast<std::uint8_t>(b);
          bins[b].add(p.box);
          ++counts[b];
        }
        for (int b = 0; b < kBins; ++b) {
          if (counts[b] == 0) continue;
          occupied[groups] = bins[b];
          occupiedCount[groups] = counts[b];
          occupiedBin[groups++] = b;
        }
      }
      // Cut k: groups [0, k) left, [k, groups) right.
      double rightArea[kBins];
      int rightCounts[kBins];
      Bounds acc;
      int accCount = 0;
      for (int k = groups - 1; k > 0; --k) {
        acc.add(occupied[k]);
        accCount += occupiedCount[k];
        rightArea[k] = acc.halfArea();
        rightCounts[k] = accCount;
      }
      Bounds left;
      int leftAcc = 0;
      for (int k = 1; k < groups; ++k) {
        left.add(occupied[k - 1]);
        leftAcc += occupiedCount[k - 1];
        const double cost = left.halfArea() * leftAcc + rightArea[k] * rightCounts[k];
        if (cost < bestCost) {
          bestCost = cost;
          splitBin = occupiedBin[k - 1] + 1;
          leftCount = leftAcc;
        }
      }
    }
    const int maxChild = std::max(leftCount, task.count - leftCount);
    const bool splitFits = splitBin > 0 && task.depth + halvingLevels(maxChild) <= kObbTreeMaxDepth;
    // A few triangles stay one leaf unless the split's expected cost (its
    // box tests, then each side's triangles weighted by the chance a ray
    // through this box meets that side's box) is lower.
    if (task.count <= kRayLeafTriangles &&
        !(splitFits && bestCost + kInnerCost * box.halfArea() < task.count * box.halfArea())) {
      makeLeaf();
      continue;
    }
    int childBuffer = 1 - task.buffer;
    if (splitFits) {
      // Stable partition by bin into the other buffer: deterministic on
      // every platform. The side is selected, not branched on (it is as
      // good as random to a branch predictor).
      const std::uint8_t* bin = binAt.data() + task.first;
      Prim* to = buffers[childBuffer] + task.first;
      int l = 0, r = leftCount;
      for (int i = 0; i < task.count; ++i) {
        const int low = bin[i] < splitBin;
        const int at = low ? l : r;
        l += low;
        r += 1 - low;
        to[at] = range[i];
      }
    } else {
      // Halves by (centre, triangle index): a total order, sorted in place.
      std::sort(range, range + task.count, [axis](const Prim& a, const Prim& b) {
        return a.centre[axis] < b.centre[axis] || (a.centre[axis] == b.centre[axis] && a.triangle < b.triangle);
      });
      leftCount = task.count / 2;
      childBuffer = task.buffer;
    }
    const int index = static_cast<int>(out->nodes.size());
    *task.ref = index;
    out->nodes.emplace_back();
    RayNode& node = out->nodes.back();
    // Right first: the left child is taken next, so a left inner child is node index + 1.
    stack.push_back({task.first + leftCount, task.count - leftCount, task.depth + 1, childBuffer, &node.child[1],
                     node.box[1]});
    stack.push_back({task.first, leftCount, task.depth + 1, childBuffer, &node.child[0], node.box[0]});
  }
  // Each triangle's place in leaf order (−1: left out). The corners are
  // copied in mesh order, each triangle's to its place: reading the
  // vertices in leaf order waited on a cache miss per corner on meshes
  // larger than the cache, where scattered writes wait on nothing.
  // The partition's buffers are freed first: the copy adds nothing to the
  // build's peak memory.
  std::vector<Prim>().swap(prims);
  std::vector<Prim>().swap(scratch);
  std::vector<int> slot(m.triangles.size(), -1);
  for (std::size_t i = 0; i < out->triangles.size(); ++i)
    slot[static_cast<std::size_t>(out->triangles[i])] = static_cast<int>(i);
  // Floats widen back to the same doubles, so the ray tests see the same
  // corners either way (a zero's sign included: −0 stays −0). They are
  // copied while checked; the first corner that is not exactly a float
  // sends the copy to doubles instead.
  bool allFloats = true;
  out->floatCorners.resize(9 * static_cast<std::size_t>(n));
  for (std::size_t t = 0; t < slot.size() && allFloats; ++t) {
    if (slot[t] < 0) continue;
    float* f = out->floatCorners.data() + 9 * static_cast<std::size_t>(slot[t]);
    for (const int v : m.triangles[t]) {
      const Vec3& x = m.vertices[static_cast<std::size_t>(v)];
      for (int a = 0; a < 3; ++a) {
        *f = static_cast<float>(x[a]);
        allFloats = allFloats && static_cast<double>(*f++) == x[a];
      }
    }
  }
  if (!allFloats) {
    std::vector<float>().swap(out->floatCorners);
    out->corners.resize(3 * static_cast<std::size_t>(n));
    for (std::size_t t = 0; t < slot.size(); ++t) {
      if (slot[t] < 0) continue;
      Vec3* c = out->corners.data() + 3 * static_cast<std::size_t>(slot[t]);
      for (const int v : m.triangles[t]) *c++ = m.vertices[static_cast<std::size_t>(v)];
    }
  }
  // A corner coordinate non-zero below kRayTinyCoordinate sends rays to the
  // corner check (mesh_raycast.cpp); vertices no triangle uses count too,
  // which only costs that check.
  for (const Vec3& v : m.vertices)
    for (int a = 0; a < 3; ++a) out->tinyCorners = out->tinyCorners || (v[a] != 0 && std::fabs(v[a]) < kRayTinyCoordinate);
  out->nodes.shrink_to_fit();
  out->built = true;
}

}  // namespace collidoscope
