// collidoscope — point queries on one convex shape: does it contain a
// point, and which point of its surface is nearest.
//
// Both are the pair queries with a point for B, so they inherit the
// accuracy and the closed forms of those (closed_form.h for points,
// spheres, capsules, segments and boxes; GJK and EPA otherwise):
//   contains   gjkIntersect(A, {p}): p lies in the solid A, its boundary
//              included (a point on the surface counts as inside, within
//              GJK's rounding bound);
//   project    p outside A: the closest point of A is GJK's closest point
//              on A and the distance GJK's distance;
//              p inside A: the nearest point of A's *surface* is the
//              penetration of {p} into A: moving p by depth·normal takes
//              it out, so pointA = p + depth·normal is on the surface and
//              the distance to it is the depth (the penetration depth of a
//              point is its distance to the boundary of a convex set).
// Neither allocates on the heap.
#pragma once

#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/math.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

struct ContainsResult {
  bool inside = false;  // true also on the boundary
  int iterations = 0;   // GJK iterations (0 for a closed form)
  GjkStatus status = GjkStatus::Converged;
};

struct ProjectResult {
  Vec3 point;           // the point of A's surface nearest the query point
  double distance = 0;  // |point − query point|, whether inside or not
  bool inside = false;  // the query point lies in A (boundary included)
  int iterations = 0;   // EPA iterations when inside, else 0
  EpaStatus status = EpaStatus::Converged;
};

// A point as a shape at p (for the pair queries). Allocates nothing.
inline Shape pointShape(const Vec3& p) {
  Shape s;
  s.pose.position = p;
  return s;
}

// s (with its pose) and a world point p.
ContainsResult containsPoint(const Shape& s, const Vec3& p, const GjkSettings& settings = GjkSettings{});
ProjectResult projectPoint(const Shape& s, const Vec3& p, const GjkSettings& gjkSettings = GjkSettings{},
                           const EpaSettings& epaSettings = EpaSettings{});

}  // namespace collidoscope
