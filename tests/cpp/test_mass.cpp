// mass.h: the mass properties of every shape against textbook closed forms
// (written here independently of mass.cpp's second-moment route), polytopes
// against a midpoint-rule integration over a fine grid, compounds against the
// parallel-axis theorem, and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "collidoscope/compound.h"
#include "collidoscope/hull.h"
#include "collidoscope/mass.h"
#include "collidoscope/mesh_shape.h"

namespace collidoscope {
namespace {

constexpr double kPi = 3.14159265358979323846;

void expectMat(const Mat3& got, const Mat3& want, double tol) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(got.m[i][j], want.m[i][j], tol) << "entry " << i << "," << j;
}

MassProperties props(const Shape& s, double density) {
  MassProperties mp;
  EXPECT_TRUE(massProperties(s, density, &mp)) << massStatusMessage(mp.status);
  return mp;
}

TEST(Mass, SphereSolidBall) {
  const double r = 0.7, rho = 3;
  const MassProperties mp = props(Shape::sphere(r), rho);
  const double m = rho * 4.0 / 3.0 * kPi * r * r * r;
  EXPECT_NEAR(mp.mass, m, 1e-12 * m);
  EXPECT_EQ(mp.centerOfMass, Vec3{});
  expectMat(mp.inertia, Mat3::diagonal(Vec3{1, 1, 1} * (0.4 * m * r * r)), 1e-12);
}

TEST(Mass, BoxTextbook) {
  // I_xx = m (b² + c²)/12 with full widths a, b, c.
  const double a = 2, b = 0.5, c = 1.2, rho = 0.8;
  const MassProperties mp = props(Shape::box({a / 2, b / 2, c / 2}), rho);
  const double m = rho * a * b * c;
  EXPECT_NEAR(mp.mass, m, 1e-12);
  expectMat(mp.inertia, Mat3::diagonal({m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12}),
            1e-12);
}

TEST(Mass, CapsuleCylinderPlusHemispheres) {
  // Textbook: cylinder of length L plus a ball's worth of hemispheres,
  //   I_axis = m_c r²/2 + m_s·2r²/5,
  //   I_perp = m_c (r²/4 + L²/12) + m_s (2r²/5 + L²/4 + 3Lr/8).
  const double r = 0.3, hh = 0.8, L = 2 * hh, rho = 2;
  const MassProperties mp = props(Shape::capsule(r, hh), rho);
  const double mc = rho * kPi * r * r * L, ms = rho * 4.0 / 3.0 * kPi * r * r * r;
  EXPECT_NEAR(mp.mass, mc + ms, 1e-12);
  const double axis = mc * r * r / 2 + ms * 2 * r * r / 5;
  const double perp = mc * (r * r / 4 + L * L / 12) + ms * (2 * r * r / 5 + L * L / 4 + 3 * L * r / 8);
  expectMat(mp.inertia, Mat3::diagonal({perp, axis, perp}), 1e-12);
}

TEST(Mass, CylinderAndEllipsoid) {
  const double r = 0.4, hh = 1.1, H = 2 * hh;
  const MassProperties cyl = props(Shape::cylinder(r, hh), 1);
  const double m = kPi * r * r * H;
  EXPECT_NEAR(cyl.mass, m, 1e-12);
  expectMat(cyl.inertia, Mat3::diagonal({m * (3 * r * r + H * H) / 12, m * r * r / 2, m * (3 * r * r + H * H) / 12}),
            1e-12);

  const Vec3 e{0.5, 1.5, 0.9};
  const MassProperties ell = props(Shape::ellipsoid(e), 2);
  const double me = 2 * 4.0 / 3.0 * kPi * e.x * e.y * e.z;
  EXPECT_NEAR(ell.mass, me, 1e-12);
  expectMat(ell.inertia,
            Mat3::diagonal({me * (e.y * e.y + e.z * e.z) / 5, me * (e.x * e.x + e.z * e.z) / 5,
                            me * (e.x * e.x + e.y * e.y) / 5}),
            1e-12);
}

TEST(Mass, ConeCentroidAtQuarterHeight) {
  // Apex at +hh, base at −hh: the centroid is H/4 above the base, y = −hh/2.
  // I_axis = 3 m r²/10; across, about the centroid, 3m r²/20 + 3 m H²/80.
  const double r = 0.6, hh = 0.9, H = 2 * hh;
  const MassProperties mp = props(Shape::cone(r, hh), 1.5);
  const double m = 1.5 * kPi * r * r * H / 3;
  EXPECT_NEAR(mp.mass, m, 1e-12);
  EXPECT_NEAR(mp.centerOfMass.y, -hh / 2, 1e-15);
  const double perp = 3 * m * r * r / 20 + 3 * m * H * H / 80;
  expectMat(mp.inertia, Mat3::diagonal({perp, 3 * m * r * r / 10, perp}), 1e-12);
}

TEST(Mass, UnitTetrahedronDirichletIntegrals) {
  // (0, e1, e2, e3): V = 1/6, centroid (¼, ¼, ¼); about the origin ∫x² = 1/60,
  // ∫xy = 1/120; moved to the centroid by the parallel-axis theorem.
  const MassProperties mp = props(Shape::polytope({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}), 1);
  EXPECT_NEAR(mp.mass, 1.0 / 6, 1e-15);
  EXPECT_NEAR(mp.centerOfMass.x, 0.25, 1e-15);
  EXPECT_NEAR(mp.centerOfMass.y, 0.25, 1e-15);
  EXPECT_NEAR(mp.centerOfMass.z, 0.25, 1e-15);
  const double V = 1.0 / 6, xx = 1.0 / 60 - V / 16, xy = 1.0 / 120 - V / 16;
  Mat3 want;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) want.m[i][j] = i == j ? 2 * xx : -xy;
  expectMat(mp.inertia, want, 1e-15);
}

TEST(Mass, RotatedBoxPolytopeIsRotatedBoxTensor) {
  const Vec3 h{0.5, 0.2, 0.9};
  const Quat q{0.1825741858350554, 0.3651483716701107, 0.5477225575051661, 0.7302967433402214};
  const Vec3 offset{3, -1, 2};
  std::vector<Vec3> pts;
  for (int i = 0; i < 8; ++i)
    pts.push_back(rotate(q, {i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z}) + offset);
  const MassProperties poly = props(Shape::polytope(pts), 2);
  const MassProperties box = props(Shape::box(h), 2);
  EXPECT_NEAR(poly.mass, box.mass, 1e-12);
  EXPECT_NEAR(poly.centerOfMass.x, offset.x, 1e-12);
  EXPECT_NEAR(poly.centerOfMass.y, offset.y, 1e-12);
  EXPECT_NEAR(poly.centerOfMass.z, offset.z, 1e-12);
  const Mat3 R = Mat3::rotation(q);
  expectMat(poly.inertia, R * box.inertia * R.transposed(), 1e-12);
}

// An irregular hull of random points against the midpoint rule on a
// 160³ grid over its bounding box (inside: below every hull plane).
TEST(Mass, RandomPolytopeAgainstGridIntegration) {
  std::mt19937_64 rng(19);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Vec3> pts;
  for (int i = 0; i < 24; ++i) pts.push_back({u(rng) * 1.2, u(rng) * 0.7, u(rng)});
  const MassProperties mp = props(Shape::polytope(pts), 1);

  ConvexHull hull;
  HullError err;
  ASSERT_TRUE(buildHull(pts, &hull, &err));
  std::vector<std::pair<Vec3, double>> planes;
  for (const auto& t : hull.triangles) {
    const Vec3 a = hull.vertices[t[0]], b = hull.vertices[t[1]], c = hull.vertices[t[2]];
    const Vec3 n = cross(b - a, c - a);
    planes.push_back({n, dot(n, a)});
  }
  Vec3 lo{1e9, 1e9, 1e9}, hi{-1e9, -1e9, -1e9};
  for (const Vec3& p : pts)
    for (int k = 0; k < 3; ++k) lo[k] = std::fmin(lo[k], p[k]), hi[k] = std::fmax(hi[k], p[k]);
  const int N = 160;
  const Vec3 cell{(hi.x - lo.x) / N, (hi.y - lo.y) / N, (hi.z - lo.z) / N};
  const double dv = cell.x * cell.y * cell.z;
  double volume = 0;
  Vec3 first;
  Mat3 second;  // about the origin
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k) {
        const Vec3 x{lo.x + (i + 0.5) * cell.x, lo.y + (j + 0.5) * cell.y, lo.z + (k + 0.5) * cell.z};
        bool inside = true;
        for (const auto& pl : planes)
          if (dot(pl.first, x) > pl.second) { inside = false; break; }
        if (!inside) continue;
        volume += dv;
        first += x * dv;
        second = second + Mat3::outer(x, x) * dv;
      }
  const Vec3 c = first / volume;
  const Mat3 C = second - Mat3::outer(c, c) * volume;
  const Mat3 I = Mat3::identity() * C.trace() - C;
  EXPECT_NEAR(mp.mass, volume, 2e-3 * volume);
  EXPECT_NEAR(length(mp.centerOfMass - c), 0, 2e-3);
  const double scale = I.trace();
  for (int r = 0; r < 3; ++r)
    for (int s = 0; s < 3; ++s) EXPECT_NEAR(mp.inertia.m[r][s], I.m[r][s], 3e-3 * scale) << r << "," << s;
}

TEST(Mass, ScaleStretchesTheSolid) {
  // A unit sphere scaled by (0.5, 1.5, 0.9) is that ellipsoid; a box scaled
  // is the box of scaled half extents (a mirror changes nothing).
  const Vec3 s{0.5, 1.5, 0.9};
  const MassProperties scaled = props(Shape::sphere(1).withScale(s), 2);
  const MassProperties ell = props(Shape::ellipsoid(s), 2);
  EXPECT_NEAR(scaled.mass, ell.mass, 1e-12);
  expectMat(scaled.inertia, ell.inertia, 1e-12);

  const MassProperties box = props(Shape::box({1, 2, 3}).withScale({-2, 0.5, 1}), 1);
  const MassProperties plain = props(Shape::box({2, 1, 3}), 1);
  EXPECT_NEAR(box.mass, plain.mass, 1e-12);
  expectMat(box.inertia, plain.inertia, 1e-12);

  // A scaled cone's centroid scales with it.
  const MassProperties cone = props(Shape::cone(1, 1).withScale({1, 3, 1}), 1);
  EXPECT_NEAR(cone.centerOfMass.y, -1.5, 1e-15);
}

TEST(Mass, MarginCountsOnlyForSphereAndCapsule) {
  const MassProperties s = props(Shape::sphere(0.5).withMargin(0.25), 1);
  const MassProperties bigger = props(Shape::sphere(0.75), 1);
  EXPECT_NEAR(s.mass, bigger.mass, 1e-12);
  const MassProperties c = props(Shape::capsule(0.2, 1).withMargin(0.1), 1);
  EXPECT_NEAR(c.mass, props(Shape::capsule(0.3, 1), 1).mass, 1e-12);
  const MassProperties b = props(Shape::box({1, 1, 1}).withMargin(0.1), 1);
  EXPECT_NEAR(b.mass, 8, 1e-12);
}

TEST(Mass, CompoundParallelAxis) {
  // Two unit cubes (mass 1 each) at x = ±1, the second turned 90° about y
  // (a cube's tensor does not change): centroid 0; I_xx = 2·(1/6),
  // I_yy = I_zz = 2·(1/6 + 1·1²).
  Shape a = Shape::box({0.5, 0.5, 0.5});
  Shape b = a;
  a.pose.position = {-1, 0, 0};
  b.pose.position = {1, 0, 0};
  b.pose.rotation = {0, std::sqrt(0.5), 0, std::sqrt(0.5)};
  Shape compound;
  ShapeError err;
  ASSERT_TRUE(makeCompoundShape({a, b}, &compound, &err)) << err.message;
  const MassProperties mp = props(compound, 1);
  EXPECT_NEAR(mp.mass, 2, 1e-12);
  EXPECT_NEAR(length(mp.centerOfMass), 0, 1e-15);
  expectMat(mp.inertia, Mat3::diagonal({2.0 / 6, 2.0 / 6 + 2, 2.0 / 6 + 2}), 1e-12);

  // Unequal children: a sphere (mass m1) at p1 and a box (m2) at p2; the
  // tensor about the common centroid is Σ I_i + m_i (|d_i|² 1 − d_i d_iᵀ).
  Shape s = Shape::sphere(0.4);
  s.pose.position = {0.3, 1, -0.2};
  Shape box = Shape::box({0.2, 0.6, 0.3});
  box.pose.position = {-0.5, 0.1, 0.4};
  ASSERT_TRUE(makeCompoundShape({s, box}, &compound, &err)) << err.message;
  const MassProperties c2 = props(compound, 1);
  const MassProperties ps = props(Shape::sphere(0.4), 1), pb = props(Shape::box({0.2, 0.6, 0.3}), 1);
  const Vec3 centroid = (s.pose.position * ps.mass + box.pose.position * pb.mass) / (ps.mass + pb.mass);
  EXPECT_NEAR(length(c2.centerOfMass - centroid), 0, 1e-14);
  Mat3 want = ps.inertia + pb.inertia;
  for (const auto& [m, p] : {std::pair{ps.mass, s.pose.position}, std::pair{pb.mass, box.pose.position}}) {
    const Vec3 d = p - centroid;
    want = want + (Mat3::identity() * dot(d, d) - Mat3::outer(d, d)) * m;
  }
  expectMat(c2.inertia, want, 1e-13);
}

TEST(Mass, Refusals) {
  MassProperties mp;
  EXPECT_FALSE(massProperties(Shape::point(), 1, &mp));
  EXPECT_EQ(mp.status, MassStatus::ZeroVolume);
  EXPECT_FALSE(massProperties(Shape::segment({0, 0, 0}, {1, 0, 0}), 1, &mp));
  EXPECT_EQ(mp.status, MassStatus::ZeroVolume);
  EXPECT_FALSE(massProperties(Shape::triangle({0, 0, 0}, {1, 0, 0}, {0, 1, 0}), 1, &mp));
  EXPECT_EQ(mp.status, MassStatus::ZeroVolume);
  EXPECT_FALSE(massProperties(Shape::polytope({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 3, 0}}), 1, &mp));
  EXPECT_EQ(mp.status, MassStatus::ZeroVolume);
  EXPECT_EQ(mp.mass, 0);
  EXPECT_FALSE(massProperties(Shape::plane({0, 1, 0}, 0), 1, &mp));
  EXPECT_EQ(mp.status, MassStatus::StaticOnly);
  EXPECT_STRNE(massStatusMessage(mp.status), "");
  TriangleMesh tri;
  tri.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
  tri.triangles = {{0, 2, 1}};
  Shape mesh;
  ShapeError err;
  ASSERT_TRUE(makeMeshShape(tri, &mesh, &err)) << err.message;
  EXPECT_FALSE(massProperties(mesh, 1, &mp));
  EXPECT_EQ(mp.status, MassStatus::StaticOnly);
  for (double d : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    EXPECT_FALSE(massProperties(Shape::sphere(1), d, &mp)) << d;
    EXPECT_EQ(mp.status, MassStatus::InvalidDensity);
  }
}

TEST(Mass, InvertRoundTripsAndRefusesSingular) {
  Mat3 a;
  a.m[0][0] = 2, a.m[0][1] = 0.3, a.m[0][2] = -0.1;
  a.m[1][0] = 0.3, a.m[1][1] = 1, a.m[1][2] = 0.2;
  a.m[2][0] = -0.1, a.m[2][1] = 0.2, a.m[2][2] = 3;
  Mat3 inv;
  ASSERT_TRUE(invert(a, &inv));
  expectMat(a * inv, Mat3::identity(), 1e-15);
  EXPECT_FALSE(invert(Mat3::diagonal({1, 0, 1}), &inv));
}

}  // namespace
}  // namespace collidoscope
