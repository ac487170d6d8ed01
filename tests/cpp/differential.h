// Helpers shared by the differential tests (test_differential_*.cpp, the
// collidoscope_differential_tests executable: collidoscope against libccd and
// qhull). Expected values never come from here.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace differential {

// COLLIDOSCOPE_TEST_SCALE (default 1) multiplies the number of random inputs
// of the heavy randomized tests, e.g. 0.25 under the sanitizers or 10 for a
// longer local run; never below `minimum`, so nothing is skipped.
inline double testScale() {
  const char* s = std::getenv("COLLIDOSCOPE_TEST_SCALE");
  if (!s || !*s) return 1.0;
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  return end != s && std::isfinite(v) && v > 0 ? v : 1.0;
}

inline int scaled(int count, int minimum) {
  const double n = std::round(count * testScale());
  return static_cast<int>(std::max<double>(minimum, std::min(n, 1e8)));
}

}  // namespace differential
