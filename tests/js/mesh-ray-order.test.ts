// Rays on a large mesh in a batch: the batch traces a long run of rays on one mesh in a coherent order (sorted by
// where they enter the mesh's root box, wasm/src/ray_order.cpp) and writes each answer to its own row. The answers
// must be exactly those of raycast() one by one, and of a batch of one ray (which is never reordered), bit for bit,
// whatever the batch's order: shuffling the rays shuffles the rows and nothing else. The mesh is a torus of 40 960
// triangles (above kRayOrderMinTriangles, so the order applies), at a random pose; the batch mixes long runs on it
// with short runs, a small mesh and a sphere in between.
import { beforeAll, describe, expect, it } from 'vitest';
import { batch, batchLayout, batchResult, createBatch, init, mesh, raycast, sphere, type ConvexShape } from '../../web/lib/index';
import { randomPose, seeded } from './helpers';
import { icosphere, torus } from './mesh-gen';

beforeAll(async () => {
  await init();
});

const bits = (a: ArrayLike<number>) => Array.from(a, (v) => (Object.is(v, -0) ? '-0' : String(v)));

describe('mesh ray batches in a coherent order', () => {
  it('a long run of rays on a large mesh answers, row by row, what each ray answers alone', () => {
    const rand = seeded(1807);
    const big = torus(256, 80, 1, 0.35);
    expect(big.indices.length / 3).toBe(40960);
    const small = icosphere(2);
    const shapes: ConvexShape[] = [mesh(big.vertices, big.indices), mesh(small.vertices, small.indices), sphere(0.5)];
    const poses = shapes.flatMap(() => randomPose(rand, 0.5));
    // Runs: 700 rays on the torus, 30 (too few to order), 40 on the icosphere, 5 on the sphere, 500 on the torus again.
    const runs: [number, number][] = [[0, 700], [0, 30], [1, 40], [2, 5], [0, 500]];
    const which: number[] = runs.flatMap(([s, k]) => Array<number>(k).fill(s));
    const n = which.length;
    const rays = new Float64Array(7 * n);
    for (let i = 0; i < n; i++) {
      // Origins on a sphere of radius 4 about the shape, aimed at random points near it (about half hit); every
      // tenth ray with a short maxT, which stops before the surface.
      const c = poses.slice(7 * which[i], 7 * which[i] + 3);
      let d: number[];
      do d = [0, 1, 2].map(() => 2 * rand() - 1);
      while (Math.hypot(...d) < 0.1 || Math.hypot(...d) > 1);
      const l = Math.hypot(...d);
      const o = d.map((x, k) => c[k] + (4 * x) / l);
      const target = [0, 1, 2].map((k) => c[k] + 2.4 * rand() - 1.2);
      rays.set([...o, ...target.map((t, k) => t - o[k]), i % 10 === 9 ? 0.5 : 1e9], 7 * i);
    }
    const pairs = Uint32Array.from(which);
    const { stride } = batchLayout('raycast');
    const features = new Int32Array(2 * n);
    const barycentric = new Float64Array(3 * n);
    const out = batch('raycast', shapes, poses, pairs, { rays, features, barycentric });

    let hits = 0;
    for (let i = 0; i < n; i++) {
      const ray = Array.from(rays.subarray(7 * i, 7 * i + 7));
      const single = raycast(shapes[which[i]], poses.slice(7 * which[i], 7 * which[i] + 7), { origin: ray.slice(0, 3) as [number, number, number], direction: ray.slice(3, 6) as [number, number, number], maxT: ray[6] });
      expect(batchResult('raycast', out, i, { features, barycentric, shapes, pairs })).toEqual(single);
      // Every number of the row, -0 and NaN included, as a batch of this one ray writes it.
      const f1 = new Int32Array(2), b1 = new Float64Array(3);
      const one = batch('raycast', shapes, poses, [which[i]], { rays: ray, features: f1, barycentric: b1 });
      expect(bits(out.subarray(stride * i, stride * i + stride))).toEqual(bits(one));
      expect(Array.from(features.subarray(2 * i, 2 * i + 2))).toEqual(Array.from(f1));
      expect(bits(barycentric.subarray(3 * i, 3 * i + 3))).toEqual(bits(b1));
      if (single.hit) hits++;
    }
    // Enough rays hit for the rows to mean something, and enough miss (or stop short) to check those rows too.
    expect(hits).toBeGreaterThan(0.4 * n);
    expect(hits).toBeLessThan(n);

    // Shuffled rays: the rows are shuffled the same way, bit for bit; so are the features and barycentric.
    const perm = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [perm[i], perm[j]] = [perm[j], perm[i]];
    }
    // Keep the runs (the order applies per run of rays on one shape): shuffle within each run.
    const shuffled: number[] = [];
    let at = 0;
    for (const [, k] of runs) {
      shuffled.push(...perm.filter((p) => p >= at && p < at + k));
      at += k;
    }
    const rays2 = new Float64Array(7 * n);
    shuffled.forEach((p, i) => rays2.set(rays.subarray(7 * p, 7 * p + 7), 7 * i));
    const features2 = new Int32Array(2 * n);
    const barycentric2 = new Float64Array(3 * n);
    const out2 = batch('raycast', shapes, poses, pairs, { rays: rays2, features: features2, barycentric: barycentric2 });
    shuffled.forEach((p, i) => {
      expect(bits(out2.subarray(stride * i, stride * i + stride))).toEqual(bits(out.subarray(stride * p, stride * p + stride)));
      expect(features2[2 * i]).toBe(features[2 * p]);
      expect(bits(barycentric2.subarray(3 * i, 3 * i + 3))).toEqual(bits(barycentric.subarray(3 * p, 3 * p + 3)));
    });

    // createBatch()'s buffers hold their own scratch for the order: the same bits as batch().
    const b = createBatch('raycast', shapes, { capacity: n + 10, features: true, barycentric: true });
    b.poses.set(poses);
    b.pairs.set(pairs);
    b.rays.set(rays);
    expect(bits(b.run(n))).toEqual(bits(out));
    expect(Array.from(b.features.subarray(0, 2 * n))).toEqual(Array.from(features));
    expect(bits(b.barycentric.subarray(0, 3 * n))).toEqual(bits(barycentric));
    b.dispose();
    for (const s of shapes) s.dispose();
  });
});
