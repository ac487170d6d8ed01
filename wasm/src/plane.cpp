// collidoscope — the plane's closed forms (plane.h).
#include "collidoscope/plane.h"

#include <cmath>

#include "collidoscope/support.h"

namespace collidoscope {

namespace {

// The deepest point of a convex shape below a surface with unit normal n:
// its full support along −n (core support moved by the radius along −n).
Vec3 deepest(const Shape& c, const Vec3& n) {
  const PosedShape posed(c);
  return posed.support(-n) - n * posed.radius();
}

bool opposite(const HalfSpace& a, const HalfSpace& b) { return length(a.normal + b.normal) <= kOppositeNormals; }

// The plane and the other shape of a pair, with the plane's side: sign +1
// when the plane is A (results keep A and B as given).
struct PlanePair {
  const Shape* plane;
  const Shape* other;
  bool planeIsA;
};

PlanePair split(const Shape& a, const Shape& b) {
  if (a.type == ShapeType::Plane) return {&a, &b, true};
  return {&b, &a, false};
}

}  // namespace

HalfSpace worldHalfSpace(const Shape& s) {
  // n·x ≤ d with n scaled by 1/|n| keeps the same set when d is too. The
  // length is taken on n / max|n_i| so that tiny or huge normals neither
  // underflow nor overflow.
  // A scale S maps the normal n to S⁻¹n (n·x ≤ d for x = S⁻¹y).
  const Vec3 n = isUnscaled(s) ? s.normal
                               : Vec3{s.normal.x / s.scale.x, s.normal.y / s.scale.y, s.normal.z / s.scale.z};
  const double m = maxAbs(n);
  const Vec3 scaled = n / m;
  const double len = length(scaled);
  const Vec3 local = scaled / len;
  HalfSpace h;
  h.normal = s.pose.applyToDirection(local);
  h.offset = s.offset / m / len + s.margin + dot(h.normal, s.pose.position);
  return h;
}

IntersectResult planeIntersect(const Shape& a, const Shape& b) {
  IntersectResult r;
  const PlanePair p = split(a, b);
  const HalfSpace h = worldHalfSpace(*p.plane);
  if (p.other->type == ShapeType::Plane) {
    const HalfSpace g = worldHalfSpace(*p.other);
    r.intersecting = !opposite(h, g) || h.offset + g.offset >= 0;
    return r;
  }
  r.intersecting = dot(h.normal, deepest(*p.other, h.normal)) - h.offset <= 0;
  return r;
}

DistanceResult planeDistance(const Shape& a, const Shape& b) {
  DistanceResult r;
  const PlanePair p = split(a, b);
  const HalfSpace h = worldHalfSpace(*p.plane);
  Vec3 onPlane, onOther;
  if (p.other->type == ShapeType::Plane) {
    const HalfSpace g = worldHalfSpace(*p.other);
    // Opposite and apart: the gap along h's normal, from h's surface point
    // x nearest the origin. Otherwise they overlap: a common point is x
    // when g holds it, else the point of both surfaces nearest x.
    const Vec3 x = h.surfacePoint();
    if (opposite(h, g) && h.offset + g.offset < 0) {
      r.distance = -(h.offset + g.offset);
      onPlane = x;
      onOther = x + h.normal * r.distance;
    } else {
      const double over = dot(g.normal, x) - g.offset;
      Vec3 common = x;
      if (over > 0) {
        const double c = dot(h.normal, g.normal);
        const double det = 1 - c * c;
        if (det > 0) {
          // x + α n_h + β n_g on both surfaces: α + cβ = 0, cα + β = −over.
          const double beta = -over / det, alpha = -c * beta;
          common = x + h.normal * alpha + g.normal * beta;
        } else {
          // Parallel with the same normal: g's surface point below x is
          // in h (n_h·(x − over·n_g) = d_h − over < d_h).
          common = x - g.normal * over;
        }
      }
      onPlane = onOther = common;
    }
  } else {
    const Vec3 s = deepest(*p.other, h.normal);
    const double height = dot(h.normal, s) - h.offset;
    if (height > 0) {
      r.distance = height;
      onPlane = s - h.normal * height;
    } else {
      onPlane = s;
      r.coresOverlap = true;
    }
    onOther = s;
  }
  r.pointA = p.planeIsA ? onPlane : onOther;
  r.pointB = p.planeIsA ? onOther : onPlane;
  return r;
}

PlaneStatus planePenetration(const Shape& a, const Shape& b, PenetrationResult* out) {
  PenetrationResult r;
  const PlanePair p = split(a, b);
  const HalfSpace h = worldHalfSpace(*p.plane);
  // The unit direction that moves B away from A.
  const Vec3 away = p.planeIsA ? h.normal : -h.normal;
  r.normal = away;
  if (p.other->type == ShapeType::Plane) {
    const HalfSpace g = worldHalfSpace(*p.other);
    if (!opposite(h, g)) return PlaneStatus::Unbounded;
    const Vec3 x = h.surfacePoint();
    const double overlap = h.offset + g.offset;  // > 0: overlap; < 0: gap
    r.intersecting = overlap >= 0;
    r.depth = overlap > 0 ? overlap : 0;
    // A's surface point and B's: apart, the closest points (x and x + gap·n_h);
    // overlapping, pointA − pointB = depth·normal.
    const Vec3 onG = x - h.normal * overlap;
    r.pointA = p.planeIsA ? x : onG;
    r.pointB = p.planeIsA ? onG : x;
    *out = r;
    return PlaneStatus::Ok;
  }
  const Vec3 s = deepest(*p.other, h.normal);
  const double height = dot(h.normal, s) - h.offset;
  r.intersecting = height <= 0;
  r.depth = height < 0 ? -height : 0;
  // The plane's point: s lifted onto the surface (overlapping), or its
  // foot on the surface (apart); the other shape's point is s.
  const Vec3 onPlane = s - h.normal * height;
  r.pointA = p.planeIsA ? onPlane : s;
  r.pointB = p.planeIsA ? s : onPlane;
  *out = r;
  return PlaneStatus::Ok;
}

PlaneStatus planeContact(const Shape& a, const Shape& b, double margin, ContactResult* out) {
  PenetrationResult p;
  if (planePenetration(a, b, &p) != PlaneStatus::Ok) return PlaneStatus::Unbounded;
  ContactResult r;
  // pointB − pointA lies along the normal in both cases (apart: the gap;
  // overlapping: −depth), so its component along the normal is the signed
  // distance.
  r.distance = p.intersecting ? -p.depth : dot(p.pointB - p.pointA, p.normal);
  r.contact = r.distance <= margin;
  r.normal = p.normal;
  r.pointA = p.pointA;
  r.pointB = p.pointB;
  *out = r;
  return PlaneStatus::Ok;
}

RayCastResult planeRayCast(const Shape& plane, const Vec3& origin, const Vec3& direction, double maxT) {
  RayCastResult r;
  const HalfSpace h = worldHalfSpace(plane);
  const double above = dot(h.normal, origin) - h.offset;
  if (above <= 0) {
    r.hit = true;
    r.startedInside = true;
    r.point = origin;
    return r;
  }
  const double closing = -dot(h.normal, direction);  // > 0: heading into the half-space
  // above > 0 and closing > 0: t > 0. t ≤ maxT tested as above ≤ maxT·closing
  // (no division on a miss, and no overflow of above / closing).
  if (!(closing > 0) || above > maxT * closing) return r;
  r.hit = true;
  r.t = above / closing;
  r.point = origin + direction * r.t;
  r.normal = h.normal;
  return r;
}

}  // namespace collidoscope
