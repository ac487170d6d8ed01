// A "simulate" scene's shapes in a view: each drawn once (collidoscope/three's drawShape, from the library's own
// surfaces) and moved to every frame's poses, which come from the trace (the page never integrates a body itself).
import * as THREE from 'three';
import { enclosingSphere } from '../lib/draw/hull-geometry';
import { COLORS, clearGroup } from '../lib/draw/primitives';
import type { Shape } from '../lib/index';
import { drawShape } from '../lib/three';

/** The static shapes' colour (floors, ramps); bodies take the page's shape colours in turn. */
const STATIC_COLOR = 0x8a94a6;
const BODY_COLORS = [COLORS.a, COLORS.b, 0xb07cff, 0xc6e26b, 0x4ed6c8];

export class WorldBodies {
  readonly group = new THREE.Group();
  private key = '';
  private parts: THREE.Group[] = [];

  /**
   * Draw `shapes` (null: none, the view shows a pair or a cloud); `moving[i]` tells a body from a static shape.
   * Rebuilt only when the shapes change, not when only the frame does.
   */
  setShapes(shapes: Shape[] | null, moving: boolean[] = [], style: { faint?: boolean } = {}): void {
    const key = JSON.stringify([shapes?.map(({ position, rotation, ...local }) => { void position; void rotation; return local; }), moving, style]);
    this.group.visible = shapes !== null;
    if (key === this.key) return;
    this.key = key;
    clearGroup(this.group);
    this.parts = [];
    let k = 0;
    for (const [i, s] of (shapes ?? []).entries()) {
      const color = moving[i] ? BODY_COLORS[k++ % BODY_COLORS.length] : STATIC_COLOR;
      let g: THREE.Group;
      try {
        g = drawShape(s, undefined, { color, opacity: style.faint ? 0.12 : 0.5, edgeOpacity: style.faint ? 0.3 : 0.85 });
      } catch {
        // A shape the library cannot sample is left out of the drawing (the trace, not the drawing, is the answer).
        g = new THREE.Group();
      }
      g.traverse((o) => { o.userData.worldShape = i; });
      this.parts.push(g);
      this.group.add(g);
    }
  }

  /** Place shape i at poses[i] = [x, y, z, qx, qy, qz, qw] (the trace's frame; unit quaternions). */
  setPoses(poses: readonly (readonly number[])[]): void {
    this.parts.forEach((g, i) => {
      const p = poses[i];
      if (!p) return;
      g.position.set(p[0], p[1], p[2]);
      g.quaternion.set(p[3], p[4], p[5], p[6]);
    });
    this.group.updateMatrixWorld(true);
  }

  /** The poses the shapes are drawn at, [x, y, z, qx, qy, qz, qw] each (what the page shows, for tests). */
  drawnPoses(): number[][] {
    return this.parts.map((g) => [...g.position.toArray(), ...g.quaternion.toArray()]);
  }

  /** Bounding sphere of the shapes at the poses set (a unit sphere at the origin when there are none). */
  bounds(): THREE.Sphere {
    const box = new THREE.Box3();
    for (const g of this.parts) box.expandByObject(g);
    if (box.isEmpty()) return new THREE.Sphere(new THREE.Vector3(), 1);
    return enclosingSphere([box.min, box.max]);
  }

  /** The box around the shapes at `poses` (the poses drawn stay as they are). */
  boundsAt(poses: readonly (readonly number[])[]): THREE.Box3 {
    const shown = this.drawnPoses();
    this.setPoses(poses);
    const box = new THREE.Box3();
    for (const g of this.parts) box.expandByObject(g);
    this.setPoses(shown);
    return box;
  }

  /** The lowest point drawn (for the floor grid). */
  minY(): number {
    const box = new THREE.Box3();
    for (const g of this.parts) box.expandByObject(g);
    return box.isEmpty() ? 0 : box.min.y;
  }
}
