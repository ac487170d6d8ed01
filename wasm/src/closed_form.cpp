// collidoscope — closed forms for point, sphere, segment and capsule pairs,
// and for points and boxes against boxes (closed_form.h).
#include "collidoscope/closed_form.h"

#include <cmath>
#include <limits>

#include "collidoscope/numeric.h"

namespace collidoscope {

namespace {

// Whether a shape's core is a point or a segment.
bool pointOrSegment(ShapeType t) {
  return t == ShapeType::Point || t == ShapeType::Sphere || t == ShapeType::Segment || t == ShapeType::Capsule;
}

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
    return unitOfLength(n, lengthNoUnderflow(n));
  }
  const Vec3 d = dot(d1, d1) >= dot(d2, d2) ? d1 : d2;
  if (!(maxAbs(d) > 0)) return {0, 1, 0};
  // Crossed with the coordinate axis least aligned with d, z first (a
  // segment in the plane z = 0 gets a normal in that plane).
  const Vec3 ad{std::fabs(d.x), std::fabs(d.y), std::fabs(d.z)};
  const Vec3 axis = ad.z <= ad.x && ad.z <= ad.y ? Vec3{0, 0, 1} : (ad.y <= ad.x ? Vec3{0, 1, 0} : Vec3{1, 0, 0});
  const Vec3 m = cross(d, axis);
  return unitOfLength(m, lengthNoUnderflow(m));
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
  f.coreDistance = lengthNoUnderflow(f.coreA - f.coreB);
  return true;
}

}  // namespace

const char* closedFormName(ClosedForm f) {
  switch (f) {
    case ClosedForm::PointPoint: return "point-point";
    case ClosedForm::PointSegment: return "point-segment";
    case ClosedForm::SegmentPoint: return "segment-point";
    case ClosedForm::SegmentSegment: return "segment-segment";
    case ClosedForm::PointBox: return "point-box";
    case ClosedForm::BoxPoint: return "box-point";
    case ClosedForm::BoxBox: return "box-box";
    case ClosedForm::None: break;
  }
  return "none";
}

CoreKind coreKindOf(const Shape& s) {
  if (!isUnscaled(s)) return CoreKind::Other;  // the general path handles the scale
  switch (s.type) {
    case ShapeType::Point:
    case ShapeType::Sphere: return CoreKind::Point;
    case ShapeType::Segment:
    case ShapeType::Capsule: return CoreKind::Segment;
    case ShapeType::Box: return CoreKind::Box;
    default: return CoreKind::Other;
  }
}

ClosedForm closedFormOf(CoreKind a, CoreKind b) {
  if (a == CoreKind::Other || b == CoreKind::Other) return ClosedForm::None;
  if (a == CoreKind::Box) {
    return b == CoreKind::Box ? ClosedForm::BoxBox : (b == CoreKind::Point ? ClosedForm::BoxPoint : ClosedForm::None);
  }
  if (b == CoreKind::Box) return a == CoreKind::Point ? ClosedForm::PointBox : ClosedForm::None;
  const bool sa = a == CoreKind::Segment, sb = b == CoreKind::Segment;
  return sa ? (sb ? ClosedForm::SegmentSegment : ClosedForm::SegmentPoint)
            : (sb ? ClosedForm::PointSegment : ClosedForm::PointPoint);
}

bool hasClosedForm(const Shape& s) { return isUnscaled(s) && pointOrSegment(s.type); }

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
      c.centred = true;
      c.p1 = {0, s.halfHeight, 0};
      c.p0 = -c.p1;
      break;
    default: break;
  }
  return c;
}

Core posedCore(const Core& local, const Transform& pose) {
  Core c = local;
  if (local.centred) {
    // rotate() is linear and rounds symmetrically, so the rotation of −p1
    // is exactly −(the rotation of p1): one rotation moves both ends.
    const Vec3 r = rotate(pose.rotation, local.p1);
    c.p1 = r + pose.position;
    c.p0 = -r + pose.position;
  } else if (local.segment) {
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
  out->v = out->axis = f.coreA - f.coreB;
  out->simplex.size = 0;
  out->scale = f.touching / kRoundingBound;
  const double radius = f.radiusA + f.radiusB;
  out->coresOverlap = f.coreDistance <= f.touching;
  if (out->coresOverlap) {
    out->distance = 0;
    out->pointA = out->pointB = (f.coreA + f.coreB) * 0.5;
    return true;
  }
  const Vec3 normal = unitOfLength(f.coreB - f.coreA, f.coreDistance);  // from A towards B
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
  const Vec3 n = unitOfLength(f.coreB - f.coreA, f.coreDistance);
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
    const Vec3 n = unitOfLength(f.coreB - f.coreA, f.coreDistance);
    out->contact = true;
    out->distance = distance;
    out->normal = n;
    out->pointA = f.coreA + n * f.radiusA;
    out->pointB = f.coreB - n * f.radiusB;
    return true;
  }
  PenetrationResult p;
  penetrationOf(c, &p);
  setOverlapping(p, out);
  return true;
}

namespace {
BoxCore boxCoreIn(const Shape& s, bool planar) {
  BoxCore b = boxCoreOf(s);
  b.planar = planar;
  return b;
}
}  // namespace

bool closedIntersect(const Shape& a, const Shape& b, IntersectResult* out, ClosedFormFrame* frame, bool planar) {
  switch (closedFormOf(a, b)) {
    case ClosedForm::None: return false;
    case ClosedForm::PointBox: return closedIntersect(coreOf(a), boxCoreIn(b, planar), out, frame);
    case ClosedForm::BoxPoint: return closedIntersect(boxCoreIn(a, planar), coreOf(b), out, frame);
    case ClosedForm::BoxBox: return closedIntersect(boxCoreIn(a, planar), boxCoreIn(b, planar), out, frame);
    default: return closedIntersect(coreOf(a), coreOf(b), out, frame);
  }
}
bool closedDistance(const Shape& a, const Shape& b, DistanceResult* out, ClosedFormFrame* frame, bool planar) {
  switch (closedFormOf(a, b)) {
    case ClosedForm::None:
    case ClosedForm::BoxBox: return false;
    case ClosedForm::PointBox: return closedDistance(coreOf(a), boxCoreIn(b, planar), out, frame);
    case ClosedForm::BoxPoint: return closedDistance(boxCoreIn(a, planar), coreOf(b), out, frame);
    default: return closedDistance(coreOf(a), coreOf(b), out, frame);
  }
}
bool closedPenetration(const Shape& a, const Shape& b, PenetrationResult* out, ClosedFormFrame* frame, bool planar) {
  const ClosedForm form = closedFormOf(a, b);
  if (form == ClosedForm::None) return false;
  const bool boxForm = form == ClosedForm::PointBox || form == ClosedForm::BoxPoint || form == ClosedForm::BoxBox;
  if (boxForm && planar) return false;
  switch (form) {
    case ClosedForm::PointBox: return closedPenetration(coreOf(a), boxCoreOf(b), out, frame);
    case ClosedForm::BoxPoint: return closedPenetration(boxCoreOf(a), coreOf(b), out, frame);
    case ClosedForm::BoxBox: return closedPenetration(boxCoreOf(a), boxCoreOf(b), out, frame);
    default: return closedPenetration(coreOf(a), coreOf(b), out, frame, planar);
  }
}

// ---- boxes -------------------------------------------------------------------

BoxCore boxCoreOf(const Shape& s, const Transform& pose) {
  BoxCore b;
  b.centre = pose.position;
  b.half = s.halfExtents;
  b.radius = coreRadius(s);
  // The columns of the rotation matrix of the unit quaternion.
  const Quat& q = pose.rotation;
  const double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  const double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  b.axes[0] = {1 - 2 * (yy + zz), 2 * (xy + wz), 2 * (xz - wy)};
  b.axes[1] = {2 * (xy - wz), 1 - 2 * (xx + zz), 2 * (yz + wx)};
  b.axes[2] = {2 * (xz + wy), 2 * (yz - wx), 1 - 2 * (xx + yy)};
  return b;
}

namespace {

// A bound on the largest coordinate of a box core: |centre| plus the sum of
// the half extents (each axis component is at most 1).
double boxScale(const BoxCore& b) { return maxAbs(b.centre) + (b.half.x + b.half.y + b.half.z); }

// Whether the pair is a tiny scene (left to the general queries, run scaled).
bool tiny(double scale, double rA, double rB) { return !(scale >= kTinyScene || rA >= kTinyScene || rB >= kTinyScene); }

// A point core against a box core. `pointFirst`: the point is A. Fills the
// frame's cores (A's first), radii and rounding bound; `inside` when the
// point is within the bound of the box core, and then the nearest face:
// its local axis, outward normal and the point's distance to it (below 0
// by at most the bound when the point is just outside).
struct PointBox {
  ClosedFormFrame f;
  bool inside = false;
  int face = -1;
  Vec3 outward;
  double faceDistance = 0;
  Vec3 normal;  // unit, from A toward B (apart: along the cores' closest points; inside: across the face)
};

bool pointBox(const Core& p, const BoxCore& box, bool pointFirst, PointBox* pb) {
  if (p.segment) return false;
  const double scale = maxOfNonNegative(maxAbs(p.p0), boxScale(box));
  if (tiny(scale, p.radius, box.radius)) return false;
  ClosedFormFrame& f = pb->f;
  f.form = pointFirst ? ClosedForm::PointBox : ClosedForm::BoxPoint;
  f.radiusA = pointFirst ? p.radius : box.radius;
  f.radiusB = pointFirst ? box.radius : p.radius;
  f.touching = kRoundingBound * scale;
  const Vec3 d = p.p0 - box.centre;
  double q[3], gap[3];
  Vec3 clamped = box.centre;
  for (int i = 0; i < 3; ++i) {
    q[i] = dot(box.axes[i], d);
    const double h = box.half[i];
    const double k = q[i] > h ? h : (q[i] < -h ? -h : q[i]);
    gap[i] = q[i] - k;
    clamped += box.axes[i] * k;
  }
  // The gap in box coordinates decides whether the centre is inside.
  const double core = std::sqrt(gap[0] * gap[0] + gap[1] * gap[1] + gap[2] * gap[2]);
  Vec3 onBox = clamped;
  if (core <= f.touching) {
    pb->inside = true;
    int best = 0;
    double dist = box.half[0] - std::fabs(q[0]);
    for (int i = 1; i < (box.planar ? 2 : 3); ++i) {
      const double di = box.half[i] - std::fabs(q[i]);
      if (di < dist) best = i, dist = di;
    }
    pb->face = best;
    pb->faceDistance = dist;
    pb->outward = q[best] >= 0 ? box.axes[best] : -box.axes[best];
    onBox = p.p0 + pb->outward * dist;
    // Moving B out across the face: B the box moves against its outward
    // normal; B the point moves along it.
    pb->normal = pointFirst ? -pb->outward : pb->outward;
    f.hasAxis = true;
    f.axisKind = pointFirst ? SatAxisKind::FaceB : SatAxisKind::FaceA;
    (pointFirst ? f.featureB : f.featureA) = best;
    f.axis = pb->normal;
    f.overlap = dist + f.radiusA + f.radiusB;
  }
  f.coreA = pointFirst ? p.p0 : onBox;
  f.coreB = pointFirst ? onBox : p.p0;
  if (pb->inside) {
    f.coreDistance = std::fabs(pb->faceDistance);
  } else {
    // Apart: a point–point pair of the centre and its clamp, in world
    // coordinates as the answer reports them.
    f.coreDistance = lengthNoUnderflow(f.coreA - f.coreB);
    pb->normal = unitOfLength(f.coreB - f.coreA, f.coreDistance);
  }
  return true;
}

bool pointBoxIntersect(const Core& p, const BoxCore& box, bool pointFirst, IntersectResult* out,
                       ClosedFormFrame* frame) {
  PointBox pb;
  if (!pointBox(p, box, pointFirst, &pb)) return false;
  if (frame != nullptr) *frame = pb.f;
  out->intersecting = pb.inside || pb.f.coreDistance <= pb.f.radiusA + pb.f.radiusB + pb.f.touching;
  out->iterations = 0;
  out->status = GjkStatus::Converged;
  return true;
}

bool pointBoxDistance(const Core& p, const BoxCore& box, bool pointFirst, DistanceResult* out,
                      ClosedFormFrame* frame) {
  PointBox pb;
  if (!pointBox(p, box, pointFirst, &pb)) return false;
  const ClosedFormFrame& f = pb.f;
  if (frame != nullptr) *frame = f;
  out->iterations = 0;
  out->status = GjkStatus::Converged;
  out->simplex.size = 0;
  out->scale = f.touching / kRoundingBound;
  out->coresOverlap = pb.inside;
  if (pb.inside) {
    // The point is a common point of the cores.
    out->v = out->axis = Vec3{};
    out->distance = 0;
    out->pointA = out->pointB = p.p0;
    return true;
  }
  out->v = out->axis = f.coreA - f.coreB;
  const double radius = f.radiusA + f.radiusB;
  if (f.coreDistance > radius) {
    out->distance = f.coreDistance - radius;
    out->pointA = f.coreA + pb.normal * f.radiusA;
    out->pointB = f.coreB - pb.normal * f.radiusB;
  } else {
    out->distance = 0;
    out->pointA = out->pointB = f.coreA + pb.normal * (f.coreDistance * (f.radiusA / radius));
  }
  return true;
}

bool pointBoxPenetration(const Core& p, const BoxCore& box, bool pointFirst, PenetrationResult* out,
                         ClosedFormFrame* frame) {
  PointBox pb;
  if (!pointBox(p, box, pointFirst, &pb)) return false;
  const ClosedFormFrame& f = pb.f;
  if (frame != nullptr) *frame = f;
  out->iterations = 0;
  out->status = EpaStatus::Converged;
  const Vec3 n = pb.normal;
  out->normal = n;
  out->pointA = f.coreA + n * f.radiusA;
  const double radius = f.radiusA + f.radiusB;
  if (pb.inside || f.coreDistance <= radius + f.touching) {
    out->intersecting = true;
    out->depth = pb.inside ? radius + pb.faceDistance : radius - f.coreDistance;
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
  return true;
}

// Box against box: the least overlap of the cores over the candidate axes
// (closed_form.h). `stopBelow`: an axis whose core overlap is below it ends
// the search (a separating axis that decides the query).
struct BoxBox {
  ClosedFormFrame f;
  double coreOverlap = 0;  // the least (or the deciding) overlap of the cores, radii not included
  bool stopped = false;    // an axis fell below stopBelow
};

bool boxBox(const BoxCore& a, const BoxCore& b, double stopBelow, BoxBox* bb) {
  const double scale = maxOfNonNegative(boxScale(a), boxScale(b));
  if (tiny(scale, a.radius, b.radius)) return false;
  ClosedFormFrame& f = bb->f;
  f.form = ClosedForm::BoxBox;
  f.radiusA = a.radius;
  f.radiusB = b.radius;
  f.touching = kRoundingBound * scale;
  f.hasAxis = true;
  const Vec3 t = b.centre - a.centre;
  const Vec3 ua[3] = {a.axes[0] * a.half.x, a.axes[1] * a.half.y, a.axes[2] * a.half.z};
  const Vec3 ub[3] = {b.axes[0] * b.half.x, b.axes[1] * b.half.y, b.axes[2] * b.half.z};
  double best = std::numeric_limits<double>::infinity();
  Vec3 bestAxis{0, 1, 0};
  SatAxisKind bestKind = SatAxisKind::FaceA;
  int bestI = -1, bestJ = -1;
  // One candidate: unit L; the overlap oriented from A toward B (+L when
  // L·t ≥ 0). The first of equal overlaps wins, and an edge axis must beat
  // the best by more than the rounding bound: a face axis and an edge axis
  // that coincides with it (parallel faces) differ by rounding only, and
  // the face's contact point is the well-defined one.
  const double edgeMargin = f.touching;
  auto test = [&](const Vec3& L, SatAxisKind kind, int i, int j) {
    const double ra = std::fabs(dot(ua[0], L)) + std::fabs(dot(ua[1], L)) + std::fabs(dot(ua[2], L));
    const double rb = std::fabs(dot(ub[0], L)) + std::fabs(dot(ub[1], L)) + std::fabs(dot(ub[2], L));
    const double s = dot(t, L);
    const double overlap = ra + rb - std::fabs(s);
    if (overlap < (kind == SatAxisKind::EdgeEdge ? best - edgeMargin : best)) {
      best = overlap;
      bestAxis = s < 0 ? -L : L;
      bestKind = kind;
      bestI = i;
      bestJ = j;
    }
    return overlap < stopBelow;
  };
  // In the plane the rectangles' four side normals decide (2D SAT).
  const int faces = a.planar && b.planar ? 2 : 3;
  bool stop = false;
  for (int i = 0; i < faces && !stop; ++i) stop = test(a.axes[i], SatAxisKind::FaceA, i, -1);
  for (int j = 0; j < faces && !stop; ++j) stop = test(b.axes[j], SatAxisKind::FaceB, -1, j);
  for (int i = 0; i < 3 && faces == 3 && !stop; ++i) {
    for (int j = 0; j < 3 && !stop; ++j) {
      Vec3 L;
      if (detail::satCrossAxis(a.axes[i], b.axes[j], &L)) stop = test(L, SatAxisKind::EdgeEdge, i, j);
    }
  }
  bb->stopped = stop;
  bb->coreOverlap = std::fabs(best) <= f.touching ? 0.0 : best;
  f.axisKind = bestKind;
  f.featureA = bestI;
  f.featureB = bestJ;
  f.axis = bestAxis;
  f.overlap = bb->coreOverlap + a.radius + b.radius;
  return true;
}

// The point of a box core extreme along unit n. Along an axis orthogonal
// to n (within kSatSameAxisSine: a face or an edge of extreme points) the
// coordinate of `toward` clamped into the box: the extreme point nearest
// the other box's centre.
Vec3 boxSupport(const BoxCore& b, const Vec3& n, const Vec3& toward) {
  Vec3 p = b.centre;
  for (int i = 0; i < 3; ++i) {
    const double s = dot(b.axes[i], n);
    const double h = b.half[i];
    if (std::fabs(s) > kSatSameAxisSine) {
      p += b.axes[i] * (s > 0 ? h : -h);
    } else {
      const double c = dot(b.axes[i], toward - b.centre);
      p += b.axes[i] * (c > h ? h : (c < -h ? -h : c));
    }
  }
  return p;
}

// The edge of a box core along local axis i most extreme along unit n
// (its centre, and the half vector to its ends).
void boxEdge(const BoxCore& b, int i, const Vec3& n, Vec3* mid, Vec3* half) {
  Vec3 c = b.centre;
  for (int k = 0; k < 3; ++k) {
    if (k == i) continue;
    const double s = dot(b.axes[k], n);
    if (s != 0) c += b.axes[k] * (s > 0 ? b.half[k] : -b.half[k]);
  }
  *mid = c;
  *half = b.axes[i] * b.half[i];
}

// The witness pair of the deciding axis (closed_form.h) into the frame's
// coreA, coreB: coreA − coreB = m·n for a face axis, with m the core
// overlap (a separating axis gives the pair across its gap).
void boxWitness(const BoxCore& a, const BoxCore& b, BoxBox* bb) {
  ClosedFormFrame& f = bb->f;
  const Vec3 n = f.axis;
  const double m = bb->coreOverlap;
  Vec3 coreA, coreB;
  if (f.axisKind == SatAxisKind::FaceA) {
    coreB = boxSupport(b, -n, a.centre);
    coreA = coreB + n * m;
  } else if (f.axisKind == SatAxisKind::FaceB) {
    coreA = boxSupport(a, n, b.centre);
    coreB = coreA - n * m;
  } else {
    Vec3 midA, halfA, midB, halfB;
    boxEdge(a, f.featureA, n, &midA, &halfA);
    boxEdge(b, f.featureB, -n, &midB, &halfB);
    double s = 0, u = 0;
    closestOnSegments(midA - halfA, midA + halfA, midB - halfB, midB + halfB, &s, &u);
    coreA = midA + halfA * (2 * s - 1);
    coreB = midB + halfB * (2 * u - 1);
  }
  f.coreA = coreA;
  f.coreB = coreB;
  f.coreDistance = lengthNoUnderflow(coreA - coreB);
}

}  // namespace

bool closedIntersect(const Core& a, const BoxCore& b, IntersectResult* out, ClosedFormFrame* frame) {
  return pointBoxIntersect(a, b, true, out, frame);
}
bool closedIntersect(const BoxCore& a, const Core& b, IntersectResult* out, ClosedFormFrame* frame) {
  return pointBoxIntersect(b, a, false, out, frame);
}
bool closedDistance(const Core& a, const BoxCore& b, DistanceResult* out, ClosedFormFrame* frame) {
  return pointBoxDistance(a, b, true, out, frame);
}
bool closedDistance(const BoxCore& a, const Core& b, DistanceResult* out, ClosedFormFrame* frame) {
  return pointBoxDistance(b, a, false, out, frame);
}
bool closedPenetration(const Core& a, const BoxCore& b, PenetrationResult* out, ClosedFormFrame* frame) {
  return pointBoxPenetration(a, b, true, out, frame);
}
bool closedPenetration(const BoxCore& a, const Core& b, PenetrationResult* out, ClosedFormFrame* frame) {
  return pointBoxPenetration(b, a, false, out, frame);
}

bool closedIntersect(const BoxCore& a, const BoxCore& b, IntersectResult* out, ClosedFormFrame* frame) {
  // A core gap beyond the radii and the rounding bound decides "apart";
  // the bound is only known once the scale is, so it is recomputed here.
  const double scale = maxOfNonNegative(boxScale(a), boxScale(b));
  const double apart = -(a.radius + b.radius + kRoundingBound * scale);
  BoxBox bb;
  if (!boxBox(a, b, apart, &bb)) return false;
  if (!bb.stopped && bb.coreOverlap < 0) return false;  // cores apart, perhaps within the radii: GJK
  if (frame != nullptr) {
    boxWitness(a, b, &bb);
    *frame = bb.f;
  }
  out->intersecting = !bb.stopped;
  out->iterations = 0;
  out->status = GjkStatus::Converged;
  return true;
}

bool closedPenetration(const BoxCore& a, const BoxCore& b, PenetrationResult* out, ClosedFormFrame* frame) {
  BoxBox bb;
  // Apart cores need their closest points: GJK.
  if (!boxBox(a, b, 0, &bb) || bb.stopped || bb.coreOverlap < 0) return false;
  boxWitness(a, b, &bb);
  const ClosedFormFrame& f = bb.f;
  const Vec3 n = f.axis;
  if (frame != nullptr) *frame = f;
  out->intersecting = true;
  out->iterations = 0;
  out->status = EpaStatus::Converged;
  out->normal = n;
  out->depth = f.overlap;
  if (out->depth <= f.touching) {
    out->depth = 0;
    out->status = EpaStatus::Touching;
  }
  out->pointA = f.coreA + n * a.radius;
  out->pointB = out->pointA - n * out->depth;
  return true;
}

}  // namespace collidoscope
