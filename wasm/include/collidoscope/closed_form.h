// collidoscope — closed forms for the pairs whose cores are points and
// segments.
//
// A sphere is a point rounded by its radius and a capsule a segment rounded
// by its: the pair's distance is the distance of the two cores minus the
// radii, and the closest points of two cores have a formula. GJK and EPA
// reach the same answers iteratively (one to a few steps for these pairs),
// but the setup around an iteration costs more than the formula; games
// meet these pairs more than any other.
//
// Which pairs: point, sphere, segment and capsule against each other (any
// margins). A pair in a tiny scene (largest coordinate below kTinyScene,
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
#pragma once

#include "collidoscope/contact.h"
#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

enum class ClosedForm { PointPoint, PointSegment, SegmentPoint, SegmentSegment, None };
const char* closedFormName(ClosedForm f);

// The closed form for the pair's shape types (A, B), or None when the
// general queries answer it.
ClosedForm closedFormOf(const Shape& a, const Shape& b);

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
};
Core coreOf(const Shape& s, const Transform& pose);
inline Core coreOf(const Shape& s) { return coreOf(s, s.pose); }

// The same in two steps: the core in the shape's own frame (made once per
// shape), then moved to a pose. coreOf(s, pose) is posedCore(localCore(s),
// pose), bit for bit.
Core localCore(const Shape& s);
Core posedCore(const Core& local, const Transform& pose);

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

// The pair's answer when closedFormOf(a, b) != None, written into *out
// (every field the general query reports; a DistanceResult's simplex is
// left empty), and its frame when `frame` is given. False, with nothing
// written, for a tiny scene: the general query runs it scaled. In the
// plane (`planar`: a 2D scene, z = 0), two crossing segments are only
// separated within the plane, which is the planar EPA's answer: false too.
bool closedIntersect(const Shape& a, const Shape& b, IntersectResult* out, ClosedFormFrame* frame = nullptr);
bool closedDistance(const Shape& a, const Shape& b, DistanceResult* out, ClosedFormFrame* frame = nullptr);
bool closedPenetration(const Shape& a, const Shape& b, PenetrationResult* out, ClosedFormFrame* frame = nullptr,
                       bool planar = false);

// The closest points of segments [p0, p1] and [q0, q1] (either may be a
// point): s, t ∈ [0, 1] with p0 + s(p1 − p0) and q0 + t(q1 − q0) closest.
void closestOnSegments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, double* s, double* t);

}  // namespace collidoscope
