// collidoscope — the manifold of a mesh and a convex shape (see manifold.h).
// In a file of its own so that a build without meshes (wasm/flavours) can
// leave the mesh code out while keeping manifold().
#include <cmath>

#include "collidoscope/manifold.h"
#include "collidoscope/mesh_convex.h"
#include "collidoscope/mesh_pair.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/portable_math.h"
#include "manifold_internal.h"

namespace collidoscope {

using namespace manifold_detail;

ManifoldStatus meshManifold(const Shape& a, const Shape& b, double margin, MeshContact* scratch, int capacity,
                            Manifold* out, bool* truncated, const ManifoldSettings& settings) {
  *out = Manifold{};
  if (truncated != nullptr) *truncated = false;
  if (!(margin >= 0) || !std::isfinite(margin)) return ManifoldStatus::InvalidMargin;
  if (!validAngle(settings)) return ManifoldStatus::InvalidAngle;
  const bool meshIsA = a.type == ShapeType::Mesh;
  const Shape& mesh = meshIsA ? a : b;
  const Shape& other = meshIsA ? b : a;
  if (mesh.type != ShapeType::Mesh || other.type == ShapeType::Mesh || other.type == ShapeType::Compound ||
      !mesh.meshData || capacity < 0)
    return ManifoldStatus::Unsupported;
  MeshConvexSettings ms;
  ms.gjk = settings.gjk;
  ms.epa = settings.epa;
  ms.meshMargin = mesh.margin;
  const MeshContactsResult r = meshPairContacts(a, b, margin, scratch, capacity, ms);
  if (truncated != nullptr) *truncated = r.truncated;
  out->iterations = r.boxTests + r.triangleTests;
  out->status = r.status == MeshQueryStatus::Converged       ? EpaStatus::Converged
                : r.status == MeshQueryStatus::MaxIterations ? EpaStatus::MaxIterations
                                                             : EpaStatus::Degenerate;
  if (r.count == 0) return ManifoldStatus::Ok;
  // The shared normal: the deepest contact's (the first in tree order on a tie).
  int deepest = 0;
  for (int i = 1; i < r.count; ++i)
    if (scratch[i].depth > scratch[deepest].depth) deepest = i;
  const Vec3 n = scratch[deepest].normal;
  out->normal = n;
  const double sinAngle = portable::sin(settings.faceAngle);
  const double cosNormal = portable::cos(kManifoldMeshNormalAngle);
  // The shape's feature facing the mesh, the same for every triangle.
  Feature otherFeature;
  const bool otherFlat = featureOf(other, meshIsA ? -n : n, sinAngle, &otherFeature);
  const TriangleMesh& m = mesh.meshData->mesh;
  // Candidates of every triangle; reduced to four whenever another triangle's would not fit.
  ManifoldPoint pool[2 * kMaxCandidates];
  int pooled = 0;
  for (int i = 0; i < r.count; ++i) {
    const MeshContact& c = scratch[i];
    if (i != deepest && !(dot(c.normal, n) >= cosNormal)) continue;
    ManifoldPoint cand[kMaxCandidates];
    int k = 0;
    if (otherFlat) {
      CoreView tv;
      tv.n = 3;
      tv.ownIdsGiven = true;
      tv.radius = mesh.margin;
      const auto& t = m.triangles[static_cast<std::size_t>(c.triangle)];
      for (int j = 0; j < 3; ++j) {
        tv.own[j] = mesh.pose.apply(m.vertices[static_cast<std::size_t>(t[j])]);
        tv.ownIds[j] = static_cast<std::uint32_t>(t[j]);
      }
      Feature triangle;
      supportFeature(tv, meshIsA ? n : -n, sinAngle, &triangle);
      k = meshIsA ? clipFeatures(triangle, otherFeature, n, margin, sinAngle, cand)
                  : clipFeatures(otherFeature, triangle, n, margin, sinAngle, cand);
    }
    if (k > 0)
      k = keepDeepest(cand, k, c.pointA, c.pointB, dot(c.pointB - c.pointA, n),
                      featureId(ManifoldFeatureKind::Single, static_cast<std::uint32_t>(c.triangle), 0));
    if (k == 0) {
      // Not clipped: the triangle's own contact, measured along the shared normal.
      ManifoldPoint& p = cand[0];
      p.pointA = c.pointA;
      p.pointB = c.pointB;
      p.distance = dot(c.pointB - c.pointA, n);
      p.id = featureId(ManifoldFeatureKind::Single, static_cast<std::uint32_t>(c.triangle), 0);
      if (!(p.distance <= margin)) continue;
      k = 1;
    }
    if (pooled + k > 2 * kMaxCandidates) {
      Manifold kept;
      reduceToFour(pool, pooled, n, &kept);
      for (int j = 0; j < kept.count; ++j) pool[j] = kept.points[j];
      pooled = kept.count;
    }
    for (int j = 0; j < k; ++j) {
      cand[j].triangle = c.triangle;
      pool[pooled++] = cand[j];
    }
  }
  reduceToFour(pool, pooled, n, out);
  return ManifoldStatus::Ok;
}

}  // namespace collidoscope
