// collidoscope — 3D convex hull by quickhull, with typed results for
// degenerate inputs and a trace of every step for the page.
//
// References: C. B. Barber, D. P. Dobkin, H. Huhdanpaa, "The Quickhull
// algorithm for convex hulls", ACM TOMS 1996; the incremental construction
// of ../shared/seeds/000 ch. 4 (visible faces, horizon, new faces).
//
//   1. Extremes: the two most distant of the six axis-extreme points, the
//      point farthest from their line, the point farthest from that plane.
//      Each step that finds no distance above the tolerance ends the build
//      with a lower-dimensional hull: Point, Segment or (2D hull, Andrew's
//      monotone chain in the plane) Polygon.
//   2. A tetrahedron; every other point goes to the conflict list of the
//      face it lies farthest above (if any: otherwise it is inside).
//   3. While a face has conflicts: its farthest point is the eye. The faces
//      the eye sees (above their plane by more than the tolerance) are found
//      by a search from that face over shared edges; the boundary of that
//      region is the horizon. The visible faces are replaced by a cone of
//      new faces from the eye to the horizon edges, and their conflict
//      points move to the new face they are farthest above, or are dropped
//      (inside).
//      Points above a face by at most the tolerance are kept on the face's
//      near list and assigned again when the face is replaced.
//   4. Repair: an edge that folds inward by more than the tolerance (a new
//      face through a horizon edge nearly coplanar with its neighbour) is
//      flipped to the quadrilateral's other diagonal.
//   5. Output: the extreme vertices, outward counter-clockwise triangles,
//      coplanar triangles merged into convex polygons, and the vertex
//      adjacency (for hill-climbing support). Vertices that end up on no
//      face corner, or within the tolerance of a segment or triangle of
//      their neighbours, are dropped by building again from the corners.
//   6. Validation (nearly degenerate clouds, issue 8): the result is
//      checked against its promises (hullDefect: points outside by more
//      than the tolerance, by plane or by distance to the surface; convex,
//      closed, strictly convex merged faces, no coplanar neighbours, no
//      vertices within the tolerance; small clouds also against every
//      input point and for vertices next to a segment to another point).
//      If it breaks one, it is built again exactly (buildExactHull: exact
//      orientation tests, so the surface is the exact hull's, then vertex
//      drops and face merges at the tolerance, each checked), else in other
//      modes (buildValidHull). Ordinary clouds pass and are built once, as
//      before.
// Flat clouds (step 1) are chained with an exact turn test and then
// simplified: a corner goes when it and the points dropped beside it lie
// within the tolerance of its neighbours' segment.
//
// Tolerance. Points within `tolerance` of a face plane count as on it:
//   tolerance = relativeTolerance · (extent sum) + 32·u·(largest |coordinate|),
// where the extent sum is Σ over axes of the half-extent of the bounding
// box. The first term makes near-coplanar points (integer grids, meshes)
// coplanar; the second covers the rounding of plane distances, which is
// relative to the raw coordinates (a cloud of size 1 at 1e6 is resolved to
// ~1e-9, not to 1e-6). Work is done in coordinates relative to the
// bounding-box centre, which keeps the plane arithmetic small.
//
// Construction allocates (it is preprocessing, not a query); every loop is
// bounded (each iteration adds a point or stops).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "collidoscope/math.h"
#include "collidoscope/trace.h"

namespace collidoscope {

enum class HullKind { Point, Segment, Polygon, Polyhedron };

const char* hullKindName(HullKind k);

struct HullSettings {
  // Near-coplanar points within this fraction of the cloud's extent of a
  // face count as on it. 1e-12 merges what rounding of mesh data produces
  // while keeping genuinely extreme points of any sane cloud.
  double relativeTolerance = 1e-12;
};

struct ConvexHull {
  HullKind kind = HullKind::Point;
  std::vector<Vec3> vertices;                // extreme points (copies of input points)
  std::vector<int> inputIndex;               // vertices[i] == input[inputIndex[i]]
  std::vector<std::array<int, 3>> triangles; // outward CCW (Polygon: fan, CCW around normal)
  std::vector<std::vector<int>> faces;       // merged coplanar triangles: convex polygons, CCW
  std::vector<std::vector<int>> adjacency;   // per vertex: vertices sharing a hull edge
  Vec3 normal;                               // Polygon: unit normal; else zero
  double tolerance = 0;                      // absolute plane tolerance used
};

struct HullError {
  std::string field;
  std::string message;
};

// Largest input that may be traced: a trace snapshots the hull and the
// conflict lists per step, which is quadratic in the point count.
constexpr std::size_t kHullMaxTracedPoints = 5000;

// ---- trace -----------------------------------------------------------------

enum class HullEvent { Extremes, Tetrahedron, Eye, Visible, Horizon, Cone, Done, Degenerate };

struct HullTraceFace {
  int id = 0;
  int v[3] = {0, 0, 0};       // input indices
  std::vector<int> conflicts;  // input indices
};

struct HullFrame {
  HullEvent event = HullEvent::Extremes;
  int line = 0;
  int iteration = 0;
  std::vector<HullTraceFace> faces;
  int eye = -1;
  std::vector<int> visible;  // face ids
  std::vector<std::pair<int, int>> horizon;
  std::vector<int> added;    // face ids
  std::vector<int> extremes; // input indices (Extremes / Degenerate frames)
  double eyeDistance = 0;
  HullKind kind = HullKind::Polyhedron;  // Done / Degenerate
};

struct HullRecorder {
  static constexpr bool enabled = true;
  std::vector<HullFrame> frames;
  void record(HullFrame&& f) { frames.push_back(std::move(f)); }
};

namespace hull_lines {
constexpr int kExtremes = 1, kDegenerate = 2, kTetra = 3, kAssign = 4, kLoop = 5, kEye = 6, kVisible = 7,
              kHorizon = 8, kCone = 9, kReassign = 10, kDone = 11;
}
const char* const* hullPseudocode();

// ---- implementation ----------------------------------------------------------

namespace detail {

// Accurate plane normals. A sliver triangle's normal, computed as a plain
// double cross product, loses everything to rounding: the edge differences
// and the products cancel. Here the edges are exact (TwoSum) and the cross
// product is evaluated in double-double (TwoProduct via std::fma, which is
// correctly rounded natively and in wasm alike, so the bits agree), then
// rounded once: the normal's direction is accurate to a few ulps however
// thin the triangle.
struct DoubleDouble {
  double hi, lo;
};
inline DoubleDouble ddTwoSum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
inline DoubleDouble ddFast(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}
inline DoubleDouble ddMul(DoubleDouble a, DoubleDouble b) {
  const double p = a.hi * b.hi;
  const double e = std::fma(a.hi, b.hi, -p) + (a.hi * b.lo + a.lo * b.hi);
  return ddFast(p, e);
}
inline DoubleDouble ddSub(DoubleDouble a, DoubleDouble b) {
  const DoubleDouble s = ddTwoSum(a.hi, -b.hi);
  return ddFast(s.hi, s.lo + (a.lo - b.lo));
}
inline Vec3 accurateNormal(const Vec3& a, const Vec3& b, const Vec3& c) {
  const DoubleDouble e1[3] = {ddTwoSum(b.x, -a.x), ddTwoSum(b.y, -a.y), ddTwoSum(b.z, -a.z)};
  const DoubleDouble e2[3] = {ddTwoSum(c.x, -a.x), ddTwoSum(c.y, -a.y), ddTwoSum(c.z, -a.z)};
  const DoubleDouble x = ddSub(ddMul(e1[1], e2[2]), ddMul(e1[2], e2[1]));
  const DoubleDouble y = ddSub(ddMul(e1[2], e2[0]), ddMul(e1[0], e2[2]));
  const DoubleDouble z = ddSub(ddMul(e1[0], e2[1]), ddMul(e1[1], e2[0]));
  return Vec3{x.hi + x.lo, y.hi + y.lo, z.hi + z.lo};
}

struct QhFace {
  int v[3];
  int nb[3];  // face across edge (v[k], v[k+1])
  Vec3 normal;
  double offset = 0;  // normal·p for points p on the plane
  bool alive = true;
  int id = 0;
  std::vector<int> conflicts;
  std::vector<int> near;  // points above the plane by at most the tolerance
  int farthest = -1;
  double farthestDistance = 0;
  int visitMark = -1;
};

class Quickhull {
 public:
  // Build variants (buildValidHull): the plain build is mode 0.
  static constexpr int kTightVisibility = 1;  // neighbours seen above the input's rounding (2u·max|x|)
  static constexpr int kPutBack = 2;          // forceOutside after the conflicts run out
  static constexpr int kNoFlips = 4;          // leave reflex edges to the merge (no flipReflexEdges)
  static constexpr int kFaceCornersOnly = 8;  // buildOnce: no neighbour-segment/triangle corner tests

  Quickhull(const std::vector<Vec3>& input, double relTol, int mode = 0) : input_(input), mode_(mode) {
    Vec3 lo = input[0], hi = input[0];
    double big = 0;
    for (const Vec3& p : input) {
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::fmin(lo[a], p[a]);
        hi[a] = std::fmax(hi[a], p[a]);
      }
      big = std::fmax(big, maxAbs(p));
    }
    center_ = (lo + hi) * 0.5;
    startStamp_.assign(input.size(), 0);
    startEdge_.assign(input.size(), -1);
    pts_.reserve(input.size());
    for (const Vec3& p : input) pts_.push_back(p - center_);
    const Vec3 half = (hi - lo) * 0.5;
    roundingTolerance_ = 32 * (std::numeric_limits<double>::epsilon() / 2) * big;
    tolerance_ = relTol * (half.x + half.y + half.z) + roundingTolerance_;
    // The rounding of a plane distance computed here: the coordinates are
    // taken relative to the centre (exact for a cloud far from the origin:
    // Sterbenz), the normal is accurate to a few ulps, so the error is a
    // few ulps of the centred coordinates, not of the raw ones.
    double bigCentred = 0;
    for (const Vec3& p : pts_) bigCentred = std::fmax(bigCentred, maxAbs(p));
    arithmeticRounding_ = std::fmin(roundingTolerance_, 32 * (std::numeric_limits<double>::epsilon() / 2) * bigCentred);
    inputRounding_ = std::fmax(arithmeticRounding_, roundingTolerance_ / 16);
  }

  double tolerance() const { return tolerance_; }

  // Input indices of the points left on a near list (above a final face by
  // at most the tolerance): the only non-vertices that can lie outside the
  // final hull (every other point was dropped inside a hull that only
  // grew).
  std::vector<int> nearPoints() const {
    std::vector<int> out;
    for (const QhFace& f : faces_)
      if (f.alive) out.insert(out.end(), f.near.begin(), f.near.end());
    return out;
  }

  template <class Trace>
  void run(ConvexHull* out, Trace& trace) {
    using namespace hull_lines;
    out->tolerance = tolerance_;
    const int n = static_cast<int>(pts_.size());
    // 1. Extremes.
    int ext[6];
    for (int a = 0; a < 3; ++a) {
      ext[2 * a] = ext[2 * a + 1] = 0;
      for (int i = 1; i < n; ++i) {
        if (pts_[i][a] < pts_[ext[2 * a]][a]) ext[2 * a] = i;
        if (pts_[i][a] > pts_[ext[2 * a + 1]][a]) ext[2 * a + 1] = i;
      }
    }
    int i0 = ext[0], i1 = ext[1];
    double best = -1;
    for (int s = 0; s < 6; ++s)
      for (int t = s + 1; t < 6; ++t) {
        const double d = lengthSquared(pts_[ext[s]] - pts_[ext[t]]);
        if (d > best) {
          best = d;
          i0 = ext[s];
          i1 = ext[t];
        }
      }
    if constexpr (Trace::enabled) {
      HullFrame f;
      f.event = HullEvent::Extremes;
      f.line = kExtremes;
      f.extremes.assign(ext, ext + 6);
      trace.record(std::move(f));
    }
    if (!(std::sqrt(best) > tolerance_)) return finishPoint(out, i0, trace);
    const Vec3 e = pts_[i1] - pts_[i0];
    int i2 = -1;
    best = tolerance_;
    for (int i = 0; i < n; ++i) {
      const double d = length(cross(e, pts_[i] - pts_[i0])) / length(e);
      if (d > best) {
        best = d;
        i2 = i;
      }
    }
    if (i2 < 0) return finishSegment(out, i0, i1, trace);
    const Vec3 nrm = normalizedOr(accurateNormal(pts_[i0], pts_[i1], pts_[i2]), Vec3{0, 0, 1});
    int i3 = -1;
    best = tolerance_;
    for (int i = 0; i < n; ++i) {
      // The first three define the plane: with a nearly collinear triple its
      // computed normal is poor and they may seem off their own plane.
      if (i == i0 || i == i1 || i == i2 || pts_[i] == pts_[i0] || pts_[i] == pts_[i1] || pts_[i] == pts_[i2]) continue;
      const double d = std::fabs(dot(nrm, pts_[i] - pts_[i0]));
      if (d > best) {
        best = d;
        i3 = i;
      }
    }
    if (i3 < 0) return finishPolygon(out, nrm, i0, e, trace);

    // 2. Tetrahedron, oriented so that i3 is below face (i0, i1, i2).
    if (dot(nrm, pts_[i3] - pts_[i0]) > 0) std::swap(i1, i2);
    const int t[4] = {i0, i1, i2, i3};
    const int fv[4][3] = {{t[0], t[1], t[2]}, {t[0], t[3], t[1]}, {t[1], t[3], t[2]}, {t[2], t[3], t[0]}};
    for (const auto& f : fv) addFace(f[0], f[1], f[2]);
    linkAll();
    std::vector<int> all;
    all.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
      if (i != i0 && i != i1 && i != i2 && i != i3) all.push_back(i);
    const std::vector<int> first = {0, 1, 2, 3};
    assign(all, first);
    if constexpr (Trace::enabled) record(trace, HullEvent::Tetrahedron, kTetra, 0);

    // 3. Expand. Each iteration adds a point as a vertex or drops points,
    // so it runs at most n times (per round of the check below).
    int iteration = 0;
    auto expand = [&]() {
      for (int guard = 0; guard <= n; ++guard) {
        const int fi = nextFaceWithConflicts();
        if (fi < 0) break;
        ++iteration;
        const int eye = faces_[fi].farthest;
        if constexpr (Trace::enabled) {
          HullFrame f = snapshot(HullEvent::Eye, kEye, iteration);
          f.eye = eye;
          f.eyeDistance = faces_[fi].farthestDistance;
          trace.record(std::move(f));
        }
        if (!addPoint(fi, eye, iteration, trace)) {
          // The horizon was not a simple loop (rounding): the eye is within a
          // hair of the hull. Drop it rather than corrupt the surface.
          removeConflict(fi, eye);
        }
      }
    };
    expand();
    // 3b. Check every point against the final faces (O(n·F)) and put back
    // any that is outside by more than the tolerance (see forceOutside);
    // on ordinary clouds none is, and the build is unchanged.
    if (mode_ & kPutBack)
      for (int round = 0; round < kRepairRounds && forceOutside(); ++round) expand();
    finishPolyhedron(out, trace, iteration);
  }

 private:
  double distance(const QhFace& f, const Vec3& p) const { return dot(f.normal, p) - f.offset; }

 public:
  static double segmentDistance(const Vec3& p, const Vec3& a, const Vec3& b) {
    const Vec3 e = b - a;
    const double ee = dot(e, e);
    const double t = ee > 0 ? std::fmin(1.0, std::fmax(0.0, dot(p - a, e) / ee)) : 0.0;
    return length(p - (a + e * t));
  }

 private:

  int addFace(int a, int b, int c) {
    QhFace f;
    f.v[0] = a;
    f.v[1] = b;
    f.v[2] = c;
    f.nb[0] = f.nb[1] = f.nb[2] = -1;
    const Vec3& pa = pts_[a];
    const Vec3& pb = pts_[b];
    const Vec3& pc = pts_[c];
    f.normal = normalizedOr(accurateNormal(pa, pb, pc), Vec3{0, 0, 1});
    f.offset = (dot(f.normal, pa) + dot(f.normal, pb) + dot(f.normal, pc)) / 3;
    f.id = nextId_++;
    faces_.push_back(std::move(f));
    return static_cast<int>(faces_.size()) - 1;
  }

  // Links all alive faces by shared edges (used once, for the tetrahedron).
  void linkAll() {
    for (std::size_t i = 0; i < faces_.size(); ++i)
      for (int k = 0; k < 3; ++k)
        for (std::size_t j = 0; j < faces_.size(); ++j)
          for (int m = 0; m < 3; ++m)
            if (faces_[j].v[m] == faces_[i].v[(k + 1) % 3] && faces_[j].v[(m + 1) % 3] == faces_[i].v[k])
              faces_[i].nb[k] = static_cast<int>(j);
  }

  // Each point goes to the candidate face it is farthest above: as a
  // conflict if that is more than the tolerance, else (above by at most the
  // tolerance) to the face's list of near points, else it is inside and
  // dropped. Near points count as on the hull, but they are outside it by a
  // hair: when their face is replaced, the new faces near the horizon can
  // pass below them by more than the tolerance (a new face through a
  // horizon edge that is nearly coplanar with the old one tilts), so they
  // are assigned again with the face's conflicts. Points inside stay inside:
  // each step only grows the hull.
  void assign(const std::vector<int>& points, const std::vector<int>& candidates) {
    for (int p : points) {
      int bestFace = -1;
      double bestD = 0;
      for (int c : candidates) {
        const double d = distance(faces_[c], pts_[p]);
        if (d > bestD) {
          bestD = d;
          bestFace = c;
        }
      }
      if (bestFace < 0) continue;  // inside (or on) the hull
      QhFace& f = faces_[bestFace];
      if (bestD <= tolerance_) {
        f.near.push_back(p);
        continue;
      }
      if (f.conflicts.empty()) queue_.push_back(bestFace);
      f.conflicts.push_back(p);
      if (f.farthest < 0 || bestD > f.farthestDistance) {
        f.farthest = p;
        f.farthestDistance = bestD;
      }
    }
  }

  // Faces that received conflict points wait in a FIFO queue; a face
  // retired meanwhile (or emptied) is skipped when it comes up.
  int nextFaceWithConflicts() {
    while (head_ < queue_.size()) {
      const int f = queue_[head_++];
      if (faces_[static_cast<std::size_t>(f)].alive && !faces_[static_cast<std::size_t>(f)].conflicts.empty()) {
        --head_;  // keep it queued until it is processed or emptied
        return f;
      }
    }
    return -1;
  }

  // Quickhull's own bookkeeping misses two kinds of outside points on
  // nearly degenerate clouds:
  //  * a near point (within the tolerance above its face) whose face stays
  //    while a cone added beside it passes below it by more than the
  //    tolerance (near points of faces that are not replaced are never
  //    assigned again);
  //  * on a cloud a few tolerances thick, a point outside the hull by far
  //    more than the tolerance in the plane of the cloud, yet within the
  //    tolerance of every (nearly coplanar) face plane: above by a hair,
  //    so it counts as on the hull.
  // Both are found here: a point above some face plane by more than the
  // tolerance, or above one at all and farther than the tolerance from
  // every face (Euclidean distance to the surface, which for a point
  // outside is its distance to the hull). Each becomes a conflict of the
  // face it is farthest above, as a forced eye: its visible region is every
  // face it is above at all (a point beside a thin wedge sees both sides).
  // Returns whether any point was put back.
  static constexpr int kRepairRounds = 8;

  bool forceOutside() {
    std::vector<int> alive;
    std::vector<char> vertex(pts_.size(), 0);
    for (std::size_t i = 0; i < faces_.size(); ++i) {
      if (!faces_[i].alive) continue;
      alive.push_back(static_cast<int>(i));
      for (int k = 0; k < 3; ++k) vertex[static_cast<std::size_t>(faces_[i].v[k])] = 1;
    }
    bool any = false;
    for (std::size_t p = 0; p < pts_.size(); ++p) {
      if (vertex[p]) continue;
      int bestFace = -1;
      double bestD = 0;
      for (int fi : alive) {
        const double d = distance(faces_[static_cast<std::size_t>(fi)], pts_[p]);
        if (d > bestD) bestD = d, bestFace = fi;
      }
      if (bestFace < 0) continue;
      if (!(bestD > tolerance_)) {
        double nearest = std::numeric_limits<double>::infinity();
        for (int fi : alive) {
          const QhFace& f = faces_[static_cast<std::size_t>(fi)];
          if (!(distance(f, pts_[p]) > -tolerance_)) continue;  // see hullDefect
          nearest = std::fmin(nearest, triangleDistance(pts_[p], pts_[f.v[0]], pts_[f.v[1]], pts_[f.v[2]], f.normal));
          if (!(nearest > tolerance_)) break;
        }
        if (!(nearest > tolerance_)) continue;
      }
      QhFace& f = faces_[static_cast<std::size_t>(bestFace)];
      if (std::find(f.conflicts.begin(), f.conflicts.end(), static_cast<int>(p)) != f.conflicts.end()) continue;
      if (f.conflicts.empty()) queue_.push_back(bestFace);
      f.conflicts.push_back(static_cast<int>(p));
      if (f.farthest < 0 || bestD > f.farthestDistance) f.farthest = static_cast<int>(p), f.farthestDistance = bestD;
      if (!(bestD > tolerance_)) forced_.push_back(static_cast<int>(p));
      any = true;
    }
    return any;
  }
  bool isForced(int p) const { return std::find(forced_.begin(), forced_.end(), p) != forced_.end(); }


 public:
  // Distance from p to the triangle (a, b, c) with outward normal n (unit,
  // accurate): the plane distance when p projects inside (tested against
  // the edge planes n × edge, which stay accurate on slivers, unlike
  // barycentric products), else the distance to the nearest edge.
  static double triangleDistance(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& n) {
    const bool inside = dot(cross(n, b - a), p - a) >= 0 && dot(cross(n, c - b), p - b) >= 0 && dot(cross(n, a - c), p - c) >= 0;
    if (inside) return std::fabs(dot(n, p - a));
    return std::fmin(segmentDistance(p, a, b), std::fmin(segmentDistance(p, b, c), segmentDistance(p, c, a)));
  }

 private:
  void removeConflict(int fi, int p) {
    QhFace& f = faces_[fi];
    std::vector<int> rest;
    for (int q : f.conflicts)
      if (q != p) rest.push_back(q);
    f.conflicts.swap(rest);
    f.farthest = -1;
    f.farthestDistance = 0;
    for (int q : f.conflicts) {
      const double d = distance(f, pts_[q]);
      if (f.farthest < 0 || d > f.farthestDistance) {
        f.farthest = q;
        f.farthestDistance = d;
      }
    }
  }

  template <class Trace>
  bool addPoint(int fi, int eye, int iteration, Trace& trace) {
    using namespace hull_lines;
    const Vec3& pe = pts_[eye];
    // Visible region: search from fi over shared edges.
    const bool forcedEye = !forced_.empty() && isForced(eye);
    ++mark_;
    std::vector<int> visible{fi};
    faces_[fi].visitMark = mark_;
    for (std::size_t k = 0; k < visible.size(); ++k) {
      const QhFace& f = faces_[visible[k]];
      for (int e = 0; e < 3; ++e) {
        const int g = f.nb[e];
        if (g < 0 || faces_[g].visitMark == mark_) continue;
        // A neighbour counts as seen when the eye is above its plane by more
        // than rounding (not the full tolerance): keeping a neighbour the eye
        // is slightly above would leave a reflex edge beside the new cone
        // (thin slabs), while exactly coplanar data stays below this bound.
        if (distance(faces_[g], pe) > (forcedEye ? 0.0 : (mode_ & kTightVisibility) ? inputRounding_ : roundingTolerance_)) {
          faces_[g].visitMark = mark_;
          visible.push_back(g);
        }
      }
    }
    // Horizon: edges (a, b) of visible faces whose neighbour is not visible,
    // chained into one loop.
    struct Edge {
      int a, b, outside;
    };
    std::vector<Edge> edges;
    for (int v : visible) {
      const QhFace& f = faces_[v];
      for (int e = 0; e < 3; ++e)
        if (faces_[f.nb[e]].visitMark != mark_) edges.push_back({f.v[e], f.v[(e + 1) % 3], f.nb[e]});
    }
    // Chain by start vertex; a vertex starting two edges (pinch) or a loop
    // closing before all edges are used (two loops) is not a simple loop.
    ++stamp_;
    for (std::size_t k = 0; k < edges.size(); ++k) {
      const std::size_t a = static_cast<std::size_t>(edges[k].a);
      if (startStamp_[a] == stamp_) return false;
      startStamp_[a] = stamp_;
      startEdge_[a] = static_cast<int>(k);
    }
    std::vector<Edge> loop;
    loop.reserve(edges.size());
    loop.push_back(edges[0]);
    while (loop.size() < edges.size()) {
      const std::size_t b = static_cast<std::size_t>(loop.back().b);
      if (startStamp_[b] != stamp_ || loop.back().b == loop.front().a) return false;
      loop.push_back(edges[static_cast<std::size_t>(startEdge_[b])]);
    }
    if (loop.back().b != loop.front().a) return false;
    if constexpr (Trace::enabled) {
      HullFrame f = snapshot(HullEvent::Visible, kVisible, iteration);
      f.eye = eye;
      for (int v : visible) f.visible.push_back(faces_[v].id);
      trace.record(std::move(f));
      HullFrame h = snapshot(HullEvent::Horizon, kHorizon, iteration);
      h.eye = eye;
      for (int v : visible) h.visible.push_back(faces_[v].id);
      for (const Edge& e : loop) h.horizon.emplace_back(e.a, e.b);
      trace.record(std::move(h));
    }
    // Collect the orphaned points, retire the visible faces.
    std::vector<int> orphans;
    for (int v : visible) {
      QhFace& f = faces_[v];
      for (int q : f.conflicts)
        if (q != eye) orphans.push_back(q);
      orphans.insert(orphans.end(), f.near.begin(), f.near.end());
      f.conflicts.clear();
      f.conflicts.shrink_to_fit();
      f.near.clear();
      f.near.shrink_to_fit();
      f.alive = false;
    }
    // The cone: one face per horizon edge, linked in order.
    std::vector<int> cone;
    cone.reserve(loop.size());
    for (const Edge& e : loop) {
      const int nf = addFace(e.a, e.b, eye);
      faces_[nf].nb[0] = e.outside;
      QhFace& out = faces_[e.outside];
      for (int k = 0; k < 3; ++k)
        if (out.v[k] == e.b && out.v[(k + 1) % 3] == e.a) out.nb[k] = nf;
      cone.push_back(nf);
    }
    const std::size_t m = cone.size();
    for (std::size_t k = 0; k < m; ++k) {
      faces_[cone[k]].nb[1] = cone[(k + 1) % m];      // edge (b, eye) borders the next face
      faces_[cone[k]].nb[2] = cone[(k + m - 1) % m];  // edge (eye, a) borders the previous one
    }
    assign(orphans, cone);
    if constexpr (Trace::enabled) {
      HullFrame f = snapshot(HullEvent::Cone, kCone, iteration);
      f.eye = eye;
      for (int c : cone) f.added.push_back(faces_[c].id);
      trace.record(std::move(f));
    }
    return true;
  }

  HullFrame snapshot(HullEvent event, int line, int iteration) const {
    HullFrame f;
    f.event = event;
    f.line = line;
    f.iteration = iteration;
    for (const QhFace& q : faces_) {
      if (!q.alive) continue;
      HullTraceFace t;
      t.id = q.id;
      for (int k = 0; k < 3; ++k) t.v[k] = q.v[k];
      t.conflicts = q.conflicts;
      f.faces.push_back(std::move(t));
    }
    return f;
  }
  template <class Trace>
  void record(Trace& trace, HullEvent event, int line, int iteration) const {
    trace.record(snapshot(event, line, iteration));
  }

  template <class Trace>
  void recordDegenerate(Trace& trace, HullKind kind, std::vector<int> extremes) const {
    if constexpr (Trace::enabled) {
      HullFrame f;
      f.event = HullEvent::Degenerate;
      f.line = hull_lines::kDegenerate;
      f.kind = kind;
      f.extremes = std::move(extremes);
      trace.record(std::move(f));
    }
  }

  void setVertices(ConvexHull* out, const std::vector<int>& idx) const {
    for (int i : idx) {
      out->inputIndex.push_back(i);
      out->vertices.push_back(input_[static_cast<std::size_t>(i)]);
    }
    out->adjacency.assign(idx.size(), {});
  }

  template <class Trace>
  void finishPoint(ConvexHull* out, int i0, Trace& trace) {
    out->kind = HullKind::Point;
    setVertices(out, {i0});
    recordDegenerate(trace, out->kind, {i0});
  }

  template <class Trace>
  void finishSegment(ConvexHull* out, int i0, int i1, Trace& trace) {
    out->kind = HullKind::Segment;
    setVertices(out, {i0, i1});
    out->adjacency[0] = {1};
    out->adjacency[1] = {0};
    recordDegenerate(trace, out->kind, {i0, i1});
  }

  // Flat input: Andrew's monotone chain in the plane (u, v) ⟂ nrm, keeping
  // only turns that leave a point more than the tolerance off the chord.
  template <class Trace>
  void finishPolygon(ConvexHull* out, const Vec3& nrm, int i0, const Vec3& along, Trace& trace) {
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
    q.reserve(pts_.size());
    for (std::size_t i = 0; i < pts_.size(); ++i)
      q.push_back({dot(pts_[i] - pts_[i0], u), dot(pts_[i] - pts_[i0], v), static_cast<int>(i)});
    std::sort(q.begin(), q.end(), [](const P2& a, const P2& b) {
      return a.x < b.x || (a.x == b.x && (a.y < b.y || (a.y == b.y && a.i < b.i)));
    });
    // The flatness actually met: every input point lies within `deviation`
    // of the polygon's plane. That exceeds the build tolerance when the plane
    // is ill-conditioned (a nearly collinear triple: its computed normal is
    // uncertain by ~u·|e1||e2|/|e1 × e2|); the polygon reports the larger.
    double deviation = 0;
    for (const Vec3& p : pts_) deviation = std::fmax(deviation, std::fabs(dot(nrm, p - pts_[i0])));
    const double tol = std::fmax(tolerance_, deviation);
    // 1. The convex chain of the projected points with an accurate turn
    // test (the sign of the cross product in double-double, so only exactly
    // collinear or duplicate points are dropped). A chord-relative test with
    // a tolerance drops the wrong points: with a short chord (a, c) of a
    // sliver, a point b far along the chord's line passes as "on" it.
    auto orient = [](const P2& a, const P2& b, const P2& c) {
      const DoubleDouble bx = ddTwoSum(b.x, -a.x), by = ddTwoSum(b.y, -a.y);
      const DoubleDouble cx = ddTwoSum(c.x, -a.x), cy = ddTwoSum(c.y, -a.y);
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
    auto segDist = [](const P2& p, const P2& a, const P2& c) {
      const double ex = c.x - a.x, ey = c.y - a.y, ee = ex * ex + ey * ey;
      const double t = ee > 0 ? std::fmin(1.0, std::fmax(0.0, ((p.x - a.x) * ex + (p.y - a.y) * ey) / ee)) : 0.0;
      return std::hypot(p.x - a.x - ex * t, p.y - a.y - ey * t);
    };
    std::vector<std::vector<P2>> span(h.size());  // dropped points after each corner
    // The corner that leaves the smallest gap goes first, so that among a
    // run of nearly collinear points the ones kept are the most extreme.
    while (h.size() > 2) {
      const std::size_t m = h.size();
      std::size_t best = m;
      double bestGap = tol;
      for (std::size_t k = 0; k < m; ++k) {
        const std::size_t ka = (k + m - 1) % m, kc = (k + 1) % m;
        const P2 &a = h[ka], &c = h[kc];
        double gap = segDist(h[k], a, c);
        for (const P2& p : span[ka]) gap = std::fmax(gap, segDist(p, a, c));
        for (const P2& p : span[k]) gap = std::fmax(gap, segDist(p, a, c));
        if (gap <= bestGap && (best == m || gap < bestGap)) best = k, bestGap = gap;
      }
      if (best == m) break;
      const std::size_t ka = (best + m - 1) % m;
      span[ka].push_back(h[best]);
      span[ka].insert(span[ka].end(), span[best].begin(), span[best].end());
      h.erase(h.begin() + static_cast<std::ptrdiff_t>(best));
      span.erase(span.begin() + static_cast<std::ptrdiff_t>(best));
    }
    if (h.size() < 3) {
      // Everything is within the tolerance of one chord after all (the
      // third point was off the first line by little more than it): a
      // segment, reporting the distance it actually meets.
      const int a = h.front().i, b = h.back().i;
      out->kind = HullKind::Segment;
      out->normal = Vec3{};
      double off = 0;
      for (const Vec3& p : pts_) off = std::fmax(off, segmentDistance(p, pts_[a], pts_[b]));
      out->tolerance = std::fmax(tolerance_, off);
      setVertices(out, {a, b});
      out->adjacency[0] = {1};
      out->adjacency[1] = {0};
      recordDegenerate(trace, out->kind, {a, b});
      return;
    }
    std::vector<int> idx;
    for (const P2& p : h) idx.push_back(p.i);
    setVertices(out, idx);
    const int m = static_cast<int>(idx.size());
    std::vector<int> poly;
    for (int k = 0; k < m; ++k) {
      poly.push_back(k);
      out->adjacency[static_cast<std::size_t>(k)] = {(k + m - 1) % m, (k + 1) % m};
      if (k >= 2) out->triangles.push_back({0, k - 1, k});
    }
    out->faces.push_back(poly);
    out->tolerance = tol;
    recordDegenerate(trace, out->kind, idx);
  }

  template <class Trace>
  void finishPolyhedron(ConvexHull* out, Trace& trace, int iteration) {
    out->kind = HullKind::Polyhedron;
    if (!(mode_ & kNoFlips)) flipReflexEdges();
    std::vector<int> remap(pts_.size(), -1);
    std::vector<int> idx;
    std::vector<int> alive;
    for (std::size_t i = 0; i < faces_.size(); ++i) {
      if (!faces_[i].alive) continue;
      alive.push_back(static_cast<int>(i));
      for (int k = 0; k < 3; ++k) {
        const int p = faces_[i].v[k];
        if (remap[static_cast<std::size_t>(p)] < 0) {
          remap[static_cast<std::size_t>(p)] = static_cast<int>(idx.size());
          idx.push_back(p);
        }
      }
    }
    setVertices(out, idx);
    for (int fi : alive) {
      const QhFace& f = faces_[fi];
      const int a = remap[f.v[0]], b = remap[f.v[1]], c = remap[f.v[2]];
      out->triangles.push_back({a, b, c});
      const int tri[3] = {a, b, c};
      for (int k = 0; k < 3; ++k) {
        auto& adj = out->adjacency[static_cast<std::size_t>(tri[k])];
        const int nxt = tri[(k + 1) % 3];
        if (std::find(adj.begin(), adj.end(), nxt) == adj.end()) adj.push_back(nxt);
        auto& back = out->adjacency[static_cast<std::size_t>(nxt)];
        if (std::find(back.begin(), back.end(), tri[k]) == back.end()) back.push_back(tri[k]);
      }
    }
    mergeCoplanar(out, alive);
    if constexpr (Trace::enabled) {
      HullFrame f = snapshot(HullEvent::Done, hull_lines::kDone, iteration);
      f.kind = out->kind;
      trace.record(std::move(f));
    }
  }

  // A point that joins the hull within the tolerance of a horizon face
  // leaves that face in place, and the new face beside it can be tilted
  // (a sliver) so that the pair folds inward: the edge is reflex. Reflex by
  // at most the tolerance, the pair is merged into one face below; by more,
  // the shared edge is flipped to the other diagonal of the quadrilateral,
  // which adds the tetrahedron between the two choices (points stay inside)
  // and makes the edge convex. Each flip strictly grows the volume, so no
  // configuration repeats; the count is capped all the same.
  void flipReflexEdges() {
    std::vector<int> work;
    for (std::size_t i = 0; i < faces_.size(); ++i)
      if (faces_[i].alive) work.push_back(static_cast<int>(i));
    const std::size_t cap = 8 * work.size() + 64;
    std::size_t flips = 0;
    while (!work.empty() && flips < cap) {
      const int fi = work.back();
      work.pop_back();
      for (int e = 0; e < 3; ++e) {
        QhFace& f = faces_[static_cast<std::size_t>(fi)];
        const int gi = f.nb[e];
        if (gi < 0) continue;
        QhFace& g = faces_[static_cast<std::size_t>(gi)];
        const int a = f.v[e], b = f.v[(e + 1) % 3], c = f.v[(e + 2) % 3];
        int m = 0;
        while (m < 3 && !(g.v[m] == b && g.v[(m + 1) % 3] == a)) ++m;
        if (m == 3) continue;
        const int d = g.v[(m + 2) % 3];
        const double df = distance(f, pts_[d]), dg = distance(g, pts_[c]);
        if (!(df > 0 && dg > 0 && std::fmax(df, dg) > tolerance_) || c == d || hasEdge(c, d)) continue;
        const int fCA = f.nb[(e + 2) % 3], fBC = f.nb[(e + 1) % 3];
        const int gAD = g.nb[(m + 1) % 3], gDB = g.nb[(m + 2) % 3];
        // f becomes (c, a, d), g becomes (d, b, c).
        setTriangle(fi, {c, a, d}, {fCA, gAD, gi});
        setTriangle(gi, {d, b, c}, {gDB, fBC, fi});
        relink(gAD, gi, fi);
        relink(fBC, fi, gi);
        ++flips;
        work.push_back(fi);
        work.push_back(gi);
        break;
      }
    }
  }
  bool hasEdge(int p, int q) const {
    for (const QhFace& f : faces_) {
      if (!f.alive) continue;
      for (int k = 0; k < 3; ++k)
        if (f.v[k] == p && f.v[(k + 1) % 3] == q) return true;
    }
    return false;
  }
  void setTriangle(int fi, std::array<int, 3> v, std::array<int, 3> nb) {
    QhFace& f = faces_[static_cast<std::size_t>(fi)];
    for (int k = 0; k < 3; ++k) f.v[k] = v[static_cast<std::size_t>(k)], f.nb[k] = nb[static_cast<std::size_t>(k)];
    const Vec3 &pa = pts_[v[0]], &pb = pts_[v[1]], &pc = pts_[v[2]];
    f.normal = normalizedOr(accurateNormal(pa, pb, pc), Vec3{0, 0, 1});
    f.offset = (dot(f.normal, pa) + dot(f.normal, pb) + dot(f.normal, pc)) / 3;
  }
  void relink(int face, int from, int to) {
    if (face < 0) return;
    for (int& n : faces_[static_cast<std::size_t>(face)].nb)
      if (n == from) n = to;
  }

  // Adjacent triangles whose far vertices lie within the tolerance of each
  // other's plane form one polygon; its boundary is chained from the
  // group's unshared directed edges.
  void mergeCoplanar(ConvexHull* out, const std::vector<int>& alive) {
    std::vector<int> slotOf(faces_.size(), -1);
    for (std::size_t k = 0; k < alive.size(); ++k) slotOf[static_cast<std::size_t>(alive[k])] = static_cast<int>(k);
    std::vector<int> parent(alive.size());
    for (std::size_t k = 0; k < parent.size(); ++k) parent[k] = static_cast<int>(k);
    auto root = [&](int x) {
      while (parent[static_cast<std::size_t>(x)] != x) x = parent[static_cast<std::size_t>(x)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
      return x;
    };
    for (std::size_t k = 0; k < alive.size(); ++k) {
      const QhFace& f = faces_[static_cast<std::size_t>(alive[k])];
      for (int e = 0; e < 3; ++e) {
        if (f.nb[e] < 0 || slotOf[static_cast<std::size_t>(f.nb[e])] < 0) continue;
        const QhFace& g = faces_[static_cast<std::size_t>(f.nb[e])];
        const int gFar = g.v[0] != f.v[e] && g.v[0] != f.v[(e + 1) % 3]
                             ? g.v[0]
                             : (g.v[1] != f.v[e] && g.v[1] != f.v[(e + 1) % 3] ? g.v[1] : g.v[2]);
        const int fFar = f.v[(e + 2) % 3];
        if (dot(f.normal, g.normal) > 0 && distance(f, pts_[gFar]) >= -tolerance_ &&
            distance(g, pts_[fFar]) >= -tolerance_) {
          parent[static_cast<std::size_t>(root(static_cast<int>(k)))] = root(slotOf[static_cast<std::size_t>(f.nb[e])]);
        }
      }
    }
    // Pairwise merging can leave a vertex that is nearly coplanar with its
    // whole ring split between groups, so that a group's outline turns the
    // wrong way at it. Then every triangle around that vertex joins one
    // group (the vertex becomes interior; the non-corner pass in buildHull
    // drops it), and the outlines are traced again.
    std::vector<std::vector<int>> trianglesAt(out->vertices.size());
    for (std::size_t k = 0; k < out->triangles.size(); ++k)
      for (int c : out->triangles[k]) trianglesAt[static_cast<std::size_t>(c)].push_back(static_cast<int>(k));
    const Vec3 origin = out->vertices.empty() ? Vec3{} : out->vertices[0];
    auto at = [&](int i) { return out->vertices[static_cast<std::size_t>(i)] - origin; };
    std::vector<std::vector<int>> polys, previous;
    for (int round = 0; round < 8; ++round) {
      std::vector<std::vector<int>> groups(alive.size());
      for (std::size_t k = 0; k < alive.size(); ++k) groups[static_cast<std::size_t>(root(static_cast<int>(k)))].push_back(static_cast<int>(k));
      previous.swap(polys);
      polys.clear();
      bool reflex = false, closed = false;
      std::vector<int> rings;
      for (const auto& grp : groups) {
        if (grp.empty()) continue;
        std::vector<int> poly = outline(out, grp);
        if (poly.empty()) {
          closed = true;  // one group took the whole surface
          break;
        }
        if (grp.size() > 1) {
          Vec3 n{0, 0, 0};
          for (int k : grp) {
            const auto& t = out->triangles[static_cast<std::size_t>(k)];
            n += cross(at(t[1]) - at(t[0]), at(t[2]) - at(t[0]));
          }
          n = normalizedOr(n, Vec3{0, 0, 1});
          const std::size_t m = poly.size();
          for (std::size_t i = 0; i < m; ++i) {
            const Vec3 pa = at(poly[(i + m - 1) % m]), pb = at(poly[i]), pc = at(poly[(i + 1) % m]);
            // b inside the chord (a, c) by more than the tolerance: a wrong
            // turn. (Within it, b is on the chord: the corner pass drops it.)
            if (dot(cross(pb - pa, pc - pa), n) >= -tolerance_ * length(pc - pa)) continue;
            reflex = true;
            rings.push_back(poly[i]);
          }
        }
        polys.push_back(std::move(poly));
      }
      if (closed) {
        polys.swap(previous);
        break;
      }
      if (!reflex) break;
      for (int b : rings) {
        const auto& ring = trianglesAt[static_cast<std::size_t>(b)];
        for (int k : ring) parent[static_cast<std::size_t>(root(k))] = root(ring[0]);
      }
    }
    for (auto& poly : polys) out->faces.push_back(std::move(poly));
  }

  // The outline of a group of triangles: its unshared directed edges,
  // chained.
  static std::vector<int> outline(const ConvexHull* out, const std::vector<int>& grp) {
    std::vector<std::pair<int, int>> edges;
    for (int k : grp) {
      const auto& t = out->triangles[static_cast<std::size_t>(k)];
      for (int e = 0; e < 3; ++e) {
        const int a = t[e], b = t[(e + 1) % 3];
        bool shared = false;
        for (int j : grp) {
          const auto& s = out->triangles[static_cast<std::size_t>(j)];
          for (int m = 0; m < 3 && !shared; ++m) shared = s[m] == b && s[(m + 1) % 3] == a;
          if (shared) break;
        }
        if (!shared) edges.emplace_back(a, b);
      }
    }
    if (edges.empty()) return {};
    std::vector<int> poly{edges[0].first};
    int cur = edges[0].second;
    for (std::size_t guard = 0; guard < edges.size() && cur != poly.front(); ++guard) {
      poly.push_back(cur);
      int next = -1;
      for (const auto& e : edges)
        if (e.first == cur) next = e.second;
      if (next < 0) break;
      cur = next;
    }
    return poly;
  }

  const std::vector<Vec3>& input_;
  std::vector<Vec3> pts_;
  Vec3 center_;
  double tolerance_ = 0;
  double roundingTolerance_ = 0;  // rounding part of tolerance_ alone
  double arithmeticRounding_ = 0;  // rounding of a plane distance (≤ the above)
  double inputRounding_ = 0;       // 2u·(largest |coordinate|): the input's own rounding
  int mode_ = 0;                   // build variant (kTightVisibility | kPutBack | kNoFlips)
  std::vector<QhFace> faces_;
  std::vector<int> queue_;
  std::size_t head_ = 0;
  int nextId_ = 0;
  int mark_ = 0;
  int stamp_ = 0;
  std::vector<int> startStamp_;  // horizon chaining: vertex → edge it starts
  std::vector<int> startEdge_;
  std::vector<int> forced_;  // points put back by forceOutside
};

// How far p lies above a polyhedral hull: the largest signed distance to
// its triangles' planes (accurate normals, differences taken from a
// corner). Lower-dimensional hulls: the distance to the nearest vertex is
// not needed by the caller, which only builds polyhedra here; 0.
inline double heightAbove(const ConvexHull& h, const Vec3& p) {
  if (h.kind != HullKind::Polyhedron) return 0;
  double best = -std::numeric_limits<double>::infinity();
  for (const auto& t : h.triangles) {
    const Vec3& a = h.vertices[static_cast<std::size_t>(t[0])];
    const Vec3 n = normalizedOr(accurateNormal(a, h.vertices[static_cast<std::size_t>(t[1])], h.vertices[static_cast<std::size_t>(t[2])]), Vec3{});
    best = std::fmax(best, dot(n, p - a));
  }
  return best;
}

}  // namespace detail

namespace detail {

// Scale. The plane arithmetic squares and multiplies coordinates (squared
// lengths, cross products of cross products), so a cloud whose largest
// coordinate is far from 1 overflows (1e200: lengths become ∞) or
// underflows (1e-160: a triangle's squared area is 0, and it comes out as
// a segment) long before its points stop being representable. A hull is
// unchanged by scaling, and scaling by a power of two is exact (up to bits
// of coordinates ~2^-1000 below the largest one, far inside the
// tolerance); so a cloud whose largest coordinate lies outside
// [2^-kHullMaxExponent, 2^kHullMaxExponent] is built scaled into [1, 2) and
// its vertices and tolerance are mapped back. Inside that range every
// intermediate (up to the 6th power of a coordinate, times u² in the
// double-double normals) stays far from overflow and underflow, and the
// build runs on the points as given, bit for bit as before.
constexpr int kHullMaxExponent = 100;

// The trace of a build on scaled coordinates, with its distances (the eye's
// height) in the caller's units. Frames hold input indices otherwise.
template <class Trace>
struct RescaledHullTrace {
  static constexpr bool enabled = Trace::enabled;
  Trace* inner;
  int exponent;
  void record(HullFrame&& f) {
    f.eyeDistance = std::ldexp(f.eyeDistance, exponent);
    inner->record(std::move(f));
  }
};

template <class Trace>
void buildValidHull(const std::vector<Vec3>& points, const HullSettings& settings, ConvexHull* out, Trace& trace);

}  // namespace detail

template <class Trace>
bool buildHull(const std::vector<Vec3>& points, const HullSettings& settings, ConvexHull* out, HullError* err,
               Trace& trace) {
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
  if constexpr (Trace::enabled) {
    if (points.size() > kHullMaxTracedPoints) {
      *err = {"points", "tracing is limited to 5000 points (got " + std::to_string(points.size()) + ")"};
      return false;
    }
  }
  const int exponent = big > 0 ? std::ilogb(big) : 0;
  if (exponent < -detail::kHullMaxExponent || exponent > detail::kHullMaxExponent) {
    std::vector<Vec3> scaled(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      const Vec3& p = points[i];
      scaled[i] = {std::ldexp(p.x, -exponent), std::ldexp(p.y, -exponent), std::ldexp(p.z, -exponent)};
    }
    detail::RescaledHullTrace<Trace> rescaled{&trace, exponent};
    detail::buildValidHull(scaled, settings, out, rescaled);
    for (std::size_t i = 0; i < out->vertices.size(); ++i)
      out->vertices[i] = points[static_cast<std::size_t>(out->inputIndex[i])];
    out->tolerance = std::ldexp(out->tolerance, exponent);
  } else {
    detail::buildValidHull(points, settings, out, trace);
  }
  return true;
}

namespace detail {

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

COLLIDOSCOPE_SMALL inline bool hullDefect(const std::vector<Vec3>& pts, const std::vector<int>& suspects, const ConvexHull& h,
                       bool centroidMargin = true) {
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
    std::vector<std::pair<std::pair<int, int>, int>> tedges;
    tedges.reserve(3 * h.triangles.size());
    for (std::size_t t = 0; t < h.triangles.size(); ++t)
      for (int k = 0; k < 3; ++k) tedges.push_back({{h.triangles[t][k], h.triangles[t][(k + 1) % 3]}, static_cast<int>(t)});
    std::sort(tedges.begin(), tedges.end());
    for (const auto& e : tedges) {
      const auto it = std::lower_bound(tedges.begin(), tedges.end(), std::make_pair(std::make_pair(e.first.second, e.first.first), -1));
      if (it == tedges.end() || it->first != std::make_pair(e.first.second, e.first.first)) return true;
      const auto& g = h.triangles[static_cast<std::size_t>(it->second)];
      const int far = g[0] != e.first.first && g[0] != e.first.second ? g[0] : (g[1] != e.first.first && g[1] != e.first.second ? g[1] : g[2]);
      const std::size_t t = static_cast<std::size_t>(e.second);
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
  std::vector<std::pair<std::pair<int, int>, int>> edges;
  for (std::size_t f = 0; f < nf; ++f) {
    const auto& poly = h.faces[f];
    const std::size_t m = poly.size();
    if (m < 3) return true;
    // Newell's normal (facePlane), the centroid as the plane's point
    // (relative to the first corner).
    for (std::size_t k = 0; k < m; ++k) edges.push_back({{poly[k], poly[(k + 1) % m]}, static_cast<int>(f)});
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
  std::sort(edges.begin(), edges.end());
  for (std::size_t i = 0; i + 1 < edges.size(); ++i)
    if (edges[i].first == edges[i + 1].first) return true;
  for (const auto& e : edges) {
    const auto it = std::lower_bound(edges.begin(), edges.end(), std::make_pair(std::make_pair(e.first.second, e.first.first), -1));
    if (it == edges.end() || it->first != std::make_pair(e.first.second, e.first.first)) return true;
    const int f = e.second, g = it->second;
    // Some corner of one face clearly below the other's plane (either way
    // round; the smaller face's corners first, stopping at the first).
    auto clearlyBelow = [&](int plane, int corners) {
      for (int i : h.faces[static_cast<std::size_t>(corners)])
        if (dot(fnrm[static_cast<std::size_t>(plane)], (vx(i) - vx(h.faces[static_cast<std::size_t>(plane)][0])) - fctr[static_cast<std::size_t>(plane)]) < -0.5 * tau) return true;
      return false;
    };
    const bool fSmaller = h.faces[static_cast<std::size_t>(f)].size() <= h.faces[static_cast<std::size_t>(g)].size();
    if (!(fSmaller ? clearlyBelow(g, f) || clearlyBelow(f, g) : clearlyBelow(f, g) || clearlyBelow(g, f))) return true;
  }
  // Two faces share at most an edge (two corners).
  std::vector<std::vector<int>> facesOf(nv);
  for (std::size_t f = 0; f < nf; ++f)
    for (int i : h.faces[f]) facesOf[static_cast<std::size_t>(i)].push_back(static_cast<int>(f));
  std::vector<int> shared(nf, 0), stamp(nf, -1);
  for (std::size_t f = 0; f < nf; ++f)
    for (int i : h.faces[f])
      for (int g : facesOf[static_cast<std::size_t>(i)]) {
        const std::size_t gi = static_cast<std::size_t>(g);
        if (gi == f) continue;
        if (stamp[gi] != static_cast<int>(f)) stamp[gi] = static_cast<int>(f), shared[gi] = 0;
        if (++shared[gi] > 2) return true;
      }
  const long euler = static_cast<long>(nv) - static_cast<long>(edges.size() / 2) + static_cast<long>(nf);
  return euler != 2;
}

// ---- the exact rebuild (nearly degenerate clouds, issue 8) -------------------
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
// Exact arithmetic by expansions: a number is held as a sum of doubles
// whose bits do not overlap, in order of increasing magnitude with zeros
// left out, so that its sign is the sign of its last component. A sum of
// two doubles is exactly two doubles (ddTwoSum), and so is a product (its
// error term by std::fma); adding a double to an expansion component by
// component, carrying the running sum and keeping the error terms, keeps
// the property. Exact unless a product underflows, which only coordinates
// below ~1e-290 can cause (far below any tolerance).
struct Expansion {
  // The largest expansion here: a 3×3 determinant of 2-component
  // differences, 3 × 2 × (2 × 2 × 2 × 2) × 2 = 192 components.
  static constexpr int kCapacity = 256;
  double c[kCapacity];
  int n = 0;
  COLLIDOSCOPE_SMALL void add(double b) {
    double q = b;
    int k = 0;
    for (int i = 0; i < n; ++i) {
      const DoubleDouble s = ddTwoSum(q, c[i]);
      q = s.hi;
      if (s.lo != 0) c[k++] = s.lo;
    }
    if (q != 0 && k < kCapacity) c[k++] = q;
    n = k;
  }
  // this += sign · a · b (b a two-component difference).
  COLLIDOSCOPE_SMALL void addProduct(const Expansion& a, DoubleDouble b, double sign) {
    for (int i = 0; i < a.n; ++i)
      for (double f : {b.lo, b.hi}) {
        if (f == 0) continue;
        const double p = a.c[i] * f;
        add(sign * std::fma(a.c[i], f, -p));
        add(sign * p);
      }
  }
  int sign() const { return n == 0 ? 0 : (c[n - 1] > 0 ? 1 : -1); }
};

// Exact sign of x·y − z·w for two-component differences.
COLLIDOSCOPE_SMALL inline Expansion exactMinor(DoubleDouble x, DoubleDouble y, DoubleDouble z, DoubleDouble w) {
  Expansion ex;
  ex.add(x.lo);
  ex.add(x.hi);
  Expansion ez;
  ez.add(z.lo);
  ez.add(z.hi);
  Expansion r;
  r.addProduct(ex, y, 1);
  r.addProduct(ez, w, -1);
  return r;
}

// Sign of (b − a) × (c − a) · (d − a): positive when d lies above the plane
// of the triangle (a, b, c), counter-clockwise seen from above. A double
// evaluation decides when its value clears a bound on its rounding error
// (the rounded differences, products and sums add up to ~10u of the sum of
// the terms' magnitudes; 1e-14 is ~90u); otherwise the exact one does.
COLLIDOSCOPE_SMALL inline int orientExact(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const DoubleDouble u[3] = {ddTwoSum(b.x, -a.x), ddTwoSum(b.y, -a.y), ddTwoSum(b.z, -a.z)};
  const DoubleDouble v[3] = {ddTwoSum(c.x, -a.x), ddTwoSum(c.y, -a.y), ddTwoSum(c.z, -a.z)};
  const DoubleDouble w[3] = {ddTwoSum(d.x, -a.x), ddTwoSum(d.y, -a.y), ddTwoSum(d.z, -a.z)};
  Expansion det;
  for (int k = 0; k < 3; ++k) {
    const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    const Expansion m = exactMinor(v[k1], w[k2], v[k2], w[k1]);
    det.addProduct(m, u[k], 1);
  }
  return det.sign();
}
inline int orient3(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Vec3 u = b - a, v = c - a, w = d - a;
  const double m0 = v.y * w.z - v.z * w.y, m1 = v.z * w.x - v.x * w.z, m2 = v.x * w.y - v.y * w.x;
  const double det = u.x * m0 + u.y * m1 + u.z * m2;
  const double perm = std::fabs(u.x) * (std::fabs(v.y * w.z) + std::fabs(v.z * w.y)) +
                      std::fabs(u.y) * (std::fabs(v.z * w.x) + std::fabs(v.x * w.z)) +
                      std::fabs(u.z) * (std::fabs(v.x * w.y) + std::fabs(v.y * w.x));
  constexpr double kFilter = 1e-14;
  if (perm > 1e-280 && perm < 1e280) {
    if (det > kFilter * perm) return 1;
    if (det < -kFilter * perm) return -1;
  }
  return orientExact(a, b, c, d);
}
// Whether a, b, c are exactly collinear: (b − a) × (c − a) = 0.
COLLIDOSCOPE_SMALL inline bool collinearExact(const Vec3& a, const Vec3& b, const Vec3& c) {
  const DoubleDouble u[3] = {ddTwoSum(b.x, -a.x), ddTwoSum(b.y, -a.y), ddTwoSum(b.z, -a.z)};
  const DoubleDouble v[3] = {ddTwoSum(c.x, -a.x), ddTwoSum(c.y, -a.y), ddTwoSum(c.z, -a.z)};
  for (int k = 0; k < 3; ++k) {
    const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    if (exactMinor(u[k1], v[k2], u[k2], v[k1]).sign() != 0) return false;
  }
  return true;
}

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
      if (!collinearExact(p0, p1, pts[static_cast<std::size_t>(i)])) {
        i2 = i;
        break;
      }
    if (i2 < 0) return false;
    const Vec3 p2 = pts[static_cast<std::size_t>(i2)];
    const Vec3 n = accurateNormal(p0, p1, p2);
    int i3 = -1;
    for (const auto& [m, i] : byDecreasing([&](const Vec3& p) { return std::fabs(dot(n, p - p0)); }))
      if (orient3(p0, p1, p2, pts[static_cast<std::size_t>(i)]) != 0) {
        i3 = i;
        break;
      }
    if (i3 < 0) return false;
    if (orient3(p0, p1, p2, pts[static_cast<std::size_t>(i3)]) > 0) std::swap(i1, i2);
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
  int above(const Face& f, int p) const { return orient3(at(f.v[0]), at(f.v[1]), at(f.v[2]), at(p)); }
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
COLLIDOSCOPE_SMALL inline bool buildExactHull(const std::vector<Vec3>& points, double tau, ConvexHull* out, bool* valid) {
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

// Vertices of higher degree skip the neighbour-segment and neighbour-
// triangle tests of buildOnce (quadratic and cubic in the degree; a fan's
// hub on a polygonal face has thousands of neighbours, and is a corner of
// that face anyway).
constexpr std::size_t kMaxPairsDegree = 64;
constexpr std::size_t kMaxTriplesDegree = 12;

// Whether a vertex of a polyhedral hull lies within an eighth of the
// tolerance of a segment from one of its neighbours to another input
// point: then it is not extreme (a needle's vertex near the line to its far
// end, beside an input point that Quickhull dropped inside). An eighth: a
// vertex farther off is extreme at that scale, which is all the hull
// promises (its corner pass drops vertices within the tolerance of their
// neighbours, not of every input point). O(E·n).
COLLIDOSCOPE_SMALL inline bool vertexOnSegment(const std::vector<Vec3>& pts, const ConvexHull& h) {
  for (std::size_t v = 0; v < h.vertices.size(); ++v)
    for (int a : h.adjacency[v])
      for (std::size_t b = 0; b < pts.size(); ++b) {
        const Vec3& pb = pts[b];
        // b beyond v (not a near-duplicate of it, which only one of them
        // can stand for: the corner pass's business).
        if (pb == h.vertices[static_cast<std::size_t>(a)] || !(length(pb - h.vertices[v]) > h.tolerance)) continue;
        if (Quickhull::segmentDistance(h.vertices[v], h.vertices[static_cast<std::size_t>(a)], pb) <= h.tolerance / 8) return true;
      }
  return false;
}

// Whether an input point lies above a merged face's plane (facePlane) by
// more than `times` the tolerance. Not a triangle's: a sliver triangle of a merged
// face (three nearly collinear corners of a polygon whose corners are
// rounded) spans a plane tilted by the rounding over its height, which
// interior points near the face can be above. O(n·Σ face sizes).
COLLIDOSCOPE_SMALL inline bool pointAboveFace(const std::vector<Vec3>& pts, const ConvexHull& h, double times = 1) {
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

// buildValidHull checks every input point (not only the suspects) when
// points × triangles is at most this (a fraction of a millisecond).
constexpr std::size_t kValidateEveryPoint = std::size_t{1} << 16;

// Quickhull and the corner clean-up on finite points, once. `suspects`
// receives the points the validation must look at besides the vertices.
template <class Trace>
void buildOnce(const std::vector<Vec3>& points, const HullSettings& settings, int mode, ConvexHull* out,
               Trace& trace, std::vector<int>* suspects) {
  detail::Quickhull qh(points, settings.relativeTolerance, mode);
  qh.run(out, trace);
  *suspects = qh.nearPoints();
  if (out->kind == HullKind::Polyhedron) {
    // Quickhull never removes a vertex, so a point that was extreme for an
    // intermediate hull can end up on an edge or inside a face of the final
    // one (common with grids and other coplanar data). Keep the vertices
    // that are a corner of some merged face (off the line through their
    // loop neighbours by more than the tolerance); if any are not, build
    // again from the corners alone, which are all extreme.
    std::vector<char> corner(out->vertices.size(), 0);
    for (const auto& poly : out->faces) {
      const std::size_t m = poly.size();
      for (std::size_t k = 0; k < m; ++k) {
        const Vec3& a = out->vertices[static_cast<std::size_t>(poly[(k + m - 1) % m])];
        const Vec3& b = out->vertices[static_cast<std::size_t>(poly[k])];
        const Vec3& c = out->vertices[static_cast<std::size_t>(poly[(k + 1) % m])];
        const Vec3 chord = c - a;
        const double off = length(cross(chord, b - a)) / std::fmax(length(chord), 1e-300);
        if (off > out->tolerance) corner[static_cast<std::size_t>(poly[k])] = 1;
      }
    }
    // A corner within the tolerance of the segment between two of its
    // neighbours is not extreme either. On a needle the faces through such
    // a vertex tilt by (its offset)/(the needle's length) against their
    // neighbours, which is far more than the tolerance allows them to be
    // merged, so it stays a corner of small faces near the needle's base.
    for (std::size_t v = 0; v < out->vertices.size() && !(mode & Quickhull::kFaceCornersOnly); ++v) {
      const auto& adj = out->adjacency[v];
      if (adj.size() > kMaxPairsDegree) continue;
      for (std::size_t i = 0; i < adj.size() && corner[v]; ++i)
        for (std::size_t j = i + 1; j < adj.size() && corner[v]; ++j)
          if (Quickhull::segmentDistance(out->vertices[v], out->vertices[static_cast<std::size_t>(adj[i])],
                                         out->vertices[static_cast<std::size_t>(adj[j])]) <= out->tolerance)
            corner[v] = 0;
      // Likewise within the tolerance of a triangle of three neighbours
      // (their hull, which is what is left near v without it). Vertices of
      // high degree (a fan's hub) are left to the face pass above.
      if (adj.size() > kMaxTriplesDegree) continue;
      const Vec3& p = out->vertices[v];
      for (std::size_t i = 0; i < adj.size() && corner[v]; ++i)
        for (std::size_t j = i + 1; j < adj.size() && corner[v]; ++j)
          for (std::size_t k = j + 1; k < adj.size() && corner[v]; ++k) {
            const Vec3 a = out->vertices[static_cast<std::size_t>(adj[i])] - p;
            const Vec3 b = out->vertices[static_cast<std::size_t>(adj[j])] - p;
            const Vec3 c = out->vertices[static_cast<std::size_t>(adj[k])] - p;
            const Vec3 n = normalizedOr(accurateNormal(a, b, c), Vec3{});  // (a, b, c) counter-clockwise around n
            if (n == Vec3{}) continue;
            if (Quickhull::triangleDistance(Vec3{}, a, b, c, n) <= out->tolerance) corner[v] = 0;
          }
    }
    // A group merged pair by pair can bend by more than the tolerance
    // overall, so a vertex inside it is not always on the rebuilt hull:
    // any dropped vertex left more than the tolerance outside is put back
    // and the corners are built again (a few rounds; if that does not
    // settle, the first hull, which holds every point, stands).
    std::vector<char> keep = corner;
    for (int round = 0; round < 4 && std::find(keep.begin(), keep.end(), 0) != keep.end(); ++round) {
      std::vector<Vec3> extreme;
      std::vector<int> origin;
      for (std::size_t i = 0; i < keep.size(); ++i) {
        if (!keep[i]) continue;
        extreme.push_back(out->vertices[i]);
        origin.push_back(out->inputIndex[i]);
      }
      // Every corner dropped, or too few left for a solid (a needle's
      // vertices all within τ of their neighbours; found by fuzz_pair
      // through sat's hull, where the empty cloud was read out of bounds):
      // the first hull stands.
      if (extreme.size() < 4) break;
      const double tolerance = out->tolerance;
      ConvexHull second;
      NoTrace none;
      detail::Quickhull again(extreme, settings.relativeTolerance, mode);
      again.run(&second, none);
      // The corners alone can come out flat (within their own tolerance);
      // heightAbove cannot measure a polygon, so the first hull stands.
      if (second.kind != HullKind::Polyhedron) break;
      bool outside = false;
      for (std::size_t i = 0; i < keep.size(); ++i)
        if (!keep[i] && detail::heightAbove(second, out->vertices[i]) > tolerance) keep[i] = 1, outside = true;
      if (outside) continue;
      for (int& i : second.inputIndex) i = origin[static_cast<std::size_t>(i)];
      // The dropped vertices are points the validation must look at.
      for (std::size_t i = 0; i < keep.size(); ++i)
        if (!keep[i]) suspects->push_back(out->inputIndex[i]);
      second.tolerance = std::fmax(second.tolerance, tolerance);
      *out = std::move(second);
      break;
    }
  }
}


}  // namespace detail

// Quickhull and the corner clean-up on finite points (buildHull checked
// them and the scale). If the result breaks a promise (hullDefect, and for
// small clouds pointAboveFace and vertexOnSegment: only nearly degenerate
// clouds do), it is built again exactly (buildExactHull) and, if that
// result breaks one too, in other modes until one keeps them all (checked
// against every point):
//   * tight visibility and put-back: neighbours of the eye count as seen
//     when it is above them by more than the input's own rounding
//     (2u·max|x|) rather than 32u·max|x|, which leaves no edges folded
//     inward by up to the tolerance for later cones to tilt against, and
//     points left outside are put back (Quickhull::forceOutside);
//   * no flips: an edge flip can split two faces that belong to one plane;
//   * both;
//   * corners by the merged faces alone (without dropping vertices within
//     the tolerance of a segment or triangle of their neighbours, which on
//     a cloud with structure at the tolerance's scale can leave faces that
//     share three corners), alone and with the first.
// If none does, the exact hull stands when the first leaves a point above a
// face by more than the tolerance (the exact one holds every point within
// it), else the first. Ordinary clouds are built once, exactly as before;
// a trace shows the first build.
template <class Trace>
void detail::buildValidHull(const std::vector<Vec3>& points, const HullSettings& settings, ConvexHull* out,
                            Trace& trace) {
  std::vector<int> suspects;
  buildOnce(points, settings, 0, out, trace, &suspects);
  if (out->kind != HullKind::Polyhedron) return;
  std::vector<int> all(points.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  // Small clouds are validated against every point too (Quickhull's
  // rounding can drop a point outside as inside).
  const bool everyPoint = points.size() * out->triangles.size() <= kValidateEveryPoint;
  if (!hullDefect(points, suspects, *out) && !(everyPoint && (pointAboveFace(points, *out) || vertexOnSegment(points, *out))))
    return;
  ConvexHull exact;
  bool exactValid = false;
  const bool haveExact = buildExactHull(points, out->tolerance, &exact, &exactValid);
  if (haveExact && exactValid) {
    *out = std::move(exact);
    return;
  }
  constexpr int kVariants[] = {Quickhull::kTightVisibility | Quickhull::kPutBack, Quickhull::kNoFlips,
                               Quickhull::kTightVisibility | Quickhull::kPutBack | Quickhull::kNoFlips,
                               Quickhull::kFaceCornersOnly,
                               Quickhull::kFaceCornersOnly | Quickhull::kTightVisibility | Quickhull::kPutBack};
  for (int mode : kVariants) {
    ConvexHull other;
    NoTrace none;
    buildOnce(points, settings, mode, &other, none, &suspects);
    if (!hullDefect(points, all, other) && !(everyPoint && (pointAboveFace(points, other) || vertexOnSegment(points, other)))) {
      *out = std::move(other);
      return;
    }
  }
  // None passes: the exact hull, which holds every point within the
  // tolerance and is closed and outward, rather than a first hull that
  // leaves a point above a face by more than twice the tolerance (the
  // most a merged face's plane can promise; the hull's containment).
  if (haveExact && everyPoint && pointAboveFace(points, *out, 2)) *out = std::move(exact);
}

inline bool buildHull(const std::vector<Vec3>& points, ConvexHull* out, HullError* err) {
  NoTrace none;
  return buildHull(points, HullSettings{}, out, err, none);
}

}  // namespace collidoscope
