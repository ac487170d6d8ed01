// collidoscope — contact manifolds for a rigid-body solver: up to four
// points sharing one normal, each with its signed distance and a feature id
// that stays the same from frame to frame while the same features touch, so
// that a solver can warm-start its impulses.
//
// Method (after the face clipping of Box2D v3's manifold.c and Jolt's
// ManifoldBetweenTwoFaces; written from their descriptions):
//  1. The normal n and the deepest pair are the contact of the pair as the
//     object API's contact query answers it (contact.h; the closed forms of
//     closed_form.h and plane.h where that query takes them): the
//     manifold's normal is that contact's bit for bit, and so is a
//     one-point manifold's point.
//  2. Each shape gives its supporting feature along n (A) and along −n
//     (B). A polytopal core (box, polytope, triangle, the segment of a
//     capsule or segment, the point of a sphere or point): the core
//     vertices within sin(faceAngle)·(core diameter) of the supporting
//     plane, as the convex polygon they span seen along n — a vertex, an
//     edge or a face. A face must be planar, supporting (every core vertex
//     below its plane) and within faceAngle of n; an edge within faceAngle
//     of square to n and, on a rounded core, supporting along n's part
//     across it; else the tolerance shrinks (three times, by 16 each) and
//     finally the single support vertex is taken. A cylinder or cone: a cap
//     within faceAngle of n (as its inscribed kManifoldCapVertices-gon) or
//     a side line within faceAngle of square to n; else none.
//  3. Face against face or edge: the face more parallel to n is the
//     reference; the other feature (incident) is clipped against the
//     reference's side planes (Sutherland–Hodgman; a segment
//     parametrically); each clipped point is projected on the reference
//     plane along its normal; points whose signed distance exceeds the
//     margin are dropped. Parallel edges (capsule–capsule, lying
//     cylinders): B's segment clipped to A's extent. A reference face more
//     than faceAngle from n, a vertex feature, edges not parallel, no
//     feature (a sphere, an ellipsoid, a cylinder or cone touching at its
//     rim or tilted, a scaled sphere, capsule, cylinder or cone): the one
//     point of step 1. When step 1's pair is deeper than every clipped
//     point (kDeepestSlack; a vertex of B beyond the edge of A's face), it
//     joins them, so the deepest point is always the contact query's.
//  4. A plane (half-space) against a polytopal core: every core vertex
//     within the margin of the plane, the radius taken along the plane's
//     normal; against a cylinder or cone, the vertices of its flat feature
//     facing the plane; one vertex: step 1's point.
//  5. Reduction to four: the deepest point (among points as deep to
//     kDeepestSlack — a face resting flat — the one farthest from the
//     candidates' centre, so a corner rather than a point on a side), the
//     point farthest from it, the point spanning the largest triangle with
//     those two, the point adding the largest area outside that triangle.
//
// Radii (sphere, capsule radius, margins): a core point p becomes p + r·m
// with m an outward normal of its feature at p (a face's normal; for an
// edge, the part of ±n across it; n or −n at a vertex), so the point is on
// the rounded surface exactly. Against a plane every vertex takes the
// plane's normal, exact for the deepest vertices (a face resting on the
// plane) and inside the rounded surface by at most r·(1 − cos θ) for a
// vertex whose faces are tilted by θ from the plane.
//
// Feature ids name what a point is, by the shape that owns it, so that they
// do not depend on which face is the reference: a vertex of A or of B (an
// incident vertex inside the reference face, a reference corner inside the
// incident face, a plane's vertex), the crossing of an edge of A with an
// edge of B (each edge by its first vertex in its face's counter-clockwise
// order), or the single unclipped point (with the mesh triangle's index).
// Vertex indices are the core's own (the box's corner i = (±x, ±y, ±z) by
// bits 0..2, a polytope's point index, a mesh's vertex index), so they do
// not change while a box slides or rocks on another within faceAngle. The
// kind and the two indices go through a 32-bit finalizer (MurmurHash3's
// fmix32): distinct features may share an id with probability about 2⁻³².
//
// Memory: fixed arrays (kManifoldMaxFeature vertices per feature; a feature
// with more vertices, a fine polygon's face, keeps every k-th of them in
// index order and the support vertex, whose hull is still inside the face
// and spread over it), no heap allocation in manifold(); about 16 KB of
// stack (meshManifold 30 KB). The mesh manifold takes the caller's contact
// buffer.
#pragma once

#include <cstdint>

#include "collidoscope/contact.h"
#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/math.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

struct MeshContact;  // mesh_convex.h

// Faces whose normal is within this angle (radians) of the contact normal
// are clipped: a box rocking by up to 2° on another keeps its four points.
// Larger angles would let a face tilted visibly away from n produce points
// whose depths along n are no longer the solid's.
constexpr double kManifoldFaceAngle = 2.0 * 3.14159265358979323846 / 180.0;

// Most vertices of one supporting feature kept for clipping (a box face has
// 4; a polytope's face more): fixed arrays, see Memory above.
constexpr int kManifoldMaxFeature = 32;

// A cylinder's cap or a cone's base clips as the inscribed regular polygon
// of this many vertices: every point of it is on the flat cap, and 16 cover
// 97% of the disc (a solver needs the spread, not the rim).
constexpr int kManifoldCapVertices = 16;

// Mesh manifolds: triangles whose own contact normal is more than this angle
// (radians) from the manifold's normal are left out (re-measured along the
// shared normal their depths would not be depths).
constexpr double kManifoldMeshNormalAngle = 30.0 * 3.14159265358979323846 / 180.0;

struct ManifoldPoint {
  Vec3 pointA;          // on A (world)
  Vec3 pointB;          // on B (world)
  double distance = 0;  // (pointB − pointA)·normal; negative = overlap
  std::uint32_t id = 0; // feature id (header)
  int triangle = -1;    // convex–mesh: the mesh triangle the point is on, else −1
};

enum class ManifoldStatus {
  Ok,
  InvalidMargin,  // margin NaN, infinite or negative: nothing computed
  InvalidAngle,   // settings.faceAngle not in (0, π/4]: nothing computed
  Unbounded,      // two planes whose normals are not opposite (plane.h)
  Unsupported,    // a compound (compoundManifolds takes it), or two meshes: no manifold (count 0)
};

struct Manifold {
  Vec3 normal;              // unit, from A to B (as contact()'s), shared by every point
  int count = 0;            // 0..4; 0: no contact within the margin
  ManifoldPoint points[4];  // in the order the reduction chose them: the deepest first
  int iterations = 0;       // of the contact query of step 1
  EpaStatus status = EpaStatus::Converged;  // that query's status
};

struct ManifoldSettings {
  GjkSettings gjk;
  EpaSettings epa;
  double faceAngle = kManifoldFaceAngle;  // radians, in (0, π/4]
};

// The manifold of two convex shapes (posed through Shape::pose; planes
// included) within `margin` (finite, ≥ 0: else InvalidMargin, *out
// cleared). Mesh or compound shapes: Unsupported (meshManifold takes a mesh,
// compoundManifolds a compound). The shapes' own parameters are
// the caller's to check (validateShape), as for contact().
ManifoldStatus manifold(const Shape& a, const Shape& b, double margin, Manifold* out,
                        const ManifoldSettings& settings = {});

// The manifold of a mesh and a convex shape (either order; manifold_mesh.cpp):
// the per-triangle contacts of meshPairContacts (mesh_pair.h) written into
// the caller's `scratch` (capacity entries, ≤ kMaxMeshContacts is plenty),
// the normal of the deepest of them (ties: the first in tree order), and
// every triangle whose own normal is within kManifoldMeshNormalAngle of it
// clipped against the shape as a convex pair with that normal; the points
// of all of them reduced to four. `truncated` (may be null) says the
// scratch was too small for every contact.
ManifoldStatus meshManifold(const Shape& a, const Shape& b, double margin, MeshContact* scratch, int capacity,
                            Manifold* out, bool* truncated = nullptr, const ManifoldSettings& settings = {});

// The manifolds of a pair where a or b (or both) is a compound
// (manifold_compound.cpp): one per pair of pieces — each child against the
// other shape, every child pair for two compounds — whose bounding spheres
// come within `margin` (compound.h's prefilter), A-major. Each is the
// manifold of the two pieces (meshManifold against a mesh, with the
// caller's `scratch`), at most four points, with each point's feature id
// renamed by the two pieces' indices, so that warm starting follows a
// child pair's features from step to step. At most `maxOut` manifolds go to
// `out` (*count of them); beyond, a manifold replaces the kept one whose
// deepest point is the shallowest when it goes deeper, and `truncated`
// (may be null) is set, as it is when a mesh pair's scratch was too small.
// Neither shape a compound: Unsupported. The children's poses are written
// into the compound's own copies (CompoundShape::posed), so nothing is
// allocated.
ManifoldStatus compoundManifolds(const Shape& a, const Shape& b, double margin, MeshContact* scratch, int capacity,
                                 Manifold* out, int maxOut, int* count, bool* truncated = nullptr,
                                 const ManifoldSettings& settings = {});

}  // namespace collidoscope
