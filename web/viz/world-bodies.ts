// A "simulate" scene's shapes in a view: each drawn once (collidoscope/three's drawShape, from the library's own
// surfaces) and moved to every frame's poses, which come from the trace (the page never integrates a body itself).
import * as THREE from 'three';
import { enclosingSphere } from '../lib/draw/hull-geometry';
import { clearGroup } from '../lib/draw/primitives';
import { worldColors } from '../lib/draw/simulate';
import type { Shape, Vec3 } from '../lib/index';
import { drawShape, type ShapeStyle } from '../lib/three';


export class WorldBodies {
  readonly group = new THREE.Group();
  private key = '';
  private parts: THREE.Group[] = [];
  /** The planes among the shapes, each drawn as a patch around the other shapes (redrawn as they move away). */
  private planes: { index: number; shape: Shape; style: ShapeStyle }[] = [];
  /** The box the planes' patches were drawn around: every pose of the other shapes drawn so far. */
  private planeFit = new THREE.Box3();
  private planesDrawn = false;

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
    this.planes = [];
    this.planeFit = new THREE.Box3();
    this.planesDrawn = false;
    // Static shapes grey, bodies in the page's shape colours in turn (as collidoscope/three's drawTraceFrame).
    const colors = worldColors((shapes ?? []).map((_, i) => moving[i] === true));
    for (const [i, s] of (shapes ?? []).entries()) {
      const color = colors[i];
      const shapeStyle: ShapeStyle = { color, opacity: style.faint ? 0.12 : 0.5, edgeOpacity: style.faint ? 0.3 : 0.85 };
      let g: THREE.Group;
      if (s.type === 'plane') {
        // Drawn once the other shapes are: its patch is sized around them.
        this.planes.push({ index: i, shape: s, style: shapeStyle });
        g = new THREE.Group();
        g.position.set(...(s.position ?? [0, 0, 0]));
        g.quaternion.set(...(s.rotation ?? [0, 0, 0, 1])).normalize();
      } else {
        try {
          g = drawShape(s, undefined, shapeStyle);
        } catch {
          // A shape the library cannot sample is left out of the drawing (the trace, not the drawing, is the answer).
          g = new THREE.Group();
        }
        g.traverse((o) => { o.userData.worldShape = i; });
      }
      this.parts.push(g);
      this.group.add(g);
    }
    this.group.updateMatrixWorld(true);
    this.fitPlanes();
  }

  /** The box of the shapes other than planes, at the poses drawn (empty when there are none). */
  private solidBox(): THREE.Box3 {
    const box = new THREE.Box3();
    const flat = new Set(this.planes.map((p) => p.index));
    this.parts.forEach((g, i) => { if (!flat.has(i)) box.expandByObject(g); });
    return box;
  }

  /**
   * Draw the planes' patches around every pose of the other shapes drawn so far: a patch grows when a body leaves
   * it and never shrinks, so that it stays still while the bodies move over it.
   */
  private fitPlanes(): void {
    if (this.planes.length === 0) return;
    const box = this.solidBox();
    if (this.planesDrawn && (box.isEmpty() || this.planeFit.containsBox(box))) return;
    this.planesDrawn = true;
    this.planeFit.union(box);
    const around = this.planeFit.isEmpty() ? [] : [this.planeFit.min.toArray() as Vec3, this.planeFit.max.toArray() as Vec3];
    for (const { index, shape, style } of this.planes) {
      const g = this.parts[index];
      clearGroup(g);
      // The patch in the plane's frame; the part keeps the pose the frames give it.
      const drawn = drawShape(shape, [...g.position.toArray(), ...g.quaternion.toArray()] as number[], { ...style, around });
      for (const child of [...drawn.children]) g.add(child);
      g.traverse((o) => { o.userData.worldShape = index; });
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
    this.fitPlanes();
  }

  /** The poses the shapes are drawn at, [x, y, z, qx, qy, qz, qw] each (what the page shows, for tests). */
  drawnPoses(): number[][] {
    return this.parts.map((g) => [...g.position.toArray(), ...g.quaternion.toArray()]);
  }

  /**
   * Bounding sphere of the shapes at the poses set (a unit sphere at the origin when there are none). A plane's
   * patch is drawn around the other shapes, so it does not count (it would grow with every fit).
   */
  bounds(): THREE.Sphere {
    const box = this.solidBox();
    if (box.isEmpty()) return new THREE.Sphere(new THREE.Vector3(), 1);
    return enclosingSphere([box.min, box.max]);
  }

  /** The box around the shapes at `poses` (the poses drawn stay as they are). */
  boundsAt(poses: readonly (readonly number[])[]): THREE.Box3 {
    const shown = this.drawnPoses();
    this.setPoses(poses);
    const box = this.solidBox();
    this.setPoses(shown);
    return box;
  }

  /** The lowest point drawn (for the floor grid). */
  minY(): number {
    const box = this.solidBox();
    return box.isEmpty() ? 0 : box.min.y;
  }
}
