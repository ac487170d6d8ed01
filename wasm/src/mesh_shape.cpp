// collidoscope — the mesh shape (see mesh_shape.h).
#include "collidoscope/mesh_shape.h"

#include <cassert>
#include <cmath>
#include <utility>

#include "collidoscope/heap_room.h"

namespace collidoscope {

namespace {
std::atomic<long> lateBuilds{0};

// The report's peak per triangle (reportMesh): a hash and a grouped entry
// (8 + 12), the earliest repeat (4), the lists it fills (≤ 12), with room.
constexpr double kMeshReportPeakBytesPerTriangle = 48;
}  // namespace

long meshTreeLateBuilds() { return lateBuilds.load(); }

const ObbTree& MeshShape::buildTree() const {
  std::call_once(treeOnce_, [this] {
    buildObbTreeNodes(mesh, ObbTreeSettings{}, &tree_);
    treeBuilt_.store(true, std::memory_order_release);
  });
  return tree_;
}

const ObbTree& MeshShape::tree() const {
  if (!treeBuilt()) {
    // An entry point that runs a query on this mesh did not call
    // prepareMeshTree: the answer stays right, only this query is slow.
    assert(!"a query reached a mesh whose OBB tree no entry point prepared (prepareMeshTree)");
    ++lateBuilds;
    buildTree();
  }
  return tree_;
}

const MeshReport& MeshShape::report() const {
  std::call_once(reportOnce_, [this] { reportMesh(mesh, tree_.normals, &report_); });
  return report_;
}

bool prepareMeshTree(const Shape& s, const std::string& field, SceneError* err) {
  if (s.type != ShapeType::Mesh || !s.meshData || s.meshData->treeBuilt()) return true;
  const double triangles = static_cast<double>(s.meshData->mesh.triangles.size());
  if (!heapHasRoom(kObbTreeNodesPeakBytesPerTriangle * triangles, err, field.c_str(), "the OBB tree of a mesh of ",
                   triangles, " triangles"))
    return false;
  s.meshData->buildTree();
  return true;
}

bool prepareMeshReport(const Shape& s, const std::string& field, SceneError* err) {
  if (s.type != ShapeType::Mesh || !s.meshData) return true;
  const double triangles = static_cast<double>(s.meshData->mesh.triangles.size());
  // Checked every time (the report says nothing of whether it is found): a
  // small block, and a report is read once.
  if (!heapHasRoom(kMeshReportPeakBytesPerTriangle * triangles, err, field.c_str(), "the report of a mesh of ",
                   triangles, " triangles"))
    return false;
  s.meshData->report();
  return true;
}

bool makeMeshShape(TriangleMesh m, Shape* out, ShapeError* err) {
  const double triangles = static_cast<double>(m.triangles.size());
  if (!heapHasRoom(meshPeakBytes(triangles, static_cast<double>(m.vertices.size())), err, "triangles", "a mesh of ",
                   triangles, " triangles"))
    return false;
  auto data = std::make_shared<MeshShape>();
  data->mesh = std::move(m);
  // The build validates the mesh (validateMesh) and computes the normals
  // that the ray casts, the report and the OBB hierarchy read.
  ObbTree rays;
  if (!buildObbTreeForRays(data->mesh, &rays, err)) return false;
  data->setRayTree(std::move(rays));
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
  const MeshReport& report = m.report();
  for (int t : report.degenerate) w.value(t);
  w.endArray().key("duplicates").beginArray();
  for (const auto& d : report.duplicates) w.beginArray().value(d[0]).value(d[1]).endArray();
  w.endArray().key("warnings").beginArray();
  for (const std::string& line : meshWarnings(report, 20)) w.value(line);
  w.endArray().endObject();
}

std::vector<std::string> meshWarnings(const MeshShape& m, std::size_t limit) { return meshWarnings(m.report(), limit); }

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
