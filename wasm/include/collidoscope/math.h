// collidoscope — value types: Vec3, Quat, Transform (double precision).
//
// Everything is a plain aggregate with inline operators so that the NoTrace
// build of every algorithm compiles down to straight-line arithmetic. The
// build uses -ffp-contract=off: no fused multiply-adds, so the same inputs
// give the same bits natively (x86-64) and in WebAssembly.
#pragma once

#include <cmath>

#include "collidoscope/numeric.h"

namespace collidoscope {

struct Vec3 {
  double x = 0, y = 0, z = 0;

  constexpr Vec3() = default;
  constexpr Vec3(double x_, double y_, double z_) : x(x_), y(y_), z(z_) {}

  double operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
  double& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }

  constexpr Vec3 operator-() const { return {-x, -y, -z}; }
  constexpr Vec3 operator+(const Vec3& o) const { return {x + o.x, y + o.y, z + o.z}; }
  constexpr Vec3 operator-(const Vec3& o) const { return {x - o.x, y - o.y, z - o.z}; }
  constexpr Vec3 operator*(double s) const { return {x * s, y * s, z * s}; }
  constexpr Vec3 operator/(double s) const { return {x / s, y / s, z / s}; }
  Vec3& operator+=(const Vec3& o) { x += o.x; y += o.y; z += o.z; return *this; }
  Vec3& operator-=(const Vec3& o) { x -= o.x; y -= o.y; z -= o.z; return *this; }
  Vec3& operator*=(double s) { x *= s; y *= s; z *= s; return *this; }
  constexpr bool operator==(const Vec3& o) const { return x == o.x && y == o.y && z == o.z; }
  constexpr bool operator!=(const Vec3& o) const { return !(*this == o); }
};

constexpr Vec3 operator*(double s, const Vec3& v) { return v * s; }
constexpr double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
constexpr Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
constexpr double lengthSquared(const Vec3& v) { return dot(v, v); }
inline double length(const Vec3& v) { return std::sqrt(dot(v, v)); }
// std::fmax's answer for numbers not below +0 (a NaN argument ignored)
// without its library call: WebAssembly's f64.max returns NaN for a NaN
// argument, so std::fmax is a function call there, in the queries' inner
// loops.
inline double maxOfNonNegative(double a, double b) { return a > b || b != b ? a : b; }

inline double maxAbs(const Vec3& v) {
  return maxOfNonNegative(std::fabs(v.x), maxOfNonNegative(std::fabs(v.y), std::fabs(v.z)));
}
inline bool isFinite(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Unit vector along v, or `fallback` when v is zero or so small that its
// squared length underflows. The division is by the exact square root, so
// the result has length 1 within a few ulps.
inline Vec3 normalizedOr(const Vec3& v, const Vec3& fallback) {
  const double m = maxAbs(v);
  if (!(m > 0)) return fallback;
  const Vec3 s = v / m;  // pre-scale: avoids underflow/overflow in dot()
  return s / length(s);
}

// ‖v‖ also where ‖v‖² falls among the denormals (components below about
// 1e-154 in magnitude, where length() loses digits or gives 0). At or above
// 2^-920 the plain square root is taken (each square lost to underflow is
// then below 2^-150 of the sum); below, every component is below 2^-460 and
// v is measured 2^600 times larger (exact: a power of two; its squares,
// at least 2^-948, are normal doubles). NaN in, NaN out.
inline double lengthNoUnderflow(const Vec3& v) {
  const double s = dot(v, v);
  if (s >= 0x1p-920 || !(s == s)) return std::sqrt(s);
  return length(v * 0x1p600) * 0x1p-600;
}

// v / len for len = lengthNoUnderflow(v) > 0: v · (1 / len) where len is at
// least 2^-460 (the plain formula's bits), else normalizedOr's pre-scaled
// form, since 1 / len overflows for a denormal len. Unit within a few ulps.
inline Vec3 unitOfLength(const Vec3& v, double len) {
  if (len >= 0x1p-460) return v * (1 / len);
  return normalizedOr(v, v);
}

// Rotation quaternion (x, y, z, w), unit length. Scene input is normalized
// on entry (see scene.cpp), so the rotation helpers below may assume |q| = 1.
struct Quat {
  double x = 0, y = 0, z = 0, w = 1;
};

inline Quat conjugate(const Quat& q) { return {-q.x, -q.y, -q.z, q.w}; }

// v' = q v q*, written as v + 2w (u × v) + 2 u × (u × v) with u = (x, y, z).
inline Vec3 rotate(const Quat& q, const Vec3& v) {
  const Vec3 u{q.x, q.y, q.z};
  const Vec3 t = cross(u, v) * 2.0;
  return v + t * q.w + cross(u, t);
}
inline Vec3 inverseRotate(const Quat& q, const Vec3& v) { return rotate(conjugate(q), v); }

// A rigid pose: x_world = rotation · x_local + position.
struct Transform {
  Vec3 position;
  Quat rotation;

  Vec3 apply(const Vec3& local) const { return rotate(rotation, local) + position; }
  Vec3 applyToDirection(const Vec3& local) const { return rotate(rotation, local); }
  Vec3 toLocalDirection(const Vec3& world) const { return inverseRotate(rotation, world); }
};

}  // namespace collidoscope
