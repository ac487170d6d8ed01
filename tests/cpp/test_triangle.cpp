// Triangles (collidoscope/triangle.h).
//
// trianglesIntersect against an independent brute force: the closed
// triangles meet iff some convex combination of A's corners equals one of
// B's, i.e. iff the linear program
//     Σ λ_i a_i − Σ μ_j b_j = 0,  Σ λ_i = 1,  Σ μ_j = 1,  λ, μ ≥ 0
// is feasible. A non-empty bounded polyhedron {x ≥ 0 : Mx = c} has a vertex,
// and at a vertex the columns of M over the non-zero variables are linearly
// independent, so the program is feasible iff some set F of columns is
// independent, M_F x = c is consistent and its unique solution is ≥ 0.
// The reference tries all such F in exact integer arithmetic (__int128,
// fraction-free elimination) on integer coordinates; no orientation
// predicate, no case analysis of degenerate triangles. Inputs are integer
// grids mapped to doubles exactly (times 2^-k, plus a large common offset),
// biased to the hard cases: coplanar, shared corners and edges, corners on
// edges and faces, crossing edges, degenerate triangles, and single-unit
// nudges of all of these.
//
// triangleContact against closed forms on spheres and capsules (closest
// points on a triangle by brute force over its regions) and against
// contact() on the same triangle as a convex Shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>

#include "collidoscope/contact.h"
#include "collidoscope/support.h"
#include "collidoscope/triangle.h"

namespace {

using collidoscope::Quat;
using collidoscope::Shape;
using collidoscope::Transform;
using collidoscope::Vec3;
using collidoscope::trianglesIntersect;

using I128 = __int128;

struct IPt {
  std::int64_t c[3];
};
using ITri = std::array<IPt, 3>;

// ------------------------------------------------------------ the reference

// Determinant of the m×m matrix a (m ≤ 5) by Bareiss elimination with row
// swaps: every intermediate is a minor of a, so the bounds below hold.
I128 determinant(I128 a[5][5], int m) {
  I128 prev = 1;
  int sign = 1;
  for (int k = 0; k < m; ++k) {
    int p = k;
    while (p < m && a[p][k] == 0) ++p;
    if (p == m) return 0;
    if (p != k) {
      for (int j = 0; j < m; ++j) std::swap(a[p][j], a[k][j]);
      sign = -sign;
    }
    for (int i = k + 1; i < m; ++i) {
      for (int j = k + 1; j < m; ++j) a[i][j] = (a[k][k] * a[i][j] - a[i][k] * a[k][j]) / prev;
      a[i][k] = 0;
    }
    prev = a[k][k];
  }
  return sign * a[m - 1][m - 1];
}

// Coordinates (relative to A's first corner) within ±2^16: minors of the
// 5×7 system stay below 6^2.5·2^48 < 2^56 and products of two below 2^112.
constexpr std::int64_t kReferenceBound = std::int64_t{1} << 16;

bool referenceIntersect(const ITri& a, const ITri& b) {
  I128 m[5][6] = {};
  const I128 rhs[5] = {0, 0, 0, 1, 1};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) {
      const std::int64_t da = a[i].c[k] - a[0].c[k], db = b[i].c[k] - a[0].c[k];
      if (std::llabs(da) > kReferenceBound || std::llabs(db) > kReferenceBound) throw std::runtime_error("bound");
      m[k][i] = da;
      m[k][3 + i] = -db;
    }
  for (int i = 0; i < 3; ++i) m[3][i] = 1, m[4][3 + i] = 1;
  for (int mask = 1; mask < 64; ++mask) {
    if (!(mask & 7) || !(mask & 56)) continue;
    int cols[6], n = 0;
    for (int j = 0; j < 6; ++j)
      if (mask >> j & 1) cols[n++] = j;
    if (n > 5) continue;
    // Fraction-free elimination of [M_F | c]: pivots in all n columns
    // (independence), then zero right-hand sides below (consistency).
    I128 w[5][6];
    int row[5] = {0, 1, 2, 3, 4};
    for (int i = 0; i < 5; ++i) {
      for (int j = 0; j < n; ++j) w[i][j] = m[i][cols[j]];
      w[i][n] = rhs[i];
    }
    I128 prev = 1;
    bool independent = true;
    for (int k = 0; k < n && independent; ++k) {
      int p = k;
      while (p < 5 && w[p][k] == 0) ++p;
      if (p == 5) {
        independent = false;
        break;
      }
      if (p != k) {
        for (int j = 0; j <= n; ++j) std::swap(w[p][j], w[k][j]);
        std::swap(row[p], row[k]);
      }
      for (int i = k + 1; i < 5; ++i) {
        for (int j = k + 1; j <= n; ++j) w[i][j] = (w[k][k] * w[i][j] - w[i][k] * w[k][j]) / prev;
        w[i][k] = 0;
      }
      prev = w[k][k];
    }
    if (!independent) continue;
    bool consistent = true;
    for (int i = n; i < 5; ++i) consistent = consistent && w[i][n] == 0;
    if (!consistent) continue;
    // The unique solution by Cramer's rule on the pivot rows: x_t = D_t / D.
    I128 sub[5][5];
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) sub[i][j] = m[row[i]][cols[j]];
    const I128 d = determinant(sub, n);
    bool nonNegative = d != 0;
    for (int t = 0; t < n && nonNegative; ++t) {
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) sub[i][j] = j == t ? rhs[row[i]] : m[row[i]][cols[j]];
      const I128 dt = determinant(sub, n);
      nonNegative = (dt >= 0 && d > 0) || (dt <= 0 && d < 0);
    }
    if (nonNegative) return true;
  }
  return false;
}

// ------------------------------------------------------------ inputs

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(std::uint64_t seed) : rng(seed) {}
  std::int64_t uni(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  }
  IPt point(std::int64_t r) { return {{uni(-r, r), uni(-r, r), uni(-r, r)}}; }
  bool coin() { return uni(0, 1) == 1; }
};

IPt add(const IPt& a, const IPt& b) { return {{a.c[0] + b.c[0], a.c[1] + b.c[1], a.c[2] + b.c[2]}}; }
IPt sub(const IPt& a, const IPt& b) { return {{a.c[0] - b.c[0], a.c[1] - b.c[1], a.c[2] - b.c[2]}}; }
IPt mul(const IPt& a, std::int64_t s) { return {{a.c[0] * s, a.c[1] * s, a.c[2] * s}}; }
IPt divide(const IPt& a, std::int64_t s) { return {{a.c[0] / s, a.c[1] / s, a.c[2] / s}}; }
bool zero(const IPt& a) { return a.c[0] == 0 && a.c[1] == 0 && a.c[2] == 0; }
IPt crossI(const IPt& a, const IPt& b) {
  return {{a.c[1] * b.c[2] - a.c[2] * b.c[1], a.c[2] * b.c[0] - a.c[0] * b.c[2], a.c[0] * b.c[1] - a.c[1] * b.c[0]}};
}

// A plane through o spanned by u and v (independent), points o + i·u + j·v.
struct Plane {
  IPt o, u, v;
  IPt at(std::int64_t i, std::int64_t j) const { return add(o, add(mul(u, i), mul(v, j))); }
};
Plane randomPlane(Gen& g) {
  for (;;) {
    Plane p{g.point(6), g.point(3), g.point(3)};
    if (!zero(crossI(p.u, p.v))) return p;
  }
}
IPt inPlane(Gen& g, const Plane& p, int r) { return p.at(g.uni(-r, r), g.uni(-r, r)); }

enum Family {
  kSmallGrid,
  kWide,
  kCoplanar,
  kSharedCorner,
  kSharedEdge,
  kCornerOnEdge,
  kCornerOnFace,
  kCrossingEdges,
  kDegenerate,
  kFamilies
};
const char* const kFamilyNames[kFamilies] = {"small grid",     "wide",           "coplanar",
                                              "shared corner",  "shared edge",    "corner on edge",
                                              "corner on face", "crossing edges", "degenerate"};

// Either a random point, or one in A's plane (so that the pair may be
// coplanar), or in a random plane through a given point.
IPt companion(Gen& g, const ITri& a, int r) {
  if (g.uni(0, 2) == 0) {
    const IPt e1 = sub(a[1], a[0]), e2 = sub(a[2], a[0]);
    return add(a[0], add(mul(e1, g.uni(-2, 2)), mul(e2, g.uni(-2, 2))));
  }
  return add(a[g.uni(0, 2)], g.point(r));
}

// A point on A's edge k at t/4 (A's coordinates multiples of 4).
IPt onEdge(const ITri& a, int k, std::int64_t t) {
  return divide(add(mul(a[k], 4 - t), mul(a[(k + 1) % 3], t)), 4);
}

void makePair(Gen& g, Family f, ITri* a, ITri* b) {
  switch (f) {
    case kSmallGrid:
      for (int i = 0; i < 3; ++i) (*a)[i] = g.point(3), (*b)[i] = g.point(3);
      return;
    case kWide:
      for (int i = 0; i < 3; ++i) (*a)[i] = g.point(1000), (*b)[i] = g.point(1000);
      return;
    case kCoplanar: {
      const Plane p = randomPlane(g);
      const int r = static_cast<int>(g.uni(2, 5));
      for (int i = 0; i < 3; ++i) (*a)[i] = inPlane(g, p, r), (*b)[i] = inPlane(g, p, r);
      return;
    }
    case kSharedCorner:
    case kSharedEdge: {
      for (int i = 0; i < 3; ++i) (*a)[i] = g.point(6);
      const int k = static_cast<int>(g.uni(0, 2));
      (*b)[0] = (*a)[k];
      (*b)[1] = f == kSharedEdge ? (*a)[(k + 1) % 3] : companion(g, *a, 6);
      (*b)[2] = companion(g, *a, 6);
      return;
    }
    case kCornerOnEdge:
    case kCrossingEdges: {
      for (int i = 0; i < 3; ++i) (*a)[i] = mul(g.point(5), 4);
      const int k = static_cast<int>(g.uni(0, 2));
      const IPt x = onEdge(*a, k, g.uni(0, 4));
      if (f == kCornerOnEdge) {
        (*b)[0] = x;
        (*b)[1] = companion(g, *a, 8);
        (*b)[2] = companion(g, *a, 8);
      } else {
        // B's edge through x: along A's plane (coplanar crossing) or not.
        IPt w = g.coin() ? add(mul(sub((*a)[1], (*a)[0]), g.uni(-1, 1)), mul(sub((*a)[2], (*a)[0]), g.uni(-1, 1)))
                         : g.point(6);
        if (g.coin()) w = divide(w, 4);
        (*b)[0] = add(x, w);
        (*b)[1] = sub(x, mul(w, g.uni(0, 2)));
        (*b)[2] = companion(g, *a, 8);
      }
      return;
    }
    case kCornerOnFace: {
      for (int i = 0; i < 3; ++i) (*a)[i] = mul(g.point(4), 6);
      // Barycentric weights /6, some possibly negative (just outside).
      const std::int64_t al = g.uni(-1, 6), be = g.uni(-1, 6 - std::max<std::int64_t>(al, 0));
      const std::int64_t ga = 6 - al - be;
      const IPt x = divide(add(add(mul((*a)[0], al), mul((*a)[1], be)), mul((*a)[2], ga)), 6);
      (*b)[0] = x;
      (*b)[1] = companion(g, *a, 10);
      (*b)[2] = g.coin() ? companion(g, *a, 10) : add(x, mul(sub((*b)[1], x), -g.uni(0, 2)));
      return;
    }
    case kDegenerate: {
      makePair(g, static_cast<Family>(g.uni(0, kDegenerate - 1)), a, b);
      for (ITri* t : {a, b}) {
        const int how = static_cast<int>(g.uni(0, 4));
        if (t == a && how > 2) continue;  // A stays proper more often than not
        if (how == 0) (*t)[2] = (*t)[0];                                               // repeated corner
        if (how == 1) (*t)[2] = add((*t)[0], mul(sub((*t)[1], (*t)[0]), g.uni(-2, 3)));  // collinear
        if (how == 2) (*t)[1] = (*t)[2] = (*t)[0];                                     // a point
      }
      return;
    }
    default: return;
  }
}

// Exact doubles: (c + offset)·2^-k, the same map for both triangles (a
// scaling and translation, which the answer does not depend on).
struct DoubleMap {
  std::int64_t offset[3];
  int k;
  Vec3 operator()(const IPt& p) const {
    return {std::ldexp(static_cast<double>(p.c[0] + offset[0]), -k),
            std::ldexp(static_cast<double>(p.c[1] + offset[1]), -k),
            std::ldexp(static_cast<double>(p.c[2] + offset[2]), -k)};
  }
};

DoubleMap randomMap(Gen& g) {
  DoubleMap m{};
  const int kind = static_cast<int>(g.uni(0, 3));
  const std::int64_t big = kind == 0 ? 0 : (kind == 1 ? 1000 : (std::int64_t{1} << 30));
  for (auto& o : m.offset) o = big == 0 ? 0 : g.uni(-big, big);
  // 1000 and 1060: tiny and subnormal coordinates (trianglesIntersect
  // rescales them before its predicates could underflow).
  const int ks[] = {0, 3, 24, 60, 1000, 1060};
  m.k = ks[g.uni(0, 5)];
  return m;
}

// ------------------------------------------------------------ trianglesIntersect

bool intersect(const Vec3 a[3], const Vec3 b[3]) { return trianglesIntersect(a[0], a[1], a[2], b[0], b[1], b[2]); }

TEST(TrianglesIntersect, HandPickedCases) {
  const Vec3 a[3] = {{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};
  struct Case {
    const char* name;
    Vec3 b[3];
    bool expected;
  };
  const Case cases[] = {
      {"crossing through the face", {{1, 1, -1}, {1, 1, 1}, {5, 5, 5}}, true},
      {"above, parallel", {{0, 0, 1}, {4, 0, 1}, {0, 4, 1}}, false},
      {"shared corner only", {{0, 0, 0}, {-1, -2, 3}, {-2, -1, 5}}, true},
      {"corner on the face", {{1, 1, 0}, {1, 1, 3}, {2, 3, 4}}, true},
      {"corner on an edge", {{2, 0, 0}, {2, -1, 3}, {3, -2, 2}}, true},
      {"corner just past the hypotenuse", {{2, 2.5, 0}, {2, 2.5, 3}, {3, 4, 2}}, false},
      {"corner on the hypotenuse", {{2, 2, 0}, {2, 2, 3}, {3, 4, 2}}, true},
      {"edge crossing an edge", {{2, -1, -1}, {2, 1, 1}, {2, -3, 4}}, true},
      {"shared edge, folded", {{0, 0, 0}, {4, 0, 0}, {2, -3, 5}}, true},
      {"coplanar, overlapping", {{1, 1, 0}, {5, 1, 0}, {1, 5, 0}}, true},
      {"coplanar, inside", {{1, 1, 0}, {2, 1, 0}, {1, 2, 0}}, true},
      {"coplanar, touching at corners", {{4, 0, 0}, {6, 0, 0}, {6, 2, 0}}, true},
      {"coplanar, apart across the hypotenuse", {{3, 2, 0}, {5, 2, 0}, {5, 4, 0}}, false},
      {"coplanar, touching the hypotenuse", {{2, 2, 0}, {5, 2, 0}, {5, 4, 0}}, true},
      {"segment through the face", {{1, 1, -1}, {1, 1, 1}, {1, 1, 3}}, true},
      {"segment in the plane, beside", {{5, 0, 0}, {5, 5, 0}, {5, 2, 0}}, false},
      {"segment lying along an edge", {{-1, 0, 0}, {5, 0, 0}, {1, 0, 0}}, true},
      {"point on an edge", {{0, 2, 0}, {0, 2, 0}, {0, 2, 0}}, true},
      {"point above the face", {{1, 1, 1e-300}, {1, 1, 1e-300}, {1, 1, 1e-300}}, false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(intersect(a, c.b), c.expected) << c.name;
    EXPECT_EQ(intersect(c.b, a), c.expected) << c.name << " (swapped)";
  }
  // Two degenerate triangles: crossing segments, parallel ones, one line.
  const Vec3 s1[3] = {{0, 0, 0}, {2, 2, 0}, {1, 1, 0}}, s2[3] = {{0, 2, 0}, {2, 0, 0}, {2, 0, 0}};
  const Vec3 s3[3] = {{0, 1, 0}, {2, 3, 0}, {2, 3, 0}}, s4[3] = {{2, 2, 0}, {3, 3, 0}, {3, 3, 0}};
  const Vec3 s5[3] = {{2.5, 2.5, 0}, {3, 3, 0}, {3, 3, 0}};
  EXPECT_TRUE(intersect(s1, s2));
  EXPECT_FALSE(intersect(s1, s3));
  EXPECT_TRUE(intersect(s1, s4));
  EXPECT_FALSE(intersect(s1, s5));
}

TEST(TrianglesIntersect, ReferenceAgreesOnHandPickedCases) {
  // The brute force itself, on integer versions of cases with known answers.
  const ITri a = {{{{0, 0, 0}}, {{4, 0, 0}}, {{0, 4, 0}}}};
  EXPECT_TRUE(referenceIntersect(a, {{{{1, 1, -1}}, {{1, 1, 1}}, {{5, 5, 5}}}}));
  EXPECT_FALSE(referenceIntersect(a, {{{{0, 0, 1}}, {{4, 0, 1}}, {{0, 4, 1}}}}));
  EXPECT_TRUE(referenceIntersect(a, {{{{2, 2, 0}}, {{2, 2, 3}}, {{3, 4, 2}}}}));
  EXPECT_FALSE(referenceIntersect(a, {{{{3, 2, 0}}, {{5, 2, 0}}, {{5, 4, 0}}}}));
  EXPECT_TRUE(referenceIntersect(a, {{{{0, 2, 0}}, {{0, 2, 0}}, {{0, 2, 0}}}}));
  EXPECT_FALSE(referenceIntersect(a, {{{{0, 5, 0}}, {{0, 5, 0}}, {{0, 5, 0}}}}));
  EXPECT_TRUE(referenceIntersect({{{{0, 0, 0}}, {{2, 2, 0}}, {{1, 1, 0}}}}, {{{{0, 2, 0}}, {{2, 0, 0}}, {{2, 0, 0}}}}));
}

// Every family, every pair three times (corners shuffled; then also A and B
// swapped; then also the axes permuted and mirrored), against the brute
// force: no disagreement.
TEST(TrianglesIntersect, AgreesWithExactBruteForce) {
  constexpr int kPairsPerFamily = 30000;
  Gen g(20261126);
  long checked = 0, hits[kFamilies] = {}, nudged = 0;
  for (int f = 0; f < kFamilies; ++f) {
    for (int n = 0; n < kPairsPerFamily; ++n) {
      ITri a, b;
      makePair(g, static_cast<Family>(f), &a, &b);
      if (n % 3 == 2) {  // one unit off: just apart or just inside
        IPt& v = (g.coin() ? a : b)[g.uni(0, 2)];
        v.c[g.uni(0, 2)] += g.coin() ? 1 : -1;
        ++nudged;
      }
      const bool expected = referenceIntersect(a, b);
      hits[f] += expected;
      const DoubleMap map = randomMap(g);
      Vec3 da[3], db[3];
      for (int i = 0; i < 3; ++i) da[i] = map(a[i]), db[i] = map(b[i]);
      int perm[3] = {0, 1, 2};
      for (int variant = 0; variant < 3; ++variant) {
        std::shuffle(perm, perm + 3, g.rng);
        const Vec3 pa[3] = {da[perm[0]], da[perm[1]], da[perm[2]]};
        std::shuffle(perm, perm + 3, g.rng);
        const Vec3 pb[3] = {db[perm[0]], db[perm[1]], db[perm[2]]};
        bool got;
        if (variant == 2) {
          // Axes permuted and mirrored (exact): the same answer.
          int axes[3] = {0, 1, 2};
          std::shuffle(axes, axes + 3, g.rng);
          const double flip[3] = {g.coin() ? -1.0 : 1.0, g.coin() ? -1.0 : 1.0, g.coin() ? -1.0 : 1.0};
          Vec3 ma[3], mb[3];
          for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k) ma[i][k] = flip[k] * pa[i][axes[k]], mb[i][k] = flip[k] * pb[i][axes[k]];
          got = intersect(ma, mb);
        } else {
          got = variant == 1 ? intersect(pb, pa) : intersect(pa, pb);
        }
        ++checked;
        if (got != expected) {
          ADD_FAILURE() << kFamilyNames[f] << " pair " << n << " variant " << variant << ": expected " << expected
                        << "\nA " << a[0].c[0] << ' ' << a[0].c[1] << ' ' << a[0].c[2] << " | " << a[1].c[0] << ' '
                        << a[1].c[1] << ' ' << a[1].c[2] << " | " << a[2].c[0] << ' ' << a[2].c[1] << ' '
                        << a[2].c[2] << "\nB " << b[0].c[0] << ' ' << b[0].c[1] << ' ' << b[0].c[2] << " | "
                        << b[1].c[0] << ' ' << b[1].c[1] << ' ' << b[1].c[2] << " | " << b[2].c[0] << ' '
                        << b[2].c[1] << ' ' << b[2].c[2];
          return;
        }
      }
    }
    // Each family must exercise both answers (else it tests nothing hard),
    // but for a shared edge: one of its corners stays shared after a nudge.
    EXPECT_GT(hits[f], kPairsPerFamily / 50) << kFamilyNames[f];
    if (f != kSharedEdge) {
      EXPECT_LT(hits[f], kPairsPerFamily - kPairsPerFamily / 50) << kFamilyNames[f];
    }
  }
  EXPECT_EQ(checked, 3L * kFamilies * kPairsPerFamily);
  std::string summary;
  for (int f = 0; f < kFamilies; ++f) summary += std::string(kFamilyNames[f]) + ": " + std::to_string(hits[f]) + "; ";
  RecordProperty("intersecting", summary);
  EXPECT_GT(nudged, 0);
}

// ------------------------------------------------------------ triangleContact

double segmentPointDistance(const Vec3& p, const Vec3& q, const Vec3& x, Vec3* closest) {
  const Vec3 d = q - p;
  const double dd = collidoscope::dot(d, d);
  double t = dd > 0 ? collidoscope::dot(x - p, d) / dd : 0;
  t = std::clamp(t, 0.0, 1.0);
  *closest = p + d * t;
  return collidoscope::length(x - *closest);
}

// Closest point of the triangle to x: the plane's foot when it falls inside
// (all three edge tests), else the nearest of the three edges.
Vec3 closestOnTriangle(const Vec3 t[3], const Vec3& x) {
  const Vec3 n = collidoscope::cross(t[1] - t[0], t[2] - t[0]);
  const Vec3 foot = x - n * (collidoscope::dot(x - t[0], n) / collidoscope::dot(n, n));
  bool inside = true;
  for (int k = 0; k < 3; ++k)
    inside = inside && collidoscope::dot(collidoscope::cross(t[(k + 1) % 3] - t[k], foot - t[k]), n) >= 0;
  if (inside) return foot;
  Vec3 best, c;
  double bestD = INFINITY;
  for (int k = 0; k < 3; ++k) {
    const double d = segmentPointDistance(t[k], t[(k + 1) % 3], x, &c);
    if (d < bestD) bestD = d, best = c;
  }
  return best;
}

// Closest points of segments pq and rs: the interior critical point of the
// squared distance when it lies in [0, 1]², else the best of the four
// end-point-to-segment distances.
double segmentSegmentDistance(const Vec3& p, const Vec3& q, const Vec3& r, const Vec3& s) {
  using collidoscope::dot;
  const Vec3 d1 = q - p, d2 = s - r, w = p - r;
  const double a = dot(d1, d1), b = dot(d1, d2), c = dot(d2, d2), d = dot(d1, w), e = dot(d2, w);
  const double den = a * c - b * b;
  double best = INFINITY;
  if (den > 1e-12 * a * c) {
    const double u = (b * e - c * d) / den, v = (a * e - b * d) / den;
    if (u >= 0 && u <= 1 && v >= 0 && v <= 1) best = collidoscope::length(w + d1 * u - d2 * v);
  }
  Vec3 c0;
  best = std::min(best, segmentPointDistance(r, s, p, &c0));
  best = std::min(best, segmentPointDistance(r, s, q, &c0));
  best = std::min(best, segmentPointDistance(p, q, r, &c0));
  best = std::min(best, segmentPointDistance(p, q, s, &c0));
  return best;
}

// Segment–triangle distance for a segment that does not cross the
// triangle: the least of its ends to the triangle and of the triangle's
// edges to it.
double segmentTriangleDistance(const Vec3 t[3], const Vec3& p, const Vec3& q) {
  double best = std::min(collidoscope::length(p - closestOnTriangle(t, p)),
                         collidoscope::length(q - closestOnTriangle(t, q)));
  for (int k = 0; k < 3; ++k) best = std::min(best, segmentSegmentDistance(t[k], t[(k + 1) % 3], p, q));
  return best;
}

Vec3 unit(const Vec3& v) { return v / collidoscope::length(v); }

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
Vec3 randomVec(std::mt19937_64& rng, double r) { return {uniform(rng, -r, r), uniform(rng, -r, r), uniform(rng, -r, r)}; }
Quat randomRotation(std::mt19937_64& rng) {
  Quat q{uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)};
  const double l = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return {q.x / l, q.y / l, q.z / l, q.w / l};
}

// Distance of the foot of x from the triangle's edge lines, as a fraction of
// the triangle's size: samples within 1e-9 of an edge's plane are left out
// of the face/edge classification (either rule is right there).
double edgeMargin(const Vec3 t[3], const Vec3& x) {
  const Vec3 n = unit(collidoscope::cross(t[1] - t[0], t[2] - t[0]));
  double m = INFINITY;
  for (int k = 0; k < 3; ++k) {
    const Vec3 e = t[(k + 1) % 3] - t[k];
    m = std::min(m, std::fabs(collidoscope::dot(collidoscope::cross(unit(e), x - t[k]), n)));
  }
  return m;
}

bool near(const Vec3& a, const Vec3& b, double tol) { return collidoscope::maxAbs(a - b) <= tol; }

TEST(TriangleContact, SpheresAgainstClosedForms) {
  std::mt19937_64 rng(7);
  int face = 0, edge = 0, apart = 0, overlapping = 0, none = 0;
  constexpr double kTol = 1e-9;
  for (int n = 0; n < 20000; ++n) {
    const Vec3 t[3] = {randomVec(rng, 1), randomVec(rng, 1), randomVec(rng, 1)};
    const Vec3 c = randomVec(rng, 1.5);
    const double r = uniform(rng, 0.05, 0.8), margin = n % 2 ? 0.0 : 0.2;
    const Shape sphere = Shape::sphere(r);
    Transform pose;
    pose.position = c;
    const auto got = collidoscope::triangleContact(t[0], t[1], t[2], sphere, pose, margin);
    const Vec3 cl = closestOnTriangle(t, c);
    const double dist = collidoscope::length(c - cl) - r;
    if (std::fabs(dist - margin) < kTol || edgeMargin(t, c) < kTol) continue;
    ASSERT_EQ(got.contact, dist <= margin) << n;
    if (!got.contact) {
      ++none;
      continue;
    }
    const Vec3 nrm = unit(collidoscope::cross(t[1] - t[0], t[2] - t[0]));
    const double h = collidoscope::dot(c - t[0], nrm);
    const Vec3 foot = c - h * nrm;
    const bool faceRegion = near(closestOnTriangle(t, foot), foot, 1e-12);
    if (faceRegion) {
      // Face rule: ±n towards the side of the centre, distance |h| − r.
      ++face;
      ASSERT_TRUE(got.face) << n;
      const Vec3 expectedNormal = h >= 0 ? nrm : -nrm;
      EXPECT_NEAR(got.distance, std::fabs(h) - r, kTol) << n;
      EXPECT_TRUE(near(got.normal, expectedNormal, kTol)) << n;
      EXPECT_TRUE(near(got.pointB, c - expectedNormal * r, kTol)) << n;
      EXPECT_TRUE(near(got.pointA, c - expectedNormal * std::fabs(h), kTol)) << n;
    } else {
      // Beside the face: the ball against the closest point of the triangle
      // (its minimum translation is along c − cl, depth r − |c − cl|).
      ++edge;
      ASSERT_FALSE(got.face) << n;
      EXPECT_NEAR(got.distance, dist, kTol) << n;
      EXPECT_TRUE(near(got.normal, unit(c - cl), 1e-7)) << n;
      EXPECT_TRUE(near(got.pointA, cl, 1e-7)) << n;
    }
    (dist > 0 ? apart : overlapping) += 1;
  }
  EXPECT_GT(face, 300);
  EXPECT_GT(edge, 1000);
  EXPECT_GT(apart, 500);
  EXPECT_GT(overlapping, 1000);
  EXPECT_GT(none, 1000);
}

TEST(TriangleContact, CapsulesAgainstClosedForms) {
  std::mt19937_64 rng(11);
  int face = 0, edge = 0;
  constexpr double kTol = 1e-9;
  for (int n = 0; n < 20000; ++n) {
    const Vec3 t[3] = {randomVec(rng, 1), randomVec(rng, 1), randomVec(rng, 1)};
    const double r = uniform(rng, 0.05, 0.5), hh = uniform(rng, 0.1, 0.8), margin = 0.1;
    const Shape capsule = Shape::capsule(r, hh);
    Transform pose;
    pose.position = randomVec(rng, 1.5);
    pose.rotation = randomRotation(rng);
    const Vec3 e0 = pose.apply({0, hh, 0}), e1 = pose.apply({0, -hh, 0});
    const auto got = collidoscope::triangleContact(t[0], t[1], t[2], capsule, pose, margin);
    const Vec3 nrm = unit(collidoscope::cross(t[1] - t[0], t[2] - t[0]));
    const double h0 = collidoscope::dot(e0 - t[0], nrm), h1 = collidoscope::dot(e1 - t[0], nrm);
    // The face rule's side: the larger of front = min h − r and back = −max h − r.
    const double front = std::min(h0, h1) - r, back = -std::max(h0, h1) - r;
    const bool up = front >= back;
    const Vec3 deepest = up ? (h0 <= h1 ? e0 : e1) : (h0 >= h1 ? e0 : e1);
    const double d = std::max(front, back);
    const Vec3 x = e0 + (e1 - e0) * (h0 / (h0 - h1));  // where the core's line meets the plane
    const bool crosses = ((h0 > 0 && h1 < 0) || (h0 < 0 && h1 > 0)) && near(closestOnTriangle(t, x), x, 1e-12);
    const double coreDist = crosses ? 0.0 : segmentTriangleDistance(t, e0, e1);
    const double dist = coreDist - r;
    if (std::fabs(dist - margin) < kTol || std::fabs(dist) < kTol || std::fabs(d) < kTol ||
        edgeMargin(t, deepest) < kTol || edgeMargin(t, x) < kTol || std::fabs(h0 - h1) < 1e-9)
      continue;
    ASSERT_EQ(got.contact, dist <= margin) << n;
    if (!got.contact) continue;
    const Vec3 foot = deepest - nrm * collidoscope::dot(deepest - t[0], nrm);
    const bool inside = near(closestOnTriangle(t, foot), foot, 1e-12);
    if (inside && (dist <= 0 || d >= 0)) {
      ++face;
      ASSERT_TRUE(got.face) << n;
      EXPECT_NEAR(got.distance, d, kTol) << n;
      EXPECT_TRUE(near(got.normal, up ? nrm : -nrm, kTol)) << n;
    } else if (!crosses) {
      ++edge;
      ASSERT_FALSE(got.face) << n;
      EXPECT_NEAR(got.distance, dist, 1e-8) << n;
    }
  }
  EXPECT_GT(face, 300);
  EXPECT_GT(edge, 1000);
}

// Every shape type against the same triangle as a convex Shape through
// contact(): the same contacts; beside the face the same answer; on the
// face the exact distance when apart and a push no shorter than EPA's
// minimum translation when overlapping.
TEST(TriangleContact, AgreesWithContactOnTheTriangleShape) {
  std::mt19937_64 rng(13);
  const Shape shapes[] = {Shape::point(),
                          Shape::sphere(0.4),
                          Shape::box({0.3, 0.5, 0.2}),
                          Shape::capsule(0.2, 0.5),
                          Shape::cylinder(0.3, 0.4),
                          Shape::cone(0.4, 0.5),
                          Shape::ellipsoid({0.5, 0.3, 0.2}),
                          Shape::segment({-0.5, 0.1, 0}, {0.4, -0.2, 0.3}),
                          Shape::triangle({0, 0, 0}, {0.6, 0.1, 0}, {0.1, 0.5, 0.3}),
                          Shape::polytope({{0.3, 0, 0}, {-0.2, 0.3, 0.1}, {0, -0.3, 0.2}, {0.1, 0.1, -0.4}})};
  int face = 0, general = 0, faceOverlap = 0;
  for (int n = 0; n < 40000; ++n) {
    const Vec3 t[3] = {randomVec(rng, 1), randomVec(rng, 1), randomVec(rng, 1)};
    Shape s = shapes[n % 10];
    Transform pose;
    pose.position = randomVec(rng, 1.2);
    pose.rotation = randomRotation(rng);
    const double margin = n % 3 == 0 ? 0.0 : 0.15;
    const auto got = collidoscope::triangleContact(t[0], t[1], t[2], s, pose, margin);
    Shape tri = Shape::triangle(t[0], t[1], t[2]);
    s.pose = pose;
    const auto ref = collidoscope::contact(collidoscope::PosedShape(tri), collidoscope::PosedShape(s), margin);
    const double gap = collidoscope::gjkDistance(collidoscope::PosedShape(tri), collidoscope::PosedShape(s)).distance;
    if (std::fabs(gap - margin) < 1e-9 || (margin == 0 && gap < 1e-9)) continue;
    ASSERT_EQ(got.contact, ref.contact) << n;
    if (!got.contact) continue;
    if (!got.face) {
      ++general;
      EXPECT_NEAR(got.distance, ref.distance, 1e-8) << n;
      if (std::fabs(ref.distance) > 1e-6) {
        // Curved cores (cylinder, cone, ellipsoid) converge to a distance
        // tolerance; their normals are good to about its square root.
        const bool curved = !collidoscope::hasPolytopalCore(s);
        EXPECT_TRUE(near(got.normal, ref.normal, curved ? 1e-4 : 1e-7))
            << n << " type " << (n % 10) << " d " << got.distance << " " << ref.distance << " n " << got.normal.x << ","
            << got.normal.y << "," << got.normal.z << " vs " << ref.normal.x << "," << ref.normal.y << ","
            << ref.normal.z << " status " << int(got.status) << int(ref.status);
      }
    } else if (got.distance >= 0) {
      ++face;
      EXPECT_NEAR(got.distance, gap, 1e-9) << n;
    } else {
      ++faceOverlap;
      EXPECT_LE(got.distance, ref.distance + 1e-9) << n;  // the face push ≥ EPA's depth
    }
  }
  EXPECT_GT(general, 500);
  EXPECT_GT(face, 200);
  EXPECT_GT(faceOverlap, 500);
}

// A capsule sunk 1.0 into a floor 0.1 from its edge: the shortest way out is
// sideways across the edge (0.6), the floor's way is up (1.0).
TEST(TriangleContact, PushesOutOfAFloorAlongItsNormal) {
  const Vec3 t0{-10, 0, 10}, t1{10, 0, 10}, t2{0, 0, -10};  // normal +y
  const Shape capsule = Shape::capsule(0.5, 1.0);
  Transform pose;
  pose.position = {0, 0.5, 9.9};
  const auto got = collidoscope::triangleContact(t0, t1, t2, capsule, pose, 0.0);
  ASSERT_TRUE(got.contact);
  EXPECT_TRUE(got.face);
  EXPECT_NEAR(got.distance, -1.0, 1e-12);
  EXPECT_TRUE(near(got.normal, {0, 1, 0}, 0));
  EXPECT_TRUE(near(got.pointB, {0, -1.0, 9.9}, 1e-12));
  EXPECT_TRUE(near(got.pointA, {0, 0, 9.9}, 1e-12));
  Shape tri = Shape::triangle(t0, t1, t2), moved = capsule;
  moved.pose = pose;
  const auto epa = collidoscope::contact(collidoscope::PosedShape(tri), collidoscope::PosedShape(moved), 0.0);
  EXPECT_NEAR(epa.distance, -0.6, 1e-9);
  EXPECT_TRUE(near(epa.normal, {0, 0, 1}, 1e-9));

  // Under the floor, mostly: pushed down.
  pose.position = {0, -0.6, 0};
  const auto below = collidoscope::triangleContact(t0, t1, t2, capsule, pose, 0.0);
  EXPECT_TRUE(below.face);
  EXPECT_TRUE(near(below.normal, {0, -1, 0}, 0));
  EXPECT_NEAR(below.distance, -0.9, 1e-12);

  // Hovering within the margin: the gap, along the normal.
  pose.position = {1, 1.55, 1};
  const auto hover = collidoscope::triangleContact(t0, t1, t2, capsule, pose, 0.1);
  EXPECT_TRUE(hover.contact && hover.face);
  EXPECT_NEAR(hover.distance, 0.05, 1e-12);
  EXPECT_FALSE(collidoscope::triangleContact(t0, t1, t2, capsule, pose, 0.01).contact);

  // Tilted through the plane beside the floor, not touching it: GJK's edge
  // contact within the margin, not the face's.
  pose.position = {0, 0, 10.8};
  pose.rotation = {std::sin(0.3), 0, 0, std::cos(0.3)};  // 0.6 rad about x
  const auto beside = collidoscope::triangleContact(t0, t1, t2, capsule, pose, 0.5);
  ASSERT_TRUE(beside.contact);
  EXPECT_FALSE(beside.face);
  EXPECT_GT(beside.distance, 0);
}

// The floor scene at 2^-700 and 2^40 times its size (exact scalings): the
// same answers, scaled. The tiny one runs GJK scaled (tiny_scene.h); the
// face rule's normal comes from edges rescaled by a power of two.
TEST(TriangleContact, FloorAtExtremeScales) {
  for (const int e : {-700, 40}) {
    const double f = std::ldexp(1.0, e);
    const Vec3 t0 = Vec3{-10, 0, 10} * f, t1 = Vec3{10, 0, 10} * f, t2 = Vec3{0, 0, -10} * f;
    const Shape capsule = Shape::capsule(0.5 * f, 1.0 * f);
    Transform pose;
    pose.position = Vec3{0, 0.5, 9.9} * f;
    const auto got = collidoscope::triangleContact(t0, t1, t2, capsule, pose, 0.0);
    ASSERT_TRUE(got.contact) << e;
    EXPECT_TRUE(got.face) << e;
    EXPECT_NEAR(got.distance / f, -1.0, 1e-12) << e;
    EXPECT_TRUE(near(got.normal, {0, 1, 0}, 0)) << e;
    pose.position = Vec3{0, 1.6, 9.9} * f;  // 0.1 above
    const auto hover = collidoscope::triangleContact(t0, t1, t2, capsule, pose, 0.2 * f);
    ASSERT_TRUE(hover.contact && hover.face) << e;
    EXPECT_NEAR(hover.distance / f, 0.1, 1e-12) << e;
    EXPECT_FALSE(collidoscope::triangleContact(t0, t1, t2, capsule, pose, 0.05 * f).contact) << e;
    // trianglesIntersect: a vertical triangle through the floor, and one
    // touching it at a corner, and one just above.
    EXPECT_TRUE(trianglesIntersect(t0, t1, t2, Vec3{0, -1, 0} * f, Vec3{0, 1, 0} * f, Vec3{1, 1, 1} * f)) << e;
    EXPECT_TRUE(trianglesIntersect(t0, t1, t2, Vec3{0, 0, 0} * f, Vec3{0, 1, 0} * f, Vec3{1, 1, 1} * f)) << e;
    EXPECT_FALSE(trianglesIntersect(t0, t1, t2, Vec3{0, 1e-9, 0} * f, Vec3{0, 1, 0} * f, Vec3{1, 1, 1} * f)) << e;
  }
}

TEST(TriangleContact, DegenerateTriangleIsASegment) {
  const Vec3 t0{0, 0, 0}, t1{2, 0, 0}, t2{1, 0, 0};
  Transform pose;
  pose.position = {1, 0.3, 0};
  const Shape sphere = Shape::sphere(0.5);
  const auto got = collidoscope::triangleContact(t0, t1, t2, sphere, pose, 0.0);
  ASSERT_TRUE(got.contact);
  EXPECT_FALSE(got.face);
  EXPECT_NEAR(got.distance, -0.2, 1e-12);
  EXPECT_TRUE(near(got.normal, {0, 1, 0}, 1e-12));
}

}  // namespace
