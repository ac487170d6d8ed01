// collidoscope — the convex-hull builder (hull.h lists its steps and cites
// the sources) and the names of its kinds. The pseudocode's words are in
// web/lib/captions.ts; its line ids are hull.h's hull_lines.
#include "collidoscope/hull.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "collidoscope/portable_math.h"
#include "collidoscope/predicates.h"

namespace collidoscope {

const char* hullKindName(HullKind k) {
  switch (k) {
    case HullKind::Point: return "point";
    case HullKind::Segment: return "segment";
    case HullKind::Polygon: return "polygon";
    case HullKind::Polyhedron: return "polyhedron";
  }
  return "point";
}

namespace {

using detail::accurateNormal;
using detail::DoubleDouble;
using detail::ddMul;
using detail::ddSub;
using detail::ddTwoSum;

// Fractions of the tolerance τ that the steps work to. The promises they
// add up to (checked by tests/cpp/hull_reference.h): every input point lies
// within 2τ of every merged face's plane, adjacent faces facing the same
// side are not within τ/2 of each other's plane, and a vertex is not within
// τ of the hull of its neighbours.
//   * A vertex within kDropGap·τ of the hull of its neighbours goes.
//   * Every point dropped so far must stay within kDropBudget·τ of the hull
//     of the vertices kept; a vertex whose removal would break that stays
//     (unless it is within τ of a neighbour: see VertexDrops::tryDrop).
//   * Faces whose corners lie within kMergeDepth·τ of each other's planes
//     are merged (τ/2 plus the rounding of two plane distances, so that a
//     pair the test measures at τ/2 in its own arithmetic is merged here) ...
//   * ... when the union stays within kMergeFlatness·τ of its own plane.
// A point within kDropBudget·τ of a face whose corners are within
// kMergeFlatness·τ of its plane is within their sum, 2τ, of that plane.
constexpr double kDropGap = 1.0;
constexpr double kDropBudget = 1.25;
constexpr double kMergeDepth = 0.5;
constexpr double kMergeFlatness = 0.75;
// Rounds of vertex drops (each rebuilds the hull of the vertices kept; a
// run of nearly collinear vertices loses about half per round).
constexpr int kMaxDropRounds = 64;
// A vertex that merging would leave between two faces goes when it is
// within this·τ of the hull of its neighbours; at most kMaxForcedDrops are.
constexpr double kForcedGap = 2.0;
constexpr int kMaxForcedDrops = 16;
// When no stuck vertex can go, the corners of the pairs left unmerged are
// tried, nearest the hull of their neighbours first, this many at most.
constexpr std::size_t kMaxLooseTries = 4;
// Farther than that, it goes when it (and every point leaning on it) lies
// within kForcedHeight·τ of every face plane of the hull of the rest, and
// merged faces keep those points within that height of their planes.
constexpr double kForcedHeight = 2.0;
// Faces a merge may take in beyond the pair it starts from.
constexpr int kMaxMergeRounds = 4;
// A hull thinner than this·τ across one of its faces is that polygon.
constexpr double kFlatWidth = 1.0;

constexpr double kU = kUnitRoundoff;

double segmentDistance(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 e = b - a;
  const double ee = dot(e, e);
  const double t = ee > 0 ? std::fmin(1.0, std::fmax(0.0, dot(p - a, e) / ee)) : 0.0;
  return length(p - (a + e * t));
}

// The cloud and its tolerance. `pts` are the points relative to the
// bounding box's centre (the dimension step's plane arithmetic stays small
// there); the exact steps use `input` itself.
struct Cloud {
  const std::vector<Vec3>& input;
  std::vector<Vec3> pts;
  double tolerance = 0;
  double extent = 0;  // Σ over axes of the bounding box's side: bounds |p − q|₁ for any two points
  HullRecorder* trace = nullptr;

  Cloud(const std::vector<Vec3>& in, double relTol, HullRecorder* t) : input(in), trace(t) {
    Vec3 lo = in[0], hi = in[0];
    double big = 0;
    for (const Vec3& p : in) {
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::fmin(lo[a], p[a]);
        hi[a] = std::fmax(hi[a], p[a]);
      }
      big = std::fmax(big, maxAbs(p));
    }
    const Vec3 center = (lo + hi) * 0.5;
    pts.reserve(in.size());
    for (const Vec3& p : in) pts.push_back(p - center);
    const Vec3 half = (hi - lo) * 0.5;
    tolerance = relTol * (half.x + half.y + half.z) + 32 * kU * big;
    extent = (hi.x - lo.x) + (hi.y - lo.y) + (hi.z - lo.z);
  }
  const Vec3& at(int i) const { return input[static_cast<std::size_t>(i)]; }
};

void setVertices(const Cloud& c, ConvexHull* out, const std::vector<int>& idx) {
  for (int i : idx) {
    out->inputIndex.push_back(i);
    out->vertices.push_back(c.at(i));
  }
  out->adjacency.assign(idx.size(), {});
}

void recordDegenerate(const Cloud& c, HullKind kind, std::vector<int> extremes) {
  if (!c.trace) return;
  HullFrame f;
  f.event = HullEvent::Degenerate;
  f.line = hull_lines::kDegenerate;
  f.kind = kind;
  f.extremes = std::move(extremes);
  c.trace->record(std::move(f));
}

void finishPoint(const Cloud& c, ConvexHull* out, int i0) {
  out->kind = HullKind::Point;
  setVertices(c, out, {i0});
  recordDegenerate(c, out->kind, {i0});
}

void finishSegment(const Cloud& c, ConvexHull* out, int i0, int i1) {
  out->kind = HullKind::Segment;
  setVertices(c, out, {i0, i1});
  out->adjacency[0] = {1};
  out->adjacency[1] = {0};
  recordDegenerate(c, out->kind, {i0, i1});
}

// ---- flat clouds ------------------------------------------------------------
//
// Andrew's monotone chain in the plane (u, v) ⟂ nrm, then corners within the
// tolerance of their neighbours' chord dropped.
void finishPolygon(const Cloud& c, ConvexHull* out, const Vec3& nrm, int i0, const Vec3& along) {
  const std::vector<Vec3>& pts = c.pts;
  out->kind = HullKind::Polygon;
  out->normal = nrm;
  // u along the longest extent (the farthest pair of extremes): the chain
  // sorts by u, and on a needle-like polygon a sideways u would put the
  // needle's ends in the middle of the order, where a chord test that
  // measures distance to a line (not a segment) can drop them.
  const Vec3 fallback = normalizedOr(cross(nrm, std::fabs(nrm.x) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 1, 0}), Vec3{1, 0, 0});
  const Vec3 u = normalizedOr(along - nrm * dot(nrm, along), fallback);
  const Vec3 v = cross(nrm, u);
  struct P2 {
    double x, y;
    int i;
  };
  std::vector<P2> q;
  q.reserve(pts.size());
  for (std::size_t i = 0; i < pts.size(); ++i)
    q.push_back({dot(pts[i] - pts[static_cast<std::size_t>(i0)], u), dot(pts[i] - pts[static_cast<std::size_t>(i0)], v),
                 static_cast<int>(i)});
  std::sort(q.begin(), q.end(), [](const P2& a, const P2& b) {
    return a.x < b.x || (a.x == b.x && (a.y < b.y || (a.y == b.y && a.i < b.i)));
  });
  // The flatness actually met: every input point lies within `deviation`
  // of the polygon's plane. That exceeds the build tolerance when the plane
  // is ill-conditioned (a nearly collinear triple: its computed normal is
  // uncertain by ~u·|e1||e2|/|e1 × e2|); the polygon reports the larger.
  double deviation = 0;
  for (const Vec3& p : pts) deviation = std::fmax(deviation, std::fabs(dot(nrm, p - pts[static_cast<std::size_t>(i0)])));
  double tol = std::fmax(c.tolerance, deviation);
  // 1. The convex chain of the projected points with an accurate turn
  // test (the sign of the cross product in double-double, so only exactly
  // collinear or duplicate points are dropped). A chord-relative test with
  // a tolerance drops the wrong points: with a short chord (a, c) of a
  // sliver, a point b far along the chord's line passes as "on" it.
  auto orient = [](const P2& a, const P2& b, const P2& cc) {
    const DoubleDouble bx = ddTwoSum(b.x, -a.x), by = ddTwoSum(b.y, -a.y);
    const DoubleDouble cx = ddTwoSum(cc.x, -a.x), cy = ddTwoSum(cc.y, -a.y);
    const DoubleDouble r = ddSub(ddMul(bx, cy), ddMul(by, cx));
    return r.hi + r.lo;
  };
  std::vector<P2> h;
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t start = h.size();
    for (std::size_t k = 0; k < q.size(); ++k) {
      const P2& p = pass == 0 ? q[k] : q[q.size() - 1 - k];
      while (h.size() >= start + 2 && !(orient(h[h.size() - 2], h[h.size() - 1], p) > 0)) h.pop_back();
      h.push_back(p);
    }
    h.pop_back();  // the last point starts the other chain
  }
  // 2. Drop corners within the tolerance: corner b goes when b and every
  // chain point dropped beside it (between its neighbours a and c) lie
  // within `tol` of the segment (a, c). Checking the dropped points too
  // keeps the distances from adding up; the corners left are more than
  // the tolerance off their neighbours' chord (or keep a point that is),
  // so no two are within the tolerance of each other and each turns
  // clearly left.
  auto segDist = [](const P2& p, const P2& a, const P2& cc) {
    const double ex = cc.x - a.x, ey = cc.y - a.y, ee = ex * ex + ey * ey;
    const double t = ee > 0 ? std::fmin(1.0, std::fmax(0.0, ((p.x - a.x) * ex + (p.y - a.y) * ey) / ee)) : 0.0;
    return portable::hypot(p.x - a.x - ex * t, p.y - a.y - ey * t);
  };
  std::vector<std::vector<P2>> span(h.size());  // dropped points after each corner
  // How far corner k and the points dropped beside it lie from the chord
  // of its neighbours. The corner that leaves the smallest gap goes first,
  // so that among a run of nearly collinear points the most extreme stay.
  auto gapOf = [&](std::size_t k) {
    const std::size_t m = h.size();
    const std::size_t ka = (k + m - 1) % m, kc = (k + 1) % m;
    const P2 &a = h[ka], &cc = h[kc];
    double gap = segDist(h[k], a, cc);
    for (const P2& p : span[ka]) gap = std::fmax(gap, segDist(p, a, cc));
    for (const P2& p : span[k]) gap = std::fmax(gap, segDist(p, a, cc));
    return gap;
  };
  auto drop = [&](std::size_t k) {
    const std::size_t ka = (k + h.size() - 1) % h.size();
    span[ka].push_back(h[k]);
    span[ka].insert(span[ka].end(), span[k].begin(), span[k].end());
    h.erase(h.begin() + static_cast<std::ptrdiff_t>(k));
    span.erase(span.begin() + static_cast<std::ptrdiff_t>(k));
  };
  while (h.size() > 2) {
    const std::size_t m = h.size();
    std::size_t best = m;
    double bestGap = tol;
    for (std::size_t k = 0; k < m; ++k) {
      const double gap = gapOf(k);
      if (gap <= bestGap && (best == m || gap < bestGap)) best = k, bestGap = gap;
    }
    if (best == m) break;
    drop(best);
  }
  // 3. Two corners can still lie within the tolerance of each other (at
  // the end of a needle thinner than the tolerance, where dropping either
  // would leave a point dropped beside it just beyond `tol` of the new
  // chord). One of them goes anyway, the one that leaves the smaller gap,
  // and the polygon's tolerance grows to that gap: every point stays
  // within the reported tolerance of the outline, and no two corners left
  // are within it. Each round drops a corner, so it ends.
  for (std::size_t guard = h.size(); guard > 0 && h.size() > 2; --guard) {
    // A close pair by a sweep in x (a pair within `tol` is within it in x).
    std::vector<std::size_t> byX(h.size());
    for (std::size_t i = 0; i < byX.size(); ++i) byX[i] = i;
    auto px = [&](std::size_t i) -> const Vec3& { return pts[static_cast<std::size_t>(h[i].i)]; };
    std::sort(byX.begin(), byX.end(), [&](std::size_t a, std::size_t b) { return px(a).x < px(b).x || (px(a).x == px(b).x && a < b); });
    std::size_t first = h.size(), second = h.size();
    for (std::size_t i = 0; i < byX.size() && first == h.size(); ++i)
      for (std::size_t j = i + 1; j < byX.size() && px(byX[j]).x - px(byX[i]).x <= tol; ++j)
        if (length(px(byX[i]) - px(byX[j])) <= tol) {
          first = std::min(byX[i], byX[j]), second = std::max(byX[i], byX[j]);
          break;
        }
    if (first == h.size()) break;
    const double gapFirst = gapOf(first), gapSecond = gapOf(second);
    const std::size_t k = gapSecond < gapFirst ? second : first;
    tol = std::fmax(tol, std::fmin(gapFirst, gapSecond));
    drop(k);
  }
  if (h.size() < 3) {
    // Everything is within the tolerance of one chord after all (the
    // third point was off the first line by little more than it): a
    // segment, reporting the distance it actually meets.
    const int a = h.front().i, b = h.back().i;
    out->kind = HullKind::Segment;
    out->normal = Vec3{};
    double off = 0;
    for (const Vec3& p : pts)
      off = std::fmax(off, segmentDistance(p, pts[static_cast<std::size_t>(a)], pts[static_cast<std::size_t>(b)]));
    out->tolerance = std::fmax(c.tolerance, off);
    setVertices(c, out, {a, b});
    out->adjacency[0] = {1};
    out->adjacency[1] = {0};
    recordDegenerate(c, out->kind, {a, b});
    return;
  }
  std::vector<int> idx;
  for (const P2& p : h) idx.push_back(p.i);
  setVertices(c, out, idx);
  const int m = static_cast<int>(idx.size());
  std::vector<int> poly;
  for (int k = 0; k < m; ++k) {
    poly.push_back(k);
    out->adjacency[static_cast<std::size_t>(k)] = {(k + m - 1) % m, (k + 1) % m};
    if (k >= 2) out->triangles.push_back({0, k - 1, k});
  }
  out->faces.push_back(poly);
  out->tolerance = tol;
  recordDegenerate(c, out->kind, idx);
}

// ---- quickhull with exact visibility ------------------------------------------

// Triangles of a closed surface: corners (input indices, counter-clockwise
// seen from outside) and the triangle across each edge (v[k], v[k+1]).
struct Surface {
  std::vector<std::array<int, 3>> tri;
  std::vector<std::array<int, 3>> nb;
};

class ExactQuickhull {
 public:
  explicit ExactQuickhull(const Cloud& c) : c_(c) {}

  // The exact hull of the points `idx` (input indices, each once) from the
  // tetrahedron t, whose t[3] lies strictly below the plane of (t[0], t[1],
  // t[2]) taken counter-clockwise. Each iteration adds a point as a vertex,
  // so the loop runs at most once per point; false only if a horizon fails
  // to chain, which exact visibility rules out (a guard, not a path).
  bool build(const std::vector<int>& idx, const int t[4], int firstIteration, Surface* out) {
    using namespace hull_lines;
    faces_.clear();
    queue_.clear();
    head_ = 0;
    int maxIndex = 0;
    for (int i : idx) maxIndex = std::max(maxIndex, i + 1);
    startStamp_.assign(static_cast<std::size_t>(maxIndex), -1);
    startEdge_.assign(static_cast<std::size_t>(maxIndex), -1);
    next_.assign(static_cast<std::size_t>(maxIndex), -1);
    const int fv[4][3] = {{t[0], t[1], t[2]}, {t[0], t[3], t[1]}, {t[1], t[3], t[2]}, {t[2], t[3], t[0]}};
    for (const auto& f : fv) addFace(f[0], f[1], f[2]);
    for (std::size_t i = 0; i < 4; ++i)
      for (int k = 0; k < 3; ++k)
        for (std::size_t j = 0; j < 4; ++j)
          for (int m = 0; m < 3; ++m)
            if (faces_[j].v[m] == faces_[i].v[(k + 1) % 3] && faces_[j].v[(m + 1) % 3] == faces_[i].v[k])
              faces_[i].nb[k] = static_cast<int>(j);
    std::vector<int> rest;
    rest.reserve(idx.size());
    for (int i : idx)
      if (i != t[0] && i != t[1] && i != t[2] && i != t[3]) rest.push_back(i);
    const std::vector<int> first = {0, 1, 2, 3};
    assign(rest, first);
    if (tracing()) c_.trace->record(snapshot(HullEvent::Tetrahedron, kTetra, firstIteration));
    int iteration = firstIteration;
    for (std::size_t guard = 0; guard <= idx.size(); ++guard) {
      const int fi = nextFaceWithConflicts();
      if (fi < 0) break;
      ++iteration;
      if (!addPoint(fi, iteration)) return false;
    }
    out->tri.clear();
    out->nb.clear();
    std::vector<int> slot(faces_.size(), -1);
    for (std::size_t i = 0; i < faces_.size(); ++i)
      if (faces_[i].alive) slot[i] = static_cast<int>(out->tri.size()), out->tri.push_back({faces_[i].v[0], faces_[i].v[1], faces_[i].v[2]});
    for (std::size_t i = 0; i < faces_.size(); ++i) {
      if (!faces_[i].alive) continue;
      if (faces_[i].conflictCount > 0) return false;  // the guard ran out: cannot happen
      std::array<int, 3> n{};
      for (int k = 0; k < 3; ++k) n[static_cast<std::size_t>(k)] = slot[static_cast<std::size_t>(faces_[i].nb[k])];
      out->nb.push_back(n);
    }
    iterations_ = iteration;
    return true;
  }
  int iterations() const { return iterations_; }
  // Faces get ids in order of creation, across builds (the trace's face ids).
  int nextId() const { return nextId_; }
  void setTracing(bool on) { tracing_ = on; }

 private:
  struct Face {
    int v[3];
    int nb[3];
    Vec3 normal;        // unit (the plain cross product of the input corners; see slack)
    double slack = 0;   // bound on the rounding of height() for any input point
    int id = 0;
    bool alive = true;
    int mark = -1;
    int conflictHead = -1;  // the face's conflict points: a list threaded through next_
    int conflictCount = 0;
    int farthest = -1;
    double farthestDistance = 0;
  };
  struct HorizonEdge {
    int a, b, outside;
  };

  bool tracing() const { return tracing_ && c_.trace != nullptr; }

  // The height of p over f's plane in double (used to rank conflicts), and
  // whether p is strictly above it, decided exactly: from the height when
  // it is farther from zero than its rounding bound, else by orient3d.
  double height(const Face& f, int p) const { return dot(f.normal, c_.at(p) - c_.at(f.v[0])); }
  bool above(const Face& f, int p, double h) const {
    if (h > f.slack) return true;
    if (h < -f.slack) return false;
    return orient3d(c_.at(f.v[0]), c_.at(f.v[1]), c_.at(f.v[2]), c_.at(p)) > 0;
  }

  int addFace(int a, int b, int cc) {
    Face f;
    f.v[0] = a, f.v[1] = b, f.v[2] = cc;
    f.nb[0] = f.nb[1] = f.nb[2] = -1;
    const Vec3 ea = c_.at(b) - c_.at(a), eb = c_.at(cc) - c_.at(a);
    const Vec3 n = cross(ea, eb);
    const double len = length(n);
    f.normal = len > 0 ? n * (1 / len) : Vec3{0, 0, 1};
    // height() = n̂·(p − a) with p − a rounded (≤ u·|p − a| per coordinate,
    // |p − a| ≤ extent), n̂'s normalization (a few ulps) and the cross
    // product's rounding (edges rounded by u, each component by ~3u of
    // |e1||e2|: a direction error of ≤ ~17u·|e1||e2|/|n|, large only for
    // slivers). A zero normal sends every test to orient3d.
    const double e1e2 = length(ea) * length(eb);
    f.slack = len > 0 ? (16 * kU + 32 * kU * (e1e2 / len)) * c_.extent : std::numeric_limits<double>::infinity();
    f.id = nextId_++;
    faces_.push_back(std::move(f));
    return static_cast<int>(faces_.size()) - 1;
  }

  // Each point goes to the candidate face it is strictly above (exactly),
  // the one it is highest above in double if several; above none, it is
  // inside the hull (or on it) and drops out.
  void assign(const std::vector<int>& points, const std::vector<int>& candidates) {
    for (int p : points) {
      int bestFace = -1;
      double bestD = 0;
      for (int cf : candidates) {
        const Face& f = faces_[static_cast<std::size_t>(cf)];
        const double d = height(f, p);
        if ((bestFace >= 0 && d <= bestD) || !above(f, p, d)) continue;
        bestFace = cf, bestD = d;
      }
      if (bestFace < 0) continue;
      Face& f = faces_[static_cast<std::size_t>(bestFace)];
      if (f.conflictCount == 0) queue_.push_back(bestFace);
      next_[static_cast<std::size_t>(p)] = f.conflictHead;
      f.conflictHead = p;
      ++f.conflictCount;
      if (f.farthest < 0 || bestD > f.farthestDistance) f.farthest = p, f.farthestDistance = bestD;
    }
  }

  int nextFaceWithConflicts() {
    while (head_ < queue_.size()) {
      const int f = queue_[head_];
      if (faces_[static_cast<std::size_t>(f)].alive && faces_[static_cast<std::size_t>(f)].conflictCount > 0) return f;
      ++head_;
    }
    return -1;
  }

  bool addPoint(int fi, int iteration) {
    using namespace hull_lines;
    const int eye = faces_[static_cast<std::size_t>(fi)].farthest;
    if (tracing()) {
      HullFrame f = snapshot(HullEvent::Eye, kEye, iteration);
      f.eye = eye;
      f.eyeDistance = faces_[static_cast<std::size_t>(fi)].farthestDistance;
      c_.trace->record(std::move(f));
    }
    // Visible region: the faces the eye is strictly above, found by a search
    // from fi over shared edges (exactly, that region is connected).
    std::vector<int>& visible = visible_;
    visible.assign(1, fi);
    faces_[static_cast<std::size_t>(fi)].mark = iteration;
    for (std::size_t k = 0; k < visible.size(); ++k)
      for (int e = 0; e < 3; ++e) {
        const int g = faces_[static_cast<std::size_t>(visible[k])].nb[e];
        Face& fg = faces_[static_cast<std::size_t>(g)];
        if (fg.mark == iteration) continue;
        if (above(fg, eye, height(fg, eye))) {
          fg.mark = iteration;
          visible.push_back(g);
        }
      }
    // Horizon: edges (a, b) of visible faces whose neighbour is not visible,
    // chained into one loop (a vertex starting two edges, or a loop closing
    // early, would not be a simple loop: exactly, it is one).
    std::vector<HorizonEdge>& edges = edges_;
    edges.clear();
    for (int v : visible) {
      const Face& f = faces_[static_cast<std::size_t>(v)];
      for (int e = 0; e < 3; ++e)
        if (faces_[static_cast<std::size_t>(f.nb[e])].mark != iteration) edges.push_back({f.v[e], f.v[(e + 1) % 3], f.nb[e]});
    }
    if (edges.empty()) return false;
    ++stamp_;
    for (std::size_t k = 0; k < edges.size(); ++k) {
      const std::size_t a = static_cast<std::size_t>(edges[k].a);
      if (startStamp_[a] == stamp_) return false;
      startStamp_[a] = stamp_;
      startEdge_[a] = static_cast<int>(k);
    }
    std::vector<HorizonEdge>& loop = loop_;
    loop.assign(1, edges[0]);
    while (loop.size() < edges.size()) {
      const std::size_t b = static_cast<std::size_t>(loop.back().b);
      if (startStamp_[b] != stamp_ || loop.back().b == loop.front().a) return false;
      loop.push_back(edges[static_cast<std::size_t>(startEdge_[b])]);
    }
    if (loop.back().b != loop.front().a) return false;
    if (tracing()) {
      HullFrame f = snapshot(HullEvent::Visible, kVisible, iteration);
      f.eye = eye;
      for (int v : visible) f.visible.push_back(faces_[static_cast<std::size_t>(v)].id);
      HullFrame h = snapshot(HullEvent::Horizon, kHorizon, iteration);
      h.eye = eye;
      h.visible = f.visible;
      for (const HorizonEdge& e : loop) h.horizon.emplace_back(e.a, e.b);
      c_.trace->record(std::move(f));
      c_.trace->record(std::move(h));
    }
    // The orphaned points; the visible faces retire.
    std::vector<int>& orphans = orphans_;
    orphans.clear();
    for (int v : visible) {
      Face& f = faces_[static_cast<std::size_t>(v)];
      for (int q = f.conflictHead; q >= 0; q = next_[static_cast<std::size_t>(q)])
        if (q != eye) orphans.push_back(q);
      f.conflictHead = -1;
      f.conflictCount = 0;
      f.alive = false;
    }
    // The cone: one face per horizon edge, linked in order.
    std::vector<int>& cone = cone_;
    cone.clear();
    for (const HorizonEdge& e : loop) {
      const int nf = addFace(e.a, e.b, eye);
      faces_[static_cast<std::size_t>(nf)].nb[0] = e.outside;
      Face& out = faces_[static_cast<std::size_t>(e.outside)];
      for (int k = 0; k < 3; ++k)
        if (out.v[k] == e.b && out.v[(k + 1) % 3] == e.a) out.nb[k] = nf;
      cone.push_back(nf);
    }
    const std::size_t m = cone.size();
    for (std::size_t k = 0; k < m; ++k) {
      faces_[static_cast<std::size_t>(cone[k])].nb[1] = cone[(k + 1) % m];
      faces_[static_cast<std::size_t>(cone[k])].nb[2] = cone[(k + m - 1) % m];
    }
    assign(orphans, cone);
    if (tracing()) {
      HullFrame f = snapshot(HullEvent::Cone, kCone, iteration);
      f.eye = eye;
      for (int cf : cone) f.added.push_back(faces_[static_cast<std::size_t>(cf)].id);
      c_.trace->record(std::move(f));
    }
    return true;
  }

  HullFrame snapshot(HullEvent event, int line, int iteration) const {
    HullFrame f;
    f.event = event;
    f.line = line;
    f.iteration = iteration;
    for (const Face& q : faces_) {
      if (!q.alive) continue;
      HullTraceFace t;
      t.id = q.id;
      for (int k = 0; k < 3; ++k) t.v[k] = q.v[k];
      for (int p = q.conflictHead; p >= 0; p = next_[static_cast<std::size_t>(p)]) t.conflicts.push_back(p);
      std::reverse(t.conflicts.begin(), t.conflicts.end());  // in the order they came
      f.faces.push_back(std::move(t));
    }
    return f;
  }

  const Cloud& c_;
  bool tracing_ = true;
  std::vector<Face> faces_;
  std::vector<int> queue_;
  std::size_t head_ = 0;
  int nextId_ = 0;
  int stamp_ = 0;
  int iterations_ = 0;
  std::vector<int> startStamp_, startEdge_;  // horizon chaining: vertex → edge it starts
  std::vector<int> next_;                    // per point: the next conflict point of its face (-1: last)
  std::vector<int> visible_, orphans_, cone_;
  std::vector<HorizonEdge> edges_, loop_;
};

// A tetrahedron of exactly non-coplanar points among `idx`, each the most
// distant (in double) of those that qualify exactly, oriented for build().
// False when the points are exactly coplanar.
bool tetrahedronOf(const Cloud& c, const std::vector<int>& idx, int t[4]) {
  if (idx.size() < 4) return false;
  int i0 = idx[0];
  for (int i : idx) {
    const Vec3 &p = c.at(i), &q = c.at(i0);
    if (p.x < q.x || (p.x == q.x && (p.y < q.y || (p.y == q.y && p.z < q.z)))) i0 = i;
  }
  const Vec3 p0 = c.at(i0);
  int i1 = -1;
  double best = 0;
  for (int i : idx) {
    const double d = lengthSquared(c.at(i) - p0);
    if (d > best) best = d, i1 = i;
  }
  if (i1 < 0) return false;
  const Vec3 p1 = c.at(i1);
  auto byDecreasing = [&](auto measure) {
    std::vector<std::pair<double, int>> order;
    order.reserve(idx.size());
    for (int i : idx) order.push_back({-measure(c.at(i)), i});
    std::sort(order.begin(), order.end());
    return order;
  };
  int i2 = -1;
  for (const auto& [m, i] : byDecreasing([&](const Vec3& p) { return lengthSquared(cross(p1 - p0, p - p0)); }))
    if (!collinear3d(p0, p1, c.at(i))) {
      i2 = i;
      break;
    }
  if (i2 < 0) return false;
  const Vec3 p2 = c.at(i2);
  const Vec3 n = accurateNormal(p0, p1, p2);
  int i3 = -1;
  for (const auto& [m, i] : byDecreasing([&](const Vec3& p) { return std::fabs(dot(n, p - p0)); }))
    if (orient3d(p0, p1, p2, c.at(i)) != 0) {
      i3 = i;
      break;
    }
  if (i3 < 0) return false;
  if (orient3d(p0, p1, p2, c.at(i3)) > 0) std::swap(i1, i2);
  t[0] = i0, t[1] = i1, t[2] = i2, t[3] = i3;
  return true;
}

// ---- vertices at the tolerance ----------------------------------------------------

// An upper bound on the distance from p to the triangle (a, b, c), exact
// up to rounding: the distance to its plane when p projects inside it by
// more than the rounding of that test (each edge's in-plane normal n × e
// against p), else the distance to the nearest edge. On a sliver every edge
// runs nearly along one line and the projection test cannot tell a point
// beyond the sliver's end from one inside it; the edges can.
double triangleDistance(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const double edges = std::fmin(segmentDistance(p, a, b), std::fmin(segmentDistance(p, b, c), segmentDistance(p, c, a)));
  const Vec3 n = normalizedOr(accurateNormal(a, b, c), Vec3{});
  if (n == Vec3{}) return edges;
  const Vec3* corner[3] = {&a, &b, &c};
  for (int k = 0; k < 3; ++k) {
    const Vec3& from = *corner[k];
    const Vec3 e = *corner[(k + 1) % 3] - from;
    const Vec3 m = normalizedOr(cross(n, e), Vec3{});
    const Vec3 d = p - from;
    if (!(dot(m, d) > 16 * kU * (length(d) + length(e)))) return edges;
  }
  return std::fmin(edges, std::fabs(dot(n, p - a)));
}

// Coplanar sets up to this size are measured over all their triangles.
constexpr std::size_t kMaxFlatSet = 24;

// An upper bound on the distance from q to the hull of `set`, exact up to
// rounding: 0 when q is inside the hull (exactly), else the distance to
// the nearest of its triangles (the nearest point of a hull to a point
// outside lies on its boundary). Flat sets: the nearest of all triangles
// of their points.
double distanceToPointsHull(const Vec3& q, const std::vector<Vec3>& set) {
  const std::size_t k = set.size();
  if (k == 0) return std::numeric_limits<double>::infinity();
  if (k == 1) return length(q - set[0]);
  if (k == 2) return segmentDistance(q, set[0], set[1]);
  const Cloud local(set, 0, nullptr);
  std::vector<int> all(k);
  for (std::size_t i = 0; i < k; ++i) all[i] = static_cast<int>(i);
  int t[4];
  double best = std::numeric_limits<double>::infinity();
  if (tetrahedronOf(local, all, t)) {
    ExactQuickhull qh(local);
    qh.setTracing(false);
    Surface s;
    if (qh.build(all, t, 0, &s)) {
      bool inside = true;
      for (const auto& tr : s.tri) {
        const Vec3 &a = set[static_cast<std::size_t>(tr[0])], &b = set[static_cast<std::size_t>(tr[1])],
                   &c = set[static_cast<std::size_t>(tr[2])];
        inside = inside && orient3d(a, b, c, q) <= 0;
        best = std::fmin(best, triangleDistance(q, a, b, c));
      }
      return inside ? 0.0 : best;
    }
  }
  if (k > kMaxFlatSet) return best;  // ∞: the caller keeps the vertex
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = i + 1; j < k; ++j)
      for (std::size_t m = j + 1; m < k; ++m) best = std::fmin(best, triangleDistance(q, set[i], set[j], set[m]));
  return best;
}

// Drops the vertices of the exact hull `s` that lie within kDropGap·τ of the
// hull of their neighbours (hull.h, step 3), and builds the hull of the
// vertices kept again after each round. Bookkeeping: every dropped point q
// keeps a `support`, a set of kept vertices whose hull it lies within
// kDropBudget·τ of; the hull of all kept vertices contains that hull, so q
// is within the budget of the result. A vertex v may go when it is within
// kDropGap·τ of the hull of its neighbours (its support then) and every
// dropped point whose support holds v is within the budget of the hull of
// (support − v) ∪ neighbours(v), its new support. Neighbours of a vertex
// dropped in a round wait for the next round (their neighbourhoods change
// with the rebuild).
class VertexDrops {
 public:
  VertexDrops(const Cloud& c, ExactQuickhull& qh) : c_(c), qh_(qh) {}

  void run(Surface* s) {
    const double tau = c_.tolerance;
    for (int round = 0; round < kMaxDropRounds; ++round) {
      neighbourhoods(*s);
      std::vector<std::pair<double, int>> candidates;
      for (std::size_t k = 0; k < verts_.size(); ++k) {
        if (clearlyExtreme(k, kDropGap * tau)) continue;
        const double gap = distanceToHull(c_.at(verts_[k]), link(k));
        if (gap <= kDropGap * tau) candidates.push_back({gap, static_cast<int>(k)});
      }
      if (candidates.empty()) return;
      std::sort(candidates.begin(), candidates.end());
      // Four vertices that span a solid, kept so through the round (see
      // keepsSolid); the surface is one, so they exist.
      int solid[4];
      if (!tetrahedronOf(c_, verts_, solid)) {
        flattened_ = true;
        return;
      }
      std::vector<char> waiting(verts_.size(), 0);
      std::vector<char> gone(verts_.size(), 0);
      bool any = false;
      for (const auto& [gap, k] : candidates) {
        // A waiting vertex holds back its neighbours with larger gaps too:
        // dropping one of them first could leave it farther than τ from
        // the hull of its new neighbours although it lies on the hull of
        // the points (their nearly flat stretch would keep the wrong one).
        if (waiting[static_cast<std::size_t>(k)]) {
          for (int w : link(static_cast<std::size_t>(k))) waiting[static_cast<std::size_t>(slot_[static_cast<std::size_t>(w)])] = 1;
          continue;
        }
        // A drop that would leave the kept vertices exactly coplanar is
        // held back (the cloud is then within about τ of that plane: the
        // caller measures it), and the round goes on: a round undone as a
        // whole would keep a vertex within τ of a neighbour.
        int replaced = -1, by = -1;
        if (!keepsSolid(static_cast<std::size_t>(k), solid, gone, &replaced, &by)) {
          flattened_ = true;
          continue;
        }
        if (!tryDrop(static_cast<std::size_t>(k), gap, tau)) continue;
        if (replaced >= 0) solid[replaced] = by;
        gone[static_cast<std::size_t>(k)] = 1;
        for (int w : link(static_cast<std::size_t>(k))) waiting[static_cast<std::size_t>(slot_[static_cast<std::size_t>(w)])] = 1;
        any = true;
      }
      if (!any) return;
      std::vector<int> idx;
      for (std::size_t k = 0; k < verts_.size(); ++k)
        if (!gone[k]) idx.push_back(verts_[k]);
      int t[4];
      Surface next;
      // A guard: the kept vertices span a solid (keepsSolid), so both
      // succeed exactly.
      if (!tetrahedronOf(c_, idx, t) || !qh_.build(idx, t, 0, &next)) {
        flattened_ = true;
        return;
      }
      *s = std::move(next);
    }
  }

  // Whether a drop was held back because the vertices left would not span
  // a solid.
  bool flattened() const { return flattened_; }
  // The points (input indices) that face planes must keep within
  // kForcedHeight·τ: those of forced drops measured against planes, and
  // those leaning on a vertex dropped for being within τ of a neighbour.
  const std::vector<int>& heightBound() const { return heightBound_; }

  // How far vertex v of s is from the hull of its neighbours (∞ if v is
  // not a vertex of s).
  double gapOf(int v, const Surface& s) {
    neighbourhoods(s);
    const int k = slot_[static_cast<std::size_t>(v)];
    if (k < 0) return std::numeric_limits<double>::infinity();
    return distanceToHull(c_.at(v), link(static_cast<std::size_t>(k)));
  }

  // Drops vertex v of s, which the face merge would leave with only two
  // faces around it (FaceMerge::stuck), when it lies within kForcedGap·τ of
  // the hull of its neighbours; the hull of the rest is built again. The
  // points that lean on v lean on its neighbours from then on.
  bool forceDrop(int v, Surface* s) {
    neighbourhoods(*s);
    const int k = slot_[static_cast<std::size_t>(v)];
    if (k < 0) return false;
    const std::vector<int> link = this->link(static_cast<std::size_t>(k));
    const bool near = distanceToHull(c_.at(v), link) <= kForcedGap * c_.tolerance;
    std::vector<int> idx;
    for (int w : verts_)
      if (w != v) idx.push_back(w);
    int t[4];
    Surface next;
    if (!tetrahedronOf(c_, idx, t) || !qh_.build(idx, t, 0, &next)) {
      flattened_ = true;
      return false;
    }
    // Farther than that, v still goes when it and every point leaning on it
    // lie within kForcedHeight·τ of every face plane of the hull of the rest
    // (the containment the hull promises is measured against face planes).
    // Such a v sits in the thin wedge between two faces meeting at a tiny
    // angle: near both planes, yet far from their common edge.
    if (!near) {
      if (dependents_.empty()) dependents_.resize(c_.input.size());
      std::vector<int> points{v};
      for (int d : dependents_[static_cast<std::size_t>(v)]) points.push_back(dropped_[static_cast<std::size_t>(d)].point);
      if (!(heightAbove(points, next) <= kForcedHeight * c_.tolerance)) return false;
      heightBound_.insert(heightBound_.end(), points.begin(), points.end());
    }
    if (dependents_.empty()) dependents_.resize(c_.input.size());
    for (int d : dependents_[static_cast<std::size_t>(v)]) {
      std::vector<int>& sup = dropped_[static_cast<std::size_t>(d)].support;
      if (std::find(sup.begin(), sup.end(), v) == sup.end()) continue;
      sup.erase(std::remove(sup.begin(), sup.end(), v), sup.end());
      for (int w : link)
        if (std::find(sup.begin(), sup.end(), w) == sup.end()) sup.push_back(w), dependents_[static_cast<std::size_t>(w)].push_back(d);
    }
    const int id = static_cast<int>(dropped_.size());
    dropped_.push_back({v, link});
    for (int w : link) dependents_[static_cast<std::size_t>(w)].push_back(id);
    *s = std::move(next);
    return true;
  }

 private:
  struct Dropped {
    int point;
    std::vector<int> support;  // input indices of kept vertices
  };

  // Vertices of s (input indices), their slots, neighbours and the sum of
  // their triangles' unit normals.
  void neighbourhoods(const Surface& s) {
    verts_.clear();
    slot_.assign(c_.input.size(), -1);
    for (const auto& t : s.tri)
      for (int v : t)
        if (slot_[static_cast<std::size_t>(v)] < 0) slot_[static_cast<std::size_t>(v)] = static_cast<int>(verts_.size()), verts_.push_back(v);
    // Neighbours in one array (vertex k's are linkAll_[linkStart_[k] ..
    // linkStart_[k + 1])): each directed edge v → w of the surface once.
    linkStart_.assign(verts_.size() + 1, 0);
    for (const auto& t : s.tri)
      for (int v : t) ++linkStart_[static_cast<std::size_t>(slot_[static_cast<std::size_t>(v)]) + 1];
    for (std::size_t k = 0; k < verts_.size(); ++k) linkStart_[k + 1] += linkStart_[k];
    linkAll_.resize(3 * s.tri.size());
    std::vector<int> fill(linkStart_.begin(), linkStart_.end() - 1);
    normals_.assign(verts_.size(), Vec3{});
    for (const auto& t : s.tri) {
      const Vec3 n = normalizedOr(cross(c_.at(t[1]) - c_.at(t[0]), c_.at(t[2]) - c_.at(t[0])), Vec3{});
      for (int k = 0; k < 3; ++k) {
        const std::size_t v = static_cast<std::size_t>(slot_[static_cast<std::size_t>(t[static_cast<std::size_t>(k)])]);
        normals_[v] += n;
        linkAll_[static_cast<std::size_t>(fill[v]++)] = t[static_cast<std::size_t>((k + 1) % 3)];
      }
    }
  }
  std::vector<int> link(std::size_t k) const {
    return std::vector<int>(linkAll_.begin() + linkStart_[k], linkAll_.begin() + linkStart_[k + 1]);
  }

  // A certificate that vertex k is farther than `gap` from the hull of its
  // neighbours: all of them lie below the plane through it orthogonal to
  // its mean normal by more than `gap` (plus the rounding of the test).
  bool clearlyExtreme(std::size_t k, double gap) const {
    const Vec3 m = normalizedOr(normals_[k], Vec3{});
    if (m == Vec3{}) return false;
    const Vec3& p = c_.at(verts_[k]);
    for (int i = linkStart_[k]; i < linkStart_[k + 1]; ++i) {
      const Vec3 d = c_.at(linkAll_[static_cast<std::size_t>(i)]) - p;
      if (!(-dot(m, d) > gap + 16 * kU * (std::fabs(d.x) + std::fabs(d.y) + std::fabs(d.z)))) return false;
    }
    return true;
  }

  // The greatest height of the points (input indices) above the planes of
  // the triangles of s (normals in double-double: a needle's sliver
  // triangles have poor plain ones).
  double heightAbove(const std::vector<int>& points, const Surface& s) const {
    double worst = -std::numeric_limits<double>::infinity();
    for (const auto& t : s.tri) {
      const Vec3& a = c_.at(t[0]);
      const Vec3 n = normalizedOr(accurateNormal(a, c_.at(t[1]), c_.at(t[2])), Vec3{});
      if (n == Vec3{}) return std::numeric_limits<double>::infinity();
      for (int p : points) worst = std::fmax(worst, dot(n, c_.at(p) - a));
    }
    return worst;
  }

  // Whether the vertices of the round not yet gone still span a solid
  // without vertex k. `solid` holds four of them that do; when k is one,
  // a kept vertex off the plane of the other three (exactly) must take its
  // place: *replaced is k's place in `solid` and *by that vertex (-1 when k
  // is not in it). Without one, all the others lie in that plane.
  bool keepsSolid(std::size_t k, const int solid[4], const std::vector<char>& gone, int* replaced, int* by) const {
    const int v = verts_[k];
    int at = -1;
    for (int j = 0; j < 4; ++j)
      if (solid[j] == v) at = j;
    if (at < 0) return true;
    const Vec3 &a = c_.at(solid[(at + 1) % 4]), &b = c_.at(solid[(at + 2) % 4]), &c = c_.at(solid[(at + 3) % 4]);
    for (std::size_t m = 0; m < verts_.size(); ++m) {
      if (m == k || gone[m]) continue;
      const int w = verts_[m];
      if (w == solid[0] || w == solid[1] || w == solid[2] || w == solid[3]) continue;
      if (orient3d(a, b, c, c_.at(w)) != 0) {
        *replaced = at, *by = w;
        return true;
      }
    }
    return false;
  }

  double distanceToHull(const Vec3& q, const std::vector<int>& set) {
    rel_.clear();
    for (int i : set) rel_.push_back(c_.at(i));
    return distanceToPointsHull(q, rel_);
  }

  bool tryDrop(std::size_t k, double gap, double tau) {
    const int v = verts_[k];
    const std::vector<int> link = this->link(k);
    if (dependents_.empty()) dependents_.resize(c_.input.size());
    // The dropped points that lean on v, with their supports without v.
    std::vector<int>& deps = dependents_[static_cast<std::size_t>(v)];
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    // A vertex within τ of a neighbour must go (two vertices are never that
    // close), so the points leaning on it may end up to kForcedHeight·τ from
    // the hull, as far as a forced drop's; merged faces then keep them
    // within that height of their planes (heightBound).
    bool close = false;
    for (int w : link) close = close || length(c_.at(w) - c_.at(v)) <= tau;
    const double budget = (close ? kForcedHeight : kDropBudget) * tau;
    std::vector<std::vector<int>> next;
    std::vector<int> leaning, far;
    for (int d : deps) {
      const std::vector<int>& sup = dropped_[static_cast<std::size_t>(d)].support;
      if (std::find(sup.begin(), sup.end(), v) == sup.end()) continue;
      std::vector<int> s;
      for (int w : sup)
        if (w != v) s.push_back(w);
      s.insert(s.end(), link.begin(), link.end());
      std::sort(s.begin(), s.end());
      s.erase(std::unique(s.begin(), s.end()), s.end());
      // A vertex within rounding of its neighbours' hull moves no point
      // measurably farther from the hull; it always goes.
      if (!(gap <= kRoundingBound * c_.extent)) {
        const int q = dropped_[static_cast<std::size_t>(d)].point;
        const double away = distanceToHull(c_.at(q), s);
        if (!(away <= budget)) return false;
        if (away > kDropBudget * tau) far.push_back(q);
      }
      next.push_back(std::move(s));
      leaning.push_back(d);
    }
    heightBound_.insert(heightBound_.end(), far.begin(), far.end());
    for (std::size_t i = 0; i < leaning.size(); ++i) {
      for (int w : next[i]) dependents_[static_cast<std::size_t>(w)].push_back(leaning[i]);
      dropped_[static_cast<std::size_t>(leaning[i])].support = std::move(next[i]);
    }
    const int id = static_cast<int>(dropped_.size());
    dropped_.push_back({v, link});
    for (int w : link) dependents_[static_cast<std::size_t>(w)].push_back(id);
    return true;
  }

  const Cloud& c_;
  ExactQuickhull& qh_;
  std::vector<int> verts_, slot_;
  std::vector<int> linkStart_, linkAll_;
  std::vector<Vec3> normals_;
  std::vector<Dropped> dropped_;
  std::vector<std::vector<int>> dependents_;  // per input index: dropped points whose support may hold it
  std::vector<Vec3> rel_;
  std::vector<int> heightBound_;
  bool flattened_ = false;
};

// ---- faces at the tolerance ---------------------------------------------------------

// A triangle's unit normal for the plane tests of the merge: the plain
// cross product unless the triangle is a sliver (its direction is off by
// ~17u·|e1||e2|/|e1 × e2|, here at most ~140u: a plane distance off by
// ~1e-14 of the cloud's extent, far below τ), else the double-double one
// (std::fma is a library call in WebAssembly, so it is kept for slivers).
Vec3 planeNormal(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 e1 = b - a, e2 = c - a;
  const Vec3 n = cross(e1, e2);
  const double len = length(n);
  if (len > 0 && length(e1) * length(e2) <= 8 * len) return n * (1 / len);
  return normalizedOr(accurateNormal(a, b, c), Vec3{});
}

// Groups of triangles merged into faces (hull.h, step 4).
class FaceMerge {
 public:
  // `heightBound`: points every merged face must keep within
  // kForcedHeight·τ of its plane (VertexDrops::heightBound).
  FaceMerge(const Cloud& c, const Surface& s, const std::vector<int>& heightBound)
      : c_(c), s_(s), heightBound_(heightBound), mergeLimit_(kMergeDepth * c.tolerance + 2 * kRoundingBound * c.extent) {
    const std::size_t n = s.tri.size();
    parent_.resize(n);
    gid_.assign(n, -1);
    tnormal_.resize(n);
    for (std::size_t t = 0; t < n; ++t) {
      parent_[t] = static_cast<int>(t);
      tnormal_[t] = planeNormal(c.at(s.tri[t][0]), c.at(s.tri[t][1]), c.at(s.tri[t][2]));
    }
  }

  void run() {
    const double tau = c_.tolerance;
    mergeRegions(tau);
    // Each pass merges disjoint pairs, most coplanar first; a pass that
    // merges nothing ends it, and each merge removes a group.
    for (std::size_t pass = 0; pass < s_.tri.size(); ++pass) {
      std::vector<std::pair<double, std::pair<int, int>>> pairs;
      for (std::size_t t = 0; t < s_.tri.size(); ++t)
        for (int k = 0; k < 3; ++k) {
          const int a = root(static_cast<int>(t)), b = root(s_.nb[t][static_cast<std::size_t>(k)]);
          if (a >= b) continue;  // each pair once (from the lower root), none within a group
          // The smaller group's corners first: a large face (a cylinder's
          // cap) meets many neighbours whose far corners are deep below it.
          const FaceRef ga = ref(a), gb = ref(b);
          const FaceRef& small = ga.count <= gb.count ? ga : gb;
          const FaceRef& large = &small == &ga ? gb : ga;
          const double limit = mergeLimit_;
          // A candidate when the smaller lies on the larger's plane. That
          // covers every pair within kMergeDepth·τ of each other's planes,
          // and a sliver beside a large face: its own plane, spanned by
          // rounded corners close together, can tilt so that the large
          // face's far corners fall below it, yet the union is flat.
          const double depth = depthBelow(large, small, limit);
          if (depth <= limit) pairs.push_back({depth, {a, b}});
        }
      std::sort(pairs.begin(), pairs.end());
      pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
      std::vector<char> touched(s_.tri.size(), 0);
      bool any = false;
      for (const auto& [depth, ab] : pairs) {
        const auto [a, b] = ab;
        // Merged this pass already, or taken into another face by a
        // merge of three: the pair is measured again next pass.
        if (touched[static_cast<std::size_t>(a)] || touched[static_cast<std::size_t>(b)] ||
            parent_[static_cast<std::size_t>(a)] != a || parent_[static_cast<std::size_t>(b)] != b)
          continue;
        std::vector<int> middles;
        if (!merge(a, b, tau, &middles)) {
          // A pair within τ/2 of each other's planes must be one face; if
          // only a corner left between two faces stops it, that corner is
          // the caller's to drop.
          const bool must = std::fmax(depthBelow(ref(a), ref(b), tau), depthBelow(ref(b), ref(a), tau)) <= mergeLimit_;
          unmerged_ = unmerged_ || must;
          if (must) {
            for (int v : middles)
              if (std::find(stuck_.begin(), stuck_.end(), v) == stuck_.end()) stuck_.push_back(v);
            for (int r : {a, b}) {
              const FaceRef g = ref(r);
              for (std::size_t i = 0; i < g.count; ++i)
                if (std::find(loose_.begin(), loose_.end(), g.corners[i]) == loose_.end()) loose_.push_back(g.corners[i]);
            }
          }
          continue;
        }
        touched[static_cast<std::size_t>(a)] = touched[static_cast<std::size_t>(b)] = 1;
        any = true;
      }
      if (!any) break;
    }
  }

  // The vertices between two faces that had to be merged and could not, in
  // the order found: each union would have met a third face in two edges
  // at its vertex.
  const std::vector<int>& stuck() const { return stuck_; }
  // The corners of the pairs that had to be merged and could not, each
  // once: the candidates for a forced drop when no stuck vertex can go (a
  // union whose outline bends inwards at a corner of a nearly straight run).
  const std::vector<int>& loose() const { return loose_; }
  // Whether a pair within kMergeDepth·τ of each other's planes is left
  // unmerged.
  bool unmerged() const { return unmerged_; }

  // The width of the hull across the plane of its largest face (by area),
  // with that plane (unit normal, input index of a corner): a hull within
  // the tolerance of a plane has that plane as its largest face, so this
  // one measure (O(faces + vertices)) finds every flat hull, also one
  // whose faces all merged.
  double widthAcrossLargest(Vec3* normal, int* corner) const {
    int best = -1;
    double bestArea = -1;
    for (std::size_t t = 0; t < s_.tri.size(); ++t) {
      if (parent_[t] != static_cast<int>(t)) continue;
      const int g = gid_[t];
      const auto& tr = s_.tri[t];
      const double area = g >= 0 ? length(merged_[static_cast<std::size_t>(g)].area)
                                 : length(accurateNormal(c_.at(tr[0]), c_.at(tr[1]), c_.at(tr[2])));
      if (area > bestArea) bestArea = area, best = static_cast<int>(t);
    }
    if (best < 0) return std::numeric_limits<double>::infinity();
    const FaceRef g = ref(best);
    double width = 0;
    for (const auto& t : s_.tri)
      for (int v : t) width = std::fmax(width, std::fabs(planeDistance(g, v)));
    *normal = g.normal;
    *corner = g.corners[0];
    return width;
  }

  // The face plane (unit normal, input index of a corner) with every
  // vertex of the surface nearest to it (the width of the hull across
  // it, over the face normals), and that width.
  double thinnest(Vec3* normal, int* corner) const {
    std::vector<int> verts;
    for (const auto& t : s_.tri) verts.insert(verts.end(), t.begin(), t.end());
    std::sort(verts.begin(), verts.end());
    verts.erase(std::unique(verts.begin(), verts.end()), verts.end());
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t t = 0; t < s_.tri.size(); ++t) {
      if (parent_[t] != static_cast<int>(t)) continue;
      const FaceRef g = ref(static_cast<int>(t));
      double width = 0;
      for (int v : verts) width = std::fmax(width, std::fabs(planeDistance(g, v)));
      if (width < best) best = width, *normal = g.normal, *corner = g.corners[0];
    }
    return best;
  }

  // The faces (input indices, counter-clockwise), in order of their first
  // triangle.
  std::vector<std::vector<int>> faces() const {
    std::vector<std::vector<int>> out;
    for (std::size_t t = 0; t < s_.tri.size(); ++t)
      if (parent_[t] == static_cast<int>(t)) {
        const int g = gid_[t];
        out.push_back(g < 0 ? std::vector<int>(s_.tri[t].begin(), s_.tri[t].end()) : merged_[static_cast<std::size_t>(g)].outline);
      }
    return out;
  }

 private:
  struct Group {
    std::vector<int> tris;
    std::vector<int> corners;  // input indices of the triangles' corners, each once
    std::vector<int> outline;  // merged groups: the boundary loop
    Vec3 area;                 // Σ of the triangles' accurate (doubled) area vectors
    Vec3 normal;               // unit
    Vec3 mean;                 // mean of the corners relative to the first
  };
  // A face as the tests see it: its corners (the first is the plane's
  // origin) and its plane. Single triangles have no Group.
  struct FaceRef {
    const int* corners;
    std::size_t count;
    Vec3 normal;
    Vec3 mean;
  };
  FaceRef ref(int root) const {
    const int g = gid_[static_cast<std::size_t>(root)];
    if (g >= 0) {
      const Group& m = merged_[static_cast<std::size_t>(g)];
      return {m.corners.data(), m.corners.size(), m.normal, m.mean};
    }
    const auto& t = s_.tri[static_cast<std::size_t>(root)];
    const Vec3& a = c_.at(t[0]);
    return {t.data(), 3, tnormal_[static_cast<std::size_t>(root)], ((c_.at(t[1]) - a) + (c_.at(t[2]) - a)) * (1.0 / 3)};
  }
  // A face's triangles, corners and area, to be merged.
  Group groupOf(int root) const {
    const int g = gid_[static_cast<std::size_t>(root)];
    if (g >= 0) return merged_[static_cast<std::size_t>(g)];
    Group m;
    const auto& t = s_.tri[static_cast<std::size_t>(root)];
    m.tris = {root};
    m.corners.assign(t.begin(), t.end());
    m.area = accurateNormal(c_.at(t[0]), c_.at(t[1]), c_.at(t[2]));
    return m;
  }
  // Makes `members` (roots) one face, rooted at `root`, with the data u.
  void commit(const std::vector<int>& members, int root, Group&& u) {
    for (int g : members) {
      parent_[static_cast<std::size_t>(g)] = root;
      if (gid_[static_cast<std::size_t>(g)] >= 0) merged_[static_cast<std::size_t>(gid_[static_cast<std::size_t>(g)])] = Group{};
      gid_[static_cast<std::size_t>(g)] = -1;
    }
    gid_[static_cast<std::size_t>(root)] = static_cast<int>(merged_.size());
    merged_.push_back(std::move(u));
  }

  int root(int x) {
    while (parent_[static_cast<std::size_t>(x)] != x)
      x = parent_[static_cast<std::size_t>(x)] = parent_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(x)])];
    return x;
  }

  // The plane of a group: the normal of its summed area (Newell's normal of
  // its outline) through the mean of its corners, taken relative to the
  // first corner so that nothing is lost far from the origin.
  void setPlane(Group* g) const {
    g->normal = normalizedOr(g->area, Vec3{});
    const Vec3& o = c_.at(g->corners[0]);
    Vec3 sum{};
    for (int i : g->corners) sum += c_.at(i) - o;
    g->mean = sum * (1.0 / static_cast<double>(g->corners.size()));
  }
  double planeDistance(const FaceRef& g, int i) const { return dot(g.normal, (c_.at(i) - c_.at(g.corners[0])) - g.mean); }
  double planeDistance(const Group& g, int i) const { return dot(g.normal, (c_.at(i) - c_.at(g.corners[0])) - g.mean); }

  // How deep the corners of h reach below g's plane (0 if none does); the
  // count stops at the first corner deeper than `limit`.
  double depthBelow(const FaceRef& g, const FaceRef& h, double limit) const {
    double deepest = 0;
    for (std::size_t k = 0; k < h.count; ++k) {
      deepest = std::fmax(deepest, -planeDistance(g, h.corners[k]));
      if (!(deepest <= limit)) break;
    }
    return deepest;
  }

  // Regions first: the triangles joined by edges whose two triangles are
  // within kMergeDepth·τ of each other's planes, each merged at once when
  // the whole region is a face (flat within kMergeFlatness·τ, one convex
  // outline). That is every face of an ordinary cloud (a cube's sides, a
  // cylinder's caps: exactly coplanar triangles) in O(T log T); what is
  // left (regions that bend or turn at the tolerance's scale) is merged
  // pair by pair.
  void mergeRegions(double tau) {
    const std::size_t n = s_.tri.size();
    std::vector<int> region(n);
    for (std::size_t t = 0; t < n; ++t) region[t] = static_cast<int>(t);
    auto top = [&](int x) {
      while (region[static_cast<std::size_t>(x)] != x)
        x = region[static_cast<std::size_t>(x)] = region[static_cast<std::size_t>(region[static_cast<std::size_t>(x)])];
      return x;
    };
    const double limit = mergeLimit_;
    for (std::size_t t = 0; t < n; ++t)
      for (int k = 0; k < 3; ++k) {
        const int u = s_.nb[t][static_cast<std::size_t>(k)];
        if (u < static_cast<int>(t)) continue;
        const FaceRef gt = ref(static_cast<int>(t)), gu = ref(u);
        if (depthBelow(gt, gu, limit) <= limit && depthBelow(gu, gt, limit) <= limit) region[static_cast<std::size_t>(top(u))] = top(static_cast<int>(t));
      }
    // Triangles by region (a counting sort), regions of two or more only.
    std::vector<int> start(n + 1, 0), order(n);
    for (std::size_t t = 0; t < n; ++t) ++start[static_cast<std::size_t>(top(static_cast<int>(t))) + 1];
    for (std::size_t r = 0; r < n; ++r) start[r + 1] += start[r];
    std::vector<int> fill(start.begin(), start.end() - 1);
    for (std::size_t t = 0; t < n; ++t) order[static_cast<std::size_t>(fill[static_cast<std::size_t>(top(static_cast<int>(t)))]++)] = static_cast<int>(t);
    for (std::size_t r = 0; r < n; ++r) {
      if (start[r + 1] - start[r] < 2) continue;
      Group u;
      u.tris.assign(order.begin() + start[r], order.begin() + start[r + 1]);
      for (int t : u.tris) {
        const auto& tr = s_.tri[static_cast<std::size_t>(t)];
        u.corners.insert(u.corners.end(), tr.begin(), tr.end());
        u.area += accurateNormal(c_.at(tr[0]), c_.at(tr[1]), c_.at(tr[2]));
      }
      std::sort(u.corners.begin(), u.corners.end());
      u.corners.erase(std::unique(u.corners.begin(), u.corners.end()), u.corners.end());
      if (!isFace(&u, tau)) continue;
      const std::vector<int> members = u.tris;
      commit(members, members[0], std::move(u));
    }
  }

  // Whether a union of triangles (its plane set here) is a face: within
  // kMergeFlatness·τ of its plane, with one convex outline (set here).
  bool isFace(Group* u, double tau, int* offender = nullptr) {
    setPlane(u);
    if (u->normal == Vec3{}) return false;
    for (int i : u->corners)
      if (!(std::fabs(planeDistance(*u, i)) <= kMergeFlatness * tau)) return false;
    for (int i : heightBound_)
      if (!(planeDistance(*u, i) <= kForcedHeight * tau)) return false;
    return outline(u) && meetsNeighboursAtEdges(*u, offender);
  }

  // The corner of u whose two outline neighbours are both corners of h
  // (the middle of two edges u and h share), or -1.
  static int middleCorner(const Group& u, const FaceRef& h) {
    const std::size_t m = u.outline.size();
    auto in = [&](int i) { return std::find(h.corners, h.corners + h.count, i) != h.corners + h.count; };
    for (std::size_t i = 0; i < m; ++i)
      if (in(u.outline[i]) && in(u.outline[(i + m - 1) % m]) && in(u.outline[(i + 1) % m])) return u.outline[i];
    return -1;
  }

  // The middle corners (middleCorner) of u with the faces around it, the
  // offender's first, each once. The offender may share an edge and a lone
  // corner, which has no middle, or a far corner that cannot be dropped,
  // while another face beside it has a middle that can.
  void middleCorners(const Group& u, int offender, std::vector<int>* out) {
    auto add = [&](int h) {
      const int middle = middleCorner(u, ref(h));
      if (middle >= 0 && std::find(out->begin(), out->end(), middle) == out->end()) out->push_back(middle);
    };
    add(offender);
    for (int t : u.tris)
      for (int k = 0; k < 3; ++k) {
        const int h = root(s_.nb[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)]);
        if (std::find(u.tris.begin(), u.tris.end(), h) == u.tris.end()) add(h);
      }
  }

  // Whether a triangle of `tris` has its three corners among `corners`
  // (input indices, sorted).
  bool holdsTriangleOf(const std::vector<int>& tris, const std::vector<int>& corners) const {
    for (int t : tris) {
      const auto& tr = s_.tri[static_cast<std::size_t>(t)];
      if (std::all_of(tr.begin(), tr.end(), [&](int i) { return std::binary_search(corners.begin(), corners.end(), i); }))
        return true;
    }
    return false;
  }

  // Whether the union meets each neighbouring face in one edge, sharing two
  // corners with it. Two faces that share three consecutive ones (a sliver
  // absorbed beside a vertex that then has only two faces around it), or
  // three that are a triangle's corners, would both hold that triangle.
  // Three others, an edge and a lone corner, are a knife edge's: the two
  // faces meet along a line through all three (a slab's rim with a corner
  // bent within the tolerance).
  bool meetsNeighboursAtEdges(const Group& u, int* offender) {
    inUnion_.resize(s_.tri.size(), 0);
    for (int t : u.tris) inUnion_[static_cast<std::size_t>(t)] = 1;
    std::vector<int> seen;
    bool ok = true;
    for (int t : u.tris) {
      for (int k = 0; k < 3 && ok; ++k) {
        const int nbr = s_.nb[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)];
        if (inUnion_[static_cast<std::size_t>(nbr)]) continue;
        const int h = root(nbr);
        if (std::find(seen.begin(), seen.end(), h) != seen.end()) continue;
        seen.push_back(h);
        const FaceRef hc = ref(h);
        int shared = 0;
        for (std::size_t i = 0; i < hc.count; ++i)
          shared += std::binary_search(u.corners.begin(), u.corners.end(), hc.corners[i]) ? 1 : 0;
        ok = shared == 2 || (shared == 3 && middleCorner(u, hc) < 0 && !knifeEdgeHeld(u, h));
        if (!ok && offender) *offender = h;
      }
      if (!ok) break;
    }
    for (int t : u.tris) inUnion_[static_cast<std::size_t>(t)] = 0;
    return ok;
  }

  // Whether a triangle of the union or of face h has its corners in both.
  bool knifeEdgeHeld(const Group& u, int h) const {
    const Group g = groupOf(h);
    std::vector<int> corners = g.corners;
    std::sort(corners.begin(), corners.end());
    return holdsTriangleOf(u.tris, corners) || holdsTriangleOf(g.tris, u.corners);
  }

  // Merges groups a and b when the union is a convex polygon within
  // kMergeFlatness·τ of its plane, whose outline passes every corner once.
  bool merge(int a, int b, double tau, std::vector<int>* middles) {
    // A union that would share three corners with a neighbour takes that
    // neighbour in too (the corner between them is left with two faces
    // around it, so the three belong together), a few times at most.
    std::vector<int> members{a, b};
    for (int round = 0; round < kMaxMergeRounds; ++round) {
      Group u;
      for (int g : members) {
        const Group gg = groupOf(g);
        u.tris.insert(u.tris.end(), gg.tris.begin(), gg.tris.end());
        u.corners.insert(u.corners.end(), gg.corners.begin(), gg.corners.end());
        u.area += gg.area;
      }
      std::sort(u.corners.begin(), u.corners.end());
      u.corners.erase(std::unique(u.corners.begin(), u.corners.end()), u.corners.end());
      int offender = -1;
      if (!isFace(&u, tau, &offender)) {
        if (offender < 0) return false;
        if (round == 0) middleCorners(u, offender, middles);
        members.push_back(offender);
        continue;
      }
      commit(members, a, std::move(u));
      return true;
    }
    return false;
  }

  // The boundary of a group (its directed edges whose reverse is not in
  // it), chained; true when it is one loop through every corner and turns
  // left at each, measured in the group's plane.
  bool outline(Group* g) const {
    std::vector<std::pair<int, int>> inside, boundary;
    for (int t : g->tris)
      for (int k = 0; k < 3; ++k) inside.push_back({s_.tri[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)],
                                                    s_.tri[static_cast<std::size_t>(t)][static_cast<std::size_t>((k + 1) % 3)]});
    std::sort(inside.begin(), inside.end());
    for (const auto& e : inside)
      if (!std::binary_search(inside.begin(), inside.end(), std::make_pair(e.second, e.first))) boundary.push_back(e);
    if (boundary.size() != g->corners.size()) return false;  // a corner inside, or not one loop
    std::vector<int> loop{boundary[0].first};
    int cur = boundary[0].second;
    for (std::size_t guard = 0; guard < boundary.size() && cur != loop.front(); ++guard) {
      loop.push_back(cur);
      const auto it = std::lower_bound(boundary.begin(), boundary.end(), std::make_pair(cur, std::numeric_limits<int>::min()));
      if (it == boundary.end() || it->first != cur) return false;
      cur = it->second;
    }
    if (loop.size() != boundary.size() || cur != loop.front()) return false;
    const Vec3& n = g->normal;
    const std::size_t m = loop.size();
    for (std::size_t i = 0; i < m; ++i) {
      const Vec3& pa = c_.at(loop[i]);
      const Vec3& pb = c_.at(loop[(i + 1) % m]);
      const Vec3& pc = c_.at(loop[(i + 2) % m]);
      const Vec3 d1 = pb - pa, d2 = pc - pb;
      const Vec3 e1 = d1 - n * dot(d1, n), e2 = d2 - n * dot(d2, n);
      // A left turn clearly above the rounding of the test.
      if (!(dot(cross(e1, e2), n) > 64 * kU * length(d1) * length(d2))) return false;
    }
    g->outline = std::move(loop);
    return true;
  }

  const Cloud& c_;
  const Surface& s_;
  const std::vector<int>& heightBound_;
  // kMergeDepth·τ plus the rounding of two plane distances (ours and the
  // tests'), each within 64u of the cloud's extent.
  const double mergeLimit_;
  std::vector<int> parent_;
  std::vector<int> gid_;         // per root: its merged Group, or -1 for a single triangle
  std::vector<Group> merged_;
  std::vector<Vec3> tnormal_;    // per triangle: unit accurate normal
  std::vector<int> stuck_, loose_;
  bool unmerged_ = false;
  std::vector<char> inUnion_;  // meetsNeighboursAtEdges' marks, cleared after each use
};

// ---- the build ----------------------------------------------------------------------

void finishPolyhedron(const Cloud& c, const Surface& s, const std::vector<std::vector<int>>& faces, int iteration,
                      int firstId, ConvexHull* out) {
  out->kind = HullKind::Polyhedron;
  // Triangles in breadth-first order over shared edges, vertices numbered
  // as they first appear: neighbours on the surface get nearby numbers,
  // which keeps hill climbing over the adjacency within a few cache lines.
  std::vector<int> order{0};
  std::vector<char> seen(s.tri.size(), 0);
  seen[0] = 1;
  for (std::size_t k = 0; k < order.size(); ++k)
    for (int u : s.nb[static_cast<std::size_t>(order[k])])
      if (!seen[static_cast<std::size_t>(u)]) seen[static_cast<std::size_t>(u)] = 1, order.push_back(u);
  std::vector<int> remap(c.input.size(), -1);
  std::vector<int> idx;
  for (int ti : order)
    for (int v : s.tri[static_cast<std::size_t>(ti)])
      if (remap[static_cast<std::size_t>(v)] < 0) remap[static_cast<std::size_t>(v)] = static_cast<int>(idx.size()), idx.push_back(v);
  setVertices(c, out, idx);
  for (int ti : order) {
    const auto& t = s.tri[static_cast<std::size_t>(ti)];
    const int tri[3] = {remap[static_cast<std::size_t>(t[0])], remap[static_cast<std::size_t>(t[1])], remap[static_cast<std::size_t>(t[2])]};
    out->triangles.push_back({tri[0], tri[1], tri[2]});
    for (int k = 0; k < 3; ++k) {
      auto& adj = out->adjacency[static_cast<std::size_t>(tri[k])];
      const int nxt = tri[(k + 1) % 3];
      if (std::find(adj.begin(), adj.end(), nxt) == adj.end()) adj.push_back(nxt);
      auto& back = out->adjacency[static_cast<std::size_t>(nxt)];
      if (std::find(back.begin(), back.end(), tri[k]) == back.end()) back.push_back(tri[k]);
    }
  }
  for (const auto& f : faces) {
    std::vector<int> poly;
    for (int v : f) poly.push_back(remap[static_cast<std::size_t>(v)]);
    out->faces.push_back(std::move(poly));
  }
  if (c.trace) {
    HullFrame f;
    f.event = HullEvent::Done;
    f.line = hull_lines::kDone;
    f.iteration = iteration;
    f.kind = HullKind::Polyhedron;
    for (std::size_t t = 0; t < s.tri.size(); ++t) {
      HullTraceFace tf;
      tf.id = firstId + static_cast<int>(t);
      for (int k = 0; k < 3; ++k) tf.v[k] = s.tri[t][static_cast<std::size_t>(k)];
      f.faces.push_back(std::move(tf));
    }
    c.trace->record(std::move(f));
  }
}

// The build on finite points whose largest coordinate is within
// 2^±kHullMaxExponent (buildHull checked both).
void build(const std::vector<Vec3>& input, const HullSettings& settings, HullRecorder* trace, ConvexHull* out) {
  using namespace hull_lines;
  const Cloud c(input, settings.relativeTolerance, trace);
  const std::vector<Vec3>& pts = c.pts;
  const double tolerance = c.tolerance;
  out->tolerance = tolerance;
  const int n = static_cast<int>(pts.size());
  // 1. Dimension at the tolerance.
  int ext[6];
  for (int a = 0; a < 3; ++a) {
    ext[2 * a] = ext[2 * a + 1] = 0;
    for (int i = 1; i < n; ++i) {
      if (pts[static_cast<std::size_t>(i)][a] < pts[static_cast<std::size_t>(ext[2 * a])][a]) ext[2 * a] = i;
      if (pts[static_cast<std::size_t>(i)][a] > pts[static_cast<std::size_t>(ext[2 * a + 1])][a]) ext[2 * a + 1] = i;
    }
  }
  int i0 = ext[0], i1 = ext[1];
  double best = -1;
  for (int s = 0; s < 6; ++s)
    for (int t = s + 1; t < 6; ++t) {
      const double d = lengthSquared(pts[static_cast<std::size_t>(ext[s])] - pts[static_cast<std::size_t>(ext[t])]);
      if (d > best) best = d, i0 = ext[s], i1 = ext[t];
    }
  if (trace) {
    HullFrame f;
    f.event = HullEvent::Extremes;
    f.line = kExtremes;
    f.extremes.assign(ext, ext + 6);
    trace->record(std::move(f));
  }
  auto p = [&](int i) -> const Vec3& { return pts[static_cast<std::size_t>(i)]; };
  if (!(std::sqrt(best) > tolerance)) return finishPoint(c, out, i0);
  const Vec3 e = p(i1) - p(i0);
  int i2 = -1;
  best = tolerance;
  for (int i = 0; i < n; ++i) {
    const double d = length(cross(e, p(i) - p(i0))) / length(e);
    if (d > best) best = d, i2 = i;
  }
  if (i2 < 0) return finishSegment(c, out, i0, i1);
  const Vec3 nrm = normalizedOr(accurateNormal(p(i0), p(i1), p(i2)), Vec3{0, 0, 1});
  int i3 = -1;
  best = tolerance;
  for (int i = 0; i < n; ++i) {
    // The first three define the plane: with a nearly collinear triple its
    // computed normal is poor and they may seem off their own plane.
    if (i == i0 || i == i1 || i == i2 || p(i) == p(i0) || p(i) == p(i1) || p(i) == p(i2)) continue;
    const double d = std::fabs(dot(nrm, p(i) - p(i0)));
    if (d > best) best = d, i3 = i;
  }
  // i3 lies more than τ off the plane through the first three, far above
  // the rounding of that distance, so the four are not coplanar exactly
  // either; the orientation test confirms it.
  const int side = i3 < 0 ? 0 : orient3d(c.at(i0), c.at(i1), c.at(i2), c.at(i3));
  if (side == 0) return finishPolygon(c, out, nrm, i0, e);

  // 2. Quickhull with exact visibility over the distinct points.
  if (side > 0) std::swap(i1, i2);
  const int t[4] = {i0, i1, i2, i3};
  // Every point goes in: a duplicate of a vertex is never strictly above a
  // face (exactly), so it drops out inside like any other point on the hull.
  std::vector<int> idx(input.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int>(i);
  ExactQuickhull qh(c);
  Surface s;
  if (!qh.build(idx, t, 0, &s)) return finishPolygon(c, out, nrm, i0, e);  // a guard: exactly, build() succeeds
  const int iteration = qh.iterations();
  qh.setTracing(false);
  // 3. Vertices, 4. faces, at the tolerance.
  VertexDrops drops(c, qh);
  drops.run(&s);
  std::vector<std::vector<int>> faces;
  for (int forced = 0;; ++forced) {
    FaceMerge merge(c, s, drops.heightBound());
    merge.run();
    faces = merge.faces();
    {
      // Thinner than the tolerance across a face: every point is within τ
      // of that plane (the vertices are, and the points within their
      // budget of the vertices' hull), so the hull is that polygon. Every
      // face is measured when the merge or the drops met trouble; else the
      // largest face, the plane of any hull that flat.
      Vec3 normal;
      int corner = 0;
      const double width = merge.unmerged() || drops.flattened() ? merge.thinnest(&normal, &corner)
                                                                 : merge.widthAcrossLargest(&normal, &corner);
      if (width <= kFlatWidth * tolerance) return finishPolygon(c, out, normal, corner, e);
    }
    // The first stuck vertex that can go goes: one far from the hull of the
    // rest may stand beside one that is not.
    bool dropped = false;
    for (std::size_t k = 0; k < merge.stuck().size() && forced < kMaxForcedDrops && !dropped; ++k)
      dropped = drops.forceDrop(merge.stuck()[k], &s);
    if (!dropped && forced < kMaxForcedDrops) {
      std::vector<std::pair<double, int>> loose;
      for (int v : merge.loose()) loose.push_back({drops.gapOf(v, s), v});
      std::sort(loose.begin(), loose.end());
      for (std::size_t k = 0; k < loose.size() && k < kMaxLooseTries && !dropped; ++k) dropped = drops.forceDrop(loose[k].second, &s);
    }
    if (!dropped) break;
    drops.run(&s);
  }
  finishPolyhedron(c, s, faces, iteration, qh.nextId(), out);
}

// Scale. The plane arithmetic squares and multiplies coordinates (squared
// lengths, cross products of cross products), so a cloud whose largest
// coordinate is far from 1 overflows (1e200: lengths become ∞) or
// underflows (1e-160: a triangle's squared area is 0) long before its
// points stop being representable. A hull is unchanged by scaling, and
// scaling by a power of two is exact (up to bits of coordinates ~2^-1000
// below the largest one, far inside the tolerance); so a cloud whose
// largest coordinate lies outside [2^-kHullMaxExponent, 2^kHullMaxExponent]
// is built scaled into [1, 2) and its vertices, tolerance and traced
// distances are mapped back. Inside that range every intermediate (up to
// the 6th power of a coordinate, times u² in the double-double normals)
// stays far from overflow and underflow.
constexpr int kHullMaxExponent = 100;

// Grid. The exact stage of the orientation test (sums and products of
// coordinate differences, up to degree 3) is exact only while no product
// underflows below 2^-1074; a cloud at ~1 with a point at 1e-300 breaks it,
// two visibility decisions disagree and the horizon does not chain. So the
// builder works on coordinates rounded to multiples of 2^(e − kHullGridBits),
// where 2^e ≤ the largest |coordinate| < 2^(e+1): every intermediate is then
// a multiple of 2^(3(e − kHullGridBits)) ≥ 2^-1050 (e ≥ −kHullMaxExponent),
// which doubles hold exactly, subnormal or not. The rounding moves a point
// by at most 2^(e − kHullGridBits) ≪ the tolerance (≥ 32u·2^e); vertices are
// reported as the input points.
constexpr int kHullGridBits = 250;

double snapToGrid(double x, int shift) { return std::ldexp(std::nearbyint(std::ldexp(x, -shift)), shift); }

}  // namespace

bool buildHull(const std::vector<Vec3>& points, const HullSettings& settings, ConvexHull* out, HullError* err,
               HullRecorder* trace) {
  *out = ConvexHull{};
  if (points.empty()) {
    *err = {"points", "is empty: a hull needs at least 1 point"};
    return false;
  }
  double big = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!isFinite(points[i])) {
      *err = {"points[" + std::to_string(i) + "]", "must be finite"};
      return false;
    }
    big = std::fmax(big, maxAbs(points[i]));
  }
  if (trace && points.size() > kHullMaxTracedPoints) {
    *err = {"points", "tracing is limited to 5000 points (got " + std::to_string(points.size()) + ")"};
    return false;
  }
  const int exponent = big > 0 ? std::ilogb(big) : 0;
  const bool inRange = exponent >= -kHullMaxExponent && exponent <= kHullMaxExponent;
  const int scale = inRange ? 0 : exponent;  // the cloud is built scaled by 2^-scale
  const int shift = exponent - scale - kHullGridBits;
  // Coordinates at or above 2^(shift + 53) are multiples of the grid step.
  const double fine = std::ldexp(1.0, exponent - kHullGridBits + 53);
  bool onGrid = inRange;
  for (std::size_t i = 0; i < points.size() && onGrid; ++i)
    for (int a = 0; a < 3; ++a) {
      const double x = points[i][a];
      if (std::fabs(x) < fine && x != 0 && snapToGrid(x, shift) != x) onGrid = false;
    }
  if (onGrid) {
    build(points, settings, trace, out);
    return true;
  }
  std::vector<Vec3> scaled(points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    for (int a = 0; a < 3; ++a) scaled[i][a] = snapToGrid(std::ldexp(points[i][a], -scale), shift);
  const std::size_t firstFrame = trace ? trace->frames.size() : 0;
  build(scaled, settings, trace, out);
  for (std::size_t i = 0; i < out->vertices.size(); ++i) out->vertices[i] = points[static_cast<std::size_t>(out->inputIndex[i])];
  out->tolerance = std::ldexp(out->tolerance, scale);
  if (trace && scale != 0)
    for (std::size_t f = firstFrame; f < trace->frames.size(); ++f)
      trace->frames[f].eyeDistance = std::ldexp(trace->frames[f].eyeDistance, scale);
  return true;
}

}  // namespace collidoscope
