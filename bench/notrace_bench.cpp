// One benchmark translation unit per algorithm (-DNTB_ALGO=0..7, see
// ntb::Algo), each compiled three times (bench/notrace_api.h): against the
// library headers as shipped, against a copy without the trace hooks, and
// against a copy without any trace-only code. One algorithm per object keeps
// the compiler's unit-wide inlining decisions of one algorithm independent of
// the others, so the machine code of the three builds can be compared
// function by function (bench/scaling.mjs runs objdump on the objects); every
// query goes through an out-of-line query* function.
//
// Inputs are generated here from a seed, by the same code in every copy, so
// they are identical; inputHash() and resultHash() let the driver check that
// inputs and answers agree bit for bit.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "collidoscope/chung_wang.h"
#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/hull.h"
#include "collidoscope/raycast.h"
#include "collidoscope/sat.h"
#include "collidoscope/support.h"
#include "notrace_api.h"
#include "rng.h"

#ifndef NTB_ALGO
#error "compile with -DNTB_ALGO=<0..7> (ntb::Algo)"
#endif

namespace collidoscope {
namespace NTB_NS {

// ---------------------------------------------------------------- the query

#if NTB_ALGO == 0
__attribute__((noinline)) DistanceResult queryGjkDistance(const PosedShape& a, const PosedShape& b) {
  return gjkDistance(a, b);
}
#elif NTB_ALGO == 1
__attribute__((noinline)) IntersectResult queryGjkIntersect(const PosedShape& a, const PosedShape& b) {
  return gjkIntersect(a, b);
}
#elif NTB_ALGO == 2
__attribute__((noinline)) PenetrationResult queryPenetration(const PosedShape& a, const PosedShape& b) {
  return penetration(a, b);
}
#elif NTB_ALGO == 3
__attribute__((noinline)) RayCastResult queryRayCast(const PosedShape& s, const Vec3& origin, const Vec3& direction,
                                                     double maxT) {
  return gjkRayCast(s, origin, direction, maxT);
}
#elif NTB_ALGO == 4
__attribute__((noinline)) ChungWangResult queryChungWang(const PosedShape& a, const PosedShape& b) {
  return chungWangIntersect(a, b);
}
#elif NTB_ALGO == 5
__attribute__((noinline)) bool queryHull(const std::vector<Vec3>& points, ConvexHull* out) {
  HullError err;
  return buildHull(points, out, &err);
}
#elif NTB_ALGO == 6
__attribute__((noinline)) SatResult querySatBoxes(const Shape& a, const Shape& b) { return satBoxes(a, b); }
#elif NTB_ALGO == 7
__attribute__((noinline)) SatResult querySatHulls(const SatHull& a, const Transform& pa, const SatHull& b,
                                                  const Transform& pb) {
  return satHulls(a, pa, b, pb);
}
#endif

// ---------------------------------------------------------------- inputs

namespace {

using bench::Rng;  // bench/rng.h

struct Hash {
  std::uint64_t h = 1469598103934665603ull;
  void bytes(const void* p, std::size_t n) {
    const unsigned char* c = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 1099511628211ull;
  }
  void num(double d) { bytes(&d, sizeof d); }
  void vec(const Vec3& v) { num(v.x), num(v.y), num(v.z); }
};

constexpr int kShapeKinds = 9;

// Sizes about 1: spheres, boxes, capsules, cylinders, cones, ellipsoids,
// polytopes of 24 points (scanned), of 200 points (hill climbing over the
// hull), and boxes with a margin.
[[maybe_unused]] Shape randomShape(Rng& rng, int kind) {
  const double r = rng.uniform(0.4, 1), h = rng.uniform(0.4, 1), z = rng.uniform(0.4, 1);
  switch (kind) {
    case 0: return Shape::sphere(r);
    case 1: return Shape::box({r, h, z});
    case 2: return Shape::capsule(r * 0.5, h);
    case 3: return Shape::cylinder(r, h);
    case 4: return Shape::cone(r, h);
    case 5: return Shape::ellipsoid({r, h, z});
    case 6:
    case 7: {
      std::vector<Vec3> pts;
      const int n = kind == 6 ? 24 : 200;
      for (int i = 0; i < n; ++i) pts.push_back(rng.direction() * rng.uniform(0.5, 1));
      return Shape::polytope(pts);
    }
    default: return Shape::box({r * 0.7, h * 0.7, z * 0.7}).withMargin(0.2);
  }
}

void hashShape(Hash& hh, const Shape& s) {
  hh.num(static_cast<double>(s.type));
  hh.num(s.radius), hh.num(s.halfHeight), hh.vec(s.halfExtents), hh.vec(s.radii), hh.num(s.margin);
  for (const Vec3& p : s.points) hh.vec(p);
  hh.vec(s.pose.position);
  hh.num(s.pose.rotation.x), hh.num(s.pose.rotation.y), hh.num(s.pose.rotation.z), hh.num(s.pose.rotation.w);
}

}  // namespace

struct Suite {
  int algo = 0;
  std::vector<Shape> a, b;
  std::vector<Vec3> origin, direction;
  std::vector<std::vector<Vec3>> clouds;
  std::vector<SatHull> ha, hb;
  std::vector<double> out;  // per query: a fixed number of result words
  int words = 0;
  int count = 0;
  std::uint64_t inHash = 0;
};

Suite* makeSuite(std::uint64_t seed, int count) {
  constexpr int algo = NTB_ALGO;
  Suite* s = new Suite;
  s->algo = algo;
  Rng rng{seed * 0x9E3779B97F4A7C15ull + 12345};
  Hash hh;
  auto pair = [&](double lo, double hi, int kindA, int kindB) {
    Shape a = randomShape(rng, kindA), b = randomShape(rng, kindB);
    a.at(Vec3{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)}, rng.rotation());
    b.at(a.pose.position + rng.direction() * rng.uniform(lo, hi), rng.rotation());
    s->a.push_back(a);
    s->b.push_back(b);
  };
  (void)pair;
  switch (algo) {
#if NTB_ALGO == 0 || NTB_ALGO == 1 || NTB_ALGO == 4
    case ntb::kGjkDistance:
    case ntb::kGjkIntersect:
    case ntb::kChungWang:
      // Centres 0–3 apart: about half overlap.
      for (int i = 0; i < count; ++i) pair(0, 3, i % kShapeKinds, (i / kShapeKinds) % kShapeKinds);
      s->words = algo == ntb::kGjkDistance ? 8 : (algo == ntb::kChungWang ? 6 : 2);
      break;
#elif NTB_ALGO == 2
    case ntb::kEpa:
      // Overlapping pairs only (centres 0–1 apart, kept when GJK says so).
      while (static_cast<int>(s->a.size()) < count) {
        const int i = static_cast<int>(s->a.size());
        pair(0, 1, i % kShapeKinds, (i / kShapeKinds) % kShapeKinds);
        if (!gjkIntersect(PosedShape(s->a.back()), PosedShape(s->b.back())).intersecting) {
          s->a.pop_back();
          s->b.pop_back();
        }
      }
      s->words = 9;
      break;
#elif NTB_ALGO == 3
    case ntb::kRayCast:
      // Rays from 3 units away aimed near the centre (most hit, some miss).
      for (int i = 0; i < count; ++i) {
        Shape a = randomShape(rng, i % kShapeKinds);
        a.at(Vec3{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)}, rng.rotation());
        const Vec3 o = a.pose.position + rng.direction() * 3.0;
        const Vec3 aim = a.pose.position + rng.direction() * rng.uniform(0, 1.2);
        s->a.push_back(a);
        s->origin.push_back(o);
        s->direction.push_back(aim - o);
      }
      s->words = 9;
      break;
#elif NTB_ALGO == 5
    case ntb::kHull:
      // Point clouds: in a ball, on a sphere, on a box's surface grid
      // (coplanar faces), flat (a polygon) and on a line (a segment).
      for (int i = 0; i < count; ++i) {
        std::vector<Vec3> pts;
        switch (i % 6) {
          case 0:
          case 1:
            for (int k = 0; k < 1000; ++k) pts.push_back(rng.direction() * std::cbrt(rng.uniform()));
            break;
          case 2:
            for (int k = 0; k < 300; ++k) pts.push_back(rng.direction());
            break;
          case 3:
            for (int x = 0; x < 8; ++x)
              for (int y = 0; y < 8; ++y)
                for (int z = 0; z < 8; ++z)
                  if (x == 0 || x == 7 || y == 0 || y == 7 || z == 0 || z == 7) pts.push_back(Vec3{x * 0.25, y * 0.25, z * 0.25});
            break;
          case 4:
            for (int k = 0; k < 200; ++k) pts.push_back(Vec3{rng.uniform(-1, 1), rng.uniform(-1, 1), 0.5});
            break;
          default:
            for (int k = 0; k < 100; ++k) {
              const double t = rng.uniform(-1, 1);
              pts.push_back(Vec3{t, 2 * t, -t});
            }
        }
        s->clouds.push_back(pts);
      }
      s->words = 4;
      break;
#elif NTB_ALGO == 6
    case ntb::kSatBoxes:
      for (int i = 0; i < count; ++i) pair(0, 2.5, 1, 1);
      s->words = 6;
      break;
#elif NTB_ALGO == 7
    case ntb::kSatHulls:
      for (int i = 0; i < count; ++i) {
        pair(0, 2.5, 6, i % 2 == 0 ? 6 : 1);
        SatHull x, y;
        buildSatHull(s->a.back(), &x);
        buildSatHull(s->b.back(), &y);
        s->ha.push_back(std::move(x));
        s->hb.push_back(std::move(y));
      }
      s->words = 6;
      break;
#endif
    default:
      break;
  }
  for (const Shape& x : s->a) hashShape(hh, x);
  for (const Shape& x : s->b) hashShape(hh, x);
  for (const Vec3& v : s->origin) hh.vec(v);
  for (const Vec3& v : s->direction) hh.vec(v);
  for (const auto& c : s->clouds)
    for (const Vec3& v : c) hh.vec(v);
  s->count = algo == ntb::kHull ? static_cast<int>(s->clouds.size()) : static_cast<int>(s->a.size());
  s->out.assign(static_cast<std::size_t>(s->count) * static_cast<std::size_t>(s->words), 0.0);
  s->inHash = hh.h;
  return s;
}

void freeSuite(Suite* s) { delete s; }

ntb::RunStats run(Suite* s, int passes) {
  ntb::RunStats st;
  const std::size_t n = static_cast<std::size_t>(s->count);
  const std::size_t k = static_cast<std::size_t>(s->words);
  double* out = s->out.data();
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t i = 0; i < n; ++i) {
      double* o = out + i * k;
      (void)o;
      switch (NTB_ALGO) {
#if NTB_ALGO == 0
        case ntb::kGjkDistance: {
          const DistanceResult r = queryGjkDistance(PosedShape(s->a[i]), PosedShape(s->b[i]));
          o[0] = r.distance, o[1] = r.pointA.x, o[2] = r.pointA.y, o[3] = r.pointA.z;
          o[4] = r.pointB.x, o[5] = r.pointB.y, o[6] = r.pointB.z, o[7] = static_cast<double>(r.status);
          st.iterations += r.iterations;
          break;
        }
#elif NTB_ALGO == 1
        case ntb::kGjkIntersect: {
          const IntersectResult r = queryGjkIntersect(PosedShape(s->a[i]), PosedShape(s->b[i]));
          o[0] = r.intersecting, o[1] = static_cast<double>(r.status);
          st.iterations += r.iterations;
          break;
        }
#elif NTB_ALGO == 2
        case ntb::kEpa: {
          const PenetrationResult r = queryPenetration(PosedShape(s->a[i]), PosedShape(s->b[i]));
          o[0] = r.depth, o[1] = r.normal.x, o[2] = r.normal.y, o[3] = r.normal.z;
          o[4] = r.pointA.x, o[5] = r.pointA.y, o[6] = r.pointA.z, o[7] = r.pointB.x;
          o[8] = static_cast<double>(r.status) + 8 * r.intersecting;
          st.iterations += r.iterations;
          break;
        }
#elif NTB_ALGO == 3
        case ntb::kRayCast: {
          const RayCastResult r = queryRayCast(PosedShape(s->a[i]), s->origin[i], s->direction[i], 10.0);
          o[0] = r.hit, o[1] = r.t, o[2] = r.point.x, o[3] = r.point.y, o[4] = r.point.z;
          o[5] = r.normal.x, o[6] = r.normal.y, o[7] = r.normal.z, o[8] = static_cast<double>(r.status);
          st.iterations += r.iterations;
          break;
        }
#elif NTB_ALGO == 4
        case ntb::kChungWang: {
          const ChungWangResult r = queryChungWang(PosedShape(s->a[i]), PosedShape(s->b[i]));
          o[0] = r.intersecting, o[1] = r.gap, o[2] = r.separatingAxis.x, o[3] = r.separatingAxis.y;
          o[4] = r.separatingAxis.z, o[5] = static_cast<double>(r.status);
          st.iterations += r.iterations;
          break;
        }
#elif NTB_ALGO == 5
        case ntb::kHull: {
          ConvexHull h;
          queryHull(s->clouds[i], &h);
          Hash hh;
          for (int v : h.inputIndex) hh.num(v);
          for (const auto& t : h.triangles) hh.num(t[0]), hh.num(t[1]), hh.num(t[2]);
          o[0] = static_cast<double>(h.kind), o[1] = static_cast<double>(h.vertices.size());
          o[2] = static_cast<double>(hh.h >> 11), o[3] = h.tolerance;
          st.iterations += static_cast<std::int64_t>(h.vertices.size());
          break;
        }
#elif NTB_ALGO == 6 || NTB_ALGO == 7
        case ntb::kSatBoxes:
        case ntb::kSatHulls: {
#if NTB_ALGO == 6
          const SatResult r = querySatBoxes(s->a[i], s->b[i]);
#else
          const SatResult r = querySatHulls(s->ha[i], s->a[i].pose, s->hb[i], s->b[i].pose);
#endif
          o[0] = r.intersecting, o[1] = r.depth, o[2] = r.axis.x, o[3] = r.axis.y, o[4] = r.axis.z;
          o[5] = static_cast<double>(r.status);
          st.iterations += r.axesTested;
          break;
        }
#endif
        default:
          break;
      }
    }
    st.queries += static_cast<std::int64_t>(n);
  }
  return st;
}

std::uint64_t inputHash(const Suite* s) { return s->inHash; }

std::uint64_t resultHash(const Suite* s) {
  Hash hh;
  hh.bytes(s->out.data(), s->out.size() * sizeof(double));
  return hh.h;
}

int queryCount(const Suite* s) { return s->count; }

}  // namespace NTB_NS
}  // namespace collidoscope
