// collidoscope — do two triangle meshes intersect? A simultaneous descent of
// their OBB trees (obbtree.h), and the steps of that descent and of the
// tree build as data for the page's `obbtree` view.
//
// Reference: S. Gottschalk, M. C. Lin, D. Manocha, "OBBTree: a hierarchical
// structure for rapid interference detection", SIGGRAPH 1996 (the RAPID
// library), as derived in J. Rasku, "Törmäysten havaitseminen
// tietokoneanimaatiossa", master's thesis, University of Tampere, 2003,
// §7 (the query), §8 (the test tree, its invariant, the contact-pair matrix
// and the bounds on the number of tests), §9 (the frame-rate experiment).
//
// Semantics. Each mesh is placed by its pose (x_world = R x + p). Triangle a
// of A and triangle b of B intersect when trianglesIntersect (triangle.h:
// exact, touching counts) says so for their world corners pose.apply(v):
// the answer is the brute force over all pairs of world triangles, exactly.
//
// The descent (the seed's test tree). Everything runs in A's frame: the
// relative pose M = R_Aᵀ R_B, t = R_Aᵀ (p_B − p_A) is computed once, and a
// node box of B is taken into A's frame as (M c + t, M axes). A node pair
// (a, b) is tested by the layered volumes of the seed's §8.2: the sphere
// test first (obbSpheresApart), then the 15-axis test (obbSeparatingAxis),
// each with the slack below. Apart: the pair is done (a "D" test of §8.1).
// Overlapping (an "I" test): two leaves test their triangles pair by pair;
// otherwise the pair is replaced by the two pairs of the children of the
// larger node, where a leaf is never split and "larger" is the larger
// corner distance |halfExtents| (the radius of the sphere test, already at
// hand; a flat box has volume 0, so volume cannot compare leaf-level
// boxes), ties to A.
//
// Each node pair is reached at most once: from (root, root) the rule picks
// which side steps at every pair, so the path to (a, b) — an interleaving
// of a's and b's ancestor chains — is forced. So the node pairs visited
// never exceed |nodes A| · |nodes B|; a larger count can only come from a
// corrupt tree and stops the query (status MaxIterations).
//
// The stack. The query continues with the first child pair and keeps the
// second on a fixed stack. Every step goes one level down in A or in B, so
// the pair being tested lies at combined level ℓA + ℓB (root pair 0) and
// the stack holds at most one pending sibling per combined level above it:
// at most (depthA − 1) + (depthB − 1) ≤ 2·(kObbTreeMaxDepth − 1) entries.
// kMeshMeshStackSize covers it: no allocation, and the traced call alone
// appends to the caller's vector.
//
// Conservative culling. A tree's boxes contain their triangles to a few
// ulps of the mesh's scale; the world corners, the relative pose and the
// boxes in A's frame add roundings of a few ulps of the poses' positions
// and the scales. The slack kMeshMeshSlack·(scaleA + scaleB + |p_A|∞ +
// |p_B|∞) added to every test's radius sum is thousands of those ulps, so
// no pair whose world triangles touch is ever culled; the tests check the
// set of pairs against brute force.
//
// The counts satisfy the seed's invariant of a binary test tree (§8.1):
// with one-triangle leaves (the default), D − I + 2S + 2K = 1 after a
// complete (All) query, where D = volume tests that found the pair apart,
// I = those that found it overlapping, S and K = triangle tests that found
// the triangles apart or intersecting. (Each I either has two volume-test
// children or, for two leaves, one triangle test.)
#pragma once

#include <cstdint>
#include <vector>

#include "collidoscope/math.h"
#include "collidoscope/mesh.h"
#include "collidoscope/obb.h"
#include "collidoscope/obbtree.h"

namespace collidoscope {

// Relative slack of the volume tests (see "Conservative culling"): 1e-12 is
// about 4500 ulps of the scale, far above the tens of roundings involved and
// far below any gap a game would notice.
constexpr double kMeshMeshSlack = 1e-12;
// Pending node pairs (see "The stack").
constexpr int kMeshMeshStackSize = 2 * kObbTreeMaxDepth;
// Default cap on trace events (a traced query on two 1 000-triangle meshes
// that overlap over a large area emits tens of thousands).
constexpr int kMeshMeshTraceCap = 100000;

enum class MeshMeshMode : std::uint8_t {
  First,  // stop at the first intersecting triangle pair
  All,    // every intersecting pair (the contact-pair set of the seed's §8.4)
};

enum class MeshMeshStatus : std::uint8_t {
  Converged,      // the answer is final
  InvalidInput,   // a pose that is not finite or not a unit quaternion, or a tree not built from its mesh
  MaxIterations,  // more node pairs than |nodes A|·|nodes B| (a corrupt tree): the answer so far
};
const char* meshMeshStatusName(MeshMeshStatus s);

struct TrianglePair {
  int a = -1;  // triangle index in mesh A
  int b = -1;  // triangle index in mesh B
};

// One step of a traced query, in the order the query took them.
enum class MeshMeshEventKind : std::uint8_t {
  SphereApart,  // the node pair's spheres are apart (the pair is done)
  BoxApart,     // the spheres overlap, box axis `axis` separates the boxes (done)
  DescendA,     // the boxes overlap: continue with A's children (A's node is the larger)
  DescendB,     // the boxes overlap: continue with B's children
  Leaves,       // the boxes overlap and both nodes are leaves: their triangles are tested next
  Triangle,     // one triangle test: triangles triA, triB, result `hit`
};
const char* meshMeshEventKindName(MeshMeshEventKind k);

// The three families of the 15 axes of obbSeparatingAxis.
enum class ObbAxisKind : std::uint8_t {
  FaceA,     // axes 0–2: a_i
  FaceB,     // axes 3–5: b_j
  EdgePair,  // axes 6–14: a_i × b_j with axis = 6 + 3i + j
};
ObbAxisKind obbAxisKind(int axis);  // axis in 0 … 14
const char* obbAxisKindName(ObbAxisKind k);

struct MeshMeshEvent {
  MeshMeshEventKind kind = MeshMeshEventKind::SphereApart;
  int nodeA = -1, nodeB = -1;  // the node pair (tree node indices); for Triangle the two leaves
  int axis = -1;               // BoxApart: 0 … 14 (obbAxisKind tells its family); else −1
  int triA = -1, triB = -1;    // Triangle: the triangles tested; else −1
  bool hit = false;            // Triangle: whether they intersect
};

struct MeshMeshSettings {
  MeshMeshMode mode = MeshMeshMode::First;
  // All mode: intersecting pairs are written here, up to pairCapacity; the
  // query still finds and counts every pair beyond it (result.truncated).
  TrianglePair* pairs = nullptr;
  int pairCapacity = 0;
  // Traced call: steps appended here (not cleared first), at most traceCap.
  std::vector<MeshMeshEvent>* trace = nullptr;
  int traceCap = kMeshMeshTraceCap;
};

struct MeshMeshResult {
  bool intersecting = false;
  TrianglePair first;          // the first intersecting pair found (descent order); −1 if none
  long long pairCount = 0;     // intersecting pairs found (All: every one; First: 0 or 1)
  bool truncated = false;      // All: pairCount > pairCapacity (only the first pairCapacity were written)
  bool traceTruncated = false; // the trace reached traceCap and stopped recording
  MeshMeshStatus status = MeshMeshStatus::Converged;
  // Work done (the seed's D, I, S, K of §8.1):
  long long nodePairs = 0;       // node pairs tested = sphereTests = D + I
  long long sphereTests = 0;
  long long sphereApart = 0;     // pairs the sphere test found apart
  long long boxTests = 0;        // pairs that reached the 15-axis test
  long long boxApart = 0;        // pairs the 15-axis test found apart
  long long overlapping = 0;     // I: pairs found overlapping (descended or leaves)
  long long triangleTests = 0;   // S + K
  long long apart() const { return sphereApart + boxApart; }  // D
};

// The query. treeA must be buildObbTree's answer for meshA, treeB for meshB.
MeshMeshResult meshesIntersect(const TriangleMesh& meshA, const ObbTree& treeA, const Transform& poseA,
                               const TriangleMesh& meshB, const ObbTree& treeB, const Transform& poseB,
                               const MeshMeshSettings& settings = {});

// ---- A box against one tree (the mesh–convex view) ----------------------
//
// The broad part of a mesh–convex query, traced like the mesh–mesh descent:
// a box (a convex shape's OBB, in world coordinates) against the mesh's
// tree, sphere test then 15-axis test per node (A = the tree's node, B = the
// box: axes 0–2 the node's faces, 3–5 the box's), descending into both
// children of every overlapping inner node. The triangles of the
// overlapping leaves are the candidates a narrow phase (mesh_convex) tests
// against the shape; every triangle that meets the box is among them (the
// same conservative slack as above). Events: SphereApart, BoxApart,
// DescendA, Leaves, with nodeB = −1. The stack holds one pending right
// child per level: at most kObbTreeMaxDepth − 1.
struct MeshBoxSettings {
  int* candidates = nullptr;  // triangle indices written here, up to capacity
  int capacity = 0;
  std::vector<MeshMeshEvent>* trace = nullptr;  // traced call: appended, at most traceCap
  int traceCap = kMeshMeshTraceCap;
};

struct MeshBoxResult {
  long long candidateCount = 0;  // triangles in overlapping leaves (all of them, even beyond capacity)
  bool truncated = false;        // candidateCount > capacity
  bool traceTruncated = false;
  MeshMeshStatus status = MeshMeshStatus::Converged;
  long long nodes = 0;           // nodes tested = sphere tests
  long long sphereApart = 0;
  long long boxTests = 0;
  long long boxApart = 0;
  long long overlapping = 0;
};

MeshBoxResult meshBoxCandidates(const TriangleMesh& mesh, const ObbTree& tree, const Transform& pose,
                                const Obb& worldBox, const MeshBoxSettings& settings = {});

// ---- The seed's bounds (§8.7–8.9) ---------------------------------------
//
// Count volume tests (node pairs tested, D + I) against a hypothetical ideal
// volume, one that is apart exactly when no primitive pair under it
// intersects; no real volume does fewer tests. For two perfectly balanced
// trees of n = 2^m one-primitive leaves and k intersecting pairs among the
// n² cells of the contact-pair matrix, every test splits a block of the
// matrix in two (the pair's two child pairs):
//   * one contact (§8.7): log₂ n² splits isolate its cell, each costing two
//     tests, plus the root test: 2·log₂ n² + 1;
//   * k contacts, lower bound (§8.8): the k cells in one block, isolated by
//     log₂(n²/k) splits, then k − 1 splits to separate them:
//     2·log₂(n²/k) + 2k − 1;
//   * upper bound (§8.9): each contact in its own block, k − 1 splits to
//     isolate the blocks and log₂(n²/k) splits inside each:
//     2k·log₂(n²/k) + 2k − 1.
// For meshes of nA and nB triangles the matrix has nA·nB cells: n² below is
// nA·nB. These hold for balanced ideal trees; real trees are neither (OBBs
// overlap without contacts, mean splits unbalance the tree), so they are
// yardsticks, not limits. The exact lower bound for given trees and ONE
// contact is pathVolumeTestBound.
struct SeedTestBounds {
  double singleContact = 0;  // 2·log₂(nA·nB) + 1
  double lower = 0;          // 2·log₂(nA·nB/k) + 2k − 1   (k ≥ 1)
  double upper = 0;          // 2k·log₂(nA·nB/k) + 2k − 1  (k ≥ 1)
};
SeedTestBounds seedTestBounds(long long trianglesA, long long trianglesB, long long contacts);

// One contact in leaves at levels ℓA and ℓB (root level 0): every pair on the
// path from (root, root) down to the two leaves is tested (ℓA + ℓB + 1
// pairs, all overlapping), and so is the sibling pair of each step down
// (ℓA + ℓB, apart for an ideal volume): 2·(ℓA + ℓB) + 1 volume tests, the
// seed's 2·log₂ n² + 1 when ℓA = ℓB = log₂ n. Any volume tests at least these.
long long pathVolumeTestBound(int leafLevelA, int leafLevelB);

// Level (root 0) of the leaf that holds triangle t, or −1 if none does.
int obbTreeLeafLevel(const ObbTree& tree, int triangle);

// ---- The build, level by level (for the page) ---------------------------

struct ObbBuildEvent {
  int node = 0;     // index in tree.nodes
  int level = 0;    // root 0
  int parent = -1;  // −1 for the root
  Obb box;          // in the mesh's frame
  ObbSplit split = ObbSplit::Leaf;
  int splitAxis = -1;       // inner nodes: which box axis (0 … 2); leaves −1
  double splitValue = 0;    // inner nodes: the plane box.axes[splitAxis]·x = splitValue
  int first = 0, count = 0; // the node's triangles: tree.order[first, first + count)
};
const char* obbSplitName(ObbSplit s);

// The nodes of a built tree in level order (the root, then level 1 left to
// right, …), at most cap of them; *truncated (if non-null) tells whether
// nodes were left out. The tree's own preorder is unchanged.
std::vector<ObbBuildEvent> obbTreeLevels(const ObbTree& tree, int cap, bool* truncated);

}  // namespace collidoscope
