// collidoscope — the Expanding Polytope Algorithm: penetration depth,
// normal and contact points of two overlapping convex shapes.
//
// References: G. van den Bergen, "Proximity queries and penetration depth
// computation on 3D game objects", GDC 2001; the 2D and 3D EPA as presented
// in the article "Advanced Collision Detection" (sites.google.com/site/
// doc4code, 2011, EPA chapter) and in a Croatian thesis on rigid-body
// dynamics (ch. 6).
//
// Let C = core(A) − core(B). When the cores overlap, the origin lies in C,
// and the penetration depth of the cores is the distance from the origin to
// the boundary of C; the boundary point p nearest the origin gives the
// normal n = p/|p| (the direction to move B) and, through the weights of
// the face holding p, the contact points on A and B. EPA grows a polytope
// P ⊆ C that contains the origin:
//
//   1. P starts as GJK's final simplex, grown to a tetrahedron (seeds
//      with 1–3 points get support points in perpendicular directions).
//   2. Take the face f of P nearest the origin (normal n, distance d) and
//      the support point w = s_C(n). If n·w − d is within tolerance, f lies
//      on the boundary of C: done, depth = d.
//   3. Otherwise remove every face w can see, and join w to each edge of the
//      horizon (edges between a removed and a kept face).
//
// d never decreases and n·w bounds the depth from above, so n·w − d is a
// certified error bound, tested exactly like GJK's: n·w − d ≤ max(ε_rel·d,
// ε_abs·S). Rounded shapes run on the cores and add their radii, so a
// sphere's depth is exact.
//
// Touching contact — where other libraries return a NaN normal or a depth
// from rounding noise — is handled explicitly: when GJK's simplex cannot be
// grown to a tetrahedron (C is flat, a segment or a point) the shapes touch
// with depth 0 and the normal of the flat difference; when the nearest face
// has distance ~0 and nothing of C lies beyond it, the status is Touching
// with that face's normal. The normal is always a unit vector.
//
// Departures from the textbook: the visible faces are found by a flood fill
// from the nearest face that skips faces w is coplanar with to rounding (so
// flat caps and box faces do not split the region), and the horizon is
// checked to be a single loop (else status Degenerate, keeping the last
// valid polytope); and a polytope that fills up before its nearest face
// is within tolerance (round cores with a circle of nearly deepest
// directions) has its best normals refined on the support function itself
// (refineNormal, below), certified against the nearest face when the two
// meet. Storage is fixed: at most
// kEpaMaxVertices vertices (faces ≤ 2V − 4), so nothing allocates.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "collidoscope/gjk.h"
#include "collidoscope/math.h"
#include "collidoscope/simplex.h"
#include "collidoscope/support.h"
#include "collidoscope/trace.h"

namespace collidoscope {

// Polytope capacity. Polytopal shapes need a few dozen vertices. Curved
// ones need more where the depth is nearly the same in many directions (a
// point near the centre of a near-spherical ellipsoid, or near a
// cylinder's axis): there EPA must refine a whole region to certify 1e-10.
// 512 vertices leave only rare curved pairs at the cap, for ~170 KB of
// stack; such a pair's normal is then refined (refineNormal), and it ends
// with status MaxIterations unless the refined depth and the nearest face
// meet within the tolerance.
constexpr int kEpaMaxVertices = 512;
constexpr int kEpaMaxFaces = 2 * kEpaMaxVertices;  // a closed triangulated polytope has 2V − 4 faces

enum class EpaStatus {
  Converged,      // the depth is certified within tolerance
  Touching,       // the shapes overlap by at most rounding: depth 0, normal valid
  MaxIterations,  // iteration cap or polytope capacity reached: best estimate
  Degenerate,     // rounding broke the polytope: best estimate
};

const char* epaStatusName(EpaStatus s);

// EPA's settings (numeric.h): the cap is what the polytope holds (each
// iteration adds one vertex); the tolerances bound the depth's error as
// GjkSettings bound a distance's, by ε_rel·depth or ε_abs·S.
struct EpaSettings : IterativeSettings {
  EpaSettings() { maxIterations = kEpaMaxVertices - 6; }
};

struct PenetrationResult {
  bool intersecting = false;  // true also when touching
  double depth = 0;           // minimum translation distance; 0 when apart or touching
  Vec3 normal{0, 1, 0};       // unit: move B by depth·normal to separate it from A
  Vec3 pointA;                // on A (deepest point of A inside B)
  Vec3 pointB;                // on B; pointA − pointB = depth·normal
  int iterations = 0;         // EPA iterations (0 when GJK alone decided)
  EpaStatus status = EpaStatus::Converged;
};

// A tiny scene's scaled run in the caller's units (tiny_scene.h): lengths
// times g, normals unchanged.
inline void scaleLengths(PenetrationResult* r, double g) {
  r->depth *= g;
  r->pointA = r->pointA * g;
  r->pointB = r->pointB * g;
}

// ---- trace ---------------------------------------------------------------

enum class EpaEvent { Seed, Closest, Support, Expand, Done };

enum class EpaReason {
  None,
  Apart,              // GJK: the cores are apart (depth from the radii, or 0)
  Tetrahedron,        // seed grown into a tetrahedron around the origin
  Flat,               // A − B is flat (or a segment or a point): touching
  NearestFace,        // the face nearest the origin
  Progress,           // gap above tolerance: expand
  GapWithinTolerance, // converged
  DuplicateSupport,   // w is already a vertex: rounding limit
  Capacity,           // no room for another vertex
  BrokenHorizon,      // rounding made the visible region non-simple
  IterationCap,
  Polygon,            // 2D (epa2d.h): seed polygon around the origin
  Refined,            // the polytope filled up; the normal was refined on the support function
};

const char* epaReasonName(EpaReason r);

struct EpaFace {
  int v[3] = {0, 0, 0};  // vertex indices, counter-clockwise seen from outside
  Vec3 normal;           // unit, outward
  double distance = 0;   // normal·vertex: distance of the plane from the origin
  int id = 0;            // creation number (stable name for traces)
  bool alive = false;
};

struct EpaFrame {
  EpaEvent event = EpaEvent::Seed;
  EpaReason reason = EpaReason::None;
  int line = 0;
  int iteration = 0;
  std::vector<SimplexVertex> vertices;
  std::vector<EpaFace> faces;  // alive faces after this step
  int closest = -1;            // face id
  bool hasSupport = false;
  SimplexVertex support;
  std::vector<EpaFace> removed;
  std::vector<std::pair<int, int>> horizon;
  std::vector<int> added;  // face ids
  double depth = 0;        // core depth estimate
  Vec3 normal;
  bool hasGap = false;
  double gap = 0;
  double tolerance = 0;
};

inline void scaleLengths(EpaFrame* f, double g) {
  for (SimplexVertex& v : f->vertices) scaleLengths(&v, g);
  for (EpaFace& x : f->faces) x.distance *= g;
  for (EpaFace& x : f->removed) x.distance *= g;
  scaleLengths(&f->support, g);
  f->depth *= g;
  f->gap *= g;
  f->tolerance *= g;
}

using EpaRecorder = FrameRecorder<EpaFrame>;

// Pseudocode line numbers (1-based) that frames name; the text of each line
// is the caller's (web/lib/captions.ts), numbered the same way.
namespace epa_lines {
constexpr int kGjk = 1, kSeed = 2, kLoop = 3, kClosest = 4, kSupport = 5, kConverged = 6, kRemove = 7,
              kStitch = 8, kRefine = 9, kResult = 10;
constexpr int kCount = 10;  // lines of the pseudocode
}


// ---- the polytope ----------------------------------------------------------

namespace detail {

// Room for N objects of T, left unwritten until used. EPA's fixed polytope
// (512 vertices, ~1000 faces and as many scratch faces) would otherwise be
// zeroed on every query by Vec3's member defaults: ~170 KB of memset, a
// large share of a box–box penetration's time. Every read
// is bounded by a count of written slots (vertexCount, faceSlots,
// removedCount), so nothing unwritten is ever read.
template <class T, int N>
struct Uninitialized {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  union {
    T data[N];
  };
  Uninitialized() {}  // NOLINT: deliberately leaves data unwritten
  T& operator[](int i) { return data[i]; }
  const T& operator[](int i) const { return data[i]; }
};

struct EpaPolytope {
  Uninitialized<SimplexVertex, kEpaMaxVertices> vertex;
  int vertexCount = 0;
  Uninitialized<EpaFace, kEpaMaxFaces> face;
  int faceSlots = 0;  // slots ever used; dead slots are reused
  int nextId = 0;

  // Adds a face (a, b, c), counter-clockwise from outside. Returns its slot,
  // or −1 when there is no room or the triangle has no normal.
  int addFace(int a, int b, int c) {
    int slot = -1;
    for (int i = 0; i < faceSlots; ++i)
      if (!face[i].alive) {
        slot = i;
        break;
      }
    // The normal first: a slot is only claimed for a face that gets written.
    const Vec3& p = vertex[a].w;
    const Vec3 n = cross(vertex[b].w - p, vertex[c].w - p);
    if (!(maxAbs(n) > 0)) return -1;
    if (slot < 0) {
      if (faceSlots == kEpaMaxFaces) return -1;
      slot = faceSlots++;
    }
    EpaFace& f = face[slot];
    f.v[0] = a;
    f.v[1] = b;
    f.v[2] = c;
    f.normal = normalizedOr(n, Vec3{0, 1, 0});
    f.distance = dot(f.normal, p);
    f.id = nextId++;
    f.alive = true;
    return slot;
  }

  int nearestFace() const {
    int best = -1;
    for (int i = 0; i < faceSlots; ++i)
      if (face[i].alive && (best < 0 || face[i].distance < face[best].distance)) best = i;
    return best;
  }

  // The alive face holding the directed edge (a, b), or −1.
  int neighbour(int a, int b) const {
    for (int i = 0; i < faceSlots; ++i) {
      const EpaFace& f = face[i];
      if (!f.alive) continue;
      for (int k = 0; k < 3; ++k)
        if (f.v[k] == a && f.v[(k + 1) % 3] == b) return i;
    }
    return -1;
  }

  bool hasVertex(const Vec3& w) const {
    for (int i = 0; i < vertexCount; ++i)
      if (vertex[i].w == w) return true;
    return false;
  }
};

// A frame showing the polytope: its vertices and live faces and, when
// nearestSlot ≥ 0, that face as the current depth estimate. The caller
// fills in the step (event, reason, line, iteration) and what it computed.
inline EpaFrame polytopeFrame(const EpaPolytope& poly, int nearestSlot) {
  EpaFrame f;
  f.vertices.assign(poly.vertex.data, poly.vertex.data + poly.vertexCount);
  for (int i = 0; i < poly.faceSlots; ++i)
    if (poly.face[i].alive) f.faces.push_back(poly.face[i]);
  if (nearestSlot >= 0) {
    const EpaFace& c = poly.face[nearestSlot];
    f.closest = c.id;
    f.depth = c.distance;
    f.normal = c.normal;
  }
  return f;
}

// Unit vector perpendicular to e (e non-zero).
inline Vec3 perpendicular(const Vec3& e) {
  const Vec3 ax = std::fabs(e.x) <= std::fabs(e.y) && std::fabs(e.x) <= std::fabs(e.z)
                      ? Vec3{1, 0, 0}
                      : (std::fabs(e.y) <= std::fabs(e.z) ? Vec3{0, 1, 0} : Vec3{0, 0, 1});
  return normalizedOr(cross(e, ax), Vec3{0, 1, 0});
}

// (y1 − y0) × (y2 − y0), computed at the corner opposite the longest edge
// (the same vector in exact arithmetic; its rounding is ~u times the
// product of the two edges used).
inline Vec3 accurateTriangleNormal(const Vec3& y0, const Vec3& y1, const Vec3& y2) {
  const double l01 = lengthSquared(y1 - y0), l12 = lengthSquared(y2 - y1), l20 = lengthSquared(y0 - y2);
  if (l12 >= l01 && l12 >= l20) return cross(y1 - y0, y2 - y0);  // longest edge opposite y0
  if (l20 >= l01) return cross(y2 - y1, y0 - y1);                  // opposite y1
  return cross(y0 - y2, y1 - y2);                                  // opposite y2
}

// Grows a 1–4 point seed into a tetrahedron of positive volume, by support
// points perpendicular to what is there. Returns false when A − B has no
// extent in some direction (flat, a segment or a point): then *flatNormal is
// a unit normal of the flat set (oriented from A towards B when possible).
template <class SA, class SB>
bool growToTetrahedron(const SA& a, const SB& b, const Simplex& seed, double& tiny, EpaPolytope* poly,
                       Vec3* flatNormal) {
  // `tiny` is rounding noise of the support points seen so far; a GJK that
  // stopped at its first support point (the origin itself, a vertex of
  // C) has seen none larger than 0, so the points gathered here raise it:
  // otherwise, on a flat triangle 1e6 across through the origin, a bound of
  // a subnormal would take rounding for height and the normal would fall
  // back to a default, possibly in the triangle's plane.
  auto raise = [&tiny](const SimplexVertex& s) {
    tiny = std::fmax(tiny, kRoundingBound * magnitudeOf(s));
  };
  SimplexVertex pts[4];
  int n = 0;
  for (int i = 0; i < seed.size; ++i) {
    raise(seed.vertex[i]);
    bool dup = false;
    for (int j = 0; j < n; ++j) dup = dup || pts[j].w == seed.vertex[i].w;
    if (!dup) pts[n++] = seed.vertex[i];
  }
  const Vec3 towardsB = normalizedOr(b.center() - a.center(), Vec3{0, 1, 0});
  *flatNormal = towardsB;
  if (n == 0) {
    pts[n++] = minkowskiSupport(a, b, towardsB);
    raise(pts[0]);
  }
  if (n == 1) {
    // Any second point: the six axis directions.
    const Vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (const Vec3& d : axes) {
      const SimplexVertex s = minkowskiSupport(a, b, d);
      raise(s);
      if (length(s.w - pts[0].w) > tiny) {
        pts[n++] = s;
        break;
      }
    }
    if (n == 1) return false;  // A − B is a single point
  }
  if (n == 2) {
    // Off the line: one of ±p, ±q (p, q ⟂ e) finds C's extent if it has any.
    const Vec3 e = pts[1].w - pts[0].w;
    const Vec3 p = perpendicular(e);
    const Vec3 q = normalizedOr(cross(e, p), Vec3{0, 0, 1});
    const Vec3 dirs[4] = {p, -p, q, -q};
    double best = tiny;
    SimplexVertex pick;
    for (const Vec3& d : dirs) {
      const SimplexVertex s = minkowskiSupport(a, b, d);
      raise(s);
      const double off = length(cross(e, s.w - pts[0].w)) / length(e);
      if (off > best) {
        best = off;
        pick = s;
      }
    }
    if (!(best > tiny)) {
      // The part of towardsB across the segment, as ê × (towardsB × ê):
      // perpendicular to e to rounding however small it is. (Subtracting
      // the projection instead would leave, for towardsB along e, a
      // rounding residual along e, which normalizes to a normal along the
      // segment: a point at a capsule's centre would get depth r with the
      // axis as normal.)
      const Vec3 axis = e / length(e);
      *flatNormal = normalizedOr(cross(axis, cross(towardsB, axis)), p);
      return false;  // a segment
    }
    pts[n++] = pick;
  }
  if (n == 3) {
    // The normal from the two shorter edges (their cross product's rounding
    // is relative to them: simplex.h solveTriangle), and heights that
    // count only for a new point. On a needle triangle (two points 2 apart,
    // 1.7e6 from the third) a normal from the long edges can be tilted by
    // ~1e-10 rad, which makes ~1e-4 of height out of the third point
    // itself: it would come back as the fourth, give the tetrahedron a
    // degenerate face, and the normal would fall back to a wrong default.
    const Vec3 nrm = normalizedOr(accurateTriangleNormal(pts[0].w, pts[1].w, pts[2].w), Vec3{0, 1, 0});
    const SimplexVertex up = minkowskiSupport(a, b, nrm);
    const SimplexVertex down = minkowskiSupport(a, b, -nrm);
    raise(up);
    raise(down);
    auto isNew = [&](const SimplexVertex& s) {
      return !(s.w == pts[0].w) && !(s.w == pts[1].w) && !(s.w == pts[2].w);
    };
    const double hUp = isNew(up) ? dot(nrm, up.w - pts[0].w) : 0.0;
    const double hDown = isNew(down) ? -dot(nrm, down.w - pts[0].w) : 0.0;
    if (!(hUp > tiny) && !(hDown > tiny)) {
      *flatNormal = dot(nrm, towardsB) >= 0 ? nrm : -nrm;
      return false;  // flat
    }
    // Prefer the side the origin is on, so it ends up inside; else the taller.
    const double originSide = -dot(nrm, pts[0].w);
    const bool useUp = originSide > tiny ? hUp > tiny : (originSide < -tiny ? !(hDown > tiny) : hUp >= hDown);
    pts[n++] = useUp ? up : down;
  }
  for (int i = 0; i < 4; ++i) poly->vertex[i] = pts[i];
  poly->vertexCount = 4;
  // Orient the four faces outwards: if vertex 3 is above face (0,1,2), flip.
  const Vec3 nrm = accurateTriangleNormal(pts[0].w, pts[1].w, pts[2].w);
  const double side = dot(nrm, pts[3].w - pts[0].w);
  if (!(std::fabs(side) > tiny * length(nrm))) {
    *flatNormal = normalizedOr(nrm, towardsB);
    if (dot(*flatNormal, towardsB) < 0) *flatNormal = -*flatNormal;
    return false;
  }
  // Should a face still come out degenerate, the set counts as flat with
  // this normal, not the default towardsB.
  *flatNormal = normalizedOr(nrm, towardsB);
  if (dot(*flatNormal, towardsB) < 0) *flatNormal = -*flatNormal;
  const bool flip = side > 0;
  const int faces[4][3] = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
  for (const auto& f : faces) {
    if (flip) {
      if (poly->addFace(f[0], f[2], f[1]) < 0) return false;
    } else if (poly->addFace(f[0], f[1], f[2]) < 0) {
      return false;
    }
  }
  return true;
}


// A tiny scene (tiny_scene.h): EPA's cross products and lengths underflow,
// so the penetration runs (`run`, the 3D or the planar EPA) on the scene
// seen 2^k larger and depth and points are scaled back. False, with *out
// untouched, when the scene is not tiny.
template <class SA, class SB, class Trace, class Run>
bool penetrationOfTinyScene(const SA& shapeA, const SB& shapeB, const DistanceResult& g, Trace& trace,
                            PenetrationResult* out, Run&& run) {
  if constexpr (measuresTinyScene<SA, SB>()) {
    if (g.scale < kTinyScene) {
      if (const int k = tinySceneExponent(shapeA, shapeB)) {
        PenetrationResult r = runScaled(shapeA, shapeB, k, trace, run);
        if (!r.intersecting && !(g.distance > 0)) {
          // Apart in the scaled run by less than the smallest double once
          // scaled back (denormal scenes): touching, as gjkDistance's 0 says.
          r.intersecting = true;
          r.depth = 0;
          r.pointA = r.pointB = g.pointA;
          if (r.status == EpaStatus::Converged) r.status = EpaStatus::Touching;
        }
        *out = r;
        return true;
      }
    }
  }
  return false;
}

// Cores that GJK leaves apart by no more than its own absolute tolerance
// while the rounded shapes overlap: they touch as far as GJK can tell,
// and v is no normal. A stall certifies ‖v‖ ≤ ε_abs·S against the lower
// bound 0 without any support point along −v coming near −‖v‖, so v's
// direction is rounding noise: a triangle whose corner sits at the centre
// of a flat ellipsoid (radii 0, 1e6, 8) ends on three rim points 6.7e5
// out, ‖v‖ = 3.9e-7, v along the disk's normal but on the wrong side, and
// r_A + r_B − ‖v‖ along −v overlapped by 10 more than the depth. EPA then
// runs on the cores as for overlapping ones (the origin on or within the
// tolerance of C's boundary, as for touching cores), which finds the
// normal of the boundary there.
inline bool coresTouchWithinTolerance(const DistanceResult& g, double radius, const GjkSettings& settings) {
  const double coreDistance = length(g.v);
  return coreDistance <= absoluteBound(settings) * g.scale && coreDistance < radius;
}

// ---- refining the normal of a full polytope ---------------------------------
//
// Where the depth is nearly the same over a circle of directions (a point
// near a cylinder's axis, near the centre of a near-spherical ellipsoid,
// identical cylinders or cones at one pose) the polytope fills up long
// before its nearest face is within tolerance of C's boundary: the faces
// around the whole circle are chords of it. The depth is the least value
// of h(n) = n·s_C(n) over unit n, and every value is an upper bound on it,
// so from the polytope's best normal the refinement walks downhill on h:
// the support point s_C(n) is h's gradient, its part across n the slope on
// the sphere. h has kinks where a support point is not unique (a
// cylinder's rim, a cone's apex, and the deepest direction of a point in a
// cylinder lies on one: the side meets both rims there), so the slope is
// the shortest combination of the gradients at n and at four directions ε
// around it (gradient sampling, Burke, Lewis and Overton 2005): across a
// kink it cancels, along it it leads on. ε shrinks when no step helps.
// Such a kink can be a narrow curved valley (a needle near a wide cone's
// axis: across the slant side h rises by the side's length per radian,
// along it by the needle's offset), where a straight step soon climbs the
// wall; so each step is settled back onto the valley floor across it
// (settleAcross, epa.cpp) before h is compared.

// The refinement's budget: its steps (each 5 support points and a line
// search of at most kEpaRefineTries more), and the sampling radius it
// starts at (radians) and stops below, where the directions differ by a
// few roundings.
constexpr int kEpaRefineSteps = 96;
constexpr int kEpaRefineTries = 12;
constexpr double kEpaRefineStartRadius = 1e-3;
constexpr double kEpaRefineEndRadius = 1e-13;
// Settling a step back onto the valley floor (epa.cpp, settleAcross): the
// doublings of its reach to bracket the floor, and the cuts that then find it.
constexpr int kEpaSettleReaches = 24;
constexpr int kEpaSettleCuts = 24;
// Starts: the faces with the least h, up to kEpaRefineScreens of them,
// pairwise further apart than 0.5 rad (the cosine below), which keeps two
// starts out of one basin on the shapes above. Each is screened by a few
// steps, and the kEpaRefineStarts best after them are refined to the end:
// a basin whose faces' h is high can be the deepest (a small cone inside a
// cylinder 2e6 wide: the faces near the cap's normal mix the cone's apex
// and rim, tilt 1.6e-5 rad off it and have h 16 above the cap's depth,
// above every chord of the side, whose ~13 starts the screens must reach
// past; three steps bring them down onto the cap's for a cone at
// (−7, −7, −7) in one at (−8, 5, −8), four do not for a cone at (−7, −7, 1)
// in one at (−2, 0, 0), eight do: eight are taken).
constexpr int kEpaRefineScreens = 16;
constexpr int kEpaRefineScreenSteps = 8;
constexpr int kEpaRefineStarts = 3;
constexpr double kEpaRefineStartsApart = 0.8775825618903728;  // cos 0.5

struct RefinedNormal {
  Vec3 normal;    // unit
  double depth;   // h(normal): an upper bound on the core depth
  Vec3 pointA;    // the shortest combination's points on the cores
  Vec3 pointB;
  int steps = 0;  // descent steps taken
};

// A − B's support as a plain function of the direction: the refinement
// below takes it so that it is compiled once (epa.cpp), not once per pair
// of shape types EPA is instantiated for. It runs only on polytopes that
// filled up, where an indirect call per support point costs nothing.
struct MinkowskiSupportFn {
  const void* a;
  const void* b;
  SimplexVertex (*fn)(const void* a, const void* b, const Vec3& d);
  SimplexVertex operator()(const Vec3& d) const { return fn(a, b, d); }
};

template <class SA, class SB>
MinkowskiSupportFn minkowskiSupportFn(const SA& a, const SB& b) {
  return {&a, &b, [](const void* pa, const void* pb, const Vec3& d) {
            return minkowskiSupport(*static_cast<const SA*>(pa), *static_cast<const SB*>(pb), d);
          }};
}

// Walks downhill on h from n0 (see above; epa.cpp), at most `steps` steps,
// and returns the best normal found, with its points when `withPoints`.
// `floor` (a lower bound on the depth, the polytope's nearest face) and
// `tolerance` end it early once the two meet.
RefinedNormal refineNormal(const MinkowskiSupportFn& support, const Vec3& n0, double floor, double tolerance,
                           int steps = kEpaRefineSteps, bool withPoints = true);

}  // namespace detail


// How far (in barycentric weight) the answer's point may fall outside the
// face it is read from before the face counts as not holding it: rounding
// of the weights of a sliver, far below any real miss.
constexpr double kEpaHoldSlack = 1e-9;

// Penetration of two convex shapes (SA, SB as for gjkDistance).
template <class Trace = NoTrace, class SA, class SB>
PenetrationResult penetration(const SA& shapeA, const SB& shapeB, const GjkSettings& gjkSettings,
                              const EpaSettings& settings, Trace& trace);

// The penetration from GJK's distance result `g` on the same pair (what
// penetration() computes first): contact.h reuses the GJK run it already
// made. The same bits as penetration() when g is gjkDistance's result.
template <class Trace = NoTrace, class SA, class SB>
PenetrationResult penetrationAfterGjk(const SA& shapeA, const SB& shapeB, const DistanceResult& g,
                                      const GjkSettings& gjkSettings, const EpaSettings& settings, Trace& trace) {
  using namespace epa_lines;
  PenetrationResult out;
  const double rA = shapeA.radius(), rB = shapeB.radius();
  if (detail::penetrationOfTinyScene(shapeA, shapeB, g, trace, &out, [&](const auto& sa, const auto& sb, double, auto& st) {
        return penetration(sa, sb, gjkSettings, settings, st);
      }))
    return out;
  double scale = g.scale;

  // ‖·‖ below this is rounding noise of the support points.
  // (growToTetrahedron raises it with the support points it gathers.)
  double tiny = kRoundingBound * std::fmax(scale, 1e-300);
  if (!g.coresOverlap && !detail::coresTouchWithinTolerance(g, rA + rB, gjkSettings)) {
    // Cores apart: the rounded shapes overlap by r_A + r_B − |v|, exactly
    // (touching when that is zero to rounding).
    const double coreDistance = lengthNoUnderflow(g.v);  // v can be denormal in a scaled tiny scene
    const Vec3 n = g.v / -coreDistance;
    const Vec3 pa = g.simplex.pointA();
    out.normal = n;
    out.status = g.status == GjkStatus::Converged
                     ? EpaStatus::Converged
                     : (g.status == GjkStatus::MaxIterations ? EpaStatus::MaxIterations : EpaStatus::Degenerate);
    if (coreDistance <= rA + rB + tiny) {
      out.intersecting = true;
      out.depth = rA + rB - coreDistance;
      if (out.depth <= tiny) {
        out.depth = 0;
        if (out.status == EpaStatus::Converged) out.status = EpaStatus::Touching;
      }
      out.pointA = pa + n * rA;
      out.pointB = out.pointA - n * out.depth;
    } else {
      out.intersecting = false;
      out.depth = 0;
      out.pointA = g.pointA;
      out.pointB = g.pointB;
    }
    if constexpr (Trace::enabled) {
      EpaFrame f;
      f.event = EpaEvent::Done;
      f.reason = EpaReason::Apart;
      f.line = kGjk;
      trace.record(std::move(f));
    }
    return out;
  }

  detail::EpaPolytope poly;
  Vec3 flatNormal;
  if (!detail::growToTetrahedron(shapeA, shapeB, g.simplex, tiny, &poly, &flatNormal)) {
    // A − B has no volume: the origin lies on it, so the cores touch.
    out.intersecting = true;
    out.normal = flatNormal;
    const Vec3 p = (g.simplex.pointA() + g.simplex.pointB()) * 0.5;
    out.depth = rA + rB;
    out.pointA = p + flatNormal * rA;
    out.pointB = p - flatNormal * rB;
    out.status = rA + rB > 0 ? EpaStatus::Converged : EpaStatus::Touching;
    if constexpr (Trace::enabled) {
      EpaFrame f;
      f.event = EpaEvent::Done;
      f.reason = EpaReason::Flat;
      f.line = kSeed;
      trace.record(std::move(f));
    }
    return out;
  }
  for (int i = 0; i < poly.vertexCount; ++i) scale = std::fmax(scale, detail::magnitudeOf(poly.vertex[i]));
  if constexpr (Trace::enabled) {
    EpaFrame f = detail::polytopeFrame(poly, -1);
    f.event = EpaEvent::Seed;
    f.reason = EpaReason::Tetrahedron;
    f.line = kSeed;
    trace.record(std::move(f));
  }

  EpaStatus status = EpaStatus::MaxIterations;
  EpaReason reason = EpaReason::IterationCap;
  int line = kLoop;
  int iteration = 0;
  int closest = poly.nearestFace();
  double lastGap = 0, lastTolerance = 0;
  // Scratch for one expansion (fixed size).
  detail::Uninitialized<EpaFace, kEpaMaxFaces> removed;  // trace only
  int horizon[kEpaMaxFaces][2];
  int added[kEpaMaxFaces];
  bool done = false;

  while (!done && iteration < settings.maxIterations) {
    ++iteration;
    closest = poly.nearestFace();
    const EpaFace& f = poly.face[closest];
    if constexpr (Trace::enabled) {
      EpaFrame frame = detail::polytopeFrame(poly, closest);
      frame.event = EpaEvent::Closest;
      frame.reason = EpaReason::NearestFace;
      frame.line = kClosest;
      frame.iteration = iteration;
      trace.record(std::move(frame));
    }
    const SimplexVertex w = minkowskiSupport(shapeA, shapeB, f.normal);
    scale = std::fmax(scale, detail::magnitudeOf(w));
    const double d = std::fmax(f.distance, 0.0);
    const double gap = dot(f.normal, w.w) - f.distance;
    const double tolerance =
        std::fmax(settings.relativeTolerance * d,
                  std::fmax(settings.absoluteTolerance, kRoundingBound) * scale);
    lastGap = gap;
    lastTolerance = tolerance;
    if (gap <= tolerance) {
      status = EpaStatus::Converged;
      reason = EpaReason::GapWithinTolerance;
      line = kConverged;
      done = true;
    } else if (poly.hasVertex(w.w)) {
      status = EpaStatus::Degenerate;
      reason = EpaReason::DuplicateSupport;
      line = kConverged;
      done = true;
    } else if (poly.vertexCount == kEpaMaxVertices) {
      status = EpaStatus::MaxIterations;
      reason = EpaReason::Capacity;
      line = kLoop;
      done = true;
    }
    if constexpr (Trace::enabled) {
      EpaFrame frame = detail::polytopeFrame(poly, closest);
      frame.event = EpaEvent::Support;
      frame.reason = done ? reason : EpaReason::Progress;
      frame.line = done ? line : kSupport;
      frame.iteration = iteration;
      frame.hasSupport = true;
      frame.support = w;
      frame.hasGap = true;
      frame.gap = gap;
      frame.tolerance = tolerance;
      trace.record(std::move(frame));
    }
    if (done) break;

    // Faces w sees: flood fill from the nearest face (which w always sees:
    // its gap is positive) across shared edges, taking a neighbour only when
    // w is above its plane by more than rounding. Faces coplanar with w to
    // rounding — common on flat caps and box faces — stay, so the visible
    // region is connected and its boundary is one loop.
    // Only slots below faceSlots are ever read (faces, neighbours and
    // `closest` all lie there), so only those are cleared. across[i][k] is
    // the face beyond edge k of a visible face i — the fill looks each one
    // up, every visible face being taken off the stack once, and the horizon
    // below reads them back instead of scanning the faces again.
    const int wi = poly.vertexCount;
    bool visible[kEpaMaxFaces];
    std::fill_n(visible, poly.faceSlots, false);
    int across[kEpaMaxFaces][3];
    int stack[kEpaMaxFaces];
    int stackSize = 0;
    visible[closest] = true;
    stack[stackSize++] = closest;
    while (stackSize > 0) {
      const int fiSlot = stack[--stackSize];
      const EpaFace& fi = poly.face[fiSlot];
      for (int k = 0; k < 3; ++k) {
        const int nb = poly.neighbour(fi.v[(k + 1) % 3], fi.v[k]);
        across[fiSlot][k] = nb;
        if (nb < 0 || visible[nb]) continue;
        const EpaFace& fn = poly.face[nb];
        if (dot(fn.normal, w.w - poly.vertex[fn.v[0]].w) > tiny) {
          visible[nb] = true;
          stack[stackSize++] = nb;
        }
      }
    }
    // Horizon: directed edges of visible faces whose neighbour stays.
    int horizonCount = 0;
    for (int i = 0; i < poly.faceSlots; ++i) {
      if (!visible[i]) continue;
      for (int k = 0; k < 3; ++k) {
        const int e0 = poly.face[i].v[k], e1 = poly.face[i].v[(k + 1) % 3];
        const int nb = across[i][k];  // poly.neighbour(e1, e0), from the fill
        if (nb >= 0 && visible[nb]) continue;
        horizon[horizonCount][0] = e0;
        horizon[horizonCount][1] = e1;
        ++horizonCount;
      }
    }
    // The faces about to go, for the trace only (the expanded, nearest face
    // first: traces show it as the estimate).
    int removedCount = 0;
    if constexpr (Trace::enabled) {
      removed[removedCount++] = poly.face[closest];
      for (int i = 0; i < poly.faceSlots; ++i)
        if (visible[i] && i != closest) removed[removedCount++] = poly.face[i];
    }
    // A simple loop: every horizon vertex starts exactly one edge and ends one.
    bool simpleLoop = horizonCount >= 3;
    for (int h = 0; h < horizonCount && simpleLoop; ++h) {
      int starts = 0, ends = 0;
      for (int m = 0; m < horizonCount; ++m) {
        starts += horizon[m][0] == horizon[h][0];
        ends += horizon[m][1] == horizon[h][0];
      }
      simpleLoop = starts == 1 && ends == 1;
    }
    if (!simpleLoop) {
      status = EpaStatus::Degenerate;
      reason = EpaReason::BrokenHorizon;
      line = kRemove;
      break;
    }
    // Every new face (horizon edge, w) must have a normal and keep the
    // origin behind it (up to rounding); check before changing anything.
    bool ok = true;
    for (int h = 0; h < horizonCount && ok; ++h) {
      const Vec3& e0 = poly.vertex[horizon[h][0]].w;
      const Vec3 n = cross(poly.vertex[horizon[h][1]].w - e0, w.w - e0);
      ok = maxAbs(n) > 0 && dot(normalizedOr(n, Vec3{}), e0) >= -tiny;
    }
    if (!ok) {
      status = EpaStatus::Degenerate;
      reason = EpaReason::BrokenHorizon;
      line = kStitch;
      break;
    }
    // Expand: remove the visible faces, add w and the cone of new faces.
    for (int i = 0; i < poly.faceSlots; ++i)
      if (visible[i]) poly.face[i].alive = false;
    poly.vertex[wi] = w;
    ++poly.vertexCount;
    int addedCount = 0;
    for (int h = 0; h < horizonCount; ++h) {
      const int slot = poly.addFace(horizon[h][0], horizon[h][1], wi);
      if (slot >= 0) added[addedCount++] = slot;
    }
    if constexpr (Trace::enabled) {
      EpaFrame frame = detail::polytopeFrame(poly, -1);
      frame.event = EpaEvent::Expand;
      frame.reason = EpaReason::Progress;
      frame.line = kStitch;
      frame.iteration = iteration;
      frame.hasSupport = true;
      frame.support = w;
      frame.removed.assign(removed.data, removed.data + removedCount);
      if (removedCount > 0) {
        // The face just expanded (removed[0], where the flood fill started)
        // is the current estimate.
        frame.closest = removed.data[0].id;
        frame.depth = removed.data[0].distance;
        frame.normal = removed.data[0].normal;
      }
      for (int i = 0; i < horizonCount; ++i) frame.horizon.emplace_back(horizon[i][0], horizon[i][1]);
      for (int i = 0; i < addedCount; ++i) frame.added.push_back(poly.face[added[i]].id);
      trace.record(std::move(frame));
    }
  }

  // The answer from the nearest face: p = d·n, weights from its triangle.
  // p lies in P on the face's plane, so in that face — or, where faces are
  // coplanar (two halves of a box face, fans of slivers on a cylinder's
  // cap), in a coplanar neighbour: among the faces as near as f within the
  // termination tolerance, use the one whose triangle holds p.
  closest = poly.nearestFace();
  const EpaFace& f = poly.face[closest];
  const double depthCore = std::fmax(f.distance, 0.0);
  const Vec3 p = f.normal * depthCore;
  double lam[3] = {0, 0, 0};
  int holder = closest;
  double bestMin = -1e300;
  for (int i = 0; i < poly.faceSlots; ++i) {
    const EpaFace& cand = poly.face[i];
    if (!cand.alive || !(cand.distance <= f.distance + std::fmax(lastTolerance, tiny)) || !(dot(cand.normal, f.normal) > 0))
      continue;
    const Vec3& w0 = poly.vertex[cand.v[0]].w;
    const Vec3& w1 = poly.vertex[cand.v[1]].w;
    const Vec3& w2 = poly.vertex[cand.v[2]].w;
    const double l[3] = {dot(cand.normal, cross(w1 - p, w2 - p)), dot(cand.normal, cross(w2 - p, w0 - p)),
                         dot(cand.normal, cross(w0 - p, w1 - p))};
    const double total = l[0] + l[1] + l[2];
    if (!(total > 0)) continue;
    const double lowest = std::fmin(l[0], std::fmin(l[1], l[2])) / total;
    if (lowest > bestMin) {
      bestMin = lowest;
      holder = i;
      for (int k = 0; k < 3; ++k) lam[k] = l[k];
    }
  }
  // Rounding can break that: slivers where a curved side meets a flat cap
  // get normals tilted by ~1e-9 and distances that much below the cap's,
  // and the nearest of them need not hold p, nor any face within the
  // tolerance of it (a capsule in a rounded cylinder can put p several
  // units outside the nearest sliver, whose clamped weights would then put
  // pointA − pointB as far off depth·normal). Then the answer comes from the
  // nearest face that holds its own foot point d_g·n_g (on a convex
  // polytope the nearest face always does, so this never changes a sound
  // result): its depth bounds the overlap along its normal as any face's
  // does, and depth, normal and points agree. But f's distance is the lower
  // bound, so the depth exceeds the least overlap by up to the difference:
  // a converged answer takes another face only within its tolerance of f
  // (a segment 1.6e6 long in a cone put the nearest holder 2.5e-3 beyond f,
  // 30 tolerances), a best estimate within a loose bound (1e-6 of the
  // scale, the accuracy promised for those). Beyond it f and its clamped
  // weights stay, and the points are made to agree below.
  const EpaFace* answer = &f;
  double answerDepth = depthCore;
  if (bestMin < -kEpaHoldSlack) {
    int fallback = -1;
    double fallbackLam[3] = {0, 0, 0};
    const double window = status == EpaStatus::Converged ? std::fmax(lastTolerance, tiny) : 1e-6 * scale;
    for (int i = 0; i < poly.faceSlots; ++i) {
      const EpaFace& cand = poly.face[i];
      if (!cand.alive || !(cand.distance <= f.distance + window) || !(cand.distance >= 0)) continue;
      if (fallback >= 0 && !(cand.distance < poly.face[fallback].distance)) continue;
      const Vec3 q = cand.normal * cand.distance;
      const Vec3& w0 = poly.vertex[cand.v[0]].w;
      const Vec3& w1 = poly.vertex[cand.v[1]].w;
      const Vec3& w2 = poly.vertex[cand.v[2]].w;
      const double l[3] = {dot(cand.normal, cross(w1 - q, w2 - q)), dot(cand.normal, cross(w2 - q, w0 - q)),
                           dot(cand.normal, cross(w0 - q, w1 - q))};
      const double total = l[0] + l[1] + l[2];
      if (!(total > 0) || !(std::fmin(l[0], std::fmin(l[1], l[2])) / total >= -kEpaHoldSlack)) continue;
      // A converged answer stays certified: the face must meet the gap test
      // itself. (With the origin on C's boundary, a face through it that
      // EPA never expanded — a long segment touching an ellipsoid's rim,
      // whose seed put a face across C at distance 0 — holds its foot
      // trivially while C reaches 1 beyond it.)
      if (status == EpaStatus::Converged &&
          !(dot(cand.normal, minkowskiSupport(shapeA, shapeB, cand.normal).w) - cand.distance <= lastTolerance))
        continue;
      fallback = i;
      for (int k = 0; k < 3; ++k) fallbackLam[k] = l[k];
    }
    if (fallback >= 0) {
      holder = fallback;
      answer = &poly.face[fallback];
      answerDepth = answer->distance;
      for (int k = 0; k < 3; ++k) lam[k] = fallbackLam[k];
    }
  }
  const EpaFace& h = poly.face[holder];
  double sum = 0;
  for (double& l : lam) {
    l = std::fmax(l, 0.0);  // p may fall a rounding error outside the face
    sum += l;
  }
  Vec3 pa, pb;
  for (int k = 0; k < 3; ++k) {
    const double l = sum > 0 ? lam[k] / sum : 1.0 / 3;
    pa += poly.vertex[h.v[k]].a * l;
    pb += poly.vertex[h.v[k]].b * l;
  }
  out.intersecting = true;
  out.normal = answer->normal;
  out.depth = answerDepth + rA + rB;
  out.pointA = pa + answer->normal * rA;
  out.pointB = pb - answer->normal * rB;
  // A polytope that filled up (the default cap or its capacity, not a
  // smaller cap the caller chose) leaves a circle of nearly deepest
  // directions uncertified: refine the normal on h itself (refineNormal).
  // Its depth is an upper bound, the nearest face's a lower one; when they
  // meet within EPA's own tolerance the answer is certified.
  const bool filledUp = status == EpaStatus::MaxIterations &&
                        (reason == EpaReason::Capacity || settings.maxIterations >= kEpaMaxVertices - 6);
  double refinedGap = 0, refinedTolerance = 0;
  Vec3 refinedNormal;
  if (filledUp) {
    const double floor = depthCore;
    refinedTolerance =
        std::fmax(settings.relativeTolerance * floor, std::fmax(settings.absoluteTolerance, kRoundingBound) * scale);
    // Where to start: the face normals with the least h, not the least
    // distance. The chords of a round side are all about as near, so the
    // nearest face can sit anywhere on the circle — at a saddle of h (the
    // far side of a cylinder from a point near its axis), or in the wrong
    // one of two basins (the ends of a near-spherical ellipsoid's shortest
    // axis) — while h, one support point per face, says where C's boundary
    // is nearest. The best kEpaRefineScreens, each at least 0.5 rad from
    // those before it, are screened by a few steps, the kEpaRefineStarts
    // best of those refined to the end and the least h kept.
    double faceH[kEpaMaxFaces];
    for (int i = 0; i < poly.faceSlots; ++i)
      if (poly.face[i].alive) faceH[i] = dot(poly.face[i].normal, minkowskiSupport(shapeA, shapeB, poly.face[i].normal).w);
    Vec3 starts[detail::kEpaRefineScreens];
    int startCount = 0;
    for (int k = 0; k < detail::kEpaRefineScreens; ++k) {
      int pick = -1;
      for (int i = 0; i < poly.faceSlots; ++i) {
        if (!poly.face[i].alive || (pick >= 0 && !(faceH[i] < faceH[pick]))) continue;
        bool apart = true;
        for (int j = 0; j < startCount; ++j) apart = apart && dot(poly.face[i].normal, starts[j]) < detail::kEpaRefineStartsApart;
        if (apart) pick = i;
      }
      if (pick < 0) break;
      starts[startCount++] = poly.face[pick].normal;
    }
    const detail::MinkowskiSupportFn support = detail::minkowskiSupportFn(shapeA, shapeB);
    detail::RefinedNormal screened[detail::kEpaRefineScreens];
    for (int k = 0; k < startCount; ++k)
      screened[k] = detail::refineNormal(support, starts[k], floor, refinedTolerance, detail::kEpaRefineScreenSteps, false);
    // The best few screens first (a partial selection sort).
    const int finalists = std::min(startCount, detail::kEpaRefineStarts);
    for (int k = 0; k < finalists; ++k)
      for (int j = k + 1; j < startCount; ++j)
        if (screened[j].depth < screened[k].depth) std::swap(screened[k], screened[j]);
    detail::RefinedNormal rn = detail::refineNormal(support, answer->normal, floor, refinedTolerance);
    for (int k = 0; k < finalists; ++k) {
      const detail::RefinedNormal other = detail::refineNormal(support, screened[k].normal, floor, refinedTolerance);
      if (other.depth < rn.depth) rn = other;
    }
    refinedGap = rn.depth - floor;
    refinedNormal = rn.normal;
    out.normal = rn.normal;
    out.depth = rn.depth + rA + rB;
    out.pointA = rn.pointA + rn.normal * rA;
    out.pointB = rn.pointB - rn.normal * rB;
    if (refinedGap <= refinedTolerance) status = EpaStatus::Converged;
    reason = EpaReason::Refined;
  }
  // The points must differ by depth·normal; where a face's weights mix
  // support points of a flat side of a shape (a cylinder's cap, many points
  // support one direction), they can fail to, as when no face holds the foot.
  const bool pointsOff = !(length((out.pointA - out.pointB) - out.normal * out.depth) <=
                           kEpaHoldSlack * std::fmax(scale, 1.0));
  if ((bestMin < -kEpaHoldSlack && answer == &f && !filledUp) || pointsOff) {
    // No face near the answer holds its foot point (a polytope broken by
    // rounding, as on a disk of radius 1e6 and 40 thick pierced by a
    // segment 2e6 long, where clamped weights can put pointA − pointB a
    // polytope's width off depth·normal). The points are then those
    // of the answer itself: B moved by depth·normal touches A (or, the
    // depth being a lower bound, still overlaps it), and GJK's closest
    // points of that pair — a common point if they overlap — moved back
    // differ by depth·normal up to the gap left.
    // (PosedShape pairs only, the API's: the scaled runs of tiny scenes
    // keep the clamped weights, which keeps the wasm one GJK smaller.)
    if constexpr (std::is_same_v<SA, PosedShape> && std::is_same_v<SB, PosedShape>) {
      const detail::ShiftedShape<SB> moved{&shapeB, out.normal * out.depth};
      const DistanceResult touch = gjkDistance(shapeA, moved, gjkSettings);
      if (isFinite(touch.pointA) && isFinite(touch.pointB)) {
        out.pointA = touch.pointA;
        out.pointB = touch.pointB - out.normal * out.depth;
      }
    }
  }
  out.iterations = iteration;
  out.status = status;
  if (status == EpaStatus::Converged && out.depth <= tiny) {
    out.status = EpaStatus::Touching;
    out.depth = 0;
    out.pointB = out.pointA;
  }
  if constexpr (Trace::enabled) {
    EpaFrame f = detail::polytopeFrame(poly, closest);
    f.event = EpaEvent::Done;
    f.reason = reason;
    f.line = filledUp ? kRefine : kResult;
    f.iteration = iteration;
    f.hasGap = true;
    f.gap = lastGap;
    f.tolerance = lastTolerance;
    if (filledUp) {
      // The refined answer, and its certificate: h(n) − the nearest face.
      f.depth = refinedGap + depthCore;
      f.normal = refinedNormal;
      f.gap = refinedGap;
      f.tolerance = refinedTolerance;
    }
    trace.record(std::move(f));
  }
  return out;
}

template <class Trace, class SA, class SB>
PenetrationResult penetration(const SA& shapeA, const SB& shapeB, const GjkSettings& gjkSettings,
                              const EpaSettings& settings, Trace& trace) {
  return penetrationAfterGjk(shapeA, shapeB, gjkDistance(shapeA, shapeB, gjkSettings), gjkSettings, settings, trace);
}

template <class SA, class SB>
PenetrationResult penetration(const SA& a, const SB& b, const GjkSettings& gjkSettings = {},
                              const EpaSettings& settings = {}) {
  NoTrace none;
  return penetration(a, b, gjkSettings, settings, none);
}

}  // namespace collidoscope
