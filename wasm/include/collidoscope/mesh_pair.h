// collidoscope — pair queries with a mesh shape (mesh_shape.h) in the
// library's pair conventions, whichever of A and B is the mesh: the scene
// runner and the object API both answer through here, so a scene and the
// API give the same bits.
//
// mesh_convex.h answers with the mesh first and the convex shape moving;
// these wrappers turn that into the answers the scene format defines for
// (A, B):
//   distance   pointA on A, pointB on B;
//   shapecast  both shapes move (translationA, translationB); the mesh
//              query runs in the frame moving with the mesh, where the
//              convex shape moves by the difference, and the points are
//              moved back by t times the mesh's translation; the normal
//              points from A to B;
//   contacts   normal = the direction to move B to separate it from A (the
//              penetration convention), pointA on A, pointB on B.
// When B is the mesh, points swap and normals flip.
#pragma once

#include "collidoscope/mesh_convex.h"
#include "collidoscope/mesh_mesh.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/point_query.h"
#include "collidoscope/raycast.h"
#include "collidoscope/scene.h"
#include "collidoscope/shapes.h"
#include "collidoscope/trace.h"

namespace collidoscope {

// True when the pair (a, b) has a mesh on one side and a shape that is not
// a mesh on the other.
inline bool isMeshConvexPair(const Shape& a, const Shape& b) {
  return (a.type == ShapeType::Mesh) != (b.type == ShapeType::Mesh);
}

// The mesh query's status in GJK's vocabulary (the intersect and distance
// results' status): a leaf that stopped inexact is a best estimate, as
// Degenerate is.
inline GjkStatus gjkStatusOf(MeshQueryStatus s) {
  switch (s) {
    case MeshQueryStatus::Converged: return GjkStatus::Converged;
    case MeshQueryStatus::MaxIterations: return GjkStatus::MaxIterations;
    case MeshQueryStatus::LeafInexact:
    case MeshQueryStatus::InvalidInput: break;
  }
  return GjkStatus::Degenerate;
}
// ... and in the casts' vocabulary (shapecast).
inline RayCastStatus castStatusOf(MeshQueryStatus s) {
  switch (s) {
    case MeshQueryStatus::Converged: return RayCastStatus::Converged;
    case MeshQueryStatus::MaxIterations: return RayCastStatus::MaxIterations;
    case MeshQueryStatus::LeafInexact: return RayCastStatus::Degenerate;
    case MeshQueryStatus::InvalidInput: break;
  }
  return RayCastStatus::InvalidInput;
}

// Shapes as posed (Shape::pose). A mesh pair query with invalid input (a
// non-finite pose reaching here, a negative margin) answers with status
// InvalidInput; callers check poses and margins first.
MeshIntersectResult meshPairIntersect(const Shape& a, const Shape& b, const MeshConvexSettings& settings = {});
MeshDistanceResult meshPairDistance(const Shape& a, const Shape& b, const MeshConvexSettings& settings = {});
MeshShapeCastResult meshPairShapeCast(const Shape& a, const Shape& b, const Vec3& translationA,
                                      const Vec3& translationB, const MeshConvexSettings& settings = {});
// Contacts into out[0 .. capacity), in (A, B) orientation.
MeshContactsResult meshPairContacts(const Shape& a, const Shape& b, double margin, MeshContact* out, int capacity,
                                    const MeshConvexSettings& settings = {});

// project on a mesh (or heightfield), posed: the point of its triangles
// nearest p (meshPairDistance with a point: branch and bound on the tree),
// the triangle (the smallest index among equally near) and p's foot in
// barycentric coordinates of it (u, v, w for its corners [i, j, k]). A
// mesh is a surface, not a solid: `inside` is false and `distance` the
// unsigned distance. The feature (point_query.h's rule, the tolerance
// times the mesh's bounding radius): a corner of the triangle (its mesh
// vertex index), an edge (its two, ascending) or 'face' with the
// triangle's three in its order. Allocates nothing once out's list holds 3.
struct MeshProjectResult : ProjectResult {
  int triangle = -1;
  Vec3 barycentric;
};
void projectOnMesh(const Shape& mesh, const Vec3& p, MeshProjectResult* out);

// meshPairContacts into the object API's flat arrays: header[0] the count
// written, header[1] truncated (0/1), header[2] box plus triangle tests;
// records gets one contact per batch_layout.h's kContactRecord (depth,
// normal, pointA, pointB, triangle). `scratch` holds at least `capacity`
// contacts (capacity 0: only the header, truncated when any was found).
void meshPairContactsInto(const Shape& a, const Shape& b, double margin, MeshContact* scratch, int capacity,
                          double* header, double* records);

// Two mesh shapes (both ShapeType::Mesh, posed): does a triangle of one
// touch or cross a triangle of the other (mesh_mesh.h, exact)? Stops at the
// first pair.
MeshMeshResult meshMeshIntersect(const Shape& a, const Shape& b);
inline GjkStatus gjkStatusOf(MeshMeshStatus s) {
  switch (s) {
    case MeshMeshStatus::Converged: return GjkStatus::Converged;
    case MeshMeshStatus::MaxIterations: return GjkStatus::MaxIterations;
    case MeshMeshStatus::InvalidInput: break;
  }
  return GjkStatus::Degenerate;
}

// Runs a scene whose query reads the mesh shapes[mesh] (mesh_scene.cpp):
// raycast (one traced frame), intersect, distance, shapecast and contacts
// against a convex shape, intersect against a mesh; other queries and the
// traces of the pair queries are refused naming the shape.
bool runMeshScene(const Scene& scene, int mesh, bool trace, std::string* json, SceneError* err);

// Runs an "obbtree" scene (mesh_scene.cpp, on obbtree_view.h): mesh A's
// tree, and with a shape B (a mesh or a convex shape, not a plane) the
// descent; refuses a shape A that is not a mesh and a plane B, naming them.
bool runObbTreeScene(const Scene& scene, bool trace, std::string* json, SceneError* err);

// Most contacts a scene's or a single call's "contacts" query returns; a
// query that finds more reports the first ones in tree order and says it
// was truncated. A capsule on a floor touches a handful of triangles; a
// shape lying in a dense mesh may touch thousands.
constexpr int kMaxMeshContacts = 4096;

}  // namespace collidoscope
