// Shared pieces of the libFuzzer targets (tests/fuzz/fuzz_*.cpp): turning
// fuzzer bytes into numbers and shapes, and reporting a broken invariant.
//
// A broken invariant prints one line "INVARIANT <target>: <what>" (plus the
// details that reproduce it) to stderr and aborts, so libFuzzer keeps the
// input as a crash file; scripts/fuzz.mjs shows that line.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "collidoscope/math.h"
#include "collidoscope/scene.h"
#include "collidoscope/shapes.h"
#include "reference.h"  // tests/cpp: closed-form support values, independent of the library

namespace fuzz {

using collidoscope::Quat;
using collidoscope::Shape;
using collidoscope::ShapeType;
using collidoscope::Vec3;

// ---- reporting ------------------------------------------------------------------

[[noreturn]] inline void fail(const char* target, const std::string& what, const std::string& details) {
  // The crash file holds the whole input; the log gets a readable excerpt.
  constexpr std::size_t kMaxDetails = 4000;
  const std::string shown =
      details.size() > kMaxDetails ? details.substr(0, kMaxDetails) + "… (" + std::to_string(details.size()) + " bytes)" : details;
  std::fprintf(stderr, "\nINVARIANT %s: %s\n%s\n", target, what.c_str(), shown.c_str());
  std::fflush(stderr);
  std::abort();
}

inline std::string str(double d) {
  std::ostringstream o;
  o.precision(17);
  o << d;
  return o.str();
}

inline std::string str(const Vec3& v) { return "[" + str(v.x) + ", " + str(v.y) + ", " + str(v.z) + "]"; }

// A shape as scene-format JSON (what the scene parser and the page read),
// for repros. Non-finite numbers are written as they are (not valid JSON,
// but readable).
inline std::string describe(const Shape& s) {
  std::string o = std::string("{\"type\": \"") + collidoscope::shapeTypeName(s.type) + "\"";
  switch (s.type) {
    case ShapeType::Sphere: o += ", \"radius\": " + str(s.radius); break;
    case ShapeType::Box: o += ", \"halfExtents\": " + str(s.halfExtents); break;
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
    case ShapeType::Cone: o += ", \"radius\": " + str(s.radius) + ", \"halfHeight\": " + str(s.halfHeight); break;
    case ShapeType::Ellipsoid: o += ", \"radii\": " + str(s.radii); break;
    case ShapeType::Segment:
    case ShapeType::Triangle:
    case ShapeType::Polytope: {
      o += ", \"points\": [";
      for (std::size_t i = 0; i < s.points.size(); ++i) o += (i ? ", " : "") + str(s.points[i]);
      o += "]";
      break;
    }
    default: break;
  }
  const Quat& q = s.pose.rotation;
  o += ", \"margin\": " + str(s.margin) + ", \"position\": " + str(s.pose.position) + ", \"rotation\": [" + str(q.x) +
       ", " + str(q.y) + ", " + str(q.z) + ", " + str(q.w) + "]}";
  return o;
}

// ---- numbers from bytes -----------------------------------------------------------
//
// One tag byte chooses how the next bytes become a double. Small integers
// and multiples of 1/16 make the coincident, coplanar and touching
// configurations that break geometry code; powers of ten span the scales;
// raw bit patterns and the special table give NaN, ±∞, denormals, −0 and
// the limits around kMaxMagnitude.
inline double number(FuzzedDataProvider& in) {
  static const double kSpecial[] = {0.0,
                                    -0.0,
                                    1.0,
                                    -1.0,
                                    0.5,
                                    1e-300,
                                    std::numeric_limits<double>::denorm_min(),
                                    -std::numeric_limits<double>::denorm_min(),
                                    std::numeric_limits<double>::min(),
                                    1e15,
                                    -1e15,
                                    1.0000000000000002e15,
                                    1e16,
                                    std::numeric_limits<double>::max(),
                                    std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity(),
                                    std::numeric_limits<double>::quiet_NaN(),
                                    1e-9,
                                    1.0000000000000002,
                                    0.99999999999999989};
  const int tag = in.ConsumeIntegralInRange<int>(0, 7);
  switch (tag) {
    case 0:
    case 1:
    case 2: return in.ConsumeIntegralInRange<int>(-8, 8);
    case 3: return in.ConsumeIntegralInRange<int>(-64, 64) / 16.0;
    case 4: return in.ConsumeIntegralInRange<int>(-9, 9) * std::pow(10.0, in.ConsumeIntegralInRange<int>(-12, 12));
    case 5: {
      std::uint64_t bits = in.ConsumeIntegral<std::uint64_t>();
      double d;
      std::memcpy(&d, &bits, sizeof d);
      return d;
    }
    case 6: return kSpecial[in.ConsumeIntegralInRange<std::size_t>(0, sizeof kSpecial / sizeof kSpecial[0] - 1)];
    default: return in.ConsumeFloatingPointInRange<double>(-10.0, 10.0);
  }
}

inline Vec3 vec(FuzzedDataProvider& in) {
  const double x = number(in), y = number(in), z = number(in);
  return {x, y, z};
}

// Into the valid range of a coordinate (|x| ≤ limit, finite).
inline double clampCoord(double x, double limit = 1e6) {
  if (std::isnan(x)) return 0;
  return std::fmax(-limit, std::fmin(limit, x));
}
// Into the valid range of a size (0 ≤ x ≤ limit).
inline double clampSize(double x, double limit = 1e6) {
  if (std::isnan(x)) return 1;
  return std::fmin(limit, std::fabs(x));
}
inline Vec3 clampCoord(const Vec3& v, double limit = 1e6) {
  return {clampCoord(v.x, limit), clampCoord(v.y, limit), clampCoord(v.z, limit)};
}
inline Vec3 clampSize(const Vec3& v, double limit = 1e6) {
  return {clampSize(v.x, limit), clampSize(v.y, limit), clampSize(v.z, limit)};
}

// Smallest size of a valid shape relative to its largest one (see shape()).
constexpr double kMinAspect = 1e-6;

// ---- shapes from bytes ---------------------------------------------------------------
//
// valid = true clamps every number into the range validateShape accepts
// (and normalizes the rotation as the scene parser does); valid = false
// passes the raw numbers, which exercises validation. Point counts always
// fit the type (2 for a segment, 3 for a triangle, 1–16 for a polytope):
// the algorithms take shapes that passed validateShape, whose structural
// checks are the scene parser's business (fuzz_scene).
inline Shape shape(FuzzedDataProvider& in, bool valid) {
  Shape s;
  s.type = static_cast<ShapeType>(in.ConsumeIntegralInRange<int>(0, 9));
  auto size = [&]() { return valid ? clampSize(number(in)) : number(in); };
  auto sizes = [&]() { return valid ? clampSize(vec(in)) : vec(in); };
  auto point = [&]() { return valid ? clampCoord(vec(in)) : vec(in); };
  switch (s.type) {
    case ShapeType::Point: break;
    case ShapeType::Sphere: s.radius = size(); break;
    case ShapeType::Box: s.halfExtents = sizes(); break;
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
    case ShapeType::Cone:
      s.radius = size();
      s.halfHeight = size();
      break;
    case ShapeType::Ellipsoid: s.radii = sizes(); break;
    case ShapeType::Segment:
    case ShapeType::Triangle:
    case ShapeType::Polytope: {
      const int n = s.type == ShapeType::Segment ? 2
                    : s.type == ShapeType::Triangle ? 3
                                                    : in.ConsumeIntegralInRange<int>(1, 16);
      for (int i = 0; i < n; ++i) {
        // Repeat an earlier point now and then: duplicates and coincident
        // vertices are the classic degenerate input.
        if (i > 0 && in.ConsumeIntegralInRange<int>(0, 7) == 0)
          s.points.push_back(s.points[in.ConsumeIntegralInRange<std::size_t>(0, s.points.size() - 1)]);
        else
          s.points.push_back(point());
      }
      break;
    }
  }
  if (in.ConsumeBool()) s.margin = size();
  if (valid) {
    // Valid shapes keep their sizes within kMinAspect of the largest (a
    // smaller one becomes 0: exactly flat, a segment-like cylinder); see
    // conditioned().
    double* sizes[] = {&s.radius, &s.halfHeight, &s.halfExtents.x, &s.halfExtents.y, &s.halfExtents.z,
                       &s.radii.x,  &s.radii.y,     &s.radii.z,       &s.margin};
    double largest = 0;
    for (double* v : sizes) largest = std::fmax(largest, *v);
    for (double* v : sizes)
      if (*v < kMinAspect * largest) *v = 0;
  }
  s.pose.position = point();
  if (in.ConsumeBool()) {
    double q[4] = {number(in), number(in), number(in), number(in)};
    if (valid) {
      for (double& c : q) c = clampCoord(c, 1e6);
      if (!collidoscope::normalizeRotation(q)) q[0] = q[1] = q[2] = 0, q[3] = 1;
    }
    s.pose.rotation = {q[0], q[1], q[2], q[3]};
  }
  return s;
}

// Whether the accuracy checks apply: every size of the shape is 0 or within
// kMinAspect of its largest. A needle of radius 1e-11 and length 16 puts
// rounding of u·16/1e-11 ≈ 2e-4 into anything computed across it (found by
// fuzz_pair: EPA's touching contact point on such a cylinder lands 2e-4
// from the point it touches; reported with issue 8) — beyond any accuracy
// a scene-relative tolerance can ask for. Such shapes (raw inputs can be
// valid and still this thin) are checked for crashes and caps only.
inline bool conditioned(const Shape& s) {
  const double sizes[] = {s.radius,  s.halfHeight, s.halfExtents.x, s.halfExtents.y, s.halfExtents.z,
                          s.radii.x, s.radii.y,    s.radii.z,       s.margin};
  double largest = 0;
  for (double v : sizes) largest = std::fmax(largest, v);
  for (double v : sizes)
    if (v != 0 && v < kMinAspect * largest) return false;
  return true;
}

// ---- geometry checks (independent of the library: ref:: closed forms) ----------------

// Directions for containment tests: the 26 axis/edge/corner directions and
// a Fibonacci spread of 74 more.
inline const std::vector<Vec3>& testDirections() {
  static const std::vector<Vec3> dirs = [] {
    std::vector<Vec3> d;
    for (int x = -1; x <= 1; ++x)
      for (int y = -1; y <= 1; ++y)
        for (int z = -1; z <= 1; ++z)
          if (x || y || z) d.push_back(ref::unit(Vec3(x, y, z)));
    const int n = 74;
    for (int i = 0; i < n; ++i) {
      const double yy = 1 - (2.0 * i + 1) / n, r = std::sqrt(std::fmax(0.0, 1 - yy * yy)), phi = 2.399963229728653 * i;
      d.push_back({r * std::cos(phi), yy, r * std::sin(phi)});
    }
    return d;
  }();
  return dirs;
}

// How far p lies outside the full shape s, as seen from the test directions:
// max over u of u·p − h_s(u) (≤ 0 inside). A lower bound of the true
// distance outside, exact enough to catch a point that is not on its shape.
inline double outside(const Vec3& p, const Shape& s, Vec3* worst = nullptr) {
  double best = -std::numeric_limits<double>::infinity();
  for (const Vec3& u : testDirections()) {
    const double d = ref::dot3(u, p) - ref::supportValue(s, u);
    if (d > best) {
      best = d;
      if (worst) *worst = u;
    }
  }
  return best;
}

// Overlap of A and B along unit u: h_A(u) + h_B(−u) (> 0 overlap along u,
// < 0 a gap: u separates them, B beyond A).
inline double overlapAlong(const Shape& a, const Shape& b, const Vec3& u) {
  return ref::supportValue(a, u) + ref::supportValue(b, -u);
}

inline bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace fuzz
