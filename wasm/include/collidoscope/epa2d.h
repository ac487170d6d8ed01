// collidoscope — EPA in the plane: penetration depth, normal and contact
// points of two convex shapes whose cores lie in the plane z = 0 (the 2D
// scenes of the scene format).
//
// Reference: the 2D EPA of "Advanced Collision Detection" (sites.google.com/
// site/doc4code, 2011, "EPA in 2D space"): grow a polygon P ⊆ C = core(A) −
// core(B) around the origin; take the edge of P nearest the origin (outward
// unit normal n, distance d) and the support point w = s_C(n); when n·w − d is
// within tolerance that edge lies on the boundary of C and d is the depth,
// otherwise P becomes conv(P ∪ {w}).
//
// Why a planar EPA: the 3D EPA needs a tetrahedron inside C, and a flat C has
// none (3D reads a flat C as touching, depth 0 — right for flat solids in
// space, wrong for a lesson in the plane).
//
// Departures from the article: the seed is not one triangle but the convex
// hull of GJK's final simplex and the support points in the four axis
// directions of the plane (the simplex holds the origin, so the hull does;
// the axis points give a polygon even when GJK ended on a segment). The
// edges are kept in counter-clockwise order in a fixed array, so inserting
// w is a walk removing the vertices w sees (decided by exact orient2d), and
// nothing allocates. d never decreases and n·w bounds the depth from above,
// so n·w − d is a certified error bound, tested as the 3D EPA tests it.
// When the cores are apart the 3D penetration answers (the same library
// code; all its points and normals already lie in the plane).
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/math.h"
#include "collidoscope/portable_math.h"
#include "collidoscope/predicates.h"
#include "collidoscope/simplex.h"
#include "collidoscope/support.h"
#include "collidoscope/tiny_scene.h"
#include "collidoscope/trace.h"

namespace collidoscope {

// Polygon capacity (one vertex per iteration, 72 KB of stack). Every 2D core
// is a polygon, so EPA ends on an edge of C once it has found the vertices
// of C in the region it refines. That region is small unless the origin is
// nearly equidistant from many edges (the centre of a regular n-gon, where
// EPA must find them all): beyond 1024 such vertices it ends with status
// MaxIterations and its lower bound of the depth.
constexpr int kEpa2dMaxVertices = 1024;

// ---- trace -----------------------------------------------------------------

// One step of the planar EPA. Events and reasons are EPA's (epa.h): seed
// (reason polygon), closest, support, expand, done.
struct PlanarEpaFrame {
  EpaEvent event = EpaEvent::Seed;
  EpaReason reason = EpaReason::None;
  int line = 0;
  int iteration = 0;
  std::vector<SimplexVertex> vertices;  // P, counter-clockwise
  int closest = -1;                     // nearest edge: vertices[closest] → vertices[closest + 1]
  bool hasSupport = false;
  SimplexVertex support;
  std::vector<SimplexVertex> removed;  // expand: vertices w saw
  double depth = 0;                    // nearest edge distance (core)
  Vec3 normal;
  bool hasGap = false;
  double gap = 0;
  double tolerance = 0;
};

// A tiny scene's scaled run in the caller's units (tiny_scene.h).
inline void scaleLengths(PlanarEpaFrame* f, double g) {
  for (SimplexVertex& v : f->vertices) scaleLengths(&v, g);
  for (SimplexVertex& v : f->removed) scaleLengths(&v, g);
  scaleLengths(&f->support, g);
  f->depth *= g;
  f->gap *= g;
  f->tolerance *= g;
}

using PlanarEpaRecorder = FrameRecorder<PlanarEpaFrame>;

// Pseudocode line numbers (1-based) that frames name; the text is the
// caller's (web/lib/captions.ts).
namespace planar_epa_lines {
constexpr int kGjk = 1, kSeed = 2, kLoop = 3, kClosest = 4, kSupport = 5, kConverged = 6, kInsert = 7, kResult = 8;
constexpr int kCount = 8;
}  // namespace planar_epa_lines

namespace detail {

inline int orient2dOf(const Vec3& a, const Vec3& b, const Vec3& c) { return orient2d(a.x, a.y, b.x, b.y, c.x, c.y); }

// Edge i of a counter-clockwise polygon, from vertex i to i + 1: outward unit
// normal (right of the edge direction) and signed distance of its line from
// the origin (negative when the origin lies outside the edge).
struct PlanarEdge {
  Vec3 normal;
  double distance = 0;
  bool valid = false;
};

inline PlanarEdge planarEdge(const SimplexVertex* v, int n, int i) {
  const Vec3& p = v[i].w;
  const Vec3& q = v[(i + 1) % n].w;
  PlanarEdge e;
  const Vec3 out{q.y - p.y, p.x - q.x, 0};
  const double len = portable::hypot(out.x, out.y);
  if (!(len > 0)) return e;
  e.normal = out / len;
  e.distance = dot(e.normal, p);
  e.valid = true;
  return e;
}

// Convex hull (counter-clockwise, no repeated or collinear vertices) of
// `count` candidates, written to out; returns its vertex count. Gift wrapping
// with exact orientation: the candidates are few (GJK's simplex and four
// support points).
inline int planarHull(const SimplexVertex* cand, int count, SimplexVertex* out) {
  int start = 0;
  for (int i = 1; i < count; ++i) {
    const Vec3& a = cand[i].w;
    const Vec3& s = cand[start].w;
    if (a.x < s.x || (a.x == s.x && a.y < s.y)) start = i;
  }
  int n = 0;
  int cur = start;
  for (int guard = 0; guard <= count; ++guard) {
    out[n++] = cand[cur];
    int next = -1;
    for (int j = 0; j < count; ++j) {
      if (cand[j].w == cand[cur].w) continue;
      if (next < 0) {
        next = j;
        continue;
      }
      const int o = orient2dOf(cand[cur].w, cand[next].w, cand[j].w);
      // j is right of cur→next, or on that line and farther: j wraps tighter.
      const Vec3 dn = cand[next].w - cand[cur].w, dj = cand[j].w - cand[cur].w;
      if (o < 0 || (o == 0 && dot(dj, dj) > dot(dn, dn))) next = j;
    }
    if (next < 0 || cand[next].w == cand[start].w) break;
    cur = next;
  }
  return n;
}

}  // namespace detail

// EPA's settings sized for the planar polygon: one iteration per vertex it can hold.
inline EpaSettings planarEpaSettings() {
  EpaSettings s;
  s.maxIterations = kEpa2dMaxVertices;
  return s;
}

// Penetration of two convex shapes (SA, SB as for gjkDistance) whose cores
// lie in the plane z = 0. The result follows the 3D convention (epa.h):
// move B by depth·normal to separate it; pointA − pointB = depth·normal.
template <class Trace = NoTrace, class SA, class SB>
PenetrationResult penetration2d(const SA& shapeA, const SB& shapeB, const GjkSettings& gjkSettings,
                                const EpaSettings& settings, Trace& trace) {
  using namespace planar_epa_lines;
  auto record = [&](EpaEvent event, EpaReason reason, int line, int iteration, const SimplexVertex* poly, int n,
                    int closest, const detail::PlanarEdge* edge) {
    if constexpr (Trace::enabled) {
      PlanarEpaFrame f;
      f.event = event;
      f.reason = reason;
      f.line = line;
      f.iteration = iteration;
      f.vertices.assign(poly, poly + n);
      f.closest = closest;
      if (edge != nullptr) {
        f.depth = edge->distance;
        f.normal = edge->normal;
      }
      trace.record(std::move(f));
    } else {
      (void)event, (void)reason, (void)line, (void)iteration, (void)poly, (void)n, (void)closest, (void)edge;
    }
  };
  const DistanceResult g = gjkDistance(shapeA, shapeB, gjkSettings);
  // A tiny scene: orientations and edge normals underflow too.
  {
    PenetrationResult scaled;
    if (detail::penetrationOfTinyScene(shapeA, shapeB, g, trace, &scaled,
                                       [&](const auto& sa, const auto& sb, double, auto& st) {
                                         return penetration2d(sa, sb, gjkSettings, settings, st);
                                       }))
      return scaled;
  }
  const double rA = shapeA.radius(), rB = shapeB.radius();
  // Cores touching within GJK's tolerance run here, as overlapping ones:
  // the 3D penetration would read the flat C as touching across the plane.
  if (!g.coresOverlap && !detail::coresTouchWithinTolerance(g, rA + rB, gjkSettings)) {
    record(EpaEvent::Done, EpaReason::Apart, kGjk, 0, nullptr, 0, -1, nullptr);
    return penetration(shapeA, shapeB, gjkSettings, settings);
  }

  PenetrationResult out;
  double scale = g.scale;
  // ‖·‖ below this is rounding noise of the support points.
  const double tiny = kRoundingBound * std::fmax(scale, 1e-300);

  SimplexVertex cand[8];
  int count = 0;
  for (int i = 0; i < g.simplex.size; ++i) cand[count++] = g.simplex.vertex[i];
  const Vec3 axes[4] = {{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}};
  for (const Vec3& d : axes) cand[count++] = minkowskiSupport(shapeA, shapeB, d);
  for (int i = 0; i < count; ++i) scale = std::fmax(scale, maxAbs(cand[i].w));

  SimplexVertex poly[kEpa2dMaxVertices];
  int n = detail::planarHull(cand, count, poly);
  if (n < 3) {
    // C is a segment or a point through the origin: the cores touch. The
    // normal is the plane's perpendicular to that segment facing B (or
    // towards B when C is a point).
    const Vec3 towardsB = normalizedOr(shapeB.center() - shapeA.center(), Vec3{0, 1, 0});
    Vec3 normal{towardsB.x, towardsB.y, 0};
    normal = normalizedOr(normal, Vec3{0, 1, 0});
    if (n == 2) {
      const Vec3 e = poly[1].w - poly[0].w;
      const Vec3 perp = normalizedOr(Vec3{-e.y, e.x, 0}, Vec3{0, 1, 0});
      normal = dot(perp, towardsB) < 0 ? -perp : perp;
    }
    const Vec3 p = (g.simplex.pointA() + g.simplex.pointB()) * 0.5;
    out.intersecting = true;
    out.normal = normal;
    out.depth = rA + rB;
    out.pointA = p + normal * rA;
    out.pointB = p - normal * rB;
    out.status = rA + rB > 0 ? EpaStatus::Converged : EpaStatus::Touching;
    record(EpaEvent::Done, EpaReason::Flat, kSeed, 0, poly, n, -1, nullptr);
    return out;
  }
  record(EpaEvent::Seed, EpaReason::Polygon, kSeed, 0, poly, n, -1, nullptr);

  EpaStatus status = EpaStatus::MaxIterations;
  EpaReason reason = EpaReason::IterationCap;
  int nearest = 0;
  detail::PlanarEdge edge;
  int iteration = 0;
  double lastGap = 0, lastTolerance = 0;
  auto findNearest = [&]() {
    nearest = -1;
    for (int i = 0; i < n; ++i) {
      const detail::PlanarEdge e = detail::planarEdge(poly, n, i);
      if (e.valid && (nearest < 0 || e.distance < edge.distance)) {
        nearest = i;
        edge = e;
      }
    }
  };
  while (iteration < settings.maxIterations) {
    ++iteration;
    findNearest();
    if (nearest < 0) {
      status = EpaStatus::Degenerate;
      reason = EpaReason::BrokenHorizon;
      break;
    }
    record(EpaEvent::Closest, EpaReason::NearestFace, kClosest, iteration, poly, n, nearest, &edge);
    const SimplexVertex w = minkowskiSupport(shapeA, shapeB, edge.normal);
    scale = std::fmax(scale, maxAbs(w.w));
    const double d = std::fmax(edge.distance, 0.0);
    const double gap = dot(edge.normal, w.w) - edge.distance;
    const double tolerance =
        std::fmax(settings.relativeTolerance * d, std::fmax(settings.absoluteTolerance, kRoundingBound) * scale);
    lastGap = gap;
    lastTolerance = tolerance;
    const int i0 = nearest, i1 = (nearest + 1) % n;
    bool done = true;
    int line = kConverged;
    if (gap <= tolerance) {
      status = EpaStatus::Converged;
      reason = EpaReason::GapWithinTolerance;
    } else if (detail::orient2dOf(poly[i0].w, poly[i1].w, w.w) >= 0) {
      // w must lie strictly outside the nearest edge for conv(P ∪ {w}) to
      // grow; one that does not adds nothing (rounding at the scale of C).
      status = EpaStatus::Degenerate;
      reason = EpaReason::DuplicateSupport;
    } else {
      done = false;
      line = kSupport;
    }
    // conv(P ∪ {w}): walk back from i0 and forward from i1 over the vertices
    // whose both edges w sees (w right of or on each edge's line).
    int first = i0;  // last kept vertex before w
    int last = i1;   // first kept vertex after w
    int removedBack = 0, removedFwd = 0;
    if (!done) {
      while (removedBack < n - 2) {
        const int prev = (first + n - 1) % n;
        if (detail::orient2dOf(poly[prev].w, poly[first].w, w.w) > 0) break;
        first = prev;
        ++removedBack;
      }
      while (removedBack + removedFwd < n - 2) {
        const int next = (last + 1) % n;
        if (detail::orient2dOf(poly[last].w, poly[next].w, w.w) > 0) break;
        last = next;
        ++removedFwd;
      }
      if (removedBack + removedFwd == 0 && n == kEpa2dMaxVertices) {
        status = EpaStatus::MaxIterations;
        reason = EpaReason::Capacity;
        line = kLoop;
        done = true;
      }
    }
    if constexpr (Trace::enabled) {
      PlanarEpaFrame f;
      f.event = EpaEvent::Support;
      f.reason = done ? reason : EpaReason::Progress;
      f.line = line;
      f.iteration = iteration;
      f.vertices.assign(poly, poly + n);
      f.closest = nearest;
      f.hasSupport = true;
      f.support = w;
      f.depth = edge.distance;
      f.normal = edge.normal;
      f.hasGap = true;
      f.gap = gap;
      f.tolerance = tolerance;
      trace.record(std::move(f));
    }
    if (done) break;
    const int removed = removedBack + removedFwd;
    PlanarEpaFrame expand;
    if constexpr (Trace::enabled) {
      for (int k = 1; k <= removed; ++k) expand.removed.push_back(poly[(first + k) % n]);
    }
    // In place: rotate `first` to the end, so the removed vertices lead and
    // the kept chain last … first follows them; drop the lead, append w.
    std::rotate(poly, poly + (first + 1) % n, poly + n);
    std::copy(poly + removed, poly + n, poly);
    n -= removed;
    poly[n++] = w;
    if constexpr (Trace::enabled) {
      expand.event = EpaEvent::Expand;
      expand.reason = EpaReason::Progress;
      expand.line = kInsert;
      expand.iteration = iteration;
      expand.vertices.assign(poly, poly + n);
      expand.hasSupport = true;
      expand.support = w;
      expand.depth = edge.distance;
      expand.normal = edge.normal;
      trace.record(std::move(expand));
    }
  }
  findNearest();
  if (nearest < 0) {
    // Rounding flattened the polygon entirely: report touching as for a flat C.
    out.intersecting = true;
    out.normal = Vec3{0, 1, 0};
    out.depth = rA + rB;
    out.pointA = out.pointB = (g.simplex.pointA() + g.simplex.pointB()) * 0.5;
    out.pointA = out.pointA + out.normal * rA;
    out.pointB = out.pointB - out.normal * rB;
    out.iterations = iteration;
    out.status = EpaStatus::Degenerate;
    record(EpaEvent::Done, EpaReason::BrokenHorizon, kResult, iteration, poly, n, -1, nullptr);
    return out;
  }
  // The origin's foot on the nearest edge, p + t·(q − p), t ∈ [0, 1]: the
  // weights of the contact points on A and B.
  const SimplexVertex& p = poly[nearest];
  const SimplexVertex& q = poly[(nearest + 1) % n];
  const Vec3 e = q.w - p.w;
  const double ee = dot(e, e);
  double t = ee > 0 ? -dot(p.w, e) / ee : 0;
  t = std::fmin(1.0, std::fmax(0.0, t));
  const Vec3 pa = p.a + (q.a - p.a) * t;
  const Vec3 pb = p.b + (q.b - p.b) * t;
  const double depthCore = std::fmax(edge.distance, 0.0);
  out.intersecting = true;
  out.normal = edge.normal;
  out.depth = depthCore + rA + rB;
  out.pointA = pa + edge.normal * rA;
  out.pointB = pb - edge.normal * rB;
  out.iterations = iteration;
  out.status = status;
  if (out.depth <= tiny && status == EpaStatus::Converged) {
    out.depth = 0;
    out.status = EpaStatus::Touching;
  }
  if constexpr (Trace::enabled) {
    PlanarEpaFrame f;
    f.event = EpaEvent::Done;
    f.reason = reason;
    f.line = kResult;
    f.iteration = iteration;
    f.vertices.assign(poly, poly + n);
    f.closest = nearest;
    f.depth = edge.distance;
    f.normal = edge.normal;
    f.hasGap = true;
    f.gap = lastGap;
    f.tolerance = lastTolerance;
    trace.record(std::move(f));
  }
  return out;
}

template <class SA, class SB>
PenetrationResult penetration2d(const SA& a, const SB& b, const GjkSettings& gjkSettings = {},
                                const EpaSettings& settings = planarEpaSettings()) {
  NoTrace none;
  return penetration2d(a, b, gjkSettings, settings, none);
}

}  // namespace collidoscope
