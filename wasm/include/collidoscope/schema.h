// collidoscope — the JSON of every trace frame and scene result, declared
// once.
//
// Each type written as a JSON object has a Schema<T>: its TypeScript name, a
// doc line, and fields(v, x), which calls the visitor v once per JSON field,
// in output order:
//
//   v.field(name, value, doc)            the field, always written (doc "":
//                                        no doc comment)
//   v.orNull(name, present, value, doc)  the value when `present`, else null
//   v.base(value)                        first: the fields of another described
//                                        type (TypeScript: `extends` it)
//
// Two visitors walk these: scene.cpp's writeFields writes the JSON, and
// wasm/tools/schema_ts.cpp writes the TypeScript interfaces into
// web/lib/generated-schema.ts. So a field is added here, once. The JSON
// visitor ignores `doc` in inline calls, so the compiler drops the strings:
// the documentation costs the wasm download nothing.
//
// How a value is written follows from its C++ type:
//   double, int, bool      a number or boolean (non-finite doubles: null)
//   an enum with EnumNames  its name (TypeScript: a union of the names)
//   Vec3                   [x, y, z], bit for bit (frames, inputs)
//   ResultVec3             [x, y, z] with −0 written as 0 (results: a normal
//                          reads [0, 1, 0], not [0, 1, -0])
//   T[N], std::array<T,N>  a fixed-length array (TypeScript: a tuple)
//   std::vector<T>, Each   an array
//   std::pair<int,int>     [i, j]
//   a type with Schema<T>  an object of its fields
// Views (structs of references) describe objects whose fields do not sit in
// one struct: a frame with its input points, the Chung–Wang plane, the
// bounding-volume answer.
#pragma once

#include <array>
#include <type_traits>
#include <utility>
#include <vector>

#include "collidoscope/chung_wang.h"
#include "collidoscope/closed_form.h"
#include "collidoscope/contact.h"
#include "collidoscope/epa.h"
#include "collidoscope/epa2d.h"
#include "collidoscope/gjk.h"
#include "collidoscope/hull.h"
#include "collidoscope/mesh_pair.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/obb.h"
#include "collidoscope/obbtree_view.h"
#include "collidoscope/point_query.h"
#include "collidoscope/raycast.h"
#include "collidoscope/sap_view.h"
#include "collidoscope/sat.h"
#include "collidoscope/world.h"

namespace collidoscope {

// ---- value kinds -------------------------------------------------------------

// A result's vector: written with −0 as 0 (x + 0.0 maps −0 to +0 and
// changes nothing else).
struct ResultVec3 {
  const Vec3& v;
};
inline ResultVec3 resultVec(const Vec3& v) { return {v}; }

// A list made on the fly: n elements, the i-th is at(i).
template <class At>
struct Each {
  int n;
  At at;
};
template <class At>
Each<At> each(int n, At at) {
  return {n, at};
}

// The names an enum is written with. Each specialization has
//   ts    the TypeScript union's name;  doc  its doc line;
//   last  the last enumerator (names cover 0 … last);  name(e).
template <class E>
struct EnumNames;

template <>
struct EnumNames<GjkStatus> {
  static constexpr const char* ts = "GjkStatus";
  static constexpr const char* doc = "GJK's statuses (gjk.h GjkStatus).";
  static constexpr GjkStatus last = GjkStatus::Degenerate;
  static const char* name(GjkStatus s) { return gjkStatusName(s); }
};

template <>
struct EnumNames<ClosedForm> {
  static constexpr const char* ts = "ClosedFormName";
  static constexpr const char* doc =
      "The closed forms of pairs whose cores are points and segments, and of points and boxes against boxes "
      "(closed_form.h).";
  static constexpr ClosedForm last = ClosedForm::BoxBox;
  static const char* name(ClosedForm f) { return closedFormName(f); }
};

template <>
struct EnumNames<GjkReason> {
  static constexpr const char* ts = "GjkReason";
  static constexpr const char* doc = "Why a GJK step ended (trace.h GjkReason).";
  static constexpr GjkReason last = GjkReason::Refine;
  static const char* name(GjkReason r) { return gjkReasonName(r); }
};

template <>
struct EnumNames<GjkEvent> {
  static constexpr const char* ts = "GjkEvent";
  static constexpr const char* doc = "What a GJK frame shows (trace.h GjkEvent).";
  static constexpr GjkEvent last = GjkEvent::Done;
  static const char* name(GjkEvent e) {
    static const char* const kNames[] = {"init", "support", "simplex", "done"};
    return kNames[static_cast<int>(e)];
  }
};

template <>
struct EnumNames<EpaStatus> {
  static constexpr const char* ts = "EpaStatus";
  static constexpr const char* doc = "EPA's statuses (epa.h EpaStatus).";
  static constexpr EpaStatus last = EpaStatus::Degenerate;
  static const char* name(EpaStatus s) { return epaStatusName(s); }
};

template <>
struct EnumNames<EpaReason> {
  static constexpr const char* ts = "EpaReason";
  static constexpr const char* doc = "Why an EPA step ended (epa.h EpaReason).";
  static constexpr EpaReason last = EpaReason::Refined;
  static const char* name(EpaReason r) { return epaReasonName(r); }
};

template <>
struct EnumNames<EpaEvent> {
  static constexpr const char* ts = "EpaEvent";
  static constexpr const char* doc = "What an EPA frame shows (epa.h EpaEvent).";
  static constexpr EpaEvent last = EpaEvent::Done;
  static const char* name(EpaEvent e) {
    static const char* const kNames[] = {"seed", "closest", "support", "expand", "done"};
    return kNames[static_cast<int>(e)];
  }
};

template <>
struct EnumNames<SatStatus> {
  static constexpr const char* ts = "SatStatus";
  static constexpr const char* doc = "The separating-axis test's statuses (sat.h SatStatus).";
  static constexpr SatStatus last = SatStatus::InvalidShape;
  static const char* name(SatStatus s) { return satStatusName(s); }
};

template <>
struct EnumNames<SatAxisKind> {
  static constexpr const char* ts = "SatAxisKind";
  static constexpr const char* doc = "Where a candidate axis comes from (sat.h SatAxisKind).";
  static constexpr SatAxisKind last = SatAxisKind::Line;
  static const char* name(SatAxisKind k) { return satAxisKindName(k); }
};

template <>
struct EnumNames<SatEvent> {
  static constexpr const char* ts = "SatEvent";
  static constexpr const char* doc = "What a separating-axis frame shows (sat.h SatEvent).";
  static constexpr SatEvent last = SatEvent::Done;
  static const char* name(SatEvent e) {
    static const char* const kNames[] = {"prepare", "axis", "skip", "done"};
    return kNames[static_cast<int>(e)];
  }
};

template <>
struct EnumNames<RayCastStatus> {
  static constexpr const char* ts = "CastStatus";
  static constexpr const char* doc = "The ray and shape casts' statuses (raycast.h RayCastStatus).";
  static constexpr RayCastStatus last = RayCastStatus::InvalidInput;
  static const char* name(RayCastStatus s) { return rayCastStatusName(s); }
};

template <>
struct EnumNames<RayReason> {
  static constexpr const char* ts = "CastReason";
  static constexpr const char* doc = "Why a cast step ended (raycast.h RayReason).";
  static constexpr RayReason last = RayReason::IterationCap;
  static const char* name(RayReason r) { return rayReasonName(r); }
};

template <>
struct EnumNames<RayEvent> {
  static constexpr const char* ts = "CastEvent";
  static constexpr const char* doc = "What a cast frame shows (raycast.h RayEvent).";
  static constexpr RayEvent last = RayEvent::Done;
  static const char* name(RayEvent e) {
    static const char* const kNames[] = {"init", "support", "simplex", "done"};
    return kNames[static_cast<int>(e)];
  }
};

template <>
struct EnumNames<ChungWangStatus> {
  static constexpr const char* ts = "ChungWangStatus";
  static constexpr const char* doc = "Chung–Wang's statuses (chung_wang.h ChungWangStatus).";
  static constexpr ChungWangStatus last = ChungWangStatus::Degenerate;
  static const char* name(ChungWangStatus s) { return chungWangStatusName(s); }
};

template <>
struct EnumNames<ChungWangReason> {
  static constexpr const char* ts = "ChungWangReason";
  static constexpr const char* doc = "Why a Chung–Wang step ended (chung_wang.h ChungWangReason).";
  static constexpr ChungWangReason last = ChungWangReason::IterationCap;
  static const char* name(ChungWangReason r) { return chungWangReasonName(r); }
};

template <>
struct EnumNames<ChungWangEvent> {
  static constexpr const char* ts = "ChungWangEvent";
  static constexpr const char* doc = "What a Chung–Wang frame shows (chung_wang.h ChungWangEvent).";
  static constexpr ChungWangEvent last = ChungWangEvent::Done;
  static const char* name(ChungWangEvent e) {
    static const char* const kNames[] = {"init", "support", "switch", "hemisphere", "reflect", "done"};
    return kNames[static_cast<int>(e)];
  }
};

template <>
struct EnumNames<HemisphereCase> {
  static constexpr const char* ts = "HemisphereCase";
  static constexpr const char* doc = "How the hemisphere test treated a direction (chung_wang.h HemisphereCase).";
  static constexpr HemisphereCase last = HemisphereCase::Failed;
  static const char* name(HemisphereCase c) { return hemisphereCaseName(c); }
};

template <>
struct EnumNames<HullKind> {
  static constexpr const char* ts = "HullKind";
  static constexpr const char* doc = "The dimension of a hull (hull.h HullKind).";
  static constexpr HullKind last = HullKind::Polyhedron;
  static const char* name(HullKind k) { return hullKindName(k); }
};

template <>
struct EnumNames<HullEvent> {
  static constexpr const char* ts = "HullEvent";
  static constexpr const char* doc = "What a quickhull frame shows (hull.h HullEvent).";
  static constexpr HullEvent last = HullEvent::Degenerate;
  static const char* name(HullEvent e) {
    static const char* const kNames[] = {"extremes", "tetrahedron", "eye",  "visible",
                                         "horizon",  "cone",        "done", "degenerate"};
    return kNames[static_cast<int>(e)];
  }
};

// Which fit the bounding-volume answer's box came from.
enum class BoundsMethod { Points, Triangles, Aabb };

template <>
struct EnumNames<BoundsMethod> {
  static constexpr const char* ts = "BoundsMethod";
  static constexpr const char* doc = "Which fit an oriented box came from (schema.h BoundsMethod).";
  static constexpr BoundsMethod last = BoundsMethod::Aabb;
  static const char* name(BoundsMethod m) {
    static const char* const kNames[] = {"points", "triangles", "aabb"};
    return kNames[static_cast<int>(m)];
  }
};

// ---- described types -----------------------------------------------------------

template <class T>
struct Schema;

template <class T, class = void>
struct IsDescribed : std::false_type {};
template <class T>
struct IsDescribed<T, std::void_t<decltype(Schema<T>::name)>> : std::true_type {};

// GJK and the casts: a point of the Minkowski difference with its parts.
template <>
struct Schema<SimplexVertex> {
  static constexpr const char* name = "SupportVertex";
  static constexpr const char* doc = "w = a − b, a point of the Minkowski difference core(A) − core(B).";
  template <class V>
  static void fields(V& v, const SimplexVertex& x) {
    v.field("w", x.w, "w = a − b.");
    v.field("a", x.a, "The support point on A.");
    v.field("b", x.b, "The support point on B.");
  }
};

// A vertex of a GJK simplex with its weight in v.
struct SimplexEntry {
  const SimplexVertex& vertex;
  double lambda;
};

template <>
struct Schema<SimplexEntry> {
  static constexpr const char* name = "SimplexVertex";
  static constexpr const char* doc = "A vertex of the simplex and its barycentric weight in v.";
  template <class V>
  static void fields(V& v, const SimplexEntry& x) {
    v.base(x.vertex);
    v.field("lambda", x.lambda, "Barycentric weight of this vertex in v.");
  }
};

// The simplex as a list of its vertices with their weights.
inline auto simplexEntries(const Simplex& s) {
  return each(s.size, [&s](int i) { return SimplexEntry{s.vertex[i], s.lambda[i]}; });
}

template <>
struct Schema<GjkFrame> {
  static constexpr const char* name = "GjkFrame";
  static constexpr const char* doc = "One step of GJK (queries intersect and distance).";
  template <class V>
  static void fields(V& v, const GjkFrame& f) {
    v.field("kind", f.event, "What the frame shows.");
    v.field("reason", f.reason, "Why the step did what it did, e.g. 'progress', 'separated', 'gap-within-tolerance'.");
    v.field("line", f.line, "1-based line of Trace.pseudocode that produced this frame.");
    v.field("iteration", f.iteration, "0 for init.");
    v.field("simplex", simplexEntries(f.simplex), "The simplex W after this step.");
    v.field("v", f.v, "Current v: the point of conv(W) nearest the origin (a direction at intersect's first frame).");
    v.field("direction", f.direction, "Search direction of this step's support point (−v).");
    v.orNull("support", f.hasSupport, f.support, "The new support point (support frames).");
    v.field("vv", f.vv, "‖v‖²");
    // v·w exists with every support point; the gap only once W was non-empty.
    v.orNull("vw", f.hasTest || f.event == GjkEvent::Support, f.vw,
             "v·w for the new support point (support frames, and frames with a gap).");
    v.orNull("gap", f.hasTest, f.gap, "‖v‖² − v·w, the termination quantity (support frames only).");
    v.field("lowerBound", f.lowerBound,
            "distance: the best certified lower bound on the cores' distance so far, max(0, v·w/‖v‖ − τ) over "
            "the steps (‖v‖ is the upper bound); 0 for intersect.");
    v.field("tolerance", f.tolerance, "What the gap is compared with.");
    v.field("closestA", f.simplex.pointA(), "Current closest point on the core of A.");
    v.field("closestB", f.simplex.pointB(), "Current closest point on the core of B.");
  }
};

template <>
struct Schema<ClosedFormFrame> {
  static constexpr const char* name = "ClosedFormFrame";
  static constexpr const char* doc =
      "The one frame of a pair answered by a closed form (points, spheres, segments, capsules, boxes): the cores' "
      "closest points (or contact points), from which the answer follows, and for boxes the deciding axis.";
  template <class V>
  static void fields(V& v, const ClosedFormFrame& f) {
    v.field("form", f.form,
            "Which cores: 'point-point', 'point-segment', 'segment-point', 'segment-segment', 'point-box', "
            "'box-point' or 'box-box'.");
    v.field("coreA", f.coreA,
            "The closest point of A's core (its centre, a point of its segment, the clamp of a point into a box); "
            "box–box: A's contact point on its core.");
    v.field("coreB", f.coreB,
            "The closest point of B's core; a point inside a box core: its projection on the box's nearest face.");
    v.field("coreDistance", f.coreDistance, "|coreA − coreB|.");
    v.field("radiusA", f.radiusA, "A's radius about its core (radius plus margin).");
    v.field("radiusB", f.radiusB, "B's radius about its core.");
    v.field("touching", f.touching, "Gaps up to this (the rounding bound 64u·S) count as touching.");
    v.orNull("axisKind", f.hasAxis, f.axisKind,
             "Box forms, when an axis decided: 'face-a' or 'face-b' (a face normal of that box) or 'edge-edge' "
             "(an edge of A × an edge of B).");
    v.orNull("featureA", f.hasAxis && f.featureA >= 0, f.featureA, "A's local box axis (0–2) behind the axis.");
    v.orNull("featureB", f.hasAxis && f.featureB >= 0, f.featureB, "B's local box axis (0–2) behind the axis.");
    v.orNull("axis", f.hasAxis, f.axis, "The unit axis, from A toward B.");
    v.orNull("overlap", f.hasAxis, f.overlap, "The overlap along the axis, radii included (negative: a gap).");
  }
};

template <>
struct Schema<IntersectResult> {
  static constexpr const char* name = "IntersectResult";
  static constexpr const char* doc = "Whether the shapes overlap (query \"intersect\").";
  template <class V>
  static void fields(V& v, const IntersectResult& r) {
    v.field("intersecting", r.intersecting, "True also when the shapes only touch.");
    v.field("iterations", r.iterations, "GJK iterations (0 for a closed form).");
    v.field("status", r.status, "'converged' unless the iteration cap or rounding stopped GJK first.");
  }
};

template <>
struct Schema<DistanceResult> {
  static constexpr const char* name = "DistanceResult";
  static constexpr const char* doc = "The distance and the closest points (query \"distance\").";
  template <class V>
  static void fields(V& v, const DistanceResult& r) {
    v.field("distance", r.distance, "Distance between the shapes; 0 when they overlap.");
    v.field("pointA", resultVec(r.pointA), "The point of A nearest B.");
    v.field("pointB", resultVec(r.pointB), "The point of B nearest A.");
    v.field("iterations", r.iterations, "GJK iterations (0 for a closed form).");
    v.field("status", r.status, "'converged' unless the iteration cap or rounding stopped GJK first.");
  }
};

template <>
struct Schema<PenetrationResult> {
  static constexpr const char* name = "PenetrationResult";
  static constexpr const char* doc = "Penetration depth and direction (query \"penetration\", GJK then EPA).";
  template <class V>
  static void fields(V& v, const PenetrationResult& r) {
    v.field("intersecting", r.intersecting, "True also when the shapes only touch (depth 0).");
    v.field("depth", r.depth, "Minimum translation distance; 0 when apart or touching.");
    v.field("normal", resultVec(r.normal),
            "Unit vector: move B by depth·normal to separate it from A. Always finite.");
    v.field("pointA", resultVec(r.pointA), "On A; pointA − pointB = depth·normal (the closest points when apart).");
    v.field("pointB", resultVec(r.pointB), "On B.");
    v.field("iterations", r.iterations, "EPA iterations (0 when GJK alone decided, and for a closed form).");
    v.field("status", r.status, "How EPA ended.");
  }
};

template <>
struct Schema<EpaFace> {
  static constexpr const char* name = "EpaFace";
  static constexpr const char* doc = "A face of the EPA polytope.";
  template <class V>
  static void fields(V& v, const EpaFace& f) {
    v.field("id", f.id, "Stable name of the face across frames.");
    v.field("v", f.v, "Indices into the frame's vertices, counter-clockwise seen from outside.");
    v.field("normal", f.normal, "Unit outward normal.");
    v.field("distance", f.distance, "Distance of the face's plane from the origin.");
  }
};

template <>
struct Schema<EpaFrame> {
  static constexpr const char* name = "EpaFrame";
  static constexpr const char* doc = "One step of EPA (query \"penetration\").";
  template <class V>
  static void fields(V& v, const EpaFrame& f) {
    v.field("kind", f.event, "What the frame shows.");
    v.field("reason", f.reason, "Why the step did what it did.");
    v.field("line", f.line, "1-based line of Trace.pseudocode.");
    v.field("iteration", f.iteration, "");
    v.field("vertices", f.vertices, "All polytope vertices so far (indices stable across frames).");
    v.field("faces", f.faces, "The polytope's faces after this step.");
    v.orNull("closest", f.closest >= 0, f.closest, "Id of the face nearest the origin.");
    v.orNull("support", f.hasSupport, f.support, "The new support point (support and expand frames).");
    v.field("removed", f.removed, "Expand frames: the faces the support point saw, now removed.");
    v.field("horizon", f.horizon, "Expand frames: horizon edges as vertex index pairs.");
    v.field("added", f.added, "Expand frames: ids of the new faces.");
    v.field("depth", f.depth, "Current depth estimate (nearest face distance), in core space.");
    v.field("normal", f.normal, "The nearest face's normal, in core space.");
    v.orNull("gap", f.hasGap, f.gap, "Support frames: n·w − d, compared with tolerance.");
    v.field("tolerance", f.tolerance, "What the gap is compared with.");
  }
};

template <>
struct Schema<PlanarEpaFrame> {
  static constexpr const char* name = "PlanarEpaFrame";
  static constexpr const char* doc = "One step of the planar EPA (query \"penetration\" of a 2D scene).";
  template <class V>
  static void fields(V& v, const PlanarEpaFrame& f) {
    v.field("kind", f.event, "What the frame shows.");
    v.field("reason", f.reason, "Why the step did what it did.");
    v.field("line", f.line, "1-based line of Trace.pseudocode.");
    v.field("iteration", f.iteration, "");
    v.field("vertices", f.vertices, "The polygon P, counter-clockwise (after this step).");
    v.orNull("closest", f.closest >= 0, f.closest,
             "Index of the first vertex of the edge nearest the origin (the edge runs to the next vertex).");
    v.orNull("support", f.hasSupport, f.support, "The new support point (support and expand frames).");
    v.field("removed", f.removed, "Expand frames: the vertices w saw, now inside conv(P ∪ {w}).");
    v.field("depth", f.depth, "Current depth estimate (nearest edge distance), in core space.");
    v.field("normal", f.normal, "The nearest edge's outward normal, in core space.");
    v.orNull("gap", f.hasGap, f.gap, "Support frames: n·w − d, compared with tolerance.");
    v.field("tolerance", f.tolerance, "What the gap is compared with.");
  }
};

template <>
struct Schema<ConvexHull> {
  static constexpr const char* name = "HullResult";
  static constexpr const char* doc = "The convex hull of shape A's points (query \"hull\").";
  template <class V>
  static void fields(V& v, const ConvexHull& h) {
    v.field("kind", h.kind, "Dimension of the hull: a flat input gives a polygon, a collinear one a segment.");
    v.field("vertices", h.vertices, "The extreme points only.");
    v.field("faces", h.triangles, "Outward counter-clockwise triangles (a polygon: fanned, CCW around `normal`).");
    v.field("polygons", h.faces, "Coplanar triangles merged into convex polygons.");
    v.field("adjacency", h.adjacency, "Per vertex: the vertices sharing a hull edge with it.");
    v.field("normal", resultVec(h.normal), "Polygon hulls: the plane's unit normal; otherwise [0, 0, 0].");
    v.field("tolerance", h.tolerance, "Points within this distance of a face plane count as on it.");
  }
};

template <>
struct Schema<HullTraceFace> {
  static constexpr const char* name = "HullTraceFace";
  static constexpr const char* doc = "A face of the hull under construction.";
  template <class V>
  static void fields(V& v, const HullTraceFace& f) {
    v.field("id", f.id, "Stable name of the face across frames.");
    v.field("v", f.v, "Input indices of its corners.");
    v.field("conflicts", f.conflicts, "Input indices of the points outside it that it owns.");
  }
};

// A quickhull frame with the input points it shows (the first frame
// carries them, the others an empty list).
struct HullFrameView {
  const HullFrame& frame;
  const std::vector<Vec3>& points;
};

template <>
struct Schema<HullFrameView> {
  static constexpr const char* name = "HullFrame";
  static constexpr const char* doc = "One step of quickhull (query \"hull\").";
  template <class V>
  static void fields(V& v, const HullFrameView& x) {
    const HullFrame& f = x.frame;
    v.field("kind", f.event, "What the frame shows.");
    v.field("line", f.line, "1-based line of Trace.pseudocode.");
    v.field("iteration", f.iteration, "");
    v.field("points", x.points, "The input points (frame 0 only; later frames: []).");
    v.field("faces", f.faces, "The current hull; v and conflicts index the input points.");
    v.orNull("eye", f.eye >= 0, f.eye, "Input index of the eye point.");
    v.field("eyeDistance", f.eyeDistance, "Eye frames: the eye's distance above its face (0 on other frames).");
    v.field("visible", f.visible, "Face ids the eye sees.");
    v.field("horizon", f.horizon, "Horizon edges as input-index pairs.");
    v.field("added", f.added, "Ids of the new faces.");
    v.field("extremes", f.extremes, "Input indices of the extreme points (extremes and degenerate frames).");
  }
};

template <>
struct Schema<Obb> {
  static constexpr const char* name = "BoxFit";
  static constexpr const char* doc = "An oriented box.";
  template <class V>
  static void fields(V& v, const Obb& b) {
    v.field("center", resultVec(b.center), "The box's centre.");
    v.field("axes", std::array<ResultVec3, 3>{resultVec(b.axes[0]), resultVec(b.axes[1]), resultVec(b.axes[2])},
            "Orthonormal, right-handed.");
    v.field("halfExtents", resultVec(b.halfExtents), "Half the box's size along each axis.");
    v.field("volume", b.volume(), "The box's volume.");
  }
};

template <>
struct Schema<Aabb> {
  static constexpr const char* name = "AabbFit";
  static constexpr const char* doc = "An axis-aligned box.";
  template <class V>
  static void fields(V& v, const Aabb& b) {
    v.field("min", resultVec(b.min), "The smallest corner.");
    v.field("max", resultVec(b.max), "The largest corner.");
    v.field("volume", b.volume(), "The box's volume.");
  }
};

template <>
struct Schema<BoundingSphere> {
  static constexpr const char* name = "SphereFit";
  static constexpr const char* doc = "A bounding sphere.";
  template <class V>
  static void fields(V& v, const BoundingSphere& s) {
    v.field("center", resultVec(s.center), "The sphere's centre.");
    v.field("radius", s.radius, "The sphere's radius.");
    v.field("volume", s.volume(), "The sphere's volume.");
  }
};

// The two PCA fits before refinement.
struct ObbFits {
  const Obb& points;
  const Obb& triangles;
};

template <>
struct Schema<ObbFits> {
  static constexpr const char* name = "ObbFits";
  static constexpr const char* doc = "The two PCA fits before refinement.";
  template <class V>
  static void fields(V& v, const ObbFits& f) {
    v.field("points", f.points, "The fit of the points.");
    v.field("triangles", f.triangles, "The fit of the area-weighted hull triangles.");
  }
};

// The bounding volumes of a point set: the best refined box and what it is
// compared with.
struct BoundsView {
  const Obb& box;
  BoundsMethod method;
  const Aabb& aabb;
  const BoundingSphere& sphere;
  ObbFits fits;
};

template <>
struct Schema<BoundsView> {
  static constexpr const char* name = "ObbResult";
  static constexpr const char* doc =
      "Bounding volumes of shape A's points (query \"obb\"). The box itself is the best refined fit.";
  template <class V>
  static void fields(V& v, const BoundsView& b) {
    v.base(b.box);
    v.field("method", b.method,
            "Which fit the box came from after refinement ('aabb' when nothing beat the axis-aligned box).");
    v.field("aabb", b.aabb, "The axis-aligned bounding box.");
    v.field("sphere", b.sphere, "The bounding sphere.");
    v.field("fits", b.fits, "The two PCA fits before refinement: of the points, and of the area-weighted hull "
                            "triangles.");
  }
};

template <>
struct Schema<SatResult> {
  static constexpr const char* name = "SatResult";
  static constexpr const char* doc =
      "Separating-axis test (query \"sat\") on shapes with vertices (boxes, polytopes, triangles, segments,\n"
      "points; spheres and capsules as rounded points and segments).";
  // The result keeps the penetration convention: depth is the overlap (0
  // when apart) and gap the separation along the axis (0 when overlapping).
  template <class V>
  static void fields(V& v, const SatResult& r) {
    v.field("intersecting", r.intersecting, "No candidate axis separates by more than rounding.");
    v.field("axis", resultVec(r.axis), "Unit, from A toward B: the axis of least overlap, or the separating axis.");
    v.field("depth", r.intersecting ? r.depth : 0.0,
            "Overlap along axis when intersecting (moving B by depth·axis separates them); 0 when apart.");
    v.field("gap", r.intersecting ? 0.0 : r.depth,
            "Separation along axis when apart (a lower bound of the distance); 0 when intersecting.");
    v.field("axisKind", r.bestKind, "Where the deciding axis came from.");
    v.field("axesTested", r.axesTested, "Candidate axes projected (skipped parallel pairs not counted).");
    v.field("status", r.status, "How the test ended.");
  }
};

template <>
struct Schema<SatFrame> {
  static constexpr const char* name = "SatFrame";
  static constexpr const char* doc = "One candidate axis of the separating-axis test (query \"sat\").";
  template <class V>
  static void fields(V& v, const SatFrame& f) {
    v.field("kind", f.event, "What the frame shows.");
    v.field("line", f.line, "1-based line of Trace.pseudocode.");
    v.field("index", f.index, "0-based number of the axis among those tested (prepare, skip and done: −1).");
    v.field("axisKind", f.kind, "Where the axis comes from.");
    v.field("axis", f.axis, "Unit, oriented from A toward B.");
    v.field("face", f.face,
            "Face axes: the world corners of the face shown (the one facing the other shape); flat sides: the "
            "polygon.");
    v.orNull("edgeA", f.hasEdgeA, f.edgeA,
             "Edge axes: the two edges (world endpoints), each the member of its parallel class nearest the other "
             "shape.");
    v.orNull("edgeB", f.hasEdgeB, f.edgeB, "B's edge, chosen as edgeA is.");
    v.field("minA", f.minA, "Projections of the full shapes (cores ± radius) on axis: A's smallest.");
    v.field("maxA", f.maxA, "A's largest projection.");
    v.field("minB", f.minB, "B's smallest projection.");
    v.field("maxB", f.maxB, "B's largest projection.");
    v.field("overlap", f.overlap, "maxA − minB: > 0 overlap, < 0 gap (0 within rounding).");
    v.field("tolerance", f.tolerance, "The rounding bound within which the overlap counts as 0.");
    v.field("separates", f.separates, "overlap < 0.");
    v.field("best", f.best, "Best-so-far axis index after this frame.");
    v.field("bestOverlap", f.bestOverlap, "Its overlap.");
    v.field("bestAxis", f.bestAxis, "Its direction.");
  }
};

template <>
struct Schema<RayFrame> {
  static constexpr const char* name = "CastFrame";
  static constexpr const char* doc =
      "One step of the GJK ray cast (queries \"raycast\" and \"shapecast\"; van den Bergen 2004).";
  template <class V>
  static void fields(V& v, const RayFrame& f) {
    v.field("kind", f.event, "What the frame shows.");
    v.field("reason", f.reason, "Why the step did what it did.");
    v.field("line", f.line, "1-based line of Trace.pseudocode.");
    v.field("iteration", f.iteration, "0 for init.");
    v.field("lambda", f.lambda, "λ, the hit parameter so far (a lower bound), after this step.");
    v.field("x", f.x, "x = origin + λ·direction after this step.");
    v.field("updated", f.updated, "Support frames: whether λ moved, from oldLambda to newLambda.");
    v.field("oldLambda", f.oldLambda, "λ before the step.");
    v.field("newLambda", f.newLambda, "λ after the step.");
    v.field("simplex", simplexEntries(f.simplex),
            "The simplex: support points p = a − b of C (ray cast: b = 0; shape cast: points on A and B and\n"
            "C = A − B), w = x − p, and the weights of v.");
    v.field("v", f.v, "v: x minus the point of conv(P) nearest x.");
    v.orNull("support", f.hasSupport, f.support, "The new support point (support frames).");
    v.orNull("supportPoint", f.hasSupport, f.supportPoint, "p = S_C(v) (support frames).");
    v.orNull("planeNormal", f.hasSupport, f.planeNormal,
             "The supporting plane of the rounded shape: normal v̂ through planePoint (support frames).");
    v.orNull("planePoint", f.hasSupport, f.planePoint, "A point of that plane (support frames).");
    v.field("vw", f.vw, "v·w.");
    v.field("threshold", f.threshold, "ρ‖v‖: x is in front of the plane when v·w exceeds it.");
    v.field("vr", f.vr, "v·r.");
    v.field("vv", f.vv, "‖v‖²");
    v.field("radius", f.radius, "ρ: the radius (margins) added to the core.");
    v.field("tolerance", f.tolerance, "Simplex frames: the hit test's bound on ‖v‖ − ρ.");
    v.field("normal", f.normal, "The hit normal so far (the last plane's normal, not unit); done: the result's unit normal.");
    v.field("hit", f.hit, "Done frames: whether the cast hit (false on other frames).");
    v.field("status", f.status, "Done frames: the result's status ('converged' on other frames).");
  }
};

template <>
struct Schema<RayCastResult> {
  static constexpr const char* name = "RaycastResult";
  static constexpr const char* doc = "Ray against shape A (query \"raycast\"). On a miss t, point and normal are null.";
  template <class V>
  static void fields(V& v, const RayCastResult& r) {
    v.field("hit", r.hit, "Whether the ray meets A within maxT.");
    v.orNull("t", r.hit, r.t, "In units of direction. 0 when the ray starts inside A.");
    v.orNull("point", r.hit, resultVec(r.point), "origin + t·direction, on A's surface.");
    v.orNull("normal", r.hit && !r.startedInside, resultVec(r.normal),
             "A's outward unit normal at the hit; null on a miss or when the ray starts inside.");
    v.field("startedInside", r.startedInside, "The origin lies in A: t = 0, normal null.");
    v.field("iterations", r.iterations, "Cast iterations.");
    v.field("status", r.status,
            "Any status but 'converged' still reports a hit at a certified lower bound of t.");
  }
};

template <>
struct Schema<MeshRayHit> {
  static constexpr const char* name = "MeshRaycastResult";
  static constexpr const char* doc =
      "Ray against a mesh shape A (query \"raycast\"): the closest hit over its triangles, two-sided. On a miss\n"
      "t, point, normal, triangle and barycentric are null.";
  template <class V>
  static void fields(V& v, const MeshRayHit& r) {
    v.field("hit", r.hit, "Whether the ray meets a triangle of A within maxT.");
    v.orNull("t", r.hit, r.t, "In units of direction; ties between triangles go to the smaller index.");
    v.orNull("point", r.hit, resultVec(r.point), "u·v_i + v·v_j + w·v_k on the hit triangle [i, j, k].");
    v.orNull("normal", r.hit, resultVec(r.normal), "The hit triangle's unit CCW normal, also on a back-face hit.");
    v.field("startedInside", false, "Always false: a mesh is a surface (a ray from inside a closed mesh hits it ahead).");
    v.field("iterations", r.boxTests + r.triangleTests, "Ray–box plus ray–triangle tests run.");
    v.field("status", rayCastStatusOf(r.status), "'converged', or 'invalid-input' / 'max-iterations' (no or best hit).");
    v.orNull("triangle", r.hit, r.triangle, "Index of the hit triangle in the mesh's triangles.");
    v.orNull("barycentric", r.hit, resultVec(r.barycentric), "[u, v, w] of the point in the triangle's index order.");
  }
};

template <>
struct Schema<MeshIntersectResult> {
  static constexpr const char* name = "MeshIntersectResult";
  static constexpr const char* doc =
      "A mesh against a convex shape (query \"intersect\"): whether a triangle touches or overlaps the shape. A\n"
      "mesh is a surface: a shape wholly inside a closed mesh does not touch it.";
  template <class V>
  static void fields(V& v, const MeshIntersectResult& r) {
    v.field("intersecting", r.intersecting, "True also when they only touch.");
    v.field("iterations", r.boxTests + r.triangleTests, "Box tests of the OBB-tree descent plus triangle tests.");
    v.field("status", gjkStatusOf(r.status), "'converged' unless a triangle's GJK stopped at its cap or on rounding.");
    v.orNull("triangle", r.intersecting, r.triangle, "A triangle that touches the shape (the first found).");
  }
};

template <>
struct Schema<MeshMeshResult> {
  static constexpr const char* name = "MeshMeshIntersectResult";
  static constexpr const char* doc =
      "Two meshes (query \"intersect\"): whether a triangle of A touches or crosses a triangle of B, exactly, by a\n"
      "simultaneous descent of their OBB trees.";
  template <class V>
  static void fields(V& v, const MeshMeshResult& r) {
    v.field("intersecting", r.intersecting, "True also when triangles only touch.");
    v.field("iterations", static_cast<int>(r.nodePairs + r.triangleTests), "Node pairs tested plus triangle pairs tested.");
    v.field("status", gjkStatusOf(r.status), "'converged' unless the node-pair cap stopped the descent (a corrupt tree).");
    v.orNull("triangles", r.intersecting, std::array<int, 2>{r.first.a, r.first.b},
             "The first intersecting pair found: [triangle of A, triangle of B].");
  }
};

template <>
struct Schema<MeshDistanceResult> {
  static constexpr const char* name = "MeshDistanceResult";
  static constexpr const char* doc =
      "A mesh against a convex shape (query \"distance\"): the distance to the nearest triangle, by branch and\n"
      "bound on the mesh's OBB tree.";
  template <class V>
  static void fields(V& v, const MeshDistanceResult& r) {
    v.field("distance", r.distance, "0 when a triangle touches or overlaps the shape.");
    v.field("pointA", resultVec(r.pointA), "The point of A nearest B.");
    v.field("pointB", resultVec(r.pointB), "The point of B nearest A.");
    v.field("iterations", r.boxTests + r.triangleTests, "Box tests of the OBB-tree descent plus triangle tests.");
    v.field("status", gjkStatusOf(r.status), "'converged' unless a triangle's GJK stopped at its cap or on rounding.");
    v.field("triangle", r.triangle, "The nearest triangle of the mesh.");
  }
};

template <>
struct Schema<MeshShapeCastResult> {
  static constexpr const char* name = "MeshShapecastResult";
  static constexpr const char* doc =
      "A mesh and a convex shape translating over the step (query \"shapecast\"): the earliest time a triangle\n"
      "touches the shape.";
  template <class V>
  static void fields(V& v, const MeshShapeCastResult& r) {
    v.field("hit", r.hit, "Whether they meet during the step.");
    v.orNull("t", r.hit, r.t, "Time of impact in [0, 1]; null on a miss.");
    v.orNull("normal", r.hit && !r.initiallyOverlapping, resultVec(r.normal),
             "Unit, from A to B at contact; null on a miss or when touching at t = 0.");
    v.orNull("pointA", r.hit, resultVec(r.pointA), "The contact point on A, at its position at time t.");
    v.orNull("pointB", r.hit, resultVec(r.pointB), "The contact point on B, at time t.");
    v.field("initiallyOverlapping", r.initiallyOverlapping, "They touch at t = 0.");
    v.field("iterations", r.boxTests + r.triangleTests, "Box tests of the OBB-tree descent plus triangle casts.");
    v.field("status", castStatusOf(r.status), "'converged' unless a triangle's cast stopped at its cap or on rounding.");
    v.orNull("triangle", r.hit, r.triangle, "The triangle hit first (the smaller index on a tie).");
  }
};

template <>
struct Schema<MeshContact> {
  static constexpr const char* name = "ContactPoint";
  static constexpr const char* doc = "One contact of query \"contacts\".";
  template <class V>
  static void fields(V& v, const MeshContact& c) {
    v.orNull("triangle", c.triangle >= 0, c.triangle, "The mesh's triangle this contact is with; null between convex shapes.");
    v.field("depth", c.depth, "Overlap along normal; negative: the gap, within the scene's margin.");
    v.field("normal", resultVec(c.normal), "Unit: move B by depth·normal to separate it from A (from this triangle).");
    v.field("pointA", resultVec(c.pointA), "On A.");
    v.field("pointB", resultVec(c.pointB), "On B; pointA − pointB = depth·normal.");
  }
};

// The contacts of one "contacts" query: a view of the contacts written.
struct ContactsView {
  const MeshContact* contacts = nullptr;
  int count = 0;
  bool truncated = false;
  int iterations = 0;
};

template <>
struct Schema<ContactsView> {
  static constexpr const char* name = "ContactsResult";
  static constexpr const char* doc =
      "Every contact of B with A within the scene's margin (query \"contacts\"): one per touching or nearby\n"
      "triangle of a mesh, at most one between convex shapes.";
  template <class V>
  static void fields(V& v, const ContactsView& r) {
    v.field("contacts", each(r.count, [&r](int i) { return r.contacts[i]; }), "In the mesh's tree order.");
    v.field("truncated", r.truncated, "More contacts were found than a query returns (4096): these are the first.");
    v.field("iterations", r.iterations, "Box tests plus triangle tests (GJK iterations between convex shapes).");
  }
};

template <>
struct Schema<ContactResult> {
  static constexpr const char* name = "ContactQueryResult";
  static constexpr const char* doc =
      "The contact of A and B within the scene's margin (query \"contact\"): contact()'s answer, a signed distance.";
  template <class V>
  static void fields(V& v, const ContactResult& r) {
    v.field("contact", r.contact, "The shapes are at most the scene's margin apart (default 0: touching or overlapping).");
    v.orNull("distance", r.contact, r.distance, "Signed: the gap when apart, −depth when overlapping; null without a contact.");
    v.orNull("normal", r.contact, resultVec(r.normal), "Unit, from A to B: moving B along it separates the shapes.");
    v.orNull("pointA", r.contact, resultVec(r.pointA), "On A.");
    v.orNull("pointB", r.contact, resultVec(r.pointB), "On B; pointB − pointA = distance·normal.");
    v.field("iterations", r.iterations, "GJK's iterations, plus EPA's when they overlap (0 for a closed form).");
    v.field("status", r.status, "'converged' when certified (also for a pair proved beyond the margin).");
  }
};

template <>
struct Schema<MeshRayFrame> {
  static constexpr const char* name = "MeshRayFrame";
  static constexpr const char* doc = "The one frame of a ray cast on a mesh (trace of \"raycast\" on a mesh shape A).";
  template <class V>
  static void fields(V& v, const MeshRayFrame& f) {
    v.field("hit", f.hit, "Whether a triangle was hit within maxT.");
    v.orNull("triangle", f.hit, f.triangle, "The hit triangle's index; null on a miss.");
    v.orNull("vertices", f.hit, f.vertices, "The hit triangle's corners in world space, in its index order; null on a miss.");
    v.field("boxTests", f.boxTests, "Ray–box tests run on the tree's boxes (axis-aligned, two per node visited).");
    v.field("triangleTests", f.triangleTests, "Ray–triangle tests run (brute force would run triangleCount).");
    v.field("triangleCount", f.triangleCount, "Triangles in the mesh.");
  }
};

template <>
struct Schema<ShapeCastResult> {
  static constexpr const char* name = "ShapecastResult";
  static constexpr const char* doc = "A and B translating over the step (query \"shapecast\"): time of impact and contact.";
  template <class V>
  static void fields(V& v, const ShapeCastResult& r) {
    v.field("hit", r.hit, "Whether the shapes meet during the step.");
    v.orNull("t", r.hit, r.t, "Time of impact in [0, 1]; null on a miss.");
    v.orNull("normal", r.hit && !r.initiallyOverlapping, resultVec(r.normal),
             "Unit, from A to B at contact (move B along it to separate); null on a miss or when overlapping at\n"
             "t = 0.");
    v.orNull("pointA", r.hit, resultVec(r.pointA), "The contact point on A, at its position at time t.");
    v.orNull("pointB", r.hit, resultVec(r.pointB), "The contact point on B, at time t.");
    v.field("initiallyOverlapping", r.initiallyOverlapping, "The shapes overlap at t = 0.");
    v.field("iterations", r.iterations, "Cast iterations.");
    v.field("status", r.status,
            "Any status but 'converged' still reports a hit at a certified lower bound of t.");
  }
};

template <>
struct Schema<ContainsResult> {
  static constexpr const char* name = "ContainsResult";
  static constexpr const char* doc = "Whether shape A contains \"point\" (query \"contains\").";
  template <class V>
  static void fields(V& v, const ContainsResult& r) {
    v.field("inside", r.inside, "True also on A's surface (the boundary counts as inside).");
    v.field("iterations", r.iterations, "GJK iterations (0 for a closed form).");
    v.field("status", r.status, "'converged' unless the iteration cap or rounding stopped GJK first.");
  }
};

template <>
struct Schema<PairsResult> {
  static constexpr const char* name = "PairsResult";
  static constexpr const char* doc =
      "The pairs of the scene's shapes that intersect (query \"pairs\"): a world's broad phase, then intersect() on\n"
      "each pair whose boxes overlap.";
  template <class V>
  static void fields(V& v, const PairsResult& r) {
    v.field("pairs", r.pairs, "[i, j] with i < j, indices into \"shapes\", sorted; touching shapes count.");
    v.field("candidates", r.candidates, "Pairs whose bounding boxes overlap: the intersect() queries run.");
  }
};

// ---- the "pairs" trace (sap_view.h) -------------------------------------------

template <>
struct EnumNames<SapViewFrameKind> {
  static constexpr const char* ts = "PairsFrameKind";
  static constexpr const char* doc = "What a \"pairs\" frame shows (sap_view.h SapViewFrameKind).";
  static constexpr SapViewFrameKind last = SapViewFrameKind::Narrow;
  static const char* name(SapViewFrameKind k) { return sapViewFrameKindName(k); }
};

template <>
struct Schema<SapEndpoint> {
  static constexpr const char* name = "PairsEndpoint";
  static constexpr const char* doc = "One end of a shape's interval on an axis: an entry of sweep and prune's sorted lists.";
  template <class V>
  static void fields(V& v, const SapEndpoint& e) {
    v.field("value", e.value, "The box's min or max along the axis.");
    v.field("shape", e.id, "The shape's index in \"shapes\".");
    v.field("isMin", e.isMin, "True for the interval's start (a min sorts before a max of equal value).");
  }
};

template <>
struct Schema<SapViewBox> {
  static constexpr const char* name = "PairsBox";
  static constexpr const char* doc = "A shape's box as the world's broad phase holds it.";
  template <class V>
  static void fields(V& v, const SapViewBox& b) {
    v.field("shape", b.shape, "The shape's index in \"shapes\".");
    v.field("unbounded", b.unbounded, "A plane: no box; the narrow phase meets it with every other shape.");
    v.orNull("min", !b.unbounded, b.box.min, "The smallest corner (world); null when unbounded.");
    v.orNull("max", !b.unbounded, b.box.max, "The largest corner (world); null when unbounded.");
  }
};

template <>
struct Schema<SapViewFrame> {
  static constexpr const char* name = "PairsFrame";
  static constexpr const char* doc =
      "One step of the \"pairs\" trace: the boxes, the three sorted endpoint lists, one endpoint of the sweep, or\n"
      "the narrow phase on one candidate pair.";
  template <class V>
  static void fields(V& v, const SapViewFrame& f) {
    const bool sweep = f.kind == SapViewFrameKind::Sweep;
    const bool narrow = f.kind == SapViewFrameKind::Narrow;
    v.field("kind", f.kind, "What the frame shows.");
    v.field("boxes", f.boxes, "'boxes': every shape's box, in shape order; empty otherwise.");
    v.field("lists", f.lists, "'sort': the x, y and z endpoint lists in sorted order (bounded shapes only); empty otherwise.");
    v.orNull("axis", (sweep || f.kind == SapViewFrameKind::Sort) && f.axis >= 0, f.axis,
             "'sort', 'sweep': the swept axis (0 x, 1 y, 2 z: the widest spread of box centres); null with fewer than 2 boxes.");
    v.orNull("position", sweep, f.position, "'sweep': the endpoint's place in the swept axis's list.");
    v.orNull("endpoint", sweep, f.endpoint, "'sweep': the endpoint passed; its value is the sweep line's.");
    v.field("active", f.active, "'sweep': the active list after the endpoint (shapes whose intervals are open).");
    v.field("found", f.found, "'sweep': the pairs this endpoint reported (a min meeting open boxes on all three axes).");
    v.field("pairs", f.pairs,
            "'sweep': the box pairs reported so far; 'narrow': the pairs intersect() found intersecting so far.");
    v.orNull("pair", narrow, f.pair, "'narrow': the candidate pair [i, j], i < j.");
    v.orNull("candidate", narrow, f.candidate, "'narrow': the candidate's index (the World's order).");
    v.orNull("planePair", narrow, f.planePair, "'narrow': a plane's pair (planes have no box and meet every shape).");
    v.orNull("intersecting", narrow, f.intersecting, "'narrow': intersect()'s answer for the pair.");
    v.orNull("iterations", narrow, f.iterations, "'narrow': intersect()'s GJK iterations (0 for a closed form).");
  }
};

template <>
struct Schema<SimulatedBody> {
  static constexpr const char* name = "SimulatedBody";
  static constexpr const char* doc = "A body of a \"simulate\" scene after its steps.";
  template <class V>
  static void fields(V& v, const SimulatedBody& b) {
    v.field("position", b.position, "Of the shape's frame, as a shape's position.");
    v.field("rotation", b.rotation, "[qx, qy, qz, qw], unit.");
    v.field("velocity", b.velocity, "Of the centre of mass, world frame.");
    v.field("angularVelocity", b.angularVelocity, "World frame, radians per second.");
  }
};

template <>
struct Schema<SimulateResult> {
  static constexpr const char* name = "SimulateResult";
  static constexpr const char* doc =
      "Query \"simulate\": the scene's bodies after `steps` steps of the world (broad phase, contact manifolds,\n"
      "sequential impulses).";
  template <class V>
  static void fields(V& v, const SimulateResult& r) {
    v.field("bodies", r.bodies, "In the order of the scene's \"bodies\".");
    v.field("steps", r.steps, "Steps taken.");
  }
};

template <>
struct Schema<SimulateContact> {
  static constexpr const char* name = "SimulateContact";
  static constexpr const char* doc = "A contact point the solver held in one step.";
  template <class V>
  static void fields(V& v, const SimulateContact& c) {
    v.field("a", c.a, "Index of shape A in \"shapes\" (the normal points from A to B).");
    v.field("b", c.b, "Index of shape B.");
    v.field("pointA", c.pointA, "On A, world frame.");
    v.field("pointB", c.pointB, "On B.");
    v.field("normal", c.normal, "Unit, from A to B.");
    v.field("distance", c.distance, "Signed along the normal: negative when they overlap.");
    v.field("normalImpulse", c.normalImpulse, "Accumulated over the step's last substep, N·s.");
    v.field("frictionImpulse", c.frictionImpulse, "Accumulated, in the tangent plane.");
  }
};

template <>
struct Schema<SimulateFrame> {
  static constexpr const char* name = "SimulateFrame";
  static constexpr const char* doc = "One step of a \"simulate\" trace.";
  template <class V>
  static void fields(V& v, const SimulateFrame& f) {
    v.field("step", f.step, "Steps taken so far (0: the start).");
    v.field("poses", f.poses, "Every shape's pose after the step, [x, y, z, qx, qy, qz, qw].");
    v.field("contacts", f.contacts, "The step's contact points (at most 256).");
    v.field("contactsTruncated", f.contactsTruncated, "The step had more contact points than are listed.");
    v.field("solvedPoints", f.solvedPoints,
            "How many of the step's contact points were solved; they come first, the rest are sleeping pairs' as\n"
            "they were when their island fell asleep.");
    v.field("sleeping", f.sleeping, "Dynamic bodies asleep after the step.");
  }
};

template <>
struct EnumNames<FeatureKind> {
  static constexpr const char* ts = "FeatureKind";
  static constexpr const char* doc = "The parts of a shape's surface a projected point can lie on (point_query.h).";
  static constexpr FeatureKind last = FeatureKind::Apex;
  static const char* name(FeatureKind k) { return featureKindName(k); }
};

template <>
struct Schema<PointFeature> {
  static constexpr const char* name = "PointFeature";
  static constexpr const char* doc =
      "The feature of shape A that project's point lies on, within 1e-7 of A's size: a vertex, else an edge, else a "
      "face\n(README: project).";
  template <class V>
  static void fields(V& v, const PointFeature& f) {
    v.field("kind", f.kind,
            "'vertex' | 'edge' | 'face' (point, box, segment, triangle, polytope; a plane's 'face'), 'surface' "
            "(sphere,\nellipsoid), 'cap' | 'side' (capsule), 'cap' | 'rim' | 'side' (cylinder), 'base' | 'rim' | "
            "'apex' | 'side' (cone).");
    v.field("vertices", f.vertices,
            "Input-point indices (box corners (x>0) + 2(y>0) + 4(z>0)): the vertex, the edge's two ends, every point "
            "on the\nface's plane, ascending. Round shapes: the ends of the local y axis the part touches (0: −y, "
            "1: +y); [] for a\nsphere, ellipsoid or plane.");
  }
};

template <>
struct Schema<ProjectResult> {
  static constexpr const char* name = "ProjectResult";
  static constexpr const char* doc =
      "The point of shape A's surface nearest \"point\" (query \"project\"), from outside or inside.";
  template <class V>
  static void fields(V& v, const ProjectResult& r) {
    v.field("point", resultVec(r.point), "On A's surface, nearest the query point (the query point itself on the surface).");
    v.field("distance", r.distance, "|point − query point|: to the surface, whether the query point is inside or not.");
    v.field("inside", r.inside, "The query point lies in A (the boundary counts as inside).");
    v.field("iterations", r.iterations, "EPA iterations (inside points of shapes without a closed form), else 0.");
    v.field("status", r.status, "How EPA ended ('converged' when it did not run).");
    v.field("feature", r.feature, "The feature `point` lies on (a rounded shape: its core's).");
  }
};

template <>
struct Schema<MeshProjectResult> {
  static constexpr const char* name = "MeshProjectResult";
  static constexpr const char* doc =
      "project on a mesh or heightfield: the nearest point of its triangles (a surface: inside is false), and the "
      "triangle.";
  template <class V>
  static void fields(V& v, const MeshProjectResult& r) {
    v.base(static_cast<const ProjectResult&>(r));
    v.field("triangle", r.triangle, "The nearest triangle (the smallest index among equally near).");
    v.field("barycentric", resultVec(r.barycentric), "The point in the triangle's corners [i, j, k]: u, v, w.");
  }
};

template <>
struct Schema<ChungWangWedgeStep> {
  static constexpr const char* name = "ChungWangWedgeStep";
  static constexpr const char* doc = "One direction classified by the 2D hemisphere sweep.";
  template <class V>
  static void fields(V& v, const ChungWangWedgeStep& s) {
    v.field("index", s.index, "j: the direction r_j classified.");
    v.field("case", s.kase, "How it was treated.");
    v.field("projected", s.projected, "Its projection on the plane.");
    v.field("ra", s.ra, "The wedge after this step: the clockwise sweep from ra to rb (≤ π).");
    v.field("rb", s.rb, "The wedge's other side after this step.");
    v.field("ia", s.ia, "Index of ra in directions.");
    v.field("ib", s.ib, "Index of rb in directions.");
  }
};

// A Chung–Wang frame's wedge, and its hemisphere plane (fields of the
// frame grouped as the page draws them).
struct ChungWangWedge {
  const ChungWangFrame& frame;
};
struct ChungWangPlane {
  const ChungWangFrame& frame;
};

template <>
struct Schema<ChungWangWedge> {
  static constexpr const char* name = "ChungWangWedge";
  static constexpr const char* doc = "The final wedge: clockwise sweep from ra to rb (indices into directions).";
  template <class V>
  static void fields(V& v, const ChungWangWedge& x) {
    const ChungWangFrame& f = x.frame;
    v.field("ra", f.ra, "The wedge's first side.");
    v.field("rb", f.rb, "The wedge's last side.");
    v.field("ia", f.ia, "Index of ra in directions.");
    v.field("ib", f.ib, "Index of rb in directions.");
  }
};

template <>
struct Schema<ChungWangPlane> {
  static constexpr const char* name = "ChungWangPlane";
  static constexpr const char* doc =
      "Hemisphere frames: the plane ⊥ r (rows x, y, z = r of the rotation), the 2D projections, the wedge.";
  template <class V>
  static void fields(V& v, const ChungWangPlane& x) {
    const ChungWangFrame& f = x.frame;
    v.field("outcome", f.outcome, "How the sub-algorithm ended.");
    v.field("x", f.planeX, "First row of the rotation.");
    v.field("y", f.planeY, "Second row of the rotation.");
    v.field("z", f.planeZ, "Third row of the rotation: r.");
    v.field("projected", f.projected, "Projection of each direction on the plane (z = 0).");
    v.orNull("wedge", f.hasWedge, ChungWangWedge{f}, "The final wedge.");
    v.field("steps", f.wedgeSteps, "The sweep, one direction at a time.");
  }
};

template <>
struct Schema<ChungWangFrame> {
  static constexpr const char* name = "ChungWangFrame";
  static constexpr const char* doc = "One step of Chung–Wang's separating-vector algorithm (query \"chungwang\").";
  template <class V>
  static void fields(V& v, const ChungWangFrame& f) {
    v.field("kind", f.event, "What the frame shows.");
    v.field("reason", f.reason, "Why the step did what it did.");
    v.field("line", f.line, "1-based line of Trace.pseudocode.");
    v.field("iteration", f.iteration, "0 for init.");
    v.field("s", f.s, "The candidate separating axis of this step (unit).");
    v.orNull("pCore", f.hasSupport, f.pCore, "S_core(A)(s), the support point of A's core (support frames on).");
    v.orNull("qCore", f.hasSupport, f.qCore, "S_core(B)(−s), the support point of B's core (support frames on).");
    v.orNull("p", f.hasSupport, f.p, "p = S_A(s) = pCore + r_A s, on the rounded A (support frames on).");
    v.orNull("q", f.hasSupport, f.q, "q = S_B(−s) = qCore − r_B s, on the rounded B (support frames on).");
    v.orNull("gap", f.hasSupport, f.gap, "s·(q − p): s separates when it exceeds tolerance.");
    v.field("tolerance", f.tolerance, "τ: separated iff gap > τ.");
    v.orNull("r", f.hasR, f.r, "(q − p)/‖q − p‖.");
    v.field("directions", f.directions, "Every r so far: points on the Gauss sphere.");
    v.field("hemisphere", f.hemisphere, "A closed hemisphere still holds every r.");
    v.orNull("w", f.hasW, f.w, "The hemisphere's centre direction (w·r ≥ 0 for every r).");
    v.orNull("plane", f.hasPlane, ChungWangPlane{f}, "Hemisphere frames: the 2D problem on the plane ⊥ r.");
    v.orNull("nextS", f.hasNextS, f.nextS, "Reflect: s − 2(r·s)r; switch: w.");
  }
};

template <>
struct Schema<ChungWangResult> {
  static constexpr const char* name = "ChungWangResult";
  static constexpr const char* doc = "Chung–Wang's separating-vector test (query \"chungwang\").";
  template <class V>
  static void fields(V& v, const ChungWangResult& r) {
    v.field("intersecting", r.intersecting, "No separating axis was found.");
    v.orNull("separatingAxis", r.status == ChungWangStatus::Separated, resultVec(r.separatingAxis),
             "Unit, from A to B: a separating axis when apart; null otherwise.");
    v.field("iterations", r.iterations, "Pairs of support calls.");
    v.field("status", r.status,
            "'max-iterations' (near touching: no decision within the cap) is reported as intersecting.");
  }
};

// ---- the "obbtree" query (obbtree_view.h) ------------------------------------

template <>
struct EnumNames<ObbViewMode> {
  static constexpr const char* ts = "ObbTreeMode";
  static constexpr const char* doc = "What an \"obbtree\" scene shows (obbtree_view.h ObbViewMode).";
  static constexpr ObbViewMode last = ObbViewMode::MeshConvex;
  static const char* name(ObbViewMode m) { return obbViewModeName(m); }
};

template <>
struct EnumNames<ObbViewFrameKind> {
  static constexpr const char* ts = "ObbTreeFrameKind";
  static constexpr const char* doc = "What an \"obbtree\" frame shows (obbtree_view.h ObbViewFrameKind).";
  static constexpr ObbViewFrameKind last = ObbViewFrameKind::Done;
  static const char* name(ObbViewFrameKind k) { return obbViewFrameKindName(k); }
};

template <>
struct EnumNames<MeshMeshEventKind> {
  static constexpr const char* ts = "ObbTreeEvent";
  static constexpr const char* doc = "One step of a descent through OBB trees (mesh_mesh.h MeshMeshEventKind).";
  static constexpr MeshMeshEventKind last = MeshMeshEventKind::Triangle;
  static const char* name(MeshMeshEventKind k) { return meshMeshEventKindName(k); }
};

template <>
struct EnumNames<ObbSplit> {
  static constexpr const char* ts = "ObbTreeSplit";
  static constexpr const char* doc = "How a tree node was split (obbtree.h ObbSplit).";
  static constexpr ObbSplit last = ObbSplit::Median;
  static const char* name(ObbSplit s) { return obbSplitName(s); }
};

template <>
struct EnumNames<ObbAxisKind> {
  static constexpr const char* ts = "ObbAxisKind";
  static constexpr const char* doc = "The families of the 15 box axes (mesh_mesh.h ObbAxisKind).";
  static constexpr ObbAxisKind last = ObbAxisKind::EdgePair;
  static const char* name(ObbAxisKind k) { return obbAxisKindName(k); }
};

template <>
struct Schema<ObbViewNode> {
  static constexpr const char* name = "ObbTreeNodeBox";
  static constexpr const char* doc = "One node of an OBB tree level, in world coordinates.";
  template <class V>
  static void fields(V& v, const ObbViewNode& n) {
    v.field("node", n.node, "Index in the tree's preorder (the root 0).");
    v.field("parent", n.parent, "The parent's index; −1 for the root.");
    v.field("box", n.box, "The node's box (world).");
    v.field("split", n.split, "'leaf', or where the triangles were split: 'mean' or 'median' of their centroids.");
    v.orNull("splitAxis", n.splitAxis >= 0, n.splitAxis, "Inner nodes: the box axis split (0 … 2, the longest).");
    v.orNull("splitOffset", n.splitAxis >= 0, n.splitOffset,
             "Inner nodes: the split plane is axes[splitAxis]·(x − center) = splitOffset.");
    v.field("triangles", n.triangles, "Triangles under the node.");
  }
};

template <>
struct Schema<ObbViewFrame> {
  static constexpr const char* name = "ObbTreeFrame";
  static constexpr const char* doc =
      "One step of the \"obbtree\" trace: a level of the tree's build, a node pair of the descent, a triangle\n"
      "test, or the answer.";
  template <class V>
  static void fields(V& v, const ObbViewFrame& f) {
    const bool level = f.kind == ObbViewFrameKind::Level;
    const bool step = f.kind == ObbViewFrameKind::Step;
    const bool tri = step && f.event == MeshMeshEventKind::Triangle;
    const bool convexTri = tri && f.triangleB < 0;
    v.field("kind", f.kind, "What the frame shows.");
    v.orNull("level", level, f.level, "Level frames: the level (the root 0).");
    v.field("nodes", f.nodes, "Level frames: the level's nodes, left to right; empty otherwise.");
    v.field("levelCut", f.levelCut, "Level frames: the node cap left out the rest of this level.");
    v.orNull("event", step, f.event, "Step frames: what the step found.");
    v.orNull("nodeA", step, f.nodeA, "Step frames: A's node (for a triangle test, its leaf).");
    v.orNull("nodeB", step && f.nodeB >= 0, f.nodeB, "Step frames: B's node; null when B is a convex shape's box.");
    v.orNull("boxA", step, f.boxA, "Step frames: A's node box (world).");
    v.orNull("boxB", step, f.boxB, "Step frames: B's node box, or the convex shape's box (world).");
    v.orNull("axis", f.axis >= 0, f.axis, "'box-apart': the separating axis among the 15 (0–2 A's faces, 3–5 B's, "
                                          "6 + 3i + j the edge pair a_i × b_j).");
    v.orNull("axisKind", f.axis >= 0, obbAxisKind(f.axis >= 0 ? f.axis : 0), "'box-apart': the axis's family.");
    v.orNull("axisDirection", f.axis >= 0, resultVec(f.axisDirection),
             "'box-apart': the axis, unit, world (zero for parallel edges, never a separating axis).");
    v.orNull("triangleA", tri, f.triangleA, "'triangle': A's triangle.");
    v.orNull("triangleB", tri && f.triangleB >= 0, f.triangleB, "'triangle': B's triangle; null when B is convex.");
    v.orNull("hit", tri, f.hit, "'triangle': whether the triangle touches or crosses B's triangle, or the convex B.");
    v.orNull("cornersA", tri, f.cornersA, "'triangle': A's triangle's world corners.");
    v.orNull("cornersB", tri && f.triangleB >= 0, f.cornersB, "'triangle': B's triangle's world corners.");
    v.orNull("iterations", convexTri, f.iterations,
             "'triangle' against a convex B: GJK's iterations (the intersect query's test of that triangle).");
    v.orNull("firstHit", convexTri, f.firstHit,
             "'triangle' against a convex B: the first touching triangle, the intersect query's answer.");
    v.orNull("distance", convexTri && !f.hit, f.distance,
             "'triangle' against a convex B, apart: the triangle's distance to B (GJK distance, measured for the "
             "view: intersect's test decides without it).");
    v.orNull("pointA", convexTri && !f.hit, resultVec(f.pointA), "… its closest point on the triangle (world).");
    v.orNull("pointB", convexTri && !f.hit, resultVec(f.pointB), "… and on B (world).");
    v.orNull("intersecting", f.kind == ObbViewFrameKind::Done, f.intersecting, "Done frame: the answer.");
    v.field("nodePairs", static_cast<double>(f.nodePairs), "Node pairs tested so far (sphere tests).");
    v.field("boxTests", static_cast<double>(f.boxTests), "15-axis box tests so far.");
    v.field("triangleTests", static_cast<double>(f.triangleTests),
            "Triangle tests so far (a convex B: the candidate triangles tested so far).");
  }
};

template <>
struct Schema<ObbViewResult> {
  static constexpr const char* name = "ObbTreeResult";
  static constexpr const char* doc =
      "Query \"obbtree\": mesh A's OBB tree, and with a shape B the intersect answer, the work of the descent and\n"
      "the seed's bounds on it.";
  template <class V>
  static void fields(V& v, const ObbViewResult& r) {
    const bool pair = r.mode != ObbViewMode::Tree;
    v.field("mode", r.mode, "'tree' (one mesh), 'mesh-mesh' or 'mesh-convex'.");
    v.field("triangles", r.triangles, "A's triangles.");
    v.field("nodes", r.nodes, "A's tree nodes.");
    v.field("depth", r.depth, "A's tree levels (a lone root: 1).");
    v.field("leaves", r.leaves, "A's leaves.");
    v.field("meanSplits", r.meanSplits, "Inner nodes split at the mean of the centroids.");
    v.field("medianSplits", r.medianSplits, "Inner nodes split at the median (the mean left a side empty).");
    v.orNull("trianglesB", pair, r.trianglesB, "B's triangles (a convex B counts as 1: its box).");
    v.orNull("intersecting", pair, r.intersecting, "Whether A and B touch or overlap.");
    v.orNull("triangleA", pair && r.firstA >= 0, r.firstA, "The first touching triangle of A found.");
    v.orNull("triangleB", pair && r.firstB >= 0, r.firstB, "Mesh–mesh: its partner in B.");
    v.orNull("contacts", pair, static_cast<double>(r.contacts),
             "k: intersecting triangle pairs (mesh–convex: triangles touching B).");
    v.orNull("nodePairs", pair, static_cast<double>(r.nodePairs), "Node pairs tested (the seed's D + I).");
    v.orNull("sphereApart", pair, static_cast<double>(r.sphereApart), "Pairs the sphere test found apart.");
    v.orNull("boxTests", pair, static_cast<double>(r.boxTests), "Pairs that reached the 15-axis test.");
    v.orNull("boxApart", pair, static_cast<double>(r.boxApart), "Pairs the 15-axis test found apart.");
    v.orNull("overlapping", pair, static_cast<double>(r.overlapping), "I: pairs found overlapping.");
    v.orNull("triangleTests", pair, static_cast<double>(r.triangleTests),
             "Triangle pair tests (mesh–convex: the candidate triangles).");
    v.orNull("singleContactBound", pair, r.bounds.singleContact, "The seed's 2·log₂(nA·nB) + 1.");
    v.orNull("lowerBound", pair, r.bounds.lower, "The seed's 2·log₂(nA·nB/k) + 2k − 1 (k at least 1).");
    v.orNull("upperBound", pair, r.bounds.upper, "The seed's 2k·log₂(nA·nB/k) + 2k − 1.");
    v.orNull("pathBound", pair && r.pathBound >= 0, static_cast<double>(r.pathBound),
             "2·(ℓA + ℓB) + 1 for the leaves of the first touching pair: the least any volume tests.");
    v.field("levelsTruncated", r.levelsTruncated, "The trace shows the first 511 nodes of the tree only.");
    v.field("stepsTruncated", r.stepsTruncated, "The trace shows the first 2000 steps (node pairs and triangle tests) only.");
    v.field("ok", r.ok, "False when a descent stopped short (invalid input or a corrupt tree): counts so far.");
  }
};

}  // namespace collidoscope
