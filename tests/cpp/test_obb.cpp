// Bounding volumes (obb.h): AABB, bounding sphere, PCA boxes from points and
// from triangles, refinement.
//
// Expected values come from reasoning independent of the library:
//   * boxes: a box B contains a cloud, so no enclosing box has less volume
//     than B's; the covariance of a symmetric point set or of a box's
//     surface is diagonal in the box's frame (computed in closed form below);
//   * spheres: circumradius of a regular simplex / cube, and a brute-force
//     minimal ball over all ≤4-point subsets for small clouds;
//   * brute-force OBB volume minimised over many random rotations.
// Tolerances are relative to the scale S = largest |coordinate| of the input
// (the library's accuracy convention); containment allows 1e-12·S.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "collidoscope/obb.h"

namespace {

using namespace collidoscope;
using Tri = std::array<int, 3>;

constexpr double kContain = 1e-12;  // containment slack, relative to S

// ------------------------------------------------------------------ helpers
struct Rng {
  std::uint64_t s;
  explicit Rng(std::uint64_t seed) : s(seed * 2654435761ull + 1) {}
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
  double uniform(double a, double b) { return a + (b - a) * uniform(); }
  int integer(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }
  Vec3 inCube(double h) { return {uniform(-h, h), uniform(-h, h), uniform(-h, h)}; }
  Vec3 unit() {
    for (;;) {
      const Vec3 v = inCube(1);
      const double l = length(v);
      if (l > 1e-3 && l <= 1) return v / l;
    }
  }
  // Uniform random rotation (Shoemake).
  Quat rotation() {
    const double u1 = uniform(), u2 = 2 * M_PI * uniform(), u3 = 2 * M_PI * uniform();
    const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
    return {a * std::sin(u2), a * std::cos(u2), b * std::sin(u3), b * std::cos(u3)};
  }
};

double sceneScale(const std::vector<Vec3>& pts) {
  double s = 0;
  for (const Vec3& p : pts) s = std::max(s, maxAbs(p));
  return s;
}

bool finiteBox(const Obb& b) {
  return isFinite(b.center) && isFinite(b.halfExtents) && isFinite(b.axes[0]) && isFinite(b.axes[1]) &&
         isFinite(b.axes[2]);
}

void expectFrame(const Vec3 axes[3]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(dot(axes[i], axes[j]), i == j ? 1.0 : 0.0, 1e-14);
  EXPECT_NEAR(dot(cross(axes[0], axes[1]), axes[2]), 1.0, 1e-14);  // right-handed
}

// Largest amount by which a point sticks out of the box (≤ 0 inside).
double worstOutside(const Obb& b, const std::vector<Vec3>& pts) {
  double worst = -1e300;
  for (const Vec3& p : pts)
    for (int i = 0; i < 3; ++i)
      worst = std::max(worst, std::fabs(dot(p - b.center, b.axes[i])) - b.halfExtents[i]);
  return worst;
}

void expectValidBox(const Obb& b, const std::vector<Vec3>& pts) {
  ASSERT_TRUE(finiteBox(b));
  expectFrame(b.axes);
  for (int i = 0; i < 3; ++i) EXPECT_GE(b.halfExtents[i], 0.0);
  EXPECT_LE(worstOutside(b, pts), kContain * std::max(1.0, sceneScale(pts)));
}

// Volume of the tight box with the axes of rotation q (brute-force probe).
double tightVolume(const Quat& q, const std::vector<Vec3>& pts) {
  const Vec3 axes[3] = {rotate(q, {1, 0, 0}), rotate(q, {0, 1, 0}), rotate(q, {0, 0, 1})};
  double v = 1;
  for (const Vec3& a : axes) {
    double lo = 1e300, hi = -1e300;
    for (const Vec3& p : pts) lo = std::min(lo, dot(p, a)), hi = std::max(hi, dot(p, a));
    v *= hi - lo;
  }
  return v;
}

// Smallest |cos| between each expected axis and the best-matching box axis.
double alignment(const Obb& b, const Vec3 expected[3]) {
  double worst = 1;
  for (int i = 0; i < 3; ++i) {
    double best = 0;
    for (int j = 0; j < 3; ++j) best = std::max(best, std::fabs(dot(expected[i], b.axes[j])));
    worst = std::min(worst, best);
  }
  return worst;
}

// A posed box: half extents h, rotation q, centre t.
struct PosedBox {
  Vec3 h;
  Quat q;
  Vec3 t;
  Vec3 axis(int i) const { return rotate(q, i == 0 ? Vec3{1, 0, 0} : i == 1 ? Vec3{0, 1, 0} : Vec3{0, 0, 1}); }
  Vec3 at(const Vec3& local) const { return rotate(q, local) + t; }
  std::vector<Vec3> corners() const {
    std::vector<Vec3> c;
    for (int k = 0; k < 8; ++k)
      c.push_back(at({(k & 1 ? 1 : -1) * h.x, (k & 2 ? 1 : -1) * h.y, (k & 4 ? 1 : -1) * h.z}));
    return c;
  }
  double volume() const { return 8 * h.x * h.y * h.z; }
};

// 12 outward triangles over corners() (index bit 0 = +x, bit 1 = +y, bit 2 = +z).
std::vector<Tri> boxTriangles() {
  return {{0, 2, 6}, {0, 6, 4}, {1, 5, 7}, {1, 7, 3},   // −x, +x
          {0, 4, 5}, {0, 5, 1}, {2, 3, 7}, {2, 7, 6},   // −y, +y
          {0, 1, 3}, {0, 3, 2}, {4, 6, 7}, {4, 7, 5}};  // −z, +z
}

// Split every triangle into four (edge midpoints), `levels` times. The
// midpoints are not shared between triangles (a non-conforming mesh still
// tiles the same surface).
void subdivide(std::vector<Vec3>& v, std::vector<Tri>& t, int levels) {
  for (int l = 0; l < levels; ++l) {
    std::vector<Tri> next;
    for (const Tri& tr : t) {
      const int a = tr[0], b = tr[1], c = tr[2];
      const int ab = static_cast<int>(v.size());
      v.push_back((v[a] + v[b]) * 0.5);
      v.push_back((v[b] + v[c]) * 0.5);
      v.push_back((v[c] + v[a]) * 0.5);
      const int bc = ab + 1, ca = ab + 2;
      next.push_back({a, ab, ca});
      next.push_back({ab, b, bc});
      next.push_back({ca, bc, c});
      next.push_back({ab, bc, ca});
    }
    t.swap(next);
  }
}

// Brute-force minimal enclosing ball: the optimum is the circumscribed
// ball of some ≤4 points (centre in their affine hull), so try them all.
struct RefBall {
  Vec3 c;
  double r = 1e300;
};
bool circumBall(const std::vector<Vec3>& s, Vec3* c) {
  // Centre x = s0 + Σ λ_k d_k (d_k = s_k − s0) with |x − s_k| = |x − s0|:
  // Σ_l λ_l (d_k·d_l) = |d_k|²/2 — a Gram system, solved by Cramer's rule.
  const int m = static_cast<int>(s.size()) - 1;
  if (m == 0) return *c = s[0], true;
  double g[3][3] = {}, rhs[3] = {};
  std::vector<Vec3> d;
  for (int k = 0; k < m; ++k) d.push_back(s[k + 1] - s[0]);
  for (int k = 0; k < m; ++k) {
    for (int l = 0; l < m; ++l) g[k][l] = dot(d[k], d[l]);
    rhs[k] = 0.5 * dot(d[k], d[k]);
  }
  double lam[3] = {};
  if (m == 1) {
    if (g[0][0] == 0) return false;
    lam[0] = rhs[0] / g[0][0];
  } else if (m == 2) {
    const double det = g[0][0] * g[1][1] - g[0][1] * g[1][0];
    if (!(std::fabs(det) > 1e-12 * g[0][0] * g[1][1])) return false;
    lam[0] = (rhs[0] * g[1][1] - g[0][1] * rhs[1]) / det;
    lam[1] = (g[0][0] * rhs[1] - rhs[0] * g[1][0]) / det;
  } else {
    auto det3 = [](double a[3][3]) {
      return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
             a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    };
    const double det = det3(g);
    if (!(std::fabs(det) > 1e-12 * g[0][0] * g[1][1] * g[2][2])) return false;
    for (int k = 0; k < 3; ++k) {
      double h[3][3];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) h[i][j] = j == k ? rhs[i] : g[i][j];
      lam[k] = det3(h) / det;
    }
  }
  *c = s[0];
  for (int k = 0; k < m; ++k) *c += d[k] * lam[k];
  return isFinite(*c);
}
RefBall bruteForceBall(const std::vector<Vec3>& p) {
  RefBall best;
  const int n = static_cast<int>(p.size());
  auto tryBall = [&](const std::vector<Vec3>& s) {
    Vec3 c;
    if (!circumBall(s, &c)) return;
    double r = 0;
    for (const Vec3& q : p) r = std::max(r, length(q - c));
    if (r < best.r) best = {c, r};  // r = enclosing radius about c: always valid
  };
  for (int a = 0; a < n; ++a) {
    tryBall({p[a]});
    for (int b = a + 1; b < n; ++b) {
      tryBall({p[a], p[b]});
      for (int c = b + 1; c < n; ++c) {
        tryBall({p[a], p[b], p[c]});
        for (int d = c + 1; d < n; ++d) tryBall({p[a], p[b], p[c], p[d]});
      }
    }
  }
  return best;
}

double sphereWorstOutside(const BoundingSphere& s, const std::vector<Vec3>& pts) {
  double worst = -1e300;
  for (const Vec3& p : pts) worst = std::max(worst, length(p - s.center) - s.radius);
  return worst;
}

// A random cloud from one of several families (shape, scale, offset).
std::vector<Vec3> randomCloud(Rng& rng, int n) {
  const double scale = std::pow(10.0, rng.uniform(-3, 3));
  const Vec3 offset = rng.inCube(1) * (scale * std::pow(10.0, rng.uniform(0, 4)));
  const Quat q = rng.rotation();
  const Vec3 stretch{rng.uniform(0.05, 1), rng.uniform(0.05, 1), rng.uniform(0.05, 1)};
  const int family = rng.integer(0, 3);
  std::vector<Vec3> pts;
  for (int i = 0; i < n; ++i) {
    Vec3 v;
    if (family == 0) v = rng.inCube(1);                          // box
    else if (family == 1) v = rng.unit();                        // sphere surface
    else if (family == 2) v = rng.unit() * rng.uniform();        // ball
    else v = Vec3{rng.uniform(), rng.uniform() * rng.uniform(), std::pow(rng.uniform(), 3)};  // skewed
    v = {v.x * stretch.x, v.y * stretch.y, v.z * stretch.z};
    pts.push_back(rotate(q, v) * scale + offset);
  }
  return pts;
}

// ------------------------------------------------------------------ AABB
TEST(ObbAabb, BoundsAndVolume) {
  const std::vector<Vec3> pts = {{1, -2, 3}, {-4, 5, 0.5}, {2, 2, 2}};
  const Aabb a = computeAabb(pts);
  EXPECT_EQ(a.min, Vec3(-4, -2, 0.5));
  EXPECT_EQ(a.max, Vec3(2, 5, 3));
  EXPECT_DOUBLE_EQ(a.volume(), 6 * 7 * 2.5);
  const Obb b = obbFromAabb(a);
  EXPECT_DOUBLE_EQ(b.volume(), a.volume());
  expectValidBox(b, pts);
}

// ----------------------------------------------------- empty / non-finite
TEST(ObbInput, EmptyAndNonFiniteAreReportedNotCrashed) {
  BoundsError err;
  EXPECT_FALSE(checkBoundsInput({}, &err));
  EXPECT_EQ(err.field, "points");
  EXPECT_EQ(err.message, "is empty");
  EXPECT_FALSE(checkBoundsInput({{0, 0, 0}, {NAN, 1, 2}}, &err));
  EXPECT_NE(err.message.find("point 1"), std::string::npos);
  EXPECT_FALSE(checkBoundsInput({{INFINITY, 0, 0}}, nullptr));
  EXPECT_TRUE(checkBoundsInput({{1, 2, 3}}, &err));

  // Documented fallbacks for empty input: zero volumes at the origin.
  const std::vector<Vec3> none;
  EXPECT_EQ(computeAabb(none).volume(), 0.0);
  EXPECT_EQ(computeBoundingSphere(none).radius, 0.0);
  EXPECT_EQ(obbFromPoints(none).volume(), 0.0);
  EXPECT_EQ(obbFromTriangles(none, {{0, 1, 2}}).volume(), 0.0);
  RefineInfo info;
  EXPECT_EQ(refineObb(Obb{}, none, &info).volume(), 0.0);
  EXPECT_TRUE(info.usedAabb);

  // Non-finite input: garbage out, but every call returns (bounded loops).
  const std::vector<Vec3> bad = {{0, 0, 0}, {NAN, 1, 2}, {1, INFINITY, 0}, {1, 1, 1}};
  (void)computeBoundingSphere(bad);
  (void)refineObb(obbFromPoints(bad), bad);
  (void)obbFromTriangles(bad, {{0, 1, 2}, {1, 2, 3}});
  const double m[3][3] = {{NAN, 1, 0}, {1, 2, 0}, {0, 0, 1}};
  EXPECT_FALSE(symmetricEigen(m).converged);
}

// ------------------------------------------------------- eigen-solver
// A = s·R diag(λ) Rᵀ with known λ in [−2, 2] (sorted decreasing into
// *sorted, scaled by s) and a random rotation R; variant it % 6 picks
// repeated, zero or nearly repeated eigenvalues. Returns s.
double randomSymmetric(Rng& rng, int it, double a[3][3], double sorted[3]) {
  const Quat q = rng.rotation();
  double lam[3] = {rng.uniform(-2, 2), rng.uniform(-2, 2), rng.uniform(-2, 2)};
  if (it % 6 == 1) lam[1] = lam[0];
  if (it % 6 == 2) lam[2] = lam[1] = lam[0];
  if (it % 6 == 3) lam[2] = 0, lam[1] = 0;
  if (it % 6 == 4) lam[1] = lam[0] * (1 + 1e-10);
  if (it % 6 == 5) lam[2] = lam[0] + 1e-7, lam[1] = lam[0] - 1e-7;
  const double s = std::pow(10.0, rng.uniform(-8, 8));
  const Vec3 r[3] = {rotate(q, {1, 0, 0}), rotate(q, {0, 1, 0}), rotate(q, {0, 0, 1})};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a[i][j] = 0;
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) a[i][j] += s * lam[k] * r[k][i] * r[k][j];
  for (int i = 0; i < 3; ++i) sorted[i] = s * lam[i];
  std::sort(sorted, sorted + 3, [](double x, double y) { return x > y; });
  return s;
}

// The eigenvalues (to tol) and residuals |A v − λ v| ≤ tol of a decomposition.
void expectEigen(const double a[3][3], const double sorted[3], const SymmetricEigen& e, double tol) {
  expectFrame(e.vectors);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(e.values[i], sorted[i], tol);
    const Vec3& v = e.vectors[i];
    const Vec3 av{a[0][0] * v.x + a[0][1] * v.y + a[0][2] * v.z, a[1][0] * v.x + a[1][1] * v.y + a[1][2] * v.z,
                  a[2][0] * v.x + a[2][1] * v.y + a[2][2] * v.z};
    EXPECT_LE(length(av - v * e.values[i]), tol);
  }
}

TEST(ObbEigen, RandomSymmetricMatricesAndRepeatedEigenvalues) {
  Rng rng(7);
  for (int it = 0; it < 2000; ++it) {
    double a[3][3], sorted[3];
    const double s = randomSymmetric(rng, it, a, sorted);
    const SymmetricEigen e = symmetricEigen(a);
    ASSERT_TRUE(e.converged);
    EXPECT_LE(e.sweeps, 10);
    expectEigen(a, sorted, e, 1e-13 * s * 2);  // rounding of |A| ≤ 2s
  }
  const double zero[3][3] = {};
  const SymmetricEigen z = symmetricEigen(zero);
  EXPECT_TRUE(z.converged);
  EXPECT_EQ(z.vectors[0], Vec3(1, 0, 0));
  EXPECT_EQ(z.vectors[2], Vec3(0, 0, 1));
}

TEST(ObbEigen, ClosedFormMatchesTheSpectrumAndJacobisVectors) {
  // The closed form against the known spectrum (values and residuals to
  // rounding of |A|, repeated and nearly repeated eigenvalues included), and
  // against Jacobi's vectors (same order and signs) where the eigenvalues
  // are apart: there the vectors are defined, to rounding over the gap.
  Rng rng(8);
  int compared = 0;
  for (int it = 0; it < 3000; ++it) {
    double a[3][3], sorted[3];
    const double s = randomSymmetric(rng, it, a, sorted);
    const SymmetricEigen e = symmetricEigenClosedForm(a);
    expectEigen(a, sorted, e, 1e-13 * s * 2);
    const double gap = std::min(sorted[0] - sorted[1], sorted[1] - sorted[2]);
    if (gap < 1e-4 * s) continue;
    const SymmetricEigen j = symmetricEigen(a);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(length(e.vectors[i] - j.vectors[i]), 0.0, 1e-11) << it;
    ++compared;
  }
  EXPECT_GT(compared, 400);  // variant 0 (distinct eigenvalues) is a sixth of them
  // Diagonal, zero and non-finite matrices: Jacobi's answer.
  const double diag[3][3] = {{1, 0, 0}, {0, 3, 0}, {0, 0, 2}};
  const double zero[3][3] = {};
  const double bad[3][3] = {{NAN, 1, 0}, {1, 2, 0}, {0, 0, 1}};
  for (const auto* m : {diag, zero, bad}) {
    const SymmetricEigen c = symmetricEigenClosedForm(m), j = symmetricEigen(m);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(c.vectors[i], j.vectors[i]);
    EXPECT_EQ(c.converged, j.converged);
  }
}

// ------------------------------------------------------- sphere
TEST(ObbSphere, RegularSimplexAndCubeAreOptimal) {
  Rng rng(11);
  for (int it = 0; it < 200; ++it) {
    const Quat q = rng.rotation();
    const Vec3 t = rng.inCube(100);
    const double a = rng.uniform(0.01, 10);
    // Regular tetrahedron: alternate cube corners (±a, ±a, ±a), even parity;
    // edge 2√2 a, circumradius √3 a.
    std::vector<Vec3> tet;
    for (const Vec3& c : {Vec3{1, 1, 1}, Vec3{1, -1, -1}, Vec3{-1, 1, -1}, Vec3{-1, -1, 1}})
      tet.push_back(rotate(q, c * a) + t);
    const double S = sceneScale(tet);
    BoundingSphere s = computeBoundingSphere(tet);
    EXPECT_NEAR(s.radius, std::sqrt(3.0) * a, 1e-12 * S);
    EXPECT_NEAR(length(s.center - t), 0, 1e-12 * S);
    EXPECT_LE(sphereWorstOutside(s, tet), 1e-13 * S);
    // Cube: circumradius √3 h, centre t.
    PosedBox box{{a, a, a}, q, t};
    const std::vector<Vec3> cube = box.corners();
    s = computeBoundingSphere(cube);
    EXPECT_NEAR(s.radius, std::sqrt(3.0) * a, 1e-12 * S);
    EXPECT_LE(sphereWorstOutside(s, cube), 1e-13 * S);
    // Regular simplex with extra points inside: same ball.
    std::vector<Vec3> filled = tet;
    for (int k = 0; k < 50; ++k) {
      const double w[4] = {rng.uniform(), rng.uniform(), rng.uniform(), rng.uniform()};
      const double sum = w[0] + w[1] + w[2] + w[3];
      filled.push_back((tet[0] * w[0] + tet[1] * w[1] + tet[2] * w[2] + tet[3] * w[3]) / sum);
    }
    s = computeBoundingSphere(filled);
    EXPECT_NEAR(s.radius, std::sqrt(3.0) * a, 1e-12 * S);
  }
}

TEST(ObbSphere, MatchesBruteForceMinimalBallOnSmallClouds) {
  Rng rng(12);
  for (int it = 0; it < 300; ++it) {
    const int n = rng.integer(2, 11);
    std::vector<Vec3> pts = randomCloud(rng, n);
    if (it % 5 == 0) pts.push_back(pts[0]);  // duplicates
    const RefBall ref = bruteForceBall(pts);
    const BoundingSphere s = computeBoundingSphere(pts);
    const double S = sceneScale(pts);
    SCOPED_TRACE(it);
    EXPECT_LE(sphereWorstOutside(s, pts), 1e-13 * S);
    EXPECT_NEAR(s.radius, ref.r, 1e-9 * S);
  }
}

TEST(ObbSphere, LargeCloudsContainAndStayNearOptimal) {
  Rng rng(13);
  // A million points: linear time, no recursion. Points in a unit ball plus
  // two antipodal points at distance 1: the optimum has radius exactly 1.
  std::vector<Vec3> pts;
  pts.reserve(1000000);
  for (int i = 0; i < 1000000 - 2; ++i) pts.push_back(rng.unit() * (0.999 * std::cbrt(rng.uniform())));
  const Vec3 d = normalizedOr(Vec3{1, 2, 3}, Vec3{1, 0, 0});
  pts.push_back(d);
  pts.push_back(-d);
  const auto t0 = std::chrono::steady_clock::now();
  const BoundingSphere s = computeBoundingSphere(pts);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(ms, 5000);
  EXPECT_LE(sphereWorstOutside(s, pts), 1e-13);
  EXPECT_NEAR(s.radius, 1.0, 1e-9);
  EXPECT_NEAR(length(s.center), 0.0, 1e-9);
}

TEST(ObbSphere, DegenerateInputs) {
  EXPECT_EQ(computeBoundingSphere({{1, 2, 3}}).radius, 0.0);
  EXPECT_EQ(computeBoundingSphere({{1, 2, 3}, {1, 2, 3}, {1, 2, 3}}).radius, 0.0);
  // Collinear: half the segment.
  std::vector<Vec3> line;
  for (int i = 0; i <= 20; ++i) line.push_back(Vec3{1, 2, 3} + Vec3{2, -1, 0.5} * (i * 0.25));
  BoundingSphere s = computeBoundingSphere(line);
  EXPECT_NEAR(s.radius, 0.5 * 5 * length(Vec3{2, -1, 0.5}), 1e-12 * sceneScale(line));
  // Coplanar, cocircular: 12 points on a circle of radius 3 (tilted).
  std::vector<Vec3> ring;
  const Vec3 u = normalizedOr(Vec3{1, 1, 0}, Vec3{}), w = normalizedOr(Vec3{-1, 1, 1}, Vec3{});
  for (int k = 0; k < 12; ++k) ring.push_back(Vec3{5, 5, 5} + (u * std::cos(k * M_PI / 6) + w * std::sin(k * M_PI / 6)) * 3.0);
  s = computeBoundingSphere(ring);
  EXPECT_NEAR(s.radius, 3.0, 1e-12 * sceneScale(ring));
  // A planar grid (many exactly coplanar, cocircular quadruples).
  std::vector<Vec3> grid;
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j) grid.push_back({double(i), double(j), 0});
  s = computeBoundingSphere(grid);
  EXPECT_NEAR(s.radius, 9 * std::sqrt(2.0) / 2, 1e-12 * 9);
}

// ------------------------------------------------------- PCA from points
TEST(ObbPoints, ElongatedRotatedBoxAxesAreThePrincipalAxes) {
  Rng rng(21);
  for (int it = 0; it < 300; ++it) {
    // Corners + a symmetric 5×5×5 lattice of a box with distinct extents:
    // by symmetry the covariance is diagonal in the box frame, with
    // variances ordered like the extents, so the PCA axes are the box axes.
    PosedBox box{{rng.uniform(4, 6), rng.uniform(1.5, 2.5), rng.uniform(0.2, 0.8)}, rng.rotation(), rng.inCube(50)};
    std::vector<Vec3> pts = box.corners();
    for (int i = -2; i <= 2; ++i)
      for (int j = -2; j <= 2; ++j)
        for (int k = -2; k <= 2; ++k) pts.push_back(box.at({box.h.x * i / 2, box.h.y * j / 2, box.h.z * k / 2}));
    const Obb b = obbFromPoints(pts);
    const double S = sceneScale(pts);
    expectValidBox(b, pts);
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(std::fabs(dot(b.axes[i], box.axis(i))), 1.0, 1e-12) << "axis " << i;  // sorted by variance
      EXPECT_NEAR(b.halfExtents[i], box.h[i], 1e-12 * S);
    }
    EXPECT_NEAR(length(b.center - box.t), 0, 1e-12 * S);
    EXPECT_NEAR(b.volume(), box.volume(), 1e-10 * box.volume());
  }
}

TEST(ObbPoints, RandomCloudsAreContainedWithOrthonormalAxes) {
  Rng rng(22);
  for (int it = 0; it < 1000; ++it) {
    const std::vector<Vec3> pts = randomCloud(rng, rng.integer(1, 300));
    SCOPED_TRACE(it);
    const Obb b = obbFromPoints(pts);
    expectValidBox(b, pts);
    // Deterministic: same input, same bits.
    const Obb c = obbFromPoints(pts);
    EXPECT_EQ(b.center, c.center);
    EXPECT_EQ(b.axes[0], c.axes[0]);
  }
}

TEST(ObbPoints, DegenerateInputs) {
  // One point / duplicates: zero box at the point.
  for (const std::vector<Vec3>& pts : {std::vector<Vec3>{{1, 2, 3}}, std::vector<Vec3>(7, Vec3{-1, 4, 2})}) {
    const Obb b = obbFromPoints(pts);
    expectValidBox(b, pts);
    EXPECT_EQ(b.center, pts[0]);
    EXPECT_EQ(b.halfExtents, Vec3(0, 0, 0));
  }
  // Collinear (with duplicates): axes[0] along the line, others zero.
  const Vec3 dir = normalizedOr(Vec3{3, -1, 2}, Vec3{});
  std::vector<Vec3> line;
  for (int i = 0; i < 30; ++i) line.push_back(Vec3{10, 20, -5} + dir * ((i * 7) % 11 - 5.0));
  Obb b = obbFromPoints(line);
  expectValidBox(b, line);
  EXPECT_NEAR(std::fabs(dot(b.axes[0], dir)), 1.0, 1e-14);
  EXPECT_NEAR(b.halfExtents[0], 5.0, 1e-12 * 25);
  EXPECT_LE(b.halfExtents[1], 1e-12 * 25);
  EXPECT_LE(b.halfExtents[2], 1e-12 * 25);
  // Coplanar (tilted plane): zero extent along the normal, axes[2].
  const Vec3 n = normalizedOr(Vec3{1, 2, 2}, Vec3{});
  const Vec3 u = normalizedOr(cross(n, Vec3{1, 0, 0}), Vec3{}), w = cross(n, u);
  Rng rng(23);
  std::vector<Vec3> plane;
  for (int i = 0; i < 100; ++i) plane.push_back(Vec3{3, 3, 3} + u * rng.uniform(-4, 4) + w * rng.uniform(-1, 1));
  b = obbFromPoints(plane);
  expectValidBox(b, plane);
  EXPECT_NEAR(std::fabs(dot(b.axes[2], n)), 1.0, 1e-13);
  EXPECT_LE(b.halfExtents[2], 1e-12 * sceneScale(plane));
  EXPECT_NEAR(b.volume(), 0.0, 1e-11 * std::pow(sceneScale(plane), 3));
}

// ------------------------------------------------------- PCA from triangles
// Surface covariance of a box with half extents (a, b, c), in its frame:
// diagonal (mirror symmetry). Faces ±x (area 4bc each) have x² = a²; on the
// four other faces x is uniform on [−a, a], E[x²] = a²/3. So
//   Var x = (8bc·a² + 8(ab + ac)·a²/3) / (8(ab + bc + ca)), and cyclically.
Vec3 boxSurfaceVariance(const Vec3& h) {
  const double a = h.x, b = h.y, c = h.z, area = a * b + b * c + c * a;
  return {(b * c * a * a + (a * b + a * c) * a * a / 3) / area, (a * c * b * b + (a * b + b * c) * b * b / 3) / area,
          (a * b * c * c + (a * c + b * c) * c * c / 3) / area};
}

TEST(ObbTriangles, BoxSurfaceCovarianceIsExactAndSamplingIndependent) {
  Rng rng(31);
  for (int it = 0; it < 50; ++it) {
    PosedBox box{{rng.uniform(2, 4), rng.uniform(1, 2), rng.uniform(0.1, 1)}, rng.rotation(), rng.inCube(10)};
    std::vector<Vec3> v = box.corners();
    std::vector<Tri> t = boxTriangles();
    const Vec3 var = boxSurfaceVariance(box.h);
    const double S = sceneScale(v);
    for (int level = 0; level <= 2; ++level) {
      if (level > 0) subdivide(v, t, 1);
      const Covariance c = triangleCovariance(v, t);
      EXPECT_NEAR(c.weight, 8 * (box.h.x * box.h.y + box.h.y * box.h.z + box.h.z * box.h.x), 1e-12 * S * S);
      EXPECT_NEAR(length(c.mean - box.t), 0, 1e-12 * S);
      // Rotate the expected diagonal covariance into the world: R diag Rᵀ.
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double e = 0;
          for (int k = 0; k < 3; ++k) e += var[k] * box.axis(k)[i] * box.axis(k)[j];
          EXPECT_NEAR(c.m[i][j], e, 1e-11 * S * S) << "level " << level;
        }
    }
    const Obb b = obbFromTriangles(v, t);
    expectValidBox(b, v);
    // Variances of (a > b > c) boxes are ordered like the extents.
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(std::fabs(dot(b.axes[i], box.axis(i))), 1.0, 1e-12);
    EXPECT_NEAR(b.volume(), box.volume(), 1e-10 * box.volume());
  }
}

TEST(ObbTriangles, SingleTriangleMatchesQuadrature) {
  // Independent check of the closed form: midpoint quadrature on a fine
  // regular split of one triangle (error O(h²), h = 1/400).
  const Vec3 p{0.3, -1, 2}, q{4, 0.5, 1}, r{-1, 2, 0};
  const int N = 400;
  double area = 0, m[3][3] = {};
  Vec3 mean;
  struct Sample { Vec3 x; double w; };
  std::vector<Sample> samples;
  const Vec3 du = (q - p) / N, dv = (r - p) / N;
  const double cell = 0.5 * length(cross(du, dv));
  for (int i = 0; i < N; ++i)
    for (int j = 0; i + j < N; ++j) {
      samples.push_back({p + du * (i + 1.0 / 3) + dv * (j + 1.0 / 3), cell});                     // upright
      if (i + j + 1 < N) samples.push_back({p + du * (i + 2.0 / 3) + dv * (j + 2.0 / 3), cell});  // inverted
    }
  for (const Sample& s : samples) area += s.w, mean += s.x * s.w;
  mean = mean / area;
  for (const Sample& s : samples)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m[i][j] += s.w * (s.x - mean)[i] * (s.x - mean)[j] / area;
  const Covariance c = triangleCovariance({p, q, r}, {{0, 1, 2}});
  // (The quadrature's own sums of 160 000 terms carry ~1e-11 rounding.)
  EXPECT_NEAR(c.weight, area, 1e-9 * area);
  EXPECT_NEAR(length(c.mean - mean), 0, 1e-9);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(c.m[i][j], m[i][j], 1e-4);
}

// The comparison: a rotated box whose +y face has one half (a
// triangle) subdivided 5 times — 1024 small triangles, 561 vertices — while
// the other half is a fan of 33 thin triangles and the remaining five faces
// are two triangles each. The points crowd into one triangle on one face,
// which pulls the point PCA towards that triangle's (diagonal) axes; the
// surface is still exactly the box's surface, so the triangle PCA is exact.
struct UnevenMesh {
  PosedBox box;
  std::vector<Vec3> v;
  std::vector<Tri> t;
};
UnevenMesh unevenBoxMesh(const PosedBox& box, int levels) {
  UnevenMesh m{box, box.corners(), {}};
  for (const Tri& tr : boxTriangles())
    if (!(tr[0] == 2 && tr[1] == 3 && tr[2] == 7) && !(tr[0] == 2 && tr[1] == 7 && tr[2] == 6)) m.t.push_back(tr);
  // +y face corners: 2 (−x, −z), 3 (+x, −z), 7 (+x, +z), 6 (−x, +z).
  // Dense half: triangle (2, 3, 7), on a conforming lattice of side 2^levels.
  const int N = 1 << levels;
  const Vec3 A = m.v[2], B = m.v[3], C = m.v[7];
  std::vector<std::vector<int>> id(N + 1, std::vector<int>(N + 1, -1));
  auto vertex = [&](int i, int j) {  // A + (B−A) i/N + (C−B) j/N, 0 ≤ j ≤ i
    if (id[i][j] < 0) {
      if (i == 0) id[i][j] = 2;
      else if (i == N && j == 0) id[i][j] = 3;
      else if (i == N && j == N) id[i][j] = 7;
      else {
        id[i][j] = static_cast<int>(m.v.size());
        m.v.push_back(A + (B - A) * (double(i) / N) + (C - B) * (double(j) / N));
      }
    }
    return id[i][j];
  };
  for (int i = 0; i < N; ++i)
    for (int j = 0; j <= i; ++j) {
      m.t.push_back({vertex(i, j), vertex(i + 1, j), vertex(i + 1, j + 1)});
      if (j < i) m.t.push_back({vertex(i, j), vertex(i + 1, j + 1), vertex(i, j + 1)});
    }
  // Sparse half: fan from corner 6 over the diagonal's lattice vertices.
  for (int i = 0; i < N; ++i) m.t.push_back({6, vertex(i, i), vertex(i + 1, i + 1)});
  return m;
}

TEST(ObbTriangles, UnevenSamplingPullsPointFitButNotTriangleFit) {
  Rng rng(33);
  for (int it = 0; it < 20; ++it) {
    const PosedBox box{{3, 2, 1}, rng.rotation(), rng.inCube(20)};
    const UnevenMesh m = unevenBoxMesh(box, 5);
    ASSERT_EQ(m.t.size(), 10u + 1024u + 32u);
    const Vec3 trueAxes[3] = {box.axis(0), box.axis(1), box.axis(2)};
    const double S = sceneScale(m.v);
    // Sanity: the mesh is the box's surface (area 2(4·3·... ) = 88).
    EXPECT_NEAR(triangleCovariance(m.v, m.t).weight, 88.0, 1e-10 * S * S);

    const Obb tri = obbFromTriangles(m.v, m.t);
    const Obb pts = obbFromPoints(m.v);
    expectValidBox(tri, m.v);
    expectValidBox(pts, m.v);
    // Triangle fit: the true box (volume 48), axes exact.
    EXPECT_GE(alignment(tri, trueAxes), 1 - 1e-12);
    EXPECT_NEAR(tri.volume(), box.volume(), 1e-9 * box.volume());
    // Point fit: axes pulled off by more than 10° and a box ≥ 20 % too big.
    // (Any box containing the box has volume ≥ 48, so 48 is the optimum.)
    EXPECT_LT(alignment(pts, trueAxes), std::cos(10 * M_PI / 180));
    EXPECT_GT(pts.volume(), 1.2 * box.volume());
    // Refinement from the bad fit recovers the optimum; never below it.
    const Obb ref = refineObb(pts, m.v);
    expectValidBox(ref, m.v);
    EXPECT_GE(ref.volume(), box.volume() * (1 - 1e-9));
    EXPECT_LE(ref.volume(), pts.volume());
    EXPECT_NEAR(ref.volume(), box.volume(), 1e-9 * box.volume());
  }
}

TEST(ObbTriangles, InvalidAndDegenerateTrianglesFallBack) {
  const std::vector<Vec3> v = {{0, 0, 0}, {4, 0, 0}, {0, 1, 0}, {0, 0, 0.5}, {2, 0, 0}};
  // Out-of-range indices are skipped (no UB); the box still bounds all verts.
  Obb b = obbFromTriangles(v, {{0, 1, 99}, {-1, 0, 1}, {0, 1, 2}});
  expectValidBox(b, v);
  // Only zero-area triangles: same as the point fit.
  b = obbFromTriangles(v, {{0, 1, 4}, {2, 2, 2}});
  const Obb p = obbFromPoints(v);
  EXPECT_EQ(b.center, p.center);
  EXPECT_EQ(b.halfExtents, p.halfExtents);
  EXPECT_EQ(triangleCovariance(v, {{0, 1, 4}}).weight, 0.0);
  // No triangles: point fit.
  EXPECT_EQ(obbFromTriangles(v, {}).halfExtents, p.halfExtents);
  // A flat mesh (polygon fanned): zero thickness along its normal.
  const std::vector<Vec3> quad = {{0, 0, 1}, {3, 0, 1}, {3, 1, 1}, {0, 1, 1}};
  b = obbFromTriangles(quad, {{0, 1, 2}, {0, 2, 3}});
  expectValidBox(b, quad);
  EXPECT_NEAR(std::fabs(b.axes[2].z), 1.0, 1e-15);
  EXPECT_NEAR(b.volume(), 0.0, 1e-15);
  EXPECT_NEAR(b.halfExtents[0], 1.5, 1e-14);
  EXPECT_NEAR(b.halfExtents[1], 0.5, 1e-14);
}

// ------------------------------------------------------- scale
TEST(ObbScale, HugeTinyAndFarAwayCloudsStayFiniteAndExact) {
  Rng rng(51);
  for (const double scale : {1e-100, 1e-8, 1.0, 1e8, 1e100}) {
    for (const double offset : {0.0, 1e6}) {
      SCOPED_TRACE(scale);
      const PosedBox box{Vec3{3, 2, 1} * scale, rng.rotation(), Vec3{1, -2, 3} * (offset * scale)};
      std::vector<Vec3> pts = box.corners();
      for (int k = 0; k < 40; ++k) pts.push_back(box.at({rng.uniform(-3, 3) * scale, rng.uniform(-2, 2) * scale, rng.uniform(-1, 1) * scale}));
      const double S = sceneScale(pts);
      // Corners are exact to ~1e-16·S; the true extents hold to that too.
      const double tol = 1e-12 * S;
      const Obb p = obbFromPoints(pts);
      expectValidBox(p, pts);
      const UnevenMesh m = unevenBoxMesh(box, 3);
      const Obb t = obbFromTriangles(m.v, m.t);
      expectValidBox(t, m.v);
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(t.halfExtents[i], box.h[i], tol);
      const Obb r = refineObb(p, pts);
      expectValidBox(r, pts);
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.halfExtents[i], box.h[i], 1e-9 * S);
      const BoundingSphere s = computeBoundingSphere(box.corners());
      EXPECT_NEAR(s.radius, std::sqrt(14.0) * scale, tol);
      EXPECT_LE(sphereWorstOutside(s, pts), tol);
    }
  }
}

// ------------------------------------------------------- refinement
TEST(ObbRefine, NeverAboveAabbOrFitAndContainsEverything) {
  Rng rng(41);
  int usedAabb = 0, improved = 0;
  for (int it = 0; it < 600; ++it) {
    const std::vector<Vec3> pts = randomCloud(rng, rng.integer(1, 120));
    SCOPED_TRACE(it);
    const Obb fit = obbFromPoints(pts);
    RefineInfo info;
    const Obb b = refineObb(fit, pts, &info);
    expectValidBox(b, pts);
    const double aabbVolume = computeAabb(pts).volume();
    EXPECT_LE(b.volume(), aabbVolume);  // exact, no tolerance: the contract
    const double L = 2 * maxAbs(obbFromAabb(computeAabb(pts)).halfExtents);
    EXPECT_LE(b.volume(), fit.volume() * (1 + 1e-9) + 1e-12 * L * L * L);
    EXPECT_LE(info.sweeps, kRefineMaxSweeps);
    usedAabb += info.usedAabb;
    improved += info.improved;
  }
  EXPECT_GT(improved, 300);  // the refinement does something on most clouds
  EXPECT_LT(usedAabb, 60);
}

TEST(ObbRefine, BeatsBruteForceRotationSearch) {
  // Brute force: the tight box over 3000 random rotations (plus the AABB).
  // The refinement (a local search) must do at least as well as that
  // sample's best (measured: 0.89–0.99 of it on these clouds).
  Rng rng(42);
  double worstRatio = 0;
  for (int it = 0; it < 12; ++it) {
    const std::vector<Vec3> pts = randomCloud(rng, 40);
    double brute = computeAabb(pts).volume();
    for (int k = 0; k < 3000; ++k) brute = std::min(brute, tightVolume(rng.rotation(), pts));
    const Obb b = refineObb(obbFromPoints(pts), pts);
    worstRatio = std::max(worstRatio, b.volume() / brute);
    EXPECT_LE(b.volume(), brute) << it;
  }
  RecordProperty("worstRatioToBruteForce", std::to_string(worstRatio));
}

TEST(ObbRefine, RecoversBoxesPcaCannotSee) {
  Rng rng(43);
  for (int it = 0; it < 100; ++it) {
    // A cube's corners have isotropic covariance: PCA axes are arbitrary.
    // Refinement must find the cube (the optimum: it contains itself).
    const double h = rng.uniform(0.1, 10);
    const PosedBox cube{{h, h, h}, rng.rotation(), rng.inCube(100)};
    std::vector<Vec3> pts = cube.corners();
    for (int k = 0; k < 30; ++k) pts.push_back(cube.at(rng.inCube(h)));  // interior noise
    const Obb b = refineObb(obbFromPoints(pts), pts);
    expectValidBox(b, pts);
    EXPECT_NEAR(b.volume(), cube.volume(), 1e-9 * cube.volume()) << it;
    // A flat rotated rectangle in a tilted plane: zero volume, the rectangle.
    const PosedBox rect{{rng.uniform(2, 3), rng.uniform(0.5, 1), 0}, rng.rotation(), rng.inCube(10)};
    std::vector<Vec3> flat = rect.corners();
    for (int k = 0; k < 20; ++k) flat.push_back(rect.at({rng.uniform(-rect.h.x, rect.h.x), rng.uniform(-rect.h.y, rect.h.y), 0}));
    const Obb f = refineObb(obbFromPoints(flat), flat);
    expectValidBox(f, flat);
    const double S = sceneScale(flat);
    EXPECT_NEAR(f.halfExtents[0], rect.h.x, 1e-9 * S);
    EXPECT_NEAR(f.halfExtents[1], rect.h.y, 1e-9 * S);
    EXPECT_LE(f.halfExtents[2], 1e-12 * S);
  }
}

TEST(ObbRefine, AxisAlignedAndDegenerateFallBackToAabb) {
  // Axis-aligned box: the AABB is optimal; refinement returns it exactly.
  std::vector<Vec3> pts = PosedBox{{1, 2, 3}, Quat{}, {5, 6, 7}}.corners();
  RefineInfo info;
  Obb b = refineObb(obbFromPoints(pts), pts, &info);
  EXPECT_NEAR(b.volume(), 48.0, 1e-12 * 48);
  EXPECT_LE(b.volume(), computeAabb(pts).volume());
  // Single point, duplicates, collinear: valid boxes, zero extents.
  for (const std::vector<Vec3>& p : {std::vector<Vec3>{{1, 1, 1}}, std::vector<Vec3>(4, Vec3{2, 0, -1})}) {
    b = refineObb(obbFromPoints(p), p);
    expectValidBox(b, p);
    EXPECT_EQ(b.volume(), 0.0);
    EXPECT_EQ(b.halfExtents, Vec3(0, 0, 0));
  }
  std::vector<Vec3> line;
  const Vec3 dir = normalizedOr(Vec3{1, -2, 0.5}, Vec3{});
  for (int i = 0; i < 9; ++i) line.push_back(Vec3{1, 1, 1} + dir * (i * 0.5));
  b = refineObb(obbFromPoints(line), line);
  expectValidBox(b, line);
  EXPECT_NEAR(b.halfExtents[0], 2.0, 1e-12 * 5);
  EXPECT_LE(b.halfExtents[1], 1e-12 * 5);
  EXPECT_LE(b.halfExtents[2], 1e-12 * 5);
  // A caller's garbage axes are orthonormalised, not trusted.
  Obb junk;
  junk.axes[0] = {0, 0, 0};
  junk.axes[1] = {NAN, 1, 0};
  junk.axes[2] = {3, 3, 3};
  b = refineObb(junk, line);
  expectValidBox(b, line);
}

}  // namespace
