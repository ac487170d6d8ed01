// Independent reference geometry for the collidoscope tests.
//
// Nothing here calls the library's geometry (support mappings, rotate(),
// GJK, the simplex solver): rotations go through our own 3x3 matrix, support
// *values* h_S(u) = max_{x in S} u·x are closed forms per shape, and
// distances come from closest-point formulas (clamping, region tests,
// Eberly's bisection for ellipsoids). Only the plain Vec3/Quat/Shape data
// types are shared, so a test failure points at the library, not at a
// shared helper.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "collidoscope/mesh_shape.h"
#include "collidoscope/shapes.h"

namespace ref {

using collidoscope::Quat;
using collidoscope::Shape;
using collidoscope::ShapeType;
using collidoscope::Vec3;

inline double dot3(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross3(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
inline double maxAbs3(const Vec3& v) { return std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)}); }
// Where |a|² leaves the normal range (coordinates below ~1e-154 or above
// ~1e154) it is computed on a / max|a_i| instead, so a tiny scene's
// lengths do not underflow to 0 (fuzz_pair's checks on a scene at 1e-299).
inline double norm(const Vec3& a) {
  const double d = dot3(a, a);
  if (d >= std::numeric_limits<double>::min() && std::isfinite(d)) return std::sqrt(d);
  const double m = maxAbs3(a);
  if (!(m > 0) || !std::isfinite(m)) return std::sqrt(d);
  const Vec3 s = a / m;
  return m * std::sqrt(dot3(s, s));
}
inline double dist(const Vec3& a, const Vec3& b) { return norm(a - b); }
inline Vec3 unit(const Vec3& v) { return v / norm(v); }

// ---- rotation as a matrix (independent of collidoscope::rotate) ----------

struct Mat3 {
  double m[3][3];
  Vec3 mul(const Vec3& v) const {  // R v
    return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z, m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
            m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
  }
  Vec3 mulT(const Vec3& v) const {  // R^T v
    return {m[0][0] * v.x + m[1][0] * v.y + m[2][0] * v.z, m[0][1] * v.x + m[1][1] * v.y + m[2][1] * v.z,
            m[0][2] * v.x + m[1][2] * v.y + m[2][2] * v.z};
  }
};

// Standard unit-quaternion -> rotation matrix (q normalized here).
inline Mat3 matrixOf(const Quat& q0) {
  const double n = std::sqrt(q0.x * q0.x + q0.y * q0.y + q0.z * q0.z + q0.w * q0.w);
  const double x = q0.x / n, y = q0.y / n, z = q0.z / n, w = q0.w / n;
  Mat3 r;
  r.m[0][0] = 1 - 2 * (y * y + z * z);
  r.m[0][1] = 2 * (x * y - z * w);
  r.m[0][2] = 2 * (x * z + y * w);
  r.m[1][0] = 2 * (x * y + z * w);
  r.m[1][1] = 1 - 2 * (x * x + z * z);
  r.m[1][2] = 2 * (y * z - x * w);
  r.m[2][0] = 2 * (x * z - y * w);
  r.m[2][1] = 2 * (y * z + x * w);
  r.m[2][2] = 1 - 2 * (x * x + y * y);
  return r;
}

inline Vec3 toWorld(const Shape& s, const Vec3& local) { return matrixOf(s.pose.rotation).mul(local) + s.pose.position; }
inline Vec3 toLocal(const Shape& s, const Vec3& world) { return matrixOf(s.pose.rotation).mulT(world - s.pose.position); }
inline Vec3 dirToLocal(const Shape& s, const Vec3& world) { return matrixOf(s.pose.rotation).mulT(world); }

// ---- support values --------------------------------------------------------

// Radius of the sphere swept over the core: the sphere's and capsule's own
// radius plus the margin (DESIGN.md: margin = Minkowski sum with a sphere).
inline double roundRadius(const Shape& s) {
  const double own = (s.type == ShapeType::Sphere || s.type == ShapeType::Capsule) ? s.radius : 0.0;
  return own + s.margin;
}

// h_core(u) in local coordinates, closed forms.
inline double localCoreSupportValue(const Shape& s, const Vec3& u) {
  switch (s.type) {
    case ShapeType::Point:
    case ShapeType::Sphere:
      return 0;
    case ShapeType::Plane:  // a half-space: unbounded along every direction but its normal
      return std::numeric_limits<double>::infinity();
    case ShapeType::Box:
      return s.halfExtents.x * std::fabs(u.x) + s.halfExtents.y * std::fabs(u.y) + s.halfExtents.z * std::fabs(u.z);
    case ShapeType::Capsule:
      return s.halfHeight * std::fabs(u.y);
    case ShapeType::Cylinder:  // two discs of radius r at y = ±h
      return s.halfHeight * std::fabs(u.y) + s.radius * std::hypot(u.x, u.z);
    case ShapeType::Cone: {  // apex (0,h,0) or base rim at y = -h
      const double apex = s.halfHeight * u.y;
      const double rim = -s.halfHeight * u.y + s.radius * std::hypot(u.x, u.z);
      return std::max(apex, rim);
    }
    case ShapeType::Ellipsoid: {
      const double a = s.radii.x * u.x, b = s.radii.y * u.y, c = s.radii.z * u.z;
      return std::sqrt(a * a + b * b + c * c);
    }
    case ShapeType::Segment:
    case ShapeType::Triangle:
    case ShapeType::Polytope: {
      double best = -std::numeric_limits<double>::infinity();
      for (const Vec3& p : s.points) best = std::max(best, dot3(p, u));
      return best;
    }
    case ShapeType::Mesh: {  // the support of its vertices' hull
      double best = -std::numeric_limits<double>::infinity();
      for (const Vec3& p : s.meshData->mesh.vertices) best = std::max(best, dot3(p, u));
      return best;
    }
    case ShapeType::Compound:  // not convex: the compound tests answer child by child
      return 0;
  }
  return 0;
}

// h_S(u) = max over the full (rounded, posed) shape of u·x, u in world space.
inline double supportValue(const Shape& s, const Vec3& u) {
  return localCoreSupportValue(s, dirToLocal(s, u)) + dot3(u, s.pose.position) + roundRadius(s) * norm(u);
}

// Radius of a ball about the shape's position containing the whole shape.
inline double boundingRadius(const Shape& s) {
  double core = 0;
  switch (s.type) {
    case ShapeType::Point:
    case ShapeType::Sphere:
      break;
    case ShapeType::Box:
      core = norm(s.halfExtents);
      break;
    case ShapeType::Capsule:
      core = s.halfHeight;
      break;
    case ShapeType::Cylinder:
    case ShapeType::Cone:
      core = std::hypot(s.radius, s.halfHeight);
      break;
    case ShapeType::Ellipsoid:
      core = maxAbs3(s.radii);
      break;
    default:
      for (const Vec3& p : s.points) core = std::max(core, norm(p));
  }
  return core + roundRadius(s);
}

// Largest coordinate magnitude of the scene: the scale of the library's
// accuracy promise ("within about 1e-9 of the scene's scale").
inline double sceneScale(const Shape& a, const Shape& b) {
  return std::max({1e-300, maxAbs3(a.pose.position) + boundingRadius(a), maxAbs3(b.pose.position) + boundingRadius(b)});
}

// ---- closest points -------------------------------------------------------

inline Vec3 closestOnSegment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 e = b - a;
  const double ee = dot3(e, e);
  if (!(ee > 0)) return a;
  double t = dot3(p - a, e) / ee;
  t = std::min(1.0, std::max(0.0, t));
  return a + e * t;
}
inline double pointSegmentDistance(const Vec3& p, const Vec3& a, const Vec3& b) {
  return dist(p, closestOnSegment(p, a, b));
}

// Closest point of triangle abc to p: if the orthogonal projection of p on
// the plane has non-negative barycentric coordinates (solved by the 2x2
// normal equations) it is the answer; otherwise the answer lies on an edge,
// and the nearest of the three edge points is taken. Degenerate (collinear)
// triangles fall through to the edges.
inline Vec3 closestOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 e1 = b - a, e2 = c - a, d = p - a;
  const double a11 = dot3(e1, e1), a12 = dot3(e1, e2), a22 = dot3(e2, e2);
  const double b1 = dot3(d, e1), b2 = dot3(d, e2);
  const double det = a11 * a22 - a12 * a12;
  if (det > 1e-14 * a11 * a22) {
    const double s = (b1 * a22 - b2 * a12) / det;
    const double t = (a11 * b2 - a12 * b1) / det;
    if (s >= 0 && t >= 0 && s + t <= 1) return a + e1 * s + e2 * t;
  }
  const Vec3 q[3] = {closestOnSegment(p, a, b), closestOnSegment(p, b, c), closestOnSegment(p, c, a)};
  int best = 0;
  for (int i = 1; i < 3; ++i)
    if (dist(p, q[i]) < dist(p, q[best])) best = i;
  return q[best];
}
inline double pointTriangleDistance(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  return dist(p, closestOnTriangle(p, a, b, c));
}

// Segment-segment distance. f(s,t) = |p0 + s d1 − q0 − t d2|² is a convex
// quadratic on [0,1]²: its minimum is either the unconstrained stationary
// point (when it lies inside the square and the lines are not parallel) or on
// the square's boundary, where one parameter is 0 or 1, i.e. an endpoint-to-
// segment distance. Parallel segments have their minimum on the boundary
// too, so they need no special formula.
inline double segmentSegmentDistance(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1,
                                     Vec3* onP = nullptr, Vec3* onQ = nullptr) {
  struct Cand {
    Vec3 a, b;
  };
  Cand c[5] = {{p0, closestOnSegment(p0, q0, q1)},
               {p1, closestOnSegment(p1, q0, q1)},
               {closestOnSegment(q0, p0, p1), q0},
               {closestOnSegment(q1, p0, p1), q1},
               {p0, q0}};
  int n = 4;
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = dot3(d1, d1), e = dot3(d2, d2), b = dot3(d1, d2), cc = dot3(d1, r), f = dot3(d2, r);
  const double den = a * e - b * b;
  if (a > 0 && e > 0 && den > 1e-14 * a * e) {
    const double s = (b * f - cc * e) / den;
    const double t = (a * f - b * cc) / den;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) c[n++] = {p0 + d1 * s, q0 + d2 * t};
  }
  int best = 0;
  for (int i = 1; i < n; ++i)
    if (dist(c[i].a, c[i].b) < dist(c[best].a, c[best].b)) best = i;
  if (onP) *onP = c[best].a;
  if (onQ) *onQ = c[best].b;
  return dist(c[best].a, c[best].b);
}

// Distance from a world point to a posed box (core only): clamp in the box frame.
inline double pointBoxDistance(const Vec3& p, const Shape& box) {
  const Vec3 l = toLocal(box, p);
  const Vec3 h = box.halfExtents;
  const Vec3 c{std::clamp(l.x, -h.x, h.x), std::clamp(l.y, -h.y, h.y), std::clamp(l.z, -h.z, h.z)};
  return norm(l - c);
}

// Distance from a world point to a posed cylinder core: in the (ρ, y) half
// plane the solid is a rectangle [0,r]x[−h,h].
inline double pointCylinderDistance(const Vec3& p, const Shape& cyl) {
  const Vec3 l = toLocal(cyl, p);
  const double rho = std::hypot(l.x, l.z);
  const double dr = std::max(0.0, rho - cyl.radius), dy = std::max(0.0, std::fabs(l.y) - cyl.halfHeight);
  return std::hypot(dr, dy);
}

// Distance from a world point to a posed cone core: in the (ρ, y) half plane
// the solid is the triangle (0,h), (0,−h), (r,−h).
inline double pointConeDistance(const Vec3& p, const Shape& cone) {
  const Vec3 l = toLocal(cone, p);
  const Vec3 q{std::hypot(l.x, l.z), l.y, 0};
  return pointTriangleDistance(q, {0, cone.halfHeight, 0}, {0, -cone.halfHeight, 0},
                               {cone.radius, -cone.halfHeight, 0});
}

// Distance from an outside point to an ellipsoid core (Eberly, "Distance from
// a point to an ellipse, an ellipsoid, or a hyperellipsoid"): the closest
// point is x_i = r_i² p_i / (t + r_i²) where t > 0 is the root of
// F(t) = Σ (r_i p_i / (t + r_i²))² − 1, decreasing on t ≥ 0; bisection.
inline double pointEllipsoidDistance(const Vec3& pw, const Shape& e) {
  const Vec3 p = toLocal(e, pw);
  const double r[3] = {e.radii.x, e.radii.y, e.radii.z};
  const double q[3] = {p.x, p.y, p.z};
  auto F = [&](double t) {
    double s = 0;
    for (int i = 0; i < 3; ++i) {
      const double z = r[i] * q[i] / (t + r[i] * r[i]);
      s += z * z;
    }
    return s - 1;
  };
  if (F(0) <= 0) return 0;  // inside
  double lo = 0, hi = maxAbs3(e.radii) * norm(p) + 1e-300;
  for (int it = 0; it < 2000 && hi > lo; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (F(mid) > 0 ? lo : hi) = mid;
  }
  const double t = 0.5 * (lo + hi);
  Vec3 x;
  for (int i = 0; i < 3; ++i) x[i] = r[i] * r[i] * q[i] / (t + r[i] * r[i]);
  return norm(p - x);
}

// ---- convex hulls of point sets by brute force -----------------------------

// Distance between conv(P) and conv(Q), valid when they do not intersect:
// the closest pair lies on boundary triangles of both, and the distance of
// two disjoint triangles is the minimum over their 9 edge pairs and 6
// vertex-triangle pairs. Taken over all triples of P and Q that is exactly
// the minimum over all point pairs' segments and all point-triangle pairs.
inline double hullHullDistanceBrute(const std::vector<Vec3>& P, const std::vector<Vec3>& Q) {
  double best = std::numeric_limits<double>::infinity();
  const std::size_t np = P.size(), nq = Q.size();
  for (std::size_t i = 0; i < np; ++i)
    for (std::size_t j = i; j < np; ++j)
      for (std::size_t k = 0; k < nq; ++k)
        for (std::size_t l = k; l < nq; ++l) best = std::min(best, segmentSegmentDistance(P[i], P[j], Q[k], Q[l]));
  auto pointTris = [&](const std::vector<Vec3>& pts, const std::vector<Vec3>& tri) {
    for (const Vec3& p : pts)
      for (std::size_t i = 0; i < tri.size(); ++i)
        for (std::size_t j = i + 1; j < tri.size(); ++j)
          for (std::size_t k = j + 1; k < tri.size(); ++k)
            best = std::min(best, pointTriangleDistance(p, tri[i], tri[j], tri[k]));
  };
  pointTris(P, Q);
  pointTris(Q, P);
  return best;
}

// ---- random generation -----------------------------------------------------

struct Rng {
  std::mt19937_64 gen;
  explicit Rng(std::uint64_t seed) : gen(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen); }
  double logUniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); }
  double normal() { return std::normal_distribution<double>(0, 1)(gen); }
  Vec3 inCube(double h) { return {uniform(-h, h), uniform(-h, h), uniform(-h, h)}; }
  Vec3 direction() {
    for (;;) {
      const Vec3 v{normal(), normal(), normal()};
      const double n = norm(v);
      if (n > 1e-6) return v / n;
    }
  }
  Vec3 inBall(double r) { return direction() * (r * std::cbrt(uniform(0, 1))); }
  Quat rotation() {  // uniform over SO(3): a normalized 4D Gaussian
    for (;;) {
      const double q[4] = {normal(), normal(), normal(), normal()};
      const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
      if (n > 1e-3) return {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
    }
  }
};

// Signed height of a world point over a plane shape's surface (its margin
// left out): n̂·x − d̂ with the normal and offset divided by |n| and posed.
inline double planeHeight(const Vec3& p, const Shape& s) {
  const double len = std::sqrt(dot(s.normal, s.normal));
  const Vec3 n = rotate(s.pose.rotation, s.normal / len);
  return dot(n, p - s.pose.position) - s.offset / len;
}

// A random shape of the given type, size ~`size`, at the origin, unrotated.
inline Shape randomShape(Rng& rng, ShapeType t, double size) {
  auto sz = [&]() { return size * rng.uniform(0.1, 1.0); };
  Shape s;
  switch (t) {
    case ShapeType::Point: s = Shape::point(); break;
    case ShapeType::Plane: s = Shape::plane(rng.direction(), sz()); break;
    case ShapeType::Sphere: s = Shape::sphere(sz()); break;
    case ShapeType::Box: s = Shape::box({sz(), sz(), sz()}); break;
    case ShapeType::Capsule: s = Shape::capsule(sz(), sz()); break;
    case ShapeType::Cylinder: s = Shape::cylinder(sz(), sz()); break;
    case ShapeType::Cone: s = Shape::cone(sz(), sz()); break;
    case ShapeType::Ellipsoid: s = Shape::ellipsoid({sz(), sz(), sz()}); break;
    case ShapeType::Segment: s = Shape::segment(rng.inBall(size), rng.inBall(size)); break;
    case ShapeType::Triangle: s = Shape::triangle(rng.inBall(size), rng.inBall(size), rng.inBall(size)); break;
    case ShapeType::Polytope: {
      std::vector<Vec3> pts(static_cast<std::size_t>(rng.integer(4, 12)));
      for (Vec3& p : pts) p = rng.inBall(size);
      s = Shape::polytope(pts);
      break;
    }
    case ShapeType::Mesh: break;  // not convex: the mesh tests make their own (mesh_gen.h)
    case ShapeType::Compound: break;  // not convex: test_compound.cpp makes its own
  }
  return s;
}

constexpr ShapeType kAllTypes[] = {ShapeType::Point,     ShapeType::Sphere,  ShapeType::Box,      ShapeType::Capsule,
                                   ShapeType::Cylinder,  ShapeType::Cone,    ShapeType::Ellipsoid, ShapeType::Segment,
                                   ShapeType::Triangle,  ShapeType::Polytope};

}  // namespace ref
