// Scene-format JSON for the C++ tests that run scenes: numbers written with
// 17 significant digits, so a scene reads back the doubles it was made of.
#pragma once

#include <cstdio>
#include <string>

#include "collidoscope/math.h"
#include "collidoscope/mesh.h"

namespace collidoscope {
namespace scenejson {

inline std::string num(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}
inline std::string vec(const Vec3& v) { return "[" + num(v.x) + "," + num(v.y) + "," + num(v.z) + "]"; }
inline std::string quat(const Quat& q) {
  return "[" + num(q.x) + "," + num(q.y) + "," + num(q.z) + "," + num(q.w) + "]";
}

// ,"position":[…],"rotation":[…] — to put inside a shape's braces.
inline std::string poseJson(const Transform& pose) {
  return ",\"position\":" + vec(pose.position) + ",\"rotation\":" + quat(pose.rotation);
}

// A mesh shape; `extra` goes before the closing brace (a pose, a scale, …).
inline std::string meshJson(const TriangleMesh& m, const std::string& extra = "") {
  std::string s = "{\"type\":\"mesh\",\"vertices\":[";
  for (std::size_t i = 0; i < m.vertices.size(); ++i) s += (i ? "," : "") + vec(m.vertices[i]);
  s += "],\"triangles\":[";
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const auto& tri = m.triangles[t];
    s += (t ? ",[" : "[") + std::to_string(tri[0]) + "," + std::to_string(tri[1]) + "," + std::to_string(tri[2]) + "]";
  }
  return s + "]" + extra + "}";
}
inline std::string meshJson(const TriangleMesh& m, const Transform& pose) { return meshJson(m, poseJson(pose)); }

}  // namespace scenejson
}  // namespace collidoscope
