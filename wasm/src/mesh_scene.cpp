// collidoscope — scenes whose query reads a mesh (see mesh_pair.h): in a
// file of its own so that the default package flavour, which has no meshes
// (wasm/flavours/no_meshes.cpp), links none of it.
#include <cmath>
#include <string>
#include <vector>

#include "collidoscope/mesh_pair.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/obbtree_view.h"
#include "collidoscope/schema_json.h"
#include "collidoscope/scene_read.h"

namespace collidoscope {

using namespace jsonout;

// A mesh's "vertices" and "triangles", checked in that order: the counts
// against the limits before anything is allocated for them, then every
// coordinate and index (errors name the element, e.g. "triangles[4][1]"),
// then the mesh itself (makeMeshShape: index range, the tree).
bool readMeshShape(const JsonValue& json, const std::string& prefix, Shape* s, SceneError* err) {
  const JsonValue* vs = json.find("vertices");
  const JsonValue* ts = json.find("triangles");
  if (vs == nullptr) return sceneread::fail(err, prefix + "vertices", "is missing (a mesh needs it)");
  if (ts == nullptr) return sceneread::fail(err, prefix + "triangles", "is missing (a mesh needs it)");
  if (!vs->isArray())
    return sceneread::fail(err, prefix + "vertices", std::string("must be an array of [x, y, z] vertices, got ") + jsonKindName(vs->kind));
  if (!ts->isArray())
    return sceneread::fail(err, prefix + "triangles",
                std::string("must be an array of [i, j, k] vertex-index triples, got ") + jsonKindName(ts->kind));
  if (vs->items.size() > kMaxMeshVertices)
    return sceneread::fail(err, prefix + "vertices", "has " + std::to_string(vs->items.size()) + " vertices; the limit is " +
                                             std::to_string(kMaxMeshVertices));
  if (ts->items.size() > kMaxMeshTriangles)
    return sceneread::fail(err, prefix + "triangles", "has " + std::to_string(ts->items.size()) + " triangles; the limit is " +
                                              std::to_string(kMaxMeshTriangles));
  TriangleMesh m;
  m.vertices.resize(vs->items.size());
  for (std::size_t i = 0; i < vs->items.size(); ++i)
    if (!sceneread::readVec3(vs->items[i], prefix + "vertices[" + std::to_string(i) + "]", &m.vertices[i], err)) return false;
  m.triangles.resize(ts->items.size());
  const double vertexCount = static_cast<double>(m.vertices.size());
  for (std::size_t t = 0; t < ts->items.size(); ++t) {
    const std::string field = prefix + "triangles[" + std::to_string(t) + "]";
    double idx[3];
    if (!sceneread::readVec(ts->items[t], field, 3, idx, err)) return false;
    for (int k = 0; k < 3; ++k) {
      const std::string at = field + "[" + std::to_string(k) + "]";
      if (idx[k] != std::floor(idx[k])) return sceneread::fail(err, at, "must be a whole number (a vertex index)");
      if (idx[k] < 0) return sceneread::fail(err, at, "must not be negative (a vertex index)");
      if (idx[k] >= vertexCount)
        return sceneread::fail(err, at, "must be below the vertex count " + std::to_string(m.vertices.size()) + " (a vertex index)");
      m.triangles[t][static_cast<std::size_t>(k)] = static_cast<int>(idx[k]);
    }
  }
  ShapeError se;
  Shape mesh;
  if (!makeMeshShape(std::move(m), &mesh, &se)) return sceneread::fail(err, prefix + se.field, se.message);
  s->meshData = std::move(mesh.meshData);
  return true;
}

// A scene whose query reads a mesh: the ray cast on shape A through its
// OBB tree (mesh_raycast.h); intersect, distance, shapecast and contacts
// between a mesh and a convex shape (mesh_pair.h); or a clear refusal.
bool runMeshScene(const Scene& scene, int mesh, bool trace, std::string* json, SceneError* err) {
  const std::string field = "shapes[" + std::to_string(mesh) + "].type";
  const QueryKind q = scene.query;
  const bool pairQuery =
      q == QueryKind::Intersect || q == QueryKind::Distance || q == QueryKind::Shapecast || q == QueryKind::Contacts;
  if (q != QueryKind::Raycast && !pairQuery) {
    *err = {kMeshUnsupportedCode, field, meshUnsupportedMessage(queryName(q))};
    return false;
  }
  JsonWriter w;
  if (q == QueryKind::Raycast) {
    const Shape& a = scene.shapes[0];
    const MeshShape& m = *a.meshData;
    const MeshRayHit hit = rayCastMesh(m.mesh, m.tree, a.pose, scene.ray.origin, scene.ray.direction,
                                       scene.ray.maxT, MeshRayMode::Closest);
    if (!trace) {
      put(w, hit);
      *json = w.str();
      return true;
    }
    // One frame: the answer (the tree's descent is not recorded step by step yet).
    MeshRayFrame frame;
    frame.hit = hit.hit;
    frame.triangle = hit.triangle;
    frame.boxTests = hit.boxTests;
    frame.triangleTests = hit.triangleTests;
    frame.triangleCount = static_cast<int>(m.mesh.triangles.size());
    if (hit.hit) {
      const auto& t = m.mesh.triangles[static_cast<std::size_t>(hit.triangle)];
      for (std::size_t k = 0; k < 3; ++k)
        frame.vertices[k] = a.pose.apply(m.mesh.vertices[static_cast<std::size_t>(t[k])]);
    }
    w.beginObject().key("query").value("raycast").key("mesh").value(true).key("frames").beginArray();
    put(w, frame);
    w.endArray().key("result");
    put(w, hit);
    w.key("marginA").value(0.0).endObject();
    *json = w.str();
    return true;
  }
  if (trace) {
    *err = {kMeshUnsupportedCode, field,
            std::string("query \"") + queryName(q) + "\" on a mesh has no steps to trace yet (run answers it)"};
    return false;
  }
  if (scene.shapes.size() != 2) {
    *err = {"invalid-scene", "shapes", "this query needs 2 shapes"};
    return false;
  }
  const Shape& a = scene.shapes[0];
  const Shape& b = scene.shapes[1];
  if (!isMeshConvexPair(a, b) && q == QueryKind::Intersect) {
    put(w, meshMeshIntersect(a, b));
    *json = w.str();
    return true;
  }
  if (!isMeshConvexPair(a, b)) {
    *err = {kMeshUnsupportedCode, "shapes[1].type",
            std::string("query \"") + queryName(q) + "\" between two meshes is not available yet"};
    return false;
  }
  switch (q) {
    case QueryKind::Intersect: put(w, meshPairIntersect(a, b)); break;
    case QueryKind::Distance: put(w, meshPairDistance(a, b)); break;
    case QueryKind::Shapecast:
      put(w, meshPairShapeCast(a, b, scene.motion.translationA, scene.motion.translationB));
      break;
    default: {
      std::vector<MeshContact> contacts(kMaxMeshContacts);
      const MeshContactsResult r = meshPairContacts(a, b, scene.margin, contacts.data(), kMaxMeshContacts);
      put(w, ContactsView{contacts.data(), r.count, r.truncated, r.boxTests + r.triangleTests});
    }
  }
  *json = w.str();
  return true;
}

bool runObbTreeScene(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  if (scene.shapes[0].type != ShapeType::Mesh) {
    *err = {"invalid-scene", "shapes[0].type", "query \"obbtree\" needs a mesh for shape A"};
    return false;
  }
  const Shape* b = scene.shapes.size() == 2 ? &scene.shapes[1] : nullptr;
  if (b != nullptr && b->type == ShapeType::Plane) {
    *err = {"invalid-scene", "shapes[1].type",
            "query \"obbtree\" needs a mesh or a convex shape for shape B (a plane has no box to descend with)"};
    return false;
  }
  std::vector<ObbViewFrame> frames;
  const ObbViewResult r = runObbView(scene.shapes[0], b, trace ? &frames : nullptr);
  JsonWriter w;
  if (!trace) {
    put(w, r);
    *json = w.str();
    return true;
  }
  w.beginObject().key("query").value("obbtree").key("frames").beginArray();
  for (const ObbViewFrame& f : frames) put(w, f);
  w.endArray().key("result");
  put(w, r);
  w.key("marginA").value(0.0).endObject();
  *json = w.str();
  return true;
}

}  // namespace collidoscope
