// collidoscope — the compound shape (see compound.h).
#include "collidoscope/compound.h"

#include <cmath>
#include <limits>
#include <utility>

#include "collidoscope/closed_form.h"
#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/heap_room.h"
#include "collidoscope/json.h"
#include "collidoscope/mass.h"
#include "collidoscope/mesh_pair.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/plane.h"
#include "collidoscope/point_query.h"
#include "collidoscope/raycast.h"
#include "collidoscope/scene.h"
#include "collidoscope/schema_json.h"
#include "collidoscope/support.h"

namespace collidoscope {

bool makeCompoundShape(std::vector<Shape> children, Shape* out, ShapeError* err) {
  if (children.empty()) {
    *err = {"children", "must hold at least 1 shape"};
    return false;
  }
  if (children.size() > kMaxCompoundChildren) {
    *err = {"children", "has " + std::to_string(children.size()) + " shapes; the limit is " +
                            std::to_string(kMaxCompoundChildren) +
                            " (every query runs each child: a convex decomposition has tens)"};
    return false;
  }
  // Two posed copies of the children, and each polytopal child's SAT hull while it is built.
  double bytes = sizeof(CompoundShape);
  for (const Shape& c : children)
    bytes += 2 * sizeof(Shape) + static_cast<double>(c.points.size()) * (2 * sizeof(Vec3) + kPolytopePeakBytesPerPoint);
  if (!heapHasRoom(bytes, err, "children", "a compound of ", static_cast<double>(children.size()),
                   children.size() == 1 ? " child" : " children"))
    return false;
  auto data = std::make_shared<CompoundShape>();
  for (std::size_t i = 0; i < children.size(); ++i) {
    const ShapeType t = children[i].type;
    if (t == ShapeType::Mesh || t == ShapeType::Plane || t == ShapeType::Compound) {
      *err = {"children[" + std::to_string(i) + "].type",
              "a compound's children are convex shapes: no mesh, heightfield, plane or compound inside"};
      return false;
    }
    data->radii.push_back(localBoundingRadius(children[i]));
  }
  data->hulls.resize(children.size());
  for (std::size_t i = 0; i < children.size(); ++i)
    if (hasPolytopalCore(children[i]) && buildSatHull(children[i], &data->hulls[i]) != SatStatus::Ok) data->hulls[i] = SatHull{};
  data->posed[0] = children;
  data->posed[1] = children;
  data->children = std::move(children);
  Shape s;
  s.type = ShapeType::Compound;
  s.compoundData = std::move(data);
  *out = std::move(s);
  return true;
}

namespace {

// Hamilton product: the rotation b followed by a.
Quat multiply(const Quat& a, const Quat& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

bool isSingleShapeQuery(QueryKind q) {
  return q == QueryKind::Raycast || q == QueryKind::Contains || q == QueryKind::Project || q == QueryKind::Hull ||
         q == QueryKind::Obb;
}

// One side of a pair: its pieces (a compound's children in the world, or
// the shape itself, index −1) with their bounding spheres.
struct Side {
  std::vector<Shape> pieces;
  std::vector<int> index;
  std::vector<Vec3> centre;
  std::vector<double> radius;
};

Side sideOf(const Shape& s) {
  Side out;
  if (s.type == ShapeType::Compound) {
    for (std::size_t i = 0; i < s.compoundData->children.size(); ++i) {
      out.pieces.push_back(compoundChildInWorld(s, i));
      out.index.push_back(static_cast<int>(i));
      out.centre.push_back(out.pieces.back().pose.position);
      out.radius.push_back(s.compoundData->radii[i]);
    }
  } else {
    out.pieces.push_back(s);
    out.index.push_back(-1);
    out.centre.push_back(s.pose.position);
    out.radius.push_back(s.type == ShapeType::Plane ? std::numeric_limits<double>::infinity() : localBoundingRadius(s));
  }
  return out;
}

void writeValue(JsonWriter& w, const JsonValue& v) {
  switch (v.kind) {
    case JsonValue::Kind::Null: w.null(); break;
    case JsonValue::Kind::Bool: w.value(v.boolean); break;
    case JsonValue::Kind::Number: w.value(v.number); break;
    case JsonValue::Kind::String: w.value(v.string); break;
    case JsonValue::Kind::Array:
      w.beginArray();
      for (const JsonValue& x : v.items) writeValue(w, x);
      w.endArray();
      break;
    case JsonValue::Kind::Object:
      w.beginObject();
      for (const auto& m : v.members) {
        w.key(m.first.c_str());
        writeValue(w, m.second);
      }
      w.endObject();
      break;
  }
}

// Which child fields a result carries: "child" for the one compound side,
// "childA" and "childB" for two.
void writeChildren(JsonWriter& w, bool compoundA, bool compoundB, int i, int j, bool chosen) {
  auto put = [&](const char* key, int k) {
    w.key(key);
    if (chosen) w.value(k);
    else w.null();
  };
  if (compoundA && compoundB) {
    put("childA", i);
    put("childB", j);
  } else {
    put("child", compoundA ? i : j);
  }
}

// The result object `result` with the child fields added after its own.
std::string withChildren(const JsonValue& result, bool compoundA, bool compoundB, int i, int j, bool chosen) {
  JsonWriter w;
  w.beginObject();
  for (const auto& m : result.members) {
    w.key(m.first.c_str());
    writeValue(w, m.second);
  }
  writeChildren(w, compoundA, compoundB, i, j, chosen);
  w.endObject();
  return w.str();
}

class Runner {
 public:
  Runner(const Scene& scene, SceneError* err) : sub_(scene), err_(err) {}

  // The query on pieces a (and b); the parsed result (or trace) in *out.
  bool run(const Shape& a, const Shape* b, JsonValue* out, bool trace = false) {
    sub_.shapes.clear();
    sub_.shapes.push_back(a);
    if (b != nullptr) sub_.shapes.push_back(*b);
    std::string json;
    if (!runScene(sub_, trace, &json, err_)) return false;
    std::string why;
    if (!parseJson(json, out, &why)) {
      *err_ = {"internal", "", "a child's result did not read back: " + why};
      return false;
    }
    return true;
  }

 private:
  Scene sub_;
  SceneError* err_;
};

double number(const JsonValue& v, const char* key) {
  const JsonValue* x = v.find(key);
  return x != nullptr && x->isNumber() ? x->number : std::numeric_limits<double>::quiet_NaN();
}
bool flag(const JsonValue& v, const char* key) {
  const JsonValue* x = v.find(key);
  return x != nullptr && x->kind == JsonValue::Kind::Bool && x->boolean;
}

bool refuse(SceneError* err, const std::string& field, const std::string& message) {
  *err = {"unsupported-query", field, message};
  return false;
}

}  // namespace

Shape compoundChildInWorld(const Shape& compound, std::size_t i) {
  Shape c = compound.compoundData->children[i];
  c.pose.position = compound.pose.apply(c.pose.position);
  c.pose.rotation = multiply(compound.pose.rotation, c.pose.rotation);
  return c;
}

void copyCompoundChildren(const Shape& compound, std::vector<Shape>* scratch) {
  *scratch = compound.compoundData->children;
}

CompoundSide compoundSide(const Shape& s, const Transform& pose, std::vector<Shape>* scratch) {
  CompoundSide side;
  if (s.type != ShapeType::Compound) {
    side.pieces = &s;
    // A plane is unbounded; a mesh's bound would cost a pass over its
    // vertices per query, and its own tree prunes the child's query anyway.
    side.radius = s.type == ShapeType::Plane || s.type == ShapeType::Mesh ? std::numeric_limits<double>::infinity()
                                                                         : localBoundingRadius(s);
    return side;
  }
  const CompoundShape& c = *s.compoundData;
  for (std::size_t i = 0; i < c.children.size(); ++i) {
    Shape& piece = (*scratch)[i];
    piece.pose.position = pose.apply(c.children[i].pose.position);
    piece.pose.rotation = multiply(pose.rotation, c.children[i].pose.rotation);
  }
  side.pieces = scratch->data();
  side.count = c.children.size();
  side.radii = c.radii.data();
  return side;
}

double compoundTimeOfImpact(const Shape& moving, const Vec3& da, const Shape& other, const Vec3& db,
                            double (*timeOfImpact)(const Shape&, const Vec3&, const Shape&, const Vec3&)) {
  const bool movingIsCompound = moving.type == ShapeType::Compound, otherIsCompound = other.type == ShapeType::Compound;
  const CompoundSide m = compoundSide(moving, moving.pose, movingIsCompound ? &moving.compoundData->posed[0] : nullptr);
  const CompoundSide o = compoundSide(other, other.pose, otherIsCompound ? &other.compoundData->posed[1] : nullptr);
  double t = 2;
  for (std::size_t i = 0; i < m.count; ++i)
    for (std::size_t j = 0; j < o.count; ++j) t = std::fmin(t, timeOfImpact(m.pieces[i], da, o.pieces[j], db));
  return t;
}

bool sceneHasCompound(const Scene& scene) {
  const std::size_t n = isSingleShapeQuery(scene.query) ? 1 : 2;
  for (std::size_t i = 0; i < n && i < scene.shapes.size(); ++i)
    if (scene.shapes[i].type == ShapeType::Compound) return true;
  return false;
}

namespace {

// The checks both runners make: a query a compound takes, two shapes for a
// pair query, no mesh on the other side.
bool checkCompoundScene(const Scene& scene, bool trace, SceneError* err) {
  const QueryKind q = scene.query;
  const int which = scene.shapes[0].type == ShapeType::Compound ? 0 : 1;
  const std::string field = "shapes[" + std::to_string(which) + "].type";
  // A trace is the answering child's own (below); these queries have none.
  if (trace && (q == QueryKind::Contacts || q == QueryKind::Contains || q == QueryKind::Project))
    return refuse(err, field,
                  std::string("query \"") + queryName(q) + "\" on a compound has no steps to trace (run answers it)");
  const bool single = isSingleShapeQuery(q);
  if (q == QueryKind::Hull || q == QueryKind::Obb || q == QueryKind::Sat || q == QueryKind::ChungWang ||
      (!single && q != QueryKind::Intersect && q != QueryKind::Distance && q != QueryKind::Penetration &&
       q != QueryKind::Shapecast && q != QueryKind::Contacts))
    return refuse(err, field,
                  std::string("a compound takes intersect, distance, penetration, shapecast, contacts, raycast, "
                              "contains and project; query \"") +
                      queryName(q) + "\" on a compound is not available");
  if (!single && scene.shapes.size() != 2) {
    *err = {"invalid-scene", "shapes", "this query needs 2 shapes"};
    return false;
  }
  if (!single && (scene.shapes[0].type == ShapeType::Mesh || scene.shapes[1].type == ShapeType::Mesh) &&
      q != QueryKind::Intersect && q != QueryKind::Distance && q != QueryKind::Shapecast && q != QueryKind::Contacts)
    return refuse(err, scene.shapes[0].type == ShapeType::Mesh ? "shapes[0].type" : "shapes[1].type",
                  std::string("a compound against a mesh or heightfield takes intersect, distance, shapecast and "
                              "contacts, not ") +
                      queryName(q));
  return true;
}

}  // namespace

namespace {

// One pair of pieces (b null for a single-shape query) answered as the
// scene runner answers two convex shapes or a convex shape and a plane
// (scene.cpp runScene): a plane's closed form first, then the pair's
// closed form, then GJK, EPA or the casts at the default settings.
struct PieceQueries {
  const Scene& scene;
  SceneError* err;

  bool planeIn(const Shape& a, const Shape* b) const {
    return a.type == ShapeType::Plane || (b != nullptr && b->type == ShapeType::Plane);
  }
  bool closed(const Shape& a, const Shape& b) const {
    return scene.closedForms && closedFormOf(a, b) != ClosedForm::None;
  }
  bool operator()(const Shape& a, const Shape* b, IntersectResult* r) const {
    if (planeIn(a, b)) *r = planeIntersect(a, *b);
    else if (!(closed(a, *b) && closedIntersect(a, *b, r))) *r = gjkIntersect(PosedShape(a), PosedShape(*b), GjkSettings{});
    return true;
  }
  bool operator()(const Shape& a, const Shape* b, DistanceResult* r) const {
    if (planeIn(a, b)) *r = planeDistance(a, *b);
    else if (!(closed(a, *b) && closedDistance(a, *b, r))) *r = gjkDistance(PosedShape(a), PosedShape(*b), GjkSettings{});
    return true;
  }
  bool operator()(const Shape& a, const Shape* b, PenetrationResult* r) const {
    if (planeIn(a, b)) {
      if (planePenetration(a, *b, r) == PlaneStatus::Ok) return true;
      *err = {"invalid-scene", "shapes",
              "two planes whose normals are not opposite overlap without bound: their penetration depth is "
              "unbounded (intersect and distance answer them)"};
      return false;
    }
    if (!(closed(a, *b) && closedPenetration(a, *b, r))) *r = penetration(PosedShape(a), PosedShape(*b));
    return true;
  }
  bool operator()(const Shape& a, const Shape*, RayCastResult* r) const {
    *r = gjkRayCast(PosedShape(a), scene.ray.origin, scene.ray.direction, scene.ray.maxT);
    return true;
  }
  bool operator()(const Shape& a, const Shape* b, ShapeCastResult* r) const {
    *r = gjkShapeCast(PosedShape(a), PosedShape(*b), scene.motion.translationA, scene.motion.translationB);
    return true;
  }
  bool operator()(const Shape& a, const Shape*, ContainsResult* r) const {
    *r = containsPoint(a, scene.point);
    return true;
  }
  bool operator()(const Shape& a, const Shape*, ProjectResult* r) const {
    *r = projectPoint(a, scene.point);
    return true;
  }
};

double keyOf(const IntersectResult& r) { return r.intersecting ? 0 : std::numeric_limits<double>::infinity(); }
double keyOf(const DistanceResult& r) { return r.distance; }
double keyOf(const PenetrationResult& r) { return r.intersecting ? -r.depth : std::numeric_limits<double>::infinity(); }
double keyOf(const RayCastResult& r) { return r.hit ? r.t : std::numeric_limits<double>::infinity(); }
double keyOf(const ShapeCastResult& r) { return r.hit ? r.t : std::numeric_limits<double>::infinity(); }
double keyOf(const ContainsResult& r) { return r.inside ? 0 : std::numeric_limits<double>::infinity(); }
double keyOf(const ProjectResult& r) { return r.inside ? -r.distance : r.distance; }

// The child loop with results of type R: the best one's fields and the
// child fields, as JSON.
template <class R>
bool runChildLoop(const Scene& scene, ChildRule rule, const CompoundSide& A, const CompoundSide* B,
                  std::string* json, SceneError* err) {
  const PieceQueries queries{scene, err};
  R results[2];  // the candidate in results[next], the best in the other
  int next = 0;
  ChildInput in;
  in.origin = scene.ray.origin;
  in.direction = scene.ray.direction;
  in.maxT = scene.ray.maxT;
  in.point = scene.point;
  ChildPick pick;
  const bool ok = childLoop(
      rule, A, B, in,
      [&](const Shape& a, const Shape* b, double* key) {
        if (!queries(a, b, &results[next])) return false;
        *key = keyOf(results[next]);
        return true;
      },
      [&] { next = 1 - next; }, &pick);
  if (!ok) return false;
  JsonWriter w;
  w.beginObject();
  jsonout::writeFields(w, results[1 - next]);
  const bool compoundB = B != nullptr && B->compound();
  writeChildren(w, A.compound(), compoundB, A.index(pick.i), B != nullptr ? B->index(pick.j) : -1, pick.chosen);
  w.endObject();
  *json = w.str();
  return true;
}

}  // namespace

bool runCompoundScene(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  // A mesh on the other side: its OBB tree is built once, here, before the
  // children's queries read it (an out-of-memory error names the mesh).
  if (scene.query != QueryKind::Raycast)
    for (std::size_t i = 0; i < scene.shapes.size(); ++i)
      if (!prepareMeshTree(scene.shapes[i], "shapes[" + std::to_string(i) + "]", err)) return false;
  if (trace) return runCompoundSceneByChildScenes(scene, trace, json, err);
  if (!checkCompoundScene(scene, trace, err)) return false;
  const QueryKind q = scene.query;
  if (q == QueryKind::Raycast && scene.ray.direction == Vec3{}) {
    *err = {"invalid-scene", "ray.direction", "must not be the zero vector"};
    return false;
  }
  const bool single = isSingleShapeQuery(q);
  if (q == QueryKind::Shapecast && (scene.shapes[0].type == ShapeType::Plane || scene.shapes[1].type == ShapeType::Plane)) {
    *err = {"unsupported-query", scene.shapes[0].type == ShapeType::Plane ? "shapes[0].type" : "shapes[1].type",
            "a plane (half-space) takes intersect, distance, penetration, raycast, contains and project, not shapecast"};
    return false;
  }
  // Against a mesh, each child pair is a mesh scene (mesh_pair.h), whose
  // results carry the triangle too.
  if (!single && (scene.shapes[0].type == ShapeType::Mesh || scene.shapes[1].type == ShapeType::Mesh))
    return runCompoundSceneByChildScenes(scene, false, json, err);
  // The scene is the caller's: its compounds are posed in copies.
  std::vector<Shape> scratchA, scratchB;
  if (scene.shapes[0].type == ShapeType::Compound) copyCompoundChildren(scene.shapes[0], &scratchA);
  if (!single && scene.shapes[1].type == ShapeType::Compound) copyCompoundChildren(scene.shapes[1], &scratchB);
  const CompoundSide A = compoundSide(scene.shapes[0], scene.shapes[0].pose, &scratchA);
  CompoundSide B;
  if (!single) B = compoundSide(scene.shapes[1], scene.shapes[1].pose, &scratchB);
  const CompoundSide* b = single ? nullptr : &B;
  switch (q) {
    case QueryKind::Intersect: return runChildLoop<IntersectResult>(scene, ChildRule::Intersect, A, b, json, err);
    case QueryKind::Distance: return runChildLoop<DistanceResult>(scene, ChildRule::Distance, A, b, json, err);
    case QueryKind::Penetration:
      return runChildLoop<PenetrationResult>(scene, ChildRule::Penetration, A, b, json, err);
    case QueryKind::Raycast: return runChildLoop<RayCastResult>(scene, ChildRule::Raycast, A, b, json, err);
    case QueryKind::Shapecast: return runChildLoop<ShapeCastResult>(scene, ChildRule::Shapecast, A, b, json, err);
    case QueryKind::Contains: return runChildLoop<ContainsResult>(scene, ChildRule::Contains, A, b, json, err);
    case QueryKind::Project: return runChildLoop<ProjectResult>(scene, ChildRule::Project, A, b, json, err);
    default: break;
  }
  *err = {"unsupported-query", "query", "unknown query on a compound"};
  return false;
}

bool runCompoundSceneByChildScenes(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  if (!checkCompoundScene(scene, trace, err)) return false;
  const QueryKind q = scene.query;
  const bool single = isSingleShapeQuery(q);
  Runner runner(scene, err);
  const Side A = sideOf(scene.shapes[0]);
  const Side B = single ? Side{} : sideOf(scene.shapes[1]);
  const bool compoundA = scene.shapes[0].type == ShapeType::Compound;
  const bool compoundB = !single && scene.shapes[1].type == ShapeType::Compound;
  const std::size_t nb = single ? 1 : B.pieces.size();

  if (q == QueryKind::Contacts) {
    JsonWriter w;
    w.beginObject().key("contacts").beginArray();
    double iterations = 0;
    bool truncated = false;
    for (std::size_t i = 0; i < A.pieces.size(); ++i)
      for (std::size_t j = 0; j < nb; ++j) {
        const double gap = length(A.centre[i] - B.centre[j]) - A.radius[i] - B.radius[j];
        if (gap > scene.margin) continue;
        JsonValue r;
        if (!runner.run(A.pieces[i], &B.pieces[j], &r)) return false;
        iterations += number(r, "iterations");
        truncated = truncated || flag(r, "truncated");
        for (const JsonValue& c : r.find("contacts")->items) w.raw(withChildren(c, compoundA, compoundB, A.index[i], B.index[j], true));
      }
    w.endArray().key("truncated").value(truncated).key("iterations").value(iterations).endObject();
    *json = w.str();
    return true;
  }

  bool chosen = false;
  int bi = 0, bj = 0;
  JsonValue best;
  double bestKey = std::numeric_limits<double>::infinity();
  // Single-shape queries: the ray's segment or the query point.
  const Vec3 o = scene.ray.origin, d = scene.ray.direction;
  const double dd = dot(d, d);
  // Intersect and contains stop at the first child that answers.
  const bool first = q == QueryKind::Intersect || q == QueryKind::Contains;
  for (std::size_t i = 0; i < A.pieces.size() && !(first && chosen); ++i)
    for (std::size_t j = 0; j < nb && !(first && chosen); ++j) {
      const double gap = single ? 0 : length(A.centre[i] - B.centre[j]) - A.radius[i] - B.radius[j];
      bool skip = false;
      switch (q) {
        case QueryKind::Intersect:
        case QueryKind::Penetration: skip = gap > 0; break;
        case QueryKind::Distance: skip = gap > bestKey; break;
        case QueryKind::Raycast: {
          const Vec3 c = A.centre[i] - o;
          const double t = dd > 0 ? std::fmin(std::fmax(dot(c, d) / dd, 0.0), scene.ray.maxT) : 0.0;
          skip = length(o + d * t - A.centre[i]) > A.radius[i] ||
                 (dd > 0 && (length(c) - A.radius[i]) / std::sqrt(dd) > bestKey);
          break;
        }
        case QueryKind::Contains: skip = length(scene.point - A.centre[i]) > A.radius[i]; break;
        case QueryKind::Project: skip = length(scene.point - A.centre[i]) - A.radius[i] > bestKey; break;
        default: break;
      }
      if (skip) continue;
      JsonValue r;
      if (!runner.run(A.pieces[i], single ? nullptr : &B.pieces[j], &r)) return false;
      double key = std::numeric_limits<double>::infinity();  // smaller is better; +inf: not a candidate
      switch (q) {
        case QueryKind::Intersect: key = flag(r, "intersecting") ? 0 : key; break;
        case QueryKind::Distance: key = number(r, "distance"); break;
        case QueryKind::Penetration: key = flag(r, "intersecting") ? -number(r, "depth") : key; break;
        case QueryKind::Raycast:
        case QueryKind::Shapecast: key = flag(r, "hit") ? number(r, "t") : key; break;
        case QueryKind::Contains: key = flag(r, "inside") ? 0 : key; break;
        case QueryKind::Project: key = flag(r, "inside") ? -number(r, "distance") : number(r, "distance"); break;
        default: break;
      }
      if (key < bestKey) {
        bestKey = key;
        chosen = true;
        bi = static_cast<int>(i);
        bj = static_cast<int>(j);
        best = std::move(r);
      }
    }
  if (!chosen && !runner.run(A.pieces[0], single ? nullptr : &B.pieces[0], &best)) return false;
  const int ci = A.index[static_cast<std::size_t>(bi)], cj = single ? -1 : B.index[static_cast<std::size_t>(bj)];
  const std::string answer = withChildren(best, compoundA, compoundB, ci, cj, chosen);
  if (!trace) {
    *json = answer;
    return true;
  }
  // The trace of the answering child (child 0 when none answers) on its
  // own, with the compound's answer as its result and the child fields.
  JsonValue steps;
  if (!runner.run(A.pieces[static_cast<std::size_t>(bi)], single ? nullptr : &B.pieces[static_cast<std::size_t>(bj)], &steps, true))
    return false;
  JsonWriter w;
  w.beginObject();
  for (const auto& m : steps.members) {
    w.key(m.first.c_str());
    if (m.first == "result") w.raw(answer);
    else writeValue(w, m.second);
  }
  writeChildren(w, compoundA, compoundB, ci, cj, chosen);
  w.endObject();
  *json = w.str();
  return true;
}

// A compound: each child's moments rotated into the compound's frame by its
// pose (R C Rᵀ, centroid posed), then summed about the common centroid with
// the parallel-axis theorem, C = Σ (C_i + V_i d_i d_iᵀ), d_i = c_i − c. Two
// passes (the centroid first) rather than an array of 256 children's
// moments on the stack.
MassStatus compoundMoments(const Shape& s, Moments* out) {
  if (!s.compoundData || s.compoundData->children.empty()) return MassStatus::InvalidShape;
  const auto& children = s.compoundData->children;
  double volume = 0;
  Vec3 first;
  for (const Shape& child : children) {
    Moments part;
    const MassStatus st = momentsOf(child, &part);
    if (st != MassStatus::Ok) return st;
    volume += part.volume;
    first += child.pose.apply(part.centroid) * part.volume;
  }
  out->volume = volume;
  out->centroid = first / volume;
  out->second = Mat3{};
  for (const Shape& child : children) {
    Moments part;
    momentsOf(child, &part);
    const Mat3 r = Mat3::rotation(child.pose.rotation);
    const Vec3 d = child.pose.apply(part.centroid) - out->centroid;
    out->second = out->second + r * part.second * r.transposed() + Mat3::outer(d, d) * part.volume;
  }
  return MassStatus::Ok;
}

}  // namespace collidoscope
