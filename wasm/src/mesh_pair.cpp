// collidoscope — pair queries with a mesh shape (see mesh_pair.h).
#include "collidoscope/mesh_pair.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "collidoscope/batch_layout.h"

namespace collidoscope {

MeshMeshResult meshMeshIntersect(const Shape& a, const Shape& b) {
  const MeshShape& ma = *a.meshData;
  const MeshShape& mb = *b.meshData;
  return meshesIntersect(ma.mesh, ma.tree(), a.pose, mb.mesh, mb.tree(), b.pose);
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
  return meshConvexIntersect(m.mesh, m.tree(), s.mesh->pose, *s.other, settings);
}

MeshDistanceResult meshPairDistance(const Shape& a, const Shape& b, const MeshConvexSettings& settings) {
  const Sides s = sidesOf(a, b);
  const MeshShape& m = *s.mesh->meshData;
  MeshDistanceResult r = meshConvexDistance(m.mesh, m.tree(), s.mesh->pose, *s.other, settings);
  if (s.meshIsB) std::swap(r.pointA, r.pointB);
  return r;
}

MeshShapeCastResult meshPairShapeCast(const Shape& a, const Shape& b, const Vec3& translationA,
                                      const Vec3& translationB, const MeshConvexSettings& settings) {
  const Sides s = sidesOf(a, b);
  const MeshShape& m = *s.mesh->meshData;
  const Vec3 meshMotion = s.meshIsB ? translationB : translationA;
  const Vec3 otherMotion = s.meshIsB ? translationA : translationB;
  MeshShapeCastResult r = meshConvexShapeCast(m.mesh, m.tree(), s.mesh->pose, *s.other, otherMotion - meshMotion, settings);
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
  MeshContactsResult r = meshConvexContacts(m.mesh, m.tree(), s.mesh->pose, *s.other, margin, out, capacity, settings);
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

void projectOnMesh(const Shape& mesh, const Vec3& p, MeshProjectResult* out) {
  const MeshDistanceResult d = meshPairDistance(mesh, pointShape(p));
  const TriangleMesh& m = mesh.meshData->mesh;
  out->point = d.pointA;
  out->distance = d.distance;
  out->inside = false;
  out->iterations = d.boxTests + d.triangleTests;
  out->status = d.status == MeshQueryStatus::Converged ? EpaStatus::Converged
                : d.status == MeshQueryStatus::MaxIterations ? EpaStatus::MaxIterations
                                                             : EpaStatus::Degenerate;
  out->triangle = d.triangle;
  const auto& t = m.triangles[static_cast<std::size_t>(d.triangle)];
  Vec3 v[3];
  for (int k = 0; k < 3; ++k) v[k] = mesh.pose.apply(m.vertices[static_cast<std::size_t>(t[k])]);
  // Barycentric coordinates of the foot (Ericson, Real-Time Collision Detection, 3.4); a triangle without
  // area has none: (1, 0, 0) then.
  const Vec3 e1 = v[1] - v[0], e2 = v[2] - v[0], x = d.pointA - v[0];
  const double d11 = dot(e1, e1), d12 = dot(e1, e2), d22 = dot(e2, e2), denom = d11 * d22 - d12 * d12;
  const double b1 = denom > 0 ? (d22 * dot(x, e1) - d12 * dot(x, e2)) / denom : 0;
  const double b2 = denom > 0 ? (d11 * dot(x, e2) - d12 * dot(x, e1)) / denom : 0;
  out->barycentric = {1 - b1 - b2, b1, b2};
  // The feature: a corner within the tolerance, else an edge, else the triangle.
  const double tol = kFeatureTolerance * localBoundingRadius(mesh);
  PointFeature& f = out->feature;
  int corner = -1, edge = -1;
  double dc = tol, de = tol;
  for (int k = 0; k < 3; ++k) {
    const double dk = length(v[k] - d.pointA);
    if (dk <= dc) dc = dk, corner = k;
    const Vec3 a = v[k], e = v[(k + 1) % 3] - a;
    const double ee = dot(e, e);
    const double s = ee > 0 ? std::fmin(std::fmax(dot(d.pointA - a, e) / ee, 0.0), 1.0) : 0.0;
    const double dl = length(a + e * s - d.pointA);
    if (dl <= de) de = dl, edge = k;
  }
  if (corner >= 0) {
    f.kind = FeatureKind::Vertex;
    f.vertices.assign({t[static_cast<std::size_t>(corner)]});
  } else if (edge >= 0) {
    const int i = t[static_cast<std::size_t>(edge)], j = t[static_cast<std::size_t>((edge + 1) % 3)];
    f.kind = FeatureKind::Edge;
    f.vertices.assign({std::min(i, j), std::max(i, j)});
  } else {
    f.kind = FeatureKind::Face;
    f.vertices.assign({t[0], t[1], t[2]});
  }
}

}  // namespace collidoscope
