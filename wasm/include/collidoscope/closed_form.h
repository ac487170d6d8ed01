// collidoscope — closed forms for the pairs whose cores are points and
// segments, and for points and boxes against boxes.
//
// A sphere is a point rounded by its radius and a capsule a segment rounded
// by its: the pair's distance is the distance of the two cores minus the
// radii, and the closest points of two cores have a formula. GJK and EPA
// reach the same answers iteratively (one to a few steps for these pairs),
// but the setup around an iteration costs more than the formula; games
// meet these pairs more than any other.
//
// Which pairs: point, sphere, segment and capsule against each other (any
// margins); point and sphere against a box and a box against either (any
// margins, any order); box against box for intersect and penetration
// (below). A pair in a tiny scene (largest coordinate below kTinyScene,
// tiny_scene.h) is left to the general queries, which run it scaled.
//
// The answers keep the general queries' conventions (gjk.h, epa.h):
// intersecting includes touching within the rounding bound 64u·S (S the
// largest coordinate of the cores), distance is 0 for overlapping shapes
// with the point splitting the core gap in the ratio r_A : r_B, and the
// penetration normal moves B away from A. When the cores meet (coincident
// centres, crossing segments) every direction across them separates the
// shapes by r_A + r_B: the normal is the common normal of two crossing
// segments, else a fixed direction across the core.
//
// Point against box. The centre c in box coordinates, q_i = a_i·(c − p),
// clamped into [−h_i, h_i], is the box core's closest point: outside, the
// cores' distance is |q − clamp(q)| and the pair is a point–point pair of
// those two points. Inside (or within the rounding bound of the surface)
// the box core's nearest face decides: distance h_i − |q_i| to face ±a_i,
// the least over i (ties: the lowest i, and the + face for q_i = 0);
// depth = r_A + r_B + that distance, along the face normal.
//
// Box against box: the separating axes of the cores (sat.h): face normals
// of A and of B, and a_i × b_j with near-parallel pairs skipped
// (kSatParallelSine). The overlap along a unit axis L is
// h_A(L) + h_B(L) − |L·(p_B − p_A)|, oriented from A toward B. The cores'
// Minkowski difference is a polytope whose facet normals are among those
// 15 directions, so when every overlap is ≥ 0 the cores meet and the least
// overlap is their exact penetration depth; rounding adds r_A + r_B along
// every axis (core ⊕ ball), so the depth is that least overlap + r_A + r_B.
// When an axis separates the cores by a gap g, the cores' distance is at
// least g but may be larger (a vertex–vertex pair has no candidate axis):
// intersect answers "apart" when g > r_A + r_B + the rounding bound, and
// otherwise (cores apart but possibly within the radii) leaves the pair to
// GJK, as it leaves every box–box distance and the penetration of apart
// cores (closest points, not a separating-axis answer). Contact points:
// for a face of A the support point of B's core along −n and its
// projection on A's face plane (on A's face when the support point is a
// vertex; ties, an axis of B orthogonal to n within kSatSameAxisSine, take
// the point of B's extreme face or edge nearest A's centre, whose
// projection may fall beside A's face when the faces are parallel); for a
// face of B likewise with A's core along n; for an edge pair the closest
// points of A's edge most extreme along n and B's edge most extreme along −n.
#pragma once

#include "collidoscope/contact.h"
#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/sat.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

enum class ClosedForm { PointPoint, PointSegment, SegmentPoint, SegmentSegment, PointBox, BoxPoint, BoxBox, None };
const char* closedFormName(ClosedForm f);

// What a shape's core is, as far as the closed forms care.
enum class CoreKind : unsigned char { Point, Segment, Box, Other };
CoreKind coreKindOf(const Shape& s);

// The closed form for the pair's shape types (A, B), or None when the
// general queries answer it. BoxBox has no distance form: closedDistance
// declines it (closedFormAnswers).
ClosedForm closedFormOf(CoreKind a, CoreKind b);
inline ClosedForm closedFormOf(const Shape& a, const Shape& b) { return closedFormOf(coreKindOf(a), coreKindOf(b)); }
// Whether the form answers distance queries (every form but BoxBox).
// Whether the form is between a point or segment core and another: the
// pairs answered from two Cores (the others involve a box).
inline bool coreForm(ClosedForm f) { return f < ClosedForm::PointBox; }
inline bool closedFormHasDistance(ClosedForm f) { return f != ClosedForm::BoxBox && f != ClosedForm::None; }

// The cores' closest points and what the answers derive from them: a traced
// query on such a pair records this one frame (the page names the form and
// draws the two points).
struct ClosedFormFrame {
  ClosedForm form = ClosedForm::None;
  Vec3 coreA;                // closest point of A's core (world)
  Vec3 coreB;                // closest point of B's core
  double coreDistance = 0;   // |coreA − coreB|
  double radiusA = 0;        // coreRadius(A), coreRadius(B)
  double radiusB = 0;
  double touching = 0;       // the rounding bound 64u·S below which gaps count as touching
  // Box forms, when an axis decided (box–box; a point within the box core):
  // its kind (face of A, face of B, edge × edge), the features (a box's
  // local axis 0–2; −1 for none), the unit axis from A toward B and the
  // overlap along it, radii included (negative: a gap). A point inside the
  // box core has coreB (coreA for BoxPoint) on the nearest face.
  bool hasAxis = false;
  SatAxisKind axisKind = SatAxisKind::FaceA;
  int featureA = -1, featureB = -1;
  Vec3 axis;
  double overlap = 0;
};

// Whether the shape's core is a point or a segment (a pair of two such has
// a closed form).
bool hasClosedForm(const Shape& s);

// The core of a shape that has a closed form, at a pose (unit rotation):
// its end points (equal for a point core: the pose's position) and radius.
struct Core {
  Vec3 p0, p1;
  double radius = 0;
  bool segment = false;
  bool centred = false;  // p0 = −p1 in the shape's frame (a capsule): posedCore rotates one end
};
Core coreOf(const Shape& s, const Transform& pose);
inline Core coreOf(const Shape& s) { return coreOf(s, s.pose); }

// The same in two steps: the core in the shape's own frame (made once per
// shape), then moved to a pose. coreOf(s, pose) is posedCore(localCore(s),
// pose), bit for bit.
Core localCore(const Shape& s);
Core posedCore(const Core& local, const Transform& pose);

// A box core at a pose (unit rotation): centre, world axes (the rotation's
// columns), half extents, radius (the margin).
struct BoxCore {
  Vec3 centre;
  Vec3 axes[3];
  Vec3 half;
  double radius = 0;
  // A 2D scene's box (z = 0, turned about z): the axes deciding a frame are
  // the in-plane ones, local x and y (the answers are those of 3D).
  bool planar = false;
};
BoxCore boxCoreOf(const Shape& s, const Transform& pose);
inline BoxCore boxCoreOf(const Shape& s) { return boxCoreOf(s, s.pose); }

// The pair's answer from the cores, as below (the object API's batch reads
// the cores straight from its poses).
bool closedIntersect(const Core& a, const Core& b, IntersectResult* out, ClosedFormFrame* frame = nullptr);
bool closedDistance(const Core& a, const Core& b, DistanceResult* out, ClosedFormFrame* frame = nullptr);
bool closedPenetration(const Core& a, const Core& b, PenetrationResult* out, ClosedFormFrame* frame = nullptr,
                       bool planar = false);
// contact.h's answer (margin finite, ≥ 0): closedDistance's and
// closedPenetration's fields as contact() takes them from the general
// queries, from one computation of the closest core points.
bool closedContact(const Core& a, const Core& b, double margin, ContactResult* out);

// A point core (not a segment: false) against a box core, either order,
// and two box cores (no distance: false).
bool closedIntersect(const Core& a, const BoxCore& b, IntersectResult* out, ClosedFormFrame* frame = nullptr);
bool closedIntersect(const BoxCore& a, const Core& b, IntersectResult* out, ClosedFormFrame* frame = nullptr);
bool closedIntersect(const BoxCore& a, const BoxCore& b, IntersectResult* out, ClosedFormFrame* frame = nullptr);
bool closedDistance(const Core& a, const BoxCore& b, DistanceResult* out, ClosedFormFrame* frame = nullptr);
bool closedDistance(const BoxCore& a, const Core& b, DistanceResult* out, ClosedFormFrame* frame = nullptr);
inline bool closedDistance(const BoxCore&, const BoxCore&, DistanceResult*, ClosedFormFrame* = nullptr) {
  return false;
}
bool closedPenetration(const Core& a, const BoxCore& b, PenetrationResult* out, ClosedFormFrame* frame = nullptr);
bool closedPenetration(const BoxCore& a, const Core& b, PenetrationResult* out, ClosedFormFrame* frame = nullptr);
bool closedPenetration(const BoxCore& a, const BoxCore& b, PenetrationResult* out, ClosedFormFrame* frame = nullptr);

// The pair's answer when closedFormOf(a, b) != None, written into *out
// (every field the general query reports; a DistanceResult's simplex is
// left empty), and its frame when `frame` is given. False, with nothing
// written, for a tiny scene: the general query runs it scaled. In the
// plane (`planar`: a 2D scene, z = 0), two crossing segments are only
// separated within the plane, which is the planar EPA's answer: false too,
// as for every box form (the plane's depth is not the solid's). False also
// where a box form leaves the pair to GJK (above).
bool closedIntersect(const Shape& a, const Shape& b, IntersectResult* out, ClosedFormFrame* frame = nullptr,
                     bool planar = false);
bool closedDistance(const Shape& a, const Shape& b, DistanceResult* out, ClosedFormFrame* frame = nullptr,
                    bool planar = false);
bool closedPenetration(const Shape& a, const Shape& b, PenetrationResult* out, ClosedFormFrame* frame = nullptr,
                       bool planar = false);

// The closest points of segments [p0, p1] and [q0, q1] (either may be a
// point): s, t ∈ [0, 1] with p0 + s(p1 − p0) and q0 + t(q1 − q0) closest.
void closestOnSegments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, double* s, double* t);

}  // namespace collidoscope
