// The bounding volumes of an "obb" result as lines: the AABB, the bounding sphere, both PCA boxes and the
// refined box, each in its own colour.
import * as THREE from 'three';
import type { BoxFit, ObbResult, Vec3 } from '../index';
import { boldSegments, toV3 } from './primitives';

/** A box fit: the refined box, or one of the PCA fits (volume optional: computed when missing). */
export type Obb = Omit<BoxFit, 'volume'> & { volume?: number };

/** Volume of a box given by its half extents (when the library leaves it out). */
export function obbVolume(b: Obb): number {
  return b.volume ?? 8 * b.halfExtents[0] * b.halfExtents[1] * b.halfExtents[2];
}

export type BoundKind = 'aabb' | 'sphere' | 'obbPoints' | 'obbTriangles' | 'obb';

export const BOUND_KINDS: { id: BoundKind; name: string; color: number }[] = [
  { id: 'aabb', name: 'AABB', color: 0xffd166 },
  { id: 'sphere', name: 'bounding sphere', color: 0xa9b3c2 },
  { id: 'obbPoints', name: 'OBB, PCA of points', color: 0xff5c8a },
  { id: 'obbTriangles', name: 'OBB, PCA of triangles', color: 0x4ea1ff },
  { id: 'obb', name: 'refined OBB', color: 0x3ddc97 },
];

/** One bounding volume of an "obb" result as lines (null when the result lacks it). */
export function boundObject(b: ObbResult, kind: BoundKind, color: number): THREE.Object3D | null {
  switch (kind) {
    case 'aabb': {
      if (!b.aabb) return null;
      const { min, max } = b.aabb;
      const c: Vec3 = [0, 1, 2].map((i) => (min[i] + max[i]) / 2) as Vec3;
      const h: Vec3 = [0, 1, 2].map((i) => (max[i] - min[i]) / 2) as Vec3;
      return boxLines({ center: c, axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], halfExtents: h }, color, 2);
    }
    case 'sphere': return b.sphere ? sphereLines(b.sphere.center, b.sphere.radius, color) : null;
    case 'obbPoints': return b.fits?.points ? boxLines(b.fits.points, color, 2) : null;
    case 'obbTriangles': return b.fits?.triangles ? boxLines(b.fits.triangles, color, 2) : null;
    case 'obb': return b.axes ? boxLines(b, color, 3) : null;
  }
}

/** Points whose bounding sphere holds the volume: box corners, or the sphere's extent. */
export function boundExtremes(b: ObbResult, kind: BoundKind): THREE.Vector3[] {
  const corners = (box: Obb | undefined) => {
    if (!box) return [];
    const out: THREE.Vector3[] = [];
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
      const p = toV3(box.center);
      [sx, sy, sz].forEach((s, i) => p.addScaledVector(toV3(box.axes[i]), s * box.halfExtents[i]));
      out.push(p);
    }
    return out;
  };
  switch (kind) {
    case 'aabb': return b.aabb ? [toV3(b.aabb.min), toV3(b.aabb.max)] : [];
    case 'sphere': return b.sphere ? [-1, 1].flatMap((s) => [0, 1, 2].map((i) => {
      const p = toV3(b.sphere.center);
      p.setComponent(i, p.getComponent(i) + s * b.sphere.radius);
      return p;
    })) : [];
    case 'obbPoints': return corners(b.fits?.points);
    case 'obbTriangles': return corners(b.fits?.triangles);
    case 'obb': return corners(b);
  }
}

/** The 12 edges of a box. */
function boxLines(box: Obb, color: number, width: number): THREE.Object3D {
  const c = toV3(box.center);
  const ax = box.axes.map((a, i) => toV3(a).multiplyScalar(box.halfExtents[i]));
  const corner = (sx: number, sy: number, sz: number) => c.clone().addScaledVector(ax[0], sx).addScaledVector(ax[1], sy).addScaledVector(ax[2], sz);
  const pairs: Vec3[] = [];
  const push = (p: THREE.Vector3, q: THREE.Vector3) => pairs.push([p.x, p.y, p.z], [q.x, q.y, q.z]);
  for (const s of [-1, 1]) for (const t of [-1, 1]) {
    push(corner(-1, s, t), corner(1, s, t));
    push(corner(s, -1, t), corner(s, 1, t));
    push(corner(s, t, -1), corner(s, t, 1));
  }
  return boldSegments(pairs, color, width, 0.95);
}

/** Three great circles and a faint shell. */
function sphereLines(center: Vec3, radius: number, color: number): THREE.Object3D {
  const g = new THREE.Group();
  const c = toV3(center);
  const N = 72;
  const pairs: Vec3[] = [];
  for (let axis = 0; axis < 3; axis++) {
    for (let k = 0; k < N; k++) {
      for (const t of [k, k + 1]) {
        const a = (2 * Math.PI * t) / N;
        const u = Math.cos(a) * radius, v = Math.sin(a) * radius;
        const p = axis === 0 ? [0, u, v] : axis === 1 ? [u, 0, v] : [u, v, 0];
        pairs.push([c.x + p[0], c.y + p[1], c.z + p[2]]);
      }
    }
  }
  g.add(boldSegments(pairs, color, 1.5, 0.8));
  const shell = new THREE.Mesh(new THREE.SphereGeometry(radius, 32, 20), new THREE.MeshBasicMaterial({
    color, transparent: true, opacity: 0.06, depthWrite: false,
  }));
  shell.position.copy(c);
  shell.renderOrder = 1;
  g.add(shell);
  return g;
}
