// Exact orientation predicates (collidoscope/predicates.h) against an
// independent reference: the determinant evaluated in exact integer
// arithmetic (a small big-integer type below), every double read as an
// integer multiple of 2^-1074. Inputs are chosen where the floating-point
// filter cannot decide: exactly coplanar or collinear points, then the same
// nudged by single ulps, spread over many binades so that the coordinate
// differences themselves are inexact in doubles.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "collidoscope/predicates.h"

namespace {

using collidoscope::Vec3;

// Signed big integer, magnitude in base 2^32 (least significant first).
struct Big {
  bool negative = false;
  std::vector<std::uint32_t> mag;

  static int compareMag(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    for (std::size_t i = a.size(); i-- > 0;)
      if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  }
  static void trim(std::vector<std::uint32_t>* a) {
    while (!a->empty() && a->back() == 0) a->pop_back();
  }
  static std::vector<std::uint32_t> addMag(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
    std::vector<std::uint32_t> r(std::max(a.size(), b.size()) + 1, 0);
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < r.size(); ++i) {
      const std::uint64_t s = carry + (i < a.size() ? a[i] : 0) + (i < b.size() ? b[i] : 0);
      r[i] = static_cast<std::uint32_t>(s);
      carry = s >> 32;
    }
    trim(&r);
    return r;
  }
  // a − b for |a| ≥ |b|.
  static std::vector<std::uint32_t> subMag(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
    std::vector<std::uint32_t> r(a.size(), 0);
    std::int64_t borrow = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      std::int64_t s = static_cast<std::int64_t>(a[i]) - (i < b.size() ? b[i] : 0) - borrow;
      borrow = s < 0;
      if (s < 0) s += std::int64_t{1} << 32;
      r[i] = static_cast<std::uint32_t>(s);
    }
    trim(&r);
    return r;
  }
  friend Big operator+(const Big& a, const Big& b) {
    Big r;
    if (a.negative == b.negative) {
      r.mag = addMag(a.mag, b.mag);
      r.negative = a.negative;
    } else if (compareMag(a.mag, b.mag) >= 0) {
      r.mag = subMag(a.mag, b.mag);
      r.negative = a.negative;
    } else {
      r.mag = subMag(b.mag, a.mag);
      r.negative = b.negative;
    }
    if (r.mag.empty()) r.negative = false;
    return r;
  }
  friend Big operator-(const Big& a, Big b) {
    if (!b.mag.empty()) b.negative = !b.negative;
    return a + b;
  }
  friend Big operator*(const Big& a, const Big& b) {
    Big r;
    r.mag.assign(a.mag.size() + b.mag.size(), 0);
    for (std::size_t i = 0; i < a.mag.size(); ++i) {
      std::uint64_t carry = 0;
      for (std::size_t j = 0; j < b.mag.size(); ++j) {
        const std::uint64_t t = static_cast<std::uint64_t>(a.mag[i]) * b.mag[j] + r.mag[i + j] + carry;
        r.mag[i + j] = static_cast<std::uint32_t>(t);
        carry = t >> 32;
      }
      r.mag[i + b.mag.size()] = static_cast<std::uint32_t>(carry);
    }
    trim(&r.mag);
    r.negative = !r.mag.empty() && a.negative != b.negative;
    return r;
  }
  int sign() const { return mag.empty() ? 0 : (negative ? -1 : 1); }

  // x exactly, as an integer multiple of 2^-1074 (every finite double is).
  static Big ofDouble(double x) {
    Big r;
    if (x == 0) return r;
    int e = 0;
    const double m = std::frexp(std::fabs(x), &e);  // |x| = m·2^e, m in [0.5, 1)
    std::uint64_t mant = static_cast<std::uint64_t>(std::ldexp(m, 53));
    int shift = e - 53 + 1074;  // |x| = mant·2^(e−53) = mant·2^shift·2^-1074
    if (shift < 0) {            // a denormal: mant has that many trailing zeros
      mant >>= -shift;
      shift = 0;
    }
    r.mag = {static_cast<std::uint32_t>(mant), static_cast<std::uint32_t>(mant >> 32)};
    trim(&r.mag);
    // Multiply by 2^shift (shift ≥ 0 for every normal double).
    const int words = shift / 32, bits = shift % 32;
    std::vector<std::uint32_t> out(static_cast<std::size_t>(words), 0);
    std::uint32_t carry = 0;
    for (std::uint32_t w : r.mag) {
      out.push_back(bits ? (w << bits) | carry : w);
      carry = bits ? w >> (32 - bits) : 0;
    }
    if (carry) out.push_back(carry);
    r.mag = out;
    trim(&r.mag);
    r.negative = x < 0;
    return r;
  }
};

int referenceOrient3d(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  auto B = [](double x) { return Big::ofDouble(x); };
  const Big ux = B(b.x) - B(a.x), uy = B(b.y) - B(a.y), uz = B(b.z) - B(a.z);
  const Big vx = B(c.x) - B(a.x), vy = B(c.y) - B(a.y), vz = B(c.z) - B(a.z);
  const Big wx = B(d.x) - B(a.x), wy = B(d.y) - B(a.y), wz = B(d.z) - B(a.z);
  return (ux * (vy * wz - vz * wy) + uy * (vz * wx - vx * wz) + uz * (vx * wy - vy * wx)).sign();
}

int referenceOrient2d(double ax, double ay, double bx, double by, double cx, double cy) {
  auto B = [](double x) { return Big::ofDouble(x); };
  return ((B(bx) - B(ax)) * (B(cy) - B(ay)) - (B(by) - B(ay)) * (B(cx) - B(ax))).sign();
}

double nudge(double x, int ulps) {
  for (; ulps > 0; --ulps) x = std::nextafter(x, HUGE_VAL);
  for (; ulps < 0; ++ulps) x = std::nextafter(x, -HUGE_VAL);
  return x;
}

TEST(Predicates, BigIntegerReferenceSelfCheck) {
  // The reference itself on cases with a known answer.
  EXPECT_EQ(referenceOrient3d({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}), 1);
  EXPECT_EQ(referenceOrient3d({0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}), -1);
  EXPECT_EQ(referenceOrient3d({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.5, 0.25, 0}), 0);
  EXPECT_EQ(referenceOrient2d(0, 0, 1, 0, 0, 1), 1);
  EXPECT_EQ(referenceOrient2d(0, 0, 1, 1, 3, 3), 0);
  EXPECT_EQ(referenceOrient2d(0, 0, 1, 1, 3, nudge(3, -1)), -1);
  EXPECT_EQ((Big::ofDouble(0x1p-1074) * Big::ofDouble(0x1p1000)).sign(), 1);
}

// Points on a plane through lattice combinations (exactly coplanar when the
// arithmetic is exact, usually not once rounded to doubles), at scales
// from 2^-200 to 2^200 and offsets that make the differences inexact,
// each then nudged by a few ulps.
TEST(Predicates, Orient3dMatchesExactReferenceNearDegenerate) {
  std::mt19937_64 rng(20261125);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_int_distribution<int> exponent(-200, 200), small(-3, 3), lattice(-5, 5);
  int zeros = 0, decided = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const double s = std::ldexp(1.0, exponent(rng));
    const Vec3 o{unit(rng) * s * std::ldexp(1.0, small(rng) * 20), unit(rng) * s, unit(rng) * s};
    const Vec3 e1{unit(rng) * s, unit(rng) * s, unit(rng) * s}, e2{unit(rng) * s, unit(rng) * s, unit(rng) * s};
    Vec3 p[4];
    for (Vec3& q : p) q = o + e1 * lattice(rng) + e2 * lattice(rng);
    if (trial % 2) p[3] = {nudge(p[3].x, small(rng)), nudge(p[3].y, small(rng)), nudge(p[3].z, small(rng))};
    const int want = referenceOrient3d(p[0], p[1], p[2], p[3]);
    ASSERT_EQ(collidoscope::orient3d(p[0], p[1], p[2], p[3]), want) << trial;
    // Antisymmetry under swapping two points, through different pivots.
    ASSERT_EQ(collidoscope::orient3d(p[1], p[0], p[2], p[3]), -want) << trial;
    ASSERT_EQ(collidoscope::orient3d(p[3], p[1], p[2], p[0]), -want) << trial;
    zeros += want == 0;
    decided += want != 0;
  }
  // Both answers occur (the test exercises the exact zero and the signs).
  EXPECT_GT(zeros, 100);
  EXPECT_GT(decided, 100);
}

TEST(Predicates, Orient3dExactlyCoplanarIntegerLattice) {
  // Integer points on the plane x + 2y + 3z = 7·2^40 (exactly representable,
  // differences exact): every quadruple is 0; one unit off is not.
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::int64_t> coord(-(std::int64_t{1} << 20), std::int64_t{1} << 20);
  const double c = std::ldexp(7.0, 40);
  auto onPlane = [&]() {
    const double y = static_cast<double>(coord(rng)), z = static_cast<double>(coord(rng));
    return Vec3{c - 2 * y - 3 * z, y, z};
  };
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec3 a = onPlane(), b = onPlane(), cc = onPlane(), d = onPlane();
    ASSERT_EQ(collidoscope::orient3d(a, b, cc, d), 0);
    const Vec3 up = d + Vec3{1, 0, 0};
    ASSERT_EQ(collidoscope::orient3d(a, b, cc, up), referenceOrient3d(a, b, cc, up));
  }
}

TEST(Predicates, Orient2dAndCollinearMatchExactReference) {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_int_distribution<int> exponent(-200, 200), small(-2, 2), t(-4, 4);
  int zeros = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const double s = std::ldexp(1.0, exponent(rng));
    const double ax = unit(rng) * s, ay = unit(rng) * s * 1e6, dx = unit(rng) * s, dy = unit(rng) * s;
    double bx = ax + t(rng) * dx, by = ay + t(rng) * dy, cx = ax + t(rng) * dx, cy = ay + t(rng) * dy;
    if (trial % 2) cy = nudge(cy, small(rng));
    const int want = referenceOrient2d(ax, ay, bx, by, cx, cy);
    ASSERT_EQ(collidoscope::orient2d(ax, ay, bx, by, cx, cy), want) << trial;
    ASSERT_EQ(collidoscope::orient2d(bx, by, ax, ay, cx, cy), -want) << trial;
    zeros += want == 0;
    // The same points lifted to z = fl(3·x): collinear exactly when all
    // three coordinate projections are.
    const Vec3 a{ax, ay, 3 * ax}, b{bx, by, 3 * bx}, c{cx, cy, 3 * cx};
    ASSERT_EQ(collidoscope::collinear3d(a, b, c),
                want == 0 && referenceOrient2d(ax, 3 * ax, bx, 3 * bx, cx, 3 * cx) == 0 &&
                    referenceOrient2d(ay, 3 * ax, by, 3 * bx, cy, 3 * cx) == 0)
          << trial;
  }
  EXPECT_GT(zeros, 100);
}

}  // namespace
