// collidoscope — a triangle mesh against a convex shape: intersection,
// distance with closest points, contacts within a margin, and the time of
// impact of a convex shape moving by a translation towards a static mesh.
// Every query descends the mesh's OBB tree (obbtree.h) and runs the convex
// queries of the library on the triangles it cannot cull.
//
// Reference: S. Gottschalk, M. C. Lin, D. Manocha, "OBBTree: a hierarchical
// structure for rapid interference detection", SIGGRAPH 1996, as derived in
// J. Rasku, "Törmäysten havaitseminen tietokoneanimaatiossa", master's
// thesis, University of Tampere, 2003, §6.2–§6.4: the convex shape is
// bounded once by an OBB (and the sphere around it), the tree is descended
// recursively while the volumes overlap (the sphere test layered before the
// 15-axis box test), and the leaves run an exact primitive test.
//
// Where this departs from the paper:
// - The paper tests two trees; here one side is a single convex shape, so
//   its "tree" is one box: the descent is into the mesh node every time.
//   The box is built from six support calls along the shape's own local
//   axes (the extremes of the shape, core plus radius, along each axis), so
//   it contains the shape exactly (to rounding) for every convex type.
// - Leaves run GJK (gjk.h) on the triangle and the shape instead of a
//   triangle–triangle test, so every convex type — curved ones, margins —
//   is answered by the same code a pair of convex shapes uses.
// - Distance is branch and bound (not in the paper): each node's lower
//   bound is the largest gap between its box and the shape's box along the
//   six face axes and the nine edge axes of the two boxes, and the gap of
//   their bounding spheres;
//   the nearer child is visited first and nodes whose bound exceeds the
//   best distance found so far are pruned.
// - The shape cast culls a node when the shape's box, swept along the
//   motion, misses the node's box: the offset between the boxes' centres
//   moves on a segment, which must cross the Minkowski sum of the two
//   boxes; the separating-axis test of that segment on the twelve axes
//   a_i, b_j (slabs: each gives an interval of times) and m × a_i, m × b_j
//   (perpendicular to the motion: static) culls it or bounds its entry
//   time t_enter from below. Of two children the one entered first is
//   visited first, and nodes are pruned when t_enter exceeds the earliest
//   hit found so far.
//
// Conservative culling. Every box test is given the slack
// kMeshConvexSlack·S (S the largest coordinate of the mesh and of the
// shape's box), never below 1e-150 (scenes of near-denormal coordinates are
// rounded by whole denormal ulps): box centres and support points are
// rounded to a few ulps of S, a culling test may call apart volumes
// overlapping (a deeper descent) but never the reverse. With it, intersect
// equals the loop over every triangle with the same leaf test, and distance
// and time of impact are the brute-force minimum to the leaf queries'
// tolerance (the tests check both on thousands of pairs).
//
// What counts as touching. The mesh is a SURFACE, not a solid (as for ray
// casts, DESIGN.md: a ray starting inside a closed mesh is not a t = 0
// hit): a convex shape entirely inside a closed mesh touches no triangle,
// so intersect is false, distance is its gap to the nearest triangle, and
// contacts are empty. Touching (distance 0 within rounding) counts as
// intersecting, as it does for every pair of convex shapes (gjkIntersect).
// A degenerate triangle (collinear or repeated corners, mesh.h) is the
// segment or point it spans, as trianglesIntersect treats it; ray casts
// skip it because it has no normal, but a shape can still touch it.
//
// Frames. The mesh is given in its own frame with `meshPose` placing it in
// the world (x_world = R x + p, as rayCastMesh); the shape carries its own
// pose (Shape::pose) and margin. The queries run in the mesh's frame (the
// tree's boxes are there), with the shape's pose composed into it, and
// return world coordinates.
//
// Planes. A plane shape (a half-space, plane.h) has no support mapping;
// against a mesh every query has a closed form over the mesh's vertices (a
// surface meets a half-space iff one of its vertices does, since a linear
// function is smallest over a triangle at a corner). The mesh queries
// dispatch to it when the shape is a plane. It costs O(triangles): no tree
// is needed, and a floor under a mesh is rarely queried against more than a
// few thousand triangles.
//
// Memory and bounds: fixed stacks of kObbTreeMaxDepth + 1 entries (a
// descent keeps at most one pending sibling per level), no allocation;
// contacts go into a caller's buffer with a capacity; node visits are
// capped by the node count (status MaxIterations for a corrupt tree), each
// leaf query by its own iteration cap (GjkSettings, EpaSettings,
// RayCastSettings).
#pragma once

#include "collidoscope/contact.h"
#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/math.h"
#include "collidoscope/mesh.h"
#include "collidoscope/obb.h"
#include "collidoscope/obbtree.h"
#include "collidoscope/raycast.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

// Slack of the culling tests, relative to the query's scale S: box centres,
// extents and support points carry ~10 ulps (2e-15) of S of rounding, and
// GJK calls pairs touching up to 64u·S ≈ 7e-15·S; 1e-12·S covers both a
// hundredfold and widens the boxes by nothing a game would notice.
constexpr double kMeshConvexSlack = 1e-12;

// Slack of the shape cast's pruning, as a length relative to S: a node is
// pruned when the shape's box enters it more than kMeshCastPruneSlack·S of
// travel after the earliest hit so far. A triangle cast's hit point is
// within 1e-10·S of the surface (raycast.h's tolerance), so its t is off by
// at most that travel; ten times more keeps every node that could hold an
// earlier hit.
constexpr double kMeshCastPruneSlack = 1e-9;

// Branch and bound prunes a node when its lower bound exceeds the best
// distance by more than this many times the leaf GJK's relative tolerance
// (plus the slack): a leaf distance is an upper bound off by at most
// ε_rel·distance (gjk.h), so a factor ten keeps every node that could hold
// a nearer triangle.
constexpr double kMeshDistancePruneFactor = 10;

enum class MeshQueryStatus {
  Converged,       // every leaf query converged: the answer is final
  InvalidInput,    // a tree not built from this mesh, a non-finite pose, margin or motion, a negative
                   // margin or mesh margin: no answer (the fields keep their defaults). The shape's own parameters
                   // are the caller's to check (validateShape; the scene parser and the API do)
  MaxIterations,   // node visits exceeded the node count (a corrupt tree): the best answer so far
  LeafInexact,     // a leaf query stopped at its iteration cap or on a rounding stall: the answer
                   // uses that query's best estimate
};
const char* meshQueryStatusName(MeshQueryStatus s);

// The work done, for every query: box tests (sphere and OBB tests of the
// descent, each counted once even when the sphere test decides alone) and
// leaf tests (one convex query per triangle reached).
struct MeshQueryCounts {
  int boxTests = 0;
  int triangleTests = 0;
};

struct MeshIntersectResult : MeshQueryCounts {
  bool intersecting = false;  // some triangle touches or overlaps the shape
  int triangle = -1;          // the first such triangle found (tree order), else −1
  MeshQueryStatus status = MeshQueryStatus::Converged;
};

struct MeshDistanceResult : MeshQueryCounts {
  double distance = 0;        // from the shape to the nearest triangle; 0 when they touch
  bool intersecting = false;  // distance 0: some triangle touches the shape
  int triangle = -1;          // the nearest triangle: apart, the smallest index among equally near;
                              // touching, the first touching triangle found (the descent stops there)
  Vec3 pointA;                // on the mesh (world)
  Vec3 pointB;                // on the shape (world); |pointA − pointB| = distance
  MeshQueryStatus status = MeshQueryStatus::Converged;
};

// One triangle's contact (triangle.h's triangleContact, the triangle as A
// and the shape as B), in world coordinates. The scene format's contacts
// entry: "triangle", "depth", "normal", "pointA", "pointB".
struct MeshContact {
  int triangle = -1;
  double depth = 0;   // −(signed distance): > 0 overlap, 0 touching, < 0 a gap within the margin
  Vec3 normal;        // unit, from the triangle to the shape: moving the shape by depth·normal separates
                      // it from this triangle
  Vec3 pointA;        // on the triangle
  Vec3 pointB;        // on the shape; pointB − pointA = −depth·normal
  bool face = false;  // the face rule answered (normal = ±the triangle's normal)
};

struct MeshContactsResult : MeshQueryCounts {
  int count = 0;           // contacts written to the buffer (≤ capacity)
  int found = 0;           // contacts found (count when not truncated)
  bool truncated = false;  // found > capacity: the buffer holds the first `capacity` in tree order
  MeshQueryStatus status = MeshQueryStatus::Converged;
};

struct MeshShapeCastResult : MeshQueryCounts {
  bool hit = false;
  double t = 0;                       // earliest time of impact in [0, 1] (fraction of the motion)
  int triangle = -1;                  // the triangle hit first (smallest index on a tie)
  Vec3 normal;                        // unit, from the triangle to the shape at contact; zero when
                                      // initiallyOverlapping
  Vec3 pointA;                        // on the triangle (world)
  Vec3 pointB;                        // on the shape at time t (world)
  bool initiallyOverlapping = false;  // the shape touches the mesh at t = 0
  MeshQueryStatus status = MeshQueryStatus::Converged;
};

struct MeshConvexSettings {
  GjkSettings gjk;
  EpaSettings epa;
  RayCastSettings cast;
  // The mesh's own margin (the scene format's "margin" on a mesh shape):
  // the surface thickened by a ball of this radius (finite, ≥ 0). The
  // queries run it as extra radius on the shape's side (the same Minkowski
  // sum) and move the points back onto the thickened mesh and the shape.
  double meshMargin = 0;
};

// Does any triangle of m (placed by meshPose; tree = buildObbTree(m)) touch
// or overlap `shape` (any type, margin included; a plane is answered in
// closed form)? Stops at the first triangle found.
MeshIntersectResult meshConvexIntersect(const TriangleMesh& m, const ObbTree& tree, const Transform& meshPose,
                                        const Shape& shape, const MeshConvexSettings& settings = {});

// Distance from the shape to the mesh's surface with closest points and
// the nearest triangle (branch and bound on the tree; see the header).
MeshDistanceResult meshConvexDistance(const TriangleMesh& m, const ObbTree& tree, const Transform& meshPose,
                                      const Shape& shape, const MeshConvexSettings& settings = {});

// Every triangle within `margin` (finite, ≥ 0) of the shape, or overlapping
// it, with its contact, written to out[0 .. capacity).
//
// How a game uses them: a capsule (a character) has sunk into a floor made
// of triangles. Each contact says how far the capsule must move, along its
// normal, to leave that one triangle. The triangle under the capsule's
// lowest point answers by the face rule of triangleContact: the floor's up,
// at the sinking depth, the deepest of all; triangles around it are met at
// their edges and may answer with a shallower sideways push (each triangle
// alone could be left sideways). Moving the capsule by the deepest
// contact's depth·normal lifts it out of the whole floor. In a corner of
// two walls: resolve the deepest, query again from the new position, and
// repeat a few times.
MeshContactsResult meshConvexContacts(const TriangleMesh& m, const ObbTree& tree, const Transform& meshPose,
                                      const Shape& shape, double margin, MeshContact* out, int capacity,
                                      const MeshConvexSettings& settings = {});

// The shape moves by `motion` (world) over t ∈ [0, 1]; the mesh stays. The
// earliest time the shape touches a triangle, with the triangle, the
// normal and the contact points at that time (gjkShapeCast per triangle,
// the triangle as A). A shape touching the mesh at t = 0 hits at t = 0
// with initiallyOverlapping set.
MeshShapeCastResult meshConvexShapeCast(const TriangleMesh& m, const ObbTree& tree, const Transform& meshPose,
                                        const Shape& shape, const Vec3& motion,
                                        const MeshConvexSettings& settings = {});

// The leaf test of meshConvexIntersect for triangle t alone: the same
// gjkIntersect call on the same operands (the triangle in the mesh's frame,
// the shape posed there, the mesh's margin on the shape's side), so that a
// caller stepping through the candidate triangles one by one (the page's
// obbtree view) gets the query's answer for each, bit for bit. t must be a
// triangle of m; inputs are the caller's to check (meshConvexIntersect's).
IntersectResult meshConvexTriangleIntersect(const TriangleMesh& m, const Transform& meshPose, const Shape& shape,
                                            int t, const MeshConvexSettings& settings = {});

// The distance from triangle t alone to the shape, with the closest points
// in world coordinates: gjkDistance on the same operands (the distance
// query's leaf test without its early stop, its points placed as the query
// places them). intersect's test decides without it; the view measures the
// triangles it calls apart.
MeshDistanceResult meshConvexTriangleDistance(const TriangleMesh& m, const Transform& meshPose, const Shape& shape,
                                              int t, const MeshConvexSettings& settings = {});

// The plane closed forms (the mesh queries call them for a plane shape,
// with settings.meshMargin; O(triangles), the tree is not used). With
// h(v) = n·v − d the height of a vertex over the plane's surface (n unit,
// the plane's pose and margin applied, plane.h) and r the mesh's margin,
// the lowest point of the thickened mesh near v is v − r·n:
//   intersect  min h − r ≤ 0 over the triangles' vertices; `triangle` the
//              first triangle with such a vertex;
//   distance   max(min h − r, 0); v the lowest vertex (the first triangle
//              holding it, its first such corner); apart: pointA = v − r·n,
//              pointB = v − h·n on the surface; else both a common point
//              (v, or its foot on the surface when h > 0);
//   contacts   one per triangle whose lowest vertex has h − r ≤ margin, at
//              that vertex (its first lowest corner): depth r − h, normal −n
//              (from the triangle to the plane: moving the plane down by
//              depth clears it), pointA = v − r·n, pointB = v − h·n;
//   shapecast  the plane moves by `motion`: its surface rises by n·motion,
//              so with g = min h − r the hit is at t = 0 when g ≤ 0, else at
//              t = g/(n·motion) when n·motion > 0 and that is ≤ 1; normal
//              −n, pointA = pointB = v − r·n, the point the surface reaches.
// triangleTests counts the triangles visited; boxTests stays 0.
MeshIntersectResult planeMeshIntersect(const TriangleMesh& m, const Transform& meshPose, const Shape& plane,
                                       double meshMargin = 0);
MeshDistanceResult planeMeshDistance(const TriangleMesh& m, const Transform& meshPose, const Shape& plane,
                                     double meshMargin = 0);
MeshContactsResult planeMeshContacts(const TriangleMesh& m, const Transform& meshPose, const Shape& plane,
                                     double margin, MeshContact* out, int capacity, double meshMargin = 0);
MeshShapeCastResult planeMeshShapeCast(const TriangleMesh& m, const Transform& meshPose, const Shape& plane,
                                       const Vec3& motion, double meshMargin = 0);

// The shape's bounding box in a frame whose pose is `frame` (the mesh's):
// from six support calls along the shape's local axes, core plus radius,
// so it contains the shape. Exposed for the tests and the page.
Obb convexBoundInFrame(const Shape& shape, const Transform& frame);

}  // namespace collidoscope
