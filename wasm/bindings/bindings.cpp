// collidoscope — the wasm boundary: embind functions and the object API's C
// exports; the only file that includes emscripten headers. No entry point
// throws or aborts. The embind functions take JSON text (point clouds: a
// Float64Array) and reply with JSON text, {"ok": true, "value": ...} or
// {"ok": false, "error": {"code", "field", "message"}}, which web/lib turns
// into results or CollidoscopeError; text keeps the boundary simple and the
// doubles exact (17 significant digits both ways). The hot entry points of
// the object API are C exports on heap pointers (see "object API" below).
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/heap_room.h"
#include "collidoscope/world.h"
#include "collidoscope/json.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/scene.h"

namespace {

using namespace collidoscope;

std::string ok(const std::string& valueJson) { return "{\"ok\":true,\"value\":" + valueJson + "}"; }

std::string error(const SceneError& e) {
  JsonWriter w;
  w.beginObject().key("ok").value(false).key("error").beginObject();
  w.key("code").value(e.code).key("field");
  if (e.field.empty()) w.null();
  else w.value(e.field);
  w.key("message").value(e.message).endObject().endObject();
  return w.str();
}

std::string points(const std::vector<Vec3>& pts) {
  JsonWriter w;
  w.beginArray();
  for (const Vec3& p : pts) {
    const double d[3] = {p.x, p.y, p.z};
    w.vec(d, 3);
  }
  w.endArray();
  return w.str();
}

bool readShape(const std::string& text, const char* name, Shape* out, SceneError* err) {
  JsonValue json;
  std::string why;
  if (!parseJson(text, &json, &why)) {
    *err = {"invalid-json", name, std::string("the shape is not valid JSON: ") + why};
    return false;
  }
  return parseShape(json, name, out, err);
}

std::string runSceneJson(const std::string& text, bool trace) {
  Scene scene;
  SceneError err;
  std::string out;
  if (!parseScene(text, &scene, &err) || !runScene(scene, trace, &out, &err)) return error(err);
  return ok(out);
}

std::string validateSceneJson(const std::string& text) {
  Scene scene;
  SceneError err;
  if (!parseScene(text, &scene, &err)) return error(err);
  return ok(sceneToJson(scene));
}

// A plane is unbounded: it has no surface points to sample (shapeSurface
// would return its pose's position), so the drawing helpers refuse it.
bool refusePlane(const Shape& s, const char* name, SceneError* err) {
  if (s.type == ShapeType::Mesh) {
    *err = {"invalid-scene", std::string(name) + ".type",
            "a mesh is drawn from its own triangles (vertices, triangles), not from surface samples"};
    return true;
  }
  if (s.type != ShapeType::Plane) return false;
  *err = {"invalid-scene", std::string(name) + ".type",
          "a plane (half-space) is unbounded: it has no surface points to draw"};
  return true;
}

std::string shapeSurfaceJson(const std::string& shapeText, int samples) {
  Shape s;
  SceneError err;
  if (!readShape(shapeText, "shape", &s, &err) || refusePlane(s, "shape", &err)) return error(err);
  return ok(points(shapeSurface(s, samples)));
}

std::string minkowskiSurfaceJson(const std::string& aText, const std::string& bText, int samples) {
  Shape a, b;
  SceneError err;
  if (!readShape(aText, "a", &a, &err) || !readShape(bText, "b", &b, &err) || refusePlane(a, "a", &err) ||
      refusePlane(b, "b", &err))
    return error(err);
  std::vector<Vec3> full, core;
  minkowskiSurface(a, b, samples, &full, &core);
  return ok("{\"points\":" + points(full) + ",\"corePoints\":" + points(core) + "}");
}

// Points from a Float64Array (x0, y0, z0, x1, ...): copied into wasm
// memory by one TypedArray.set, no JSON.
bool readPointArray(const emscripten::val& array, std::vector<Vec3>* pts, SceneError* err) {
  const std::vector<double> flat = emscripten::convertJSArrayToNumberVector<double>(array);
  if (flat.empty()) {
    *err = {"invalid-argument", "points", "is empty: at least 1 point (3 numbers) is needed"};
    return false;
  }
  if (flat.size() % 3 != 0) {
    *err = {"invalid-argument", "points", "has " + std::to_string(flat.size()) + " numbers, not a multiple of 3"};
    return false;
  }
  if (flat.size() / 3 > kMaxPolytopePoints) {
    *err = {"invalid-argument", "points", "has more than 1000000 points"};
    return false;
  }
  pts->resize(flat.size() / 3);
  for (std::size_t i = 0; i < pts->size(); ++i) {
    (*pts)[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
    if (!isFinite((*pts)[i])) {
      *err = {"invalid-argument", "points[" + std::to_string(i) + "]", "must be finite"};
      return false;
    }
  }
  return true;
}

std::string hullOfArray(const emscripten::val& array) {
  std::vector<Vec3> pts;
  SceneError err;
  std::string out;
  if (!readPointArray(array, &pts, &err) || !hullOfPoints(pts, "", &out, &err)) return error(err);
  return ok(out);
}

std::string boundsOfArray(const emscripten::val& array) {
  std::vector<Vec3> pts;
  SceneError err;
  std::string out;
  if (!readPointArray(array, &pts, &err) || !boundsOfPoints(pts, "", &out, &err)) return error(err);
  return ok(out);
}

// ------------------------------------------------------------ object API
// Shapes live in one registry; web/lib/index.ts holds their handles. The hot
// entry points (query, batch, dispose) are plain C exports taking pointers
// into the wasm heap, so a query crosses the boundary as a few numbers; a
// failure returns 0 and leaves its error for lastError().

api::Registry& registry() {
  static api::Registry r;
  return r;
}

SceneError& lastError() {
  static SceneError e;
  return e;
}

// Read once (web/lib/heap.ts) and then cleared, so that an error's text
// holds no heap between failures: the strings' capacity would otherwise
// depend on which failures came before, and the heap with it.
std::string lastErrorJson() {
  std::string out = error(lastError());
  lastError() = SceneError{};
  return out;
}

// Worlds (world.h) on the registry's shapes, by handle: slot + 1 in the low
// 16 bits, a generation above, so that a disposed world's handle stays dead.
struct WorldSlot {
  std::unique_ptr<api::World> world;
  std::vector<std::uint32_t> pairs;  // the last pairs(), read by JS through its pointer
  std::vector<double> contacts;      // the last step's contacts, kWorldContactSize each
  std::vector<api::WorldHit> hits;   // the last raycast's
  std::vector<double> hitNumbers;    // them as JS reads them, kWorldHitSize each
  std::vector<int> overlaps;         // the last overlap's slots
  int generation = 0;
};
constexpr int kWorldSlotBits = 16;
// A contact as JS reads it: a, b (slots), pointA, pointB, normal, distance,
// normalImpulse, frictionImpulse.
constexpr int kWorldContactSize = 16;
// A hit as JS reads it: slot, t, point, normal, startedInside, pointB.
constexpr int kWorldHitSize = 12;
std::vector<WorldSlot>& worlds() {
  static std::vector<WorldSlot> w;
  return w;
}

api::World* worldOf(int handle, WorldSlot** slot = nullptr) {
  const int i = (handle & ((1 << kWorldSlotBits) - 1)) - 1;
  if (handle <= 0 || i < 0 || i >= static_cast<int>(worlds().size()) || !worlds()[static_cast<std::size_t>(i)].world ||
      worlds()[static_cast<std::size_t>(i)].generation != (handle >> kWorldSlotBits)) {
    lastError() = {"disposed", "world", "this world was disposed"};
    return nullptr;
  }
  if (slot != nullptr) *slot = &worlds()[static_cast<std::size_t>(i)];
  return worlds()[static_cast<std::size_t>(i)].world.get();
}

std::string addShape(Shape s) {
  // The support walk is built here (preparePolytopeSupport), a hull construction.
  if (s.type == ShapeType::Polytope && s.points.size() >= kPolytopeSupportMinPoints) {
    const double points = static_cast<double>(s.points.size());
    if (!heapHasRoom(kPolytopePeakBytesPerPoint * points, &lastError(), "points", "a polytope of ", points, " points"))
      return error(lastError());
  }
  preparePolytopeSupport(&s);
  const int handle = registry().add(std::move(s), &lastError());
  if (handle == 0) return error(lastError());
  return ok(std::to_string(handle));
}

std::string createShapeJson(const std::string& text) {
  JsonValue json;
  std::string why;
  if (!parseJson(text, &json, &why)) return error({"invalid-json", "shape", "the shape is not valid JSON: " + why});
  for (const char* key : {"position", "rotation"}) {
    if (json.isObject() && json.find(key) != nullptr)
      return error({"invalid-argument", key, "a shape object has no pose: pass the pose to each query instead"});
  }
  Shape s;
  SceneError err;
  if (!parseShape(json, "", &s, &err)) {
    // A constructor's argument, not a scene: same field and message, the API's code.
    if (err.code == "invalid-scene") err.code = "invalid-argument";
    return error(err);
  }
  return addShape(std::move(s));
}

std::string createPolytopeArray(const emscripten::val& array, double margin, double sx, double sy, double sz) {
  Shape s;
  s.type = ShapeType::Polytope;
  s.margin = margin;
  s.scale = {sx, sy, sz};
  SceneError err;
  if (!readPointArray(array, &s.points, &err)) return error(err);
  ShapeError se;
  if (!validateShape(s, &se)) return error({"invalid-argument", se.field, se.message});
  bakeScale(&s);
  return addShape(std::move(s));
}

// A mesh shape's sizes and validation report.
std::string meshInfoJson(int handle) {
  const Shape* s = registry().find(handle);
  if (s == nullptr) return error({"disposed", "shape", "the shape was disposed (or never created)"});
  if (s->type != ShapeType::Mesh) return error({"invalid-argument", "shape", "is not a mesh"});
  SceneError err;
  if (!prepareMeshReport(*s, "shape", &err)) return error(err);
  JsonWriter w;
  writeMeshInfo(w, *s->meshData);
  return ok(w.str());
}

// Builds a mesh shape's OBB tree now (prepareMeshTree), if it is not built:
// what its first query other than a ray cast would otherwise do.
std::string prepareMeshJson(int handle) {
  const Shape* s = registry().find(handle);
  if (s == nullptr) return error({"disposed", "shape", "the shape was disposed (or never created)"});
  if (s->type != ShapeType::Mesh) return error({"invalid-argument", "shape", "is not a mesh"});
  SceneError err;
  if (!prepareMeshTree(*s, "shape", &err)) return error(err);
  return ok("true");
}

// The warnings of every mesh in a scene, one line each, prefixed with the
// shape's field ("shapes[0].triangles[4]: degenerate …"): the CLI prints them.
std::string sceneWarningsJson(const std::string& text) {
  Scene scene;
  SceneError err;
  if (!parseScene(text, &scene, &err)) return error(err);
  JsonWriter w;
  w.beginArray();
  for (std::size_t i = 0; i < scene.shapes.size(); ++i) {
    if (scene.shapes[i].type != ShapeType::Mesh) continue;
    if (!prepareMeshReport(scene.shapes[i], "shapes[" + std::to_string(i) + "]", &err)) return error(err);
    for (const std::string& line : meshWarnings(*scene.shapes[i].meshData, 20))
      w.value("shapes[" + std::to_string(i) + "]." + line);
  }
  w.endArray();
  return ok(w.str());
}

std::string shapeSpecJson(int handle) {
  const Shape* s = registry().find(handle);
  if (s == nullptr) return error({"disposed", "shape", "the shape was disposed (or never created)"});
  Scene scene;
  scene.shapes.push_back(*s);
  return ok(sceneToJson(scene));
}

const double* heapDoubles(std::uintptr_t p) { return reinterpret_cast<const double*>(p); }

// The trace of a query, or its scene; `in` points at the query's input in the heap.
std::string queryJson(const std::string& kindName, int a, int b, std::uintptr_t in, bool trace) {
  api::Kind kind;
  if (!api::parseKind(kindName, &kind)) return error({"invalid-argument", "query", "unknown query " + kindName});
  std::string out;
  SceneError err;
  const double* input = heapDoubles(in);
  if (!(trace ? registry().trace(kind, a, b, input, &out, &err) : registry().scene(kind, a, b, input, &out, &err)))
    return error(err);
  return ok(out);
}

std::string traceQuery(const std::string& kindName, int a, int b, std::uintptr_t in) {
  return queryJson(kindName, a, b, in, true);
}

std::string sceneOfQuery(const std::string& kindName, int a, int b, std::uintptr_t in) {
  return queryJson(kindName, a, b, in, false);
}

std::string layout() { return ok(api::layoutJson()); }

// Bytes malloc has handed out and not taken back: what a leak would grow.
double heapInUse() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

extern "C" {

// features: null, or 2 ints per query: the compound children that answer
// (Registry::query, Registry::batch).
EMSCRIPTEN_KEEPALIVE int cds_query(int kind, int a, int b, const double* in, double* cache, double* out,
                                   int* features) {
  if (kind < 0 || kind >= static_cast<int>(api::Kind::Count)) {
    lastError() = {"invalid-argument", "query", "unknown query"};
    return 0;
  }
  return registry().query(static_cast<api::Kind>(kind), a, b, in, cache, out, &lastError(), features) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE int cds_batch(int kind, const int* handles, int nShapes, const double* poses,
                                   const std::uint32_t* pairs, int n, const double* extras, double* caches,
                                   double* out, int* features, double* barycentric, std::uint64_t* rayOrder) {
  if (kind < 0 || kind >= static_cast<int>(api::Kind::Count)) {
    lastError() = {"invalid-argument", "query", "unknown query"};
    return 0;
  }
  return registry().batch(static_cast<api::Kind>(kind), handles, nShapes, poses, pairs, n, extras, caches, out,
                          &lastError(), features, barycentric, rayOrder)
             ? 1
             : 0;
}

// Every contact of b with a within the margin in[14] (Registry::contacts):
// out gets the count written, truncated, iterations, then one
// kContactRecord per contact, at most `capacity`; features: null, or 2 ints
// per contact (the compound children).
EMSCRIPTEN_KEEPALIVE int cds_contacts(int a, int b, const double* in, double* out, int capacity, int* features) {
  return registry().contacts(a, b, in, out, capacity, &lastError(), features) ? 1 : 0;
}

// Registry::contactsBatch: n pairs, one margin each; contacts into records
// (capacity of them), offsets (n + 1), perPair (iterations, truncated) and
// features (2 ints per contact: the compound children; null: not asked).
EMSCRIPTEN_KEEPALIVE int cds_contacts_batch(const int* handles, int nShapes, const double* poses,
                                            const std::uint32_t* pairs, int n, const double* margins, double* records,
                                            int capacity, std::uint32_t* offsets, double* perPair, int* features) {
  return api::contactsBatch(registry(), handles, nShapes, poses, pairs, n, margins, records, capacity, offsets,
                            perPair, &lastError(), features)
             ? 1
             : 0;
}

// A mesh from flat arrays that mesh() copied into wasm memory as they were
// (web/lib/objects.ts): vertices x0, y0, z0, x1, … (nv numbers of
// MeshArrayType vertexType) and indices i0, j0, k0, i1, … (ni of
// indexType), scaled by [sx, sy, sz] as a scene's "scale" (bakeScale). The
// caller keeps and frees the arrays. The new shape's handle, or 0
// (lastError()): makeMeshFromArrays checks the lengths before reading.
EMSCRIPTEN_KEEPALIVE int cds_create_mesh(const void* vertices, double nv, int vertexType, const void* indices,
                                         double ni, int indexType, double sx, double sy, double sz) {
  Shape s;
  if (!makeMeshFromArrays({vertices, nv, vertexType}, {indices, ni, indexType}, &s, &lastError()) ||
      !scaleMeshShape(&s, {sx, sy, sz}, &lastError()))
    return 0;
  return registry().add(std::move(s), &lastError());
}

// The last mesh ray cast's triangle (NaN on a miss) and barycentric
// coordinates (NaN on a miss) into out[0..3]; after a mesh–convex pair
// query, its triangle (NaN when none; Registry::lastMeshHit()).
EMSCRIPTEN_KEEPALIVE void cds_last_mesh_hit(double* out) {
  const MeshRayHit& h = registry().lastMeshHit();
  const double nan = std::nan("");
  out[0] = h.hit ? h.triangle : nan;
  out[1] = h.hit ? h.barycentric.x : nan;
  out[2] = h.hit ? h.barycentric.y : nan;
  out[3] = h.hit ? h.barycentric.z : nan;
}

// The last project's feature (Registry::lastFeature()): its kind (the
// index of its FeatureKind name) and vertex count into out[0..1]; returns
// the vertices, valid until the next query.
EMSCRIPTEN_KEEPALIVE const int* cds_last_feature(int* out) {
  const PointFeature& f = registry().lastFeature();
  out[0] = static_cast<int>(f.kind);
  out[1] = static_cast<int>(f.vertices.size());
  return f.vertices.data();
}

EMSCRIPTEN_KEEPALIVE int cds_dispose(int handle) { return registry().remove(handle) ? 1 : 0; }

// ------------------------------------------------------------ worlds
// A new empty world's handle (> 0), or 0 when 65 535 are live; broadphase:
// 0 sweep and prune, 1 the AABB tree (api::WorldBroadphase).
EMSCRIPTEN_KEEPALIVE int cds_world_create(int broadphase) {
  if (broadphase != 0 && broadphase != 1) {
    lastError() = {"invalid-argument", "options.broadphase", "unknown broad phase"};
    return 0;
  }
  std::vector<WorldSlot>& w = worlds();
  std::size_t i = 0;
  while (i < w.size() && w[i].world) ++i;
  // The world, and the slots' array grown as emplace_back would grow it (old and new blocks live at once).
  double bytes = sizeof(api::World);
  if (i == w.size() && w.size() == w.capacity()) bytes += 3.0 * static_cast<double>(std::max<std::size_t>(w.capacity(), 1)) * sizeof(WorldSlot);
  if (!heapHasRoom(bytes, &lastError(), "world", "a new world")) return 0;
  if (i == w.size()) {
    if (w.size() >= (1u << kWorldSlotBits) - 1) {
      lastError() = {"invalid-argument", "world", "too many live worlds; dispose some first"};
      return 0;
    }
    w.emplace_back();
  }
  w[i].world = std::make_unique<api::World>(
      &registry(), broadphase == 0 ? api::WorldBroadphase::SweepAndPrune : api::WorldBroadphase::Tree);
  w[i].generation = w[i].generation % ((1 << (31 - kWorldSlotBits)) - 1) + 1;
  return (w[i].generation << kWorldSlotBits) | static_cast<int>(i + 1);
}

EMSCRIPTEN_KEEPALIVE int cds_world_dispose(int handle) {
  WorldSlot* slot = nullptr;
  if (worldOf(handle, &slot) == nullptr) return 0;
  slot->world.reset();
  std::vector<std::uint32_t>().swap(slot->pairs);
  std::vector<double>().swap(slot->contacts);
  return 1;
}

EMSCRIPTEN_KEEPALIVE int cds_live_worlds() {
  int n = 0;
  for (const WorldSlot& w : worlds()) n += w.world ? 1 : 0;
  return n;
}

// The body's id (> 0), or 0 (lastError()).
EMSCRIPTEN_KEEPALIVE int cds_world_add(int handle, int shape, const double* pose) {
  api::World* w = worldOf(handle);
  return w == nullptr ? 0 : w->add(shape, pose, &lastError());
}

EMSCRIPTEN_KEEPALIVE int cds_world_remove(int handle, int body) {
  api::World* w = worldOf(handle);
  return w != nullptr && w->remove(body, &lastError()) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE int cds_world_set_pose(int handle, int body, const double* pose) {
  api::World* w = worldOf(handle);
  return w != nullptr && w->setPose(body, pose, &lastError()) ? 1 : 0;
}

// The body's slot (its pose is poses[7·slot ..]), −1 when it is not live.
EMSCRIPTEN_KEEPALIVE int cds_world_slot(int handle, int body) {
  api::World* w = worldOf(handle);
  return w == nullptr ? -1 : w->slotOf(body);
}

// The pose array (7 doubles per slot; out[0] gets the number of slots), or
// null for a disposed world. Valid until the next add.
EMSCRIPTEN_KEEPALIVE double* cds_world_poses(int handle, int* out) {
  api::World* w = worldOf(handle);
  if (w == nullptr) return nullptr;
  out[0] = w->slots();
  return w->poses();
}

EMSCRIPTEN_KEEPALIVE int cds_world_set_mass(int handle, int body, double mass) {
  api::World* w = worldOf(handle);
  return w != nullptr && w->setMass(body, mass, &lastError()) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE double cds_world_mass(int handle, int body) {
  api::World* w = worldOf(handle);
  return w == nullptr ? 0 : w->mass(body);
}

// The velocity array (6 doubles per slot), or null for a disposed world.
// Valid until the next add.
EMSCRIPTEN_KEEPALIVE double* cds_world_velocities(int handle) {
  api::World* w = worldOf(handle);
  return w == nullptr ? nullptr : w->velocities();
}

// World::step with the settings in[kWorldStepSettings]; out gets the report:
// manifolds, points, warmStarted, ccdClamped, the contact count, sleeping,
// reusedManifolds (the contacts themselves: cds_world_contacts).
EMSCRIPTEN_KEEPALIVE int cds_world_step(int handle, const double* in, double* out) {
  api::World* w = worldOf(handle);
  if (w == nullptr) return 0;
  StepSettings s;
  s.dt = in[0];
  s.gravity = {in[1], in[2], in[3]};
  // Whole numbers within the solver's ranges pass; anything else becomes 0, which it refuses by name.
  const auto whole = [](double x) { return x >= 1 && x <= 1e6 && x == std::floor(x) ? static_cast<int>(x) : 0; };
  s.substeps = whole(in[4]);
  s.velocityIterations = whole(in[5]);
  s.friction = in[6];
  s.restitution = in[7];
  s.continuous = in[8] != 0;
  s.sleep = in[9] != 0;
  s.manifoldReuse = in[10];
  StepReport report;
  if (!w->step(s, &lastError(), &report)) return 0;
  out[0] = report.manifolds;
  out[1] = report.points;
  out[2] = report.warmStarted;
  out[3] = report.ccdClamped;
  out[4] = static_cast<double>(w->contacts().size());
  out[5] = report.sleeping;
  out[6] = report.reusedManifolds;
  return 1;
}

// The last step's contacts as JS reads them (kWorldContactSize doubles each,
// as many as that step's report said), copied when asked for rather than by
// every step: a resting pile keeps thousands. Null for a disposed world.
EMSCRIPTEN_KEEPALIVE double* cds_world_contacts(int handle) {
  WorldSlot* slot = nullptr;
  api::World* w = worldOf(handle, &slot);
  if (w == nullptr) return nullptr;
  slot->contacts.clear();
  for (const SolverContact& c : w->contacts()) {
    const double d[kWorldContactSize] = {
        static_cast<double>(c.a), static_cast<double>(c.b), c.pointA.x, c.pointA.y, c.pointA.z, c.pointB.x,
        c.pointB.y, c.pointB.z, c.normal.x, c.normal.y, c.normal.z, c.distance, c.normalImpulse,
        c.frictionImpulse.x, c.frictionImpulse.y, c.frictionImpulse.z};
    slot->contacts.insert(slot->contacts.end(), d, d + kWorldContactSize);
  }
  return slot->contacts.data();
}

void putHit(const api::WorldHit& h, double* out) {
  const double d[kWorldHitSize] = {static_cast<double>(h.slot), h.t, h.point.x, h.point.y, h.point.z, h.normal.x,
                                   h.normal.y, h.normal.z, h.startedInside ? 1.0 : 0.0, h.pointB.x, h.pointB.y, h.pointB.z};
  std::copy(d, d + kWorldHitSize, out);
}

// World::raycast of ray[7] (origin, direction, maxT): the number of hits
// (−1: lastError()), kWorldHitSize doubles each at *out.
EMSCRIPTEN_KEEPALIVE int cds_world_raycast(int handle, const double* ray, int all, double** out) {
  WorldSlot* slot = nullptr;
  api::World* w = worldOf(handle, &slot);
  if (w == nullptr || !w->raycast(ray, all != 0, &slot->hits, &lastError())) return -1;
  slot->hitNumbers.resize(slot->hits.size() * kWorldHitSize);
  for (std::size_t i = 0; i < slot->hits.size(); ++i) putHit(slot->hits[i], slot->hitNumbers.data() + kWorldHitSize * i);
  *out = slot->hitNumbers.data();
  return static_cast<int>(slot->hits.size());
}

// World::overlap: the number of bodies (−1: lastError()), their slots at *out.
EMSCRIPTEN_KEEPALIVE int cds_world_overlap(int handle, int shape, const double* pose, int** out) {
  WorldSlot* slot = nullptr;
  api::World* w = worldOf(handle, &slot);
  if (w == nullptr || !w->overlap(shape, pose, &slot->overlaps, &lastError())) return -1;
  *out = slot->overlaps.data();
  return static_cast<int>(slot->overlaps.size());
}

// World::shapecast of `shape` at in[0..6] moved by in[7..9]: 1 with the hit
// in out[kWorldHitSize] (slot −1: none), 0 on an error.
EMSCRIPTEN_KEEPALIVE int cds_world_shapecast(int handle, int shape, const double* in, double* out) {
  api::World* w = worldOf(handle);
  api::WorldHit h;
  if (w == nullptr || !w->shapecast(shape, in, in + 7, &h, &lastError())) return 0;
  putHit(h, out);
  return 1;
}

// World::pairs: the number of pairs (−1 on an error), their slots (2 per
// pair) at *pairs and the number of candidate pairs in *candidates.
EMSCRIPTEN_KEEPALIVE int cds_world_pairs(int handle, std::uint32_t** pairs, double* candidates) {
  WorldSlot* slot = nullptr;
  api::World* w = worldOf(handle, &slot);
  if (w == nullptr) return -1;
  std::int64_t n = 0;
  if (!w->pairs(&slot->pairs, &lastError(), &n)) return -1;
  *pairs = slot->pairs.data();
  *candidates = static_cast<double>(n);
  return static_cast<int>(slot->pairs.size() / 2);
}

EMSCRIPTEN_KEEPALIVE int cds_live_shapes() { return registry().live(); }

EMSCRIPTEN_KEEPALIVE int cds_set_tolerance(double t) { return registry().setTolerance(t, &lastError()) ? 1 : 0; }

EMSCRIPTEN_KEEPALIVE double cds_tolerance() { return registry().tolerance(); }

}  // extern "C"

EMSCRIPTEN_BINDINGS(collidoscope) {
  emscripten::function("createShape", &createShapeJson);
  emscripten::function("createPolytope", &createPolytopeArray);
  emscripten::function("meshInfo", &meshInfoJson);
  emscripten::function("prepareMesh", &prepareMeshJson);
  emscripten::function("sceneWarnings", &sceneWarningsJson);
  emscripten::function("shapeSpec", &shapeSpecJson);
  emscripten::function("traceQuery", &traceQuery);
  emscripten::function("sceneOfQuery", &sceneOfQuery);
  emscripten::function("layout", &layout);
  emscripten::function("lastError", &lastErrorJson);
  emscripten::function("heapInUse", &heapInUse);
  emscripten::function("hullOfPoints", &hullOfArray);
  emscripten::function("boundsOfPoints", &boundsOfArray);
  emscripten::function("runScene", &runSceneJson);
  emscripten::function("validateScene", &validateSceneJson);
  emscripten::function("shapeSurface", &shapeSurfaceJson);
  emscripten::function("minkowskiSurface", &minkowskiSurfaceJson);
}
