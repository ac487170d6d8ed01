// collidoscope/three (web/lib/three.ts): debug drawing in a user's three.js scene, run in Node (no DOM).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as THREE from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CollidoscopeError, init, isClosedForm, run, trace,
  type ChungWangTrace, type DistanceResult, type EpaTrace, type GjkTrace, type HullResult, type HullTrace, type ObbResult,
  type PenetrationResult, type RaycastResult, type RaycastTrace, type SatResult, type SatTrace, type Scene, type Scene2D, type Shape,
  type ShapecastResult, type ShapecastTrace, type Trace, type Vec3,
} from '../../web/lib/index';
import { COLORS, dispose, drawResult, drawShape, drawTraceFrame, scaleMarkers, toPose } from '../../web/lib/three';
import { drawnPlanes } from '../../web/lib/draw/plane';
import { galleryFiles, sceneDir } from './vectors';
import { stepsOf } from './helpers';

beforeAll(async () => {
  await init();
});

// ---- helpers ------------------------------------------------------------------------------------------------

/** The part of `g` named `name` (exactly one). */
function part(g: THREE.Object3D, name: string): THREE.Object3D {
  const found: THREE.Object3D[] = [];
  g.traverse((o) => { if (o.name === name) found.push(o); });
  expect(found.length, `parts named ${name}`).toBe(1);
  return found[0];
}

/** World positions of the dots (markers: meshes sized in pixels) under g. */
function dots(g: THREE.Object3D, color?: number): THREE.Vector3[] {
  g.updateMatrixWorld(true);
  const out: THREE.Vector3[] = [];
  g.traverse((o) => {
    if (!o.userData.px) return;
    const m = (o as THREE.Mesh).material as THREE.MeshBasicMaterial;
    if (color === undefined || m.color.getHex() === color) out.push(o.getWorldPosition(new THREE.Vector3()));
  });
  return out;
}

/** World positions of a geometry's vertices. */
function worldVertices(o: THREE.Object3D): THREE.Vector3[] {
  o.updateWorldMatrix(true, false);
  const pos = (o as THREE.Mesh).geometry.getAttribute('position');
  const out: THREE.Vector3[] = [];
  for (let i = 0; i < pos.count; i++) out.push(new THREE.Vector3().fromBufferAttribute(pos, i).applyMatrix4(o.matrixWorld));
  return out;
}

/** The float32 rounding of a point: what a position attribute can hold. */
const f32 = (p: readonly number[]) => p.map((x) => Math.fround(x));

function has(points: THREE.Vector3[], p: readonly number[], tol = 0): boolean {
  return points.some((q) => Math.abs(q.x - p[0]) <= tol && Math.abs(q.y - p[1]) <= tol && Math.abs(q.z - p[2]) <= tol);
}

function labels(g: THREE.Object3D): string[] {
  const out: string[] = [];
  g.traverse((o) => { if (o.userData.label !== undefined) out.push(String(o.userData.label)); });
  return out;
}

/** The unit direction an ArrowHelper points along. */
function arrowDirection(a: THREE.Object3D): THREE.Vector3 {
  return new THREE.Vector3(0, 1, 0).applyQuaternion(a.quaternion);
}

function geometries(g: THREE.Object3D): Set<THREE.BufferGeometry> {
  const out = new Set<THREE.BufferGeometry>();
  g.traverse((o) => {
    const geom = (o as THREE.Mesh).geometry;
    if (geom && !o.userData.px) out.add(geom); // dots share one sphere, kept for the next drawing
  });
  return out;
}

function materials(g: THREE.Object3D): Set<THREE.Material> {
  const out = new Set<THREE.Material>();
  g.traverse((o) => {
    const m = (o as THREE.Mesh).material as THREE.Material | THREE.Material[] | undefined;
    for (const x of Array.isArray(m) ? m : m ? [m] : []) out.add(x);
  });
  return out;
}

function gallery(file: string): Scene {
  return JSON.parse(readFileSync(join(sceneDir, file), 'utf8')) as Scene;
}

const boxCorners = (h: Vec3, position: THREE.Vector3, q: THREE.Quaternion): THREE.Vector3[] => {
  const out: THREE.Vector3[] = [];
  for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
    out.push(new THREE.Vector3(sx * h[0], sy * h[1], sz * h[2]).applyQuaternion(q).add(position));
  }
  return out;
};

// ---- poses -----------------------------------------------------------------------------------------------------

describe('toPose', () => {
  const q = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(1, 2, 3).normalize(), 0.7);

  it('reads 7 numbers, arrays, {x,y,z(,w)}, an Object3D and Euler angles alike', () => {
    const expectPose = (pose: ReturnType<typeof toPose>) => {
      expect(pose.position.toArray()).toEqual([1, -2, 3]);
      expect(pose.quaternion.angleTo(q)).toBeLessThan(1e-7);
    };
    expectPose(toPose([1, -2, 3, q.x, q.y, q.z, q.w]));
    expectPose(toPose(new Float32Array([1, -2, 3, q.x, q.y, q.z, q.w])));
    expectPose(toPose({ position: [1, -2, 3], rotation: [q.x, q.y, q.z, q.w] }));
    expectPose(toPose({ position: { x: 1, y: -2, z: 3 }, rotation: { x: q.x, y: q.y, z: q.z, w: q.w } }));
    const o = new THREE.Object3D();
    o.position.set(1, -2, 3);
    o.quaternion.copy(q);
    expectPose(toPose(o));
    expectPose(toPose({ position: [1, -2, 3], rotation: new THREE.Euler().setFromQuaternion(q) }));
  });

  it('normalizes quaternions; nothing given is the identity', () => {
    expect(toPose({ rotation: [0, 0, 0, 2] }).quaternion.toArray()).toEqual([0, 0, 0, 1]);
    const id = toPose(undefined);
    expect(id.position.toArray()).toEqual([0, 0, 0]);
    expect(id.quaternion.toArray()).toEqual([0, 0, 0, 1]);
  });

  it('rejects a wrong length, non-finite numbers and the zero quaternion, naming the field', () => {
    expect(() => toPose([1, 2, 3])).toThrow(/pose: must have 7 numbers/);
    expect(() => toPose({ position: [0, NaN, 0] })).toThrow(/pose\[1\]: must be a finite number/);
    expect(() => toPose({ rotation: [0, 0, 0, 0] })).toThrow(/pose\[3\.\.6\]: the rotation must not be the zero quaternion/);
    expect(() => toPose({ position: ['1', 0, 0] } as never)).toThrow(CollidoscopeError);
  });
});

// ---- shapes ----------------------------------------------------------------------------------------------------

describe('drawShape', () => {
  const h: Vec3 = [0.5, 1, 1.5];
  const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(0.3, -0.8, 1.1));
  const position = new THREE.Vector3(2, -1, 0.5);

  function expectBox(g: THREE.Group) {
    const corners = boxCorners(h, position, q);
    const faces: THREE.Vector3[] = [];
    const edges: THREE.Vector3[] = [];
    g.traverse((o) => {
      if ((o as THREE.Mesh).isMesh) faces.push(...worldVertices(o));
      if ((o as THREE.LineSegments).isLineSegments) edges.push(...worldVertices(o));
    });
    // 12 triangles (front and back pass), 12 edges; every vertex a corner, every corner used.
    expect(faces.length).toBe(2 * 12 * 3);
    expect(edges.length).toBe(12 * 2);
    for (const v of [...faces, ...edges]) expect(has(corners, v.toArray(), 1e-6), `vertex ${v.toArray()}`).toBe(true);
    for (const c of corners) {
      expect(has(faces, c.toArray(), 1e-6)).toBe(true);
      expect(has(edges, c.toArray(), 1e-6)).toBe(true);
    }
  }

  it('a box: its faces and edges lie at the corners, moved by the pose (7 numbers)', () => {
    expectBox(drawShape({ type: 'box', halfExtents: h }, [...position.toArray(), ...q.toArray()]));
  });

  it('the spec\'s own position and rotation are the default pose; an Object3D pose fits too', () => {
    expectBox(drawShape({ type: 'box', halfExtents: h, position: position.toArray() as Vec3, rotation: q.toArray() as [number, number, number, number] }));
    const o = new THREE.Object3D();
    o.position.copy(position);
    o.quaternion.copy(q);
    // A given pose replaces the spec's.
    expectBox(drawShape({ type: 'box', halfExtents: h, position: [9, 9, 9] }, o));
  });

  it('takes anything with spec() (a ConvexShape handle)', () => {
    const handle = { type: 'box', spec: (): Shape => ({ type: 'box', halfExtents: h }) };
    expectBox(drawShape(handle, { position, quaternion: q }));
  });

  it('a sphere: every vertex on the sphere (radius 2 around the pose), translucent amber by default', () => {
    const g = drawShape({ type: 'sphere', radius: 2 }, { position: [1, 2, 3] });
    const meshes: THREE.Mesh[] = [];
    g.traverse((o) => { if ((o as THREE.Mesh).isMesh) meshes.push(o as THREE.Mesh); });
    expect(meshes.length).toBe(2);
    for (const v of worldVertices(meshes[0])) expect(v.distanceTo(new THREE.Vector3(1, 2, 3))).toBeCloseTo(2, 5);
    const m = meshes[0].material as THREE.MeshStandardMaterial;
    expect(m.color.getHex()).toBe(COLORS.a);
    expect(m.transparent).toBe(true);
    expect(m.opacity).toBeCloseTo(0.42);
  });

  it('a scaled sphere: every vertex on the ellipsoid of scaled radii (2, 1, 0.5) around the pose', () => {
    const g = drawShape({ type: 'sphere', radius: 1, scale: [2, -1, 0.5] }, { position: [1, 2, 3] });
    const meshes: THREE.Mesh[] = [];
    g.traverse((o) => { if ((o as THREE.Mesh).isMesh) meshes.push(o as THREE.Mesh); });
    const vs = worldVertices(meshes[0]);
    expect(vs.length).toBeGreaterThan(20);
    for (const v of vs) expect(Math.hypot((v.x - 1) / 2, v.y - 2, (v.z - 3) / 0.5)).toBeCloseTo(1, 5);
    expect(Math.max(...vs.map((v) => v.x))).toBeGreaterThan(1 + 2 * 0.98);
  });

  it('style: colour, wireframe (no faces)', () => {
    const g = drawShape({ type: 'box', halfExtents: [1, 1, 1] }, undefined, { color: COLORS.b, wireframe: true });
    let meshes = 0;
    g.traverse((o) => {
      if ((o as THREE.Mesh).isMesh) meshes++;
      if ((o as THREE.LineSegments).isLineSegments) expect(((o as THREE.LineSegments).material as THREE.LineBasicMaterial).color.getHex()).toBe(COLORS.b);
    });
    expect(meshes).toBe(0);
  });

  it('a point is a dot at the pose; a segment a line between its ends', () => {
    const p = drawShape({ type: 'point' }, { position: [4, 5, 6] }, { markerSize: 0.01 });
    const d = dots(p);
    expect(d.length).toBe(1);
    expect(d[0].toArray()).toEqual([4, 5, 6]);
    const s = drawShape({ type: 'segment', points: [[0, 0, 0], [2, 0, 0]] }, { position: [0, 1, 0] });
    const lines: THREE.Vector3[] = [];
    s.traverse((o) => { if ((o as THREE.LineSegments).isLineSegments) lines.push(...worldVertices(o)); });
    expect(lines.map((v) => v.toArray())).toEqual([[0, 1, 0], [2, 1, 0]]);
  });

  it('rejects what is not a shape', () => {
    expect(() => drawShape({} as unknown as Shape)).toThrow(/shape: must be a shape spec/);
  });
});

// ---- results ---------------------------------------------------------------------------------------------------

describe('drawResult', () => {
  const A: Shape = { type: 'box', halfExtents: [1, 1, 1], rotation: [0, 0.3826834323650898, 0, 0.9238795325112867] };
  const B: Shape = { type: 'sphere', radius: 0.75, position: [2.9, 0.4, 0.2] };
  const scene = (query: Scene['query'], shapes: Shape[] = [A, B]): Scene => ({ version: 1, query, shapes });

  it('distance: dots at pointA and pointB, the segment between them (float32 of the exact points)', () => {
    const r = run(scene('distance')) as DistanceResult;
    expect(r.distance).toBeGreaterThan(0);
    const g = drawResult(r);
    expect(part(g, 'pointA').position.toArray()).toEqual(r.pointA);
    expect(part(g, 'pointB').position.toArray()).toEqual(r.pointB);
    const seg = worldVertices(part(g, 'segment')).map((v) => v.toArray());
    expect(seg).toEqual([f32(r.pointA), f32(r.pointB)]);
    expect(((part(g, 'segment') as THREE.Line).material as THREE.LineBasicMaterial).color.getHex()).toBe(COLORS.closest);
  });

  it('penetration: the arrow from pointA points along the normal; the depth segment joins the contact points', () => {
    const deep: Shape = { ...B, position: [1.6, 0.4, 0.2] };
    const r = run(scene('penetration', [A, deep])) as PenetrationResult;
    expect(r.intersecting).toBe(true);
    const g = drawResult(r);
    const n = part(g, 'normal');
    expect(n.position.toArray()).toEqual(r.pointA);
    const d = arrowDirection(n);
    for (let i = 0; i < 3; i++) expect(d.getComponent(i)).toBeCloseTo(r.normal[i], 12);
    expect(worldVertices(part(g, 'segment')).map((v) => v.toArray())).toEqual([f32(r.pointA), f32(r.pointB)]);
    // |pointA − pointB| = depth: the segment is the depth.
    expect(toV3(r.pointA).distanceTo(toV3(r.pointB))).toBeCloseTo(r.depth, 12);
    // The arrow's length: arrowLength when given.
    const g2 = drawResult(r, { arrowLength: 2.5 });
    const cone = part(g2, 'normal').children.find((c) => (c as THREE.Mesh).isMesh)!;
    expect(cone.position.y).toBeCloseTo(2.5, 9); // the tip
  });

  it('raycast: the hit dot at result.point, the normal there, the ray from its origin (given)', () => {
    const ray = { origin: [-4, 0.2, 0.1] as Vec3, direction: [1, 0, 0] as Vec3, maxT: 10 };
    const r = run({ ...scene('raycast', [A]), ray }) as RaycastResult;
    expect(r.hit).toBe(true);
    const g = drawResult(r, { ray });
    expect(part(g, 'hit').position.toArray()).toEqual(r.point);
    const dir = arrowDirection(part(g, 'normal'));
    r.normal!.forEach((c, i) => expect(dir.getComponent(i)).toBeCloseTo(c, 12));
    const rayPts: THREE.Vector3[] = [];
    part(g, 'ray').traverse((o) => { if ((o as THREE.Line).isLine) rayPts.push(...worldVertices(o)); });
    expect(has(rayPts, f32(ray.origin))).toBe(true);
    expect(has(rayPts, f32(r.point!))).toBe(true); // solid up to the hit, dashed beyond
    expect(has(rayPts, [6, 0.2, 0.1], 1e-6)).toBe(true); // to maxT
    // A miss: the ray only, no hit.
    const missRay = { origin: [-4, 5, 0] as Vec3, direction: [1, 0, 0] as Vec3, maxT: 10 };
    const miss = drawResult(run({ ...scene('raycast', [A]), ray: missRay }) as RaycastResult, { ray: missRay });
    expect(miss.getObjectByName('hit')).toBeUndefined();
    expect(miss.getObjectByName('ray')).toBeDefined();
  });

  it('shapecast: contact points and normal; with shapes and motion the shapes where they touch', () => {
    const motion = { translationA: [0, 0, 0] as Vec3, translationB: [-3, 0, 0] as Vec3 };
    const r = run({ ...scene('shapecast'), motion }) as ShapecastResult;
    expect(r.hit).toBe(true);
    const g = drawResult(r, { shapes: [A, B], motion });
    expect(part(g, 'pointA').position.toArray()).toEqual(r.pointA);
    expect(part(g, 'pointB').position.toArray()).toEqual(r.pointB);
    const dir = arrowDirection(part(g, 'normal'));
    r.normal!.forEach((c, i) => expect(dir.getComponent(i)).toBeCloseTo(c, 12));
    const ghostB = part(g, 'shapeB@t');
    const expected = toV3(B.position!).addScaledVector(toV3(motion.translationB), r.t!);
    expect(ghostB.position.distanceTo(expected)).toBeLessThan(1e-12);
    // B at time t touches A at pointB (pointB lies on the moved sphere).
    expect(toV3(r.pointB!).distanceTo(ghostB.position)).toBeCloseTo(0.75, 9);
    expect(arrowDirection(part(g, 'translationB')).toArray().map((x) => Math.round(x * 1e9) / 1e9)).toEqual([-1, 0, 0]);
  });

  it('sat and chungwang: the axis, through the given point, along the result\'s axis', () => {
    const boxB: Shape = { type: 'box', halfExtents: [0.5, 0.5, 0.5], position: [3, 0.3, 0] };
    const sat = run(scene('sat', [A, boxB])) as SatResult;
    const g = drawResult(sat, { at: [1, 1, 1] });
    const dir = arrowDirection(part(g, 'axisHead'));
    sat.axis.forEach((c, i) => expect(dir.getComponent(i)).toBeCloseTo(c, 12));
    const [p0, p1] = worldVertices(part(g, 'axis'));
    const along = p1.clone().sub(p0).normalize();
    expect(along.dot(toV3(sat.axis))).toBeCloseTo(1, 6);
    // The line passes through `at`: (at − p0) is parallel to the axis.
    expect(new THREE.Vector3(1, 1, 1).sub(p0).cross(along).length()).toBeLessThan(1e-5);
    const cw = run(scene('chungwang', [A, boxB]));
    expect('separatingAxis' in cw && cw.separatingAxis).toBeTruthy();
    const gc = drawResult(cw, { shapes: [A, boxB] });
    const dc = arrowDirection(part(gc, 'axisHead'));
    (cw as { separatingAxis: Vec3 }).separatingAxis.forEach((c, i) => expect(dc.getComponent(i)).toBeCloseTo(c, 12));
    // Overlapping shapes have no separating axis: nothing drawn.
    const none = drawResult(run(scene('chungwang', [A, { ...boxB, position: [1, 0, 0] }])));
    expect(none.children.length).toBe(0);
  });

  it('hull: faces through the hull\'s vertices in the polytope colour; obb: the box\'s lines at its corners', () => {
    const pts: Vec3[] = [[0, 0, 0], [2, 0, 0], [0, 3, 0], [0, 0, 1], [0.2, 0.2, 0.2], [1, 1, 0.1]];
    const h = run({ version: 1, query: 'hull', shapes: [{ type: 'polytope', points: pts }] }) as HullResult;
    const g = drawResult(h);
    const verts: THREE.Vector3[] = [];
    part(g, 'hull').traverse((o) => { if ((o as THREE.Mesh).isMesh) verts.push(...worldVertices(o)); });
    expect(verts.length).toBe(2 * 3 * h.faces.length);
    for (const v of h.vertices) expect(has(verts, v)).toBe(true);
    expect(has(verts, [0.2, 0.2, 0.2])).toBe(false); // an interior point
    const mesh = part(g, 'hull').children.find((c) => (c as THREE.Mesh).isMesh) as THREE.Mesh;
    expect((mesh.material as THREE.MeshStandardMaterial).color.getHex()).toBe(COLORS.polytope);

    const obb = run({ version: 1, query: 'obb', shapes: [{ type: 'polytope', points: pts }] }) as ObbResult;
    const gb = drawResult(obb, { bounds: ['obb', 'aabb'] });
    const corners = boxCorners(obb.halfExtents, toV3(obb.center), new THREE.Quaternion().setFromRotationMatrix(
      new THREE.Matrix4().makeBasis(toV3(obb.axes[0]), toV3(obb.axes[1]), toV3(obb.axes[2]))));
    const lines = part(gb, 'bounds:obb') as unknown as { geometry: THREE.BufferGeometry };
    const start = lines.geometry.getAttribute('instanceStart');
    expect(start.count).toBe(12);
    for (let i = 0; i < start.count; i++) expect(has(corners, new THREE.Vector3().fromBufferAttribute(start, i).toArray(), 1e-5)).toBe(true);
    expect(gb.getObjectByName('bounds:aabb')).toBeDefined();
    expect(() => drawResult(obb, { bounds: ['cube' as 'obb'] })).toThrow(/bounds: unknown bounding volume 'cube'/);
  });

  it('tells the query from the fields; an explicit query wins; intersect draws nothing', () => {
    const pen = run(scene('penetration', [A, { ...B, position: [1.6, 0.4, 0.2] }])) as PenetrationResult;
    expect(drawResult(pen).name).toBe('collidoscope:result:penetration');
    // The same numbers read as a distance result: points and segment, no normal.
    const asDistance = drawResult(pen, { query: 'distance' });
    expect(asDistance.getObjectByName('normal')).toBeUndefined();
    expect(asDistance.getObjectByName('segment')).toBeDefined();
    expect(drawResult(run(scene('intersect'))).children.length).toBe(0);
  });

  it('no labels by default; with labels: true the parts are named pA, pB', () => {
    const r = run(scene('distance')) as DistanceResult;
    expect(labels(drawResult(r))).toEqual([]);
    expect(labels(drawResult(r, { labels: true })).sort()).toEqual(['pA', 'pB']);
  });

  it('dots: markerSize world units per "pixel"; default from the scale', () => {
    const r = run(scene('distance')) as DistanceResult;
    expect(part(drawResult(r, { markerSize: 0.01 }), 'pointA').scale.x).toBeCloseTo(0.05, 12); // 5 px
    expect(part(drawResult(r, { scale: 2.5 }), 'pointA').scale.x).toBeCloseTo(5 * 2.5 / 250, 12);
  });
});

// ---- trace frames ----------------------------------------------------------------------------------------------

describe('drawTraceFrame', () => {
  const A: Shape = { type: 'box', halfExtents: [1, 0.5, 0.8], rotation: [0.1, 0.2, 0.3, 0.927] };
  const B: Shape = { type: 'cylinder', radius: 0.6, halfHeight: 0.7, position: [2.4, 0.5, -0.3] };

  it('GJK: on every frame, dots at frame.closestA and closestB, and at the support points a, b', () => {
    const t = trace({ version: 1, query: 'distance', shapes: [A, B] }) as GjkTrace;
    expect(t.frames.length).toBeGreaterThan(3);
    t.frames.forEach((f, i) => {
      const g = drawTraceFrame(t, i, { shapes: [A, B] });
      const white = dots(g, COLORS.closest);
      if (f.simplex.length) {
        expect(has(white, f.closestA), `frame ${i} closestA`).toBe(true);
        expect(has(white, f.closestB), `frame ${i} closestB`).toBe(true);
      }
      if (f.support) {
        const pink = dots(g, COLORS.support);
        expect(has(pink, f.support.a)).toBe(true);
        expect(has(pink, f.support.b)).toBe(true);
      }
      expect(labels(g)).toEqual([]);
    });
  });

  it('a 2D scene\'s traces: drawn in the plane z = 0; the planar EPA\'s nearest edge, and the contact points at the end', () => {
    // Seed 004's polygons: A's corner (2, 2) lies 1 inside B's side x = 1, so A − B's side x = 1 is nearest O.
    const scene: Scene2D & { query: 'penetration' } = {
      version: 1, dimension: 2, query: 'penetration',
      shapes: [{ type: 'polygon', points: [[0, 2], [0, 3], [2, 2]] }, { type: 'polygon', points: [[1, 1], [3, 1], [3, 4], [1, 4]] }],
    };
    const t = stepsOf(trace(scene));
    const closest = t.frames.findIndex((f) => f.kind === 'closest');
    expect(closest).toBeGreaterThan(0);
    const inPlane = (g: THREE.Object3D) => {
      g.updateMatrixWorld(true);
      let n = 0;
      g.traverse((o) => {
        const geom = (o as THREE.Mesh).geometry as THREE.BufferGeometry | undefined;
        const pos = geom?.getAttribute?.('position');
        if (!pos || o.userData.px || o instanceof THREE.ArrowHelper || o.parent instanceof THREE.ArrowHelper) return;
        for (const v of worldVertices(o)) { expect(v.z).toBe(0); n++; }
      });
      return n;
    };
    const mink = drawTraceFrame(t, closest, { scene, view: 'minkowski' });
    expect(inPlane(mink)).toBeGreaterThan(0);
    // The nearest edge, bold: its two ends on x = 1 (the side of A − B at distance 1).
    const bold: THREE.Vector3[] = [];
    mink.traverse((o) => {
      const start = (o as THREE.Mesh).geometry?.getAttribute?.('instanceStart');
      if (!start) return;
      for (let i = 0; i < start.count; i++) bold.push(new THREE.Vector3().fromBufferAttribute(start, i));
    });
    expect(bold.length).toBeGreaterThan(0);
    for (const p of bold) expect(p.x).toBe(1);
    const last = drawTraceFrame(t, t.frames.length - 1, { scene });
    const contact = dots(last, COLORS.contact);
    expect(has(contact, [...t.result.pointA, 0])).toBe(true);
    expect(has(contact, [...t.result.pointB, 0])).toBe(true);
    const gjk = trace({ ...scene, query: 'distance' });
    for (let i = 0; i < gjk.frames.length; i++) expect(inPlane(drawTraceFrame(gjk, i, { scene, view: 'minkowski' }))).toBeGreaterThan(0);
  });

  it('EPA: at the end the contact points and the normal (from pointA, along result.normal)', () => {
    const t = trace({ version: 1, query: 'penetration', shapes: [A, { ...B, position: [1.2, 0.3, 0] }] }) as EpaTrace;
    expect(t.result.intersecting).toBe(true);
    const last = t.frames.length - 1;
    const g = drawTraceFrame(t, last, { shapes: [A, B] });
    const contact = dots(g, COLORS.contact);
    expect(has(contact, t.result.pointA)).toBe(true);
    expect(has(contact, t.result.pointB)).toBe(true);
    const arrows: THREE.Object3D[] = [];
    g.traverse((o) => { if (o instanceof THREE.ArrowHelper) arrows.push(o); });
    const normal = arrows.find((a) => a.position.toArray().every((x, i) => x === t.result.pointA[i]));
    expect(normal).toBeDefined();
    t.result.normal.forEach((c, i) => expect(arrowDirection(normal!).getComponent(i)).toBeCloseTo(c, 12));
  });

  it('SAT: the axis line carries A\'s and B\'s intervals [minA, maxA] and [minB, maxB]', () => {
    const t = trace({ version: 1, query: 'sat', shapes: [A, { type: 'box', halfExtents: [0.5, 0.5, 0.5], position: [2, 0.2, 0] }] }) as SatTrace;
    const i = t.frames.findIndex((f) => f.kind === 'axis');
    const f = t.frames[i];
    const g = drawTraceFrame(t, i);
    // The intervals are bold bars (LineSegments2) in A's and B's colours; projected on the axis they span the interval.
    const bars = new Map<number, number[]>();
    g.traverse((o) => {
      const m = (o as THREE.Mesh).material as THREE.ShaderMaterial & { color?: THREE.Color };
      const geom = (o as THREE.Mesh).geometry;
      if (!m?.isShaderMaterial || !geom?.getAttribute('instanceStart') || !m.color) return;
      const L = toV3(f.axis).normalize();
      const s = new THREE.Vector3().fromBufferAttribute(geom.getAttribute('instanceStart'), 0).dot(L);
      const e = new THREE.Vector3().fromBufferAttribute(geom.getAttribute('instanceEnd'), 0).dot(L);
      bars.set(m.color.getHex(), [Math.min(s, e), Math.max(s, e)]);
    });
    expect(bars.get(COLORS.a)![0]).toBeCloseTo(f.minA, 5);
    expect(bars.get(COLORS.a)![1]).toBeCloseTo(f.maxA, 5);
    expect(bars.get(COLORS.b)![0]).toBeCloseTo(f.minB, 5);
    expect(bars.get(COLORS.b)![1]).toBeCloseTo(f.maxB, 5);
  });

  it('ray cast: x(λ) on every frame, the ray from its origin when given', () => {
    const ray = { origin: [-3, 0.1, 0.2] as Vec3, direction: [1, 0.05, 0] as Vec3, maxT: 10 };
    const t = trace({ version: 1, query: 'raycast', shapes: [A], ray }) as RaycastTrace;
    expect(t.result.hit).toBe(true);
    t.frames.forEach((f, i) => {
      const g = drawTraceFrame(t, i, { shapes: [A], ray });
      expect(has(dots(g), f.x), `frame ${i} x`).toBe(true);
      expect(has(dots(g, COLORS.direction), ray.origin)).toBe(true); // the ray's start
      if (f.kind === 'support' && f.planePoint) {
        // The supporting plane: a translucent square in the support colour, through planePoint, ⊥ planeNormal.
        const planes: THREE.Vector3[][] = [];
        g.traverse((o) => {
          const m = (o as THREE.Mesh).material as THREE.MeshBasicMaterial;
          if ((o as THREE.Mesh).isMesh && !o.userData.px && !(o.parent instanceof THREE.ArrowHelper) && m.color?.getHex() === COLORS.support) {
            planes.push(worldVertices(o));
          }
        });
        expect(planes.length).toBe(1);
        const n = toV3(f.planeNormal!).normalize();
        const d = n.dot(toV3(f.planePoint));
        for (const v of planes[0]) expect(n.dot(v)).toBeCloseTo(d, 5);
      }
    });
    // Without the ray the frame is drawn all the same, without it.
    const g = drawTraceFrame(t, 0, { shapes: [A] });
    expect(has(dots(g, COLORS.direction), ray.origin)).toBe(t.frames[0].x.every((x, k) => x === ray.origin[k]));
  });

  it('shape cast: the moving shapes at time λ and, at the end, the contact points', () => {
    const motion = { translationB: [-3, 0, 0] as Vec3 };
    const scene: Scene = { version: 1, query: 'shapecast', shapes: [A, B], motion };
    const t = trace(scene) as ShapecastTrace;
    expect(t.result.hit).toBe(true);
    const g = drawTraceFrame(t, t.frames.length - 1, { scene });
    const contact = dots(g, COLORS.contact);
    expect(has(contact, t.result.pointA!)).toBe(true);
    expect(has(contact, t.result.pointB!)).toBe(true);
    // Without shapes and motion nothing can be placed: an empty drawing, not an error.
    expect(drawTraceFrame(t, t.frames.length - 1).children.length).toBe(0);
  });

  it('Chung–Wang: dots at p and q on the support frames, the axis s from p', () => {
    const t = trace({ version: 1, query: 'chungwang', shapes: [A, { ...B, position: [3, 0.5, 0] }] }) as ChungWangTrace;
    const withPQ = t.frames.map((f, i) => [f, i] as const).filter(([f]) => f.p && f.q);
    expect(withPQ.length).toBeGreaterThan(0);
    for (const [f, i] of withPQ) {
      const g = drawTraceFrame(t, i, { shapes: [A, B] });
      const pink = dots(g, COLORS.support);
      expect(has(pink, f.p!)).toBe(true);
      expect(has(pink, f.q!)).toBe(true);
      const s = [] as THREE.Object3D[];
      g.traverse((o) => { if (o instanceof THREE.ArrowHelper && o.position.toArray().every((x, k) => x === f.p![k])) s.push(o); });
      expect(s.some((a) => arrowDirection(a).dot(toV3(f.s).normalize()) > 1 - 1e-9)).toBe(true);
    }
  });

  it('hull: the last frame\'s faces are the hull\'s triangles', () => {
    const points: Vec3[] = [];
    for (let i = 0; i < 40; i++) points.push([Math.sin(i * 1.7) * 2, Math.cos(i * 2.3), Math.sin(i * 0.9 + 1) * 1.5]);
    const t = trace({ version: 1, query: 'hull', shapes: [{ type: 'polytope', points }] }) as HullTrace;
    const last = t.frames[t.frames.length - 1];
    const g = drawTraceFrame(t, t.frames.length - 1);
    let triangles = 0;
    g.traverse((o) => {
      if ((o as THREE.Mesh).isMesh && !o.userData.px) triangles += (o as THREE.Mesh).geometry.getAttribute('position').count / 3;
    });
    expect(triangles).toBe(last.faces.length);
  });

  it('a closed form: the cores\' closest points p, q and the answer, in both views and in the plane', () => {
    // The capsule's core runs from (0, −1, 0) to (0, 1, 0); the ball's centre (2, 0.5, 0) projects onto it at
    // p = (0, 0.5, 0): d = 2, the closest points p + 0.5·x and q − 0.25·x; in A − B, v = p − q = (−2, 0, 0), and
    // A − B reaches r_A + r_B = 0.75 beyond v towards O, to (−1.25, 0, 0).
    const capsule: Shape = { type: 'capsule', radius: 0.5, halfHeight: 1 };
    const ball: Shape = { type: 'sphere', radius: 0.25, position: [2, 0.5, 0] };
    const t = trace({ version: 1, query: 'distance', shapes: [capsule, ball] });
    expect(isClosedForm(t)).toBe(true);
    const g = drawTraceFrame(t, 0, { shapes: [capsule, ball] });
    const green = dots(g, COLORS.simplex);
    expect(has(green, [0, 0.5, 0]) && has(green, [2, 0.5, 0])).toBe(true);
    const white = dots(g, COLORS.closest);
    expect(has(white, [0.5, 0.5, 0]) && has(white, [1.75, 0.5, 0])).toBe(true);
    expect(labels(drawTraceFrame(t, 0, { shapes: [capsule, ball], labels: true }))).toEqual(expect.arrayContaining(['p', 'q', 'pA', 'pB']));
    const m = drawTraceFrame(t, 0, { shapes: [capsule, ball], view: 'minkowski' });
    expect(has(dots(m, COLORS.simplex), [-2, 0, 0])).toBe(true);
    expect(has(dots(m, COLORS.closest), [-1.25, 0, 0])).toBe(true);

    // The ball at (0.5, 0.5, 0): depth 0.25 along x, contact (0.5, 0.5, 0) on A and (0.25, 0.5, 0) on B.
    const deep: Shape = { ...ball, position: [0.5, 0.5, 0] };
    const p = trace({ version: 1, query: 'penetration', shapes: [capsule, deep] });
    const gp = drawTraceFrame(p, 0, { shapes: [capsule, deep] });
    const contact = dots(gp, COLORS.contact);
    expect(has(contact, [0.5, 0.5, 0]) && has(contact, [0.25, 0.5, 0])).toBe(true);
    const arrows: THREE.Object3D[] = [];
    gp.traverse((o) => { if (o instanceof THREE.ArrowHelper) arrows.push(o); });
    const normal = arrows.find((a) => a.position.toArray().every((x, i) => x === [0.5, 0.5, 0][i]));
    expect(normal).toBeDefined();
    expect(arrowDirection(normal!).x).toBeCloseTo(1, 12);
    // In A − B: moving B by depth·n puts O on the boundary, at depth·n = (0.25, 0, 0).
    expect(has(dots(drawTraceFrame(p, 0, { shapes: [capsule, deep], view: 'minkowski' }), COLORS.contact), [0.25, 0, 0], 1e-15)).toBe(true);

    // A 2D scene: the same pair in the plane, drawn at z = 0.
    const flat: Scene2D = { version: 1, dimension: 2, query: 'distance', shapes: [{ type: 'capsule', radius: 0.5, halfHeight: 1 }, { type: 'circle', radius: 0.25, position: [2, 0.5] }] };
    const g2 = drawTraceFrame(trace(flat), 0, { scene: flat });
    expect(has(dots(g2, COLORS.simplex), [0, 0.5, 0]) && has(dots(g2, COLORS.simplex), [2, 0.5, 0])).toBe(true);
  });

  it('labels: off by default, the page\'s names when asked (a, b on a GJK support frame)', () => {
    const t = trace({ version: 1, query: 'distance', shapes: [A, B] }) as GjkTrace;
    const i = t.frames.findIndex((f) => f.kind === 'support');
    expect(labels(drawTraceFrame(t, i))).toEqual([]);
    expect(labels(drawTraceFrame(t, i, { labels: true })).sort()).toEqual(['a', 'b']);
  });

  it('rejects a frame index out of range', () => {
    const t = trace({ version: 1, query: 'distance', shapes: [A, B] }) as GjkTrace;
    expect(() => drawTraceFrame(t, t.frames.length)).toThrow(/frameIndex: must be an integer in \[0, /);
  });

  it('every frame of every gallery scene draws, in both views, with no DOM and no error', async () => {
    expect(typeof document).toBe('undefined');
    expect(typeof window).toBe('undefined');
    let drawn = 0;
    for (const file of galleryFiles()) {
      const scene = gallery(file);
      if (scene.query === 'obb') continue; // a result without steps
      if (scene.query === 'contains' || scene.query === 'project') {
        // The library has no trace of the point queries (the page makes their one step from run()): refused by name.
        expect(() => trace(scene), file).toThrow(/has no trace/);
        continue;
      }
      const t: Trace = trace(scene);
      for (let i = 0; i < t.frames.length; i++) {
        for (const view of ['world', 'minkowski'] as const) {
          const g = drawTraceFrame(t, i, { scene, view, labels: i % 2 === 0 });
          g.updateMatrixWorld(true);
          g.traverse((o) => expect(o.matrixWorld.elements.every(Number.isFinite), `${file} frame ${i}`).toBe(true));
          dispose(g);
          drawn++;
        }
      }
    }
    expect(drawn).toBeGreaterThan(200);
    // Nothing is left to draw later (the page's cast overlays would wait a microtask for the page's scene).
    await new Promise((r) => setTimeout(r, 0));
  });
});

// ---- worlds: pairs and simulate ------------------------------------------------------------------------------

/** The wireframe boxes under g (line segments of 12 edges), each as its world min and max corners, and its colour. */
function wireBoxes(g: THREE.Object3D): { min: Vec3; max: Vec3; color: number }[] {
  const out: { min: Vec3; max: Vec3; color: number }[] = [];
  g.traverse((o) => {
    const seg = o as THREE.LineSegments;
    if (!(seg as { isLineSegments?: boolean }).isLineSegments || seg.geometry.getAttribute('position').count !== 24) return;
    seg.geometry.computeBoundingBox();
    const b = seg.geometry.boundingBox!;
    out.push({ min: b.min.toArray() as Vec3, max: b.max.toArray() as Vec3, color: (seg.material as THREE.LineBasicMaterial).color.getHex() });
  });
  return out;
}

describe('drawTraceFrame of worlds', () => {
  const ROW = '70-pairs-sweep-row.json';
  const FLOOR = '77-world-plane-floor.json';

  it('pairs: every bounded shape\'s box where the trace puts it; a candidate green when intersect() says so, red when apart', () => {
    const scene = gallery(ROW);
    const t = trace(scene as Scene & { query: 'pairs' });
    const boxes = t.frames[0].boxes.filter((b) => !b.unbounded);
    expect(boxes.length).toBe(scene.shapes.length);
    let narrow = 0;
    for (let i = 0; i < t.frames.length; i++) {
      const g = drawTraceFrame(t, i, { scene });
      const drawn = wireBoxes(g);
      expect(drawn).toHaveLength(boxes.length);
      for (const b of boxes) {
        // Float32 geometry: the box's corners to their precision.
        expect(drawn.some((d) => d.min.every((c, k) => Math.abs(c - b.min![k]) < 1e-5 * (1 + Math.abs(c)))
          && d.max.every((c, k) => Math.abs(c - b.max![k]) < 1e-5 * (1 + Math.abs(c))))).toBe(true);
      }
      const f = t.frames[i];
      if (f.kind === 'narrow' && f.pair) {
        narrow++;
        const [a, b] = f.pair;
        const hit = (run({ version: 1, query: 'intersect', shapes: [scene.shapes[a], scene.shapes[b]] }) as { intersecting: boolean }).intersecting;
        const colorOf = (shape: number) => {
          const box = boxes.find((x) => x.shape === shape)!;
          return drawn.find((d) => Math.abs(d.min[0] - box.min![0]) < 1e-5 * (1 + Math.abs(d.min[0])) && Math.abs(d.max[1] - box.max![1]) < 1e-5 * (1 + Math.abs(d.max[1])))!.color;
        };
        expect(colorOf(a)).toBe(hit ? COLORS.simplex : 0xff4d4d);
        expect(colorOf(b)).toBe(hit ? COLORS.simplex : 0xff4d4d);
      }
      dispose(g);
    }
    expect(narrow).toBe(t.result.candidates);
  });

  it('pairs, view minkowski: the seed\'s figure, one bar per bounded shape on each axis, flat at z = 0', () => {
    const scene = gallery(ROW);
    const t = trace(scene as Scene & { query: 'pairs' });
    const last = t.frames.length - 1;
    const g = drawTraceFrame(t, last, { scene, view: 'minkowski' });
    let bars = 0;
    g.traverse((o) => {
      const m = o as THREE.Mesh;
      if (!(m as { isMesh?: boolean }).isMesh || o.userData.px) return;
      bars++;
      const pos = m.geometry.getAttribute('position');
      for (let k = 0; k < pos.count; k++) expect(pos.getZ(k)).toBe(0);
    });
    expect(bars).toBe(3 * scene.shapes.length);
    dispose(g);
  });

  it('simulate: every shape at the frame\'s pose (the plane a patch under the bodies), the contact points where the trace has them', () => {
    const scene = gallery(FLOOR);
    const t = trace(scene as Scene & { query: 'simulate' });
    for (const i of [0, 40, t.frames.length - 1]) {
      const f = t.frames[i];
      const g = drawTraceFrame(t, i, { scene });
      const bodies = part(g, 'collidoscope:bodies');
      expect(bodies.children).toHaveLength(scene.shapes.length);
      bodies.children.forEach((c, k) => {
        expect(c.userData.worldShape).toBe(k);
        expect(c.position.toArray()).toEqual(f.poses[k].slice(0, 3));
        // The pose's quaternion, normalized again by the drawing: to its last bits.
        const q = c.quaternion;
        [q.x, q.y, q.z, q.w].forEach((x, j) => expect(x).toBeCloseTo(f.poses[k][3 + j], 15));
      });
      // Shape 0 is the floor: a patch of y = 0, normal up, under every body.
      const [floor] = drawnPlanes(g);
      expect(floor.normal).toEqual([0, 1, 0]);
      expect(floor.center[1]).toBeCloseTo(0, 12);
      for (const p of f.poses.slice(1)) {
        expect(Math.abs(p[0] - floor.center[0])).toBeLessThan(floor.half);
        expect(Math.abs(p[2] - floor.center[2])).toBeLessThan(floor.half);
      }
      // Static grey, then the bodies in the page's colours.
      const colorOf = (k: number) => {
        let c = -1;
        bodies.children[k].traverse((o) => { if ((o as THREE.Mesh).isMesh && c < 0) c = ((o as THREE.Mesh).material as THREE.MeshBasicMaterial).color.getHex(); });
        return c;
      };
      expect([0, 1, 2, 3].map(colorOf)).toEqual([0x8a94a6, COLORS.a, COLORS.b, 0xb07cff]);
      // The contacts: a dot on A and one on B per point, at the trace's numbers.
      const onA = dots(g, COLORS.a), onB = dots(g, COLORS.b);
      expect(onA).toHaveLength(f.contacts.length);
      expect(onB).toHaveLength(f.contacts.length);
      f.contacts.forEach((c, k) => {
        expect(onA[k].toArray()).toEqual(c.pointA);
        expect(onB[k].toArray()).toEqual(c.pointB);
      });
      if (i > 0) expect(f.contacts.length).toBeGreaterThan(0);
      dispose(g);
    }
  });

  it('simulate without shapes draws the contacts only; view minkowski one arrow per pressing point; a scene that does not fit is refused', () => {
    const scene = gallery(FLOOR);
    const t = trace(scene as Scene & { query: 'simulate' });
    const i = t.frames.length - 1;
    const f = t.frames[i];
    const bare = drawTraceFrame(t, i);
    const named: string[] = [];
    bare.traverse((o) => named.push(o.name));
    expect(named).not.toContain('collidoscope:bodies');
    expect(dots(bare, COLORS.a)).toHaveLength(f.contacts.length);
    const right = drawTraceFrame(t, i, { scene, view: 'minkowski' });
    let arrows = 0;
    right.traverse((o) => { if ((o as THREE.ArrowHelper).type === 'ArrowHelper') arrows++; });
    expect(arrows).toBe(f.contacts.filter((c) => c.normalImpulse > 0).length);
    expect(arrows).toBeGreaterThan(0);
    const e = (() => { try { drawTraceFrame(t, i, { shapes: scene.shapes.slice(1) }); } catch (err) { return err as CollidoscopeError; } return null; })();
    expect(e).toBeInstanceOf(CollidoscopeError);
    expect(e!.field).toBe('shapes');
    expect(e!.message).toMatch(/place 4 shapes, got 3/);
  });
});

// ---- disposal, dots on screen ---------------------------------------------------------------------------------

describe('dispose', () => {
  it('frees every geometry and material of a drawing and detaches it (dots share one sphere, kept)', () => {
    const A: Shape = { type: 'box', halfExtents: [1, 1, 1] };
    const B: Shape = { type: 'capsule', radius: 0.5, halfHeight: 0.5, position: [1.5, 0.2, 0] };
    const r = run({ version: 1, query: 'penetration', shapes: [A, B] });
    const root = new THREE.Group();
    root.add(drawShape(A), drawShape(B, undefined, { color: COLORS.b }), drawResult(r, { labels: true }));
    const parts = [...root.children];
    const geoms = geometries(root);
    const mats = materials(root);
    let sharedSphere: THREE.BufferGeometry | null = null;
    root.traverse((o) => { if (o.userData.px) sharedSphere = (o as THREE.Mesh).geometry; });
    expect(geoms.size).toBeGreaterThan(5);
    const freed = new Set<unknown>();
    for (const x of [...geoms, ...mats]) x.addEventListener('dispose', () => freed.add(x));
    let sharedFreed = false;
    sharedSphere!.addEventListener('dispose', () => { sharedFreed = true; });

    dispose(parts[0]);
    (parts[1].userData.dispose as () => void)();
    dispose(parts[2]);
    expect(root.children.length).toBe(0);
    expect(freed.size).toBe(geoms.size + mats.size);
    expect(sharedFreed).toBe(false);
    for (const p of parts) expect(p.children.length).toBe(0);
  });

  it('a trace frame\'s geometries too', () => {
    const t = trace({ version: 1, query: 'penetration', shapes: [{ type: 'box', halfExtents: [1, 1, 1] }, { type: 'box', halfExtents: [1, 1, 1], position: [1.5, 0.5, 0] }] }) as EpaTrace;
    const g = drawTraceFrame(t, t.frames.length - 1);
    const geoms = geometries(g);
    expect(geoms.size).toBeGreaterThan(0);
    let n = 0;
    for (const x of geoms) x.addEventListener('dispose', () => n++);
    dispose(g);
    expect(n).toBe(geoms.size);
  });
});

describe('scaleMarkers', () => {
  it('sizes dots in screen pixels for a perspective and an orthographic camera', () => {
    const r = run({ version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: 1 }, { type: 'sphere', radius: 1, position: [4, 0, 0] }] }) as DistanceResult;
    const g = drawResult(r);
    const cam = new THREE.PerspectiveCamera(60, 1, 0.1, 100);
    cam.position.set(1, 0, 10);
    cam.updateMatrixWorld();
    scaleMarkers(g, cam, 500);
    const a = part(g, 'pointA');
    const d = Math.hypot(10, 0); // pointA = (1, 0, 0)
    expect(a.scale.x).toBeCloseTo(5 * (2 * d * Math.tan(Math.PI / 6)) / 500, 9);
    const ortho = new THREE.OrthographicCamera(-4, 4, 3, -3, 0.1, 100);
    ortho.zoom = 2;
    scaleMarkers(g, ortho, 600);
    expect(a.scale.x).toBeCloseTo(5 * (6 / 2 / 600), 12);
  });
});

function toV3(p: readonly number[]): THREE.Vector3 {
  return new THREE.Vector3(p[0], p[1], p[2]);
}
