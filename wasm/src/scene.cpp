// collidoscope — scene format v1: parsing, validation, running (see scene.h).
#include "collidoscope/scene.h"

#include <array>
#include <cmath>
#include <type_traits>
#include <utility>

#include "collidoscope/api.h"
#include "collidoscope/chung_wang.h"
#include "collidoscope/closed_form.h"
#include "collidoscope/contact.h"
#include "collidoscope/epa.h"
#include "collidoscope/epa2d.h"
#include "collidoscope/gjk.h"
#include "collidoscope/hull.h"
#include "collidoscope/compound.h"
#include "collidoscope/heap_room.h"
#include "collidoscope/heightfield.h"
#include "collidoscope/mesh_pair.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/obb.h"
#include "collidoscope/plane.h"
#include "collidoscope/point_query.h"
#include "collidoscope/portable_math.h"
#include "collidoscope/raycast.h"
#include "collidoscope/sat.h"
#include "collidoscope/schema.h"
#include "collidoscope/schema_json.h"
#include "collidoscope/scene_read.h"
#include "collidoscope/support.h"
#include "collidoscope/world.h"

// This file reads scenes and writes their answers and traces as JSON: code
// run once per scene, not per query (the queries it calls are compiled
// where they are defined, at -O2 as the rest). In wasm (clang) its own
// functions are built for size: a fifth of the default flavour's download
// was here.
#if defined(__clang__)
#pragma clang attribute push (__attribute__((minsize)), apply_to = function)
#endif

namespace collidoscope {

using namespace jsonout;

namespace {

const char* const kQueryNames[] = {"intersect", "distance", "penetration", "chungwang", "raycast",  "shapecast",
                                   "hull",      "obb",      "sat",         "contains",  "project",   "contacts",
                                   "obbtree",   "contact",  "pairs",       "simulate"};
constexpr int kQueryCount = static_cast<int>(sizeof kQueryNames / sizeof kQueryNames[0]);

bool fail(SceneError* err, const std::string& field, const std::string& message) {
  *err = {"invalid-scene", field, message};
  return false;
}

std::string quoted(const std::string& s) {
  // Field names from the input are echoed in messages: cap their length so
  // a hostile key cannot blow up an error message.
  return "\"" + clipForMessage(s) + "\"";
}

// Non-finite numbers cannot be written in JSON; the JS API sends them as
// these strings so the error can say what the caller passed.
bool isNonFiniteMarker(const JsonValue& v) {
  return v.isString() && (v.string == "NaN" || v.string == "Infinity" || v.string == "-Infinity");
}

// The index of `name` in names[0, n), or -1.
int indexOfName(const char* const* names, int n, const std::string& name) {
  for (int i = 0; i < n; ++i)
    if (name == names[i]) return i;
  return -1;
}

bool readNumber(const JsonValue& v, const std::string& field, double* out, SceneError* err) {
  if (isNonFiniteMarker(v)) return fail(err, field, "must be a finite number, got " + v.string);
  if (!v.isNumber()) return fail(err, field, std::string("must be a number, got ") + jsonKindName(v.kind));
  if (!std::isfinite(v.number)) return fail(err, field, "must be a finite number (it overflows a double)");
  *out = v.number;
  return true;
}

bool readVec(const JsonValue& v, const std::string& field, int n, double* out, SceneError* err) {
  if (!v.isArray())
    return fail(err, field, "must be an array of " + std::to_string(n) + " numbers, got " + jsonKindName(v.kind));
  if (static_cast<int>(v.items.size()) != n)
    return fail(err, field,
                "must have " + std::to_string(n) + " numbers, got " + std::to_string(v.items.size()));
  for (int i = 0; i < n; ++i)
    if (!readNumber(v.items[i], field + "[" + std::to_string(i) + "]", &out[i], err)) return false;
  return true;
}

bool readVec3(const JsonValue& v, const std::string& field, Vec3* out, SceneError* err) {
  double d[3];
  if (!readVec(v, field, 3, d, err)) return false;
  *out = {d[0], d[1], d[2]};
  return true;
}

// A vector of a 2D scene: [x, y]. A 3-vector gets a message saying why.
bool readVec2(const JsonValue& v, const std::string& field, Vec3* out, SceneError* err) {
  if (v.isArray() && v.items.size() == 3)
    return fail(err, field, "must have 2 numbers, got 3 (a 2D scene's vectors are [x, y])");
  double d[2];
  if (!readVec(v, field, 2, d, err)) return false;
  *out = {d[0], d[1], 0};
  return true;
}

// A ray origin or direction, or a shape-cast translation (of a scene with
// `dimension` components): within
// kMaxMagnitude, as positions are (beyond it the casts' arithmetic
// overflows: a hit reported at t = 0, or a miss).
bool readCastVec(const JsonValue& v, const std::string& field, int dimension, Vec3* out, SceneError* err) {
  if (!(dimension == 3 ? readVec3 : readVec2)(v, field, out, err)) return false;
  for (int i = 0; i < dimension; ++i)
    if (std::fabs((*out)[i]) > kMaxMagnitude)
      return fail(err, field + "[" + std::to_string(i) + "]", "must be at most 1e15 in magnitude");
  return true;
}

// The parameters of a shape (`params`: its keys, nullptr where unused),
// its margin and its position, with vectors of `dimension` components.
bool readShapeFields(const JsonValue& json, const std::string& prefix, const std::string& typeName,
                     const char* const params[2], int dimension, Shape* s, SceneError* err) {
  const auto readVector = dimension == 3 ? readVec3 : readVec2;
  if (s->type == ShapeType::Mesh &&
      !(typeName == "heightfield" ? readHeightfieldShape : readMeshShape)(json, prefix, s, err))
    return false;
  if (s->type == ShapeType::Compound && !readCompoundShape(json, prefix, s, err)) return false;
  for (int i = 0; i < 2 && s->type != ShapeType::Mesh && s->type != ShapeType::Compound; ++i) {
    const char* k = params[i];
    if (k == nullptr) continue;
    const JsonValue* v = json.find(k);
    const std::string field = prefix + k;
    if (v == nullptr) return fail(err, field, "is missing (a " + typeName + " needs it)");
    const std::string key = k;
    if (key == "radius") {
      if (!readNumber(*v, field, &s->radius, err)) return false;
    } else if (key == "halfHeight") {
      if (!readNumber(*v, field, &s->halfHeight, err)) return false;
    } else if (key == "halfExtents") {
      if (!readVector(*v, field, &s->halfExtents, err)) return false;
    } else if (key == "radii") {
      if (!readVec3(*v, field, &s->radii, err)) return false;
    } else if (key == "normal") {
      if (!readVec3(*v, field, &s->normal, err)) return false;
    } else if (key == "offset") {
      if (!readNumber(*v, field, &s->offset, err)) return false;
    } else {  // points
      if (!v->isArray())
        return fail(err, field, std::string("must be an array of ") + (dimension == 3 ? "[x, y, z]" : "[x, y]") +
                                    " points, got " + jsonKindName(v->kind));
      if (v->items.size() > kMaxPolytopePoints)
        return fail(err, field, "has " + std::to_string(v->items.size()) + " points; the limit is 1000000");
      if (dimension == 2 && s->type == ShapeType::Segment && v->items.size() != 2)
        return fail(err, field, "must hold 2 points (the segment's ends), got " + std::to_string(v->items.size()));
      s->points.resize(v->items.size());
      for (std::size_t j = 0; j < v->items.size(); ++j)
        if (!readVector(v->items[j], field + "[" + std::to_string(j) + "]", &s->points[j], err)) return false;
    }
  }
  if (const JsonValue* m = json.find("margin")) {
    if (!readNumber(*m, prefix + "margin", &s->margin, err)) return false;
  }
  if (const JsonValue* p = json.find("position")) {
    if (!readVector(*p, prefix + "position", &s->pose.position, err)) return false;
  }
  return true;
}

// Allowed keys per shape type, besides type/position/rotation/margin.
struct TypeKeys {
  const char* keys[2];
};

TypeKeys keysOf(ShapeType t) {
  switch (t) {
    case ShapeType::Point: return {{nullptr, nullptr}};
    case ShapeType::Sphere: return {{"radius", nullptr}};
    case ShapeType::Box: return {{"halfExtents", nullptr}};
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
    case ShapeType::Cone: return {{"radius", "halfHeight"}};
    case ShapeType::Ellipsoid: return {{"radii", nullptr}};
    case ShapeType::Plane: return {{"normal", "offset"}};
    case ShapeType::Mesh: return {{"vertices", "triangles"}};
    case ShapeType::Compound: return {{"children", nullptr}};
    default: return {{"points", nullptr}};
  }
}

bool checkKeys(const JsonValue& obj, const std::string& path, const char* const* allowed, int n, SceneError* err) {
  for (const auto& m : obj.members) {
    bool ok = false;
    for (int i = 0; i < n && !ok; ++i) ok = allowed[i] != nullptr && m.first == allowed[i];
    if (!ok) return fail(err, path + clipForMessage(m.first), "unknown field " + quoted(m.first));
  }
  return true;
}

// Type, sizes, margin and scale come from the shape as written (before
// bakeScale), the pose from the live shape.
void writeShape(JsonWriter& w, const Shape& live) {
  const Shape& s = live.written ? *live.written : live;
  const Heightfield* field = s.type == ShapeType::Mesh ? s.meshData->heightfield.get() : nullptr;
  w.beginObject().key("type").value(field != nullptr ? "heightfield" : shapeTypeName(s.type));
  switch (s.type) {
    case ShapeType::Point: break;
    case ShapeType::Sphere: w.key("radius").value(s.radius); break;
    case ShapeType::Box: w.key("halfExtents"); writeVec(w, s.halfExtents); break;
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
    case ShapeType::Cone: w.key("radius").value(s.radius).key("halfHeight").value(s.halfHeight); break;
    case ShapeType::Ellipsoid: w.key("radii"); writeVec(w, s.radii); break;
    case ShapeType::Plane: w.key("normal"); writeVec(w, s.normal); w.key("offset").value(s.offset); break;
    case ShapeType::Compound:
    case ShapeType::Mesh: writeLevelShapeFields(w, s); break;
    default:
      w.key("points").beginArray();
      for (const Vec3& p : s.points) writeVec(w, p);
      w.endArray();
  }
  if (s.margin != 0) w.key("margin").value(s.margin);
  if (!isUnscaled(s)) {
    w.key("scale");
    writeVec(w, s.scale);
  }
  w.key("position");
  writeVec(w, live.pose.position);
  const double q[4] = {live.pose.rotation.x, live.pose.rotation.y, live.pose.rotation.z, live.pose.rotation.w};
  w.key("rotation").vec(q, 4);
  w.endObject();
}

// Directions spread evenly over the unit sphere (Fibonacci lattice).
Vec3 sphereDirection(int i, int n) {
  const double golden = 2.399963229728653;  // π(3 − √5), the golden angle
  const double y = 1 - (2.0 * i + 1) / n;
  const double r = std::sqrt(std::fmax(0.0, 1 - y * y));
  const double phi = golden * i;
  return {r * portable::cos(phi), y, r * portable::sin(phi)};
}

int clampSamples(int samples) { return samples < kMinSamples ? kMinSamples : (samples > kMaxSamples ? kMaxSamples : samples); }

std::vector<Vec3> worldCoreVertices(const Shape& s) {
  std::vector<Vec3> v = localCoreVertices(s);
  for (Vec3& p : v) p = s.pose.apply(p);
  return v;
}

}  // namespace

// The readers above for the mesh scenes (scene_read.h).
namespace sceneread {
bool fail(SceneError* err, const std::string& field, const std::string& message) {
  return collidoscope::fail(err, field, message);
}
bool failShape(SceneError* err, const std::string& prefix, const ShapeError& se) {
  if (!se.outOfMemory) return collidoscope::fail(err, prefix + se.field, se.message);
  *err = {kOutOfMemoryCode, prefix + se.field, se.message};
  return false;
}
bool readVec(const JsonValue& v, const std::string& field, int n, double* out, SceneError* err) {
  return collidoscope::readVec(v, field, n, out, err);
}
void writeShape(JsonWriter& w, const Shape& s) { collidoscope::writeShape(w, s); }
bool readVec3(const JsonValue& v, const std::string& field, Vec3* out, SceneError* err) {
  return collidoscope::readVec3(v, field, out, err);
}
bool readNumber(const JsonValue& v, const std::string& field, double* out, SceneError* err) {
  return collidoscope::readNumber(v, field, out, err);
}
}  // namespace sceneread

const char* queryName(QueryKind q) { return kQueryNames[static_cast<int>(q)]; }

bool normalizeRotation(double q[4]) {
  double m = 0;
  for (int i = 0; i < 4; ++i) m = std::fabs(q[i]) > m ? std::fabs(q[i]) : m;  // as fmax (NaN skipped), inlined
  if (!(m > 0)) return false;
  // A quaternion that is already unit to rounding is kept bit for bit, so
  // normalizing is idempotent and a scene written back out (permalinks,
  // sceneToJson) reproduces the same bits. Others are normalized, scaled
  // first so that tiny or huge quaternions survive.
  const double qq = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (!(std::fabs(qq - 1) <= kUnitQuatSlack)) {
    for (int i = 0; i < 4; ++i) q[i] /= m;
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; ++i) q[i] /= n;
  }
  return true;
}

bool parseShape(const JsonValue& json, const std::string& path, Shape* out, SceneError* err) {
  if (!json.isObject()) return fail(err, path.empty() ? "shape" : path, std::string("must be an object, got ") + jsonKindName(json.kind));
  const std::string prefix = path.empty() ? "" : path + ".";
  const JsonValue* type = json.find("type");
  if (type == nullptr) return fail(err, prefix + "type", "is missing (one of point, sphere, box, capsule, cylinder, cone, ellipsoid, segment, triangle, polytope, plane, mesh, heightfield, compound)");
  if (!type->isString()) return fail(err, prefix + "type", std::string("must be a string, got ") + jsonKindName(type->kind));
  Shape s;
  // A heightfield is a mesh to every query (heightfield.h); only its keys differ.
  const bool heightfield = type->string == "heightfield";
  if (heightfield) s.type = ShapeType::Mesh;
  if (!heightfield && !parseShapeType(type->string, &s.type))
    return fail(err, prefix + "type",
                "unknown shape type " + quoted(type->string) +
                    " (expected point, sphere, box, capsule, cylinder, cone, ellipsoid, segment, triangle, polytope, plane, mesh, heightfield or compound)");
  const TypeKeys tk = heightfield ? TypeKeys{{"heights", "cellSize"}} : keysOf(s.type);
  const char* const allowed[] = {"type", "position", "rotation", "margin", "scale", tk.keys[0], tk.keys[1]};
  if (!checkKeys(json, prefix, allowed, 7, err)) return false;

  if (!readShapeFields(json, prefix, type->string, tk.keys, 3, &s, err)) return false;
  if (const JsonValue* sc = json.find("scale")) {
    if (!readVec3(*sc, prefix + "scale", &s.scale, err)) return false;
  }
  if (const JsonValue* r = json.find("rotation")) {
    double q[4];
    if (!readVec(*r, prefix + "rotation", 4, q, err)) return false;
    if (!normalizeRotation(q)) return fail(err, prefix + "rotation", "must not be the zero quaternion");
    s.pose.rotation = {q[0], q[1], q[2], q[3]};
  }
  ShapeError se;
  if (!validateShape(s, &se)) return fail(err, prefix + se.field, se.message);
  // A scaled mesh is built again (bakeScale), beside the one read.
  if (s.type == ShapeType::Mesh && !scaledMeshHasRoom(s, prefix, err)) return false;
  bakeScale(&s);
  if (s.type == ShapeType::Mesh && !isUnscaled(s))
    return fail(err, prefix + "scale", "the scaled mesh is not a valid mesh (its vertices grow past 1e15)");
  *out = std::move(s);
  return true;
}

namespace {

const char* const kPlanarTypeNames[] = {"point", "circle", "box", "capsule", "segment", "polygon"};
const char* const kPlanarTypeList = "point, circle, box, capsule, segment or polygon";

// Parses one SHAPE of a 2D scene into the same shape in the plane z = 0.
bool parsePlanarShape(const JsonValue& json, const std::string& path, Shape* out, PlanarShape* planar,
                      SceneError* err) {
  if (!json.isObject()) return fail(err, path, std::string("must be an object, got ") + jsonKindName(json.kind));
  const std::string prefix = path + ".";
  const JsonValue* type = json.find("type");
  if (type == nullptr) return fail(err, prefix + "type", std::string("is missing (one of ") + kPlanarTypeList + ")");
  if (!type->isString()) return fail(err, prefix + "type", std::string("must be a string, got ") + jsonKindName(type->kind));
  PlanarShape ps;
  const int typeIndex = indexOfName(kPlanarTypeNames, 6, type->string);
  if (typeIndex >= 0) ps.type = static_cast<PlanarType>(typeIndex);
  if (typeIndex < 0)
    return fail(err, prefix + "type",
                "unknown 2D shape type " + quoted(type->string) + " (expected " + kPlanarTypeList +
                    "; the 3D types need a scene without \"dimension\": 2)");
  if (json.find("rotation") != nullptr)
    return fail(err, prefix + "rotation",
                ps.type == PlanarType::Circle
                    ? "is a 3D quaternion; a circle in a 2D scene has no rotation"
                    : "is a 3D quaternion; a 2D shape turns by \"angle\" (radians, counter-clockwise)");
  if (ps.type == PlanarType::Circle && json.find("angle") != nullptr)
    return fail(err, prefix + "angle", "is not used by a circle (a circle has no angle)");
  const char* params[2] = {nullptr, nullptr};
  Shape s;
  switch (ps.type) {
    case PlanarType::Point: s.type = ShapeType::Point; break;
    case PlanarType::Circle: s.type = ShapeType::Sphere; params[0] = "radius"; break;
    case PlanarType::Box: s.type = ShapeType::Box; params[0] = "halfExtents"; break;
    case PlanarType::Capsule: s.type = ShapeType::Capsule; params[0] = "radius"; params[1] = "halfHeight"; break;
    case PlanarType::Segment: s.type = ShapeType::Segment; params[0] = "points"; break;
    case PlanarType::Polygon: s.type = ShapeType::Polytope; params[0] = "points"; break;
  }
  const char* const allowed[] = {"type", "position", "angle", "margin", params[0], params[1]};
  if (!checkKeys(json, prefix, allowed, 6, err)) return false;
  if (!readShapeFields(json, prefix, type->string, params, 2, &s, err)) return false;
  if (const JsonValue* a = json.find("angle")) {
    if (!readNumber(*a, prefix + "angle", &ps.angle, err)) return false;
    // The turn about z as a quaternion, normalized as a 3D scene's rotation
    // [0, 0, sin(θ/2), cos(θ/2)] is, so the 2D scene and its 3D twin run on
    // the same bits.
    double q[4] = {0, 0, portable::sin(ps.angle / 2), portable::cos(ps.angle / 2)};
    normalizeRotation(q);
    s.pose.rotation = {q[0], q[1], q[2], q[3]};
  }
  ShapeError se;
  if (!validateShape(s, &se)) return fail(err, prefix + se.field, se.message);
  *out = std::move(s);
  *planar = ps;
  return true;
}

void writePlanarShape(JsonWriter& w, const Shape& s, const PlanarShape& ps) {
  w.beginObject().key("type").value(planarTypeName(ps.type));
  switch (ps.type) {
    case PlanarType::Point: break;
    case PlanarType::Circle: w.key("radius").value(s.radius); break;
    case PlanarType::Box: w.key("halfExtents"); writeVec(w, s.halfExtents); break;
    case PlanarType::Capsule: w.key("radius").value(s.radius).key("halfHeight").value(s.halfHeight); break;
    case PlanarType::Segment:
    case PlanarType::Polygon:
      w.key("points").beginArray();
      for (const Vec3& p : s.points) writeVec(w, p);
      w.endArray();
  }
  if (s.margin != 0) w.key("margin").value(s.margin);
  w.key("position");
  writeVec(w, s.pose.position);
  if (ps.type != PlanarType::Circle) w.key("angle").value(ps.angle);
  w.endObject();
}

}  // namespace

const char* planarTypeName(PlanarType t) { return kPlanarTypeNames[static_cast<int>(t)]; }

bool runsInPlane(QueryKind q) {
  return q == QueryKind::Intersect || q == QueryKind::Distance || q == QueryKind::Penetration ||
         q == QueryKind::Raycast || q == QueryKind::Shapecast;
}

bool parseScene(const std::string& text, Scene* out, SceneError* err) {
  JsonValue json;
  std::string why;
  if (!parseJson(text, &json, &why)) {
    *err = {"invalid-json", "", "the scene is not valid JSON: " + why};
    return false;
  }
  return parseScene(json, out, err);
}

// "bodies", "gravity", "dt", "steps" and "sleep": only in a "simulate" scene,
// after its shapes were read.
static bool readSimulation(const JsonValue& json, Scene* scene, SceneError* err) {
  const bool simulate = scene->query == QueryKind::Simulate;
  for (const char* key : {"bodies", "gravity", "dt", "steps", "sleep"})
    if (!simulate && json.find(key) != nullptr) return fail(err, key, "is only used by the simulate query");
  if (!simulate) return true;
  const JsonValue* bodies = json.find("bodies");
  if (bodies == nullptr) return fail(err, "bodies", "is missing (the simulate query needs the bodies that move: [{\"shape\": i, ...}])");
  if (!bodies->isArray()) return fail(err, "bodies", std::string("must be an array of bodies, got ") + jsonKindName(bodies->kind));
  std::vector<unsigned char> taken(scene->shapes.size(), 0);
  for (std::size_t i = 0; i < bodies->items.size(); ++i) {
    const JsonValue& b = bodies->items[i];
    const std::string path = "bodies[" + std::to_string(i) + "]";
    if (!b.isObject()) return fail(err, path, std::string("must be an object, got ") + jsonKindName(b.kind));
    static const char* const keys[] = {"shape", "velocity", "angularVelocity", "mass"};
    if (!checkKeys(b, path + ".", keys, 4, err)) return false;
    SceneBody body;
    const JsonValue* shape = b.find("shape");
    if (shape == nullptr) return fail(err, path + ".shape", "is missing (the index of the body's shape in \"shapes\")");
    double index = 0;
    if (!readNumber(*shape, path + ".shape", &index, err)) return false;
    if (index < 0 || index != std::floor(index) || index >= static_cast<double>(scene->shapes.size()))
      return fail(err, path + ".shape",
                  "must be the index of a shape (0 to " + std::to_string(static_cast<long long>(scene->shapes.size()) - 1) + ")");
    body.shape = static_cast<int>(index);
    if (taken[static_cast<std::size_t>(body.shape)]++)
      return fail(err, path + ".shape", "names a shape that another body already moves");
    if (const JsonValue* v = b.find("velocity"))
      if (!readCastVec(*v, path + ".velocity", 3, &body.velocity, err)) return false;
    if (const JsonValue* w = b.find("angularVelocity"))
      if (!readCastVec(*w, path + ".angularVelocity", 3, &body.angularVelocity, err)) return false;
    if (const JsonValue* m = b.find("mass")) {
      if (!readNumber(*m, path + ".mass", &body.mass, err)) return false;
      if (body.mass < 0) return fail(err, path + ".mass", "must not be negative (0: static)");
    }
    scene->bodies.push_back(body);
  }
  if (const JsonValue* g = json.find("gravity"))
    if (!readCastVec(*g, "gravity", 3, &scene->gravity, err)) return false;
  if (const JsonValue* dt = json.find("dt")) {
    if (!readNumber(*dt, "dt", &scene->dt, err)) return false;
    if (!(scene->dt > 0) || scene->dt > 1e6) return fail(err, "dt", "must be a positive number of seconds (at most 1e6)");
  }
  if (const JsonValue* steps = json.find("steps")) {
    double n = 0;
    if (!readNumber(*steps, "steps", &n, err)) return false;
    if (n < 0 || n != std::floor(n) || n > kMaxSimulateSteps)
      return fail(err, "steps", "must be a whole number from 0 to " + std::to_string(kMaxSimulateSteps));
    scene->steps = static_cast<int>(n);
  }
  if (const JsonValue* sleep = json.find("sleep")) {
    if (sleep->kind != JsonValue::Kind::Bool)
      return fail(err, "sleep", std::string("must be true or false, got ") + jsonKindName(sleep->kind));
    scene->sleep = sleep->boolean;
  }
  if (static_cast<double>(scene->steps) * static_cast<double>(scene->shapes.size()) > kMaxSimulateWork)
    return fail(err, "steps", "times the number of shapes must be at most 1e7 (a scene is replayed in one call)");
  return true;
}

bool parseScene(const JsonValue& json, Scene* out, SceneError* err) {
  if (!json.isObject()) return fail(err, "", std::string("a scene must be a JSON object, got ") + jsonKindName(json.kind));
  static const char* const allowed[] = {"version", "dimension", "shapes",      "query", "ray",    "motion", "point",
                                        "closedForms", "step",  "margin", "bodies", "gravity", "dt", "steps", "sleep"};
  if (!checkKeys(json, "", allowed, 15, err)) return false;

  Scene scene;
  const JsonValue* version = json.find("version");
  if (version == nullptr) return fail(err, "version", "is missing (this is scene format version 1)");
  if (!version->isNumber() || version->number != 1)
    return fail(err, "version", "must be 1 (the only scene format version this build reads)");
  if (const JsonValue* dim = json.find("dimension")) {
    if (!dim->isNumber() || (dim->number != 2 && dim->number != 3))
      return fail(err, "dimension", "must be 2 (a scene in the plane) or 3 (the default)");
    scene.dimension = static_cast<int>(dim->number);
  }
  const bool planar = scene.dimension == 2;

  const JsonValue* query = json.find("query");
  if (query == nullptr) return fail(err, "query", "is missing");
  if (!query->isString()) return fail(err, "query", std::string("must be a string, got ") + jsonKindName(query->kind));
  const int queryIndex = indexOfName(kQueryNames, kQueryCount, query->string);
  if (queryIndex >= 0) scene.query = static_cast<QueryKind>(queryIndex);
  if (queryIndex < 0)
    return fail(err, "query", "unknown query " + quoted(query->string) +
                                  " (expected intersect, distance, penetration, chungwang, raycast, shapecast, "
                                  "hull, obb, sat, contains, project, contact, contacts, obbtree, pairs or simulate)");
  if (planar && !runsInPlane(scene.query)) {
    *err = {"unsupported-query", "query",
            "query " + quoted(query->string) +
                " is not available for 2D scenes (they run intersect, distance, penetration, raycast and shapecast)"};
    return false;
  }

  const JsonValue* shapes = json.find("shapes");
  if (shapes == nullptr) return fail(err, "shapes", "is missing");
  if (!shapes->isArray()) return fail(err, "shapes", std::string("must be an array of shapes, got ") + jsonKindName(shapes->kind));
  const bool pointQuery = scene.query == QueryKind::Contains || scene.query == QueryKind::Project;
  const bool oneShape = scene.query == QueryKind::Hull || scene.query == QueryKind::Obb ||
                        scene.query == QueryKind::Raycast || pointQuery || scene.query == QueryKind::ObbTree;
  const std::size_t need = oneShape ? 1 : 2;
  const bool world = scene.query == QueryKind::Pairs || scene.query == QueryKind::Simulate;
  if (world && shapes->items.size() > static_cast<std::size_t>(api::kMaxBodies))
    return fail(err, "shapes", "holds " + std::to_string(shapes->items.size()) + " shapes; a world scene takes at most " +
                                   std::to_string(api::kMaxBodies));
  if (!world && (shapes->items.size() < need || shapes->items.size() > 2))
    return fail(err, "shapes",
                std::string("query ") + quoted(query->string) + " needs " + (oneShape ? "1 shape (A)" : "2 shapes (A and B)") +
                    ", got " + std::to_string(shapes->items.size()));
  for (std::size_t i = 0; i < shapes->items.size(); ++i) {
    Shape s;
    const std::string path = "shapes[" + std::to_string(i) + "]";
    if (planar) {
      PlanarShape ps;
      if (!parsePlanarShape(shapes->items[i], path, &s, &ps, err)) return false;
      scene.planar.push_back(ps);
    } else if (!parseShape(shapes->items[i], path, &s, err)) {
      return false;
    }
    scene.shapes.push_back(std::move(s));
  }

  if (const JsonValue* ray = json.find("ray")) {
    if (!ray->isObject()) return fail(err, "ray", std::string("must be an object, got ") + jsonKindName(ray->kind));
    static const char* const rayKeys[] = {"origin", "direction", "maxT"};
    if (!checkKeys(*ray, "ray.", rayKeys, 3, err)) return false;
    const JsonValue* o = ray->find("origin");
    const JsonValue* d = ray->find("direction");
    if (o == nullptr) return fail(err, "ray.origin", "is missing");
    if (d == nullptr) return fail(err, "ray.direction", "is missing");
    if (!readCastVec(*o, "ray.origin", scene.dimension, &scene.ray.origin, err) ||
        !readCastVec(*d, "ray.direction", scene.dimension, &scene.ray.direction, err))
      return false;
    if (const JsonValue* t = ray->find("maxT")) {
      if (!readNumber(*t, "ray.maxT", &scene.ray.maxT, err)) return false;
      if (scene.ray.maxT < 0) return fail(err, "ray.maxT", "must not be negative");
    }
    if (!(maxAbs(scene.ray.direction) > 0)) return fail(err, "ray.direction", "must not be the zero vector");
    scene.hasRay = true;
  }
  if (const JsonValue* motion = json.find("motion")) {
    if (!motion->isObject()) return fail(err, "motion", std::string("must be an object, got ") + jsonKindName(motion->kind));
    static const char* const motionKeys[] = {"translationA", "translationB"};
    if (!checkKeys(*motion, "motion.", motionKeys, 2, err)) return false;
    if (const JsonValue* a = motion->find("translationA"))
      if (!readCastVec(*a, "motion.translationA", scene.dimension, &scene.motion.translationA, err)) return false;
    if (const JsonValue* b = motion->find("translationB"))
      if (!readCastVec(*b, "motion.translationB", scene.dimension, &scene.motion.translationB, err)) return false;
    scene.hasMotion = true;
  }
  if (const JsonValue* point = json.find("point")) {
    if (!pointQuery) return fail(err, "point", "is only used by the contains and project queries");
    if (!readCastVec(*point, "point", scene.dimension, &scene.point, err)) return false;
    scene.hasPoint = true;
  }
  if (pointQuery && !scene.hasPoint)
    return fail(err, "point", std::string("is missing (the ") + queryName(scene.query) + " query needs \"point\": [x, y, z])");
  if (scene.query == QueryKind::Raycast && !scene.hasRay)
    return fail(err, "ray", "is missing (the raycast query needs {\"origin\", \"direction\", \"maxT\"})");
  if (scene.hasRay && scene.query != QueryKind::Raycast)
    return fail(err, "ray", "is only used by the raycast query");
  if (scene.query == QueryKind::Shapecast && !scene.hasMotion)
    return fail(err, "motion", "is missing (the shapecast query needs {\"translationA\", \"translationB\"})");
  if (scene.hasMotion && scene.query != QueryKind::Shapecast)
    return fail(err, "motion", "is only used by the shapecast query");
  if (const JsonValue* margin = json.find("margin")) {
    if (scene.query != QueryKind::Contacts && scene.query != QueryKind::Contact)
      return fail(err, "margin", "is only used by the contact and contacts queries");
    if (!readNumber(*margin, "margin", &scene.margin, err)) return false;
    if (scene.margin < 0) return fail(err, "margin", "must not be negative (contacts up to this gap)");
    if (scene.margin > kMaxMagnitude) return fail(err, "margin", "must be at most 1e15");
    scene.hasMargin = true;
  }
  if (!readSimulation(json, &scene, err)) return false;
  if (const JsonValue* closed = json.find("closedForms")) {
    if (closed->kind != JsonValue::Kind::Bool)
      return fail(err, "closedForms", std::string("must be true or false, got ") + jsonKindName(closed->kind));
    scene.closedForms = closed->boolean;
  }
  if (const JsonValue* step = json.find("step")) {
    double st = 0;
    if (!readNumber(*step, "step", &st, err)) return false;
    if (st < 0 || st != std::floor(st) || st > kMaxStep)
      return fail(err, "step", "must be a whole number from 0 to 1000000");
    scene.hasStep = true;
    scene.step = static_cast<int>(st);
  }
  *out = std::move(scene);
  return true;
}

std::string sceneToJson(const Scene& scene) {
  JsonWriter w;
  const bool planar = scene.dimension == 2;
  w.setPlanar(planar);
  w.beginObject().key("version").value(scene.version);
  if (planar) w.key("dimension").value(2);
  w.key("shapes").beginArray();
  for (std::size_t i = 0; i < scene.shapes.size(); ++i) {
    if (planar) writePlanarShape(w, scene.shapes[i], scene.planar[i]);
    else writeShape(w, scene.shapes[i]);
  }
  w.endArray().key("query").value(queryName(scene.query));
  if (scene.hasRay) {
    w.key("ray").beginObject().key("origin");
    writeVec(w, scene.ray.origin);
    w.key("direction");
    writeVec(w, scene.ray.direction);
    w.key("maxT").value(scene.ray.maxT).endObject();
  }
  if (scene.hasMotion) {
    w.key("motion").beginObject().key("translationA");
    writeVec(w, scene.motion.translationA);
    w.key("translationB");
    writeVec(w, scene.motion.translationB);
    w.endObject();
  }
  if (scene.hasPoint) {
    w.key("point");
    writeVec(w, scene.point);
  }
  if (scene.hasMargin) w.key("margin").value(scene.margin);
  if (!scene.closedForms) w.key("closedForms").value(false);
  if (scene.query == QueryKind::Simulate) {
    w.key("bodies").beginArray();
    for (const SceneBody& b : scene.bodies) {
      w.beginObject().key("shape").value(b.shape).key("velocity");
      writeVec(w, b.velocity);
      w.key("angularVelocity");
      writeVec(w, b.angularVelocity);
      if (b.mass != kSceneVolumeMass) w.key("mass").value(b.mass);
      w.endObject();
    }
    w.endArray().key("gravity");
    writeVec(w, scene.gravity);
    w.key("dt").value(scene.dt).key("steps").value(scene.steps);
    if (!scene.sleep) w.key("sleep").value(false);
  }
  if (scene.hasStep) w.key("step").value(scene.step);
  w.endObject();
  return w.str();
}

// A 2D scene's penetration runs the planar EPA (epa2d.h); its trace says
// "dimension": 2, as its frames are PlanarEpaFrames.
static bool runPlanarPenetration(const PosedShape& a, const PosedShape& b, bool trace, std::string* json) {
  JsonWriter w;
  w.setPlanar(true);
  if (!trace) {
    put(w, penetration2d(a, b));
    *json = w.str();
    return true;
  }
  PlanarEpaRecorder rec;
  const PenetrationResult r = penetration2d(a, b, GjkSettings{}, planarEpaSettings(), rec);
  w.beginObject().key("query").value("penetration").key("dimension").value(2).key("frames").beginArray();
  for (const PlanarEpaFrame& f : rec.frames) put(w, f);
  w.endArray().key("result");
  put(w, r);
  w.key("marginA").value(a.radius()).key("marginB").value(b.radius()).endObject();
  *json = w.str();
  return true;
}

static bool runPenetration(const PosedShape& a, const PosedShape& b, bool trace, std::string* json) {
  JsonWriter w;
  if (!trace) {
    put(w, penetration(a, b));
    *json = w.str();
    return true;
  }
  EpaRecorder rec;
  const PenetrationResult r = penetration(a, b, GjkSettings{}, EpaSettings{}, rec);
  w.beginObject().key("query").value("penetration").key("frames").beginArray();
  for (const EpaFrame& f : rec.frames) put(w, f);
  w.endArray().key("result");
  put(w, r);
  w.key("marginA").value(a.radius()).key("marginB").value(b.radius()).endObject();
  *json = w.str();
  return true;
}

// The points a hull or bounding-volume query works on: shape A's
// polytopal core vertices in world space.
static bool queryPoints(const Scene& scene, std::vector<Vec3>* pts, SceneError* err) {
  const Shape& a = scene.shapes[0];
  if (!hasPolytopalCore(a) && a.type != ShapeType::Mesh) {
    *err = {"invalid-scene", "shapes[0].type",
            std::string("query \"") + queryName(scene.query) + "\" needs a shape with vertices (polytope, box, " +
                "segment, triangle, point), got " + shapeTypeName(a.type)};
    return false;
  }
  *pts = localCoreVertices(a);
  for (Vec3& p : *pts) p = a.pose.apply(p);
  return true;
}

bool hullOfPoints(const std::vector<Vec3>& pts, const std::string& fieldPrefix, std::string* json, SceneError* err) {
  ConvexHull hull;
  HullError he;
  if (!buildHull(pts, &hull, &he)) {
    *err = {"invalid-scene", fieldPrefix + he.field, he.message};
    return false;
  }
  JsonWriter w;
  put(w, hull);
  *json = w.str();
  return true;
}

static bool runHull(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  std::vector<Vec3> pts;
  if (!queryPoints(scene, &pts, err)) return false;
  if (!trace) return hullOfPoints(pts, "shapes[0].", json, err);
  ConvexHull hull;
  HullError he;
  JsonWriter w;
  HullRecorder rec;
  if (!buildHull(pts, HullSettings{}, &hull, &he, rec)) {
    *err = {"invalid-scene", "shapes[0]." + he.field, he.message};
    return false;
  }
  w.beginObject().key("query").value("hull").key("frames").beginArray();
  const std::vector<Vec3> none;
  for (std::size_t k = 0; k < rec.frames.size(); ++k) put(w, HullFrameView{rec.frames[k], k == 0 ? pts : none});
  w.endArray().key("result");
  put(w, hull);
  w.endObject();
  *json = w.str();
  return true;
}

// Bounding volumes of shape A's points: the answer is the smaller of the two
// PCA fits (points, area-weighted hull triangles) after refinement, never
// larger than the AABB; the AABB, the bounding sphere and both raw fits
// come along for comparison (the page overlays them).
static bool runObb(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  if (trace) {
    *err = {"invalid-scene", "query", "the obb query has no trace (it is not iterative); use run"};
    return false;
  }
  std::vector<Vec3> pts;
  if (!queryPoints(scene, &pts, err)) return false;
  return boundsOfPoints(pts, "shapes[0].", json, err);
}

bool boundsOfPoints(const std::vector<Vec3>& pts, const std::string& fieldPrefix, std::string* json, SceneError* err) {
  ConvexHull hull;
  HullError he;
  if (!buildHull(pts, &hull, &he)) {
    *err = {"invalid-scene", fieldPrefix + he.field, he.message};
    return false;
  }
  const Obb byPoints = obbFromPoints(pts);
  const Obb byTriangles = obbFromTriangles(hull.vertices, hull.triangles);
  RefineInfo fromPoints, fromTriangles;
  const Obb refinedP = refineObb(byPoints, hull.vertices, &fromPoints);
  const Obb refinedT = refineObb(byTriangles, hull.vertices, &fromTriangles);
  const bool pickT = refinedT.volume() <= refinedP.volume();
  const Obb& best = pickT ? refinedT : refinedP;
  const RefineInfo& info = pickT ? fromTriangles : fromPoints;
  const Aabb box = computeAabb(pts);
  const BoundingSphere sphere = computeBoundingSphere(hull.vertices);
  const BoundsMethod method =
      info.usedAabb ? BoundsMethod::Aabb : (pickT ? BoundsMethod::Triangles : BoundsMethod::Points);
  JsonWriter w;
  put(w, BoundsView{best, method, box, sphere, {byPoints, byTriangles}});
  *json = w.str();
  return true;
}

// ---- sat, raycast, shapecast, chungwang: results and traces ---------------------

bool checkSatShape(const Shape& s, const std::string& field, SceneError* err) {
  if (hasPolytopalCore(s)) return true;
  if (s.type == ShapeType::Mesh) {
    *err = {kMeshUnsupportedCode, field, meshUnsupportedMessage("sat")};
    return false;
  }
  *err = {"invalid-scene", field,
          std::string("query \"sat\" needs shapes with vertices (box, polytope, triangle, segment, point; "
                      "sphere and capsule as rounded points and segments), got ") +
              shapeTypeName(s.type)};
  return false;
}

bool satAnswered(SatStatus status, bool trace, const std::string& field, SceneError* err) {
  if (status == SatStatus::TooLarge) {
    *err = {"invalid-scene", field,
            trace ? "tracing the sat query is limited to 16384 candidate axes; these shapes have more (run answers "
                    "up to 2^24 vertex-axis projections)"
                  : "the sat query would project more than 2^24 vertex-axis pairs; use penetration (GJK/EPA) for "
                    "large polytopes"};
    return false;
  }
  if (status != SatStatus::Ok && status != SatStatus::RoundedBound) {
    *err = {"invalid-scene", field, std::string("sat refused the shapes: ") + satStatusName(status)};
    return false;
  }
  return true;
}

// The separating-axis test on two shapes with polytopal cores. The result
// keeps the penetration convention: depth is the overlap (0 when apart) and
// gap the separation along the axis (0 when overlapping; a lower bound of
// the distance).
static bool runSat(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  for (int i = 0; i < 2; ++i)
    if (!checkSatShape(scene.shapes[static_cast<std::size_t>(i)], "shapes[" + std::to_string(i) + "].type", err))
      return false;
  SatRecorder rec;
  const SatResult r = trace ? sat(scene.shapes[0], scene.shapes[1], SatSettings{}, rec) : sat(scene.shapes[0], scene.shapes[1]);
  if (!satAnswered(r.status, trace, "shapes", err)) return false;
  JsonWriter w;
  if (!trace) {
    put(w, r);
    *json = w.str();
    return true;
  }
  w.beginObject().key("query").value("sat").key("frames").beginArray();
  for (const SatFrame& f : rec.frames) put(w, f);
  w.endArray().key("result");
  put(w, r);
  w.key("marginA").value(coreRadius(scene.shapes[0])).key("marginB").value(coreRadius(scene.shapes[1])).endObject();
  *json = w.str();
  return true;
}

static void beginRayTrace(JsonWriter& w, const char* query, const RayRecorder& rec) {
  w.beginObject().key("query").value(query).key("frames").beginArray();
  for (const RayFrame& f : rec.frames) put(w, f);
  w.endArray();
}

// The ray against shape A (other shapes ignored). A ray starting inside hits
// at t = 0 with no normal (null). A status other than converged still
// reports a hit at a certified lower bound of t (see raycast.h).
static bool runRaycast(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  const Ray& ray = scene.ray;
  if (ray.direction == Vec3{}) {
    *err = {"invalid-scene", "ray.direction", "must not be the zero vector"};
    return false;
  }
  const PosedShape a(scene.shapes[0]);
  JsonWriter w;
  w.setPlanar(scene.dimension == 2);
  if (!trace) {
    put(w, gjkRayCast(a, ray.origin, ray.direction, ray.maxT));
    *json = w.str();
    return true;
  }
  RayRecorder rec;
  const RayCastResult r = gjkRayCast(a, ray.origin, ray.direction, ray.maxT, RayCastSettings{}, rec);
  beginRayTrace(w, "raycast", rec);
  w.key("result");
  put(w, r);
  w.key("marginA").value(a.radius()).endObject();
  *json = w.str();
  return true;
}

// A and B translate linearly over the step, t ∈ [0, 1]: the time of
// impact, the normal (from A to B) and the contact points at that time.
static bool runShapecast(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  (void)err;
  const PosedShape a(scene.shapes[0]), b(scene.shapes[1]);
  const Vec3 &ta = scene.motion.translationA, &tb = scene.motion.translationB;
  JsonWriter w;
  w.setPlanar(scene.dimension == 2);
  if (!trace) {
    put(w, gjkShapeCast(a, b, ta, tb));
    *json = w.str();
    return true;
  }
  RayRecorder rec;
  const ShapeCastResult r = gjkShapeCast(a, b, ta, tb, RayCastSettings{}, rec);
  beginRayTrace(w, "shapecast", rec);
  w.key("result");
  put(w, r);
  w.key("marginA").value(a.radius()).key("marginB").value(b.radius()).endObject();
  *json = w.str();
  return true;
}

// Chung–Wang's separating-vector test. The separating axis (unit, from A
// to B) exists only when the shapes are apart; null otherwise.
static bool runChungWang(const Scene& scene, bool trace, std::string* json) {
  const PosedShape a(scene.shapes[0]), b(scene.shapes[1]);
  JsonWriter w;
  if (!trace) {
    put(w, chungWangIntersect(a, b));
    *json = w.str();
    return true;
  }
  ChungWangRecorder rec;
  const ChungWangResult r = chungWangIntersect(a, b, ChungWangSettings{}, nullptr, rec);
  w.beginObject().key("query").value("chungwang").key("frames").beginArray();
  for (const ChungWangFrame& f : rec.frames) put(w, f);
  w.endArray().key("result");
  put(w, r);
  w.key("marginA").value(a.radius()).key("marginB").value(b.radius()).endObject();
  *json = w.str();
  return true;
}

// A pair with a closed form (closed_form.h; points, spheres, segments,
// capsules, and points and boxes against boxes): the answer from its
// closed form, traced as one frame. False, with nothing
// written, when the general query answers the pair instead (a tiny scene).
static bool runClosedForm(const Scene& scene, bool trace, std::string* json) {
  const Shape &a = scene.shapes[0], &b = scene.shapes[1];
  ClosedFormFrame frame;
  JsonWriter w;
  w.setPlanar(scene.dimension == 2);
  const auto write = [&](const auto& result) {
    if (!trace) {
      put(w, result);
      return;
    }
    w.beginObject().key("query").value(queryName(scene.query)).key("closedForm").value(closedFormName(frame.form));
    w.key("frames").beginArray();
    put(w, frame);
    w.endArray().key("result");
    put(w, result);
    w.key("marginA").value(frame.radiusA).key("marginB").value(frame.radiusB).endObject();
  };
  if (scene.query == QueryKind::Intersect) {
    IntersectResult r;
    if (!closedIntersect(a, b, &r, &frame, scene.dimension == 2)) return false;
    write(r);
  } else if (scene.query == QueryKind::Distance) {
    DistanceResult r;
    if (!closedDistance(a, b, &r, &frame, scene.dimension == 2)) return false;
    write(r);
  } else {
    PenetrationResult r;
    if (!closedPenetration(a, b, &r, &frame, scene.dimension == 2)) return false;
    write(r);
  }
  *json = w.str();
  return true;
}

// A scene with a plane where the query reads it (plane.h): closed forms
// for intersect, distance, penetration and raycast; contains and project
// handle planes themselves. No trace: a closed form has no steps.
static bool runPlaneScene(const Scene& scene, int plane, bool trace, std::string* json, SceneError* err) {
  const std::string field = "shapes[" + std::to_string(plane) + "].type";
  const QueryKind q = scene.query;
  if (q == QueryKind::ChungWang || q == QueryKind::Shapecast) {
    *err = {"unsupported-query", field,
            std::string("a plane (half-space) takes intersect, distance, penetration, raycast, contains and project, "
                        "not ") + queryName(q)};
    return false;
  }
  if (trace) {
    *err = {"unsupported-query", field,
            "a plane's queries are closed forms with no trace to step through (run answers them)"};
    return false;
  }
  const Shape& a = scene.shapes[0];
  JsonWriter w;
  if (q == QueryKind::Raycast) {
    put(w, planeRayCast(a, scene.ray.origin, scene.ray.direction, scene.ray.maxT));
  } else if (q == QueryKind::Intersect) {
    put(w, planeIntersect(a, scene.shapes[1]));
  } else if (q == QueryKind::Distance) {
    put(w, planeDistance(a, scene.shapes[1]));
  } else {
    PenetrationResult r;
    if (planePenetration(a, scene.shapes[1], &r) != PlaneStatus::Ok) {
      *err = {"invalid-scene", "shapes",
              "two planes whose normals are not opposite overlap without bound: their penetration depth is "
              "unbounded (intersect and distance answer them)"};
      return false;
    }
    put(w, r);
  }
  *json = w.str();
  return true;
}

// The index of the first shape the query reads that is a plane, or −1.
// Hull, obb and sat refuse planes themselves (they need vertices).
static int planeOf(const Scene& scene) {
  const QueryKind q = scene.query;
  if (q == QueryKind::Hull || q == QueryKind::Obb || q == QueryKind::Sat || q == QueryKind::Contains ||
      q == QueryKind::Project)
    return -1;
  const std::size_t read = q == QueryKind::Raycast ? 1 : scene.shapes.size();
  for (std::size_t i = 0; i < read && i < 2; ++i)
    if (scene.shapes[i].type == ShapeType::Plane) return static_cast<int>(i);
  return -1;
}

// The index of the first shape the query reads that is a mesh, or −1.
// Hull and obb take a mesh's vertices like any point set.
static int meshOf(const Scene& scene) {
  const QueryKind q = scene.query;
  if (q == QueryKind::Hull || q == QueryKind::Obb) return -1;
  const bool one = q == QueryKind::Raycast || q == QueryKind::Contains || q == QueryKind::Project;
  const std::size_t read = one ? 1 : scene.shapes.size();
  for (std::size_t i = 0; i < read && i < scene.shapes.size(); ++i)
    if (scene.shapes[i].type == ShapeType::Mesh) return static_cast<int>(i);
  return -1;
}

// A point against shape A (other shapes ignored). No trace of its own: the
// answer is one pair query with a point, whose steps "intersect" and
// "penetration" show.
static bool runPointQuery(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  if (trace) {
    *err = {"unsupported-query", "query",
            std::string("query \"") + queryName(scene.query) +
                "\" has no trace: step through it as \"intersect\" or \"penetration\" with a point for shape B"};
    return false;
  }
  JsonWriter w;
  if (scene.query == QueryKind::Contains) put(w, containsPoint(scene.shapes[0], scene.point));
  else put(w, projectPoint(scene.shapes[0], scene.point));
  *json = w.str();
  return true;
}

bool runScene(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  if (scene.query == QueryKind::ObbTree) return runObbTreeScene(scene, trace, json, err);
  if (scene.query == QueryKind::Pairs) return api::runPairsScene(scene, trace, json, err);
  if (scene.query == QueryKind::Simulate) return api::runSimulateScene(scene, trace, json, err);
  if (scene.query == QueryKind::Contact) return api::runContactScene(scene, trace, json, err);
  // contacts() answers convex and compound pairs through the closed forms
  // too: the scene takes its path, so that both agree bit for bit.
  if (scene.query == QueryKind::Contacts && meshOf(scene) < 0) return api::runContactsScene(scene, trace, json, err);
  if (sceneHasCompound(scene)) return runCompoundScene(scene, trace, json, err);
  const int mesh = meshOf(scene);
  if (mesh >= 0) return runMeshScene(scene, mesh, trace, json, err);
  if (scene.query == QueryKind::Contains || scene.query == QueryKind::Project)
    return runPointQuery(scene, trace, json, err);
  if (scene.shapes.size() >= 1) {
    const int plane = planeOf(scene);
    if (plane >= 0) {
      if (scene.query != QueryKind::Raycast && scene.shapes.size() != 2) {
        *err = {"invalid-scene", "shapes", "this query needs 2 shapes"};
        return false;
      }
      return runPlaneScene(scene, plane, trace, json, err);
    }
  }
  if (scene.query == QueryKind::Raycast) return runRaycast(scene, trace, json, err);
  if (scene.query == QueryKind::Hull) return runHull(scene, trace, json, err);
  if (scene.query == QueryKind::Obb) return runObb(scene, trace, json, err);
  if (scene.shapes.size() != 2) {
    *err = {"invalid-scene", "shapes", "this query needs 2 shapes"};
    return false;
  }
  if (scene.query == QueryKind::Sat) return runSat(scene, trace, json, err);
  if (scene.query == QueryKind::Shapecast) return runShapecast(scene, trace, json, err);
  if (scene.query == QueryKind::ChungWang) return runChungWang(scene, trace, json);
  if ((scene.query == QueryKind::Intersect || scene.query == QueryKind::Distance ||
       scene.query == QueryKind::Penetration) &&
      scene.closedForms && closedFormOf(scene.shapes[0], scene.shapes[1]) != ClosedForm::None && runClosedForm(scene, trace, json))
    return true;
  if (scene.query == QueryKind::Penetration) {
    if (scene.dimension == 2)
      return runPlanarPenetration(PosedShape(scene.shapes[0]), PosedShape(scene.shapes[1]), trace, json);
    return runPenetration(PosedShape(scene.shapes[0]), PosedShape(scene.shapes[1]), trace, json);
  }
  const bool intersect = scene.query == QueryKind::Intersect;
  const PosedShape a(scene.shapes[0]);
  const PosedShape b(scene.shapes[1]);
  const GjkSettings settings;
  JsonWriter w;
  w.setPlanar(scene.dimension == 2);
  if (!trace) {
    if (intersect) put(w, gjkIntersect(a, b, settings));
    else put(w, gjkDistance(a, b, settings));
    *json = w.str();
    return true;
  }
  GjkRecorder rec;
  IntersectResult ir;
  DistanceResult dr;
  if (intersect) ir = gjkIntersect(a, b, settings, nullptr, rec);
  else dr = gjkDistance(a, b, settings, rec);
  w.beginObject().key("query").value(queryName(scene.query)).key("frames").beginArray();
  for (const GjkFrame& f : rec.frames) put(w, f);
  w.endArray().key("result");
  if (intersect) put(w, ir);
  else put(w, dr);
  w.key("marginA").value(a.radius()).key("marginB").value(b.radius()).endObject();
  *json = w.str();
  return true;
}

std::vector<Vec3> shapeSurface(const Shape& s, int samples) {
  if (hasPolytopalCore(s) && coreRadius(s) == 0) return worldCoreVertices(s);
  const int n = clampSamples(samples);
  std::vector<Vec3> pts;
  pts.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) pts.push_back(fullSupport(s, sphereDirection(i, n)));
  return pts;
}

void minkowskiSurface(const Shape& a, const Shape& b, int samples, std::vector<Vec3>* full, std::vector<Vec3>* core) {
  full->clear();
  core->clear();
  const int n = clampSamples(samples);
  const PosedShape pa(a), pb(b);
  const bool polytopal = hasPolytopalCore(a) && hasPolytopalCore(b);
  const std::vector<Vec3> va = polytopal ? worldCoreVertices(a) : std::vector<Vec3>{};
  const std::vector<Vec3> vb = polytopal ? worldCoreVertices(b) : std::vector<Vec3>{};
  if (polytopal && va.size() * vb.size() <= kMaxVertexDifferences) {
    for (const Vec3& p : va)
      for (const Vec3& q : vb) core->push_back(p - q);
  } else {
    for (int i = 0; i < n; ++i) {
      const Vec3 d = sphereDirection(i, n);
      core->push_back(pa.support(d) - pb.support(-d));
    }
  }
  if (coreRadius(a) + coreRadius(b) == 0) {
    *full = *core;
    return;
  }
  for (int i = 0; i < n; ++i) {
    const Vec3 d = sphereDirection(i, n);
    full->push_back(fullSupport(a, d) - fullSupport(b, -d));
  }
}

}  // namespace collidoscope

#if defined(__clang__)
#pragma clang attribute pop
#endif
