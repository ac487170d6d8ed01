// Independent reference for the convex-hull tests (collidoscope/hull.h).
//
// Two parts:
//
//  * hullref::  brute-force geometry that never calls the library: the affine
//    dimension of a point set and its extreme points, from the face lattice
//    (see extremePoints3 below). Only the plain Vec3 type is shared.
//  * hullcheck:: the invariants every ConvexHull must satisfy, checked
//    against the input points with our own planes (Newell normals), our own
//    edge bookkeeping and our own orientation tests. Each check returns ""
//    or a message naming the first violation.
//
// Tolerances. The library decides "on a plane" with its absolute tolerance
// τ = hull.tolerance (hull.h: relativeTolerance × the bounding box's
// half-extent sum + 32 u × the largest |coordinate|). Our checks use kSlack·τ
// with kSlack = 2: the library compares a point with the plane of one
// triangle, we compare it with the Newell plane of the merged face, whose
// corners are each within τ of the library's planes, so a point the library
// accepted at +τ can sit up to 2τ above ours (the same 2τ bounds a merged
// face's corners off its Newell plane). Our own rounding is added
// explicitly: we subtract a nearby corner first, so it is ≤ 64 ulps of the
// cloud's extent, far below τ.
// The brute force runs at τ/8 and at 8τ and the hull must lie between the
// two answers (see compareWithBruteForce); the clouds are built so that
// almost every point is either on a face up to rounding or far off it, and
// the tests count the clouds where the two answers differ.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "reference.h"

namespace hullref {

using collidoscope::Vec3;
using ref::cross3;
using ref::dot3;
using ref::norm;

// max|x| + max|y| + max|z|: the contract's scale for the tolerance.
// Σ over axes of the coordinate range: the cloud's own size (our rounding
// is relative to it, since we always subtract a nearby vertex first).
inline double extentSum(const std::vector<Vec3>& p) {
  if (p.empty()) return 0;
  Vec3 lo = p[0], hi = p[0];
  for (const Vec3& v : p)
    for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], v[a]), hi[a] = std::max(hi[a], v[a]);
  return (hi.x - lo.x) + (hi.y - lo.y) + (hi.z - lo.z);
}

inline double coordScale(const std::vector<Vec3>& p) {
  double mx = 0, my = 0, mz = 0;
  for (const Vec3& v : p) {
    mx = std::max(mx, std::fabs(v.x));
    my = std::max(my, std::fabs(v.y));
    mz = std::max(mz, std::fabs(v.z));
  }
  return mx + my + mz;
}


// Distinct positions (exact equality), in order of first appearance.
inline std::vector<Vec3> distinct(const std::vector<Vec3>& p) {
  std::vector<Vec3> s = p;
  std::sort(s.begin(), s.end(), [](const Vec3& a, const Vec3& b) {
    return a.x != b.x ? a.x < b.x : (a.y != b.y ? a.y < b.y : a.z < b.z);
  });
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

// An orthonormal pair (u, v) spanning the plane with unit normal n.
inline void planeBasis(const Vec3& n, Vec3* u, Vec3* v) {
  const Vec3 a = std::fabs(n.x) < 0.6 ? Vec3{1, 0, 0} : (std::fabs(n.y) < 0.6 ? Vec3{0, 1, 0} : Vec3{0, 0, 1});
  *u = ref::unit(cross3(n, a));
  *v = cross3(n, *u);
}

// ---- input uncertainty ---------------------------------------------------------
//
// The test clouds are made by rotating, scaling and offsetting exact shapes,
// so each coordinate carries a rounding error of up to ~u·|coordinate|
// (u = 2^-53): ε = 4u·max|coordinate| bounds it. A plane through three
// points is then only known up to a tilt of ~2ε/h (h: the triangle's least
// height), and a line through two points up to 2ε/|r − q|; so a point at
// distance L from the plane's base point is classified with the margin
// tol + ε(1 + 2L/h) (and for lines tol + ε(1 + 2L/|r − q|)) rather than tol.
// Without this, a sliver triple from an (intended) coplanar set, e.g. three
// points near one edge of a cube face at offset 1e6, spans a tilted plane
// that looks like a facet of its own. Near the origin ε ~ 1e-15·S ≪ τ and
// the margins are just tol.
constexpr double kU = 1.1102230246251565e-16;  // 2^-53
inline double inputUncertainty(const std::vector<Vec3>& p) {
  double big = 0;
  for (const Vec3& v : p) big = std::max(big, ref::maxAbs3(v));
  return 4 * kU * big;
}

// ---- wide-precision normals ---------------------------------------------------
//
// (b − o) × (c − o) in quadruple precision (differences of doubles and
// their products are exact there), returned as a unit double vector and its
// length. In double, a sliver triangle's normal would be off by ~u·L/h in
// direction, which on thin clouds is far above every tolerance here.
#if defined(__SIZEOF_FLOAT128__)
using Wide = __float128;
#else
using Wide = long double;
#endif
inline Vec3 unitCross(const Vec3& o, const Vec3& b, const Vec3& c, double* length = nullptr) {
  const Wide e1[3] = {Wide(b.x) - o.x, Wide(b.y) - o.y, Wide(b.z) - o.z};
  const Wide e2[3] = {Wide(c.x) - o.x, Wide(c.y) - o.y, Wide(c.z) - o.z};
  const Wide n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
  Wide m = 0;
  for (int k = 0; k < 3; ++k) m = std::max(m, n[k] < 0 ? -n[k] : n[k]);
  if (length) *length = 0;
  if (!(m > 0)) return {0, 0, 0};
  const Vec3 d{double(n[0] / m), double(n[1] / m), double(n[2] / m)};
  if (length) *length = norm(d) * double(m);
  return d / norm(d);
}

// The ε margin at p for the plane through a triangle whose longest edge
// runs from A with unit direction u and length L, height h over it: a tilt
// about that edge of 2ε/h moves p by 2ε·t/h (t: p's distance from the
// edge's line), a tilt about the perpendicular axis by 2ε·|s|/L (s: p's
// position along the edge).
inline double planeMargin(const Vec3& A, const Vec3& u, double L, double h, double eps, const Vec3& p) {
  const Vec3 d = p - A;
  const double sp = dot3(d, u);
  const double t = norm(d - u * sp);
  return eps * (1 + 2 * t / h + 2 * std::fabs(sp) / L);
}

// ---- affine dimension -----------------------------------------------------
//
// p0 = first point; a = the point farthest from p0 (|a − p0| ≥ diameter/2);
// c = the point farthest from line p0a; the plane p0ac. Dimension 0 if all
// points are within tol of p0, 1 if all within tol of the line, 2 if all
// within tol of the plane, else 3 (each with the ε margin above).
struct Affine {
  int dim = 0;
  Vec3 origin, dir, normal;
};

inline Affine affineHull(const std::vector<Vec3>& p, double tol, double eps) {
  Affine r;
  if (p.empty()) return r;
  r.origin = p[0];
  std::size_t ia = 0;
  double best = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (norm(p[i] - p[0]) > best) best = norm(p[i] - p[0]), ia = i;
  if (best <= tol + 2 * eps) return r;
  const double la = best;
  r.dim = 1;
  r.dir = ref::unit(p[ia] - p[0]);
  std::size_t ic = 0;
  bool off = false;
  best = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec3 d = p[i] - p[0];
    const double dl = norm(d - r.dir * dot3(d, r.dir));
    if (dl > tol + eps * (1 + 2 * norm(d) / la)) off = true;
    if (dl > best) best = dl, ic = i;
  }
  if (!off) return r;
  r.dim = 2;
  r.normal = unitCross(p[0], p[ia], p[ic]);
  const double h = best;  // c's distance from the baseline p0–a (the longest edge up to a factor 2)
  for (const Vec3& q : p)
    if (std::fabs(dot3(r.normal, q - p[0])) > tol + planeMargin(p[0], r.dir, la, h, eps, q)) {
      r.dim = 3;
      break;
    }
  return r;
}

// ---- extreme points -------------------------------------------------------
//
// The vertices of a polytope are exactly the vertices of its facets (every
// vertex lies on some facet, and a face of a face is a face). Recursing on
// that gives a brute force with no LP:
//
//  2D: q is a vertex of conv Q iff there is r ≠ q such that the line qr
//      supports Q (all points on one side) and no point on that line lies
//      beyond q (q is an endpoint of the supporting segment conv(Q ∩ line),
//      which is an edge or, for collinear Q, the whole hull). If q is a
//      vertex, its hull neighbour r is such a witness; conversely the
//      condition makes q a vertex of a face, hence a vertex.
//  3D: every facet lies in the plane of three non-collinear input points,
//      and a plane through three points that supports P meets P in a
//      2-dimensional face, i.e. a facet. So: for every triple spanning a
//      plane with all points on one side, take the points on that plane and
//      keep their 2D vertices. O(n⁴); facets seen before are memoized.
//
// "On" means within tol plus the ε margin. Input: distinct positions.
// Output: indices into it, sorted.

struct P2 {
  double x, y;
};

inline std::vector<int> extremePoints2(const std::vector<P2>& q, double tol, double eps) {
  const int m = static_cast<int>(q.size());
  if (m <= 1) return m == 1 ? std::vector<int>{0} : std::vector<int>{};
  std::vector<int> out;
  for (int i = 0; i < m; ++i) {
    bool extreme = false;
    for (int j = 0; j < m && !extreme; ++j) {
      if (j == i) continue;
      const double dx = q[j].x - q[i].x, dy = q[j].y - q[i].y, len = std::hypot(dx, dy);
      if (!(len > tol + 2 * eps)) continue;
      const double nx = -dy / len, ny = dx / len, tx = dx / len, ty = dy / len;
      bool pos = false, neg = false, beyond = false;
      for (int k = 0; k < m; ++k) {
        const double sx = q[k].x - q[i].x, sy = q[k].y - q[i].y;
        const double side = nx * sx + ny * sy;
        const double margin = tol + eps * (1 + 2 * std::hypot(sx, sy) / len);
        if (side > margin) pos = true;
        if (side < -margin) neg = true;
        if (std::fabs(side) <= margin && tx * sx + ty * sy < -(tol + 2 * eps)) beyond = true;
      }
      extreme = !(pos && neg) && !beyond;
    }
    if (extreme) out.push_back(i);
  }
  return out;
}

// Points (indices into p) projected on the plane (origin o, unit normal n).
inline std::vector<P2> project(const std::vector<Vec3>& p, const std::vector<int>& idx, const Vec3& o, const Vec3& n) {
  Vec3 u, v;
  planeBasis(n, &u, &v);
  std::vector<P2> q;
  q.reserve(idx.size());
  for (int i : idx) q.push_back({dot3(p[i] - o, u), dot3(p[i] - o, v)});
  return q;
}

inline std::vector<int> extremePoints3(const std::vector<Vec3>& p, double tol, double eps) {
  const int n = static_cast<int>(p.size());
  std::vector<char> ext(n, 0);
  std::set<std::vector<int>> seen;
  std::vector<double> side(n), margin(n);
  const double diameter = extentSum(p);  // ≥ any |p_l − p_i|
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = j + 1; k < n; ++k) {
        // Double precision when the corner angle at p_i is not small (its
        // rounding, ≤ 8u·|e1||e2|/|e1×e2| in direction, is added to the
        // margin below); quadruple precision for slivers.
        const Vec3 e1 = p[j] - p[i], e2 = p[k] - p[i];
        const Vec3 cd = cross3(e1, e2);
        double cl = norm(cd);
        const double ratio = norm(e1) * norm(e2) / cl;
        double rounding = 0;  // direction error of nn, radians
        Vec3 nn;
        if (ratio < 20) {
          nn = cd / cl;
          rounding = 8 * kU * ratio;
        } else {
          nn = unitCross(p[i], p[j], p[k], &cl);
        }
        // The longest edge A→B and the height h over it. Skip
        // (near-)collinear triples: their plane is not determined.
        const double lij = norm(p[j] - p[i]), lik = norm(p[k] - p[i]), ljk = norm(p[k] - p[j]);
        const Vec3& A = ljk >= lij && ljk >= lik ? p[j] : p[i];
        const Vec3& B = ljk >= lij && ljk >= lik ? p[k] : (lij >= lik ? p[j] : p[k]);
        const double longest = std::max({lij, lik, ljk});
        const double h = cl / longest;
        if (!(h > tol + 2 * eps)) continue;
        const Vec3 u = (B - A) / longest;
        const double widest =
            tol + eps * (1 + 2 * diameter / h + 2 * diameter / longest) + rounding * diameter;  // ≥ every margin[l]
        bool pos = false, neg = false;
        for (int l = 0; l < n && !(pos && neg); ++l) {
          const Vec3 d = p[l] - p[i];
          side[l] = dot3(nn, d);
          margin[l] = std::fabs(side[l]) > widest ? widest
                                                   : tol + planeMargin(A, u, longest, h, eps, p[l]) + rounding * norm(d);
          if (side[l] > margin[l]) pos = true;
          if (side[l] < -margin[l]) neg = true;
        }
        if (pos && neg) continue;
        std::vector<int> face;
        for (int l = 0; l < n; ++l)
          if (std::fabs(side[l]) <= margin[l]) face.push_back(l);
        if (!seen.insert(face).second) continue;
        const std::vector<int> e2d = extremePoints2(project(p, face, p[i], nn), tol, eps);
        for (int f : e2d) ext[face[f]] = 1;
      }
  std::vector<int> out;
  for (int i = 0; i < n; ++i)
    if (ext[i]) out.push_back(i);
  return out;
}

// Extreme points of any finite set of distinct points, by its dimension.
inline std::vector<int> extremePoints(const std::vector<Vec3>& p, double tol, double eps, int* dimOut = nullptr) {
  const Affine a = affineHull(p, tol, eps);
  if (dimOut) *dimOut = a.dim;
  std::vector<int> all(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) all[i] = static_cast<int>(i);
  switch (a.dim) {
    case 0:
      return p.empty() ? std::vector<int>{} : std::vector<int>{0};
    case 1: {
      int lo = 0, hi = 0;
      for (std::size_t i = 0; i < p.size(); ++i) {
        const double t = dot3(p[i] - a.origin, a.dir);
        if (t < dot3(p[lo] - a.origin, a.dir)) lo = static_cast<int>(i);
        if (t > dot3(p[hi] - a.origin, a.dir)) hi = static_cast<int>(i);
      }
      return lo < hi ? std::vector<int>{lo, hi} : std::vector<int>{hi, lo};
    }
    case 2:
      return extremePoints2(project(p, all, a.origin, a.normal), tol, eps);
    default:
      return extremePoints3(p, tol, eps);
  }
}

// Matches two point sets within `tol` (each point of A has a partner in B
// and vice versa, and the sizes agree). Returns "" or what differs.
inline std::string compareSets(const std::vector<Vec3>& got, const std::vector<Vec3>& want, double tol) {
  std::ostringstream o;
  o.precision(17);
  auto missing = [&](const std::vector<Vec3>& a, const std::vector<Vec3>& b, const char* what) {
    for (const Vec3& x : a) {
      bool found = false;
      for (const Vec3& y : b)
        if (norm(x - y) <= tol) found = true;
      if (!found) {
        o << what << " [" << x.x << ", " << x.y << ", " << x.z << "]; ";
        return true;
      }
    }
    return false;
  };
  const bool m1 = missing(got, want, "hull vertex that is not extreme:");
  const bool m2 = missing(want, got, "extreme point missing from the hull:");
  if (!m1 && !m2 && got.size() != want.size())
    o << "hull has " << got.size() << " vertices, brute force " << want.size() << " distinct extreme points";
  return o.str();
}

// ---- C++ snippet for a failing cloud -----------------------------------------
inline std::string cloudLiteral(const std::vector<Vec3>& p, std::size_t maxPoints = 80) {
  std::ostringstream o;
  o.precision(17);
  o << "std::vector<Vec3> pts{";
  for (std::size_t i = 0; i < p.size() && i < maxPoints; ++i)
    o << (i ? ", " : "") << "{" << p[i].x << ", " << p[i].y << ", " << p[i].z << "}";
  if (p.size() > maxPoints) o << ", ... (" << p.size() << " points)";
  o << "};";
  return o.str();
}

}  // namespace hullref

// ---- invariants of a ConvexHull --------------------------------------------
#if __has_include("collidoscope/hull.h")
#include "collidoscope/hull.h"

namespace hullcheck {

using collidoscope::ConvexHull;
using collidoscope::HullKind;
using collidoscope::Vec3;
using ref::cross3;
using ref::dot3;
using ref::norm;

constexpr double kSlack = 2.0;  // see the header comment: library plane vs. our Newell plane
constexpr double kPi = 3.14159265358979323846;

// Worst observed ratios over all checked hulls (printed by the tests, so the
// margin of kSlack is visible in the log, not only pass/fail).
struct Stats {
  double insideOverTol = 0;     // max over points and faces of (signed distance) / τ
  double planarityOverTol = 0;  // max over faces of (vertex off the face plane) / τ
  long hulls = 0;
};
inline Stats& stats() {
  static Stats s;
  return s;
}

inline HullKind kindOfDim(int dim) {
  return dim <= 0 ? HullKind::Point : dim == 1 ? HullKind::Segment : dim == 2 ? HullKind::Polygon : HullKind::Polyhedron;
}

// Newell's normal of a polygon and the mean of its corners (relative to
// the first corner, see planeDistance). The sums are done in quadruple
// precision: differences of doubles and their pairwise products are exact
// there, so the normal of even a sliver face (three nearly collinear
// corners) is accurate to the last bit of the rounded double result. In
// double, its direction would be off by ~u·L/w (w the face's width), which
// on thin clouds is far above τ.
using hullref::Wide;
inline void newell(const std::vector<Vec3>& v, const std::vector<int>& poly, Vec3* nrm, Vec3* mid) {
  Wide n[3] = {0, 0, 0}, c[3] = {0, 0, 0};
  const Vec3& o = v[poly[0]];
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const Vec3& pa = v[poly[i]];
    const Vec3& pb = v[poly[(i + 1) % poly.size()]];
    const Wide a[3] = {Wide(pa.x) - o.x, Wide(pa.y) - o.y, Wide(pa.z) - o.z};
    const Wide b[3] = {Wide(pb.x) - o.x, Wide(pb.y) - o.y, Wide(pb.z) - o.z};
    n[0] += (a[1] - b[1]) * (a[2] + b[2]);
    n[1] += (a[2] - b[2]) * (a[0] + b[0]);
    n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    for (int k = 0; k < 3; ++k) c[k] += a[k];
  }
  const Wide cnt = static_cast<Wide>(poly.size());
  *mid = Vec3{double(c[0] / cnt), double(c[1] / cnt), double(c[2] / cnt)};
  Wide m = 0;
  for (int k = 0; k < 3; ++k) m = std::max(m, n[k] < 0 ? -n[k] : n[k]);
  if (!(m > 0)) {
    *nrm = Vec3{0, 0, 0};
    return;
  }
  const Vec3 d{double(n[0] / m), double(n[1] / m), double(n[2] / m)};  // largest component ±1
  *nrm = d / norm(d);
}

// Corners of a polygon (around unit normal n) all turn left, and the turns
// add up to one revolution: a convex, simple polygon.
// Signed distance of p from the plane (unit n through origin + mid), with
// the difference p − origin formed first (exact for nearby doubles).
inline double planeDistance(const Vec3& n, const Vec3& origin, const Vec3& mid, const Vec3& p) {
  return dot3(n, (p - origin) - mid);
}

inline std::string convexCcw(const std::vector<Vec3>& v, const std::vector<int>& poly, const Vec3& n) {
  const std::size_t m = poly.size();
  double turning = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const Vec3& a = v[poly[i]];
    const Vec3& b = v[poly[(i + 1) % m]];
    const Vec3& c = v[poly[(i + 2) % m]];
    // Edges projected onto the plane: a face is planar only within the
    // tolerance, and its turning is measured in the plane.
    const Vec3 d1 = b - a, d2 = c - b;
    const Vec3 e1 = d1 - n * dot3(d1, n), e2 = d2 - n * dot3(d2, n);
    const double s = dot3(cross3(e1, e2), n);
    if (!(s > 0)) {
      std::ostringstream o;
      o << "corner " << poly[(i + 1) % m] << " of a face does not turn left (cross·n = " << s << ")";
      return o.str();
    }
    turning += std::atan2(s, dot3(e1, e2));
  }
  if (std::fabs(turning - 2 * kPi) > 1e-6) {
    std::ostringstream o;
    o << "a face winds " << turning / (2 * kPi) << " times";
    return o.str();
  }
  return "";
}

// Directed edges (a, b) of a set of closed polygons (triangles or faces).
inline std::vector<std::pair<int, int>> directedEdges(const std::vector<std::vector<int>>& polys) {
  std::vector<std::pair<int, int>> e;
  for (const auto& p : polys)
    for (std::size_t i = 0; i < p.size(); ++i) e.push_back({p[i], p[(i + 1) % p.size()]});
  std::sort(e.begin(), e.end());
  return e;
}

// Each directed edge once and its reverse once: a closed, consistently
// oriented 2-manifold. Returns the number of undirected edges via *edges.
inline std::string closedOriented(const std::vector<std::vector<int>>& polys, const char* what, long* edges) {
  const auto e = directedEdges(polys);
  for (std::size_t i = 0; i + 1 < e.size(); ++i)
    if (e[i] == e[i + 1]) {
      std::ostringstream o;
      o << what << ": directed edge " << e[i].first << "->" << e[i].second << " used twice";
      return o.str();
    }
  for (const auto& d : e)
    if (!std::binary_search(e.begin(), e.end(), std::make_pair(d.second, d.first))) {
      std::ostringstream o;
      o << what << ": edge " << d.first << "->" << d.second << " has no reverse (hole or flipped neighbour)";
      return o.str();
    }
  *edges = static_cast<long>(e.size() / 2);
  return "";
}

// Neighbour sets from undirected edges.
inline std::vector<std::set<int>> neighbours(std::size_t nv, const std::vector<std::vector<int>>& polys) {
  std::vector<std::set<int>> nb(nv);
  for (const auto& p : polys)
    for (std::size_t i = 0; i < p.size(); ++i) {
      const int a = p[i], b = p[(i + 1) % p.size()];
      nb[a].insert(b);
      nb[b].insert(a);
    }
  return nb;
}

inline std::vector<std::vector<int>> trianglesAsPolys(const ConvexHull& h) {
  std::vector<std::vector<int>> t;
  for (const auto& tr : h.triangles) t.push_back({tr[0], tr[1], tr[2]});
  return t;
}

// `adjacency` must list exactly the neighbours in `want`: for a polyhedron
// the edges of the triangles (merged-face diagonals included: hill climbing
// may use them), for a polygon its sides.
inline std::string adjacencyMatches(const ConvexHull& h, const std::vector<std::set<int>>& want, const char* what) {
  for (std::size_t i = 0; i < h.adjacency.size(); ++i) {
    std::set<int> got(h.adjacency[i].begin(), h.adjacency[i].end());
    if (got.size() != h.adjacency[i].size()) return "adjacency[" + std::to_string(i) + "] lists a vertex twice";
    if (got != want[i]) {
      std::ostringstream o;
      o << "adjacency[" << i << "] = {";
      for (int g : got) o << g << " ";
      o << "} but " << what << " give {";
      for (int g : want[i]) o << g << " ";
      o << "}";
      return o.str();
    }
  }
  return "";
}

inline std::string checkPolyhedron(const std::vector<Vec3>& pts, const ConvexHull& h) {
  const int nv = static_cast<int>(h.vertices.size());
  const double tau = h.tolerance;
  std::ostringstream o;
  o.precision(17);
  if (nv < 4) return "polyhedron with " + std::to_string(nv) + " vertices";
  if (h.normal != Vec3{0, 0, 0}) return "polyhedron with a non-zero `normal`";
  if (h.triangles.empty() || h.faces.empty()) return "polyhedron without triangles or faces";
  for (const auto& t : h.triangles)
    for (int k = 0; k < 3; ++k)
      if (t[k] < 0 || t[k] >= nv || t[k] == t[(k + 1) % 3]) return "triangle with a bad or repeated index";
  const auto tris = trianglesAsPolys(h);
  long edges = 0;
  std::string e = closedOriented(tris, "triangles", &edges);
  if (!e.empty()) return e;
  std::vector<char> used(nv, 0);
  for (const auto& t : h.triangles) used[t[0]] = used[t[1]] = used[t[2]] = 1;
  for (int i = 0; i < nv; ++i)
    if (!used[i]) return "vertex " + std::to_string(i) + " is on no triangle";
  const long F = static_cast<long>(h.triangles.size());
  if (nv - edges + F != 2) {
    o << "Euler on triangles: V − E + F = " << nv << " − " << edges << " + " << F << " = " << nv - edges + F;
    return o.str();
  }
  e = adjacencyMatches(h, neighbours(nv, tris), "the triangles' edges");
  if (!e.empty()) return e;

  Vec3 c{0, 0, 0};
  for (const Vec3& v : h.vertices) c += v;
  c = c / static_cast<double>(nv);
  for (std::size_t t = 0; t < h.triangles.size(); ++t) {
    const Vec3 &a = h.vertices[h.triangles[t][0]], &b = h.vertices[h.triangles[t][1]], &d = h.vertices[h.triangles[t][2]];
    const Vec3 n = hullref::unitCross(a, b, d);
    if (!(dot3(n, c - a) < 0)) {
      o << "triangle " << t << " is not outward (the vertex centroid is not below its plane)";
      return o.str();
    }
  }

  // Faces: valid, planar, outward, convex, closed; each an exact union of triangles.
  std::vector<Vec3> fn(h.faces.size()), fc(h.faces.size());
  std::vector<std::vector<int>> facesOfVertex(nv);
  for (std::size_t f = 0; f < h.faces.size(); ++f) {
    const auto& poly = h.faces[f];
    if (poly.size() < 3) return "face " + std::to_string(f) + " has fewer than 3 corners";
    std::set<int> u(poly.begin(), poly.end());
    if (u.size() != poly.size()) return "face " + std::to_string(f) + " repeats a corner";
    for (int i : poly) {
      if (i < 0 || i >= nv) return "face index out of range";
      facesOfVertex[i].push_back(static_cast<int>(f));
    }
    newell(h.vertices, poly, &fn[f], &fc[f]);
    if (fn[f] == Vec3{0, 0, 0}) return "face " + std::to_string(f) + " has zero area";
    if (!(planeDistance(fn[f], h.vertices[poly[0]], fc[f], c) < 0)) return "face " + std::to_string(f) + " is not outward";
    e = convexCcw(h.vertices, poly, fn[f]);
    if (!e.empty()) return "face " + std::to_string(f) + ": " + e;
  }
  long faceEdges = 0;
  e = closedOriented(h.faces, "faces", &faceEdges);
  if (!e.empty()) return e;
  const long FF = static_cast<long>(h.faces.size());
  if (nv - faceEdges + FF != 2) {
    o << "Euler on faces: V − E + F = " << nv << " − " << faceEdges << " + " << FF << " = " << nv - faceEdges + FF;
    return o.str();
  }
  // Triangles ↔ faces: each triangle's corners lie in exactly one face with
  // the same orientation; a convex k-gon with no interior vertex has k − 2.
  std::vector<int> perFace(h.faces.size(), 0);
  for (std::size_t t = 0; t < h.triangles.size(); ++t) {
    const auto& tr = h.triangles[t];
    int owner = -1, owners = 0;
    for (int f : facesOfVertex[tr[0]]) {
      const auto& poly = h.faces[f];
      if (std::find(poly.begin(), poly.end(), tr[1]) != poly.end() &&
          std::find(poly.begin(), poly.end(), tr[2]) != poly.end())
        owner = f, ++owners;
    }
    if (owners != 1) return "triangle " + std::to_string(t) + " lies in " + std::to_string(owners) + " faces";
    const Vec3 &a = h.vertices[tr[0]], &b = h.vertices[tr[1]], &d = h.vertices[tr[2]];
    if (!(dot3(cross3(b - a, d - a), fn[owner]) > 0)) return "triangle " + std::to_string(t) + " flipped in its face";
    ++perFace[owner];
  }
  for (std::size_t f = 0; f < h.faces.size(); ++f)
    if (perFace[f] != static_cast<int>(h.faces[f].size()) - 2) {
      o << "face " << f << " (" << h.faces[f].size() << " corners) is made of " << perFace[f] << " triangles";
      return o.str();
    }
  // Plane checks use each face's Newell plane (computed relative to a
  // corner, so no digits are lost far from the origin). Not the triangles'
  // planes: a sliver triangle of a merged face (three nearly collinear
  // corners) spans a plane tilted by the corners' rounding noise, which
  // would blame the hull for our choice of plane.
  const double round = 64 * hullref::kU * hullref::extentSum(pts);  // our rounding, ≪ τ
  for (std::size_t f = 0; f < h.faces.size(); ++f)
    for (int i : h.faces[f]) {
      const double off = std::fabs(planeDistance(fn[f], h.vertices[h.faces[f][0]], fc[f], h.vertices[i]));
      if (tau > 0) stats().planarityOverTol = std::max(stats().planarityOverTol, off / tau);
      if (off > kSlack * tau + round) {
        o << "face " << f << " not planar: corner " << i << " is " << off << " off its plane (τ = " << tau << ")";
        return o.str();
      }
    }
  // Adjacent faces facing the same side are not coplanar within τ/2 (else
  // they should have been merged): some corner of the neighbour is clearly
  // below the plane.
  std::map<std::pair<int, int>, int> faceOfEdge;
  for (std::size_t f = 0; f < h.faces.size(); ++f)
    for (std::size_t i = 0; i < h.faces[f].size(); ++i)
      faceOfEdge[{h.faces[f][i], h.faces[f][(i + 1) % h.faces[f].size()]}] = static_cast<int>(f);
  // Symmetric, like the library's own merge rule: each face within τ/2 of
  // the other's plane.
  auto deepestBelow = [&](int f, int g) {
    double deepest = 0;
    for (int i : h.faces[g])
      deepest = std::min(deepest, planeDistance(fn[f], h.vertices[h.faces[f][0]], fc[f], h.vertices[i]));
    return deepest;
  };
  for (const auto& [edge, f] : faceOfEdge) {
    const int g = faceOfEdge.at({edge.second, edge.first});
    // Faces facing apart (a fin thinner than τ/2 whose two sides meet at a
    // sharp edge) lie within τ/2 of each other's planes too, but no merge
    // could make them one face: their union folds over itself.
    if (!(dot3(fn[f], fn[g]) > 0)) continue;
    if (!(deepestBelow(f, g) < -0.5 * tau) && !(deepestBelow(g, f) < -0.5 * tau)) {
      o << "faces " << f << " and " << g << " are coplanar within τ/2 but not merged";
      return o.str();
    }
  }
  // Every input point inside or on every face plane.
  for (std::size_t f = 0; f < h.faces.size(); ++f)
    for (std::size_t p = 0; p < pts.size(); ++p) {
      const double d = planeDistance(fn[f], h.vertices[h.faces[f][0]], fc[f], pts[p]);
      if (tau > 0) stats().insideOverTol = std::max(stats().insideOverTol, d / tau);
      if (d > kSlack * tau + round) {
        o << "input point " << p << " is " << d << " above face " << f << " (τ = " << tau << ")";
        return o.str();
      }
    }
  return "";
}

inline std::string checkPolygon(const std::vector<Vec3>& pts, const ConvexHull& h) {
  const int nv = static_cast<int>(h.vertices.size());
  const double tau = h.tolerance;
  const double round = 64 * 2.2e-16 * hullref::extentSum(pts);
  std::ostringstream o;
  o.precision(17);
  if (nv < 3) return "polygon with " + std::to_string(nv) + " vertices";
  if (std::fabs(norm(h.normal) - 1) > 1e-12) return "polygon normal is not unit";
  const Vec3 n = h.normal;
  const Vec3& v0 = h.vertices[0];
  Vec3 c{0, 0, 0};  // vertex centroid, relative to vertex 0
  for (const Vec3& v : h.vertices) c += v - v0;
  c = c / static_cast<double>(nv);
  for (std::size_t p = 0; p < pts.size(); ++p) {
    const double off = std::fabs(planeDistance(n, v0, c, pts[p]));
    if (tau > 0) stats().planarityOverTol = std::max(stats().planarityOverTol, off / tau);
    if (off > kSlack * tau + round) {
      o << "input point " << p << " is " << off << " off the polygon's plane (τ = " << tau << ")";
      return o.str();
    }
  }
  if (h.faces.size() != 1) return "polygon hull with " + std::to_string(h.faces.size()) + " faces (want 1)";
  const auto& poly = h.faces[0];
  if (static_cast<int>(poly.size()) != nv) return "the polygon face does not use every vertex";
  std::set<int> u(poly.begin(), poly.end());
  if (static_cast<int>(u.size()) != nv || *u.begin() != 0 || *u.rbegin() != nv - 1) return "polygon face is not a permutation of the vertices";
  std::string e = convexCcw(h.vertices, poly, n);
  if (!e.empty()) return "polygon (CCW around normal): " + e;
  // The triangles: a triangulation of the polygon, each CCW around n.
  if (static_cast<int>(h.triangles.size()) != nv - 2) return "polygon fanned into " + std::to_string(h.triangles.size()) + " triangles";
  for (const auto& t : h.triangles) {
    for (int k = 0; k < 3; ++k)
      if (t[k] < 0 || t[k] >= nv || t[k] == t[(k + 1) % 3]) return "triangle with a bad or repeated index";
    const Vec3 &a = h.vertices[t[0]], &b = h.vertices[t[1]], &d = h.vertices[t[2]];
    if (!(dot3(cross3(b - a, d - a), n) > 0)) return "polygon triangle not CCW around normal";
  }
  const auto de = directedEdges(trianglesAsPolys(h));
  std::vector<std::pair<int, int>> boundary;
  for (const auto& d : de)
    if (!std::binary_search(de.begin(), de.end(), std::make_pair(d.second, d.first))) boundary.push_back(d);
  const auto want = directedEdges({poly});
  if (boundary != want) return "the triangles' boundary is not the polygon";
  // A polygon's hull edges are its sides (the fan's diagonals are not).
  e = adjacencyMatches(h, neighbours(nv, {poly}), "the polygon's sides");
  if (!e.empty()) return e;
  // In-plane containment: each edge's outward normal (b − a) × n.
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const Vec3& a = h.vertices[poly[i]];
    const Vec3& b = h.vertices[poly[(i + 1) % poly.size()]];
    const Vec3 m = ref::unit(cross3(b - a, n));
    for (std::size_t p = 0; p < pts.size(); ++p) {
      const double d = dot3(m, pts[p] - a);
      if (tau > 0) stats().insideOverTol = std::max(stats().insideOverTol, d / tau);
      if (d > kSlack * tau + round) {
        o << "input point " << p << " is " << d << " outside polygon edge " << i << " (τ = " << tau << ")";
        return o.str();
      }
    }
  }
  return "";
}

inline std::string checkSegment(const std::vector<Vec3>& pts, const ConvexHull& h) {
  if (h.vertices.size() != 2) return "segment with " + std::to_string(h.vertices.size()) + " vertices";
  if (!h.triangles.empty() || !h.faces.empty()) return "segment with triangles or faces";
  if (h.adjacency.size() != 2 || h.adjacency[0] != std::vector<int>{1} || h.adjacency[1] != std::vector<int>{0})
    return "segment adjacency is not {{1},{0}}";
  const double round = 64 * 2.2e-16 * hullref::extentSum(pts);
  for (std::size_t p = 0; p < pts.size(); ++p) {
    const double d = ref::pointSegmentDistance(pts[p], h.vertices[0], h.vertices[1]);
    if (h.tolerance > 0) stats().insideOverTol = std::max(stats().insideOverTol, d / h.tolerance);
    if (d > kSlack * h.tolerance + round) {
      std::ostringstream o;
      o << "input point " << p << " is " << d << " from the segment (τ = " << h.tolerance << ")";
      return o.str();
    }
  }
  return "";
}

inline std::string checkPoint(const std::vector<Vec3>& pts, const ConvexHull& h) {
  if (h.vertices.size() != 1) return "point hull with " + std::to_string(h.vertices.size()) + " vertices";
  if (!h.triangles.empty() || !h.faces.empty()) return "point hull with triangles or faces";
  if (h.adjacency.size() != 1 || !h.adjacency[0].empty()) return "point hull adjacency is not {{}}";
  for (std::size_t p = 0; p < pts.size(); ++p) {
    const double d = norm(pts[p] - h.vertices[0]);
    if (d > kSlack * h.tolerance) {
      std::ostringstream o;
      o << "input point " << p << " is " << d << " from the point hull (τ = " << h.tolerance << ")";
      return o.str();
    }
  }
  return "";
}

// All invariants of one hull of `pts`. "" when it holds.
inline std::string check(const std::vector<Vec3>& pts, const ConvexHull& h) {
  ++stats().hulls;
  const int n = static_cast<int>(pts.size());
  const int nv = static_cast<int>(h.vertices.size());
  const double S = hullref::coordScale(pts);
  std::ostringstream o;
  o.precision(17);
  if (!std::isfinite(h.tolerance) || h.tolerance < 0 || h.tolerance > 1e-9 * S || (S > 0 && !(h.tolerance > 0))) {
    o << "tolerance " << h.tolerance << " for coordinate scale " << S << " (want 0 < τ ≤ 1e-9·S)";
    return o.str();
  }
  if (static_cast<int>(h.inputIndex.size()) != nv) return "inputIndex and vertices differ in size";
  if (static_cast<int>(h.adjacency.size()) != nv) return "adjacency and vertices differ in size";
  for (int i = 0; i < nv; ++i) {
    const int k = h.inputIndex[i];
    if (k < 0 || k >= n) return "inputIndex out of range";
    if (!(h.vertices[i] == pts[k])) return "vertices[" + std::to_string(i) + "] != input[inputIndex[" + std::to_string(i) + "]]";
  }
  // No two vertices at the same place (duplicates collapse to one vertex).
  std::vector<Vec3> sv = h.vertices;
  std::sort(sv.begin(), sv.end(), [](const Vec3& a, const Vec3& b) { return a.x < b.x; });
  for (std::size_t i = 0; i < sv.size(); ++i)
    for (std::size_t j = i + 1; j < sv.size() && sv[j].x - sv[i].x <= h.tolerance; ++j)
      if (norm(sv[j] - sv[i]) <= h.tolerance) {
        o << "two hull vertices within τ of each other at " << sv[i].x << ", " << sv[i].y << ", " << sv[i].z;
        return o.str();
      }
  for (int i = 0; i < nv; ++i)
    for (int j : h.adjacency[i]) {
      if (j < 0 || j >= nv || j == i) return "adjacency index out of range or a self loop";
      if (std::find(h.adjacency[j].begin(), h.adjacency[j].end(), i) == h.adjacency[j].end())
        return "adjacency not symmetric";
    }
  if (h.kind != HullKind::Polygon && h.normal != Vec3{0, 0, 0}) return "non-polygon hull with a non-zero normal";
  switch (h.kind) {
    case HullKind::Point: return checkPoint(pts, h);
    case HullKind::Segment: return checkSegment(pts, h);
    case HullKind::Polygon: return checkPolygon(pts, h);
    case HullKind::Polyhedron: return checkPolyhedron(pts, h);
  }
  return "unknown kind";
}

// Hull vertices against the brute-force extreme points, as a sandwich:
// ext(tHi) ⊆ hull ⊆ ext(tLo) with tLo = τ/8, tHi = 8τ (larger tolerance,
// fewer extreme points). The library's "within τ counts as on" and our
// facet-based test measure distances to slightly different planes, so only
// points within a factor 8 of τ may legitimately go either way; when the two
// brute-force sets agree (the cloud is unambiguous, the usual case) this is
// equality. The kind must be the dimension at tHi or at tLo.
struct BruteResult {
  std::string error;
  bool ambiguous = false;  // ext(tLo) != ext(tHi) or the dimensions differ
};
// Distance from p to the library's hull (the solid: its triangles for a
// polyhedron, the polygon's fan, the segment or the point), measured from
// vertex 0 so that nothing is lost far from the origin. For a polyhedron,
// 0 when p is inside every triangle's plane.
inline double distanceToHull(const ConvexHull& h, const Vec3& p) {
  const Vec3 o = h.vertices[0];
  const Vec3 q = p - o;
  auto at = [&](int i) { return h.vertices[static_cast<std::size_t>(i)] - o; };
  if (h.kind == HullKind::Point) return norm(q);
  if (h.kind == HullKind::Segment) return ref::pointSegmentDistance(q, at(0), at(1));
  double best = std::numeric_limits<double>::infinity();
  bool inside = h.kind == HullKind::Polyhedron;
  for (const auto& t : h.triangles) {
    best = std::min(best, ref::pointTriangleDistance(q, at(t[0]), at(t[1]), at(t[2])));
    if (inside && dot3(cross3(at(t[1]) - at(t[0]), at(t[2]) - at(t[0])), q - at(t[0])) > 0) inside = false;
  }
  return inside ? 0.0 : best;
}

inline BruteResult compareWithBruteForce(const std::vector<Vec3>& pts, const ConvexHull& h) {
  BruteResult r;
  const std::vector<Vec3> d = hullref::distinct(pts);
  const double tLo = h.tolerance / 8, tHi = h.tolerance * 8, eps = hullref::inputUncertainty(d);
  int dimLo = 0, dimHi = 0;
  const std::vector<int> lo = hullref::extremePoints(d, tLo, eps, &dimLo);
  const std::vector<int> hi = hullref::extremePoints(d, tHi, eps, &dimHi);
  std::vector<Vec3> loPts, hiPts;
  for (int i : lo) loPts.push_back(d[i]);
  for (int i : hi) hiPts.push_back(d[i]);
  r.ambiguous = dimLo != dimHi || lo != hi;
  if (h.kind != kindOfDim(dimLo) && h.kind != kindOfDim(dimHi)) {
    r.error = std::string("kind ") + collidoscope::hullKindName(h.kind) + ", brute-force dimension " +
              std::to_string(dimLo) + (dimLo != dimHi ? " or " + std::to_string(dimHi) : std::string());
    return r;
  }
  std::ostringstream o;
  o.precision(17);
  for (const Vec3& v : h.vertices)
    if (std::find(loPts.begin(), loPts.end(), v) == loPts.end()) {
      o << "hull vertex [" << v.x << ", " << v.y << ", " << v.z << "] is not extreme (brute force, tolerance τ/8)";
      r.error = o.str();
      return r;
    }
  for (const Vec3& v : hiPts)
    if (std::find(h.vertices.begin(), h.vertices.end(), v) == h.vertices.end()) {
      // The facet-based brute force keeps one end of a run of points within
      // the tolerance of a line or plane; among nearly collinear points it
      // may keep another one than the library. A point within 8τ of the
      // library's hull, which is spanned by other points, is not 8τ away
      // from the hull of the others: not extreme at 8τ after all.
      const double d = distanceToHull(h, v);
      if (d <= tHi) {
        r.ambiguous = true;
        continue;
      }
      o << "extreme point [" << v.x << ", " << v.y << ", " << v.z << "] (brute force, tolerance 8τ) is not a hull vertex"
        << " and is " << d << " from the hull";
      r.error = o.str();
      return r;
    }
  return r;
}

}  // namespace hullcheck
#endif

// ---- Tolerant comparisons for nearly degenerate clouds (tests/fuzz/fuzz_hull.cpp, test_hull_degenerate.cpp)
namespace hullref {

using collidoscope::ConvexHull;

inline std::string pointText(double d) {
  std::ostringstream o;
  o.precision(17);
  o << d;
  return o.str();
}

inline std::string pointText(const Vec3& v) { return "[" + pointText(v.x) + ", " + pointText(v.y) + ", " + pointText(v.z) + "]"; }

// How far p lies outside the hull: the largest signed distance to a face
// plane (polyhedron; accurate normals, hullref::unitCross) or to the
// polygon's plane and side lines. A lower bound of the Euclidean distance
// (≥ it / √3), which is all a tolerance test needs; unlike
// hullcheck::distanceToHull's closest points on fan triangles it stays
// accurate on the slivers a 1e15-long polygon is made of.
inline double outsideHull(const ConvexHull& h, const Vec3& p) {
  const Vec3& o = h.vertices[0];
  switch (h.kind) {
    case collidoscope::HullKind::Point: return ref::dist(p, o);
    case collidoscope::HullKind::Segment: return ref::pointSegmentDistance(p, h.vertices[0], h.vertices[1]);
    case collidoscope::HullKind::Polygon: {
      double worst = std::fabs(ref::dot3(h.normal, p - o));
      const std::vector<int>& poly = h.faces[0];
      for (std::size_t i = 0; i < poly.size(); ++i) {
        const Vec3& a = h.vertices[static_cast<std::size_t>(poly[i])];
        const Vec3& b = h.vertices[static_cast<std::size_t>(poly[(i + 1) % poly.size()])];
        const Vec3 m = ref::unit(ref::cross3(b - a, h.normal));
        worst = std::fmax(worst, ref::dot3(m, p - a));
      }
      return worst;
    }
    case collidoscope::HullKind::Polyhedron: {
      double worst = -std::numeric_limits<double>::infinity();
      for (const auto& t : h.triangles) {
        const Vec3& a = h.vertices[static_cast<std::size_t>(t[0])];
        const Vec3 n = hullref::unitCross(a, h.vertices[static_cast<std::size_t>(t[1])], h.vertices[static_cast<std::size_t>(t[2])]);
        worst = std::fmax(worst, ref::dot3(n, p - a));
      }
      return worst;
    }
  }
  return 0;
}

// Hull vertices against brute-force extreme points, as
// hullcheck::compareWithBruteForce does — ext(8τ) ⊆ hull ⊆ ext(τ/8) — but
// with near-duplicates allowed for: of two input points closer than τ the
// library may keep either, while the brute force keeps the first; and with
// the dimension allowed anywhere between the two brute-force answers.
inline std::string bruteForceSandwich(const std::vector<Vec3>& pts, const ConvexHull& h) {
  const std::vector<Vec3> d = hullref::distinct(pts);
  const double tau = h.tolerance, tLo = tau / 8, tHi = tau * 8, eps = hullref::inputUncertainty(d);
  int dimLo = 0, dimHi = 0;
  const std::vector<int> lo = hullref::extremePoints(d, tLo, eps, &dimLo);
  const std::vector<int> hi = hullref::extremePoints(d, tHi, eps, &dimHi);
  // The dimension falls as the tolerance grows: the hull's (at τ) lies
  // between the brute force's at 8τ and at τ/8 (it can differ from both when
  // the cloud has structure at two scales: a long needle ending in a small
  // flat triangle).
  const int dim = static_cast<int>(h.kind);
  if (dim < dimHi || dim > dimLo)
    return std::string("kind ") + collidoscope::hullKindName(h.kind) + ", brute-force dimension " + std::to_string(dimLo) +
           " at τ/8 and " + std::to_string(dimHi) + " at 8τ";
  // At τ/8, points that are not vertices of the exact hull but lie within
  // τ/8 of its surface count as extreme, and the hull, whose vertices are
  // input points, may use other points within the tolerance to stand for
  // the same corner: a cluster between two arms of a needle that reach
  // beyond it, or a run of nearly collinear points where a needle's long
  // edges meet at a tiny angle. Any of those keeps the hull within τ. So a
  // vertex that no extreme point is near must at least be extreme at τ/8
  // among the hull's own vertices (not within τ/8 of the hull of the
  // others); with every point inside every face plane within 2τ (check()),
  // that leaves no vertex that should have gone.
  std::vector<Vec3> own(h.vertices.begin(), h.vertices.end());
  std::vector<int> ownExtreme;
  bool ownDone = false;
  for (std::size_t k = 0; k < h.vertices.size(); ++k) {
    const Vec3& v = h.vertices[k];
    bool found = false;
    for (int i : lo) found = found || ref::dist(d[static_cast<std::size_t>(i)], v) <= 2 * tau;
    if (!found) {
      if (!ownDone) ownExtreme = hullref::extremePoints(own, tLo, eps), ownDone = true;
      found = std::find(ownExtreme.begin(), ownExtreme.end(), static_cast<int>(k)) != ownExtreme.end();
    }
    if (!found) return "hull vertex " + pointText(v) + " is not extreme (brute force, tolerance τ/8)";
  }
  for (int i : hi) {
    const Vec3& v = d[static_cast<std::size_t>(i)];
    bool kept = false;
    for (const Vec3& w : h.vertices) kept = kept || ref::dist(w, v) <= 2 * tau;
    if (kept) continue;
    const double off = outsideHull(h, v);
    if (off > tHi) return "extreme point " + pointText(v) + " (brute force, tolerance 8τ) is not a hull vertex and is " +
                          pointText(off) + " from the hull";
  }
  return "";
}

}  // namespace hullref
