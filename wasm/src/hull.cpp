// collidoscope — quickhull's non-template parts (the validation of a built
// hull and the exact rebuild; hull.h has the traced build) and the names
// of its kinds. The pseudocode's words are in web/lib/captions.ts; its line
// ids are hull.h's hull_lines.
#include "collidoscope/hull.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

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

namespace detail {

// How far p lies above a polyhedral hull: the largest signed distance to
// its triangles' planes (accurate normals, differences taken from a
// corner). Lower-dimensional hulls: the distance to the nearest vertex is
// not needed by the caller, which only builds polyhedra here; 0.
double heightAbove(const ConvexHull& h, const Vec3& p) {
  if (h.kind != HullKind::Polyhedron) return 0;
  double best = -std::numeric_limits<double>::infinity();
  for (const auto& t : h.triangles) {
    const Vec3& a = h.vertices[static_cast<std::size_t>(t[0])];
    const Vec3 n = normalizedOr(accurateNormal(a, h.vertices[static_cast<std::size_t>(t[1])], h.vertices[static_cast<std::size_t>(t[2])]), Vec3{});
    best = std::fmax(best, dot(n, p - a));
  }
  return best;
}


// Whether a polyhedral hull of `pts` breaks one of its promises: a point
// (of `suspects`, or a vertex) above a triangle's plane by more than the
// tolerance, or above one at all and farther than the tolerance from the
// surface; a triangle the vertex centroid is not strictly below; merged
// faces that are not strictly convex, do not close up (Euler), or meet a
// neighbour within half the tolerance of its plane; two vertices within the
// tolerance. O((suspects + V)·T + V log V). The first build of a nearly
// degenerate cloud can fail these (see buildValidHull); an ordinary one
// never does.
// The plane of a (nearly planar) polygon of points v[poly[k]]: its unit
// normal, the sum of its fan triangles' accurate normals from the first
// corner (Newell's normal, summed without cancellation: a sliver face far
// from the origin keeps its direction), and the mean of its corners
// relative to the first corner. Signed distance of q: dot(n, (q − v[poly[0]]) − mean).
COLLIDOSCOPE_SMALL inline Vec3 facePlane(const std::vector<Vec3>& v, const std::vector<int>& poly, Vec3* mean) {
  const std::size_t m = poly.size();
  const Vec3& first = v[static_cast<std::size_t>(poly[0])];
  Vec3 n{0, 0, 0}, sum{0, 0, 0};
  for (std::size_t k = 1; k < m; ++k) {
    sum += v[static_cast<std::size_t>(poly[k])] - first;
    if (k + 1 < m) n += accurateNormal(first, v[static_cast<std::size_t>(poly[k])], v[static_cast<std::size_t>(poly[k + 1])]);
  }
  *mean = sum * (1.0 / static_cast<double>(m));
  return normalizedOr(n, Vec3{});
}

bool neighboursClearlyBeyond(const ConvexHull& h, std::size_t v, const Vec3& inside) {
  const Vec3& p = h.vertices[v];
  const Vec3 m = normalizedOr(inside - p, Vec3{});
  if (m == Vec3{}) return false;
  // The distances are computed from raw coordinates, each rounded by a few
  // ulps of the largest one involved; 1e-6 of it is far above that.
  double reach = maxAbs(p), nearest = std::numeric_limits<double>::infinity();
  for (int a : h.adjacency[v]) {
    const Vec3& q = h.vertices[static_cast<std::size_t>(a)];
    reach = std::fmax(reach, maxAbs(q));
    nearest = std::fmin(nearest, dot(m, q - p));
  }
  return nearest > h.tolerance + 1e-6 * reach;
}

// Directed edges (a, b) of a closed surface, each with the first face
// that was inserted with it: an open-addressing hash table, O(1) per edge
// (a fan's hub can have thousands of edges, so no per-vertex lists).
class EdgeTable {
 public:
  explicit EdgeTable(std::size_t edges) {
    std::size_t size = 16;
    while (size < 2 * edges) size *= 2;
    slots_.assign(size, Slot{kEmpty, -1});
    mask_ = size - 1;
  }
  // False (and no change) when (a, b) is in the table already.
  bool insert(int a, int b, int face) {
    const std::uint64_t key = keyOf(a, b);
    for (std::size_t i = slot(key);; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return false;
      if (slots_[i].key == kEmpty) {
        slots_[i] = Slot{key, face};
        return true;
      }
    }
  }
  // The face stored with (a, b), or −1.
  int find(int a, int b) const {
    const std::uint64_t key = keyOf(a, b);
    for (std::size_t i = slot(key);; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return slots_[i].face;
      if (slots_[i].key == kEmpty) return -1;
    }
  }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  static std::uint64_t keyOf(int a, int b) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
  }
  std::size_t slot(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
  }
  struct Slot {
    std::uint64_t key;
    int face;
  };
  std::vector<Slot> slots_;  // key and face side by side: one cache line per probe
  std::size_t mask_ = 0;
};

COLLIDOSCOPE_SMALL bool hullDefect(const std::vector<Vec3>& pts, const std::vector<int>& suspects, const ConvexHull& h,
                       bool centroidMargin) {
  if (h.kind != HullKind::Polyhedron) return false;
  const double tau = h.tolerance;
  const std::size_t nv = h.vertices.size();
  const Vec3 o = h.vertices[0];
  auto at = [&](int i) { return h.vertices[static_cast<std::size_t>(i)] - o; };
  std::vector<Vec3> tn;
  tn.reserve(h.triangles.size());
  Vec3 c{0, 0, 0};
  for (std::size_t i = 0; i < nv; ++i) c += h.vertices[i] - o;
  c = c * (1.0 / static_cast<double>(nv));
  // The centroid clearly below each triangle: by more than the rounding of
  // a centroid taken in the raw coordinates ((V + 4)·u·max|x|), so that the
  // answer does not hang on how it is computed (a slab far from the origin
  // has triangles nearly through its centroid). Not for the exact rebuild
  // (centroidMargin false): its triangles are exact facets, which the
  // centroid lies strictly below.
  double big = 0;
  for (const Vec3& v : h.vertices) big = std::fmax(big, maxAbs(v));
  const double below = centroidMargin ? static_cast<double>(nv + 4) * (std::numeric_limits<double>::epsilon() / 2) * big : 0;
  auto vx = [&](int i) -> const Vec3& { return h.vertices[static_cast<std::size_t>(i)]; };
  for (const auto& t : h.triangles) {
    // From the vertices themselves (accurateNormal takes the differences
    // exactly): a sliver far from vertex 0 keeps its direction.
    const Vec3 n = normalizedOr(accurateNormal(vx(t[0]), vx(t[1]), vx(t[2])), Vec3{});
    if (n == Vec3{}) return true;
    if (!(dot(n, c - at(t[0])) < -below)) return true;
    tn.push_back(n);
  }
  // A point outside a convex polyhedron is nearest to it on a face whose
  // plane it is above, so only those faces are measured (those it is above
  // within the tolerance: two coplanar triangles split a face, and rounding
  // can put a point on one of them below its plane).
  auto check = [&](const Vec3& p, bool vertex) {
    double above = 0;
    for (std::size_t t = 0; t < tn.size(); ++t) above = std::fmax(above, dot(tn[t], p - vx(h.triangles[t][0])));
    if (above > tau) return true;
    if (vertex || !(above > 0)) return false;
    for (std::size_t t = 0; t < tn.size(); ++t) {
      const auto& tr = h.triangles[t];
      if (!(dot(tn[t], p - vx(tr[0])) > -tau)) continue;
      if (!(Quickhull::triangleDistance(p, vx(tr[0]), vx(tr[1]), vx(tr[2]), tn[t]) > tau)) return false;
    }
    return true;
  };
  // Convexity, locally: across each edge, the neighbour's far corner lies
  // below the triangle's plane within the tolerance (a closed surface that
  // is locally convex and winds once around its centroid is convex).
  {
    EdgeTable tedges(3 * h.triangles.size());
    for (std::size_t t = 0; t < h.triangles.size(); ++t)
      for (int k = 0; k < 3; ++k) tedges.insert(h.triangles[t][k], h.triangles[t][(k + 1) % 3], static_cast<int>(t));
    for (std::size_t t = 0; t < h.triangles.size(); ++t)
      for (int k = 0; k < 3; ++k) {
        const int a = h.triangles[t][k], b = h.triangles[t][(k + 1) % 3];
        const int across = tedges.find(b, a);
        if (across < 0) return true;
        const auto& g = h.triangles[static_cast<std::size_t>(across)];
        const int far = g[0] != a && g[0] != b ? g[0] : (g[1] != a && g[1] != b ? g[1] : g[2]);
        if (dot(tn[t], vx(far) - vx(h.triangles[t][0])) > tau) return true;
      }
  }
  for (int i : suspects)
    if (check(pts[static_cast<std::size_t>(i)], false)) return true;
  // Two vertices within the tolerance (sorted by x, compared within τ in x).
  std::vector<Vec3> sv(h.vertices);
  std::sort(sv.begin(), sv.end(), [](const Vec3& a, const Vec3& b) { return a.x < b.x; });
  for (std::size_t i = 0; i < sv.size(); ++i)
    for (std::size_t j = i + 1; j < sv.size() && sv[j].x - sv[i].x <= tau; ++j)
      if (length(sv[j] - sv[i]) <= tau) return true;
  // Merged faces: Newell normal, strictly convex corners, closed (every
  // directed edge once, its reverse once), Euler, not coplanar with a
  // neighbour within τ/2.
  const std::size_t nf = h.faces.size();
  std::vector<Vec3> fnrm(nf), fctr(nf);
  std::size_t faceCorners = 0;
  for (const auto& poly : h.faces) faceCorners += poly.size();
  EdgeTable edges(faceCorners);
  for (std::size_t f = 0; f < nf; ++f) {
    const auto& poly = h.faces[f];
    const std::size_t m = poly.size();
    if (m < 3) return true;
    // Newell's normal (facePlane), the centroid as the plane's point
    // (relative to the first corner).
    for (std::size_t k = 0; k < m; ++k)
      if (!edges.insert(poly[k], poly[(k + 1) % m], static_cast<int>(f))) return true;  // a directed edge twice
    Vec3 ctr;
    const Vec3 n = facePlane(h.vertices, poly, &ctr);
    if (n == Vec3{}) return true;
    fnrm[f] = n;
    fctr[f] = ctr;
    for (std::size_t k = 0; k < m; ++k) {
      const Vec3 d1 = vx(poly[(k + 1) % m]) - vx(poly[k]), d2 = vx(poly[(k + 2) % m]) - vx(poly[(k + 1) % m]);
      const Vec3 e1 = d1 - n * dot(d1, n), e2 = d2 - n * dot(d2, n);
      if (!(dot(cross(e1, e2), n) > 0)) return true;
    }
  }
  // Some corner of one face clearly below the other's plane.
  auto clearlyBelow = [&](int plane, int corners) {
    for (int i : h.faces[static_cast<std::size_t>(corners)])
      if (dot(fnrm[static_cast<std::size_t>(plane)], (vx(i) - vx(h.faces[static_cast<std::size_t>(plane)][0])) - fctr[static_cast<std::size_t>(plane)]) < -0.5 * tau) return true;
    return false;
  };
  for (std::size_t fi = 0; fi < nf; ++fi)
    for (std::size_t k = 0, m = h.faces[fi].size(); k < m; ++k) {
      const int f = static_cast<int>(fi);
      const int g = edges.find(h.faces[fi][(k + 1) % m], h.faces[fi][k]);
      if (g < 0) return true;
      // Either way round; the smaller face's corners first, stopping at the first.
      const bool fSmaller = h.faces[fi].size() <= h.faces[static_cast<std::size_t>(g)].size();
      if (!(fSmaller ? clearlyBelow(g, f) || clearlyBelow(f, g) : clearlyBelow(f, g) || clearlyBelow(g, f))) return true;
    }
  // Two faces share at most an edge (two corners).
  // The faces at each vertex, as rows of one array (row v: facesAt[rowStart[v] .. rowStart[v + 1])).
  std::vector<std::size_t> rowStart(nv + 1, 0);
  for (const auto& poly : h.faces)
    for (int i : poly) ++rowStart[static_cast<std::size_t>(i) + 1];
  for (std::size_t v = 0; v < nv; ++v) rowStart[v + 1] += rowStart[v];
  std::vector<int> facesAt(faceCorners);
  {
    std::vector<std::size_t> fill(rowStart.begin(), rowStart.end() - 1);
    for (std::size_t f = 0; f < nf; ++f)
      for (int i : h.faces[f]) facesAt[fill[static_cast<std::size_t>(i)]++] = static_cast<int>(f);
  }
  std::vector<int> shared(nf, 0), stamp(nf, -1);
  for (std::size_t f = 0; f < nf; ++f)
    for (int i : h.faces[f])
      for (std::size_t r = rowStart[static_cast<std::size_t>(i)]; r < rowStart[static_cast<std::size_t>(i) + 1]; ++r) {
        const std::size_t gi = static_cast<std::size_t>(facesAt[r]);
        if (gi == f) continue;
        if (stamp[gi] != static_cast<int>(f)) stamp[gi] = static_cast<int>(f), shared[gi] = 0;
        if (++shared[gi] > 2) return true;
      }
  const long euler = static_cast<long>(nv) - static_cast<long>(faceCorners / 2) + static_cast<long>(nf);
  return euler != 2;
}

// ---- the exact rebuild (nearly degenerate clouds) ------------------------------
//
// When the ordinary build breaks a promise (hullDefect), the hull is built
// again with every combinatorial decision exact: whether a point lies above
// the plane through three input points is the sign of a 3×3 determinant of
// coordinate differences, evaluated exactly. An exact hull of the input
// points is a valid convex polyhedron whatever the rounding (closed,
// outward, every point inside). The tolerance enters only afterwards, in
// two steps that are each checked:
//   * a vertex goes when the hull of the others keeps it, and every vertex
//     dropped before it, within the tolerance (Euclidean distance): every
//     input point is a convex combination of the exact hull's vertices, so
//     then every input point is within the tolerance too;
//   * adjacent faces within half the tolerance of each other's planes are
//     merged, most coplanar first, when the merged polygon is strictly
//     convex, its corners within the tolerance of its plane and no exact
//     hull vertex above it by more than the tolerance.
// The result is validated like the first build (hullDefect) and used only
// if it passes.
//
// Orientation tests are exact (predicates.h: Shewchuk's adaptive filter
// with an exact fallback).

// Quickhull with exact visibility on a subset of the input points: the
// surface it returns is the exact convex hull's (triangulated; adjacent
// triangles may be exactly coplanar). Points exactly on a face plane are
// inside. Each iteration adds one point as a vertex, so the loop runs at
// most once per point. build() is false when the points are exactly
// coplanar (or a horizon fails to chain, which exact arithmetic rules out:
// a guard, not a path).
class ExactQuickhull {
 public:
  std::vector<std::array<int, 3>> triangles;  // input indices, outward counter-clockwise

  COLLIDOSCOPE_SMALL bool build(const std::vector<Vec3>& pts, const std::vector<int>& idx) {
    triangles.clear();
    faces_.clear();
    if (idx.size() < 4) return false;
    pts_ = &pts;
    // A first tetrahedron of exactly non-coplanar points, each the most
    // distant (in double) of those that qualify exactly.
    int i0 = idx[0];
    for (int i : idx) {
      const Vec3 &p = pts[static_cast<std::size_t>(i)], &q = pts[static_cast<std::size_t>(i0)];
      if (p.x < q.x || (p.x == q.x && (p.y < q.y || (p.y == q.y && p.z < q.z)))) i0 = i;
    }
    const Vec3 p0 = pts[static_cast<std::size_t>(i0)];
    int i1 = -1;
    double best = 0;
    for (int i : idx) {
      const double d = lengthSquared(pts[static_cast<std::size_t>(i)] - p0);
      if (d > best) best = d, i1 = i;
    }
    if (i1 < 0) return false;
    const Vec3 p1 = pts[static_cast<std::size_t>(i1)];
    auto byDecreasing = [&](auto measure) {
      std::vector<std::pair<double, int>> order;
      order.reserve(idx.size());
      for (int i : idx) order.push_back({-measure(pts[static_cast<std::size_t>(i)]), i});
      std::sort(order.begin(), order.end());
      return order;
    };
    int i2 = -1;
    for (const auto& [m, i] : byDecreasing([&](const Vec3& p) { return lengthSquared(cross(p1 - p0, p - p0)); }))
      if (!collinear3d(p0, p1, pts[static_cast<std::size_t>(i)])) {
        i2 = i;
        break;
      }
    if (i2 < 0) return false;
    const Vec3 p2 = pts[static_cast<std::size_t>(i2)];
    const Vec3 n = accurateNormal(p0, p1, p2);
    int i3 = -1;
    for (const auto& [m, i] : byDecreasing([&](const Vec3& p) { return std::fabs(dot(n, p - p0)); }))
      if (orient3d(p0, p1, p2, pts[static_cast<std::size_t>(i)]) != 0) {
        i3 = i;
        break;
      }
    if (i3 < 0) return false;
    if (orient3d(p0, p1, p2, pts[static_cast<std::size_t>(i3)]) > 0) std::swap(i1, i2);
    const int t[4] = {i0, i1, i2, i3};
    const int fv[4][3] = {{t[0], t[1], t[2]}, {t[0], t[3], t[1]}, {t[1], t[3], t[2]}, {t[2], t[3], t[0]}};
    for (const auto& f : fv) addFace(f[0], f[1], f[2]);
    for (std::size_t i = 0; i < 4; ++i)
      for (int k = 0; k < 3; ++k)
        for (std::size_t j = 0; j < 4; ++j)
          for (int m = 0; m < 3; ++m)
            if (faces_[j].v[m] == faces_[i].v[(k + 1) % 3] && faces_[j].v[(m + 1) % 3] == faces_[i].v[k])
              faces_[i].nb[k] = static_cast<int>(j);
    std::vector<int> rest;
    for (int i : idx)
      if (i != i0 && i != i1 && i != i2 && i != i3) rest.push_back(i);
    assign(rest, {0, 1, 2, 3});
    std::size_t maxIndex = 0;
    for (int i : idx) maxIndex = std::max(maxIndex, static_cast<std::size_t>(i) + 1);
    startStamp_.assign(maxIndex, -1);
    startEdge_.assign(maxIndex, -1);
    for (std::size_t guard = 0; guard <= idx.size(); ++guard) {
      int fi = -1;
      while (head_ < queue_.size()) {
        const int f = queue_[head_];
        if (faces_[static_cast<std::size_t>(f)].alive && !faces_[static_cast<std::size_t>(f)].conflicts.empty()) {
          fi = f;
          break;
        }
        ++head_;
      }
      if (fi < 0) break;
      if (!addPoint(fi, static_cast<int>(guard))) return false;
    }
    for (const Face& f : faces_) {
      if (!f.alive) continue;
      if (!f.conflicts.empty()) return false;  // the guard ran out: cannot happen
      triangles.push_back({f.v[0], f.v[1], f.v[2]});
    }
    return true;
  }

 private:
  struct Face {
    int v[3];
    int nb[3];
    Vec3 normal;  // for ranking only (which conflict is farthest)
    bool alive = true;
    int mark = -1;
    std::vector<int> conflicts;
    int farthest = -1;
    double farthestDistance = 0;
  };
  const Vec3& at(int i) const { return (*pts_)[static_cast<std::size_t>(i)]; }
  int above(const Face& f, int p) const { return orient3d(at(f.v[0]), at(f.v[1]), at(f.v[2]), at(p)); }
  double rank(const Face& f, int p) const { return dot(f.normal, at(p) - at(f.v[0])); }

  int addFace(int a, int b, int c) {
    Face f;
    f.v[0] = a, f.v[1] = b, f.v[2] = c;
    f.nb[0] = f.nb[1] = f.nb[2] = -1;
    f.normal = normalizedOr(accurateNormal(at(a), at(b), at(c)), Vec3{0, 0, 1});
    faces_.push_back(std::move(f));
    return static_cast<int>(faces_.size()) - 1;
  }

  // Each point goes to the candidate face it is exactly above, the one it
  // is farthest above (in double) if several; above none, it is inside.
  COLLIDOSCOPE_SMALL void assign(const std::vector<int>& points, const std::vector<int>& candidates) {
    for (int p : points) {
      int bestFace = -1;
      double bestD = 0;
      for (int c : candidates) {
        const Face& f = faces_[static_cast<std::size_t>(c)];
        if (above(f, p) <= 0) continue;
        const double d = rank(f, p);
        if (bestFace < 0 || d > bestD) bestFace = c, bestD = d;
      }
      if (bestFace < 0) continue;
      Face& f = faces_[static_cast<std::size_t>(bestFace)];
      if (f.conflicts.empty()) queue_.push_back(bestFace);
      f.conflicts.push_back(p);
      if (f.farthest < 0 || bestD > f.farthestDistance) f.farthest = p, f.farthestDistance = bestD;
    }
  }

  COLLIDOSCOPE_SMALL bool addPoint(int fi, int mark) {
    const int eye = faces_[static_cast<std::size_t>(fi)].farthest;
    std::vector<int> visible{fi};
    faces_[static_cast<std::size_t>(fi)].mark = mark;
    for (std::size_t k = 0; k < visible.size(); ++k)
      for (int e = 0; e < 3; ++e) {
        const int g = faces_[static_cast<std::size_t>(visible[k])].nb[e];
        if (g < 0) return false;
        Face& fg = faces_[static_cast<std::size_t>(g)];
        if (fg.mark == mark) continue;
        if (above(fg, eye) > 0) {
          fg.mark = mark;
          visible.push_back(g);
        }
      }
    struct Edge {
      int a, b, outside;
    };
    std::vector<Edge> edges;
    for (int v : visible) {
      const Face& f = faces_[static_cast<std::size_t>(v)];
      for (int e = 0; e < 3; ++e)
        if (faces_[static_cast<std::size_t>(f.nb[e])].mark != mark) edges.push_back({f.v[e], f.v[(e + 1) % 3], f.nb[e]});
    }
    if (edges.empty()) return false;
    for (std::size_t k = 0; k < edges.size(); ++k) {
      const std::size_t a = static_cast<std::size_t>(edges[k].a);
      if (startStamp_[a] == mark) return false;
      startStamp_[a] = mark;
      startEdge_[a] = static_cast<int>(k);
    }
    std::vector<Edge> loop{edges[0]};
    while (loop.size() < edges.size()) {
      const std::size_t b = static_cast<std::size_t>(loop.back().b);
      if (startStamp_[b] != mark || loop.back().b == loop.front().a) return false;
      loop.push_back(edges[static_cast<std::size_t>(startEdge_[b])]);
    }
    if (loop.back().b != loop.front().a) return false;
    std::vector<int> orphans;
    for (int v : visible) {
      Face& f = faces_[static_cast<std::size_t>(v)];
      for (int q : f.conflicts)
        if (q != eye) orphans.push_back(q);
      f.conflicts.clear();
      f.conflicts.shrink_to_fit();
      f.alive = false;
    }
    std::vector<int> cone;
    for (const Edge& e : loop) {
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
    return true;
  }

  const std::vector<Vec3>* pts_ = nullptr;
  std::vector<Face> faces_;
  std::vector<int> queue_;
  std::size_t head_ = 0;
  std::vector<int> startStamp_, startEdge_;
};

// How far p lies outside the polyhedron with these triangles (outward,
// input indices into pts): 0 inside, else its Euclidean distance, which
// for a point outside a convex polyhedron is its distance to the nearest
// triangle it lies above. Normals: accurateNormal, one per triangle.
struct TriangleSurface {
  const std::vector<Vec3>* pts = nullptr;
  std::vector<std::array<int, 3>> tri;
  std::vector<Vec3> normal;
  COLLIDOSCOPE_SMALL void set(const std::vector<Vec3>& p, const std::vector<std::array<int, 3>>& t) {
    pts = &p;
    tri = t;
    normal.clear();
    for (const auto& x : t)
      normal.push_back(normalizedOr(accurateNormal(p[static_cast<std::size_t>(x[0])], p[static_cast<std::size_t>(x[1])],
                                                   p[static_cast<std::size_t>(x[2])]),
                                    Vec3{}));
  }
  COLLIDOSCOPE_SMALL double outside(const Vec3& q) const {
    double above = 0;
    for (std::size_t t = 0; t < tri.size(); ++t)
      above = std::fmax(above, dot(normal[t], q - (*pts)[static_cast<std::size_t>(tri[t][0])]));
    if (!(above > 0)) return 0;
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t t = 0; t < tri.size(); ++t) {
      const Vec3& a = (*pts)[static_cast<std::size_t>(tri[t][0])];
      if (!(dot(normal[t], q - a) > 0)) continue;
      nearest = std::fmin(nearest, Quickhull::triangleDistance(q, a, (*pts)[static_cast<std::size_t>(tri[t][1])],
                                                               (*pts)[static_cast<std::size_t>(tri[t][2])], normal[t]));
    }
    return std::fmax(above, nearest);
  }
};

COLLIDOSCOPE_SMALL inline std::vector<int> triangleVertices(const std::vector<std::array<int, 3>>& tris) {
  std::vector<int> v;
  for (const auto& t : tris) v.insert(v.end(), t.begin(), t.end());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// The exact path gives up on clouds whose exact hull has more vertices
// than this (its vertex pass rebuilds the hull once or twice per vertex);
// the first hull stands for them.
constexpr std::size_t kExactMaxVertices = 1024;

// The exact rebuild (see above). `tau` is the hull's tolerance; false when
// the exact hull is flat or too large. *valid tells whether the result
// passed the validation; if not, it is the one that merged only pairs
// coplanar within half the tolerance both ways (every point still within
// the tolerance, closed and outward: only its faces break a promise).
COLLIDOSCOPE_SMALL bool buildExactHull(const std::vector<Vec3>& points, double tau, ConvexHull* out, bool* valid) {
  *valid = false;
  std::vector<int> all(points.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  ExactQuickhull qh;
  if (!qh.build(points, all)) return false;
  const std::vector<int> exactVertices = triangleVertices(qh.triangles);
  if (exactVertices.size() > kExactMaxVertices) return false;
  // Two rounds: vertices dropped within (nearly) the tolerance, then, if
  // no result passes, only within a quarter of it (fewer drops, which can
  // leave each other outside by adding up).
  constexpr double kDropFractions[] = {31.0 / 32, 1.0 / 4};  // 31/32: a margin for the validation's rounding
  ConvexHull fallback;
  bool haveFallback = false;
  for (double fraction : kDropFractions) {
    std::vector<std::array<int, 3>> tris = qh.triangles;
    const double dropWithin = tau * fraction;
    // 1. Vertices within the tolerance of the hull of the others, nearest
    // first, while every vertex dropped so far stays within it.
    std::vector<std::pair<double, int>> candidates;
    for (int v : exactVertices) {
      std::vector<int> rest;
      for (int w : exactVertices)
        if (w != v) rest.push_back(w);
      ExactQuickhull other;
      if (!other.build(points, rest)) continue;
      TriangleSurface s;
      s.set(points, other.triangles);
      const double d = s.outside(points[static_cast<std::size_t>(v)]);
      if (d <= dropWithin) candidates.push_back({d, v});
    }
    std::sort(candidates.begin(), candidates.end());
    std::vector<int> kept = exactVertices, dropped;
    for (const auto& [d, v] : candidates) {
      if (!std::binary_search(kept.begin(), kept.end(), v)) continue;
      std::vector<int> rest;
      for (int w : kept)
        if (w != v) rest.push_back(w);
      ExactQuickhull other;
      if (!other.build(points, rest)) continue;
      TriangleSurface s;
      s.set(points, other.triangles);
      bool ok = s.outside(points[static_cast<std::size_t>(v)]) <= dropWithin;
      for (std::size_t k = 0; k < dropped.size() && ok; ++k)
        ok = s.outside(points[static_cast<std::size_t>(dropped[k])]) <= dropWithin;
      if (!ok) continue;
      const std::vector<int> now = triangleVertices(other.triangles);
      for (int w : kept)
        if (!std::binary_search(now.begin(), now.end(), w)) dropped.push_back(w);
      kept = now;
      tris = other.triangles;
    }
    // Output order of the vertices: first appearance in the triangles.
    std::vector<int> order, slot(points.size(), -1);
    for (const auto& t : tris)
      for (int i : t)
        if (slot[static_cast<std::size_t>(i)] < 0) slot[static_cast<std::size_t>(i)] = static_cast<int>(order.size()), order.push_back(i);
    // 2. Merge faces. Groups of triangles (union-find), each with its
    // outline, Newell normal and centroid computed as hullDefect does.
    const std::size_t nt = tris.size();
    std::vector<int> parent(nt);
    for (std::size_t k = 0; k < nt; ++k) parent[k] = static_cast<int>(k);
    auto root = [&](int x) {
      while (parent[static_cast<std::size_t>(x)] != x) x = parent[static_cast<std::size_t>(x)];
      return x;
    };
    // Neighbour across each directed edge.
    std::vector<std::pair<std::pair<int, int>, int>> edgeOf;
    for (std::size_t t = 0; t < nt; ++t)
      for (int k = 0; k < 3; ++k) edgeOf.push_back({{tris[t][k], tris[t][(k + 1) % 3]}, static_cast<int>(t)});
    std::sort(edgeOf.begin(), edgeOf.end());
    auto across = [&](int a, int b) {
      const auto it = std::lower_bound(edgeOf.begin(), edgeOf.end(), std::make_pair(std::make_pair(b, a), -1));
      return it != edgeOf.end() && it->first == std::make_pair(b, a) ? it->second : -1;
    };
    struct Group {
      std::vector<int> tris, poly;
      Vec3 n, ctr;
    };
    // The outline of a set of triangles as one counter-clockwise loop; empty
    // if it is not one simple loop (a ring, or a pinched boundary).
    auto outline = [&](const std::vector<int>& ts) {
      std::vector<std::pair<int, int>> bd;
      for (int t : ts)
        for (int k = 0; k < 3; ++k) {
          const int a = tris[static_cast<std::size_t>(t)][k], b = tris[static_cast<std::size_t>(t)][(k + 1) % 3];
          const int g = across(a, b);
          if (g < 0 || std::find(ts.begin(), ts.end(), g) == ts.end()) bd.push_back({a, b});
        }
      std::vector<int> poly;
      if (bd.size() < 3) return poly;
      std::sort(bd.begin(), bd.end());
      for (std::size_t i = 0; i + 1 < bd.size(); ++i)
        if (bd[i].first == bd[i + 1].first) return poly;  // pinched
      poly.push_back(bd[0].first);
      int cur = bd[0].second;
      for (std::size_t guard = 0; guard < bd.size() && cur != poly.front(); ++guard) {
        poly.push_back(cur);
        const auto it = std::lower_bound(bd.begin(), bd.end(), std::make_pair(cur, std::numeric_limits<int>::min()));
        if (it == bd.end() || it->first != cur) return std::vector<int>{};
        cur = it->second;
      }
      if (cur != poly.front() || poly.size() != bd.size()) return std::vector<int>{};
      return poly;
    };
    auto planeOf = [&](Group& g) {
      g.n = facePlane(points, g.poly, &g.ctr);
      return !(g.n == Vec3{});
    };
    // Signed distance of point i from a group's plane.
    auto height = [&](const Group& g, int i) { return dot(g.n, (points[static_cast<std::size_t>(i)] - points[static_cast<std::size_t>(g.poly[0])]) - g.ctr); };
    auto strictlyConvex = [&](const Group& g) {
      const std::size_t m = g.poly.size();
      for (std::size_t k = 0; k < m; ++k) {
        const Vec3 d1 = points[static_cast<std::size_t>(g.poly[(k + 1) % m])] - points[static_cast<std::size_t>(g.poly[k])];
        const Vec3 d2 = points[static_cast<std::size_t>(g.poly[(k + 2) % m])] - points[static_cast<std::size_t>(g.poly[(k + 1) % m])];
        const Vec3 e1 = d1 - g.n * dot(d1, g.n), e2 = d2 - g.n * dot(d2, g.n);
        if (!(dot(cross(e1, e2), g.n) > 0)) return false;
      }
      return true;
    };
    // Deepest corner of `corners` below the plane of `plane` (≤ 0).
    auto deepest = [&](const Group& plane, const Group& corners) {
      double d = 0;
      for (int i : corners.poly) d = std::fmin(d, height(plane, i));
      return d;
    };
    // Two passes: merging pairs within half the tolerance one way round
    // (more merges; a sliver's own plane says little), then, if that result
    // fails the validation, only pairs within it both ways.
    for (int oneSided = 1; oneSided >= 0; --oneSided) {
      for (std::size_t k = 0; k < nt; ++k) parent[k] = static_cast<int>(k);
      std::vector<Group> groups(nt);
      for (std::size_t t = 0; t < nt; ++t) {
        groups[t].tris = {static_cast<int>(t)};
        groups[t].poly = {tris[t][0], tris[t][1], tris[t][2]};
        if (!planeOf(groups[t])) return false;
      }
      std::vector<std::pair<int, int>> refused;
      for (std::size_t round = 0; round < nt; ++round) {
        // Adjacent groups within half the tolerance of each other's planes,
        // most coplanar first.
        std::vector<std::pair<double, std::pair<int, int>>> pairs;
        for (std::size_t t = 0; t < nt; ++t)
          for (int k = 0; k < 3; ++k) {
            const int u = tris[t][k], w = tris[t][(k + 1) % 3];
            const int g = across(u, w);
            if (g < 0) return false;
            const int a = root(static_cast<int>(t)), b = root(g);
            if (a >= b) continue;
            const double da = deepest(groups[static_cast<std::size_t>(a)], groups[static_cast<std::size_t>(b)]);
            const double db = deepest(groups[static_cast<std::size_t>(b)], groups[static_cast<std::size_t>(a)]);
              // Either within half the tolerance of the other's plane (one way
            // round suffices: a sliver triangle's own plane is tilted by the
            // rounding of its corners, and a polygon's corners lie below it).
            if (oneSided ? da < -0.5 * tau && db < -0.5 * tau : da < -0.5 * tau || db < -0.5 * tau) continue;
            if (std::find(refused.begin(), refused.end(), std::make_pair(a, b)) != refused.end()) continue;
            pairs.push_back({-std::fmax(da, db), {a, b}});
          }
        if (pairs.empty()) break;
        std::sort(pairs.begin(), pairs.end());
        pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
        bool merged = false;
        for (const auto& [dev, ab] : pairs) {
          const int a = ab.first, b = ab.second;
          // Corners within the tolerance of the merged plane when the pair is
          // coplanar within half of it both ways (then it must merge), else
          // within half of it.
          const Group &ga = groups[static_cast<std::size_t>(a)], &gb = groups[static_cast<std::size_t>(b)];
          const double flat = deepest(ga, gb) >= -0.5 * tau && deepest(gb, ga) >= -0.5 * tau ? tau : 0.5 * tau;
          std::vector<int> members{a, b};
          Group g;
          g.tris = ga.tris;
          g.tris.insert(g.tris.end(), gb.tris.begin(), gb.tris.end());
          bool ok = false;
          // A merged face that shares three corners with another face would
          // make a triangle lie in both (two faces share at most an edge):
          // that face joins too, if the whole still passes. Each round adds a
          // group, so there are at most as many rounds as triangles.
          for (std::size_t grow = 0; grow < nt && !ok; ++grow) {
            g.poly = outline(g.tris);
            if (!(g.poly.size() >= 3 && planeOf(g) && strictlyConvex(g))) break;
            // Every corner of its triangles on the outline (a vertex inside
            // a face would be on no face's boundary).
            bool fits = true;
            for (std::size_t k = 0; k < g.tris.size() && fits; ++k)
              for (int i : tris[static_cast<std::size_t>(g.tris[k])]) fits = fits && std::find(g.poly.begin(), g.poly.end(), i) != g.poly.end();
            // Every triangle turned like the face (a sliver of nearly collinear
            // corners can face sideways), accurately and in plain doubles.
            for (std::size_t k = 0; k < g.tris.size() && fits; ++k) {
              const auto& t = tris[static_cast<std::size_t>(g.tris[k])];
              const Vec3 &p0 = points[static_cast<std::size_t>(t[0])], &p1 = points[static_cast<std::size_t>(t[1])],
                         &p2 = points[static_cast<std::size_t>(t[2])];
              fits = dot(accurateNormal(p0, p1, p2), g.n) > 0 && dot(cross(p1 - p0, p2 - p0), g.n) > 0;
            }
            for (std::size_t k = 0; k < g.poly.size() && fits; ++k) fits = std::fabs(height(g, g.poly[k])) <= flat;
            // No input point (no exact hull vertex: they bound them all)
            // above the merged plane by more than 1.5τ: a merged face
            // promises containment within 2τ of its plane (its corners
            // within τ of the triangles' planes, each of which holds every
            // point within τ).
            for (std::size_t k = 0; k < exactVertices.size() && fits; ++k) fits = height(g, exactVertices[k]) <= 1.5 * tau;
            if (!fits) break;
            int conflict = -1;
            for (std::size_t c = 0; c < nt && conflict < 0; ++c) {
              if (root(static_cast<int>(c)) != static_cast<int>(c) ||
                  std::find(members.begin(), members.end(), static_cast<int>(c)) != members.end())
                continue;
              int shared = 0;
              for (int i : groups[c].poly) shared += std::find(g.poly.begin(), g.poly.end(), i) != g.poly.end();
              if (shared > 2) conflict = static_cast<int>(c);
            }
            if (conflict < 0) {
              ok = true;
              break;
            }
            members.push_back(conflict);
            const auto& more = groups[static_cast<std::size_t>(conflict)].tris;
            g.tris.insert(g.tris.end(), more.begin(), more.end());
          }
          if (!ok) {
            refused.push_back(ab);
            continue;
          }
          for (int mm : members)
            if (mm != a) parent[static_cast<std::size_t>(mm)] = a;
          groups[static_cast<std::size_t>(a)] = std::move(g);
          refused.erase(std::remove_if(refused.begin(), refused.end(),
                                       [&](const std::pair<int, int>& r) {
                                         return std::find(members.begin(), members.end(), r.first) != members.end() ||
                                                std::find(members.begin(), members.end(), r.second) != members.end();
                                       }),
                        refused.end());
          merged = true;
          break;
        }
        if (!merged) break;
      }
      // 3. The hull.
      ConvexHull h;
      h.kind = HullKind::Polyhedron;
      h.tolerance = tau;
      for (int i : order) {
        h.inputIndex.push_back(i);
        h.vertices.push_back(points[static_cast<std::size_t>(i)]);
      }
      h.adjacency.assign(order.size(), {});
      for (const auto& t : tris) {
        const int tri[3] = {slot[static_cast<std::size_t>(t[0])], slot[static_cast<std::size_t>(t[1])], slot[static_cast<std::size_t>(t[2])]};
        h.triangles.push_back({tri[0], tri[1], tri[2]});
        for (int k = 0; k < 3; ++k) {
          auto& adj = h.adjacency[static_cast<std::size_t>(tri[k])];
          const int nxt = tri[(k + 1) % 3];
          if (std::find(adj.begin(), adj.end(), nxt) == adj.end()) adj.push_back(nxt);
          auto& back = h.adjacency[static_cast<std::size_t>(nxt)];
          if (std::find(back.begin(), back.end(), tri[k]) == back.end()) back.push_back(tri[k]);
        }
      }
      for (std::size_t t = 0; t < nt; ++t) {
        if (root(static_cast<int>(t)) != static_cast<int>(t)) continue;
        std::vector<int> poly;
        for (int i : groups[t].poly) poly.push_back(slot[static_cast<std::size_t>(i)]);
        h.faces.push_back(std::move(poly));
      }
      if (!hullDefect(points, all, h, false)) {
        *valid = true;
        *out = std::move(h);
        return true;
      }
      if (!oneSided && !haveFallback) fallback = std::move(h), haveFallback = true;
    }
  }
  if (!haveFallback) return false;
  *out = std::move(fallback);
  return true;
}

// Whether a vertex of a polyhedral hull lies within an eighth of the
// tolerance of a segment from one of its neighbours to another input
// point: then it is not extreme (a needle's vertex near the line to its far
// end, beside an input point that Quickhull dropped inside). An eighth: a
// vertex farther off is extreme at that scale, which is all the hull
// promises (its corner pass drops vertices within the tolerance of their
// neighbours, not of every input point). O(E·n).
COLLIDOSCOPE_SMALL bool vertexOnSegment(const std::vector<Vec3>& pts, const ConvexHull& h) {
  // A certificate that skips a vertex, as in neighboursClearlyBeyond: when
  // its neighbours and every point farther than τ from it lie beyond the
  // plane through it orthogonal to the direction to the vertex centroid by
  // more than τ/8 plus a margin far above the rounding of segmentDistance,
  // every segment tested below passes farther than τ/8 from it.
  Vec3 centroid{0, 0, 0};
  double reach = 0;
  for (const Vec3& p : h.vertices) centroid += p;
  centroid = centroid * (1.0 / static_cast<double>(h.vertices.size()));
  for (const Vec3& p : pts) reach = std::fmax(reach, maxAbs(p));
  const double clear = h.tolerance / 8 + 1e-6 * reach;
  for (std::size_t v = 0; v < h.vertices.size(); ++v) {
    const Vec3& pv = h.vertices[v];
    const Vec3 m = normalizedOr(centroid - pv, Vec3{});
    bool beyond = !(m == Vec3{});
    for (int a : h.adjacency[v]) beyond = beyond && dot(m, h.vertices[static_cast<std::size_t>(a)] - pv) > clear;
    for (std::size_t b = 0; b < pts.size() && beyond; ++b)
      beyond = !(length(pts[b] - pv) > h.tolerance) || dot(m, pts[b] - pv) > clear;
    if (beyond) continue;
    for (int a : h.adjacency[v])
      for (std::size_t b = 0; b < pts.size(); ++b) {
        const Vec3& pb = pts[b];
        // b beyond v (not a near-duplicate of it, which only one of them
        // can stand for: the corner pass's business).
        if (pb == h.vertices[static_cast<std::size_t>(a)] || !(length(pb - h.vertices[v]) > h.tolerance)) continue;
        if (Quickhull::segmentDistance(h.vertices[v], h.vertices[static_cast<std::size_t>(a)], pb) <= h.tolerance / 8) return true;
      }
  }
  return false;
}

// Whether an input point lies above a merged face's plane (facePlane) by
// more than `times` the tolerance. Not a triangle's: a sliver triangle of a merged
// face (three nearly collinear corners of a polygon whose corners are
// rounded) spans a plane tilted by the rounding over its height, which
// interior points near the face can be above. O(n·Σ face sizes).
COLLIDOSCOPE_SMALL bool pointAboveFace(const std::vector<Vec3>& pts, const ConvexHull& h, double times) {
  for (const auto& poly : h.faces) {
    if (poly.size() < 3) return true;
    Vec3 mean;
    const Vec3 n = facePlane(h.vertices, poly, &mean);
    const Vec3& first = h.vertices[static_cast<std::size_t>(poly[0])];
    for (const Vec3& p : pts)
      if (dot(n, (p - first) - mean) > times * h.tolerance) return true;
  }
  return false;
}

}  // namespace detail

}  // namespace collidoscope
