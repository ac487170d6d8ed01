// Independent references for penetration depth (EPA tests).
//
// Nothing here calls the library's geometry: support *values* come from
// reference.h's closed forms (own rotation matrix), vertices are posed with
// that matrix, and the depth is found by two methods that share nothing
// with EPA:
//
//   * satDepth — polytopal cores. With C = core(A) − core(B), the
//     penetration depth of the cores is min over unit n of h_C(n),
//     h_C(n) = h_A(n) + h_B(−n). When the origin is inside C that minimum is
//     reached at a facet normal of C, and the facets of a Minkowski
//     difference of polytopes have the normals of A's faces, of B's faces,
//     and the cross products of an edge of A with an edge of B (the
//     separating-axis theorem). We take a superset: every triple of A's
//     (resp. B's) points that spans a supporting plane, every pair of points
//     that lies in such a plane (a superset of the hull edges), both signs.
//     The overlap along *any* unit axis is ≥ the depth, so the minimum over
//     a superset of the facet normals is exactly the depth.
//     Rounded shapes (sphere, capsule, margin): depth = core depth + r_A + r_B
//     when the cores overlap; when they do not, r_A + r_B − dist(cores), the
//     core distance by brute force over vertex/edge/triangle pairs.
//   * numericDepth — any shapes. min over unit n of f(n) = h_A(n) + h_B(−n)
//     by a Fibonacci grid then pattern search on the sphere from the best
//     few grid points. Every f(n) is ≥ the true depth, so the result is an
//     upper bound that converges to it.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "collidoscope/epa.h"
#include "gjk_helpers.h"
#include "reference.h"

namespace eparef {

using collidoscope::Shape;
using collidoscope::ShapeType;
using collidoscope::Vec3;
using ref::cross3;
using ref::dot3;
using ref::norm;

// A posed shape's support value with the rotation matrix built once.
class SupportFn {
 public:
  explicit SupportFn(const Shape& s) : s_(&s), m_(ref::matrixOf(s.pose.rotation)), r_(ref::roundRadius(s)) {}
  // h_S(u) for unit u (full shape: core + radius).
  double operator()(const Vec3& u) const { return core(u) + r_; }
  // h_core(u) for unit u.
  double core(const Vec3& u) const {
    return ref::localCoreSupportValue(*s_, m_.mulT(u)) + dot3(u, s_->pose.position);
  }
  double radius() const { return r_; }
  const Shape& shape() const { return *s_; }

 private:
  const Shape* s_;
  ref::Mat3 m_;
  double r_;
};

// f(n) = h_A(n) + h_B(−n): how far B must move along unit n to clear A.
inline double overlapAlong(const Shape& a, const Shape& b, const Vec3& n) {
  return ref::supportValue(a, n) + ref::supportValue(b, n * -1.0);
}

inline bool polytopalCore(const Shape& s) {
  switch (s.type) {
    case ShapeType::Cylinder:
    case ShapeType::Cone:
    case ShapeType::Ellipsoid:
      return false;
    default:
      return true;
  }
}

// World-space vertices of a polytopal core, posed with reference.h's matrix.
inline std::vector<Vec3> worldCoreVertices(const Shape& s) {
  std::vector<Vec3> local;
  switch (s.type) {
    case ShapeType::Point:
    case ShapeType::Sphere:
      local = {Vec3{}};
      break;
    case ShapeType::Box: {
      const Vec3 h = s.halfExtents;
      for (int i = 0; i < 8; ++i) local.push_back({i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z});
      break;
    }
    case ShapeType::Capsule:
      local = {Vec3{0, s.halfHeight, 0}, Vec3{0, -s.halfHeight, 0}};
      break;
    default:
      local = s.points;
  }
  std::vector<Vec3> out;
  for (const Vec3& p : local) out.push_back(ref::toWorld(s, p));
  return out;
}

// Face normals (unit, both orientations of every supporting plane through
// three points) and edge directions (pairs of points lying on a common
// supporting plane) of conv(pts), by brute force. Inclusive tolerances: an
// extra plane or edge only adds an axis, never changes the minimum.
struct HullFeatures {
  std::vector<Vec3> normals;
  std::vector<Vec3> edges;
  int dimension = 0;  // affine dimension of the point set (0..3)
};

inline HullFeatures hullFeatures(const std::vector<Vec3>& pts) {
  HullFeatures out;
  const std::size_t n = pts.size();
  double size = 0;
  for (const Vec3& p : pts)
    for (const Vec3& q : pts) size = std::max(size, ref::dist(p, q));
  const double eps = 1e-12 * std::max(size, 1e-300);
  // Dimension.
  if (n >= 2 && size > eps) out.dimension = 1;
  std::vector<char> isEdge(n * n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k) {
        const Vec3 c = cross3(pts[j] - pts[i], pts[k] - pts[i]);
        const double cn = norm(c);
        if (!(cn > 1e-12 * size * size)) continue;
        out.dimension = std::max(out.dimension, 2);
        const Vec3 u = c / cn;
        const double d0 = dot3(u, pts[i]);
        double hi = 0, lo = 0;
        for (const Vec3& p : pts) {
          hi = std::max(hi, dot3(u, p) - d0);
          lo = std::min(lo, dot3(u, p) - d0);
        }
        if (hi - lo > eps) out.dimension = 3;
        const bool supporting = hi <= eps || lo >= -eps;
        if (!supporting) continue;
        out.normals.push_back(u);
        out.normals.push_back(u * -1.0);
        // Every pair of points on this plane: a superset of its edges.
        for (std::size_t a = 0; a < n; ++a)
          for (std::size_t b = a + 1; b < n; ++b)
            if (std::fabs(dot3(u, pts[a]) - d0) <= eps && std::fabs(dot3(u, pts[b]) - d0) <= eps)
              isEdge[a * n + b] = 1;
      }
  if (out.dimension <= 1) {  // a segment (or point): its one "edge"
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b)
        if (ref::dist(pts[a], pts[b]) > eps) isEdge[a * n + b] = 1;
  }
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      if (isEdge[a * n + b] && ref::dist(pts[a], pts[b]) > eps) out.edges.push_back(ref::unit(pts[b] - pts[a]));
  return out;
}

// Distance between conv(P) and conv(Q) with the closest points, by brute
// force over point-pair segments and point-triangle pairs (valid when they
// are disjoint; 0 or tiny when they touch or overlap).
inline double hullDistance(const std::vector<Vec3>& P, const std::vector<Vec3>& Q, Vec3* onP, Vec3* onQ) {
  double best = std::numeric_limits<double>::infinity();
  Vec3 bp, bq;
  auto take = [&](const Vec3& p, const Vec3& q) {
    const double d = ref::dist(p, q);
    if (d < best) {
      best = d;
      bp = p;
      bq = q;
    }
  };
  for (std::size_t i = 0; i < P.size(); ++i)
    for (std::size_t j = i; j < P.size(); ++j)
      for (std::size_t k = 0; k < Q.size(); ++k)
        for (std::size_t l = k; l < Q.size(); ++l) {
          Vec3 p, q;
          ref::segmentSegmentDistance(P[i], P[j], Q[k], Q[l], &p, &q);
          take(p, q);
        }
  for (const Vec3& p : P)
    for (std::size_t i = 0; i < Q.size(); ++i)
      for (std::size_t j = i + 1; j < Q.size(); ++j)
        for (std::size_t k = j + 1; k < Q.size(); ++k) take(p, ref::closestOnTriangle(p, Q[i], Q[j], Q[k]));
  for (const Vec3& q : Q)
    for (std::size_t i = 0; i < P.size(); ++i)
      for (std::size_t j = i + 1; j < P.size(); ++j)
        for (std::size_t k = j + 1; k < P.size(); ++k) take(ref::closestOnTriangle(q, P[i], P[j], P[k]), q);
  if (onP) *onP = bp;
  if (onQ) *onQ = bq;
  return best;
}

struct Reference {
  bool overlapping = false;  // the full shapes overlap (depth > 0)
  double depth = 0;          // max(0, min_n f(n)) for overlapping shapes
  double value = 0;          // min_n f(n) itself (negative: −distance when apart, SAT only)
  Vec3 normal;               // a minimizing direction
  bool uniqueNormal = false; // no other direction (angle > 1e-6) is within tieTol of the minimum
  bool coresApart = false;   // SAT: depth came from the core distance
  double coreDistance = 0;   // SAT: distance between the cores when apart
};

// Exact (up to rounding) penetration depth of two shapes with polytopal
// cores. tieTol: overlaps within tieTol of the minimum count as ties.
inline Reference satDepth(const Shape& a, const Shape& b, double tieTol) {
  Reference out;
  const std::vector<Vec3> va = worldCoreVertices(a), vb = worldCoreVertices(b);
  const HullFeatures fa = hullFeatures(va), fb = hullFeatures(vb);
  const double r = ref::roundRadius(a) + ref::roundRadius(b);
  const SupportFn ha(a), hb(b);
  auto coreOverlap = [&](const Vec3& n) { return ha.core(n) + hb.core(n * -1.0); };

  // Does C = core(A) − core(B) have volume? Its dimension is that of the
  // span of A's and B's directions together.
  std::vector<Vec3> dirs;
  for (std::size_t i = 1; i < va.size(); ++i) dirs.push_back(va[i] - va[0]);
  for (std::size_t i = 1; i < vb.size(); ++i) dirs.push_back(vb[i] - vb[0]);
  double size = 1e-300;
  for (const Vec3& d : dirs) size = std::max(size, norm(d));
  bool fullDim = false;
  for (std::size_t i = 0; i < dirs.size() && !fullDim; ++i)
    for (std::size_t j = i + 1; j < dirs.size() && !fullDim; ++j)
      for (std::size_t k = j + 1; k < dirs.size() && !fullDim; ++k)
        fullDim = std::fabs(dot3(dirs[i], cross3(dirs[j], dirs[k]))) > 1e-9 * size * size * size;

  std::vector<Vec3> axes = fa.normals;
  axes.insert(axes.end(), fb.normals.begin(), fb.normals.end());
  for (const Vec3& e : fa.edges)
    for (const Vec3& g : fb.edges) {
      const Vec3 c = cross3(e, g);
      const double cn = norm(c);
      if (cn > 1e-14) {
        axes.push_back(c / cn);
        axes.push_back(c / -cn);
      }
    }
  double best = std::numeric_limits<double>::infinity();
  Vec3 bestAxis{0, 1, 0};
  for (const Vec3& u : axes) {
    const double o = coreOverlap(u);
    if (o < best) {
      best = o;
      bestAxis = u;
    }
  }
  const bool coresOverlap = fullDim && best > 0;
  if (coresOverlap) {
    out.overlapping = true;
    out.value = best + r;
    out.depth = out.value;
    out.normal = bestAxis;
    out.uniqueNormal = true;
    for (const Vec3& u : axes)
      if (coreOverlap(u) <= best + tieTol && norm(u - bestAxis) > 1e-6) out.uniqueNormal = false;
    return out;
  }
  // Cores apart (or touching): the rounded shapes overlap by r − distance.
  Vec3 pa, pb;
  const double d = hullDistance(va, vb, &pa, &pb);
  out.coresApart = true;
  out.coreDistance = d;
  out.value = r - d;
  out.overlapping = out.value > 0;
  out.depth = std::max(0.0, out.value);
  if (d > 0) {
    out.normal = (pb - pa) / d;
    // The closest pair is unique unless parallel features face each other;
    // the normal of the rounded contact is (pb − pa)/d either way (any
    // closest pair gives the same difference vector).
    out.uniqueNormal = true;
  }
  return out;
}

// Fibonacci lattice of n nearly uniform unit vectors.
inline std::vector<Vec3> fibonacciSphere(int n) {
  std::vector<Vec3> out;
  out.reserve(static_cast<std::size_t>(n));
  const double golden = M_PI * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const double y = 1.0 - (2.0 * i + 1.0) / n;
    const double rr = std::sqrt(std::max(0.0, 1.0 - y * y));
    const double phi = golden * i;
    out.push_back({rr * std::cos(phi), y, rr * std::sin(phi)});
  }
  return out;
}

// Orthonormal tangent basis at unit n.
inline void tangentBasis(const Vec3& n, Vec3* t1, Vec3* t2) {
  const Vec3 ax = std::fabs(n.x) < 0.6 ? Vec3{1, 0, 0} : (std::fabs(n.y) < 0.6 ? Vec3{0, 1, 0} : Vec3{0, 0, 1});
  *t1 = ref::unit(cross3(n, ax));
  *t2 = cross3(n, *t1);
}

// Support point of a core in local coordinates (closed forms, own code;
// ties broken towards +): the gradient of h_core at u.
inline Vec3 localCoreSupportPoint(const Shape& s, const Vec3& u) {
  auto sgn = [](double x) { return x >= 0 ? 1.0 : -1.0; };
  switch (s.type) {
    case ShapeType::Point:
    case ShapeType::Sphere:
      return {};
    case ShapeType::Box:
      return {sgn(u.x) * s.halfExtents.x, sgn(u.y) * s.halfExtents.y, sgn(u.z) * s.halfExtents.z};
    case ShapeType::Capsule:
      return {0, sgn(u.y) * s.halfHeight, 0};
    case ShapeType::Cylinder:
    case ShapeType::Cone: {
      const double rho = std::hypot(u.x, u.z);
      const Vec3 rim = rho > 0 ? Vec3{s.radius * u.x / rho, 0, s.radius * u.z / rho} : Vec3{};
      if (s.type == ShapeType::Cylinder) return rim + Vec3{0, sgn(u.y) * s.halfHeight, 0};
      const Vec3 apex{0, s.halfHeight, 0}, base = rim + Vec3{0, -s.halfHeight, 0};
      return dot3(u, apex) >= dot3(u, base) ? apex : base;
    }
    case ShapeType::Ellipsoid: {
      const Vec3 r2u{s.radii.x * s.radii.x * u.x, s.radii.y * s.radii.y * u.y, s.radii.z * s.radii.z * u.z};
      const double den = std::sqrt(dot3(r2u, u));
      return den > 0 ? r2u / den : Vec3{};
    }
    default: {
      Vec3 best = s.points[0];
      for (const Vec3& p : s.points)
        if (dot3(p, u) > dot3(best, u)) best = p;
      return best;
    }
  }
}

// Min-norm point of the convex hull of 2D points: hull by Andrew's
// monotone chain, then 0 if the origin is inside, else the nearest point of
// the hull's edges.
inline std::array<double, 2> minNormHull2(std::vector<std::array<double, 2>> g) {
  using P = std::array<double, 2>;
  std::sort(g.begin(), g.end());
  g.erase(std::unique(g.begin(), g.end()), g.end());
  if (g.size() == 1) return g[0];
  auto crossO = [](const P& o, const P& a, const P& b) {
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  };
  std::vector<P> h(2 * g.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    while (k >= 2 && crossO(h[k - 2], h[k - 1], g[i]) <= 0) --k;
    h[k++] = g[i];
  }
  for (std::size_t i = g.size() - 1, t = k + 1; i-- > 0;) {
    while (k >= t && crossO(h[k - 2], h[k - 1], g[i]) <= 0) --k;
    h[k++] = g[i];
  }
  h.resize(k - 1);  // counter-clockwise, first point not repeated
  const P o{0, 0};
  bool inside = h.size() >= 3;
  for (std::size_t i = 0; i < h.size() && inside; ++i) inside = crossO(h[i], h[(i + 1) % h.size()], o) >= 0;
  if (inside) return o;
  P best = h[0];
  auto n2 = [](const P& p) { return p[0] * p[0] + p[1] * p[1]; };
  for (std::size_t i = 0; i < h.size(); ++i) {
    const P& a = h[i];
    const P& b = h[(i + 1) % h.size()];
    const double ex = b[0] - a[0], ey = b[1] - a[1], ee = ex * ex + ey * ey;
    const double t = ee > 0 ? std::clamp(-(a[0] * ex + a[1] * ey) / ee, 0.0, 1.0) : 0.0;
    const P p{a[0] + t * ex, a[1] + t * ey};
    if (n2(p) < n2(best)) best = p;
  }
  return best;
}

// min over unit n of f(n) = h_A(n) + h_B(−n), numerically:
//  1. a Fibonacci grid of `gridPoints` directions;
//  2. from the `starts` best grid points (at least 0.15 rad apart) a short
//     run of `screenSteps`, then `maxSteps` more from the `finalists` best
//     (narrow basins — a flat triangle's, a sharp edge crossing's — have
//     high grid values but win after a few steps). The local method is gradient
//     sampling (Burke, Lewis, Overton 2005), which handles the ridges and
//     kinks f has wherever a support point is not unique (box edges,
//     cylinder rims, cone apex): the gradient of the homogeneous h_C at m
//     is the support point s_C(m), projected on the tangent plane. Sample
//     16 gradients within ε of n (n and three rings), take the min-norm point g of their convex
//     hull, line-search along −g; when g ≈ 0 or no step helps, ε /= 10.
// Every f value is ≥ the true depth: the result (value = f(normal)) is an
// upper bound converging to it.
inline Reference numericDepth(const Shape& a, const Shape& b, int gridPoints = 2000, int starts = 24,
                              int screenSteps = 15, int finalists = 3, int maxSteps = 200) {
  const SupportFn ha(a), hb(b);
  const ref::Mat3 ma = ref::matrixOf(a.pose.rotation), mb = ref::matrixOf(b.pose.rotation);
  auto f = [&](const Vec3& n) { return ha(n) + hb(n * -1.0); };
  // ∇h_C(m) = s_A(m) − s_B(−m), cores (the radii add r|m|, radial).
  auto grad = [&](const Vec3& m) {
    return (ma.mul(localCoreSupportPoint(a, ma.mulT(m))) + a.pose.position) -
           (mb.mul(localCoreSupportPoint(b, mb.mulT(m * -1.0))) + b.pose.position);
  };
  const double scale = ref::sceneScale(a, b);
  // Candidates: the grid plus hints — each shape's local axes and, for
  // point sets, their supporting-plane normals (a flat triangle's depth
  // basin is narrower than the grid spacing), and the centre line.
  static const std::vector<Vec3> kGrid2000 = fibonacciSphere(2000);
  std::vector<Vec3> grid = gridPoints == 2000 ? kGrid2000 : fibonacciSphere(gridPoints);
  for (const Shape* s : {&a, &b}) {
    const ref::Mat3 m = ref::matrixOf(s->pose.rotation);
    for (const Vec3& ax : {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}}) {
      grid.push_back(m.mul(ax));
      grid.push_back(m.mul(ax) * -1.0);
    }
    if (!s->points.empty() && s->points.size() <= 12) {
      const HullFeatures hf = hullFeatures(worldCoreVertices(*s));
      grid.insert(grid.end(), hf.normals.begin(), hf.normals.end());
    }
  }
  const Vec3 centres = b.pose.position - a.pose.position;
  if (norm(centres) > 0) {
    grid.push_back(ref::unit(centres));
    grid.push_back(ref::unit(centres) * -1.0);
  }
  std::vector<std::pair<double, int>> vals;
  vals.reserve(grid.size());
  for (std::size_t i = 0; i < grid.size(); ++i) vals.push_back({f(grid[i]), static_cast<int>(i)});
  const std::size_t keep = std::min<std::size_t>(vals.size(), 400);
  std::partial_sort(vals.begin(), vals.begin() + static_cast<std::ptrdiff_t>(keep), vals.end());
  vals.resize(keep);
  std::vector<Vec3> seeds;
  for (const auto& v : vals) {
    const Vec3& g = grid[static_cast<std::size_t>(v.second)];
    bool farEnough = true;
    for (const Vec3& s : seeds) farEnough = farEnough && ref::dist(s, g) > 0.15;
    if (farEnough) seeds.push_back(g);
    if (static_cast<int>(seeds.size()) == starts) break;
  }
  std::mt19937_64 gen(12345);
  std::uniform_real_distribution<double> uni(0, 1);
  static const double kRing[3] = {1.0, 0.5, 0.2};
  static double kCos15[15], kSin15[15];
  for (int j = 0; j < 15; ++j) {
    kCos15[j] = std::cos(j * 2 * M_PI / 15 * 4);  // 4/15 turn apart: rings interleave
    kSin15[j] = std::sin(j * 2 * M_PI / 15 * 4);
  }
  std::vector<std::array<double, 2>> g2;
  struct Run {
    Vec3 n;
    double fn, eps, step;
  };
  auto refine = [&](Run& r, int steps) {
    for (int it = 0; it < steps && r.eps > 1e-14; ++it) {
      Vec3 t1, t2;
      tangentBasis(r.n, &t1, &t2);
      g2.clear();
      // 15 samples on rings at a random rotation (one sincos per step).
      const double ph = 2 * M_PI * uni(gen);
      const Vec3 u1 = t1 * std::cos(ph) + t2 * std::sin(ph), u2 = cross3(r.n, u1);
      for (int j = 0; j < 16; ++j) {
        Vec3 m = r.n;
        if (j > 0) {
          const double rr = r.eps * kRing[j % 3];
          m = ref::unit(r.n + (u1 * kCos15[j - 1] + u2 * kSin15[j - 1]) * rr);
        }
        const Vec3 s = grad(m);
        g2.push_back({dot3(s, t1), dot3(s, t2)});
      }
      const std::array<double, 2> g = minNormHull2(g2);
      const double gn = std::hypot(g[0], g[1]);
      if (!(gn > 1e-15 * scale)) {
        r.eps *= 0.1;
        continue;
      }
      const Vec3 dir = (t1 * g[0] + t2 * g[1]) / -gn;
      bool moved = false;
      for (double t = std::max(r.step, 4 * r.eps); t > 1e-3 * r.eps; t *= 0.25) {
        const Vec3 c = ref::unit(r.n + dir * t);
        const double fc = f(c);
        if (fc < r.fn - 1e-6 * t * gn) {
          r.n = c;
          r.fn = fc;
          r.step = 2 * t;
          moved = true;
          break;
        }
      }
      if (!moved) r.eps *= 0.1;
    }
  };
  // Screen: a short run from each seed, then long runs from the best.
  std::vector<Run> runs;
  for (const Vec3& s0 : seeds) {
    Run r{s0, f(s0), 0.05, 0.05};
    refine(r, screenSteps);
    runs.push_back(r);
  }
  std::sort(runs.begin(), runs.end(), [](const Run& x, const Run& y) { return x.fn < y.fn; });
  if (static_cast<int>(runs.size()) > finalists) runs.resize(static_cast<std::size_t>(finalists));
  Reference out;
  out.value = std::numeric_limits<double>::infinity();
  for (Run& r : runs) {
    refine(r, maxSteps);
    if (r.fn < out.value) {
      out.value = r.fn;
      out.normal = r.n;
    }
  }
  out.overlapping = out.value > 0;
  out.depth = std::max(0.0, out.value);
  return out;
}

}  // namespace eparef

// ---- checks shared by the EPA test files -----------------------------------
// (gtest assertions; expected values always come from the references above)

namespace epacheck {

using collidoscope::EpaStatus;
using collidoscope::PenetrationResult;
using collidoscope::PosedShape;
using collidoscope::Shape;
using collidoscope::Vec3;

inline PenetrationResult pen(const Shape& a, const Shape& b) {
  return collidoscope::penetration(PosedShape(a), PosedShape(b));
}

inline std::string repro(const Shape& a, const Shape& b, const PenetrationResult& r) {
  std::ostringstream o;
  o.precision(17);
  o << "\n  A = " << testutil::describe(a) << "\n  B = " << testutil::describe(b) << "\n  got depth " << r.depth
    << " normal " << testutil::str(r.normal) << " status " << collidoscope::epaStatusName(r.status) << " iterations "
    << r.iterations << " intersecting " << r.intersecting << "\n  pointA " << testutil::str(r.pointA) << " pointB "
    << testutil::str(r.pointB);
  return o.str();
}

// Always true of a result: finite numbers, a unit normal, depth ≥ 0, and
// pointA − pointB = depth·normal (contract) within `tol`.
inline ::testing::AssertionResult wellFormed(const PenetrationResult& r, double tol) {
  if (!std::isfinite(r.depth) || !ref::finite(r.normal) || !ref::finite(r.pointA) || !ref::finite(r.pointB))
    return ::testing::AssertionFailure() << "non-finite result";
  if (std::fabs(ref::norm(r.normal) - 1) > 1e-12) return ::testing::AssertionFailure() << "normal not unit";
  if (r.depth < 0) return ::testing::AssertionFailure() << "negative depth";
  if (r.intersecting) {
    const double e = ref::norm(r.pointA - r.pointB - r.normal * r.depth);
    if (e > tol) return ::testing::AssertionFailure() << "pointA − pointB − depth·normal off by " << e;
  } else if (r.depth != 0) {
    return ::testing::AssertionFailure() << "not intersecting but depth " << r.depth;
  }
  return ::testing::AssertionSuccess();
}

// For an overlapping pair: the normal achieves the depth (f(n) = h_A(n) +
// h_B(−n) ≈ depth; f(n) ≥ true depth for every n, so this bounds the
// reported depth from below by the truth − tol), and the points are the
// support points of A along n and of B along −n (and lie in the shapes).
inline ::testing::AssertionResult normalAndPointsConsistent(const Shape& a, const Shape& b,
                                                            const PenetrationResult& r, double tol,
                                                            ref::Rng& rng) {
  const Vec3 n = r.normal;
  const double fn = eparef::overlapAlong(a, b, n);
  if (std::fabs(fn - r.depth) > tol)
    return ::testing::AssertionFailure() << "the normal does not achieve the depth: h_A(n) + h_B(−n) = " << fn
                                         << " vs depth " << r.depth << " (diff " << fn - r.depth << ")";
  const double ea = ref::dot3(n, r.pointA) - ref::supportValue(a, n);
  const double eb = -ref::dot3(n, r.pointB) - ref::supportValue(b, n * -1.0);
  if (std::fabs(ea) > tol) return ::testing::AssertionFailure() << "pointA is not A's support along n: off " << ea;
  if (std::fabs(eb) > tol) return ::testing::AssertionFailure() << "pointB is not B's support along −n: off " << eb;
  auto ia = testutil::insideShape(r.pointA, a, tol, rng, 4);
  if (!ia) return ia << " (pointA)";
  auto ib = testutil::insideShape(r.pointB, b, tol, rng, 4);
  if (!ib) return ib << " (pointB)";
  return ::testing::AssertionSuccess();
}

}  // namespace epacheck
