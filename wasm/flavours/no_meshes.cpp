// collidoscope — the default package flavour without triangle meshes,
// heightfields and compounds (level geometry).
//
// The default flavour ('collidoscope', wasm inlined) must stay a small
// download (under a fifth of rapier3d-compat's), and the mesh code (the OBB
// tree, the mesh–convex and mesh–mesh queries) would add about a quarter to
// it (compounds and heightfields a little more). This file stands in for
// the entry points of that code that the rest of the
// library calls: linked before the library archive, it satisfies those
// references, so the linker pulls in no mesh object at all. A mesh can then
// never be made (makeMeshShape refuses with an error naming the flavour
// that has meshes), so the query stand-ins below are unreachable; they
// answer "invalid input" rather than abort. The 'collidoscope/meshes' and
// 'collidoscope/wasm-file' flavours, the CLI, the page and native builds
// link the real code instead.
#include "collidoscope/api_results.h"
#include "collidoscope/compound.h"
#include "collidoscope/heightfield.h"
#include "collidoscope/manifold.h"
#include "collidoscope/mass.h"
#include "collidoscope/mesh_pair.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/ray_order.h"
#include "collidoscope/sap_view.h"
#include "collidoscope/scene_read.h"

namespace collidoscope {

namespace {
const char* const kNoMeshes =
    "this build of collidoscope has no triangle meshes, heightfields or compounds (the default flavour leaves "
    "level geometry out to stay a small download): import 'collidoscope/meshes' or 'collidoscope/wasm-file', "
    "which have them";
}  // namespace

bool makeMeshShape(TriangleMesh, Shape*, ShapeError* err) {
  *err = {"type", kNoMeshes};
  return false;
}

bool makeHeightfieldShape(Heightfield, Shape*, ShapeError* err) {
  *err = {"type", kNoMeshes};
  return false;
}

bool makeCompoundShape(std::vector<Shape>, Shape*, ShapeError* err) {
  *err = {"type", kNoMeshes};
  return false;
}

// No compound can be made here, so none has moments.
MassStatus compoundMoments(const Shape&, Moments*) { return MassStatus::InvalidShape; }

// No compound can be made here, so no scene holds one.
bool sceneHasCompound(const Scene&) { return false; }

bool runCompoundScene(const Scene&, bool, std::string*, SceneError* err) {
  *err = {"unsupported-query", "shapes", kNoMeshes};
  return false;
}

bool readMeshShape(const JsonValue&, const std::string& prefix, Shape*, SceneError* err) {
  *err = {"invalid-scene", prefix + "type", kNoMeshes};
  return false;
}
bool readHeightfieldShape(const JsonValue& json, const std::string& prefix, Shape* s, SceneError* err) {
  return readMeshShape(json, prefix, s, err);
}
bool readCompoundShape(const JsonValue& json, const std::string& prefix, Shape* s, SceneError* err) {
  return readMeshShape(json, prefix, s, err);
}

// No mesh is made here, scaled or not.
bool bakeMeshScale(Shape*) { return false; }
bool scaleMeshShape(Shape*, const Vec3&, SceneError* err) {
  *err = {"unsupported-query", "mesh", kNoMeshes};
  return false;
}
bool scaledMeshHasRoom(const Shape&, const std::string&, SceneError*) { return true; }

void writeLevelShapeFields(JsonWriter&, const Shape&) {}

bool makeMeshFromArrays(const MeshArray&, const MeshArray&, Shape*, SceneError* err) {
  *err = {"unsupported-query", "mesh", kNoMeshes};
  return false;
}

void writeMeshInfo(JsonWriter& w, const MeshShape&) { w.beginObject().endObject(); }

std::vector<std::string> meshWarnings(const MeshReport&, std::size_t) { return {}; }
std::vector<std::string> meshWarnings(const MeshShape&, std::size_t) { return {}; }

// No mesh is made here: there is no tree or report to build.
bool prepareMeshTree(const Shape&, const std::string&, SceneError*) { return true; }
bool prepareMeshReport(const Shape&, const std::string&, SceneError*) { return true; }

MeshRayHit rayCastMesh(const TriangleMesh&, const ObbTree&, const Transform&, const Vec3&, const Vec3&, double,
                       MeshRayMode) {
  MeshRayHit r;
  r.status = MeshRayStatus::InvalidInput;
  return r;
}

namespace {
template <class R>
R invalid() {
  R r;
  r.status = MeshQueryStatus::InvalidInput;
  return r;
}
}  // namespace

MeshIntersectResult meshPairIntersect(const Shape&, const Shape&, const MeshConvexSettings&) {
  return invalid<MeshIntersectResult>();
}
MeshDistanceResult meshPairDistance(const Shape&, const Shape&, const MeshConvexSettings&) {
  return invalid<MeshDistanceResult>();
}
MeshShapeCastResult meshPairShapeCast(const Shape&, const Shape&, const Vec3&, const Vec3&,
                                      const MeshConvexSettings&) {
  return invalid<MeshShapeCastResult>();
}
void meshPairContactsInto(const Shape&, const Shape&, double, MeshContact*, int, double* header, double*) {
  header[0] = 0;
  header[1] = 0;
  header[2] = 0;
}
namespace api {
bool contactsBatch(Registry&, const int*, int, const double*, const std::uint32_t*, std::int64_t, const double*,
                   double*, std::int64_t, std::uint32_t*, double*, SceneError* err, int*) {
  *err = {"unsupported-query", "contactsBatch", kNoMeshes};
  return false;
}
bool answerMesh(Kind, const Shape&, const Shape*, const double*, double*, MeshRayHit*, int*, double*,
                MeshProjectResult*, SceneError* err) {
  *err = {"unsupported-query", "shape", kNoMeshes};
  return false;
}
void answerMeshRay(const Shape&, const Transform&, const double*, double*, MeshRayHit*, int*, double*) {}
void coherentRayOrder(const double*, std::int64_t, const Obb&, std::uint64_t*, std::uint64_t*) {}
bool answerCompound(Kind, Shape&, const Transform&, Shape*, const Transform&, const double*, double*, int*, Registry&,
                    SceneError* err) {
  *err = {"unsupported-query", "shape", kNoMeshes};
  return false;
}
bool compoundContacts(Shape&, Shape&, const double*, double*, double*, int, int*, MeshContact*, Registry&,
                      SceneError* err) {
  *err = {"unsupported-query", "shape", kNoMeshes};
  return false;
}
}  // namespace api

bool runMeshScene(const Scene&, int, bool, std::string*, SceneError* err) {
  *err = {"unsupported-query", "shapes", "this build of collidoscope has no triangle meshes"};
  return false;
}

bool runObbTreeScene(const Scene&, bool, std::string*, SceneError* err) {
  *err = {"unsupported-query", "shapes[0].type", kNoMeshes};
  return false;
}

MeshMeshResult meshMeshIntersect(const Shape&, const Shape&) {
  MeshMeshResult r;
  r.status = MeshMeshStatus::InvalidInput;
  return r;
}

// The solver's convex–mesh contacts (manifold_mesh.cpp).
ManifoldStatus meshManifold(const Shape&, const Shape&, double, MeshContact*, int, Manifold* out, bool* truncated,
                            const ManifoldSettings&) {
  out->count = 0;
  if (truncated != nullptr) *truncated = false;
  return ManifoldStatus::Unsupported;
}

// The solver's compound contacts and casts (manifold_compound.cpp, compound.cpp).
ManifoldStatus compoundManifolds(const Shape&, const Shape&, double, MeshContact*, int, Manifold*, int, int* count,
                                 bool* truncated, const ManifoldSettings&) {
  *count = 0;
  if (truncated != nullptr) *truncated = false;
  return ManifoldStatus::Unsupported;
}

double compoundTimeOfImpact(const Shape&, const Vec3&, const Shape&, const Vec3&,
                            double (*)(const Shape&, const Vec3&, const Shape&, const Vec3&)) {
  return 2;
}

// The broad-phase view's trace of a "pairs" scene (sap_view.cpp: the sweep
// recorded step by step) is for the page and collidoscope/three, which load
// the flavours with meshes; leaving it out keeps this flavour under its size
// budget. run() answers "pairs" scenes here as everywhere.
namespace api {
bool runPairsTrace(const Scene&, std::string*, SceneError* err) {
  *err = {"unsupported-query", "query",
          "this build of collidoscope does not trace \"pairs\" scenes (the default flavour leaves the broad-phase "
          "view's trace out to stay a small download; run() answers them): import 'collidoscope/meshes' or "
          "'collidoscope/wasm-file', which trace them"};
  return false;
}
}  // namespace api

}  // namespace collidoscope
