// Right view: the Minkowski difference A − B (full shapes, and the cores GJK and EPA run on), the origin, and
// the current frame as drawn by its algorithm's drawing (lib/draw/gjk.ts, lib/draw/epa.ts, ...). Two other
// contents: shape A alone in world space ('single', the ray cast), and the unit sphere of directions
// ('gauss', Chung–Wang's Gauss sphere); and a flat figure the frames draw by themselves ('figure': the pairs
// view's sorted intervals), seen from above like a 2D scene.
import * as THREE from 'three';
import { buildHull, enclosingSphere, meshHull, type Hull } from '../lib/draw/hull-geometry';
import { COLORS, clearGroup, hullObject, label, marker } from '../lib/draw/primitives';
import { patchCorners, planeObject, planePatch, worldHalfSpace } from '../lib/draw/plane';
import { surfaceTriangles } from '../lib/draw/surface-triangles';
import type { FrameDrawing } from '../lib/draw/types';
import { minkowskiSurface, run, shapeSurface, type DistanceResult, type PenetrationResult, type Shape, type Vec3 } from '../lib/index';
import { View } from './view';
import { WorldBodies } from './world-bodies';

export type MinkowskiMode = 'difference' | 'single' | 'gauss' | 'figure';

/** Points of the unit sphere's bounding octahedron and a few more: the Gauss view's extent. */
function gaussPoints(): Vec3[] {
  return [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];
}

export class MinkowskiView {
  readonly view: View;
  private readonly hullGroup = new THREE.Group();
  private readonly frameGroup = new THREE.Group();
  private readonly axes = new THREE.AxesHelper(1);
  private readonly titleLabel = label('A − B', 'label-mink');
  private hull: Hull | null = null;
  private core: Hull | null = null;
  private key = '';
  private readonly originGroup = new THREE.Group();
  /** The unit sphere of directions, shown in 'gauss' mode. */
  private readonly gaussGroup = new THREE.Group();
  private mode: MinkowskiMode = 'difference';
  /** A 2D scene's shapes (lifted to z = 0): A − B is drawn as its outline in the plane, seen from above. */
  private flat = false;
  /** A world's shapes ("simulate"), faint, under its contacts, in place of A − B while it is shown. */
  readonly world = new WorldBodies();
  private worldShown = false;

  constructor(container: HTMLElement) {
    this.view = new View(container, 'canvas-minkowski', 0x171420);
    const mat = this.axes.material as THREE.LineBasicMaterial;
    mat.depthTest = false;
    mat.transparent = true;
    this.axes.renderOrder = 6;
    this.view.scene.add(this.hullGroup, this.frameGroup, this.axes, this.titleLabel, this.originGroup, this.gaussGroup, this.world.group);
    this.originGroup.add(marker(COLORS.origin, 4, [0, 0, 0]), label('O', 'label-origin', [0, 0, 0]));
    const sphere = new THREE.Mesh(
      new THREE.SphereGeometry(1, 48, 24),
      new THREE.MeshBasicMaterial({ color: COLORS.mink, transparent: true, opacity: 0.08, depthWrite: false }),
    );
    const wire = new THREE.LineSegments(
      new THREE.WireframeGeometry(new THREE.SphereGeometry(1, 24, 12)),
      new THREE.LineBasicMaterial({ color: COLORS.mink, transparent: true, opacity: 0.18 }),
    );
    this.gaussGroup.add(sphere, wire);
    this.gaussGroup.visible = false;
  }

  /**
   * What the view shows: A − B ('difference', GJK, EPA, SAT, shape cast), shape A alone in world space
   * ('single': the ray cast), or the unit sphere of directions ('gauss': Chung–Wang).
   */
  setShapes(shapes: Shape[], hasMargin: boolean, mode: MinkowskiMode = 'difference', focus: Vec3[] = []): void {
    const key = JSON.stringify([shapes, focus]) + hasMargin + mode + this.flat;
    if (key === this.key) return;
    this.key = key;
    this.mode = mode;
    this.gaussGroup.visible = mode === 'gauss';
    this.axes.visible = mode !== 'figure';
    this.titleLabel.visible = mode !== 'figure';
    this.view.setPlanar(this.flat || mode === 'figure');
    if (mode === 'figure') {
      clearGroup(this.hullGroup);
      this.hull = null;
      this.core = null;
      this.originGroup.visible = false;
      this.view.requestRender();
      return;
    }
    this.hullGroup.visible = mode !== 'gauss';
    this.originGroup.visible = mode === 'difference' || mode === 'gauss';
    this.titleLabel.element.textContent = mode === 'gauss' ? 'Gauss sphere' : mode === 'single' ? 'A' : 'A − B';
    if (mode === 'gauss') {
      this.hull = buildHull(gaussPoints());
      this.core = null;
      this.axes.scale.setScalar(0.45);
      this.titleLabel.position.set(0, 1.25, 0);
      this.view.requestRender();
      return;
    }
    if (mode === 'single') {
      clearGroup(this.hullGroup);
      const a = shapes[0];
      if (a.type === 'plane') {
        // A patch of the surface around the query's point (a unit one without).
        const patch = planePatch(worldHalfSpace(a), focus);
        this.hull = buildHull(patchCorners(patch));
        this.hullGroup.add(planeObject(patch, { color: COLORS.a, opacity: 0.2 }));
        this.core = null;
        this.placeTitle();
        this.view.requestRender();
        return;
      }
      const surface = surfaceTriangles(a);
      if (surface) {
        // A mesh or heightfield in world space, from its own triangles.
        const p = a.position ?? [0, 0, 0];
        const q = new THREE.Quaternion(...(a.rotation ?? [0, 0, 0, 1])).normalize();
        const world = surface.vertices.map((v) => new THREE.Vector3(v[0], v[1], v[2]).applyQuaternion(q).add(new THREE.Vector3(p[0], p[1], p[2])));
        this.hull = meshHull(world.map((v) => [v.x, v.y, v.z] as Vec3), surface.triangles);
        this.hullGroup.add(hullObject(this.hull, { color: COLORS.a, opacity: 0.3, edgeOpacity: 0.7, pointSize: 5 }));
        this.core = null;
        this.placeTitle();
        this.view.requestRender();
        return;
      }
      let pts: Vec3[];
      try {
        pts = this.outline(shapeSurface(a));
      } catch {
        pts = [[0, 0, 0]];
      }
      this.hull = buildHull(pts);
      this.hullGroup.add(hullObject(this.hull, { color: COLORS.a, opacity: 0.3, edgeOpacity: 0.7, pointSize: 5 }));
      this.core = null;
      this.placeTitle();
      this.view.requestRender();
      return;
    }
    this.setDifference(shapes, hasMargin);
  }

  /**
   * Show a world's shapes, faint (the frame's drawing adds its contacts and impulses), or (null) what setShapes sets
   * again: the next setShapes redraws it.
   */
  setWorld(shapes: Shape[] | null, moving: boolean[] = []): void {
    this.worldShown = shapes !== null;
    this.world.setShapes(shapes, moving, { faint: true });
    for (const o of [this.hullGroup, this.axes, this.titleLabel, this.originGroup]) o.visible = !this.worldShown;
    this.gaussGroup.visible = !this.worldShown && this.mode === 'gauss';
    if (this.worldShown) this.key = '';
    this.view.requestRender();
  }

  /** A world's shapes at a frame's poses. */
  setWorldPoses(poses: readonly (readonly number[])[]): void {
    this.world.setPoses(poses);
    this.view.requestRender();
  }

  /** Draw a 2D scene's shapes (lifted to z = 0) flat, with the camera looking down on the plane. */
  setPlanar(on: boolean): void {
    if (on === this.flat) return;
    this.flat = on;
    this.key = '';
    this.view.setPlanar(on || this.mode === 'figure');
  }

  /** The points whose hull is the A − B drawn (in the plane for a 2D scene: [x, y, 0]). */
  differencePoints(): Vec3[] {
    return (this.hull?.vertices ?? []).map((v) => [v.x, v.y, v.z]);
  }

  /** A surface's points as drawn: in the plane z = 0 for a 2D scene. */
  private outline(points: Vec3[]): Vec3[] {
    return this.flat ? points.map((p) => [p[0], p[1], 0]) : points;
  }

  /** Rebuild the hulls of A − B and of core(A) − core(B) when the shapes change. */
  private setDifference(shapes: Shape[], hasMargin: boolean): void {
    clearGroup(this.hullGroup);
    if (shapes[0]?.type === 'plane' || shapes[1]?.type === 'plane') {
      this.setHalfSpaceDifference(shapes);
      return;
    }
    let surf: { points: [number, number, number][]; corePoints: [number, number, number][] };
    try {
      surf = minkowskiSurface(shapes[0], shapes[1]);
    } catch {
      surf = { points: [[0, 0, 0]], corePoints: [[0, 0, 0]] };
    }
    this.hull = buildHull(this.outline(surf.points));
    this.hullGroup.add(hullObject(this.hull, { color: COLORS.mink, opacity: 0.28, edgeOpacity: 0.6, pointSize: 5 }));
    this.core = null;
    if (hasMargin) {
      this.core = buildHull(this.outline(surf.corePoints));
      this.hullGroup.add(hullObject(this.core, { color: COLORS.core, opacity: 0.1, edgeOpacity: 0.7, pointSize: 4 }));
    }
    this.placeTitle();
    this.view.requestRender();
  }

  /**
   * A − B when A or B is a plane: a half-space too. With the plane A (normal n), A − B = {x : n·x ≤ d + max over B
   * of −n·b}; with the plane B, A − B = A + (−B) and its outward normal is −n. Its boundary holds pointA − pointB
   * of the library's penetration (overlapping) or distance (apart): the point of A − B's surface nearest O. It is
   * drawn as a patch around that point and O, as wide as the other shape. Two planes: A − B is all of space or a
   * half-space (opposite normals); it is not drawn, and the title says why.
   */
  private setHalfSpaceDifference(shapes: Shape[]): void {
    const [a, b] = shapes;
    this.core = null;
    if (a.type === 'plane' && b.type === 'plane') {
      this.hull = buildHull([[0, 0, 0]]);
      this.titleLabel.element.textContent = 'A − B of two planes: all of space, or a half-space when their normals are opposite (not drawn)';
      this.placeTitle();
      this.view.requestRender();
      return;
    }
    const plane = a.type === 'plane' ? a : b;
    const other = a.type === 'plane' ? b : a;
    const h = worldHalfSpace(plane);
    const normal: Vec3 = a.type === 'plane' ? h.normal : [-h.normal[0], -h.normal[1], -h.normal[2]];
    let on: Vec3 = [0, 0, 0];
    let extent: Vec3[] = [];
    try {
      const pen = run({ version: 1, query: 'penetration', shapes: [a, b] }) as PenetrationResult;
      const r = pen.intersecting ? pen : run({ version: 1, query: 'distance', shapes: [a, b] }) as DistanceResult;
      on = [r.pointA[0] - r.pointB[0], r.pointA[1] - r.pointB[1], r.pointA[2] - r.pointB[2]];
      // The other shape's extent, centred on the boundary point: the patch is as wide as that shape.
      const pts = surfaceTriangles(other)?.vertices ?? shapeSurface(other, 200);
      const c = pts.reduce((s, p) => [s[0] + p[0], s[1] + p[1], s[2] + p[2]], [0, 0, 0]).map((x) => x / pts.length);
      extent = pts.map((p) => [p[0] - c[0] + on[0], p[1] - c[1] + on[1], p[2] - c[2] + on[2]] as Vec3);
    } catch {
      // A shape the library cannot answer or sample: the patch around O alone.
    }
    const patch = planePatch({ normal, offset: normal[0] * on[0] + normal[1] * on[1] + normal[2] * on[2] }, [[0, 0, 0], on, ...extent]);
    this.hull = buildHull(patchCorners(patch));
    this.hullGroup.add(planeObject(patch, { color: COLORS.mink, opacity: 0.2 }));
    this.titleLabel.element.textContent = 'A − B (a half-space)';
    this.placeTitle();
    this.view.requestRender();
  }

  private placeTitle(): void {
    const s = this.bounds();
    this.axes.scale.setScalar(s.radius * 0.3);
    const pts = this.hull?.vertices ?? [new THREE.Vector3()];
    const box = new THREE.Box3().setFromPoints(pts);
    const c = box.getCenter(new THREE.Vector3());
    // On the side of the shape away from the origin: what each step draws (v, n, the depth, the simplex's
    // nearest feature) gathers around O, and so does its label.
    const away = c.clone();
    if (this.mode === 'single' || away.lengthSq() < 1e-12 * s.radius * s.radius) {
      this.titleLabel.position.set(c.x, box.max.y + 0.2 * s.radius, c.z);
      return;
    }
    away.normalize();
    let far = pts[0];
    for (const p of pts) if (p.dot(away) > far.dot(away)) far = p;
    this.titleLabel.position.copy(far).addScaledVector(away, 0.15 * s.radius);
  }

  /** Bounding sphere of what is shown (A − B with the origin; shape A; the unit sphere). */
  bounds(): THREE.Sphere {
    if (this.worldShown) return this.world.bounds();
    if (this.mode === 'single') return enclosingSphere(this.hull?.vertices ?? [new THREE.Vector3()]);
    return enclosingSphere([new THREE.Vector3(), ...(this.hull?.vertices ?? [])]);
  }

  /** Sphere to frame the camera on: A − B, the origin, and room for the direction arrow drawn from the origin. */
  viewBounds(): THREE.Sphere {
    // The Gauss sphere: a margin around the unit sphere for the labels on its rim.
    if (this.mode === 'gauss') return new THREE.Sphere(new THREE.Vector3(), 1.25);
    if (this.worldShown) return this.world.bounds();
    const s = this.bounds();
    const reach = this.arrowLength() * 1.15;
    return new THREE.Sphere(s.center.clone(), Math.max(s.radius, s.center.length() + reach));
  }

  private arrowLength(): number {
    return this.bounds().radius * 0.4;
  }

  /** Draw the current frame (GJK's simplex or EPA's polytope: see lib/draw/frames.ts). */
  setFrame(overlay: FrameDrawing | null): void {
    clearGroup(this.frameGroup);
    overlay?.minkowski?.(this.frameGroup, { scale: this.bounds().radius, arrowLength: this.arrowLength() });
    this.view.requestRender();
  }
}
