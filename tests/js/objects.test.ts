// The object API (web/lib/objects.ts): shape constructors, poses in every accepted form, queries against the
// scene path and analytic answers, traces, batches bit for bit, warm-start caches, disposal, and hostile input.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import * as THREE from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batch, batchLayout, batchResult, box, capsule, chungWang, CollidoscopeError, cone, ConvexShape, createShape, cylinder,
  decodeLink, distance, ellipsoid, encodeLink, hull, init, intersect, IntersectCache, penetration, point, polytope,
  polytopeFromGeometry, raycast, run, sat, sceneOf, segment, shapecast, sphere, stats, trace, triangle,
  type BatchQuery, type PoseLike, type Vec3,
} from '../../web/lib/index';
import { seededRandom } from '../../web/viz/cloud';
import { catchError, randomPose } from './helpers';

beforeAll(async () => {
  await init();
});

const seeded = seededRandom;


/** One shape of every type (and a rounded one), fresh for each test that disposes. */
function everyShape(rand: () => number): ConvexShape[] {
  const r = () => 0.2 + rand();
  const p = (): Vec3 => [rand() - 0.5, rand() - 0.5, rand() - 0.5];
  return [
    point({ margin: 0.1 }), sphere(r()), box([r(), r(), r()]), capsule(r(), r()), cylinder(r(), r()), cone(r(), r()),
    ellipsoid([r(), r(), r()]), segment(p(), p()), triangle(p(), p(), p()),
    polytope(Array.from({ length: 9 }, p)), box([r(), r(), r()], { margin: 0.05 }),
  ];
}

describe('shape constructors', () => {
  it('make the scene-format shape they name', () => {
    expect(sphere(2).spec()).toEqual({ type: 'sphere', radius: 2 });
    expect(box([1, 2, 3], { margin: 0.5 }).spec()).toEqual({ type: 'box', halfExtents: [1, 2, 3], margin: 0.5 });
    expect(capsule(1, 2).spec()).toEqual({ type: 'capsule', radius: 1, halfHeight: 2 });
    expect(cylinder(1, 2).spec()).toMatchObject({ type: 'cylinder', radius: 1, halfHeight: 2 });
    expect(cone(1, 2).spec()).toMatchObject({ type: 'cone', radius: 1, halfHeight: 2 });
    expect(ellipsoid([1, 2, 3]).spec()).toMatchObject({ type: 'ellipsoid', radii: [1, 2, 3] });
    expect(segment([0, 0, 0], [1, 0, 0]).spec()).toMatchObject({ type: 'segment', points: [[0, 0, 0], [1, 0, 0]] });
    expect(triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]).type).toBe('triangle');
    expect(point().spec()).toMatchObject({ type: 'point' });
    expect(createShape({ type: 'capsule', radius: 0.5, halfHeight: 1 }).spec()).toMatchObject({ radius: 0.5, halfHeight: 1 });
  });

  it('build polytopes from triples, flat arrays, Float32Arrays and three.js geometries', () => {
    const corners: Vec3[] = [];
    for (const x of [-1, 1]) for (const y of [-2, 2]) for (const z of [-3, 3]) corners.push([x, y, z]);
    const far: PoseLike = { position: [10, 0, 0] };
    const reference = distance(box([1, 2, 3]), undefined, sphere(1), far);
    for (const shape of [
      polytope(corners), polytope(corners.flat()), polytope(new Float32Array(corners.flat())),
      polytopeFromGeometry(new THREE.BoxGeometry(2, 4, 6)),
      polytopeFromGeometry(new THREE.BoxGeometry(2, 4, 6).toNonIndexed()),
    ]) {
      expect(shape.type).toBe('polytope');
      // The hull of a box's vertices is the box: the same distance (to rounding) as the box shape.
      expect(distance(shape, undefined, sphere(1), far).distance).toBeCloseTo(reference.distance, 12);
      expect(hull(shape).vertices).toHaveLength(8);
    }
    // Interleaved attributes: positions read through getX/getY/getZ.
    const data = new THREE.InterleavedBuffer(new Float32Array(corners.flatMap((c) => [...c, 0, 0, 1])), 6);
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.InterleavedBufferAttribute(data, 3, 0));
    expect(hull(polytopeFromGeometry(g)).vertices).toHaveLength(8);
    // Large polytopes (a precomputed support walk) answer like the hull's vertex set.
    const rand = seeded(5);
    const ball = Array.from({ length: 3000 }, () => {
      const v: Vec3 = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
      const n = Math.hypot(...v);
      return v.map((c) => c / n) as Vec3;
    });
    const big = polytope(ball);
    const small = polytope(hull(ball).vertices);
    const pose: PoseLike = { position: [3, 0.5, 0.2] };
    expect(distance(big, undefined, sphere(0.5), pose).distance).toBeCloseTo(distance(small, undefined, sphere(0.5), pose).distance, 12);
  });
});

describe('queries', () => {
  it('give analytic answers', () => {
    const a = sphere(1);
    const b = box([1, 1, 1]);
    const d = distance(a, { position: [0, 0, 0] }, b, { position: [3, 0, 0] });
    expect(d.distance).toBeCloseTo(1, 12);
    expect(d.pointA[0]).toBeCloseTo(1, 12);
    expect(d.pointB[0]).toBeCloseTo(2, 12);
    expect(intersect(a, undefined, b, [1.5, 0, 0, 0, 0, 0, 1]).intersecting).toBe(true);
    expect(intersect(a, undefined, b, [2.01, 0, 0, 0, 0, 0, 1]).intersecting).toBe(false);
    const p = penetration(a, undefined, b, { position: [1.5, 0, 0] });
    expect(p.depth).toBeCloseTo(0.5, 12);
    expect(p.normal[0]).toBeCloseTo(1, 12);
    const r = raycast(b, { position: [0, 0, 0] }, { origin: [-5, 0.3, 0], direction: [1, 0, 0], maxT: 10 });
    expect(r.t).toBeCloseTo(4, 12);
    expect(r.normal![0]).toBe(-1);
    expect(Math.abs(r.normal![1]) + Math.abs(r.normal![2])).toBe(0);
    expect(raycast(b, undefined, { origin: [-5, 3, 0], direction: [1, 0, 0], maxT: 10 }).hit).toBe(false);
    const c = shapecast(a, undefined, b, { position: [5, 0, 0] }, { translationB: [-4, 0, 0] });
    expect(c.t).toBeCloseTo(0.75, 12);
    const s = sat(b, undefined, b, { position: [1.5, 0.2, 0] });
    expect(s.intersecting).toBe(true);
    expect(s.depth).toBeCloseTo(0.5, 12);
    const cw = chungWang(a, undefined, b, { position: [5, 0, 0] });
    expect(cw.intersecting).toBe(false);
    expect(cw.separatingAxis![0]).toBeGreaterThan(0.5);
    // A rotated box: 45° about z puts a corner at √2 along x.
    const h = Math.SQRT1_2;
    const rot = distance(box([1, 1, 1]), { rotation: [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)] }, sphere(0.5), { position: [3, 0, 0] });
    expect(rot.distance).toBeCloseTo(3 - 2 * h - 0.5, 12);
  });

  it('accept poses as objects, three.js Object3Ds and 7 numbers, all alike', () => {
    const a = box([1, 0.5, 0.25]);
    const b = capsule(0.3, 0.6);
    const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(0.3, -0.7, 1.1));
    const o = new THREE.Object3D();
    o.position.set(1.2, 0.4, -0.3);
    o.quaternion.copy(q);
    const arr = [1.2, 0.4, -0.3, q.x, q.y, q.z, q.w];
    const expected = penetration(a, undefined, b, { position: [1.2, 0.4, -0.3], rotation: [q.x, q.y, q.z, q.w] });
    for (const pose of [o, arr, new Float64Array(arr), { position: o.position, quaternion: o.quaternion }, { position: o.position, rotation: q }]) {
      expect(penetration(a, undefined, b, pose as PoseLike)).toEqual(expected);
    }
    // Float32 poses are the same numbers rounded to float: equal to the query with those doubles.
    const f32 = new Float32Array(arr);
    expect(penetration(a, undefined, b, f32)).toEqual(penetration(a, undefined, b, Array.from(f32)));
  });

  it('equal run() on the scene of the query, for every query and shape type', () => {
    const rand = seeded(11);
    const shapes = everyShape(rand);
    const vertexShapes = shapes.filter((s) => !['cylinder', 'cone', 'ellipsoid'].includes(s.type));
    let compared = 0;
    for (let i = 0; i < 300; i++) {
      const list = i % 7 === 4 ? vertexShapes : shapes;
      const a = list[Math.floor(rand() * list.length)];
      const b = list[Math.floor(rand() * list.length)];
      const pa = randomPose(rand, 3);
      const pb = randomPose(rand, 3);
      const results: [string, unknown, unknown][] = [];
      switch (i % 7) {
        case 0: results.push(['intersect', intersect(a, pa, b, pb), run(sceneOf('intersect', a, pa, b, pb))]); break;
        case 1: results.push(['distance', distance(a, pa, b, pb), run(sceneOf('distance', a, pa, b, pb))]); break;
        case 2: results.push(['penetration', penetration(a, pa, b, pb), run(sceneOf('penetration', a, pa, b, pb))]); break;
        case 3: results.push(['chungwang', chungWang(a, pa, b, pb), run(sceneOf('chungwang', a, pa, b, pb))]); break;
        case 4: results.push(['sat', sat(a, pa, b, pb), run(sceneOf('sat', a, pa, b, pb))]); break;
        case 5: {
          const ray = { origin: [rand() * 8 - 4, rand() * 8 - 4, rand() * 8 - 4] as Vec3, direction: [rand() - 0.5, rand() - 0.5, rand() - 0.5] as Vec3, maxT: 20 };
          results.push(['raycast', raycast(a, pa, ray), run(sceneOf('raycast', a, pa, ray))]);
          break;
        }
        default: {
          const motion = { translationA: [rand() * 4 - 2, 0, 1] as Vec3, translationB: [-1, rand() * 4 - 2, 0] as Vec3 };
          results.push(['shapecast', shapecast(a, pa, b, pb, motion), run(sceneOf('shapecast', a, pa, b, pb, motion))]);
        }
      }
      for (const [name, api, scene] of results) {
        expect(api, `${name} ${a.type}/${b.type}`).toEqual(scene);
        compared++;
      }
    }
    expect(compared).toBe(300);
  });

  it('return the trace on request, ending with the same result', () => {
    const a = cylinder(0.5, 1);
    const b = box([0.4, 0.4, 0.4]);
    const pb: PoseLike = { position: [0.6, 0.3, 0.1] };
    const t = penetration(a, undefined, b, pb, { trace: true });
    expect(t.query).toBe('penetration');
    expect(t.result).toEqual(penetration(a, undefined, b, pb));
    expect(trace(sceneOf('penetration', a, undefined, b, pb))).toEqual(t);
    const g = distance(a, undefined, b, { position: [3, 0, 0] }, { trace: true });
    expect(g.frames.length).toBeGreaterThan(1);
    expect(g.result).toEqual(distance(a, undefined, b, { position: [3, 0, 0] }));
    const r = raycast(b, undefined, { origin: [-3, 0, 0], direction: [1, 0, 0], maxT: 10 }, { trace: true });
    expect(r.result.t).toBeCloseTo(2.6, 12);
    // Hulls too: of a shape at a pose, or of points.
    const cloud: Vec3[] = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.2, 0.2, 0.2]];
    const ht = hull(cloud, undefined, { trace: true });
    expect(ht.query).toBe('hull');
    expect(ht.result).toEqual(hull(cloud));
    expect(hull(box([1, 1, 1]), { position: [5, 0, 0] }, { trace: true }).result).toEqual(hull(box([1, 1, 1]), { position: [5, 0, 0] }));
    expect(catchError(() => hull(cloud, { position: [1, 0, 0] })).field).toBe('pose');
    // And the scene reopens from a permalink with the same answer.
    const link = encodeLink(sceneOf('penetration', a, undefined, b, pb));
    expect(run(decodeLink(link))).toEqual(t.result);
  });

  it('warm-start intersect from a cache: fewer iterations, same answers', () => {
    // A ball beside a long bar: the first direction (centre to centre) does not separate them, the cached one does.
    // (An ellipsoid: a sphere against a box is answered by a closed form, which needs no warm start.)
    const a = box([3, 0.2, 0.2]);
    const b = ellipsoid([0.5, 0.5, 0.5]);
    const cache = new IntersectCache();
    let cold = 0;
    let warm = 0;
    for (let f = 0; f < 200; f++) {
      const pb: PoseLike = { position: [2.5 + 0.1 * Math.sin(f / 10), 1 + 0.05 * Math.cos(f / 7), 0] };
      const c = intersect(a, undefined, b, pb);
      const w = intersect(a, undefined, b, pb, { cache });
      expect(c.intersecting).toBe(false);
      expect(w.intersecting).toBe(false);
      cold += c.iterations;
      warm += w.iterations;
    }
    expect(warm).toBeLessThan(cold / 2);
    expect(cache.data[3]).toBe(1);
    cache.reset();
    expect(Array.from(cache.data)).toEqual([0, 0, 0, 0]);
  });
});

describe('batch', () => {
  // contact's batches are checked in contact.test.ts, contains' and project's in point-query.test.ts.
  const queries: Exclude<BatchQuery, 'contact' | 'contains' | 'project'>[] = ['intersect', 'distance', 'penetration', 'chungwang', 'sat', 'raycast', 'shapecast'];

  it.each(queries)('%s: each pair bit for bit as the single query, with Float64 and Float32 poses', (q) => {
    const rand = seeded(queries.indexOf(q) + 100);
    const all = everyShape(rand);
    const shapes = q === 'sat' ? all.filter((s) => !['cylinder', 'cone', 'ellipsoid'].includes(s.type)) : all;
    const n = 400;
    const poses64 = new Float64Array(shapes.flatMap(() => randomPose(rand, 3)));
    const per = q === 'raycast' ? 1 : 2;
    const pairs = new Uint32Array(per * n).map((_, i) => (i % 17 === 0 ? 0 : Math.floor(rand() * shapes.length)));
    const rays = new Float64Array(7 * n).map((_, i) => (i % 7 === 6 ? 5 : (rand() - 0.5) * 6));
    const motions = new Float64Array(6 * n).map(() => (rand() - 0.5) * 4);
    const extra = q === 'raycast' ? { rays } : q === 'shapecast' ? { motions } : {};
    const { stride, fields } = batchLayout(q);
    expect(fields[fields.length - 1]).toBe('status');
    for (const poses of [poses64, new Float32Array(poses64)]) {
      const out = batch(q, shapes, poses, pairs, extra);
      expect(out).toHaveLength(stride * n);
      const asDoubles = Array.from(poses);
      const pose = (k: number) => asDoubles.slice(7 * k, 7 * k + 7);
      for (let i = 0; i < n; i++) {
        const a = shapes[pairs[per * i]];
        const pa = pose(pairs[per * i]);
        const b = shapes[pairs[per * i + per - 1]];
        const pb = pose(pairs[per * i + per - 1]);
        let single: unknown;
        if (q === 'raycast') {
          const r = rays.slice(7 * i, 7 * i + 7);
          single = raycast(a, pa, { origin: [r[0], r[1], r[2]], direction: [r[3], r[4], r[5]], maxT: r[6] });
        } else if (q === 'shapecast') {
          const m = motions.slice(6 * i, 6 * i + 6);
          single = shapecast(a, pa, b, pb, { translationA: [m[0], m[1], m[2]], translationB: [m[3], m[4], m[5]] });
        } else {
          const f = { intersect, distance, penetration, chungwang: chungWang, sat }[q];
          single = f(a, pa, b, pb);
        }
        expect(batchResult(q as 'distance', out, i)).toEqual(single);
      }
    }
  });

  it('updates per-pair warm-start caches exactly as single intersect calls do', () => {
    const rand = seeded(7);
    const shapes = everyShape(rand);
    const n = 300;
    const pairs = new Uint32Array(2 * n).map(() => Math.floor(rand() * shapes.length));
    const poses = new Float64Array(shapes.flatMap(() => randomPose(rand, 2.5)));
    const caches = new Float64Array(4 * n);
    const singles = Array.from({ length: n }, () => new IntersectCache());
    for (let round = 0; round < 2; round++) {
      const out = batch('intersect', shapes, poses, pairs, { caches });
      for (let i = 0; i < n; i++) {
        const single = intersect(shapes[pairs[2 * i]], Array.from(poses.slice(7 * pairs[2 * i], 7 * pairs[2 * i] + 7)),
          shapes[pairs[2 * i + 1]], Array.from(poses.slice(7 * pairs[2 * i + 1], 7 * pairs[2 * i + 1] + 7)), { cache: singles[i] });
        expect(batchResult('intersect', out, i)).toEqual(single);
        expect(Array.from(caches.slice(4 * i, 4 * i + 4))).toEqual(Array.from(singles[i].data));
      }
    }
  });

  it('writes into a given output array and checks every argument', () => {
    const a = sphere(1);
    const b = box([1, 1, 1]);
    const poses = new Float64Array([0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 1]);
    const out = new Float64Array(9);
    expect(batch('distance', [a, b], poses, [0, 1], { out })).toBe(out);
    expect(out[0]).toBeCloseTo(1, 12);
    const cases: [() => unknown, string, string | null][] = [
      [() => batch('distance', [a, b], poses.subarray(0, 10), [0, 1]), 'invalid-argument', 'poses'],
      [() => batch('distance', [a, b], poses, [0, 2]), 'invalid-argument', 'pairs[1]'],
      [() => batch('distance', [a, b], poses, [0, 1, 1]), 'invalid-argument', 'pairs'],
      [() => batch('distance', [a, b], poses, [0, -1]), 'invalid-argument', 'pairs[1]'],
      [() => batch('distance', [a, b], poses, [0, 0.5]), 'invalid-argument', 'pairs[1]'],
      [() => batch('distance', [a, b], new Float64Array([0, 0, 0, 0, 0, 0, 1, NaN, 0, 0, 0, 0, 0, 1]), [0, 1]), 'invalid-argument', 'poses[1][0]'],
      [() => batch('raycast', [a], poses.subarray(0, 7), [0]), 'invalid-argument', 'options.rays'],
      [() => batch('distance', [a, b], poses, [0, 1], { out: new Float64Array(3) }), 'invalid-argument', 'options.out'],
      [() => batch('distance', [a, b], poses, [0, 1], { caches: new Float64Array(4) }), 'invalid-argument', 'options.caches'],
      [() => batch('nearest' as BatchQuery, [a, b], poses, [0, 1]), 'invalid-argument', 'query'],
      [() => batch('distance', [a, {} as ConvexShape], poses, [0, 1]), 'invalid-argument', 'shapes[1]'],
    ];
    for (const [f, code, field] of cases) {
      const e = catchError(f);
      expect(e.code, e.message).toBe(code);
      expect(e.field, e.message).toBe(field);
    }
  });
});

describe('disposal', () => {
  it('frees the shape; using it afterwards throws "disposed"; dispose is idempotent', () => {
    const before = stats().liveShapes;
    const a = sphere(1);
    const b = box([1, 1, 1]);
    expect(stats().liveShapes).toBe(before + 2);
    a.dispose();
    a.dispose();
    expect(a.disposed).toBe(true);
    expect(stats().liveShapes).toBe(before + 1);
    const e = catchError(() => distance(b, undefined, a, undefined));
    expect(e.code).toBe('disposed');
    expect(e.field).toBe('b');
    expect(catchError(() => a.spec()).code).toBe('disposed');
    expect(catchError(() => batch('intersect', [b, a], new Float64Array(14), [0, 1])).field).toBe('shapes[1]');
    b.dispose();
    expect(stats().liveShapes).toBe(before);
  });

  it('supports `using`', () => {
    const before = stats().liveShapes;
    let escaped: ConvexShape;
    {
      using s = sphere(1);
      escaped = s;
      expect(stats().liveShapes).toBe(before + 1);
    }
    expect(escaped.disposed).toBe(true);
    expect(stats().liveShapes).toBe(before);
  });

  it('frees forgotten shapes when they are garbage-collected (FinalizationRegistry)', () => {
    const script = `
      import { init, sphere, polytope, stats } from ${JSON.stringify(path.resolve('web/dist/lib/index.mjs'))};
      await init();
      const base = stats().liveShapes;
      (() => { for (let i = 0; i < 2000; i++) (i % 2 ? sphere(1) : polytope([[0,0,0],[1,0,0],[0,1,0],[0,0,1]])); })();
      const made = stats().liveShapes - base;
      for (let i = 0; i < 50 && stats().liveShapes > base; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 20)); }
      console.log(JSON.stringify({ made, left: stats().liveShapes - base }));
    `;
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const { made, left } = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(made).toBe(2000);
    expect(left).toBe(0);
  });
});

describe('memory', () => {
  it('does not grow over 100 000 create/dispose cycles and 1 000 000 queries after warm-up', () => {
    const warm = () => {
      const s = [sphere(1), box([1, 1, 1]), polytope([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]), capsule(0.5, 1)];
      for (const x of s) x.dispose();
    };
    const a = box([1, 0.5, 0.5]);
    const b = capsule(0.3, 0.7);
    for (let i = 0; i < 100; i++) warm();
    const pa = new Float64Array([0, 0, 0, 0, 0, 0, 1]);
    const pb = new Float64Array([1.1, 0.2, 0, 0, 0, 0, 1]);
    for (let i = 0; i < 1000; i++) penetration(a, pa, b, pb);
    const before = stats();
    for (let i = 0; i < 25_000; i++) warm(); // 100 000 shapes made and disposed
    const cache = new IntersectCache();
    for (let i = 0; i < 1_000_000; i++) {
      pb[0] = 1 + (i % 100) / 50;
      if (i % 4 === 0) intersect(a, pa, b, pb, { cache });
      else if (i % 4 === 1) distance(a, pa, b, pb);
      else if (i % 4 === 2) penetration(a, pa, b, pb);
      else raycast(a, pa, { origin: [-3, 0, 0], direction: [1, 0, 0], maxT: 10 });
    }
    const after = stats();
    expect(after.memoryBytes).toBe(before.memoryBytes);
    expect(after.heapBytes).toBe(before.heapBytes);
    expect(after.liveShapes).toBe(before.liveShapes);
    a.dispose();
    b.dispose();
  }, 120_000);
});

describe('hostile input', () => {
  it('answers each bad argument with a CollidoscopeError naming it, and keeps working', () => {
    const a = sphere(1);
    const b = box([1, 1, 1]);
    const cases: [string, () => unknown, string, string | null][] = [
      ['NaN radius', () => sphere(NaN), 'invalid-argument', 'radius'],
      ['infinite radius', () => sphere(Infinity), 'invalid-argument', 'radius'],
      ['negative half extent', () => box([1, -1, 1]), 'invalid-argument', 'halfExtents[1]'],
      ['huge size', () => box([1e16, 1, 1]), 'invalid-argument', 'halfExtents[0]'],
      ['string radius', () => sphere('1' as unknown as number), 'invalid-argument', 'radius'],
      ['missing half extents', () => box(undefined as unknown as Vec3), 'invalid-argument', 'halfExtents'],
      ['two half extents', () => box([1, 1] as unknown as Vec3), 'invalid-argument', 'halfExtents'],
      ['NaN margin', () => sphere(1, { margin: NaN }), 'invalid-argument', 'margin'],
      ['unknown option', () => sphere(1, { radius: 2 } as never), 'invalid-argument', 'options.radius'],
      ['empty polytope', () => polytope([]), 'invalid-argument', 'points'],
      ['polytope of 4 numbers', () => polytope([1, 2, 3, 4]), 'invalid-argument', 'points'],
      ['NaN point', () => polytope(new Float32Array([0, 0, 0, NaN, 1, 1])), 'invalid-argument', 'points[1]'],
      ['point of 2', () => polytope([[0, 0, 0], [1, 1] as unknown as Vec3]), 'invalid-argument', 'points[1]'],
      ['too many points', () => polytope(new Float64Array(3 * 1_000_001)), 'invalid-argument', 'points'],
      ['not points', () => polytope(42 as never), 'invalid-argument', 'points'],
      ['geometry without positions', () => polytopeFromGeometry(new THREE.BufferGeometry()), 'invalid-argument', 'geometry.attributes.position'],
      ['shape with a pose', () => createShape({ type: 'sphere', radius: 1, position: [0, 0, 0] }), 'invalid-argument', 'position'],
      ['unknown shape type', () => createShape({ type: 'torus' } as never), 'invalid-argument', 'type'],
      ['null shape', () => createShape(null as never), 'invalid-argument', 'shape'],
      ['NaN position', () => distance(a, { position: [NaN, 0, 0] }, b, undefined), 'invalid-argument', 'poseA[0]'],
      ['infinite rotation', () => distance(a, undefined, b, { rotation: [0, 0, Infinity, 1] }), 'invalid-argument', 'poseB[5]'],
      ['zero rotation', () => distance(a, undefined, b, { rotation: [0, 0, 0, 0] }), 'invalid-argument', 'poseB[3..6]'],
      ['huge position', () => intersect(a, [1e300, 0, 0, 0, 0, 0, 1], b, undefined), 'invalid-argument', 'poseA[0]'],
      ['pose of 6 numbers', () => distance(a, [0, 0, 0, 0, 0, 1], b, undefined), 'invalid-argument', 'poseA'],
      ['string pose', () => distance(a, 'origin' as never, b, undefined), 'invalid-argument', 'poseA'],
      ['string coordinate', () => distance(a, { position: ['1', 0, 0] as never }, b, undefined), 'invalid-argument', 'poseA.position[0]'],
      ['vector of 2', () => distance(a, { position: [1, 0] as never }, b, undefined), 'invalid-argument', 'poseA.position'],
      ['not a shape', () => distance({ type: 'sphere', radius: 1 } as never, undefined, b, undefined), 'invalid-argument', 'a'],
      ['zero ray direction', () => raycast(a, undefined, { origin: [0, 0, 0], direction: [0, 0, 0] }), 'invalid-argument', 'ray.direction'],
      ['negative maxT', () => raycast(a, undefined, { origin: [0, 0, 0], direction: [1, 0, 0], maxT: -1 }), 'invalid-argument', 'ray.maxT'],
      ['NaN maxT', () => raycast(a, undefined, { origin: [0, 0, 0], direction: [1, 0, 0], maxT: NaN }), 'invalid-argument', 'ray[6]'],
      ['missing ray', () => raycast(a, undefined, undefined as never), 'invalid-argument', 'ray'],
      ['unknown ray field', () => raycast(a, undefined, { origin: [0, 0, 0], direction: [1, 0, 0], length: 2 } as never), 'invalid-argument', 'options.length'],
      ['infinite motion', () => shapecast(a, undefined, b, undefined, { translationB: [0, -Infinity, 0] }), 'invalid-argument', 'motion[4]'],
      ['sat on a cone', () => sat(cone(1, 1), undefined, b, undefined), 'invalid-argument', 'a.type'],
      ['unknown option', () => distance(a, undefined, b, undefined, { cache: new IntersectCache() } as never), 'invalid-argument', 'options.cache'],
      ['bad cache', () => intersect(a, undefined, b, undefined, { cache: new Float64Array(4) } as never), 'invalid-argument', 'options.cache'],
      ['unknown sceneOf query', () => sceneOf('nearest' as never, a, undefined, b, undefined), 'invalid-argument', 'query'],
    ];
    for (const [name, f, code, field] of cases) {
      const e = catchError(f);
      expect(e.code, `${name}: ${e.message}`).toBe(code);
      expect(e.field, `${name}: ${e.message}`).toBe(field);
      expect(e.message.length, name).toBeGreaterThan(10);
    }
    // Still working afterwards.
    expect(distance(a, undefined, b, { position: [3, 0, 0] }).distance).toBeCloseTo(1, 12);
  });
});
