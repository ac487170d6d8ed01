// GJK's distance sub-algorithm (simplex.h, reduceSimplex) against an
// independent closest-point computation: clamped projection for segments,
// projection + edges for triangles (ref::closestOnTriangle), and for
// tetrahedra the origin's barycentric coordinates by Gaussian elimination
// (inside: 0) or else the nearest of the four faces.
//
// Tolerance: 1e-10 of the simplex's scale (largest |coordinate|). One
// sub-algorithm step is a few dozen roundings, ~1e-15 relative in
// well-conditioned cases; 1e-10 leaves room for the nearly flat simplices
// below and keeps the whole GJK query within its 1e-9 budget.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "collidoscope/simplex.h"
#include "gjk_helpers.h"
#include "reference.h"

namespace {

using collidoscope::Simplex;
using collidoscope::Vec3;
using ref::Rng;

// Barycentric coordinates (μ1, μ2, μ3) of the origin in y0 + Σ μ_i (y_i − y0),
// by Gaussian elimination with partial pivoting; false when singular.
bool originCoordinates(const Vec3 y[4], double mu[3]) {
  double m[3][4];
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) m[r][c] = (y[c + 1] - y[0])[r];
    m[r][3] = -y[0][r];
  }
  for (int c = 0; c < 3; ++c) {
    int piv = c;
    for (int r = c + 1; r < 3; ++r)
      if (std::fabs(m[r][c]) > std::fabs(m[piv][c])) piv = r;
    if (!(std::fabs(m[piv][c]) > 0)) return false;
    for (int k = 0; k < 4; ++k) std::swap(m[c][k], m[piv][k]);
    for (int r = 0; r < 3; ++r) {
      if (r == c) continue;
      const double f = m[r][c] / m[c][c];
      for (int k = c; k < 4; ++k) m[r][k] -= f * m[c][k];
    }
  }
  for (int c = 0; c < 3; ++c) mu[c] = m[c][3] / m[c][c];
  return true;
}

// Closest point of conv(y[0..n-1]) to the origin.
// *inside: the origin lies strictly inside a tetrahedron.
Vec3 referenceClosest(const Vec3* y, int n, bool* inside) {
  *inside = false;
  const Vec3 o{0, 0, 0};
  switch (n) {
    case 1: return y[0];
    case 2: return ref::closestOnSegment(o, y[0], y[1]);
    case 3: return ref::closestOnTriangle(o, y[0], y[1], y[2]);
    default: {
      double mu[3];
      if (originCoordinates(y, mu) && mu[0] >= 0 && mu[1] >= 0 && mu[2] >= 0 && mu[0] + mu[1] + mu[2] <= 1) {
        // Strictly inside (not within rounding of a face): all four
        // coordinates clear of zero.
        const double m = 1e-9;
        *inside = mu[0] > m && mu[1] > m && mu[2] > m && mu[0] + mu[1] + mu[2] < 1 - m;
        return o;
      }
      const int faces[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
      Vec3 best;
      double bestD = 1e300;
      for (const auto& f : faces) {
        const Vec3 p = ref::closestOnTriangle(o, y[f[0]], y[f[1]], y[f[2]]);
        if (ref::norm(p) < bestD) {
          bestD = ref::norm(p);
          best = p;
        }
      }
      return best;
    }
  }
}

// Runs reduceSimplex on y[0..n-1] and checks it against the reference.
void checkSimplex(const Vec3* y, int n, const char* what) {
  Simplex s;
  Vec3 offsets[4];
  double scale = 0;
  for (int i = 0; i < n; ++i) {
    // a − b = w with b an arbitrary offset, so the weights' use on A and B
    // (pointA − pointB = v) is checked as well.
    offsets[i] = Vec3{0.25 * i, -1.5, 2.0 + i};
    s.vertex[i].w = y[i];
    s.vertex[i].b = offsets[i];
    s.vertex[i].a = y[i] + offsets[i];
    scale = std::max(scale, ref::maxAbs3(y[i]));
  }
  s.size = n;
  bool inside = false;
  const Vec3 expected = referenceClosest(y, n, &inside);
  const Vec3 v = collidoscope::reduceSimplex(&s);
  const double tol = 1e-10 * scale;
  std::string pts;
  for (int i = 0; i < n; ++i) pts += testutil::str(y[i]) + " ";
  SCOPED_TRACE(std::string(what) + ": " + pts);
  ASSERT_TRUE(ref::finite(v));
  EXPECT_NEAR(ref::dist(v, expected), 0, tol) << "v " << testutil::str(v) << " expected " << testutil::str(expected);
  ASSERT_GE(s.size, 1);
  ASSERT_LE(s.size, n);
  double sum = 0;
  Vec3 combo, a, b;
  for (int i = 0; i < s.size; ++i) {
    EXPECT_GT(s.lambda[i], 0.0) << "weight " << i;
    sum += s.lambda[i];
    combo = combo + s.vertex[i].w * s.lambda[i];
    // Every kept vertex is one of the input vertices, with its a and b.
    bool found = false;
    for (int k = 0; k < n; ++k)
      found = found || (s.vertex[i].w == y[k] && s.vertex[i].b == offsets[k] && s.vertex[i].a == y[k] + offsets[k]);
    EXPECT_TRUE(found) << "kept vertex " << i << " is not an input vertex";
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_NEAR(ref::dist(combo, v), 0, 1e-12 * std::max(scale, 1e-300)) << "v != Σλw";
  EXPECT_NEAR(ref::dist(s.pointA() - s.pointB(), v), 0, 1e-12 * (scale + 4)) << "pointA − pointB != v";
  if (inside) {
    EXPECT_EQ(s.size, 4) << "origin strictly inside the tetrahedron keeps all 4 vertices";
  }
  if (s.size == 4) {
    EXPECT_EQ(v, Vec3(0, 0, 0));
  }
}

TEST(Simplex, RandomSegments) {
  Rng rng(701);
  for (int i = 0; i < 3000; ++i) {
    const double sc = rng.logUniform(1e-3, 1e3);
    Vec3 y[2] = {rng.inCube(sc) + Vec3{sc * 0.3, 0, 0}, rng.inCube(sc)};
    checkSimplex(y, 2, "segment");
  }
}

TEST(Simplex, RandomTriangles) {
  Rng rng(702);
  for (int i = 0; i < 3000; ++i) {
    const double sc = rng.logUniform(1e-3, 1e3);
    const Vec3 shift = rng.inCube(sc * 0.8);
    Vec3 y[3] = {rng.inCube(sc) + shift, rng.inCube(sc) + shift, rng.inCube(sc) + shift};
    checkSimplex(y, 3, "triangle");
  }
}

TEST(Simplex, RandomTetrahedra) {
  Rng rng(703);
  int insideCount = 0;
  for (int i = 0; i < 3000; ++i) {
    const double sc = rng.logUniform(1e-3, 1e3);
    const Vec3 shift = rng.inCube(sc * 0.6);
    Vec3 y[4] = {rng.inCube(sc) + shift, rng.inCube(sc) + shift, rng.inCube(sc) + shift, rng.inCube(sc) + shift};
    bool inside = false;
    referenceClosest(y, 4, &inside);
    insideCount += inside;
    checkSimplex(y, 4, "tetrahedron");
  }
  EXPECT_GT(insideCount, 100) << "the sample must cover the origin-inside case";
}

TEST(Simplex, NearlyDegenerateSimplices) {
  Rng rng(704);
  for (int i = 0; i < 2000; ++i) {
    const double thin = rng.logUniform(1e-14, 1e-3);
    const Vec3 o = rng.inCube(1), d = rng.direction(), e = ref::unit(ref::cross3(d, rng.direction()));
    const Vec3 n = ref::cross3(d, e);
    // Nearly collinear triangle and nearly flat tetrahedron.
    Vec3 tri[3] = {o + d * rng.uniform(-1, 1), o + d * rng.uniform(-1, 1), o + d * rng.uniform(-1, 1) + e * thin};
    checkSimplex(tri, 3, "nearly collinear triangle");
    Vec3 tet[4] = {o + d * rng.uniform(-1, 1) + e * rng.uniform(-1, 1),
                   o + d * rng.uniform(-1, 1) + e * rng.uniform(-1, 1),
                   o + d * rng.uniform(-1, 1) + e * rng.uniform(-1, 1),
                   o + d * rng.uniform(-1, 1) + e * rng.uniform(-1, 1) + n * thin};
    checkSimplex(tet, 4, "nearly flat tetrahedron");
    // Exactly degenerate: repeated vertices.
    Vec3 rep[4] = {tet[0], tet[1], tet[0], tet[2]};
    checkSimplex(rep, 4, "tetrahedron with a repeated vertex");
    Vec3 seg[2] = {tet[3], tet[3]};
    checkSimplex(seg, 2, "zero-length segment");
  }
}

TEST(Simplex, OriginOnAFeature) {
  // The origin exactly on a vertex, an edge and a face: distance 0.
  const Vec3 a{-1, 0, 0}, b{1, 0, 0}, c{0, 1, 0}, d{0, -1, 1};
  Vec3 onEdge[2] = {a, b};
  checkSimplex(onEdge, 2, "origin on segment");
  Vec3 onVertex[3] = {Vec3{0, 0, 0}, b, c};
  checkSimplex(onVertex, 3, "origin at a triangle vertex");
  Vec3 onFace[3] = {a, b, Vec3{0, -1, 0}};
  checkSimplex(onFace, 3, "origin on a triangle's edge");
  Vec3 tetFace[4] = {a, b, c, d};  // origin on face abc
  checkSimplex(tetFace, 4, "origin on a tetrahedron face");
}

}  // namespace
