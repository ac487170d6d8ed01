// GJK ray cast and linear shape cast (raycast.h) against independent
// references:
//   - closed forms per shape: ray–sphere quadratic (long double), box slabs
//     (parallel and grazing rays included), capsule (side + end balls),
//     cylinder (slab ∩ infinite cylinder), polytopes by their planes
//     (Cyrus–Beck), rounded boxes as the union of 3 face slabs, 12 edge
//     cylinders and 8 corner balls, flat triangles (plane + barycentric);
//   - random shapes and rays (near the origin, 1e4 away, and grazing a
//     supporting plane by ±δ): bisection on t of the reference point
//     distances of reference.h (polytopes: facets found by brute force over
//     all point triples), using that the distance along a line is convex;
//   - shape casts: sphere pairs in closed form; other pairs by sampling t
//     with gjkDistance and refining the first overlapping sample by
//     bisection;
//   - tunnelling (a fast bullet through a 1e-3 wall), the iteration cap
//     giving a lower bound, direction scaling, trace consistency.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "collidoscope/raycast.h"
#include "gjk_helpers.h"
#include "reference.h"

namespace {

using collidoscope::PosedShape;
using collidoscope::Quat;
using collidoscope::RayCastResult;
using collidoscope::RayCastSettings;
using collidoscope::RayCastStatus;
using collidoscope::RayEvent;
using collidoscope::RayFrame;
using collidoscope::RayReason;
using collidoscope::RayRecorder;
using collidoscope::Shape;
using collidoscope::ShapeCastResult;
using collidoscope::ShapeType;
using collidoscope::Vec3;
using ref::Rng;
using testutil::describe;
using testutil::str;

constexpr double kInf = std::numeric_limits<double>::infinity();

// The design's accuracy promise: hit positions within 1e-9 of the scene's
// scale (its largest coordinate).
constexpr double kAccuracy = 1e-9;

RayCastSettings gjkOnly() {
  RayCastSettings s;
  s.analyticSpheres = false;
  return s;
}

RayCastResult cast(const Shape& s, const Vec3& o, const Vec3& d, double maxT,
                   const RayCastSettings& settings = RayCastSettings{}) {
  return collidoscope::gjkRayCast(PosedShape(s), o, d, maxT, settings);
}

// Scale of a shape's scene: largest coordinate of its bounding ball.
double S_of(const Shape& s) { return ref::maxAbs3(s.pose.position) + ref::boundingRadius(s); }

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits(const Vec3& a, const Vec3& b) { return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z); }

std::string repro(const Shape& s, const Vec3& o, const Vec3& d, double maxT, const RayCastResult& r) {
  char buf[200];
  std::snprintf(buf, sizeof buf, " maxT=%.17g -> hit=%d t=%.17g it=%d status=%s reason=%s", maxT, r.hit ? 1 : 0, r.t,
                r.iterations, collidoscope::rayCastStatusName(r.status), collidoscope::rayReasonName(r.reason));
  return "\n  shape " + describe(s) + "\n  origin " + str(o) + " dir " + str(d) + buf;
}

// ---- closed-form references in a shape's local frame -----------------------

// An interval of t (entry, exit) with the entry normal; empty when lo > hi.
struct Interval {
  double lo = -kInf, hi = kInf;
  Vec3 normal;  // outward normal at the entry (local)
  bool empty() const { return !(lo <= hi); }
};

// {t : lo ≤ o_i + t d_i ≤ hi} on axis i (a slab).
Interval slab(const Vec3& o, const Vec3& d, int axis, double lo, double hi) {
  Interval s;
  if (d[axis] == 0) {
    if (o[axis] < lo || o[axis] > hi) s.lo = kInf, s.hi = -kInf;
    return s;
  }
  double t0 = (lo - o[axis]) / d[axis], t1 = (hi - o[axis]) / d[axis];
  Vec3 n;
  n[axis] = d[axis] > 0 ? -1 : 1;
  if (t0 > t1) std::swap(t0, t1);
  s.lo = t0;
  s.hi = t1;
  s.normal = n;
  return s;
}

Interval intersectIntervals(const Interval& a, const Interval& b) {
  Interval c;
  c.lo = std::max(a.lo, b.lo);
  c.hi = std::min(a.hi, b.hi);
  c.normal = a.lo >= b.lo ? a.normal : b.normal;
  return c;
}

// Quadratic interval {t : |m + t d|² ≤ R²} over the components in `mask`
// (a ball: all three; an infinite cylinder about an axis: the other two),
// in long double: the roots (−b ∓ √(b² − a c))/a.
Interval quadric(const Vec3& m, const Vec3& d, double R, const bool mask[3]) {
  long double a = 0, b = 0, c = 0;
  for (int i = 0; i < 3; ++i)
    if (mask[i]) {
      a += (long double)d[i] * d[i];
      b += (long double)d[i] * m[i];
      c += (long double)m[i] * m[i];
    }
  c -= (long double)R * R;
  Interval s;
  if (a == 0) {
    if (c > 0) s.lo = kInf, s.hi = -kInf;
    return s;
  }
  const long double disc = b * b - a * c;
  if (disc < 0) {
    s.lo = kInf, s.hi = -kInf;
    return s;
  }
  const long double sq = std::sqrt(disc);
  s.lo = (double)((-b - sq) / a);
  s.hi = (double)((-b + sq) / a);
  Vec3 n;
  for (int i = 0; i < 3; ++i)
    if (mask[i]) n[i] = (double)((long double)m[i] + (long double)s.lo * d[i]);
  s.normal = ref::unit(n);
  return s;
}

Interval ball(const Vec3& o, const Vec3& d, const Vec3& c, double R) {
  const bool all[3] = {true, true, true};
  return quadric(o - c, d, R, all);
}

// Finite cylinder along `axis` through c, half-length h, radius R.
Interval axisCylinder(const Vec3& o, const Vec3& d, const Vec3& c, int axis, double h, double R) {
  bool mask[3] = {true, true, true};
  mask[axis] = false;
  return intersectIntervals(quadric(o - c, d, R, mask), slab(o, d, axis, c[axis] - h, c[axis] + h));
}

Interval boxInterval(const Vec3& o, const Vec3& d, const Vec3& h) {
  Interval s;
  for (int i = 0; i < 3; ++i) s = intersectIntervals(s, slab(o, d, i, -h[i], h[i]));
  return s;
}

// Convex polytope {y : n_k·y ≤ e_k} (n_k unit), Cyrus–Beck.
Interval planesInterval(const Vec3& o, const Vec3& d, const std::vector<Vec3>& n, const std::vector<double>& e) {
  Interval s;
  for (std::size_t k = 0; k < n.size(); ++k) {
    const double nd = ref::dot3(n[k], d), dist = e[k] - ref::dot3(n[k], o);
    if (nd == 0) {
      if (dist < 0) s.lo = kInf, s.hi = -kInf;
      continue;
    }
    const double t = dist / nd;
    if (nd < 0) {
      if (t > s.lo) s.lo = t, s.normal = n[k];
    } else {
      s.hi = std::min(s.hi, t);
    }
  }
  return s;
}

// First entry into a union of convex pieces: the smallest entry time over
// the pieces that the ray meets.
Interval firstOf(const std::vector<Interval>& pieces) {
  Interval best;
  best.lo = kInf;
  best.hi = -kInf;
  for (const Interval& p : pieces)
    if (!p.empty() && (best.empty() || std::max(p.lo, 0.0) < std::max(best.lo, 0.0)) && p.hi >= 0) best = p;
  return best;
}

struct Expected {
  bool hit = false;
  double t = 0;
  Vec3 normal;  // world, unit (zero when starting inside)
};

// Converts a local interval into the expected answer for 0 ≤ t ≤ maxT.
Expected expectFrom(const Interval& s, double maxT, const Shape& shape) {
  Expected e;
  if (s.empty() || s.hi < 0 || s.lo > maxT) return e;
  e.hit = true;
  e.t = std::max(0.0, s.lo);
  if (s.lo > 0) e.normal = ref::matrixOf(shape.pose.rotation).mul(s.normal);
  return e;
}

// Local ray of a posed shape (through reference.h's own rotation matrix).
void localRay(const Shape& s, const Vec3& o, const Vec3& d, Vec3* lo, Vec3* ld) {
  *lo = ref::toLocal(s, o);
  *ld = ref::dirToLocal(s, d);
}

Interval roundedBoxInterval(const Vec3& o, const Vec3& d, const Vec3& h, double m) {
  std::vector<Interval> pieces;
  for (int i = 0; i < 3; ++i) {
    Vec3 g = h;
    g[i] += m;
    pieces.push_back(boxInterval(o, d, g));  // the box grown across face pair i
  }
  for (int axis = 0; axis < 3; ++axis) {  // 12 edges: 4 per axis
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    for (int s1 = -1; s1 <= 1; s1 += 2)
      for (int s2 = -1; s2 <= 1; s2 += 2) {
        Vec3 c;
        c[a1] = s1 * h[a1];
        c[a2] = s2 * h[a2];
        pieces.push_back(axisCylinder(o, d, c, axis, h[axis], m));
      }
  }
  for (int sx = -1; sx <= 1; sx += 2)
    for (int sy = -1; sy <= 1; sy += 2)
      for (int sz = -1; sz <= 1; sz += 2) pieces.push_back(ball(o, d, {sx * h.x, sy * h.y, sz * h.z}, m));
  return firstOf(pieces);
}

// The closed-form answer for a ray against a shape the test knows how to
// solve (sphere, box, rounded box, capsule, cylinder).
Expected analytic(const Shape& s, const Vec3& o, const Vec3& d, double maxT) {
  Vec3 lo, ld;
  localRay(s, o, d, &lo, &ld);
  const double m = s.margin;
  switch (s.type) {
    case ShapeType::Sphere:
      return expectFrom(ball(lo, ld, {}, s.radius + m), maxT, s);
    case ShapeType::Box:
      return expectFrom(m > 0 ? roundedBoxInterval(lo, ld, s.halfExtents, m) : boxInterval(lo, ld, s.halfExtents),
                        maxT, s);
    case ShapeType::Capsule: {
      const double R = s.radius + m;
      std::vector<Interval> pieces = {axisCylinder(lo, ld, {}, 1, s.halfHeight, R),
                                      ball(lo, ld, {0, s.halfHeight, 0}, R), ball(lo, ld, {0, -s.halfHeight, 0}, R)};
      return expectFrom(firstOf(pieces), maxT, s);
    }
    case ShapeType::Cylinder:
      return expectFrom(axisCylinder(lo, ld, {}, 1, s.halfHeight, s.radius), maxT, s);
    default:
      ADD_FAILURE() << "no closed form for " << describe(s);
      return Expected{};
  }
}

// Normal check: unit, and the plane through the hit point with that normal
// supports the shape (h_S(n) = n·point within tol).
::testing::AssertionResult supportingNormal(const Shape& s, const Vec3& point, const Vec3& n, double tol) {
  if (std::fabs(ref::norm(n) - 1) > 1e-12) return ::testing::AssertionFailure() << "normal not unit: " << str(n);
  const double gap = ref::supportValue(s, n) - ref::dot3(n, point);
  if (std::fabs(gap) > tol)
    return ::testing::AssertionFailure() << "normal " << str(n) << " does not support at " << str(point)
                                         << ": h(n) − n·p = " << gap;
  return ::testing::AssertionSuccess();
}

double angleBetween(const Vec3& a, const Vec3& b) {
  return std::atan2(ref::norm(ref::cross3(a, b)), ref::dot3(a, b));
}

struct Stats {
  int count = 0, hits = 0, maxIter = 0;
  long sumIter = 0;
  double worstT = 0, worstAngle = -1;  // −1: normals not compared
  void add(const RayCastResult& r) {
    ++count;
    hits += r.hit ? 1 : 0;
    sumIter += r.iterations;
    maxIter = std::max(maxIter, r.iterations);
  }
  void print(const char* name) const {
    std::printf("[ stats    ] %-28s n=%d hits=%d iter mean=%.2f max=%d worst |Δt|·|r|/S=%.2e", name, count, hits,
                count ? double(sumIter) / count : 0.0, maxIter, worstT);
    if (worstAngle >= 0) std::printf(" worst normal angle=%.2e", worstAngle);
    std::printf("\n");
  }
};

// Runs one analytic comparison; t error is measured as a distance along the
// ray relative to the scene scale S. `angleTol` bounds the normal's angle
// to the closed-form one (where the normal is unique).
void checkAnalytic(const Shape& s, const Vec3& o, const Vec3& d, double maxT, const Expected& e, Stats* st,
                   const RayCastSettings& settings = RayCastSettings{}, double angleTol = 1e-7) {
  const RayCastResult r = cast(s, o, d, maxT, settings);
  st->add(r);
  const double S = std::max(ref::maxAbs3(s.pose.position) + ref::boundingRadius(s), ref::maxAbs3(o));
  const std::string rp = repro(s, o, d, maxT, r);
  ASSERT_EQ(r.hit, e.hit) << "expected t=" << e.t << rp;
  ASSERT_NE(r.status, RayCastStatus::InvalidInput) << rp;
  if (!e.hit) return;
  EXPECT_EQ(r.status, RayCastStatus::Converged) << rp;
  const double err = std::fabs(r.t - e.t) * ref::norm(d) / S;
  st->worstT = std::max(st->worstT, err);
  EXPECT_LE(err, kAccuracy) << "t=" << r.t << " expected " << e.t << rp;
  EXPECT_LE(ref::dist(r.point, o + d * r.t), 4e-16 * S) << rp;
  if (e.t == 0) {
    EXPECT_TRUE(r.startedInside) << rp;
    EXPECT_EQ(r.normal, Vec3{}) << rp;
    return;
  }
  EXPECT_FALSE(r.startedInside) << rp;
  const double angle = angleBetween(r.normal, e.normal);
  st->worstAngle = std::max(st->worstAngle, angle);
  EXPECT_LE(angle, angleTol) << "normal " << str(r.normal) << " expected " << str(e.normal) << rp;
}

// A ray from a random point outside the shape's bounding ball (at 1.05–4
// bounding radii) towards a random point of the ball of 0.9 bounding radii,
// with a random length of direction (t is in units of direction).
void randomRay(Rng& rng, const Shape& s, double spread, Vec3* o, Vec3* d) {
  const double B = ref::boundingRadius(s);
  *o = s.pose.position + rng.direction() * (B * rng.uniform(1.05, 4));
  const Vec3 target = s.pose.position + rng.inBall(B * spread);
  *d = (target - *o) * rng.logUniform(0.05, 20);
}

// ---- analytic rays -----------------------------------------------------------

TEST(RayCastAnalytic, SphereQuadraticBothPaths) {
  Rng rng(101);
  Stats fast, viaGjk;
  for (int i = 0; i < 300; ++i) {
    Shape s = Shape::sphere(rng.uniform(0.1, 3));
    if (i % 3 == 0) s.withMargin(rng.uniform(0, 0.5));
    s.at(rng.inCube(5), rng.rotation());
    Vec3 o, d;
    randomRay(rng, s, 1.2, &o, &d);
    const double maxT = i % 4 == 0 ? rng.uniform(0, 1.2) : kInf;
    const Expected e = analytic(s, o, d, maxT);
    checkAnalytic(s, o, d, maxT, e, &fast);
    checkAnalytic(s, o, d, maxT, e, &viaGjk, gjkOnly());
  }
  fast.print("sphere (closed form)");
  viaGjk.print("sphere (GJK path)");
  EXPECT_GT(fast.hits, 100);
  EXPECT_EQ(fast.maxIter, 0);    // the closed form does no iterations
  EXPECT_GT(viaGjk.maxIter, 0);  // the flag really bypassed it
}

TEST(RayCastAnalytic, BoxSlabs) {
  Rng rng(102);
  Stats st;
  for (int i = 0; i < 400; ++i) {
    Shape s = Shape::box({rng.uniform(0.05, 2), rng.uniform(0.05, 2), rng.uniform(0.05, 2)});
    s.at(rng.inCube(5), rng.rotation());
    Vec3 o, d;
    randomRay(rng, s, 1.0, &o, &d);
    const double maxT = i % 5 == 0 ? rng.uniform(0, 1.2) : kInf;
    checkAnalytic(s, o, d, maxT, analytic(s, o, d, maxT), &st);
  }
  st.print("box");
  EXPECT_GT(st.hits, 150);
}

// Axis-aligned box, rays parallel to face slabs: inside the slab (hit),
// exactly on a face plane (grazing along the face: hit where the ray enters
// the face), along an edge line (hit at the edge's end), and 1e-6 outside
// (miss).
TEST(RayCastAnalytic, BoxParallelAndGrazing) {
  const Vec3 h{1.0, 0.5, 0.25};
  const Vec3 c{2, -1, 0.5};
  Shape s = Shape::box(h);
  s.at(c);
  Stats st;
  const double offsets[] = {0.0, 0.3, -0.49};
  for (double oy : offsets) {  // parallel to the y and z slabs, inside them
    const Vec3 o = c + Vec3{-5, oy, 0.1};
    checkAnalytic(s, o, {2, 0, 0}, kInf, {true, 2.0, {-1, 0, 0}}, &st);
  }
  struct Graze {
    Vec3 offset;  // start relative to the centre
    bool hit;
  };
  const Graze grazes[] = {
      {{-5, 0.5, 0.1}, true},             // in the face plane y = +h_y
      {{-5, -0.5, 0.0}, true},            // in the face plane y = −h_y
      {{-5, 0.5, 0.25}, true},            // along the edge y = h_y, z = h_z
      {{-5, 0.5 + 1e-6, 0.1}, false},     // just above the face
      {{-5, 0.5 + 1e-6, 0.25}, false},    // just off the edge
      {{-5, 0.5 - 1e-6, 0.25 - 1e-6}, true},
  };
  for (const Graze& g : grazes) {
    const Vec3 o = c + g.offset;
    const Vec3 d{1, 0, 0};
    const RayCastResult r = cast(s, o, d, kInf);
    st.add(r);
    const std::string rp = repro(s, o, d, kInf, r);
    ASSERT_EQ(r.hit, g.hit) << rp;
    if (!g.hit) continue;
    EXPECT_EQ(r.status, RayCastStatus::Converged) << rp;
    EXPECT_NEAR(r.t, 4.0, kAccuracy * 7) << rp;
    // On a face or an edge the normal is any normal of the normal cone: it
    // must support the box at the hit and not point along the ray.
    EXPECT_TRUE(supportingNormal(s, r.point, r.normal, 1e-14 * 7)) << rp;
    EXPECT_LE(ref::dot3(r.normal, d), 1e-12) << rp;
  }
  st.print("box parallel / grazing");
}

TEST(RayCastAnalytic, Capsule) {
  Rng rng(103);
  Stats st;
  for (int i = 0; i < 300; ++i) {
    Shape s = Shape::capsule(rng.uniform(0.05, 1.5), rng.uniform(0.05, 2));
    if (i % 4 == 0) s.withMargin(rng.uniform(0, 0.3));
    s.at(rng.inCube(5), rng.rotation());
    Vec3 o, d;
    randomRay(rng, s, 1.0, &o, &d);
    checkAnalytic(s, o, d, kInf, analytic(s, o, d, kInf), &st);
  }
  st.print("capsule");
  EXPECT_GT(st.hits, 100);
}

TEST(RayCastAnalytic, CylinderSideAndCaps) {
  Rng rng(104);
  Stats st;
  int side = 0, caps = 0;
  for (int i = 0; i < 300; ++i) {
    Shape s = Shape::cylinder(rng.uniform(0.1, 1.5), rng.uniform(0.1, 2));
    s.at(rng.inCube(5), rng.rotation());
    Vec3 o, d;
    randomRay(rng, s, 1.0, &o, &d);
    const Expected e = analytic(s, o, d, kInf);
    if (e.hit) {
      const Vec3 ln = ref::dirToLocal(s, e.normal);
      (std::fabs(ln.y) > 0.5 ? caps : side)++;
    }
    // The curved side has no margin to make it exact: the normal comes from
    // the last supporting plane, within ~1e-5 rad of the true one (the
    // position is what the accuracy promise is about).
    checkAnalytic(s, o, d, kInf, e, &st, RayCastSettings{}, 1e-4);
  }
  st.print("cylinder");
  std::printf("[ stats    ] cylinder hits: side %d caps %d\n", side, caps);
  EXPECT_GT(side, 40);
  EXPECT_GT(caps, 40);
}

TEST(RayCastAnalytic, PolytopeByPlanes) {
  // Octahedron |x| + |y| + |z| ≤ a: 8 planes (±1, ±1, ±1)/√3 · y ≤ a/√3;
  // tetrahedron with vertices (1,1,1), (1,−1,−1), (−1,1,−1), (−1,−1,1)
  // (scaled by b): planes n·y ≤ b/√3 with n = −(vertex)/√3 per opposite face.
  Rng rng(105);
  Stats st;
  for (int i = 0; i < 400; ++i) {
    const bool octa = i % 2 == 0;
    const double a = rng.uniform(0.2, 2);
    std::vector<Vec3> pts;
    std::vector<Vec3> normals;
    std::vector<double> offsets;
    const double k = 1 / std::sqrt(3.0);
    if (octa) {
      pts = {{a, 0, 0}, {-a, 0, 0}, {0, a, 0}, {0, -a, 0}, {0, 0, a}, {0, 0, -a}};
      for (int sx = -1; sx <= 1; sx += 2)
        for (int sy = -1; sy <= 1; sy += 2)
          for (int sz = -1; sz <= 1; sz += 2) {
            normals.push_back(Vec3(sx, sy, sz) * k);
            offsets.push_back(a * k);
          }
    } else {
      pts = {{a, a, a}, {a, -a, -a}, {-a, a, -a}, {-a, -a, 1 * a}};
      for (const Vec3& p : pts) {
        normals.push_back(p * (-k / a));
        offsets.push_back(a * k);
      }
    }
    Shape s = Shape::polytope(pts);
    s.at(rng.inCube(5), rng.rotation());
    Vec3 o, d;
    randomRay(rng, s, 1.0, &o, &d);
    Vec3 lo, ld;
    localRay(s, o, d, &lo, &ld);
    checkAnalytic(s, o, d, kInf, expectFrom(planesInterval(lo, ld, normals, offsets), kInf, s), &st);
  }
  st.print("octahedron / tetrahedron");
  EXPECT_GT(st.hits, 150);
}

TEST(RayCastAnalytic, RoundedBox) {
  // Faces, edges and corners of core ⊕ sphere: the closed form is the union
  // of 3 grown boxes, 12 edge cylinders and 8 corner balls.
  Rng rng(106);
  Stats st;
  int faceHits = 0;
  for (int i = 0; i < 300; ++i) {
    const Vec3 h{rng.uniform(0.1, 1.5), rng.uniform(0.1, 1.5), rng.uniform(0.1, 1.5)};
    Shape s = Shape::box(h).withMargin(rng.uniform(0.01, 0.5));
    s.at(rng.inCube(5), rng.rotation());
    Vec3 o, d;
    randomRay(rng, s, 1.0, &o, &d);
    const Expected e = analytic(s, o, d, kInf);
    if (e.hit) {
      const Vec3 ln = ref::dirToLocal(s, e.normal);
      if (ref::maxAbs3(ln) > 1 - 1e-12) ++faceHits;
    }
    checkAnalytic(s, o, d, kInf, e, &st);
  }
  st.print("rounded box");
  EXPECT_GT(faceHits, 50);
  EXPECT_GT(st.hits, faceHits + 30);  // edges and corners too
}

// ---- grazing, inside, away, short, invalid -------------------------------

TEST(RayCastEdgeCases, TangentToSphere) {
  // Ray along x at height R + δ above a sphere's centre: δ = −1e-6 hits
  // (the chord's entry, from the quadratic), δ = +1e-6 misses; δ = 0 hits
  // near the tangent point. Both paths.
  const double R = 1.3;
  const Vec3 c{0.5, -0.25, 2};
  for (const bool gjk : {false, true}) {
    const RayCastSettings settings = gjk ? gjkOnly() : RayCastSettings{};
    for (int axis = 0; axis < 3; ++axis) {
      Vec3 up;
      up[axis] = 1;
      Vec3 dir;
      dir[(axis + 1) % 3] = 1;
      for (double delta : {-1e-6, 1e-6, 0.0}) {
        Shape s = Shape::sphere(R);
        s.at(c);
        const Vec3 o = c + up * (R + delta) - dir * 4;
        const RayCastResult r = cast(s, o, dir * 0.5, kInf, settings);
        const std::string rp = repro(s, o, dir * 0.5, kInf, r) + (gjk ? " [gjk]" : " [closed form]");
        if (delta > 0) {
          EXPECT_FALSE(r.hit) << rp;
          continue;
        }
        ASSERT_TRUE(r.hit) << rp;
        // Entry at x = −√(R² − (R+δ)²) from the centre, i.e. t = 2(4 − √(·)).
        const long double h = (long double)R + delta;
        const double half = (double)std::sqrt((long double)R * R - h * h);
        const double tExpected = 2 * (4 - half);
        // Near tangency the hit time is ill-conditioned: a distance error ε
        // of the hit test moves it by ε/cos, cos = half/R (≈ 1.2e-3 at
        // δ = −1e-6); at δ = 0 by √(2Rε) (≈ 1.6e-5 for ε = 1e-10).
        const double tol = delta < 0 ? 1e-9 : 2e-5;
        EXPECT_NEAR(r.t, tExpected, tol) << rp;
        EXPECT_LE(std::fabs(ref::dist(r.point, c) - R), 1e-9) << rp;
      }
    }
  }
}

TEST(RayCastEdgeCases, StartInsideAwayShortInvalid) {
  std::vector<Shape> shapes = {Shape::sphere(1), Shape::box({1, 0.5, 0.7}), Shape::capsule(0.4, 0.8),
                               Shape::cylinder(0.6, 0.5), Shape::cone(0.7, 0.9), Shape::ellipsoid({1, 0.4, 0.7}),
                               Shape::polytope({{1, 0, 0}, {-1, 0.2, 0}, {0, 1, 0.1}, {0, -0.5, 1}, {0.1, 0, -1}}),
                               Shape::segment({-1, 0, 0}, {1, 0.2, 0}).withMargin(0.3),
                               Shape::triangle({-1, 0, 0}, {1, 0.2, 0}, {0, 1, 0.3}).withMargin(0.2),
                               Shape::point().withMargin(0.5)};
  Rng rng(107);
  for (Shape& s : shapes) {
    s.at(rng.inCube(3), rng.rotation());
    const Vec3 c = s.pose.position;
    for (const RayCastSettings& settings : {RayCastSettings{}, gjkOnly()}) {
      // Inside: the centre of a convex body whose core contains its local
      // origin — or within the margin of it (segment, triangle, point).
      const Vec3 inside = (s.type == ShapeType::Polytope) ? ref::toWorld(s, {0, 0.1, 0}) : c;
      for (const Vec3& d : {Vec3{1, 0, 0}, Vec3{0.3, -2, 0.1}}) {
        const RayCastResult r = collidoscope::gjkRayCast(PosedShape(s), inside, d, kInf, settings);
        const std::string rp = repro(s, inside, d, kInf, r);
        EXPECT_TRUE(r.hit) << rp;
        EXPECT_TRUE(r.startedInside) << rp;
        EXPECT_EQ(r.t, 0.0) << rp;
        EXPECT_EQ(r.normal, Vec3{}) << rp;
        EXPECT_EQ(r.point, inside) << rp;
      }
      // Pointing away from an outside origin: miss (certified).
      const double B = ref::boundingRadius(s);
      const Vec3 u = rng.direction();
      const Vec3 o = inside + u * (3 * B);  // ≥ 2B from the centre: outside the bounding ball
      RayCastResult r = collidoscope::gjkRayCast(PosedShape(s), o, u * 3.0, kInf, settings);
      EXPECT_FALSE(r.hit) << repro(s, o, u * 3.0, kInf, r);
      EXPECT_EQ(r.status, RayCastStatus::Converged);
      // Towards the inside point: the hit lies between the bounding ball
      // and that point; a maxT ending before the ball must miss.
      const Vec3 toward = u * -2.0;
      const double ballT = (ref::dist(o, c) - B) / 2;
      r = collidoscope::gjkRayCast(PosedShape(s), o, toward, kInf, settings);
      EXPECT_TRUE(r.hit) << repro(s, o, toward, kInf, r);
      EXPECT_GE(r.t, ballT - 1e-12);
      EXPECT_LE(r.t, 1.5 * B + 1e-12);
      const double shortT = 0.9 * ballT;
      r = collidoscope::gjkRayCast(PosedShape(s), o, toward, shortT, settings);
      EXPECT_FALSE(r.hit) << repro(s, o, toward, shortT, r);
      EXPECT_EQ(r.status, RayCastStatus::Converged);
      // maxT exactly at the hit still hits; maxT = 0 from outside misses.
      const RayCastResult full = collidoscope::gjkRayCast(PosedShape(s), o, toward, kInf, settings);
      r = collidoscope::gjkRayCast(PosedShape(s), o, toward, full.t, settings);
      EXPECT_TRUE(r.hit);
      r = collidoscope::gjkRayCast(PosedShape(s), o, toward, 0.0, settings);
      EXPECT_FALSE(r.hit);
    }
  }
  // Invalid input: zero / non-finite direction, non-finite origin, bad maxT.
  const Shape box = Shape::box({1, 1, 1});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Vec3 o{-5, 0, 0};
  struct Bad {
    Vec3 origin, dir;
    double maxT;
  };
  const Bad bad[] = {{o, {0, 0, 0}, 1}, {o, {nan, 1, 0}, 1}, {o, {kInf, 0, 0}, 1},
                     {{nan, 0, 0}, {1, 0, 0}, 1}, {o, {1, 0, 0}, -1}, {o, {1, 0, 0}, nan}};
  for (const Bad& b : bad)
    for (const Shape& s : {box, Shape::sphere(1)}) {
      const RayCastResult r = cast(s, b.origin, b.dir, b.maxT);
      EXPECT_FALSE(r.hit);
      EXPECT_EQ(r.status, RayCastStatus::InvalidInput) << str(b.dir) << " " << b.maxT;
      EXPECT_TRUE(ref::finite(r.point) && ref::finite(r.normal) && std::isfinite(r.t));
    }
}

// Cores without volume and without margin: a ray crossing a triangle (or a
// flat polytope: the triangle's corners plus its centroid) still meets it
// in one point. Reference: the
// plane crossing t = (n·(a − o))/(n·d) and the barycentric coordinates of
// the crossing point (seed 003's ray–triangle test), rays kept only when
// the crossing is clearly inside (all coordinates > 0.05) or clearly
// outside (one < −0.05).
TEST(RayCastEdgeCases, FlatCoresWithoutMargin) {
  Rng rng(108);
  int hits = 0, misses = 0;
  for (int i = 0; i < 400; ++i) {
    const Vec3 a = rng.inBall(1), b = rng.inBall(1), c = rng.inBall(1);
    const Vec3 nrm = ref::cross3(b - a, c - a);
    if (ref::norm(nrm) < 0.2) continue;  // well-shaped triangles only
    Shape s = i % 2 ? Shape::triangle(a, b, c) : Shape::polytope({a, b, c, (a + b + c) / 3.0});
    s.at(rng.inCube(3), rng.rotation());
    const Vec3 A = ref::toWorld(s, a), B = ref::toWorld(s, b), C = ref::toWorld(s, c);
    const Vec3 n = ref::unit(ref::cross3(B - A, C - A));
    // Aim at a point of the plane with chosen barycentric coordinates.
    const double u = rng.uniform(-0.5, 1.2), v = rng.uniform(-0.5, 1.2);
    const Vec3 target = A + (B - A) * u + (C - A) * v;
    const Vec3 o = target + rng.direction() * rng.uniform(1, 4);
    const Vec3 d = (target - o) * rng.uniform(0.2, 3);
    if (std::fabs(ref::dot3(ref::unit(d), n)) < 0.05) continue;  // nearly in the plane
    const double t = ref::dot3(n, A - o) / ref::dot3(n, d);
    const double w0 = 1 - u - v;
    const bool inside = u > 0.05 && v > 0.05 && w0 > 0.05;
    const bool outside = u < -0.05 || v < -0.05 || w0 < -0.05;
    if (!inside && !outside) continue;
    for (const RayCastSettings& settings : {RayCastSettings{}, gjkOnly()}) {
      const RayCastResult r = cast(s, o, d, kInf, settings);
      const std::string rp = repro(s, o, d, kInf, r);
      ASSERT_EQ(r.hit, inside) << "u=" << u << " v=" << v << rp;
      if (!inside) continue;
      EXPECT_EQ(r.status, RayCastStatus::Converged) << rp;
      EXPECT_LE(std::fabs(r.t - t) * ref::norm(d), kAccuracy * S_of(s)) << rp;
      // The normal is the plane's, facing the ray.
      const Vec3 expected = ref::dot3(n, d) < 0 ? n : n * -1.0;
      EXPECT_LE(angleBetween(r.normal, expected), 1e-9) << rp;
    }
    (inside ? hits : misses)++;
  }
  EXPECT_GT(hits, 40);
  EXPECT_GT(misses, 40);
  // A bare point is hit only by a ray through it.
  const Shape pt = Shape::point();
  for (const RayCastSettings& settings : {RayCastSettings{}, gjkOnly()}) {
    RayCastResult r = cast(pt, {-5, 0, 0}, {2, 0, 0}, kInf, settings);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.t, 2.5);
    EXPECT_EQ(r.normal, Vec3(-1, 0, 0));
    r = cast(pt, {-5, 1e-3, 0}, {2, 0, 0}, kInf, settings);
    EXPECT_FALSE(r.hit);
  }
}

// A tiny shape and a long ray: the shape's scale, not the ray's length,
// decides whether the scene runs magnified (tiny_scene.h). At 2^-680 every
// ‖v‖² underflows to 0, which read as "x is on the shape": a ray passing
// 1.4·2^-680 beside a point was a hit at t = 0.
TEST(RayCastEdgeCases, TinyShapesAndLongRays) {
  for (int e : {-520, -680, -900, -1000}) {
    const double tiny = std::ldexp(1.0, e);
    const Vec3 p = Vec3{-1, -1, -1} * tiny;
    Shape pt = Shape::point();
    pt.at(p, Quat{});
    Shape ball = Shape::sphere(3 * tiny);
    ball.at(p, Quat{});
    for (const RayCastSettings& settings : {RayCastSettings{}, gjkOnly()}) {
      // Along −z from the origin: passes √2·tiny from the point, through the ball.
      RayCastResult r = cast(pt, {0, 0, 0}, {0, 0, -4}, 1e300, settings);
      EXPECT_FALSE(r.hit) << "2^" << e;
      EXPECT_EQ(r.status, RayCastStatus::Converged) << "2^" << e;
      r = cast(ball, {0, 0, 0}, {0, 0, -4}, 1e300, settings);
      EXPECT_TRUE(r.hit) << "2^" << e;
      EXPECT_TRUE(r.startedInside) << "2^" << e;  // |origin − p| = √3·tiny < 3·tiny
      // Through the point: hit at t = tiny/4 (the ray reaches p exactly there).
      r = cast(pt, {0, 0, 0}, {-4, -4, -4}, 1e300, settings);
      ASSERT_TRUE(r.hit) << "2^" << e;
      EXPECT_NEAR(r.t, tiny / 4, 1e-9 * tiny) << "2^" << e;
      // From 10·tiny beside the centre, toward it: enters the ball at t = 7·tiny.
      const Vec3 o = p + Vec3{10 * tiny, 0, 0};
      r = cast(ball, o, {-1, 0, 0}, 1e300, settings);
      ASSERT_TRUE(r.hit) << "2^" << e;
      EXPECT_NEAR(r.t, 7 * tiny, 1e-9 * tiny) << "2^" << e;
    }
  }
}

// Denormal scenes: the tiny scene's magnification stops where the ray's
// direction would pass 2^500, so a point 2^-1048 away is still 2^-550 after
// it, and its square underflows: the closed form for point cores called the
// origin inside a point 2.5e-316 away (fuzz_world, seed 2: the world ray
// cast, which rules that point out by its box, disagreed). The closed form
// now takes such a scene to unit size itself.
TEST(RayCastEdgeCases, DenormalScenesAndLongRays) {
  // The closed form (default settings); GJK's loop on such scenes is a
  // known limit (README).
  const double ulp = std::numeric_limits<double>::denorm_min();
  for (int e : {-1040, -1048, -1060}) {
    const double tiny = std::ldexp(1.0, e);
    // A point, and a box of no extent (fuzz_world's), tiny behind the origin.
    for (Shape pt : {Shape::point(), Shape::box({0, 0, 0})}) {
      pt.at(Vec3{0, 0, tiny}, Quat{});
      // Away from it: a miss.
      RayCastResult r = cast(pt, {0, 0, 0}, {0, 0, -4}, 1, RayCastSettings{});
      EXPECT_FALSE(r.hit) << "2^" << e;
      EXPECT_FALSE(r.startedInside) << "2^" << e;
      // Toward it: a hit at t = tiny/4.
      r = cast(pt, {0, 0, 0}, {0, 0, 4}, 1, RayCastSettings{});
      ASSERT_TRUE(r.hit) << "2^" << e;
      EXPECT_FALSE(r.startedInside) << "2^" << e;
      EXPECT_NEAR(r.t, tiny / 4, 4 * ulp) << "2^" << e;
    }
    // The origin is √3·tiny from the ball's centre, inside its radius 3·tiny.
    Shape ball = Shape::sphere(3 * tiny);
    ball.at(Vec3{-1, -1, -1} * tiny, Quat{});
    const RayCastResult r = cast(ball, {0, 0, 0}, {0, 0, -4}, 1, RayCastSettings{});
    EXPECT_TRUE(r.hit && r.startedInside) << "2^" << e;
  }
}

// A ray nearly parallel to a face crosses the face's plane far away, where
// the supporting plane's crossing point lies far outside the shape: every
// hit lies in the shape's bounding box, so a crossing past the ray's exit
// from the box is a miss. (The plane crossing at t ≈ 2.8e204 used to be
// taken as x, whose squared length overflows: a hit "within tolerance".)
TEST(RayCastEdgeCases, APlaneCrossingFarBeyondTheShapeIsAMiss) {
  const double eps = 1.0756753139380589e-204;
  const Vec3 origin{6, -8, -eps}, direction{-6, 8, eps};
  Shape disc = Shape::cone(9.9997283337162983, 0);
  disc.at({3, 3, 3}, Quat{0.5, 0.5, 0.5, 0.5});  // axis y → z: the disc lies in z = 3
  Shape square = Shape::box({10, 10, 0});
  square.at({3, 3, 3}, Quat{});
  for (const Shape& s : {disc, square}) {
    for (const RayCastSettings& settings : {RayCastSettings{}, gjkOnly()}) {
      // The ray reaches z = 3 only at t = (3 + eps)/eps, about 1e205 from the shape.
      const RayCastResult r = cast(s, origin, direction, 1e300, settings);
      EXPECT_FALSE(r.hit) << repro(s, origin, direction, 1e300, r);
      EXPECT_EQ(r.status, RayCastStatus::Converged);
      // The same ray tilted to cross z = 3 at the shape's centre is a hit there.
      const Vec3 tilted{-6, 8, (3 + eps) * 6 / 3};  // at t = 0.5: (3, -4, 3), inside both
      const RayCastResult h = cast(s, origin, tilted, 1e300, settings);
      ASSERT_TRUE(h.hit);
      EXPECT_NEAR(h.t, 0.5, 1e-9);
    }
  }
}

// t is in units of direction: scaling direction by k divides t by k and
// changes nothing else (positions, normals, hit/miss).
TEST(RayCastEdgeCases, DirectionScale) {
  Rng rng(109);
  for (int i = 0; i < 200; ++i) {
    const ShapeType type = ref::kAllTypes[1 + i % 9];
    Shape s = ref::randomShape(rng, type, rng.uniform(0.3, 2));
    if (type == ShapeType::Segment || type == ShapeType::Triangle) s.withMargin(0.2);
    s.at(rng.inCube(3), rng.rotation());
    Vec3 o, d;
    randomRay(rng, s, 1.0, &o, &d);
    const RayCastResult base = cast(s, o, d, kInf, gjkOnly());
    for (const double k : {1e-8, 1e-3, 1e3, 1e8}) {
      const RayCastResult r = cast(s, o, d * k, kInf, gjkOnly());
      const std::string rp = repro(s, o, d * k, kInf, r);
      ASSERT_EQ(r.hit, base.hit) << rp;
      if (!r.hit) continue;
      EXPECT_LE(std::fabs(r.t * k - base.t) * ref::norm(d), kAccuracy * S_of(s)) << rp;
      EXPECT_LE(ref::dist(r.point, base.point), kAccuracy * S_of(s)) << rp;
      // Cylinder and cone sides without margin: the normal is the last
      // plane's, ~1e-5 rad from the true one (raycast.h), and its error
      // depends on the path, so the two runs may differ by twice that.
      const bool ruled = type == ShapeType::Cylinder || type == ShapeType::Cone;
      EXPECT_LE(angleBetween(r.normal, base.normal), ruled ? 1e-4 : 1e-6) << rp;
    }
  }
}

// ---- random shapes and rays against bisection on reference distances -------

// Facets of conv(points) by brute force: every point triple whose plane has
// all points on one side (within eps) is a facet triangle; together they
// cover the boundary, so the distance from an outside point is the minimum
// over them, and a point is inside iff it is behind every facet plane.
struct BruteHull {
  std::vector<Vec3> pts;
  std::vector<std::array<Vec3, 3>> tris;
  std::vector<Vec3> normals;
  std::vector<double> offsets;

  // Plane tests are relative to the cloud's extent (plus the rounding of
  // its coordinates, which matters 1e4 away from the origin).
  explicit BruteHull(const std::vector<Vec3>& world) : pts(world) {
    Vec3 centre;
    double coord = 0, extent = 0;
    for (const Vec3& p : pts) centre = centre + p / double(pts.size());
    for (const Vec3& p : pts) {
      coord = std::max(coord, ref::maxAbs3(p));
      extent = std::max(extent, ref::dist(p, centre));
    }
    const double eps = 1e-12 * extent + 1e-15 * coord;
    const std::size_t n = pts.size();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        for (std::size_t k = j + 1; k < n; ++k) {
          Vec3 nrm = ref::cross3(pts[j] - pts[i], pts[k] - pts[i]);
          const double len = ref::norm(nrm);
          if (!(len > 1e-9 * extent * extent)) continue;
          nrm = nrm / len;
          const double off = ref::dot3(nrm, pts[i]);
          double hi = -kInf, lo = kInf;
          for (const Vec3& p : pts) {
            hi = std::max(hi, ref::dot3(nrm, p) - off);
            lo = std::min(lo, ref::dot3(nrm, p) - off);
          }
          if (hi <= eps || lo >= -eps) {
            const double sgn = hi <= eps ? 1 : -1;
            tris.push_back({pts[i], pts[j], pts[k]});
            normals.push_back(nrm * sgn);
            offsets.push_back(off * sgn);
          }
        }
  }
  double distance(const Vec3& p) const {
    bool inside = true;
    for (std::size_t f = 0; f < normals.size() && inside; ++f)
      if (ref::dot3(normals[f], p) > offsets[f]) inside = false;
    if (inside) return 0;
    double best = kInf;
    for (const auto& t : tris) best = std::min(best, ref::pointTriangleDistance(p, t[0], t[1], t[2]));
    return best;
  }
};

// Distance from a world point to the full (rounded) shape, negative inside
// the rounding only (−ρ at or inside the core): f = d(p, core) − ρ.
struct RefShape {
  const Shape* s;
  const BruteHull* hull = nullptr;
  double coreDistance(const Vec3& p) const {
    const Shape& sh = *s;
    switch (sh.type) {
      case ShapeType::Point:
      case ShapeType::Sphere: return ref::dist(p, sh.pose.position);
      case ShapeType::Box: return ref::pointBoxDistance(p, sh);
      case ShapeType::Capsule:
        return ref::pointSegmentDistance(p, ref::toWorld(sh, {0, -sh.halfHeight, 0}),
                                         ref::toWorld(sh, {0, sh.halfHeight, 0}));
      case ShapeType::Cylinder: return ref::pointCylinderDistance(p, sh);
      case ShapeType::Cone: return ref::pointConeDistance(p, sh);
      case ShapeType::Ellipsoid: return ref::pointEllipsoidDistance(p, sh);
      case ShapeType::Segment:
        return ref::pointSegmentDistance(p, ref::toWorld(sh, sh.points[0]), ref::toWorld(sh, sh.points[1]));
      case ShapeType::Triangle:
        return ref::pointTriangleDistance(p, ref::toWorld(sh, sh.points[0]), ref::toWorld(sh, sh.points[1]),
                                          ref::toWorld(sh, sh.points[2]));
      case ShapeType::Polytope: return hull->distance(p);
      case ShapeType::Plane: return std::max(0.0, ref::planeHeight(p, sh));
      case ShapeType::Mesh:
      case ShapeType::Compound: ADD_FAILURE() << "not a convex shape"; break;
    }
    return 0;
  }
  // Inside the core: minus the depth (exact for box, cylinder, cone and
  // polytope; for the ellipsoid the lower bound m(1 − |L⁻¹p|), m its smallest
  // radius, since E((1 − δ/m)·radii) ⊕ ball(δ) ⊆ E). Each piece is convex
  // and below the distance outside, so max(distance, −depth) is convex.
  // Cores without interior (point, segment, triangle, capsule's segment)
  // give 0.
  double coreDepth(const Vec3& pw) const {
    const Shape& sh = *s;
    const Vec3 p = ref::toLocal(sh, pw);
    switch (sh.type) {
      case ShapeType::Box: {
        const Vec3 h = sh.halfExtents;
        return std::min({h.x - std::fabs(p.x), h.y - std::fabs(p.y), h.z - std::fabs(p.z)});
      }
      case ShapeType::Cylinder:
        return std::min(sh.radius - std::hypot(p.x, p.z), sh.halfHeight - std::fabs(p.y));
      case ShapeType::Cone: {
        // (ρ, y) half plane: base y = −h, slant through (0, h) and (r, −h).
        const double rho = std::hypot(p.x, p.z), h = sh.halfHeight, r = sh.radius;
        const double slant = ((2 * h) * (r - rho) - r * (p.y + h)) / std::hypot(2 * h, r);
        return std::min(p.y + h, slant);
      }
      case ShapeType::Ellipsoid: {
        const Vec3 q{p.x / sh.radii.x, p.y / sh.radii.y, p.z / sh.radii.z};
        return std::min({sh.radii.x, sh.radii.y, sh.radii.z}) * (1 - ref::norm(q));
      }
      case ShapeType::Polytope: {
        double depth = kInf;
        for (std::size_t f = 0; f < hull->normals.size(); ++f)
          depth = std::min(depth, hull->offsets[f] - ref::dot3(hull->normals[f], pw));
        return depth;
      }
      default:
        return 0;
    }
  }
  // The depth is tested first: reference.h's distances of interior points
  // are rounding noise (~1e-16), not exactly 0.
  double f(const Vec3& p) const {
    const double depth = coreDepth(p);
    return (depth > 0 ? -depth : coreDistance(p)) - ref::roundRadius(*s);
  }
};

struct RefRay {
  bool hit = false;
  double t = 0;
  double fmin = 0;  // min over [0, maxT] of f: how far the ray passes outside (> 0) or reaches in (< 0)
  double cosIn = 1; // cosine of incidence at the hit (from the left slope of f)
};

// f(t) = d(o + t d, core) − ρ is convex in t (the distance to a convex set
// is convex, composed with an affine map). Golden-section search gives its
// minimum over [0, T]; if positive the ray misses, else the first root lies
// in [0, t_min], where f changes sign once: bisection.
RefRay referenceRay(const RefShape& rs, const Vec3& o, const Vec3& d, double maxT) {
  RefRay out;
  auto f = [&](double t) { return rs.f(o + d * t); };
  const double f0 = f(0);
  if (f0 <= 0) {
    out.hit = true;
    out.fmin = f0;
    return out;
  }
  const double B = ref::boundingRadius(*rs.s);
  const double tFar = (ref::dist(o, rs.s->pose.position) + B) / ref::norm(d);  // beyond: outside the bounding ball
  const double T = std::min(maxT, tFar * 1.01);
  const double g = (std::sqrt(5.0) - 1) / 2;
  double a = 0, b = T;
  double x1 = b - g * (b - a), x2 = a + g * (b - a);
  double f1 = f(x1), f2 = f(x2);
  for (int it = 0; it < 200 && b - a > 1e-15 * T; ++it) {
    if (f1 <= f2) {
      b = x2, x2 = x1, f2 = f1;
      x1 = b - g * (b - a), f1 = f(x1);
    } else {
      a = x1, x1 = x2, f1 = f2;
      x2 = a + g * (b - a), f2 = f(x2);
    }
  }
  double tMin = f1 <= f2 ? x1 : x2;
  out.fmin = std::min(f1, f2);
  const double fT = f(T);
  if (fT < out.fmin) out.fmin = fT, tMin = T;
  if (out.fmin > 0) return out;
  double lo = 0, hi = tMin;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (f(mid) > 0 ? lo : hi) = mid;
  }
  out.hit = true;
  out.t = hi;
  const double h = std::max(1e-6 * hi, 1e-9 / ref::norm(d));
  const double slope = (f(hi) - f(std::max(0.0, hi - h))) / std::min(h, hi);
  out.cosIn = std::min(1.0, std::max(0.0, -slope / ref::norm(d)));
  return out;
}

enum class RayMode {
  General,  // random shapes near the origin, rays from outside or inside, some short
  Far,      // the same 1e4 away from the world origin: accuracy relative to S
  Grazing,  // rays parallel to a supporting plane, ±δ from its touching point
};

// Point of the full shape extreme in direction u: the gradient of the
// support function h(u) (reference closed forms), by central differences.
// Only used to aim grazing rays; its error (~1e-10·S) is far below δ.
Vec3 touchingPoint(const Shape& s, const Vec3& u) {
  const double e = 1e-6;
  Vec3 p;
  for (int i = 0; i < 3; ++i) {
    Vec3 a = u, b = u;
    a[i] += e;
    b[i] -= e;
    p[i] = (ref::supportValue(s, a) - ref::supportValue(s, b)) / (2 * e);
  }
  return p;
}

struct RandomRayStats {
  int checked = 0, ambiguous = 0, grazing = 0, degenerate = 0, tangentDegenerate = 0, capped = 0;
  double worstNormalGap = 0, worstEllipsoidNormal = 0, worstGrazingT = 0;
  Stats perType[10];
};

RandomRayStats randomRays(std::uint64_t seed, int count, RayMode mode) {
  Rng rng(seed);
  RandomRayStats st;
  // The ray may be reported either way when it passes within this of
  // tangency (in units of S): the hit test's own tolerance is 1e-10·S.
  constexpr double kTangency = 1e-9;
  // Below this cosine of incidence the hit time is ill-conditioned (an
  // error ε in distance moves t by ε/cos). The hit test scales its
  // tolerance by the cosine, so these hits are held to the same 1e-9·S;
  // they are counted separately to show the test reaches them (δ = 1e-8
  // grazes reach cos ~ 1e-4).
  constexpr double kGrazingCos = 1e-3;
  const double offset = mode == RayMode::Far ? 1e4 : 0;
  for (int i = 0; i < count; ++i) {
    const int ti = i % 10;
    const ShapeType type = ref::kAllTypes[ti];
    Shape s = ref::randomShape(rng, type, rng.uniform(0.3, 2));
    const bool thin = type == ShapeType::Point || type == ShapeType::Segment || type == ShapeType::Triangle;
    if (thin)
      s.withMargin(rng.uniform(0.05, 0.5));
    else if (rng.integer(0, 3) == 0)
      s.withMargin(rng.uniform(0, 0.3));
    s.at(rng.inCube(3) + Vec3{offset, -offset, offset}, rng.rotation());
    Vec3 o, d;
    double maxT = kInf;
    if (mode == RayMode::Grazing) {
      const Vec3 u = rng.direction();
      const Vec3 r = ref::unit(ref::cross3(u, rng.direction()));
      // δ = 1e-10 and 0 are within the tangency band (hit or miss both
      // fine) but must still end converged, without stalls or the cap.
      const double deltas[] = {1e-3, 1e-6, 1e-8, 1e-10, 0};
      const double delta = deltas[rng.integer(0, 4)] * (rng.integer(0, 1) ? 1 : -1) * S_of(s);
      o = touchingPoint(s, u) + u * delta - r * (3 * ref::boundingRadius(s));
      d = r * rng.logUniform(0.1, 10);
    } else {
      randomRay(rng, s, 1.1, &o, &d);
      if (i % 7 == 0) o = s.pose.position + rng.inBall(ref::boundingRadius(s));  // maybe inside
      if (i % 11 == 0) d = rng.direction() * rng.uniform(0.1, 3);                // anywhere
      if (i % 5 == 0) maxT = rng.uniform(0, 1.5) * ref::dist(o, s.pose.position) / ref::norm(d);
    }

    std::vector<Vec3> world;
    for (const Vec3& p : s.points) world.push_back(ref::toWorld(s, p));
    const BruteHull hull(type == ShapeType::Polytope ? world : std::vector<Vec3>{});
    const RefShape rs{&s, &hull};
    const RefRay e = referenceRay(rs, o, d, maxT);
    const RayCastResult r = cast(s, o, d, maxT, gjkOnly());
    st.perType[ti].add(r);
    const double S = std::max(S_of(s), ref::maxAbs3(o));
    const std::string rp = repro(s, o, d, maxT, r);
    EXPECT_NE(r.status, RayCastStatus::InvalidInput) << rp;
    st.capped += r.status == RayCastStatus::MaxIterations;
    if (std::fabs(e.fmin) <= kTangency * S) {
      // Exactly tangent rays may exhaust the restarts (rounding decides
      // hit or miss there): counted, not failed.
      ++st.ambiguous;
      st.tangentDegenerate += r.status == RayCastStatus::Degenerate;
      continue;
    }
    st.degenerate += r.status == RayCastStatus::Degenerate;
    EXPECT_EQ(r.hit, e.hit) << "reference fmin=" << e.fmin << " t=" << e.t << rp;
    if (!r.hit || !e.hit) continue;
    ++st.checked;
    const double err = std::fabs(r.t - e.t) * ref::norm(d) / S;
    EXPECT_LE(err, kAccuracy) << "t=" << r.t << " ref " << e.t << " cos " << e.cosIn << rp;
    if (e.cosIn >= kGrazingCos) {
      st.perType[ti].worstT = std::max(st.perType[ti].worstT, err);
    } else {
      ++st.grazing;
      st.worstGrazingT = std::max(st.worstGrazingT, err);
    }
    // The reported point is on the surface (within the tolerance), the
    // normal supports the shape there and faces the ray.
    if (e.t > 0 && !r.startedInside) {
      EXPECT_LE(std::fabs(rs.f(r.point)), kAccuracy * S) << rp;
      const double gap = ref::supportValue(s, r.normal) - ref::dot3(r.normal, r.point);
      st.worstNormalGap = std::max(st.worstNormalGap, std::fabs(gap) / S);
      EXPECT_LE(std::fabs(gap), kAccuracy * S) << "normal " << str(r.normal) << rp;
      EXPECT_LT(ref::dot3(r.normal, d), 1e-6 * ref::norm(d)) << rp;
      if (type == ShapeType::Ellipsoid && s.margin == 0) {
        // Unique normal: the gradient (x/a², y/b², z/c²) at the hit.
        const Vec3 l = ref::toLocal(s, r.point);
        const Vec3 g{l.x / (s.radii.x * s.radii.x), l.y / (s.radii.y * s.radii.y), l.z / (s.radii.z * s.radii.z)};
        const double angle = angleBetween(r.normal, ref::matrixOf(s.pose.rotation).mul(g));
        st.worstEllipsoidNormal = std::max(st.worstEllipsoidNormal, angle);
        // The hit point is certain to ε_abs·S = 1e-10·S; over the smallest
        // radius that is an angle — 1e-6 near the origin, more at 1e4.
        const double rMin = std::min({s.radii.x, s.radii.y, s.radii.z});
        EXPECT_LE(angle, 1e-6 + 1e-9 * S / rMin) << rp;
      }
    } else {
      EXPECT_EQ(r.normal, Vec3{}) << rp;
    }
  }
  return st;
}

void printRandom(const char* name, int count, const RandomRayStats& st) {
  for (int ti = 0; ti < 10; ++ti) st.perType[ti].print(collidoscope::shapeTypeName(ref::kAllTypes[ti]));
  std::printf("[ stats    ] %s: %d rays, %d hits checked (%d grazing, cos < 1e-3, worst |Δt|·|r|/S %.2e), %d within "
              "tangency (%d of them degenerate), %d degenerate otherwise, %d capped; worst normal support gap %.2e·S, "
              "worst ellipsoid normal %.2e rad\n",
              name, count, st.checked, st.grazing, st.worstGrazingT, st.ambiguous, st.tangentDegenerate, st.degenerate,
              st.capped,
              st.worstNormalGap, st.worstEllipsoidNormal);
}

TEST(RayCastRandom, AgreesWithBisectionOnReferenceDistance) {
  constexpr int kRays = 3000;
  const RandomRayStats st = randomRays(20240, kRays, RayMode::General);
  printRandom("general", kRays, st);
  EXPECT_GT(st.checked, kRays / 3);
  EXPECT_LT(st.ambiguous, kRays / 100);
  EXPECT_EQ(st.capped, 0);
  EXPECT_EQ(st.degenerate, 0);
}

TEST(RayCastRandom, FarFromTheOrigin) {
  constexpr int kRays = 1000;
  const RandomRayStats st = randomRays(20241, kRays, RayMode::Far);
  printRandom("far (1e4)", kRays, st);
  EXPECT_GT(st.checked, kRays / 3);
  EXPECT_EQ(st.capped, 0);
  EXPECT_EQ(st.degenerate, 0);
}

TEST(RayCastRandom, GrazingRays) {
  constexpr int kRays = 2500;
  const RandomRayStats st = randomRays(20242, kRays, RayMode::Grazing);
  printRandom("grazing (±1e-3 … ±1e-10, 0)", kRays, st);
  EXPECT_GT(st.checked, kRays / 5);
  EXPECT_GT(st.grazing, 10);
  EXPECT_GT(st.ambiguous, kRays / 10);  // the δ = 1e-10 and 0 rays
  EXPECT_EQ(st.capped, 0);
  EXPECT_EQ(st.degenerate, 0);
}

// With a tiny iteration cap the answer is still safe: a miss is reported
// only when proved (and agrees with the reference), and any hit — converged
// or not — lies at or before the true hit (λ is a lower bound).
TEST(RayCastRandom, IterationCapGivesLowerBound) {
  Rng rng(20243);
  int capped = 0;
  for (int i = 0; i < 600; ++i) {
    const ShapeType type = ref::kAllTypes[i % 10];
    Shape s = ref::randomShape(rng, type, rng.uniform(0.3, 2));
    if (type == ShapeType::Point || type == ShapeType::Segment || type == ShapeType::Triangle)
      s.withMargin(rng.uniform(0.05, 0.5));
    s.at(rng.inCube(3), rng.rotation());
    Vec3 o, d;
    randomRay(rng, s, 1.1, &o, &d);
    RayCastSettings settings = gjkOnly();
    settings.maxIterations = rng.integer(1, 6);
    const RayCastResult r = cast(s, o, d, kInf, settings);
    std::vector<Vec3> world;
    for (const Vec3& p : s.points) world.push_back(ref::toWorld(s, p));
    const BruteHull hull(type == ShapeType::Polytope ? world : std::vector<Vec3>{});
    const RefRay e = referenceRay(RefShape{&s, &hull}, o, d, kInf);
    const double S = std::max(S_of(s), ref::maxAbs3(o));
    const std::string rp = repro(s, o, d, kInf, r);
    if (r.status == RayCastStatus::MaxIterations) {
      ++capped;
      EXPECT_TRUE(r.hit) << rp;
      EXPECT_EQ(r.reason, RayReason::IterationCap) << rp;
    }
    if (!r.hit) {
      EXPECT_EQ(r.status, RayCastStatus::Converged) << rp;
      EXPECT_TRUE(!e.hit || std::fabs(e.fmin) <= 1e-9 * S) << "false miss" << rp;
    } else if (e.hit) {
      EXPECT_LE(r.t * ref::norm(d), e.t * ref::norm(d) + kAccuracy * S) << "past the true hit" << rp;
    }
  }
  std::printf("[ stats    ] iteration cap 1..6: %d of 600 capped\n", capped);
  EXPECT_GT(capped, 100);
}

// ---- shape casts ---------------------------------------------------------------

Shape moved(const Shape& s, const Vec3& by) {
  Shape c = s;
  c.pose.position = c.pose.position + by;
  return c;
}

TEST(ShapeCast, SpheresClosedFormAndGjk) {
  Rng rng(301);
  int hits = 0;
  double worst = 0;
  for (int i = 0; i < 400; ++i) {
    const double ra = rng.uniform(0.1, 1.5), rb = rng.uniform(0.1, 1.5);
    Shape a = Shape::sphere(ra), b = Shape::sphere(rb);
    if (i % 5 == 0) b = Shape::point().withMargin(rb);  // a point with a margin is a sphere too
    a.at(rng.inCube(4));
    b.at(a.pose.position + rng.direction() * ((ra + rb) * rng.uniform(1.01, 4)));
    const Vec3 ta = rng.inCube(2);
    // B moves towards A's centre plus an offset, far enough to reach.
    const Vec3 aim = a.pose.position + rng.inBall(ra + rb) * 1.2 + ta;
    const Vec3 tb = (aim - b.pose.position) * rng.uniform(0.3, 2.0);
    // Reference: |(c_B − c_A) + t(t_B − t_A)| = r_A + r_B, long double.
    const Vec3 m = b.pose.position - a.pose.position, rv = tb - ta;
    const bool all[3] = {true, true, true};
    const Interval q = quadric(m, rv, ra + rb, all);
    const bool hitExpected = !q.empty() && q.hi >= 0 && q.lo <= 1;
    const double S = std::max(ref::sceneScale(a, b), ref::maxAbs3(ta) + ref::maxAbs3(tb));
    for (const RayCastSettings& settings : {RayCastSettings{}, gjkOnly()}) {
      const ShapeCastResult r = collidoscope::gjkShapeCast(PosedShape(a), PosedShape(b), ta, tb, settings);
      const std::string rp = "\n  A " + describe(a) + "\n  B " + describe(b) + "\n  tA " + str(ta) + " tB " + str(tb) +
                             " t=" + std::to_string(r.t);
      ASSERT_EQ(r.hit, hitExpected) << rp;
      if (!r.hit) continue;
      ++hits;
      EXPECT_EQ(r.status, RayCastStatus::Converged) << rp;
      EXPECT_FALSE(r.initiallyOverlapping) << rp;
      const double err = std::fabs(r.t - q.lo) * ref::norm(rv) / S;
      worst = std::max(worst, err);
      EXPECT_LE(err, kAccuracy) << rp;
      // Contact geometry at time t: normal along the centre line from A to
      // B, points on the two spheres, coincident.
      const Vec3 ca = a.pose.position + ta * r.t, cb = b.pose.position + tb * r.t;
      EXPECT_LE(angleBetween(r.normal, cb - ca), 1e-9) << rp;
      EXPECT_LE(std::fabs(ref::dist(r.pointA, ca) - ra), kAccuracy * S) << rp;
      EXPECT_LE(std::fabs(ref::dist(r.pointB, cb) - rb), kAccuracy * S) << rp;
      EXPECT_LE(ref::dist(r.pointA, r.pointB), kAccuracy * S) << rp;
    }
  }
  std::printf("[ stats    ] sphere casts: %d hits (both paths), worst |Δt|·|r|/S = %.2e\n", hits, worst);
  EXPECT_GT(hits, 200);
}

// Reference time of impact: sample t ∈ [0, 1] with gjkDistance on the
// translated shapes; the first sample with distance ≤ 0 is refined by
// bisection against the previous one.
struct RefToi {
  bool hit = false;
  double t = 0;
  double minDistance = kInf;  // smallest sampled distance (how clearly it misses)
};

RefToi referenceToi(const Shape& a, const Shape& b, const Vec3& ta, const Vec3& tb, int samples) {
  RefToi out;
  auto distanceAt = [&](double t) {
    return testutil::distance(moved(a, ta * t), moved(b, tb * t)).distance;
  };
  double prev = 0;
  for (int k = 0; k <= samples; ++k) {
    const double t = double(k) / samples;
    const double dist = distanceAt(t);
    out.minDistance = std::min(out.minDistance, dist);
    if (dist <= 0) {
      out.hit = true;
      if (k == 0) return out;
      double lo = prev, hi = t;
      for (int it = 0; it < 100; ++it) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        (distanceAt(mid) > 0 ? lo : hi) = mid;
      }
      out.t = hi;
      return out;
    }
    prev = t;
  }
  return out;
}

TEST(ShapeCast, PairsAgainstSampledGjkDistance) {
  Rng rng(302);
  // Box and polytope pairs, plus rounded and curved partners.
  const ShapeType typesA[] = {ShapeType::Box,    ShapeType::Polytope, ShapeType::Box,      ShapeType::Capsule,
                              ShapeType::Sphere, ShapeType::Cylinder, ShapeType::Ellipsoid, ShapeType::Cone};
  const ShapeType typesB[] = {ShapeType::Box, ShapeType::Box, ShapeType::Polytope, ShapeType::Polytope,
                              ShapeType::Box, ShapeType::Box, ShapeType::Polytope, ShapeType::Capsule};
  constexpr int kPairs = 320;
  int hits = 0, misses = 0, overlapping = 0, skipped = 0, maxIter = 0;
  long sumIter = 0;
  double worst = 0, worstGap = 0;
  for (int i = 0; i < kPairs; ++i) {
    const int k = i % 8;
    Shape a = ref::randomShape(rng, typesA[k], rng.uniform(0.3, 1.5));
    Shape b = ref::randomShape(rng, typesB[k], rng.uniform(0.3, 1.5));
    if (i % 4 == 1) b.withMargin(rng.uniform(0, 0.2));
    a.at(rng.inCube(3), rng.rotation());
    const double reach = ref::boundingRadius(a) + ref::boundingRadius(b);
    b.at(a.pose.position + rng.direction() * (reach * rng.uniform(0.2, 3)), rng.rotation());
    const Vec3 ta = rng.inCube(1.5);
    const Vec3 aim = a.pose.position + ta + rng.inBall(reach * 0.8);
    const Vec3 tb = (aim - b.pose.position) * rng.uniform(0.4, 1.6);
    const RefToi e = referenceToi(a, b, ta, tb, 400);
    const double S = std::max(ref::sceneScale(a, b), ref::maxAbs3(ta) + ref::maxAbs3(tb));
    const ShapeCastResult r = collidoscope::gjkShapeCast(PosedShape(a), PosedShape(b), ta, tb);
    sumIter += r.iterations;
    maxIter = std::max(maxIter, r.iterations);
    const std::string rp = "\n  A " + describe(a) + "\n  B " + describe(b) + "\n  tA " + str(ta) + " tB " + str(tb) +
                           " -> hit " + std::to_string(r.hit) + " t=" + std::to_string(r.t) + " ref " +
                           std::to_string(e.t) + " status " + collidoscope::rayCastStatusName(r.status);
    if (!e.hit && e.minDistance <= 1e-6 * S) {
      ++skipped;  // grazes between samples: no reliable reference
      continue;
    }
    ASSERT_EQ(r.hit, e.hit) << rp;
    if (!r.hit) {
      ++misses;
      continue;
    }
    EXPECT_EQ(r.status, RayCastStatus::Converged) << rp;
    if (e.t == 0) {
      ++overlapping;
      EXPECT_TRUE(r.initiallyOverlapping) << rp;
      EXPECT_EQ(r.t, 0.0) << rp;
      continue;
    }
    ++hits;
    const Vec3 rv = tb - ta;
    const double err = std::fabs(r.t - e.t) * ref::norm(rv) / S;
    worst = std::max(worst, err);
    EXPECT_LE(err, kAccuracy) << rp;
    // Contact at time t: the points lie on the moved shapes and coincide,
    // and the normal (A to B) supports A at pointA and −normal supports B.
    const Shape at = moved(a, ta * r.t), bt = moved(b, tb * r.t);
    EXPECT_LE(ref::dist(r.pointA, r.pointB), kAccuracy * S) << rp;
    const double gapA = ref::supportValue(at, r.normal) - ref::dot3(r.normal, r.pointA);
    const double gapB = ref::supportValue(bt, -r.normal) + ref::dot3(r.normal, r.pointB);
    worstGap = std::max({worstGap, std::fabs(gapA) / S, std::fabs(gapB) / S});
    EXPECT_LE(std::fabs(gapA), kAccuracy * S) << rp;
    EXPECT_LE(std::fabs(gapB), kAccuracy * S) << rp;
    EXPECT_NEAR(ref::norm(r.normal), 1, 1e-12) << rp;
    EXPECT_LT(ref::dot3(r.normal, rv), 0) << rp;  // B approaches A against the normal
  }
  std::printf("[ stats    ] shape casts: %d hits, %d misses, %d overlapping at 0, %d skipped; iter mean %.2f max %d; "
              "worst |Δt|·|r|/S %.2e, worst support gap %.2e·S\n",
              hits, misses, overlapping, skipped, double(sumIter) / kPairs, maxIter, worst, worstGap);
  EXPECT_GT(hits, 100);
  EXPECT_GT(misses, 20);
}

TEST(ShapeCast, ZeroMotionAndInvalid) {
  const Shape a = Shape::box({1, 1, 1});
  Shape b = Shape::box({0.5, 0.5, 0.5});
  b.at({1.2, 0, 0});
  ShapeCastResult r = collidoscope::gjkShapeCast(PosedShape(a), PosedShape(b), {1, 2, 3}, {1, 2, 3});
  EXPECT_TRUE(r.hit);  // overlapping, no relative motion
  EXPECT_TRUE(r.initiallyOverlapping);
  EXPECT_EQ(r.t, 0.0);
  b.at({1.6, 0, 0});
  r = collidoscope::gjkShapeCast(PosedShape(a), PosedShape(b), {1, 2, 3}, {1, 2, 3});
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.status, RayCastStatus::Converged);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  r = collidoscope::gjkShapeCast(PosedShape(a), PosedShape(b), {nan, 0, 0}, {0, 0, 0});
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.status, RayCastStatus::InvalidInput);
}

// A small fast sphere through a 1e-3 wall in one step: a discrete test at
// t = 0 and t = 1 sees nothing; the cast must hit, at the analytic time.
TEST(ShapeCast, NoTunnelling) {
  Shape wall = Shape::box({0.5e-3, 5, 5});
  wall.at({0, 0, 0});
  for (const bool gjkSphere : {false, true}) {
    const RayCastSettings settings = gjkSphere ? gjkOnly() : RayCastSettings{};
    for (const Shape& bulletShape : {Shape::sphere(0.05), Shape::box({0.02, 0.02, 0.02})}) {
      Shape bullet = bulletShape;
      bullet.at({-50, 1.0, -2.0});
      const Vec3 tBullet{100, 0, 0};
      const double rb = bullet.type == ShapeType::Sphere ? 0.05 : 0.02;
      const ShapeCastResult r =
          collidoscope::gjkShapeCast(PosedShape(wall), PosedShape(bullet), Vec3{}, tBullet, settings);
      ASSERT_TRUE(r.hit) << describe(bullet);
      EXPECT_EQ(r.status, RayCastStatus::Converged);
      // Contact when the bullet's front face/point reaches x = −0.5e-3.
      const double tExpected = (50 - rb - 0.5e-3) / 100;
      EXPECT_NEAR(r.t, tExpected, kAccuracy * 50 / 100) << describe(bullet);
            // The wall is A and the bullet B: the normal points from A to B, and
      // B comes from −x, so at contact B is on A's −x side.
      EXPECT_LE(angleBetween(r.normal, {-1, 0, 0}), 1e-12);
      EXPECT_LT(ref::dot3(r.normal, tBullet), 0);
      EXPECT_NEAR(r.pointA.x, -0.5e-3, 1e-12);
      // Laterally past the wall's edge (y = 5 + 0.05 + 1e-3): a miss.
      bullet.at({-50, 5 + rb + 1e-3, -2.0});
      const ShapeCastResult m =
          collidoscope::gjkShapeCast(PosedShape(wall), PosedShape(bullet), Vec3{}, tBullet, settings);
      EXPECT_FALSE(m.hit) << describe(bullet) << " t=" << m.t;
      EXPECT_EQ(m.status, RayCastStatus::Converged);
    }
  }
}

// ---- trace -------------------------------------------------------------------

TEST(RayCastTrace, RecorderGivesNoTraceBitsAndConsistentFrames) {
  Rng rng(401);
  const int lineCount = collidoscope::ray_lines::kCount;
  int updates = 0;
  for (int i = 0; i < 300; ++i) {
    const ShapeType type = ref::kAllTypes[i % 10];
    Shape s = ref::randomShape(rng, type, rng.uniform(0.3, 2));
    if (type == ShapeType::Point || type == ShapeType::Segment || type == ShapeType::Triangle || i % 3 == 0)
      s.withMargin(rng.uniform(0.05, 0.3));
    s.at(rng.inCube(3), rng.rotation());
    Vec3 o, d;
    randomRay(rng, s, 1.1, &o, &d);
    const RayCastSettings settings = i % 2 ? gjkOnly() : RayCastSettings{};
    const RayCastResult plain = collidoscope::gjkRayCast(PosedShape(s), o, d, kInf, settings);
    RayRecorder rec;
    const RayCastResult traced = collidoscope::gjkRayCast(PosedShape(s), o, d, kInf, settings, rec);
    const std::string rp = repro(s, o, d, kInf, plain);
    ASSERT_TRUE(plain.hit == traced.hit && sameBits(plain.t, traced.t) && sameBits(plain.point, traced.point) &&
                sameBits(plain.normal, traced.normal) && plain.iterations == traced.iterations &&
                plain.status == traced.status)
        << "trace changed the result" << rp;
    ASSERT_GE(rec.frames.size(), 2u) << rp;
    const RayFrame& first = rec.frames.front();
    const RayFrame& last = rec.frames.back();
    EXPECT_EQ(first.event, RayEvent::Init) << rp;
    EXPECT_EQ(last.event, RayEvent::Done) << rp;
    EXPECT_EQ(last.hit, plain.hit) << rp;
    EXPECT_EQ(last.status, plain.status) << rp;
    if (plain.hit) {
      EXPECT_TRUE(sameBits(last.lambda, plain.t)) << rp;
    }
    const bool analyticPath = first.reason == RayReason::AnalyticSphere;
    EXPECT_EQ(analyticPath, settings.analyticSpheres && (type == ShapeType::Sphere || type == ShapeType::Point)) << rp;
    double lambda = 0;
    for (const RayFrame& f : rec.frames) {
      EXPECT_GE(f.line, 1) << rp;
      EXPECT_LE(f.line, lineCount) << rp;
      EXPECT_LE(f.simplex.size, 4) << rp;
      if (f.event == RayEvent::Done) continue;
      EXPECT_GE(f.lambda, lambda) << "λ went back" << rp;  // λ never decreases
      lambda = f.lambda;
      // x is on the ray at λ, and every stored w_i is x − p_i, exactly.
      EXPECT_TRUE(sameBits(f.x, o + d * f.lambda)) << rp;
      for (int k = 0; k < f.simplex.size; ++k)
        EXPECT_TRUE(sameBits(f.simplex.vertex[k].w, f.x - (f.simplex.vertex[k].a - f.simplex.vertex[k].b))) << rp;
      if (f.event == RayEvent::Support) {
        // p is extreme in direction v on the core (reference closed forms),
        // w = x_before − p, and the plane is v̂ through p + ρv̂.
        const double hv = ref::localCoreSupportValue(s, ref::dirToLocal(s, f.v)) + ref::dot3(f.v, s.pose.position);
        EXPECT_NEAR(ref::dot3(f.v, f.supportPoint), hv, 1e-12 * S_of(s) * ref::norm(f.v)) << rp;
        EXPECT_TRUE(sameBits(f.vw, collidoscope::dot(f.v, f.w))) << rp;
        EXPECT_NEAR(ref::dot3(f.planeNormal, f.planePoint - f.supportPoint), ref::roundRadius(s), 1e-12) << rp;
        if (f.updated) {
          ++updates;
          EXPECT_GT(f.newLambda, f.oldLambda) << rp;
          EXPECT_GT(f.vw, f.threshold) << rp;
          EXPECT_LT(f.vr, 0) << rp;
          EXPECT_EQ(f.line, collidoscope::ray_lines::kMoveX) << rp;
          // The new x lies on the supporting plane (within rounding).
          EXPECT_NEAR(ref::dot3(f.planeNormal, f.x - f.planePoint), 0, 1e-12 * S_of(s)) << rp;
        }
      }
    }
  }
  EXPECT_GT(updates, 300);
}

TEST(RayCastTrace, ShapeCastRecorderGivesNoTraceBits) {
  Rng rng(402);
  int frames = 0;
  for (int i = 0; i < 200; ++i) {
    Shape a = ref::randomShape(rng, ref::kAllTypes[rng.integer(1, 9)], rng.uniform(0.3, 1.5));
    Shape b = ref::randomShape(rng, ref::kAllTypes[rng.integer(1, 9)], rng.uniform(0.3, 1.5));
    if (i % 3 == 0) b.withMargin(rng.uniform(0, 0.2));
    a.at(rng.inCube(3), rng.rotation());
    b.at(a.pose.position + rng.direction() * (ref::boundingRadius(a) + ref::boundingRadius(b)) * rng.uniform(0.5, 2),
         rng.rotation());
    const Vec3 ta = rng.inCube(1), tb = (a.pose.position - b.pose.position) * rng.uniform(0, 2) + rng.inCube(0.5);
    const RayCastSettings settings = i % 2 ? gjkOnly() : RayCastSettings{};
    const ShapeCastResult plain = collidoscope::gjkShapeCast(PosedShape(a), PosedShape(b), ta, tb, settings);
    RayRecorder rec;
    const ShapeCastResult traced = collidoscope::gjkShapeCast(PosedShape(a), PosedShape(b), ta, tb, settings, rec);
    ASSERT_TRUE(plain.hit == traced.hit && sameBits(plain.t, traced.t) && sameBits(plain.normal, traced.normal) &&
                sameBits(plain.pointA, traced.pointA) && sameBits(plain.pointB, traced.pointB) &&
                plain.iterations == traced.iterations && plain.status == traced.status)
        << describe(a) << " " << describe(b);
    ASSERT_GE(rec.frames.size(), 2u);
    EXPECT_EQ(rec.frames.front().event, RayEvent::Init);
    EXPECT_EQ(rec.frames.back().event, RayEvent::Done);
    EXPECT_EQ(rec.frames.back().hit, plain.hit);
    for (const RayFrame& f : rec.frames) {
      // Shape cast: x = 0 + λ(t_B − t_A) (value equality: 0 + (−0) = +0).
      if (f.event != RayEvent::Done) {
        EXPECT_EQ(f.x, (tb - ta) * f.lambda);
      }
      ++frames;
    }
  }
  EXPECT_GT(frames, 1000);
}

}  // namespace

// A point grazing the margin of a long segment: the segment, 1.4e6 long with
// a margin of 10, lies (after a half turn about (1, 1, 0)/√2, to rounding)
// in the plane z = 10; the point moves 1e6 along −y relative to it in the
// plane z = 0 and meets the margin's bottom at a single time, where the
// normal is −z, perpendicular to the motion (fuzz_pair's input). v's
// direction carries GJK's tolerance at this scale (~1e-10·S/ρ rad): the
// normal must still face the motion (B cannot be moving away from A at the
// first touch; it leaned 2.7e-8 rad past), as the closed form's does.
TEST(ShapeCast, AGrazingTouchsNormalFacesTheMotion) {
  Shape a = Shape::polytope({{-8, 5.3725490196067067, 0}, {-1e6, -1e6, 0}});
  a.withMargin(10);
  a.at({10, 10, 10}, Quat{0.70711757086208316, 0.7070959913463708, -1.4142351417241664e-10, 0});
  Shape b = Shape::triangle({0, 0, 0}, {0, 0, 0}, {0, 0, 0});
  b.at({0, -3.0000000000000004e-09, 0});
  const Vec3 ta{-8, 1e6, -8}, tb{-8, -8, -8};
  const ShapeCastResult r = collidoscope::gjkShapeCast(PosedShape(a), PosedShape(b), ta, tb);
  ASSERT_TRUE(r.hit);
  EXPECT_FALSE(r.initiallyOverlapping);
  EXPECT_LE(dot(r.normal, tb - ta), 0.0) << "normal " << r.normal.x << " " << r.normal.y << " " << r.normal.z;
  EXPECT_LT(length(r.normal - Vec3{0, 0, -1}), 1e-4);
}
