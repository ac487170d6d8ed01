// collidoscope — bounding volumes: axis-aligned box, bounding sphere and
// oriented boxes (OBB) fitted by principal component analysis.
//
// References: the PCA box (covariance of the points, eigenvectors as box
// axes, extents by projecting every point) and its weakness, that dense
// clusters of points pull the axes: S. Gottschalk, "Collision Queries using
// Oriented Bounding Boxes", PhD thesis, University of North Carolina at
// Chapel Hill, 2000, as presented by M. Huotari, "Törmäyksen tunnistus
// 3D-ympäristössä", bachelor's thesis, Mikkeli University of Applied
// Sciences, 2011, ch. 3.1–3.2. The cure used here is the covariance of the
// *surface* of a triangle mesh, integrated exactly triangle by triangle, so
// the axes do not depend on how densely a region is sampled (S. Gottschalk,
// M. C. Lin, D. Manocha, "OBBTree: a hierarchical structure for rapid
// interference detection", SIGGRAPH 1996; derived step by step in
// J. Rasku, "Törmäysten havaitseminen tietokoneanimaatiossa", master's
// thesis, University of Tampere, 2003, §6.1.2). Bounding sphere: Welzl's
// algorithm (E. Welzl, "Smallest
// enclosing disks (balls and ellipsoids)", 1991), written as four nested
// loops over a shuffled order instead of recursion.
//
// The maths, with A_k the area of triangle k (vertices p, q, r, centroid
// m_k = (p+q+r)/3) and A = Σ A_k the total area:
//
//   mean   M = (1/A) Σ A_k m_k
//   ∫_T x xᵀ dA = (A_k/12) (9 m_k m_kᵀ + p pᵀ + q qᵀ + r rᵀ)      (exact)
//   C      = (1/A) Σ (A_k/12) (9 m'm'ᵀ + p'p'ᵀ + q'q'ᵀ + r'r'ᵀ)
//
// where primes are coordinates relative to M (so E[x'] = 0 and C needs no
// subtraction E[xxᵀ] − M Mᵀ, which loses digits far from the origin). The
// integral is taken with u = q − p, v = r − p (Rasku's §6.1.2 substitutes
// u = q − r in one step, a typo; the formula above is the correct one).
//
// Every fit projects all given points onto its axes, so a box always
// contains its points (to a few ulps of the scale). Axes are orthonormal and
// right-handed (axes[2] = axes[0] × axes[1]), sorted by decreasing variance,
// each signed so its largest component is positive (deterministic output).
//
// Degenerate inputs: one point (or all duplicates) gives the identity axes
// and zero half-extents; collinear points give the line direction as
// axes[0] and zero half-extents on the others; coplanar points give a zero
// half-extent along the plane normal. Nothing returns NaN for finite input.
//
// Empty input is not an error that can crash: computeAabb, the fits and
// refineObb return a zero box at the origin, computeBoundingSphere a zero
// sphere at the origin. Callers that must reject empty or non-finite input
// (the scene layer) call checkBoundsInput first, which names the problem.
// Non-finite coordinates give non-finite results but never hang: every loop
// is bounded.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "collidoscope/aabb.h"
#include "collidoscope/math.h"

namespace collidoscope {

struct BoundingSphere {
  Vec3 center;
  double radius = 0;
  double volume() const;  // 4/3 π r³
};

struct Obb {
  Vec3 center;
  Vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};  // orthonormal, right-handed
  Vec3 halfExtents;                                  // ≥ 0, along axes[0..2]
  double volume() const { return 8.0 * halfExtents.x * halfExtents.y * halfExtents.z; }
};

struct BoundsError {
  std::string field;
  std::string message;
};

// Validation for callers that must refuse bad input: false (with err filled,
// if non-null) for an empty list or a non-finite coordinate, e.g.
// {"points", "is empty"} or {"points", "point 3 has a non-finite coordinate"}.
bool checkBoundsInput(const std::vector<Vec3>& pts, BoundsError* err);

// Smallest axis-aligned box. Empty input: min = max = 0.
Aabb computeAabb(const std::vector<Vec3>& pts);

// Bounding sphere: Welzl's minimal ball on a deterministically shuffled copy
// (expected O(n)); exact to rounding on well-conditioned inputs. A work cap
// (kSphereWorkFactor · n ball constructions) falls back to Ritter's sphere
// on pathological orders. In every case the radius is finally set to the
// largest distance from the chosen centre, so every point is inside.
BoundingSphere computeBoundingSphere(const std::vector<Vec3>& pts);

// OBB from the PCA of the point covariance (every point weighs the same).
Obb obbFromPoints(const std::vector<Vec3>& pts);

// OBB from the PCA of the area-weighted surface covariance of the triangles
// (exact integral above; independent of how finely the surface is
// triangulated). The box bounds every point of `verts`, referenced or not.
// Triangles with an index outside [0, verts.size()) are skipped; if the
// remaining triangles have zero total area (or there are none), this falls
// back to obbFromPoints(verts).
Obb obbFromTriangles(const std::vector<Vec3>& verts, const std::vector<std::array<int, 3>>& tris);

// Improve a fit: candidates are the fit's axes (extents recomputed over
// pts), the AABB, and boxes with one axis fixed and the other two from the
// minimum-area rectangle of the points projected on the perpendicular plane
// (2D hull + rotating calipers). Fixed axes tried: the fit's and the world
// axes, and every direction between two of ≤32 extremal points (scored on
// those points only, DiTO-style). Then coordinate descent — the rectangle
// re-fitted around each axis of the best box until a sweep gains less than
// kRefineProgress (≤ kRefineMaxSweeps) — with up to kRefineEscapes restarts
// from the box's diagonals when it stalls. The result's axes are sorted by
// decreasing half-extent (signed and right-handed as above). The smallest box wins
// (ties on volume — flat inputs — by surface area). Never returns a box with
// volume above the AABB's: the AABB itself is returned then (as an Obb with
// the world axes). Cost O(sweeps · n log n): pass hull vertices, not a raw
// million-point cloud.
struct RefineInfo {
  bool usedAabb = false;   // the answer is the AABB (world axes, AABB extents)
  bool improved = false;   // the answer is strictly smaller than the fit
  int sweeps = 0;          // coordinate-descent sweeps run (all restarts)
};
Obb refineObb(const Obb& fit, const std::vector<Vec3>& pts);
Obb refineObb(const Obb& fit, const std::vector<Vec3>& pts, RefineInfo* info);

// The box with the given axes (orthonormal) that bounds pts tightly.
Obb obbWithAxes(const Vec3 axes[3], const std::vector<Vec3>& pts);
// The AABB as an Obb (world axes).
Obb obbFromAabb(const Aabb& box);

// ---- Building blocks, exposed for tests and the page -------------------

// Symmetric 3×3 matrix (m[i][j] == m[j][i]) and the mean it was taken about.
struct Covariance {
  Vec3 mean;
  double m[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  double weight = 0;  // number of points, or total area of the triangles
};
// Covariance of the points (1/n normalisation, about their mean).
Covariance pointCovariance(const std::vector<Vec3>& pts);
// Area-weighted surface covariance (formula above); weight = total area,
// 0 when every triangle is degenerate or invalid.
Covariance triangleCovariance(const std::vector<Vec3>& verts,
                              const std::vector<std::array<int, 3>>& tris);

// Eigen-decomposition of a symmetric 3×3 matrix by cyclic Jacobi
// rotations. values sorted decreasing, vectors[i] the unit eigenvector of
// values[i]; vectors orthonormal and right-handed, signed as the OBB axes.
struct SymmetricEigen {
  double values[3] = {0, 0, 0};
  Vec3 vectors[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  int sweeps = 0;
  bool converged = true;  // false only if kJacobiMaxSweeps ran out (non-finite input)
};
SymmetricEigen symmetricEigen(const double m[3][3]);

// The same decomposition in closed form, several times cheaper than
// Jacobi: the eigenvalue of the characteristic cubic farthest from the
// middle one (the trigonometric solution's, its cosine of a third of an
// angle found as the root of the trisection cubic by Newton's method:
// arithmetic and square roots only, so the same bits on every platform),
// its eigenvector as the longest cross product of two rows of A − λI, and
// the other two as the symmetric 2×2 problem in the plane orthogonal to it
// (one rotation, its angle's cosine and sine from half-angle formulas), so
// nearly repeated eigenvalues cost no accuracy. A diagonal, zero or
// non-finite matrix goes to symmetricEigen. The vectors agree with
// Jacobi's to rounding over the eigenvalue gap (same order, same signs),
// not bit for bit: the OBB tree uses it, the convex fits keep Jacobi.
SymmetricEigen symmetricEigenClosedForm(const double m[3][3]);

// Jacobi: off-diagonal mass shrinks quadratically; a 3×3 matrix converges
// to rounding in ~4–6 sweeps. 50 is a cap that finite input never reaches.
constexpr int kJacobiMaxSweeps = 50;
// Newton steps of symmetricEigenClosedForm's trisection root: from its
// start (within 0.03) the error squares each step (e → ≤ 2e²), so 5 steps
// reach rounding; the cap only bounds the loop.
constexpr int kTrisectionMaxSteps = 12;
// Coordinate-descent sweeps of refineObb; each sweep re-fits the minimum
// rectangle around each of the best box's three axes. A box-like cloud
// settles within a few sweeps; the cap bounds the rare slow creep of a
// near-spherical one, whose every sweep gains a little.
constexpr int kRefineMaxSweeps = 16;
// A sweep that shrinks the volume by less than this fraction is the last:
// well-fitted boxes gain nothing visible from more, and near-spherical
// clouds would otherwise creep on for all kRefineMaxSweeps.
constexpr double kRefineProgress = 1e-6;
// Escapes from a stalled coordinate descent (see refineObb in obb.cpp).
constexpr int kRefineEscapes = 2;
// Welzl's loops run in expected O(n) ball constructions on a shuffled order
// (a small multiple of n); beyond this many per point the order is treated
// as pathological and Ritter's sphere is used.
constexpr int kSphereWorkFactor = 64;

}  // namespace collidoscope
