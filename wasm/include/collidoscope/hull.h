// collidoscope — 3D convex hull by quickhull, with typed results for
// degenerate inputs and a trace of every step for the page.
//
// References: C. B. Barber, D. P. Dobkin, H. Huhdanpaa, "The Quickhull
// algorithm for convex hulls", ACM TOMS 1996; the incremental construction
// as presented by M. Huotari, "Törmäyksen tunnistus 3D-ympäristössä",
// bachelor's thesis, Mikkeli University of Applied Sciences, 2011, ch. 4
// (visible faces, horizon, new faces).
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
//   6. Validation (nearly degenerate clouds): the result is
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
#include "collidoscope/predicates.h"
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

  // An edge (a, b) of a visible face whose neighbour across it, `outside`, is not visible.
  struct HorizonEdge {
    int a, b, outside;
  };

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
    // Scratch lists reused from step to step (cleared, capacity kept).
    std::vector<int>& visible = scratchVisible_;
    visible.assign(1, fi);
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
    std::vector<HorizonEdge>& edges = scratchEdges_;
    edges.clear();
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
    std::vector<HorizonEdge>& loop = scratchLoop_;
    loop.assign(1, edges[0]);
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
      for (const HorizonEdge& e : loop) h.horizon.emplace_back(e.a, e.b);
      trace.record(std::move(h));
    }
    // Collect the orphaned points, retire the visible faces.
    std::vector<int>& orphans = scratchOrphans_;
    orphans.clear();
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
    std::vector<int>& cone = scratchCone_;
    cone.clear();
    for (const HorizonEdge& e : loop) {
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
    double tol = std::fmax(tolerance_, deviation);
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
    // How far corner k and the points dropped beside it lie from the chord
    // of its neighbours.
    auto gapOf = [&](std::size_t k) {
      const std::size_t m = h.size();
      const std::size_t ka = (k + m - 1) % m, kc = (k + 1) % m;
      const P2 &a = h[ka], &c = h[kc];
      double gap = segDist(h[k], a, c);
      for (const P2& p : span[ka]) gap = std::fmax(gap, segDist(p, a, c));
      for (const P2& p : span[k]) gap = std::fmax(gap, segDist(p, a, c));
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
      auto px = [&](std::size_t i) -> const Vec3& { return pts_[static_cast<std::size_t>(h[i].i)]; };
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
    std::vector<std::vector<int>> trianglesAt;  // built when first needed
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
        // A lone triangle is its own outline (what outline() returns for it).
        std::vector<int> poly = grp.size() == 1 ? std::vector<int>(out->triangles[static_cast<std::size_t>(grp[0])].begin(),
                                                                   out->triangles[static_cast<std::size_t>(grp[0])].end())
                                                : outline(out, grp);
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
      if (trianglesAt.empty()) {
        trianglesAt.resize(out->vertices.size());
        for (std::size_t k = 0; k < out->triangles.size(); ++k)
          for (int c : out->triangles[k]) trianglesAt[static_cast<std::size_t>(c)].push_back(static_cast<int>(k));
      }
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
  std::vector<int> scratchVisible_, scratchOrphans_, scratchCone_;  // addPoint's per-step lists
  std::vector<HorizonEdge> scratchEdges_, scratchLoop_;
  std::vector<int> startStamp_;  // horizon chaining: vertex → edge it starts
  std::vector<int> startEdge_;
  std::vector<int> forced_;  // points put back by forceOutside
};


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
// Non-template parts of the build and its validation (hull.cpp).
// How far p lies above a polyhedral hull: the largest signed distance to
// its triangles' planes; 0 for lower-dimensional hulls.
double heightAbove(const ConvexHull& h, const Vec3& p);
// Whether a polyhedral hull of `pts` breaks one of its promises (points of
// `suspects` or vertices outside by more than the tolerance, not convex or
// closed, merged faces not strictly convex or coplanar with a neighbour,
// two vertices within the tolerance).
bool hullDefect(const std::vector<Vec3>& pts, const std::vector<int>& suspects, const ConvexHull& h,
                bool centroidMargin = true);
// The exact rebuild: false when the exact hull is flat or too large;
// *valid tells whether the result passed hullDefect.
bool buildExactHull(const std::vector<Vec3>& points, double tau, ConvexHull* out, bool* valid);
// Whether a vertex lies within τ/8 of a segment from a neighbour to an input point.
bool vertexOnSegment(const std::vector<Vec3>& pts, const ConvexHull& h);
// Whether an input point lies above a merged face's plane by more than `times` τ.
bool pointAboveFace(const std::vector<Vec3>& pts, const ConvexHull& h, double times = 1);

// Whether every neighbour of vertex v lies beyond the plane through v
// orthogonal to the direction m from v to `inside` (a point inside the
// hull) by more than the tolerance plus a margin far above the rounding of
// the distances buildOnce computes: then every segment and triangle of
// neighbours lies in that half-space too, farther than the tolerance from
// v, and buildOnce's neighbour-segment and neighbour-triangle tests cannot
// drop v. A certificate only: false means "run the tests".
bool neighboursClearlyBeyond(const ConvexHull& h, std::size_t v, const Vec3& inside);

// Vertices of higher degree skip the neighbour-segment and neighbour-
// triangle tests of buildOnce (quadratic and cubic in the degree; a fan's
// hub on a polygonal face has thousands of neighbours, and is a corner of
// that face anyway).
constexpr std::size_t kMaxPairsDegree = 64;
constexpr std::size_t kMaxTriplesDegree = 12;


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
    Vec3 centroid{0, 0, 0};
    for (const Vec3& p : out->vertices) centroid += p;
    centroid = centroid * (1.0 / static_cast<double>(out->vertices.size()));
    for (std::size_t v = 0; v < out->vertices.size() && !(mode & Quickhull::kFaceCornersOnly); ++v) {
      const auto& adj = out->adjacency[v];
      if (adj.size() > kMaxPairsDegree) continue;
      if (!corner[v] || neighboursClearlyBeyond(*out, v, centroid)) continue;
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
      // vertices all within τ of their neighbours): the first hull stands,
      // and the rebuild never sees fewer than four points.
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
