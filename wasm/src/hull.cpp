// collidoscope — names and pseudocode for quickhull (the algorithm is in hull.h).
#include "collidoscope/hull.h"

namespace collidoscope {

namespace {

// Line numbers must match hull_lines in hull.h.
const char* const kHullPseudocode[] = {
    "extremes ← the farthest pair of the x, y, z extreme points, the point farthest from their line, and from their plane",
    "if one of those distances is within tolerance: the hull is a point, a segment or a polygon (2D hull)",
    "build a tetrahedron from the four points",
    "give every other point to the face it lies farthest above (points above no face are inside)",
    "while some face has conflict points:",
    "  eye ← the farthest conflict point of that face",
    "  visible ← the faces the eye lies above (search from that face over shared edges)",
    "  horizon ← the edges between visible and hidden faces, as one loop",
    "  replace the visible faces by a cone of new faces from the eye to the horizon",
    "  give the visible faces' conflict points to the new faces (or drop them: inside)",
    "merge coplanar faces; report vertices, faces and adjacency",
    nullptr,
};

}  // namespace

const char* const* hullPseudocode() { return kHullPseudocode; }

const char* hullKindName(HullKind k) {
  switch (k) {
    case HullKind::Point: return "point";
    case HullKind::Segment: return "segment";
    case HullKind::Polygon: return "polygon";
    case HullKind::Polyhedron: return "polyhedron";
  }
  return "point";
}

}  // namespace collidoscope
