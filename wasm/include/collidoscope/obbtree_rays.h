// collidoscope — the ray-traversal layout of a mesh, built with its OBB
// tree: a binary hierarchy of axis-aligned boxes in the mesh's frame, in
// single precision, two children side by side.
//
// Why not the OBB tree itself: a ray–OBB test takes the ray into the box's
// frame (two projections per axis) and a node's box is 120 bytes; a slab
// test on an axis-aligned box needs the ray's inverse direction, computed
// once per ray, and 24 bytes. Built over the OBB tree's own splits, those
// boxes bound the tree's oriented clusters loosely; so the layout has its
// own splits, chosen for axis-aligned boxes.
//
// The build. Each non-degenerate triangle's box is the exact bounding box
// of its corners with every bound rounded OUTWARD to float (lows toward −∞,
// highs toward +∞); a node's box is the union of its triangles' boxes, so
// every triangle corner lies in its leaf's box and every child's box in its
// parent's, exactly, whatever the coordinates' magnitude (beyond float's
// range a bound becomes ±∞ or ±FLT_MAX, on the safe side). A range is split
// along the axis where the triangles' box centres spread most, by the
// binned surface-area heuristic (I. Wald, "On fast construction of
// SAH-based bounding volume hierarchies", IEEE Symposium on Interactive Ray
// Tracing 2007): 16 bins over the centres' extent (a centre's bin found in
// floats), the cut between bins that minimises area(left)·count(left) +
// area(right)·count(right). A range of at most kRayLeafTriangles stays one
// leaf unless that cost, plus the inner node's own (kInnerCost in
// obbtree_rays.cpp, per area), is below count·area (testing them all); a
// range of at most kInnerCost triangles, where it never is, is one leaf
// without binning. The
// partition is stable, so the layout is the same on every platform. When
// every centre falls in one bin, or a side would need more levels than the
// depth cap leaves, the range is split in halves by (centre, triangle
// index) instead, as the OBB tree does (obbtree.h "Depth"): the depth
// stays ≤ kObbTreeMaxDepth and queries use a fixed stack. Degenerate
// triangles (no normal) are left out: no ray can hit them (mesh_raycast.h).
// Cost: O(n log n), one pass over the range's triangles per level for the
// bounds, one for the bins and one for the partition, which writes the
// range into a second buffer where the children read it (no copy back;
// 81 bytes per triangle while building: each triangle's box and centre in
// two buffers, its bin). Bounds are kept as the floats' bits read as
// integers ordered as the floats are, so that their unions are integer
// minima and maxima (with float ones, V8 took twice the native time on a
// triangle soup, as if each were a mispredicted branch). The leaves write
// the triangle order; then, the buffers freed, the corners are copied once
// in mesh order, each triangle's to its place in leaf order (4 bytes a
// triangle for the places; writes wait on no cache miss, where reading
// the vertices in leaf order waited on one per corner), checked to be
// floats on the way.
//
// Layout: inner nodes in preorder (a left inner child follows its parent),
// 64 bytes each (56 used): both children's boxes (lo then hi, x y z) and their
// references. A reference r ≥ 0 is an inner node; r < 0 is a leaf whose
// range of `triangles` is first = (~r) >> kRayLeafCountBits,
// count = (~r) & (2^kRayLeafCountBits − 1). The root's own box and
// reference are kept beside the nodes (a mesh of at most kRayLeafTriangles
// triangles has no inner node).
//
// Leaf ranges index `triangles` and the corners alike: a leaf's corners are
// 3·count points side by side (the mesh's vertices, copied in leaf order),
// so a ray's triangle tests read contiguous memory instead of gathering
// vertices through the indices (on meshes larger than the cache, those
// gathers, not the tests, took most of a ray's time). When every corner is
// exactly a float (a mesh read from a Float32Array, or of small integers)
// they are kept as floats, 36 bytes a triangle instead of 72: widening
// gives back the same doubles, so the ray tests are unchanged, and a leaf
// spans half the cache lines.
//
// Memory: at most n − 1 inner nodes for n triangles (about n / 4 in
// practice), one int and 72 bytes of corners per triangle (36 in floats):
// under 140 bytes per triangle, about 90 in practice (about 55 in floats).
#pragma once

#include <cstdint>
#include <vector>

#include "collidoscope/mesh.h"

namespace collidoscope {

struct ObbTree;

// Most triangles in one leaf of the layout (whatever the OBB tree's leaves).
constexpr int kRayLeafTriangles = 7;
// Bits of a leaf reference for its triangle count.
constexpr int kRayLeafCountBits = 3;
// A double of magnitude at least this is a multiple of 2^-298 (its last
// bit is worth at least 2^-246 · 2^-52): so where neither a corner
// coordinate nor the ray origin's is non-zero below it, the corner relative
// to the origin is 0 or at least 2^-298 in magnitude, and the ray–triangle
// test never needs its scaled path for that corner (mesh_raycast.h).
constexpr double kRayTinyCoordinate = 0x1p-246;

// One cache line per node (aligned to 64 bytes): a descent reads each
// node it visits with one memory access, where 56-byte nodes would straddle
// two lines at most offsets.
struct alignas(64) RayNode {
  float box[2][6];  // child c: lo x y z, hi x y z (mesh frame, rounded outward)
  int child[2];     // ≥ 0: inner node index; < 0: ~(first << kRayLeafCountBits | count)
};

struct RayTree {
  std::vector<RayNode> nodes;  // inner nodes, preorder; a left inner child follows its parent
  std::vector<int> triangles;  // the non-degenerate triangles in leaf order; leaves own ranges
  // Their corners, 3 per entry of triangles (the mesh's vertices, copied):
  // in floats (x y z, 9 floats per triangle) when every one of them is
  // exactly a float, as in a mesh read from a Float32Array, else in doubles.
  std::vector<float> floatCorners;
  std::vector<Vec3> corners;
  float rootBox[6] = {0, 0, 0, 0, 0, 0};
  int root = 0;                // reference of the root (a leaf reference when nodes is empty)
  // Some corner coordinate is non-zero below kRayTinyCoordinate: the ray
  // tests check corners for the scaled path (mesh_raycast.h).
  bool tinyCorners = false;
  bool built = false;
};

inline bool rayLeaf(int ref) { return ref < 0; }
inline int rayLeafFirst(int ref) { return static_cast<int>(static_cast<unsigned>(~ref) >> kRayLeafCountBits); }
inline int rayLeafCount(int ref) { return (~ref) & ((1 << kRayLeafCountBits) - 1); }

// Fills *out for m; tree is buildObbTree's for m (its normals set: they
// name the degenerate triangles).
void buildRayTree(const TriangleMesh& m, const ObbTree& tree, RayTree* out);

}  // namespace collidoscope
