// collidoscope — pair queries with a mesh shape (see mesh_pair.h).
#include "collidoscope/mesh_pair.h"

#include <utility>

#include "collidoscope/batch_layout.h"

namespace collidoscope {

MeshMeshResult meshMeshIntersect(const Shape& a, const Shape& b) {
  const MeshShape& ma = *a.meshData;
  const MeshShape& mb = *b.meshData;
  return meshesIntersect(ma.mesh, ma.tree, a.pose, mb.mesh, mb.tree, b.pose);
}

namespace {

// (mesh, other) of a mesh–convex pair, and whether the mesh is B.
struct Sides {
  const Shape* mesh;
  const Shape* other;
  bool meshIsB;
};

Sides sidesOf(const Shape& a, const Shape& b) {
  if (a.type == ShapeType::Mesh) return {&a, &b, false};
  return {&b, &a, true};
}

}  // namespace

MeshIntersectResult meshPairIntersect(const Shape& a, const Shape& b, const MeshConvexSettings& settings) {
  const Sides s = sidesOf(a, b);
  const MeshShape& m = *s.mesh->meshData;
  return meshConvexIntersect(m.mesh, m.tree, s.mesh->pose, *s.other, settings);
}

MeshDistanceResult meshPairDistance(const Shape& a, const Shape& b, const MeshConvexSettings& settings) {
  const Sides s = sidesOf(a, b);
  const MeshShape& m = *s.mesh->meshData;
  MeshDistanceResult r = meshConvexDistance(m.mesh, m.tree, s.mesh->pose, *s.other, settings);
  if (s.meshIsB) std::swap(r.pointA, r.pointB);
  return r;
}

MeshShapeCastResult meshPairShapeCast(const Shape& a, const Shape& b, const Vec3& translationA,
                                      const Vec3& translationB, const MeshConvexSettings& settings) {
  const Sides s = sidesOf(a, b);
  const MeshShape& m = *s.mesh->meshData;
  const Vec3 meshMotion = s.meshIsB ? translationB : translationA;
  const Vec3 otherMotion = s.meshIsB ? translationA : translationB;
  MeshShapeCastResult r = meshConvexShapeCast(m.mesh, m.tree, s.mesh->pose, *s.other, otherMotion - meshMotion, settings);
  if (r.hit) {
    // Back from the frame moving with the mesh: both points moved with it.
    const Vec3 shift = meshMotion * r.t;
    r.pointA = r.pointA + shift;
    r.pointB = r.pointB + shift;
  }
  if (s.meshIsB) {
    std::swap(r.pointA, r.pointB);
    r.normal = -r.normal;
  }
  return r;
}

MeshContactsResult meshPairContacts(const Shape& a, const Shape& b, double margin, MeshContact* out, int capacity,
                                    const MeshConvexSettings& settings) {
  const Sides s = sidesOf(a, b);
  const MeshShape& m = *s.mesh->meshData;
  MeshContactsResult r = meshConvexContacts(m.mesh, m.tree, s.mesh->pose, *s.other, margin, out, capacity, settings);
  if (s.meshIsB) {
    for (int i = 0; i < r.count; ++i) {
      std::swap(out[i].pointA, out[i].pointB);
      out[i].normal = -out[i].normal;
    }
  }
  return r;
}

void meshPairContactsInto(const Shape& a, const Shape& b, double margin, MeshContact* scratch, int capacity,
                          double* header, double* records) {
  using api::kContactRecordLayout;
  using api::offsetIn;
  const MeshContactsResult r = meshPairContacts(a, b, margin, scratch, capacity);
  header[0] = r.count;
  header[1] = r.truncated ? 1 : 0;
  header[2] = r.boxTests + r.triangleTests;
  constexpr int kStride = api::strideOf(kContactRecordLayout);
  for (int i = 0; i < r.count; ++i) {
    const MeshContact& m = scratch[i];
    double* o = records + kStride * i;
    o[offsetIn(kContactRecordLayout, "depth")] = m.depth;
    const Vec3* v[3] = {&m.normal, &m.pointA, &m.pointB};
    const int at[3] = {offsetIn(kContactRecordLayout, "normal"), offsetIn(kContactRecordLayout, "pointA"),
                       offsetIn(kContactRecordLayout, "pointB")};
    for (int k = 0; k < 3; ++k) {
      o[at[k]] = v[k]->x;
      o[at[k] + 1] = v[k]->y;
      o[at[k] + 2] = v[k]->z;
    }
    o[offsetIn(kContactRecordLayout, "triangle")] = m.triangle;
  }
}

}  // namespace collidoscope
