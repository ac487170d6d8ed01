// contact(): one contact within a margin, or null. Checked against the queries that define it (distance() for
// pairs apart, penetration() for overlapping ones, the same bits), against sphere pairs computed by hand, on
// touching pairs, margin 0 and a huge margin, on bad margins, and in batch() and createBatch() against the single
// call bit for bit.
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  batch, batchLayout, batchResult, box, capsule, contact, ConvexShape, createBatch, distance, ellipsoid, init,
  penetration, polytope, setTolerance, sphere, type ContactResult, type Vec3,
} from '../../web/lib/index';
import { seededRandom } from '../../web/viz/cloud';
import { catchError, everyConvexShape as everyShape, randomPose } from './helpers';

beforeAll(async () => {
  await init();
});

/** contact() as its definition reads: from distance() and penetration() on the same pair. */
function definition(a: ConvexShape, pa: number[], b: ConvexShape, pb: number[], margin: number): ContactResult | null {
  const d = distance(a, pa, b, pb);
  if (d.distance > margin) return null;
  const p = penetration(a, pa, b, pb);
  if (d.distance > 0) return { distance: d.distance, normal: p.normal, pointA: d.pointA, pointB: d.pointB, iterations: 0, status: 'converged' };
  return { distance: p.depth > 0 ? -p.depth : 0, normal: p.normal, pointA: p.pointA, pointB: p.pointB, iterations: 0, status: p.status };
}

/** The geometric fields of a contact (iterations and status are the query's own). */
const geometry = (c: ContactResult | null) => (c === null ? null : { distance: c.distance, normal: c.normal, pointA: c.pointA, pointB: c.pointB });

describe('contact', () => {
  it('is null exactly when distance() > margin, else distance()/penetration() bit for bit, on every shape type', () => {
    const rand = seededRandom(1701);
    const shapes = everyShape(rand);
    const seen = { none: 0, apart: 0, overlapping: 0 };
    for (const a of shapes) {
      for (const b of shapes) {
        for (let k = 0; k < 8; k++) {
          const pa = randomPose(rand, 4);
          const pb = randomPose(rand, 4);
          const margin = k % 4 === 0 ? 0 : 2 * rand();
          const c = contact(a, pa, b, pb, { margin });
          const want = definition(a, pa, b, pb, margin);
          expect(geometry(c), `${a.type} ${b.type} margin ${margin}`).toEqual(geometry(want));
          if (c === null) seen.none++;
          else if (c.distance > 0) seen.apart++;
          else seen.overlapping++;
          if (c !== null) expect(Math.hypot(...c.normal)).toBeCloseTo(1, 12);
        }
      }
    }
    expect(seen.none).toBeGreaterThan(100);
    expect(seen.apart).toBeGreaterThan(100);
    expect(seen.overlapping).toBeGreaterThan(100);
  });

  it('follows setTolerance() as distance() and penetration() do', () => {
    const rand = seededRandom(1708);
    const shapes = everyShape(rand);
    setTolerance(1e-4);
    try {
      for (let k = 0; k < 300; k++) {
        const a = shapes[Math.floor(rand() * shapes.length)], b = shapes[Math.floor(rand() * shapes.length)];
        const pa = randomPose(rand, 3), pb = randomPose(rand, 3);
        expect(geometry(contact(a, pa, b, pb, { margin: 0.5 }))).toEqual(geometry(definition(a, pa, b, pb, 0.5)));
      }
    } finally {
      setTolerance();
    }
  });

  it('gives the signed distance, normal and points of two spheres computed by hand', () => {
    const rand = seededRandom(1702);
    for (let k = 0; k < 300; k++) {
      const ra = 0.1 + 2 * rand(), rb = 0.1 + 2 * rand();
      using a = sphere(ra);
      using b = sphere(rb);
      const ca: Vec3 = [4 * rand() - 2, 4 * rand() - 2, 4 * rand() - 2];
      const cb: Vec3 = [4 * rand() - 2, 4 * rand() - 2, 4 * rand() - 2];
      const margin = rand();
      const len = Math.hypot(cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]);
      const signed = len - ra - rb;
      if (Math.abs(signed - margin) < 1e-12) continue;
      const c = contact(a, { position: ca }, b, { position: cb }, { margin });
      if (signed > margin) {
        expect(c).toBeNull();
        continue;
      }
      expect(c).not.toBeNull();
      const n = [0, 1, 2].map((i) => (cb[i] - ca[i]) / len);
      expect(c!.distance).toBeCloseTo(signed, 12);
      for (let i = 0; i < 3; i++) {
        expect(c!.normal[i]).toBeCloseTo(n[i], 12);
        expect(c!.pointA[i]).toBeCloseTo(ca[i] + ra * n[i], 12);
        expect(c!.pointB[i]).toBeCloseTo(cb[i] - rb * n[i], 12);
      }
    }
  });

  it('reports touching pairs at margin 0 with distance +0, and a gap only within the margin', () => {
    using b1 = box([1, 1, 1]);
    using s = sphere(0.5);
    using c1 = capsule(0.5, 1);
    const cases: [ConvexShape, ConvexShape, number][] = [[b1, b1, 2], [b1, s, 1.5], [s, s, 1], [c1, c1, 1], [b1, c1, 1.5]];
    for (const [a, b, x] of cases) {
      const t = contact(a, undefined, b, { position: [x, 0, 0] });
      expect(t, `${a.type}-${b.type} touching`).not.toBeNull();
      expect(Object.is(t!.distance, 0)).toBe(true);
      expect(t!.normal[0]).toBeCloseTo(1, 12);
      expect(contact(a, undefined, b, { position: [x + 1e-6, 0, 0] })).toBeNull();
      expect(contact(a, undefined, b, { position: [x + 1e-6, 0, 0] }, { margin: 0 })).toBeNull();
      const near = contact(a, undefined, b, { position: [x + 1e-6, 0, 0] }, { margin: 2e-6 });
      expect(near!.distance).toBeCloseTo(1e-6, 12);
      // Overlapping by 0.25: distance −0.25 along +x.
      const deep = contact(a, undefined, b, { position: [x - 0.25, 0, 0] });
      expect(deep!.distance).toBeCloseTo(-0.25, 12);
    }
  });

  it('with a huge margin, answers every pair (and still by the definition)', () => {
    const rand = seededRandom(1703);
    const shapes = everyShape(rand);
    for (let k = 0; k < 200; k++) {
      const a = shapes[Math.floor(rand() * shapes.length)];
      const b = shapes[Math.floor(rand() * shapes.length)];
      const pa = randomPose(rand, 100), pb = randomPose(rand, 100);
      const c = contact(a, pa, b, pb, { margin: 1e6 });
      expect(c).not.toBeNull();
      expect(geometry(c)).toEqual(geometry(definition(a, pa, b, pb, 1e6)));
      expect(contact(a, pa, b, pb, { margin: 1e300 })).not.toBeNull();
    }
  });

  it('stops early on pairs beyond the margin: fewer GJK steps than distance()', () => {
    const rand = seededRandom(1704);
    let contactSteps = 0, distanceSteps = 0;
    using a = polytope(Array.from({ length: 40 }, (): Vec3 => [rand() - 0.5, rand() - 0.5, rand() - 0.5]));
    using b = ellipsoid([0.5, 0.7, 0.9]);
    for (let k = 0; k < 100; k++) {
      const pa = randomPose(rand, 2);
      const pb = randomPose(rand, 2);
      pb[0] += 6;
      expect(contact(a, pa, b, pb, { margin: 0.1 })).toBeNull();
      const r = batchResult('distance', batch('distance', [a, b], [...pa, ...pb], [0, 1]), 0);
      const c = batch('contact', [a, b], [...pa, ...pb], [0, 1], { margin: 0.1 });
      contactSteps += c[batchLayout('contact').fields.indexOf('iterations')];
      distanceSteps += r.iterations;
    }
    expect(contactSteps).toBeLessThan(distanceSteps / 2);
  });

  it.each([
    [{ margin: NaN }, 'options.margin', /finite/],
    [{ margin: -0.1 }, 'options.margin', /negative/],
    [{ margin: Infinity }, 'options.margin', /finite/],
    [{ margin: -Infinity }, 'options.margin', /finite/],
    [{ margin: '0.1' }, 'options.margin', /must be a number, got/],
    [{ margin: 0.1, trace: true }, 'options.trace', /unknown option/],
    [{ prediction: 0.1 }, 'options.prediction', /unknown option/],
    [0.1, 'options', /must be an object/],
  ])('refuses %o naming %s', (options, field, message) => {
    using a = sphere(1);
    using b = box([1, 1, 1]);
    const e = catchError(() => contact(a, undefined, b, { position: [3, 0, 0] }, options as never));
    expect(e.code).toBe('invalid-argument');
    expect(e.field).toBe(field);
    expect(e.message).toMatch(message);
  });

  it('names bad shapes and poses as the other queries do', () => {
    using a = sphere(1);
    const b = box([1, 1, 1]);
    expect(catchError(() => contact(a, [0, 0, NaN, 0, 0, 0, 1], b, undefined)).field).toBe('poseA[2]');
    expect(catchError(() => contact(a, undefined, b, { position: [0, 0] as unknown as Vec3 })).field).toBe('poseB.position');
    b.dispose();
    expect(catchError(() => contact(a, undefined, b, undefined)).code).toBe('disposed');
  });

  it('has the declared types', () => {
    using a = sphere(1);
    expectTypeOf(contact(a, undefined, a, undefined)).toEqualTypeOf<ContactResult | null>();
    expectTypeOf(batchResult('contact', new Float64Array(13), 0)).toEqualTypeOf<ContactResult | null>();
    expect(batchLayout('contact').fields).toEqual([
      'contact', 'distance', 'normal.x', 'normal.y', 'normal.z', 'pointA.x', 'pointA.y', 'pointA.z',
      'pointB.x', 'pointB.y', 'pointB.z', 'iterations', 'status',
    ]);
  });
});

describe('contact in batches', () => {
  const same = (x: ArrayLike<number>, y: ArrayLike<number>) => x.length === y.length && Array.from(x).every((v, i) => Object.is(v, y[i]));

  it('batch() answers each pair as contact() does, bit for bit, with one margin or one per pair, f64 and f32 poses', () => {
    const rand = seededRandom(1706);
    const shapes = everyShape(rand);
    const n = 500;
    const poses64 = new Float64Array(shapes.flatMap(() => randomPose(rand, 3)));
    const pairs = new Uint32Array(2 * n).map((_, i) => (i % 19 === 0 ? 0 : Math.floor(rand() * shapes.length)));
    const margins = new Float64Array(n).map((_, i) => (i % 5 === 0 ? 0 : 1.5 * rand()));
    const { stride } = batchLayout('contact');
    const single = (poses: ArrayLike<number>, i: number, margin: number) => {
      const pose = (k: number) => Array.from(poses).slice(7 * k, 7 * k + 7);
      return contact(shapes[pairs[2 * i]], pose(pairs[2 * i]), shapes[pairs[2 * i + 1]], pose(pairs[2 * i + 1]), { margin });
    };
    let nulls = 0;
    for (const poses of [poses64, new Float32Array(poses64)]) {
      const perPair = batch('contact', shapes, poses, pairs, { margins });
      const plain = Array.from(margins);
      const perPairFromArray = batch('contact', shapes, poses, pairs, { margins: plain });
      expect(same(perPair, perPairFromArray)).toBe(true);
      const one = batch('contact', shapes, poses, pairs, { margin: 0.3 });
      const none = batch('contact', shapes, poses, pairs);
      expect(perPair).toHaveLength(stride * n);
      for (let i = 0; i < n; i++) {
        const want = single(poses, i, margins[i]);
        expect(batchResult('contact', perPair, i)).toEqual(want);
        expect(batchResult('contact', one, i)).toEqual(single(poses, i, 0.3));
        expect(batchResult('contact', none, i)).toEqual(single(poses, i, 0));
        if (want === null) {
          nulls++;
          expect(perPair[stride * i]).toBe(0);
          expect(perPair.subarray(stride * i + 1, stride * i + 11).every(Number.isNaN)).toBe(true);
        }
      }
    }
    expect(nulls).toBeGreaterThan(50);
    expect(nulls).toBeLessThan(2 * n - 50);
  });

  it('createBatch("contact") fills margins in place and answers as batch()', () => {
    const rand = seededRandom(1707);
    const shapes = [sphere(0.5), box([0.5, 0.3, 0.2]), capsule(0.2, 0.6), polytope([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])];
    using b = createBatch('contact', shapes, { capacity: 64 });
    expect(b.margins).toHaveLength(64);
    expect(b.margins.every((m) => m === 0)).toBe(true);
    const poses = new Float64Array(shapes.flatMap(() => randomPose(rand, 3)));
    const pairs = new Uint32Array(128).map(() => Math.floor(rand() * shapes.length));
    const margins = new Float64Array(64).map(() => rand());
    b.poses.set(poses);
    b.pairs.set(pairs);
    b.margins.set(margins);
    const out = b.run(64);
    expect(same(out, batch('contact', shapes, poses, pairs, { margins }))).toBe(true);
    b.margins[3] = -1;
    const e = catchError(() => b.run(64));
    expect(e.field).toBe('options.margins[3]');
    using d = createBatch('distance', shapes, { capacity: 4 });
    expect(catchError(() => d.margins).field).toBe('margins');
  });

  it.each([
    [{ margin: NaN }, 'options.margin', /finite/],
    [{ margin: -1 }, 'options.margin', /negative/],
    [{ margin: 'x' }, 'options.margin', /must be a number/],
    [{ margins: [0, NaN] }, 'options.margins[1]', /finite/],
    [{ margins: [0, 'x'] }, 'options.margins[1]', /must be a number/],
    [{ margins: new Float64Array([0, Infinity]) }, 'options.margins[1]', /finite/],
    [{ margins: [0] }, 'options.margins', /1 number per pair \(2\), got 1/],
    [{ margin: 0, margins: [0, 0] }, 'options.margins', /not both/],
    [{ rays: new Float64Array(14) }, 'options.rays', /not used by contact/],
  ])('batch refuses %o naming %s', (options, field, message) => {
    using a = sphere(1);
    using b = box([1, 1, 1]);
    const e = catchError(() => batch('contact', [a, b], [0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 1], [0, 1, 1, 0], options as never));
    expect(e.code).toBe('invalid-argument');
    expect(e.field).toBe(field);
    expect(e.message).toMatch(message);
  });

  it('other queries refuse margins', () => {
    using a = sphere(1);
    const e = catchError(() => batch('distance', [a], [0, 0, 0, 0, 0, 0, 1], [0, 0], { margin: 0.1 }));
    expect(e.field).toBe('options.margin');
    expect(e.message).toMatch(/only used by contact/);
  });
});
