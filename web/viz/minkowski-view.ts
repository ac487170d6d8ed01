// Right view: the Minkowski difference A − B (full shapes, and the cores GJK runs on), the origin, and the
// current GJK frame: simplex, search direction, new support point w, closest point v.
import * as THREE from 'three';
import { minkowskiSurface, type GjkFrame, type Shape, type Trace } from '../lib/index';
import { fmt, len3 } from './format';
import { buildHull, enclosingSphere, type Hull } from './hull';
import { COLORS, clearGroup, hullObject, label, line, marker, toV3, triangles } from './objects';
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

  setFrame(frame: GjkFrame | null, trace: Trace | null): void {
    clearGroup(this.frameGroup);
    if (!frame || !trace) { this.view.requestRender(); return; }
    const g = this.frameGroup;
    const W = frame.simplex.map((s) => s.w);
    const scale = this.bounds().radius;

    // Simplex: vertices, every edge, every face (a tetrahedron shows its four faces).
    for (const w of W) g.add(marker(COLORS.simplex, 5, w));
    for (let i = 0; i < W.length; i++) for (let j = i + 1; j < W.length; j++) g.add(line([W[i], W[j]], COLORS.simplex));
    const tris: (readonly number[])[][] = [];
    for (let i = 0; i < W.length; i++) for (let j = i + 1; j < W.length; j++) for (let k = j + 1; k < W.length; k++) tris.push([W[i], W[j], W[k]]);
    if (tris.length) g.add(triangles(tris, COLORS.simplex, 0.18));

    // Search direction, drawn from the origin.
    const d = toV3(frame.direction);
    if (d.lengthSq() > 0 && Number.isFinite(d.lengthSq()) && frame.kind !== 'done') {
      const arrowLen = this.arrowLength();
      const arrow = new THREE.ArrowHelper(d.clone().normalize(), new THREE.Vector3(), arrowLen, COLORS.direction, arrowLen * 0.18, arrowLen * 0.09);
      arrow.renderOrder = 6;
      g.add(arrow);
      g.add(label('d', 'label-point label-direction', d.clone().normalize().multiplyScalar(arrowLen * 1.08)));
    }

    // New support point w.
    if (frame.support) {
      g.add(marker(COLORS.support, 6, frame.support.w));
      g.add(label('w', 'label-point label-support', frame.support.w));
      if (frame.kind === 'support') {
        // Dashed from v to w: how far the support point reaches beyond v along the search direction.
        g.add(line([frame.v, frame.support.w], COLORS.support, { dashed: Math.max(0.02, scale * 0.02), opacity: 0.7 }));
      }
    }

    // Closest point v and its distance to the origin (before the first support point of an intersect
    // query, W is empty and v is only a direction).
    if (W.length === 0) { this.view.requestRender(); return; }
    g.add(marker(COLORS.closest, 5, frame.v));
    g.add(line([[0, 0, 0], frame.v], COLORS.closest));
    g.add(label('v', 'label-point label-closest', frame.v));
    const n = len3(frame.v);
    if (n > 0) g.add(label('‖v‖ = ' + fmt(n, 5), 'label-note', toV3(frame.v).multiplyScalar(0.5)));
    this.view.requestRender();
  }
}
