// collidoscope — the object API's queries on compound shapes (api_results.h,
// compound.h): in a file of its own so that the default package flavour,
// which has no compounds (wasm/flavours/no_meshes.cpp), links none of it.
#include <algorithm>
#include <limits>
#include <string>

#include "collidoscope/api_results.h"
#include "collidoscope/compound.h"
#include "collidoscope/mesh_pair.h"

namespace collidoscope {
namespace api {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool refuse(SceneError* err, const std::string& field, const std::string& message) {
  *err = {"unsupported-query", field, message};
  return false;
}

// The field naming the compound (or, with `other`, the shape it meets).
const char* fieldOf(Kind kind, bool inA) {
  return inA ? (isSingleShape(kind) ? "shape.type" : "a.type") : "b.type";
}

// The child loop's rule for a query kind; false for the kinds a compound
// does not take.
bool ruleOf(Kind kind, ChildRule* rule) {
  switch (kind) {
    case Kind::Intersect: *rule = ChildRule::Intersect; return true;
    case Kind::Distance: *rule = ChildRule::Distance; return true;
    case Kind::Penetration: *rule = ChildRule::Penetration; return true;
    case Kind::Raycast: *rule = ChildRule::Raycast; return true;
    case Kind::Shapecast: *rule = ChildRule::Shapecast; return true;
    case Kind::Contains: *rule = ChildRule::Contains; return true;
    case Kind::Project: *rule = ChildRule::Project; return true;
    case Kind::Contact: *rule = ChildRule::Contact; return true;
    default: return false;
  }
}

// A result's rank by the rule of compound.h (smaller is better; +inf: not
// a candidate), read from its layout.
double keyOf(Kind kind, const double* r) {
  switch (kind) {
    case Kind::Intersect: return r[AT(0, "intersecting")] != 0 ? 0 : kInf;
    case Kind::Distance: return r[AT(1, "distance")];
    case Kind::Penetration: return r[AT(2, "intersecting")] != 0 ? -r[AT(2, "depth")] : kInf;
    case Kind::Raycast: return r[AT(5, "hit")] != 0 ? r[AT(5, "t")] : kInf;
    case Kind::Shapecast: return r[AT(6, "hit")] != 0 ? r[AT(6, "t")] : kInf;
    case Kind::Contact: return r[AT(7, "contact")] != 0 ? r[AT(7, "distance")] : kInf;
    case Kind::Contains: return r[AT(8, "inside")] != 0 ? 0 : kInf;
    case Kind::Project: return r[AT(9, "inside")] != 0 ? -r[AT(9, "distance")] : r[AT(9, "distance")];
    default: return kInf;
  }
}
static_assert(static_cast<int>(Kind::Raycast) == 5 && static_cast<int>(Kind::Contact) == 7 &&
                  static_cast<int>(Kind::Project) == 9,
              "keyOf reads the layouts by kind index");

// Both sides, a compound's children posed; a mesh on the other side is
// queried against each child (mesh_pair.h): intersect, distance, shapecast.
bool sidesOf(Kind kind, Shape& a, const Transform& poseA, Shape* b, const Transform& poseB, CompoundSide* A,
             CompoundSide* B, SceneError* err) {
  if ((a.type == ShapeType::Mesh || (b != nullptr && b->type == ShapeType::Mesh)) && kind != Kind::Intersect &&
      kind != Kind::Distance && kind != Kind::Shapecast)
    return refuse(err, fieldOf(kind, a.type == ShapeType::Mesh),
                  std::string("a compound against a mesh or heightfield takes intersect, distance and shapecast, "
                              "not ") +
                      kindName(kind));
  // A compound is posed child by child; a shape that is not one takes its pose.
  if (a.type != ShapeType::Compound) a.pose = poseA;
  if (b != nullptr && b->type != ShapeType::Compound) b->pose = poseB;
  *A = compoundSide(a, poseA, a.type == ShapeType::Compound ? &a.compoundData->posed[0] : nullptr);
  if (b != nullptr) *B = compoundSide(*b, poseB, b->type == ShapeType::Compound ? &b->compoundData->posed[1] : nullptr);
  return true;
}

}  // namespace

bool Registry::answerPiece(Kind kind, const Shape& a, const Shape* b, const double* extra, double* out,
                           SceneError* err, const SatHull* hull) {
  if (b != nullptr && closedKind(kind)) {
    const ClosedForm form = closedFormOf(coreKindOf(a), coreKindOf(*b));
    if (form != ClosedForm::None && closedAtPoses(kind, form, a, a.pose, *b, b->pose, extra, &distance_, out))
      return true;
  }
  return answerPosed(kind, a, b, extra, nullptr, out, err, nullptr, nullptr, nullptr, nullptr, hull);
}

bool answerCompound(Kind kind, Shape& a, const Transform& poseA, Shape* b, const Transform& poseB, const double* extra,
                    double* out, int* features, Registry& registry, SceneError* err) {
  ChildRule rule;
  if (!ruleOf(kind, &rule))
    return refuse(err, fieldOf(kind, a.type == ShapeType::Compound),
                  std::string("a compound takes intersect, distance, penetration, contact, raycast, shapecast, "
                              "contains and project, not ") +
                      kindName(kind));
  CompoundSide A, B;
  if (!sidesOf(kind, a, poseA, b, poseB, &A, &B, err)) return false;
  ChildInput in;
  if (extra != nullptr) {
    in.origin = vec(extra);
    in.direction = vec(extra + 3);
    in.maxT = extra[6];
    in.point = vec(extra);
    in.margin = extra[0];
  }
  // The candidate in results[next], the best in the other.
  double results[2][kMaxResultStride];
  int next = 0;
  ChildPick pick;
  const CompoundSide* sideB = b != nullptr ? &B : nullptr;
  // project names a child's feature from the hull kept with the compound.
  const auto hullOf = [&](const Shape& piece) -> const SatHull* {
    if (kind != Kind::Project || !A.compound()) return nullptr;
    const SatHull& h = a.compoundData->hulls[static_cast<std::size_t>(&piece - A.pieces)];
    return h.vertices.empty() ? nullptr : &h;
  };
  const bool ok = childLoop(
      rule, A, sideB, in,
      [&](const Shape& pa, const Shape* pb, double* key) {
        if (!registry.answerPiece(kind, pa, pb, extra, results[next], err, hullOf(pa))) return false;
        *key = keyOf(kind, results[next]);
        return true;
      },
      [&] { next = 1 - next; }, &pick);
  if (!ok) return false;
  // The registry keeps the last project's feature: the answering child's.
  if (kind == Kind::Project && pick.chosen &&
      !registry.answerPiece(kind, A.pieces[pick.i], nullptr, extra, results[next], err, hullOf(A.pieces[pick.i])))
    return false;
  std::copy_n(results[1 - next], kResultStride[static_cast<int>(kind)], out);
  if (features != nullptr) {
    features[0] = pick.chosen ? A.index(pick.i) : -1;
    features[1] = pick.chosen && sideB != nullptr ? B.index(pick.j) : -1;
  }
  return true;
}

namespace {

// A compound against a mesh: each child's contacts with the mesh (its tree
// prunes the triangles), child after child, as the scene runner lists them;
// the mesh's side of `features` is −1 (its triangle is in the record).
void compoundMeshContacts(Shape& a, Shape& b, const Transform& poseA, const Transform& poseB, double margin,
                          double* header, double* records, int capacity, int* features, MeshContact* scratch) {
  const bool meshA = a.type == ShapeType::Mesh;
  Shape& mesh = meshA ? a : b;
  Shape& parent = meshA ? b : a;
  mesh.pose = meshA ? poseA : poseB;
  const CompoundSide side = compoundSide(parent, meshA ? poseB : poseA, &parent.compoundData->posed[meshA ? 1 : 0]);
  constexpr int kStride = strideOf(kContactRecordLayout);
  int count = 0;
  bool truncated = false;
  double tests = 0;
  for (std::size_t i = 0; i < side.count; ++i) {
    const Shape& child = side.pieces[i];
    double h[kContactsHeader];
    meshPairContactsInto(meshA ? mesh : child, meshA ? child : mesh, margin, scratch, capacity - count, h,
                         records + static_cast<std::ptrdiff_t>(kStride) * count);
    const int n = static_cast<int>(h[0]);
    if (features != nullptr)
      for (int k = count; k < count + n; ++k) {
        features[2 * k] = meshA ? -1 : side.index(i);
        features[2 * k + 1] = meshA ? side.index(i) : -1;
      }
    count += n;
    truncated = truncated || h[1] != 0;
    tests += h[2];
  }
  header[0] = count;
  header[1] = truncated ? 1 : 0;
  header[2] = tests;
}

}  // namespace

bool compoundContacts(Shape& a, Shape& b, const double* in, double* header, double* records, int capacity,
                      int* features, MeshContact* scratch, Registry& registry, SceneError* err) {
  Transform poseA, poseB;
  if (!readPose(in, "poseA", -1, &poseA, err) || !readPose(in + kPoseSize, "poseB", -1, &poseB, err)) return false;
  const double margin = in[2 * kPoseSize];
  if (a.type == ShapeType::Mesh || b.type == ShapeType::Mesh) {
    compoundMeshContacts(a, b, poseA, poseB, margin, header, records, capacity, features, scratch);
    return true;
  }
  CompoundSide A, B;
  if (!sidesOf(Kind::Contact, a, poseA, &b, poseB, &A, &B, err)) return false;
  constexpr int k = static_cast<int>(Kind::Contact);
  double extra[kExtraSize] = {margin};
  double r[kMaxResultStride];
  int count = 0;
  bool truncated = false;
  double iterations = 0;
  const bool ok = forChildPairsWithin(A, B, margin, [&](std::size_t i, std::size_t j) {
    if (!registry.answerPiece(Kind::Contact, A.pieces[i], &B.pieces[j], extra, r, err)) return false;
    iterations += r[AT(k, "iterations")];
    if (r[AT(k, "contact")] == 0) return true;
    if (count == capacity) {
      truncated = true;
      return true;
    }
    const ResultLayout& layout = kContactRecordLayout;
    double* c = records + kContactSize * count;
    c[offsetIn(layout, "depth")] = -r[AT(k, "distance")];
    for (const char* v : {"normal", "pointA", "pointB"}) std::copy_n(r + offsetOf(k, v), 3, c + offsetIn(layout, v));
    c[offsetIn(layout, "triangle")] = -1;
    if (features != nullptr) {
      features[2 * count] = A.index(i);
      features[2 * count + 1] = B.index(j);
    }
    ++count;
    return true;
  });
  if (!ok) return false;
  header[0] = count;
  header[1] = truncated ? 1 : 0;
  header[2] = iterations;
  return true;
}

}  // namespace api
}  // namespace collidoscope
