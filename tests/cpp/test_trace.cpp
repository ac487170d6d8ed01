// The trace policy records the algorithm that ships: GjkRecorder runs give
// the same bits as NoTrace runs, and every frame is self-consistent
// (weights sum to 1, v = Σλw, w = a − b, gap = ‖v‖² − v·w, the support
// points are extreme on their cores). Plus the intersect warm-start cache.
//
// Tolerances: frame quantities are compared with 1e-12 relative (they are a
// handful of roundings of the same numbers); support points with 1e-9 of the
// scene scale (the library's promise).
#include <gtest/gtest.h>

#include <cstring>

#include "collidoscope/trace.h"
#include "gjk_helpers.h"
#include "reference.h"

namespace {

using namespace testutil;
using collidoscope::GjkCache;
using collidoscope::GjkEvent;
using collidoscope::GjkFrame;
using collidoscope::GjkReason;
using collidoscope::GjkRecorder;
using collidoscope::GjkSettings;
using collidoscope::ShapeType;
using ref::Rng;

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits(const Vec3& a, const Vec3& b) { return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z); }

// Core support value (no radius) in world space, from reference.h.
double coreSupportValue(const Shape& s, const Vec3& u) {
  return ref::localCoreSupportValue(s, ref::dirToLocal(s, u)) + ref::dot3(u, s.pose.position);
}

void randomPair(Rng& rng, Shape* a, Shape* b) {
  const ShapeType ta = ref::kAllTypes[rng.integer(0, 9)], tb = ref::kAllTypes[rng.integer(0, 9)];
  *a = ref::randomShape(rng, ta, rng.uniform(0.2, 2));
  *b = ref::randomShape(rng, tb, rng.uniform(0.2, 2));
  if (rng.integer(0, 4) == 0) a->withMargin(rng.uniform(0, 0.3));
  a->at(rng.inCube(2), rng.rotation());
  b->at(rng.inCube(2) + rng.direction() * rng.uniform(0, 4), rng.rotation());
}

// Checks that hold for every frame of either query.
void checkFrame(const GjkFrame& f, const Shape& a, const Shape& b, double scale, const std::string& where) {
  SCOPED_TRACE(where);
  const double tol = 1e-9 * scale;
  if (f.simplex.size > 0) {
    double sum = 0;
    Vec3 vw;
    for (int i = 0; i < f.simplex.size; ++i) {
      EXPECT_GE(f.simplex.lambda[i], 0.0) << "weight " << i;
      sum += f.simplex.lambda[i];
      vw = vw + f.simplex.vertex[i].w * f.simplex.lambda[i];
      EXPECT_TRUE(sameBits(f.simplex.vertex[i].w, f.simplex.vertex[i].a - f.simplex.vertex[i].b));
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
    // v is the weighted sum of the simplex (the origin when the
    // tetrahedron contains it, where Σλw is zero up to rounding). Inside a
    // triangle the library computes v from the face normal (accurate in
    // direction near contact) and λ from signed areas, which are
    // ill-conditioned on slivers: the two agree to ~1e-11 of the scale
    // there (seen: 9e-12 at scale 3.4), so allow 1e-10·scale — still a
    // tenth of the accuracy the library promises for closest points.
    if (f.event != GjkEvent::Init || f.reason != GjkReason::StartFromCache) {
      EXPECT_NEAR(ref::dist(vw, f.v), 0, 1e-10 * scale) << "v " << str(f.v) << " vs Σλw " << str(vw);
    }
  }
  EXPECT_NEAR(f.vv, ref::dot3(f.v, f.v), 1e-12 * (f.vv + 1e-300));
  if (f.hasSupport) {
    EXPECT_TRUE(sameBits(f.support.w, f.support.a - f.support.b));
    // a = s_A(direction), b = s_B(−direction), checked against our own
    // closed-form support values of the cores.
    const double dn = ref::norm(f.direction);
    if (dn > 0) {
      const Vec3 u = f.direction / dn;
      EXPECT_NEAR(ref::dot3(u, f.support.a), coreSupportValue(a, u), tol) << "support point on A not extreme";
      EXPECT_NEAR(-ref::dot3(u, f.support.b), coreSupportValue(b, u * -1.0), tol)
          << "support point on B not extreme";
    }
    if (f.event == GjkEvent::Support) {
      EXPECT_TRUE(sameBits(f.direction, -f.v)) << "search direction is −v";
    }
  }
  if (f.hasTest) {
    EXPECT_TRUE(sameBits(f.gap, f.vv - f.vw));
    EXPECT_NEAR(f.vw, ref::dot3(f.v, f.support.w), 1e-12 * (std::fabs(f.vw) + f.vv + 1e-300));
  }
}

TEST(Trace, DistanceRecorderMatchesNoTraceAndFramesAreConsistent) {
  Rng rng(501);
  for (int i = 0; i < 1500; ++i) {
    Shape a, b;
    randomPair(rng, &a, &b);
    const std::string repro = describe(a) + " vs " + describe(b);
    SCOPED_TRACE(repro);
    const double scale = ref::sceneScale(a, b);
    const DistanceResult plain = distance(a, b);
    GjkRecorder rec;
    const DistanceResult traced =
        collidoscope::gjkDistance(PosedShape(a), PosedShape(b), GjkSettings{}, rec);
    ASSERT_TRUE(sameBits(plain.distance, traced.distance));
    ASSERT_TRUE(sameBits(plain.pointA, traced.pointA));
    ASSERT_TRUE(sameBits(plain.pointB, traced.pointB));
    ASSERT_TRUE(sameBits(plain.v, traced.v));
    ASSERT_EQ(plain.iterations, traced.iterations);
    ASSERT_EQ(plain.status, traced.status);

    ASSERT_GE(rec.frames.size(), 2u);
    EXPECT_EQ(rec.frames.front().event, GjkEvent::Init);
    EXPECT_EQ(rec.frames.front().iteration, 0);
    EXPECT_EQ(rec.frames.back().event, GjkEvent::Done);
    EXPECT_EQ(rec.frames.back().iteration, traced.iterations);
    EXPECT_TRUE(sameBits(rec.frames.back().v, traced.v));
    EXPECT_LE(rec.frames.size(), static_cast<std::size_t>(2 * GjkSettings{}.maxIterations + 2));
    int lastIteration = 0;
    const GjkFrame* lastSimplex = nullptr;
    for (std::size_t k = 0; k < rec.frames.size(); ++k) {
      const GjkFrame& f = rec.frames[k];
      EXPECT_GE(f.iteration, lastIteration);
      lastIteration = f.iteration;
      if (f.event == GjkEvent::Init || f.event == GjkEvent::Simplex) lastSimplex = &f;
      checkFrame(f, a, b, scale, "frame " + std::to_string(k));
    }
    ASSERT_NE(lastSimplex, nullptr);
    // The v of the last simplex frame is the result's v, and its weights
    // give the result's core points.
    EXPECT_TRUE(sameBits(lastSimplex->v, traced.v));
    if (!traced.coresOverlap && ref::roundRadius(a) + ref::roundRadius(b) == 0) {
      EXPECT_TRUE(sameBits(lastSimplex->simplex.pointA(), traced.pointA));
      EXPECT_TRUE(sameBits(lastSimplex->simplex.pointB(), traced.pointB));
    }
    if (!traced.coresOverlap && traced.distance > 0) {
      EXPECT_NEAR(traced.distance, std::sqrt(lastSimplex->vv) - ref::roundRadius(a) - ref::roundRadius(b),
                  1e-12 * scale);
    }
  }
}

TEST(Trace, IntersectRecorderMatchesNoTraceAndFramesAreConsistent) {
  Rng rng(502);
  for (int i = 0; i < 1500; ++i) {
    Shape a, b;
    randomPair(rng, &a, &b);
    SCOPED_TRACE(describe(a) + " vs " + describe(b));
    const double scale = ref::sceneScale(a, b);
    const IntersectResult plain = intersect(a, b);
    GjkRecorder rec;
    const IntersectResult traced =
        collidoscope::gjkIntersect(PosedShape(a), PosedShape(b), GjkSettings{}, nullptr, rec);
    ASSERT_EQ(plain.intersecting, traced.intersecting);
    ASSERT_EQ(plain.iterations, traced.iterations);
    ASSERT_EQ(plain.status, traced.status);
    ASSERT_GE(rec.frames.size(), 2u);
    EXPECT_EQ(rec.frames.front().event, GjkEvent::Init);
    EXPECT_EQ(rec.frames.back().event, GjkEvent::Done);
    EXPECT_EQ(rec.frames.back().iteration, traced.iterations);
    for (std::size_t k = 0; k < rec.frames.size(); ++k)
      checkFrame(rec.frames[k], a, b, scale, "frame " + std::to_string(k));
    // The verdict matches the final frame: a Separated support frame proves
    // v·w > (r_A + r_B)‖v‖.
    const GjkFrame& done = rec.frames.back();
    if (done.reason == GjkReason::Separated) {
      EXPECT_FALSE(traced.intersecting);
      const GjkFrame& sup = rec.frames[rec.frames.size() - 2];
      EXPECT_EQ(sup.event, GjkEvent::Support);
      EXPECT_GT(sup.vw, (ref::roundRadius(a) + ref::roundRadius(b)) * std::sqrt(sup.vv));
    }
    if (done.reason == GjkReason::OriginInside) {
      EXPECT_TRUE(traced.intersecting);
    }
  }
}

TEST(Trace, WarmStartCacheAfterSmallMove) {
  Rng rng(503);
  int warmFaster = 0, separatedPairs = 0;
  for (int i = 0; i < 1500; ++i) {
    Shape a, b;
    randomPair(rng, &a, &b);
    const bool separatedCase = i % 2 == 0;
    if (separatedCase) {  // separated by at least 0.05 along a random axis
      const Vec3 u = rng.direction();
      b.at({0, 0, 0}, b.pose.rotation);
      b.at(u * (ref::supportValue(a, u) + ref::supportValue(b, u * -1.0) + rng.uniform(0.05, 1)), b.pose.rotation);
    }
    SCOPED_TRACE(describe(a) + " vs " + describe(b));
    GjkCache cache;
    const IntersectResult first = collidoscope::gjkIntersect(PosedShape(a), PosedShape(b), GjkSettings{}, &cache);
    // Small move: 1e-3 translation, keeping separated pairs separated.
    b.at(b.pose.position + rng.direction() * 1e-3, b.pose.rotation);
    GjkCache copy = cache;
    const IntersectResult warm = collidoscope::gjkIntersect(PosedShape(a), PosedShape(b), GjkSettings{}, &copy);
    const IntersectResult cold = intersect(a, b);
    EXPECT_EQ(warm.intersecting, cold.intersecting);
    EXPECT_TRUE(statusOk(warm.status));
    if (separatedCase) {
      ++separatedPairs;
      EXPECT_FALSE(warm.intersecting);
      EXPECT_TRUE(cache.valid) << "a separated query leaves a non-zero v in the cache";
      EXPECT_LE(warm.iterations, first.iterations);
      if (warm.iterations == 1) ++warmFaster;
    }
    // A traced warm run starts from the cache and gives the same result.
    GjkCache copy2 = cache;
    GjkRecorder rec;
    const IntersectResult tracedWarm =
        collidoscope::gjkIntersect(PosedShape(a), PosedShape(b), GjkSettings{}, &copy2, rec);
    EXPECT_EQ(tracedWarm.intersecting, warm.intersecting);
    EXPECT_EQ(tracedWarm.iterations, warm.iterations);
    if (cache.valid) {
      EXPECT_EQ(rec.frames.front().reason, GjkReason::StartFromCache);
      EXPECT_TRUE(sameBits(rec.frames.front().v, cache.direction));
    }
  }
  // gjk.h: "separated pairs usually take ... one step with a warm cache".
  EXPECT_GT(warmFaster, separatedPairs * 9 / 10);
}

TEST(Trace, InvalidCacheIsIgnored) {
  Shape a = Shape::box({1, 1, 1});
  Shape b = Shape::sphere(0.5);
  b.at({3, 0, 0});
  const IntersectResult cold = intersect(a, b);
  for (Vec3 bad : {Vec3{0, 0, 0}, Vec3{NAN, 0, 0}, Vec3{INFINITY, 1, 1}}) {
    GjkCache cache;
    cache.valid = true;
    cache.direction = bad;
    const IntersectResult r = collidoscope::gjkIntersect(PosedShape(a), PosedShape(b), GjkSettings{}, &cache);
    EXPECT_EQ(r.intersecting, cold.intersecting);
    EXPECT_EQ(r.iterations, cold.iterations);
    EXPECT_TRUE(ref::finite(cache.direction));
  }
}

}  // namespace
