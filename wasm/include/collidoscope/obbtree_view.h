// collidoscope — the scene query "obbtree": a mesh's OBB tree as data, and
// the steps of a query through it, for the page's `obbtree` view.
//
// One mesh (shapes[0]): the tree's summary (nodes, depth, leaves, how each
// inner node was split). A pair (shapes[1] a mesh or a convex shape): the
// intersect answer with the work it took (node pairs, box tests, triangle
// tests) beside the seed's bounds (mesh_mesh.h seedTestBounds and
// pathVolumeTestBound).
//
// The trace: first the build, one frame per level of the tree (obbTreeLevels:
// each node's box in world coordinates, its split), then for a pair the
// descent's steps (meshesIntersect's MeshMeshEvent for a mesh B; for a
// convex B, meshBoxCandidates' events against B's box, each overlapping
// leaf followed by one step per triangle in it: the intersect query's leaf
// test of that triangle against B, meshConvexTriangleIntersect, and for a
// triangle it calls apart its distance, meshConvexTriangleDistance), then a
// last frame with the result. Every list is capped (kObbViewNodeCap nodes
// over all level frames, kObbViewStepCap steps); the result says what a
// cap left out.
//
// Every pair is run in All mode: the counts then follow the seed's test tree
// to the end (D − I + 2S + 2K = 1), and k, the number of intersecting pairs,
// is known for the bounds.
#pragma once

#include <cstdint>
#include <vector>

#include "collidoscope/mesh_mesh.h"
#include "collidoscope/obb.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

// Nodes shown over all level frames (the first levels, whole, up to the
// level that reaches the cap, which is shown cut and marked).
constexpr int kObbViewNodeCap = 511;
// Steps shown (one frame each: node pairs and triangle tests together).
constexpr int kObbViewStepCap = 2000;

enum class ObbViewMode : std::uint8_t {
  Tree,        // one mesh: its tree
  MeshMesh,    // two meshes: the simultaneous descent
  MeshConvex,  // a mesh and a convex shape: the descent against the shape's box
};
const char* obbViewModeName(ObbViewMode m);

enum class ObbViewFrameKind : std::uint8_t {
  Level,       // the nodes of one level of A's tree
  Step,        // one step of the descent (ObbViewFrame::event), or one triangle test
  Done,        // the answer
};
const char* obbViewFrameKindName(ObbViewFrameKind k);

// One node of a level frame, in world coordinates.
struct ObbViewNode {
  int node = 0;             // index in the tree's preorder
  int parent = -1;          // −1 for the root
  Obb box;                  // world
  ObbSplit split = ObbSplit::Leaf;
  int splitAxis = -1;       // inner nodes: the box axis split (0 … 2); leaves −1
  double splitOffset = 0;   // inner nodes: the split plane is {x : axes[splitAxis]·(x − center) = splitOffset}
  int triangles = 0;        // triangles under the node
};

struct ObbViewFrame {
  ObbViewFrameKind kind = ObbViewFrameKind::Level;
  // Level frames.
  int level = -1;
  std::vector<ObbViewNode> nodes;
  bool levelCut = false;  // the node cap left out nodes of this level
  // Step frames (and the Triangle event's leaves).
  MeshMeshEventKind event = MeshMeshEventKind::SphereApart;
  int nodeA = -1, nodeB = -1;  // nodeB −1: B is the convex shape's box (for a triangle test, A's leaf)
  Obb boxA, boxB;              // world
  int axis = -1;               // BoxApart: 0 … 14
  Vec3 axisDirection;          // BoxApart: unit, world (a zero vector for a degenerate edge pair)
  int triangleA = -1, triangleB = -1;  // Triangle events (triangleB −1 against a convex shape)
  bool hit = false;                    // Triangle events: touching or overlapping
  Vec3 cornersA[3], cornersB[3];       // Triangle events: world corners (cornersB: a mesh B's)
  int iterations = -1;                 // a convex B's triangle test: GJK's iterations; else −1
  bool firstHit = false;               // a convex B's triangle test: the first touching triangle, the
                                       // intersect query's answer
  double distance = -1;                // a convex B's triangle test, apart: the triangle's distance to B
  Vec3 pointA, pointB;                 // ... and the closest points, on the triangle and on B (world)
  bool intersecting = false;           // Done frame: the answer
  // Running counts, after this frame.
  long long nodePairs = 0, boxTests = 0, triangleTests = 0;
};

struct ObbViewResult {
  ObbViewMode mode = ObbViewMode::Tree;
  // A's tree.
  int triangles = 0, nodes = 0, depth = 0, leaves = 0, meanSplits = 0, medianSplits = 0;
  // Pairs.
  int trianglesB = 0;            // B's triangles (a convex shape: 1, its box)
  bool intersecting = false;
  int firstA = -1, firstB = -1;  // the first touching pair (firstB −1 for a convex B)
  long long contacts = 0;        // k: intersecting triangle pairs (a convex B: triangles touching it)
  long long nodePairs = 0, sphereApart = 0, boxTests = 0, boxApart = 0, overlapping = 0, triangleTests = 0;
  SeedTestBounds bounds;         // for nA·nB cells and k = max(contacts, 1)
  long long pathBound = -1;      // pathVolumeTestBound of the first pair's leaves; −1 when none touch
  // The caps.
  bool levelsTruncated = false, stepsTruncated = false;
  bool ok = true;                // false: a status other than Converged (invalid input, a corrupt tree)
};

// shapes[0] must be a mesh; b, if given, a mesh or a convex shape (not a
// plane), their OBB trees built (prepareMeshTree, mesh_shape.h: the scene
// runner's runObbTreeScene does it). frames (may be null) receives the trace.
ObbViewResult runObbView(const Shape& a, const Shape* b, std::vector<ObbViewFrame>* frames);

}  // namespace collidoscope
