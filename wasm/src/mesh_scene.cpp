// collidoscope — scenes with level geometry: reading a mesh's, a
// heightfield's and a compound's fields, and running a scene whose query
// reads a mesh (see mesh_pair.h). In a file of its own so that the default
// package flavour, which has none of them (wasm/flavours/no_meshes.cpp),
// links none of it.
#include <cmath>
#include <string>
#include <vector>

#include "collidoscope/compound.h"
#include "collidoscope/heap_room.h"
#include "collidoscope/heightfield.h"
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
  const double triangles = static_cast<double>(ts->items.size());
  if (!heapHasRoom(meshPeakBytes(triangles, static_cast<double>(vs->items.size())), err, (prefix + "triangles").c_str(),
                   "a mesh of ", triangles, " triangles"))
    return false;
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
  if (!makeMeshShape(std::move(m), &mesh, &se)) return sceneread::failShape(err, prefix, se);
  s->meshData = std::move(mesh.meshData);
  return true;
}

// A heightfield's "heights" (rows of equal length) and "cellSize", checked
// in that order: the grid's size against kMaxHeightfieldCells before the
// heights are read, then each height (errors name "heights[i][j]"), then
// the field (makeHeightfieldShape).
bool readHeightfieldShape(const JsonValue& json, const std::string& prefix, Shape* s, SceneError* err) {
  const JsonValue* hs = json.find("heights");
  const JsonValue* cs = json.find("cellSize");
  if (hs == nullptr) return sceneread::fail(err, prefix + "heights", "is missing (a heightfield needs it)");
  if (cs == nullptr) return sceneread::fail(err, prefix + "cellSize", "is missing (a heightfield needs it)");
  if (!hs->isArray())
    return sceneread::fail(err, prefix + "heights", std::string("must be an array of rows of heights, got ") + jsonKindName(hs->kind));
  Heightfield h;
  if (hs->items.size() < 2)
    return sceneread::fail(err, prefix + "heights", "must have at least 2 rows (one cell), got " + std::to_string(hs->items.size()));
  const JsonValue& first = hs->items[0];
  if (!first.isArray())
    return sceneread::fail(err, prefix + "heights[0]", std::string("must be an array of heights, got ") + jsonKindName(first.kind));
  if (first.items.size() < 2)
    return sceneread::fail(err, prefix + "heights[0]", "must have at least 2 heights (one cell), got " + std::to_string(first.items.size()));
  const double cells = static_cast<double>(hs->items.size() - 1) * static_cast<double>(first.items.size() - 1);
  if (cells > static_cast<double>(kMaxHeightfieldCells))
    return sceneread::fail(err, prefix + "heights",
                "has " + std::to_string(static_cast<long long>(cells)) + " cells; the limit is " +
                    std::to_string(kMaxHeightfieldCells) + " (two triangles a cell, within the mesh limit)");
  // The heights, the grid's mesh (two triangles a cell) and its tree.
  const double points = static_cast<double>(hs->items.size()) * static_cast<double>(first.items.size());
  if (!heapHasRoom(meshPeakBytes(2 * cells, points) + sizeof(double) * points, err, (prefix + "heights").c_str(),
                   "a heightfield of ", cells, " cells"))
    return false;
  h.rows = static_cast<int>(hs->items.size());
  h.cols = static_cast<int>(first.items.size());
  h.heights.resize(static_cast<std::size_t>(h.rows) * static_cast<std::size_t>(h.cols));
  for (int i = 0; i < h.rows; ++i) {
    const JsonValue& row = hs->items[static_cast<std::size_t>(i)];
    const std::string field = prefix + "heights[" + std::to_string(i) + "]";
    if (!row.isArray()) return sceneread::fail(err, field, std::string("must be an array of heights, got ") + jsonKindName(row.kind));
    if (row.items.size() != static_cast<std::size_t>(h.cols))
      return sceneread::fail(err, field, "has " + std::to_string(row.items.size()) + " heights; every row must have " +
                                  std::to_string(h.cols) + " (as heights[0])");
    for (int j = 0; j < h.cols; ++j)
      if (!sceneread::readNumber(row.items[static_cast<std::size_t>(j)], field + "[" + std::to_string(j) + "]",
                      &h.heights[static_cast<std::size_t>(i) * static_cast<std::size_t>(h.cols) + static_cast<std::size_t>(j)], err))
        return false;
  }
  double cell[2];
  if (!sceneread::readVec(*cs, prefix + "cellSize", 2, cell, err)) return false;
  h.cellX = cell[0];
  h.cellZ = cell[1];
  ShapeError se;
  Shape field;
  if (!makeHeightfieldShape(std::move(h), &field, &se)) return sceneread::failShape(err, prefix, se);
  s->meshData = std::move(field.meshData);
  return true;
}

// A compound's "children": each a SHAPE (parsed as any shape, its pose
// relative to the compound), their count against kMaxCompoundChildren
// before any is read, then makeCompoundShape (convex children only).
bool readCompoundShape(const JsonValue& json, const std::string& prefix, Shape* s, SceneError* err) {
  const JsonValue* cs = json.find("children");
  if (cs == nullptr) return sceneread::fail(err, prefix + "children", "is missing (a compound needs it)");
  if (!cs->isArray())
    return sceneread::fail(err, prefix + "children", std::string("must be an array of shapes, got ") + jsonKindName(cs->kind));
  if (cs->items.size() > kMaxCompoundChildren)
    return sceneread::fail(err, prefix + "children",
                "has " + std::to_string(cs->items.size()) + " shapes; the limit is " +
                    std::to_string(kMaxCompoundChildren) + " (every query runs each child: a convex decomposition has tens)");
  std::vector<Shape> children(cs->items.size());
  for (std::size_t i = 0; i < children.size(); ++i) {
    const std::string path = prefix + "children[" + std::to_string(i) + "]";
    const JsonValue& c = cs->items[i];
    // Refused before parsing, so that a nested compound is not read at all.
    if (const JsonValue* t = c.isObject() ? c.find("type") : nullptr)
      if (t->isString() && (t->string == "compound" || t->string == "mesh" || t->string == "heightfield" || t->string == "plane"))
        return sceneread::fail(err, path + ".type",
                    "a compound's children are convex shapes: no mesh, heightfield, plane or compound inside");
    if (!parseShape(c, path, &children[i], err)) return false;
  }
  ShapeError se;
  Shape compound;
  if (!makeCompoundShape(std::move(children), &compound, &se)) return sceneread::failShape(err, prefix, se);
  s->compoundData = std::move(compound.compoundData);
  return true;
}

void writeLevelShapeFields(JsonWriter& w, const Shape& s) {
  if (s.type == ShapeType::Compound) {
    w.key("children").beginArray();
    for (const Shape& c : s.compoundData->children) sceneread::writeShape(w, c);
    w.endArray();
    return;
  }
  if (const Heightfield* field = s.meshData->heightfield.get()) {
    w.key("heights").beginArray();
    for (int i = 0; i < field->rows; ++i)
      w.vec(field->heights.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(field->cols), field->cols);
    w.endArray().key("cellSize");
    const double cell[2] = {field->cellX, field->cellZ};
    w.vec(cell, 2);
    return;
  }
  w.key("vertices").beginArray();
  for (const Vec3& p : s.meshData->mesh.vertices) writeVec(w, p);
  w.endArray().key("triangles").beginArray();
  for (const auto& t : s.meshData->mesh.triangles) w.beginArray().value(t[0]).value(t[1]).value(t[2]).endArray();
  w.endArray();
}

// Builds the OBB tree of every mesh of the scene (prepareMeshTree), for a
// query other than a ray cast; an out-of-memory error names the shape.
static bool prepareSceneMeshes(const Scene& scene, SceneError* err) {
  for (std::size_t i = 0; i < scene.shapes.size(); ++i)
    if (!prepareMeshTree(scene.shapes[i], "shapes[" + std::to_string(i) + "]", err)) return false;
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
  if (q != QueryKind::Raycast && q != QueryKind::Project && !pairQuery) {
    *err = {kMeshUnsupportedCode, field, meshUnsupportedMessage(queryName(q))};
    return false;
  }
  JsonWriter w;
  if (q == QueryKind::Project && !trace) {
    if (!prepareSceneMeshes(scene, err)) return false;
    MeshProjectResult r;
    projectOnMesh(scene.shapes[0], scene.point, &r);
    put(w, r);
    *json = w.str();
    return true;
  }
  if (q == QueryKind::Raycast) {
    const Shape& a = scene.shapes[0];
    const MeshShape& m = *a.meshData;
    const MeshRayHit hit = rayCastMesh(m.mesh, m.forRays(), a.pose, scene.ray.origin, scene.ray.direction,
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
  if (!prepareSceneMeshes(scene, err)) return false;
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
  if (b != nullptr && (b->type == ShapeType::Plane || b->type == ShapeType::Compound)) {
    *err = {"invalid-scene", "shapes[1].type",
            "query \"obbtree\" needs a mesh or a convex shape for shape B (a plane has no box to descend with; "
            "step through one child of a compound instead)"};
    return false;
  }
  if (!prepareSceneMeshes(scene, err)) return false;
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
