// collidoscope — closed forms for point, sphere, segment and capsule pairs
// (closed_form.h).
#include "collidoscope/closed_form.h"

#include <cmath>

#include "collidoscope/numeric.h"

namespace collidoscope {

namespace {

// Whether a shape's core is a point or a segment.
bool pointOrSegment(ShapeType t) {
  return t == ShapeType::Point || t == ShapeType::Sphere || t == ShapeType::Segment || t == ShapeType::Capsule;
}
bool isSegment(ShapeType t) { return t == ShapeType::Segment || t == ShapeType::Capsule; }

double clamp01(double x) { return x < 0 ? 0 : (x > 1 ? 1 : x); }

// Whether two segment directions are not parallel (to rounding).
bool crossing(const Vec3& d1, const Vec3& d2) {
  const Vec3 n = cross(d1, d2);
  const double scale = dot(d1, d1) * dot(d2, d2);
  return scale > 0 && dot(n, n) > 64 * kUnitRoundoff * scale;
}

// A unit vector across the core: the common normal of two segments that
// are not parallel, else a unit vector orthogonal to the one segment (or
// to both parallel ones; in the plane z = 0 when the segment is), else
// (0, 1, 0) for two points.
Vec3 across(const Vec3& d1, const Vec3& d2) {
  if (crossing(d1, d2)) {
    const Vec3 n = cross(d1, d2);
    return n * (1 / length(n));
  }
  const Vec3 d = dot(d1, d1) >= dot(d2, d2) ? d1 : d2;
  if (!(maxAbs(d) > 0)) return {0, 1, 0};
  // Crossed with the coordinate axis least aligned with d, z first (a
  // segment in the plane z = 0 gets a normal in that plane).
  const Vec3 ad{std::fabs(d.x), std::fabs(d.y), std::fabs(d.z)};
  const Vec3 axis = ad.z <= ad.x && ad.z <= ad.y ? Vec3{0, 0, 1} : (ad.y <= ad.x ? Vec3{0, 1, 0} : Vec3{1, 0, 0});
  const Vec3 m = cross(d, axis);
  return m * (1 / length(m));
}

// The closest core points of the pair and the rounding bound; false for a
// tiny scene.
struct Cores {
  ClosedFormFrame f;
  Vec3 dA, dB;  // the cores' directions (zero for points)
};

// Inlined into each query, so that the stores of Cores' zero initialisation that
// closest() overwrites are dropped.
[[gnu::always_inline]] inline bool closest(const Core& a, const Core& b, Cores* c) {
  ClosedFormFrame& f = c->f;
  f.radiusA = a.radius;
  f.radiusB = b.radius;
  // A point core has p1 == p0: its end is not measured twice.
  const double scaleA = a.segment ? maxOfNonNegative(maxAbs(a.p0), maxAbs(a.p1)) : maxAbs(a.p0);
  const double scaleB = b.segment ? maxOfNonNegative(maxAbs(b.p0), maxAbs(b.p1)) : maxAbs(b.p0);
  const double scale = maxOfNonNegative(scaleA, scaleB);
  if (!(scale >= kTinyScene || a.radius >= kTinyScene || b.radius >= kTinyScene)) return false;
  f.form = a.segment ? (b.segment ? ClosedForm::SegmentSegment : ClosedForm::SegmentPoint)
                     : (b.segment ? ClosedForm::PointSegment : ClosedForm::PointPoint);
  f.touching = kRoundingBound * scale;
  if (!a.segment && !b.segment) {
    f.coreA = a.p0;
    f.coreB = b.p0;
  } else {
    double s = 0, t = 0;
    closestOnSegments(a.p0, a.p1, b.p0, b.p1, &s, &t);
    c->dA = a.p1 - a.p0;
    c->dB = b.p1 - b.p0;
    f.coreA = s == 0 ? a.p0 : (s == 1 ? a.p1 : a.p0 + c->dA * s);
    f.coreB = t == 0 ? b.p0 : (t == 1 ? b.p1 : b.p0 + c->dB * t);
  }
  f.coreDistance = length(f.coreA - f.coreB);
  return true;
}

}  // namespace

const char* closedFormName(ClosedForm f) {
  switch (f) {
    case ClosedForm::PointPoint: return "point-point";
    case ClosedForm::PointSegment: return "point-segment";
    case ClosedForm::SegmentPoint: return "segment-point";
    case ClosedForm::SegmentSegment: return "segment-segment";
    case ClosedForm::None: break;
  }
  return "none";
}

ClosedForm closedFormOf(const Shape& a, const Shape& b) {
  if (!pointOrSegment(a.type) || !pointOrSegment(b.type)) return ClosedForm::None;
  const bool sa = isSegment(a.type), sb = isSegment(b.type);
  return sa ? (sb ? ClosedForm::SegmentSegment : ClosedForm::SegmentPoint)
            : (sb ? ClosedForm::PointSegment : ClosedForm::PointPoint);
}

bool hasClosedForm(const Shape& s) { return pointOrSegment(s.type); }

Core localCore(const Shape& s) {
  Core c;
  c.radius = coreRadius(s);
  switch (s.type) {
    case ShapeType::Segment:
      c.segment = true;
      c.p0 = s.points[0];
      c.p1 = s.points[1];
      break;
    case ShapeType::Capsule:
      c.segment = true;
      c.p0 = {0, -s.halfHeight, 0};
      c.p1 = {0, s.halfHeight, 0};
      break;
    default: break;
  }
  return c;
}

Core posedCore(const Core& local, const Transform& pose) {
  Core c = local;
  if (local.segment) {
    c.p0 = pose.apply(local.p0);
    c.p1 = pose.apply(local.p1);
  } else {
    c.p0 = c.p1 = pose.position;
  }
  return c;
}

Core coreOf(const Shape& s, const Transform& pose) { return posedCore(localCore(s), pose); }

void closestOnSegments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, double* s, double* t) {
  // Minimise |r + s·d1 − t·d2|² over the unit square, r = p0 − q0.
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  if (a == 0) {
    *s = 0;
    *t = e == 0 ? 0 : clamp01(f / e);
    return;
  }
  const double c = dot(d1, r);
  if (e == 0) {
    *t = 0;
    *s = clamp01(-c / a);
    return;
  }
  // Both proper segments: the unconstrained minimum on the lines, s
  // clamped, then t for that s; a t outside [0, 1] is clamped and s taken
  // again for it. Lines parallel to rounding (a·e − b² within it) have a
  // line of minima: s = 0 is one of them.
  const double b = dot(d1, d2);
  const double denom = a * e - b * b;
  double ss = denom > 64 * kUnitRoundoff * a * e ? clamp01((b * f - c * e) / denom) : 0;
  double tt = (b * ss + f) / e;
  if (tt < 0) {
    tt = 0;
    ss = clamp01(-c / a);
  } else if (tt > 1) {
    tt = 1;
    ss = clamp01((b - c) / a);
  }
  *s = ss;
  *t = tt;
}

bool closedIntersect(const Core& a, const Core& b, IntersectResult* out, ClosedFormFrame* frame) {
  Cores c;
  if (!closest(a, b, &c)) return false;
  if (frame != nullptr) *frame = c.f;
  out->intersecting = c.f.coreDistance <= c.f.radiusA + c.f.radiusB + c.f.touching;
  out->iterations = 0;
  out->status = GjkStatus::Converged;
  return true;
}

bool closedDistance(const Core& a, const Core& b, DistanceResult* out, ClosedFormFrame* frame) {
  Cores c;
  if (!closest(a, b, &c)) return false;
  const ClosedFormFrame& f = c.f;
  if (frame != nullptr) *frame = f;
  out->iterations = 0;
  out->status = GjkStatus::Converged;
  out->v = f.coreA - f.coreB;
  out->simplex.size = 0;
  out->scale = f.touching / kRoundingBound;
  const double radius = f.radiusA + f.radiusB;
  out->coresOverlap = f.coreDistance <= f.touching;
  if (out->coresOverlap) {
    out->distance = 0;
    out->pointA = out->pointB = (f.coreA + f.coreB) * 0.5;
    return true;
  }
  const Vec3 normal = (f.coreB - f.coreA) * (1 / f.coreDistance);  // from A towards B
  if (f.coreDistance > radius) {
    out->distance = f.coreDistance - radius;
    out->pointA = f.coreA + normal * f.radiusA;
    out->pointB = f.coreB - normal * f.radiusB;
  } else {
    out->distance = 0;
    out->pointA = out->pointB = f.coreA + normal * (f.coreDistance * (f.radiusA / radius));
  }
  return true;
}

// The penetration of a pair from its closest core points.
static void penetrationOf(const Cores& c, PenetrationResult* out) {
  const ClosedFormFrame& f = c.f;
  out->iterations = 0;
  out->status = EpaStatus::Converged;
  const double radius = f.radiusA + f.radiusB;
  if (f.coreDistance <= f.touching) {
    // The cores meet: r_A + r_B along any direction across them.
    const Vec3 p = (f.coreA + f.coreB) * 0.5;
    out->intersecting = true;
    out->normal = across(c.dA, c.dB);
    out->depth = radius;
    out->pointA = p + out->normal * f.radiusA;
    out->pointB = p - out->normal * f.radiusB;
    if (!(radius > 0)) out->status = EpaStatus::Touching;
    return;
  }
  const Vec3 n = (f.coreB - f.coreA) * (1 / f.coreDistance);
  out->normal = n;
  out->pointA = f.coreA + n * f.radiusA;
  if (f.coreDistance <= radius + f.touching) {
    out->intersecting = true;
    out->depth = radius - f.coreDistance;
    if (out->depth <= f.touching) {
      out->depth = 0;
      out->status = EpaStatus::Touching;
    }
    out->pointB = out->pointA - n * out->depth;
  } else {
    out->intersecting = false;
    out->depth = 0;
    out->pointB = f.coreB - n * f.radiusB;
  }
}

bool closedPenetration(const Core& a, const Core& b, PenetrationResult* out, ClosedFormFrame* frame, bool planar) {
  Cores c;
  if (!closest(a, b, &c)) return false;
  if (planar && c.f.coreDistance <= c.f.touching && crossing(c.dA, c.dB)) return false;
  if (frame != nullptr) *frame = c.f;
  penetrationOf(c, out);
  return true;
}

bool closedContact(const Core& a, const Core& b, double margin, ContactResult* out) {
  Cores c;
  if (!closest(a, b, &c)) return false;
  const ClosedFormFrame& f = c.f;
  out->iterations = 0;
  out->status = EpaStatus::Converged;
  out->contact = false;
  // Apart as closedDistance decides it: cores neither touching nor within
  // the radii. Its distance and points, and closedPenetration's normal.
  if (!(f.coreDistance <= f.touching) && f.coreDistance > f.radiusA + f.radiusB) {
    const double distance = f.coreDistance - (f.radiusA + f.radiusB);
    if (!(distance <= margin)) return true;  // the other fields are not read
    const Vec3 n = (f.coreB - f.coreA) * (1 / f.coreDistance);
    out->contact = true;
    out->distance = distance;
    out->normal = n;
    out->pointA = f.coreA + n * f.radiusA;
    out->pointB = f.coreB - n * f.radiusB;
    return true;
  }
  PenetrationResult p;
  penetrationOf(c, &p);
  out->contact = true;
  out->distance = p.depth > 0 ? -p.depth : 0.0;
  out->normal = p.normal;
  out->pointA = p.pointA;
  out->pointB = p.pointB;
  out->status = p.status;
  return true;
}

bool closedIntersect(const Shape& a, const Shape& b, IntersectResult* out, ClosedFormFrame* frame) {
  return closedIntersect(coreOf(a), coreOf(b), out, frame);
}
bool closedDistance(const Shape& a, const Shape& b, DistanceResult* out, ClosedFormFrame* frame) {
  return closedDistance(coreOf(a), coreOf(b), out, frame);
}
bool closedPenetration(const Shape& a, const Shape& b, PenetrationResult* out, ClosedFormFrame* frame, bool planar) {
  return closedPenetration(coreOf(a), coreOf(b), out, frame, planar);
}

}  // namespace collidoscope
