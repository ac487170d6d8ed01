// A small seeded generator for the native benchmarks (xorshift64): the same
// seed gives the same inputs in every contender and every run.
#pragma once

#include <cmath>
#include <cstdint>

#include "collidoscope/math.h"

namespace bench {

struct Rng {
  std::uint64_t s;
  double uniform() {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return static_cast<double>(s >> 11) * (1.0 / 9007199254740992.0);
  }
  double uniform(double a, double b) { return a + (b - a) * uniform(); }
  // Uniform on the unit sphere (rejection from the cube).
  collidoscope::Vec3 direction() {
    for (;;) {
      const collidoscope::Vec3 v{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
      const double l = collidoscope::length(v);
      if (l > 0.1 && l <= 1) return v / l;
    }
  }
  // Uniform over rotations (rejection from the 4D cube).
  collidoscope::Quat rotation() {
    for (;;) {
      const double x = uniform(-1, 1), y = uniform(-1, 1), z = uniform(-1, 1), w = uniform(-1, 1);
      const double l = std::sqrt(x * x + y * y + z * z + w * w);
      if (l > 0.1 && l <= 1) return collidoscope::Quat{x / l, y / l, z / l, w / l};
    }
  }
};

}  // namespace bench
