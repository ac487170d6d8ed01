// collidoscope — the mesh shape (see mesh_shape.h).
#include "collidoscope/mesh_shape.h"

#include <cmath>
#include <utility>

#include "collidoscope/heap_room.h"

namespace collidoscope {

bool makeMeshShape(TriangleMesh m, Shape* out, ShapeError* err) {
  const double triangles = static_cast<double>(m.triangles.size());
  if (!heapHasRoom(meshPeakBytes(triangles, static_cast<double>(m.vertices.size())), err, "triangles", "a mesh of ",
                   triangles, " triangles"))
    return false;
  auto data = std::make_shared<MeshShape>();
  data->mesh = std::move(m);
  // The build validates the mesh (validateMesh) and computes the normals the report reads.
  if (!buildObbTree(data->mesh, ObbTreeSettings{}, &data->tree, err)) return false;
  reportMesh(data->mesh, data->tree.normals, &data->report);
  Shape s;
  s.type = ShapeType::Mesh;
  s.meshData = std::move(data);
  *out = std::move(s);
  return true;
}

bool bakeMeshScale(Shape* s) {
  TriangleMesh m = s->meshData->mesh;
  for (Vec3& p : m.vertices) p = {s->scale.x * p.x, s->scale.y * p.y, s->scale.z * p.z};
  if (s->scale.x * s->scale.y * s->scale.z < 0)
    for (auto& t : m.triangles) std::swap(t[1], t[2]);
  Shape rebuilt;
  ShapeError err;
  // The scaled mesh is valid when the mesh was and the scale is within the
  // checked bounds; a failure keeps the scale, which the scene parser refuses.
  if (!makeMeshShape(std::move(m), &rebuilt, &err)) return false;
  s->meshData = std::move(rebuilt.meshData);
  return true;
}

bool scaleMeshShape(Shape* s, const Vec3& scale, SceneError* err) {
  s->scale = scale;
  ShapeError se;
  if (!validateShape(*s, &se)) {
    *err = {"invalid-argument", se.field, se.message};
    return false;
  }
  // A scaled mesh is built again (bakeScale), beside the one made.
  if (!scaledMeshHasRoom(*s, "", err)) return false;
  bakeScale(s);
  if (isUnscaled(*s)) return true;
  *err = {"invalid-argument", "scale", "the scaled mesh is not a valid mesh (its vertices grow past 1e15)"};
  return false;
}

bool scaledMeshHasRoom(const Shape& s, const std::string& prefix, SceneError* err) {
  if (isUnscaled(s)) return true;
  const double triangles = static_cast<double>(s.meshData->mesh.triangles.size());
  return heapHasRoom(meshPeakBytes(triangles, static_cast<double>(s.meshData->mesh.vertices.size())), err,
                     (prefix + "scale").c_str(), "the scaled mesh of ", triangles, " triangles");
}

bool makeMeshFromArrays(const std::vector<double>& flat, const std::vector<double>& idx, Shape* out, SceneError* err) {
  if (flat.size() % 3 != 0) {
    *err = {"invalid-argument", "vertices", "has " + std::to_string(flat.size()) + " numbers, not a multiple of 3"};
    return false;
  }
  if (idx.size() % 3 != 0) {
    *err = {"invalid-argument", "triangles", "has " + std::to_string(idx.size()) + " indices, not a multiple of 3"};
    return false;
  }
  TriangleMesh m;
  m.vertices.resize(flat.size() / 3);
  for (std::size_t i = 0; i < m.vertices.size(); ++i) m.vertices[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
  m.triangles.resize(idx.size() / 3);
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    for (std::size_t k = 0; k < 3; ++k) {
      const double x = idx[3 * t + k];
      const char* why = nullptr;
      if (!(x == std::floor(x))) why = "must be a whole number (a vertex index)";
      else if (x < 0) why = "must not be negative (a vertex index)";
      if (why == nullptr && x >= static_cast<double>(m.vertices.size())) {
        *err = {"invalid-argument", "triangles[" + std::to_string(t) + "][" + std::to_string(k) + "]",
                "must be below the vertex count " + std::to_string(m.vertices.size()) + " (a vertex index)"};
        return false;
      }
      if (why != nullptr) {
        *err = {"invalid-argument", "triangles[" + std::to_string(t) + "][" + std::to_string(k) + "]", why};
        return false;
      }
      m.triangles[t][k] = static_cast<int>(x);
    }
  }
  ShapeError se;
  if (!makeMeshShape(std::move(m), out, &se)) {
    *err = {se.outOfMemory ? kOutOfMemoryCode : "invalid-argument", se.field, se.message};
    return false;
  }
  return true;
}

void writeMeshInfo(JsonWriter& w, const MeshShape& m) {
  w.beginObject().key("vertexCount").value(static_cast<int>(m.mesh.vertices.size()));
  w.key("triangleCount").value(static_cast<int>(m.mesh.triangles.size()));
  w.key("degenerate").beginArray();
  for (int t : m.report.degenerate) w.value(t);
  w.endArray().key("duplicates").beginArray();
  for (const auto& d : m.report.duplicates) w.beginArray().value(d[0]).value(d[1]).endArray();
  w.endArray().key("warnings").beginArray();
  for (const std::string& line : meshWarnings(m.report, 20)) w.value(line);
  w.endArray().endObject();
}

std::vector<std::string> meshWarnings(const MeshReport& report, std::size_t limit) {
  std::vector<std::string> out;
  const std::size_t total = report.degenerate.size() + report.duplicates.size();
  for (int t : report.degenerate) {
    if (out.size() == limit) break;
    out.push_back("triangles[" + std::to_string(t) +
                  "]: degenerate (zero area or too thin for a normal); ray casts skip it");
  }
  for (const auto& d : report.duplicates) {
    if (out.size() == limit) break;
    out.push_back("triangles[" + std::to_string(d[0]) + "]: duplicates triangles[" + std::to_string(d[1]) +
                  "] (the same three vertex positions)");
  }
  if (total > out.size()) out.push_back("... and " + std::to_string(total - out.size()) + " more");
  return out;
}

}  // namespace collidoscope
