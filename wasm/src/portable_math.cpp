// collidoscope — sin, cos, acos, log2 and hypot from correctly rounded
// operations only (portable_math.h says why). The series are the Taylor
// series of each function on a reduced interval, with enough terms that the
// first term left out is below 1e-17 of the result there; coefficients are
// the doubles nearest to 1/k! and 1/k, written as exact quotients the
// compiler rounds once.
#include "collidoscope/portable_math.h"

#include <cmath>
#include <limits>

namespace collidoscope {
namespace portable {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// π/2 in three parts: the first two have 33 significant bits, so k·part is
// exact for |k| < 2^20 and x − k·part loses nothing (Cody–Waite).
constexpr double kHalfPi1 = 1.5707963267341256;
constexpr double kHalfPi2 = 6.077100506303966e-11;
constexpr double kHalfPi3 = 2.0222662487959506e-21;
constexpr double kTwoOverPi = 0.6366197723675814;
constexpr double kTwoPi = 6.283185307179586;
// Above this |x|, k = round(x·2/π) would reach 2^19 and the reduction above
// would stop being exact: reduce modulo 2π first.
constexpr double kReduceModTwoPi = 8.0e5;

constexpr double kPi = 3.141592653589793;
constexpr double kHalfPi = 1.5707963267948966;
constexpr double kHalfPiLow = 6.123233995736766e-17;  // π/2 − kHalfPi
constexpr double kSixthPi = 0.5235987755982989;
constexpr double kSixthPiLow = -5.360408832255455e-17;  // π/6 − kSixthPi
constexpr double kSqrt3 = 1.7320508075688772;
constexpr double kTanTwelfthPi = 0.2679491924311227;  // tan(π/12) = 2 − √3
constexpr double kInvLn2 = 1.4426950408889634;
constexpr double kSqrtHalf = 0.7071067811865476;

// sin r for |r| ≤ π/4 + a little: r − r³/3! + … − r¹⁹/19! (the next term is
// below 3e-21 there).
double sinKernel(double r) {
  const double z = r * r;
  double p = -1.0 / 121645100408832000.0;  // −1/19!
  p = p * z + 1.0 / 355687428096000.0;     // 1/17!
  p = p * z - 1.0 / 1307674368000.0;       // −1/15!
  p = p * z + 1.0 / 6227020800.0;          // 1/13!
  p = p * z - 1.0 / 39916800.0;            // −1/11!
  p = p * z + 1.0 / 362880.0;              // 1/9!
  p = p * z - 1.0 / 5040.0;                // −1/7!
  p = p * z + 1.0 / 120.0;                 // 1/5!
  p = p * z - 1.0 / 6.0;                   // −1/3!
  return r + r * z * p;
}

// cos r for |r| ≤ π/4 + a little: 1 − r²/2! + … + r²⁰/20!.
double cosKernel(double r) {
  const double z = r * r;
  double p = 1.0 / 2432902008176640000.0;  // 1/20!
  p = p * z - 1.0 / 6402373705728000.0;    // −1/18!
  p = p * z + 1.0 / 20922789888000.0;      // 1/16!
  p = p * z - 1.0 / 87178291200.0;         // −1/14!
  p = p * z + 1.0 / 479001600.0;           // 1/12!
  p = p * z - 1.0 / 3628800.0;             // −1/10!
  p = p * z + 1.0 / 40320.0;               // 1/8!
  p = p * z - 1.0 / 720.0;                 // −1/6!
  p = p * z + 1.0 / 24.0;                  // 1/4!
  // 1 − z/2 + z²·p, the small part first.
  const double half = 0.5 * z;
  const double w = 1.0 - half;
  return w + (((1.0 - w) - half) + z * z * p);
}

// x = k·π/2 + r with |r| ≤ π/4 (about): returns r, k mod 4 in *quadrant.
double reduce(double x, int* quadrant) {
  if (std::fabs(x) > kReduceModTwoPi) x = std::fmod(x, kTwoPi);  // exact
  const double k = std::nearbyint(x * kTwoOverPi);
  const double r = ((x - k * kHalfPi1) - k * kHalfPi2) - k * kHalfPi3;
  const long long ki = static_cast<long long>(k);
  *quadrant = static_cast<int>(((ki % 4) + 4) % 4);
  return r;
}

// atan t for |t| ≤ tan(π/12) ≈ 0.268: t − t³/3 + … − t³¹/31 (the next term
// is below 1e-19 of t).
double atanKernel(double t) {
  const double z = t * t;
  double p = -1.0 / 31.0;
  for (int k = 29; k >= 3; k -= 2) p = p * z + ((k % 4 == 1) ? 1.0 : -1.0) / k;
  return t + t * z * p;
}

// atan t for t ≥ 0.
double atanNonNegative(double t) {
  if (t > 1) {
    if (t == kInf) return kHalfPi;
    // atan t = π/2 − atan(1/t).
    return (kHalfPi - atanNonNegative(1.0 / t)) + kHalfPiLow;
  }
  if (t > kTanTwelfthPi) {
    // atan t = π/6 + atan((√3·t − 1)/(√3 + t)), the second argument ≤ tan(π/12).
    const double u = (kSqrt3 * t - 1.0) / (kSqrt3 + t);
    return kSixthPi + (atanKernel(u) + kSixthPiLow);
  }
  return atanKernel(t);
}

}  // namespace

double sin(double x) {
  if (!std::isfinite(x)) return kNaN;
  if (std::fabs(x) < 1e-300) return x;  // keeps −0 and denormals as they are (sin x = x there)
  int q = 0;
  const double r = reduce(x, &q);
  switch (q) {
    case 0: return sinKernel(r);
    case 1: return cosKernel(r);
    case 2: return -sinKernel(r);
    default: return -cosKernel(r);
  }
}

double cos(double x) {
  if (!std::isfinite(x)) return kNaN;
  int q = 0;
  const double r = reduce(x, &q);
  switch (q) {
    case 0: return cosKernel(r);
    case 1: return -sinKernel(r);
    case 2: return -cosKernel(r);
    default: return sinKernel(r);
  }
}

double acos(double x) {
  if (!(x >= -1 && x <= 1)) return kNaN;
  if (x == 1) return 0;
  if (x == -1) return kPi;
  // acos x = 2·atan √((1 − x)/(1 + x)); 1 − x and 1 + x are exact for |x| ≥ ½
  // on their side, and the quotient's rounding moves the angle by at most an
  // ulp or two.
  const double t = std::sqrt((1.0 - x) / (1.0 + x));
  return 2.0 * atanNonNegative(t);
}

double log2(double x) {
  if (std::isnan(x) || x < 0) return kNaN;
  if (x == 0) return -kInf;
  if (x == kInf) return kInf;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m·2^e, m in [½, 1), exact
  if (m < kSqrtHalf) {
    m *= 2;
    --e;
  }
  // ln m = 2·atanh s, s = (m − 1)/(m + 1), |s| ≤ 0.172: 2(s + s³/3 + … + s²³/23)
  // (the next term is below 2e-19 of s).
  const double s = (m - 1.0) / (m + 1.0);
  const double z = s * s;
  double p = 1.0 / 23.0;
  for (int k = 21; k >= 3; k -= 2) p = p * z + 1.0 / k;
  const double ln = 2.0 * (s + s * z * p);
  return static_cast<double>(e) + ln * kInvLn2;
}

double hypot(double x, double y) {
  double a = std::fabs(x), b = std::fabs(y);
  if (a == kInf || b == kInf) return kInf;
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  if (a < b) {
    const double t = a;
    a = b;
    b = t;
  }
  if (a == 0) return 0;
  // Scale by a power of two (exact) so that the squares neither overflow nor
  // underflow; b far below a no longer matters then.
  if (a > 0x1p500) return 0x1p600 * std::sqrt((a * 0x1p-600) * (a * 0x1p-600) + (b * 0x1p-600) * (b * 0x1p-600));
  if (a < 0x1p-500) return 0x1p-600 * std::sqrt((a * 0x1p600) * (a * 0x1p600) + (b * 0x1p600) * (b * 0x1p600));
  return std::sqrt(a * a + b * b);
}

}  // namespace portable
}  // namespace collidoscope
