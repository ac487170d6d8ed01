// collidoscope — ray casts on triangle meshes: one watertight ray–triangle
// test, and the closest / any hit over a mesh through its OBB tree.
//
// The ray–triangle test: S. Woop, C. Benthin, I. Wald, "Watertight
// Ray/Triangle Intersection", Journal of Computer Graphics Techniques 2(1),
// 2013. The ray is o + t·d. Let k_z be the axis of the largest |d_k|, and
// k_x, k_y the next two cyclically (swapped when d_kz < 0, so the winding
// is kept). The shear S maps d to the k_z axis:
//     x' = x_kx − (d_kx/d_kz)·x_kz,   y' = x_ky − (d_ky/d_kz)·x_kz,   z' = x_kz/d_kz,
// applied to every vertex relative to o. In that space the ray is the
// positive z' axis through the 2D origin, and the triangle (A, B, C) holds
// the ray's point exactly when the 2D edge functions
//     U = C'x·B'y − C'y·B'x,   V = A'x·C'y − A'y·C'x,   W = B'x·A'y − B'y·A'x
// (twice the signed areas of (O, B, C), (O, C, A), (O, A, B)) share a sign.
// Then U + V + W is twice the signed area of the projected triangle,
// (u, v, w) = (U, V, W)/(U + V + W) are the barycentric coordinates of the
// hit (u on A, v on B, w on C), and t = (U·A'z + V·B'z + W·C'z)/(U + V + W).
//
// Where this departs from the paper. The paper evaluates the edge functions
// in single precision and redoes them in double when one is zero. Here the
// sheared vertices are doubles and each edge function's SIGN is exact
// (orient2d of predicates.h, Shewchuk's adaptive filter): the value is
// computed in doubles, and where the filter cannot certify its sign the
// exact sign decides (the value is then set to zero if rounding gave it the
// other sign; it is below the filter's bound, ~3e-16 of its terms, anyway).
// Rays are two-sided: a hit needs U, V, W all ≥ 0 or all ≤ 0, not all zero.
//
// Shared edges and vertices. A sheared vertex depends only on the vertex
// and the ray, never on the triangle using it, and an edge function is an
// antisymmetric function of its edge's two sheared endpoints: the two
// triangles on an edge compute exactly opposite values for it (the same two
// products, subtracted in the other order), and exactly opposite signs. So
// the 2D origin is classified against each edge once, consistently, and
// the classification is exact for the sheared vertices: a ray that passes
// through the interior of a (consistently oriented) edge between two
// triangles hits both (its edge function is zero for both, the others agree
// in sign), and a ray through a shared vertex hits every triangle of the
// fan around it whose projection contains the origin. Whatever the ray, no
// gap opens between adjacent triangles: a ray that crosses a closed mesh's
// surface always hits a triangle (the watertightness of the paper, here
// without its single-precision retries; at denormal scale see below).
// Vertices duplicated at the same coordinates (unwelded meshes) behave
// exactly like shared ones. The closest hit then breaks ties on t by the
// smaller triangle index.
//
// Denormal scale. The shear and the products above stay in the doubles'
// range, and the answer is the one the paper's arithmetic gives, when every
// non-zero direction component lies in [2^-300, 2^300] and every non-zero
// corner coordinate relative to the origin is at least 2^-300 (mesh
// coordinates are at most kMaxMagnitude). Outside that (a direction or a
// triangle near 4.9e-324) the shear's quotients and products underflow:
// d_x/d_z = −1e-329 rounded to −0 moved a sheared edge onto a ray that
// passes 0.5 from it, and the triangle was hit at t = −0. Such a ray, or
// such a triangle, takes the scaled path instead: the corners and the
// direction, per axis, multiplied by the power of two that puts the
// corners' largest magnitude on that axis in [1, 2) where it is below 1
// (no axis is scaled down: its small coordinates would round), and the
// direction by one more that puts its largest component there. Per-axis
// scaling of both changes neither incidence nor the barycentric
// coordinates, and scales t by that last power of two, taken back (a t
// beyond the largest double is a miss). The shear is then taken for the
// scaled direction (its own k_z) and the test runs as above, with t's
// numerator taken at det's scale. What still rounds there (a shear
// quotient or product in the denormals) moves a sheared corner by at most
// 2^-1075, as much as the smallest double. The check costs the mesh query
// nothing: a corner relative to the origin can be that small only when a
// corner's or the origin's coordinate is non-zero below kRayTinyCoordinate
// (obbtree_rays.h), which the layout and the ray record once; otherwise
// the corners are not looked at. Watertightness there: the scaled path
// scales each triangle by its own corners, so two triangles on an edge can
// shear it differently, and a ray passing within rounding of that edge of
// such a mesh may miss both (or hit both) — only for triangles or
// directions at that scale.
//
// Misses by definition: a ray lying in the triangle's plane (U = V = W = 0
// exactly, or U + V + W rounding to zero: then the triangle is seen edge on
// and its neighbours, not it, are crossed), degenerate triangles (mesh.h:
// no normal), t < 0 or t > maxT. An origin on the surface is a hit at t = 0
// only when rounding puts t at ≥ 0; a ray starting inside a closed mesh hits
// the surface ahead of it, not at t = 0 (DESIGN.md).
//
// The mesh query descends the tree's ray layout (obbtree_rays.h: float
// axis-aligned boxes in the mesh's frame, both children of a node side by
// side, leaves of up to kRayLeafTriangles triangles) nearest box first,
// pruning boxes the ray misses or enters after the best hit so far (any
// hit: after maxT). The ray–box test is the slab test in double on the
// float bounds with the ray's inverse direction computed once per ray,
// made conservative: every box is padded by kMeshRayBoxPad·(|o|∞ + the
// mesh's largest coordinate) — a thousand times the rounding of the slab
// arithmetic and of the shear — and a box is pruned only when it is
// entered after best·(1 + kMeshRayPruneSlack), so the rounding of a
// triangle's t (a few ulps, more for grazing rays) cannot prune the box
// holding the true closest triangle. A zero direction component is an
// infinite inverse, and so is one below 2^-1024 (its inverse overflows):
// the slab is then grown by the ray's travel along that axis up to maxT
// (under 1, as no hit lies beyond the largest double), and that axis's
// padded origin is moved off the float grid (outward), so no bound equals
// it and no 0·∞ = NaN arises. The
// descent selects rather than branches where a branch predictor could not
// guess (which child is nearer, which axis is entered last, the signs of a
// triangle's edge functions): WebAssembly engines turn a choice between
// doubles into a branch, so those choices are made on the doubles' bits.
// A leaf's corners are read as floats when the layout keeps them so
// (obbtree_rays.h), widened to the same doubles. With that, the closest hit
// equals the brute-force minimum over all triangles of (t, index); the
// tests check it on thousands of rays, axis-parallel ones and rays in the
// boxes' face planes among them. The any hit is the first found in that
// order.
//
// Memory and bounds: a fixed stack of kObbTreeMaxDepth + 1 entries, no
// allocation; every loop is bounded by the layout's node count (status
// MaxIterations if a corrupt tree ever exceeded it).
#pragma once

#include "collidoscope/math.h"
#include "collidoscope/mesh.h"
#include "collidoscope/obbtree.h"

namespace collidoscope {

// Box padding relative to the ray origin's and the mesh's largest
// coordinate: the rounding of a slab test is ~10 ulps (1e-15) of those;
// 1e-12 covers it a thousandfold and prunes nothing a game would notice.
constexpr double kMeshRayBoxPad = 1e-12;
// Relative slack on t when pruning boxes by the best hit (see above): a
// triangle's t is exact to a few ulps divided by the sine of the ray's
// angle to its plane; 1e-9 covers angles down to ~1e-6 rad.
constexpr double kMeshRayPruneSlack = 1e-9;

// A ray prepared for the watertight test (the shear above).
struct ShearedRay {
  Vec3 origin;
  Vec3 direction;  // as given (the scaled path reads it)
  int kx = 0, ky = 1, kz = 2;
  double sx = 0, sy = 0, sz = 1;
  // A non-zero direction component outside [2^-300, 2^300]: every triangle
  // takes the scaled path ("Denormal scale" above).
  bool scaled = false;
  // A non-zero origin coordinate below kRayTinyCoordinate: a corner relative
  // to it may be non-zero below 2^-300, so the mesh query checks every
  // triangle's corners as rayTriangle does.
  bool tinyOrigin = false;
  static ShearedRay make(const Vec3& origin, const Vec3& direction);  // direction non-zero
};

struct RayTriangleHit {
  double t = 0;
  Vec3 barycentric;  // (u, v, w): weights of a, b, c; sum 1 (to rounding); all ≥ 0
};

// The watertight test on triangle (a, b, c): true with *hit filled when the
// ray meets it at 0 ≤ t ≤ maxT (two-sided). Degenerate triangles are not
// skipped here (the mesh query skips them by their zero normal).
bool rayTriangle(const ShearedRay& ray, const Vec3& a, const Vec3& b, const Vec3& c, double maxT,
                 RayTriangleHit* hit);

enum class MeshRayStatus {
  Converged,      // the answer is final (hit or miss)
  InvalidInput,   // non-finite or zero direction, non-finite origin, maxT NaN or < 0, or a
                  // tree not built from this mesh (sizes differ, no ray layout): no hit
  MaxIterations,  // node visits exceeded the node count (a corrupt tree): the best so far
};
const char* meshRayStatusName(MeshRayStatus s);

struct MeshRayHit {
  bool hit = false;
  double t = 0;          // in units of direction, 0 ≤ t ≤ maxT
  int triangle = -1;     // index into the mesh's triangles
  Vec3 barycentric;      // (u, v, w): point = u·v_i + v·v_j + w·v_k, triangle [i, j, k]
  Vec3 point;            // from the barycentric coordinates (on the triangle), in the query's frame
  Vec3 normal;           // the triangle's unit CCW normal (also on a back-face hit), query frame
  MeshRayStatus status = MeshRayStatus::Converged;
  int boxTests = 0;      // ray–box tests run (on the ray layout's boxes: two per inner node visited, and the root's)
  int triangleTests = 0; // ray–triangle tests run
};

enum class MeshRayMode { Closest, Any };

// The ray in the mesh's own coordinates. maxT may be +∞. tree must be
// buildObbTree's or buildObbTreeForRays' answer for m: a ray cast reads
// only the normals, the scale and the ray layout, never the OBB nodes.
MeshRayHit rayCastMeshLocal(const TriangleMesh& m, const ObbTree& tree, const Vec3& origin, const Vec3& direction,
                            double maxT, MeshRayMode mode = MeshRayMode::Closest);
// The ray in world coordinates, the mesh placed by pose (x_world = R x + p):
// the ray is taken into the mesh's frame (a rotation keeps t), the point and
// normal are returned in world coordinates.
MeshRayHit rayCastMesh(const TriangleMesh& m, const ObbTree& tree, const Transform& pose, const Vec3& origin,
                       const Vec3& direction, double maxT, MeshRayMode mode = MeshRayMode::Closest);

}  // namespace collidoscope
