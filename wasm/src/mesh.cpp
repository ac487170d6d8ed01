// collidoscope — triangle mesh validation (see mesh.h).
#include "collidoscope/mesh.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

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

// A triangle's three positions in lexicographic order, −0 written as +0:
// equal keys (compared with ==) are the same positions in any order, and
// equal keys have equal bits.
struct TriangleKey {
  Vec3 p[3];
};

TriangleKey triangleKey(const TriangleMesh& m, int t) {
  const auto& tri = m.triangles[t];
  TriangleKey k;
  for (int i = 0; i < 3; ++i) {
    const Vec3& v = m.vertices[tri[i]];
    k.p[i] = {v.x + 0.0, v.y + 0.0, v.z + 0.0};
  }
  if (lessVec(k.p[1], k.p[0])) std::swap(k.p[0], k.p[1]);
  if (lessVec(k.p[2], k.p[1])) std::swap(k.p[1], k.p[2]);
  if (lessVec(k.p[1], k.p[0])) std::swap(k.p[0], k.p[1]);
  return k;
}

bool sameKey(const TriangleKey& a, const TriangleKey& b) {
  for (int i = 0; i < 3; ++i)
    if (a.p[i].x != b.p[i].x || a.p[i].y != b.p[i].y || a.p[i].z != b.p[i].z) return false;
  return true;
}

// 64-bit hash of the key's bits (a multiply–xorshift mix per coordinate).
std::uint64_t hashKey(const TriangleKey& k) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull;
  for (const Vec3& p : k.p)
    for (double x : {p.x, p.y, p.z}) {
      std::uint64_t bits;
      std::memcpy(&bits, &x, sizeof bits);
      h = (h ^ bits) * 0xBF58476D1CE4E5B9ull;
      h ^= h >> 31;
    }
  h *= 0x94D049BB133111EBull;
  return h ^ (h >> 29);
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
  if (report) {
    std::vector<Vec3> normals(nt);
    for (std::size_t t = 0; t < nt; ++t) {
      const auto& tri = m.triangles[t];
      normals[t] = triangleUnitNormal(m.vertices[tri[0]], m.vertices[tri[1]], m.vertices[tri[2]]);
    }
    reportMesh(m, normals, report);
  }
  return true;
}

void reportMesh(const TriangleMesh& m, const std::vector<Vec3>& normals, MeshReport* report) {
  const std::size_t nt = m.triangles.size();
  report->degenerate.clear();
  report->duplicates.clear();
  for (std::size_t t = 0; t < nt; ++t)
    if (!(maxAbs(normals[t]) > 0)) report->degenerate.push_back(static_cast<int>(t));
  // Duplicates: the triangles are grouped by the top bits of their key's
  // hash (one stable counting pass: each group in index order), then each
  // group is searched with an open-addressing hash table of the first
  // triangle of each key seen so far. Equal keys have equal hashes, so a
  // copy meets the earliest triangle it repeats in its own group; a group's
  // table (about 4 096 triangles) stays in the cache, where one table for
  // the whole mesh missed it at every probe on large meshes.
  if (nt == 0) return;
  int groupBits = 0;
  while (groupBits < 12 && (nt >> groupBits) > 4096) ++groupBits;
  const std::size_t groups = std::size_t{1} << groupBits;
  const auto groupOf = [groupBits](std::uint64_t h) {
    return groupBits == 0 ? std::size_t{0} : static_cast<std::size_t>(h >> (64 - groupBits));
  };
  std::vector<std::uint64_t> hashes(nt);
  std::vector<std::size_t> start(groups + 1, 0);
  for (std::size_t t = 0; t < nt; ++t) {
    hashes[t] = hashKey(triangleKey(m, static_cast<int>(t)));
    ++start[groupOf(hashes[t]) + 1];
  }
  for (std::size_t g = 0; g < groups; ++g) start[g + 1] += start[g];
  struct Entry {
    std::uint32_t low;  // low bits of the key's hash: where its probe starts
    std::uint32_t tag;  // high bits
    int triangle;
  };
  std::vector<Entry> grouped(nt);
  {
    std::vector<std::size_t> at(start.begin(), start.end() - 1);
    for (std::size_t t = 0; t < nt; ++t) {
      const std::uint64_t h = hashes[t];
      grouped[at[groupOf(h)]++] = {static_cast<std::uint32_t>(h), static_cast<std::uint32_t>(h >> 32),
                                   static_cast<int>(t)};
    }
  }
  std::vector<std::uint64_t>().swap(hashes);
  // The earliest triangle each one repeats (−1: none), collected in
  // triangle order at the end (the groups are searched one after another).
  std::vector<int> repeats(nt, -1);
  struct Slot {
    std::uint32_t tag;  // high bits of the key's hash
    int triangle;       // −1: empty
  };
  std::vector<Slot> table;
  for (std::size_t g = 0; g < groups; ++g) {
    const std::size_t size = start[g + 1] - start[g];
    std::size_t capacity = 16;
    while (capacity < 2 * size) capacity *= 2;
    const std::size_t mask = capacity - 1;
    table.assign(capacity, Slot{0, -1});
    for (std::size_t e = start[g]; e < start[g + 1]; ++e) {
      const Entry& entry = grouped[e];
      for (std::size_t i = entry.low & mask;; i = (i + 1) & mask) {  // ends: the table is at most half full
        Slot& slot = table[i];
        if (slot.triangle < 0) {
          slot = {entry.tag, entry.triangle};
          break;
        }
        if (slot.tag == entry.tag &&
            sameKey(triangleKey(m, slot.triangle), triangleKey(m, entry.triangle))) {
          repeats[static_cast<std::size_t>(entry.triangle)] = slot.triangle;
          break;
        }
      }
    }
  }
  for (std::size_t t = 0; t < nt; ++t)
    if (repeats[t] >= 0) report->duplicates.push_back({static_cast<int>(t), repeats[t]});
}

}  // namespace collidoscope
