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

// Clips two features facing each other along n (A's along n, B's along −n)
// into out[0 .. kMaxCandidates); returns how many points are within the
// margin, 0 when the pair is not clipped (a vertex, crossing edges, no face
// within the angle).
int clipFeatures(const Feature& fa, const Feature& fb, const Vec3& n, double margin, double sinAngle,
                 ManifoldPoint* out);

// Keeps at most four of in[0 .. m) in out (header, step 5).
void reduceToFour(const ManifoldPoint* in, int m, const Vec3& n, Manifold* out);

std::uint32_t featureId(int kind, bool referenceIsB, std::uint32_t incident, std::uint32_t reference);

}  // namespace manifold_detail
}  // namespace collidoscope
