// collidoscope — the scene format's "heightfield" shape: terrain as a grid of
// heights, queried as the triangle mesh of its cells (mesh_shape.h).
//
// Grid. heights[i][j] is the height (local y) of the grid point at local
// x = i·cellSize.x, z = j·cellSize.z: row i runs along x, column j along z,
// and grid point (0, 0) sits at the shape's local origin (the pose moves the
// corner, as with Jolt's height fields, not the centre).
//
// Triangles. Each cell (i, j) — the square between grid points a = (i, j),
// b = (i + 1, j), c = (i + 1, j + 1) and d = (i, j + 1) — is split along the
// fixed diagonal a–c into the triangles [a, c, b] and [a, d, c], both
// counter-clockwise seen from +y so that their normals point up (x × z is
// −y, hence a, c, b rather than a, b, c). Cell (i, j) owns
// triangles 2·(i·(cols − 1) + j) and that + 1, so a ray's hit triangle
// names its cell. The field is the two-triangle surface, not a bilinear
// patch: a query answers for exactly the triangles a renderer draws.
//
// Queries. The shape is a mesh shape (ShapeType::Mesh) whose MeshShape
// record keeps this grid, so every mesh query answers for it through the
// same OBB tree, and the scene writers write it back as a heightfield.
#pragma once

#include <cstddef>
#include <vector>

#include "collidoscope/mesh.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

// Largest cell count accepted: two triangles a cell, so the mesh stays
// within kMaxMeshTriangles (the memory bound of the wasm heap, mesh.h).
constexpr std::size_t kMaxHeightfieldCells = kMaxMeshTriangles / 2;

struct Heightfield {
  int rows = 0;                 // grid points along x (≥ 2)
  int cols = 0;                 // grid points along z (≥ 2)
  std::vector<double> heights;  // rows·cols, row-major: heights[i·cols + j]
  double cellX = 1;             // cell size along x (> 0)
  double cellZ = 1;             // cell size along z (> 0)
};

// Checks h: at least 2×2 points, at most kMaxHeightfieldCells cells, the
// heights' count rows·cols, finite heights and cell sizes within
// kMaxMagnitude, cell sizes > 0 and a grid extent within kMaxMagnitude.
// Returns false and fills *err ("heights[i][j]", "heights", "cellSize[k]")
// on the first problem found.
bool validateHeightfield(const Heightfield& h, ShapeError* err);

// The triangles of h as described above: vertex i·cols + j is grid point
// (i, j). h must be valid.
TriangleMesh heightfieldMesh(const Heightfield& h);

// Validates h, builds its mesh and OBB tree (makeMeshShape) and makes *out a
// mesh shape whose record keeps h. On failure *out is unchanged.
bool makeHeightfieldShape(Heightfield h, Shape* out, ShapeError* err);

}  // namespace collidoscope
