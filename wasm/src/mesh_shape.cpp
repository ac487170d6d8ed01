// collidoscope — the mesh shape (see mesh_shape.h).
#include "collidoscope/mesh_shape.h"

#include <utility>

namespace collidoscope {

bool makeMeshShape(TriangleMesh m, Shape* out, ShapeError* err) {
  auto data = std::make_shared<MeshShape>();
  if (!validateMesh(m, err, &data->report)) return false;
  data->mesh = std::move(m);
  if (!buildObbTree(data->mesh, ObbTreeSettings{}, &data->tree, err)) return false;
  Shape s;
  s.type = ShapeType::Mesh;
  s.meshData = std::move(data);
  *out = std::move(s);
  return true;
}

RayCastStatus rayCastStatusOf(MeshRayStatus s) {
  switch (s) {
    case MeshRayStatus::Converged: return RayCastStatus::Converged;
    case MeshRayStatus::InvalidInput: return RayCastStatus::InvalidInput;
    case MeshRayStatus::MaxIterations: return RayCastStatus::MaxIterations;
  }
  return RayCastStatus::InvalidInput;
}

std::string meshUnsupportedMessage(const char* query) {
  return std::string("a mesh takes raycast, intersect, distance, shapecast and contacts (against a convex shape; "
                     "intersect also against a mesh), hull and obb; query \"") +
         query + "\" on a mesh is not available";
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
