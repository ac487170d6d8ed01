// Thin wrappers around the library calls the tests make, plus checks shared
// by several test files. Expected values never come from here: they come
// from reference.h.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "collidoscope/gjk.h"
#include "collidoscope/shapes.h"
#include "reference.h"

namespace testutil {

using collidoscope::DistanceResult;
using collidoscope::GjkStatus;
using collidoscope::IntersectResult;
using collidoscope::PosedShape;
using collidoscope::Quat;
using collidoscope::Shape;
using collidoscope::Vec3;

inline DistanceResult distance(const Shape& a, const Shape& b) {
  return collidoscope::gjkDistance(PosedShape(a), PosedShape(b));
}
inline IntersectResult intersect(const Shape& a, const Shape& b) {
  return collidoscope::gjkIntersect(PosedShape(a), PosedShape(b));
}

inline std::string str(const Vec3& v) {
  std::ostringstream o;
  o.precision(17);
  o << "[" << v.x << ", " << v.y << ", " << v.z << "]";
  return o.str();
}

// C++ snippet that rebuilds a shape, for failure messages (minimal repros).
inline std::string describe(const Shape& s) {
  std::ostringstream o;
  o.precision(17);
  o << collidoscope::shapeTypeName(s.type) << "{";
  switch (s.type) {
    case collidoscope::ShapeType::Sphere: o << "r=" << s.radius; break;
    case collidoscope::ShapeType::Box: o << "h=" << str(s.halfExtents); break;
    case collidoscope::ShapeType::Capsule:
    case collidoscope::ShapeType::Cylinder:
    case collidoscope::ShapeType::Cone: o << "r=" << s.radius << " hh=" << s.halfHeight; break;
    case collidoscope::ShapeType::Ellipsoid: o << "radii=" << str(s.radii); break;
    case collidoscope::ShapeType::Segment:
    case collidoscope::ShapeType::Triangle:
    case collidoscope::ShapeType::Polytope:
      o << "pts=";
      for (const Vec3& p : s.points) o << str(p);
      break;
    default: break;
  }
  const Quat& q = s.pose.rotation;
  o << " margin=" << s.margin << " pos=" << str(s.pose.position) << " rot=[" << q.x << ", " << q.y << ", " << q.z
    << ", " << q.w << "]}";
  return o.str();
}

inline bool statusOk(GjkStatus s) { return s == GjkStatus::Converged || s == GjkStatus::Degenerate; }

inline bool resultFinite(const DistanceResult& r) {
  return std::isfinite(r.distance) && ref::finite(r.pointA) && ref::finite(r.pointB) && ref::finite(r.v);
}

// Checks that p lies in the full shape s: u·p ≤ h_S(u) + tol for many
// directions u (26 axis/diagonal directions plus `randomDirs` random ones).
inline ::testing::AssertionResult insideShape(const Vec3& p, const Shape& s, double tol, ref::Rng& rng,
                                              int randomDirs = 8) {
  auto check = [&](const Vec3& u) -> bool { return ref::dot3(u, p) <= ref::supportValue(s, u) + tol; };
  for (int x = -1; x <= 1; ++x)
    for (int y = -1; y <= 1; ++y)
      for (int z = -1; z <= 1; ++z) {
        if (!x && !y && !z) continue;
        const Vec3 u = ref::unit(Vec3(x, y, z));
        if (!check(u))
          return ::testing::AssertionFailure() << "point " << str(p) << " outside " << describe(s) << " along "
                                               << str(u) << " by " << ref::dot3(u, p) - ref::supportValue(s, u);
      }
  for (int i = 0; i < randomDirs; ++i) {
    const Vec3 u = rng.direction();
    if (!check(u))
      return ::testing::AssertionFailure() << "point " << str(p) << " outside " << describe(s) << " along "
                                           << str(u) << " by " << ref::dot3(u, p) - ref::supportValue(s, u);
  }
  return ::testing::AssertionSuccess();
}

}  // namespace testutil
