// collidoscope — bounding volumes (see obb.h for the maths and references).
#include "collidoscope/obb.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>


namespace collidoscope {

namespace {

constexpr double kPi = 3.14159265358979323846;

// ---------------------------------------------------------------- framing
// Every fit works in a scaled frame q = (p − ref)/s with ref the AABB centre
// and s its largest half-extent, so coordinates are in [−1, 1]: squares and
// products (covariances, ball radii) can neither overflow for coordinates
// near 1e300 nor lose digits to a large offset from the origin.
struct Frame {
  Vec3 ref;
  double scale = 1;  // > 0
  Vec3 toLocal(const Vec3& p) const { return (p - ref) / scale; }
  Vec3 toWorld(const Vec3& q) const { return ref + q * scale; }
};

Frame frameOf(const Aabb& box) {
  Frame f;
  f.ref = box.min * 0.5 + box.max * 0.5;  // halves first: no overflow
  const Vec3 h = box.max * 0.5 - box.min * 0.5;
  const double s = maxAbs(h);
  f.scale = (s > 0 && std::isfinite(s)) ? s : 1.0;
  return f;
}

// A unit vector perpendicular to the unit vector n (deterministic).
Vec3 anyPerpendicular(const Vec3& n) {
  // Cross with the world axis least aligned with n: |cross| ≥ sqrt(2/3).
  const double ax = std::fabs(n.x), ay = std::fabs(n.y), az = std::fabs(n.z);
  Vec3 e{1, 0, 0};
  if (ay < ax && ay <= az) e = {0, 1, 0};
  else if (az < ax && az < ay) e = {0, 0, 1};
  return normalizedOr(cross(n, e), Vec3{0, 1, 0});
}

// Sign a unit vector so its largest-magnitude component (first on ties) is
// positive: eigenvectors are defined up to sign, and this makes the output
// the same bits wherever the same input is fitted.
Vec3 canonicalSign(const Vec3& v) {
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (std::fabs(v[i]) > std::fabs(v[k])) k = i;
  return v[k] < 0 ? -v : v;
}

// Orthonormal, right-handed axes from two (roughly orthonormal) vectors:
// Gram–Schmidt on a1, then a2 = a0 × a1. Zero or non-finite input falls
// back to world axes.
void orthonormalize(Vec3 axes[3]) {
  Vec3 a0 = isFinite(axes[0]) ? normalizedOr(axes[0], Vec3{1, 0, 0}) : Vec3{1, 0, 0};
  Vec3 a1 = isFinite(axes[1]) ? axes[1] : Vec3{0, 1, 0};
  a1 = a1 - a0 * dot(a1, a0);
  a1 = normalizedOr(a1, anyPerpendicular(a0));
  // A second pass removes what rounding left of a0 in a1 (twice is enough).
  a1 = normalizedOr(a1 - a0 * dot(a1, a0), anyPerpendicular(a0));
  axes[0] = a0;
  axes[1] = a1;
  axes[2] = normalizedOr(cross(a0, a1), anyPerpendicular(a0));
}

// Canonical form of a finished box: axes by decreasing half-extent (stable),
// each signed by canonicalSign, right-handed (a2 = a0 × a1, which flips a2
// at most — same box).
void canonicalize(Obb* box) {
  int order[3] = {0, 1, 2};
  for (int i = 1; i < 3; ++i)  // insertion sort, stable, decreasing
    for (int j = i; j > 0 && box->halfExtents[order[j]] > box->halfExtents[order[j - 1]]; --j)
      std::swap(order[j], order[j - 1]);
  const Vec3 axes[3] = {box->axes[order[0]], box->axes[order[1]], box->axes[order[2]]};
  const Vec3 half{box->halfExtents[order[0]], box->halfExtents[order[1]], box->halfExtents[order[2]]};
  box->axes[0] = canonicalSign(axes[0]);
  box->axes[1] = canonicalSign(axes[1]);
  box->axes[2] = cross(box->axes[0], box->axes[1]);
  box->halfExtents = half;
}

// ------------------------------------------------------------ covariances
// Scaled covariances (in the frame above); the public functions rescale.
struct ScaledCov {
  Vec3 mean;  // local coordinates
  double m[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  double weight = 0;
};

void addOuter(double m[3][3], const Vec3& a, double w) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m[i][j] += w * a[i] * a[j];
}

// Two passes: the mean, then Σ (q − mean)(q − mean)ᵀ / n (no E[qqᵀ] − mmᵀ
// cancellation).
ScaledCov scaledPointCovariance(const std::vector<Vec3>& pts, const Frame& f) {
  ScaledCov c;
  if (pts.empty()) return c;
  const double n = static_cast<double>(pts.size());
  Vec3 sum;
  for (const Vec3& p : pts) sum += f.toLocal(p);
  c.mean = sum / n;
  for (const Vec3& p : pts) addOuter(c.m, f.toLocal(p) - c.mean, 1.0);
  for (auto& row : c.m)
    for (double& v : row) v /= n;
  c.weight = n;
  return c;
}

bool validTriangle(const std::array<int, 3>& t, std::size_t n) {
  for (int i : t)
    if (i < 0 || static_cast<std::size_t>(i) >= n) return false;
  return true;
}

// The surface covariance (obb.h): pass 1 the area-weighted mean M, pass 2
// Σ (A_k/12)(9 m'm'ᵀ + p'p'ᵀ + q'q'ᵀ + r'r'ᵀ) / A with ' = relative to M.
ScaledCov scaledTriangleCovariance(const std::vector<Vec3>& verts,
                                   const std::vector<std::array<int, 3>>& tris, const Frame& f) {
  ScaledCov c;
  double area = 0;
  Vec3 moment;
  for (const auto& t : tris) {
    if (!validTriangle(t, verts.size())) continue;
    const Vec3 p = f.toLocal(verts[t[0]]), q = f.toLocal(verts[t[1]]), r = f.toLocal(verts[t[2]]);
    const double a = 0.5 * length(cross(q - p, r - p));
    area += a;
    moment += (p + q + r) * (a / 3.0);
  }
  if (!(area > 0) || !std::isfinite(area)) return c;  // weight 0: no surface
  c.mean = moment / area;
  for (const auto& t : tris) {
    if (!validTriangle(t, verts.size())) continue;
    const Vec3 p = f.toLocal(verts[t[0]]) - c.mean, q = f.toLocal(verts[t[1]]) - c.mean,
               r = f.toLocal(verts[t[2]]) - c.mean;
    const double a = 0.5 * length(cross(q - p, r - p));
    const Vec3 m = (p + q + r) / 3.0;
    const double w = a / 12.0;
    addOuter(c.m, m, 9.0 * w);
    addOuter(c.m, p, w);
    addOuter(c.m, q, w);
    addOuter(c.m, r, w);
  }
  for (auto& row : c.m)
    for (double& v : row) v /= area;
  c.weight = area;
  return c;
}

Covariance unscale(const ScaledCov& c, const Frame& f, double weightScale) {
  Covariance out;
  out.mean = f.toWorld(c.mean);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out.m[i][j] = c.m[i][j] * f.scale * f.scale;
  out.weight = c.weight * weightScale;
  return out;
}

// ------------------------------------------------------ minimum rectangle
struct P2 {
  double x, y;
};
double cross2(const P2& o, const P2& a, const P2& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

// Andrew's monotone chain; CCW, collinear points dropped. Sorts `pts`.
std::vector<P2> hull2d(std::vector<P2>& pts) {
  std::sort(pts.begin(), pts.end(),
            [](const P2& a, const P2& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  const std::size_t n = pts.size();
  if (n < 3) return pts;
  std::vector<P2> h(2 * n);
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {  // lower chain
    while (k >= 2 && cross2(h[k - 2], h[k - 1], pts[i]) <= 0) --k;
    h[k++] = pts[i];
  }
  for (std::size_t i = n - 1, t = k + 1; i-- > 0;) {  // upper chain
    while (k >= t && cross2(h[k - 2], h[k - 1], pts[i]) <= 0) --k;
    h[k++] = pts[i];
  }
  h.resize(k > 1 ? k - 1 : k);  // the last point repeats the first
  return h;
}

// Akl–Toussaint filter: the extreme points in the 8 directions at 45° steps
// form a convex polygon (CCW) inside the hull; points strictly inside it are
// no hull vertices and are dropped before the O(n log n) sort. Typically
// removes most of a cloud. (A point misjudged by rounding at the polygon's
// border could only nudge the chosen direction: extents are recomputed over
// every point.)
void discardInterior(std::vector<P2>& pts) {
  if (pts.size() < 16) return;
  static const P2 dirs[8] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  std::size_t ext[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (std::size_t i = 1; i < pts.size(); ++i)
    for (int d = 0; d < 8; ++d)
      if (pts[i].x * dirs[d].x + pts[i].y * dirs[d].y > pts[ext[d]].x * dirs[d].x + pts[ext[d]].y * dirs[d].y)
        ext[d] = i;
  P2 poly[8];
  int m = 0;
  for (int d = 0; d < 8; ++d) {
    const P2 p = pts[ext[d]];
    if (m > 0 && p.x == poly[m - 1].x && p.y == poly[m - 1].y) continue;
    poly[m++] = p;
  }
  while (m > 1 && poly[m - 1].x == poly[0].x && poly[m - 1].y == poly[0].y) --m;
  if (m < 3) return;
  for (int k = 0; k < m; ++k)  // must be strictly convex to be trusted
    if (!(cross2(poly[k], poly[(k + 1) % m], poly[(k + 2) % m]) > 0)) return;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    bool inside = true;
    for (int k = 0; k < m && inside; ++k) inside = cross2(poly[k], poly[(k + 1) % m], pts[i]) > 0;
    if (!inside) pts[kept++] = pts[i];
  }
  pts.resize(kept);
}

// Unit 2D direction of the minimum-area rectangle around the convex polygon
// h (CCW). Rotating calipers: the optimal rectangle has a side flush with a
// hull edge (Freeman & Shapira 1975), so only edge directions are tried;
// for edge i the extreme vertices along the edge (max and min) and along its
// inward normal move monotonically CCW as i advances, so each pointer walks
// the polygon about once. The pointers only choose the direction: the
// caller recomputes exact extents over every point.
P2 minAreaDirection(const std::vector<P2>& h) {
  const std::size_t n = h.size();
  if (n < 2) return {1, 0};
  auto edgeDir = [&](std::size_t i) {
    const P2& a = h[i];
    const P2& b = h[(i + 1) % n];
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double len = std::sqrt(dx * dx + dy * dy);  // not hypot: libm differs native/wasm
    return len > 0 ? P2{dx / len, dy / len} : P2{1, 0};
  };
  if (n == 2) return edgeDir(0);
  auto dotp = [](const P2& a, const P2& d) { return a.x * d.x + a.y * d.y; };

  // Initial pointers for edge 0 by a full scan.
  P2 e = edgeDir(0);
  P2 nrm{-e.y, e.x};  // inward normal of a CCW polygon
  std::size_t right = 0, top = 0, left = 0;
  for (std::size_t k = 1; k < n; ++k) {
    if (dotp(h[k], e) > dotp(h[right], e)) right = k;
    if (dotp(h[k], nrm) > dotp(h[top], nrm)) top = k;
    if (dotp(h[k], e) < dotp(h[left], e)) left = k;
  }
  double bestArea = 0;
  P2 best = e;
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) {
      e = edgeDir(i);
      nrm = {-e.y, e.x};
      // Each walk is capped at n steps (a strictly convex polygon needs far
      // fewer; the cap only matters for rounding-made plateaus).
      for (std::size_t s = 0; s < n && dotp(h[(right + 1) % n], e) > dotp(h[right], e); ++s)
        right = (right + 1) % n;
      for (std::size_t s = 0; s < n && dotp(h[(top + 1) % n], nrm) > dotp(h[top], nrm); ++s)
        top = (top + 1) % n;
      for (std::size_t s = 0; s < n && dotp(h[(left + 1) % n], e) < dotp(h[left], e); ++s)
        left = (left + 1) % n;
    }
    const double width = dotp(h[right], e) - dotp(h[left], e);
    const double height = dotp(h[top], nrm) - dotp(h[i], nrm);
    const double area = width * height;
    if (i == 0 || area < bestArea) {
      bestArea = area;
      best = e;
    }
  }
  return best;
}

// The smallest box with one axis fixed to the unit vector n: the minimum-area
// rectangle of the points projected on the plane ⟂ n.
// invScale (1 / the cloud's size) keeps the 2D coordinates near 1, so the
// calipers' squares and areas cannot overflow for huge coordinates.
Obb minRectangleBox(const Vec3& n, const std::vector<Vec3>& pts, double invScale) {
  const Vec3 u = anyPerpendicular(n);
  const Vec3 w = cross(n, u);
  const Vec3 ref = pts[0];
  std::vector<P2> proj;
  proj.reserve(pts.size());
  for (const Vec3& p : pts) {
    const Vec3 d = (p - ref) * invScale;
    proj.push_back({dot(d, u), dot(d, w)});
  }
  discardInterior(proj);
  const std::vector<P2> h = hull2d(proj);
  const P2 dir = minAreaDirection(h);
  Vec3 axes[3];
  axes[0] = normalizedOr(u * dir.x + w * dir.y, u);
  axes[1] = cross(n, axes[0]);
  axes[2] = n;  // (a0, n × a0, n) is right-handed
  orthonormalize(axes);
  return obbWithAxes(axes, pts);
}

// Extremal points of the cloud along 13 fixed directions (3 axes, 6 face
// and 4 body diagonals) and the fit's 3 axes: at most 32 points, a cheap
// stand-in for the hull when scoring many candidate orientations.
std::vector<Vec3> extremalSubset(const std::vector<Vec3>& pts, const Vec3 fitAxes[3]) {
  const Vec3 dirs[16] = {{1, 0, 0},  {0, 1, 0},  {0, 0, 1},  {1, 1, 0},  {1, -1, 0}, {1, 0, 1},
                         {1, 0, -1}, {0, 1, 1},  {0, 1, -1}, {1, 1, 1},  {1, 1, -1}, {1, -1, 1},
                         {-1, 1, 1}, fitAxes[0], fitAxes[1], fitAxes[2]};
  std::size_t lo[16] = {}, hi[16] = {};
  double vlo[16], vhi[16];
  for (int d = 0; d < 16; ++d) vlo[d] = vhi[d] = dot(pts[0] - pts[0], dirs[d]);
  const Vec3 ref = pts[0];
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const Vec3 q = pts[i] - ref;
    for (int d = 0; d < 16; ++d) {
      const double t = dot(q, dirs[d]);
      if (t < vlo[d]) vlo[d] = t, lo[d] = i;
      if (t > vhi[d]) vhi[d] = t, hi[d] = i;
    }
  }
  std::vector<std::size_t> idx;
  for (int d = 0; d < 16; ++d) idx.push_back(lo[d]), idx.push_back(hi[d]);
  std::sort(idx.begin(), idx.end());
  idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
  std::vector<Vec3> out;
  for (std::size_t i : idx) out.push_back(pts[i]);
  return out;
}

// ---------------------------------------------------------- box ordering
// Volumes closer than this (relative) are a tie…
constexpr double kTieRelative = 1e-9;
// …and so are volumes differing by less than a slab kFlatSine·L thin (L
// the cloud's size) over L × L: a flat cloud's boxes have volumes of
// rounding noise (~1e-16 L³), which must not decide between them.

double surfaceArea(const Obb& b) {
  const Vec3& h = b.halfExtents;
  return 8.0 * (h.x * h.y + h.y * h.z + h.z * h.x);
}

// a strictly better than b: smaller volume, ties (flat clouds) by surface
// area, then by the sum of half-extents (collinear clouds).
bool better(const Obb& a, const Obb& b, double flatVolume) {
  const double va = a.volume(), vb = b.volume();
  const double tolV = kTieRelative * std::max(va, vb) + flatVolume;
  if (va < vb - tolV) return true;
  if (vb < va - tolV) return false;
  const double sa = surfaceArea(a), sb = surfaceArea(b);
  const double tolS = kTieRelative * std::max(sa, sb);
  if (sa < sb - tolS) return true;
  if (sb < sa - tolS) return false;
  const double la = a.halfExtents.x + a.halfExtents.y + a.halfExtents.z;
  const double lb = b.halfExtents.x + b.halfExtents.y + b.halfExtents.z;
  return la < lb * (1.0 - kTieRelative);
}

// ------------------------------------------------------------ ball helpers
struct Ball {
  Vec3 c;
  double r2 = 0;  // squared radius
};

// Outside test with a relative slack, so points on the sphere to rounding do
// not restart Welzl's loops (the final radius is exact regardless).
constexpr double kBallSlack = 1e-12;
bool outside(const Vec3& p, const Ball& b) { return lengthSquared(p - b.c) > b.r2 * (1.0 + kBallSlack); }

Ball ball2(const Vec3& a, const Vec3& b) {
  Ball out;
  out.c = (a + b) * 0.5;
  out.r2 = std::max(lengthSquared(a - out.c), lengthSquared(b - out.c));
  return out;
}

// The largest pairwise diameter ball (collinear fallback).
Ball widestPair(const Vec3* p, int n) {
  Ball best = ball2(p[0], p[1]);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const Ball b = ball2(p[i], p[j]);
      if (b.r2 > best.r2) best = b;
    }
  return best;
}

// Relative size below which a circumcircle/-sphere is degenerate:
// |a×b|² ≤ kDegenerate·|a|²|b|² means the points are collinear to ~1e-7 rad.
constexpr double kDegenerate = 1e-14;

// Smallest ball with a, b, c on its boundary: the circumcircle, centre in
// their plane. With a' = b − a, b' = c − a:
//   centre = a + ((|a'|² b' − |b'|² a') × (a' × b')) / (2 |a' × b'|²).
Ball ball3(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 u = b - a, v = c - a;
  const Vec3 n = cross(u, v);
  const double nn = lengthSquared(n);
  if (!(nn > kDegenerate * lengthSquared(u) * lengthSquared(v))) {
    const Vec3 p[3] = {a, b, c};
    return widestPair(p, 3);
  }
  Ball out;
  out.c = a + cross(u * lengthSquared(v) - v * lengthSquared(u), n) * (-1.0 / (2.0 * nn));
  out.r2 = std::max({lengthSquared(a - out.c), lengthSquared(b - out.c), lengthSquared(c - out.c)});
  return out;
}

// Circumsphere of a tetrahedron: with u, v, w = b − a, c − a, d − a,
//   centre = a + (|u|² (v×w) + |v|² (w×u) + |w|² (u×v)) / (2 u·(v×w)).
// Coplanar input: the smallest of the 2- and 3-point balls that holds all 4.
Ball ball4(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Vec3 u = b - a, v = c - a, w = d - a;
  const Vec3 vw = cross(v, w);
  const double det = dot(u, vw);
  const double mag = length(u) * length(v) * length(w);
  if (std::fabs(det) > 1e-7 * mag) {  // not flat to ~1e-7 rad (see kDegenerate)
    Ball out;
    out.c = a + (vw * lengthSquared(u) + cross(w, u) * lengthSquared(v) + cross(u, v) * lengthSquared(w)) /
                    (2.0 * det);
    out.r2 = std::max({lengthSquared(a - out.c), lengthSquared(b - out.c), lengthSquared(c - out.c),
                       lengthSquared(d - out.c)});
    return out;
  }
  const Vec3 p[4] = {a, b, c, d};
  Ball best;
  bool found = false;
  auto consider = [&](const Ball& cand) {
    for (const Vec3& q : p)
      if (outside(q, cand)) return;
    if (!found || cand.r2 < best.r2) best = cand, found = true;
  };
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) consider(ball2(p[i], p[j]));
  for (int i = 0; i < 4; ++i) consider(ball3(p[(i + 1) % 4], p[(i + 2) % 4], p[(i + 3) % 4]));
  if (!found) {  // rounding: take the widest pair and grow it over all four
    best = widestPair(p, 4);
    for (const Vec3& q : p) best.r2 = std::max(best.r2, lengthSquared(q - best.c));
  }
  return best;
}

// Ritter (1990): a ball on an approximately farthest pair, grown over one
// pass. Within ~5–20 % of optimal; used only when Welzl hits its work cap.
Ball ritter(const std::vector<Vec3>& q) {
  auto farthest = [&](const Vec3& from) {
    std::size_t k = 0;
    double best = -1;
    for (std::size_t i = 0; i < q.size(); ++i) {
      const double d = lengthSquared(q[i] - from);
      if (d > best) best = d, k = i;
    }
    return k;
  };
  const std::size_t y = farthest(q[0]);
  const std::size_t z = farthest(q[y]);
  Ball b = ball2(q[y], q[z]);
  double r = std::sqrt(b.r2);
  for (const Vec3& p : q) {
    const double d = length(p - b.c);
    if (d > r) {
      const double nr = 0.5 * (r + d);
      b.c = b.c + (p - b.c) * ((nr - r) / d);
      r = nr;
    }
  }
  b.r2 = r * r;
  return b;
}

// SplitMix64: a fixed, portable generator for the deterministic shuffle.
std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

// ------------------------------------------------------------------ public

double BoundingSphere::volume() const { return 4.0 / 3.0 * kPi * radius * radius * radius; }

bool checkBoundsInput(const std::vector<Vec3>& pts, BoundsError* err) {
  if (pts.empty()) {
    if (err) *err = {"points", "is empty"};
    return false;
  }
  for (std::size_t i = 0; i < pts.size(); ++i)
    if (!isFinite(pts[i])) {
      if (err) *err = {"points", "point " + std::to_string(i) + " has a non-finite coordinate"};
      return false;
    }
  return true;
}

Aabb computeAabb(const std::vector<Vec3>& pts) {
  Aabb box;
  if (pts.empty()) return box;
  box.min = box.max = pts[0];
  for (const Vec3& p : pts)
    for (int i = 0; i < 3; ++i) {
      box.min[i] = std::min(box.min[i], p[i]);
      box.max[i] = std::max(box.max[i], p[i]);
    }
  return box;
}

Obb obbWithAxes(const Vec3 axesIn[3], const std::vector<Vec3>& pts) {
  Obb box;
  for (int i = 0; i < 3; ++i) box.axes[i] = axesIn[i];
  if (pts.empty()) return box;
  // Project relative to the first point: differences stay within the
  // cloud's extent, so no digits are lost to a far-away origin.
  const Vec3 ref = pts[0];
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  for (const Vec3& p : pts) {
    const Vec3 d = p - ref;
    for (int i = 0; i < 3; ++i) {
      const double t = dot(d, box.axes[i]);
      lo[i] = std::min(lo[i], t);
      hi[i] = std::max(hi[i], t);
    }
  }
  box.center = ref;
  for (int i = 0; i < 3; ++i) {
    box.center += box.axes[i] * (0.5 * lo[i] + 0.5 * hi[i]);
    box.halfExtents[i] = 0.5 * hi[i] - 0.5 * lo[i];
  }
  return box;
}

Obb obbFromAabb(const Aabb& a) {
  Obb box;  // world axes
  box.center = a.min * 0.5 + a.max * 0.5;
  box.halfExtents = a.max * 0.5 - a.min * 0.5;
  return box;
}

SymmetricEigen symmetricEigen(const double m[3][3]) {
  SymmetricEigen out;
  double a[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a[i][j] = 0.5 * (m[i][j] + m[j][i]);  // enforce symmetry
  // Cyclic Jacobi (Numerical Recipes' form): the rotation in plane (p, q)
  // with θ = (a_qq − a_pp)/(2 a_pq), t = sgn θ/(|θ| + √(θ²+1)) (the smaller
  // root of t² + 2tθ − 1 = 0, |t| ≤ 1), c = 1/√(t²+1), s = tc zeroes a_pq.
  out.converged = false;
  for (int sweep = 0; sweep < kJacobiMaxSweeps; ++sweep) {
    const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    const double diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
    // Converged when the off-diagonal part is below rounding of the
    // diagonal (1e-36 = (1e-18)²: below double precision, so we stop only
    // once further rotations cannot change the result).
    if (off == 0 || off <= 1e-36 * diag) {
      out.converged = true;
      break;
    }
    if (!std::isfinite(off)) break;
    out.sweeps = sweep + 1;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        if (a[p][q] == 0) continue;
        const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
        double t;
        if (std::fabs(theta) > 1e150) t = 0.5 / theta;  // θ² would overflow; t ≈ 1/(2θ)
        else t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < 3; ++k) {  // A ← A·J (columns p, q)
          const double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; ++k) {  // A ← Jᵀ·A (rows p, q)
          const double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        a[p][q] = a[q][p] = 0.0;  // zero by construction; drop rounding
        for (int k = 0; k < 3; ++k) {  // V ← V·J
          const double vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
  }
  // Sort by decreasing eigenvalue (stable: equal values keep Jacobi's order).
  int order[3] = {0, 1, 2};
  for (int i = 1; i < 3; ++i)
    for (int j = i; j > 0 && a[order[j]][order[j]] > a[order[j - 1]][order[j - 1]]; --j)
      std::swap(order[j], order[j - 1]);
  Vec3 vec[3];
  for (int i = 0; i < 3; ++i) {
    const int k = order[i];
    out.values[i] = a[k][k];
    vec[i] = {v[0][k], v[1][k], v[2][k]};
  }
  vec[0] = canonicalSign(vec[0]);
  vec[1] = canonicalSign(vec[1]);
  orthonormalize(vec);
  for (int i = 0; i < 3; ++i) out.vectors[i] = vec[i];
  return out;
}

namespace {

// The unit vector spanning the null space of the symmetric M = A − λI for a
// simple eigenvalue λ: the longest cross product of two of M's rows (rows
// of a rank-2 matrix span the plane orthogonal to the null vector). Zero
// when every product vanishes.
Vec3 nullVector(const double a[3][3], double lambda) {
  const Vec3 r0{a[0][0] - lambda, a[0][1], a[0][2]};
  const Vec3 r1{a[1][0], a[1][1] - lambda, a[1][2]};
  const Vec3 r2{a[2][0], a[2][1], a[2][2] - lambda};
  const Vec3 c[3] = {cross(r0, r1), cross(r0, r2), cross(r1, r2)};
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (lengthSquared(c[i]) > lengthSquared(c[k])) k = i;
  const double l = length(c[k]);
  return l > 0 ? c[k] / l : Vec3{};
}

}  // namespace

SymmetricEigen symmetricEigenClosedForm(const double m[3][3]) {
  double a[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a[i][j] = 0.5 * (m[i][j] + m[j][i]);
  const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
  if (!(off > 0) || !std::isfinite(off)) return symmetricEigen(m);  // diagonal (or NaN): Jacobi is exact
  // Eigenvalues of A = qI + pB (q their mean, p their spread): with
  // x = cos 3φ = det(B)/2 they are q + 2p cos(φ + 2πk/3), φ in [0, π/3].
  const double q = (a[0][0] + a[1][1] + a[2][2]) / 3.0;
  const double d0 = a[0][0] - q, d1 = a[1][1] - q, d2 = a[2][2] - q;
  const double p = std::sqrt((d0 * d0 + d1 * d1 + d2 * d2 + 2.0 * off) / 6.0);
  if (!(p > 0) || !std::isfinite(p)) return symmetricEigen(m);
  const double b00 = d0 / p, b11 = d1 / p, b22 = d2 / p;
  const double b01 = a[0][1] / p, b02 = a[0][2] / p, b12 = a[1][2] / p;
  const double det = b00 * (b11 * b22 - b12 * b12) - b01 * (b01 * b22 - b12 * b02) + b02 * (b01 * b12 - b11 * b02);
  const double x = std::min(1.0, std::max(-1.0, 0.5 * det));
  // The eigenvalue farther from the middle one is isolated (its gap is at
  // least half the spread, ≥ 1.5p), so it and its null vector are
  // accurate; the nearer pair can be ill-conditioned as a cubic's roots and
  // is solved instead as the 2×2 problem in the plane orthogonal to it. The
  // largest is the isolated one when x ≥ 0 (φ ≤ π/6), the least otherwise:
  // q ± 2p·c with c = cos(arccos|x| / 3), the largest root of the
  // trisection cubic 4c³ − 3c = |x|, which lies in [√3/2, 1] where the
  // cubic's slope is at least 6. Newton's method finds it with +, −, ×, ÷
  // only (correctly rounded everywhere: the same bits natively and in
  // WebAssembly, without a transcendental function's series): from the
  // start min(1, √3/2 + |x|/6), above the root (c is concave in |x| and
  // that is its tangent at 0), the cubic is convex, so the iterates fall
  // monotonically, quadratically (error e → ≤ 2e², from ≤ 0.03); the loop
  // stops when an iterate no longer falls (rounding reached).
  const bool hiIsolated = x >= 0;
  const double y = std::fabs(x);
  double c3 = std::min(1.0, 0.8660254037844386 + y / 6.0);
  for (int it = 0; it < kTrisectionMaxSteps; ++it) {
    const double next = c3 - (4.0 * c3 * c3 * c3 - 3.0 * c3 - y) / (12.0 * c3 * c3 - 3.0);
    if (!(next < c3)) break;
    c3 = next;
  }
  const double isoValue = hiIsolated ? q + 2.0 * p * c3 : q - 2.0 * p * c3;
  const Vec3 iso = nullVector(a, isoValue);
  if (!(std::fabs(lengthSquared(iso) - 1.0) < 1e-12)) return symmetricEigen(m);
  const Vec3 u = anyPerpendicular(iso), w = cross(iso, u);
  auto form = [&](const Vec3& x, const Vec3& y) {
    double sum = 0;
    for (int i = 0; i < 3; ++i) sum += x[i] * (a[i][0] * y.x + a[i][1] * y.y + a[i][2] * y.z);
    return sum;
  };
  const double uu = form(u, u), uw = form(u, w), ww = form(w, w);
  // The quadratic form in the plane, (uu + ww)/2 + (uu − ww)/2·cos 2θ + uw·sin 2θ,
  // is largest at cos 2θ = (uu − ww)/2r, sin 2θ = uw/r with r = |((uu − ww)/2, uw)|,
  // θ in (−π/2, π/2]. Half-angle formulas give c = cos θ ≥ 0 and s = sin θ
  // without trigonometry: the larger of the two from its square root (accurate
  // there), the other from sin 2θ = 2sc.
  const double half = 0.5 * (uu - ww);
  const double r = std::sqrt(half * half + uw * uw);
  double c = 1, s = 0;
  if (r > 0) {
    const double cos2 = half / r, sin2 = uw / r;
    if (cos2 >= 0) {
      c = std::sqrt(0.5 * (1.0 + cos2));
      s = sin2 / (2.0 * c);
    } else {
      s = std::sqrt(0.5 * (1.0 - cos2));
      if (sin2 < 0) s = -s;
      c = sin2 / (2.0 * s);
    }
  }
  const Vec3 big = u * c + w * s, small = w * c - u * s;
  const double bigValue = uu * c * c + 2.0 * uw * c * s + ww * s * s;
  const double smallValue = uu * s * s - 2.0 * uw * c * s + ww * c * c;
  SymmetricEigen out;
  Vec3 vec[2];
  if (hiIsolated) {
    out.values[0] = isoValue, out.values[1] = bigValue, out.values[2] = smallValue;
    vec[0] = iso, vec[1] = big;
  } else {
    out.values[0] = bigValue, out.values[1] = smallValue, out.values[2] = isoValue;
    vec[0] = big, vec[1] = small;
  }
  // Orthonormal by construction (to rounding): signed and made
  // right-handed as symmetricEigen's.
  out.vectors[0] = canonicalSign(vec[0]);
  out.vectors[1] = canonicalSign(vec[1]);
  out.vectors[2] = cross(out.vectors[0], out.vectors[1]);
  return out;
}

Covariance pointCovariance(const std::vector<Vec3>& pts) {
  if (pts.empty()) return Covariance{};
  const Frame f = frameOf(computeAabb(pts));
  return unscale(scaledPointCovariance(pts, f), f, 1.0);
}

Covariance triangleCovariance(const std::vector<Vec3>& verts,
                              const std::vector<std::array<int, 3>>& tris) {
  if (verts.empty()) return Covariance{};
  const Frame f = frameOf(computeAabb(verts));
  return unscale(scaledTriangleCovariance(verts, tris, f), f, f.scale * f.scale);
}

Obb obbFromPoints(const std::vector<Vec3>& pts) {
  if (pts.empty()) return Obb{};
  const Frame f = frameOf(computeAabb(pts));
  const ScaledCov c = scaledPointCovariance(pts, f);
  const SymmetricEigen e = symmetricEigen(c.m);
  return obbWithAxes(e.vectors, pts);
}

Obb obbFromTriangles(const std::vector<Vec3>& verts, const std::vector<std::array<int, 3>>& tris) {
  if (verts.empty()) return Obb{};
  const Frame f = frameOf(computeAabb(verts));
  const ScaledCov c = scaledTriangleCovariance(verts, tris, f);
  if (!(c.weight > 0)) return obbFromPoints(verts);  // no surface: points decide
  const SymmetricEigen e = symmetricEigen(c.m);
  return obbWithAxes(e.vectors, verts);
}

Obb refineObb(const Obb& fit, const std::vector<Vec3>& pts) { return refineObb(fit, pts, nullptr); }

Obb refineObb(const Obb& fit, const std::vector<Vec3>& pts, RefineInfo* info) {
  RefineInfo local;
  RefineInfo& inf = info ? *info : local;
  inf = RefineInfo{};
  if (pts.empty()) {
    inf.usedAabb = true;
    return Obb{};
  }
  const Aabb aabb = computeAabb(pts);
  const Obb aabbBox = obbFromAabb(aabb);
  const double size = 2.0 * maxAbs(aabbBox.halfExtents);  // L, the largest AABB side
  const double flatVolume = kFlatSine * size * size * size;
  const double invScale = size > 0 && std::isfinite(size) ? 1.0 / size : 1.0;

  Vec3 axes[3] = {fit.axes[0], fit.axes[1], fit.axes[2]};
  orthonormalize(axes);  // tolerate a caller's slightly non-orthonormal axes
  const Obb start = obbWithAxes(axes, pts);
  Obb best = start;

  // Seeds: one fixed axis from the fit or the world, the rest optimal.
  const Vec3 world[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int k = 0; k < 6; ++k) {
    const Obb cand = minRectangleBox(k < 3 ? axes[k] : world[k - 3], pts, invScale);
    if (better(cand, best, flatVolume)) best = cand;
  }
  // Seeds from the extremal subset (as in DiTO, Larsson & Källberg 2011):
  // every direction between two extremal points as the fixed axis, scored
  // on the subset alone (cheap), the winner re-fitted on every point. Boxes
  // whose edges run between hull vertices — any box's own corners — are
  // found exactly this way.
  {
    const std::vector<Vec3> ext = extremalSubset(pts, axes);
    Obb bestOnSubset;
    bool have = false;
    for (std::size_t i = 0; i < ext.size(); ++i)
      for (std::size_t j = i + 1; j < ext.size(); ++j) {
        const Vec3 d = ext[j] - ext[i];
        if (!(maxAbs(d) > 0)) continue;
        const Obb cand = minRectangleBox(normalizedOr(d, Vec3{1, 0, 0}), ext, invScale);
        if (!have || better(cand, bestOnSubset, flatVolume)) bestOnSubset = cand, have = true;
      }
    if (have) {
      const Obb cand = obbWithAxes(bestOnSubset.axes, pts);
      if (better(cand, best, flatVolume)) best = cand;
    }
  }
  // Coordinate descent: re-fit the rectangle around each axis of the best
  // box. The current box is itself a candidate for that axis, so the
  // sequence never grows; stop when a sweep changes nothing, or gains less
  // than kRefineProgress (near-spherical clouds otherwise creep on). When
  // it stalls, one escape: the box's 6 face diagonals and 4 body diagonals
  // as fixed axes (a rotation no single-axis step can make); if one helps,
  // descend again (at most kRefineEscapes times).
  for (int escape = 0; escape <= kRefineEscapes; ++escape) {
    if (escape > 0) {
      const Vec3* a = best.axes;
      const Vec3 diagonals[10] = {a[0] + a[1], a[0] - a[1], a[1] + a[2], a[1] - a[2], a[2] + a[0],
                                  a[2] - a[0], a[0] + a[1] + a[2], a[0] + a[1] - a[2], a[0] - a[1] + a[2],
                                  -a[0] + a[1] + a[2]};
      bool escaped = false;
      for (const Vec3& d : diagonals) {
        const Obb cand = minRectangleBox(normalizedOr(d, a[0]), pts, invScale);
        if (better(cand, best, flatVolume)) best = cand, escaped = true;
      }
      if (!escaped) break;
    }
    for (int sweep = 0; sweep < kRefineMaxSweeps; ++sweep) {
      ++inf.sweeps;
      const Obb before = best;
      bool changed = false;
      for (int k = 0; k < 3; ++k) {
        const Vec3 axis = best.axes[k];
        const Obb cand = minRectangleBox(axis, pts, invScale);
        if (better(cand, best, flatVolume)) best = cand, changed = true;
      }
      if (!changed) break;
      const double vb = before.volume(), va = best.volume();
      if (va > 0 && vb - va < kRefineProgress * vb) break;  // flat boxes (v = 0) keep going
    }
  }

  // Keep the fit's own axes unless something is strictly better.
  inf.improved = better(best, start, flatVolume);
  if (!inf.improved) best = start;
  // The guarantee: never a box with volume above the AABB's.
  if (best.volume() > aabb.volume() || better(aabbBox, best, flatVolume) || !isFinite(best.center) ||
      !isFinite(best.halfExtents)) {
    inf.usedAabb = true;
    inf.improved = better(aabbBox, start, flatVolume);
    return aabbBox;
  }
  canonicalize(&best);
  return best;
}

BoundingSphere computeBoundingSphere(const std::vector<Vec3>& pts) {
  BoundingSphere out;
  if (pts.empty()) return out;
  const Frame f = frameOf(computeAabb(pts));
  const std::size_t n = pts.size();

  // Scaled copy in a fixed pseudo-random order (Fisher–Yates, SplitMix64
  // with a constant seed): Welzl's expected O(n) needs a random order, and
  // a fixed seed keeps the result the same bits on every run.
  std::vector<Vec3> q(n);
  for (std::size_t i = 0; i < n; ++i) q[i] = f.toLocal(pts[i]);
  std::uint64_t seed = 0x636F6C6C69646F73ull;  // "collidos"
  for (std::size_t i = n - 1; i > 0; --i) {
    const std::size_t j = static_cast<std::size_t>(splitmix(seed) % (i + 1));
    std::swap(q[i], q[j]);
  }

  // Welzl's recursion unrolled into four nested loops (3D: at most four
  // points determine the ball): the ball of q[0..i] has q[i] on its
  // boundary if q[i] is outside the ball of q[0..i-1], and so on down.
  const std::uint64_t workCap = static_cast<std::uint64_t>(kSphereWorkFactor) * n + 1024;
  std::uint64_t work = 0;
  bool capped = false;
  Ball b;
  b.c = q[0];
  for (std::size_t i = 1; i < n && !capped; ++i) {
    if (!outside(q[i], b)) continue;
    b.c = q[i];
    b.r2 = 0;
    for (std::size_t j = 0; j < i && !capped; ++j) {
      if (!outside(q[j], b)) continue;
      b = ball2(q[i], q[j]);
      capped = ++work > workCap;
      for (std::size_t k = 0; k < j && !capped; ++k) {
        if (!outside(q[k], b)) continue;
        b = ball3(q[i], q[j], q[k]);
        capped = ++work > workCap;
        for (std::size_t l = 0; l < k && !capped; ++l) {
          if (!outside(q[l], b)) continue;
          b = ball4(q[i], q[j], q[k], q[l]);
          capped = ++work > workCap;
        }
      }
    }
  }
  if (capped || !isFinite(b.c)) b = ritter(q);

  // Whatever the centre, the radius is the largest distance to it: every
  // point is inside (to the rounding of one sqrt and the scaling).
  double r2 = 0;
  for (const Vec3& p : q) r2 = std::max(r2, lengthSquared(p - b.c));
  out.center = f.toWorld(b.c);
  out.radius = std::sqrt(r2) * f.scale;
  return out;
}

}  // namespace collidoscope
