// mesh(): triangle meshes through the object API, batches, scenes and three.js geometries. Ray casts are
// checked against brute force over every triangle with a Möller–Trumbore ray–triangle test written here
// (independent of the library's watertight test), on random soups, a closed icosphere and torus generated
// here, slivers and unwelded copies; hostile arrays must fail with the field named and leave the heap as it was.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import * as THREE from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batch, batchResult, boundingVolumes, createBatch, createShape, distance, hull, init, intersect, mesh, MeshShape, penetration, raycast, run,
  sat, sceneOf, sceneWarnings, shapecast, sphere, stats, contains, project, trace, isMeshRaycast, type MeshRaycastTrace,
  type RaycastResult, type Vec3,
} from '../../web/lib/index';
import { drawResult, drawShape, meshFromGeometry } from '../../web/lib/three';
import { catchError, expectInvalidArguments, type InvalidCase, randomPose, seeded } from './helpers';
import { icosphere, randomSoup, torus, unweld, type Soup } from './mesh-gen';
import { root } from './vectors';

beforeAll(async () => {
  await init();
});

// ---- the reference: Möller–Trumbore over every triangle ------------------------------------------------------

const sub = (a: number[], b: number[]) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** Rotates v by the unit quaternion q = [x, y, z, w]. */
function rotate(q: number[], v: number[]): number[] {
  const u = q.slice(0, 3);
  const t = cross(u, v).map((x) => 2 * x);
  const ut = cross(u, t);
  return [0, 1, 2].map((k) => v[k] + q[3] * t[k] + ut[k]);
}

function worldVertex(s: Soup, pose: number[], i: number): number[] {
  const r = rotate(pose.slice(3), [s.vertices[3 * i], s.vertices[3 * i + 1], s.vertices[3 * i + 2]]);
  return [r[0] + pose[0], r[1] + pose[1], r[2] + pose[2]];
}

interface Brute { hit: boolean; t: number; triangle: number; second: number }

function bruteForce(s: Soup, pose: number[], o: number[], d: number[], maxT: number): Brute {
  const best: Brute = { hit: false, t: Infinity, triangle: -1, second: Infinity };
  for (let k = 0; k < s.indices.length / 3; k++) {
    const [a, b, c] = [0, 1, 2].map((j) => worldVertex(s, pose, s.indices[3 * k + j]));
    const e1 = sub(b, a), e2 = sub(c, a);
    const p = cross(d, e2);
    const det = dot(e1, p);
    if (Math.abs(det) < 1e-300) continue;
    const sv = sub(o, a);
    const u = dot(sv, p) / det;
    if (u < -1e-12 || u > 1 + 1e-12) continue;
    const q = cross(sv, e1);
    const v = dot(d, q) / det;
    if (v < -1e-12 || u + v > 1 + 1e-12) continue;
    const t = dot(e2, q) / det;
    if (t < 0 || t > maxT) continue;
    if (t < best.t) { best.second = best.t; best.t = t; best.triangle = k; best.hit = true; } else if (t < best.second) best.second = t;
  }
  return best;
}

/** 1/sin of the triangle's smallest angle (at least 1): how much rounding grows in its normal and in t. */
function condition(a: number[], b: number[], c: number[]): number {
  const area2 = Math.hypot(...cross(sub(b, a), sub(c, a)));
  const longest = Math.max(Math.hypot(...sub(b, a)), Math.hypot(...sub(c, b)), Math.hypot(...sub(a, c)));
  return Math.max(1, (longest * longest) / Math.max(area2, 1e-300));
}

/** Casts `rays` random rays at the posed mesh; every result is checked against brute force. Returns the hits. */
function checkRays(s: Soup, shape: MeshShape, rand: () => number, rays: number): number {
  let hits = 0;
  const nTri = s.indices.length / 3;
  for (let i = 0; i < rays; i++) {
    const pose = randomPose(rand, 2);
    const k = Math.floor(rand() * nTri);
    const [a, b, c] = [0, 1, 2].map((j) => worldVertex(s, pose, s.indices[3 * k + j]));
    const target = i % 3 === 0 ? [0, 1, 2].map((j) => pose[j] + 3 * rand() - 1.5) : [0, 1, 2].map((j) => (a[j] + 2 * b[j] + c[j]) / 4);
    const dir = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
    const dl = Math.hypot(...dir);
    const o = target.map((x, j) => x - (6 * dir[j]) / dl);
    const scale = 0.5 + rand();
    const d = sub(target, o).map((x) => x * scale);
    const maxT = i % 4 === 0 ? (0.3 + rand()) * (Math.hypot(...sub(target, o)) / Math.hypot(...d)) : 1e9;
    const r = raycast(shape, pose, { origin: o as Vec3, direction: d as Vec3, maxT });
    const ref = bruteForce(s, pose, o, d, maxT);
    const tol = (1e-9 * (1 + Math.hypot(...o) + 3)) / Math.hypot(...d);
    if (r.hit !== ref.hit) {
      // Only a hit within rounding of maxT may differ.
      expect(Math.abs(ref.t - maxT), `ray ${i}: hit ${r.hit}, brute force ${ref.hit}`).toBeLessThan(tol);
      continue;
    }
    if (!r.hit) {
      expect(r.triangle).toBeNull();
      expect(r.barycentric).toBeNull();
      continue;
    }
    hits++;
    const [ra, rb, rc] = [0, 1, 2].map((j) => worldVertex(s, pose, s.indices[3 * ref.triangle + j]));
    expect(Math.abs((r.t as number) - ref.t), `ray ${i} t`).toBeLessThanOrEqual(tol * condition(ra, rb, rc));
    if (ref.second - ref.t > tol) expect(r.triangle, `ray ${i} triangle`).toBe(ref.triangle);
    // The point is u·v_i + v·v_j + w·v_k of the reported triangle, on the ray; the normal is its CCW normal.
    const tri = r.triangle as number;
    const [p0, p1, p2] = [0, 1, 2].map((j) => worldVertex(s, pose, s.indices[3 * tri + j]));
    const w = r.barycentric as Vec3;
    expect(w[0] + w[1] + w[2]).toBeCloseTo(1, 12);
    const p = [0, 1, 2].map((j) => w[0] * p0[j] + w[1] * p1[j] + w[2] * p2[j]);
    const onRay = o.map((x, j) => x + (r.t as number) * d[j]);
    expect(Math.hypot(...sub(p, onRay)), `ray ${i} point`).toBeLessThan(1e-9 * (1 + Math.hypot(...o)) * condition(p0, p1, p2));
    expect(Math.hypot(...sub(p, r.point as number[]))).toBeLessThan(1e-9 * (1 + Math.hypot(...o)));
    const n = cross(sub(p1, p0), sub(p2, p0));
    const nl = Math.hypot(...n);
    expect(Math.hypot(...sub(r.normal as number[], n.map((x) => x / nl))), `ray ${i} normal`).toBeLessThan(1e-12 * condition(p0, p1, p2));
    expect(r.startedInside).toBe(false);
  }
  return hits;
}

// ---- tests --------------------------------------------------------------------------------------------------

describe('mesh(): raycast against brute force', () => {
  it('random soups, from each accepted array type', () => {
    const rand = seeded(1);
    const s = randomSoup(rand, 120);
    const forms: [ArrayLike<number>, ArrayLike<number>][] = [
      [Float64Array.from(s.vertices), Uint32Array.from(s.indices)],
      [s.vertices, s.indices],
      [Float64Array.from(s.vertices), Uint16Array.from(s.indices)],
    ];
    for (const [v, i] of forms) {
      const m = mesh(v as Float64Array, i as Uint32Array);
      expect(m).toBeInstanceOf(MeshShape);
      expect(m.type).toBe('mesh');
      expect(checkRays(s, m, rand, 120)).toBeGreaterThan(40);
      m.dispose();
    }
    // Float32 vertices are widened: the reference uses the same float32-rounded coordinates.
    const f32 = Float32Array.from(s.vertices);
    const m = mesh(f32, Uint32Array.from(s.indices));
    expect(checkRays({ vertices: Array.from(f32), indices: s.indices }, m, rand, 100)).toBeGreaterThan(30);
    m.dispose();
  });

  it('a closed icosphere and torus, slivers and an unwelded copy', () => {
    const rand = seeded(2);
    const sliver: Soup = { vertices: [0, 0, 0, 1, 0, 0, 0.5, 1e-7, 0, 0, 0, 1, 1, 1e-9, 1, 0.5, 0, 1e-6], indices: [0, 1, 2, 3, 4, 5, 0, 1, 3] };
    for (const s of [icosphere(2), torus(24, 8, 1, 0.3), unweld(icosphere(1)), sliver]) {
      const m = mesh(s.vertices, s.indices);
      expect(checkRays(s, m, rand, 150)).toBeGreaterThan(s === sliver ? 10 : 60);
      m.dispose();
    }
  });

  it('from inside a closed mesh the ray hits the surface ahead, not at t = 0', () => {
    const s = icosphere(2);
    const m = mesh(s.vertices, s.indices);
    const r = raycast(m, undefined, { origin: [0, 0, 0], direction: [0, 0, 1], maxT: 10 });
    expect(r.hit).toBe(true);
    expect(r.t as number).toBeGreaterThan(0.9);
    expect(r.t as number).toBeLessThanOrEqual(1 + 1e-12);
    m.dispose();
  });

  it('equals run() on the same scene (sceneOf), field for field', () => {
    const rand = seeded(3);
    const s = torus(12, 6, 1, 0.35);
    const m = mesh(s.vertices, s.indices);
    for (let i = 0; i < 40; i++) {
      const pose = randomPose(rand, 1);
      const ray = { origin: [4 * rand() - 2, 3, 4 * rand() - 2] as Vec3, direction: [rand() - 0.5, -1, rand() - 0.5] as Vec3, maxT: 10 };
      const scene = sceneOf('raycast', m, pose, ray);
      expect(scene.shapes[0].type).toBe('mesh');
      expect(raycast(m, pose, ray)).toEqual(run(scene));
    }
    m.dispose();
  });
});

describe('mesh(): project', () => {
  it('equals run() on the same scene (sceneOf) bit for bit, with triangle, barycentric and feature', () => {
    const rand = seeded(18);
    const s = torus(12, 6, 1, 0.35);
    const m = mesh(s.vertices, s.indices);
    const kinds = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const pose = randomPose(rand, 1);
      // Every fourth point exactly on a mesh vertex (in the world).
      const v = 3 * ((i * 7) % (s.vertices.length / 3));
      const local: Vec3 = i % 4 === 0 ? [s.vertices[v], s.vertices[v + 1], s.vertices[v + 2]] : [3 * rand() - 1.5, rand() - 0.5, 3 * rand() - 1.5];
      const point = i % 4 === 0 ? (run(sceneOf('project', m, pose, local)) as { point: Vec3 }).point : local;
      const r = project(m, pose, point);
      expect(r).toEqual(run(sceneOf('project', m, pose, point)));
      expect(r.inside).toBe(false);
      expect(r.triangle).toBeGreaterThanOrEqual(0);
      kinds.add(r.feature.kind);
      // The batch names the triangle through options.features.
      const features = new Int32Array(2);
      const out = batch('project', [m], new Float64Array(pose), new Uint32Array([0]), { points: new Float64Array(point), features });
      expect(features[0]).toBe(r.triangle);
      expect(batchResult('project', out, 0).distance).toBe(r.distance);
    }
    expect(kinds.has('face')).toBe(true);
    m.dispose();
  });
});

describe('mesh(): the trace of a ray cast', () => {
  it('is one frame with the answer, the hit triangle in world space and the tests run', () => {
    const s = icosphere(2);
    const m = mesh(s.vertices, s.indices);
    const pose = { position: [0, 0, 2] as Vec3 };
    const ray = { origin: [0.05, 0.1, 10] as Vec3, direction: [0, 0, -1] as Vec3, maxT: 20 };
    const t = raycast(m, pose, ray, { trace: true }) as unknown as MeshRaycastTrace;
    expect(isMeshRaycast(t)).toBe(true);
    expect(t.frames).toHaveLength(1);
    const r = raycast(m, pose, ray);
    expect(t.result).toEqual(r);
    const f = t.frames[0];
    expect(f.hit).toBe(true);
    expect(f.triangle).toBe(r.triangle);
    expect(f.triangleCount).toBe(s.indices.length / 3);
    expect(f.triangleTests).toBeLessThan(f.triangleCount / 4); // the tree prunes most triangles
    // The frame's corners are the hit triangle's vertices moved by the pose.
    const k = r.triangle as number;
    for (let j = 0; j < 3; j++) {
      const v = s.indices[3 * k + j];
      expect(f.vertices?.[j]).toEqual([s.vertices[3 * v], s.vertices[3 * v + 1], s.vertices[3 * v + 2] + 2]);
    }
    expect(f.caption).toMatch(new RegExp(`^Ray cast on the mesh's box tree: triangle ${k} is hit first, at t = `));
    expect(t.pseudocode.length).toBeGreaterThan(2);
    expect(trace(sceneOf('raycast', m, pose, ray))).toEqual(t);
    m.dispose();
  });
});

describe('mesh(): batches', () => {
  it("batch('raycast') and createBatch('raycast') with meshes among convex shapes: the single queries' numbers", () => {
    const rand = seeded(4);
    const s = icosphere(1);
    const shapes = [mesh(s.vertices, s.indices), sphere(0.5), mesh(randomSoup(rand, 30).vertices, randomSoup(seeded(9), 30).indices)];
    const n = 60;
    const poses = new Float64Array(7 * shapes.length);
    shapes.forEach((_, i) => poses.set(randomPose(rand, 2), 7 * i));
    const pairs = Uint32Array.from({ length: n }, (_, i) => i % shapes.length);
    const rays = new Float64Array(7 * n);
    for (let q = 0; q < n; q++) {
      const target = poses.subarray(7 * pairs[q], 7 * pairs[q] + 3);
      const o = [0, 1, 2].map(() => 8 * rand() - 4);
      const aim = [0, 1, 2].map((k) => target[k] - o[k] + rand() - 0.5);
      rays.set([...o, ...aim, 20], 7 * q);
    }
    const out = batch('raycast', shapes, poses, pairs, { rays });
    let hits = 0;
    for (let q = 0; q < n; q++) {
      const k = pairs[q];
      const single = raycast(shapes[k], poses.subarray(7 * k, 7 * k + 7), {
        origin: Array.from(rays.subarray(7 * q, 7 * q + 3)) as Vec3, direction: Array.from(rays.subarray(7 * q + 3, 7 * q + 6)) as Vec3, maxT: 20,
      });
      // The batch layout has no triangle or barycentric fields (see the README): the rest is the same.
      const { triangle: _t, barycentric: _b, ...rest } = single as RaycastResult;
      expect(batchResult('raycast', out, q)).toEqual(rest);
      if (single.hit) hits++;
    }
    expect(hits).toBeGreaterThan(15);
    using b = createBatch('raycast', shapes, { capacity: n });
    b.poses.set(poses);
    b.pairs.set(pairs);
    b.rays.set(rays);
    const again = b.run(n);
    expect(again.every((x, i) => Object.is(x, out[i]))).toBe(true);
    for (const sh of shapes) sh.dispose();
  });
});

describe('mesh(): report, spec, memory', () => {
  it('degenerate and duplicate triangles are reported, not refused', () => {
    const m = mesh([0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0], [0, 1, 2, 0, 1, 3, 0, 2, 1]);
    expect(m.report.vertexCount).toBe(4);
    expect(m.report.triangleCount).toBe(3);
    expect(m.report.degenerate).toEqual([1]);
    expect(m.report.duplicates).toEqual([[2, 0]]);
    expect(m.report.warnings[0]).toMatch(/^triangles\[1\]: degenerate/);
    expect(m.report.warnings[1]).toMatch(/^triangles\[2\]: duplicates triangles\[0\]/);
    // A ray through the duplicated pair reports the smaller index.
    const r = raycast(m, undefined, { origin: [0.2, 0.2, 5], direction: [0, 0, -1], maxT: 10 });
    expect(r.triangle).toBe(0);
    expect(r.t).toBe(5);
    const scene = sceneOf('raycast', m, undefined, { origin: [0.2, 0.2, 5], direction: [0, 0, -1], maxT: 10 });
    expect(sceneWarnings(scene)).toEqual(m.report.warnings.map((w) => `shapes[0].${w}`));
    m.dispose();
  });

  it('every accepted array type gives the same mesh as number[]: the same vertices to the bit, the same triangles', () => {
    const s = torus(12, 8, 1, 0.3);
    const f32 = Float32Array.from(s.vertices);
    const vertexArrays = [Array.from(f32), Float64Array.from(f32), f32, Int32Array.from(f32, (x) => Math.round(4 * x))];
    const indexArrays = [Array.from(s.indices), Uint32Array.from(s.indices), Uint16Array.from(s.indices), Int32Array.from(s.indices), Float32Array.from(s.indices), Float64Array.from(s.indices)];
    const triangles = Array.from({ length: s.indices.length / 3 }, (_, t) => s.indices.slice(3 * t, 3 * t + 3));
    for (const va of vertexArrays) {
      const vertices = Array.from({ length: va.length / 3 }, (_, i) => [va[3 * i], va[3 * i + 1], va[3 * i + 2]]);
      for (const ia of indexArrays) {
        // Int32Array and float index arrays are accepted at run time beyond the declared types.
        const m = mesh(va as Float64Array, ia as Uint32Array);
        const spec = m.spec() as { vertices: number[][]; triangles: number[][] };
        expect(spec.vertices).toEqual(vertices);
        expect(spec.triangles).toEqual(triangles);
        m.dispose();
      }
    }
  });

  it('createShape() of a scene-format mesh and spec() round-trip', () => {
    const spec = { type: 'mesh' as const, vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]] as Vec3[], triangles: [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]] as [number, number, number][] };
    const m = createShape(spec);
    expect(m).toBeInstanceOf(MeshShape);
    expect(m.spec()).toEqual(spec);
    const r = raycast(m, undefined, { origin: [0.1, 0.1, -1], direction: [0, 0, 1], maxT: 5 });
    expect(r.hit).toBe(true);
    expect(r.triangle).toBe(0);
    expect(r.t).toBe(1);
    expect(r.normal).toEqual([0, 0, -1]);
    m.dispose();
  });

  it('hull() and boundingVolumes() take the vertices; drawShape() draws the triangles and every edge once', () => {
    const m = mesh([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.1, 0.1, 0.1], [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
    const h = hull(m, { position: [1, 0, 0] });
    expect(h.kind).toBe('polyhedron');
    expect(h.vertices).toHaveLength(4); // (0.1, 0.1, 0.1) is inside the tetrahedron
    expect(h.vertices.map((v) => v[0]).sort()).toEqual([1, 1, 1, 2]);
    const b = boundingVolumes(m);
    expect(b.aabb.min).toEqual([0, 0, 0]);
    expect(b.aabb.max).toEqual([1, 1, 1]);
    const g = drawShape(m, { position: [0, 0, 2] });
    let triangles = 0, edges = 0;
    g.traverse((o) => {
      const geo = (o as THREE.Mesh).geometry as THREE.BufferGeometry | undefined;
      const n = geo?.getAttribute('position')?.count ?? 0;
      if ((o as THREE.Mesh).isMesh && n > 1) triangles = Math.max(triangles, n / 3);
      if ((o as THREE.LineSegments).isLineSegments) edges = Math.max(edges, n / 2);
    });
    expect(triangles).toBe(4);
    expect(edges).toBe(6);
    expect(g.position.toArray()).toEqual([0, 0, 2]);
    // drawResult frames a mesh ray cast with the mesh among its shapes.
    const ray = { origin: [0.2, 0.2, 5] as Vec3, direction: [0, 0, -1] as Vec3, maxT: 10 };
    const drawn = drawResult(raycast(m, { position: [0, 0, 2] }, ray), { ray, shapes: [{ shape: m, pose: { position: [0, 0, 2] } }] });
    expect(drawn.getObjectByName('hit')).toBeDefined();
    m.dispose();
  });

  it('the wasm heap returns to where it was after dispose()', () => {
    const s = torus(40, 20, 1, 0.3);
    const v = Float64Array.from(s.vertices);
    const ix = Uint32Array.from(s.indices);
    // A first round grows the registry's slots (kept for reuse) and the module's scratch; the second must
    // leave the heap exactly where it found it.
    for (const m of Array.from({ length: 10 }, () => mesh(v, ix))) m.dispose();
    const before = stats();
    const made = Array.from({ length: 10 }, () => mesh(v, ix));
    expect(stats().heapBytes).toBeGreaterThan(before.heapBytes + 10 * 1600 * 100);
    expect(stats().liveShapes).toBe(before.liveShapes + 10);
    for (const m of made) m.dispose();
    expect(stats().heapBytes).toBe(before.heapBytes);
    expect(stats().liveShapes).toBe(before.liveShapes);
  });
});

describe('mesh(): the OBB tree on first need, report on first read', () => {
  it('report and prepare() work, and a lazily built mesh answers what a prepared one does', () => {
    const s = torus(60, 20, 1, 0.35);
    const v = Float64Array.from(s.vertices);
    const ix = Uint32Array.from(s.indices);
    const lazy = mesh(v, ix);
    const ready = mesh(v, ix);
    expect(ready.prepare()).toBe(ready);
    expect(ready.prepare()).toBe(ready); // idempotent
    // The report: the same values on both, read whenever (the torus is closed and clean).
    expect(lazy.report).toEqual(ready.report);
    expect(lazy.report).toEqual({ vertexCount: 60 * 20, triangleCount: 2 * 60 * 20, degenerate: [], duplicates: [], warnings: [] });
    expect(lazy.report).toBe(lazy.report); // kept after the first read
    const rnd = seeded(1809);
    const ball = sphere(0.2);
    for (let i = 0; i < 20; i++) {
      const at: Vec3 = [2.6 * rnd() - 1.3, 0.8 * rnd() - 0.4, 2.6 * rnd() - 1.3];
      // Each query's first call on `lazy` (i = 0) builds its tree; every answer equals the prepared mesh's.
      expect(intersect(lazy, undefined, ball, { position: at })).toEqual(intersect(ready, undefined, ball, { position: at }));
      expect(distance(ball, { position: at }, lazy, undefined)).toEqual(distance(ball, { position: at }, ready, undefined));
      expect(shapecast(lazy, undefined, ball, { position: at }, { translationB: [0, -1, 0] }))
        .toEqual(shapecast(ready, undefined, ball, { position: at }, { translationB: [0, -1, 0] }));
      expect(project(lazy, undefined, at)).toEqual(project(ready, undefined, at));
    }
    for (const m of [lazy, ready, ball]) m.dispose();
    expect(catchError(() => lazy.prepare()).code).toBe('disposed');
  });

  it('the wasm heap returns to where it was after dispose(), with or without the OBB tree built', () => {
    const s = torus(40, 20, 1, 0.3);
    const v = Float64Array.from(s.vertices);
    const ix = Uint32Array.from(s.indices);
    const ball = sphere(0.2);
    const round = (prepare: boolean) => {
      const made = Array.from({ length: 10 }, () => mesh(v, ix));
      for (const m of made) {
        if (prepare) m.prepare();
        else distance(m, undefined, ball, { position: [1, 0.5, 0] }); // builds it on first need
        void m.report;
      }
      return made;
    };
    for (const m of round(false)) m.dispose(); // the registry's slots and the module's scratch grow once
    const before = stats();
    const rayOnly = Array.from({ length: 10 }, () => mesh(v, ix));
    const rayHeap = stats().heapBytes - before.heapBytes;
    for (const m of rayOnly) raycast(m, undefined, { origin: [0, 3, 0.7], direction: [0, -1, 0], maxT: 10 });
    for (const m of rayOnly) m.dispose();
    expect(stats().heapBytes).toBe(before.heapBytes);
    for (const prepare of [true, false]) {
      const made = round(prepare);
      // The tree is kept beside the ray layout: more memory than the meshes made for rays only.
      expect(stats().heapBytes - before.heapBytes).toBeGreaterThan(rayHeap + 10 * 1600 * 100);
      for (const m of made) m.dispose();
      expect(stats().heapBytes).toBe(before.heapBytes);
    }
    expect(stats().liveShapes).toBe(before.liveShapes);
    ball.dispose();
  });
});

describe('mesh(): hostile input names the field', () => {
  it('bad arrays, indices and coordinates', () => {
    const v = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    const heap = stats().heapBytes;
    const cases: InvalidCase[] = [
      [() => mesh(v, [0, 1, 3]), 'triangles[0][2]', /below the vertex count 3/],
      [() => mesh(v, [0, -1, 2]), 'triangles[0][1]', /negative/],
      [() => mesh(v, [0, 1.5, 2]), 'triangles[0][1]', /whole number/],
      [() => mesh(v, [0, NaN, 2]), 'triangles[0][1]', /whole number/],
      [() => mesh([0, 0, 0, 1, NaN, 0, 0, 1, 0], [0, 1, 2]), 'vertices[1][1]', /finite/],
      [() => mesh([0, 0, 0, 1, 0, 0, 0, Infinity, 0], [0, 1, 2]), 'vertices[2][1]', /finite/],
      [() => mesh(Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1e30, 0), [0, 1, 2]), 'vertices[2][1]', /1e\+?15|magnitude|at most/],
      [() => mesh([], []), 'vertices', /at least 1/],
      [() => mesh(v, []), 'triangles', /at least 1/],
      [() => mesh([0, 0, 0, 1, 0, 0, 0, 1], [0, 1, 2]), 'vertices', /not a multiple of 3/],
      [() => mesh(v, [0, 1, 2, 0]), 'triangles', /not a multiple of 3/],
      [() => mesh(v, [0, 1, '2' as unknown as number]), 'triangles[0][2]', /must be a number/],
      [() => mesh('0,0,0' as never, [0, 1, 2]), 'vertices', /must be a Float32Array/],
      [() => mesh(v, { length: 3 } as never), 'triangles', /must be a Uint32Array/],
      // 10⁷ triangles: refused by length before anything is copied or allocated for them.
      [() => mesh(v, new Array(3e7)), 'triangles', /more than 2000000 triangles/],
      [() => mesh(v, new Uint32Array(3e7)), 'triangles', /more than 2000000 triangles/],
      [() => createShape({ type: 'mesh', vertices: [[0, 0, 0]], triangles: [[0, 0, 1]] }), 'triangles[0][2]', /below the vertex count 1/],
      [() => createShape({ type: 'mesh', vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0]], triangles: [[0, 1, 2]], margin: 0.1 }), 'margin', /no margin/],
    ];
    expectInvalidArguments(cases);
    expect(stats().heapBytes).toBe(heap);
  });

  it('typed index arrays are checked as integers, float ones as numbers, with the same sentences; the heap is left as it was', () => {
    const v = Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0);
    const heap = stats().heapBytes;
    const cases: InvalidCase[] = [
      [() => mesh(v, Uint32Array.of(0, 1, 3)), 'triangles[0][2]', /^must be below the vertex count 3 \(a vertex index\)$/],
      [() => mesh(v, Uint32Array.of(0, 1, 2, 2, 0xffffffff, 1)), 'triangles[1][1]', /^must be below the vertex count 3 /],
      [() => mesh(v, Uint16Array.of(0, 1, 2, 0, 3, 1)), 'triangles[1][1]', /^must be below the vertex count 3 /],
      [() => mesh(v, Int32Array.of(0, 1, 2, 1, 2, -1) as never), 'triangles[1][2]', /^must not be negative \(a vertex index\)$/],
      [() => mesh(v, Int32Array.of(0, 1, 2, 1, 2, 3) as never), 'triangles[1][2]', /^must be below the vertex count 3 /],
      [() => mesh(v, Float32Array.of(0, 1, 2.5) as never), 'triangles[0][2]', /^must be a whole number \(a vertex index\)$/],
      [() => mesh(v, Float64Array.of(0, -1, 2) as never), 'triangles[0][1]', /^must not be negative/],
      [() => mesh(v, Float64Array.of(0, 1, 2, 0, 1, 2 ** 40) as never), 'triangles[1][2]', /^must be below the vertex count 3 /],
      // The first bad element in index order wins, and an index error comes before a vertex error.
      [() => mesh(Float64Array.of(0, 0, 0, 1, NaN, 0, 0, 1, 0), Uint32Array.of(0, 1, 2, 0, 1, 7, 9, 1, 2)), 'triangles[1][2]', /below the vertex count 3/],
      [() => mesh(Float64Array.of(0, 0, 0, 1, NaN, 0, 0, 1, 0), Uint16Array.of(0, 1, 2)), 'vertices[1][1]', /finite/],
      [() => mesh(Int32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0) as never, Uint16Array.of(0, 1, 2, 0)), 'triangles', /not a multiple of 3/],
      [() => mesh(new Float32Array(0), new Uint16Array(0)), 'vertices', /at least 1/],
    ];
    expectInvalidArguments(cases);
    expect(stats().heapBytes).toBe(heap);
  });

  it('other queries on a mesh answer unsupported-query naming the shape, never abort', () => {
    const m = mesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2]);
    const b = sphere(1);
    const cases: [() => unknown, string][] = [
      [() => penetration(m, undefined, b, undefined), 'a.type'],
      [() => penetration(b, undefined, m, undefined), 'b.type'],
      [() => sat(m, undefined, b, undefined), 'a.type'],
      [() => contains(m, undefined, [0, 0, 0]), 'shape.type'],
      [() => run(sceneOf('penetration', m, undefined, b, undefined)), 'shapes[0].type'],
    ];
    for (const [f, field] of cases) {
      const e = catchError(f);
      expect(e.code, e.message).toBe('unsupported-query');
      expect(e.field, e.message).toBe(field);
    }
    expect(catchError(() => contains(m, undefined, [0, 0, 0])).message).toMatch(/a mesh is a surface, not a solid/);
    // The shapes still work afterwards.
    expect(raycast(m, undefined, { origin: [0.2, 0.2, 1], direction: [0, 0, -1] }).triangle).toBe(0);
    m.dispose();
    b.dispose();
  });
});

describe('meshFromGeometry()', () => {
  it('indexed, non-indexed and interleaved geometries give the same mesh', () => {
    const indexed = new THREE.TorusKnotGeometry(1, 0.3, 32, 6);
    const flat = indexed.toNonIndexed();
    const pos = flat.getAttribute('position') as THREE.BufferAttribute;
    const buffer = new THREE.InterleavedBuffer(new Float32Array(pos.count * 5), 5);
    const interleaved = new THREE.BufferGeometry();
    const attr = new THREE.InterleavedBufferAttribute(buffer, 3, 1);
    for (let i = 0; i < pos.count; i++) attr.setXYZ(i, pos.getX(i), pos.getY(i), pos.getZ(i));
    interleaved.setAttribute('position', attr);
    const meshes = [indexed, flat, interleaved].map((g) => meshFromGeometry(g));
    const rand = seeded(5);
    const p = indexed.getAttribute('position') as THREE.BufferAttribute;
    const ix = indexed.getIndex() as THREE.BufferAttribute;
    const soup: Soup = { vertices: Array.from(p.array as Float32Array), indices: Array.from(ix.array as ArrayLike<number>) };
    for (let i = 0; i < 60; i++) {
      const ray = { origin: [6 * rand() - 3, 4, 6 * rand() - 3] as Vec3, direction: [rand() - 0.5, -1, rand() - 0.5] as Vec3, maxT: 20 };
      const [a, b, c] = meshes.map((m) => raycast(m, undefined, ray));
      expect(b.t).toBe(a.t);
      expect(c.t).toBe(a.t);
      expect(b.triangle).toBe(a.triangle); // toNonIndexed keeps the triangle order
      const ref = bruteForce(soup, [0, 0, 0, 0, 0, 0, 1], ray.origin, ray.direction, 20);
      expect(a.hit).toBe(ref.hit);
    }
    expect(meshes[0].report.triangleCount).toBe(ix.count / 3);
    for (const m of meshes) m.dispose();
    const bad = new THREE.BufferGeometry();
    expect(catchError(() => meshFromGeometry(bad)).field).toBe('geometry.attributes.position');
    bad.setAttribute('position', new THREE.Float32BufferAttribute([0, 0, 0, 1, 0, 0], 3));
    expect(catchError(() => meshFromGeometry(bad)).field).toBe('geometry.attributes.position.count');
  });
});

describe('the CLI on a mesh scene', () => {
  it('prints the answer and each degenerate or duplicate triangle as a warning on stderr', () => {
    const scene = {
      version: 1, query: 'raycast',
      shapes: [{ type: 'mesh', vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [2, 0, 0]], triangles: [[0, 1, 2], [0, 1, 3], [0, 2, 1]], position: [0, 0, 1] }],
      ray: { origin: [0.25, 0.25, 5], direction: [0, 0, -1], maxT: 10 },
    };
    const r = spawnSync(process.execPath, [join(root, 'web', 'dist', 'lib', 'cli.mjs'), 'run', '-'], {
      cwd: root, encoding: 'utf8', input: JSON.stringify(scene), timeout: 60_000,
    });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toEqual(run(scene as never));
    expect(out.triangle).toBe(0);
    expect(out.t).toBe(4);
    expect(out.barycentric).toEqual([0.5, 0.25, 0.25]);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^collidoscope: stdin: warning: shapes\[0\]\.triangles\[1\]: degenerate/),
      expect.stringMatching(/^collidoscope: stdin: warning: shapes\[0\]\.triangles\[2\]: duplicates triangles\[0\]/),
    ]);
  });
});
