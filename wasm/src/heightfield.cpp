// collidoscope — the heightfield shape (see heightfield.h).
#include "collidoscope/heightfield.h"

#include <cmath>
#include <string>
#include <utility>

#include "collidoscope/heap_room.h"
#include "collidoscope/mesh_shape.h"

namespace collidoscope {

bool validateHeightfield(const Heightfield& h, ShapeError* err) {
  if (h.rows < 2 || h.cols < 2) {
    *err = {"heights", "must have at least 2 rows of at least 2 heights (one cell), got " + std::to_string(h.rows) +
                           " × " + std::to_string(h.cols)};
    return false;
  }
  const double cells = static_cast<double>(h.rows - 1) * static_cast<double>(h.cols - 1);
  if (cells > static_cast<double>(kMaxHeightfieldCells)) {
    *err = {"heights", "has " + std::to_string(static_cast<long long>(cells)) + " cells; the limit is " +
                           std::to_string(kMaxHeightfieldCells) + " (two triangles a cell, within the mesh limit)"};
    return false;
  }
  if (h.heights.size() != static_cast<std::size_t>(h.rows) * static_cast<std::size_t>(h.cols)) {
    *err = {"heights", "must hold rows × columns heights"};
    return false;
  }
  const double cell[2] = {h.cellX, h.cellZ};
  const int extent[2] = {h.rows - 1, h.cols - 1};
  for (int k = 0; k < 2; ++k) {
    const std::string field = "cellSize[" + std::to_string(k) + "]";
    if (!std::isfinite(cell[k])) {
      *err = {field, "must be a finite number"};
      return false;
    }
    if (!(cell[k] > 0)) {
      *err = {field, "must be positive (the size of a cell)"};
      return false;
    }
    if (cell[k] * extent[k] > kMaxMagnitude) {
      *err = {field, "makes the grid larger than 1e15"};
      return false;
    }
  }
  for (int i = 0; i < h.rows; ++i)
    for (int j = 0; j < h.cols; ++j) {
      const double v = h.heights[static_cast<std::size_t>(i) * static_cast<std::size_t>(h.cols) + static_cast<std::size_t>(j)];
      const std::string field = "heights[" + std::to_string(i) + "][" + std::to_string(j) + "]";
      if (!std::isfinite(v)) {
        *err = {field, "must be a finite number"};
        return false;
      }
      if (std::fabs(v) > kMaxMagnitude) {
        *err = {field, "must be at most 1e15 in magnitude"};
        return false;
      }
    }
  return true;
}

TriangleMesh heightfieldMesh(const Heightfield& h) {
  TriangleMesh m;
  m.vertices.reserve(h.heights.size());
  for (int i = 0; i < h.rows; ++i)
    for (int j = 0; j < h.cols; ++j)
      m.vertices.push_back({i * h.cellX, h.heights[static_cast<std::size_t>(i * h.cols + j)], j * h.cellZ});
  m.triangles.reserve(2 * static_cast<std::size_t>(h.rows - 1) * static_cast<std::size_t>(h.cols - 1));
  for (int i = 0; i + 1 < h.rows; ++i)
    for (int j = 0; j + 1 < h.cols; ++j) {
      const int a = i * h.cols + j, b = a + h.cols, c = b + 1, d = a + 1;
      m.triangles.push_back({a, c, b});
      m.triangles.push_back({a, d, c});
    }
  return m;
}

bool makeHeightfieldShape(Heightfield h, Shape* out, ShapeError* err) {
  if (!validateHeightfield(h, err)) return false;
  const double cells = static_cast<double>(h.rows - 1) * static_cast<double>(h.cols - 1);
  const double bytes = meshPeakBytes(2 * cells, static_cast<double>(h.heights.size()));
  if (!heapHasRoom(bytes, err, "heights", "a heightfield of ", cells, " cells")) return false;
  Shape s;
  if (!makeMeshShape(heightfieldMesh(h), &s, err)) return false;
  // The record was made here and is not shared yet: attach the grid.
  std::const_pointer_cast<MeshShape>(s.meshData)->heightfield = std::make_shared<const Heightfield>(std::move(h));
  *out = std::move(s);
  return true;
}

}  // namespace collidoscope
