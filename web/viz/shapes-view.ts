// Left view: shapes A and B in world space, moved with TransformControls, plus the current frame's
// points on the shapes (support sources a and b, closest or contact points), drawn by the frame's overlay.
import * as THREE from 'three';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import { buildHull, enclosingSphere, type Hull } from '../lib/draw/hull-geometry';
import { COLORS, clearGroup, hullObject, label } from '../lib/draw/primitives';
import type { FrameDrawing } from '../lib/draw/types';
import { shapeSurface, type Quat, type Shape, type Vec3 } from '../lib/index';
import { View } from './view';

export type TransformMode = 'translate' | 'rotate';

export class ShapesView {
  readonly view: View;
  private readonly poses: [THREE.Group, THREE.Group] = [new THREE.Group(), new THREE.Group()];
  private readonly bodies: [THREE.Group, THREE.Group] = [new THREE.Group(), new THREE.Group()];
  private readonly keys: [string, string] = ['', ''];
  private readonly hulls: [Hull | null, Hull | null] = [null, null];
  private readonly nameLabels = [label('A', 'label-a'), label('B', 'label-b')];
  private readonly overlay = new THREE.Group();
  /** Floor grid, for a sense of up and of depth; placed under the shapes by fitGround(). */
  private readonly grid = new THREE.GridHelper(1, 20, 0x3a4150, 0x252a35);
  private readonly transform: TransformControls;
  private selected: 0 | 1 | null = null;
  /** Shapes shown: 2, or 1 for queries on shape A alone (raycast). */
  private count: 1 | 2 = 2;
  /** Called while a shape is dragged, with its new pose. */
  onPoseChange: ((index: 0 | 1, position: Vec3, rotation: Quat) => void) | null = null;
  /** No gizmo: clicks on shapes do not attach it (a fixed embed). */
  locked = false;
  /** Called when the attached shape changes (click on a shape, on empty space, or select()). */
  onSelect: ((index: 0 | 1 | null) => void) | null = null;

  constructor(container: HTMLElement) {
    this.view = new View(container, 'canvas-shapes', 0x14171f);
    this.view.scene.add(this.grid);
    this.poses.forEach((p, i) => {
      p.add(this.bodies[i]);
      this.view.scene.add(p);
      this.view.scene.add(this.nameLabels[i]);
    });
    this.view.scene.add(this.overlay);

    this.transform = new TransformControls(this.view.camera, this.view.canvas);
    this.transform.setSize(0.8);
    this.transform.addEventListener('change', () => this.view.requestRender());
    this.transform.addEventListener('dragging-changed', (e) => {
      this.view.controls.enabled = !(e as unknown as { value: boolean }).value;
    });
    this.transform.addEventListener('objectChange', () => {
      if (this.selected === null) return;
      const g = this.poses[this.selected];
      this.placeLabel(this.selected);
      this.onPoseChange?.(this.selected, [g.position.x, g.position.y, g.position.z],
        [g.quaternion.x, g.quaternion.y, g.quaternion.z, g.quaternion.w]);
    });
    this.view.scene.add(this.transform.getHelper());
    this.installPicking();
  }

  /** Update the shapes' geometry (rebuilt only when type or parameters change) and poses. */
  setShapes(shapes: Shape[]): void {
    this.count = shapes.length >= 2 ? 2 : 1;
    this.poses[1].visible = this.count === 2;
    this.nameLabels[1].visible = this.count === 2;
    if (this.count === 1 && this.selected === 1) this.select(null);
    for (const i of [0, 1] as const) {
      if (i >= this.count) continue;
      const s = shapes[i];
      const local: Shape = { ...s, position: [0, 0, 0], rotation: [0, 0, 0, 1] };
      const key = JSON.stringify(local);
      if (key !== this.keys[i]) {
        this.keys[i] = key;
        clearGroup(this.bodies[i]);
        let hull: Hull;
        try {
          hull = buildHull(shapeSurface(local));
        } catch {
          hull = buildHull([[0, 0, 0]]);
        }
        this.hulls[i] = hull;
        this.bodies[i].add(hullObject(hull, {
          color: i === 0 ? COLORS.a : COLORS.b, opacity: 0.42, edgeOpacity: 0.85, pointSize: 5,
        }));
        // GJK and EPA run on the core (sphere → centre, capsule → segment, margin removed): draw it as a wireframe
        // so the support points a and b, which lie on the core, are seen where they are.
        const core = coreOf(local);
        if (core) {
          try {
            this.bodies[i].add(hullObject(buildHull(shapeSurface(core)), {
              color: COLORS.core, opacity: 0, edgeOpacity: 0.8, pointSize: 3, wireOnly: true,
            }));
          } catch { /* the core is only a guide; the shape itself is drawn */ }
        }
        this.bodies[i].traverse((o) => { o.userData.shapeIndex = i; });
      }
      // While a shape is being dragged its pose comes from the gizmo; do not fight it.
      if (!(this.transform.dragging && this.selected === i)) {
        const p = s.position ?? [0, 0, 0];
        const q = s.rotation ?? [0, 0, 0, 1];
        this.poses[i].position.set(p[0], p[1], p[2]);
        this.poses[i].quaternion.set(q[0], q[1], q[2], q[3]).normalize();
      }
      this.placeLabel(i);
    }
    this.view.requestRender();
  }

  /** The hull's points of shape i in world space (with the pose shown, which may be mid-drag). */
  private worldPoints(i: 0 | 1): THREE.Vector3[] {
    const g = this.poses[i];
    g.updateMatrix();
    return (this.hulls[i]?.vertices ?? [new THREE.Vector3()]).map((v) => v.clone().applyMatrix4(g.matrix));
  }

  /** Label just above the shape's highest point (not the box centre: a long thin shape may cross the other). */
  private placeLabel(i: 0 | 1): void {
    const pts = this.worldPoints(i);
    let top = pts[0];
    for (const p of pts) if (p.y > top.y) top = p;
    const h = Math.max(new THREE.Box3().setFromPoints(pts).getSize(new THREE.Vector3()).length(), 0.5);
    this.nameLabels[i].position.set(top.x, top.y + 0.1 * h, top.z);
  }

  /** Bounding sphere of both shapes, for framing the camera. */
  bounds(): THREE.Sphere {
    return enclosingSphere(this.shownPoints());
  }

  private shownPoints(): THREE.Vector3[] {
    return this.count === 2 ? [...this.worldPoints(0), ...this.worldPoints(1)] : this.worldPoints(0);
  }

  /** Put the floor grid just under the shapes, sized to the scene. */
  fitGround(): void {
    const pts = this.shownPoints();
    const box = new THREE.Box3().setFromPoints(pts);
    const s = this.bounds();
    this.grid.scale.setScalar(s.radius * 6);
    this.grid.position.set(s.center.x, box.min.y - 0.25 * s.radius, s.center.z);
    this.view.requestRender();
  }

  /** Draw the frame's points that live on the shapes (see lib/draw/frames.ts). */
  setFrame(overlay: FrameDrawing | null): void {
    clearGroup(this.overlay);
    const b = this.bounds();
    overlay?.shapes?.(this.overlay, { scale: b.radius, arrowLength: b.radius * 0.45, center: b.center });
    this.view.requestRender();
  }

  select(i: 0 | 1 | null): void {
    if (this.selected === i) return;
    this.selected = i;
    if (i === null) this.transform.detach();
    else this.transform.attach(this.poses[i]);
    this.onSelect?.(i);
    this.view.requestRender();
  }

  get selection(): 0 | 1 | null { return this.selected; }

  setMode(mode: TransformMode): void {
    this.transform.setMode(mode);
    this.view.requestRender();
  }

  get mode(): TransformMode { return this.transform.getMode() as TransformMode; }

  get dragging(): boolean { return this.transform.dragging; }

  /** Click (without drag) on a shape attaches the gizmo to it; on empty space detaches it. */
  private installPicking(): void {
    const canvas = this.view.canvas;
    let down: { x: number; y: number; onGizmo: boolean } | null = null;
    canvas.addEventListener('pointerdown', (e) => {
      down = { x: e.clientX, y: e.clientY, onGizmo: this.transform.axis !== null };
    });
    canvas.addEventListener('pointerup', (e) => {
      if (!down) return;
      const moved = Math.hypot(e.clientX - down.x, e.clientY - down.y);
      const onGizmo = down.onGizmo;
      down = null;
      if (moved > 4 || onGizmo || this.locked) return;
      const rect = canvas.getBoundingClientRect();
      const ndc = new THREE.Vector2(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
      const ray = new THREE.Raycaster();
      ray.params.Line = { threshold: this.view.pixelSize(6) };
      ray.setFromCamera(ndc, this.view.camera);
      const hits = ray.intersectObjects(this.bodies.slice(0, this.count), true);
      const hit = hits.find((h) => h.object.userData.shapeIndex !== undefined);
      this.select(hit ? (hit.object.userData.shapeIndex as 0 | 1) : null);
    });
  }
}

/** The core GJK runs on, when it differs from the shape (rounded shapes); null otherwise. */
function coreOf(s: Shape): Shape | null {
  const rounded = s.type === 'sphere' || s.type === 'capsule';
  if (!rounded && !(s.margin && s.margin > 0)) return null;
  const core: Shape = { ...s };
  delete core.margin;
  if (s.type === 'sphere') return { type: 'point', position: s.position, rotation: s.rotation };
  if (s.type === 'capsule') core.radius = 0;
  return core;
}
