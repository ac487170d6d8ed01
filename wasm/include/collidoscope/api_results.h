// collidoscope — writing query results into the object API's flat layouts
// (batch_layout.h): shared by api.cpp and the mesh queries (mesh_api.cpp),
// which live in a file of their own so that the default package flavour,
// without meshes, links none of their code. Internal to the library's
// sources.
#pragma once

#include <limits>
#include <type_traits>

#include "collidoscope/api.h"
#include "collidoscope/batch_layout.h"
#include "collidoscope/closed_form.h"
#include "collidoscope/gjk.h"
#include "collidoscope/math.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/raycast.h"
#include "collidoscope/scene.h"

namespace collidoscope {
namespace api {

// The offset of a result field in out[] (batch_layout.h), a constant: a
// name the layout lacks does not compile.
#define AT(kind, name) (std::integral_constant<int, offsetOf(kind, name)>::value)

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A result's vector, written as the scenes' JSON writes it (ResultVec3 in
// schema.h): −0 as +0 (x + 0.0 changes nothing else). A zero coordinate's
// sign depends on the sums that reached it (a normal g.v / −|v| of a v with
// a +0 coordinate), so the object API and run() agree bit for bit only when
// both drop it.
inline void put(double* out, const Vec3& v) {
  out[0] = v.x + 0.0;
  out[1] = v.y + 0.0;
  out[2] = v.z + 0.0;
}

// An input or state vector handed back as it is (a cache's direction, a pose).
inline void putBits(double* out, const Vec3& v) {
  out[0] = v.x;
  out[1] = v.y;
  out[2] = v.z;
}

inline void putOrNaN(double* out, bool present, const Vec3& v) {
  if (present) put(out, v);
  else out[0] = out[1] = out[2] = kNaN;
}

inline Vec3 vec(const double* in) { return {in[0], in[1], in[2]}; }

// The results of the queries with closed forms, in their batch layouts.
inline void putResult(const IntersectResult& r, double* out) {
  constexpr int k = static_cast<int>(Kind::Intersect);
  out[AT(k, "intersecting")] = r.intersecting;
  out[AT(k, "iterations")] = r.iterations;
  out[AT(k, "status")] = static_cast<double>(r.status);
}
inline void putResult(const DistanceResult& r, double* out) {
  constexpr int k = static_cast<int>(Kind::Distance);
  out[AT(k, "distance")] = r.distance;
  put(out + AT(k, "pointA"), r.pointA);
  put(out + AT(k, "pointB"), r.pointB);
  out[AT(k, "iterations")] = r.iterations;
  out[AT(k, "status")] = static_cast<double>(r.status);
}

inline void putResult(const ProjectResult& r, double* out) {
  constexpr int k = static_cast<int>(Kind::Project);
  put(out + AT(k, "point"), r.point);
  out[AT(k, "distance")] = r.distance;
  out[AT(k, "inside")] = r.inside;
  out[AT(k, "iterations")] = r.iterations;
  out[AT(k, "status")] = static_cast<double>(r.status);
}

inline void putResult(const ShapeCastResult& r, double* out) {
  constexpr int k = static_cast<int>(Kind::Shapecast);
  out[AT(k, "hit")] = r.hit;
  out[AT(k, "t")] = r.hit ? r.t : kNaN;
  putOrNaN(out + AT(k, "normal"), r.hit && !r.initiallyOverlapping, r.normal);
  putOrNaN(out + AT(k, "pointA"), r.hit, r.pointA);
  putOrNaN(out + AT(k, "pointB"), r.hit, r.pointB);
  out[AT(k, "initiallyOverlapping")] = r.initiallyOverlapping;
  out[AT(k, "iterations")] = r.iterations;
  out[AT(k, "status")] = static_cast<double>(r.status);
}

// A query reading a mesh (mesh_api.cpp): the ray cast on shape A through
// its tree, intersect, distance and shapecast against a convex shape,
// intersect against a mesh; otherwise a refusal naming the shape (code
// unsupported-query). The hit's triangle and barycentric coordinates have
// no place in the ray cast's layout: they are kept in *meshHit
// (Registry::lastMeshHit(); a mesh–convex pair keeps its triangle there,
// hit when it names one), and written to features and barycentric when
// not null (Registry::batch()'s layouts; a pair's triangle at its mesh's
// side, 0 for A, 1 for B). project on a mesh keeps its whole answer in
// *project (Registry::lastFeature()) and its triangle in *meshHit too.
bool answerMesh(Kind kind, const Shape& a, const Shape* b, const double* extra, double* out, MeshRayHit* meshHit,
                int* features, double* barycentric, MeshProjectResult* project, SceneError* err);

// answerMesh's ray cast on mesh shape a placed at pose, the ray in extra
// (origin, direction, maxT): Registry::answerBatch() calls it directly for
// every ray on a mesh, with the pose of the batch normalized once per run of
// queries on one shape.
void answerMeshRay(const Shape& a, const Transform& pose, const double* extra, double* out, MeshRayHit* meshHit,
                   int* features, double* barycentric);

// The kinds with closed forms: intersect, distance, penetration, contact (api.cpp).
bool closedKind(Kind kind);

// A closed form's answer for shapes a and b at poses (closed_form.h) in
// kind's layout; false when the general query must answer (api.cpp).
bool closedAtPoses(Kind kind, ClosedForm form, const Shape& a, const Transform& poseA, const Shape& b,
                   const Transform& poseB, const double* extra, DistanceResult* scratch, double* out);

// A query with a compound on one side or both (compound_api.cpp): the
// child loop (compound.h) over registry.answerPiece(), a compound at its
// pose (its children posed in CompoundShape::posed: side A's in [0], B's
// in [1]), a shape that is not a compound given its pose here; the best
// result in out, and when features is not null the answering children in
// features[0..1] (−1 for a side that is not a compound, or when none
// answers). Refuses chungwang, sat and a mesh on the other side, naming the
// shape.
bool answerCompound(Kind kind, Shape& a, const Transform& poseA, Shape* b, const Transform& poseB, const double* extra,
                    double* out, int* features, Registry& registry, SceneError* err);

// Registry::contacts with a compound (in: its checked input, the poses and
// the margin): the contact query on every child pair whose bounding
// spheres come within the margin, a contact for each pair that has one (at
// most `capacity`), in Registry::contactsInto's layout (header, records).
// Against a mesh, each child's mesh contacts (mesh_pair.h) one after the
// other, through `scratch` (room for kMaxMeshContacts).
bool compoundContacts(Shape& a, Shape& b, const double* in, double* header, double* records, int capacity,
                      int* features, MeshContact* scratch, Registry& registry, SceneError* err);

}  // namespace api
}  // namespace collidoscope
