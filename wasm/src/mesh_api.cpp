// collidoscope — the object API's queries on mesh shapes (api_results.h):
// in a file of its own so that the default package flavour, which has no
// meshes (wasm/flavours/no_meshes.cpp), links none of it.
#include <string>

#include "collidoscope/api_results.h"
#include "collidoscope/mesh_pair.h"
#include "collidoscope/mesh_shape.h"

namespace collidoscope {
namespace api {

namespace {

bool refuse(SceneError* err, const std::string& field, const std::string& message) {
  *err = {kMeshUnsupportedCode, field, message};
  return false;
}

// Intersect, distance and shapecast between a mesh and a convex shape
// (mesh_pair.h), into the pair queries' layouts; false for the queries a
// mesh pair does not take.
bool answerMeshPair(Kind kind, const Shape& a, const Shape& b, const double* extra, double* out) {
  switch (kind) {
    case Kind::Intersect: {
      const MeshIntersectResult m = meshPairIntersect(a, b);
      IntersectResult r;
      r.intersecting = m.intersecting;
      r.iterations = m.boxTests + m.triangleTests;
      r.status = gjkStatusOf(m.status);
      putResult(r, out);
      return true;
    }
    case Kind::Distance: {
      const MeshDistanceResult m = meshPairDistance(a, b);
      DistanceResult r;
      r.distance = m.distance;
      r.pointA = m.pointA;
      r.pointB = m.pointB;
      r.iterations = m.boxTests + m.triangleTests;
      r.status = gjkStatusOf(m.status);
      putResult(r, out);
      return true;
    }
    case Kind::Shapecast: {
      const MeshShapeCastResult r = meshPairShapeCast(a, b, vec(extra), vec(extra + 3));
      constexpr int k = static_cast<int>(Kind::Shapecast);
      out[AT(k, "hit")] = r.hit;
      out[AT(k, "t")] = r.hit ? r.t : kNaN;
      putOrNaN(out + AT(k, "normal"), r.hit && !r.initiallyOverlapping, r.normal);
      putOrNaN(out + AT(k, "pointA"), r.hit, r.pointA);
      putOrNaN(out + AT(k, "pointB"), r.hit, r.pointB);
      out[AT(k, "initiallyOverlapping")] = r.initiallyOverlapping;
      out[AT(k, "iterations")] = r.boxTests + r.triangleTests;
      out[AT(k, "status")] = static_cast<double>(castStatusOf(r.status));
      return true;
    }
    default: return false;
  }
}

}  // namespace

bool answerMesh(Kind kind, const Shape& a, const Shape* b, const double* extra, double* out, MeshRayHit* meshHit,
                SceneError* err) {
  if (kind == Kind::Raycast && a.type == ShapeType::Mesh) {
    const MeshShape& m = *a.meshData;
    const MeshRayHit r =
        rayCastMesh(m.mesh, m.tree, a.pose, vec(extra), vec(extra + 3), extra[6], MeshRayMode::Closest);
    constexpr int k = static_cast<int>(Kind::Raycast);
    out[AT(k, "hit")] = r.hit;
    out[AT(k, "t")] = r.hit ? r.t : kNaN;
    putOrNaN(out + AT(k, "point"), r.hit, r.point);
    putOrNaN(out + AT(k, "normal"), r.hit, r.normal);
    out[AT(k, "startedInside")] = 0;
    out[AT(k, "iterations")] = r.boxTests + r.triangleTests;
    out[AT(k, "status")] = static_cast<double>(rayCastStatusOf(r.status));
    *meshHit = r;
    return true;
  }
  const char* field = a.type == ShapeType::Mesh ? (isSingleShape(kind) ? "shape.type" : "a.type") : "b.type";
  if (b != nullptr && isMeshConvexPair(a, *b) && answerMeshPair(kind, a, *b, extra, out)) return true;
  if (b != nullptr && a.type == ShapeType::Mesh && b->type == ShapeType::Mesh && kind == Kind::Intersect) {
    const MeshMeshResult m = meshMeshIntersect(a, *b);
    IntersectResult r;
    r.intersecting = m.intersecting;
    r.iterations = static_cast<int>(m.nodePairs + m.triangleTests);
    r.status = gjkStatusOf(m.status);
    putResult(r, out);
    return true;
  }
  if (b != nullptr && a.type == ShapeType::Mesh && b->type == ShapeType::Mesh &&
      (kind == Kind::Distance || kind == Kind::Shapecast))
    return refuse(err, "b.type",
                std::string("query \"") + kindName(kind) + "\" between two meshes is not available yet");
  return refuse(err, field, meshUnsupportedMessage(kindName(kind)));
}

}  // namespace api
}  // namespace collidoscope
