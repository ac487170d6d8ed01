// collidoscope — triangles: an exact triangle–triangle intersection test, and
// the contact of a triangle with a convex shape (what a game needs to push a
// body out of level geometry, one triangle at a time).
//
// trianglesIntersect answers for the closed triangles, exactly: every
// decision is the sign of an orientation determinant (predicates.h,
// Shewchuk's adaptive predicates), so no tolerance is involved and the
// answer is that of exact arithmetic on the input doubles. Touching counts
// as intersecting: a shared vertex, a shared edge, a vertex on the other's
// edge or face, an edge crossing an edge, coplanar triangles whose
// boundaries meet. A degenerate triangle (collinear or repeated corners) is
// the segment or point it spans, and is tested as that.
//
// Input range: finite coordinates whose non-zero magnitudes lie within
// [2^-300, 2^300] (predicates.h: no product of differences underflows or
// overflows), after one rescaling: a pair whose largest coordinate is below
// 2^-200 is first scaled by a power of two to unit size, which is exact and
// changes no answer. The library's kMaxMagnitude = 1e15 is well inside.
// NaN input does not crash; its answer is unspecified — the scene parser and
// the object API reject it before any query.
#pragma once

#include "collidoscope/contact.h"
#include "collidoscope/math.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

// Whether the closed triangles (a0, a1, a2) and (b0, b1, b2) share a point.
//
// The general case is Guigue and Devillers' form of Möller's interval test
// (P. Guigue, O. Devillers, "Fast and Robust Triangle-Triangle Overlap Test
// Using Orientation Predicates", JGT 8(1), 2003; T. Möller, "A Fast
// Triangle-Triangle Intersection Test", JGT 2(2), 1997), with orient3d for
// every sign:
//
//   1. The signs of B's corners against A's plane, and of A's corners
//      against B's plane. All of one strict sign: apart (3 + 3 orient3d).
//   2. Otherwise, unless the triangles are coplanar or degenerate, each
//      triangle meets the line L = plane A ∩ plane B in a closed interval,
//      and the triangles meet iff the intervals overlap. Rename the corners
//      of A as (p1, q1, r1), keeping their cyclic order, so that p1 is
//      alone on its side of plane B (q1 and r1 on the other side or on the
//      plane; or p1 on the plane and q1, r1 strictly on one side); then
//      swap q2 and r2 if needed so that p1 is on the positive side of
//      (p2, q2, r2). Likewise B against A. With d = n1 × n2 (n the
//      corner-order normals), A's interval is [j, i] along d with i on edge
//      p1q1 and j on edge p1r1, B's is [k, l] with k on p2q2, l on p2r2, and
//          sign orient3d(p1, q1, p2, q2) = sign of (k − i)·d,
//          sign orient3d(p1, r1, p2, r2) = sign of (l − j)·d
//      (triangle.cpp derives both). Overlap iff k ≤ i and j ≤ l:
//          orient3d(p1, q1, p2, q2) ≤ 0  and  orient3d(p1, r1, r2, p2) ≤ 0,
//      two more determinants, 8 in all.
//   3. Coplanar triangles are decided in a coordinate plane onto which
//      their plane projects one to one: the plane of a coordinate pair whose
//      orient2d of A's projected corners is not 0 (exact), so the projection
//      keeps every incidence and orientation of the plane. There, two closed
//      triangles are apart iff an edge of one has all three corners of the
//      other strictly outside it (the separating axes of two convex
//      polygons are their edge normals), up to 18 orient2d.
//   4. Degenerate triangles: segment–triangle (the crossing point of the
//      segment's line with the plane lies in the triangle iff the three
//      orient3d(p, q, corner, next corner) have no two opposite strict
//      signs), segment–segment, point–segment and point–triangle, each with
//      orient3d, orient2d and coordinate comparisons only.
bool trianglesIntersect(const Vec3& a0, const Vec3& a1, const Vec3& a2, const Vec3& b0, const Vec3& b1,
                        const Vec3& b2);

// A triangle as GJK and EPA see it: three corners, no radius. Ties of the
// support go to the first corner, as a "triangle" Shape's do.
struct TriangleShape {
  Vec3 v[3];
  Vec3 support(const Vec3& d) const {
    int best = 0;
    double bestDot = dot(v[0], d);
    for (int i = 1; i < 3; ++i) {
      const double p = dot(v[i], d);
      if (p > bestDot) {
        bestDot = p;
        best = i;
      }
    }
    return v[best];
  }
  double radius() const { return 0; }
  Vec3 center() const { return (v[0] + v[1] + v[2]) / 3; }
};

// A Shape seen at a pose other than its own, without copying it: the same
// operations as PosedShape on the same shape with that pose (the same bits).
class ShapeAtPose {
 public:
  ShapeAtPose(const Shape& s, const Transform& pose) : shape_(&s), pose_(pose) {}
  Vec3 support(const Vec3& worldDir) const {
    return pose_.apply(localCoreSupport(*shape_, pose_.toLocalDirection(worldDir)));
  }
  double radius() const { return coreRadius(*shape_); }
  Vec3 center() const { return pose_.position; }

 private:
  const Shape* shape_;
  Transform pose_;
};

// contact.h's answer for the triangle (A) and a shape (B), and which rule
// made it.
struct TriangleContactResult : ContactResult {
  // The face rule answered (the normal is ±the face normal); otherwise the
  // general contact did (an edge or a corner of the triangle, or a
  // degenerate triangle).
  bool face = false;
};

// The face rule. Let n be the triangle's unit normal (corner order, right
// hand) and, for each side, the gap of the shape along it:
//     front = n·s₋ − n·t0,   s₋ the shape's deepest point along −n,
//     back  = n·t0 − n·s₊,   s₊ its deepest point along +n
// (support points with the radius added). The side with the larger gap is
// the one the shape is on, or mostly on; its normal N (+n on a tie) and
// gap d = max(front, back), and s = s₋ or s₊. When s projects into the
// closed triangle, the contact is
//     normal N,  distance d,  pointB = s,  pointA = s − d·N,
// and moving the shape by −d along N (when d < 0) leaves it on N's side of
// the plane, touching it: the push out of a floor along the floor's normal,
// even when a sideways push across an edge would be shorter. The rule
// applies to overlapping pairs, and to apart ones lying wholly on one side
// of the plane (d ≥ 0), where d is then the exact distance. The triangle is
// two-sided, as a mesh's rays are: a body under a floor is pushed down.
//
// Everything else — the deepest point projecting beside the triangle, an
// apart shape straddling the plane, a degenerate triangle — gets contact.h's
// answer on the triangle as a convex shape: GJK's closest points when apart,
// EPA's minimum translation when overlapping (its normal may cross an edge).
//
// Whether there is a contact at all is GJK's decision, as in contact(): the
// pair's distance ≤ margin (finite, ≥ 0; the caller checks). Nothing
// allocates. SB is any support type (PosedShape, ShapeAtPose, ...).
template <class SB>
TriangleContactResult triangleContact(const Vec3& t0, const Vec3& t1, const Vec3& t2, const SB& shape, double margin,
                                      const GjkSettings& gjkSettings = {}, const EpaSettings& epaSettings = {});

inline TriangleContactResult triangleContact(const Vec3& t0, const Vec3& t1, const Vec3& t2, const Shape& shape,
                                             const Transform& pose, double margin,
                                             const GjkSettings& gjkSettings = {},
                                             const EpaSettings& epaSettings = {}) {
  return triangleContact(t0, t1, t2, ShapeAtPose(shape, pose), margin, gjkSettings, epaSettings);
}

namespace triangle_detail {

// The triangle's unit normal (corner order), computed from its edges scaled
// by a power of two (exact) so that tiny and huge triangles keep full
// precision; false for a degenerate triangle (exactly collinear corners).
bool unitNormal(const Vec3& t0, const Vec3& t1, const Vec3& t2, Vec3* n);

// Whether x projects along n into the closed triangle (n its unit normal):
// x is on the inner side of, or on, every edge's plane through n.
bool projectsInside(const Vec3& t0, const Vec3& t1, const Vec3& t2, const Vec3& n, const Vec3& x);

}  // namespace triangle_detail

template <class SB>
TriangleContactResult triangleContact(const Vec3& t0, const Vec3& t1, const Vec3& t2, const SB& shape, double margin,
                                      const GjkSettings& gjkSettings, const EpaSettings& epaSettings) {
  TriangleContactResult out;
  const TriangleShape tri{{t0, t1, t2}};
  NoTrace none;
  const DistanceResult g = gjkDistanceWithin(tri, shape, margin, gjkSettings, none);
  Vec3 n;
  const bool within = !g.beyondMargin && (g.distance <= margin);
  if (within && triangle_detail::unitNormal(t0, t1, t2, &n)) {
    const double r = shape.radius();
    const Vec3 below = shape.support(-n) - n * r;
    const Vec3 above = shape.support(n) + n * r;
    const double plane = dot(n, t0);
    const double front = dot(n, below) - plane;
    const double back = plane - dot(n, above);
    const bool up = front >= back;
    const double d = up ? front : back;
    const Vec3 normal = up ? n : -n;
    const Vec3 s = up ? below : above;
    // Apart pairs take the face rule only when wholly on one side (d ≥ 0):
    // then d is their distance; a straddling shape beside the triangle is
    // closest to an edge, which GJK's points describe.
    if ((g.distance == 0 || d >= 0) && triangle_detail::projectsInside(t0, t1, t2, n, s)) {
      out.contact = true;
      out.face = true;
      out.distance = d;
      out.normal = normal;
      out.pointB = s;
      out.pointA = s - normal * d;
      out.iterations = g.iterations;
      out.status = epaStatusOf(g.status);
      return out;
    }
  }
  static_cast<ContactResult&>(out) = contactAfterGjk(tri, shape, g, margin, gjkSettings, epaSettings);
  return out;
}

}  // namespace collidoscope
