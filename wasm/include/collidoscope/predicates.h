// collidoscope — exact geometric predicates: the sign of an orientation
// determinant, correct for every input of doubles in range, by an adaptive
// floating-point filter with an exact fallback.
//
// Reference: J. R. Shewchuk, "Adaptive Precision Floating-Point Arithmetic
// and Fast Robust Geometric Predicates", Discrete & Computational Geometry
// 18(3), 1997. Section 2 (expansions: sums of doubles whose bits do not
// overlap, exact under round-to-nearest-even), Section 4 (the orientation
// predicates and their error bounds).
//
// Each predicate first evaluates the determinant in doubles and returns its
// sign when the value clears the paper's forward error bound for that
// evaluation order (Section 4.2, "stage A"): then the sign is certainly the
// exact one. Otherwise the differences are taken exactly (two doubles
// each), the products exactly (Dekker's split), and the determinant is
// summed as an expansion whose largest component carries its sign. The
// paper's intermediate stages B–C (reusing the filter's partial results)
// are left out: the fallback runs only on nearly degenerate input.
//
// Range (the paper's own precondition): no intermediate may overflow or
// underflow. With every coordinate of magnitude in [2^-300, 2^300] (or 0)
// that holds; the hull builder scales its clouds into [2^-100, 2^100]
// before calling. Outside that range a filter that cannot certify its sign
// goes to the exact path, which is then exact up to the underflow.
//
// Signs follow the right-hand rule, as the rest of the library: orient3d is
// positive when d lies above the plane of the counter-clockwise triangle
// (a, b, c) (on the side its normal (b − a) × (c − a) points to) — the
// opposite of the paper's convention; orient2d is positive when (a, b, c)
// turn counter-clockwise.
#pragma once

#include <cmath>

#include "collidoscope/math.h"

namespace collidoscope {

namespace predicates_detail {
// Unit roundoff of double (the paper's ε): 2^-53.
constexpr double kEpsilon = 0x1p-53;
// Stage A error bounds (the paper's ccwerrboundA and o3derrboundA, Section
// 4.2): |computed − exact| ≤ bound · permanent, where the permanent is the
// determinant's expansion with every term taken by magnitude (itself
// computed in doubles; the bound covers that rounding too).
constexpr double kOrient2dBound = (3 + 16 * kEpsilon) * kEpsilon;
constexpr double kOrient3dBound = (7 + 56 * kEpsilon) * kEpsilon;
// Below this permanent the products may be denormal and the relative bound
// fails: such input goes to the exact path (see "Range" above).
constexpr double kMinPermanent = 0x1p-900;

int orient3dExact(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);
int orient2dExact(double ax, double ay, double bx, double by, double cx, double cy);
}  // namespace predicates_detail

// Sign (−1, 0, +1) of (b − a) × (c − a) · (d − a).
inline int orient3d(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  using namespace predicates_detail;
  const double ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z;
  const double vx = c.x - a.x, vy = c.y - a.y, vz = c.z - a.z;
  const double wx = d.x - a.x, wy = d.y - a.y, wz = d.z - a.z;
  const double vywz = vy * wz, vzwy = vz * wy, vzwx = vz * wx, vxwz = vx * wz, vxwy = vx * wy, vywx = vy * wx;
  const double det = ux * (vywz - vzwy) + uy * (vzwx - vxwz) + uz * (vxwy - vywx);
  const double permanent = std::fabs(ux) * (std::fabs(vywz) + std::fabs(vzwy)) +
                           std::fabs(uy) * (std::fabs(vzwx) + std::fabs(vxwz)) +
                           std::fabs(uz) * (std::fabs(vxwy) + std::fabs(vywx));
  const double bound = kOrient3dBound * permanent;
  if (permanent >= kMinPermanent) {  // false for NaN/∞ too: those go exact
    if (det > bound) return 1;
    if (-det > bound) return -1;
  }
  return orient3dExact(a, b, c, d);
}

// Sign of (bx − ax)(cy − ay) − (by − ay)(cx − ax).
inline int orient2d(double ax, double ay, double bx, double by, double cx, double cy) {
  using namespace predicates_detail;
  const double left = (bx - ax) * (cy - ay), right = (by - ay) * (cx - ax);
  const double det = left - right;
  const double permanent = std::fabs(left) + std::fabs(right);
  const double bound = kOrient2dBound * permanent;
  if (permanent >= kMinPermanent) {
    if (det > bound) return 1;
    if (-det > bound) return -1;
  }
  return orient2dExact(ax, ay, bx, by, cx, cy);
}

// Whether a, b and c lie exactly on one line: (b − a) × (c − a) = 0, that
// is orient2d vanishes in each of the three coordinate planes.
bool collinear3d(const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace collidoscope
