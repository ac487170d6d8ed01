// Chung–Wang against GJK intersect on the same random pairs: iterations per
// query and time per query, by how far apart the shapes are (separated,
// overlapping, near touching). Prints one JSON object for scripts/bench.mjs.
//
// Pairs: every shape type against every other, random sizes and poses; B is
// then moved along a random direction until its signed distance to A (from
// gjkDistance / penetration) is the wanted one. "Near touching": |signed
// distance| ≤ 1e-6 of the size. Times: median over repeats of a pass over
// all pairs of one class, the two algorithms interleaved pass by pass.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "collidoscope/chung_wang.h"
#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "rng.h"

using namespace collidoscope;

namespace {

using bench::Rng;  // bench/rng.h

Shape randomShape(Rng& rng, int type, double size) {
  const double r = size * rng.uniform(0.3, 1), h = size * rng.uniform(0.3, 1);
  switch (type) {
    case 0: return Shape::sphere(r);
    case 1: return Shape::box({r, h, size * rng.uniform(0.3, 1)});
    case 2: return Shape::capsule(r * 0.5, h);
    case 3: return Shape::cylinder(r, h);
    case 4: return Shape::cone(r, h);
    case 5: return Shape::ellipsoid({r, h, size * rng.uniform(0.3, 1)});
    default: {
      std::vector<Vec3> pts;
      for (int i = 0; i < 24; ++i) pts.push_back(rng.direction() * (size * rng.uniform(0.5, 1)));
      return Shape::polytope(pts);
    }
  }
}
constexpr int kTypes = 7;
const char* const kTypeNames[kTypes] = {"sphere", "box", "capsule", "cylinder", "cone", "ellipsoid", "polytope"};

double signedDistance(const Shape& a, const Shape& b) {
  const PosedShape pa(a), pb(b);
  const DistanceResult d = gjkDistance(pa, pb);
  if (d.distance > 0) return d.distance;
  return -penetration(pa, pb).depth;
}

// Moves b along dir until the signed distance is `want` (bisection on the offset).
void place(const Shape& a, Shape* b, const Vec3& dir, double size, double want) {
  double lo = 0, hi = 10 * size;
  const Vec3 base = a.pose.position;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    b->pose.position = base + dir * mid;
    if (signedDistance(a, *b) < want) lo = mid;
    else hi = mid;
  }
  b->pose.position = base + dir * hi;
}

struct Stats {
  std::vector<int> v;
  std::string json() {
    std::sort(v.begin(), v.end());
    auto q = [&](double p) { return v.empty() ? 0 : v[static_cast<std::size_t>(p * (v.size() - 1))]; };
    double mean = 0;
    for (int x : v) mean += x;
    mean /= std::max<std::size_t>(1, v.size());
    char buf[200];
    std::snprintf(buf, sizeof buf, "{\"mean\": %.3f, \"median\": %d, \"p90\": %d, \"p99\": %d, \"max\": %d}", mean, q(0.5),
                  q(0.9), q(0.99), v.empty() ? 0 : v.back());
    return buf;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int perType = argc > 1 ? std::atoi(argv[1]) : 6;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 7;
  Rng rng{0x9e3779b97f4a7c15ull};
  const char* const kClasses[3] = {"separated", "overlapping", "near touching"};
  std::vector<std::pair<Shape, Shape>> pairs[3];
  for (int ta = 0; ta < kTypes; ++ta)
    for (int tb = 0; tb < kTypes; ++tb)
      for (int k = 0; k < perType; ++k)
        for (int c = 0; c < 3; ++c) {
          const double size = rng.uniform(0.5, 2);
          Shape a = randomShape(rng, ta, size), b = randomShape(rng, tb, size);
          a.at({rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)}, rng.rotation());
          b.at(a.pose.position, rng.rotation());
          const double want = c == 0 ? size * rng.uniform(0.01, 0.5)
                              : c == 1 ? -size * rng.uniform(0.01, 0.3)
                                       : size * rng.uniform(-1e-6, 1e-6);
          place(a, &b, rng.direction(), size, want);
          pairs[c].emplace_back(std::move(a), std::move(b));
        }
  std::printf("{\n  \"pairsPerClass\": %zu,\n  \"types\": [", pairs[0].size());
  for (int t = 0; t < kTypes; ++t) std::printf("%s\"%s\"", t ? ", " : "", kTypeNames[t]);
  std::printf("],\n  \"classes\": [\n");
  for (int c = 0; c < 3; ++c) {
    Stats cwIts, gjkIts;
    int disagree = 0, cwCapped = 0;
    for (const auto& [a, b] : pairs[c]) {
      const PosedShape pa(a), pb(b);
      const ChungWangResult r = chungWangIntersect(pa, pb);
      const IntersectResult g = gjkIntersect(pa, pb);
      cwIts.v.push_back(r.iterations);
      gjkIts.v.push_back(g.iterations);
      if (r.intersecting != g.intersecting) ++disagree;
      if (r.status == ChungWangStatus::MaxIterations) ++cwCapped;
    }
    std::vector<double> tCw, tGjk;
    volatile int sink = 0;
    for (int rep = 0; rep < repeats + 1; ++rep) {
      for (int alg = 0; alg < 2; ++alg) {
        const auto t0 = std::chrono::steady_clock::now();
        for (const auto& [a, b] : pairs[c]) {
          const PosedShape pa(a), pb(b);
          sink += alg == 0 ? chungWangIntersect(pa, pb).intersecting : gjkIntersect(pa, pb).intersecting;
        }
        const double ns =
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / pairs[c].size();
        if (rep > 0) (alg == 0 ? tCw : tGjk).push_back(ns);  // pass 0 is warm-up
      }
    }
    std::sort(tCw.begin(), tCw.end());
    std::sort(tGjk.begin(), tGjk.end());
    std::printf("    {\"name\": \"%s\", \"chungWang\": {\"iterations\": %s, \"medianNs\": %.1f, \"capped\": %d}, "
                "\"gjkIntersect\": {\"iterations\": %s, \"medianNs\": %.1f}, \"disagreements\": %d}%s\n",
                kClasses[c], cwIts.json().c_str(), tCw[tCw.size() / 2], cwCapped, gjkIts.json().c_str(),
                tGjk[tGjk.size() / 2], disagree, c < 2 ? "," : "");
  }
  std::printf("  ]\n}\n");
  return 0;
}
