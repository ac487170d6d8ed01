// Sublinear polytope support (polytope_support.h) against brute force.
//
// For every hull and many random directions d, the three walks — brute
// force over the hull vertices, hill climbing, the Dobkin–Kirkpatrick
// descent — must return a maximizer of d·x:
//   * over the hull's vertices: exactly the brute-force maximum (the walks
//     compare the very same doubles), except on hulls with near-coplanar
//     vertices, where rounding of d·x can make a vertex that is not a
//     maximizer in exact arithmetic look one ulp better than its
//     neighbours: there the value may fall short by the rounding bound;
//   * over the input points: never above the brute-force maximum, and below
//     it by at most the hull tolerance times |d| (points within the
//     tolerance of a face are not hull vertices) plus the rounding bound.
// Flat, collinear and single-point clouds must work too.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "collidoscope/gjk.h"
#include "collidoscope/hull.h"
#include "collidoscope/polytope_support.h"
#include "collidoscope/shapes.h"
#include "collidoscope/support.h"

namespace {

using namespace collidoscope;
using Method = PolytopeSupport::Method;

struct Rand {
  std::mt19937_64 gen;
  explicit Rand(std::uint64_t seed) : gen(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen); }
  double normal() { return std::normal_distribution<double>(0, 1)(gen); }
  Vec3 direction() {
    for (;;) {
      const Vec3 v{normal(), normal(), normal()};
      const double n = length(v);
      if (n > 1e-6) return v / n;
    }
  }
  Vec3 inBall(double r) { return direction() * (r * std::cbrt(uniform(0, 1))); }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); }
};

std::vector<Vec3> onSphere(Rand& rng, int n, double r, const Vec3& c = {}) {
  std::vector<Vec3> p(static_cast<std::size_t>(n));
  for (Vec3& x : p) x = c + rng.direction() * r;
  return p;
}

double bruteMax(const std::vector<Vec3>& pts, const Vec3& d) {
  double m = -std::numeric_limits<double>::infinity();
  for (const Vec3& p : pts) m = std::fmax(m, dot(p, d));
  return m;
}

// Rounding bound of one dot product d·x: 3 products and 2 sums.
double roundingBound(const std::vector<Vec3>& pts, const Vec3& d) {
  double big = 0;
  for (const Vec3& p : pts) big = std::fmax(big, std::fabs(p.x * d.x) + std::fabs(p.y * d.y) + std::fabs(p.z * d.z));
  return 8 * std::numeric_limits<double>::epsilon() * big;
}

// Checks all walks of `ps` built from `pts` on `dirs` random directions.
// exactOnVertices: the hull is in general position (random clouds): the
// walks must hit the brute-force maximum over the vertices exactly.
void checkAll(const PolytopeSupport& ps, const std::vector<Vec3>& pts, Rand& rng, int dirs, bool exactOnVertices,
              const char* what) {
  const std::vector<Vec3>& V = ps.vertices();
  ASSERT_FALSE(V.empty()) << what;
  for (int t = 0; t < dirs; ++t) {
    // Mostly unit directions; some scaled, some axis-aligned (ties on boxes).
    Vec3 d = rng.direction();
    if (t % 7 == 1) d = d * rng.uniform(1e-3, 1e3);
    if (t % 11 == 2) d = Vec3{0, 0, 0}, d[t % 3] = (t & 1) ? 1.0 : -1.0;
    const double vmax = bruteMax(V, d);
    const double pmax = bruteMax(pts, d);
    const double slack = roundingBound(pts, d);
    const int idx[4] = {ps.bruteForceIndex(d), ps.hillClimbIndex(d, 0), ps.hierarchyIndex(d), ps.supportIndex(d)};
    const char* names[4] = {"brute", "hill", "hierarchy", "support"};
    for (int k = 0; k < 4; ++k) {
      ASSERT_GE(idx[k], 0) << what;
      ASSERT_LT(idx[k], static_cast<int>(V.size())) << what;
      const double got = dot(V[static_cast<std::size_t>(idx[k])], d);
      if (exactOnVertices || k == 0) {
        ASSERT_EQ(got, vmax) << what << " " << names[k] << " d=(" << d.x << "," << d.y << "," << d.z << ")";
      } else {
        ASSERT_GE(got, vmax - slack) << what << " " << names[k];
      }
      ASSERT_LE(got, pmax) << what << " " << names[k];
      ASSERT_GE(got, pmax - ps.tolerance() * length(d) - slack) << what << " " << names[k];
    }
    // A caller-cached start anywhere gives a maximizer too.
    const int start = rng.integer(0, static_cast<int>(V.size()) - 1);
    const double fromHint = dot(V[static_cast<std::size_t>(ps.supportIndexFrom(d, start))], d);
    if (exactOnVertices) {
      ASSERT_EQ(fromHint, vmax) << what;
    } else {
      ASSERT_GE(fromHint, vmax - slack) << what;
    }
  }
}

void checkCloud(const std::vector<Vec3>& pts, Rand& rng, int dirs, bool exact, const char* what) {
  for (Method m : {Method::BruteForce, Method::HillClimb, Method::Hierarchy, Method::Auto}) {
    auto ps = PolytopeSupport::build(pts, m);
    ASSERT_TRUE(ps) << what;
    EXPECT_EQ(ps->inputCount(), pts.size());
    checkAll(*ps, pts, rng, dirs, exact, what);
  }
}

TEST(PolytopeSupport, RandomCloudsInBallsAndOnSpheres) {
  Rand rng(20240611);
  for (int trial = 0; trial < 120; ++trial) {
    const int n = rng.integer(4, trial < 100 ? 300 : 3000);
    const double scale = std::pow(10.0, rng.uniform(-3, 4));
    const Vec3 c = rng.inBall(scale * 5);
    std::vector<Vec3> pts(static_cast<std::size_t>(n));
    if (trial % 2 == 0) {
      for (Vec3& p : pts) p = c + rng.inBall(scale);
    } else {
      pts = onSphere(rng, n, scale, c);
    }
    checkCloud(pts, rng, 60, true, trial % 2 == 0 ? "ball" : "sphere");
  }
}

TEST(PolytopeSupport, SphereOf10000Points) {
  Rand rng(7);
  const std::vector<Vec3> pts = onSphere(rng, 10000, 1.0);
  auto hill = PolytopeSupport::build(pts, Method::HillClimb);
  auto dk = PolytopeSupport::build(pts, Method::Hierarchy);
  ASSERT_TRUE(hill && dk);
  EXPECT_EQ(hill->vertices().size(), 10000u);  // every point of a sphere is extreme
  EXPECT_EQ(dk->method(), Method::Hierarchy);
  EXPECT_GT(dk->levels(), 5u);
  checkAll(*hill, pts, rng, 2000, true, "sphere10000 hill");
  checkAll(*dk, pts, rng, 2000, true, "sphere10000 dk");
}

// A box with points on its faces, edges and inside: only the 8 corners are
// vertices; axis-aligned directions tie across whole faces.
TEST(PolytopeSupport, BoxWithCoplanarPoints) {
  Rand rng(11);
  for (int trial = 0; trial < 6; ++trial) {
    const Vec3 h{rng.uniform(0.5, 3), rng.uniform(0.5, 3), rng.uniform(0.5, 3)};
    std::vector<Vec3> pts;
    const int g = 6 + trial * 3;
    for (int i = 0; i <= g; ++i)
      for (int j = 0; j <= g; ++j)
        for (int k = 0; k <= g; ++k) {
          const bool face = i == 0 || i == g || j == 0 || j == g || k == 0 || k == g;
          if (!face && (i + j + k) % 5 != 0) continue;
          pts.push_back({h.x * (2.0 * i / g - 1), h.y * (2.0 * j / g - 1), h.z * (2.0 * k / g - 1)});
        }
    checkCloud(pts, rng, 400, false, "box grid");
    auto ps = PolytopeSupport::build(pts, Method::HillClimb);
    EXPECT_EQ(ps->vertices().size(), 8u);
  }
}

// A cylinder-like prism with many points on its caps' rims: coplanar
// vertices in rings, long plateaus for directions along the axis.
TEST(PolytopeSupport, PrismWithCoplanarRings) {
  Rand rng(13);
  std::vector<Vec3> pts;
  const int n = 500;
  for (int i = 0; i < n; ++i) {
    const double a = 2 * 3.14159265358979323846 * i / n;
    pts.push_back({std::cos(a), -1, std::sin(a)});
    pts.push_back({std::cos(a), 1, std::sin(a)});
  }
  checkCloud(pts, rng, 1500, false, "prism");
}

TEST(PolytopeSupport, FlatPolygons) {
  Rand rng(17);
  for (int trial = 0; trial < 20; ++trial) {
    // Points in a random plane through a random centre: a polygon hull.
    const Vec3 nrm = rng.direction();
    const Vec3 u = normalizedOr(cross(nrm, std::fabs(nrm.x) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 1, 0}), Vec3{1, 0, 0});
    const Vec3 v = cross(nrm, u);
    const Vec3 c = rng.inBall(10);
    const int n = rng.integer(3, 2000);
    std::vector<Vec3> pts;
    for (int i = 0; i < n; ++i) {
      double x, y;
      if (trial % 2 == 0) {
        const double a = rng.uniform(0, 6.283185307179586);
        x = std::cos(a);
        y = std::sin(a);
      } else {
        x = rng.uniform(-1, 1);
        y = rng.uniform(-1, 1);
      }
      pts.push_back(c + u * x + v * y);
    }
    ConvexHull hull;
    HullError err;
    ASSERT_TRUE(buildHull(pts, &hull, &err));
    ASSERT_EQ(hull.kind, HullKind::Polygon);
    // Directions with and without a component along the normal (the latter
    // tie over the whole polygon).
    checkCloud(pts, rng, 300, false, "polygon");
    auto ps = PolytopeSupport::build(pts, Method::HillClimb);
    for (int t = 0; t < 20; ++t) {
      const Vec3 d = nrm * rng.uniform(-2, 2);
      EXPECT_LE(dot(ps->support(d), d), bruteMax(pts, d));
    }
  }
}

TEST(PolytopeSupport, CollinearDuplicateAndSinglePoint) {
  Rand rng(19);
  std::vector<Vec3> line;
  for (int i = 0; i < 500; ++i) line.push_back(Vec3{1, 2, 3} + Vec3{1, -1, 0.5} * rng.uniform(-4, 4));
  checkCloud(line, rng, 200, false, "collinear");
  const std::vector<Vec3> same(300, Vec3{0.5, -2, 7});
  checkCloud(same, rng, 50, true, "duplicates");
  checkCloud({Vec3{1, 1, 1}}, rng, 20, true, "single point");
  EXPECT_FALSE(PolytopeSupport::build({}));
  EXPECT_FALSE(PolytopeSupport::build({Vec3{0, 0, std::numeric_limits<double>::quiet_NaN()}}));
}

TEST(PolytopeSupport, ZeroAndNonFiniteDirectionsReturnAVertex) {
  Rand rng(23);
  const std::vector<Vec3> pts = onSphere(rng, 2000, 1.0);
  for (Method m : {Method::BruteForce, Method::HillClimb, Method::Hierarchy}) {
    auto ps = PolytopeSupport::build(pts, m);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const Vec3& d : {Vec3{0, 0, 0}, Vec3{nan, 0, 0}, Vec3{nan, nan, nan}}) {
      const int i = ps->supportIndex(d);
      EXPECT_GE(i, 0);
      EXPECT_LT(i, static_cast<int>(ps->vertices().size()));
    }
  }
}

// Same input, same answers, bit for bit (permalinks replay traces).
TEST(PolytopeSupport, Deterministic) {
  Rand rng(29);
  const std::vector<Vec3> pts = onSphere(rng, 5000, 3.0);
  auto a = PolytopeSupport::build(pts, Method::Hierarchy);
  auto b = PolytopeSupport::build(pts, Method::Hierarchy);
  ASSERT_EQ(a->levels(), b->levels());
  for (int t = 0; t < 500; ++t) {
    const Vec3 d = rng.direction();
    const Vec3 p = a->support(d), q = b->support(d);
    EXPECT_TRUE(p.x == q.x && p.y == q.y && p.z == q.z);
  }
}

// The Shape integration: large polytopes get the structure, small ones
// scan; copies share it; a changed point count falls back to the scan.
TEST(PolytopeSupport, ShapeIntegration) {
  Rand rng(31);
  const Shape small = Shape::polytope(onSphere(rng, static_cast<int>(kPolytopeSupportMinPoints) - 1, 1.0));
  EXPECT_FALSE(small.polytopeSupport);
  Shape big = Shape::polytope(onSphere(rng, 4000, 2.0));
  ASSERT_TRUE(big.polytopeSupport);
  const Shape copy = big;
  EXPECT_EQ(copy.polytopeSupport.get(), big.polytopeSupport.get());
  for (int t = 0; t < 300; ++t) {
    const Vec3 d = rng.direction();
    EXPECT_EQ(dot(localCoreSupport(big, d), d), bruteMax(big.points, d));
  }
  // Grow the cloud without preparing: the stale structure is ignored.
  big.points.push_back({10, 0, 0});
  EXPECT_EQ(localCoreSupport(big, Vec3{1, 0, 0}).x, 10);
  preparePolytopeSupport(&big);
  EXPECT_EQ(big.polytopeSupport->inputCount(), big.points.size());
  EXPECT_EQ(localCoreSupport(big, Vec3{1, 0, 0}).x, 10);
  // Other types never carry one.
  Shape box = Shape::box({1, 1, 1});
  preparePolytopeSupport(&box);
  EXPECT_FALSE(box.polytopeSupport);
}

// GJK on a large polytope gives the same distance with and without the
// structure (up to the 1e-9 scene-scale promise: ties may pick another
// maximizer, which moves the iterates but not the answer).
TEST(PolytopeSupport, GjkDistanceUnchanged) {
  Rand rng(37);
  for (int trial = 0; trial < 40; ++trial) {
    Shape a = Shape::polytope(onSphere(rng, rng.integer(100, 3000), rng.uniform(0.5, 2)));
    Shape b = Shape::polytope(onSphere(rng, rng.integer(100, 3000), rng.uniform(0.5, 2)));
    ASSERT_TRUE(a.polytopeSupport && b.polytopeSupport);
    a.at(rng.inBall(1), Quat{});
    b.at(Vec3{rng.uniform(2, 6), 0, 0} + rng.inBall(1), Quat{});
    Shape a0 = a, b0 = b;
    a0.polytopeSupport.reset();
    b0.polytopeSupport.reset();
    const DistanceResult fast = gjkDistance(PosedShape(a), PosedShape(b));
    const DistanceResult slow = gjkDistance(PosedShape(a0), PosedShape(b0));
    EXPECT_NEAR(fast.distance, slow.distance, 1e-9 * 8) << trial;
  }
}

}  // namespace
