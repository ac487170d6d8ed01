// The broad phase (broadphase.h): SweepAndPrune and AabbTree.
//
// References are independent of the structures: every pair and every box
// query is brute force over all bodies (overlap of closed boxes written out
// per axis below), rays are tested against boxes by a slab test written here
// with divisions, and the thesis's own method — counting, over the three
// sorted endpoint lists, the axes on which two intervals overlap — is run on
// SweepAndPrune::endpoints() to check the view's lists.
//
// Coordinates are multiples of 1/64 of moderate size, so sums and
// differences are exact: boxes built to share a face (min of one == max of
// the other) really touch, and stay touching after a move by a dyadic step.
#include <gtest/gtest.h>

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include "collidoscope/broadphase.h"

namespace {

using namespace collidoscope;

struct Rng {
  std::uint64_t s;
  explicit Rng(std::uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 7) {}
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
  // A multiple of 1/64 in [lo, hi].
  double dyadic(double lo, double hi) { return std::floor((lo + (hi - lo) * uniform()) * 64) / 64; }
};

// The world: id → box (ordered, so the brute force is in id order).
using World = std::map<int, Aabb>;

bool intervalsMeet(double a0, double a1, double b0, double b1) { return !(a1 < b0 || b1 < a0); }
bool boxesMeet(const Aabb& a, const Aabb& b) {
  return intervalsMeet(a.min.x, a.max.x, b.min.x, b.max.x) && intervalsMeet(a.min.y, a.max.y, b.min.y, b.max.y) &&
         intervalsMeet(a.min.z, a.max.z, b.min.z, b.max.z);
}

// inner ⊆ outer, closed.
bool boxesInside(const Aabb& inner, const Aabb& outer) {
  for (int k = 0; k < 3; ++k) {
    if (inner.min[k] < outer.min[k] || inner.max[k] > outer.max[k]) return false;
  }
  return true;
}

std::vector<IdPair> brutePairs(const World& w) {
  std::vector<IdPair> out;
  for (auto i = w.begin(); i != w.end(); ++i) {
    for (auto j = std::next(i); j != w.end(); ++j) {
      if (boxesMeet(i->second, j->second)) out.push_back({i->first, j->first});
    }
  }
  return out;
}

// A box of mixed kind around a centre in [0, side]³: 10 % points (zero size),
// 10 % flat (zero on one axis), 5 % large, the rest small to medium.
Aabb randomBox(Rng& rng, double side) {
  const Vec3 c{rng.dyadic(0, side), rng.dyadic(0, side), rng.dyadic(0, side)};
  Vec3 h{rng.dyadic(0.05, 1), rng.dyadic(0.05, 1), rng.dyadic(0.05, 1)};
  const int kind = rng.below(20);
  if (kind < 2) h = {0, 0, 0};
  else if (kind < 4) h[rng.below(3)] = 0;
  else if (kind == 4) h = h * 4;
  return {c - h, c + h};
}

// A box sharing a face with `b` (placed beside it on a random axis and side).
Aabb touching(Rng& rng, const Aabb& b) {
  Aabb t = b;
  const int axis = rng.below(3);
  const double width = rng.dyadic(0, 1);
  if (rng.below(2) == 0) {
    t.min[axis] = b.max[axis];
    t.max[axis] = b.max[axis] + width;
  } else {
    t.max[axis] = b.min[axis];
    t.min[axis] = b.min[axis] - width;
  }
  return t;
}

// n bodies with ids spread over [0, 3n] (gaps, unordered insertion); about
// one in eight touches an earlier body face to face. The side grows with n
// so that each body meets a few others.
World randomWorld(std::uint64_t seed, int n) {
  Rng rng(seed);
  World w;
  const double side = 2.0 * std::cbrt(static_cast<double>(n)) + 1;
  std::vector<int> ids;
  while (static_cast<int>(w.size()) < n) {
    const int id = rng.below(3 * n + 1);
    if (w.count(id)) continue;
    w[id] = (!ids.empty() && rng.below(8) == 0) ? touching(rng, w[ids[rng.below(static_cast<int>(ids.size()))]])
                                                 : randomBox(rng, side);
    ids.push_back(id);
  }
  return w;
}

// Inserts in a seeded shuffled order, not the map's.
template <class S>
void insertAll(S* s, const World& w, std::uint64_t seed) {
  std::vector<std::pair<int, Aabb>> items(w.begin(), w.end());
  Rng rng(seed + 1000);
  for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[rng.below(static_cast<int>(i))]);
  for (const auto& [id, box] : items) ASSERT_TRUE(s->insert(id, box));
}

int countTouching(const World& w) {
  int touchingPairs = 0;
  for (const IdPair& p : brutePairs(w)) {
    const Aabb &a = w.at(p.a), &b = w.at(p.b);
    for (int k = 0; k < 3; ++k) touchingPairs += a.max[k] == b.min[k] || b.max[k] == a.min[k];
  }
  return touchingPairs;
}

const int kSizes[] = {0, 1, 2, 50, 1000};
const std::uint64_t kSeeds[] = {1, 2, 3};

// ------------------------------------------------------------ static worlds

TEST(BroadphaseSap, RandomWorldsEqualBruteForce) {
  for (int n : kSizes) {
    for (std::uint64_t seed : kSeeds) {
      const World w = randomWorld(seed, n);
      SweepAndPrune sap;
      insertAll(&sap, w, seed);
      EXPECT_EQ(sap.size(), n);
      std::vector<IdPair> got;
      sap.pairs(&got);
      EXPECT_EQ(got, brutePairs(w)) << "n " << n << " seed " << seed;
    }
  }
  // The big worlds do exercise shared faces and many pairs.
  const World w = randomWorld(1, 1000);
  EXPECT_GT(countTouching(w), 50);
  EXPECT_GT(brutePairs(w).size(), 500u);
}

TEST(BroadphaseTree, RandomWorldsEqualBruteForce) {
  for (int n : kSizes) {
    for (std::uint64_t seed : kSeeds) {
      const World w = randomWorld(seed, n);
      AabbTree tree(0.25);
      insertAll(&tree, w, seed);
      EXPECT_EQ(tree.size(), n);
      EXPECT_TRUE(tree.checkInvariants());
      std::vector<IdPair> got;
      tree.pairs(&got);
      EXPECT_EQ(got, brutePairs(w)) << "n " << n << " seed " << seed;
      // The candidates the fat boxes give contain every true pair.
      World fat;
      for (const auto& [id, box] : w) {
        fat[id] = tree.fatBox(id);
        EXPECT_TRUE(contains(fat[id], box));
      }
      const std::vector<IdPair> fatPairs = brutePairs(fat);
      for (const IdPair& p : got) EXPECT_TRUE(std::binary_search(fatPairs.begin(), fatPairs.end(), p));
    }
  }
}

// The thesis's method on the view's three sorted lists: walk each list with
// an active set, count per pair the axes on which the intervals overlap;
// pairs counted three times are the candidates.
TEST(BroadphaseSap, EndpointListsGiveTheThesisPairs) {
  const World w = randomWorld(7, 300);
  SweepAndPrune sap;
  insertAll(&sap, w, 7);
  std::vector<IdPair> got;
  sap.pairs(&got);
  std::map<std::pair<int, int>, int> axesOverlapping;
  for (int axis = 0; axis < 3; ++axis) {
    std::vector<SapEndpoint> list;
    sap.endpoints(axis, &list);
    ASSERT_EQ(list.size(), 2 * w.size());
    for (std::size_t k = 1; k < list.size(); ++k) EXPECT_LE(list[k - 1].value, list[k].value);
    std::vector<int> active;
    for (const SapEndpoint& e : list) {
      EXPECT_EQ(e.value, e.isMin ? w.at(e.id).min[axis] : w.at(e.id).max[axis]);
      if (e.isMin) {
        for (int other : active) ++axesOverlapping[{std::min(other, e.id), std::max(other, e.id)}];
        active.push_back(e.id);
      } else {
        const auto it = std::find(active.begin(), active.end(), e.id);
        ASSERT_NE(it, active.end()) << "a max before its min";
        active.erase(it);
      }
    }
    EXPECT_TRUE(active.empty());
  }
  std::vector<IdPair> thesis;
  for (const auto& [p, count] : axesOverlapping) {
    if (count == 3) thesis.push_back({p.first, p.second});
  }
  EXPECT_EQ(thesis, brutePairs(w));
  EXPECT_EQ(got, thesis);
}

// Small moves sort in without a rebuild; a shuffle (every body teleported)
// exceeds the insertion budget and rebuilds; both give the brute-force pairs.
TEST(BroadphaseSap, RebuildsOnlyWhenCoherenceIsLost) {
  World w = randomWorld(11, 2000);
  SweepAndPrune sap;
  insertAll(&sap, w, 11);
  std::vector<IdPair> got;
  sap.pairs(&got);
  EXPECT_EQ(sap.rebuilds(), 1);
  EXPECT_EQ(got, brutePairs(w));
  Rng rng(12);
  for (int frame = 0; frame < 20; ++frame) {
    for (auto& [id, box] : w) {
      const Vec3 step{rng.dyadic(-0.06, 0.06), rng.dyadic(-0.06, 0.06), rng.dyadic(-0.06, 0.06)};
      box = {box.min + step, box.max + step};
      ASSERT_TRUE(sap.update(id, box));
    }
    sap.pairs(&got);
    ASSERT_EQ(got, brutePairs(w)) << "frame " << frame;
  }
  EXPECT_EQ(sap.rebuilds(), 1);
  const double side = 2.0 * std::cbrt(2000.0) + 1;
  for (auto& [id, box] : w) {
    box = randomBox(rng, side);
    ASSERT_TRUE(sap.update(id, box));
  }
  sap.pairs(&got);
  EXPECT_EQ(sap.rebuilds(), 2);
  EXPECT_EQ(got, brutePairs(w));
}

// The sweep's grid on the two other axes: a floor under everything, rods
// that cross many cells, and boxes touching face to face, in frames of
// small moves. Pairs that share many cells are reported once.
TEST(BroadphaseSap, GridCellsSharedByManyBoxesEqualBruteForce) {
  Rng rng(31);
  World w;
  w[0] = {{0, -1, 0}, {60, 0, 60}};  // the floor: every cell of a grid on x, z
  int id = 1;
  for (; id < 1500; ++id) {
    const Vec3 c{rng.dyadic(0, 60), rng.dyadic(0, 3), rng.dyadic(0, 60)};
    const Vec3 h{rng.dyadic(0.1, 0.6), rng.dyadic(0.1, 0.6), rng.dyadic(0.1, 0.6)};
    w[id] = {c - h, c + h};
  }
  for (; id < 1540; ++id) {  // rods along x and along z, crossing the grid
    const Vec3 c{rng.dyadic(0, 60), rng.dyadic(0, 3), rng.dyadic(0, 60)};
    const int along = rng.below(2) == 0 ? 0 : 2;
    Vec3 h{0.25, 0.25, 0.25};
    h[along] = rng.dyadic(5, 30);
    w[id] = {c - h, c + h};
  }
  for (; id < 1700; ++id) w[id] = touching(rng, w[1 + rng.below(1539)]);
  SweepAndPrune sap;
  insertAll(&sap, w, 31);
  std::vector<IdPair> got;
  for (int frame = 0; frame < 10; ++frame) {
    ASSERT_TRUE(sap.pairs(&got));
    ASSERT_EQ(got, brutePairs(w)) << "frame " << frame;
    for (auto& [i, box] : w) {
      if (i == 0) continue;
      const Vec3 step{rng.dyadic(-0.06, 0.06), rng.dyadic(-0.06, 0.06), rng.dyadic(-0.06, 0.06)};
      box = {box.min + step, box.max + step};
      ASSERT_TRUE(sap.update(i, box));
    }
  }
  // The floor meets every body above it; a layer is swept along x or z.
  EXPECT_NE(sap.axis(), 1);
}

// A few small bodies far apart (a grid would have many cells; few bodies
// get one), some touching.
TEST(BroadphaseSap, FewBodiesFarApartEqualBruteForce) {
  Rng rng(41);
  for (int n = 1; n <= 40; ++n) {
    World w;
    for (int id = 0; id < n; ++id) {
      const Vec3 c{rng.dyadic(0, 100), rng.dyadic(0, 100), rng.dyadic(0, 100)};
      w[id] = (id > 0 && rng.below(4) == 0) ? touching(rng, w[id - 1]) : Aabb{c, c + Vec3{0.125, 0.125, 0.125}};
    }
    SweepAndPrune sap;
    insertAll(&sap, w, 41);
    std::vector<IdPair> got;
    ASSERT_TRUE(sap.pairs(&got));
    ASSERT_EQ(got, brutePairs(w)) << n << " bodies";
  }
}

// Bodies spread along x, then (teleported) along z: within kSapAxisFrames
// calls the list moves to z, sorted anew; the pairs are right on every call.
TEST(BroadphaseSap, FollowsTheAxisOfWidestSpread) {
  Rng rng(37);
  World w;
  for (int id = 0; id < 800; ++id) {
    const Vec3 c{rng.dyadic(0, 400), rng.dyadic(0, 6), rng.dyadic(0, 6)};
    const Vec3 h{rng.dyadic(0.1, 1), rng.dyadic(0.1, 1), rng.dyadic(0.1, 1)};
    w[id] = {c - h, c + h};
  }
  SweepAndPrune sap;
  insertAll(&sap, w, 37);
  std::vector<IdPair> got;
  EXPECT_EQ(sap.axis(), -1);
  ASSERT_TRUE(sap.pairs(&got));
  EXPECT_EQ(got, brutePairs(w));
  EXPECT_EQ(sap.axis(), 0);
  EXPECT_EQ(sap.rebuilds(), 1);
  for (auto& [id, box] : w) {
    const Vec3 c{rng.dyadic(0, 6), rng.dyadic(0, 6), rng.dyadic(0, 400)};
    const Vec3 h = (box.max - box.min) * 0.5;
    box = {c - h, c + h};
    ASSERT_TRUE(sap.update(id, box));
  }
  for (int call = 0; call < kSapAxisFrames; ++call) {
    ASSERT_TRUE(sap.pairs(&got));
    ASSERT_EQ(got, brutePairs(w)) << "call " << call;
  }
  EXPECT_EQ(sap.axis(), 2);
  // The teleport's pass gave up (one sort), the change of axis sorted again.
  EXPECT_EQ(sap.rebuilds(), 3);
}

// Boxes resting in a thin layer (all overlapping vertically) that jitter:
// the vertical list reshuffles; the pairs stay right.
TEST(BroadphaseSap, JitteringLayerEqualsBruteForce) {
  Rng rng(13);
  World w;
  for (int id = 0; id < 1500; ++id) {
    const Vec3 c{rng.dyadic(0, 40), rng.dyadic(0.5, 0.53), rng.dyadic(0, 40)};
    const Vec3 h{rng.dyadic(0.1, 1), 0.5, rng.dyadic(0.1, 1)};
    w[id] = {c - h, c + h};
  }
  SweepAndPrune sap;
  insertAll(&sap, w, 13);
  std::vector<IdPair> got;
  for (int frame = 0; frame < 10; ++frame) {
    for (auto& [id, box] : w) {
      const Vec3 step{rng.dyadic(-0.03, 0.03), rng.dyadic(-0.03, 0.03), rng.dyadic(-0.03, 0.03)};
      box = {box.min + step, box.max + step};
      ASSERT_TRUE(sap.update(id, box));
    }
    sap.pairs(&got);
    ASSERT_EQ(got, brutePairs(w)) << "frame " << frame;
  }
}

// ------------------------------------------------------------ moving worlds

// The documented rule (aabb_tree.h): a leaf is kept while its box stays in its
// fat box and the fat box reaches at most kAabbTreeLooseMargins margins past it.
bool expectReinsert(const AabbTree& tree, const Aabb& fatBefore, const Aabb& box) {
  const double loose = kAabbTreeLooseMargins * tree.margin();
  const Aabb looseBox{box.min - Vec3{loose, loose, loose}, box.max + Vec3{loose, loose, loose}};
  return !(boxesInside(box, fatBefore) && boxesInside(fatBefore, looseBox));
}

// Both structures side by side through frames of small moves (every body),
// teleports, removals and re-insertions (of old and new ids).
TEST(Broadphase, FramesOfMovesTeleportsAndRemovalsEqualBruteForce) {
  for (std::uint64_t seed : {5ull, 6ull}) {
    World w = randomWorld(seed, 1000);
    const double side = 2.0 * std::cbrt(1000.0) + 1;
    SweepAndPrune sap;
    AabbTree tree(0.125);
    insertAll(&sap, w, seed);
    insertAll(&tree, w, seed);
    World removed;
    Rng rng(seed + 77);
    std::vector<IdPair> fromSap, fromTree;
    int reinserted = 0, kept = 0;
    for (int frame = 0; frame < 60; ++frame) {
      for (auto& [id, box] : w) {
        // A small move (a few 1/64 steps), the same for both corners.
        const Vec3 step{rng.dyadic(-0.06, 0.06), rng.dyadic(-0.06, 0.06), rng.dyadic(-0.06, 0.06)};
        const Aabb fatBefore = tree.fatBox(id);
        box = {box.min + step, box.max + step};
        ASSERT_TRUE(sap.update(id, box));
        const bool reinsertedNow = tree.update(id, box);
        EXPECT_EQ(reinsertedNow, expectReinsert(tree, fatBefore, box));
        reinserted += reinsertedNow;
        kept += !reinsertedNow;
      }
      for (int k = 0; k < 5; ++k) {  // teleports
        auto it = std::next(w.begin(), rng.below(static_cast<int>(w.size())));
        const Aabb fatBefore = tree.fatBox(it->first);
        it->second = randomBox(rng, side);
        ASSERT_TRUE(sap.update(it->first, it->second));
        EXPECT_EQ(tree.update(it->first, it->second), expectReinsert(tree, fatBefore, it->second));
      }
      for (int k = 0; k < 3; ++k) {  // removals
        auto it = std::next(w.begin(), rng.below(static_cast<int>(w.size())));
        ASSERT_TRUE(sap.remove(it->first));
        ASSERT_TRUE(tree.remove(it->first));
        removed.insert(*it);
        w.erase(it);
      }
      for (int k = 0; k < 2 && !removed.empty(); ++k) {  // back, moved
        auto it = std::next(removed.begin(), rng.below(static_cast<int>(removed.size())));
        const int id = it->first;
        removed.erase(it);
        w[id] = randomBox(rng, side);
        ASSERT_TRUE(sap.insert(id, w[id]));
        ASSERT_TRUE(tree.insert(id, w[id]));
      }
      const int fresh = 5000 + frame;  // a new id
      w[fresh] = touching(rng, w.begin()->second);
      ASSERT_TRUE(sap.insert(fresh, w[fresh]));
      ASSERT_TRUE(tree.insert(fresh, w[fresh]));

      const std::vector<IdPair> expected = brutePairs(w);
      sap.pairs(&fromSap);
      tree.pairs(&fromTree);
      ASSERT_EQ(fromSap, expected) << "seed " << seed << " frame " << frame;
      ASSERT_EQ(fromTree, expected) << "seed " << seed << " frame " << frame;
      ASSERT_TRUE(tree.checkInvariants()) << "frame " << frame;
      EXPECT_EQ(sap.size(), static_cast<int>(w.size()));
      EXPECT_EQ(tree.size(), static_cast<int>(w.size()));
    }
    // The fat boxes absorbed most small moves.
    EXPECT_GT(kept, reinserted);
  }
}

TEST(Broadphase, PairsStopAllocatingOnceGrown) {
  World w = randomWorld(9, 1000);
  SweepAndPrune sap;
  AabbTree tree(0.25);
  insertAll(&sap, w, 9);
  insertAll(&tree, w, 9);
  std::vector<IdPair> a, b;
  sap.pairs(&a);
  tree.pairs(&b);
  a.reserve(2 * a.size());
  b.reserve(2 * b.size());
  Rng rng(10);
  for (int frame = 0; frame < 10; ++frame) {
    for (auto& [id, box] : w) {
      const Vec3 step{rng.dyadic(-0.03, 0.03), rng.dyadic(-0.03, 0.03), rng.dyadic(-0.03, 0.03)};
      box = {box.min + step, box.max + step};
      sap.update(id, box);
    }
    // Bytes in use before and after (glibc): the call keeps no new block.
    const std::size_t before = mallinfo2().uordblks;
    sap.pairs(&a);
    tree.pairs(&b);
    EXPECT_EQ(mallinfo2().uordblks, before) << "frame " << frame;
    EXPECT_EQ(a, brutePairs(w));
  }
}

// ------------------------------------------------------------ tree queries

// The slab test written with divisions, on the closed box: the set of t in
// [0, maxT] with origin + t·dir inside, as [enter, exit]; empty if enter > exit.
bool slab(const Vec3& o, const Vec3& d, double maxT, const Aabb& b, double* enter) {
  double lo = 0, hi = maxT;
  for (int k = 0; k < 3; ++k) {
    if (d[k] == 0) {
      if (o[k] < b.min[k] || o[k] > b.max[k]) return false;
      continue;
    }
    const double t0 = (b.min[k] - o[k]) / d[k], t1 = (b.max[k] - o[k]) / d[k];
    lo = std::max(lo, std::min(t0, t1));
    hi = std::min(hi, std::max(t0, t1));
  }
  *enter = lo;
  return lo <= hi;
}

TEST(BroadphaseTree, QueryEqualsBruteForceOverFatBoxes) {
  const World w = randomWorld(21, 1000);
  AabbTree tree(0.25);
  insertAll(&tree, w, 21);
  Rng rng(22);
  for (int q = 0; q < 200; ++q) {
    const Aabb box = q % 10 == 0 ? touching(rng, w.begin()->second) : randomBox(rng, 21);
    std::vector<int> got;
    tree.query(box, [&got](int id) { got.push_back(id); });
    std::sort(got.begin(), got.end());
    std::vector<int> expected;
    for (const auto& [id, b] : w) {
      if (boxesMeet(tree.fatBox(id), box)) expected.push_back(id);
    }
    EXPECT_EQ(got, expected) << "query " << q;
  }
}

TEST(BroadphaseTree, RaycastEqualsBruteForceAndClosestHitPrunes) {
  const World w = randomWorld(31, 1000);
  AabbTree tree(0.25);
  insertAll(&tree, w, 31);
  Rng rng(32);
  int pruned = 0;
  for (int r = 0; r < 300; ++r) {
    const Vec3 o{rng.uniform() * 21 - 2, rng.uniform() * 21 - 2, rng.uniform() * 21 - 2};
    Vec3 d{rng.uniform() * 2 - 1, rng.uniform() * 2 - 1, rng.uniform() * 2 - 1};
    if (r % 5 == 1) d[rng.below(3)] = 0;            // parallel to a plane
    if (r % 5 == 2) {  // along an axis
      d = {0, 0, 0};
      d[rng.below(3)] = 1;
    }
    const double maxT = r % 3 == 0 ? std::numeric_limits<double>::infinity() : 30 * rng.uniform();

    std::vector<int> all;
    tree.raycast(o, d, maxT, [&all, maxT](int id) {
      all.push_back(id);
      return maxT;
    });
    std::sort(all.begin(), all.end());
    std::vector<int> expected;
    double closest = std::numeric_limits<double>::infinity();
    for (const auto& [id, b] : w) {
      double enter;
      if (slab(o, d, maxT, tree.fatBox(id), &enter)) {
        expected.push_back(id);
        closest = std::min(closest, enter);
      }
    }
    EXPECT_EQ(all, expected) << "ray " << r;

    // Closest hit: each visit returns its fat box's entry t.
    int visits = 0;
    double best = std::numeric_limits<double>::infinity();
    tree.raycast(o, d, maxT, [&](int id) {
      ++visits;
      double enter;
      EXPECT_TRUE(slab(o, d, maxT, tree.fatBox(id), &enter));
      best = std::min(best, enter);
      return enter;
    });
    EXPECT_EQ(best, closest) << "ray " << r;
    EXPECT_LE(visits, static_cast<int>(expected.size()));
    pruned += visits < static_cast<int>(expected.size());

    // A negative answer stops the cast at the first hit.
    int stopped = 0;
    tree.raycast(o, d, maxT, [&stopped](int) {
      ++stopped;
      return -1.0;
    });
    EXPECT_EQ(stopped, expected.empty() ? 0 : 1);
  }
  EXPECT_GT(pruned, 30);  // shrinking maxT skips boxes on many rays
}

// ------------------------------------------------------------ balance

TEST(BroadphaseTreeBalance, SortedInsertionsStayLogarithmic) {
  const int n = 10000;
  AabbTree tree(0.01);
  for (int i = 0; i < n; ++i) {
    const double x = i;
    ASSERT_TRUE(tree.insert(i, {{x, 0, 0}, {x + 0.5, 1, 1}}));
  }
  EXPECT_TRUE(tree.checkInvariants());
  const double log2n = std::log2(static_cast<double>(n));
  EXPECT_LE(tree.height(), 4 * log2n);
  EXPECT_LE(tree.height(), 2 * log2n);  // what the header states
  EXPECT_GE(tree.height(), std::ceil(log2n) + 1);  // a binary tree of n leaves
  // Removing every other body keeps it balanced and consistent.
  for (int i = 0; i < n; i += 2) ASSERT_TRUE(tree.remove(i));
  EXPECT_TRUE(tree.checkInvariants());
  EXPECT_LE(tree.height(), 2 * std::log2(n / 2.0));
  EXPECT_EQ(tree.nodeCount(), n - 1);
  // Pairs of the sorted row: none touch (gaps of 1.5 − 2·0.01 between kept
  // boxes; touching only through fat boxes would be wrong).
  std::vector<IdPair> out;
  tree.pairs(&out);
  EXPECT_TRUE(out.empty());
}

TEST(BroadphaseTreeBalance, RandomInsertionsAndRemovalsStayLogarithmic) {
  World w = randomWorld(41, 5000);
  AabbTree tree;
  insertAll(&tree, w, 41);
  EXPECT_LE(tree.height(), 2 * std::log2(5000.0));
  Rng rng(42);
  for (int k = 0; k < 2500; ++k) {
    auto it = std::next(w.begin(), rng.below(static_cast<int>(w.size())));
    ASSERT_TRUE(tree.remove(it->first));
    w.erase(it);
  }
  EXPECT_TRUE(tree.checkInvariants());
  EXPECT_LE(tree.height(), 2 * std::log2(2500.0));
  std::vector<IdPair> out;
  tree.pairs(&out);
  EXPECT_EQ(out, brutePairs(w));
}

// ------------------------------------------------------------ caller errors

template <class S>
void expectRefusals(S* s) {
  const Aabb box{{0, 0, 0}, {1, 1, 1}};
  ASSERT_TRUE(s->insert(3, box));
  ASSERT_TRUE(s->insert(4, box));
  EXPECT_FALSE(s->insert(-1, box));
  EXPECT_FALSE(s->insert(kMaxBroadphaseId, box));
  EXPECT_FALSE(s->insert(3, {{5, 5, 5}, {6, 6, 6}}));  // present: refused, box kept
  EXPECT_FALSE(s->update(7, box));
  EXPECT_FALSE(s->update(-1, box));
  EXPECT_FALSE(s->update(kMaxBroadphaseId + 5, box));
  EXPECT_FALSE(s->remove(2));
  EXPECT_FALSE(s->remove(-3));
  EXPECT_FALSE(s->remove(kMaxBroadphaseId));
  EXPECT_EQ(s->size(), 2);
  std::vector<IdPair> out{{9, 9}};
  s->pairs(&out);
  EXPECT_EQ(out, (std::vector<IdPair>{{3, 4}}));
  ASSERT_TRUE(s->remove(3));
  EXPECT_FALSE(s->remove(3));
  s->pairs(&out);
  EXPECT_TRUE(out.empty());
  // The largest id works.
  ASSERT_TRUE(s->insert(kMaxBroadphaseId - 1, box));
  s->pairs(&out);
  EXPECT_EQ(out, (std::vector<IdPair>{{4, kMaxBroadphaseId - 1}}));
}

TEST(BroadphaseSap, RefusesBadIdsAndKeepsItsState) {
  SweepAndPrune sap;
  expectRefusals(&sap);
}

TEST(BroadphaseTree, RefusesBadIdsAndKeepsItsState) {
  AabbTree tree;
  expectRefusals(&tree);
  EXPECT_TRUE(tree.checkInvariants());
}

TEST(Broadphase, SameCallsGiveSameOrder) {
  const World w = randomWorld(51, 500);
  std::vector<int> visits[2];
  std::vector<IdPair> sapPairs[2], treePairs[2];
  for (int run = 0; run < 2; ++run) {
    SweepAndPrune sap;
    AabbTree tree;
    insertAll(&sap, w, 51);
    insertAll(&tree, w, 51);
    sap.pairs(&sapPairs[run]);
    tree.pairs(&treePairs[run]);
    tree.query({{0, 0, 0}, {8, 8, 8}}, [&](int id) { visits[run].push_back(id); });
    tree.raycast({-1, 3, 3}, {1, 0.1, 0.2}, 40, [&](int id) {
      visits[run].push_back(-id);
      return 40.0;
    });
  }
  EXPECT_EQ(sapPairs[0], sapPairs[1]);
  EXPECT_EQ(treePairs[0], treePairs[1]);
  EXPECT_EQ(visits[0], visits[1]);
  EXPECT_FALSE(visits[0].empty());
}

}  // namespace
