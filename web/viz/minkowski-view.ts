// Right view: the Minkowski difference A − B (full shapes, and the cores GJK and EPA run on), the origin, and
// the current frame as drawn by its algorithm's overlay (gjk-overlay.ts, epa-overlay.ts).
import * as THREE from 'three';
import { minkowskiSurface, type Shape } from '../lib/index';
import { buildHull, enclosingSphere, type Hull } from './hull';
import { COLORS, clearGroup, hullObject, label, marker } from './objects';
import type { FrameOverlay } from './overlay';
import { View } from './view';

export class MinkowskiView {
  readonly view: View;
  private readonly hullGroup = new THREE.Group();
  private readonly frameGroup = new THREE.Group();
  private readonly axes = new THREE.AxesHelper(1);
  private readonly titleLabel = label('A − B', 'label-mink');
  private hull: Hull | null = null;
  private core: Hull | null = null;
  private key = '';

  constructor(container: HTMLElement) {
    this.view = new View(container, 'canvas-minkowski', 0x171420);
    const mat = this.axes.material as THREE.LineBasicMaterial;
    mat.depthTest = false;
    mat.transparent = true;
    this.axes.renderOrder = 6;
    this.view.scene.add(this.hullGroup, this.frameGroup, this.axes, this.titleLabel);
    this.view.scene.add(marker(COLORS.origin, 4, [0, 0, 0]));
    this.view.scene.add(label('O', 'label-origin', [0, 0, 0]));
  }

  /** Rebuild the hulls of A − B and of core(A) − core(B) when the shapes change. */
  setShapes(shapes: Shape[], hasMargin: boolean): void {
    const key = JSON.stringify(shapes) + hasMargin;
    if (key === this.key) return;
    this.key = key;
    clearGroup(this.hullGroup);
    let surf: { points: [number, number, number][]; corePoints: [number, number, number][] };
    try {
      surf = minkowskiSurface(shapes[0], shapes[1]);
    } catch {
      surf = { points: [[0, 0, 0]], corePoints: [[0, 0, 0]] };
    }
    this.hull = buildHull(surf.points);
    this.hullGroup.add(hullObject(this.hull, { color: COLORS.mink, opacity: 0.28, edgeOpacity: 0.6, pointSize: 5 }));
    this.core = null;
    if (hasMargin) {
      this.core = buildHull(surf.corePoints);
      this.hullGroup.add(hullObject(this.core, { color: COLORS.core, opacity: 0.1, edgeOpacity: 0.7, pointSize: 4 }));
    }
    const s = this.bounds();
    this.axes.scale.setScalar(s.radius * 0.3);
    const box = new THREE.Box3().setFromPoints(this.hull.vertices);
    const c = box.getCenter(new THREE.Vector3());
    this.titleLabel.position.set(c.x, box.max.y + 0.2 * s.radius, c.z);
    this.view.requestRender();
  }

  /** Bounding sphere of A − B together with the origin. */
  bounds(): THREE.Sphere {
    return enclosingSphere([new THREE.Vector3(), ...(this.hull?.vertices ?? [])]);
  }

  /** Sphere to frame the camera on: A − B, the origin, and room for the direction arrow drawn from the origin. */
  viewBounds(): THREE.Sphere {
    const s = this.bounds();
    const reach = this.arrowLength() * 1.15;
    return new THREE.Sphere(s.center.clone(), Math.max(s.radius, s.center.length() + reach));
  }

  private arrowLength(): number {
    return this.bounds().radius * 0.4;
  }

  /** Draw the current frame (GJK's simplex or EPA's polytope: see overlay.ts). */
  setFrame(overlay: FrameOverlay | null): void {
    clearGroup(this.frameGroup);
    overlay?.minkowski?.(this.frameGroup, { scale: this.bounds().radius, arrowLength: this.arrowLength() });
    this.view.requestRender();
  }
}
