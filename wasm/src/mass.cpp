#include "collidoscope/mass.h"

#include <cmath>

#include "collidoscope/hull.h"

namespace collidoscope {

namespace {

constexpr double kPi = 3.14159265358979323846;

// A solid of revolution about y, or any solid symmetric in its three
// planes, has a diagonal C.
Moments symmetric(double volume, const Vec3& centroid, const Vec3& secondDiagonal) {
  return {volume, centroid, Mat3::diagonal(secondDiagonal)};
}

// Sums of tetrahedra (o, a, b, c) over the hull's outward triangles, o an
// interior point (the mean of the hull's vertices). For a tetrahedron with
// vertices v0..v3 relative to o (v0 = 0):
//   volume  V = det[v1 v2 v3] / 6 (positive for an outward CCW triangle),
//   ∫ x dV   = V·(v0 + v1 + v2 + v3)/4,
//   ∫ x xᵀ dV = V/20 · (Σ_k v_k v_kᵀ + s sᵀ),  s = Σ_k v_k.
// The last (Tonon, "Explicit exact formulas for the 3-D tetrahedron
// inertia tensor", 2004, in matrix form): map the unit tetrahedron
// (0, e1, e2, e3) onto it by x = A u, A = [v1 v2 v3]; over the unit one
// ∫ u_i u_j = (1 + δ_ij)/120 (a Dirichlet integral: ∫ u_i² = 2!/5! = 1/60,
// ∫ u_i u_j = 1/5! = 1/120), i.e. (1·1ᵀ + I)/120; so ∫ x xᵀ =
// det A · A (1·1ᵀ + I) Aᵀ / 120 = 6V/120 · (s sᵀ + Σ v_k v_kᵀ), which with
// v0 = 0 is the formula. The sum over the triangles gives the moments
// about o; the parallel-axis step moves them to the centroid.
bool polytopeMoments(const std::vector<Vec3>& points, Moments* out) {
  ConvexHull hull;
  HullError err;
  if (!buildHull(points, &hull, &err) || hull.kind != HullKind::Polyhedron) return false;
  Vec3 o;
  for (const Vec3& v : hull.vertices) o += v;
  o = o / static_cast<double>(hull.vertices.size());
  double volume = 0;
  Vec3 first;
  Mat3 second;
  for (const auto& t : hull.triangles) {
    const Vec3 a = hull.vertices[t[0]] - o, b = hull.vertices[t[1]] - o, c = hull.vertices[t[2]] - o;
    const double v = dot(a, cross(b, c)) / 6;
    const Vec3 s = a + b + c;
    volume += v;
    first += s * (v / 4);
    second = second + (Mat3::outer(a, a) + Mat3::outer(b, b) + Mat3::outer(c, c) + Mat3::outer(s, s)) * (v / 20);
  }
  if (!(volume > 0)) return false;
  const Vec3 centroidFromO = first / volume;
  out->volume = volume;
  out->centroid = o + centroidFromO;
  // ∫ (x − c)(x − c)ᵀ = ∫ x xᵀ − V c cᵀ, both about o.
  out->second = second - Mat3::outer(centroidFromO, centroidFromO) * volume;
  return true;
}


}  // namespace

// The unscaled solid's moments (margin per the header), then the scale.
// Inlined into massProperties, its one caller here: the default flavour
// (no compounds, so no other caller) then keeps no copy of its own, and the
// call's known arguments simplify it (about 200 bytes less in the download).
[[gnu::always_inline]] MassStatus momentsOf(const Shape& s, Moments* out) {
  const bool unscaled = isUnscaled(s);
  switch (s.type) {
    case ShapeType::Point:
    case ShapeType::Segment:
    case ShapeType::Triangle: return MassStatus::ZeroVolume;
    case ShapeType::Plane:
    case ShapeType::Mesh: return MassStatus::StaticOnly;
    case ShapeType::Compound: return compoundMoments(s, out);
    case ShapeType::Sphere: {
      // Ball of radius r: V = 4πr³/3, ∫ x² = V r²/5 per axis.
      const double r = s.radius + (unscaled ? s.margin : 0);
      const double v = 4 * kPi * r * r * r / 3;
      *out = symmetric(v, {}, Vec3{1, 1, 1} * (v * r * r / 5));
      break;
    }
    case ShapeType::Box: {
      // ∫ x² over [−h, h] (times the other two widths) = V h²/3.
      const Vec3 h = s.halfExtents;
      const double v = 8 * h.x * h.y * h.z;
      *out = symmetric(v, {}, Vec3{h.x * h.x, h.y * h.y, h.z * h.z} * (v / 3));
      break;
    }
    case ShapeType::Capsule: {
      // A cylinder (radius r, half height h) and two hemispheres, together a
      // ball. Across the axis both are discs: cylinder V_c r²/4, ball
      // V_s r²/5. Along it: the cylinder V_c h²/3; a hemisphere (volume
      // V_s/2) whose flat face is at y = h has ∫ y² = ∫ (h + u)² over
      // u ∈ [0, r] = (V_s/2)(h² + 2h·3r/8 + r²/5) (its centroid is 3r/8
      // from the face, and ∫ u² is half the ball's), two of them V_s(h² +
      // 3hr/4 + r²/5).
      const double r = s.radius + (unscaled ? s.margin : 0), h = s.halfHeight;
      const double vc = kPi * r * r * 2 * h, vs = 4 * kPi * r * r * r / 3;
      const double across = vc * r * r / 4 + vs * r * r / 5;
      const double along = vc * h * h / 3 + vs * (h * h + 3 * h * r / 4 + r * r / 5);
      *out = symmetric(vc + vs, {}, {across, along, across});
      break;
    }
    case ShapeType::Cylinder: {
      const double r = s.radius, h = s.halfHeight;
      const double v = kPi * r * r * 2 * h;
      *out = symmetric(v, {}, {v * r * r / 4, v * h * h / 3, v * r * r / 4});
      break;
    }
    case ShapeType::Cone: {
      // Apex (0, h, 0), base disc at y = −h (shapes.cpp's support). Height
      // H = 2h, V = πr²H/3; the centroid is H/4 above the base, y = −h/2.
      // Slices at height u above the base have radius ρ = r(1 − u/H):
      // across, ∫ x² = ∫ πρ⁴/4 du = πr⁴H/20 = 3V r²/20; along,
      // ∫ (u − H/4)² πρ² du = 3V H²/80 = 3V h²/20.
      const double r = s.radius, h = s.halfHeight;
      const double v = kPi * r * r * 2 * h / 3;
      *out = symmetric(v, {0, -h / 2, 0}, Vec3{r * r, h * h, r * r} * (3 * v / 20));
      break;
    }
    case ShapeType::Ellipsoid: {
      // The unit ball stretched by diag(a, b, c): ∫ x² = V a²/5.
      const Vec3 a = s.radii;
      const double v = 4 * kPi * a.x * a.y * a.z / 3;
      *out = symmetric(v, {}, Vec3{a.x * a.x, a.y * a.y, a.z * a.z} * (v / 5));
      break;
    }
    case ShapeType::Polytope:
      if (s.points.size() < 4) return MassStatus::ZeroVolume;
      if (!polytopeMoments(s.points, out)) return MassStatus::ZeroVolume;
      break;
  }
  if (!unscaled) {
    const Mat3 scale = Mat3::diagonal(s.scale);
    const double det = std::fabs(s.scale.x * s.scale.y * s.scale.z);
    out->volume *= det;
    out->centroid = scale * out->centroid;
    out->second = scale * out->second * scale * det;
  }
  if (!(out->volume > 0)) return MassStatus::ZeroVolume;
  return MassStatus::Ok;
}

bool invert(const Mat3& a, Mat3* out) {
  const auto& m = a.m;
  Mat3 c;  // the adjugate: transposed cofactors
  c.m[0][0] = m[1][1] * m[2][2] - m[1][2] * m[2][1];
  c.m[0][1] = m[0][2] * m[2][1] - m[0][1] * m[2][2];
  c.m[0][2] = m[0][1] * m[1][2] - m[0][2] * m[1][1];
  c.m[1][0] = m[1][2] * m[2][0] - m[1][0] * m[2][2];
  c.m[1][1] = m[0][0] * m[2][2] - m[0][2] * m[2][0];
  c.m[1][2] = m[0][2] * m[1][0] - m[0][0] * m[1][2];
  c.m[2][0] = m[1][0] * m[2][1] - m[1][1] * m[2][0];
  c.m[2][1] = m[0][1] * m[2][0] - m[0][0] * m[2][1];
  c.m[2][2] = m[0][0] * m[1][1] - m[0][1] * m[1][0];
  const double det = m[0][0] * c.m[0][0] + m[0][1] * c.m[1][0] + m[0][2] * c.m[2][0];
  double scale = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) scale = maxOfNonNegative(scale, std::fabs(m[i][j]));
  // Singular to rounding: |det| below a few ulps of the largest product.
  if (!a.finite() || !(std::fabs(det) > 1e-14 * scale * scale * scale)) return false;
  *out = c * (1 / det);
  return out->finite();
}

const char* massStatusMessage(MassStatus s) {
  switch (s) {
    case MassStatus::Ok: return "";
    case MassStatus::InvalidDensity: return "density must be a finite number greater than 0";
    case MassStatus::ZeroVolume:
      return "the shape has no volume (a point, segment, triangle or flat polytope) and so no mass";
    case MassStatus::StaticOnly:
      return "planes, meshes and heightfields have no finite solid: they can only be static (inverse mass 0)";
    case MassStatus::InvalidShape: return "the shape's data is missing (a compound without children)";
  }
  return "unknown status";
}

bool massProperties(const Shape& s, double density, MassProperties* out) {
  *out = MassProperties{};
  if (!std::isfinite(density) || !(density > 0)) {
    out->status = MassStatus::InvalidDensity;
    return false;
  }
  Moments k;
  const MassStatus st = momentsOf(s, &k);
  if (st != MassStatus::Ok) {
    out->status = st;
    return false;
  }
  out->volume = k.volume;
  out->mass = k.volume * density;
  out->centerOfMass = k.centroid;
  // I = ρ (tr(C)·1 − C): I_xx = ∫ (y² + z²), I_xy = −∫ x y.
  out->inertia = (Mat3::identity() * k.second.trace() - k.second) * density;
  return true;
}

}  // namespace collidoscope
