// collidoscope — contains and project (point_query.h).
#include "collidoscope/point_query.h"

#include <cmath>

#include "collidoscope/closed_form.h"
#include "collidoscope/plane.h"
#include "collidoscope/support.h"

namespace collidoscope {

ContainsResult containsPoint(const Shape& s, const Vec3& p, const GjkSettings& settings) {
  if (s.type == ShapeType::Plane) {
    const HalfSpace h = worldHalfSpace(s);
    ContainsResult out;
    out.inside = dot(h.normal, p) - h.offset <= 0;
    return out;
  }
  const Shape q = pointShape(p);
  IntersectResult r;
  if (!closedIntersect(s, q, &r)) r = gjkIntersect(PosedShape(s), PosedShape(q), settings);
  ContainsResult out;
  out.inside = r.intersecting;
  out.iterations = r.iterations;
  out.status = r.status;
  return out;
}

namespace {

// A point inside the core of a cylinder or a cone, in its frame: the
// nearest point of the full shape's surface. Both are solids of revolution
// about y, so the nearest boundary point lies in the meridian half-plane
// (ρ, y) of the point, where the core is a rectangle (cylinder) or a
// triangle (cone) and the point is inside: its nearest boundary point is
// the foot on the nearest side's line (for a point inside a convex polygon
// that foot lies on the side). The margin m moves that surface out by m
// along the side's normal. False when q is outside the core: GJK, whose
// closest points on curved cores are exact to the tolerance, answers then.
// (EPA on a curved core converges only to ~1e-6 in the point.)
bool insideRevolved(const Shape& s, const Vec3& q, Vec3* local, double* depth) {
  const double h = s.halfHeight, r = s.radius, m = s.margin;
  const double rho = std::sqrt(q.x * q.x + q.z * q.z);
  // The radial unit vector; any one on the axis (ties choose +x).
  const double ux = rho > 0 ? q.x / rho : 1, uz = rho > 0 ? q.z / rho : 0;
  const double toBase = q.y + h;  // ≥ 0 inside
  if (s.type == ShapeType::Cylinder) {
    const double toSide = r - rho, toTop = h - q.y;
    if (!(toSide >= 0 && toTop >= 0 && toBase >= 0)) return false;
    if (toSide <= toTop && toSide <= toBase) {
      *depth = toSide + m;
      *local = {ux * (r + m), q.y, uz * (r + m)};
    } else if (toTop <= toBase) {
      *depth = toTop + m;
      *local = {q.x, h + m, q.z};
    } else {
      *depth = toBase + m;
      *local = {q.x, -h - m, q.z};
    }
    return true;
  }
  // Cone: apex (0, h), rim (r, −h). The slant side is 2h·ρ + r·y = r·h with
  // outward normal (2h, r)/L, L = √(4h² + r²).
  const double len = std::sqrt(4 * h * h + r * r);
  if (!(len > 0)) return false;
  const double nr = 2 * h / len, ny = r / len;
  const double toSlant = (r * h - 2 * h * rho - r * q.y) / len;
  if (!(toSlant >= 0 && toBase >= 0)) return false;
  if (toSlant <= toBase) {
    *depth = toSlant + m;
    const double fr = rho + (toSlant + m) * nr, fy = q.y + (toSlant + m) * ny;
    *local = {ux * fr, fy, uz * fr};
  } else {
    *depth = toBase + m;
    *local = {q.x, -h - m, q.z};
  }
  return true;
}

}  // namespace

ProjectResult projectPoint(const Shape& s, const Vec3& p, const GjkSettings& gjkSettings,
                           const EpaSettings& epaSettings) {
  if (s.type == ShapeType::Plane) {
    // The foot of p on the surface, from either side.
    const HalfSpace h = worldHalfSpace(s);
    const double above = dot(h.normal, p) - h.offset;
    ProjectResult out;
    out.point = p - h.normal * above;
    out.distance = std::fabs(above);
    out.inside = above <= 0;
    return out;
  }
  if ((s.type == ShapeType::Cylinder || s.type == ShapeType::Cone) && isUnscaled(s)) {
    const Vec3 q = s.pose.toLocalDirection(p - s.pose.position);
    Vec3 local;
    double depth = 0;
    if (insideRevolved(s, q, &local, &depth)) {
      ProjectResult out;
      out.point = s.pose.apply(local);
      out.distance = depth;
      out.inside = true;
      return out;
    }
  }
  const Shape q = pointShape(p);
  PenetrationResult r;
  if (!closedPenetration(s, q, &r)) r = penetration(PosedShape(s), PosedShape(q), gjkSettings, epaSettings);
  ProjectResult out;
  // pointB is p itself (a point shape's only point) in both cases: apart,
  // pointA is A's point nearest p; overlapping, pointA = p + depth·normal
  // is where the minimum translation takes p out of A, on A's surface.
  out.point = r.pointA;
  out.inside = r.intersecting;
  out.distance = r.intersecting ? r.depth : length(r.pointA - p);
  out.iterations = r.iterations;
  out.status = r.status;
  return out;
}

}  // namespace collidoscope
