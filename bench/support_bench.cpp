// collidoscope native benchmarks (Google Benchmark). Not part of `npm test`:
// `npm run bench` builds this with -DCOLLIDOSCOPE_BENCH=ON at -O2 and turns
// the numbers into ratios (bench/results.md).
//
//   support/<method>/<V>   one support query on V points of the unit sphere
//                          (all are hull vertices), cycling through 4096
//                          fixed random unit directions. <method>: points
//                          (Shape's scan of the raw points, today's path below
//                          the threshold), brute (scan of the hull vertices),
//                          hill (hill climbing from vertex 0), dk
//                          (Dobkin–Kirkpatrick descent + final climb).
//   support_build/<method>/<V>   building the structure (hull included).
//   hull/<ball|sphere>/<n>  buildHull on n points uniform in a ball / on a sphere.
//
// Clouds and directions come from a fixed-seed std::mt19937_64, so every run
// measures the same inputs.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "collidoscope/hull.h"
#include "collidoscope/polytope_support.h"
#include "collidoscope/shapes.h"

namespace {

using namespace collidoscope;
using Method = PolytopeSupport::Method;

Vec3 randomDirection(std::mt19937_64& g) {
  std::normal_distribution<double> n(0, 1);
  for (;;) {
    const Vec3 v{n(g), n(g), n(g)};
    const double l = length(v);
    if (l > 1e-6) return v / l;
  }
}

std::vector<Vec3> sphereCloud(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<Vec3> p(n);
  for (Vec3& x : p) x = randomDirection(g);
  return p;
}

std::vector<Vec3> ballCloud(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Vec3> p(n);
  for (Vec3& x : p) x = randomDirection(g) * std::cbrt(u(g));
  return p;
}

const std::vector<Vec3>& directions() {
  static const std::vector<Vec3> dirs = [] {
    std::mt19937_64 g(99);
    std::vector<Vec3> d(4096);
    for (Vec3& x : d) x = randomDirection(g);
    return d;
  }();
  return dirs;
}

enum Kind { kPoints, kBrute, kHill, kDk };

void BM_Support(benchmark::State& state, Kind kind) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const std::vector<Vec3> pts = sphereCloud(n, 1234 + n);
  Shape shape = Shape::polytope(pts);
  shape.polytopeSupport.reset();  // kPoints: the scan of Shape::points
  const Method m = kind == kDk ? Method::Hierarchy : (kind == kHill ? Method::HillClimb : Method::BruteForce);
  const auto ps = PolytopeSupport::build(pts, m);
  // (A hierarchy needs more than PolytopeSupport::kTopVertices vertices;
  // below, "dk" is hill climbing, and levels = 1 says so.)
  if (!ps || (ps->method() != m && kind != kDk)) {
    state.SkipWithError("structure not built with the requested method");
    return;
  }
  const std::vector<Vec3>& dirs = directions();
  std::size_t i = 0;
  for (auto _ : state) {
    const Vec3& d = dirs[i++ & 4095];
    switch (kind) {
      case kPoints: benchmark::DoNotOptimize(localCoreSupport(shape, d)); break;
      case kBrute: benchmark::DoNotOptimize(ps->bruteForceIndex(d)); break;
      case kHill: benchmark::DoNotOptimize(ps->hillClimbIndex(d, 0)); break;
      case kDk: benchmark::DoNotOptimize(ps->hierarchyIndex(d)); break;
    }
  }
  state.counters["vertices"] = static_cast<double>(ps->vertices().size());
  state.counters["levels"] = static_cast<double>(ps->levels());
}

void BM_SupportBuild(benchmark::State& state, Method m) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const std::vector<Vec3> pts = sphereCloud(n, 1234 + n);
  for (auto _ : state) benchmark::DoNotOptimize(PolytopeSupport::build(pts, m));
}

void BM_Hull(benchmark::State& state, bool ball) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const std::vector<Vec3> pts = ball ? ballCloud(n, 77 + n) : sphereCloud(n, 77 + n);
  std::size_t verts = 0;
  for (auto _ : state) {
    ConvexHull h;
    HullError err;
    buildHull(pts, &h, &err);
    verts = h.vertices.size();
    benchmark::DoNotOptimize(h.triangles.data());
  }
  state.counters["vertices"] = static_cast<double>(verts);
}

void supportSizes(benchmark::internal::Benchmark* b) {
  for (int n : {8, 16, 32, 64, 96, 128, 256, 1024, 2048, 4096, 10000, 100000}) b->Arg(n);
}

BENCHMARK_CAPTURE(BM_Support, points, kPoints)->Apply(supportSizes);
BENCHMARK_CAPTURE(BM_Support, brute, kBrute)->Apply(supportSizes);
BENCHMARK_CAPTURE(BM_Support, hill, kHill)->Apply(supportSizes);
BENCHMARK_CAPTURE(BM_Support, dk, kDk)->Apply(supportSizes);
BENCHMARK_CAPTURE(BM_SupportBuild, hill, Method::HillClimb)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SupportBuild, dk, Method::Hierarchy)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Hull, ball, true)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Hull, sphere, false)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
