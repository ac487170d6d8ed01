// collidoscope — the axis-aligned box: bounding volume of the broad phase
// (broadphase.h) and of the bounding-volume fits (obb.h).
//
// Boxes are closed: min ≤ x ≤ max on every axis, so boxes that share a face,
// an edge or a corner overlap, and a box of zero size (a point) is a box.
// Nothing here validates: callers pass finite boxes with min ≤ max.
#pragma once

#include "collidoscope/math.h"

namespace collidoscope {

struct Aabb {
  Vec3 min, max;
  double volume() const { return (max.x - min.x) * (max.y - min.y) * (max.z - min.z); }
};

// Closed intervals overlap on every axis (touching counts).
inline bool overlaps(const Aabb& a, const Aabb& b) {
  return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y &&
         a.min.z <= b.max.z && b.min.z <= a.max.z;
}

// b lies inside a (closed: a box contains itself).
inline bool contains(const Aabb& a, const Aabb& b) {
  return a.min.x <= b.min.x && a.min.y <= b.min.y && a.min.z <= b.min.z && b.max.x <= a.max.x &&
         b.max.y <= a.max.y && b.max.z <= a.max.z;
}

// Smallest box around both.
inline Aabb merged(const Aabb& a, const Aabb& b) {
  return {{a.min.x < b.min.x ? a.min.x : b.min.x, a.min.y < b.min.y ? a.min.y : b.min.y,
           a.min.z < b.min.z ? a.min.z : b.min.z},
          {a.max.x > b.max.x ? a.max.x : b.max.x, a.max.y > b.max.y ? a.max.y : b.max.y,
           a.max.z > b.max.z ? a.max.z : b.max.z}};
}

// The box grown by r ≥ 0 on every side.
inline Aabb grown(const Aabb& a, double r) { return {a.min - Vec3{r, r, r}, a.max + Vec3{r, r, r}}; }

// Surface area 2(xy + yz + zx): the expected cost of visiting a box is
// proportional to it for rays and boxes uniformly placed around it (the
// surface-area heuristic, Goldsmith & Salmon 1987; MacDonald & Booth 1990).
inline double surfaceArea(const Aabb& a) {
  const Vec3 d = a.max - a.min;
  return 2.0 * (d.x * d.y + d.y * d.z + d.z * d.x);
}

}  // namespace collidoscope
