// collidoscope — the triangles of a mesh or heightfield spec in the shape's frame, for drawing: the same
// triangles the library queries (a heightfield's cells split along the fixed diagonal, heightfield.h), with
// the spec's scale applied and the winding reversed under a mirror, as the library bakes it (shapes.cpp).
import type { Shape, Vec3 } from '../index';

export interface SurfaceTriangles {
  vertices: Vec3[];
  triangles: [number, number, number][];
}

/** Grid point (i, j) is vertex i·cols + j at (i·sx, heights[i][j], j·sz); cell (i, j) is [a, c, b], [a, d, c]. */
function heightfieldTriangles(heights: readonly (readonly number[])[], cellSize: readonly number[]): SurfaceTriangles {
  const rows = heights.length, cols = heights[0]?.length ?? 0;
  const vertices: Vec3[] = [];
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) vertices.push([i * cellSize[0], heights[i][j], j * cellSize[1]]);
  const triangles: [number, number, number][] = [];
  for (let i = 0; i + 1 < rows; i++) {
    for (let j = 0; j + 1 < cols; j++) {
      const a = i * cols + j, b = a + cols, c = b + 1, d = a + 1;
      triangles.push([a, c, b], [a, d, c]);
    }
  }
  return { vertices, triangles };
}

/** The triangles of a mesh or heightfield spec (null for any other shape or a spec missing its arrays). */
export function surfaceTriangles(s: Shape): SurfaceTriangles | null {
  let out: SurfaceTriangles;
  if (s.type === 'mesh' && s.vertices && s.triangles) out = { vertices: s.vertices, triangles: s.triangles };
  else if (s.type === 'heightfield' && s.heights && s.cellSize) out = heightfieldTriangles(s.heights, s.cellSize);
  else return null;
  const k = s.scale;
  if (!k) return out;
  const vertices = out.vertices.map((v): Vec3 => [v[0] * k[0], v[1] * k[1], v[2] * k[2]]);
  const mirrored = k[0] * k[1] * k[2] < 0;
  const triangles = mirrored ? out.triangles.map((t): [number, number, number] => [t[0], t[2], t[1]]) : out.triangles;
  return { vertices, triangles };
}
