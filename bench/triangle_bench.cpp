// collidoscope_triangle_bench: trianglesIntersect (triangle.h), nanoseconds
// per pair on five families of 2^16 pairs each, median of 9 interleaved
// passes after a warm-up:
//   apart      triangles of size ~0.3 at random in a unit cube (mostly
//              rejected by a plane test, what a mesh's leaves mostly see)
//   crossing   pairs built to pierce each other (the full 8 orient3d)
//   coplanar   both in one random plane, half overlapping (the 2D branch)
//   neighbours two triangles sharing an edge, as in a mesh (exact zeros:
//              the predicates' exact fallback)
//   degenerate one triangle collinear (a segment) through the other
// Prints one JSON object. Build: cmake -DCOLLIDOSCOPE_BENCH=ON, target
// collidoscope_triangle_bench (bench/triangle.cmake).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <vector>

#include <time.h>

#include "collidoscope/triangle.h"
#include "rng.h"

using collidoscope::Vec3;

namespace {

struct Pair {
  Vec3 a[3], b[3];
};

Vec3 randomPoint(bench::Rng& r, double s) { return {r.uniform(-s, s), r.uniform(-s, s), r.uniform(-s, s)}; }

std::vector<Pair> family(int kind, int n, bench::Rng& r) {
  std::vector<Pair> out(static_cast<std::size_t>(n));
  for (Pair& p : out) {
    const Vec3 c = randomPoint(r, 0.5);
    switch (kind) {
      case 0: {
        const Vec3 d = randomPoint(r, 0.5);
        for (int i = 0; i < 3; ++i) p.a[i] = c + randomPoint(r, 0.15), p.b[i] = d + randomPoint(r, 0.15);
        break;
      }
      case 1: {
        // A through c; B's first edge pierces A near c.
        for (int i = 0; i < 3; ++i) p.a[i] = c + randomPoint(r, 0.3);
        const Vec3 x = (p.a[0] + p.a[1] + p.a[2]) / 3, n = cross(p.a[1] - p.a[0], p.a[2] - p.a[0]);
        const Vec3 along = n / length(n) * 0.2;
        p.b[0] = x + along + randomPoint(r, 0.05);
        p.b[1] = x - along + randomPoint(r, 0.05);
        p.b[2] = x + randomPoint(r, 0.3);
        break;
      }
      case 2: {
        const Vec3 u = randomPoint(r, 1), v = randomPoint(r, 1);
        for (int i = 0; i < 3; ++i) {
          p.a[i] = c + u * r.uniform(-0.3, 0.3) + v * r.uniform(-0.3, 0.3);
          p.b[i] = c + u * r.uniform(-0.3, 0.3) + v * r.uniform(-0.3, 0.3) + u * 0.2;
        }
        break;
      }
      case 3: {
        for (int i = 0; i < 3; ++i) p.a[i] = c + randomPoint(r, 0.3);
        p.b[0] = p.a[1];
        p.b[1] = p.a[0];
        p.b[2] = c + randomPoint(r, 0.3);
        break;
      }
      default: {
        for (int i = 0; i < 3; ++i) p.a[i] = c + randomPoint(r, 0.3);
        const Vec3 x = (p.a[0] + p.a[1] + p.a[2]) / 3, w = randomPoint(r, 0.3);
        p.b[0] = x - w;
        p.b[1] = x + w;
        p.b[2] = p.b[0];  // a repeated corner: exactly a segment
        break;
      }
    }
  }
  return out;
}

double threadSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

int main() {
  constexpr int kPairs = 1 << 16, kPasses = 9, kFamilies = 5;
  const char* names[kFamilies] = {"apart", "crossing", "coplanar", "neighbours", "degenerate"};
  bench::Rng rng{0x7269616e676c65};
  std::vector<Pair> sets[kFamilies];
  for (int f = 0; f < kFamilies; ++f) sets[f] = family(f, kPairs, rng);
  std::vector<double> ns[kFamilies];
  long hits[kFamilies] = {};
  for (int pass = -1; pass < kPasses; ++pass) {
    for (int f = 0; f < kFamilies; ++f) {
      long h = 0;
      const double t0 = threadSeconds();
      for (const Pair& p : sets[f]) h += collidoscope::trianglesIntersect(p.a[0], p.a[1], p.a[2], p.b[0], p.b[1], p.b[2]);
      const double t1 = threadSeconds();
      hits[f] = h;
      if (pass >= 0) ns[f].push_back((t1 - t0) * 1e9 / kPairs);
    }
  }
  std::printf("{\"pairs\":%d,\"passes\":%d", kPairs, kPasses);
  for (int f = 0; f < kFamilies; ++f) {
    std::sort(ns[f].begin(), ns[f].end());
    std::printf(",\"%s\":{\"nsPerPair\":%.1f,\"intersecting\":%ld}", names[f], ns[f][kPasses / 2], hits[f]);
  }
  std::printf("}\n");
  return 0;
}
