// Small helpers the native mesh benchmarks share: wall-clock milliseconds,
// thread CPU milliseconds, the median of repeated passes, and the random
// triangle soup they measure beside closed tori (tests/cpp/mesh_gen.h).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <vector>

#include "collidoscope/mesh.h"
#include "rng.h"

namespace bench {

using Clock = std::chrono::steady_clock;
inline double ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// This thread's CPU time in ms (a shared machine's other load does not count).
inline double cpuMs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// n triangles of edge ~ 2/∛n at random in [−1, 1]³.
inline collidoscope::TriangleMesh soup(int n, Rng& rng) {
  collidoscope::TriangleMesh m;
  const double size = 2.0 / std::cbrt(static_cast<double>(n));
  for (int i = 0; i < n; ++i) {
    const collidoscope::Vec3 c{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)};
    const int base = static_cast<int>(m.vertices.size());
    for (int k = 0; k < 3; ++k)
      m.vertices.push_back(c + collidoscope::Vec3{rng.uniform(-size, size), rng.uniform(-size, size),
                                                  rng.uniform(-size, size)});
    m.triangles.push_back({base, base + 1, base + 2});
  }
  return m;
}

}  // namespace bench
