// collidoscope — GJK's simplex and its distance sub-algorithm.
//
// Given a simplex Y = {y_0 .. y_{n-1}} (n ≤ 4 points of A − B), the
// sub-algorithm finds v = the point of conv(Y) closest to the origin, the
// smallest X ⊆ Y with v ∈ conv(X), and barycentric weights λ with v = Σ λ_i
// x_i, λ_i > 0, Σ λ_i = 1. The same λ applied to the points a_i on A and b_i
// on B that produced each y_i = a_i − b_i give GJK's closest points.
//
// Method: signed volumes (Montanari, Petrinic, Barbieri, "Improving the GJK
// algorithm for faster and more reliable distance queries between convex
// objects", ACM TOG 2017), rather than Johnson's sub-algorithm of the
// original GJK paper (E. G. Gilbert, D. W. Johnson, S. S. Keerthi, "A fast
// procedure for computing the distance between complex objects in
// three-dimensional space", IEEE J. Robotics and Automation, 1988), which
// solves the same problem through the cofactors Δ_i(X) of every subset X and
// is known to lose the correct subset when the simplex is nearly degenerate.
// Here each face is tested once:
//
//   tetrahedron  The origin's barycentric coordinates are C_j / D, where C_j
//                is the signed volume of the tetrahedron with y_j replaced by
//                the origin and D = Σ C_j the tetrahedron's own signed volume.
//                All C_j of D's sign: the origin is inside (A and B overlap).
//                Otherwise the closest point lies on a face opposite a vertex
//                whose C_j has the other sign; each such face is solved as a
//                triangle and the nearest result wins.
//   triangle     With n = (y1 − y0) × (y2 − y0), the barycentric coordinates
//                of the origin's projection onto the plane are
//                n·(y1 × y2), n·(y2 × y0), n·(y0 × y1), divided by n·n (the
//                projection along n does not change these triple products).
//                Same sign test, recursing into edges; a coordinate
//                negative by less than its rounding counts as 0.
//   segment      t = −y0·(y1 − y0)/|y1 − y0|², clamped to a vertex when
//                t ≤ 0 or t ≥ 1; v made perpendicular to the segment.
//
// Departure from the paper: where a simplex is flat within rounding
// (|D| or |n| tiny relative to its edge lengths, kFlatSine below) it is
// not trusted to classify the origin; its faces are solved instead. That can
// only move the answer to the boundary, never produce a point outside
// conv(Y), so the result stays an upper bound on the distance.
//
// All storage is fixed-size; nothing here allocates.
#pragma once

#include <cmath>
#include <limits>

#include "collidoscope/math.h"

namespace collidoscope {

struct SimplexVertex {
  Vec3 w;  // a − b, a point of the Minkowski difference
  Vec3 a;  // support point on A
  Vec3 b;  // support point on B
};

struct Simplex {
  SimplexVertex vertex[4];
  double lambda[4] = {0, 0, 0, 0};
  int size = 0;

  // Closest points on A and on B: Σ λ_i a_i and Σ λ_i b_i.
  Vec3 pointA() const {
    Vec3 p;
    for (int i = 0; i < size; ++i) p += vertex[i].a * lambda[i];
    return p;
  }
  Vec3 pointB() const {
    Vec3 p;
    for (int i = 0; i < size; ++i) p += vertex[i].b * lambda[i];
    return p;
  }
  Vec3 point() const {
    Vec3 p;
    for (int i = 0; i < size; ++i) p += vertex[i].w * lambda[i];
    return p;
  }
  bool contains(const Vec3& w) const {
    for (int i = 0; i < size; ++i)
      if (vertex[i].w == w) return true;
    return false;
  }
};

// Lengths times g (tiny_scene.h: a scaled run mapped back).
inline void scaleLengths(SimplexVertex* v, double g) {
  v->w = v->w * g;
  v->a = v->a * g;
  v->b = v->b * g;
}

inline void scaleLengths(Simplex* s, double g) {
  for (int i = 0; i < s->size; ++i) scaleLengths(&s->vertex[i], g);
}

namespace detail {

// A simplex counts as flat when its measure (|n| of a triangle, |D| of a
// tetrahedron) is below kFlatSine (numeric.h) times the product of its edge
// lengths.

// Result of a sub-simplex solve: the kept vertex indices and their weights.
struct SubSolution {
  int index[4];
  double lambda[4];
  int size = 0;
  Vec3 v;
  double vv = 0;
};

inline SubSolution vertexSolution(const Vec3* y, int i) {
  SubSolution s;
  s.index[0] = i;
  s.lambda[0] = 1;
  s.size = 1;
  s.v = y[i];
  s.vv = dot(s.v, s.v);
  return s;
}

inline SubSolution solveSegment(const Vec3* y, int i, int j) {
  const Vec3 e = y[j] - y[i];
  const double ee = dot(e, e);
  if (!(ee > 0)) return vertexSolution(y, j);  // coincident: keep the newer point
  const double t = -dot(y[i], e) / ee;
  if (t <= 0) return vertexSolution(y, i);
  if (t >= 1) return vertexSolution(y, j);
  SubSolution s;
  s.index[0] = i;
  s.index[1] = j;
  s.lambda[0] = 1 - t;
  s.lambda[1] = t;
  s.size = 2;
  // v is perpendicular to e. The sum y_i (1 − t) + y_j t is off by ~u·|y|
  // along e too, and near touching contact (‖v‖ ≪ |y|) GJK's next test,
  // v·w with w an end of the segment, multiplies that noise by the
  // segment's length: for a point 1.1e-8 from a segment 8 long it would
  // give v·w = −2.6e-15 against ‖v‖² = 1.3e-16, no separating axis, and
  // gjkIntersect would call them touching. Taking the part of the sum
  // along e away leaves v perpendicular to e to within rounding of ‖v‖
  // itself (the triangle's v comes from its normal for the same reason),
  // and moves it along the segment by no more than the sum's own rounding.
  s.v = y[i] * (1 - t) + y[j] * t;
  s.v -= e * (dot(s.v, e) / ee);
  s.vv = dot(s.v, s.v);
  return s;
}

inline void keepNearer(SubSolution* best, const SubSolution& candidate) {
  if (best->size == 0 || candidate.vv < best->vv) *best = candidate;
}

// The points of a simplex are rounded results (support points, x − p),
// each known to a few u·|y| only, so an edge about that short has a
// direction of pure noise. A triangle whose normal is below kRoundingBound·|y|max
// times its edge lengths (what such noise in one point can do to e1 × e2)
// is flat too, however wide its angles look: two support points a few
// u·|y| apart (the same rim point of a round shape, met again in the next
// step) and a third far away pass the angle test, yet their normal is
// noise, and weights from it can put the contact points a whole edge
// length apart.

// The weights of a triangle's interior point v (s->lambda, for corners
// i, j, k) must express it: the closest points Σ λ_m a_m and Σ λ_m b_m
// differ by Σ λ_m y_m, not by v. Their triple products carry an error of
// ~u·|n|·|y|², so on a needle far from the origin (1.7e6 long, 1.5e-6
// wide, coordinates 1e6) weights straight from them can miss v by several
// units, and put the contact points that far apart. Weights that miss by
// more than `bound` are corrected (twice at most) by least squares along
// the edges from the pivot, e1 = y_q − y_p and e2 = y_r − y_p, with the
// Gram determinant |e1|²|e2|² − (e1·e2)² = n·n; the correction's rounding
// is relative to the small miss. Returns false if a weight turns
// negative: v is then (within rounding) on the boundary, and the caller
// solves the edges. Well-conditioned triangles miss by rounding only and
// keep their weights bit for bit.
[[gnu::noinline]] inline bool refineTriangleWeights(const Vec3* y, const int* corner, int rot, const Vec3& e1,
                                                  const Vec3& e2,
                                  double nn, double bound, SubSolution* s) {
  // Weights in the pivot frame: p, q, r = corner[rot], corner[rot + 1], corner[rot + 2].
  double w[3];
  for (int m = 0; m < 3; ++m) w[m] = s->lambda[(rot + m) % 3];
  const double e11 = dot(e1, e1), e22 = dot(e2, e2), e12 = dot(e1, e2);
  for (int pass = 0; pass < 2; ++pass) {
    const Vec3 miss = y[corner[rot]] * w[0] + y[corner[(rot + 1) % 3]] * w[1] + y[corner[(rot + 2) % 3]] * w[2] - s->v;
    if (!(maxAbs(miss) > bound)) break;
    const double m1 = dot(e1, miss), m2 = dot(e2, miss);
    const double dq = (e12 * m2 - e22 * m1) / nn, dr = (e12 * m1 - e11 * m2) / nn;
    if (!std::isfinite(dq) || !std::isfinite(dr)) return false;
    w[1] += dq;
    w[2] += dr;
    w[0] = 1 - w[1] - w[2];
  }
  if (!(w[0] >= 0 && w[1] >= 0 && w[2] >= 0)) return false;
  for (int m = 0; m < 3; ++m) s->lambda[(rot + m) % 3] = w[m];
  return true;
}

// The normal n = (y_j − y_i) × (y_k − y_i) is the same from every corner
// (cyclically), but its rounding is not: the cross product's error is
// ~u·|e1||e2|, so it is taken at the corner opposite the longest edge,
// from the two shorter edges (identical bits when that corner is i). The
// worst case is a needle: on a triangle 1.7e6 long and 2.7e-5 wide, with
// the origin 3.4 from its long side, a normal from the two long edges can
// be tilted by ~5e-6 rad, and pivoting on a vertex 1e6 away that moves the
// plane by ~1, enough to put the origin's projection inside the triangle
// and make ‖v‖ wrong by that much.
// Out of line: it is called from every GJK loop, and inlining it into each
// would grow the wasm build by several KiB (the package size is tested).
[[gnu::noinline]] inline SubSolution solveTriangle(const Vec3* y, int i, int j, int k) {
  // Rotate the corners cyclically (the orientation, and so the signs of the
  // coordinates, stay) so that the longest edge is opposite the pivot p:
  // (p, q, r) = (i, j, k), (j, k, i) or (k, i, j).
  const double ljk = lengthSquared(y[k] - y[j]), lik = lengthSquared(y[k] - y[i]),
               lij = lengthSquared(y[j] - y[i]);
  const int rot = (lik > ljk && lik >= lij) ? 1 : (lij > ljk && lij > lik) ? 2 : 0;
  const int corner[3] = {i, j, k};
  const int p = corner[rot], q = corner[(rot + 1) % 3], r = corner[(rot + 2) % 3];
  const Vec3 e1 = y[q] - y[p];
  const Vec3 e2 = y[r] - y[p];
  const Vec3 n = cross(e1, e2);
  const double nn = dot(n, n);
  const double ee1 = dot(e1, e1), ee2 = dot(e2, e2);
  const double scale = ee1 * ee2;
  const double ymax = std::fmax(maxAbs(y[i]), std::fmax(maxAbs(y[j]), maxAbs(y[k])));
  const double noise = kRoundingBound * ymax * (std::sqrt(ee1) + std::sqrt(ee2));
  bool flat = !(nn > kFlatSine * kFlatSine * scale) || !(nn > noise * noise);
  double c[3] = {0, 0, 0};  // the coordinates of i, j, k
  if (!flat) {
    c[0] = dot(n, cross(y[j], y[k]));
    c[1] = dot(n, cross(y[k], y[i]));
    c[2] = dot(n, cross(y[i], y[j]));
    // A coordinate c_m ≤ 0 puts the projection outside the edge opposite
    // corner m, by −c_m/(|n|·|edge|). Within τ = kRoundingBound·|y|max of
    // it, the sign is rounding's: c_m carries an error of ~u·|n|·|y|²,
    // which on a wide triangle far from the origin is that distance. There
    // the projection counts as on the edge (weight 0) and v stays the
    // plane's point: the edge's v would be the previous step's again, and
    // GJK would stop for lack of progress. For a point 1.1e-6 above a disc
    // of radius 300, three rim points have the projection 3.8e-15 inside
    // their triangle, c of the newest corner can come out negative, and
    // gjkIntersect would call the two touching.
    const double edge[3] = {ljk, lik, lij};
    const double band = kRoundingBound * ymax * std::sqrt(nn);
    bool inside = true;
    for (int m = 0; m < 3 && inside; ++m) inside = c[m] > 0 || -c[m] <= band * std::sqrt(edge[m]);
    const double sum = std::fmax(c[0], 0.0) + std::fmax(c[1], 0.0) + std::fmax(c[2], 0.0);
    if (inside && sum > 0) {
      SubSolution s;
      s.index[0] = i;
      s.index[1] = j;
      s.index[2] = k;
      s.size = 3;
      for (int m = 0; m < 3; ++m) s.lambda[m] = std::fmax(c[m], 0.0) / sum;
      // v from the normal, not from Σ λ y: the sum carries an absolute
      // error of u·|y|, which near touching contact (‖v‖ ≪ |y|) swamps
      // v's direction, and with it the next support point. n is exact to
      // u·|e1||e2| per component, so v = n (n·y_p)/(n·n) keeps its
      // direction accurate relative to ‖v‖ itself.
      s.v = n * (dot(n, y[p]) / nn);
      s.vv = dot(s.v, s.v);
      if (refineTriangleWeights(y, corner, rot, e1, e2, nn, kRoundingBound * ymax, &s)) {
        // A corner of weight 0 (its coordinate within rounding of the
        // edge) is not kept: the sub-simplex holds only positive weights.
        int kept = 0;
        for (int m = 0; m < 3; ++m) {
          if (!(s.lambda[m] > 0)) continue;
          s.index[kept] = s.index[m];
          s.lambda[kept] = s.lambda[m];
          ++kept;
        }
        s.size = kept;
        return s;
      }
      flat = true;  // the weights put v on the boundary: all three edges
    }
  }
  // The origin projects outside the triangle (or it is flat): the nearest
  // point is on an edge opposite a vertex with a non-positive coordinate.
  SubSolution best;
  if (flat || c[0] <= 0) keepNearer(&best, solveSegment(y, j, k));
  if (flat || c[1] <= 0) keepNearer(&best, solveSegment(y, i, k));
  if (flat || c[2] <= 0) keepNearer(&best, solveSegment(y, i, j));
  return best;
}

inline double det3(const Vec3& a, const Vec3& b, const Vec3& c) { return dot(a, cross(b, c)); }

// The nearest point of the tetrahedron's boundary: its faces solved as
// triangles (the flat case below).
inline SubSolution solveTetrahedronFaces(const Vec3* y) {
  SubSolution best;
  keepNearer(&best, solveTriangle(y, 1, 2, 3));
  keepNearer(&best, solveTriangle(y, 0, 2, 3));
  keepNearer(&best, solveTriangle(y, 0, 1, 3));
  keepNearer(&best, solveTriangle(y, 0, 1, 2));
  return best;
}

inline SubSolution solveTetrahedron(const Vec3* y) {
  const Vec3 e1 = y[1] - y[0], e2 = y[2] - y[0], e3 = y[3] - y[0];
  const double C[4] = {det3(y[1], y[2], y[3]), -det3(y[0], y[2], y[3]), det3(y[0], y[1], y[3]),
                       -det3(y[0], y[1], y[2])};
  const double D = C[0] + C[1] + C[2] + C[3];
  const double scale = length(e1) * length(e2) * length(e3);
  const bool flat = !(std::fabs(D) > kFlatSine * scale);
  bool same[4] = {false, false, false, false};
  if (!flat) {
    for (int m = 0; m < 4; ++m) same[m] = D > 0 ? C[m] > 0 : C[m] < 0;
    if (same[0] && same[1] && same[2] && same[3]) {
      SubSolution s;
      s.size = 4;
      for (int m = 0; m < 4; ++m) {
        s.index[m] = m;
        s.lambda[m] = C[m] / D;
      }
      s.v = Vec3{};  // the origin lies inside: distance zero
      s.vv = 0;
      return s;
    }
  }
  SubSolution best;
  if (flat || !same[0]) keepNearer(&best, solveTriangle(y, 1, 2, 3));
  if (flat || !same[1]) keepNearer(&best, solveTriangle(y, 0, 2, 3));
  if (flat || !same[2]) keepNearer(&best, solveTriangle(y, 0, 1, 3));
  if (flat || !same[3]) keepNearer(&best, solveTriangle(y, 0, 1, 2));
  return best;
}

// Replaces s by the vertices sol keeps, with their weights.
inline void keepSolution(Simplex* s, const SubSolution& sol) {
  SimplexVertex kept[4];
  for (int m = 0; m < sol.size; ++m) kept[m] = s->vertex[sol.index[m]];
  for (int m = 0; m < sol.size; ++m) {
    s->vertex[m] = kept[m];
    s->lambda[m] = sol.lambda[m];
  }
  s->size = sol.size;
}

}  // namespace detail

// Replaces s by the smallest sub-simplex whose hull contains the point of
// conv(s) nearest the origin, sets the weights, and returns that point.
// Returns the origin (and keeps 4 vertices) when the tetrahedron contains it.
inline Vec3 reduceSimplex(Simplex* s) {
  Vec3 y[4];
  for (int i = 0; i < s->size; ++i) y[i] = s->vertex[i].w;
  detail::SubSolution sol;
  switch (s->size) {
    case 1:
      sol = detail::vertexSolution(y, 0);
      break;
    case 2:
      sol = detail::solveSegment(y, 0, 1);
      break;
    case 3:
      sol = detail::solveTriangle(y, 0, 1, 2);
      break;
    default:
      sol = detail::solveTetrahedron(y);
      break;
  }
  detail::keepSolution(s, sol);
  return sol.v;
}

// For a tetrahedron s (4 vertices) that is flat within rounding although
// the sign test called the origin inside (weightsExpressOrigin says no):
// the nearest point of its faces, as reduceSimplex gives for a flat one.
inline Vec3 reduceTetrahedronToFaces(Simplex* s) {
  Vec3 y[4];
  for (int i = 0; i < 4; ++i) y[i] = s->vertex[i].w;
  const detail::SubSolution sol = detail::solveTetrahedronFaces(y);
  detail::keepSolution(s, sol);
  return sol.v;
}

// Whether a tetrahedron s (4 vertices) that reduceSimplex kept — the sign
// test put the origin inside — has weights that express the origin:
// |Σ λ_i w_i| ≤ bound, the caller's bound for "touching" (rounding of its
// coordinates or its hit tolerance). The signed volumes are triple
// products of the w_i themselves, each off by a few u·|w|³, while the flat
// test above measures D against the edges; a tetrahedron thin relative to
// its size (three support points within 3e-5 of each other on a cylinder's
// rim, 8 from the origin, the fourth 16 away; or a box 2e6 long and 16
// wide against a cone) can pass that test with weights that miss the
// origin by far more than rounding, and the closest points Σ λ_i a_i and
// Σ λ_i b_i differ by exactly that miss. Weights that miss are refined
// once — the correction d solves [w_1 − w_0, w_2 − w_0, w_3 − w_0] d =
// −Σ λ_i w_i from the edges (Cramer), whose rounding is relative to the
// small right-hand side — negative ones clamped to 0, and then kept if
// they express the origin within the bound. Otherwise false: the tetrahedron is flat within
// rounding and the caller takes its faces (reduceTetrahedronToFaces).
// On a well-conditioned tetrahedron the first test passes and the weights
// are kept bit for bit.
inline bool weightsExpressOrigin(Simplex* s, double bound) {
  const double bb = bound * bound;
  Vec3 r = s->point();
  if (lengthSquared(r) <= bb) return true;
  const Vec3 e1 = s->vertex[1].w - s->vertex[0].w, e2 = s->vertex[2].w - s->vertex[0].w,
             e3 = s->vertex[3].w - s->vertex[0].w;
  const double D = detail::det3(e1, e2, e3);
  if (!(std::fabs(D) > 0)) return false;
  const double d1 = detail::det3(-r, e2, e3) / D, d2 = detail::det3(e1, -r, e3) / D,
               d3 = detail::det3(e1, e2, -r) / D;
  Simplex refined = *s;
  refined.lambda[1] += d1;
  refined.lambda[2] += d2;
  refined.lambda[3] += d3;
  refined.lambda[0] -= d1 + d2 + d3;
  // A weight that comes out negative puts the origin (just) outside: clamp
  // it, and keep the result only if it still expresses the origin within
  // the bound (the origin is then within the bound of the tetrahedron).
  double sum = 0;
  for (int i = 0; i < 4; ++i) {
    if (!(refined.lambda[i] >= 0)) refined.lambda[i] = 0;
    sum += refined.lambda[i];
  }
  if (!(sum > 0)) return false;
  for (int i = 0; i < 4; ++i) refined.lambda[i] /= sum;
  r = refined.point();
  if (!(lengthSquared(r) <= bb)) return false;
  *s = refined;
  return true;
}

// v on a segment s = {y0, y1}, re-solved perpendicular to it. v is
// y0 + t·e (e = y1 − y0), a sum of points as long as S whose result is
// only ‖v‖ long, so its component along e carries an error of ~u·S. Near
// touching contact (‖v‖ ≪ S) that tilts v off the perpendicular by
// ~u·S/‖v‖ rad, and v·w then differs between the two ends of e by that
// tilt times |e|: GJK's gap can stay above its tolerance with the next
// support point already in W. Removing v's component along e, computed
// from v itself (short, so with an error of ~u·‖v‖), leaves v
// perpendicular to e, the nearest point of e's line; t moves by the same
// amount. False, and nothing changed, when v does not move or the point
// would leave the segment.
[[gnu::noinline]] inline bool resolveOnEdge(Simplex* s, Vec3* v) {
  if (s->size != 2) return false;
  const Vec3 e = s->vertex[1].w - s->vertex[0].w;
  const double shift = dot(*v, e) / dot(e, e);
  const double t = s->lambda[1] - shift;
  const Vec3 next = *v - e * shift;
  if (!(t > 0 && t < 1) || next == *v) return false;
  s->lambda[0] = 1 - t;
  s->lambda[1] = t;
  *v = next;
  return true;
}

// GJK's update: W ← W ∪ {w}, then reduce (s must hold at most 3 vertices).
inline Vec3 addAndReduce(Simplex* s, const SimplexVertex& w) {
  s->vertex[s->size] = w;
  s->lambda[s->size] = 0;
  ++s->size;
  return reduceSimplex(s);
}

}  // namespace collidoscope
