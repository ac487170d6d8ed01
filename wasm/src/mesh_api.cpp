// collidoscope — the object API's queries on mesh shapes (api_results.h):
// in a file of its own so that the default package flavour, which has no
// meshes (wasm/flavours/no_meshes.cpp), links none of it.
#include <algorithm>
#include <cmath>
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
// (mesh_pair.h), into the pair queries' layouts, and the answering
// triangle into *triangle; false for the queries a mesh pair does not take.
bool answerMeshPair(Kind kind, const Shape& a, const Shape& b, const double* extra, double* out, int* triangle) {
  switch (kind) {
    case Kind::Intersect: {
      const MeshIntersectResult m = meshPairIntersect(a, b);
      *triangle = m.triangle;
      IntersectResult r;
      r.intersecting = m.intersecting;
      r.iterations = m.boxTests + m.triangleTests;
      r.status = gjkStatusOf(m.status);
      putResult(r, out);
      return true;
    }
    case Kind::Distance: {
      const MeshDistanceResult m = meshPairDistance(a, b);
      *triangle = m.triangle;
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
      const MeshShapeCastResult m = meshPairShapeCast(a, b, vec(extra), vec(extra + 3));
      *triangle = m.hit ? m.triangle : -1;
      ShapeCastResult r;
      r.hit = m.hit;
      r.t = m.t;
      r.normal = m.normal;
      r.pointA = m.pointA;
      r.pointB = m.pointB;
      r.initiallyOverlapping = m.initiallyOverlapping;
      r.iterations = m.boxTests + m.triangleTests;
      r.status = castStatusOf(m.status);
      putResult(r, out);
      return true;
    }
    default: return false;
  }
}

}  // namespace

void answerMeshRay(const Shape& a, const Transform& pose, const double* extra, double* out, MeshRayHit* meshHit,
                   int* features, double* barycentric) {
  const MeshShape& m = *a.meshData;
  const MeshRayHit r = rayCastMesh(m.mesh, m.forRays(), pose, vec(extra), vec(extra + 3), extra[6], MeshRayMode::Closest);
  constexpr int k = static_cast<int>(Kind::Raycast);
  out[AT(k, "hit")] = r.hit;
  out[AT(k, "t")] = r.hit ? r.t : kNaN;
  putOrNaN(out + AT(k, "point"), r.hit, r.point);
  putOrNaN(out + AT(k, "normal"), r.hit, r.normal);
  out[AT(k, "startedInside")] = 0;
  out[AT(k, "iterations")] = r.boxTests + r.triangleTests;
  out[AT(k, "status")] = static_cast<double>(rayCastStatusOf(r.status));
  *meshHit = r;
  if (features != nullptr) features[0] = r.hit ? r.triangle : -1;
  if (barycentric != nullptr) putOrNaN(barycentric, r.hit, r.barycentric);
}

bool answerMesh(Kind kind, const Shape& a, const Shape* b, const double* extra, double* out, MeshRayHit* meshHit,
                int* features, double* barycentric, MeshProjectResult* project, SceneError* err) {
  if (kind == Kind::Project) {
    // The triangle and barycentric coordinates beside the layout, as a ray cast's.
    projectOnMesh(a, vec(extra), project);
    putResult(*project, out);
    *meshHit = MeshRayHit{};
    meshHit->hit = true;
    meshHit->triangle = project->triangle;
    meshHit->barycentric = project->barycentric;
    if (features != nullptr) features[0] = project->triangle;
    if (barycentric != nullptr) put(barycentric, project->barycentric);
    return true;
  }
  if (kind == Kind::Raycast && a.type == ShapeType::Mesh) {
    answerMeshRay(a, a.pose, extra, out, meshHit, features, barycentric);
    return true;
  }  const char* field = a.type == ShapeType::Mesh ? (isSingleShape(kind) ? "shape.type" : "a.type") : "b.type";
  int triangle = -1;
  if (b != nullptr && isMeshConvexPair(a, *b) && answerMeshPair(kind, a, *b, extra, out, &triangle)) {
    if (features != nullptr) features[a.type == ShapeType::Mesh ? 0 : 1] = triangle;
    *meshHit = MeshRayHit{};
    meshHit->hit = triangle >= 0;
    meshHit->triangle = triangle;
    return true;
  }
  if (b != nullptr && a.type == ShapeType::Mesh && b->type == ShapeType::Mesh && kind == Kind::Intersect) {
    const MeshMeshResult m = meshMeshIntersect(a, *b);
    IntersectResult r;
    r.intersecting = m.intersecting;
    r.iterations = static_cast<int>(m.nodePairs + m.triangleTests);
    r.status = gjkStatusOf(m.status);
    putResult(r, out);
    if (features != nullptr && m.intersecting) {
      features[0] = m.first.a;
      features[1] = m.first.b;
    }
    return true;
  }
  if (b != nullptr && a.type == ShapeType::Mesh && b->type == ShapeType::Mesh &&
      (kind == Kind::Distance || kind == Kind::Shapecast))
    return refuse(err, "b.type",
                std::string("query \"") + kindName(kind) + "\" between two meshes is not available yet");
  return refuse(err, field, meshUnsupportedMessage(kindName(kind)));
}

// Everything is checked first: a batch answers every pair or none.
bool contactsBatch(Registry& reg, const int* handles, int nShapes, const double* poses, const std::uint32_t* pairs,
                   std::int64_t n, const double* margins, double* records, std::int64_t capacity,
                   std::uint32_t* offsets, double* perPair, SceneError* err, int* features) {
  const auto at = [](const char* name, std::int64_t i) { return std::string(name) + "[" + std::to_string(i) + "]"; };
  const auto argument = [err](const std::string& field, const std::string& message) {
    *err = {"invalid-argument", field, message};
    return false;
  };
  if (n < 0 || n > kMaxBatch) return argument("pairs", "must hold at most " + std::to_string(kMaxBatch) + " pairs");
  if (capacity < 0 || capacity > kMaxBatchContacts)
    return argument("capacity", "must be from 0 to " + std::to_string(kMaxBatchContacts));
  for (int i = 0; i < nShapes; ++i) {
    Transform pose;
    if (reg.find(handles[i]) == nullptr) {
      *err = {"disposed", at("shapes", i), "the shape was disposed (or never created)"};
      return false;
    }
    if (!readPose(poses + static_cast<std::ptrdiff_t>(kPoseSize) * i, "poses", i, &pose, err)) return false;
    // A mesh's OBB tree, before any pair is answered (the field's name made only when it is built).
    const Shape& shape = *reg.find(handles[i]);
    if (shape.type == ShapeType::Mesh && !shape.meshData->treeBuilt() && !prepareMeshTree(shape, at("shapes", i), err))
      return false;
  }
  for (std::int64_t q = 0; q < n; ++q) {
    const Shape* s[2];
    for (int k = 0; k < 2; ++k) {
      const std::uint32_t idx = pairs[2 * q + k];
      if (idx >= static_cast<std::uint32_t>(nShapes))
        return argument(at("pairs", 2 * q + k), "is " + std::to_string(idx) + ", not a shape index (there are " +
                                                    std::to_string(nShapes) + " shapes)");
      s[k] = reg.find(handles[idx]);
    }
    if (s[0]->type == ShapeType::Mesh && s[1]->type == ShapeType::Mesh)
      return refuse(err, at("shapes", pairs[2 * q + 1]) + ".type", "contacts between two meshes are not available yet");
    if (!std::isfinite(margins[q])) return argument(at("options.margins", q), "must be a finite number");
    if (margins[q] < 0) return argument(at("options.margins", q), "must not be negative");
  }
  std::int64_t used = 0;
  double in[kInputSize] = {};
  double one[kMaxResultStride];
  for (std::int64_t q = 0; q < n; ++q) {
    const std::uint32_t ia = pairs[2 * q], ib = pairs[2 * q + 1];
    offsets[q] = static_cast<std::uint32_t>(used);
    double* record = records + kContactSize * used;
    double* counts = perPair + 2 * q;
    std::copy(poses + kPoseSize * ia, poses + kPoseSize * (ia + 1), in);
    std::copy(poses + kPoseSize * ib, poses + kPoseSize * (ib + 1), in + kPoseSize);
    in[2 * kPoseSize] = margins[q];
    double header[kContactsHeader];
    const int room = static_cast<int>(std::min<std::int64_t>(capacity - used, kMaxMeshContacts));
    // The compound children of each contact: contactsInto writes them for a compound, −1 elsewhere.
    int* children = features != nullptr ? features + 2 * used : nullptr;
    const bool compound = reg.find(handles[ia])->type == ShapeType::Compound ||
                          reg.find(handles[ib])->type == ShapeType::Compound;
    if (!reg.contactsInto(handles[ia], handles[ib], in, header, record, room, err, children)) return false;
    if (header[0] >= 0) {
      if (children != nullptr && !compound) std::fill(children, children + 2 * static_cast<int>(header[0]), -1);
      used += static_cast<std::int64_t>(header[0]);
      counts[0] = header[2];
      counts[1] = header[1];
      continue;
    }
    // Two convex shapes: contact()'s answer, through the single query's path.
    if (!reg.query(Kind::Contact, handles[ia], handles[ib], in, nullptr, one, err)) return false;
    constexpr int k = static_cast<int>(Kind::Contact);
    counts[0] = one[AT(k, "iterations")];
    counts[1] = 0;
    if (one[AT(k, "contact")] == 0) continue;
    if (used == capacity) {
      counts[1] = 1;
      continue;
    }
    const ResultLayout& r = kContactRecordLayout;
    record[offsetIn(r, "depth")] = -one[AT(k, "distance")];
    for (const char* v : {"normal", "pointA", "pointB"})
      std::copy(one + offsetOf(k, v), one + offsetOf(k, v) + 3, record + offsetIn(r, v));
    record[offsetIn(r, "triangle")] = -1;
    if (children != nullptr) children[0] = children[1] = -1;
    ++used;
  }
  offsets[n] = static_cast<std::uint32_t>(used);
  return true;
}

}  // namespace api
}  // namespace collidoscope
