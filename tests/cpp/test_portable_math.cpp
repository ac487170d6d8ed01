// portable_math.h: sin, cos, acos, log2 and hypot from correctly rounded
// operations, so that native and wasm builds give the same bits. The
// reference is the C library of the test's build (glibc natively), whose
// functions are within an ulp of the true values; ours must be within a few
// ulps of it, and exact where the true value is a double.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "collidoscope/portable_math.h"

namespace collidoscope {
namespace {

// Distance in units in the last place between two finite doubles of the same sign.
std::int64_t ulps(double a, double b) {
  std::int64_t ia, ib;
  std::memcpy(&ia, &a, 8);
  std::memcpy(&ib, &b, 8);
  if (ia < 0) ia = std::numeric_limits<std::int64_t>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<std::int64_t>::min() - ib;
  return ia > ib ? ia - ib : ib - ia;
}

// |ours − reference| within `ulpsAllowed` ulps of the reference, or within
// `absolute` when the reference is near zero (sin near a multiple of π,
// where an ulp of the argument is an absolute error of the result).
void expectClose(double ours, double ref, std::int64_t ulpsAllowed, double absolute, const char* what, double x) {
  if (std::fabs(ours - ref) <= absolute) return;
  EXPECT_LE(ulps(ours, ref), ulpsAllowed) << what << "(" << x << "): " << ours << " vs " << ref;
}

TEST(PortableMath, SinAndCosWithinTwoUlpsOfTheCLibrary) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  for (double range : {0.5, 4.0, 100.0, 1e4, 7e5}) {
    for (int i = 0; i < 20000; ++i) {
      const double x = range * unit(rng);
      // Near a zero of sin/cos the reduced argument's own rounding (≈ ulp(x)·…)
      // is the error floor: allow it absolutely.
      const double floor = 4 * std::ldexp(1.0, std::ilogb(std::fabs(x) + 1) - 52);
      expectClose(portable::sin(x), std::sin(x), 2, floor, "sin", x);
      expectClose(portable::cos(x), std::cos(x), 2, floor, "cos", x);
    }
  }
  // Exact values.
  EXPECT_EQ(portable::sin(0.0), 0.0);
  EXPECT_TRUE(std::signbit(portable::sin(-0.0)));
  EXPECT_EQ(portable::cos(0.0), 1.0);
  EXPECT_EQ(portable::sin(1e-310), 1e-310);
  EXPECT_NEAR(portable::sin(3.141592653589793), 1.2246467991473532e-16, 1e-31);  // sin of π's double
  EXPECT_TRUE(std::isnan(portable::sin(std::numeric_limits<double>::infinity())));
  EXPECT_TRUE(std::isnan(portable::cos(std::numeric_limits<double>::quiet_NaN())));
  // Beyond 8e5 the phase drifts (portable_math.h) but stays bounded and close.
  for (double x : {1e6, 3e7, -1e9}) {
    EXPECT_LE(std::fabs(portable::sin(x)), 1.0);
    EXPECT_NEAR(portable::sin(x), std::sin(x), 1e-6) << x;
    EXPECT_NEAR(portable::cos(x), std::cos(x), 1e-6) << x;
  }
  const double huge = 1e300;
  EXPECT_LE(std::fabs(portable::sin(huge)), 1.0);
  EXPECT_LE(std::fabs(portable::cos(huge)), 1.0);
}

TEST(PortableMath, SinSquaredPlusCosSquaredIsOne) {
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> angle(-10, 10);
  for (int i = 0; i < 10000; ++i) {
    const double x = angle(rng), s = portable::sin(x), c = portable::cos(x);
    EXPECT_NEAR(s * s + c * c, 1.0, 4e-16) << x;
  }
}

TEST(PortableMath, AcosWithinTwoUlpsAndExactAtTheEnds) {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> unit(-1, 1);
  for (int i = 0; i < 50000; ++i) {
    const double x = unit(rng);
    expectClose(portable::acos(x), std::acos(x), 2, 0, "acos", x);
  }
  for (double x : {1.0 - 1e-16, -1.0 + 1e-16, 1e-300, -0.5, 0.5, 0.0})
    expectClose(portable::acos(x), std::acos(x), 2, 0, "acos", x);
  EXPECT_EQ(portable::acos(1.0), 0.0);
  EXPECT_EQ(portable::acos(-1.0), 3.141592653589793);
  EXPECT_EQ(portable::acos(0.0), 1.5707963267948966);
  EXPECT_TRUE(std::isnan(portable::acos(1.0000000000000002)));
  EXPECT_TRUE(std::isnan(portable::acos(std::numeric_limits<double>::quiet_NaN())));
}

TEST(PortableMath, Log2WithinTwoUlpsAndExactAtPowersOfTwo) {
  std::mt19937_64 rng(10);
  std::uniform_real_distribution<double> exponent(-300, 300);
  for (int i = 0; i < 50000; ++i) {
    const double x = std::pow(2.0, exponent(rng));
    expectClose(portable::log2(x), std::log2(x), 2, 1e-16, "log2", x);
  }
  for (int k = -1074; k <= 1023; k += 7) EXPECT_EQ(portable::log2(std::ldexp(1.0, k)), k);
  for (long long n : {3LL, 7LL, 1000LL, 999696LL * 999696LL}) {
    const double x = static_cast<double>(n);
    expectClose(portable::log2(x), std::log2(x), 2, 0, "log2", x);
  }
  EXPECT_EQ(portable::log2(0.0), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(portable::log2(-1.0)));
  EXPECT_EQ(portable::log2(std::numeric_limits<double>::infinity()), std::numeric_limits<double>::infinity());
}

TEST(PortableMath, HypotWithinAnUlpWithoutOverflowOrUnderflow) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(-1, 1), exponent(-310, 305);
  for (int i = 0; i < 50000; ++i) {
    const double x = unit(rng) * std::pow(10.0, exponent(rng)), y = unit(rng) * std::pow(10.0, exponent(rng));
    expectClose(portable::hypot(x, y), std::hypot(x, y), 1, 0, "hypot", x);
  }
  EXPECT_EQ(portable::hypot(3, 4), 5);
  EXPECT_EQ(portable::hypot(-0.0, 0.0), 0.0);
  EXPECT_EQ(portable::hypot(1e300, 1e300), std::hypot(1e300, 1e300));
  EXPECT_EQ(portable::hypot(3e-320, 4e-320), std::hypot(3e-320, 4e-320));
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(portable::hypot(inf, nan), inf);
  EXPECT_EQ(portable::hypot(nan, -inf), inf);
  EXPECT_TRUE(std::isnan(portable::hypot(nan, 1)));
}

}  // namespace
}  // namespace collidoscope
