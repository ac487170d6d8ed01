// collidoscope — 3D convex hulls: one builder, exact where it decides and
// tolerant where it reports, with typed results for degenerate inputs and a
// trace of every step for the page.
//
// References: C. B. Barber, D. P. Dobkin, H. Huhdanpaa, "The Quickhull
// algorithm for convex hulls", ACM TOMS 22(4), 1996 (quickhull, and the
// merging of nearly coplanar facets, sec. 4); J. R. Shewchuk, "Adaptive
// Precision Floating-Point Arithmetic and Fast Robust Geometric
// Predicates", Discrete & Computational Geometry 18, 1997 (the orientation
// test, predicates.h); M. Huotari, "Törmäyksen tunnistus 3D-ympäristössä",
// bachelor's thesis, Mikkeli University of Applied Sciences, 2011, ch. 4
// (visible faces, horizon, new faces).
//
// The build (hull.cpp), on coordinates rounded to multiples of 2^-250 of
// the largest (far inside τ; the exact predicates then never underflow):
//   1. Dimension at the tolerance τ: the two most distant of the six
//      axis-extreme points, the point farthest from their line, the point
//      farthest from that plane. A step that finds no distance above τ ends
//      the build with a Point, a Segment or a Polygon (Andrew's monotone
//      chain in the plane, corners within τ of their neighbours' chord
//      dropped).
//   2. Quickhull with exact visibility: a point is above a face when the
//      orientation determinant of the face's corners and the point is
//      positive, evaluated exactly. Its surface is the exact convex hull of
//      the input, triangulated (exactly coplanar neighbours allowed).
//   3. Vertices at the tolerance: a vertex within τ of the hull of its
//      neighbours is dropped, when every point dropped before it stays
//      within its budget of the hull of the vertices kept; then the exact
//      hull of the kept vertices is built again. Vertices within τ of each
//      other's neighbourhoods go smallest gap first; a drop that would
//      leave the kept vertices exactly coplanar is held back (so at least
//      four stay) while the round goes on. A vertex within τ of a neighbour goes even when a point
//      leaning on it ends up to 2τ from the result (faces then keep that
//      point within 2τ of their planes). Every input point ends within that budget of the result,
//      and no kept vertex lies within τ of the hull of its neighbours.
//   4. Faces at the tolerance: adjacent faces facing the same side whose
//      corners lie within τ/2 of each other's plane are merged, most
//      coplanar first, into convex polygons (the union must stay within
//      3τ/4 of its plane, turn left at every corner and meet each neighbour
//      in one edge). A merge that would leave a corner with only two faces
//      around it takes the third face in, or, when that is not flat, the
//      corner is dropped if it lies within 2τ of the hull of its neighbours
//      or within 2τ of every face plane of the hull without it (a corner in
//      the thin wedge between two faces at a tiny angle; merged faces then
//      keep it within 2τ of their planes). Step 3 runs again, at most 16
//      times. When a pair that must merge cannot, or a vertex within τ
//      cannot go without leaving a flat set, the hull's width across its
//      faces is measured: thinner than τ, it is that polygon (step 1's flat
//      case).
// Each step keeps its promises by construction; nothing is validated and
// rebuilt afterwards.
//
// Tolerance:
//   τ = relativeTolerance · (extent sum) + 32·u·(largest |coordinate|),
// where the extent sum is Σ over axes of the half-extent of the bounding
// box. The first term makes near-coplanar points (integer grids, meshes)
// coplanar; the second covers the rounding of plane distances, which is
// relative to the raw coordinates.
//
// Construction allocates (it is preprocessing, not a query); every loop is
// bounded (each quickhull iteration adds a vertex, each drop round removes
// one, each merge joins two faces).
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

using HullRecorder = FrameRecorder<HullFrame>;

namespace hull_lines {
constexpr int kExtremes = 1, kDegenerate = 2, kTetra = 3, kAssign = 4, kLoop = 5, kEye = 6, kVisible = 7,
              kHorizon = 8, kCone = 9, kReassign = 10, kDone = 11;
}

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

}  // namespace detail


// Builds the hull of `points`. False (with *err naming the problem) for an
// empty cloud, a non-finite point, or a trace of more than
// kHullMaxTracedPoints points; every finite cloud is answered.
bool buildHull(const std::vector<Vec3>& points, const HullSettings& settings, ConvexHull* out, HullError* err,
               HullRecorder* trace);

inline bool buildHull(const std::vector<Vec3>& points, const HullSettings& settings, ConvexHull* out, HullError* err,
                      HullRecorder& trace) {
  return buildHull(points, settings, out, err, &trace);
}
inline bool buildHull(const std::vector<Vec3>& points, const HullSettings& settings, ConvexHull* out, HullError* err,
                      NoTrace&) {
  return buildHull(points, settings, out, err, nullptr);
}
inline bool buildHull(const std::vector<Vec3>& points, ConvexHull* out, HullError* err) {
  return buildHull(points, HullSettings{}, out, err, nullptr);
}

}  // namespace collidoscope
