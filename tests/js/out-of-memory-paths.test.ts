// Every way into wasm that allocates in proportion to its input refuses, when what is left of wasm memory cannot
// hold the work, with CollidoscopeError 'out-of-memory' (never a module abort), leaves the heap as it was, and the
// module answers afterwards: scene JSON text on its way in (createShape, run, validateScene), the C++ builders of
// heightfields, compounds and polytopes (heap_room.h), the scene parser's meshes, a world's bodies and a new world.
// Memory is filled with malloc'd blocks that are never touched (address space, no real RAM), leaving a chosen
// amount free in one piece.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CollidoscopeError, World, compound, createShape, distance, heightfield, init, polytope, run, sphere, stats, validateScene,
  type Scene, type Vec3,
} from '../../web/lib/index';
import { jsonReaderBytes } from '../../web/lib/heap';
import { mod } from '../../web/lib/module';
import { expectOutOfMemory } from './helpers';

const MB = 1024 * 1024;
// The blocks taken by leave().
const blocks: number[] = [];

/** Gives back every block taken by leave(). */
function release(): void {
  const m = mod();
  while (blocks.length > 0) m._free(blocks.pop()!);
}

/**
 * Fills wasm memory to its 2 GB so that about `bytes` stay free in one piece: a block of that size is taken first,
 * everything else after it in blocks of decreasing size, then the first block given back.
 */
function leave(bytes: number): void {
  const m = mod();
  release();
  const gap = bytes > 0 ? m._malloc(bytes) : 0;
  expect(bytes === 0 || gap !== 0).toBe(true);
  for (const size of [64 * MB, MB, 4096, 256]) {
    for (;;) {
      const p = m._malloc(size);
      if (p === 0) break;
      blocks.push(p);
    }
  }
  expect(m.HEAPU8.buffer.byteLength).toBeGreaterThan(1900 * MB);
  if (gap !== 0) m._free(gap);
}

/**
 * `f` refused as out of memory, then 5 times more with the heap's bytes in use unchanged (within 16: malloc may
 * hand out a free chunk whole when what would be left of it is too small to split) and the live shapes and worlds
 * exactly as they were: a refusal that leaked would grow the heap by what it kept each time.
 */
function expectRefusedWithoutLeak(f: () => unknown, field: string | null, message: RegExp): void {
  expectOutOfMemory(f, field, message);
  const before = stats();
  for (let i = 0; i < 5; i++) expectOutOfMemory(f, field, message);
  const after = stats();
  expect(Math.abs(after.heapBytes - before.heapBytes)).toBeLessThanOrEqual(16);
  expect(after.liveShapes).toBe(before.liveShapes);
  expect(after.liveWorlds).toBe(before.liveWorlds);
}

/** A heights grid of rows × columns (a gentle wave): 2·(rows − 1)·(columns − 1) triangles. */
function grid(rows: number, columns: number): number[][] {
  return Array.from({ length: rows }, (_, i) => Array.from({ length: columns }, (_, j) => Math.sin(i * 0.1) + Math.cos(j * 0.1)));
}

/** n points with small whole coordinates (short JSON, many hull vertices among them). */
function cloud(n: number): Vec3[] {
  return Array.from({ length: n }, (_, i) => [(i * 7919) % 1000, (i * 104729) % 997, (i * 1299709) % 991] as Vec3);
}

// A sphere of radius 1 against one of radius 0.5 three units away: 1.5 apart, the answer that shows the module alive.
function alive(): void {
  const a = sphere(1);
  const b = sphere(0.5);
  expect(distance(a, undefined, b, { position: [3, 0, 0] }).distance).toBe(1.5);
  a.dispose();
  b.dispose();
}

beforeAll(async () => {
  await init();
});

afterAll(() => {
  release();
});

describe('out of wasm memory, every way in', () => {
  it('a heightfield whose mesh does not fit: out-of-memory naming heights, from heightfield() and from a scene', () => {
    // 300 × 300 heights: 178 802 triangles, about 140 MB at the build's peak; their JSON needs about 20 MB.
    const heights = grid(300, 300);
    leave(64 * MB);
    expectRefusedWithoutLeak(() => heightfield(heights, [1, 1]), 'heights', /a heightfield of 89401 cells needs about \d+ MB of memory/);
    const scene = { version: 1, query: 'raycast', shapes: [{ type: 'heightfield', heights, cellSize: [1, 1] }], ray: { origin: [5, 10, 5], direction: [0, -20, 0] } } as unknown as Scene;
    expectRefusedWithoutLeak(() => run(scene), 'shapes[0].heights', /a heightfield of 89401 cells/);
    alive();
    release();
    // With the memory back, the same grid is a terrain: the ray down at (5, 5) meets it at height sin(0.5) + cos(0.5).
    const r = run(scene) as { hit: boolean; point: Vec3 };
    expect(r.hit).toBe(true);
    expect(r.point[1]).toBeCloseTo(Math.sin(0.5) + Math.cos(0.5), 9);
  });

  it('a mesh from scene JSON whose tree does not fit, with room to read its JSON: out-of-memory naming triangles', () => {
    // 100 000 triangles over 1 000 vertices: about 77 MB at the build's peak, more than the JSON check's figure.
    const vertices = cloud(1_000);
    const triangles = Array.from({ length: 100_000 }, (_, i) => [i % 1_000, (i * 7 + 1) % 1_000, (i * 13 + 2) % 1_000] as Vec3);
    const spec = { type: 'mesh', vertices, triangles } as const;
    const text = JSON.stringify(spec);
    expect(jsonReaderBytes(text)).toBeLessThan(768 * 100_000);
    leave(jsonReaderBytes(text) + 4096);
    expectRefusedWithoutLeak(() => createShape(spec as never), 'triangles', /a mesh of 100000 triangles needs about \d+ MB of memory/);
    const scene = { version: 1, query: 'raycast', shapes: [spec], ray: { origin: [0, 0, 0], direction: [1, 1, 1] } } as unknown as Scene;
    leave(jsonReaderBytes(JSON.stringify(scene)) + 4096);
    expectRefusedWithoutLeak(() => run(scene), 'shapes[0].triangles', /a mesh of 100000 triangles/);
    alive();
    release();
    createShape(spec as never).dispose();
  });

  it('a compound whose children\'s SAT hulls do not fit: out-of-memory naming children', () => {
    const child = polytope(cloud(100_000));
    const live = stats().liveShapes;
    // The child's JSON (about 90 MB to read) fits in 128 MB; its SAT hull's build (about 160 MB) does not.
    leave(128 * MB);
    expectRefusedWithoutLeak(() => compound([{ shape: child }]), 'children', /a compound of 1 child needs about 1\d\d MB of memory/);
    alive();
    release();
    const c = compound([{ shape: child, position: [0, 2000, 0] }]);
    expect(stats().liveShapes).toBe(live + 1);
    c.dispose();
    child.dispose();
  });

  it('a polytope from scene JSON whose support walk does not fit: out-of-memory naming points', () => {
    const points = cloud(100_000);
    leave(128 * MB);
    expectRefusedWithoutLeak(() => createShape({ type: 'polytope', points }), 'points', /a polytope of 100000 points needs about 154 MB/);
    alive();
    release();
    createShape({ type: 'polytope', points }).dispose();
  });

  it('JSON text too large to read into what is left: out-of-memory before it enters wasm (run, validateScene, createShape)', () => {
    const points = cloud(100_000);
    const scene = { version: 1, query: 'hull', shapes: [{ type: 'polytope', points }] } as unknown as Scene;
    leave(32 * MB);
    expectRefusedWithoutLeak(() => run(scene), 'scene', /reading \d+ characters of JSON needs about \d+ MB of wasm memory/);
    expectRefusedWithoutLeak(() => validateScene(scene), 'scene', /reading \d+ characters of JSON/);
    expectRefusedWithoutLeak(() => run(JSON.stringify(scene)), 'scene', /reading \d+ characters of JSON/);
    expectRefusedWithoutLeak(() => createShape({ type: 'polytope', points }), 'shape', /reading \d+ characters of JSON/);
    alive();
    release();
    expect(validateScene(scene).shapes[0].points).toHaveLength(100_000);
  });

  it('the JSON check\'s figure, worked out by hand on small texts', () => {
    // Two copies of the bytes; vectors at the next power of two (JsonValue 56, member 68, +8 a block) and the
    // blocks they outgrew (1, 2, …); strings over 10 bytes (3 a UTF-16 unit, +1, +8).
    expect(jsonReaderBytes('[0,0,0]')).toBe(2 * 7 + (4 * 56 + 8) + (1 + 2) * 56);
    expect(jsonReaderBytes('{"a":1}')).toBe(2 * 7 + (68 + 8));
    expect(jsonReaderBytes('"abcdefghijk"')).toBe(2 * 13 + (33 + 1 + 8));
    // Brackets and commas in a string are not structure.
    expect(jsonReaderBytes('["a,]b"]')).toBe(2 * 8 + (56 + 8) + (12 + 1 + 8));
    // Two bytes for é, three for €.
    expect(jsonReaderBytes('["é€"]')).toBe(2 * 9 + (56 + 8));
    // The reader stops after 8 100 000 values: 8 100 001 elements counted, at a capacity of 2²³.
    const text = `[${'0,'.repeat(20_000_000)}0]`;
    expect(jsonReaderBytes(text)).toBe(2 * text.length + (2 ** 23 * 56 + 8) + (2 ** 23 - 1) * 56);
    // An object of 16 keys or more adds its key set's nodes.
    const keys = `{${Array.from({ length: 16 }, (_, i) => `"${i.toString(16)}":0`).join(',')}}`;
    expect(jsonReaderBytes(keys)).toBe(2 * keys.length + (16 * 68 + 8) + 15 * 68 + 16 * 24);
  });

  it('the JSON check covers the reader\'s peak: with exactly that much left, worst-case texts are read', () => {
    const texts = [
      // A flat array just past a power of two: its vector's growth holds the old block beside the new one.
      `[${'0,'.repeat(2 ** 20)}0]`,
      // An object of 100 000 keys (its key set) and long strings.
      `{${Array.from({ length: 100_000 }, (_, i) => `"key number ${i}":"${'v'.repeat(i % 40)}"`).join(',')}}`,
      // A cloud of points, as a scene.
      JSON.stringify({ version: 1, query: 'hull', shapes: [{ type: 'polytope', points: cloud(50_000) }] }),
    ];
    for (const text of texts) {
      leave(jsonReaderBytes(text) + 4096);
      let outcome: string;
      try {
        validateScene(text);
        outcome = 'valid';
      } catch (e) {
        outcome = (e as CollidoscopeError).code;
      }
      // Read in full: the scene is judged (the first two are not scenes), never refused for memory.
      expect(outcome).toBe(text.startsWith('{"version"') ? 'valid' : 'invalid-scene');
      release();
      alive();
    }
  });

  it('World.add past what the world\'s arrays can grow to: out-of-memory, the world unchanged and usable', () => {
    const ball = sphere(0.5);
    leave(16 * MB);
    const world = new World();
    let refused: unknown = null;
    let added = 0;
    // Each body its own place along x: no pairs. A growth doubles the world's arrays (about 1 KB a body).
    for (; added < 200_000; added++) {
      try {
        world.add(ball, { position: [2 * added, 0, 0] });
      } catch (e) {
        refused = e;
        break;
      }
    }
    expect(refused).toBeInstanceOf(CollidoscopeError);
    expect((refused as CollidoscopeError).code).toBe('out-of-memory');
    expect((refused as CollidoscopeError).message).toMatch(/room for \d+ bodies in the world needs about \d+ MB of memory/);
    // The refusal comes at a doubling: 16 slots first, then twice as many each time.
    expect(Math.log2(added / 16) % 1).toBe(0);
    expect(world.count).toBe(added);
    expectRefusedWithoutLeak(() => world.add(ball, { position: [-10, 0, 0] }), null, /room for \d+ bodies/);
    expect(world.count).toBe(added);
    expect(world.pairs()).toEqual([]);
    // A removed body's slot is taken again without growing.
    const first = world.bodyAt(0)!;
    world.remove(first);
    const again = world.add(ball, { position: [0, 0.5, 0] });
    expect(again.slot).toBe(0);
    expect(world.pairs()).toEqual([]);
    alive();
    release();
    const next = world.add(ball, { position: [0.9, 0.5, 0] });
    expect(world.pairs()).toEqual([[again, next]]);
    world.dispose();
    ball.dispose();
  });

  it('a new shape and a new world when memory is full: out-of-memory, nothing made', () => {
    leave(0);
    const { liveShapes, liveWorlds } = stats();
    // The shape's JSON is refused in JavaScript, before wasm; the world by the C++ check, whose error is written
    // into the room held back for it.
    expectRefusedWithoutLeak(() => sphere(1), 'shape', /reading \d+ characters of JSON/);
    expectRefusedWithoutLeak(() => new World(), 'world', /a new world needs about \d+ KB of memory/);
    expect(stats().liveShapes).toBe(liveShapes);
    expect(stats().liveWorlds).toBe(liveWorlds);
    release();
    const w = new World({ broadphase: 'tree' });
    expect(stats().liveWorlds).toBe(liveWorlds + 1);
    w.dispose();
    alive();
  });
});
