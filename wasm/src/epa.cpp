// collidoscope — names of EPA's statuses and reasons (the algorithm is in epa.h).
#include "collidoscope/epa.h"

#include <cmath>

#include "collidoscope/portable_math.h"

namespace collidoscope {

const char* epaStatusName(EpaStatus s) {
  switch (s) {
    case EpaStatus::Converged: return "converged";
    case EpaStatus::Touching: return "touching";
    case EpaStatus::MaxIterations: return "max-iterations";
    case EpaStatus::Degenerate: return "degenerate";
  }
  return "degenerate";
}

const char* epaReasonName(EpaReason r) {
  switch (r) {
    case EpaReason::None: return "none";
    case EpaReason::Apart: return "apart";
    case EpaReason::Tetrahedron: return "tetrahedron";
    case EpaReason::Flat: return "flat";
    case EpaReason::NearestFace: return "nearest-face";
    case EpaReason::Progress: return "progress";
    case EpaReason::GapWithinTolerance: return "gap-within-tolerance";
    case EpaReason::DuplicateSupport: return "duplicate-support";
    case EpaReason::Capacity: return "capacity";
    case EpaReason::BrokenHorizon: return "broken-horizon";
    case EpaReason::IterationCap: return "iteration-cap";
    case EpaReason::Polygon: return "polygon";
    case EpaReason::Refined: return "refined";
  }
  return "none";
}

namespace detail {

// ---- refining the normal of a full polytope (epa.h says why and how) -------

namespace {

// The point of the convex hull of g[0..k) nearest the origin (2D, k ≤ 5),
// as weights of the g: a vertex, a segment's nearest point, or the origin
// itself when a triangle of them holds it. Returns its squared length.
double shortestCombination2(const double (*g)[2], int k, double* weight) {
  double best = 1e300;
  auto take = [&](double len2, int i, double wi, int j, double wj, int m, double wm) {
    if (!(len2 < best)) return;
    best = len2;
    for (int q = 0; q < k; ++q) weight[q] = 0;
    weight[i] += wi;
    weight[j] += wj;
    weight[m] += wm;
  };
  for (int i = 0; i < k; ++i) take(g[i][0] * g[i][0] + g[i][1] * g[i][1], i, 1, i, 0, i, 0);
  for (int i = 0; i < k; ++i)
    for (int j = i + 1; j < k; ++j) {
      const double ex = g[j][0] - g[i][0], ey = g[j][1] - g[i][1], e2 = ex * ex + ey * ey;
      if (!(e2 > 0)) continue;
      const double t = -(g[i][0] * ex + g[i][1] * ey) / e2;
      if (!(t > 0 && t < 1)) continue;
      const double px = g[i][0] + ex * t, py = g[i][1] + ey * t;
      take(px * px + py * py, i, 1 - t, j, t, i, 0);
    }
  for (int i = 0; i < k; ++i)
    for (int j = i + 1; j < k; ++j)
      for (int m = j + 1; m < k; ++m) {
        // Signed areas of the origin with each edge: all of one sign, and
        // a non-zero total, puts the origin inside.
        const double ai = g[j][0] * g[m][1] - g[j][1] * g[m][0];
        const double aj = g[m][0] * g[i][1] - g[m][1] * g[i][0];
        const double am = g[i][0] * g[j][1] - g[i][1] * g[j][0];
        const double total = ai + aj + am;
        if (!(total != 0)) continue;
        if ((ai / total) >= 0 && (aj / total) >= 0 && (am / total) >= 0)
          take(0, i, ai / total, j, aj / total, m, am / total);
      }
  return best;
}

// The slope of h at n: the shortest combination of the gradients (support
// points) at n and at four directions `radius` around it, turned by `turn`,
// in the tangent basis t1, t2 of n. Returns the slope's length; *slope2
// its components, *pointA and *pointB the combination's points on the cores.
double slopeAt(const MinkowskiSupportFn& support, const Vec3& n, const Vec3& t1, const Vec3& t2, double radius, double turn,
               double* slope2, Vec3* pointA, Vec3* pointB) {
  const double c = portable::cos(turn), s = portable::sin(turn);
  const Vec3 u = t1 * c + t2 * s, v = t2 * c - t1 * s;
  const Vec3 around[5] = {Vec3{}, u, -u, v, -v};
  SimplexVertex sample[5];
  double g[5][2], weight[5];
  for (int k = 0; k < 5; ++k) {
    const Vec3 m = k == 0 ? n : normalizedOr(n + around[k] * radius, n);
    sample[k] = support(m);
    // The slope at m is the part of w across m (not across n: on a curved
    // side that would add h·radius to every sample and hide slopes below it).
    const Vec3 across = sample[k].w - m * dot(m, sample[k].w);
    g[k][0] = dot(across, t1);
    g[k][1] = dot(across, t2);
  }
  const double length2 = shortestCombination2(g, 5, weight);
  Vec3 pa, pb;
  slope2[0] = slope2[1] = 0;
  for (int k = 0; k < 5; ++k) {
    pa += sample[k].a * weight[k];
    pb += sample[k].b * weight[k];
    slope2[0] += g[k][0] * weight[k];
    slope2[1] += g[k][1] * weight[k];
  }
  *pointA = pa;
  *pointB = pb;
  return std::sqrt(length2);
}

// The valley floor across a step: the least of h on the line m + s·e
// (e ⊥ m). On that line the support function extended to all of R³,
// H(x) = x·s_C(x), is convex, and x·w is its tangent for the support point
// w at any x, so the tangents on either side of the least value meet near
// it — exactly where two support points take turns (a kink: across a
// cone's slant side the apex and a rim point), much as Kelley's cutting
// planes in one dimension. A kink keeps its place when x is normalised
// (x·w₁ = x·w₂ does not depend on |x|), so this settles a step taken
// along a narrow curved valley of h back onto its floor. Returns the unit
// direction with the least h seen (m's among them) and *hBest that h.
Vec3 settleAcross(const MinkowskiSupportFn& support, const Vec3& m, const Vec3& e, double span, double* hBest) {
  struct Probe {
    double s, value, slope;  // H(m + s·e) and its derivative e·w
  };
  Vec3 best = m;
  double bestH = 1e300;
  auto probe = [&](double s) {
    const Vec3 u = normalizedOr(m + e * s, m);
    const Vec3 w = support(u).w;
    const double hu = dot(u, w);
    if (hu < bestH) {
      bestH = hu;
      best = u;
    }
    return Probe{s, dot(m + e * s, w), dot(e, w)};
  };
  const Probe at0 = probe(0);
  // A bracket [lo, hi] with H falling at lo and rising at hi: from s = 0
  // downhill, doubling the reach until the slope turns (each probe that
  // still falls moves the bracket's near end out to it).
  const double downhill = at0.slope > 0 ? -1.0 : 1.0;
  Probe lo = at0, hi = at0;
  for (int k = 0; k < kEpaSettleReaches && at0.slope != 0; ++k, span *= 2) {
    const Probe p = probe(downhill * span);
    if (p.slope < 0)
      lo = p;
    else if (p.slope > 0)
      hi = p;
    else
      break;  // level there (or not a number): nothing to cut
    if (lo.slope < 0 && hi.slope > 0) break;
  }
  for (int k = 0; k < kEpaSettleCuts && lo.slope < 0 && hi.slope > 0; ++k) {
    // Where the two tangents meet, kept off the bracket's ends so that a
    // smooth minimum still shrinks it.
    const double width = hi.s - lo.s;
    double s = (hi.value - lo.value + lo.slope * lo.s - hi.slope * hi.s) / (lo.slope - hi.slope);
    s = std::fmin(std::fmax(s, lo.s + 0.01 * width), hi.s - 0.01 * width);
    if (!(s > lo.s && s < hi.s)) break;  // the bracket is down to rounding
    const double floorThere = std::fmax(lo.value + lo.slope * (s - lo.s), hi.value + hi.slope * (s - hi.s));
    const Probe p = probe(s);
    // Done when H there meets the tangents' lower bound.
    if (!(p.value - floorThere > kRoundingBound * std::fabs(p.value))) break;
    if (p.slope < 0)
      lo = p;
    else if (p.slope > 0)
      hi = p;
    else
      break;
  }
  *hBest = bestH;
  return best;
}

}  // namespace

RefinedNormal refineNormal(const MinkowskiSupportFn& support, const Vec3& n0, double floor, double tolerance, int steps,
                           bool withPoints) {
  RefinedNormal best;
  best.normal = n0;
  best.depth = dot(n0, support(n0).w);
  double radius = kEpaRefineStartRadius, step = kEpaRefineStartRadius;
  // Samples turn by the golden angle from step to step, so a kink at any
  // bearing soon falls between two of them.
  const double kTurn = 2.399963229728653;
  int it = 0;
  for (; it < steps && radius >= kEpaRefineEndRadius; ++it) {
    if (best.depth - floor <= tolerance) break;
    const Vec3 n = best.normal;
    const Vec3 t1 = perpendicular(n), t2 = cross(n, t1);
    double g[2];
    Vec3 pa, pb;
    const double slope = slopeAt(support, n, t1, t2, radius, kTurn * it, g, &pa, &pb);
    if (!(slope > kRoundingBound * std::fmax(maxAbs(pa), maxAbs(pb)))) {
      radius *= 0.1;  // level to rounding at this radius: look closer
      continue;
    }
    const Vec3 dir = (t1 * g[0] + t2 * g[1]) / -slope;
    bool moved = false;
    double tryStep = std::fmax(step, 4 * radius);
    for (int k = 0; k < kEpaRefineTries; ++k, tryStep *= 0.25) {
      // A step along the slope, settled back across it: where h is a
      // narrow curved valley (a kink between two support points, as along
      // a cone's slant side), a straight step leaves the floor and climbs
      // its wall, and only tiny steps would help.
      const Vec3 ahead = normalizedOr(n + dir * tryStep, n);
      double hm = 0;
      const Vec3 m = settleAcross(support, ahead, normalizedOr(cross(ahead, dir), t1), tryStep * tryStep, &hm);
      if (hm < best.depth) {
        best.normal = m;
        best.depth = hm;
        step = 2 * tryStep;
        moved = true;
        ++best.steps;
        break;
      }
    }
    if (!moved) radius *= 0.1;
  }
  if (!withPoints) return best;
  // The points: the shortest combination at the final normal, at the
  // radius reached (across a kink it mixes the supports of both sides, so
  // pointA − pointB ≈ depth·normal, not a rim point off to one side).
  // The radius that straddles the kink is not known (the normal may be a
  // hair off it), so each from the start radius down is tried and the
  // combination nearest depth·normal kept.
  const Vec3 t1 = perpendicular(best.normal), t2 = cross(best.normal, t1);
  const Vec3 target = best.normal * best.depth;
  double miss = 1e300;
  for (double r = kEpaRefineStartRadius; r >= kEpaRefineEndRadius; r *= 0.1) {
    double g[2];
    Vec3 pa, pb;
    slopeAt(support, best.normal, t1, t2, r, kTurn * it, g, &pa, &pb);
    const double m = maxAbs((pa - pb) - target);
    if (m < miss) {
      miss = m;
      best.pointA = pa;
      best.pointB = pb;
    }
  }
  return best;
}

}  // namespace detail

}  // namespace collidoscope
