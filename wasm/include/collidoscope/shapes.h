// collidoscope — the shapes of the scene format and their support mappings.
//
// A support mapping s_C(d) returns a point of C that is extreme in direction
// d: d·s_C(d) = max over x in C of d·x. GJK needs nothing else from a shape.
//
// Every shape is stored as a *core* plus a *radius*: the shape is the
// Minkowski sum core ⊕ sphere(radius). A sphere is a point core, a capsule a
// segment core, and the optional "margin" of the scene format adds to the
// radius of any shape. The queries run GJK on the cores — polytopal cores
// make GJK terminate exactly — and add the radii afterwards, so a sphere's
// distance is exact instead of the slow asymptotic convergence GJK shows on
// round surfaces (van den Bergen, "Collision Detection in Interactive 3D
// Environments", 2004, §4.3.4 uses the same split).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "collidoscope/math.h"

namespace collidoscope {

enum class ShapeType {
  Point,
  Sphere,
  Box,
  Capsule,
  Cylinder,
  Cone,
  Ellipsoid,
  Segment,
  Triangle,
  Polytope,
  Plane,  // a half-space, unbounded: no support mapping (plane.h)
  Mesh,   // a triangle mesh, non-convex (mesh_shape.h): its own queries, no support mapping
  Compound,  // convex children with their own poses (compound.h): answered child by child
};

// Scene-format name of a type ("point", "sphere", ...).
const char* shapeTypeName(ShapeType t);
// Parses a scene-format type name; returns false when the name is unknown.
bool parseShapeType(const std::string& name, ShapeType* out);

// Largest number of points a polytope may have (scene input and API): large
// enough for hulls of dense render meshes, small enough that a hostile scene
// cannot exhaust the 32-bit wasm heap (1e6 points = 24 MB).
constexpr std::size_t kMaxPolytopePoints = 1000000;

// Largest magnitude accepted for any coordinate or size. Support points are
// multiplied three at a time in GJK's signed volumes; (1e15)^3 = 1e45 stays
// far from overflow, and no game or CAD scene needs more.
constexpr double kMaxMagnitude = 1e15;

class PolytopeSupport;  // polytope_support.h
class MeshShape;        // mesh_shape.h
struct CompoundShape;   // compound.h

// A polytope with at least this many points gets a precomputed support
// structure (its hull plus a hill-climbing / Dobkin–Kirkpatrick walk, see
// polytope_support.h) from Shape::polytope() or preparePolytopeSupport():
// below it scanning the points is faster (bench/results.md: the walk beats
// the scan from ~96 hull vertices). The scene parser does not prepare one:
// a scene is parsed for one query, and a hull build costs more than the
// support calls of one GJK/EPA query save (bench/results.md, break-even).
constexpr std::size_t kPolytopeSupportMinPoints = 96;

struct Shape {
  ShapeType type = ShapeType::Point;
  double radius = 0;          // sphere, capsule, cylinder, cone
  double halfHeight = 0;      // capsule, cylinder, cone (along local y)
  Vec3 halfExtents;           // box
  Vec3 radii;                 // ellipsoid
  std::vector<Vec3> points;   // segment (2), triangle (3), polytope (>= 1)
  Vec3 normal{0, 1, 0};       // plane: {x : normal·x ≤ offset} in the shape's frame
  double offset = 0;          // (normal need not be unit)
  double margin = 0;          // extra radius on any shape
  // Non-uniform scale S = diag(scale), applied in the local frame before the
  // pose: the solid is {R·S·x + p : x in the shape}. Every query honours it
  // (the support of S·K is S·s_K(S·d); direct readers of the sizes fall
  // back to the general path when it is not [1, 1, 1]). No component is
  // zero (validateShape). The margin is added after scaling, so it stays a
  // sphere radius.
  Vec3 scale{1, 1, 1};
  // The shape as the scene gave it, when bakeScale() rewrote its sizes;
  // writers emit this one's type, sizes and scale (with the live pose), so
  // a scene written back reads as the user wrote it. Null otherwise; reset
  // it when changing the sizes of a baked shape, or the writers emit the
  // old ones.
  std::shared_ptr<const Shape> written;
  Transform pose;             // local -> world
  // Polytope only: precomputed support over the hull of `points`, shared by
  // copies. Set by Shape::polytope() (for kPolytopeSupportMinPoints points
  // or more) or preparePolytopeSupport();
  // null means the support scans `points`. Call preparePolytopeSupport()
  // again after changing `points` (a changed point count is detected and
  // falls back to the scan; edits in place are not).
  std::shared_ptr<const PolytopeSupport> polytopeSupport;
  // Mesh only: the triangles, their OBB tree and validation report in the
  // shape's frame, immutable and shared by copies (made by makeMeshShape).
  std::shared_ptr<const MeshShape> meshData;
  // Compound only: the children and their bounding radii, immutable and
  // shared by copies (made by makeCompoundShape).
  std::shared_ptr<const CompoundShape> compoundData;

  static Shape point() { return Shape{}; }
  static Shape sphere(double r) { Shape s; s.type = ShapeType::Sphere; s.radius = r; return s; }
  static Shape box(const Vec3& h) { Shape s; s.type = ShapeType::Box; s.halfExtents = h; return s; }
  static Shape capsule(double r, double hh) {
    Shape s; s.type = ShapeType::Capsule; s.radius = r; s.halfHeight = hh; return s;
  }
  static Shape cylinder(double r, double hh) {
    Shape s; s.type = ShapeType::Cylinder; s.radius = r; s.halfHeight = hh; return s;
  }
  static Shape cone(double r, double hh) {
    Shape s; s.type = ShapeType::Cone; s.radius = r; s.halfHeight = hh; return s;
  }
  static Shape ellipsoid(const Vec3& r) { Shape s; s.type = ShapeType::Ellipsoid; s.radii = r; return s; }
  static Shape segment(const Vec3& a, const Vec3& b) {
    Shape s; s.type = ShapeType::Segment; s.points = {a, b}; return s;
  }
  static Shape triangle(const Vec3& a, const Vec3& b, const Vec3& c) {
    Shape s; s.type = ShapeType::Triangle; s.points = {a, b, c}; return s;
  }
  static Shape polytope(std::vector<Vec3> pts);
  static Shape plane(const Vec3& n, double d) {
    Shape s; s.type = ShapeType::Plane; s.normal = n; s.offset = d; return s;
  }

  Shape& at(const Vec3& position, const Quat& rotation = Quat{}) {
    pose.position = position;
    pose.rotation = rotation;
    return *this;
  }
  Shape& withMargin(double m) { margin = m; return *this; }
  Shape& withScale(const Vec3& s) { scale = s; return *this; }
};

// True when scale is [1, 1, 1] (bit for bit): the shape's sizes are its
// extents, and the closed forms and size formulas apply.
inline bool isUnscaled(const Shape& s) { return s.scale.x == 1 && s.scale.y == 1 && s.scale.z == 1; }

// Rewrites a scaled shape into the same solid without a scale where that is
// exact: a box's half extents, an ellipsoid's radii and a point set's
// points are multiplied by the scale (a mirrored point set stays a set whose
// hull is the mirrored solid); a sphere becomes a sphere (uniform |scale|)
// or an ellipsoid; a capsule scaled uniformly, a cylinder with |sx| = |sz|
// and a cone with |sx| = |sz|, sy > 0 stay what they are; a plane's normal n
// becomes S⁻¹n. Other scaled shapes keep their scale (the support mapping
// handles it). s->written keeps the shape as given. Call after
// validateShape; a shape with scale [1, 1, 1] is left untouched.
void bakeScale(Shape* s);

// A problem with a shape's parameters: the field (relative to the shape, e.g.
// "radius" or "points[3][1]") and a sentence saying what is wrong.
struct ShapeError {
  std::string field;
  std::string message;
  // A build refused for want of memory (heap_room.h): its code is then
  // kOutOfMemoryCode; otherwise the caller gives its own.
  bool outOfMemory = false;
};

// Checks the parameters of s: finite, non-negative sizes, the point counts
// the type needs, magnitudes within kMaxMagnitude, a unit rotation. Returns
// false and fills *err on the first problem found.
bool validateShape(const Shape& s, ShapeError* err);

// (Re)builds s->polytopeSupport from s->points when s is a polytope with at
// least kPolytopeSupportMinPoints finite points; clears it otherwise. Costs
// one hull construction (O(n log n)); queries then cost O(log n)–O(√n)
// instead of O(n).
void preparePolytopeSupport(Shape* s);

// Radius added to the core: sphere and capsule radius plus the margin.
double coreRadius(const Shape& s);

// True when the core is a polytope (finitely many support points), so GJK
// on it terminates exactly: point, sphere, box, capsule, segment, triangle,
// polytope. Cylinder, cone and ellipsoid cores are curved; a plane has no
// support mapping at all (plane.h answers its queries).
bool hasPolytopalCore(const Shape& s);

// Support point of the core in local coordinates (not for a plane, whose
// support is unbounded: callers branch to plane.h first; it returns the
// origin; a mesh returns its vertices' support, that of its hull, which
// no query uses: mesh_shape.h). d need not be unit and may
// be zero (then any point of the core is returned). Ties are broken
// deterministically (first point, + side of a box; a polytope with a
// precomputed support returns the maximizer its walk reaches first), so
// traces are reproducible.
Vec3 localCoreSupport(const Shape& s, const Vec3& d);

// Vertices of a polytopal core in local coordinates (8 for a box, 2 for a
// capsule's segment, 1 for a sphere's centre; the input points for
// segment, triangle and polytope; a mesh's vertices). Empty for curved cores.
std::vector<Vec3> localCoreVertices(const Shape& s);

// Radius of a ball about the local origin that contains the whole shape
// (core plus radius). Used for scale-relative tolerances.
double localBoundingRadius(const Shape& s);

}  // namespace collidoscope
