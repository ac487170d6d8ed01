// A plane (the half-space normal·x ≤ offset) drawn as a finite patch of its surface: a translucent square with a
// grid, centred on the surface point nearest to what it is drawn with and sized to reach past it, and its outward
// normal as an arrow. The page and collidoscope/three draw planes with this code.
import * as THREE from 'three';
import type { Shape, Vec3 } from '../index';
import { arrow } from './primitives';

/** A half-space {x : normal·x ≤ offset} with a unit normal. */
export interface HalfSpace {
  normal: Vec3;
  offset: number;
}

/** A square piece of a plane's surface: its centre, unit normal, unit in-plane axes u, v, and half side. */
export interface PlanePatch {
  center: Vec3;
  normal: Vec3;
  u: Vec3;
  v: Vec3;
  half: number;
}

/** Grid lines across a patch, each way. */
const GRID_LINES = 10;
/** The patch reaches this far past the box it is drawn around (its half side over the box's half diagonal). */
const PATCH_REACH = 1.6;

const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/**
 * The half-space of a plane shape in its own frame (before its position and rotation), as the library reads it
 * (plane.h): a scale S turns the normal n into S⁻¹n, the normal is made unit with the offset divided alike, and a
 * margin moves the surface out.
 */
export function localHalfSpace(s: Shape): HalfSpace {
  const k = s.scale ?? [1, 1, 1];
  const n0 = s.normal ?? [0, 1, 0];
  const n = [n0[0] / k[0], n0[1] / k[1], n0[2] / k[2]];
  // The length on n / max|n_i|, so that tiny or huge normals neither underflow nor overflow.
  const m = Math.max(Math.abs(n[0]), Math.abs(n[1]), Math.abs(n[2]));
  const len = Math.hypot(n[0] / m, n[1] / m, n[2] / m);
  return { normal: [n[0] / m / len, n[1] / m / len, n[2] / m / len], offset: (s.offset ?? 0) / m / len + (s.margin ?? 0) };
}

/** The half-space of a plane shape in world space: its own half-space turned by its rotation and moved by its position. */
export function worldHalfSpace(s: Shape): HalfSpace {
  const h = localHalfSpace(s);
  const q = s.rotation ?? [0, 0, 0, 1];
  const n = new THREE.Vector3(...h.normal).applyQuaternion(new THREE.Quaternion(q[0], q[1], q[2], q[3]).normalize());
  const p = s.position ?? [0, 0, 0];
  const normal: Vec3 = [n.x, n.y, n.z];
  return { normal, offset: h.offset + dot(normal, p) };
}

/**
 * The patch of the surface of `h` to draw around the points `around` (the other shapes' points, in the same
 * frame as h): centred on the surface point nearest their box's centre, with a half side of PATCH_REACH times the
 * box's half diagonal, and at least that box's distance from the surface (a body high above a floor still sees the
 * floor under it). Without points: a unit patch around the surface point nearest the origin. The in-plane axes are
 * the world axis least along the normal made perpendicular to it (u), and normal × u (v).
 */
export function planePatch(h: HalfSpace, around: readonly (readonly number[])[] = []): PlanePatch {
  const n = h.normal;
  let c: number[] = [0, 0, 0];
  let half = 1;
  if (around.length > 0) {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const p of around) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[k]); hi[k] = Math.max(hi[k], p[k]); }
    c = [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2);
    const diagonal = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2;
    const height = Math.abs(dot(n, c) - h.offset);
    half = Math.max(PATCH_REACH * diagonal, height);
    // A point: a patch as wide as its height, or a unit one on the surface.
    if (!(half > 0)) half = 1;
  }
  const above = dot(n, c) - h.offset;
  const center: Vec3 = [c[0] - above * n[0], c[1] - above * n[1], c[2] - above * n[2]];
  const abs = n.map(Math.abs);
  const axis = abs[0] <= abs[1] && abs[0] <= abs[2] ? [1, 0, 0] : abs[1] <= abs[2] ? [0, 1, 0] : [0, 0, 1];
  const along = dot(axis, n);
  const u0 = [axis[0] - along * n[0], axis[1] - along * n[1], axis[2] - along * n[2]];
  const ul = Math.hypot(u0[0], u0[1], u0[2]);
  const u: Vec3 = [u0[0] / ul, u0[1] / ul, u0[2] / ul];
  const v: Vec3 = [n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]];
  return { center, normal: [n[0], n[1], n[2]], u, v, half };
}

/** The patch's corners, counter-clockwise seen from the side its normal points to. */
export function patchCorners(p: PlanePatch): Vec3[] {
  const at = (a: number, b: number): Vec3 => [0, 1, 2].map((k) => p.center[k] + p.half * (a * p.u[k] + b * p.v[k])) as Vec3;
  return [at(-1, -1), at(1, -1), at(1, 1), at(-1, 1)];
}

/** How planeObject draws a patch. */
export interface PlaneStyle {
  color: number;
  /** Opacity of the square (default 0.18); the grid is drawn at twice that. */
  opacity?: number;
  /** Draw the outward normal as an arrow from the centre (default true). */
  normalArrow?: boolean;
}

/**
 * A patch as three.js objects: a translucent square (both sides, named 'collidoscope:plane', its userData.normal
 * the unit outward normal), a grid over it, and the normal as an arrow 0.35 of the patch's half side long.
 */
export function planeObject(p: PlanePatch, style: PlaneStyle): THREE.Group {
  const g = new THREE.Group();
  g.name = 'collidoscope:plane';
  const opacity = style.opacity ?? 0.18;
  const corners = patchCorners(p).map((c) => new THREE.Vector3(...c));
  const geom = new THREE.BufferGeometry().setFromPoints([corners[0], corners[1], corners[2], corners[0], corners[2], corners[3]]);
  const square = new THREE.Mesh(geom, new THREE.MeshBasicMaterial({
    color: style.color, transparent: true, opacity, side: THREE.DoubleSide, depthWrite: false,
  }));
  square.name = 'collidoscope:plane:patch';
  square.userData.normal = [...p.normal];
  square.renderOrder = 2;
  const ends: THREE.Vector3[] = [];
  for (let i = 0; i <= GRID_LINES; i++) {
    const t = -1 + 2 * i / GRID_LINES;
    ends.push(corners[0].clone().lerp(corners[1], (t + 1) / 2), corners[3].clone().lerp(corners[2], (t + 1) / 2));
    ends.push(corners[0].clone().lerp(corners[3], (t + 1) / 2), corners[1].clone().lerp(corners[2], (t + 1) / 2));
  }
  const grid = new THREE.LineSegments(new THREE.BufferGeometry().setFromPoints(ends),
    new THREE.LineBasicMaterial({ color: style.color, transparent: true, opacity: Math.min(1, 2 * opacity) }));
  grid.name = 'collidoscope:plane:grid';
  g.add(square, grid);
  if (style.normalArrow !== false) {
    const a = arrow(p.center, p.normal, 0.35 * p.half, style.color);
    a.name = 'collidoscope:plane:normal';
    g.add(a);
  }
  return g;
}

/** A patch as drawn: its world-space centre and unit normal, and its half side (the world size of its square). */
export interface DrawnPlane {
  center: Vec3;
  normal: Vec3;
  half: number;
}

/**
 * The plane patches drawn under `root` and shown (they and their parents visible), in world space: what a view
 * shows of its planes, read back from the objects (their parents' poses applied).
 */
export function drawnPlanes(root: THREE.Object3D): DrawnPlane[] {
  root.updateMatrixWorld(true);
  const out: DrawnPlane[] = [];
  root.traverseVisible((o) => {
    if (o.name !== 'collidoscope:plane:patch') return;
    const m = o as THREE.Mesh;
    const pos = m.geometry.getAttribute('position');
    // The square's corners are vertices 0, 1, 2 and 5 (two triangles 0 1 2, 0 2 3).
    const corner = (i: number) => new THREE.Vector3().fromBufferAttribute(pos, i).applyMatrix4(m.matrixWorld);
    const [c0, c1, c2] = [corner(0), corner(1), corner(2)];
    const center = c0.clone().add(c2).multiplyScalar(0.5);
    const n = new THREE.Vector3(...(m.userData.normal as Vec3)).transformDirection(m.matrixWorld);
    out.push({ center: center.toArray() as Vec3, normal: n.toArray() as Vec3, half: c0.distanceTo(c1) / 2 });
  });
  return out;
}
