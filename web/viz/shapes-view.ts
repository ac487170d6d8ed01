// Left view: shapes A and B in world space, moved with TransformControls, plus the current frame's
// points on the shapes (support sources a and b, closest or contact points), drawn by the frame's overlay.
import * as THREE from 'three';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import { buildHull, enclosingSphere, meshHull, type Hull } from '../lib/draw/hull-geometry';
import { COLORS, clearGroup, hullObject, label, marker } from '../lib/draw/primitives';
import { drawnPlanes, localHalfSpace, patchCorners, planeObject, planePatch, worldHalfSpace } from '../lib/draw/plane';
import { surfaceTriangles } from '../lib/draw/surface-triangles';
import type { FrameDrawing } from '../lib/draw/types';
import { shapeSurface, type Quat, type Scene, type Shape, type Vec3 } from '../lib/index';
import { motionEnd, rayTip } from './edit-math';
import { View } from './view';
import { WorldBodies } from './world-bodies';

/** The colour of a world's shapes after A and B. */
const OTHER_COLOR = 0xc6e26b;

export type TransformMode = 'translate' | 'rotate';

/** The drag handles: the ray's origin and end; where A and B end their motion; the point queries' point. */
export type HandleKind = 'origin' | 'tip' | 'endA' | 'endB' | 'point';
const HANDLE_KINDS: readonly HandleKind[] = ['origin', 'tip', 'endA', 'endB', 'point'];
const HANDLE_TEXT: Record<HandleKind, string> = { origin: 'ray origin', tip: 'ray end', endA: 'A ends', endB: 'B ends', point: 'point p' };

export class ShapesView {
  readonly view: View;
  private readonly poses: [THREE.Group, THREE.Group] = [new THREE.Group(), new THREE.Group()];
  private readonly bodies: [THREE.Group, THREE.Group] = [new THREE.Group(), new THREE.Group()];
  private readonly keys: [string, string] = ['', ''];
  private readonly hulls: [Hull | null, Hull | null] = [null, null];
  /** Whether A, B is a plane (drawn as a patch around the other shape). */
  private readonly planeShown: [boolean, boolean] = [false, false];
  private readonly nameLabels = [label('A', 'label-a'), label('B', 'label-b')];
  private readonly overlay = new THREE.Group();
  /** Floor grid, for a sense of up and of depth; placed under the shapes by fitGround(). */
  private readonly grid = new THREE.GridHelper(1, 20, 0x3a4150, 0x252a35);
  private readonly transform: TransformControls;
  private selected: 0 | 1 | null = null;
  /**
   * A world's shapes after A and B (the pairs query: any number of shapes), drawn in one colour and not picked by
   * the gizmo; their world points, for framing and the grid.
   */
  private readonly others = new THREE.Group();
  private othersKey = '';
  private otherPoints: THREE.Vector3[] = [];
  /** Shapes shown: 2, or 1 for queries on shape A alone (raycast). */
  private count: 1 | 2 = 2;
  /** Called while a shape is dragged, with its new pose. */
  onPoseChange: ((index: 0 | 1, position: Vec3, rotation: Quat) => void) | null = null;
  /** No gizmo: clicks on shapes do not attach it (a fixed embed). */
  locked = false;
  /** Called when the attached shape changes (click on a shape, on empty space, or select()). */
  onSelect: ((index: 0 | 1 | null) => void) | null = null;
  /** The handles: each a group the gizmo attaches to, holding a marker and a label. */
  private readonly handles = new Map<HandleKind, THREE.Group>();
  private selectedHandle: HandleKind | null = null;
  /** The gizmo's mode for shapes, restored when it leaves a handle (handles only move). */
  private shapeMode: TransformMode = 'translate';
  /** Called while a handle is dragged, with its new position. */
  onHandleMove: ((kind: HandleKind, position: Vec3) => void) | null = null;
  /** Shapes of a 2D scene (lifted to z = 0): drawn flat, seen from above, moved in the plane only. */
  private flat = false;
  /** A world's shapes ("simulate"), in place of A and B while it is shown. */
  readonly world = new WorldBodies();
  private worldShown = false;
  /** Called when a world's contact point is clicked, with the two shapes it is between. */
  onContactPick: ((a: number, b: number) => void) | null = null;

  constructor(container: HTMLElement) {
    this.view = new View(container, 'canvas-shapes', 0x14171f);
    this.view.scene.add(this.grid);
    this.poses.forEach((p, i) => {
      p.add(this.bodies[i]);
      this.view.scene.add(p);
      this.view.scene.add(this.nameLabels[i]);
    });
    this.view.scene.add(this.overlay, this.others, this.world.group);

    this.transform = new TransformControls(this.view.camera, this.view.canvas);
    this.view.onCameraChange = (camera) => { this.transform.camera = camera; };
    this.transform.setSize(0.8);
    this.transform.addEventListener('change', () => this.view.requestRender());
    this.transform.addEventListener('dragging-changed', (e) => {
      this.view.controls.enabled = !(e as unknown as { value: boolean }).value;
    });
    this.transform.addEventListener('objectChange', () => {
      if (this.selectedHandle !== null) {
        const h = this.handles.get(this.selectedHandle)!;
        this.onHandleMove?.(this.selectedHandle, [h.position.x, h.position.y, h.position.z]);
        return;
      }
      if (this.selected === null) return;
      const g = this.poses[this.selected];
      this.placeLabels();
      this.onPoseChange?.(this.selected, [g.position.x, g.position.y, g.position.z],
        [g.quaternion.x, g.quaternion.y, g.quaternion.z, g.quaternion.w]);
    });
    this.view.scene.add(this.transform.getHelper());
    for (const kind of HANDLE_KINDS) {
      const g = new THREE.Group();
      const color = kind === 'endA' ? COLORS.a : kind === 'endB' ? COLORS.b : COLORS.direction;
      const dot = marker(color, 9);
      dot.userData.handle = kind;
      // Drawn over the shapes: a handle inside a shape can still be seen and picked.
      (dot.material as THREE.MeshBasicMaterial).depthTest = false;
      dot.renderOrder = 20;
      const ring = marker(0x0f1117, 13);
      (ring.material as THREE.MeshBasicMaterial).depthTest = false;
      ring.renderOrder = 19;
      // Under the handle (the point labels of the frames sit above their points); A's end to the left and B's to
      // the right, so that ends that meet stay readable.
      const text = label(HANDLE_TEXT[kind], 'label-handle');
      text.center.set(kind === 'endA' ? 1 : kind === 'endB' ? 0 : 0.5, 0);
      g.add(ring, dot, text);
      // The query point's handle is only its pickable spot: the frame's own dot and label show p, in the colour
      // of the answer (inside, outside), in the same place.
      if (kind === 'point') {
        ring.visible = false;
        text.visible = false;
        Object.assign(dot.material as THREE.MeshBasicMaterial, { transparent: true, opacity: 0 });
      }
      g.visible = false;
      this.handles.set(kind, g);
      this.view.scene.add(g);
    }
    this.installPicking();
  }

  /**
   * Place the handles for `scene`: the ray's origin and end (raycast), the two shapes' ends of motion
   * (shapecast), the query point (contains, project); none for the other queries. A handle being dragged keeps
   * the gizmo's position.
   */
  setHandles(scene: Scene): void {
    const at = new Map<HandleKind, Vec3>();
    if (scene.query === 'raycast' && scene.ray) {
      at.set('origin', scene.ray.origin);
      at.set('tip', rayTip(scene.ray));
    }
    if ((scene.query === 'contains' || scene.query === 'project') && scene.point) at.set('point', scene.point);
    if (scene.query === 'shapecast' && scene.motion && scene.shapes.length >= 2) {
      at.set('endA', motionEnd(scene.shapes[0].position, scene.motion, 0));
      at.set('endB', motionEnd(scene.shapes[1].position, scene.motion, 1));
    }
    for (const [kind, g] of this.handles) {
      const p = at.get(kind);
      g.visible = p !== undefined && p.every(Number.isFinite);
      if (!g.visible && this.selectedHandle === kind) this.select(null);
      if (p && !(this.transform.dragging && this.selectedHandle === kind)) g.position.set(p[0], p[1], p[2]);
    }
    this.view.requestRender();
  }

  /** Attach the gizmo to a handle (it moves the handle only). */
  selectHandle(kind: HandleKind): void {
    if (this.selectedHandle === kind) return;
    if (this.selectedHandle === null) this.shapeMode = this.mode;
    this.selected = null;
    this.selectedHandle = kind;
    this.transform.setMode('translate');
    this.applyPlanarGizmo();
    this.transform.attach(this.handles.get(kind)!);
    this.onSelect?.(null);
    this.view.requestRender();
  }

  get handleSelection(): HandleKind | null { return this.selectedHandle; }

  /** The handles shown, where they are on the page (CSS pixels from the viewport's top left). */
  handlesOnScreen(): Partial<Record<HandleKind, [number, number]>> {
    const out: Partial<Record<HandleKind, [number, number]>> = {};
    const rect = this.view.canvas.getBoundingClientRect();
    this.view.camera.updateMatrixWorld();
    for (const [kind, g] of this.handles) {
      if (!g.visible) continue;
      const p = g.position.clone().project(this.view.camera);
      out[kind] = [rect.left + (p.x + 1) / 2 * rect.width, rect.top + (1 - p.y) / 2 * rect.height];
    }
    return out;
  }

  /** Where the shapes' own origins (their positions) are on the page, in CSS pixels from the viewport's top left. */
  shapesOnScreen(): [number, number][] {
    const rect = this.view.canvas.getBoundingClientRect();
    this.view.camera.updateMatrixWorld();
    return this.poses.slice(0, this.count).map((g) => {
      const p = g.position.clone().project(this.view.camera);
      return [rect.left + (p.x + 1) / 2 * rect.width, rect.top + (1 - p.y) / 2 * rect.height];
    });
  }

  /**
   * A world's contact points that a click picks (the frame's pointA and pointB dots): the two shapes of each and
   * where it is on the page, in CSS pixels from the viewport's top left.
   */
  contactsOnScreen(): { pair: [number, number]; at: [number, number] }[] {
    const rect = this.view.canvas.getBoundingClientRect();
    this.view.camera.updateMatrixWorld();
    const out: { pair: [number, number]; at: [number, number] }[] = [];
    this.overlay.traverse((o) => {
      const pair = o.userData.contactPair as [number, number] | undefined;
      if (!pair) return;
      const p = o.getWorldPosition(new THREE.Vector3()).project(this.view.camera);
      out.push({ pair, at: [rect.left + (p.x + 1) / 2 * rect.width, rect.top + (1 - p.y) / 2 * rect.height] });
    });
    return out;
  }

  /** The handles shown, with their positions in world space (for tests and for framing). */
  handlePositions(): Partial<Record<HandleKind, Vec3>> {
    const out: Partial<Record<HandleKind, Vec3>> = {};
    for (const [kind, g] of this.handles) if (g.visible) out[kind] = [g.position.x, g.position.y, g.position.z];
    return out;
  }

  /**
   * A 2D scene's shapes (their 3D twins in the plane z = 0) or a 3D scene's: flat shapes are drawn as their
   * outline in the plane, the camera looks down on the plane, the gizmo moves along x and y and turns about z.
   */
  setPlanar(on: boolean): void {
    if (on === this.flat) return;
    this.flat = on;
    this.keys[0] = this.keys[1] = '';
    this.view.setPlanar(on);
    this.grid.rotation.set(on ? Math.PI / 2 : 0, 0, 0);
    this.transform.showX = true;
    this.transform.showY = true;
    this.transform.showZ = true;
    this.applyPlanarGizmo();
  }

  /**
   * In the plane the rotate gizmo keeps its ring about z only. The translate gizmo stays whole: seen from above its
   * z arrow points at the viewer (the gizmo hides it), and its centre drags in the view's plane, x and y.
   */
  private applyPlanarGizmo(): void {
    if (!this.flat) return;
    const rotating = this.transform.getMode() === 'rotate';
    this.transform.showX = !rotating;
    this.transform.showY = !rotating;
  }

  /**
   * Show a world's shapes (`shapes`, with `moving` telling bodies from static shapes) in place of A and B, or
   * (null) A and B again. Their poses come with each frame (setWorldPoses).
   */
  setWorld(shapes: Shape[] | null, moving: boolean[] = []): void {
    this.worldShown = shapes !== null;
    if (this.worldShown) this.select(null);
    this.world.setShapes(shapes, moving);
    this.poses.forEach((p, i) => { p.visible = !this.worldShown && i < this.count; });
    this.nameLabels.forEach((l, i) => { l.visible = !this.worldShown && i < this.count; });
    // A world draws every shape itself: shapes 2, 3, … of a pairs scene are not shown beside it.
    this.others.visible = !this.worldShown;
    this.showGrid();
    this.view.requestRender();
  }

  /** A world's shapes at a frame's poses ([x, y, z, qx, qy, qz, qw] each). */
  setWorldPoses(poses: readonly (readonly number[])[]): void {
    this.world.setPoses(poses);
    this.view.requestRender();
  }

  /** Update the shapes' geometry (rebuilt only when type or parameters change) and poses. */
  setShapes(shapes: Shape[]): void {
    this.count = shapes.length >= 2 ? 2 : 1;
    this.poses[1].visible = this.count === 2 && !this.worldShown;
    this.nameLabels[1].visible = this.count === 2 && !this.worldShown;
    if (this.count === 1 && this.selected === 1) this.select(null);
    // A plane's patch is sized around the other shape: that one is drawn and placed first.
    const order = ([0, 1] as const).filter((i) => i < this.count).sort((i, j) => Number(shapes[i].type === 'plane') - Number(shapes[j].type === 'plane'));
    for (const i of order) {
      const s = shapes[i];
      const local: Shape = { ...s, position: [0, 0, 0], rotation: [0, 0, 0, 1] };
      this.planeShown[i] = s.type === 'plane';
      if (s.type === 'plane') {
        this.setPlane(i, s, this.count === 2 ? this.worldPoints(i === 0 ? 1 : 0) : []);
        continue;
      }
      const key = JSON.stringify(local);
      if (key !== this.keys[i]) {
        this.keys[i] = key;
        clearGroup(this.bodies[i]);
        let hull: Hull;
        // A compound is drawn child by child (its hull would be another shape); `hull` bounds them all.
        let pieces: Hull[] | null = null;
        try {
          if (local.type === 'compound' && local.children) pieces = local.children.map((c) => buildHull(this.outline(shapeSurface(c))));
          // A mesh or heightfield is drawn from its own triangles (it is not convex: its hull would be another shape).
          const surface = surfaceTriangles(local);
          hull = surface ? meshHull(surface.vertices, surface.triangles)
            : pieces ? buildHull(pieces.flatMap((p) => p.vertices.map((v) => [v.x, v.y, v.z] as Vec3)))
            : buildHull(this.outline(shapeSurface(local)));
        } catch {
          hull = buildHull([[0, 0, 0]]);
          pieces = null;
        }
        this.hulls[i] = hull;
        for (const h of pieces ?? [hull]) {
          this.bodies[i].add(hullObject(h, {
            color: i === 0 ? COLORS.a : COLORS.b, opacity: 0.42, edgeOpacity: 0.85, pointSize: 5,
          }));
        }
        // GJK and EPA run on the core (sphere → centre, capsule → segment, margin removed): draw it as a wireframe
        // so the support points a and b, which lie on the core, are seen where they are.
        const core = coreOf(local);
        if (core) {
          try {
            this.bodies[i].add(hullObject(buildHull(this.outline(shapeSurface(core))), {
              color: COLORS.core, opacity: 0, edgeOpacity: 0.8, pointSize: 3, wireOnly: true,
            }));
          } catch { /* the core is only a guide; the shape itself is drawn */ }
        }
        this.bodies[i].traverse((o) => { o.userData.shapeIndex = i; });
      }
      this.placePose(i, s);
    }
    this.setOthers(shapes.slice(2));
    // With more shapes than A and B, the frames number every shape (A, B would name two of them only).
    for (const l of this.nameLabels) l.element.hidden = shapes.length > 2;
    // Each label depends on both poses.
    this.placeLabels();
    this.showGrid();
    this.view.requestRender();
  }

  /** Shape i's group at its pose; while a shape is being dragged its pose comes from the gizmo: do not fight it. */
  private placePose(i: 0 | 1, s: Shape): void {
    if (this.transform.dragging && this.selected === i) return;
    const p = s.position ?? [0, 0, 0];
    const q = s.rotation ?? [0, 0, 0, 1];
    this.poses[i].position.set(p[0], p[1], p[2]);
    this.poses[i].quaternion.set(q[0], q[1], q[2], q[3]).normalize();
    this.poses[i].updateMatrix();
  }

  /**
   * Shape i, a plane: a patch of its surface around `around` (the other shape's world points), in the plane's own
   * frame under its pose group (the gizmo moves and turns it like any shape). Its hull, for the label and the
   * framing, is the patch's square.
   */
  private setPlane(i: 0 | 1, s: Shape, around: THREE.Vector3[]): void {
    this.placePose(i, s);
    const toLocal = this.poses[i].matrix.clone().invert();
    const local = around.map((v) => v.clone().applyMatrix4(toLocal).toArray() as Vec3);
    const patch = planePatch(localHalfSpace(s), local);
    const key = JSON.stringify(patch);
    if (key === this.keys[i]) return;
    this.keys[i] = key;
    clearGroup(this.bodies[i]);
    this.hulls[i] = buildHull(patchCorners(patch));
    this.bodies[i].add(planeObject(patch, { color: i === 0 ? COLORS.a : COLORS.b, opacity: 0.2 }));
    this.bodies[i].traverse((o) => { o.userData.shapeIndex = i; });
  }

  /** Shapes 2, 3, … in world space (rebuilt when any of them, or A or B, changes: a plane's patch is sized around the others). */
  private setOthers(shapes: Shape[]): void {
    const key = JSON.stringify(shapes) + (shapes.some((s) => s.type === 'plane') ? JSON.stringify(this.keys) : '');
    if (key === this.othersKey) return;
    this.othersKey = key;
    clearGroup(this.others);
    this.otherPoints = [];
    const planes: Shape[] = [];
    for (const s of shapes) {
      if (s.type === 'plane') {
        planes.push(s);
        continue;
      }
      let hull: Hull;
      try {
        const surface = surfaceTriangles(s);
        if (surface) {
          // A mesh or heightfield from its own triangles, placed at its pose.
          const q = new THREE.Quaternion(...(s.rotation ?? [0, 0, 0, 1])).normalize();
          const p = new THREE.Vector3(...(s.position ?? [0, 0, 0]));
          const world = surface.vertices.map((v) => new THREE.Vector3(...v).applyQuaternion(q).add(p).toArray() as Vec3);
          hull = meshHull(world, surface.triangles);
        } else {
          hull = buildHull(this.outline(shapeSurface(s)));
        }
      } catch {
        continue;
      }
      this.others.add(hullObject(hull, { color: OTHER_COLOR, opacity: 0.32, edgeOpacity: 0.7, pointSize: 4 }));
      this.otherPoints.push(...hull.vertices);
    }
    // Planes last, each a patch around every other shape but planes (A and B included).
    const around = [...this.otherPoints, ...([0, 1] as const).filter((i) => i < this.count && !this.planeShown[i])
      .flatMap((i) => this.worldPoints(i))].map((v) => v.toArray() as Vec3);
    for (const s of planes) {
      const patch = planePatch(worldHalfSpace(s), around);
      this.others.add(planeObject(patch, { color: OTHER_COLOR, opacity: 0.16 }));
      this.otherPoints.push(...patchCorners(patch).map((c) => new THREE.Vector3(...c)));
    }
  }

  /** A surface's points as drawn: flat shapes (a circle's sphere, a capsule) by their shadow on the plane z = 0. */
  private outline(points: Vec3[]): Vec3[] {
    return this.flat ? points.map((p) => [p[0], p[1], 0]) : points;
  }

  /** The hull's points of shape i in world space (with the pose shown, which may be mid-drag). */
  private worldPoints(i: 0 | 1): THREE.Vector3[] {
    const g = this.poses[i];
    g.updateMatrix();
    return (this.hulls[i]?.vertices ?? [new THREE.Vector3()]).map((v) => v.clone().applyMatrix4(g.matrix));
  }

  private placeLabels(): void {
    for (let i = 0; i < this.count; i++) this.placeLabel(i as 0 | 1);
  }

  /**
   * Label on the side of the shape away from the other one (at its farthest point that way, a little beyond),
   * so that it cannot sit on the other shape; alone (the ray cast), just above its highest point.
   */
  private placeLabel(i: 0 | 1): void {
    const pts = this.worldPoints(i);
    const h = Math.max(new THREE.Box3().setFromPoints(pts).getSize(new THREE.Vector3()).length(), 0.5 * this.scale());
    let away: THREE.Vector3 | null = null;
    if (this.count === 2) {
      const mine = new THREE.Box3().setFromPoints(pts).getCenter(new THREE.Vector3());
      const other = new THREE.Box3().setFromPoints(this.worldPoints(i === 0 ? 1 : 0)).getCenter(new THREE.Vector3());
      away = mine.sub(other);
      // Shapes side by side: a little up as well, where labels read best; stacked ones: straight away.
      const len = away.length();
      if (Math.abs(away.y) < 0.5 * len) away.y += 0.35 * len;
      away = len > 0 ? away.normalize() : null;
    }
    const dir = away ?? new THREE.Vector3(0, 1, 0);
    let far = pts[0];
    for (const p of pts) if (p.dot(dir) > far.dot(dir)) far = p;
    this.nameLabels[i].position.copy(far).addScaledVector(dir, 0.1 * h);
  }

  /** The size of the shapes shown (their bounding sphere's radius), for offsets that scale with the scene. */
  private scale(): number {
    return this.bounds().radius;
  }

  /** Bounding sphere of both shapes (a world's: of its shapes at the frame shown), for framing the camera. */
  bounds(): THREE.Sphere {
    return this.worldShown ? this.world.bounds() : enclosingSphere(this.shownPoints());
  }

  private shownPoints(): THREE.Vector3[] {
    return this.count === 2 ? [...this.worldPoints(0), ...this.worldPoints(1), ...this.otherPoints] : this.worldPoints(0);
  }

  /** A plane drawn has its own grid, the floor: the view's grid is hidden while it is shown. */
  private showGrid(): void {
    this.grid.visible = drawnPlanes(this.view.scene).length === 0;
  }

  /** Put the floor grid just under the shapes, sized to the scene (see showGrid). */
  fitGround(): void {
    this.showGrid();
    const pts = this.shownPoints();
    const box = new THREE.Box3().setFromPoints(pts);
    if (this.worldShown) box.min.y = this.world.minY();
    const s = this.bounds();
    this.grid.scale.setScalar(s.radius * 6);
    // In the plane the grid lies just behind the shapes, seen from above.
    if (this.flat) this.grid.position.set(s.center.x, s.center.y, -1e-3 * s.radius);
    else this.grid.position.set(s.center.x, box.min.y - 0.25 * s.radius, s.center.z);
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
    if (this.selected === i && this.selectedHandle === null) return;
    if (this.selectedHandle !== null) {
      this.selectedHandle = null;
      this.transform.setMode(this.shapeMode);
      this.applyPlanarGizmo();
    }
    this.selected = i;
    if (i === null) this.transform.detach();
    else this.transform.attach(this.poses[i]);
    this.onSelect?.(i);
    this.view.requestRender();
  }

  get selection(): 0 | 1 | null { return this.selected; }

  setMode(mode: TransformMode): void {
    this.shapeMode = mode;
    // A handle only moves; the mode asked for waits for the next shape.
    if (this.selectedHandle !== null) return;
    this.transform.setMode(mode);
    this.applyPlanarGizmo();
    this.view.requestRender();
  }

  get mode(): TransformMode { return this.selectedHandle !== null ? this.shapeMode : this.transform.getMode() as TransformMode; }

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
      // Handles first: they are small and drawn over the shapes.
      const handleHit = ray.intersectObjects([...this.handles.values()].filter((g) => g.visible), true)
        .find((h) => h.object.userData.handle !== undefined);
      if (handleHit) {
        this.selectHandle(handleHit.object.userData.handle as HandleKind);
        return;
      }
      if (this.worldShown) {
        // A world's shapes do not take the gizmo (their poses are the trace's); its contact points open their pair.
        const pick = ray.intersectObjects(this.overlay.children, true).find((h) => h.object.userData.contactPair !== undefined);
        if (pick) {
          const [a, b] = pick.object.userData.contactPair as [number, number];
          this.onContactPick?.(a, b);
        }
        return;
      }
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
  // Scaled unevenly, a sphere's or capsule's ball is part of the core (the library adds only the margin after).
  const sc = s.scale;
  if (rounded && sc && !(Math.abs(sc[1]) === Math.abs(sc[0]) && Math.abs(sc[2]) === Math.abs(sc[0]))) {
    return s.margin && s.margin > 0 ? core : null;
  }
  if (s.type === 'sphere') return { type: 'point', position: s.position, rotation: s.rotation };
  if (s.type === 'capsule') core.radius = 0;
  return core;
}
