// collidoscope — the manifolds of a pair with a compound (see manifold.h):
// one per pair of pieces, each the manifold of the two pieces as a convex
// pair (manifold()) or a mesh pair (meshManifold()), its feature ids
// renamed by the pieces' indices. In a file of its own: the solver calls it
// where a pair holds a compound, and manifold.cpp stays the convex pair's.
#include <cmath>
#include <cstdint>

#include "collidoscope/compound.h"
#include "collidoscope/manifold.h"
#include "manifold_internal.h"

namespace collidoscope {

using namespace manifold_detail;

namespace {

// A point's id with the pair of pieces it comes from: piece indices run to
// kMaxCompoundChildren − 1 and −1 stands for a shape that is not a
// compound, so (i + 1)·(kMaxCompoundChildren + 2) + (j + 1) names each pair
// once; the same features of the same two children keep the same id from
// step to step, and equal feature ids of two child pairs differ.
std::uint32_t childPairId(std::uint32_t id, int i, int j) {
  constexpr std::uint32_t kStride = static_cast<std::uint32_t>(kMaxCompoundChildren) + 2;
  const std::uint32_t pair = static_cast<std::uint32_t>(i + 1) * kStride + static_cast<std::uint32_t>(j + 1);
  return featureId(ManifoldFeatureKind::Single, id, pair);
}

}  // namespace

ManifoldStatus compoundManifolds(const Shape& a, const Shape& b, double margin, MeshContact* scratch, int capacity,
                                 Manifold* out, int maxOut, int* count, bool* truncated,
                                 const ManifoldSettings& settings) {
  *count = 0;
  if (truncated != nullptr) *truncated = false;
  if (!(margin >= 0) || !std::isfinite(margin)) return ManifoldStatus::InvalidMargin;
  if (!validAngle(settings)) return ManifoldStatus::InvalidAngle;
  const bool compoundA = a.type == ShapeType::Compound, compoundB = b.type == ShapeType::Compound;
  if ((!compoundA && !compoundB) || (compoundA && !a.compoundData) || (compoundB && !b.compoundData) || maxOut < 0)
    return ManifoldStatus::Unsupported;
  // The children posed in the world into the compound's own copies (no
  // allocation): [0] for A and [1] for B, so a compound against a copy of
  // itself has both.
  const CompoundSide A = compoundSide(a, a.pose, compoundA ? &a.compoundData->posed[0] : nullptr);
  const CompoundSide B = compoundSide(b, b.pose, compoundB ? &b.compoundData->posed[1] : nullptr);
  ManifoldStatus status = ManifoldStatus::Ok;
  forChildPairsWithin(A, B, margin, [&](std::size_t i, std::size_t j) {
    const Shape& pa = A.pieces[i];
    const Shape& pb = B.pieces[j];
    Manifold m;
    bool cut = false;
    const bool mesh = pa.type == ShapeType::Mesh || pb.type == ShapeType::Mesh;
    const ManifoldStatus st = mesh ? meshManifold(pa, pb, margin, scratch, capacity, &m, &cut, settings)
                                   : manifold(pa, pb, margin, &m, settings);
    if (cut && truncated != nullptr) *truncated = true;
    if (st != ManifoldStatus::Ok) {
      status = st;
      return false;
    }
    if (m.count == 0) return true;
    for (int k = 0; k < m.count; ++k) m.points[k].id = childPairId(m.points[k].id, A.index(i), B.index(j));
    if (*count < maxOut) {
      out[(*count)++] = m;
      return true;
    }
    if (truncated != nullptr) *truncated = true;
    // Full: the new manifold takes the place of the one whose deepest
    // point is the shallowest, when it goes deeper (each manifold's first
    // point is its deepest): the deepest contacts are the ones to keep.
    int shallowest = 0;
    for (int k = 1; k < maxOut; ++k)
      if (out[k].points[0].distance > out[shallowest].points[0].distance) shallowest = k;
    if (maxOut > 0 && m.points[0].distance < out[shallowest].points[0].distance) out[shallowest] = m;
    return true;
  });
  if (status != ManifoldStatus::Ok) *count = 0;
  return status;
}

}  // namespace collidoscope
