// collidoscope — triangle–triangle intersection with exact predicates, and
// the face rule's geometry (triangle.h).
//
// Why two orient3d decide the general case (triangle.h, step 2). Let
// (p1, q1, r1) be oriented so that p2 is on the positive side of its plane
// π1 (normal n1 = (q1 − p1) × (r1 − p1)), and (p2, q2, r2) so that p1 is on
// the positive side of π2, with p1 strictly on its side (heights h1 > 0 over
// π2) and q1, r1 on the other side or on π2; likewise for B (h2 > 0). The
// edges p1q1 and p1r1 cross π2 at i = p1 + α(q1 − p1) and j = p1 + γ(r1 − p1),
// α, γ ∈ (0, 1]; B's edges cross π1 at k = p2 + β(q2 − p2), l on p2r2. All
// four lie on L = π1 ∩ π2, direction d = n1 × n2.
//   * Order along d. (i − p1) × (j − p1) = αγ·n1, and (i − p1) × (j − p1) =
//     (i − p1) × (j − i). With j − i = s·d and d × n1 = |n1|²·n2 − (n1·n2)·n1,
//     dotting with n1 gives αγ|n1|² = s·(i − p1)·(d × n1) = −s·h1|n1|², so
//     s < 0: A's interval is [j, i]. The same with the roles swapped (d
//     becomes −d) gives B's interval [k, l].
//   * orient3d(p1, q1, p2, q2) = det(q1 − p1, p2 − p1, q2 − p2)
//     = det(i − p1, p2 − p1, k − p2) / (αβ) = det(i − p1, k − i, k − p2) / (αβ)
//     (the parts of p2 − p1 along the other two columns drop out). With
//     k − i = t·d: t·det(u, d, w)/(αβ), u = i − p1 in π1 with u·n2 = −h1,
//     w = k − p2 in π2 with w·n1 = −h2. d × w = n2(n1·w) − n1(n2·w) = −h2·n2,
//     so det(u, d, w) = u·(d × w) = h1·h2 > 0: the sign is that of t.
//   The same holds for (r1, r2) and l − j. When p1 lies on π2 with q1, r1
//   strictly on one side, i = j = p1 and the same computation with u =
//   q1 − p1 gives the same signs (and likewise for p2).
#include "collidoscope/triangle.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

#include "collidoscope/predicates.h"

namespace collidoscope {

namespace {

inline bool allOneStrictSign(const int s[3]) { return s[0] == s[1] && s[1] == s[2] && s[0] != 0; }
inline bool allZero(const int s[3]) { return s[0] == 0 && s[1] == 0 && s[2] == 0; }

// The corner alone on its side: the first with a non-zero sign that no
// other corner shares (then the others are on the opposite side or on the
// plane), or else the corner on the plane when the other two share a strict
// sign. *side is the lone corner's side, the virtual side opposite the
// others for a corner on the plane.
inline int loneCorner(const int s[3], int* side) {
  for (int i = 0; i < 3; ++i) {
    const int a = s[(i + 1) % 3], b = s[(i + 2) % 3];
    if (s[i] != 0 && a != s[i] && b != s[i]) {
      *side = s[i];
      return i;
    }
  }
  for (int i = 0; i < 3; ++i)
    if (s[i] == 0) {
      *side = -s[(i + 1) % 3];
      return i;
    }
  *side = 1;  // unreachable for the sign patterns the caller passes
  return 0;
}

// Two triangles that are both proper and cross each other's planes (not
// coplanar): step 2 of triangle.h. sa: A's corners against (b0, b1, b2);
// sb: B's corners against (a0, a1, a2).
bool crossingTriangles(const Vec3 a[3], const Vec3 b[3], const int sa[3], const int sb[3]) {
  int sideA, sideB;
  const int i = loneCorner(sa, &sideA), j = loneCorner(sb, &sideB);
  const Vec3& p1 = a[i];
  const Vec3* q1 = &a[(i + 1) % 3];
  const Vec3* r1 = &a[(i + 2) % 3];
  const Vec3& p2 = b[j];
  const Vec3* q2 = &b[(j + 1) % 3];
  const Vec3* r2 = &b[(j + 2) % 3];
  // Swapping two corners flips a plane's orientation, not the sides of the
  // other triangle's corners against it.
  if (sideA < 0) std::swap(q2, r2);
  if (sideB < 0) std::swap(q1, r1);
  return orient3d(p1, *q1, p2, *q2) <= 0 && orient3d(p1, *r1, *r2, p2) <= 0;
}

// ------------------------------------------------------------ the plane

struct P2 {
  double x, y;
};

// Drops coordinate `drop`: (y, z), (z, x) or (x, y).
inline P2 project(const Vec3& p, int drop) {
  switch (drop) {
    case 0: return {p.y, p.z};
    case 1: return {p.z, p.x};
    default: return {p.x, p.y};
  }
}

inline int orient(const P2& a, const P2& b, const P2& c) { return orient2d(a.x, a.y, b.x, b.y, c.x, c.y); }

// A coordinate to drop so that the plane of the non-collinear a, b, c
// projects one to one: orient2d of their projections is not 0. The normal's
// largest component is tried first (its orient2d is almost never 0).
int dropAxis(const Vec3& a, const Vec3& b, const Vec3& c, int* orientation) {
  const Vec3 n = cross(b - a, c - a);
  const double m[3] = {std::fabs(n.x), std::fabs(n.y), std::fabs(n.z)};
  const int first = m[0] >= m[1] && m[0] >= m[2] ? 0 : (m[1] >= m[2] ? 1 : 2);
  for (int k = 0; k < 3; ++k) {
    const int drop = (first + k) % 3;
    const int o = orient(project(a, drop), project(b, drop), project(c, drop));
    if (o != 0) {
      *orientation = o;
      return drop;
    }
  }
  *orientation = 0;  // collinear: the caller never passes such corners
  return 2;
}

// Whether every one of n points is strictly outside edge (e0, e1) of a
// triangle of orientation `o`.
inline bool allOutside(const P2& e0, const P2& e1, int o, const P2* pts, int n) {
  for (int k = 0; k < n; ++k)
    if (orient(e0, e1, pts[k]) * o >= 0) return false;
  return true;
}

// Closed proper triangles t and u in the plane (orientations ot, ou): apart
// iff an edge of one has the other wholly strictly outside (edge normals are
// the separating axes of convex polygons).
bool trianglesOverlap2d(const P2 t[3], int ot, const P2 u[3], int ou) {
  for (int e = 0; e < 3; ++e) {
    if (allOutside(t[e], t[(e + 1) % 3], ot, u, 3)) return false;
    if (allOutside(u[e], u[(e + 1) % 3], ou, t, 3)) return false;
  }
  return true;
}

// A closed segment pq (p ≠ q) and a proper triangle t: apart iff both ends
// are strictly outside one edge, or t is strictly on one side of pq's line
// (the edge normals of t ⊕ −pq).
bool segmentTriangle2d(const P2& p, const P2& q, const P2 t[3], int ot) {
  const P2 pq[2] = {p, q};
  for (int e = 0; e < 3; ++e)
    if (allOutside(t[e], t[(e + 1) % 3], ot, pq, 2)) return false;
  int s[3];
  for (int k = 0; k < 3; ++k) s[k] = orient(p, q, t[k]);
  return !allOneStrictSign(s);
}

bool pointInTriangle2d(const P2& x, const P2 t[3], int ot) {
  for (int e = 0; e < 3; ++e)
    if (allOutside(t[e], t[(e + 1) % 3], ot, &x, 1)) return false;
  return true;
}

// ------------------------------------------------------------ space

// What a triangle's corners span: a proper triangle, a segment (its two
// extreme corners) or a point.
struct Piece {
  int dim;
  Vec3 v[3];
};

Piece pieceOf(const Vec3& a, const Vec3& b, const Vec3& c) {
  if (!collinear3d(a, b, c)) return {2, {a, b, c}};
  if (a == b && b == c) return {0, {a, a, a}};
  // Collinear corners are ordered along the line as along any axis on which
  // they are not all equal.
  const int axis = (a.x != b.x || a.x != c.x) ? 0 : ((a.y != b.y || a.y != c.y) ? 1 : 2);
  const Vec3* v[3] = {&a, &b, &c};
  int lo = 0, hi = 0;
  for (int k = 1; k < 3; ++k) {
    if ((*v[k])[axis] < (*v[lo])[axis]) lo = k;
    if ((*v[k])[axis] > (*v[hi])[axis]) hi = k;
  }
  return {1, {*v[lo], *v[hi], *v[hi]}};
}

// x on the closed segment pq (p ≠ q): on its line and within its box.
bool pointOnSegment(const Vec3& x, const Vec3& p, const Vec3& q) {
  if (!collinear3d(p, q, x)) return false;
  for (int k = 0; k < 3; ++k)
    if (x[k] < std::fmin(p[k], q[k]) || x[k] > std::fmax(p[k], q[k])) return false;
  return true;
}

// Closed segments pq and rs (p ≠ q, r ≠ s).
bool segmentsIntersect(const Vec3& p, const Vec3& q, const Vec3& r, const Vec3& s) {
  if (orient3d(p, q, r, s) != 0) return false;
  const Vec3* third = !collinear3d(p, q, r) ? &r : (!collinear3d(p, q, s) ? &s : nullptr);
  if (third == nullptr) {
    // One line: overlap of the intervals along an axis on which p, q differ.
    const int axis = p.x != q.x ? 0 : (p.y != q.y ? 1 : 2);
    const double lo1 = std::fmin(p[axis], q[axis]), hi1 = std::fmax(p[axis], q[axis]);
    const double lo2 = std::fmin(r[axis], s[axis]), hi2 = std::fmax(r[axis], s[axis]);
    return lo1 <= hi2 && lo2 <= hi1;
  }
  int unused;
  const int drop = dropAxis(p, q, *third, &unused);
  const P2 p2 = project(p, drop), q2 = project(q, drop), r2 = project(r, drop), s2 = project(s, drop);
  // Not on one line, so apart iff one segment is strictly on one side of
  // the other's line (parallel segments: the first test).
  const int o1 = orient(p2, q2, r2), o2 = orient(p2, q2, s2);
  if (o1 * o2 > 0) return false;
  const int o3 = orient(r2, s2, p2), o4 = orient(r2, s2, q2);
  return o3 * o4 <= 0;
}

// Closed segment pq (p ≠ q) and proper triangle abc.
bool segmentTriangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
  const int sp = orient3d(a, b, c, p), sq = orient3d(a, b, c, q);
  if (sp * sq > 0) return false;
  if (sp == 0 && sq == 0) {
    int o;
    const int drop = dropAxis(a, b, c, &o);
    const P2 t[3] = {project(a, drop), project(b, drop), project(c, drop)};
    return segmentTriangle2d(project(p, drop), project(q, drop), t, o);
  }
  // The segment meets the plane in one point X; orient3d(p, q, a, b) is
  // (q − p)·n times the orientation of (X, a, b) in the plane, so X is in
  // the closed triangle iff the three have no two opposite strict signs.
  const int e[3] = {orient3d(p, q, a, b), orient3d(p, q, b, c), orient3d(p, q, c, a)};
  const bool positive = e[0] > 0 || e[1] > 0 || e[2] > 0;
  const bool negative = e[0] < 0 || e[1] < 0 || e[2] < 0;
  return !(positive && negative);
}

bool pointTriangle(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c) {
  if (orient3d(a, b, c, x) != 0) return false;
  int o;
  const int drop = dropAxis(a, b, c, &o);
  const P2 t[3] = {project(a, drop), project(b, drop), project(c, drop)};
  return pointInTriangle2d(project(x, drop), t, o);
}

// Pieces of which at least one is not a proper triangle, or two proper
// coplanar triangles.
bool piecesIntersect(const Piece& a, const Piece& b) {
  if (a.dim < b.dim) return piecesIntersect(b, a);
  switch (a.dim * 3 + b.dim) {
    case 8: {  // two proper triangles: coplanar here
      int oa, ob;
      const int drop = dropAxis(a.v[0], a.v[1], a.v[2], &oa);
      const P2 t[3] = {project(a.v[0], drop), project(a.v[1], drop), project(a.v[2], drop)};
      const P2 u[3] = {project(b.v[0], drop), project(b.v[1], drop), project(b.v[2], drop)};
      ob = orient(u[0], u[1], u[2]);
      return trianglesOverlap2d(t, oa, u, ob);
    }
    case 7: return segmentTriangle(b.v[0], b.v[1], a.v[0], a.v[1], a.v[2]);
    case 6: return pointTriangle(b.v[0], a.v[0], a.v[1], a.v[2]);
    case 4: return segmentsIntersect(a.v[0], a.v[1], b.v[0], b.v[1]);
    case 3: return pointOnSegment(b.v[0], a.v[0], a.v[1]);
    default: return a.v[0] == b.v[0];
  }
}

// The predicates are exact while no product of coordinate differences
// underflows (predicates.h: non-zero magnitudes within [2^-300, 2^300]). A
// pair whose largest coordinate is below this is first seen 2^k times
// larger, its largest coordinate near 1: scaling by a power of two is exact
// and changes no sign.
constexpr double kRescaleBelow = 0x1p-200;

inline bool tiny(const Vec3& v) {
  return std::fabs(v.x) < kRescaleBelow && std::fabs(v.y) < kRescaleBelow && std::fabs(v.z) < kRescaleBelow;
}

// 2^e for e in [-1022, 1023], from its bits.
inline double powerOfTwo(int e) {
  const std::uint64_t bits = static_cast<std::uint64_t>(e + 1023) << 52;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// v·2^-ilogb(m) for m > 0 finite: vectors seen at the scale where m is near
// 1. The factor, up to 2^1074 for a subnormal m, is applied in two halves
// (each a double); scaling up is exact.
struct UnitScale {
  double f1, f2;
  explicit UnitScale(double m) {
    const int e = -std::ilogb(m), h = e / 2;
    f1 = powerOfTwo(h);
    f2 = powerOfTwo(e - h);
  }
  Vec3 operator()(const Vec3& v) const { return v * f1 * f2; }
};

}  // namespace

bool trianglesIntersect(const Vec3& a0, const Vec3& a1, const Vec3& a2, const Vec3& b0, const Vec3& b1,
                        const Vec3& b2) {
  // Usually the first coordinate settles that the pair is not tiny.
  if (tiny(a0) && tiny(a1) && tiny(a2) && tiny(b0) && tiny(b1) && tiny(b2)) {
    const double m = maxOfNonNegative(maxOfNonNegative(maxOfNonNegative(maxAbs(a0), maxAbs(a1)), maxAbs(a2)),
                                      maxOfNonNegative(maxOfNonNegative(maxAbs(b0), maxAbs(b1)), maxAbs(b2)));
    if (m > 0) {
      const UnitScale up(m);
      return trianglesIntersect(up(a0), up(a1), up(a2), up(b0), up(b1), up(b2));
    }
  }
  const int sb[3] = {orient3d(a0, a1, a2, b0), orient3d(a0, a1, a2, b1), orient3d(a0, a1, a2, b2)};
  if (allOneStrictSign(sb)) return false;
  // A strict sign anywhere in sb makes A proper (a degenerate A gives 0
  // everywhere). All zero: A is degenerate or B lies in A's plane.
  if (!allZero(sb)) {
    const int sa[3] = {orient3d(b0, b1, b2, a0), orient3d(b0, b1, b2, a1), orient3d(b0, b1, b2, a2)};
    if (allOneStrictSign(sa)) return false;
    // A proper B with A's corners all in its plane would put B in A's plane
    // (sb all 0): all zero here means B is degenerate.
    if (!allZero(sa)) {
      const Vec3 a[3] = {a0, a1, a2}, b[3] = {b0, b1, b2};
      return crossingTriangles(a, b, sa, sb);
    }
  }
  return piecesIntersect(pieceOf(a0, a1, a2), pieceOf(b0, b1, b2));
}

namespace triangle_detail {

bool unitNormal(const Vec3& t0, const Vec3& t1, const Vec3& t2, Vec3* n) {
  const double size = maxOfNonNegative(maxOfNonNegative(maxAbs(t0), maxAbs(t1)), maxAbs(t2));
  if (!(size > 0) || !std::isfinite(size)) return false;
  // Tiny corners seen at unit size, so that the collinearity test is exact.
  const UnitScale up(size < kRescaleBelow ? size : 1.0);
  const Vec3 s0 = up(t0), s1 = up(t1), s2 = up(t2);
  if (collinear3d(s0, s1, s2)) return false;
  const Vec3 e1 = s1 - s0, e2 = s2 - s0;
  const double m = maxOfNonNegative(maxAbs(e1), maxAbs(e2));
  if (!(m > 0)) return false;
  // Edges near unit length: the cross product neither underflows nor
  // overflows.
  const UnitScale unit(m);
  const Vec3 c = cross(unit(e1), unit(e2));
  if (!(maxAbs(c) > 0)) return false;
  *n = normalizedOr(c, Vec3{});
  return true;
}

bool projectsInside(const Vec3& t0, const Vec3& t1, const Vec3& t2, const Vec3& n, const Vec3& x) {
  const Vec3 t[3] = {t0, t1, t2};
  double m = 0;
  for (int k = 0; k < 3; ++k) m = maxOfNonNegative(m, maxAbs(t[(k + 1) % 3] - t[k]));
  if (!(m > 0) || !std::isfinite(m)) return false;
  const UnitScale unit(m);
  for (int k = 0; k < 3; ++k) {
    const Vec3 edge = unit(t[(k + 1) % 3] - t[k]);
    const Vec3 toX = unit(x - t[k]);
    if (dot(cross(edge, toX), n) < 0) return false;
  }
  return true;
}

}  // namespace triangle_detail

}  // namespace collidoscope
