// contains() and project(): a shape and a point. Checked against answers computed by hand (a rotated box, a
// sphere), against intersect(), distance() and penetration() with a point shape (the queries they are defined by;
// inside cylinders and cones project() has its own closed form, and EPA converges only to ~1e-6 there), against
// run() on the scene sceneOf() gives (the same bits), in batch() against the single call, and on bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batch, batchLayout, batchResult, box, capsule, cone, ConvexShape, createBatch, cylinder, distance, ellipsoid, init,
  intersect, penetration, point, polytope, project, contains, run, sceneOf, sphere, type Vec3,
} from '../../web/lib/index';
import { seededRandom } from '../../web/viz/cloud';
import { catchError } from './helpers';

beforeAll(async () => {
  await init();
});

const close = (a: number, b: number, tol = 1e-9) => expect(Math.abs(a - b)).toBeLessThanOrEqual(tol);

describe('contains and project by hand', () => {
  it('a box rotated 90° about y, from outside and inside', () => {
    // Rotated 90° about y, half extents [1, 2, 3] become [3, 2, 1] along world x, y, z.
    const s = Math.SQRT1_2;
    const pose = { position: [10, 0, 0] as Vec3, rotation: [0, s, 0, s] as [number, number, number, number] };
    const b = box([1, 2, 3]);
    const out = project(b, pose, [14, 0, 0]);
    expect(out.inside).toBe(false);
    close(out.distance, 1);
    close(out.point[0], 13);
    expect(contains(b, pose, [14, 0, 0]).inside).toBe(false);
    const inside = project(b, pose, [10.5, 0, 0.25]);
    expect(inside.inside).toBe(true);
    close(inside.distance, 0.75); // the face z = 1 is nearest (x: 2.5, y: 2)
    close(inside.point[2], 1);
    expect(contains(b, pose, [10.5, 0, 0.25]).inside).toBe(true);
    b.dispose();
  });

  it('names the feature the point lies on: box corners by index, polytope faces by all their points, capsule caps', () => {
    const b = box([1, 2, 3]);
    expect(project(b, undefined, [2, 3, 4]).feature).toEqual({ kind: 'vertex', vertices: [7] });
    expect(project(b, undefined, [2, 0, -4]).feature).toEqual({ kind: 'edge', vertices: [1, 3] });
    expect(project(b, undefined, [0, 0.5, 2.9]).feature).toEqual({ kind: 'face', vertices: [4, 5, 6, 7] });
    // A square pyramid with a fifth point in the middle of its base: the base lists all five.
    const pyramid = polytope([[-1, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1], [0, 0, 0], [0, 2, 0]]);
    expect(project(pyramid, undefined, [0.2, -1, 0.3]).feature).toEqual({ kind: 'face', vertices: [0, 1, 2, 3, 4] });
    expect(project(pyramid, undefined, [0, 3, 0]).feature).toEqual({ kind: 'vertex', vertices: [5] });
    const c = capsule(0.5, 1);
    expect(project(c, { position: [0, 10, 0] }, [0, 12, 0]).feature).toEqual({ kind: 'cap', vertices: [1] });
    expect(project(c, undefined, [3, 0.2, 0]).feature).toEqual({ kind: 'side', vertices: [0, 1] });
    expect(project(cylinder(1, 2), undefined, [2, -3, 0]).feature).toEqual({ kind: 'rim', vertices: [0] });
    expect(project(cone(1, 2), undefined, [0, 3, 0]).feature).toEqual({ kind: 'apex', vertices: [1] });
    expect(project(sphere(1), undefined, [0, 3, 0]).feature).toEqual({ kind: 'surface', vertices: [] });
    for (const s of [b, pyramid, c]) s.dispose();
  });

  it('the boundary counts as inside', () => {
    const b = sphere(2);
    expect(contains(b, undefined, [0, 2, 0]).inside).toBe(true);
    expect(contains(b, undefined, { x: 0, y: 2.000001, z: 0 }).inside).toBe(false);
    const p = project(b, undefined, [0, 2, 0]);
    expect(p.inside).toBe(true);
    expect(p.distance).toBe(0);
    b.dispose();
  });
});

function randomPose(rand: () => number, spread: number): number[] {
  const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
  const n = Math.hypot(...q);
  return [(rand() - 0.5) * spread, (rand() - 0.5) * spread, (rand() - 0.5) * spread, ...q.map((c) => c / n)];
}

function everyShape(rand: () => number): ConvexShape[] {
  const r = () => 0.3 + rand();
  const p = (): Vec3 => [rand() - 0.5, rand() - 0.5, rand() - 0.5];
  return [
    sphere(r()), box([r(), r(), r()]), capsule(r(), r()), cylinder(r(), r()), cone(r(), r()), ellipsoid([r(), r(), r()]),
    polytope(Array.from({ length: 9 }, p)), box([r(), r(), r()], { margin: 0.05 }),
  ];
}

describe('against the pair queries with a point', () => {
  it('contains is intersect with a point; project is distance outside and penetration inside', () => {
    const rand = seededRandom(1818);
    const shapes = everyShape(rand);
    const dot = point();
    let inside = 0;
    for (let i = 0; i < 200; i++) {
      const s = shapes[i % shapes.length];
      const pose = randomPose(rand, 1);
      // Half the points near the shape's origin (mostly inside), half anywhere around it.
      const spread = i % 2 === 0 ? 0.5 : 4;
      const q: Vec3 = [pose[0] + (rand() - 0.5) * spread, pose[1] + (rand() - 0.5) * spread, pose[2] + (rand() - 0.5) * spread];
      const at = [...q, 0, 0, 0, 1];
      const c = contains(s, pose, q);
      const p = project(s, pose, q);
      expect(c.inside).toBe(intersect(s, pose, dot, at).intersecting);
      expect(p.inside).toBe(c.inside);
      if (p.inside) {
        inside++;
        // Inside cylinders and cones project() has a closed form; EPA's answer agrees to its accuracy.
        const pen = penetration(s, pose, dot, at);
        for (let k = 0; k < 3; k++) close(p.point[k], pen.pointA[k], 1e-5);
        close(p.distance, pen.depth, 1e-6);
      } else {
        const d = distance(s, pose, dot, at);
        close(p.distance, d.distance);
        expect(p.point).toEqual(d.pointA);
      }
      // run() on the scene of the query: the same bits.
      expect(run(sceneOf('project', s, pose, q))).toEqual(p);
      expect(run(sceneOf('contains', s, pose, q))).toEqual(c);
    }
    expect(inside).toBeGreaterThan(50);
    expect(inside).toBeLessThan(180);
    for (const s of shapes) s.dispose();
    dot.dispose();
  });
});

describe('batches', () => {
  it('answer as the single calls, bit for bit', () => {
    const rand = seededRandom(1819);
    const shapes = everyShape(rand);
    const poses = new Float64Array(shapes.flatMap(() => randomPose(rand, 2)));
    const n = 100;
    const indices = new Uint32Array(n).map((_, i) => i % shapes.length);
    const points = new Float64Array(3 * n).map(() => (rand() - 0.5) * 4);
    for (const q of ['contains', 'project'] as const) {
      const out = batch(q, shapes, poses, indices, { points });
      const { stride } = batchLayout(q);
      expect(out.length).toBe(stride * n);
      for (let i = 0; i < n; i++) {
        const k = indices[i];
        const pose = Array.from(poses.subarray(7 * k, 7 * k + 7));
        const pt = Array.from(points.subarray(3 * i, 3 * i + 3)) as Vec3;
        // A batch's layout has no room for project's feature (toEqual ignores the undefined key).
        const single = q === 'contains' ? contains(shapes[k], pose, pt) : { ...project(shapes[k], pose, pt), feature: undefined };
        expect(batchResult(q as 'project', out, i)).toEqual(single);
      }
    }
    for (const s of shapes) s.dispose();
  });

  it('in place (createBatch): the same bits as batch()', () => {
    const rand = seededRandom(1820);
    const shapes = everyShape(rand);
    const poses = new Float64Array(shapes.flatMap(() => randomPose(rand, 2)));
    const n = 64;
    const indices = new Uint32Array(n).map((_, i) => (i * 5) % shapes.length);
    const points = new Float64Array(3 * n).map(() => (rand() - 0.5) * 3);
    for (const q of ['contains', 'project'] as const) {
      const b = createBatch(q, shapes, { capacity: 2 * n });
      b.poses.set(poses);
      b.pairs.set(indices);
      b.points.set(points);
      const out = b.run(n);
      expect(Array.from(out)).toEqual(Array.from(batch(q, shapes, poses, indices, { points })));
      b.dispose();
    }
    for (const s of shapes) s.dispose();
  });

  it('name a bad point list', () => {
    const s = sphere(1);
    const poses = [0, 0, 0, 0, 0, 0, 1];
    expect(catchError(() => batch('project', [s], poses, [0])).field).toBe('options.points');
    expect(catchError(() => batch('project', [s], poses, [0], { points: [1, 2] })).field).toBe('options.points');
    expect(catchError(() => batch('project', [s], poses, [0], { points: [1, NaN, 2] })).field).toBe('points[0][1]');
    expect(catchError(() => batch('contains', [s], poses, [0], { rays: [0, 0, 0, 1, 0, 0, 1], points: [0, 0, 0] })).field).toBe('options.rays');
    expect(catchError(() => batch('distance', [s, s], poses.concat(poses), [0, 1], { points: [0, 0, 0] })).field).toBe('options.points');
    const b = createBatch('contains', [s], { capacity: 4 });
    expect(catchError(() => b.motions).field).toBe('motions');
    b.points.set([0, 1, Infinity]);
    expect(catchError(() => b.run(1)).field).toBe('points[0][2]');
    b.dispose();
    s.dispose();
  });
});

describe('bad input', () => {
  it('names the field', () => {
    const s = sphere(1);
    expect(catchError(() => project(s, undefined, [1, 2] as unknown as Vec3)).field).toBe('point');
    expect(catchError(() => project(s, undefined, [1, NaN, 2])).field).toBe('point[1]');
    expect(catchError(() => contains(s, undefined, [1, 2e15, 2])).field).toBe('point[1]');
    expect(catchError(() => contains(s, undefined, null as unknown as Vec3)).field).toBe('point');
    expect(catchError(() => contains(s, undefined, { x: 1, y: 2, w: 3 } as unknown as Vec3)).field).toBe('point.w');
    expect(catchError(() => contains(s, undefined, { x: 1, y: '2', z: 3 } as unknown as Vec3)).field).toBe('point.y');
    expect(catchError(() => run({ version: 1, query: 'project', shapes: [{ type: 'sphere', radius: 1 }] })).field).toBe('point');
    s.dispose();
  });
});
