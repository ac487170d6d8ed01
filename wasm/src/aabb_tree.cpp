// collidoscope — the dynamic AABB tree (see aabb_tree.h for the method).
#include "collidoscope/aabb_tree.h"

#include <algorithm>

#include "collidoscope/heap_room.h"

namespace collidoscope {

void AabbTree::reserve(int bodies) {
  if (bodies <= 0) return;
  const std::size_t n = static_cast<std::size_t>(std::min(bodies, kMaxBroadphaseId));
  reserveExactly(nodes_, 2 * n);
  reserveExactly(leafOf_, n);
  reserveExactly(boxOf_, n);
}

int AabbTree::allocateNode() {
  if (freeList_ >= 0) {
    const int node = freeList_;
    freeList_ = nodes_[node].parent;
    nodes_[node] = AabbTreeNode{};
    return node;
  }
  nodes_.emplace_back();
  return static_cast<int>(nodes_.size()) - 1;
}

void AabbTree::freeNode(int node) {
  nodes_[node] = AabbTreeNode{};
  nodes_[node].height = -1;
  nodes_[node].parent = freeList_;
  freeList_ = node;
}

bool AabbTree::insert(int id, const Aabb& box) {
  if (!validBroadphaseId(id) || contains(id)) return false;
  if (id >= static_cast<int>(leafOf_.size())) {
    leafOf_.resize(static_cast<std::size_t>(id) + 1, -1);
    boxOf_.resize(static_cast<std::size_t>(id) + 1);
    movedFlag_.resize(static_cast<std::size_t>(id) + 1, 0);
  }
  const int leaf = allocateNode();
  nodes_[leaf].box = grown(box, margin_);
  nodes_[leaf].id = id;
  leafOf_[id] = leaf;
  boxOf_[id] = box;
  ++count_;
  insertLeaf(leaf);
  markMoved(id);
  return true;
}

void AabbTree::markMoved(int id) {
  if (movedFlag_[id]) return;
  movedFlag_[id] = 1;
  moved_.push_back(id);
}

bool AabbTree::update(int id, const Aabb& box) {
  if (!contains(id)) return false;
  boxOf_[id] = box;
  const int leaf = leafOf_[id];
  const Aabb& fat = nodes_[leaf].box;
  if (collidoscope::contains(fat, box) && collidoscope::contains(grown(box, kAabbTreeLooseMargins * margin_), fat)) {
    return false;
  }
  removeLeaf(leaf);
  nodes_[leaf].box = grown(box, margin_);
  insertLeaf(leaf);
  markMoved(id);
  return true;
}

bool AabbTree::remove(int id) {
  if (!contains(id)) return false;
  const int leaf = leafOf_[id];
  removeLeaf(leaf);
  freeNode(leaf);
  leafOf_[id] = -1;
  --count_;
  return true;
}

void AabbTree::insertLeaf(int leaf) {
  if (root_ < 0) {
    root_ = leaf;
    nodes_[leaf].parent = -1;
    return;
  }
  // The descent of the header's surface-area heuristic; each step goes one
  // level down, so the tree's height bounds it.
  const Aabb box = nodes_[leaf].box;
  const double leafArea = surfaceArea(box);
  double inherited = 0;
  int node = root_;
  while (!nodes_[node].leaf()) {
    const AabbTreeNode& n = nodes_[node];
    const double area = surfaceArea(n.box);
    const double joined = surfaceArea(merged(n.box, box));
    const double here = joined + inherited;
    const double below = inherited + joined - area;  // every placement under n grows n
    double cost[2];
    for (int s = 0; s < 2; ++s) {
      const AabbTreeNode& c = nodes_[n.child[s]];
      const double cJoined = surfaceArea(merged(c.box, box));
      cost[s] = c.leaf() ? below + cJoined : below + cJoined - surfaceArea(c.box) + leafArea;
    }
    if (here <= cost[0] && here <= cost[1]) break;
    inherited = below;
    node = cost[1] < cost[0] ? n.child[1] : n.child[0];
  }
  // node becomes the leaf's sibling under a new parent in node's place.
  const int sibling = node;
  const int oldParent = nodes_[sibling].parent;
  const int parent = allocateNode();  // may reallocate nodes_: no references held across it
  AabbTreeNode& p = nodes_[parent];
  p.parent = oldParent;
  p.box = merged(nodes_[sibling].box, box);
  p.height = nodes_[sibling].height + 1;
  p.child[0] = sibling;
  p.child[1] = leaf;
  nodes_[sibling].parent = parent;
  nodes_[leaf].parent = parent;
  if (oldParent < 0) {
    root_ = parent;
  } else {
    AabbTreeNode& op = nodes_[oldParent];
    op.child[op.child[0] == sibling ? 0 : 1] = parent;
  }
  refitUp(parent);
}

void AabbTree::removeLeaf(int leaf) {
  if (leaf == root_) {
    root_ = -1;
    return;
  }
  const int parent = nodes_[leaf].parent;
  const int grandParent = nodes_[parent].parent;
  const int sibling = nodes_[parent].child[nodes_[parent].child[0] == leaf ? 1 : 0];
  freeNode(parent);
  nodes_[leaf].parent = -1;
  nodes_[sibling].parent = grandParent;
  if (grandParent < 0) {
    root_ = sibling;
    return;
  }
  AabbTreeNode& g = nodes_[grandParent];
  g.child[g.child[0] == parent ? 0 : 1] = sibling;
  refitUp(grandParent);
}

int AabbTree::balance(int node) {
  AabbTreeNode& a = nodes_[node];
  if (a.leaf() || a.height < 2) return node;
  const int diff = nodes_[a.child[1]].height - nodes_[a.child[0]].height;
  if (diff >= -1 && diff <= 1) return node;
  // s: the side of the taller child c, which takes a's place; of c's children
  // the taller (`keep`, the first on a tie) stays under c, the other (`give`)
  // replaces c under a.
  const int s = diff > 0 ? 1 : 0;
  const int c = a.child[s];
  const int b = a.child[1 - s];
  AabbTreeNode& cn = nodes_[c];
  const int k = nodes_[cn.child[0]].height >= nodes_[cn.child[1]].height ? 0 : 1;
  const int keep = cn.child[k];
  const int give = cn.child[1 - k];

  cn.parent = a.parent;
  if (a.parent < 0) {
    root_ = c;
  } else {
    AabbTreeNode& up = nodes_[a.parent];
    up.child[up.child[0] == node ? 0 : 1] = c;
  }
  cn.child[1 - s] = node;
  cn.child[s] = keep;
  a.parent = c;
  a.child[s] = give;
  nodes_[give].parent = node;
  a.box = merged(nodes_[b].box, nodes_[give].box);
  a.height = 1 + std::max(nodes_[b].height, nodes_[give].height);
  cn.box = merged(a.box, nodes_[keep].box);
  cn.height = 1 + std::max(a.height, nodes_[keep].height);
  return c;
}

void AabbTree::refitUp(int node) {
  // One step per level: bounded by the number of nodes.
  for (int steps = static_cast<int>(nodes_.size()); node >= 0 && steps > 0; --steps) {
    node = balance(node);
    AabbTreeNode& n = nodes_[node];
    const AabbTreeNode& c0 = nodes_[n.child[0]];
    const AabbTreeNode& c1 = nodes_[n.child[1]];
    n.box = merged(c0.box, c1.box);
    n.height = 1 + std::max(c0.height, c1.height);
    node = n.parent;
  }
}

bool AabbTree::pairs(std::vector<IdPair>* out, std::int64_t maxPairs) {
  out->clear();
  const bool ok = (fatBuilt_ && 2 * moved_.size() <= static_cast<std::size_t>(count_)) ? updateFatPairs(maxPairs)
                                                                                        : buildFatPairs(maxPairs);
  for (int id : moved_) movedFlag_[id] = 0;
  moved_.clear();
  if (!ok) {
    fatBuilt_ = false;  // incomplete: the next call builds the set anew
    fatPairs_.clear();
    return false;
  }
  fatBuilt_ = true;
  for (std::uint64_t key : fatPairs_) {
    const int a = static_cast<int>(key >> 32), b = static_cast<int>(key & 0xffffffffu);
    if (!overlaps(boxOf_[a], boxOf_[b])) continue;
    if (static_cast<std::int64_t>(out->size()) >= maxPairs) {
      out->clear();
      return false;
    }
    out->push_back({a, b});
  }
  return true;
}

bool AabbTree::buildFatPairs(std::int64_t maxPairs) {
  fatPairs_.clear();
  if (root_ < 0) return true;
  // The tree against itself, depth first over node pairs: (n, n) stands for
  // the pairs inside n's subtree, (n, m) with n ≠ m for those between two
  // disjoint subtrees, which is dropped when their boxes miss each other.
  // Each pair of nodes is reached at most once (through the lowest common
  // ancestor of the two), so the loop ends after at most nodes² pops. An
  // entry splits into at most three, one side a level lower each, so the
  // stack (pairs of ints) holds O(height) entries.
  pairStack_.clear();
  pairStack_.push_back(root_);
  pairStack_.push_back(root_);
  while (!pairStack_.empty()) {
    const int m = pairStack_.back();
    pairStack_.pop_back();
    const int n = pairStack_.back();
    pairStack_.pop_back();
    const AabbTreeNode& a = nodes_[n];
    if (n == m) {
      if (a.leaf()) continue;
      const int c0 = a.child[0], c1 = a.child[1];
      pairStack_.insert(pairStack_.end(), {c0, c1, c1, c1, c0, c0});
      continue;
    }
    const AabbTreeNode& b = nodes_[m];
    if (!overlaps(a.box, b.box)) continue;
    if (a.leaf() && b.leaf()) {
      if (static_cast<std::int64_t>(fatPairs_.size()) >= maxPairs) return false;
      fatPairs_.push_back(fatKey(a.id, b.id));
      continue;
    }
    // Split the taller side (the one that is not a leaf).
    if (b.leaf() || (!a.leaf() && a.height >= b.height)) {
      pairStack_.insert(pairStack_.end(), {a.child[1], m, a.child[0], m});
    } else {
      pairStack_.insert(pairStack_.end(), {n, b.child[1], n, b.child[0]});
    }
  }
  std::sort(fatPairs_.begin(), fatPairs_.end());
  // updateFatPairs() copies the kept pairs out and merges them back: room for them.
  merged_.reserve(fatPairs_.capacity());
  return true;
}

bool AabbTree::updateFatPairs(std::int64_t maxPairs) {
  // Fat boxes change only when a leaf is (re)inserted. So a kept pair of two
  // leaves that did not move still overlaps; the pairs of a moved leaf are
  // all found again by a query with its new fat box (a pair of two moved
  // leaves twice, once from each); a removed body's pairs are dropped.
  merged_.clear();
  for (std::uint64_t key : fatPairs_) {
    const int a = static_cast<int>(key >> 32), b = static_cast<int>(key & 0xffffffffu);
    if (movedFlag_[a] || movedFlag_[b] || !contains(a) || !contains(b)) continue;
    merged_.push_back(key);
  }
  newPairs_.clear();
  bool full = false;
  for (int id : moved_) {
    if (!contains(id)) continue;
    query(fatBox(id), [&](int other) {
      if (other == id) return;
      // (newPairs_ holds a pair of two moved leaves twice: room for twice maxPairs.)
      if (static_cast<std::int64_t>(newPairs_.size()) / 2 >= maxPairs) full = true;
      else newPairs_.push_back(fatKey(id, other));
    });
    if (full) return false;
  }
  std::sort(newPairs_.begin(), newPairs_.end());
  newPairs_.erase(std::unique(newPairs_.begin(), newPairs_.end()), newPairs_.end());
  if (static_cast<std::int64_t>(merged_.size() + newPairs_.size()) > maxPairs) return false;
  fatPairs_.resize(merged_.size() + newPairs_.size());
  std::merge(merged_.begin(), merged_.end(), newPairs_.begin(), newPairs_.end(), fatPairs_.begin());
  return true;
}

bool AabbTree::checkInvariants() const {
  const int total = static_cast<int>(nodes_.size());
  // The free list: each free node once, marked free.
  int freeCount = 0;
  for (int f = freeList_; f >= 0; f = nodes_[f].parent) {
    if (f >= total || nodes_[f].height != -1 || ++freeCount > total) return false;
  }
  if (root_ < 0) return count_ == 0 && freeCount == total;
  if (nodes_[root_].parent != -1) return false;
  int used = 0, leaves = 0;
  for (int i = 0; i < total; ++i) {
    const AabbTreeNode& n = nodes_[i];
    if (n.height < 0) continue;
    ++used;
    if (n.leaf()) {
      ++leaves;
      if (n.height != 0 || !contains(n.id) || leafOf_[n.id] != i || !collidoscope::contains(n.box, boxOf_[n.id]))
        return false;
    } else {
      const AabbTreeNode& c0 = nodes_[n.child[0]];
      const AabbTreeNode& c1 = nodes_[n.child[1]];
      if (c0.parent != i || c1.parent != i || n.height != 1 + std::max(c0.height, c1.height)) return false;
      if (!collidoscope::contains(n.box, c0.box) || !collidoscope::contains(n.box, c1.box)) return false;
    }
    if (i != root_ && (n.parent < 0 || nodes_[n.parent].leaf())) return false;
  }
  return leaves == count_ && used == nodeCount() && used + freeCount == total;
}

}  // namespace collidoscope
