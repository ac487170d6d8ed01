// collidoscope — the plane: a half-space {x : n·x ≤ d} in the shape's frame
// (scene format: "normal": [x, y, z], "offset": d), for floors and walls.
//
// A half-space is convex but unbounded: its support value is infinite in
// every direction but n, so GJK and EPA cannot run on it. Every pair query
// with a plane has a closed form instead. In world space the plane is
// H = {x : n·x ≤ d} with n unit (the pose rotates n; d grows by n·position;
// a margin m moves the surface out: d + m). For a convex shape C (core
// plus radius r):
//
//   s = the deepest point of C below the surface = s_C(−n), the core's
//       support along −n moved by r along −n (exact: the full shape's
//       support is core support + r·d̂);
//   h = n·s − d, the signed height of that point over the surface.
//
// C lies entirely in {n·x ≥ n·s}, and s is in C, so
//   intersect    h ≤ 0 (touching counts);
//   distance     max(h, 0), closest points s − h·n (on the surface) and s;
//                overlapping: 0, both points s (s is in H and in C);
//   penetration  depth max(−h, 0): translating C by −h along n is the
//                shortest move that lifts s, hence all of C, out of H (any
//                shorter move along a unit u leaves the point of C extreme
//                along −n inside, since moving along u changes n·s by at
//                most |n·u|·t ≤ t). Normal n when the plane is A (move B
//                along +n), −n when the plane is B; the points s + depth·n
//                (on the surface) and s.
//
// Two planes: half-spaces with normals not exactly opposite always overlap
// (their intersection is unbounded), with an unbounded penetration depth;
// opposite normals (n_B = −n_A to rounding, kOppositeNormals) are apart by
// −(d_A + d_B) when that is positive, else overlap by d_A + d_B.
#pragma once

#include "collidoscope/contact.h"
#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/math.h"
#include "collidoscope/raycast.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

// A plane in world space: {x : normal·x ≤ offset}, normal unit.
struct HalfSpace {
  Vec3 normal{0, 1, 0};
  double offset = 0;
  // A point of the surface: the one nearest the origin.
  Vec3 surfacePoint() const { return normal * offset; }
};

// The world half-space of a plane shape (its pose and margin applied).
HalfSpace worldHalfSpace(const Shape& s);

// Normals this close to opposite (|n_A + n_B| ≤ this, both unit) count as
// opposite: rotating a unit normal by a quaternion rounds each component by
// a few ulps, so an exact opposite written in a scene stays within 1e-15
// after the pose; 1e-12 leaves room for that and nothing geometric.
constexpr double kOppositeNormals = 1e-12;

// Why a plane pair has no answer.
enum class PlaneStatus {
  Ok,
  Unbounded,  // penetration of two planes whose normals are not opposite
};

// The pair queries when a or b (or both) is a plane. Other shapes are
// convex shapes of any type.
IntersectResult planeIntersect(const Shape& a, const Shape& b);
DistanceResult planeDistance(const Shape& a, const Shape& b);
PlaneStatus planePenetration(const Shape& a, const Shape& b, PenetrationResult* out);
// contact() (contact.h) from the penetration: signed distance, normal from
// A to B, points; contact when the signed distance is at most margin.
PlaneStatus planeContact(const Shape& a, const Shape& b, double margin, ContactResult* out);

// A ray against a plane: t = 0 when the origin is in the half-space
// (startedInside), else the crossing of the surface when the ray heads
// into it within maxT; the normal is the plane's.
RayCastResult planeRayCast(const Shape& plane, const Vec3& origin, const Vec3& direction, double maxT);

}  // namespace collidoscope
