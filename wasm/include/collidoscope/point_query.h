// collidoscope — point queries on one convex shape: does it contain a
// point, and which point of its surface is nearest.
//
// Both are the pair queries with a point for B, so they inherit the
// accuracy and the closed forms of those (closed_form.h for points,
// spheres, capsules, segments and boxes; GJK and EPA otherwise):
//   contains   gjkIntersect(A, {p}): p lies in the solid A, its boundary
//              included (a point on the surface counts as inside, within
//              GJK's rounding bound);
//   project    p outside A: the closest point of A is GJK's closest point
//              on A and the distance GJK's distance;
//              p inside A: the nearest point of A's *surface* is the
//              penetration of {p} into A: moving p by depth·normal takes
//              it out, so pointA = p + depth·normal is on the surface and
//              the distance to it is the depth (the penetration depth of a
//              point is its distance to the boundary of a convex set).
// contains allocates nothing on the heap; project names the feature it
// lands on in a list that the overload with a ProjectResult* reuses.
//
// The feature (ProjectResult::feature) is read off the closest point by
// its location, with the tolerance kFeatureTolerance × the shape's size:
// within it of a vertex, the vertex; else within it of an edge, the edge;
// else the face. A rounded shape (margin, sphere and capsule radius) names
// the feature of its core that the point rounds from; a scaled shape is
// classified in its unscaled frame (scale maps features to features).
//   point, box, segment, triangle, polytope  'vertex' | 'edge' | 'face' with
//       the indices of the input points (box corners: (x>0) + 2(y>0) +
//       4(z>0)); an edge lists its two ends, a face every input point on
//       its plane (ascending)
//   sphere, ellipsoid  'surface' []
//   capsule   'cap' [end] | 'side' [0, 1]
//   cylinder  'cap' [end] | 'rim' [end] | 'side' [0, 1]
//   cone      'base' [0] | 'rim' [0] | 'apex' [1] | 'side' [0, 1]
//   plane     'face' []
// where end 0 is the −y end of the local axis and 1 the +y end.
#pragma once

#include <vector>

#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/math.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

struct ContainsResult {
  bool inside = false;  // true also on the boundary
  int iterations = 0;   // GJK iterations (0 for a closed form)
  GjkStatus status = GjkStatus::Converged;
};

enum class FeatureKind { Vertex, Edge, Face, Surface, Side, Cap, Rim, Base, Apex };
const char* featureKindName(FeatureKind k);

// Relative tolerance of the feature naming, times the shape's bounding
// radius. The closest points it reads are accurate to about 1e-9 of the
// shape's size (GJK and EPA stop at 1e-10, the closed forms are exact to
// rounding): 1e-7 stays a hundred times above that, so a point placed on
// an edge is named the edge, and far below any feature a scene models
// (0.1 µm on a 1 m shape).
constexpr double kFeatureTolerance = 1e-7;

struct PointFeature {
  FeatureKind kind = FeatureKind::Face;
  std::vector<int> vertices;  // see the header comment
};

struct SatHull;  // sat.h

struct ProjectResult {
  Vec3 point;           // the point of A's surface nearest the query point
  double distance = 0;  // |point − query point|, whether inside or not
  bool inside = false;  // the query point lies in A (boundary included)
  int iterations = 0;   // EPA iterations when inside, else 0
  EpaStatus status = EpaStatus::Converged;
  PointFeature feature;  // the feature `point` lies on (header comment)
};

// A point as a shape at p (for the pair queries). Allocates nothing.
inline Shape pointShape(const Vec3& p) {
  Shape s;
  s.pose.position = p;
  return s;
}

// s (with its pose) and a world point p.
ContainsResult containsPoint(const Shape& s, const Vec3& p, const GjkSettings& settings = GjkSettings{});
ProjectResult projectPoint(const Shape& s, const Vec3& p, const GjkSettings& gjkSettings = GjkSettings{},
                           const EpaSettings& epaSettings = EpaSettings{});
// The same into *out, whose feature list keeps its storage (no allocation
// once it holds the largest face). A polytopal core's feature is read from
// its SatHull (sat.h): pass the shape's own, built once; null builds one.
void projectPoint(const Shape& s, const Vec3& p, ProjectResult* out, const SatHull* hull,
                  const GjkSettings& gjkSettings = GjkSettings{}, const EpaSettings& epaSettings = EpaSettings{});

}  // namespace collidoscope
