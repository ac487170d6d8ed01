// collidoscope — the object API's registry and queries (api.h).
#include "collidoscope/api.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "collidoscope/chung_wang.h"
#include "collidoscope/api_results.h"
#include "collidoscope/closed_form.h"
#include "collidoscope/compound.h"
#include "collidoscope/contact.h"
#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/heap_room.h"
#include "collidoscope/json.h"
#include "collidoscope/mesh_pair.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/plane.h"
#include "collidoscope/point_query.h"
#include "collidoscope/schema_json.h"
#include "collidoscope/ray_order.h"
#include "collidoscope/raycast.h"
#include "collidoscope/sat.h"
#include "collidoscope/support.h"

namespace collidoscope {
namespace api {

namespace {

constexpr int kSlotBits = 20;
constexpr int kSlotMask = (1 << kSlotBits) - 1;
static_assert(kSlotMask == kMaxShapes, "Registry::hotOf masks handles with kMaxShapes");
constexpr int kMaxGeneration = (1 << (31 - kSlotBits)) - 1;

const char* const kKindNames[] = {"intersect", "distance", "penetration", "chungwang", "sat",
                                   "raycast",   "shapecast", "contact",    "contains",  "project"};
static_assert(sizeof kKindNames / sizeof kKindNames[0] == static_cast<int>(Kind::Count));

bool fail(SceneError* err, const char* code, const std::string& field, const std::string& message) {
  // Assigned member by member: the strings keep their buffers, so an error
  // repeated costs no allocation.
  err->code = code;
  err->field = field;
  err->message = message;
  return false;
}

// A field name, "name" or "name[index]", made into a string only when an
// error is reported: queries must not allocate.
struct Field {
  const char* name;
  std::int64_t index = -1;
  std::string str() const { return index < 0 ? std::string(name) : std::string(name) + "[" + std::to_string(index) + "]"; }
  std::string operator+(const std::string& suffix) const { return str() + suffix; }
};

// prepareMeshTree for a mesh whose tree is not built yet (the field's name
// made only then); at once true for a built one and any other shape.
bool prepared(const Shape& s, const Field& field, SceneError* err) {
  return s.type != ShapeType::Mesh || s.meshData->treeBuilt() || prepareMeshTree(s, field.str(), err);
}

bool readFinite(const double* in, int n, const Field& field, SceneError* err) {
  // x − x is 0 for a finite x and NaN otherwise: one test for the common case.
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += in[i] - in[i];
  if (sum == 0) return true;
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(in[i]))
      return fail(err, "invalid-argument", field + ("[" + std::to_string(i) + "]"),
                  std::string("must be a finite number, got ") +
                      (std::isnan(in[i]) ? "NaN" : in[i] > 0 ? "Infinity" : "-Infinity"));
  }
  return true;
}

// Ray origins and directions and shape-cast translations: within kMaxMagnitude,
// as positions are (beyond it the casts' arithmetic overflows: a hit reported
// at t = 0, or a miss).
bool checkMagnitudes(const double* in, int n, const Field& field, SceneError* err) {
  for (int i = 0; i < n; ++i)
    if (std::fabs(in[i]) > kMaxMagnitude)
      return fail(err, "invalid-argument", field + ("[" + std::to_string(i) + "]"), "must be at most 1e15 in magnitude");
  return true;
}

// The ray or motion of a raycast/shapecast query, checked as the scene parser
// does, or contact's margin (finite, ≥ 0).
bool checkExtra(Kind kind, const double* extra, const Field& field, SceneError* err) {
  if (kind == Kind::Raycast) {
    if (!readFinite(extra, 7, field, err) || !checkMagnitudes(extra, 6, field, err)) return false;
    if (!(std::fmax(std::fabs(extra[3]), std::fmax(std::fabs(extra[4]), std::fabs(extra[5]))) > 0))
      return fail(err, "invalid-argument", field + ".direction", "must not be the zero vector");
    if (extra[6] < 0) return fail(err, "invalid-argument", field + ".maxT", "must not be negative");
  } else if (kind == Kind::Shapecast) {
    if (!readFinite(extra, 6, field, err) || !checkMagnitudes(extra, 6, field, err)) return false;
  } else if (kind == Kind::Contains || kind == Kind::Project) {
    if (!readFinite(extra, 3, field, err) || !checkMagnitudes(extra, 3, field, err)) return false;
  } else if (kind == Kind::Contact) {
    if (!readFinite(extra, 1, field, err)) {
      err->field = field.str();  // one number: "margin", not "margin[0]"
      return false;
    }
    if (extra[0] < 0) return fail(err, "invalid-argument", field.str(), "must not be negative");
  }
  return true;
}

// The field an extra is reported under, by kind.
const char* extraName(Kind kind, bool batch) {
  if (kind == Kind::Raycast) return batch ? "rays" : "ray";
  if (kind == Kind::Contact) return batch ? "options.margins" : "options.margin";
  if (kind == Kind::Contains || kind == Kind::Project) return batch ? "points" : "point";
  return batch ? "motions" : "motion";
}

template <class Names>
void writeNames(JsonWriter& w, const char* key, int n, Names name) {
  w.key(key).beginArray();
  for (int i = 0; i < n; ++i) w.value(name(i));
  w.endArray();
}

}  // namespace

const char* kindName(Kind k) { return kKindNames[static_cast<int>(k)]; }

bool parseKind(const std::string& name, Kind* out) {
  for (int i = 0; i < static_cast<int>(Kind::Count); ++i) {
    if (name == kKindNames[i]) {
      *out = static_cast<Kind>(i);
      return true;
    }
  }
  return false;
}

std::string layoutJson() {
  const auto gjk = [](int i) { return gjkStatusName(static_cast<GjkStatus>(i)); };
  const auto cast = [](int i) { return rayCastStatusName(static_cast<RayCastStatus>(i)); };
  JsonWriter w;
  w.beginObject();
  for (int k = 0; k < static_cast<int>(Kind::Count); ++k) {
    // One name per double: a vector's three are "name.x", "name.y", "name.z".
    w.key(kKindNames[k]).beginObject().key("fields").beginArray();
    const ResultLayout& l = kResultLayouts[k];
    for (int f = 0; f < l.count; ++f) {
      const std::string name = l.fields[f].name;
      if (widthOf(l.fields[f].kind) == 1) w.value(name);
      else w.value(name + ".x").value(name + ".y").value(name + ".z");
    }
    w.endArray();
    switch (static_cast<Kind>(k)) {
      case Kind::Intersect:
      case Kind::Distance: writeNames(w, "status", 3, gjk); break;
      case Kind::Penetration:
        writeNames(w, "status", 4, [](int i) { return epaStatusName(static_cast<EpaStatus>(i)); });
        break;
      case Kind::ChungWang:
        writeNames(w, "status", 4, [](int i) { return chungWangStatusName(static_cast<ChungWangStatus>(i)); });
        break;
      case Kind::Sat:
        writeNames(w, "status", 5, [](int i) { return satStatusName(static_cast<SatStatus>(i)); });
        writeNames(w, "axisKind", 5, [](int i) { return satAxisKindName(static_cast<SatAxisKind>(i)); });
        break;
      case Kind::Contact:
      case Kind::Project:
        writeNames(w, "status", 4, [](int i) { return epaStatusName(static_cast<EpaStatus>(i)); });
        break;
      case Kind::Contains: writeNames(w, "status", 3, gjk); break;
      default: writeNames(w, "status", 4, cast); break;
    }
    w.endObject();
  }
  w.endObject();
  return w.str();
}

// The error of a pose checkPose refused, naming its field (kept out of
// line: the batch loop inlines only the check).
[[gnu::noinline]] static bool poseError(const double* in, const char* name, std::int64_t index, SceneError* err) {
  const Field field{name, index};
  if (!readFinite(in, kPoseSize, field, err)) return false;
  for (int i = 0; i < 3; ++i)
    if (std::fabs(in[i]) > kMaxMagnitude)
      return fail(err, "invalid-argument", field + ("[" + std::to_string(i) + "]"), "must be at most 1e15 in magnitude");
  if (in[3] == 0 && in[4] == 0 && in[5] == 0 && in[6] == 0)
    return fail(err, "invalid-argument", field + "[3..6]", "the rotation must not be the zero quaternion");
  return true;
}

// What readPose checks: finite numbers, a position within kMaxMagnitude, a
// rotation that is not the zero quaternion. In one pass: x − x is 0 only
// for a finite x.
static inline bool checkPose(const double* in, const char* name, std::int64_t index, SceneError* err) {
  static_assert(kPoseSize == 7, "the sum below reads the seven numbers of a pose");
  const double finite = ((in[0] - in[0]) + (in[1] - in[1])) + ((in[2] - in[2]) + (in[3] - in[3])) +
                        ((in[4] - in[4]) + (in[5] - in[5])) + (in[6] - in[6]);
  if (finite == 0 && std::fabs(in[0]) <= kMaxMagnitude && std::fabs(in[1]) <= kMaxMagnitude &&
      std::fabs(in[2]) <= kMaxMagnitude && (in[3] != 0 || in[4] != 0 || in[5] != 0 || in[6] != 0))
    return true;
  return poseError(in, name, index, err);
}

// A pose checkPose accepted, its rotation normalized.
static Transform checkedPose(const double* in) {
  double q[4] = {in[3], in[4], in[5], in[6]};
  normalizeRotation(q);
  Transform t;
  t.position = vec(in);
  t.rotation = {q[0], q[1], q[2], q[3]};
  return t;
}

// The core of a shape with a closed form (its local core) at a pose
// checkPose accepted: a point core needs only the position (its rotation is
// not normalized).
static Core batchCore(const Core& local, const double* pose) {
  if (!local.segment) {
    Core c = local;
    c.p0 = c.p1 = Vec3{pose[0], pose[1], pose[2]};
    return c;
  }
  return posedCore(local, checkedPose(pose));
}

bool readPose(const double* in, const char* name, std::int64_t index, Transform* out, SceneError* err) {
  if (!checkPose(in, name, index, err)) return false;
  *out = checkedPose(in);
  return true;
}

struct Registry::Entry {
  Shape shape;
  std::unique_ptr<Shape> twin;  // a second copy for queries of the shape against itself
  std::unique_ptr<SatHull> satHull;
  SatStatus satStatus = SatStatus::Ok;
  CoreKind core = CoreKind::Other;  // a point, segment or box core has closed forms (closed_form.h)
  bool live = false;
  int generation = 0;
};

Registry::Registry() = default;

bool Registry::setTolerance(double t, SceneError* err) {
  if (!(t >= kMinTolerance && t <= kMaxTolerance)) {
    char message[160];
    std::snprintf(message, sizeof message, "must be a number from %g to %g (the default is %g)", kMinTolerance,
                  kMaxTolerance, kDefaultTolerance);
    return fail(err, "invalid-argument", "tolerance", message);
  }
  for (IterativeSettings* s : {static_cast<IterativeSettings*>(&gjk_), static_cast<IterativeSettings*>(&epa_),
                               static_cast<IterativeSettings*>(&cast_)}) {
    s->relativeTolerance = t;
    s->absoluteTolerance = t;
  }
  return true;
}
Registry::~Registry() = default;

int Registry::add(Shape shape, SceneError* err) {
  // What the shape's slot needs: a new entry, the per-slot arrays grown as push_back would grow them (old and new
  // blocks live at once), and project's feature list.
  std::size_t points = shape.points.size();
  if (shape.type == ShapeType::Compound)
    for (const Shape& c : shape.compoundData->children) points = std::max(points, c.points.size());
  double bytes = 0;
  if (free_.empty()) {
    bytes += sizeof(Entry);
    if (slots_.size() == slots_.capacity())
      bytes += 3.0 * static_cast<double>(std::max<std::size_t>(slots_.capacity(), 1)) *
               (sizeof(std::unique_ptr<Entry>) + sizeof(int) + sizeof(Hot));
  }
  if (project_.feature.vertices.capacity() < points + 8) bytes += static_cast<double>(points + 8) * sizeof(int);
  if (!heapHasRoom(bytes, err, "", "one more shape (", live_, " are live)")) return 0;
  int slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    if (static_cast<int>(slots_.size()) >= kMaxShapes) {
      fail(err, "invalid-argument", "", "too many live shapes (" + std::to_string(kMaxShapes) + "); dispose some first");
      return 0;
    }
    slot = static_cast<int>(slots_.size());
    slots_.push_back(std::make_unique<Entry>());
    tags_.push_back(0);
    hot_.emplace_back();
  }
  Entry& e = *slots_[static_cast<std::size_t>(slot)];
  e.shape = std::move(shape);
  e.shape.pose = Transform{};
  e.core = coreKindOf(e.shape);
  // project's feature lists at most a shape's points (a box's 8): room for them now, not in a query.
  if (project_.feature.vertices.capacity() < points + 8) project_.feature.vertices.reserve(points + 8);
  hot_[static_cast<std::size_t>(slot)] = {localCore(e.shape), e.core};
  e.live = true;
  e.generation = e.generation % kMaxGeneration + 1;
  tags_[static_cast<std::size_t>(slot)] = e.generation;
  ++live_;
  return (e.generation << kSlotBits) | (slot + 1);
}

[[gnu::noinline]] static std::nullptr_t disposed(const char* name, std::int64_t index, SceneError* err) {
  fail(err, "disposed", Field{name, index}.str(), "the shape was disposed (or never created)");
  return nullptr;
}

Registry::Entry* Registry::entry(int handle, const char* name, std::int64_t index, SceneError* err) {
  const int slot = (handle & kSlotMask) - 1;
  if (handle <= 0 || slot < 0 || slot >= static_cast<int>(tags_.size()) ||
      tags_[static_cast<std::size_t>(slot)] != (handle >> kSlotBits))
    return disposed(name, index, err);
  return slots_[static_cast<std::size_t>(slot)].get();
}

Registry::Entry& Registry::slotOf(int liveHandle) {
  return *slots_[static_cast<std::size_t>((liveHandle & kSlotMask) - 1)];
}

const Shape* Registry::find(int handle) const {
  const int slot = (handle & kSlotMask) - 1;
  if (handle <= 0 || slot < 0 || slot >= static_cast<int>(slots_.size())) return nullptr;
  const Entry& e = *slots_[static_cast<std::size_t>(slot)];
  return e.live && e.generation == (handle >> kSlotBits) ? &e.shape : nullptr;
}

bool Registry::remove(int handle) {
  SceneError ignored;
  Entry* e = entry(handle, "", -1, &ignored);
  if (e == nullptr) return false;
  e->live = false;
  tags_[static_cast<std::size_t>((handle & kSlotMask) - 1)] = 0;
  hot_[static_cast<std::size_t>((handle & kSlotMask) - 1)] = {};
  e->shape = Shape{};
  e->twin.reset();
  e->satHull.reset();
  free_.push_back((handle & kSlotMask) - 1);
  --live_;
  return true;
}

// The results of the queries with closed forms, in their batch layouts.
void putResult(const PenetrationResult& r, double* out) {
  constexpr int k = static_cast<int>(Kind::Penetration);
  out[AT(k, "intersecting")] = r.intersecting;
  out[AT(k, "depth")] = r.depth;
  put(out + AT(k, "normal"), r.normal);
  put(out + AT(k, "pointA"), r.pointA);
  put(out + AT(k, "pointB"), r.pointB);
  out[AT(k, "iterations")] = r.iterations;
  out[AT(k, "status")] = static_cast<double>(r.status);
}

inline void putResult(const ContactResult& r, double* out) {
  constexpr int k = static_cast<int>(Kind::Contact);
  static_assert(AT(k, "distance") == 1 && AT(k, "pointB") == 8, "distance, normal, pointA, pointB in a row");
  out[AT(k, "contact")] = r.contact;
  if (r.contact) {
    out[AT(k, "distance")] = r.distance;
    put(out + AT(k, "normal"), r.normal);
    put(out + AT(k, "pointA"), r.pointA);
    put(out + AT(k, "pointB"), r.pointB);
  } else {
    for (int i = AT(k, "distance"); i < AT(k, "pointB") + 3; ++i) out[i] = kNaN;
  }
  out[AT(k, "iterations")] = r.iterations;
  out[AT(k, "status")] = static_cast<double>(r.status);
}

bool closedKind(Kind kind) {
  return kind == Kind::Intersect || kind == Kind::Distance || kind == Kind::Penetration || kind == Kind::Contact;
}

// The contact of a pair with a box core from its closed distance and
// penetration, so that it is theirs bit for bit (as contact.h's is
// distance()'s and penetration()'s): the distance and points when apart
// (beyond the margin: no contact), with the penetration's normal; the
// penetration's normal and points when they overlap. False when a form
// declines (a tiny scene; two boxes whose cores are apart, which have no
// closed distance): the general contact query answers.
template <class CoreA, class CoreB>
bool boxContact(const CoreA& a, const CoreB& b, double margin, ContactResult* out) {
  DistanceResult d;
  PenetrationResult p;
  out->iterations = 0;
  out->status = EpaStatus::Converged;
  if (closedDistance(a, b, &d) && d.distance > 0) {
    out->contact = d.distance <= margin;
    if (!out->contact) return true;
    if (!closedPenetration(a, b, &p)) return false;
    out->distance = d.distance;
    out->normal = p.normal;
    out->pointA = d.pointA;
    out->pointB = d.pointB;
    return true;
  }
  if (!closedPenetration(a, b, &p) || !p.intersecting) return false;
  setOverlapping(p, out);
  return true;
}

// A query of a closed kind on two cores (closed_form.h), written to out;
// false (nothing written) when the general query must answer it. extra:
// the query's 7 extra doubles (contact's margin).
template <class CoreA, class CoreB>
bool answerClosed(Kind kind, const CoreA& a, const CoreB& b, const double* extra, DistanceResult* scratch,
                  double* out) {
  switch (kind) {
    case Kind::Intersect: {
      IntersectResult r;
      if (!closedIntersect(a, b, &r)) return false;
      putResult(r, out);
      return true;
    }
    case Kind::Distance:
      if (!closedDistance(a, b, scratch)) return false;
      putResult(*scratch, out);
      return true;
    case Kind::Penetration: {
      PenetrationResult r;
      if (!closedPenetration(a, b, &r)) return false;
      putResult(r, out);
      return true;
    }
    case Kind::Contact: {
      ContactResult r;
      if constexpr (std::is_same_v<CoreA, Core> && std::is_same_v<CoreB, Core>) {
        if (!closedContact(a, b, extra[0], &r)) return false;
      } else if (!boxContact(a, b, extra[0], &r)) {
        return false;
      }
      putResult(r, out);
      return true;
    }
    default: return false;
  }
}

void putRay(const RayCastResult& r, double* out) {
  constexpr int k = static_cast<int>(Kind::Raycast);
  out[AT(k, "hit")] = r.hit;
  out[AT(k, "t")] = r.hit ? r.t : kNaN;
  putOrNaN(out + AT(k, "point"), r.hit, r.point);
  putOrNaN(out + AT(k, "normal"), r.hit && !r.startedInside, r.normal);
  out[AT(k, "startedInside")] = r.startedInside;
  out[AT(k, "iterations")] = r.iterations;
  out[AT(k, "status")] = static_cast<double>(r.status);
}

// A pair query with a plane (plane.h: closed forms); b is null for
// raycast. Contains and project take planes in point_query.h.
bool answerPlane(Kind kind, const Shape& a, const Shape* b, const double* extra, double* out, SceneError* err) {
  const char* field = a.type == ShapeType::Plane ? "a.type" : "b.type";
  switch (kind) {
    case Kind::Intersect: putResult(planeIntersect(a, *b), out); return true;
    case Kind::Distance: putResult(planeDistance(a, *b), out); return true;
    case Kind::Penetration:
    case Kind::Contact: {
      PenetrationResult p;
      ContactResult c;
      const PlaneStatus status =
          kind == Kind::Penetration ? planePenetration(a, *b, &p) : planeContact(a, *b, extra[0], &c);
      if (status != PlaneStatus::Ok)
        return fail(err, "invalid-argument", "b",
                    "two planes whose normals are not opposite overlap without bound: their penetration depth is "
                    "unbounded (intersect and distance answer them)");
      if (kind == Kind::Penetration) putResult(p, out);
      else putResult(c, out);
      return true;
    }
    case Kind::Raycast: putRay(planeRayCast(a, vec(extra), vec(extra + 3), extra[6]), out); return true;
    default:
      return fail(err, "invalid-argument", kind == Kind::Raycast ? "shape.type" : field,
                  std::string("a plane (half-space) takes intersect, distance, penetration, contact, raycast, contains "
                              "and project, not ") + kKindNames[static_cast<int>(kind)]);
  }
}

// A query of a closed kind on a pair with closed form `form` (not None),
// the cores taken at the poses by `core(shape, pose)` and `box(shape, pose)`.
template <class Pose, class MakeCore, class MakeBox>
bool answerClosedPair(Kind kind, ClosedForm form, const Shape& a, const Pose& poseA, const Shape& b,
                      const Pose& poseB, MakeCore&& core, MakeBox&& box, const double* extra,
                      DistanceResult* scratch, double* out) {
  switch (form) {
    case ClosedForm::PointBox: return answerClosed(kind, core(a, poseA), box(b, poseB), extra, scratch, out);
    case ClosedForm::BoxPoint: return answerClosed(kind, box(a, poseA), core(b, poseB), extra, scratch, out);
    case ClosedForm::BoxBox:
      return kind != Kind::Distance && answerClosed(kind, box(a, poseA), box(b, poseB), extra, scratch, out);
    case ClosedForm::None: return false;
    default: return answerClosed(kind, core(a, poseA), core(b, poseB), extra, scratch, out);
  }
}

// answerClosedPair with the cores of shapes at poses (one instantiation
// for the registry's queries and a compound's pieces).
bool closedAtPoses(Kind kind, ClosedForm form, const Shape& a, const Transform& poseA, const Shape& b,
                          const Transform& poseB, const double* extra, DistanceResult* scratch, double* out) {
  return answerClosedPair(
      kind, form, a, poseA, b, poseB, [](const Shape& s, const Transform& p) { return coreOf(s, p); },
      [](const Shape& s, const Transform& p) { return boxCoreOf(s, p); }, extra, scratch, out);
}

// Runs one query on posed entries. b is null for raycast. When a and b are
// the same entry, B uses the entry's twin so each keeps its own pose.
bool Registry::run(Kind kind, Entry& a, const Transform& poseA, Entry* b, const Transform& poseB,
                   const double* extra, double* cache, double* out, SceneError* err, int* features,
                   double* barycentric) {
  // Pairs with closed forms (closed_form.h): intersect, distance and
  // penetration (box–box: not distance). answer() and answerBatch() take
  // the point and segment pairs first; here come the box pairs, and a pair
  // in a tiny scene, which the closed forms decline and GJK runs scaled.
  if (b != nullptr && closedKind(kind)) {
    const ClosedForm form = closedFormOf(a.core, b->core);
    if (form != ClosedForm::None && closedAtPoses(kind, form, a.shape, poseA, b->shape, poseB, extra, &distance_, out))
      return true;
  }
  // A compound (compound.h) has no closed form above: its children do.
  if (a.shape.type == ShapeType::Compound || (b != nullptr && b->shape.type == ShapeType::Compound))
    return answerCompound(kind, a.shape, poseA, b != nullptr ? &b->shape : nullptr, poseB, extra, out, features, *this,
                          err);
  a.shape.pose = poseA;
  Shape* shapeB = nullptr;
  if (b != nullptr) {
    if (b == &a) {
      if (!a.twin) a.twin = std::make_unique<Shape>(a.shape);
      shapeB = a.twin.get();
    } else {
      shapeB = &b->shape;
    }
    shapeB->pose = poseB;
  }
  return answerPosed(kind, a.shape, shapeB, extra, cache, out, err, &a, b, features, barycentric);
}

bool Registry::answerPosed(Kind kind, const Shape& a, const Shape* shapeB, const double* extra, double* cache,
                           double* out, SceneError* err, Entry* ea, Entry* eb, int* features,
                           double* barycentric, const SatHull* hull) {
  const PosedShape pa(a);
  if (a.type == ShapeType::Mesh || (shapeB != nullptr && shapeB->type == ShapeType::Mesh))
    return answerMesh(kind, a, shapeB, extra, out, &meshHit_, features, barycentric, &project_, err);
  if (kind != Kind::Contains && kind != Kind::Project &&
      (a.type == ShapeType::Plane || (shapeB != nullptr && shapeB->type == ShapeType::Plane)))
    return answerPlane(kind, a, shapeB, extra, out, err);
  switch (kind) {
    case Kind::Intersect: {
      GjkCache c;
      if (cache != nullptr) {
        c.direction = vec(cache);
        c.valid = cache[3] != 0;
      }
      const IntersectResult r = gjkIntersect(pa, PosedShape(*shapeB), gjk_, cache != nullptr ? &c : nullptr);
      if (cache != nullptr) {
        putBits(cache, c.direction);
        cache[3] = c.valid ? 1 : 0;
      }
      putResult(r, out);
      return true;
    }
    case Kind::Distance:
      distance_ = gjkDistance(pa, PosedShape(*shapeB), gjk_);
      putResult(distance_, out);
      return true;
    case Kind::Penetration:
      putResult(penetration(pa, PosedShape(*shapeB), gjk_, epa_), out);
      return true;
    case Kind::Contact:
      putResult(contact(pa, PosedShape(*shapeB), extra[0], gjk_, epa_), out);
      return true;
    case Kind::ChungWang: {
      const ChungWangResult r = chungWangIntersect(pa, PosedShape(*shapeB));
      constexpr int k = static_cast<int>(Kind::ChungWang);
      out[AT(k, "intersecting")] = r.intersecting;
      putOrNaN(out + AT(k, "separatingAxis"), r.status == ChungWangStatus::Separated, r.separatingAxis);
      out[AT(k, "iterations")] = r.iterations;
      out[AT(k, "status")] = static_cast<double>(r.status);
      return true;
    }
    case Kind::Sat: {
      // Only entries come here (a compound refuses sat): they keep the SAT hulls.
      SatResult r;
      if (a.type == ShapeType::Box && shapeB->type == ShapeType::Box && isUnscaled(a) && isUnscaled(*shapeB)) {
        r = satBoxes(a, *shapeB);
      } else {
        for (Entry* e : {ea, eb}) {
          if (!e->satHull) {
            e->satHull = std::make_unique<SatHull>();
            e->satStatus = buildSatHull(e->shape, e->satHull.get());
          }
          if (e->satStatus != SatStatus::Ok) return satAnswered(e->satStatus, false, e == ea ? "a" : "b", err);
        }
        r = satHulls(*ea->satHull, a.pose, *eb->satHull, shapeB->pose);
      }
      if (!satAnswered(r.status, false, "shapes", err)) return false;
      constexpr int k = static_cast<int>(Kind::Sat);
      out[AT(k, "intersecting")] = r.intersecting;
      put(out + AT(k, "axis"), r.axis);
      out[AT(k, "depth")] = r.intersecting ? r.depth : 0.0;
      out[AT(k, "gap")] = r.intersecting ? 0.0 : r.depth;
      out[AT(k, "axisKind")] = static_cast<double>(r.bestKind);
      out[AT(k, "axesTested")] = r.axesTested;
      out[AT(k, "status")] = static_cast<double>(r.status);
      return true;
    }
    case Kind::Raycast:
      putRay(gjkRayCast(pa, vec(extra), vec(extra + 3), extra[6], cast_), out);
      return true;
    case Kind::Shapecast: {
      putResult(gjkShapeCast(pa, PosedShape(*shapeB), vec(extra), vec(extra + 3), cast_), out);
      return true;
    }
    case Kind::Contains: {
      const ContainsResult r = containsPoint(a, vec(extra), gjk_);
      constexpr int k = static_cast<int>(Kind::Contains);
      out[AT(k, "inside")] = r.inside;
      out[AT(k, "iterations")] = r.iterations;
      out[AT(k, "status")] = static_cast<double>(r.status);
      return true;
    }
    case Kind::Project: {
      // A polytopal core names its feature from its SAT hull, kept with the entry.
      if (ea != nullptr && hasPolytopalCore(a) && !ea->satHull) {
        ea->satHull = std::make_unique<SatHull>();
        ea->satStatus = buildSatHull(ea->shape, ea->satHull.get());
      }
      if (ea != nullptr && ea->satStatus == SatStatus::Ok) hull = ea->satHull.get();
      projectPoint(a, vec(extra), &project_, hull, gjk_, epa_);
      putResult(project_, out);
      return true;
    }
    case Kind::Count: break;
  }
  return fail(err, "invalid-argument", "query", "unknown query");
}

// Whether query `kind` reads a mesh's OBB tree, which its entry point then
// builds first (prepareMeshTree, mesh_shape.h): a ray cast reads only the
// ray layout, and the other kinds a mesh refuses.
static bool readsMeshTree(Kind kind) {
  return kind == Kind::Intersect || kind == Kind::Distance || kind == Kind::Shapecast || kind == Kind::Project;
}

// The checks shared with the scene format report "invalid-scene"; here the
// problem is an argument.
static bool argumentError(SceneError* err) {
  if (err->code == "invalid-scene") err->code = "invalid-argument";
  return false;
}

bool Registry::query(Kind kind, int handleA, int handleB, const double* in, double* cache, double* out,
                     SceneError* err, int* features) {
  return answer(kind, handleA, handleB, in, cache, out, err, features) || argumentError(err);
}

bool Registry::answer(Kind kind, int handleA, int handleB, const double* in, double* cache, double* out,
                      SceneError* err, int* features) {
  if (features != nullptr) features[0] = features[1] = -1;
  const bool pair = !isSingleShape(kind);
  Entry* a = entry(handleA, pair ? "a" : "shape", -1, err);
  if (a == nullptr) return false;
  Entry* b = nullptr;
  if (pair && (b = entry(handleB, "b", -1, err)) == nullptr) return false;
  if (!checkPose(in, pair ? "poseA" : "pose", -1, err)) return false;
  if (pair && !checkPose(in + kPoseSize, "poseB", -1, err)) return false;
  if (!checkExtra(kind, in + 2 * kPoseSize, Field{extraName(kind, false)}, err)) return false;
  if (kind == Kind::Sat) {
    if (!checkSatShape(a->shape, "a.type", err) || !checkSatShape(b->shape, "b.type", err)) return false;
  }
  if (readsMeshTree(kind) &&
      (!prepared(a->shape, Field{pair ? "a" : "shape"}, err) || (pair && !prepared(b->shape, Field{"b"}, err))))
    return false;
  if (pair && closedKind(kind)) {
    const Hot& ha = hotOf(handleA);
    const Hot& hb = hotOf(handleB);
    if (coreForm(closedFormOf(ha.kind, hb.kind)) &&
        answerClosed(kind, batchCore(ha.core, in), batchCore(hb.core, in + kPoseSize), in + 2 * kPoseSize,
                     &distance_, out))
      return true;
  }
  const Transform poseA = checkedPose(in);
  const Transform poseB = pair ? checkedPose(in + kPoseSize) : poseA;
  return run(kind, *a, poseA, b, poseB, in + 2 * kPoseSize, kind == Kind::Intersect ? cache : nullptr, out, err,
             features);
}

bool Registry::contacts(int handleA, int handleB, const double* in, double* out, int capacity, SceneError* err,
                        int* features) {
  return contactsInto(handleA, handleB, in, out, out + kContactsHeader, capacity, err, features);
}

bool Registry::contactsInto(int handleA, int handleB, const double* in, double* header, double* records,
                            int capacity, SceneError* err, int* features) {
  if (capacity < 0 || capacity > kMaxMeshContacts)
    return fail(err, "invalid-argument", "capacity", "must be from 0 to " + std::to_string(kMaxMeshContacts));
  Entry* a = entry(handleA, "a", -1, err);
  if (a == nullptr) return false;
  Entry* b = entry(handleB, "b", -1, err);
  if (b == nullptr) return false;
  if (!checkPose(in, "poseA", -1, err) || !checkPose(in + kPoseSize, "poseB", -1, err)) return false;
  if (!checkExtra(Kind::Contact, in + 2 * kPoseSize, Field{"margin"}, err)) return false;
  const bool compound = a->shape.type == ShapeType::Compound || b->shape.type == ShapeType::Compound;
  if (!compound && a->shape.type != ShapeType::Mesh && b->shape.type != ShapeType::Mesh) {
    header[0] = -1;  // two convex shapes: the contact query answers them
    return true;
  }
  if (a->shape.type == ShapeType::Mesh && b->shape.type == ShapeType::Mesh)
    return fail(err, kMeshUnsupportedCode, "b.type", "contacts between two meshes are not available yet");
  if (!prepared(a->shape, Field{"a"}, err) || !prepared(b->shape, Field{"b"}, err)) return false;
  if (contacts_.empty()) contacts_.resize(kMaxMeshContacts);
  if (compound)
    return compoundContacts(a->shape, b->shape, in, header, records, capacity, features, contacts_.data(), *this, err);
  // One side is a mesh and the other not, so a and b are distinct entries.
  a->shape.pose = checkedPose(in);
  b->shape.pose = checkedPose(in + kPoseSize);
  meshPairContactsInto(a->shape, b->shape, in[2 * kPoseSize], contacts_.data(), capacity, header, records);
  return true;
}

bool Registry::buildScene(Kind kind, int handleA, int handleB, const double* in, Scene* scene, SceneError* err) {
  const bool pair = !isSingleShape(kind);
  const Entry* a = entry(handleA, pair ? "a" : "shape", -1, err);
  if (a == nullptr) return false;
  const Entry* b = nullptr;
  if (pair && (b = entry(handleB, "b", -1, err)) == nullptr) return false;
  Transform poseA, poseB;
  if (!readPose(in, pair ? "poseA" : "pose", -1, &poseA, err)) return false;
  if (pair && !readPose(in + kPoseSize, "poseB", -1, &poseB, err)) return false;
  const double* extra = in + 2 * kPoseSize;
  if (!checkExtra(kind, extra, Field{extraName(kind, false)}, err)) return false;
  scene->shapes.assign(1, a->shape);
  scene->shapes[0].pose = poseA;
  if (pair) {
    scene->shapes.push_back(b->shape);
    scene->shapes[1].pose = poseB;
  }
  static const QueryKind kQuery[] = {QueryKind::Intersect, QueryKind::Distance,  QueryKind::Penetration,
                                     QueryKind::ChungWang, QueryKind::Sat,       QueryKind::Raycast,
                                     QueryKind::Shapecast, QueryKind::Contact,   QueryKind::Contains,
                                     QueryKind::Project};
  static_assert(sizeof kQuery / sizeof kQuery[0] == static_cast<int>(Kind::Count));
  scene->query = kQuery[static_cast<int>(kind)];
  if (kind == Kind::Raycast) {
    scene->hasRay = true;
    scene->ray = {vec(extra), vec(extra + 3), extra[6]};
  } else if (kind == Kind::Shapecast) {
    scene->hasMotion = true;
    scene->motion = {vec(extra), vec(extra + 3)};
  } else if (kind == Kind::Contains || kind == Kind::Project) {
    scene->hasPoint = true;
    scene->point = vec(extra);
  } else if (kind == Kind::Contact) {
    // Written even when 0, so that the link says which margin was asked;
    // the scene format bounds it as it bounds every length.
    if (extra[0] > kMaxMagnitude)
      return fail(err, "invalid-argument", "options.margin", "must be at most 1e15 to have a scene form");
    scene->hasMargin = true;
    scene->margin = extra[0];
  }
  return true;
}

bool Registry::trace(Kind kind, int handleA, int handleB, const double* in, std::string* json, SceneError* err) {
  Scene scene;
  if (!buildScene(kind, handleA, handleB, in, &scene, err)) return false;
  if (kind == Kind::Sat) {
    if (!checkSatShape(scene.shapes[0], "a.type", err) || !checkSatShape(scene.shapes[1], "b.type", err))
      return argumentError(err);
  }
  return runScene(scene, true, json, err) || argumentError(err);
}

bool Registry::scene(Kind kind, int handleA, int handleB, const double* in, std::string* json, SceneError* err) {
  Scene scene;
  if (!buildScene(kind, handleA, handleB, in, &scene, err)) return false;
  *json = sceneToJson(scene);
  return true;
}

namespace {

// The scene's two shapes in `registry` (copies) at their poses, with the
// scene's margin, as contact() and contacts() take them.
void sceneInput(const Scene& scene, Registry& registry, double* in, int* handles, SceneError* err) {
  std::fill(in, in + kInputSize, 0.0);
  for (int i = 0; i < 2; ++i) {
    const Shape& s = scene.shapes[static_cast<std::size_t>(i)];
    double* pose = in + kPoseSize * i;
    putBits(pose, s.pose.position);
    pose[3] = s.pose.rotation.x, pose[4] = s.pose.rotation.y, pose[5] = s.pose.rotation.z, pose[6] = s.pose.rotation.w;
    handles[i] = registry.add(s, err);
  }
  in[2 * kPoseSize] = scene.margin;
}

// The object API names its arguments a and b: here they are the scene's shapes.
bool asSceneError(SceneError* err) {
  if (err->code == "invalid-argument") err->code = "invalid-scene";
  if (!err->field.empty() && (err->field[0] == 'a' || err->field[0] == 'b'))
    err->field.replace(0, 1, err->field[0] == 'a' ? "shapes[0]" : "shapes[1]");
  return false;
}

// The compound children of one answer: "child", or "childA" and "childB"
// when both shapes are compounds (null without an answer), as the object
// API adds them.
void writeChildKeys(JsonWriter& w, const Scene& scene, const int* features, bool answered) {
  const bool compoundA = scene.shapes[0].type == ShapeType::Compound;
  const bool compoundB = scene.shapes[1].type == ShapeType::Compound;
  const char* const keys[] = {compoundA && compoundB ? "childA" : "child", "childB"};
  for (int i = 0, key = 0; i < 2; ++i) {
    if (!(i == 0 ? compoundA : compoundB)) continue;
    w.key(keys[key++]);
    if (answered && features[i] >= 0) w.value(features[i]);
    else w.null();
  }
}

// contact()'s answer from the query's doubles.
ContactResult contactOf(const double* out) {
  constexpr int k = static_cast<int>(Kind::Contact);
  ContactResult r;
  r.contact = out[AT(k, "contact")] != 0;
  r.distance = out[AT(k, "distance")];
  r.normal = vec(out + AT(k, "normal"));
  r.pointA = vec(out + AT(k, "pointA"));
  r.pointB = vec(out + AT(k, "pointB"));
  r.iterations = static_cast<int>(out[AT(k, "iterations")]);
  r.status = static_cast<EpaStatus>(out[AT(k, "status")]);
  return r;
}

}  // namespace

bool runContactScene(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  if (trace)
    return fail(err, "unsupported-query", "query",
                "query \"contact\" has no trace: step through it as \"penetration\" or \"distance\"");
  // contact()'s own path (closed forms, planes, compounds, the refusal of
  // meshes), on a registry holding copies of the two shapes.
  Registry registry;
  double in[kInputSize];
  int handles[2];
  sceneInput(scene, registry, in, handles, err);
  double out[kMaxResultStride];
  int features[2];
  if (!registry.query(Kind::Contact, handles[0], handles[1], in, nullptr, out, err, features))
    return asSceneError(err);
  const ContactResult r = contactOf(out);
  JsonWriter w;
  w.beginObject();
  jsonout::writeFields(w, r);
  writeChildKeys(w, scene, features, r.contact);
  w.endObject();
  *json = w.str();
  return true;
}

bool runContactsScene(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  if (trace)
    return fail(err, "unsupported-query", "query",
                "query \"contacts\" has no trace: step through it as \"penetration\" or \"distance\"");
  if (scene.shapes.size() != 2) return fail(err, "invalid-scene", "shapes", "this query needs 2 shapes");
  // contacts()'s own path, as runContactScene takes contact()'s: the one
  // contact of two convex shapes, each child pair's of compounds.
  Registry registry;
  double in[kInputSize];
  int handles[2];
  sceneInput(scene, registry, in, handles, err);
  std::vector<double> out(kContactsHeader + static_cast<std::size_t>(kContactSize) * kMaxMeshContacts);
  std::vector<int> features(2 * static_cast<std::size_t>(kMaxMeshContacts), -1);
  if (!registry.contacts(handles[0], handles[1], in, out.data(), kMaxMeshContacts, err, features.data()))
    return asSceneError(err);
  JsonWriter w;
  if (out[0] < 0) {  // two convex shapes: the contact query's one contact
    double one[kMaxResultStride];
    if (!registry.query(Kind::Contact, handles[0], handles[1], in, nullptr, one, err)) return asSceneError(err);
    const ContactResult r = contactOf(one);
    MeshContact c;
    if (r.contact) c.depth = -r.distance, c.normal = r.normal, c.pointA = r.pointA, c.pointB = r.pointB;
    jsonout::put(w, ContactsView{&c, r.contact ? 1 : 0, false, r.iterations});
    *json = w.str();
    return true;
  }
  const ResultLayout& layout = kContactRecordLayout;
  w.beginObject().key("contacts").beginArray();
  for (int i = 0; i < static_cast<int>(out[0]); ++i) {
    const double* record = out.data() + kContactsHeader + kContactSize * i;
    MeshContact c;
    c.depth = record[offsetIn(layout, "depth")];
    c.normal = vec(record + offsetIn(layout, "normal"));
    c.pointA = vec(record + offsetIn(layout, "pointA"));
    c.pointB = vec(record + offsetIn(layout, "pointB"));
    c.triangle = static_cast<int>(record[offsetIn(layout, "triangle")]);
    w.beginObject();
    jsonout::writeFields(w, c);
    writeChildKeys(w, scene, features.data() + 2 * i, true);
    w.endObject();
  }
  w.endArray().key("truncated").value(out[1] != 0).key("iterations").value(out[2]).endObject();
  *json = w.str();
  return true;
}

bool Registry::batch(Kind kind, const int* handles, int nShapes, const double* poses, const std::uint32_t* pairs,
                     std::int64_t n, const double* extras, double* caches, double* out, SceneError* err,
                     int* features, double* barycentric, std::uint64_t* rayOrder) {
  return answerBatch(kind, handles, nShapes, poses, pairs, n, extras, caches, out, err, features, barycentric,
                     rayOrder) ||
         argumentError(err);
}

static_assert(kMaxBatch <= kRayOrderMaxRays, "coherentRayOrder orders any batch's rays");

bool Registry::answerBatch(Kind kind, const int* handles, int nShapes, const double* poses,
                           const std::uint32_t* pairs, std::int64_t n, const double* extras, double* caches,
                           double* out, SceneError* err, int* features, double* barycentric,
                           std::uint64_t* rayOrder) {
  if (kind == Kind::Count) return fail(err, "invalid-argument", "query", "unknown query");
  if (n < 0 || n > kMaxBatch)
    return fail(err, "invalid-argument", "pairs", "must hold at most " + std::to_string(kMaxBatch) + " queries");
  const int perQuery = isSingleShape(kind) ? 1 : 2;
  const bool hasExtras = isSingleShape(kind) || kind == Kind::Shapecast || kind == Kind::Contact;
  if (hasExtras && extras == nullptr && n > 0)
    return fail(err, "invalid-argument", extraName(kind, true), "is missing (7 numbers per query)");
  // Check everything first: a batch either answers every query or none
  // (but a sat pair whose shapes are too large for SAT stops it there).
  const bool treesRead = readsMeshTree(kind);
  for (int i = 0; i < nShapes; ++i) {
    const Entry* e = entry(handles[i], "shapes", i, err);
    if (e == nullptr) return false;
    if (!checkPose(poses + static_cast<std::ptrdiff_t>(kPoseSize) * i, "poses", i, err)) return false;
    if (treesRead && !prepared(e->shape, Field{"shapes", i}, err)) return false;
  }
  for (std::int64_t q = 0; q < n; ++q) {
    for (int k = 0; k < perQuery; ++k) {
      const std::uint32_t idx = pairs[perQuery * q + k];
      if (idx >= static_cast<std::uint32_t>(nShapes))
        return fail(err, "invalid-argument", Field{"pairs", perQuery * q + k}.str(),
                    "is " + std::to_string(idx) + ", not a shape index (there are " + std::to_string(nShapes) +
                        " shapes)");
      if (kind == Kind::Sat && !hasPolytopalCore(slotOf(handles[idx]).shape))
        return checkSatShape(slotOf(handles[idx]).shape, Field{"shapes", idx} + ".type", err);
    }
    // A contact's margin in one comparison (finite and ≥ 0); checkExtra names the problem.
    const bool plainMargin = kind == Kind::Contact && extras[kExtraSize * q] >= 0 &&
                             extras[kExtraSize * q] <= std::numeric_limits<double>::max();
    if (hasExtras && !plainMargin &&
        !checkExtra(kind, extras + kExtraSize * q, Field{extraName(kind, true), q}, err))
      return false;
  }
  const int stride = kResultStride[static_cast<int>(kind)];
  const bool closed = closedKind(kind);
  // A body in many pairs has its segment core (capsule, segment) posed once
  // per batch: posed_[i] holds shape i's when stamp_[i] is this batch's
  // epoch. The arrays grow with the largest batch (a batch larger than any
  // before allocates them once); point cores are posed in place, cheaper
  // than the lookup.
  if (closed) {
    if (posed_.size() < static_cast<std::size_t>(nShapes)) {
      posed_.resize(static_cast<std::size_t>(nShapes));
      stamp_.resize(static_cast<std::size_t>(nShapes), 0);
    }
    if (++epoch_ == 0) {
      std::fill(stamp_.begin(), stamp_.end(), 0);
      epoch_ = 1;
    }
  }
  Core pointA, pointB;  // point cores, posed in place
  const auto coreAt = [&](const Core& local, std::uint32_t i, Core* point) -> const Core& {
    if (!local.segment) {
      *point = local;
      point->p0 = point->p1 = Vec3{poses[kPoseSize * i], poses[kPoseSize * i + 1], poses[kPoseSize * i + 2]};
      return *point;
    }
    if (stamp_[i] != epoch_) {
      posed_[i] = batchCore(local, poses + kPoseSize * i);
      stamp_[i] = epoch_;
    }
    return posed_[i];
  };
  Transform rayPose;  // of shape rayPoseOf, for rays on meshes
  std::uint32_t rayPoseOf = std::numeric_limits<std::uint32_t>::max();  // no shape index is this
  // Ray r of the batch on mesh shape `mesh` at rayPose, its row's features
  // and barycentric written as the loop below writes them.
  const auto traceMeshRay = [&](const Shape& mesh, std::int64_t r) {
    int* feature = features != nullptr ? features + 2 * r : nullptr;
    if (feature != nullptr) feature[1] = -1;  // answerMeshRay writes feature[0], the triangle
    answerMeshRay(mesh, rayPose, extras + kExtraSize * r, out + stride * r, &meshHit_, feature,
                  barycentric != nullptr ? barycentric + 3 * r : nullptr);
  };
  std::int64_t inOrderUntil = rayOrder != nullptr ? 0 : n;  // rays before this one run in the batch's order
  for (std::int64_t q = 0; q < n; ++q) {
    const std::uint32_t ia = pairs[perQuery * q];
    const std::uint32_t ib = perQuery == 2 ? pairs[perQuery * q + 1] : ia;
    double* answer = out + stride * q;
    const double* extra = extras != nullptr ? extras + kExtraSize * q : nullptr;
    // Only a mesh query names a triangle (answerMesh writes it).
    int* feature = features != nullptr ? features + 2 * q : nullptr;
    double* bary = barycentric != nullptr ? barycentric + 3 * q : nullptr;
    if (feature != nullptr) feature[0] = feature[1] = -1;
    if (bary != nullptr) bary[0] = bary[1] = bary[2] = kNaN;
    if (kind == Kind::Raycast) {
      // A ray on a mesh goes straight to its tree: a game casts many rays
      // at one level mesh, so its pose is normalized once per run of rays.
      const Entry& a = slotOf(handles[ia]);
      if (a.shape.type == ShapeType::Mesh) {
        if (ia != rayPoseOf) {
          rayPose = checkedPose(poses + kPoseSize * ia);
          rayPoseOf = ia;
        }
        if (q >= inOrderUntil) {
          // The run of rays on this mesh from q: a long one is traced in
          // coherent order, each answer in its own row. Its last ray is
          // traced last, so lastMeshHit() is the same as in the batch's order.
          std::int64_t end = q + 1;
          while (end < n && pairs[end] == ia) ++end;
          const std::int64_t count = end - q;
          if (count >= kRayOrderMinRays && a.shape.meshData->mesh.triangles.size() >= kRayOrderMinTriangles) {
            // The ray layout's root box (its axes the mesh's) in the rays'
            // frame: the key only orders the work, so any box around the
            // mesh gives the same answers.
            const float* root = a.shape.meshData->forRays().rays.rootBox;
            Obb box;
            const Vec3 lo{root[0], root[1], root[2]}, hi{root[3], root[4], root[5]};
            box.center = rayPose.apply(lo * 0.5 + hi * 0.5);
            box.axes[0] = rayPose.applyToDirection({1, 0, 0});
            box.axes[1] = rayPose.applyToDirection({0, 1, 0});
            box.axes[2] = rayPose.applyToDirection({0, 0, 1});
            box.halfExtents = hi * 0.5 - lo * 0.5;
            coherentRayOrder(extras + kExtraSize * q, count - 1, box, rayOrder, rayOrder + n);
            for (std::int64_t k = 0; k < count - 1; ++k) traceMeshRay(a.shape, q + rayOfItem(rayOrder[k]));
            traceMeshRay(a.shape, end - 1);
            q = end - 1;
            continue;
          }
          inOrderUntil = end;
        }
        answerMeshRay(a.shape, rayPose, extra, answer, &meshHit_, feature, bary);
        continue;
      }
    }
    if (closed) {
      const Hot& ha = hotOf(handles[ia]);
      const Hot& hb = hotOf(handles[ib]);
      if (coreForm(closedFormOf(ha.kind, hb.kind)) &&
          answerClosed(kind, coreAt(ha.core, ia, &pointA), coreAt(hb.core, ib, &pointB), extra, &distance_, answer))
        continue;
    }
    Entry& a = slotOf(handles[ia]);
    Entry* b = perQuery == 2 ? &slotOf(handles[ib]) : nullptr;
    if (closed) {
      const ClosedForm form = closedFormOf(a.core, b->core);
      if (form != ClosedForm::None && !coreForm(form) &&
          answerClosedPair(
              kind, form, a.shape, ia, b->shape, ib,
              [&](const Shape&, std::uint32_t i) { return batchCore(hotOf(handles[i]).core, poses + kPoseSize * i); },
              [&](const Shape& s, std::uint32_t i) { return boxCoreOf(s, checkedPose(poses + kPoseSize * i)); },
              extra, &distance_, answer))
        continue;
    }
    const Transform poseA = checkedPose(poses + kPoseSize * ia);
    const Transform poseB = perQuery == 2 ? checkedPose(poses + kPoseSize * ib) : poseA;
    double* cache = kind == Kind::Intersect && caches != nullptr ? caches + kCacheSize * q : nullptr;
    if (!run(kind, a, poseA, b, poseB, extra, cache, answer, err, feature, bary)) {
      err->field = Field{"pairs", perQuery * q}.str();
      return false;
    }
  }
  return true;
}

#undef AT

}  // namespace api
}  // namespace collidoscope
