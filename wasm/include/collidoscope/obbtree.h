// collidoscope — the OBB tree of a triangle mesh: a binary hierarchy of
// oriented bounding boxes, built once per mesh, top down.
//
// Reference: S. Gottschalk, M. C. Lin, D. Manocha, "OBBTree: a hierarchical
// structure for rapid interference detection", SIGGRAPH 1996 (the RAPID
// library), as derived in J. Rasku, "Törmäysten havaitseminen
// tietokoneanimaatiossa", master's thesis, University of Tampere, 2003,
// §6.1.2 (the box of a set of triangles from the covariance of their
// surface) and §6.3 (the top-down build).
//
// The build. A node holds a contiguous range of `order` (triangle indices).
// Its box is obb.h's surface-covariance fit of those triangles (as
// obbFromTriangles; the covariance summed from per-triangle moments by the
// parallel-axis theorem, see MomentSum in obbtree.cpp, its eigenvectors in
// closed form, symmetricEigenClosedForm): axes from the area-weighted
// surface covariance, extents from projecting every vertex of the range,
// so the box contains its triangles (to a few ulps of their extent). A
// node of one (non-degenerate) triangle takes the triangle's own frame
// instead: its longest edge, the in-plane perpendicular and its normal.
// That box has twice the triangle's area, the least any rectangle around a
// triangle can have, where the covariance axes of a lone triangle are not
// edge-aligned and give a larger one. A range of at most `leafTriangles`
// triangles is a leaf. Otherwise
// it is split along the box axis of largest half-extent (the thesis splits
// along the axis of largest variance; the longest side separates better
// when the two differ, and they coincide on elongated sets): triangles whose
// centroid projects below the mean of the projected centroids go left. When
// one side would be empty (every centroid at the mean), or when a side would
// need more levels than the depth cap leaves (below), the range is split at
// the median instead: in the order of (projected centroid, triangle index),
// the first ⌊n/2⌋ go left. The order of the triangles inside a leaf is
// unspecified. Either way both children are non-empty and smaller.
//
// Depth. Let L(n) be the levels of a median-split tree over n triangles
// (L(n) = 1 for n ≤ leafTriangles, else 1 + L(⌈n/2⌉)). Every node at depth d
// (root d = 1) keeps d − 1 + L(n) ≤ kObbTreeMaxDepth: a mean split is used
// only if both children keep it, and the median split always does
// (L(⌈n/2⌉) = L(n) − 1). The root keeps it since L(kMaxMeshTriangles) = 22.
// So the depth never exceeds kObbTreeMaxDepth, the build needs no recursion
// (an explicit stack of pending right siblings, at most one per level), and
// queries descend with a fixed-size stack: no allocation.
//
// Layout. Nodes are stored in preorder in one vector: an inner node's left
// child is the next node, its right child is at `right`. Leaves have
// count > 0. Every triangle lies in exactly one leaf.
//
// Cost: each level fits boxes over all n triangles once (O(n)), so the build
// is O(n log n) for balanced splits and at most O(n · kObbTreeMaxDepth).
// Each level reads and copies every triangle's moments once (two buffers in
// build order), projects its corners once and reads its centroid once, from
// copies of them made once in the order of a Morton curve through the
// centroids (so a level reads nearby memory whatever the input order); a
// node's moment sums come from its parent's partition. About 200 bytes per
// triangle while building.
#pragma once

#include <cstdint>
#include <vector>

#include "collidoscope/mesh.h"
#include "collidoscope/obb.h"
#include "collidoscope/obbtree_rays.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

// Deepest tree built (see "Depth" above). 48 leaves room for mean splits on
// very uneven meshes while bounding a query's stack at 48 entries.
constexpr int kObbTreeMaxDepth = 48;
// Default triangles per leaf: one, as in the thesis and RAPID (its bounds on
// the number of box tests assume one-triangle leaves).
constexpr int kObbTreeLeafTriangles = 1;
// Largest leaf size accepted in the settings.
constexpr int kObbTreeMaxLeafTriangles = 64;

enum class ObbSplit : std::uint8_t {
  Leaf,    // no split: count ≤ leafTriangles
  Mean,    // at the mean of the projected centroids
  Median,  // at the median (one side empty at the mean, or the depth cap)
};

// 144 bytes: the box (120), the split plane (12) and the range (8).
struct ObbTreeNode {
  Obb box;
  double splitValue = 0;       // inner nodes: the split plane is box.axes[splitAxis]·x = splitValue
  int first = 0;               // the node's triangles: order[first, first + count)
  int count = 0;               // triangles under the node (a leaf: ≤ leafTriangles)
  int right = -1;              // inner nodes: index of the right child (left is this + 1); −1 for a leaf
  std::uint8_t splitAxis = 0;  // inner nodes: which box axis was split (the longest)
  ObbSplit split = ObbSplit::Leaf;
  bool leaf() const { return right < 0; }
};

struct ObbTreeSettings {
  int leafTriangles = kObbTreeLeafTriangles;  // 1 … kObbTreeMaxLeafTriangles
};

// Two parts, built apart (a mesh shape builds the second on first need,
// mesh_shape.h): what ray casts read (normals, scale, rays), and the OBB
// hierarchy proper (nodes, order, depth), which every other query reads.
struct ObbTree {
  std::vector<ObbTreeNode> nodes;  // preorder, nodes[0] the root; empty until the hierarchy is built
  std::vector<int> order;          // triangle indices; each leaf owns a range
  std::vector<Vec3> normals;       // per triangle (mesh order): unit CCW normal, zero if degenerate
  int depth = 0;                   // levels (a lone root: 1), ≤ kObbTreeMaxDepth
  double scale = 0;                // largest |coordinate| of the mesh's vertices
  RayTree rays;                    // the ray casts' layout (obbtree_rays.h)
};

// Builds the tree of m: buildObbTreeForRays, then buildObbTreeNodes.
// Validates m first (validateMesh: errors name the field, e.g.
// "triangles[4][0]") and the settings ("leafTriangles"); on failure
// returns false and leaves *out empty.
bool buildObbTree(const TriangleMesh& m, const ObbTreeSettings& settings, ObbTree* out, ShapeError* err);

// The part of the tree that ray casts read: validates m (as buildObbTree)
// and fills out->normals, out->scale and out->rays, leaving nodes, order
// and depth empty. On failure returns false and leaves *out empty.
bool buildObbTreeForRays(const TriangleMesh& m, ObbTree* out, ShapeError* err);

// The hierarchy of a tree whose ray part buildObbTreeForRays built from
// the same m: fills tree->nodes, tree->order and tree->depth (settings
// valid: leafTriangles from 1 to kObbTreeMaxLeafTriangles), the same bit
// for bit as buildObbTree's (the build reads only m, the normals and the
// scale, and is deterministic). Peak memory: at most
// kObbTreeNodesPeakBytesPerTriangle per triangle.
void buildObbTreeNodes(const TriangleMesh& m, const ObbTreeSettings& settings, ObbTree* tree);

// buildObbTreeNodes' peak per triangle: the node reserve (2 nodes of 144
// bytes), the order (4), two buffers of triangle data (72), the corners
// (72), normals and centroids in build order (48), the spatial order (4)
// and the median split's scratch (16), with room to spare.
constexpr double kObbTreeNodesPeakBytesPerTriangle = 576;

}  // namespace collidoscope
