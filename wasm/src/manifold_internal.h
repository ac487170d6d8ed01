// collidoscope — the pieces of manifold.cpp that manifold_mesh.cpp reuses
// (not installed: the public API is manifold.h).
#pragma once

#include <cstdint>

#include "collidoscope/manifold.h"

namespace collidoscope {
namespace manifold_detail {

// Most candidate points of one clipping: Sutherland–Hodgman adds at most
// one point per side plane to the incident polygon.
constexpr int kMaxCandidates = 2 * kManifoldMaxFeature + 8;

// A polytopal core's vertices in world space without copying them: a
// polytope's, segment's or triangle's own points, or up to 8 held here
// (a box's corners, a capsule's ends, a point), each with its feature id.
struct CoreView {
  int n = 0;
  const Vec3* local = nullptr;  // null: own[]
  Vec3 own[8];
  std::uint32_t ownIds[8] = {};
  bool ownIdsGiven = false;     // ids from ownIds (a mesh triangle's vertex indices), else the index
  Transform pose;
  Vec3 scale{1, 1, 1};
  double radius = 0;
  Vec3 at(int i) const {
    const Vec3 v = local != nullptr ? local[i] : own[i];
    return pose.apply({v.x * scale.x, v.y * scale.y, v.z * scale.z});
  }
  std::uint32_t id(int i) const { return ownIdsGiven ? ownIds[i] : static_cast<std::uint32_t>(i); }
};

// The view of a shape whose solid is a polytopal core plus a ball (false:
// curved cores, a scaled sphere or capsule, planes, meshes, compounds).
bool coreViewOf(const Shape& s, CoreView* out);

// The supporting feature of a core along a unit direction (header, step 2).
struct Feature {
  int n = 0;                        // 1 vertex, 2 edge, ≥ 3 face (counter-clockwise about `normal`)
  Vec3 p[kManifoldMaxFeature];      // core points (world)
  std::uint32_t id[kManifoldMaxFeature];
  Vec3 normal;                      // outward: the face's normal, else the direction asked
  double radius = 0;
};
void supportFeature(const CoreView& v, const Vec3& d, double sinAngle, Feature* out);

// supportFeature of a box's core (8 corners, coreViewOf's order) when its first look along d
// catches exactly one face's corners: the same face, bit for bit (points, order, ids, normal),
// without the general search's hull; false otherwise (then supportFeature answers).
bool boxFaceFeature(const CoreView& v, const Vec3& d, double sinAngle, Feature* out);

// The flat features of curved cores along a unit direction within the
// angle: a cylinder's cap (the inscribed regular kManifoldCapVertices-gon,
// whose points are all on the cap) or side line, a cone's base or side line
// (rim to apex). False for other shapes and directions.
bool curvedFeature(const Shape& s, const Vec3& d, double sinAngle, Feature* out);

// supportFeature of a polytopal core, else curvedFeature; false when the
// shape has neither (a sphere's is its centre: it has one).
bool featureOf(const Shape& s, const Vec3& d, double sinAngle, Feature* out);

// Clips two features facing each other along n (A's along n, B's along −n)
// into out[0 .. kMaxCandidates); returns how many points are within the
// margin, 0 when the pair is not clipped (a vertex, crossing edges, no face
// within the angle).
int clipFeatures(const Feature& fa, const Feature& fb, const Vec3& n, double margin, double sinAngle,
                 ManifoldPoint* out);

// A pair this much deeper than every clipped point (relative to the points'
// coordinates) is the contact query's deepest pair lying outside the clipped
// region (a vertex of B beyond the edge of A's face): it joins the
// candidates. 1e-9 is the library's accuracy (DESIGN.md): closer than that
// the clipped points already hold the depth.
constexpr double kDeepestSlack = 1e-9;

// Adds the pair (pointA, pointB, distance) to cand[0 .. m) when it is deeper
// than every candidate by kDeepestSlack (replacing the shallowest when
// full); returns the new count.
int keepDeepest(ManifoldPoint* cand, int m, const Vec3& pointA, const Vec3& pointB, double distance,
                std::uint32_t id);

// Whether settings.faceAngle is in (0, π/4].
bool validAngle(const ManifoldSettings& s);

// Keeps at most four of in[0 .. m) in out (header, step 5).
void reduceToFour(const ManifoldPoint* in, int m, const Vec3& n, Manifold* out);

// Feature ids (manifold.h): a vertex of A or of B (its index), the crossing
// of an edge of A with an edge of B (their first vertices), the one point
// of an unclipped pair (0, or a mesh triangle's index).
enum class ManifoldFeatureKind : std::uint32_t { VertexOfA, VertexOfB, Crossing, Single };
std::uint32_t featureId(ManifoldFeatureKind kind, std::uint32_t first, std::uint32_t second);

}  // namespace manifold_detail
}  // namespace collidoscope
