// collidoscope — sublinear polytope support (see polytope_support.h).
#include "collidoscope/polytope_support.h"

#include <algorithm>

#include "collidoscope/hull.h"

namespace collidoscope {

namespace {

// A level that removes less than this fraction of its vertices is not worth
// its memory and the extra step per query; the hierarchy stops there.
constexpr double kMinLevelShrink = 0.05;
// Hard cap on levels (each removes ≥ 5%, so 1e6 vertices need < 300; a
// greedy independent set of low-degree vertices usually removes a far
// larger fraction, so the cap binds only on pathological hulls).
constexpr std::size_t kMaxLevels = 300;

}  // namespace

std::shared_ptr<const PolytopeSupport> PolytopeSupport::build(const std::vector<Vec3>& points, Method method) {
  ConvexHull hull;
  HullError err;
  if (points.empty() || !buildHull(points, &hull, &err) || hull.vertices.empty()) return nullptr;
  return std::make_shared<const PolytopeSupport>(hull, points.size(), method);
}

PolytopeSupport::PolytopeSupport(const ConvexHull& hull, std::size_t inputCount, Method method)
    : vertices_(hull.vertices), inputCount_(inputCount), tolerance_(hull.tolerance) {
  const std::size_t n = vertices_.size();
  adjStart_.assign(n + 1, 0);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t deg = k < hull.adjacency.size() ? hull.adjacency[k].size() : 0;
    adjStart_[k + 1] = adjStart_[k] + static_cast<int>(deg);
  }
  adj_.reserve(static_cast<std::size_t>(adjStart_[n]));
  for (std::size_t k = 0; k < n && k < hull.adjacency.size(); ++k)
    adj_.insert(adj_.end(), hull.adjacency[k].begin(), hull.adjacency[k].end());

  if (method == Method::Auto)
    method = n < kHillClimbMinVertices ? Method::BruteForce
                                       : (n < kHierarchyMinVertices ? Method::HillClimb : Method::Hierarchy);
  // Walking needs an edge graph: without one (a point) scan.
  if (method != Method::BruteForce && adj_.empty()) method = Method::BruteForce;
  // The hierarchy is built from 3D hulls of subsets; for a polygon or a
  // segment plain hill climbing is just as good.
  if (method == Method::Hierarchy && hull.kind != HullKind::Polyhedron) method = Method::HillClimb;
  method_ = method;
  if (method_ == Method::Hierarchy) buildHierarchy();
}

void PolytopeSupport::buildHierarchy() {
  // Current level (starting at P_0): its vertex ids in P_0 and its CSR adjacency.
  std::vector<int> ids(vertices_.size());
  for (std::size_t k = 0; k < ids.size(); ++k) ids[k] = static_cast<int>(k);
  std::vector<int> start = adjStart_, items = adj_;

  std::vector<char> removed, marked;
  std::vector<int> survivors;
  std::vector<Vec3> pts;
  std::vector<int> localOfSurvivor;
  while (ids.size() > kTopVertices && levels_.size() < kMaxLevels) {
    const std::size_t n = ids.size();
    // Greedy independent set of low-degree vertices, in index order
    // (deterministic): take k unless a taken neighbour marked it.
    removed.assign(n, 0);
    marked.assign(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
      if (marked[k] || start[k + 1] - start[k] > kMaxRemovedDegree) continue;
      removed[k] = 1;
      for (int e = start[k]; e < start[k + 1]; ++e) marked[static_cast<std::size_t>(items[static_cast<std::size_t>(e)])] = 1;
    }
    survivors.clear();
    pts.clear();
    for (std::size_t k = 0; k < n; ++k) {
      if (removed[k]) continue;
      survivors.push_back(static_cast<int>(k));
      pts.push_back(vertices_[static_cast<std::size_t>(ids[k])]);
    }
    if (static_cast<double>(n - survivors.size()) < kMinLevelShrink * static_cast<double>(n)) break;
    ConvexHull h;
    HullError err;
    if (!buildHull(pts, &h, &err) || h.kind != HullKind::Polyhedron) break;

    // The next level: hull vertices (a subset of the survivors: the hull
    // tolerance may drop a near-coplanar one, which then counts as removed).
    Level next;
    const std::size_t m = h.vertices.size();
    next.ids.resize(m);
    next.below.resize(m);
    std::vector<char> inNext(n, 0);
    for (std::size_t j = 0; j < m; ++j) {
      const int local = survivors[static_cast<std::size_t>(h.inputIndex[j])];
      next.below[j] = local;
      next.ids[j] = ids[static_cast<std::size_t>(local)];
      inNext[static_cast<std::size_t>(local)] = 1;
    }
    // Down lists of the current level.
    DownLists dl;
    dl.start.assign(n + 1, 0);
    for (std::size_t k = 0; k < n; ++k) {
      int c = 0;
      for (int e = start[k]; e < start[k + 1]; ++e) c += inNext[static_cast<std::size_t>(items[static_cast<std::size_t>(e)])] ? 0 : 1;
      dl.start[k + 1] = dl.start[k] + c;
    }
    dl.items.reserve(static_cast<std::size_t>(dl.start[n]));
    for (std::size_t k = 0; k < n; ++k)
      for (int e = start[k]; e < start[k + 1]; ++e) {
        const int j = items[static_cast<std::size_t>(e)];
        if (!inNext[static_cast<std::size_t>(j)]) dl.items.push_back(j);
      }
    down_.push_back(std::move(dl));

    // Adjacency of the next level, from the hull (local indices of the next level).
    start.assign(m + 1, 0);
    for (std::size_t j = 0; j < m; ++j) start[j + 1] = start[j] + static_cast<int>(h.adjacency[j].size());
    items.clear();
    for (std::size_t j = 0; j < m; ++j) items.insert(items.end(), h.adjacency[j].begin(), h.adjacency[j].end());
    ids = next.ids;
    levels_.push_back(std::move(next));
  }
  if (levels_.empty()) method_ = Method::HillClimb;
}

int PolytopeSupport::bruteForceIndex(const Vec3& d) const {
  int best = 0;
  double bestDot = dot(vertices_[0], d);
  const int n = static_cast<int>(vertices_.size());
  for (int i = 1; i < n; ++i) {
    const double p = dot(vertices_[static_cast<std::size_t>(i)], d);
    if (p > bestDot) {
      bestDot = p;
      best = i;
    }
  }
  return best;
}

int PolytopeSupport::hillClimbIndex(const Vec3& d, int cur) const {
  const int n = static_cast<int>(vertices_.size());
  if (cur < 0 || cur >= n) cur = 0;
  double best = dot(vertices_[static_cast<std::size_t>(cur)], d);
  // Strict improvement never revisits a vertex: at most n − 1 moves.
  for (int step = 0; step < n; ++step) {
    int next = -1;
    double nextDot = best;
    const int end = adjStart_[static_cast<std::size_t>(cur) + 1];
    for (int e = adjStart_[static_cast<std::size_t>(cur)]; e < end; ++e) {
      const int j = adj_[static_cast<std::size_t>(e)];
      const double p = dot(vertices_[static_cast<std::size_t>(j)], d);
      if (p > nextDot) {
        nextDot = p;
        next = j;
      }
    }
    if (next < 0) break;
    cur = next;
    best = nextDot;
  }
  return cur;
}

int PolytopeSupport::hierarchyIndex(const Vec3& d) const {
  if (levels_.empty()) return hillClimbIndex(d, 0);
  // Top level: brute force.
  const Level& top = levels_.back();
  int k = 0;
  double best = dot(vertices_[static_cast<std::size_t>(top.ids[0])], d);
  for (std::size_t j = 1; j < top.ids.size(); ++j) {
    const double p = dot(vertices_[static_cast<std::size_t>(top.ids[j])], d);
    if (p > best) {
      best = p;
      k = static_cast<int>(j);
    }
  }
  // Descend: level i + 1 -> level i, then climb over level i's down lists.
  for (std::size_t i = levels_.size(); i-- > 0;) {
    k = levels_[i].below[static_cast<std::size_t>(k)];  // now local in level i
    const std::vector<int>* ids = i == 0 ? nullptr : &levels_[i - 1].ids;
    const DownLists& dl = down_[i];
    const std::size_t cap = dl.start.size();
    for (std::size_t step = 0; step < cap; ++step) {
      int next = -1;
      double nextDot = best;
      const int end = dl.start[static_cast<std::size_t>(k) + 1];
      for (int e = dl.start[static_cast<std::size_t>(k)]; e < end; ++e) {
        const int j = dl.items[static_cast<std::size_t>(e)];
        const int id = ids ? (*ids)[static_cast<std::size_t>(j)] : j;
        const double p = dot(vertices_[static_cast<std::size_t>(id)], d);
        if (p > nextDot) {
          nextDot = p;
          next = j;
        }
      }
      if (next < 0) break;
      k = next;
      best = nextDot;
    }
  }
  // k is a vertex of P_0; confirm (or finish) by hill climbing there.
  return hillClimbIndex(d, k);
}

int PolytopeSupport::supportIndex(const Vec3& d) const {
  switch (method_) {
    case Method::HillClimb:
      return hillClimbIndex(d, 0);
    case Method::Hierarchy:
      return hierarchyIndex(d);
    default:
      return bruteForceIndex(d);
  }
}

int PolytopeSupport::supportIndexFrom(const Vec3& d, int start) const {
  if (method_ == Method::BruteForce) return bruteForceIndex(d);
  return hillClimbIndex(d, start);
}

}  // namespace collidoscope
