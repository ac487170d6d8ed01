// collidoscope — contains and project (point_query.h).
#include "collidoscope/point_query.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "collidoscope/closed_form.h"
#include "collidoscope/plane.h"
#include "collidoscope/portable_math.h"
#include "collidoscope/sat.h"
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

const char* featureKindName(FeatureKind k) {
  static const char* const kNames[] = {"vertex", "edge", "face", "surface", "side", "cap", "rim", "base", "apex"};
  return kNames[static_cast<int>(k)];
}

namespace {

void setFeature(PointFeature* f, FeatureKind kind, std::initializer_list<int> vertices) {
  f->kind = kind;
  f->vertices.assign(vertices);  // within the list's capacity after the first use
}

// The feature of a polytopal core (point, box, segment, triangle,
// polytope) at its point c (local): the hull vertex, then the hull edge,
// nearest c within tol; else the face whose plane is nearest c, listed as
// every input point within tol of that plane.
void hullFeature(const Shape& s, const SatHull& h, const Vec3& c, double tol, PointFeature* f) {
  int vertex = -1, edge = -1;
  double dv = tol, de = tol;
  for (std::size_t i = 0; i < h.vertices.size(); ++i) {
    const double d = length(h.vertices[i] - c);
    if (d <= dv) dv = d, vertex = static_cast<int>(i);
  }
  if (vertex >= 0) return setFeature(f, FeatureKind::Vertex, {h.inputIndex[static_cast<std::size_t>(vertex)]});
  for (std::size_t i = 0; i < h.edges.size(); ++i) {
    const Vec3 a = h.vertices[static_cast<std::size_t>(h.edges[i][0])], e = h.vertices[static_cast<std::size_t>(h.edges[i][1])] - a;
    const double t = std::fmin(std::fmax(dot(c - a, e) / dot(e, e), 0.0), 1.0);
    const double d = length(a + e * t - c);
    if (d <= de) de = d, edge = static_cast<int>(i);
  }
  if (edge < 0 && h.faces.empty()) {  // a point or a segment core: its one vertex or edge
    if (h.edges.empty()) return setFeature(f, FeatureKind::Vertex, {h.inputIndex[0]});
    edge = 0;
  }
  if (edge >= 0) {
    const auto& e = h.edges[static_cast<std::size_t>(edge)];
    const int a = h.inputIndex[static_cast<std::size_t>(e[0])], b = h.inputIndex[static_cast<std::size_t>(e[1])];
    return setFeature(f, FeatureKind::Edge, {std::min(a, b), std::max(a, b)});
  }
  const SatFace* face = &h.faces[0];
  double best = INFINITY;
  for (const SatFace& g : h.faces) {
    const double d = std::fabs(dot(g.normal, c - h.vertices[static_cast<std::size_t>(g.corners[0])]));
    if (d < best) best = d, face = &g;
  }
  const Vec3 on = h.vertices[static_cast<std::size_t>(face->corners[0])];
  f->kind = FeatureKind::Face;
  f->vertices.clear();
  const int n = s.type == ShapeType::Box ? 8 : static_cast<int>(s.points.size());
  for (int i = 0; i < n; ++i) {
    const Vec3 q = s.type != ShapeType::Box ? s.points[static_cast<std::size_t>(i)]
                                             : Vec3{(i & 1) ? s.halfExtents.x : -s.halfExtents.x,
                                                    (i & 2) ? s.halfExtents.y : -s.halfExtents.y,
                                                    (i & 4) ? s.halfExtents.z : -s.halfExtents.z};
    if (std::fabs(dot(face->normal, Vec3{s.scale.x * q.x, s.scale.y * q.y, s.scale.z * q.z} - on)) <= tol) f->vertices.push_back(i);
  }
}

// Names the feature that x (world, on the surface) lies on; n is the
// outward unit normal there (read only to take off the margin).
void nameFeature(const Shape& s, const Vec3& x, const Vec3& n, const SatHull* hull, PointFeature* f) {
  const double tol = kFeatureTolerance * localBoundingRadius(s);
  const Vec3 c = s.pose.toLocalDirection(x - s.pose.position) - s.pose.toLocalDirection(n) * s.margin;
  switch (s.type) {
    case ShapeType::Sphere:
    case ShapeType::Ellipsoid: return setFeature(f, FeatureKind::Surface, {});
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
    case ShapeType::Cone: {
      // In the unscaled frame, in the point's meridian half-plane (ρ, y).
      const Vec3 q{c.x / s.scale.x, c.y / s.scale.y, c.z / s.scale.z};
      const double h = s.halfHeight, r = s.radius, rho = std::sqrt(q.x * q.x + q.z * q.z);
      const int end = q.y > 0 ? 1 : 0;
      if (s.type == ShapeType::Capsule)
        return std::fabs(q.y) >= h - tol ? setFeature(f, FeatureKind::Cap, {end})
                                         : setFeature(f, FeatureKind::Side, {0, 1});
      if (s.type == ShapeType::Cylinder) {
        const double toEnd = h - std::fabs(q.y);
        if (portable::hypot(r - rho, toEnd) <= tol) return setFeature(f, FeatureKind::Rim, {end});
        return toEnd <= tol ? setFeature(f, FeatureKind::Cap, {end}) : setFeature(f, FeatureKind::Side, {0, 1});
      }
      if (portable::hypot(rho, h - q.y) <= tol) return setFeature(f, FeatureKind::Apex, {1});
      if (portable::hypot(r - rho, q.y + h) <= tol) return setFeature(f, FeatureKind::Rim, {0});
      return q.y + h <= tol ? setFeature(f, FeatureKind::Base, {0}) : setFeature(f, FeatureKind::Side, {0, 1});
    }
    default: break;
  }
  SatHull own;
  if (hull == nullptr && buildSatHull(s, &own) == SatStatus::Ok) hull = &own;
  if (hull != nullptr) hullFeature(s, *hull, c, tol, f);
  else setFeature(f, FeatureKind::Face, {});  // no hull (an invalid shape): no vertices to name
}

}  // namespace

ProjectResult projectPoint(const Shape& s, const Vec3& p, const GjkSettings& gjkSettings,
                           const EpaSettings& epaSettings) {
  ProjectResult out;
  projectPoint(s, p, &out, nullptr, gjkSettings, epaSettings);
  return out;
}

void projectPoint(const Shape& s, const Vec3& p, ProjectResult* out, const SatHull* hull,
                  const GjkSettings& gjkSettings, const EpaSettings& epaSettings) {
  out->iterations = 0;
  out->status = EpaStatus::Converged;
  if (s.type == ShapeType::Plane) {
    // The foot of p on the surface, from either side.
    const HalfSpace h = worldHalfSpace(s);
    const double above = dot(h.normal, p) - h.offset;
    out->point = p - h.normal * above;
    out->distance = std::fabs(above);
    out->inside = above <= 0;
    return setFeature(&out->feature, FeatureKind::Face, {});
  }
  if ((s.type == ShapeType::Cylinder || s.type == ShapeType::Cone) && isUnscaled(s)) {
    const Vec3 q = s.pose.toLocalDirection(p - s.pose.position);
    Vec3 local;
    double depth = 0;
    if (insideRevolved(s, q, &local, &depth)) {
      out->point = s.pose.apply(local);
      out->distance = depth;
      out->inside = true;
      // The margin (depth ≥ margin > 0) is along x − p.
      return nameFeature(s, out->point, depth > 0 ? (out->point - p) / depth : Vec3{}, hull, &out->feature);
    }
  }
  const Shape q = pointShape(p);
  PenetrationResult r;
  if (!closedPenetration(s, q, &r)) r = penetration(PosedShape(s), PosedShape(q), gjkSettings, epaSettings);
  // pointB is p itself (a point shape's only point) in both cases: apart,
  // pointA is A's point nearest p; overlapping, pointA = p + depth·normal
  // is where the minimum translation takes p out of A, on A's surface.
  out->point = r.pointA;
  out->inside = r.intersecting;
  out->distance = r.intersecting ? r.depth : length(r.pointA - p);
  out->iterations = r.iterations;
  out->status = r.status;
  // r.normal points out of A at pointA: from its core toward p when apart.
  nameFeature(s, out->point, r.normal, hull, &out->feature);
}

}  // namespace collidoscope
