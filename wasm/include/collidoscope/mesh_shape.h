// collidoscope — the scene format's "mesh" shape: a triangle mesh (mesh.h)
// with its OBB tree (obbtree.h) and its validation report, built once and
// shared, immutable, by every copy of the Shape that holds it.
//
// What is built when. Making the shape (makeMeshShape, and so the scene
// parser, heightfields and a baked scale) validates the mesh and builds
// what ray casts read: the triangles' normals, the scale and the ray
// layout (obbtree_rays.h), about a quarter of the full build's time. The
// OBB hierarchy proper (nodes, order, depth), which every other query
// reads, is built once, the first time an entry point needs it
// (prepareMeshTree: the object API's queries and batches other than ray
// casts, the scene runner, the obbtree view, a world's add), and kept; the
// degenerate/duplicate report likewise on its first read. A level that is
// only ray cast never pays for its OBB tree. Both builds run under a
// std::call_once, so the record stays safe to read from several threads
// (the natives' case; the wasm build has one). The query algorithms
// (mesh_convex.h, mesh_mesh.h) never build: they are handed a built tree,
// and allocate nothing.
//
// The record is in the shape's local frame; the shape's pose places it. A
// mesh is a surface with no thickness: its shape takes no margin (a margin
// would make it a swept volume, which no mesh query computes yet), so
// validateShape refuses one on a mesh, naming "margin".
//
// Queries. A mesh answers "raycast" (mesh_raycast.h: closest hit with the
// triangle and its barycentric coordinates), and "hull"/"obb" of its
// vertices. Every other query that reads a mesh is refused with
// kMeshUnsupportedCode by the scene runner and the object API, never run on
// its support mapping (the support of a non-convex mesh is that of its
// hull, which would answer a different question).
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "collidoscope/json.h"
#include "collidoscope/mesh.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/obbtree.h"
#include "collidoscope/raycast.h"
#include "collidoscope/scene.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

struct Heightfield;  // heightfield.h

class MeshShape {
 public:
  TriangleMesh mesh;
  // The grid when the mesh is a heightfield's cells (makeHeightfieldShape):
  // the writers write the shape back as that heightfield. Null for a mesh.
  std::shared_ptr<const Heightfield> heightfield;

  // The tree as ray casts read it (rayCastMesh): normals, scale and ray
  // layout, always built; its nodes, order and depth only once treeBuilt().
  const ObbTree& forRays() const { return tree_; }
  // Whether the OBB hierarchy is built.
  bool treeBuilt() const { return treeBuilt_.load(std::memory_order_acquire); }
  // The built tree, for the queries. Their entry points build it first
  // (prepareMeshTree, which checks the heap's room): a debug build asserts
  // that one did; a release build then builds it here, late but right, and
  // counts it (meshTreeLateBuilds).
  const ObbTree& tree() const;
  // Builds the hierarchy if it is not built (once, whatever the threads)
  // and returns the tree. No heap check: prepareMeshTree is the checked way.
  const ObbTree& buildTree() const;
  // The degenerate and duplicate triangles, found on the first read.
  const MeshReport& report() const;

  // The ray part of a tree built from mesh (buildObbTreeForRays).
  void setRayTree(ObbTree t) { tree_ = std::move(t); }

 private:
  mutable ObbTree tree_;
  mutable MeshReport report_;
  mutable std::once_flag treeOnce_, reportOnce_;
  mutable std::atomic<bool> treeBuilt_{false};
};

// Builds the OBB hierarchy of mesh shape s if it is not built yet, after
// checking that the heap has room for the build (heap_room.h). False when
// it has not: *err is an out-of-memory error naming `field` (the mesh, e.g.
// "shapes[2]"), and nothing changed. True at once for a shape that is not
// a mesh, or whose tree is built. (The default flavour, which has no
// meshes, links a stand-in that returns true: wasm/flavours/no_meshes.cpp.)
bool prepareMeshTree(const Shape& s, const std::string& field, SceneError* err);

// How many trees tree() built late (a query reached one that no entry point
// prepared): 0 when every entry point prepares. For the tests.
long meshTreeLateBuilds();

// The report of mesh shape s (built on first read), after checking that
// the heap has room for finding it when it is not found yet; false and an
// out-of-memory error naming `field` when it has not.
bool prepareMeshReport(const Shape& s, const std::string& field, SceneError* err);

// Validates m (validateMesh: errors name "vertices[i][k]", "triangles[t][k]",
// ...), builds the ray part of its tree (buildObbTreeForRays; the OBB
// hierarchy and the report wait for their first need, above), and makes
// *out a mesh shape holding them (identity pose, no margin). The heap is
// checked for the full build's peak (meshPeakBytes), so that the deferred
// builds normally find room later. On failure *out is unchanged and *err
// says why.
bool makeMeshShape(TriangleMesh m, Shape* out, ShapeError* err);

// The object API's scale of a mesh made by makeMeshFromArrays: checked
// ("invalid-argument" naming "scale"), then baked in (bakeScale), with
// room for the second build checked first (scaledMeshHasRoom).
bool scaleMeshShape(Shape* s, const Vec3& scale, SceneError* err);

// bakeScale() of a mesh shape: its vertices scaled, its tree built again;
// a mirror (an odd number of negative components) reverses every
// triangle's winding so that CCW stays outward. False, s unchanged, when
// the scaled mesh is not a valid mesh. (Mesh code, which the default
// flavour leaves out: wasm/flavours/no_meshes.cpp.)
bool bakeMeshScale(Shape* s);

// Whether the heap holds a second build of mesh shape s, which bakeScale
// makes when s is scaled (true when it is not); when it does not, *err is
// an out-of-memory error naming prefix + "scale" (heap_room.h).
bool scaledMeshHasRoom(const Shape& s, const std::string& prefix, SceneError* err);

// The element type of a flat array that the object API's mesh() copied
// into wasm memory as it was: a typed array's own bytes (one copy, no
// conversion in JavaScript), a number[] as doubles. The values match
// web/lib/objects.ts (MESH_ARRAY_TYPES).
enum class MeshArrayType : int { Float64 = 0, Float32 = 1, Uint32 = 2, Uint16 = 3, Int32 = 4 };

// A flat array in memory: `count` numbers (not triples) of MeshArrayType
// `type`, as the wasm boundary passes them (checked by makeMeshFromArrays).
struct MeshArray {
  const void* data = nullptr;
  double count = 0;
  int type = 0;
};

// A mesh from flat arrays (the object API): vertices x0, y0, z0, x1, …
// and indices i0, j0, k0, … of any MeshArrayType. Vertices are widened to
// doubles (exactly: every float32 and every 32-bit integer is a double).
// Indices of an integer type are checked as integers; of a float type, as
// doubles (whole, not negative), the same sentences either way. Errors
// ("invalid-argument") name "vertices", "triangles" or the element
// ("triangles[4][1]"): first the lengths (more than the limits, not a
// multiple of 3) before anything is read, then the indices in index order,
// then validateMesh's (makeMeshShape).
bool makeMeshFromArrays(const MeshArray& vertices, const MeshArray& indices, Shape* out, SceneError* err);

// The shape's sizes and report as JSON: {"vertexCount", "triangleCount",
// "degenerate", "duplicates", "warnings"}.
void writeMeshInfo(JsonWriter& w, const MeshShape& m);

// A mesh ray cast's status as the ray cast's (raycast.h), so the
// "raycast" query reports one status vocabulary whatever shape A is.
inline RayCastStatus rayCastStatusOf(MeshRayStatus s) {
  switch (s) {
    case MeshRayStatus::Converged: return RayCastStatus::Converged;
    case MeshRayStatus::InvalidInput: return RayCastStatus::InvalidInput;
    case MeshRayStatus::MaxIterations: return RayCastStatus::MaxIterations;
  }
  return RayCastStatus::InvalidInput;
}

// The one frame of a mesh ray cast's trace (the scene runner's trace of
// "raycast" on a mesh): the answer, the hit triangle's corners in world
// space (for drawing) and the work the tree saved. A step-by-step trace of
// the tree descent is not recorded yet.
struct MeshRayFrame {
  bool hit = false;
  int triangle = -1;
  std::array<Vec3, 3> vertices{};  // world space, the triangle's index order; meaningful when hit
  int boxTests = 0;
  int triangleTests = 0;
  int triangleCount = 0;  // the mesh's, for the comparison with brute force
};

// Error code of a query a mesh does not take (yet).
constexpr const char* kMeshUnsupportedCode = "unsupported-query";

// The message refusing `query` on a mesh: names what a mesh takes.
inline std::string meshUnsupportedMessage(const char* query) {
  if (std::string(query) == "contains")
    return "a mesh is a surface, not a solid: it contains no point (project gives the nearest point of its "
           "surface and the distance to it)";
  return std::string("a mesh takes raycast, project, intersect, distance, shapecast and contacts (against a convex "
                     "shape; intersect also against a mesh), hull and obb; query \"") +
         query + "\" on a mesh is not available";
}

// The report as sentences, one per degenerate or duplicate triangle, each
// starting with its field relative to the shape ("triangles[4]: ..."),
// at most `limit` of them followed by a count of the rest.
std::vector<std::string> meshWarnings(const MeshReport& report, std::size_t limit);
// The same of a mesh shape's report (found on this first read if not yet).
std::vector<std::string> meshWarnings(const MeshShape& m, std::size_t limit);

}  // namespace collidoscope
