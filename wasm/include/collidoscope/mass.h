// collidoscope — mass properties of the convex shapes, for the rigid-body
// solver (solver.h): mass, centre of mass and inertia tensor of a shape of
// uniform density.
//
// Method. Every shape's solid K (local frame, before the scale) gives its
// volume V, centroid c and second moment about c,
//     C = ∫_K (x − c)(x − c)ᵀ dV,
// from closed forms (the primitives) or by summing tetrahedra (polytopes).
// C carries everything the inertia needs, I = tr(C)·1 − C (per unit
// density), and unlike I it transforms simply under a linear map: the solid
// S·K (scale S = diag(scale)) has volume |det S|·V, centroid S·c and second
// moment |det S|·S·C·S, and a rotated child of a compound R·C·Rᵀ. So the
// scale and the compound's child poses are applied to C, and I is formed
// once at the end.
//
// The margin (an extra radius around the core) is counted exactly where it
// is a larger radius of the same kind of solid — a sphere or a capsule
// without scale — and ignored otherwise: a rounded box or polytope is a
// Minkowski sum whose mass the core's approximates to O(margin/size), and
// margins are skins of a few millimetres.
//
// Refused (status, *out zeroed): a point, segment or triangle (no volume), a
// polytope whose hull is flat; planes, meshes and heightfields (static
// only: no finite closed solid); a density not finite and > 0.
#pragma once

#include "collidoscope/math.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

// A 3×3 matrix, row-major: m[row][column].
struct Mat3 {
  double m[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};

  static Mat3 identity() { return diagonal({1, 1, 1}); }
  static Mat3 diagonal(const Vec3& d) {
    Mat3 r;
    r.m[0][0] = d.x;
    r.m[1][1] = d.y;
    r.m[2][2] = d.z;
    return r;
  }
  // The rotation matrix of a unit quaternion: columns are the rotated axes.
  static Mat3 rotation(const Quat& q) {
    Mat3 r;
    const Vec3 cols[3] = {rotate(q, {1, 0, 0}), rotate(q, {0, 1, 0}), rotate(q, {0, 0, 1})};
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) r.m[i][j] = cols[j][i];
    return r;
  }
  // a bᵀ
  static Mat3 outer(const Vec3& a, const Vec3& b) {
    Mat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.m[i][j] = a[i] * b[j];
    return r;
  }

  Vec3 operator*(const Vec3& v) const {
    return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z, m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
            m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
  }
  Mat3 operator*(const Mat3& o) const {
    Mat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.m[i][j] = m[i][0] * o.m[0][j] + m[i][1] * o.m[1][j] + m[i][2] * o.m[2][j];
    return r;
  }
  Mat3 operator+(const Mat3& o) const {
    Mat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.m[i][j] = m[i][j] + o.m[i][j];
    return r;
  }
  Mat3 operator-(const Mat3& o) const { return *this + o * -1.0; }
  Mat3 operator*(double s) const {
    Mat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.m[i][j] = m[i][j] * s;
    return r;
  }
  Mat3 transposed() const {
    Mat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.m[i][j] = m[j][i];
    return r;
  }
  double trace() const { return m[0][0] + m[1][1] + m[2][2]; }
  double determinant() const {
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  }
  bool finite() const {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (!std::isfinite(m[i][j])) return false;
    return true;
  }
};

// The inverse by cofactors; false (and *out untouched) when the determinant
// is not a positive-or-negative normal number relative to the entries
// (singular to rounding) or anything is not finite.
bool invert(const Mat3& a, Mat3* out);

enum class MassStatus {
  Ok,
  InvalidDensity,  // density NaN, infinite, zero or negative
  ZeroVolume,      // point, segment, triangle, or a polytope whose hull is flat
  StaticOnly,      // plane, mesh, heightfield: unbounded or a surface, never a moving solid
  InvalidShape,    // a compound without children data, a polytope without points
};

// Volume, centroid and second moment about the centroid of a solid at unit
// density (the header's V, c, C).
struct Moments {
  double volume = 0;
  Vec3 centroid;
  Mat3 second;
};

// A shape's moments (its unscaled solid's, margin per the header, then its
// scale); a compound's from its children's (compoundMoments).
MassStatus momentsOf(const Shape& s, Moments* out);
// In compound.cpp, with the rest of the compounds, which the default
// flavour leaves out (wasm/flavours/no_meshes.cpp: no compound is made there).
MassStatus compoundMoments(const Shape& s, Moments* out);

// A sentence naming the problem of a status (empty for Ok).
const char* massStatusMessage(MassStatus s);

struct MassProperties {
  double mass = 0;
  double volume = 0;
  Vec3 centerOfMass;  // in the shape's local frame (scale applied)
  Mat3 inertia;       // about the centre of mass, local axes, symmetric
  MassStatus status = MassStatus::Ok;
};

// Mass properties of s at uniform `density` (mass per unit volume), in the
// shape's own frame (its pose is not applied). False with out->status
// saying why (the rest of *out zeroed) when refused (header).
bool massProperties(const Shape& s, double density, MassProperties* out);

}  // namespace collidoscope
