// collidoscope — the ray-traversal layout of a mesh's OBB tree: axis-aligned
// boxes in the mesh's frame, in single precision, two children side by side.
//
// Built once from the finished OBB tree (obbtree.h), bottom up in O(nodes):
// a leaf's box is the exact (double) bounding box of its triangles' corners,
// an inner node's the union of its children's, and each bound is then
// rounded OUTWARD to float (lows toward −∞, highs toward +∞). So every
// triangle corner lies in its leaf's box and every child's box in its
// parent's, exactly, whatever the coordinates' magnitude (beyond float's
// range a bound becomes ±∞ or ±FLT_MAX on the safe side).
//
// Subtrees of at most kRayLeafTriangles triangles become one leaf here (a
// range of the tree's triangle order; the OBB tree itself keeps its own
// leaves): a ray then tests a few triangles in a row instead of a box per
// triangle. Degenerate triangles (no normal) are left out of the ranges:
// no ray can hit them (mesh_raycast.h).
//
// Layout: inner nodes in the OBB tree's preorder, 56 bytes each: both
// children's boxes (lo then hi, x y z) and their references. A reference
// r ≥ 0 is an inner node; r < 0 is a leaf whose range of `triangles` is
// first = (~r) >> kRayLeafCountBits, count = (~r) & (2^kRayLeafCountBits − 1).
// The root's own box and reference are kept beside the nodes (a mesh of at
// most kRayLeafTriangles triangles has no inner node).
//
// Memory: fewer than n / 2 inner nodes for n triangles in leaves of ≥ 2
// (at most n − 1 in any case), plus one int per triangle: under 32 bytes
// per triangle.
#pragma once

#include <cstdint>
#include <vector>

#include "collidoscope/mesh.h"

namespace collidoscope {

struct ObbTree;

// Largest subtree collapsed into one ray leaf.
constexpr int kRayLeafTriangles = 4;
// Bits of a leaf reference for its triangle count (OBB leaves hold up to
// kObbTreeMaxLeafTriangles = 64 triangles).
constexpr int kRayLeafCountBits = 7;

struct RayNode {
  float box[2][6];  // child c: lo x y z, hi x y z (mesh frame, rounded outward)
  int child[2];     // ≥ 0: inner node index; < 0: ~(first << kRayLeafCountBits | count)
};

struct RayTree {
  std::vector<RayNode> nodes;  // inner nodes, preorder; a left inner child follows its parent
  std::vector<int> triangles;  // the tree's order without degenerate triangles; leaves own ranges
  float rootBox[6] = {0, 0, 0, 0, 0, 0};
  int root = 0;                // reference of the root (a leaf reference when nodes is empty)
  bool built = false;
};

inline bool rayLeaf(int ref) { return ref < 0; }
inline int rayLeafFirst(int ref) { return static_cast<int>(static_cast<unsigned>(~ref) >> kRayLeafCountBits); }
inline int rayLeafCount(int ref) { return (~ref) & ((1 << kRayLeafCountBits) - 1); }

// Fills *out from tree (buildObbTree's answer for m, its normals set).
void buildRayTree(const TriangleMesh& m, const ObbTree& tree, RayTree* out);

}  // namespace collidoscope
