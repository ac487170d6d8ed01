// collidoscope — the mesh shape (see mesh_shape.h).
#include "collidoscope/mesh_shape.h"

#include <cassert>
#include <cmath>
#include <cstdint>
#include <type_traits>
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

namespace {

// The vertices x0, y0, z0, x1, … of `in` (count / 3 of them) as doubles.
// Filled by push_back: a resize would first zero them.
template <class T>
void widenVertices(const T* in, std::size_t count, std::vector<Vec3>* out) {
  out->reserve(count);
  for (std::size_t i = 0; i < count; ++i)
    out->push_back({static_cast<double>(in[3 * i]), static_cast<double>(in[3 * i + 1]),
                    static_cast<double>(in[3 * i + 2])});
}

void indexError(std::size_t t, std::size_t k, const std::string& why, SceneError* err) {
  *err = {"invalid-argument", "triangles[" + std::to_string(t) + "][" + std::to_string(k) + "]", why};
}

std::string indexBelow(std::size_t vertices) {
  return "must be below the vertex count " + std::to_string(vertices) + " (a vertex index)";
}

// Indices of an integer type: a negative one (Int32 only) or one not below
// the vertex count names its element. The loop stops at the first.
template <class T>
bool copyIntegerIndices(const T* in, std::size_t triangles, std::size_t vertices, TriangleMesh* m, SceneError* err) {
  m->triangles.reserve(triangles);
  for (std::size_t t = 0; t < triangles; ++t) {
    std::array<int, 3> tri;
    for (std::size_t k = 0; k < 3; ++k) {
      const T x = in[3 * t + k];
      if constexpr (std::is_signed_v<T>) {
        if (x < 0) {
          indexError(t, k, "must not be negative (a vertex index)", err);
          return false;
        }
      }
      // x ≥ 0 here: its unsigned value is its value.
      if (static_cast<std::uint64_t>(x) >= vertices) {
        indexError(t, k, indexBelow(vertices), err);
        return false;
      }
      tri[k] = static_cast<int>(x);
    }
    m->triangles.push_back(tri);
  }
  return true;
}

// Indices of a float type (a number[] or a float array): each must be a
// whole number, not negative and below the vertex count (NaN is not whole).
template <class T>
bool copyFloatIndices(const T* in, std::size_t triangles, std::size_t vertices, TriangleMesh* m, SceneError* err) {
  m->triangles.reserve(triangles);
  for (std::size_t t = 0; t < triangles; ++t) {
    std::array<int, 3> tri;
    for (std::size_t k = 0; k < 3; ++k) {
      const double x = static_cast<double>(in[3 * t + k]);
      if (!(x == std::floor(x))) {
        indexError(t, k, "must be a whole number (a vertex index)", err);
        return false;
      }
      if (x < 0) {
        indexError(t, k, "must not be negative (a vertex index)", err);
        return false;
      }
      if (x >= static_cast<double>(vertices)) {
        indexError(t, k, indexBelow(vertices), err);
        return false;
      }
      tri[k] = static_cast<int>(x);
    }
    m->triangles.push_back(tri);
  }
  return true;
}

}  // namespace

bool makeMeshFromArrays(const MeshArray& vertices, const MeshArray& indices, Shape* out, SceneError* err) {
  if (!(indices.count <= 3.0 * kMaxMeshTriangles)) {
    *err = {"invalid-argument", "triangles",
            "has more than " + std::to_string(kMaxMeshTriangles) + " triangles (the limit)"};
    return false;
  }
  if (!(vertices.count <= 3.0 * kMaxMeshVertices)) {
    *err = {"invalid-argument", "vertices",
            "has more than " + std::to_string(kMaxMeshVertices) + " vertices (the limit)"};
    return false;
  }
  const auto known = [](const MeshArray& a) {
    return a.count >= 0 && a.count == std::floor(a.count) && a.type >= 0 && a.type <= 4;
  };
  if (!known(vertices) || !known(indices)) {
    *err = {"invalid-argument", known(vertices) ? "triangles" : "vertices", "is not an array mesh() copied"};
    return false;
  }
  const std::size_t nvNumbers = static_cast<std::size_t>(vertices.count);
  const std::size_t ntNumbers = static_cast<std::size_t>(indices.count);
  if (nvNumbers % 3 != 0) {
    *err = {"invalid-argument", "vertices", "has " + std::to_string(nvNumbers) + " numbers, not a multiple of 3"};
    return false;
  }
  if (ntNumbers % 3 != 0) {
    *err = {"invalid-argument", "triangles", "has " + std::to_string(ntNumbers) + " indices, not a multiple of 3"};
    return false;
  }
  TriangleMesh m;
  const std::size_t nv = nvNumbers / 3, nt = ntNumbers / 3;
  switch (static_cast<MeshArrayType>(vertices.type)) {
    case MeshArrayType::Float64: widenVertices(static_cast<const double*>(vertices.data), nv, &m.vertices); break;
    case MeshArrayType::Float32: widenVertices(static_cast<const float*>(vertices.data), nv, &m.vertices); break;
    case MeshArrayType::Uint32:
      widenVertices(static_cast<const std::uint32_t*>(vertices.data), nv, &m.vertices);
      break;
    case MeshArrayType::Uint16:
      widenVertices(static_cast<const std::uint16_t*>(vertices.data), nv, &m.vertices);
      break;
    case MeshArrayType::Int32: widenVertices(static_cast<const std::int32_t*>(vertices.data), nv, &m.vertices); break;
  }
  bool ok = false;
  switch (static_cast<MeshArrayType>(indices.type)) {
    case MeshArrayType::Float64:
      ok = copyFloatIndices(static_cast<const double*>(indices.data), nt, nv, &m, err);
      break;
    case MeshArrayType::Float32:
      ok = copyFloatIndices(static_cast<const float*>(indices.data), nt, nv, &m, err);
      break;
    case MeshArrayType::Uint32:
      ok = copyIntegerIndices(static_cast<const std::uint32_t*>(indices.data), nt, nv, &m, err);
      break;
    case MeshArrayType::Uint16:
      ok = copyIntegerIndices(static_cast<const std::uint16_t*>(indices.data), nt, nv, &m, err);
      break;
    case MeshArrayType::Int32:
      ok = copyIntegerIndices(static_cast<const std::int32_t*>(indices.data), nt, nv, &m, err);
      break;
  }
  if (!ok) return false;
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
