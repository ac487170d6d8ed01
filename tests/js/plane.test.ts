// plane(): the half-space normal·x ≤ offset through the object API, batches and scenes, against answers by hand
// (a floor and a ball, a ray down onto the floor, two opposite planes) and on bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batch, batchResult, box, contact, contains, distance, init, intersect, minkowskiSurface, penetration, plane, project,
  raycast, run, sat, sceneOf, shapeSurface, sphere, type Vec3,
} from '../../web/lib/index';
import { catchError } from './helpers';

beforeAll(async () => {
  await init();
});

describe('plane', () => {
  it('a ball on a floor, by hand', () => {
    const floor = plane([0, 1, 0], 0);
    const ball = sphere(1);
    const low = { position: [0, 0.5, 0] as Vec3 };
    expect(intersect(floor, undefined, ball, low).intersecting).toBe(true);
    const p = penetration(floor, undefined, ball, low);
    expect(p.depth).toBe(0.5);
    expect(p.normal).toEqual([0, 1, 0]);
    expect(p.pointA).toEqual([0, 0, 0]);
    expect(p.pointB).toEqual([0, -0.5, 0]);
    const high = { position: [0, 3, 0] as Vec3 };
    const d = distance(ball, high, floor, undefined);
    expect(d.distance).toBe(2);
    expect(d.pointA).toEqual([0, 2, 0]);
    expect(d.pointB).toEqual([0, 0, 0]);
    const c = contact(floor, undefined, ball, high, { margin: 2.5 });
    expect(c?.distance).toBe(2);
    expect(contact(floor, undefined, ball, high)).toBeNull();
    floor.dispose();
    ball.dispose();
  });

  it('a tilted, moved floor: raycast, contains, project', () => {
    // The plane x + y ≤ 2 (normal [1, 1, 0], unit normal [s, s, 0], offset 2/√2 = √2).
    const s = Math.SQRT1_2;
    const wall = plane([1, 1, 0], 2);
    const r = raycast(wall, undefined, { origin: [5, 5, 0], direction: [-1, -1, 0], maxT: 10 });
    expect(r.hit).toBe(true);
    expect(r.t).toBeCloseTo(4, 14);
    expect(r.normal?.[0]).toBeCloseTo(s, 15);
    expect(raycast(wall, undefined, { origin: [5, 5, 0], direction: [1, 0, 0], maxT: 10 }).hit).toBe(false);
    expect(raycast(wall, undefined, { origin: [0, 0, 0], direction: [1, 0, 0] }).startedInside).toBe(true);
    // Moved up by 1: x + y ≤ 3.
    const pose = { position: [0, 1, 0] as Vec3 };
    expect(contains(wall, pose, [1.5, 1.4, 7]).inside).toBe(true);
    expect(contains(wall, pose, [1.5, 1.6, 7]).inside).toBe(false);
    const pr = project(wall, pose, [3, 3, 1]);
    expect(pr.inside).toBe(false);
    expect(pr.distance).toBeCloseTo(3 / Math.SQRT2, 14);
    expect(pr.point[0] + pr.point[1]).toBeCloseTo(3, 14);
    expect(pr.point[2]).toBe(1);
    wall.dispose();
  });

  it('answers as run() on its scene, and in batches as single calls', () => {
    const floor = plane([0, 2, 0], -1, { margin: 0.25 });
    const crate = box([1, 0.5, 2]);
    const poses = new Float64Array([0, 0, 0, 0, 0, 0, 1, 0.3, 0.1, -2, 0.1, 0.2, 0.3, 0.9]);
    const norm = Math.hypot(0.1, 0.2, 0.3, 0.9);
    for (let i = 3; i < 7; i++) poses[7 + i] /= norm;
    const poseB = Array.from(poses.subarray(7));
    for (const q of ['intersect', 'distance', 'penetration'] as const) {
      const fn = { intersect, distance, penetration }[q];
      const single = fn(floor, undefined, crate, poseB);
      expect(run(sceneOf(q, floor, undefined, crate, poseB))).toEqual(single);
      const out = batch(q, [floor, crate], poses, new Uint32Array([0, 1, 1, 0]));
      expect(batchResult(q as 'distance', out, 0)).toEqual(single);
      expect(batchResult(q as 'distance', out, 1)).toEqual(fn(crate, poseB, floor, undefined));
    }
    floor.dispose();
    crate.dispose();
  });

  it('two planes', () => {
    const floor = plane([0, 1, 0], 0);
    const ceiling = plane([0, -1, 0], -3);
    expect(intersect(floor, undefined, ceiling, undefined).intersecting).toBe(false);
    expect(distance(floor, undefined, ceiling, undefined).distance).toBe(3);
    const wall = plane([1, 0, 0], 0);
    expect(intersect(floor, undefined, wall, undefined).intersecting).toBe(true);
    const e = catchError(() => penetration(floor, undefined, wall, undefined));
    expect(e.field).toBe('b');
    expect(e.message).toMatch(/unbounded/);
    floor.dispose();
    ceiling.dispose();
    wall.dispose();
  });

  it('bad planes and queries it does not take name the field', () => {
    expect(catchError(() => plane([0, 0, 0], 1)).field).toBe('normal');
    expect(catchError(() => plane([0, NaN, 0], 1)).field).toBe('normal[1]');
    expect(catchError(() => plane([0, 1, 0], Infinity)).field).toBe('offset');
    expect(catchError(() => plane([0, 1] as unknown as Vec3, 0)).field).toBe('normal');
    const floor = plane([0, 1, 0], 0);
    const b = box([1, 1, 1]);
    expect(catchError(() => sat(floor, undefined, b, undefined)).field).toBe('a.type');
    // The drawing helpers' surfaces: a plane has none.
    expect(catchError(() => shapeSurface({ type: 'plane', normal: [0, 1, 0], offset: 0 })).field).toBe('shape.type');
    expect(catchError(() => minkowskiSurface({ type: 'sphere', radius: 1 }, { type: 'plane', normal: [0, 1, 0], offset: 0 })).field).toBe('b.type');
    expect(catchError(() => run({ version: 1, query: 'chungwang', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }, { type: 'point' }] })).field).toBe('shapes[0].type');
    floor.dispose();
    b.dispose();
  });
});
