// The world positions of a scene shape's input points, features and mesh triangles, as the library poses
// them (scale, then rotation, then position): what the point and contact views highlight. The numbering is
// the library's (point_query.h for box corners, heightfield.h for a heightfield's grid and triangles).
import * as THREE from 'three';
import type { Quat, Shape, Vec3 } from '../lib/index';

/** Input point i of a shape in its own frame (before scale and pose), or null for a shape without such points. */
function inputPoint(s: Shape, i: number): Vec3 | null {
  const h = s.halfExtents;
  switch (s.type) {
    case 'point': return [0, 0, 0];
    // Box corner i is (x > 0) + 2(y > 0) + 4(z > 0) (point_query.h).
    case 'box': return h ? [i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]] : null;
    case 'segment': case 'triangle': case 'polytope': return s.points?.[i] ?? null;
    case 'mesh': return s.vertices?.[i] ?? null;
    case 'heightfield': {
      // Grid point i·cols + j at (i·sx, heights[i][j], j·sz) (heightfield.h).
      const cols = s.heights?.[0]?.length ?? 0;
      if (!cols || !s.cellSize) return null;
      const row = Math.floor(i / cols), col = i % cols;
      const y = s.heights?.[row]?.[col];
      return y === undefined ? null : [row * s.cellSize[0], y, col * s.cellSize[1]];
    }
    default: return null;
  }
}

/** The matrix that places a shape's own frame: scale, then rotation (normalized), then position. */
function poseMatrix(s: Shape): THREE.Matrix4 {
  const p = s.position ?? [0, 0, 0];
  const q: Quat = s.rotation ?? [0, 0, 0, 1];
  const k = s.scale ?? [1, 1, 1];
  return new THREE.Matrix4().compose(new THREE.Vector3(p[0], p[1], p[2]),
    new THREE.Quaternion(q[0], q[1], q[2], q[3]).normalize(), new THREE.Vector3(k[0], k[1], k[2]));
}

/**
 * The world positions of the feature's input points: of shape A, or of its child `child` placed in A. A face's
 * points are put in order around their centre so that they outline it. Empty for a round part (a sphere's
 * surface, a cylinder's side ...), whose indices name the ends of its axis, not points.
 */
export function featureCorners(a: Shape, vertices: readonly number[], child?: number): Vec3[] {
  const s = child !== undefined ? a.children?.[child] : a;
  if (!s) return [];
  const m = poseMatrix(s);
  if (child !== undefined) m.premultiply(poseMatrix(a));
  const out: THREE.Vector3[] = [];
  for (const i of vertices) {
    const v = inputPoint(s, i);
    if (!v) return [];
    out.push(new THREE.Vector3(v[0], v[1], v[2]).applyMatrix4(m));
  }
  if (out.length > 3 || (out.length === 3 && s.type !== 'mesh' && s.type !== 'heightfield')) orderAround(out);
  return out.map((v) => [v.x, v.y, v.z]);
}

/** The corners of triangle t of a mesh or heightfield A in world space (empty for other shapes). */
export function triangleCorners(a: Shape, t: number): Vec3[] {
  let ids: readonly number[] | undefined;
  if (a.type === 'mesh') ids = a.triangles?.[t];
  if (a.type === 'heightfield') {
    // Cell (i, j) owns triangles 2·(i·(cols − 1) + j) ([a, c, b]) and the next ([a, d, c]) (heightfield.h).
    const cols = a.heights?.[0]?.length ?? 0;
    const cell = Math.floor(t / 2), i = Math.floor(cell / (cols - 1)), j = cell % (cols - 1);
    const corner = i * cols + j;
    ids = t % 2 === 0 ? [corner, corner + cols + 1, corner + cols] : [corner, corner + 1, corner + cols + 1];
  }
  return ids ? featureCorners(a, ids) : [];
}

/** Sorts coplanar points by their angle about their centre (in the plane of the first three that span one). */
function orderAround(pts: THREE.Vector3[]): void {
  const c = pts.reduce((s, v) => s.add(v), new THREE.Vector3()).multiplyScalar(1 / pts.length);
  let n = new THREE.Vector3();
  for (let i = 1; i < pts.length && n.lengthSq() === 0; i++) {
    for (let j = i + 1; j < pts.length && n.lengthSq() === 0; j++) {
      n = pts[i].clone().sub(pts[0]).cross(pts[j].clone().sub(pts[0]));
    }
  }
  if (n.lengthSq() === 0) return;
  n.normalize();
  const u = pts[0].clone().sub(c).normalize();
  const w = n.clone().cross(u);
  const angle = (v: THREE.Vector3) => { const d = v.clone().sub(c); return Math.atan2(d.dot(w), d.dot(u)); };
  pts.sort((x, y) => angle(x) - angle(y));
}
