// collidoscope — the exact fallback of the orientation predicates
// (predicates.h): expansion arithmetic after Shewchuk 1997, Section 2.
#include "collidoscope/predicates.h"

namespace collidoscope {

namespace {

// An expansion: x = c[0] + … + c[n−1], components non-overlapping and
// ordered by increasing magnitude, zeros left out (so n = 0 is the number
// 0 and the sign of x is the sign of c[n−1]). The largest one used here is
// orient3d's determinant: 3 terms of 2 × (2 × (8 + 8)) = 64 components each.
struct Expansion {
  static constexpr int kCapacity = 192;
  double c[kCapacity];
  int n = 0;
  int sign() const { return n == 0 ? 0 : (c[n - 1] > 0 ? 1 : -1); }
};

// x + y = a + b exactly, x = fl(a + b) (Knuth's TwoSum; the paper's
// Theorem 7).
inline void twoSum(double a, double b, double* x, double* y) {
  const double s = a + b;
  const double bv = s - a;
  const double av = s - bv;
  *x = s;
  *y = (a - av) + (b - bv);
}

// The same when |a| ≥ |b| (Dekker's FastTwoSum; Theorem 6).
inline void fastTwoSum(double a, double b, double* x, double* y) {
  const double s = a + b;
  *x = s;
  *y = b - (s - a);
}

// a = hi + lo with hi and lo of at most 26 significant bits each (Dekker's
// split; Theorem 17), so that their products are exact.
inline void split(double a, double* hi, double* lo) {
  constexpr double kSplitter = 0x1p27 + 1;
  const double c = kSplitter * a;
  const double big = c - a;
  *hi = c - big;
  *lo = a - *hi;
}

// x + y = a·b exactly, x = fl(a·b) (Dekker's TwoProduct; Theorem 18).
// Without fma, so that native and wasm builds run the same operations.
inline void twoProduct(double a, double b, double* x, double* y) {
  const double p = a * b;
  double ahi, alo, bhi, blo;
  split(a, &ahi, &alo);
  split(b, &bhi, &blo);
  const double e1 = p - ahi * bhi;
  const double e2 = e1 - alo * bhi;
  const double e3 = e2 - ahi * blo;
  *x = p;
  *y = alo * blo - e3;
}

// The exact difference a − b as an expansion of up to two components.
Expansion difference(double a, double b) {
  double x, y;
  twoSum(a, -b, &x, &y);
  Expansion e;
  if (y != 0) e.c[e.n++] = y;
  if (x != 0) e.c[e.n++] = x;
  return e;
}

// e += b (Grow-Expansion with zero elimination; the paper's Theorem 10):
// the running sum carries upward, each rounding error stays as a component.
void grow(Expansion* e, double b) {
  double q = b;
  int k = 0;
  for (int i = 0; i < e->n; ++i) {
    double s, err;
    twoSum(q, e->c[i], &s, &err);
    q = s;
    if (err != 0) e->c[k++] = err;
  }
  if (q != 0 && k < Expansion::kCapacity) e->c[k++] = q;
  e->n = k;
}

// e += sign·f, one component at a time (Expansion-Sum; Theorem 12).
void add(Expansion* e, const Expansion& f, double sign) {
  for (int i = 0; i < f.n; ++i) grow(e, sign * f.c[i]);
}

// e·b (Scale-Expansion with zero elimination; Theorem 19): the products of
// the components with b, each exact as two doubles, summed in order.
Expansion scale(const Expansion& e, double b) {
  Expansion h;
  if (e.n == 0 || b == 0) return h;
  double q, lo;
  twoProduct(e.c[0], b, &q, &lo);
  if (lo != 0) h.c[h.n++] = lo;
  for (int i = 1; i < e.n; ++i) {
    double hiP, loP, sum, err;
    twoProduct(e.c[i], b, &hiP, &loP);
    twoSum(q, loP, &sum, &err);
    if (err != 0) h.c[h.n++] = err;
    fastTwoSum(hiP, sum, &q, &err);
    if (err != 0) h.c[h.n++] = err;
  }
  if (q != 0) h.c[h.n++] = q;
  return h;
}

// e·f: the sum of e scaled by each component of f.
Expansion product(const Expansion& e, const Expansion& f) {
  Expansion h;
  for (int j = 0; j < f.n; ++j) add(&h, scale(e, f.c[j]), 1);
  return h;
}

// x·y − z·w.
Expansion twoByTwo(const Expansion& x, const Expansion& y, const Expansion& z, const Expansion& w) {
  Expansion h = product(x, y);
  add(&h, product(z, w), -1);
  return h;
}

}  // namespace

namespace predicates_detail {

int orient3dExact(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Expansion u[3] = {difference(b.x, a.x), difference(b.y, a.y), difference(b.z, a.z)};
  const Expansion v[3] = {difference(c.x, a.x), difference(c.y, a.y), difference(c.z, a.z)};
  const Expansion w[3] = {difference(d.x, a.x), difference(d.y, a.y), difference(d.z, a.z)};
  Expansion det;
  for (int k = 0; k < 3; ++k) {
    const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    add(&det, product(u[k], twoByTwo(v[k1], w[k2], v[k2], w[k1])), 1);
  }
  return det.sign();
}

int orient2dExact(double ax, double ay, double bx, double by, double cx, double cy) {
  return twoByTwo(difference(bx, ax), difference(cy, ay), difference(by, ay), difference(cx, ax)).sign();
}

}  // namespace predicates_detail

bool collinear3d(const Vec3& a, const Vec3& b, const Vec3& c) {
  return orient2d(a.x, a.y, b.x, b.y, c.x, c.y) == 0 && orient2d(a.y, a.z, b.y, b.z, c.y, c.z) == 0 &&
         orient2d(a.z, a.x, b.z, b.x, c.z, c.x) == 0;
}

}  // namespace collidoscope
