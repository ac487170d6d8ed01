// The hull view (queries "hull" and "obb"): one 3D view of the point cloud, the current quickhull frame
// (lib/draw/quickhull.ts), and the bounding volumes the user switched on: AABB, sphere, both PCA boxes, the
// refined box.
import * as THREE from 'three';
import { BOUND_KINDS, boundExtremes, boundObject, type BoundKind } from '../lib/draw/bounds';
import { enclosingSphere } from '../lib/draw/hull-geometry';
import { clearGroup, toV3 } from '../lib/draw/primitives';
import type { FrameDrawing } from '../lib/draw/types';
import type { Vec3 } from '../lib/index';
import type { BoundsResult } from './hull-types';
import { View } from './view';

export class HullView {
  readonly view: View;
  private readonly frameGroup = new THREE.Group();
  private readonly boundsGroup = new THREE.Group();
  private readonly axes = new THREE.AxesHelper(1);
  private sphere = new THREE.Sphere(new THREE.Vector3(), 1);
  /** What fit() frames: the cloud and the bounding volumes shown. */
  private framed = new THREE.Sphere(new THREE.Vector3(), 1);
  private extra: THREE.Vector3[] = [];

  constructor(container: HTMLElement) {
    this.view = new View(container, 'canvas-hull', 0x14171f);
    const mat = this.axes.material as THREE.LineBasicMaterial;
    mat.transparent = true;
    mat.opacity = 0.5;
    this.view.scene.add(this.axes, this.frameGroup, this.boundsGroup);
  }

  /** The cloud shown: sets the size of the axes and what fit() frames. */
  setPoints(points: readonly Vec3[]): void {
    this.sphere = enclosingSphere(points.map((p) => toV3(p)));
    this.axes.scale.setScalar(this.sphere.radius * 0.25);
    this.axes.position.copy(this.sphere.center);
    this.view.requestRender();
  }

  /** Frame the cloud and the bounding volumes shown. */
  fit(): void {
    const r = Math.max(...this.extra.map((p) => p.distanceTo(this.sphere.center)), this.sphere.radius);
    this.framed = new THREE.Sphere(this.sphere.center.clone(), r);
    this.view.frame(this.sphere.center, r * 1.12);
  }

  setFrame(overlay: FrameDrawing | null): void {
    clearGroup(this.frameGroup);
    const r = this.sphere.radius;
    overlay?.hull?.(this.frameGroup, { scale: r, arrowLength: r * 0.4 });
    this.view.requestRender();
  }

  /** Draw the bounding volumes in `shown`; with `reframe`, widen the view when they do not fit in it. */
  setBounds(b: BoundsResult | null, shown: ReadonlySet<BoundKind>, reframe = false): void {
    clearGroup(this.boundsGroup);
    this.extra = [];
    if (b) {
      for (const k of BOUND_KINDS) {
        if (!shown.has(k.id)) continue;
        const o = boundObject(b, k.id, k.color);
        if (!o) continue;
        this.boundsGroup.add(o);
        this.extra.push(...boundExtremes(b, k.id));
      }
    }
    if (reframe && this.extra.some((p) => p.distanceTo(this.framed.center) > this.framed.radius * 1.02)) this.fit();
    this.view.requestRender();
  }
}
