// collidoscope — the separating-axis test (SAT): for two boxes or two
// shapes with polytopal cores, a separating axis and the gap when they are
// apart, the axis of least overlap and the depth when they intersect.
//
// References: S. Gottschalk, M. C. Lin, D. Manocha, "OBBTree: a
// hierarchical structure for rapid interference detection", SIGGRAPH 1996,
// as presented by J. Rasku, "Törmäysten havaitseminen
// tietokoneanimaatiossa", master's thesis, University of Tampere, 2003,
// §6.4 (the 15 axes of two boxes from the Gauss map of the Minkowski
// difference, early exit at the first separating axis); the SAT and
// Minkowski difference as presented in a Croatian thesis on rigid-body
// dynamics (ch. 6).
//
// The maths. For a unit axis L, project A and B: [minA, maxA], [minB, maxB].
// Moving B by t·L (t ≥ 0) clears A when t ≥ maxA − minB; moving it by −t·L
// when t ≥ maxB − minA. So
//     overlap(L) = min(maxA − minB, maxB − minA),
// oriented along +L when the first is the smaller (the axis points from A
// toward B, as penetration()'s normal). With C = A − B, overlap(L) is the
// support value h_C(L') of C along the chosen orientation L': negative means
// L separates A and B by the gap −overlap(L) (a lower bound of their
// distance), and for every unit L, overlap(L) ≥ the penetration depth
// min_L h_C(L). For polytopes the minimum is reached at a facet normal of
// C, and C's facets have the normals of A's faces, of B's faces and the
// cross products of an edge of A with an edge of B (Rasku §6.4.1: the
// Gauss maps of A and −B overlaid; 3 + 3 + 9 = 15 directions for two
// boxes). So
// the minimum over those candidates is exactly the depth when the shapes
// intersect, and some candidate separates when they do not.
//
// Parallel edges. An edge pair with a × b = 0 gives no facet of C (the two
// edges merge into one edge of C), so its cross product is not a candidate:
// the other axes already decide the test. A *nearly* parallel pair does
// give a facet, but a sliver one, of width ≤ sin θ·(shorter edge): skipping
// it changes the depth by at most that much (the neighbouring facet across
// the sliver's long side is at most the sliver's width farther from the
// origin). So pairs with |â × b̂| ≤ kSatParallelSine are skipped: no
// normalisation of a cross product that is all rounding, no NaN, and an
// error ≤ 1e-10 of the edge length. Above the threshold the cross product's
// direction is off by up to u/sin θ, but only across the sliver, which is
// sin θ wide: the depth error stays ~u·length.
//
// Degenerate hulls (triangle, segment, point and their rounded versions).
// When A − B has no volume its "facets" are also the in-plane side normals
// of the flat set, which the list above misses (a point beside a triangle,
// in its plane, projects inside the triangle along its normal). So:
//   * a flat hull (polygon) with normal n adds n × e for every edge e of A
//     and B (its own sides and, when the other shape is coplanar, those
//     of the other);
//   * two non-parallel segments add n × e_A, n × e_B with n = e_A × e_B;
//   * two points, or points and parallel segments (A − B is a segment or a
//     point), add the line's direction and the perpendicular from the line
//     through A's first vertex to B's (any perpendicular when the lines
//     coincide: it shows A − B's zero thickness).
// Extra axes never spoil the answer (every axis gives overlap ≥ depth and a
// sound separation), so these are added whenever the kinds allow a flat
// A − B, also when it turns out to have volume.
//
// Touching in a plane. When the best axis n shows the cores touching to
// rounding, their contact lies in the plane ⟂ n, and whether they really
// meet is a question inside that plane. In exact arithmetic a facet normal
// of A − B answers it, but that facet may be a sliver tilted from n by a
// tiny angle, so its gap (distance × that angle) falls below rounding: a
// point 13.9 beside a needle tetrahedron 3e9 long, in the plane of its big
// face, is 1e-8 outside its thin faces, under the 4e-5 rounding bound. So
// the in-plane side normals n × e for every edge class of A and B are also
// tested then (the 2D SAT of the two contact sets, whose sides are edges
// of A and B), like the flat sides of a polygon hull above. At a sharp
// corner those sides separate by distance × its angle only (a point 8.7e-8
// beyond the corner of a sliver 6e-7 wide: 1e-14), so the in-plane
// directions between the contact sets' vertices are tested as well (up to
// kSatCornerPairs pairs).
//
// Rounded shapes (margin, sphere, capsule: core ⊕ ball of radius r). Every
// interval widens by r on each side — exact for any axis, since the support
// value of core ⊕ ball is h_core + r. When the cores overlap, the depth is
// core depth + r_A + r_B along the same axis: exact. When the cores are
// apart but within r_A + r_B, the true direction joins the cores' closest
// points (a vertex–edge pair, say), which need not be a candidate: the
// answer is then for the axis set only, i.e. conservative — "intersecting"
// may be reported for shapes that are apart along a non-candidate
// direction, by more than r_A + r_B too: where the closest features are a
// vertex or an edge, a candidate's gap can be far below the cores'
// distance (a point 9 from a sliver tetrahedron 1e5 long is only 1.25 from
// it along its best face normal, so with a margin of 3.375 the shapes, 5.6
// apart, "intersect"). The depth is an upper bound. Status RoundedBound
// flags it.
// "Separated" is always certain (the axis and gap are exact). The flag is
// raised whenever the best overlap is below r_A + r_B, also where the
// answer happens to be exact (rounded boxes face to face).
//
// Touching. An overlap within rounding of zero (kRoundingBound) is taken
// as 0: touching is "intersecting, depth 0" — as in gjkIntersect, separation
// is only reported with a gap above rounding.
//
// Cost. Projections are by brute force over the hull's vertices (min/max of
// dot products: exact up to rounding), O((F_A + F_B + E_A·E_B)·(V_A + V_B))
// with E the number of distinct edge directions; a query that would do more
// than kSatMaxProjections dot products returns status TooLarge untouched.
// The box–box test needs no hull: 15 axes, each projected in closed form.
//
// Memory. satBoxes() and satHulls() allocate nothing with NoTrace. The hull
// of a polytopal core (SatHull, built once per shape by buildSatHull) is
// preprocessing and allocates, like buildHull; sat(Shape, Shape) builds
// both hulls on every call, so a game that tests the same shapes often
// keeps the SatHulls and calls satHulls with the current poses.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "collidoscope/hull.h"
#include "collidoscope/math.h"
#include "collidoscope/shapes.h"
#include "collidoscope/trace.h"

namespace collidoscope {

// Edge pairs with |â × b̂| at or below this are parallel: skipped (see the
// header comment). Skipping a sliver facet costs ≤ 1e-10 of the edge length
// in depth, an order inside the 1e-9·scale promise; keeping one computes a
// direction from a cross product with ≥ 6 good digits (u/1e-10).
constexpr double kSatParallelSine = 1e-10;

// Two candidate axes whose directions differ by a sine at most this (up to
// sign: L and −L give the same test) are tested once. Projections along
// directions this close differ by ≤ 1e-12 of the shape's size: invisible at
// the 1e-9 accuracy, and a box's 6 faces and 12 edges become 3 and 3 axes.
constexpr double kSatSameAxisSine = 1e-12;

// Touching within rounding. An overlap computed as maxA − minB carries the
// rounding of the dot products and pose arithmetic behind it, a few ulps of
// the magnitudes involved (S = |pA| + |pB − pA| + the cores' extents + the
// radii). |overlap| ≤ 64·u·S is touching: the overlap is taken as 0,
// so coplanar flat shapes and shapes in exact contact are "intersecting,
// depth 0" rather than separated by rounding noise — the same bound GJK
// uses for the same decision (numeric.h, kRoundingBound).

// Most dot products one query may take: 2^24, tens of milliseconds
// natively. Two 60-vertex hulls in general position (~170 edge directions
// each) need ~4·10^6; two of 100 vertices (~290 each) ~1.7·10^7, just
// above. Beyond, use GJK/EPA (support mappings, O(V) per iteration)
// instead.
constexpr std::int64_t kSatMaxProjections = std::int64_t{1} << 24;

// Most pairs of contact-set vertices whose in-plane direction is tested
// when the cores touch to rounding (satHulls, "Touching in a plane").
constexpr int kSatCornerPairs = 64;

// Most candidate axes a traced query may record (one frame each).
constexpr std::int64_t kSatMaxTracedAxes = 1 << 14;

enum class SatStatus {
  Ok,            // the axis set is complete for these shapes: the answer is exact (to rounding)
  RoundedBound,  // rounded shapes whose cores are apart: intersecting/depth for the axis set
                 // only (depth an upper bound, intersecting possibly a false positive)
  TooLarge,      // more than kSatMaxProjections (or, traced, kSatMaxTracedAxes): nothing tested
  NotPolytopal,  // a curved core (cylinder, cone, ellipsoid): no finite candidate set
  InvalidShape,  // validateShape() fails (satBoxes/satHulls: its pose and size rules), or
                 // satBoxes was given a non-box
};

inline const char* satStatusName(SatStatus s) {
  switch (s) {
    case SatStatus::Ok: return "ok";
    case SatStatus::RoundedBound: return "rounded-bound";
    case SatStatus::TooLarge: return "too-large";
    case SatStatus::NotPolytopal: return "not-polytopal";
    case SatStatus::InvalidShape: return "invalid-shape";
  }
  return "invalid-shape";
}

// Where a candidate axis comes from.
enum class SatAxisKind {
  FaceA,     // a face normal of A
  FaceB,     // a face normal of B
  EdgeEdge,  // edge of A × edge of B
  FlatSide,  // flat shapes: in-plane side normal n × e (n a polygon's or two segments' normal)
  Line,      // A − B a segment or a point: its direction, or the offset between the lines
};

inline const char* satAxisKindName(SatAxisKind k) {
  switch (k) {
    case SatAxisKind::FaceA: return "face-a";
    case SatAxisKind::FaceB: return "face-b";
    case SatAxisKind::EdgeEdge: return "edge-edge";
    case SatAxisKind::FlatSide: return "flat-side";
    case SatAxisKind::Line: return "line";
  }
  return "line";
}

struct SatSettings {
  // Stop at the first separating axis (Rasku §6.4: on average half of the
  // axes are tested for separated boxes). Off: test every axis and return
  // the one of largest gap (still only a lower bound of the distance).
  bool stopAtFirstSeparatingAxis = true;
};

// The "sat" query's result (README.md, scene format).
struct SatResult {
  bool intersecting = false;  // no candidate axis separates by more than rounding (touching,
                              // also within rounding, is intersecting with depth 0)
  Vec3 axis{0, 1, 0};         // unit, from A toward B. Intersecting: moving B by depth·axis
                              // separates them; separated: B lies depth beyond A along it
  double depth = 0;           // intersecting: overlap along axis (≥ 0, includes radii);
                              // separated: the gap along axis (> 0), a lower bound of the distance
  int axesTested = 0;         // candidate axes projected (skipped parallel pairs not counted)
  SatStatus status = SatStatus::Ok;
  int bestAxisIndex = -1;     // 0-based number of the deciding axis among those tested (= frame index)
  SatAxisKind bestKind = SatAxisKind::FaceA;
  // The signed overlap of the deciding axis: depth when intersecting, −gap when separated.
  double signedOverlap() const { return intersecting ? depth : -depth; }
};

// ---- trace -------------------------------------------------------------------

enum class SatEvent {
  Prepare,  // the candidate directions are ready (hulls built / box axes rotated)
  Axis,     // a candidate axis was projected
  Skip,     // an edge pair (or flat side) was skipped as parallel
  Done,     // the query returned
};

struct SatFrame {
  SatEvent event = SatEvent::Axis;
  int line = 0;       // pseudocode line (sat_lines)
  int index = -1;     // 0-based number among tested axes (Skip/Done: −1)
  SatAxisKind kind = SatAxisKind::FaceA;
  int featureA = -1;  // FaceA: A's face-axis class; EdgeEdge/FlatSide/Line: A's edge class (box: local axis 0–2)
  int featureB = -1;  // likewise for B
  Vec3 axis;          // unit, oriented from A toward B (the side of smaller overlap)
  std::vector<Vec3> face;  // FaceA/FaceB: world corners of the face shown (facing the other shape);
                           // FlatSide: the flat polygon (or segment) whose normal was used
  bool hasEdges = false;   // EdgeEdge/FlatSide/Line: edgeA/edgeB hold world endpoints (when that side has one)
  bool hasEdgeA = false, hasEdgeB = false;
  Vec3 edgeA[2], edgeB[2];  // the edges, the member of each parallel class most extreme toward the other shape
  double minA = 0, maxA = 0, minB = 0, maxB = 0;  // world projections on `axis`, full shapes (core ± radius)
  double overlap = 0;      // min(maxA − minB, maxB − minA) = maxA − minB here: > 0 overlap, < 0 gap;
                           // 0 when |maxA − minB| ≤ tolerance (touching within rounding)
  double tolerance = 0;    // that rounding bound (the query's), see satTouchingTolerance
  bool separates = false;  // overlap < 0
  int best = -1;           // best-so-far axis index after this frame (least overlap / largest gap)
  double bestOverlap = 0;  // its overlap
  Vec3 bestAxis;
  // Done only: the result.
  bool intersecting = false;
  double depth = 0;
  SatStatus status = SatStatus::Ok;
};

using SatRecorder = FrameRecorder<SatFrame>;

// Pseudocode line numbers (1-based) that frames name; the text of each line
// is the caller's (web/lib/captions.ts), numbered the same way.
namespace sat_lines {
constexpr int kPrepare = 1, kFaceAxesA = 2, kFaceAxesB = 3, kEdgeAxes = 4, kParallelSkip = 5, kFlatAxes = 6,
              kProject = 7, kSeparated = 8, kLeastOverlap = 9, kDone = 10;
constexpr int kCount = 10;  // lines of the pseudocode
}


// ---- a polytopal core, prepared --------------------------------------------

// A face of the hull: outward unit normal and its corners (CCW from outside)
// in the hull's local frame. A polygon hull has one face, both sides.
struct SatFace {
  Vec3 normal;
  std::vector<int> corners;
};

// Candidate directions up to sign, with the features they come from.
struct SatAxisClass {
  Vec3 direction;            // unit, local
  std::vector<int> members;  // face indices (face classes) or edge indices (edge classes)
};

// The core of a shape as SAT needs it, in the shape's local frame (pose is
// applied at query time, so a SatHull can be kept while the shape moves).
struct SatHull {
  HullKind kind = HullKind::Point;
  std::vector<Vec3> vertices;              // extreme points of the core
  std::vector<int> inputIndex;             // vertices[i] is localCoreVertices(s)[inputIndex[i]]
  std::vector<SatFace> faces;              // merged (convex polygon) faces
  std::vector<std::array<int, 2>> edges;   // hull edges (face boundaries), each once
  std::vector<SatAxisClass> faceAxes;      // face normals, parallel ones merged
  std::vector<SatAxisClass> edgeAxes;      // edge directions, parallel ones merged
  Vec3 planeNormal;                        // Polygon: unit normal; else zero
  double radius = 0;                       // core ⊕ ball(radius): sphere/capsule radius + margin
  double extent = 0;                       // largest |vertex| (rounding scale of its projections)
};

namespace detail {

// Adds direction d (unit) to the classes: into an existing class when
// parallel up to sign within kSatSameAxisSine, else as a new class.
inline void satAddToClass(std::vector<SatAxisClass>* classes, const Vec3& d, int member) {
  for (SatAxisClass& c : *classes) {
    if (maxAbs(cross(c.direction, d)) <= kSatSameAxisSine) {
      c.members.push_back(member);
      return;
    }
  }
  classes->push_back(SatAxisClass{d, {member}});
}

}  // namespace detail

// Builds the SAT hull of a shape's core: the convex hull of
// localCoreVertices (buildHull), its merged faces' normals and its edges.
// Returns Ok, NotPolytopal (cylinder, cone, ellipsoid) or InvalidShape
// (validateShape fails, or the hull cannot be built). Allocates
// (preprocessing).
inline SatStatus buildSatHull(const Shape& s, SatHull* out) {
  *out = SatHull{};
  ShapeError shapeError;
  if (!validateShape(s, &shapeError)) return SatStatus::InvalidShape;
  if (!hasPolytopalCore(s)) return SatStatus::NotPolytopal;
  const std::vector<Vec3> points = localCoreVertices(s);
  ConvexHull hull;
  HullError hullError;
  if (points.empty() || !buildHull(points, &hull, &hullError)) return SatStatus::InvalidShape;
  out->kind = hull.kind;
  out->vertices = hull.vertices;
  out->inputIndex = hull.inputIndex;
  out->radius = coreRadius(s);
  for (const Vec3& p : out->vertices) out->extent = std::fmax(out->extent, length(p));
  const auto& v = out->vertices;
  // Faces: the merged polygons. The normal is the sum of the fan
  // triangles' accurate normals (the polygon's area vector), which points
  // outward for a CCW polygon and stays accurate for thin triangles. It is
  // computed on the vertices scaled by a power of two near 1/extent (the
  // same direction, exactly): a core of size 1e-300 would otherwise have
  // cross products that underflow to zero and lose its faces (buildHull
  // itself handles any scale; the normals taken here must too).
  double big = 0;  // largest |coordinate| (length() would underflow for the tiny cores meant here)
  for (const Vec3& p : out->vertices) big = std::fmax(big, maxAbs(p));
  const int exponent = big > 0 ? -std::ilogb(big) : 0;  // ldexp, not a factor: 2^1074 is not a double
  auto unit = [&](int i) {
    const Vec3& p = v[static_cast<std::size_t>(i)];
    return Vec3{std::ldexp(p.x, exponent), std::ldexp(p.y, exponent), std::ldexp(p.z, exponent)};
  };
  if (hull.kind == HullKind::Polyhedron) {
    for (const auto& poly : hull.faces) {
      Vec3 n;
      for (std::size_t k = 1; k + 1 < poly.size(); ++k) n += detail::accurateNormal(unit(poly[0]), unit(poly[k]), unit(poly[k + 1]));
      if (!(maxAbs(n) > 0)) continue;  // no area: not a face (cannot happen for a merged hull face)
      out->faces.push_back(SatFace{normalizedOr(n, Vec3{0, 0, 1}), poly});
    }
  } else if (hull.kind == HullKind::Polygon) {
    out->planeNormal = normalizedOr(hull.normal, Vec3{0, 0, 1});
    std::vector<int> ring(v.size());
    for (std::size_t k = 0; k < ring.size(); ++k) ring[k] = static_cast<int>(k);
    if (!hull.faces.empty()) ring = hull.faces[0];
    out->faces.push_back(SatFace{out->planeNormal, ring});
  }
  // Edges: the boundaries of the merged faces (the hull's adjacency also
  // holds the diagonals that split a merged face into triangles; those are
  // not edges of the polytope). A segment has its one edge.
  auto addEdge = [&](int a, int b) {
    if (a == b) return;
    const std::array<int, 2> e = a < b ? std::array<int, 2>{a, b} : std::array<int, 2>{b, a};
    for (const auto& f : out->edges)
      if (f == e) return;
    out->edges.push_back(e);
  };
  for (const SatFace& f : out->faces) {
    const std::size_t m = f.corners.size();
    for (std::size_t k = 0; k < m && m >= 2; ++k) addEdge(f.corners[k], f.corners[(k + 1) % m]);
  }
  if (hull.kind == HullKind::Segment) addEdge(0, 1);
  for (std::size_t i = 0; i < out->faces.size(); ++i)
    detail::satAddToClass(&out->faceAxes, out->faces[i].normal, static_cast<int>(i));
  for (std::size_t i = 0; i < out->edges.size(); ++i) {
    const Vec3 d = v[static_cast<std::size_t>(out->edges[i][1])] - v[static_cast<std::size_t>(out->edges[i][0])];
    if (!(maxAbs(d) > 0)) continue;
    detail::satAddToClass(&out->edgeAxes, normalizedOr(d, Vec3{1, 0, 0}), static_cast<int>(i));
  }
  return SatStatus::Ok;
}

// ---- the shared axis test ------------------------------------------------------

namespace detail {

// Projection of a core onto a world axis, relative to its pose position:
// [lo, hi] with world projection = dot(L, position) + [lo, hi].
struct SatInterval {
  double lo = 0, hi = 0;
};

// (Plain comparisons, not fmin/fmax: the vertices are finite, and the loop
// is the whole cost of a polytope query.)
inline SatInterval satProjectHull(const SatHull& h, const Transform& pose, const Vec3& worldAxis) {
  const Vec3 l = pose.toLocalDirection(worldAxis);
  const Vec3* v = h.vertices.data();
  const std::size_t n = h.vertices.size();
  SatInterval out;
  out.lo = out.hi = dot(l, v[0]);
  for (std::size_t i = 1; i < n; ++i) {
    const double x = dot(l, v[i]);
    if (x < out.lo) out.lo = x;
    if (x > out.hi) out.hi = x;
  }
  return out;
}

// The unit axis along the cross product c of two unit vectors, or false
// when |c| = sin θ ≤ kSatParallelSine (parallel: skipped). |c|² ≥ 1e-20
// cannot underflow, so one square root and one division normalise it.
inline bool satCrossAxis(const Vec3& u, const Vec3& w, Vec3* axis) {
  const Vec3 c = cross(u, w);
  const double cc = dot(c, c);
  if (!(cc > kSatParallelSine * kSatParallelSine)) return false;
  *axis = c * (1.0 / std::sqrt(cc));
  return true;
}

// The running state of a query: best axis so far, counts.
struct SatState {
  int tested = 0;
  int best = -1;
  double bestOverlap = std::numeric_limits<double>::infinity();
  Vec3 bestAxis{0, 1, 0};
  SatAxisKind bestKind = SatAxisKind::FaceA;
  bool stop = false;  // a separating axis ended the search
};

// The touching tolerance of a query: 64·u·S with S bounding the inputs of
// every overlap computed — |pA| (A's position projected), |pB − pA|, the
// cores' extents and the radii. (Not the projections themselves: along
// the normal of two coplanar shapes through the origin they are all ~0,
// while their rounding errors are ~u·|vertex|.)
inline double satTouchingTolerance(const Vec3& pA, const Vec3& t, double extentA, double extentB, double r) {
  return kRoundingBound * (length(pA) + length(t) + extentA + extentB + r);
}

// One candidate: L unit (either sign), the cores' intervals relative to
// their positions, s = L·(pB − pA), r = r_A + r_B, `tolerance` from
// satTouchingTolerance. Orients L from A toward
// B (the side of smaller overlap; ties +L), updates the best (strictly
// smaller overlap: the first candidate wins ties, so face axes beat the
// edge axes that coincide with them), and records a frame whose features
// `describe(frame)` fills in (called only when tracing, after the axis is
// oriented). Returns true when the search should stop.
template <class Trace, class Describe>
inline bool satTestAxis(SatState* st, const Vec3& L, SatInterval ia, SatInterval ib, double s, const Vec3& posA,
                        double rA, double rB, double tolerance, SatAxisKind kind, int kindLine,
                        const SatSettings& settings, Trace& trace, Describe&& describe) {
  using namespace sat_lines;
  const double r = rA + rB;
  const double plus = ia.hi - (ib.lo + s) + r;   // maxA − minB along +L
  const double minus = (ib.hi + s) - ia.lo + r;  // maxB − minA along +L (= maxA − minB along −L)
  const bool flip = minus < plus;
  const double raw = flip ? minus : plus;
  const double overlap = std::fabs(raw) <= tolerance ? 0.0 : raw;  // touching within rounding
  const Vec3 axis = flip ? -L : L;
  const int index = st->tested++;
  const bool separates = overlap < 0;
  const bool better = overlap < st->bestOverlap;
  if (better) {
    st->best = index;
    st->bestOverlap = overlap;
    st->bestAxis = axis;
    st->bestKind = kind;
  }
  if (separates && settings.stopAtFirstSeparatingAxis) st->stop = true;
  if constexpr (Trace::enabled) {
    SatFrame f;
    f.event = SatEvent::Axis;
    f.line = separates ? kSeparated : (better ? kLeastOverlap : kindLine);
    f.index = index;
    f.kind = kind;
    f.axis = axis;
    const double cA = dot(L, posA);
    // Intervals along +L, then along the oriented axis.
    double minA = cA + ia.lo - rA, maxA = cA + ia.hi + rA;
    double minB = cA + s + ib.lo - rB, maxB = cA + s + ib.hi + rB;
    if (flip) {
      const double a0 = minA, b0 = minB;
      minA = -maxA, maxA = -a0;
      minB = -maxB, maxB = -b0;
    }
    f.minA = minA;
    f.maxA = maxA;
    f.minB = minB;
    f.maxB = maxB;
    f.overlap = overlap;
    f.tolerance = tolerance;
    f.separates = separates;
    f.best = st->best;
    f.bestOverlap = st->bestOverlap;
    f.bestAxis = st->bestAxis;
    describe(f);
    trace.record(std::move(f));
  }
  return st->stop;
}

// `describe(frame)` adds the skipped features (the two parallel edges) for
// the page; it runs only when tracing.
template <class Trace, class Describe>
inline void satRecordSkip(Trace& trace, SatAxisKind kind, int featureA, int featureB, const SatState& st,
                          Describe&& describe) {
  if constexpr (Trace::enabled) {
    SatFrame f;
    f.event = SatEvent::Skip;
    f.line = sat_lines::kParallelSkip;
    f.kind = kind;
    f.featureA = featureA;
    f.featureB = featureB;
    f.best = st.best;
    f.bestOverlap = st.best >= 0 ? st.bestOverlap : 0;
    f.bestAxis = st.bestAxis;
    describe(f);
    trace.record(std::move(f));
  } else {
    (void)trace, (void)kind, (void)featureA, (void)featureB, (void)st, (void)describe;
  }
}

template <class Trace>
inline void satRecordPrepare(Trace& trace) {
  if constexpr (Trace::enabled) {
    SatFrame f;
    f.event = SatEvent::Prepare;
    f.line = sat_lines::kPrepare;
    trace.record(std::move(f));
  } else {
    (void)trace;
  }
}

// The result from the final state. r = r_A + r_B.
template <class Trace>
inline SatResult satFinish(const SatState& st, double r, Trace& trace) {
  SatResult out;
  out.axesTested = st.tested;
  if (st.best < 0) {
    // No axis was tested (cannot happen for valid hulls; kept total).
    out.intersecting = true;
    out.depth = r;
  } else {
    out.intersecting = !(st.bestOverlap < 0);
    out.depth = std::fabs(st.bestOverlap);
    out.axis = st.bestAxis;
    out.bestAxisIndex = st.best;
    out.bestKind = st.bestKind;
  }
  // Intersecting with less overlap than the radii: the cores are apart
  // along the best axis, so the exact answer may lie along a direction that
  // is not a candidate (see the header comment).
  if (out.intersecting && r > 0 && out.depth < r) out.status = SatStatus::RoundedBound;
  if constexpr (Trace::enabled) {
    SatFrame f;
    f.event = SatEvent::Done;
    f.line = out.intersecting ? sat_lines::kDone : sat_lines::kSeparated;
    f.kind = out.bestKind;
    f.axis = out.axis;
    f.best = st.best;
    f.bestOverlap = st.best >= 0 ? st.bestOverlap : r;
    f.bestAxis = out.axis;
    f.overlap = f.bestOverlap;
    f.separates = !out.intersecting;
    f.intersecting = out.intersecting;
    f.depth = out.depth;
    f.status = out.status;
    trace.record(std::move(f));
  }
  return out;
}

template <class Trace>
inline SatResult satRefuse(SatStatus status, Trace& trace) {
  SatResult out;
  out.status = status;
  if constexpr (Trace::enabled) {
    SatFrame f;
    f.event = SatEvent::Done;
    f.line = sat_lines::kDone;
    f.status = status;
    trace.record(std::move(f));
  }
  return out;
}

// A unit vector perpendicular to unit e: e crossed with the coordinate
// axis it is least aligned with (|e × axis| ≥ √(2/3)).
inline Vec3 satPerpendicular(const Vec3& e) {
  const Vec3 ax = std::fabs(e.x) <= std::fabs(e.y) && std::fabs(e.x) <= std::fabs(e.z)
                      ? Vec3{1, 0, 0}
                      : (std::fabs(e.y) <= std::fabs(e.z) ? Vec3{0, 1, 0} : Vec3{0, 0, 1});
  return normalizedOr(cross(e, ax), Vec3{0, 1, 0});
}

// A usable pose: finite, within kMaxMagnitude, a unit quaternion to 1e-9
// (validateShape's rule, checked here without its error strings so that
// the query allocates nothing).
inline bool satPoseValid(const Transform& t) {
  const Quat& q = t.rotation;
  const double qq = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  return isFinite(t.position) && maxAbs(t.position) <= kMaxMagnitude && std::fabs(qq - 1) <= 1e-9;
}

// A box satBoxes can take: type Box without a scale (a scaled one goes
// through its hull), sizes finite, ≥ 0 and ≤ kMaxMagnitude, a valid pose.
inline bool satBoxValid(const Shape& s) {
  auto size = [](double v) { return v >= 0 && v <= kMaxMagnitude; };  // false for NaN
  return s.type == ShapeType::Box && isUnscaled(s) && size(s.halfExtents.x) && size(s.halfExtents.y) &&
         size(s.halfExtents.z) && size(s.margin) && satPoseValid(s.pose);
}

}  // namespace detail

// ---- box against box: the 15 axes ------------------------------------------------

// Two boxes (type Box, any pose, optional margin). Face axes a_i of A and
// b_j of B are the rotated local axes; the edge axes are a_i × b_j (each
// box's 12 edges have the directions of its 3 axes). A box's projection on
// unit L is its centre's ± Σ h_i |a_i·L| (closed form, exact up to
// rounding). Allocates nothing with NoTrace.
template <class Trace = NoTrace>
SatResult satBoxes(const Shape& a, const Shape& b, const SatSettings& settings, Trace& trace) {
  using namespace sat_lines;
  if (!detail::satBoxValid(a) || !detail::satBoxValid(b)) return detail::satRefuse(SatStatus::InvalidShape, trace);
  const Vec3 ha = a.halfExtents, hb = b.halfExtents;
  const double rA = coreRadius(a), rB = coreRadius(b);
  const Vec3 pA = a.pose.position, pB = b.pose.position;
  const Vec3 t = pB - pA;
  Vec3 ax[3], bx[3];
  for (int i = 0; i < 3; ++i) {
    Vec3 e;
    e[i] = 1;
    ax[i] = rotate(a.pose.rotation, e);
    bx[i] = rotate(b.pose.rotation, e);
  }
  // Half-axes h_i·a_i: a box's projection radius on unit L is Σ |L·h_i a_i|.
  const Vec3 ua[3] = {ax[0] * ha.x, ax[1] * ha.y, ax[2] * ha.z};
  const Vec3 ub[3] = {bx[0] * hb.x, bx[1] * hb.y, bx[2] * hb.z};
  auto radiusAlong = [](const Vec3* half, const Vec3& L) {
    return std::fabs(dot(half[0], L)) + std::fabs(dot(half[1], L)) + std::fabs(dot(half[2], L));
  };
  // Trace helpers: the face of a box facing along unit direction `out`
  // (its outward normal is ±axes[i]), and its edge parallel to axes[i] most
  // extreme along `toward`.
  auto faceCorners = [](const Vec3& p, const Vec3* axes, const Vec3& h, int i, const Vec3& out) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const Vec3 c = p + axes[i] * (dot(axes[i], out) >= 0 ? h[i] : -h[i]);
    const Vec3 u = axes[j] * h[j], w = axes[k] * h[k];
    return std::vector<Vec3>{c - u - w, c + u - w, c + u + w, c - u + w};
  };
  auto extremeEdge = [](const Vec3& p, const Vec3* axes, const Vec3& h, int i, const Vec3& toward, Vec3* e) {
    Vec3 c = p;
    for (int k = 0; k < 3; ++k)
      if (k != i) c += axes[k] * (dot(axes[k], toward) >= 0 ? h[k] : -h[k]);
    e[0] = c - axes[i] * h[i];
    e[1] = c + axes[i] * h[i];
  };

  detail::satRecordPrepare(trace);
  detail::SatState st;
  const double tolerance = detail::satTouchingTolerance(pA, t, length(ha), length(hb), rA + rB);
  auto test = [&](const Vec3& L, SatAxisKind kind, int line, int fa, int fb) {
    const double ra = radiusAlong(ua, L), rb = radiusAlong(ub, L);
    return detail::satTestAxis(&st, L, detail::SatInterval{-ra, ra}, detail::SatInterval{-rb, rb}, dot(L, t), pA,
                               rA, rB, tolerance, kind, line, settings, trace, [&](SatFrame& f) {
                                 f.featureA = fa;
                                 f.featureB = fb;
                                 if (kind == SatAxisKind::FaceA) f.face = faceCorners(pA, ax, ha, fa, f.axis);
                                 if (kind == SatAxisKind::FaceB) f.face = faceCorners(pB, bx, hb, fb, -f.axis);
                                 if (kind == SatAxisKind::EdgeEdge) {
                                   f.hasEdges = f.hasEdgeA = f.hasEdgeB = true;
                                   extremeEdge(pA, ax, ha, fa, f.axis, f.edgeA);
                                   extremeEdge(pB, bx, hb, fb, -f.axis, f.edgeB);
                                 }
                               });
  };
  bool stop = false;
  for (int i = 0; i < 3 && !stop; ++i) stop = test(ax[i], SatAxisKind::FaceA, kFaceAxesA, i, -1);
  for (int j = 0; j < 3 && !stop; ++j) stop = test(bx[j], SatAxisKind::FaceB, kFaceAxesB, -1, j);
  for (int i = 0; i < 3 && !stop; ++i) {
    for (int j = 0; j < 3 && !stop; ++j) {
      Vec3 L;
      if (!detail::satCrossAxis(ax[i], bx[j], &L)) {
        detail::satRecordSkip(trace, SatAxisKind::EdgeEdge, i, j, st, [&](SatFrame& f) {
          f.hasEdges = f.hasEdgeA = f.hasEdgeB = true;
          extremeEdge(pA, ax, ha, i, t, f.edgeA);
          extremeEdge(pB, bx, hb, j, -t, f.edgeB);
        });
        continue;
      }
      stop = test(L, SatAxisKind::EdgeEdge, kEdgeAxes, i, j);
    }
  }
  return detail::satFinish(st, rA + rB, trace);
}

inline SatResult satBoxes(const Shape& a, const Shape& b, const SatSettings& settings = {}) {
  NoTrace none;
  return satBoxes(a, b, settings, none);
}

// ---- polytopal cores ------------------------------------------------------------

// SAT of two prepared hulls under the given poses. Candidates, in this
// order: A's face axes, B's face axes, edge-direction pairs (A's class i ×
// B's class j, parallel pairs skipped), then the extra axes of flat
// configurations and, when the cores touch to rounding, of the touching
// plane (header comment). Allocates nothing with NoTrace.
template <class Trace = NoTrace>
SatResult satHulls(const SatHull& a, const Transform& poseA, const SatHull& b, const Transform& poseB,
                   const SatSettings& settings, Trace& trace) {
  using namespace sat_lines;
  if (!detail::satPoseValid(poseA) || !detail::satPoseValid(poseB) || a.vertices.empty() || b.vertices.empty())
    return detail::satRefuse(SatStatus::InvalidShape, trace);
  const std::int64_t fa = static_cast<std::int64_t>(a.faceAxes.size());
  const std::int64_t fb = static_cast<std::int64_t>(b.faceAxes.size());
  const std::int64_t ea = static_cast<std::int64_t>(a.edgeAxes.size());
  const std::int64_t eb = static_cast<std::int64_t>(b.edgeAxes.size());
  // Flat sides of both polygons, a touching plane's sides and corner pairs, lines.
  const std::int64_t extra = 3 * (ea + eb) + 4 + kSatCornerPairs;
  const std::int64_t axes = fa + fb + ea * eb + extra;
  const std::int64_t verts = static_cast<std::int64_t>(a.vertices.size() + b.vertices.size());
  if (axes * verts > kSatMaxProjections || (Trace::enabled && axes > kSatMaxTracedAxes))
    return detail::satRefuse(SatStatus::TooLarge, trace);

  const double rA = a.radius, rB = b.radius;
  const Vec3 pA = poseA.position;
  const Vec3 t = poseB.position - pA;
  auto world = [](const Transform& pose, const SatHull& h, int i) {
    return pose.apply(h.vertices[static_cast<std::size_t>(i)]);
  };
  // Trace helpers. The face of a class shown: the member facing along
  // `out` (A's toward B, B's toward A); a polygon's one face either way.
  auto faceOf = [&](const Transform& pose, const SatHull& h, int cls, const Vec3& out) {
    const SatAxisClass& c = h.faceAxes[static_cast<std::size_t>(cls)];
    int pick = c.members[0];
    for (int m : c.members)
      if (dot(pose.applyToDirection(h.faces[static_cast<std::size_t>(m)].normal), out) > 0) {
        pick = m;
        break;
      }
    std::vector<Vec3> corners;
    for (int v : h.faces[static_cast<std::size_t>(pick)].corners) corners.push_back(world(pose, h, v));
    return corners;
  };
  // The edge of a class most extreme along `toward` (by its midpoint).
  auto edgeOf = [&](const Transform& pose, const SatHull& h, int cls, const Vec3& toward, Vec3* e) {
    const SatAxisClass& c = h.edgeAxes[static_cast<std::size_t>(cls)];
    double bestValue = -std::numeric_limits<double>::infinity();
    for (int m : c.members) {
      const auto& ed = h.edges[static_cast<std::size_t>(m)];
      const Vec3 p0 = world(pose, h, ed[0]), p1 = world(pose, h, ed[1]);
      const double value = dot(toward, p0 + p1);
      if (value > bestValue) {
        bestValue = value;
        e[0] = p0;
        e[1] = p1;
      }
    }
  };

  detail::satRecordPrepare(trace);
  detail::SatState st;
  const double tolerance = detail::satTouchingTolerance(pA, t, a.extent, b.extent, rA + rB);
  auto test = [&](const Vec3& L, SatAxisKind kind, int line, int featA, int featB, bool edgeFromA, bool edgeFromB,
                  const SatHull* flat, const Transform* flatPose) {
    return detail::satTestAxis(
        &st, L, detail::satProjectHull(a, poseA, L), detail::satProjectHull(b, poseB, L), dot(L, t), pA, rA, rB,
        tolerance, kind, line, settings, trace, [&](SatFrame& f) {
          f.featureA = featA;
          f.featureB = featB;
          if (kind == SatAxisKind::FaceA) f.face = faceOf(poseA, a, featA, f.axis);
          if (kind == SatAxisKind::FaceB) f.face = faceOf(poseB, b, featB, -f.axis);
          if (flat != nullptr) {
            for (int v : flat->faces[0].corners) f.face.push_back(world(*flatPose, *flat, v));
          }
          if (edgeFromA && featA >= 0) {
            f.hasEdges = f.hasEdgeA = true;
            edgeOf(poseA, a, featA, f.axis, f.edgeA);
          }
          if (edgeFromB && featB >= 0) {
            f.hasEdges = f.hasEdgeB = true;
            edgeOf(poseB, b, featB, -f.axis, f.edgeB);
          }
        });
  };
  auto dirA = [&](const std::vector<SatAxisClass>& cls, std::size_t i) {
    return poseA.applyToDirection(cls[i].direction);
  };
  auto dirB = [&](const std::vector<SatAxisClass>& cls, std::size_t i) {
    return poseB.applyToDirection(cls[i].direction);
  };

  bool stop = false;
  for (std::size_t i = 0; i < a.faceAxes.size() && !stop; ++i)
    stop = test(dirA(a.faceAxes, i), SatAxisKind::FaceA, kFaceAxesA, static_cast<int>(i), -1, false, false, nullptr,
                nullptr);
  for (std::size_t j = 0; j < b.faceAxes.size() && !stop; ++j)
    stop = test(dirB(b.faceAxes, j), SatAxisKind::FaceB, kFaceAxesB, -1, static_cast<int>(j), false, false, nullptr,
                nullptr);
  for (std::size_t i = 0; i < a.edgeAxes.size() && !stop; ++i) {
    const Vec3 da = dirA(a.edgeAxes, i);
    for (std::size_t j = 0; j < b.edgeAxes.size() && !stop; ++j) {
      Vec3 L;
      if (!detail::satCrossAxis(da, dirB(b.edgeAxes, j), &L)) {
        detail::satRecordSkip(trace, SatAxisKind::EdgeEdge, static_cast<int>(i), static_cast<int>(j), st,
                              [&](SatFrame& f) {
                                f.hasEdges = f.hasEdgeA = f.hasEdgeB = true;
                                edgeOf(poseA, a, static_cast<int>(i), t, f.edgeA);
                                edgeOf(poseB, b, static_cast<int>(j), -t, f.edgeB);
                              });
        continue;
      }
      stop = test(L, SatAxisKind::EdgeEdge, kEdgeAxes, static_cast<int>(i), static_cast<int>(j), true, true, nullptr,
                  nullptr);
    }
  }

  // Flat configurations. In-plane side normals n × e of each polygon hull,
  // for the edges of both shapes.
  auto flatSides = [&](const SatHull& flat, const Transform& flatPose) {
    const Vec3 n = flatPose.applyToDirection(flat.planeNormal);
    for (std::size_t i = 0; i < a.edgeAxes.size() && !stop; ++i) {
      Vec3 L;
      if (!detail::satCrossAxis(n, dirA(a.edgeAxes, i), &L)) {
        detail::satRecordSkip(trace, SatAxisKind::FlatSide, static_cast<int>(i), -1, st, [](SatFrame&) {});
        continue;
      }
      stop = test(L, SatAxisKind::FlatSide, kFlatAxes, static_cast<int>(i), -1, true, false, &flat, &flatPose);
    }
    for (std::size_t j = 0; j < b.edgeAxes.size() && !stop; ++j) {
      Vec3 L;
      if (!detail::satCrossAxis(n, dirB(b.edgeAxes, j), &L)) {
        detail::satRecordSkip(trace, SatAxisKind::FlatSide, -1, static_cast<int>(j), st, [](SatFrame&) {});
        continue;
      }
      stop = test(L, SatAxisKind::FlatSide, kFlatAxes, -1, static_cast<int>(j), false, true, &flat, &flatPose);
    }
  };
  if (!stop && a.kind == HullKind::Polygon) flatSides(a, poseA);
  if (!stop && b.kind == HullKind::Polygon) flatSides(b, poseB);

  // Both at most one-dimensional (points and segments).
  const bool lowA = a.kind == HullKind::Point || a.kind == HullKind::Segment;
  const bool lowB = b.kind == HullKind::Point || b.kind == HullKind::Segment;
  if (!stop && lowA && lowB) {
    const bool segA = a.kind == HullKind::Segment && !a.edgeAxes.empty();
    const bool segB = b.kind == HullKind::Segment && !b.edgeAxes.empty();
    const Vec3 da = segA ? dirA(a.edgeAxes, 0) : Vec3{};
    const Vec3 db = segB ? dirB(b.edgeAxes, 0) : Vec3{};
    const Vec3 nC = cross(da, db);
    if (segA && segB && length(nC) > kSatParallelSine) {
      // A − B is a parallelogram in the plane ⟂ n: its sides' in-plane normals.
      const Vec3 n = normalizedOr(nC, Vec3{0, 1, 0});
      stop = test(normalizedOr(cross(n, da), Vec3{0, 1, 0}), SatAxisKind::FlatSide, kFlatAxes, 0, -1, true, false,
                  nullptr, nullptr);
      if (!stop)
        stop = test(normalizedOr(cross(n, db), Vec3{0, 1, 0}), SatAxisKind::FlatSide, kFlatAxes, -1, 0, false, true,
                    nullptr, nullptr);
    } else {
      // A − B lies on a line (direction l) or is a point: test l and the
      // offset w⊥ of B's line from A's (w = b₀ − a₀ without its l part).
      const Vec3 w = world(poseB, b, 0) - world(poseA, a, 0);
      const bool hasLine = segA || segB;
      const Vec3 l = segA ? da : db;
      if (hasLine)
        stop = test(l, SatAxisKind::Line, kFlatAxes, segA ? 0 : -1, segB ? 0 : -1, segA, segB, nullptr, nullptr);
      // When the lines coincide (w⊥ = 0), any perpendicular shows the zero
      // thickness of A − B: depth 0 (touching) unless l separates.
      // w⊥ = l × (w × l): perpendicular to l to rounding even when w lies
      // along l (subtracting w's l part instead would leave a residual
      // along l there, which normalizes to l itself: a point on a segment's
      // line would get the segment's overlap along l as its depth, not 0).
      const Vec3 off = hasLine ? cross(l, cross(w, l)) : w;
      const Vec3 side = maxAbs(off) > 0 ? normalizedOr(off, Vec3{0, 1, 0})
                                        : (hasLine ? detail::satPerpendicular(l) : Vec3{0, 1, 0});
      if (!stop)
        stop = test(side, SatAxisKind::Line, kFlatAxes, segA ? 0 : -1, segB ? 0 : -1, segA, segB, nullptr, nullptr);
    }
  }

  // Cores touching to rounding along the best axis n: the contact is flat,
  // so in-plane side normals n × e (every edge class of A and B) may
  // separate where the facet normals of A − B only show a gap below
  // rounding (header comment, "Touching in a plane").
  if (!stop && st.best >= 0 && std::fabs(st.bestOverlap - (rA + rB)) <= tolerance) {
    const Vec3 n = st.bestAxis;
    for (std::size_t i = 0; i < a.edgeAxes.size() && !stop; ++i) {
      Vec3 L;
      if (detail::satCrossAxis(n, dirA(a.edgeAxes, i), &L))
        stop = test(L, SatAxisKind::FlatSide, kFlatAxes, static_cast<int>(i), -1, true, false, nullptr, nullptr);
    }
    for (std::size_t j = 0; j < b.edgeAxes.size() && !stop; ++j) {
      Vec3 L;
      if (detail::satCrossAxis(n, dirB(b.edgeAxes, j), &L))
        stop = test(L, SatAxisKind::FlatSide, kFlatAxes, -1, static_cast<int>(j), false, true, nullptr, nullptr);
    }
    // The side normals separate the contact sets in exact arithmetic, but
    // at a sharp corner only by distance × its angle: a point 8.7e-8
    // beyond the corner of a triangle 8 long and 6e-7 wide is 1e-14 outside
    // its sides, below rounding. The direction in that plane from a vertex
    // of A's contact set (its vertices within rounding of A's extreme along
    // n) to one of B's shows the gap at a corner: kSatCornerPairs pairs at
    // most (every pair of two such sets when they are that small).
    const detail::SatInterval onA = detail::satProjectHull(a, poseA, n), onB = detail::satProjectHull(b, poseB, n);
    const Vec3 nA = poseA.toLocalDirection(n), nB = poseB.toLocalDirection(n);
    int pairs = 0;
    for (std::size_t i = 0; i < a.vertices.size() && !stop && pairs < kSatCornerPairs; ++i) {
      if (dot(nA, a.vertices[i]) < onA.hi - tolerance) continue;
      const Vec3 va = poseA.applyToDirection(a.vertices[i]);
      for (std::size_t j = 0; j < b.vertices.size() && !stop && pairs < kSatCornerPairs; ++j) {
        if (dot(nB, b.vertices[j]) > onB.lo + tolerance) continue;
        const Vec3 w = poseB.applyToDirection(b.vertices[j]) + t - va;
        const Vec3 inPlane = w - n * dot(w, n);
        ++pairs;
        if (maxAbs(inPlane) > 0)
          stop = test(normalizedOr(inPlane, Vec3{0, 1, 0}), SatAxisKind::FlatSide, kFlatAxes, -1, -1, false, false,
                      nullptr, nullptr);
      }
    }
  }
  return detail::satFinish(st, rA + rB, trace);
}

inline SatResult satHulls(const SatHull& a, const Transform& poseA, const SatHull& b, const Transform& poseB,
                          const SatSettings& settings = {}) {
  NoTrace none;
  return satHulls(a, poseA, b, poseB, settings, none);
}

// ---- any two shapes ----------------------------------------------------------------

// Two boxes: satBoxes (no allocation). Otherwise both cores must be
// polytopal (point, sphere, box, capsule, segment, triangle, polytope):
// their SatHulls are built (allocates) and satHulls runs.
template <class Trace = NoTrace>
SatResult sat(const Shape& a, const Shape& b, const SatSettings& settings, Trace& trace) {
  if (a.type == ShapeType::Box && b.type == ShapeType::Box && isUnscaled(a) && isUnscaled(b))
    return satBoxes(a, b, settings, trace);
  SatHull ha, hb;
  SatStatus sa = buildSatHull(a, &ha);
  SatStatus sb = buildSatHull(b, &hb);
  if (sa == SatStatus::InvalidShape || sb == SatStatus::InvalidShape)
    return detail::satRefuse(SatStatus::InvalidShape, trace);
  if (sa != SatStatus::Ok || sb != SatStatus::Ok) return detail::satRefuse(sa != SatStatus::Ok ? sa : sb, trace);
  return satHulls(ha, a.pose, hb, b.pose, settings, trace);
}

inline SatResult sat(const Shape& a, const Shape& b, const SatSettings& settings = {}) {
  NoTrace none;
  return sat(a, b, settings, none);
}

}  // namespace collidoscope
