// collidoscope — triangle mesh validation (see mesh.h).
#include "collidoscope/mesh.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "collidoscope/predicates.h"

namespace collidoscope {

namespace {

std::string vertexField(std::size_t i, int k) {
  return "vertices[" + std::to_string(i) + "][" + std::to_string(k) + "]";
}
std::string triangleField(std::size_t i, int k) {
  return "triangles[" + std::to_string(i) + "][" + std::to_string(k) + "]";
}

// Lexicographic order on coordinates (all finite here).
bool lessVec(const Vec3& a, const Vec3& b) {
  if (a.x != b.x) return a.x < b.x;
  if (a.y != b.y) return a.y < b.y;
  return a.z < b.z;
}

}  // namespace

Vec3 triangleUnitNormal(const Vec3& a, const Vec3& b, const Vec3& c) {
  const double ab = lengthSquared(b - a), bc = lengthSquared(c - b), ca = lengthSquared(a - c);
  // Cyclic relabelling keeps the orientation: (b−a)×(c−a) = (c−b)×(a−b) = (a−c)×(b−c).
  Vec3 n;
  if (ab >= bc && ab >= ca) n = cross(a - c, b - c);       // longest edge ab: apex c
  else if (bc >= ca) n = cross(b - a, c - a);              // longest edge bc: apex a
  else n = cross(c - b, a - b);                            // longest edge ca: apex b
  if (!isFinite(n) || !(maxAbs(n) > 0) || collinear3d(a, b, c)) return Vec3{};
  return normalizedOr(n, Vec3{});
}

bool validateMesh(const TriangleMesh& m, ShapeError* err, MeshReport* report) {
  const std::size_t nv = m.vertices.size(), nt = m.triangles.size();
  if (nv == 0) {
    *err = {"vertices", "a mesh needs at least 1 vertex, got 0"};
    return false;
  }
  if (nt == 0) {
    *err = {"triangles", "a mesh needs at least 1 triangle, got 0"};
    return false;
  }
  if (nv > kMaxMeshVertices) {
    *err = {"vertices", "a mesh may have at most " + std::to_string(kMaxMeshVertices) + " vertices, got " +
                            std::to_string(nv)};
    return false;
  }
  if (nt > kMaxMeshTriangles) {
    *err = {"triangles", "a mesh may have at most " + std::to_string(kMaxMeshTriangles) + " triangles, got " +
                             std::to_string(nt)};
    return false;
  }
  for (std::size_t i = 0; i < nv; ++i)
    for (int k = 0; k < 3; ++k) {
      const double v = m.vertices[i][k];
      if (!std::isfinite(v)) {
        *err = {vertexField(i, k), "must be a finite number"};
        return false;
      }
      if (std::fabs(v) > kMaxMagnitude) {
        *err = {vertexField(i, k), "must be at most 1e15 in magnitude"};
        return false;
      }
    }
  for (std::size_t t = 0; t < nt; ++t)
    for (int k = 0; k < 3; ++k) {
      const int i = m.triangles[t][k];
      if (i < 0) {
        *err = {triangleField(t, k), "vertex index " + std::to_string(i) + " is negative"};
        return false;
      }
      if (static_cast<std::size_t>(i) >= nv) {
        *err = {triangleField(t, k), "vertex index " + std::to_string(i) + " is out of range (the mesh has " +
                                         std::to_string(nv) + " vertices)"};
        return false;
      }
    }
  if (!report) return true;

  report->degenerate.clear();
  report->duplicates.clear();
  for (std::size_t t = 0; t < nt; ++t) {
    const auto& tri = m.triangles[t];
    const Vec3 n = triangleUnitNormal(m.vertices[tri[0]], m.vertices[tri[1]], m.vertices[tri[2]]);
    if (!(maxAbs(n) > 0)) report->degenerate.push_back(static_cast<int>(t));
  }
  // Duplicates: each triangle's positions sorted into a key; sorting the
  // triangles by (key, index) puts copies next to each other, the earliest
  // first.
  struct Keyed {
    std::array<Vec3, 3> key;
    int index;
  };
  std::vector<Keyed> keyed(nt);
  for (std::size_t t = 0; t < nt; ++t) {
    const auto& tri = m.triangles[t];
    std::array<Vec3, 3> k = {m.vertices[tri[0]], m.vertices[tri[1]], m.vertices[tri[2]]};
    std::sort(k.begin(), k.end(), lessVec);
    keyed[t] = {k, static_cast<int>(t)};
  }
  auto keyLess = [](const std::array<Vec3, 3>& a, const std::array<Vec3, 3>& b) {
    for (int i = 0; i < 3; ++i) {
      if (lessVec(a[i], b[i])) return true;
      if (lessVec(b[i], a[i])) return false;
    }
    return false;
  };
  std::sort(keyed.begin(), keyed.end(), [&](const Keyed& a, const Keyed& b) {
    if (keyLess(a.key, b.key)) return true;
    if (keyLess(b.key, a.key)) return false;
    return a.index < b.index;
  });
  for (std::size_t i = 1, first = 0; i < nt; ++i) {
    if (keyLess(keyed[first].key, keyed[i].key)) {
      first = i;
      continue;
    }
    report->duplicates.push_back({keyed[i].index, keyed[first].index});
  }
  std::sort(report->duplicates.begin(), report->duplicates.end());
  return true;
}

}  // namespace collidoscope
