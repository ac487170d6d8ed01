// collidoscope — the scene format's "compound" shape: convex children, each
// with its own pose relative to the compound (the result of a convex
// decomposition), answered child by child.
//
// A compound is the union of its children. Its queries run the convex
// query of each child — posed in the world as compound pose ∘ child pose —
// against the other shape (every child pair for two compounds) and combine
// the answers; each result names the child ("child", or "childA" and
// "childB" when both shapes are compounds, A-major), null when no child
// answers. How the answers combine:
//   intersect    any child intersects: the first one, in child order;
//   distance     the nearest child (ties: the smaller index), its points;
//   penetration  the deepest of the intersecting children (a contact
//                definition: the one child pair to push apart first);
//   contacts     one contact per child within the margin, in child order,
//                each with its "child";
//   raycast      the nearest child hit; shapecast the earliest;
//   contains     inside any child: the first one;
//   project      the child of the smallest signed distance (negative
//                inside): exact for the union outside every child; inside,
//                the point on that child's surface, which may lie inside
//                another child.
// When no child answers (nothing intersects, the ray misses ...) the fields
// are those of child 0's miss, with child null. A trace is the answering
// child's own trace (child 0's when none answers) with the compound's answer
// as its result and the child fields beside its frames; contacts, contains
// and project have none.
//
// Running. The scene runner (untraced) and the object API run the child
// loop below (childLoop): each child is posed in the world into a copy
// made beforehand (the scene runner copies per scene; the object API keeps
// two sets in CompoundShape::posed, made with the compound, so a query
// allocates nothing) and queried with the same convex functions as two
// convex shapes; the scene runner's results are those of a scene per child
// (runCompoundSceneByChildScenes, which traces use) bit for bit. The object
// API's results carry the children in `features` (api.h); its contact()
// is the nearest child pair within the margin.
//
// Prefilter. Each child has a bounding sphere (its pose's position, its
// localBoundingRadius); a child whose sphere cannot meet the other shape's
// sphere (intersect, contacts), lies farther than the best distance so far
// (distance, project), or that the ray's segment misses (raycast) is not
// queried.
//
// Against a mesh (either order), each child meets the mesh with the
// mesh–convex queries (mesh_pair.h): intersect, distance, shapecast and
// contacts; the scene runner runs them as child scenes, whose results name
// the triangle too.
//
// Children are convex: no mesh, heightfield, plane or compound inside. A
// compound takes no margin and no scale (give them to its children).
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "collidoscope/sat.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

struct Scene;
struct SceneError;

// Most children of a compound. The queries loop over the children (no tree
// of them), so a pair of compounds costs up to 256² = 65 536 convex
// queries; a convex decomposition (V-HACD, CoACD) of a game asset has tens.
constexpr std::size_t kMaxCompoundChildren = 256;

struct CompoundShape {
  std::vector<Shape> children;  // poses relative to the compound
  std::vector<double> radii;    // bounding radius of each child about its position
  // Copies of the children whose poses the object API's queries overwrite
  // with their world poses (compoundSide): [0] when the compound is shape
  // A, [1] when it is B, so that a compound against itself (or a copy
  // sharing this data) has both. Made with the compound, so that a query
  // allocates nothing; like the registry, they serve one thread.
  mutable std::vector<Shape> posed[2];
  // Per child: its SAT hull (sat.h) when its core is a polytope, from which
  // project names the feature without building one per query; else empty.
  std::vector<SatHull> hulls;
};

// Makes *out a compound of `children` (validated shapes with poses relative
// to the compound). Fails naming "children" (none, more than
// kMaxCompoundChildren) or "children[i].type" (not convex).
bool makeCompoundShape(std::vector<Shape> children, Shape* out, ShapeError* err);

// Child i placed in the world: the compound's pose after the child's.
Shape compoundChildInWorld(const Shape& compound, std::size_t i);

// Copies of a compound's children, whose poses compoundSide() overwrites
// with their world poses: made once per compound (this allocates), so that
// a query allocates nothing.
void copyCompoundChildren(const Shape& compound, std::vector<Shape>* scratch);

// One side of a pair query for the child loop: a compound's children posed
// in the world, or one shape (index −1).
struct CompoundSide {
  const Shape* pieces = nullptr;  // count shapes, posed in the world
  std::size_t count = 1;
  const double* radii = nullptr;  // a compound's child radii; null for one shape
  double radius = 0;              // one shape's bounding radius (a plane's: +inf)
  bool compound() const { return radii != nullptr; }
  int index(std::size_t i) const { return compound() ? static_cast<int>(i) : -1; }
  const Vec3& centre(std::size_t i) const { return pieces[i].pose.position; }
  double radiusOf(std::size_t i) const { return compound() ? radii[i] : radius; }
};

// The side of shape s at `pose`: a compound's children are posed into
// *scratch (copies of its children), without allocating; any other shape
// is itself, as posed (s.pose, which must be `pose`).
CompoundSide compoundSide(const Shape& s, const Transform& pose, std::vector<Shape>* scratch);

// The queries the child loop combines, by the rules above; Contact is the
// object API's contact(): the nearest child pair within the margin.
enum class ChildRule { Intersect, Distance, Penetration, Raycast, Shapecast, Contains, Project, Contact };

// What a single-shape query or the prefilter reads besides the shapes.
struct ChildInput {
  Vec3 origin, direction;  // raycast
  double maxT = 1;
  Vec3 point;              // contains, project
  double margin = 0;       // contact
};

// The answering pair of pieces (0, 0 when none answers: chosen false).
struct ChildPick {
  bool chosen = false;
  std::size_t i = 0, j = 0;
};

// The child loop of a query on side A (and B; null for raycast, contains
// and project): for each pair of pieces the prefilter keeps, in A-major
// order, answer(a, b, &key) runs the query on the posed pieces (b null for
// one shape) and sets its key (smaller is better; +inf: not a candidate);
// keep() is called when that answer becomes the best. When none answers,
// the pair (0, 0) is answered and kept. False as soon as answer() fails.
template <class Answer, class Keep>
bool childLoop(ChildRule rule, const CompoundSide& A, const CompoundSide* B, const ChildInput& in, Answer&& answer,
               Keep&& keep, ChildPick* pick) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t nb = B != nullptr ? B->count : 1;
  const Vec3 o = in.origin, d = in.direction;
  const double dd = dot(d, d);
  // Intersect and contains stop at the first child that answers.
  const bool first = rule == ChildRule::Intersect || rule == ChildRule::Contains;
  double bestKey = inf;
  *pick = ChildPick{};
  for (std::size_t i = 0; i < A.count && !(first && pick->chosen); ++i)
    for (std::size_t j = 0; j < nb && !(first && pick->chosen); ++j) {
      const double gap = B == nullptr ? 0 : length(A.centre(i) - B->centre(j)) - A.radiusOf(i) - B->radiusOf(j);
      bool skip = false;
      switch (rule) {
        case ChildRule::Intersect:
        case ChildRule::Penetration: skip = gap > 0; break;
        case ChildRule::Contact: skip = gap > in.margin; break;
        case ChildRule::Distance: skip = gap > bestKey; break;
        case ChildRule::Raycast: {
          const Vec3 c = A.centre(i) - o;
          const double t = dd > 0 ? std::fmin(std::fmax(dot(c, d) / dd, 0.0), in.maxT) : 0.0;
          skip = length(o + d * t - A.centre(i)) > A.radiusOf(i) ||
                 (dd > 0 && (length(c) - A.radiusOf(i)) / std::sqrt(dd) > bestKey);
          break;
        }
        case ChildRule::Contains: skip = length(in.point - A.centre(i)) > A.radiusOf(i); break;
        case ChildRule::Project: skip = length(in.point - A.centre(i)) - A.radiusOf(i) > bestKey; break;
        case ChildRule::Shapecast: break;
      }
      if (skip) continue;
      double key = inf;
      if (!answer(A.pieces[i], B != nullptr ? &B->pieces[j] : nullptr, &key)) return false;
      if (key < bestKey) {
        bestKey = key;
        *pick = {true, i, j};
        keep();
      }
    }
  if (pick->chosen) return true;
  double ignored = inf;
  if (!answer(A.pieces[0], B != nullptr ? &B->pieces[0] : nullptr, &ignored)) return false;
  keep();
  return true;
}

// Calls f(i, j) for every pair of pieces whose bounding spheres come within
// `margin` (the candidates of "contacts"), in A-major order; stops and
// returns false when f does.
template <class F>
bool forChildPairsWithin(const CompoundSide& A, const CompoundSide& B, double margin, F&& f) {
  for (std::size_t i = 0; i < A.count; ++i)
    for (std::size_t j = 0; j < B.count; ++j)
      if (length(A.centre(i) - B.centre(j)) - A.radiusOf(i) - B.radiusOf(j) <= margin && !f(i, j)) return false;
  return true;
}

// The earliest time of impact of a pair with a compound, for the solver's
// continuous collision: timeOfImpact(piece of moving, da, piece of other,
// db) over every pair of pieces (each child of a compound, posed in the
// world into its own copies: no allocation), the smallest; 2 for none, as
// timeOfImpact answers.
double compoundTimeOfImpact(const Shape& moving, const Vec3& da, const Shape& other, const Vec3& db,
                            double (*timeOfImpact)(const Shape&, const Vec3&, const Shape&, const Vec3&));

// True when some shape the scene's query reads is a compound.
bool sceneHasCompound(const Scene& scene);

// Runs a scene whose query reads a compound (see the header comment): the
// child loop on the posed children; a trace runs the answering child's
// scene (runCompoundSceneByChildScenes).
bool runCompoundScene(const Scene& scene, bool trace, std::string* json, SceneError* err);

// The same answers, each child pair run as a scene of its own and the
// results combined from their JSON: what traces use, and the reference the
// tests hold the child loop to (bit for bit).
bool runCompoundSceneByChildScenes(const Scene& scene, bool trace, std::string* json, SceneError* err);

}  // namespace collidoscope
