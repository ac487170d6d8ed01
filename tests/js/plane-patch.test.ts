// A plane drawn as a patch (web/lib/draw/plane.ts, drawShape's plane): the half-space the drawing assumes is the one
// the library answers with (its contains() and project() on random posed, scaled, rounded planes), and the patch is
// a square of that surface around the points given, whose own plane, centre and extent are checked by hand.
import * as THREE from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, run, type ProjectResult, type Shape, type Vec3 } from '../../web/lib/index';
import { drawnPlanes, patchCorners, planeObject, planePatch, worldHalfSpace, type HalfSpace } from '../../web/lib/draw/plane';
import { drawShape } from '../../web/lib/three';
import { randomPose, seeded } from './helpers';

beforeAll(async () => {
  await init();
});

const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: readonly number[], b: readonly number[]): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** A plane with a random normal (not unit), offset and pose; some scaled, some with a margin. */
function randomPlane(rand: () => number, i: number): Shape {
  const pose = randomPose(rand, 4);
  const s: Shape = {
    type: 'plane', normal: [rand() * 4 - 2, rand() * 4 - 2, rand() * 4 - 2], offset: rand() * 6 - 3,
    position: pose.slice(0, 3) as Vec3, rotation: pose.slice(3) as [number, number, number, number],
  };
  if (i % 3 === 1) s.scale = [0.5 + rand() * 2, 0.5 + rand() * 2, 0.5 + rand() * 2];
  if (i % 4 === 2) s.margin = rand();
  return s;
}

const project = (s: Shape, p: Vec3) => run({ version: 1, query: 'project', shapes: [s], point: p }) as ProjectResult;

describe('a plane\'s half-space as drawn', () => {
  it('is the one the library answers with: project() lands on its surface at |n·p − d|, contains() is n·p ≤ d', () => {
    const rand = seeded(19);
    for (let i = 0; i < 60; i++) {
      const s = randomPlane(rand, i);
      const h = worldHalfSpace(s);
      expect(Math.hypot(...h.normal)).toBeCloseTo(1, 14);
      for (let k = 0; k < 5; k++) {
        const p: Vec3 = [rand() * 10 - 5, rand() * 10 - 5, rand() * 10 - 5];
        const height = dot(h.normal, p) - h.offset;
        const r = project(s, p);
        expect(r.distance).toBeCloseTo(Math.abs(height), 9);
        expect(r.inside).toBe(height <= 0);
        // The library's nearest surface point is p moved along the drawn normal by the height.
        const x = sub(p, h.normal.map((c) => c * height));
        for (let c = 0; c < 3; c++) expect(r.point[c]).toBeCloseTo(x[c], 9);
        const inside = (run({ version: 1, query: 'contains', shapes: [s], point: p }) as { inside: boolean }).inside;
        if (Math.abs(height) > 1e-9) expect(inside).toBe(height < 0);
      }
    }
  });
});

describe('planePatch', () => {
  const floor: HalfSpace = { normal: [0, 1, 0], offset: -0.5 };

  it('without points: a unit square on the surface point nearest the origin, its axes with the normal a right-handed frame', () => {
    const p = planePatch(floor);
    expect(p.center).toEqual([0, -0.5, 0]);
    expect(p.half).toBe(1);
    // u is the world axis least along the normal (x) made perpendicular to it; v = n × u.
    expect(p.u).toEqual([1, 0, 0]);
    expect(p.v).toEqual([0, 0, -1]);
  });

  it('around points: centred under their box\'s centre, covering every point\'s shadow on the surface', () => {
    const rand = seeded(7);
    for (let i = 0; i < 40; i++) {
      const n = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
      const len = Math.hypot(...n);
      const h: HalfSpace = { normal: n.map((c) => c / len) as Vec3, offset: rand() * 4 - 2 };
      const pts: Vec3[] = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => [rand() * 6 - 3, rand() * 6 - 3, rand() * 6 - 3]);
      const p = planePatch(h, pts);
      // On the surface, and the box centre's foot: centre − box centre is along the normal.
      expect(dot(h.normal, p.center)).toBeCloseTo(h.offset, 12);
      const lo = [0, 1, 2].map((k) => Math.min(...pts.map((q) => q[k])));
      const hi = [0, 1, 2].map((k) => Math.max(...pts.map((q) => q[k])));
      const mid = lo.map((l, k) => (l + hi[k]) / 2);
      const off = sub(mid, p.center);
      const along = dot(off, h.normal);
      for (let k = 0; k < 3; k++) expect(off[k]).toBeCloseTo(along * h.normal[k], 12);
      // u, v, n orthonormal and right-handed.
      for (const [a, b] of [[p.u, p.v], [p.u, p.normal], [p.v, p.normal]]) expect(dot(a, b)).toBeCloseTo(0, 14);
      for (const a of [p.u, p.v]) expect(Math.hypot(...a)).toBeCloseTo(1, 14);
      const cross = new THREE.Vector3(...p.normal).cross(new THREE.Vector3(...p.u));
      expect(cross.distanceTo(new THREE.Vector3(...p.v))).toBeLessThan(1e-14);
      // Every point's shadow inside the square, and the square at least as wide as the box is far.
      for (const q of pts) {
        const d = sub(q, p.center);
        expect(Math.abs(dot(d, p.u))).toBeLessThanOrEqual(p.half);
        expect(Math.abs(dot(d, p.v))).toBeLessThanOrEqual(p.half);
      }
      expect(p.half).toBeGreaterThanOrEqual(Math.abs(along) - 1e-12);
      // The corners: on the surface, counter-clockwise seen from the normal's side.
      const c = patchCorners(p);
      for (const q of c) expect(dot(h.normal, q)).toBeCloseTo(h.offset, 12);
      const turn = new THREE.Vector3(...sub(c[1], c[0])).cross(new THREE.Vector3(...sub(c[2], c[1])));
      expect(turn.dot(new THREE.Vector3(...h.normal))).toBeGreaterThan(0);
    }
  });

  it('around one point: a square as wide as the point is high over the surface', () => {
    const p = planePatch(floor, [[3, 2, -1]]);
    expect(p.center).toEqual([3, -0.5, -1]);
    expect(p.half).toBe(2.5);
  });
});

describe('drawing a plane', () => {
  it('planeObject: the square, its grid and its normal arrow; drawnPlanes reads the square back, hidden ones left out', () => {
    const patch = planePatch({ normal: [0, 0, 1], offset: 2 }, [[1, 1, 5], [-1, 3, 4]]);
    const g = planeObject(patch, { color: 0xff0000 });
    const names: string[] = [];
    g.traverse((o) => names.push(o.name));
    expect(names).toEqual(expect.arrayContaining(['collidoscope:plane:patch', 'collidoscope:plane:grid', 'collidoscope:plane:normal']));
    const root = new THREE.Group().add(g);
    root.position.set(10, 0, 0);
    const [d] = drawnPlanes(root);
    expect(d.normal).toEqual([0, 0, 1]);
    // Float32 vertices: to their precision.
    expect(d.center[0]).toBeCloseTo(patch.center[0] + 10, 5);
    expect(d.center[1]).toBeCloseTo(patch.center[1], 5);
    expect(d.center[2]).toBeCloseTo(2, 5);
    expect(d.half).toBeCloseTo(patch.half, 5);
    g.visible = false;
    expect(drawnPlanes(root)).toEqual([]);
  });

  it('drawShape: a posed, scaled plane\'s patch lies on the surface the library answers with, its normal the plane\'s', () => {
    const rand = seeded(3);
    for (let i = 0; i < 20; i++) {
      const s = randomPlane(rand, i);
      const around: Vec3[] = [[rand() * 4 - 2, rand() * 4 - 2, rand() * 4 - 2], [rand() * 4 - 2, rand() * 4 - 2, rand() * 4 - 2]];
      const g = drawShape(s, undefined, { around });
      const [d] = drawnPlanes(g);
      const h = worldHalfSpace(s);
      for (let k = 0; k < 3; k++) expect(d.normal[k]).toBeCloseTo(h.normal[k], 6);
      // The centre is on the surface: the library projects it onto itself (to the Float32 of the vertices).
      expect(project(s, d.center).distance).toBeLessThan(1e-4 * (1 + Math.hypot(...d.center)));
      // ... and under the middle of the points: their box centre's nearest surface point.
      const mid: Vec3 = [0, 1, 2].map((k) => (around[0][k] + around[1][k]) / 2) as Vec3;
      const foot = project(s, mid).point;
      for (let k = 0; k < 3; k++) expect(d.center[k]).toBeCloseTo(foot[k], 4);
    }
  });

  it('drawShape refuses a bad `around` point with an error naming it', () => {
    expect(() => drawShape({ type: 'plane', normal: [0, 1, 0], offset: 0 }, undefined, { around: [[0, Number.NaN, 0]] }))
      .toThrow(/style\.around\[0\]/);
  });
});
