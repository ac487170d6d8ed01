// collidoscope — the dynamic AABB tree: a bounding-volume hierarchy over
// moving bodies, updated incrementally.
//
// References: the incremental insertion with the surface-area heuristic of
// J. Goldsmith, J. Salmon, "Automatic creation of object hierarchies for ray
// tracing", IEEE CG&A 1987, and "fat" leaves that absorb small moves, as in
// G. van den Bergen's SOLID, Bullet's btDbvt and E. Catto's Box2D
// b2DynamicTree (read to learn; this is written from the ideas, not the code).
//
// Leaves hold one body each, with its box grown by `margin` on every side
// (the fat box). update() keeps a leaf while the new box stays inside its fat
// box and is not much smaller than it (the fat box lies within the new box
// grown by kAabbTreeLooseMargins·margin); otherwise the leaf is taken out and
// put back with a new fat box. An inner node's box is the union of its two
// children's.
//
// Insertion (the surface-area heuristic). The cost of a tree is taken as the
// sum of the surface areas SA of its inner nodes (the expected number of
// nodes a query visits is proportional to it). Pairing a new leaf L with an
// existing node N as siblings adds a parent of area SA(N ∪ L) and grows every
// ancestor A of N by SA(A ∪ L) − SA(A). The descent from the root keeps
// `inherited`, the growth of the ancestors so far, and at node N compares
//   here   = SA(N ∪ L) + inherited                         (pair with N)
//   lower(c) = inherited + SA(N ∪ L) − SA(N) + SA(c ∪ L) − SA(c) + SA(L)
// for each child c, a lower bound of any placement under c (it grows N and c,
// and creates a parent of area ≥ SA(L)); for a leaf child the exact cost
// inherited + SA(N ∪ L) − SA(N) + SA(c ∪ L). It stops when `here` is no worse
// than both, else descends into the cheaper child (the first on a tie).
//
// Balance. After an insertion or removal every ancestor, bottom up, is
// rotated when its children's heights differ by more than one: the taller
// child C takes the node's place, and of C's children the taller stays under C
// while the other moves down to where C was (one rotation as in an AVL tree,
// choosing the grandchild so that the result differs by at most one when the
// difference was two). Insertion can pair a leaf with a tall subtree, so the
// tree is not a strict AVL tree; in tests it stays within 2·log2(n) levels
// after 10 000 sorted insertions, and after random insertions and removals
// (BroadphaseTreeBalance.* in tests/cpp/test_broadphase.cpp).
//
// Traversals (query, raycast) walk the tree without a stack, by parent
// links: a node is entered from above, left after its first child or after
// its second, so each visit ends after at most three steps per node. No
// allocation, no depth limit, and each loop is capped at 3·nodes + 3 steps.
//
// Storage: nodes in one vector, freed nodes chained in a free list through
// `parent`; per id its leaf and its tight box.
//
// Costs: insert, remove O(height) (+ O(1) amortized allocation), update O(1)
// when the box stays in its fat box, else O(height); query O(height · hits)
// typically; pairs() O(moved · query + k_fat + k), k_fat the pairs whose fat
// boxes overlap (its first call, or one after more than half the leaves
// moved, traverses the tree against itself: each pair of subtrees whose
// boxes overlap, once).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "collidoscope/aabb.h"
#include "collidoscope/broadphase_ids.h"
#include "collidoscope/math.h"

namespace collidoscope {

// Default fat margin: 0.1 (Box2D's 10 cm for worlds in metres, about a tenth
// of a typical body). Worlds of another scale pass their own.
constexpr double kAabbTreeMargin = 0.1;
// A leaf whose fat box reaches further than this many margins beyond its new
// box is re-fitted: a body that moved fast and stopped, or turned so that its
// box shrank, would otherwise keep a box too large (extra candidates).
constexpr double kAabbTreeLooseMargins = 4.0;
// Nodes a traversal keeps on its stack (see traverse).
constexpr int kAabbTreeStack = 64;

struct AabbTreeNode {
  Aabb box;                  // leaf: the fat box; inner node: union of the children's boxes
  int parent = -1;           // −1 at the root; a free node: the next free node (or −1)
  int child[2] = {-1, -1};   // −1 for a leaf
  int height = 0;            // 0 for a leaf, 1 + the taller child's otherwise; −1 when free
  int id = -1;               // leaf: the body's id
  bool leaf() const { return child[0] < 0; }
};

class AabbTree {
 public:
  // margin ≥ 0: the fat box grows the body's box by it on every side (a
  // negative or NaN margin is taken as 0).
  explicit AabbTree(double margin = kAabbTreeMargin) : margin_(margin > 0 ? margin : 0) {}

  void reserve(int bodies);
  // False, nothing changed: id out of range or present.
  bool insert(int id, const Aabb& box);
  // True when the leaf was reinserted (the box left its fat box, or the fat
  // box became loose); false when only the tight box changed, or id is absent.
  bool update(int id, const Aabb& box);
  // False, nothing changed: id absent.
  bool remove(int id);
  bool contains(int id) const { return id >= 0 && id < static_cast<int>(leafOf_.size()) && leafOf_[id] >= 0; }
  int size() const { return count_; }
  double margin() const { return margin_; }
  // The box last given for id, and its leaf's fat box (contains(id) must hold).
  const Aabb& box(int id) const { return boxOf_[id]; }
  const Aabb& fatBox(int id) const { return nodes_[leafOf_[id]].box; }

  // Every pair {a, b}, a < b, whose (tight) boxes overlap, into *out (cleared
  // first), sorted by (a, b): the fat boxes find the candidates, the tight
  // boxes filter them, so the answer is the same as SweepAndPrune's. The
  // pairs of fat boxes are kept between calls (see fatPairs_); allocation-free
  // once `out` and the kept arrays have grown. False, *out empty, when more
  // than maxPairs pairs of fat boxes overlap (the search stops there, and the
  // next call starts anew).
  bool pairs(std::vector<IdPair>* out, std::int64_t maxPairs = INT64_MAX);

  // visit(id) for every body whose FAT box overlaps `box` (closed), in tree
  // order. Fat boxes contain the tight ones, so no overlapping body is missed;
  // callers test the shapes anyway.
  template <class F>
  void query(const Aabb& box, F&& visit) const {
    traverse([&box](const Aabb& b) { return overlaps(b, box); },
             [&visit](int id) {
               visit(id);
               return true;
             });
  }

  // visit(id) for every body whose FAT box the segment origin + t·dir,
  // 0 ≤ t ≤ maxT, meets (closed boxes; maxT may be +∞). visit returns the new
  // maxT: a closest-hit caller returns its hit's t and prunes the boxes beyond
  // it; returning maxT keeps all hits; a negative value stops the cast. A
  // value above the current maxT, or NaN, leaves maxT unchanged.
  template <class F>
  void raycast(const Vec3& origin, const Vec3& dir, double maxT, F&& visit) const {
    if (!(maxT >= 0)) return;
    const RaySlabs ray(origin, dir);
    traverse([&ray, &maxT](const Aabb& b) { return ray.meets(b, maxT); },
             [&visit, &maxT](int id) {
               const double t = visit(id);
               if (t < maxT) maxT = t;
               return maxT >= 0;
             });
  }

  // Levels of the tree: 0 when empty, 1 for a single leaf.
  int height() const { return root_ < 0 ? 0 : nodes_[root_].height + 1; }
  // Nodes in use (2·size() − 1 when not empty).
  int nodeCount() const { return count_ == 0 ? 0 : 2 * count_ - 1; }
  // For tests: parent links, heights, boxes containing
  // children, fat boxes containing tight ones, the id → leaf map and the free
  // list all consistent.
  bool checkInvariants() const;

 private:
  // The slab test of a ray against boxes: per axis the parameter interval
  // [(min − o)/d, (max − o)/d] (swapped when d < 0) in which the ray is
  // between the two planes; the ray meets the box when the intervals of the
  // three axes and [0, maxT] share a point. An axis with d = 0 is met for all
  // t or none, by where o lies.
  struct RaySlabs {
    Vec3 origin, inv;
    bool parallel[3];
    RaySlabs(const Vec3& o, const Vec3& d) : origin(o) {
      for (int a = 0; a < 3; ++a) {
        parallel[a] = d[a] == 0;
        inv[a] = parallel[a] ? 0 : 1 / d[a];
      }
    }
    bool meets(const Aabb& b, double maxT) const {
      double enter = 0, exit = maxT;
      for (int a = 0; a < 3; ++a) {
        if (parallel[a]) {
          if (origin[a] < b.min[a] || origin[a] > b.max[a]) return false;
          continue;
        }
        double t0 = (b.min[a] - origin[a]) * inv[a], t1 = (b.max[a] - origin[a]) * inv[a];
        if (t0 > t1) std::swap(t0, t1);
        if (t0 > enter) enter = t0;
        if (t1 < exit) exit = t1;
        if (enter > exit) return false;
      }
      return true;
    }
  };

  // Depth-first walk: descends into nodes whose box passes `enter`, calls
  // leaf(id) at passing leaves and stops when it returns false.
  // Depth first with a stack of kAabbTreeStack nodes (enough for any tree the
  // balance keeps: its height stays below 2·log2 n + 2 ≤ 44 for 2^20 bodies);
  // should a subtree not fit, it is walked without a stack, by parent links
  // (walkSubtree). No allocation, and every loop ends.
  template <class Enter, class Leaf>
  void traverse(Enter&& enter, Leaf&& leaf) const {
    if (root_ < 0) return;
    int stack[kAabbTreeStack];
    int top = 0;
    stack[top++] = root_;
    while (top > 0) {
      const int node = stack[--top];
      const AabbTreeNode& n = nodes_[node];
      if (!enter(n.box)) continue;
      if (n.leaf()) {
        if (!leaf(n.id)) return;
        continue;
      }
      if (top + 2 > kAabbTreeStack) {
        if (!walkSubtree(node, enter, leaf)) return;
        continue;
      }
      stack[top++] = n.child[1];
      stack[top++] = n.child[0];
    }
  }

  // The subtree under `start` (whose box was entered), walked by parent
  // links: a node is entered from above, left after its first child or after
  // its second, so the walk takes at most three steps per node. False when
  // leaf() asked to stop.
  template <class Enter, class Leaf>
  bool walkSubtree(int start, Enter&& enter, Leaf&& leaf) const {
    const int stop = nodes_[start].parent;
    int node = nodes_[start].child[0], from = start;
    const long long cap = 3LL * static_cast<long long>(nodes_.size()) + 3;
    for (long long step = 0; node != stop && step < cap; ++step) {
      const AabbTreeNode& n = nodes_[node];
      int next;
      if (from == n.parent) {  // entered from above
        if (node != start && !enter(n.box)) {
          next = n.parent;
        } else if (n.leaf()) {
          if (!leaf(n.id)) return false;
          next = n.parent;
        } else {
          next = n.child[0];
        }
      } else if (from == n.child[0]) {  // back from the first child
        next = n.child[1];
      } else {  // back from the second child
        next = n.parent;
      }
      from = node;
      node = next;
    }
    return true;
  }

  int allocateNode();
  void freeNode(int node);
  void insertLeaf(int leaf);
  void removeLeaf(int leaf);
  // Rotates node if its children's heights differ by more than one; returns
  // the node now at its place.
  int balance(int node);
  // Re-fits boxes and heights from node up to the root, balancing each.
  void refitUp(int node);

  double margin_;
  std::vector<AabbTreeNode> nodes_;
  int root_ = -1;
  int freeList_ = -1;
  int count_ = 0;
  std::vector<int> leafOf_;   // by id: the leaf, −1 when absent
  std::vector<Aabb> boxOf_;   // by id: the tight box
  std::vector<int> pairStack_;  // buildFatPairs(): pending node pairs, two ints each
  // pairs() keeps the pairs whose fat boxes overlap (E. Catto's pair
  // management in Box2D): fat boxes change only at a (re)insertion, so a
  // frame keeps the pairs of leaves that did not move, queries the tree with
  // the moved leaves' fat boxes only and merges what they find.
  static std::uint64_t fatKey(int a, int b) {
    return a < b ? (std::uint64_t{static_cast<std::uint32_t>(a)} << 32) | static_cast<std::uint32_t>(b)
                 : (std::uint64_t{static_cast<std::uint32_t>(b)} << 32) | static_cast<std::uint32_t>(a);
  }
  void markMoved(int id);
  bool buildFatPairs(std::int64_t maxPairs);
  bool updateFatPairs(std::int64_t maxPairs);
  std::vector<std::uint64_t> fatPairs_, newPairs_, merged_;  // sorted keys a·2^32 + b, a < b
  std::vector<int> moved_;                   // ids (re)inserted since the last pairs()
  std::vector<unsigned char> movedFlag_;     // by id (as long as leafOf_): in moved_
  bool fatBuilt_ = false;
};

}  // namespace collidoscope
