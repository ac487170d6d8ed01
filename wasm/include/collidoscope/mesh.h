// collidoscope — triangle meshes: vertices and triangles as index triples,
// non-convex and possibly open (the scene format's "mesh", DESIGN.md).
//
// A triangle [i, j, k] is counter-clockwise seen from outside: its normal
// (v_j − v_i) × (v_k − v_i) points outward. Nothing requires the mesh to be
// closed, manifold or consistently oriented; queries treat it as a surface.
//
// Validation refuses what no query can answer (errors name the field, as
// validateShape does): no vertices or no triangles, a non-finite coordinate
// or one beyond kMaxMagnitude, an index that is negative or not below the
// vertex count, more than kMaxMeshTriangles triangles or kMaxMeshVertices
// vertices. It reports, without refusing, what a query can live with:
//   * degenerate triangles: zero area (three collinear vertices, decided
//     exactly by predicates.h), or so thin that the cross product of two of
//     their edges rounds to zero. They have no normal; ray casts skip them.
//   * duplicate triangles: the same three vertex positions (compared
//     exactly, in any order and either orientation) as an earlier triangle,
//     which catches copies in unwelded meshes as well as repeated indices.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "collidoscope/math.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

// Largest triangle count accepted. A mesh costs about 60 bytes per triangle
// (indices, unit normals, vertices) plus its OBB tree (< 2 nodes of 144 bytes
// per triangle with one-triangle leaves, and the triangle order) and the
// tree's ray layout (obbtree_rays.h: < 140 bytes per triangle, about 90
// in practice, 72 of them its copy of the corners; 36 when they are floats): 2·10⁶ triangles take
// about 920 MB (at most 980 MB), within the 32-bit wasm heap's 2 GB; ten
// times more could not be built there.
constexpr std::size_t kMaxMeshTriangles = 2000000;
// Largest vertex count accepted: three per triangle covers an unwelded mesh.
constexpr std::size_t kMaxMeshVertices = 3 * kMaxMeshTriangles;

struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;  // indices into vertices
};

struct MeshReport {
  std::vector<int> degenerate;                 // triangle indices, increasing
  std::vector<std::array<int, 2>> duplicates;  // {triangle, the first earlier triangle it repeats},
                                               // increasing by triangle
};

// Checks m; returns false and fills *err (field relative to the shape, e.g.
// "vertices[3][1]" or "triangles[5][2]") on the first problem found. When
// it returns true and report is non-null, *report lists the degenerate and
// duplicate triangles (reportMesh). O(n).
bool validateMesh(const TriangleMesh& m, ShapeError* err, MeshReport* report);

// *report of a valid mesh m whose triangles' normals (triangleUnitNormal)
// are already known: the degenerate ones have the zero normal; duplicates
// are found with a hash table of the triangles' sorted positions (expected
// O(n)).
void reportMesh(const TriangleMesh& m, const std::vector<Vec3>& normals, MeshReport* report);

// Unit normal (b − a) × (c − a) / |…| of the CCW triangle (a, b, c), or the
// zero vector when the triangle is degenerate (see the header comment). The
// cross product is taken at the vertex opposite the longest edge, whose two
// edges are the shortest (the most accurate of the three choices: they
// carry the least rounding and, by the law of sines, the largest angle).
Vec3 triangleUnitNormal(const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace collidoscope
