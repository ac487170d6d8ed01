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
// Prefilter. Each child has a bounding sphere (its pose's position, its
// localBoundingRadius); a child whose sphere cannot meet the other shape's
// sphere (intersect, contacts), lies farther than the best distance so far
// (distance, project), or that the ray's segment misses (raycast) is not
// queried.
//
// Children are convex: no mesh, heightfield, plane or compound inside. A
// compound takes no margin and no scale (give them to its children).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

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
};

// Makes *out a compound of `children` (validated shapes with poses relative
// to the compound). Fails naming "children" (none, more than
// kMaxCompoundChildren) or "children[i].type" (not convex).
bool makeCompoundShape(std::vector<Shape> children, Shape* out, ShapeError* err);

// Child i placed in the world: the compound's pose after the child's.
Shape compoundChildInWorld(const Shape& compound, std::size_t i);

// True when some shape the scene's query reads is a compound.
bool sceneHasCompound(const Scene& scene);

// Runs a scene whose query reads a compound (see the header comment).
bool runCompoundScene(const Scene& scene, bool trace, std::string* json, SceneError* err);

}  // namespace collidoscope
