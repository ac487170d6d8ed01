// createBatch(): batch buffers in wasm memory, filled and read in place. Checked against batch() on the same
// inputs (the same C++ loop behind both: their answers must be the same bits), through a memory growth, and on
// bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batch, batchLayout, BatchBuffers, box, capsule, ConvexShape, createBatch, init, polytope, sphere, stats,
  type BatchQuery,
} from '../../web/lib/index';
import { seededRandom } from '../../web/viz/cloud';
import { catchError } from './helpers';

let shapes: ConvexShape[] = [];

beforeAll(async () => {
  await init();
  shapes = [sphere(0.5), box([0.5, 0.3, 0.2]), capsule(0.2, 0.6), polytope([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.6, 0.6, 0.6]]), sphere(0.25)];
});

function fill(b: BatchBuffers, rand: () => number, pairs: number): { poses: Float64Array; pairs: Uint32Array } {
  const n = b.shapeCount;
  const poses = new Float64Array(7 * n);
  for (let i = 0; i < n; i++) {
    const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
    const h = Math.hypot(...q);
    poses.set([3 * rand() - 1.5, 3 * rand() - 1.5, 3 * rand() - 1.5, ...q.map((c) => c / h)], 7 * i);
  }
  const per = b.query === 'raycast' ? 1 : 2;
  const idx = new Uint32Array(per * pairs);
  for (let i = 0; i < idx.length; i++) idx[i] = Math.floor(rand() * n);
  b.poses.set(poses);
  b.pairs.set(idx);
  return { poses: new Float64Array(b.poses), pairs: idx };
}

const same = (x: Float64Array, y: Float64Array) => x.length === y.length && x.every((v, i) => Object.is(v, y[i]));

describe('createBatch', () => {
  it.each(['intersect', 'distance', 'penetration', 'chungwang', 'sat'] as BatchQuery[])('%s: the same bits as batch()', (query) => {
    const rand = seededRandom(7);
    const list = query === 'sat' ? shapes.filter((_, i) => i !== 0 && i !== 4) : shapes;
    using b = createBatch(query, list, { capacity: 40 });
    expect(b.stride).toBe(batchLayout(query).stride);
    for (const count of [40, 17, 0]) {
      const { poses, pairs } = fill(b, rand, count);
      const out = b.run(count);
      expect(out.length).toBe(b.stride * count);
      expect(same(out, batch(query, list, poses, pairs)), `${query} ${count}`).toBe(true);
    }
  });

  it('Float32 poses: the same bits as batch() with the same Float32Array', () => {
    const rand = seededRandom(8);
    using b = createBatch('penetration', shapes, { capacity: 30, precision: 'f32' });
    expect(b.poses).toBeInstanceOf(Float32Array);
    fill(b, rand, 30);
    const f32 = new Float32Array(b.poses);
    expect(same(b.run(), batch('penetration', shapes, f32, new Uint32Array(b.pairs)))).toBe(true);
  });

  it('rays, motions and warm-start caches live in the buffers too', () => {
    const rand = seededRandom(9);
    using r = createBatch('raycast', shapes, { capacity: 12 });
    const { poses, pairs } = fill(r, rand, 12);
    const rays = Float64Array.from({ length: 7 * 12 }, (_, i) => (i % 7 === 6 ? 10 : i % 7 < 3 ? 4 * rand() - 2 - 3 : rand() - 0.3));
    r.rays.set(rays);
    expect(same(r.run(), batch('raycast', shapes, poses, pairs, { rays }))).toBe(true);

    using s = createBatch('shapecast', shapes, { capacity: 12 });
    const f = fill(s, rand, 12);
    const motions = Float64Array.from({ length: 6 * 12 }, () => 4 * rand() - 2);
    s.motions.set(motions);
    expect(same(s.run(), batch('shapecast', shapes, f.poses, f.pairs, { motions }))).toBe(true);

    using c = createBatch('intersect', shapes, { capacity: 12, caches: true });
    const g = fill(c, rand, 12);
    const caches = new Float64Array(4 * 12);
    for (let frame = 0; frame < 3; frame++) {
      expect(same(c.run(), batch('intersect', shapes, g.poses, g.pairs, { caches })), `frame ${frame}`).toBe(true);
      expect(same(c.caches, caches), `caches after frame ${frame}`).toBe(true);
    }
  });

  it('hands out new views after the wasm memory grows, with the contents kept', () => {
    const rand = seededRandom(10);
    using b = createBatch('distance', shapes, { capacity: 8 });
    const { poses, pairs } = fill(b, rand, 8);
    const old = b.poses;
    const before = stats().memoryBytes;
    // 400 000 points: megabytes of wasm memory, more than the heap had.
    const big = polytope(Float64Array.from({ length: 3 * 400_000 }, () => rand()));
    expect(stats().memoryBytes).toBeGreaterThan(before);
    expect(old.length).toBe(0); // the old view's buffer was detached
    expect(same(new Float64Array(b.poses), poses)).toBe(true);
    expect(same(b.run(), batch('distance', shapes, poses, pairs))).toBe(true);
    big.dispose();
  });

  it('refuses bad options, counts, indices and disposed shapes or buffers, naming the problem', () => {
    const bad: [() => unknown, string, string][] = [
      [() => createBatch('distance', shapes, undefined as never), 'invalid-argument', 'options'],
      [() => createBatch('distance', shapes, { capacity: 0 }), 'invalid-argument', 'options.capacity'],
      [() => createBatch('distance', shapes, { capacity: 2.5 }), 'invalid-argument', 'options.capacity'],
      [() => createBatch('distance', shapes, { capacity: 4, precision: 'f16' as never }), 'invalid-argument', 'options.precision'],
      [() => createBatch('distance', shapes, { capacity: 4, caches: true }), 'invalid-argument', 'options.caches'],
      [() => createBatch('distance', shapes, { capacity: 4, size: 3 } as never), 'invalid-argument', 'options.size'],
      [() => createBatch('nearest' as never, shapes, { capacity: 4 }), 'invalid-argument', 'query'],
      [() => createBatch('distance', [shapes[0], {} as never], { capacity: 4 }), 'invalid-argument', 'shapes[1]'],
    ];
    for (const [f, code, field] of bad) {
      const e = catchError(f);
      expect([e.code, e.field], e.message).toEqual([code, field]);
    }
    using b = createBatch('distance', shapes, { capacity: 4 });
    expect(catchError(() => b.run(5)).field).toBe('count');
    expect(catchError(() => b.rays).field).toBe('rays');
    b.pairs.set([0, 1, 2, 9]);
    const e = catchError(() => b.run(2));
    expect([e.code, e.field]).toEqual(['invalid-argument', 'pairs[3]']);
    expect(e.message).toMatch(/not a shape index/);
    b.poses[7 * 2] = NaN;
    b.pairs.set([0, 1, 2, 3]);
    expect(catchError(() => b.run(2)).field).toBe('poses[2][0]');
    b.poses[7 * 2] = 0;
    const gone = sphere(1);
    using c = createBatch('distance', [shapes[0], gone], { capacity: 1 });
    c.pairs.set([0, 1]);
    c.run();
    gone.dispose();
    expect(catchError(() => c.run()).code).toBe('disposed');
    b.dispose();
    expect(catchError(() => b.poses).code).toBe('disposed');
    expect(() => b.dispose()).not.toThrow();
  });

  it('frees its memory on dispose', () => {
    const heap = stats().heapBytes;
    const b = createBatch('penetration', shapes, { capacity: 10_000, precision: 'f32' });
    expect(stats().heapBytes).toBeGreaterThan(heap + 10_000 * 14 * 8);
    b.dispose();
    expect(stats().heapBytes).toBe(heap);
  });
});
