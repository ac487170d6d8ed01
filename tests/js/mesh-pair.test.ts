// A mesh against a convex shape and against another mesh through the package: intersect, distance, shapecast and
// contacts(). References: analytic answers for shapes over a flat floor (distance = height − radius, the time a
// falling sphere lands, the depth of a sunk capsule), brute force over every triangle written here (closest points
// on triangles for a sphere, a separating-axis test for two triangles), and the scene route (run(sceneOf(...))),
// which must give the same numbers as the object API.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batch, capsule, contact, contacts, distance, init, intersect, mesh, MAX_CONTACTS, run, sceneOf, shapecast, sphere, box,
  type ContactsResult, type MeshMeshIntersectResult, type Vec3,
} from '../../web/lib/index';
import { catchError, seeded } from './helpers';
import { floor } from './mesh-gen';

beforeAll(async () => {
  await init();
});

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scl = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const len = (a: Vec3) => Math.sqrt(dot(a, a));

/** Closest point of triangle abc to p (Ericson's region tests, written here). */
function closestOnTriangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3): Vec3 {
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const bp = sub(p, b), d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return add(a, scl(ab, d1 / (d1 - d3)));
  const cp = sub(p, c), d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return add(a, scl(ac, d2 / (d2 - d6)));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return add(b, scl(sub(c, b), (d4 - d3) / (d4 - d3 + (d5 - d6))));
  const denom = 1 / (va + vb + vc);
  return add(a, add(scl(ab, vb * denom), scl(ac, vc * denom)));
}


describe('a mesh against a convex shape', () => {
  it('a sphere over a floor: intersect, distance and contacts as the analytic answers, in both orders', () => {
    const f = floor(6);
    const m = mesh(f.vertices, f.indices);
    const s = sphere(0.5);
    for (const h of [2, 0.75, 0.5, 0.3]) {
      const at = { position: [0.3, h, -0.2] as Vec3 };
      expect(intersect(m, undefined, s, at).intersecting).toBe(h <= 0.5);
      expect(intersect(s, at, m, undefined).intersecting).toBe(h <= 0.5);
      const d = distance(m, undefined, s, at);
      expect(d.distance).toBeCloseTo(Math.max(0, h - 0.5), 12);
      if (h > 0.5) {
        expect(d.pointA[1]).toBeCloseTo(0, 12);
        expect(d.pointB[1]).toBeCloseTo(h - 0.5, 12);
        const e = distance(s, at, m, undefined);
        expect(e.pointA[1]).toBeCloseTo(h - 0.5, 12);
      }
      const c = contacts(m, undefined, s, at, { margin: 0.3 });
      if (h - 0.5 > 0.3) {
        expect(c.contacts).toEqual([]);
        continue;
      }
      const deepest = c.contacts.reduce((x, y) => (y.depth > x.depth ? y : x));
      expect(deepest.depth).toBeCloseTo(0.5 - h, 12);
      expect(deepest.normal[1]).toBeCloseTo(1, 12);
      expect(typeof deepest.triangle).toBe('number');
      // The scene route gives the same numbers.
      const scene = { ...sceneOf('distance', m, undefined, s, at), query: 'contacts' as const, margin: 0.3 };
      expect(run(scene) as ContactsResult).toEqual(c);
      // B is now the floor: the normal moves it down, away from the sphere.
      const swapped = contacts(s, at, m, undefined, { margin: 0.3 });
      expect(swapped.contacts.length).toBe(c.contacts.length);
      expect(swapped.contacts.reduce((x, y) => (y.depth > x.depth ? y : x)).normal[1]).toBeCloseTo(-1, 12);
    }
    m.dispose();
    s.dispose();
  });

  it('distances to a random soup equal brute force over its triangles', () => {
    const rand = seeded(9);
    const vertices: number[] = [];
    const indices: number[] = [];
    for (let t = 0; t < 60; t++) {
      const c = [rand() * 4 - 2, rand() * 4 - 2, rand() * 4 - 2];
      for (let k = 0; k < 3; k++) vertices.push(c[0] + rand() - 0.5, c[1] + rand() - 0.5, c[2] + rand() - 0.5);
      indices.push(3 * t, 3 * t + 1, 3 * t + 2);
    }
    const m = mesh(vertices, indices);
    const s = sphere(0.25);
    const v = (i: number): Vec3 => [vertices[3 * i], vertices[3 * i + 1], vertices[3 * i + 2]];
    let apart = 0;
    for (let n = 0; n < 200; n++) {
      const p: Vec3 = [rand() * 8 - 4, rand() * 8 - 4, rand() * 8 - 4];
      let best = Infinity;
      for (let t = 0; t < 60; t++) best = Math.min(best, len(sub(p, closestOnTriangle(p, v(3 * t), v(3 * t + 1), v(3 * t + 2)))));
      const expected = Math.max(0, best - 0.25);
      const d = distance(m, undefined, s, { position: p });
      expect(Math.abs(d.distance - expected)).toBeLessThan(1e-9);
      if (Math.abs(best - 0.25) > 1e-6) expect(intersect(s, { position: p }, m, undefined).intersecting).toBe(best < 0.25);
      if (expected > 0) apart++;
    }
    expect(apart).toBeGreaterThan(50);
    m.dispose();
    s.dispose();
  });

  it('a falling sphere lands on a rising floor at the analytic time, in both orders', () => {
    const f = floor(4);
    const m = mesh(f.vertices, f.indices);
    const s = sphere(0.5);
    const at = { position: [0.1, 2, 0.2] as Vec3 };
    const r = shapecast(m, undefined, s, at, { translationA: [0, 1, 0], translationB: [0, -3, 0] });
    expect(r.hit).toBe(true);
    expect(r.t).toBeCloseTo(0.375, 9);
    expect(r.pointA![1]).toBeCloseTo(0.375, 9);
    expect(r.normal![1]).toBeCloseTo(1, 9);
    const q = shapecast(s, at, m, undefined, { translationA: [0, -3, 0], translationB: [0, 1, 0] });
    expect(q.t).toBeCloseTo(0.375, 9);
    expect(q.normal![1]).toBeCloseTo(-1, 9);
    expect(shapecast(m, undefined, s, at, { translationB: [0, -1, 0] }).hit).toBe(false);
    m.dispose();
    s.dispose();
  });

  it('batch() with meshes among the shapes equals the single calls', () => {
    const f = floor(3);
    const m = mesh(f.vertices, f.indices);
    const c = capsule(0.2, 0.4);
    const rand = seeded(3);
    const n = 30;
    const poses = new Float64Array(14 * n);
    const pairs = new Uint32Array(2 * n);
    const shapes = [];
    for (let i = 0; i < n; i++) {
      poses.set([0, 0, 0, 0, 0, 0, 1, rand() * 2 - 1, rand() * 1.5 - 0.3, rand() * 2 - 1, 0, 0, Math.sin(i), Math.cos(i)], 14 * i);
      shapes.push(m, c);
      pairs.set([2 * i, 2 * i + 1], 2 * i);
    }
    const out = batch('distance', shapes, poses, pairs);
    for (let i = 0; i < n; i++) {
      const d = distance(m, Array.from(poses.subarray(14 * i, 14 * i + 7)), c, Array.from(poses.subarray(14 * i + 7, 14 * i + 14)));
      expect(out[i * (out.length / n)]).toBe(d.distance);
    }
    m.dispose();
    c.dispose();
  });
});

describe('contacts()', () => {
  it('pushes a sunk capsule out of a floor by the deepest contact', () => {
    const f = floor(4);
    const m = mesh(f.vertices, f.indices);
    const c = capsule(0.3, 0.5);
    // Upright capsule whose bottom is 0.1 below the floor.
    let pose = { position: [0.2, 0.7, 0.1] as Vec3 };
    const first = contacts(m, undefined, c, pose);
    expect(first.contacts.length).toBeGreaterThan(0);
    const deepest = first.contacts.reduce((x, y) => (y.depth > x.depth ? y : x));
    expect(deepest.depth).toBeCloseTo(0.1, 12);
    pose = { position: add(pose.position, scl(deepest.normal, deepest.depth + 1e-9)) };
    expect(intersect(m, undefined, c, pose).intersecting).toBe(false);
    expect(contacts(m, undefined, c, pose).contacts).toEqual([]);
    m.dispose();
    c.dispose();
  });

  it('between convex shapes is contact() as a list', () => {
    const a = box([0.5, 0.5, 0.5]);
    const b = sphere(0.4);
    for (const x of [0.6, 0.85, 0.95, 1.2]) {
      const one = contact(a, undefined, b, { position: [x, 0.1, 0] }, { margin: 0.1 });
      const list = contacts(a, undefined, b, { position: [x, 0.1, 0] }, { margin: 0.1 });
      expect(list.contacts.length).toBe(one === null ? 0 : 1);
      if (one !== null) {
        expect(list.contacts[0]).toEqual({ triangle: null, depth: -one.distance, normal: one.normal, pointA: one.pointA, pointB: one.pointB });
      }
    }
    a.dispose();
    b.dispose();
  });

  it('bad input is a clear error naming the field', () => {
    const f = floor(1);
    const m = mesh(f.vertices, f.indices);
    const s = sphere(1);
    expect(catchError(() => contacts(m, undefined, s, undefined, { margin: -1 })).field).toBe('margin');
    expect(catchError(() => contacts(m, undefined, s, undefined, { margin: 'x' as unknown as number })).field).toBe('options.margin');
    expect(catchError(() => contacts(m, undefined, m, undefined)).code).toBe('unsupported-query');
    expect(catchError(() => contacts(m, [NaN, 0, 0], s, undefined)).field).toMatch(/^poseA/);
    expect(MAX_CONTACTS).toBe(4096);
    m.dispose();
    s.dispose();
  });
});

describe('two meshes', () => {
  it('intersect as a brute-force triangle test says, and refuse distance clearly', () => {
    // Two unit tetrahedra; B slides along x through A.
    const tv = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
    const ti = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];
    const a = mesh(tv, ti);
    const b = mesh(tv, ti);
    // Apart along x by more than zero; touching at x = 1 (B's vertex 0 on A's vertex 1); overlapping below.
    expect(intersect(a, undefined, b, { position: [1.001, 0, 0] }).intersecting).toBe(false);
    expect(intersect(a, undefined, b, { position: [1, 0, 0] }).intersecting).toBe(true);
    expect(intersect(a, undefined, b, { position: [0.3, 0.1, 0.1] }).intersecting).toBe(true);
    // A small tetrahedron wholly inside a's corner region does not touch a's surface: meshes are surfaces.
    const small = mesh(tv.map((x) => x * 0.05), ti);
    expect(intersect(a, undefined, small, { position: [0.1, 0.1, 0.1] }).intersecting).toBe(false);
    const scene = run(sceneOf('intersect', a, undefined, b, { position: [0.3, 0.1, 0.1] })) as unknown as MeshMeshIntersectResult;
    expect(scene.intersecting).toBe(true);
    expect(scene.triangles).toHaveLength(2);
    const e = catchError(() => distance(a, undefined, b, { position: [3, 0, 0] }));
    expect(e.code).toBe('unsupported-query');
    expect(e.field).toBe('b.type');
    for (const x of [a, b, small]) x.dispose();
  });
});
