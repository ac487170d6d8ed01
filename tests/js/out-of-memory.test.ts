// A shape, mesh or batch too large for what is left of wasm memory (at most 2 GB) is refused with a
// CollidoscopeError 'out-of-memory' naming the field, before any C++ allocation could fail (which would abort the
// module), and the module answers afterwards. The memory is filled first with malloc'd blocks that are never
// touched: growing wasm memory reserves address space, so this takes milliseconds and no real RAM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatch, distance, init, mesh, polytope, sphere, stats } from '../../web/lib/index';
import { mod } from '../../web/lib/module';
import { expectOutOfMemory } from './helpers';

const MB = 1024 * 1024;
const hog: number[] = [];

beforeAll(async () => {
  await init();
  const m = mod();
  // Everything the module can grow to, in 64 MB blocks, then two blocks given back: about 128 MB is left.
  for (;;) {
    const p = m._malloc(64 * MB);
    if (p === 0) break;
    hog.push(p);
  }
  expect(m.HEAPU8.buffer.byteLength).toBeGreaterThan(1900 * MB);
  m._free(hog.pop()!);
  m._free(hog.pop()!);
});

afterAll(() => {
  for (const p of hog) mod()._free(p);
});

describe('out of wasm memory', () => {
  it('a mesh, a polytope and a batch buffer too large for what is left are refused as out-of-memory', () => {
    const live = stats().liveShapes;
    // 500 000 triangles need about 400 MB while their tree is built.
    const nv = 250_000;
    const vertices = new Float64Array(3 * nv).map((_, i) => (i * 0.618) % 10);
    const indices = new Uint32Array(3 * 500_000).map((_, i) => (i * 7919 + (i % 3)) % nv);
    expectOutOfMemory(() => mesh(vertices, indices), 'triangles');
    // 10⁶ points, the most a polytope takes.
    expectOutOfMemory(() => polytope(new Float64Array(3_000_000).map((_, i) => Math.sin(i))), 'points');
    // 4 194 304 rows of a distance batch: over 300 MB of poses, pairs and results.
    const a = sphere(1);
    expectOutOfMemory(() => createBatch('distance', [a, a], { capacity: 4_194_304 }), 'options.capacity');
    a.dispose();
    expect(stats().liveShapes).toBe(live);
  });

  it('leaves the module answering: queries, and shapes and meshes that fit', () => {
    const a = sphere(1);
    const b = sphere(0.5);
    expect(distance(a, undefined, b, { position: [4, 0, 0] }).distance).toBe(2.5);
    const octahedron = mesh([1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1],
      [0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5]);
    expect(octahedron.report.triangleCount).toBe(8);
    // Closest point of the face x + y + z = 1 to (2, 2, 2) is (1/3, 1/3, 1/3): the distance to the sphere of
    // radius 0.5 there is √3·(2 − 1/3) − 0.5.
    expect(distance(octahedron, undefined, b, { position: [2, 2, 2] }).distance).toBeCloseTo(Math.sqrt(3) * (2 - 1 / 3) - 0.5, 9);
    for (const s of [a, b, octahedron]) s.dispose();
  });
});
