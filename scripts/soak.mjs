#!/usr/bin/env node
// The memory soak: many queries and many create/dispose cycles through the JS API in Node, with the wasm heap
// (stats().heapBytes: bytes malloc has handed out) and the live objects (stats().liveShapes, liveWorlds) where
// they were after a warm-up.
//
//   node scripts/soak.mjs [--queries N] [--cycles M]      (npm run soak; default 10 000 000 queries, 1 000 000 cycles)
//
// Queries: every pair query of the object API (intersect, distance, penetration, chungwang, sat, contact,
// contacts, shapecast), the one-shape queries (raycast, contains, project) and batch(), over shapes of every
// kind (a compound, a mesh and a heightfield among them), a world's raycast and overlap; one batch row
// counts as one query. Cycles: a shape of each kind in turn, a mesh, a compound, a world with bodies (stepped), a
// createBatch buffer, each created, used once and disposed. The module keeps buffers that grow to the largest
// call seen (batch scratch, error texts, free lists): the warm-up runs every kind of call once before the
// figures are taken, and after it neither the heap nor the live counts may move.
// `runSoak({ queries, cycles })` returns the figures; tests/js/soak.test.ts runs a short version in `npm test`.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LIB = path.join(ROOT, 'web', 'dist', 'lib', 'meshes', 'index.mjs');

/** A closed mesh: an octahedron of size `s` (8 triangles), as vertex and index arrays. */
function octahedron(s) {
  const v = [s, 0, 0, -s, 0, 0, 0, s, 0, 0, -s, 0, 0, 0, s, 0, 0, -s];
  const t = [0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5];
  return { vertices: new Float64Array(v), indices: new Uint32Array(t) };
}

/** Every kind of shape the object API makes, at a size near 1. */
function makers(lib) {
  const oct = octahedron(1);
  return [
    () => lib.point({ margin: 0.3 }),
    () => lib.sphere(0.7),
    () => lib.box([0.5, 0.4, 0.3]),
    () => lib.capsule(0.3, 0.5),
    () => lib.cylinder(0.4, 0.5),
    () => lib.cone(0.5, 0.6),
    () => lib.ellipsoid([0.6, 0.4, 0.3]),
    () => lib.segment([-0.5, 0, 0], [0.5, 0.1, 0], { margin: 0.1 }),
    () => lib.triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]),
    () => lib.polytope([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1], [0.5, 0.5, 0.5]]),
    () => lib.mesh(oct.vertices, oct.indices),
    () => lib.heightfield([[0, 0.1, 0], [0.1, 0.3, 0.1], [0, 0.1, 0]], [0.5, 0.5]),
  ];
}

function compoundOf(lib) {
  const a = lib.box([0.3, 0.3, 0.3]);
  const b = lib.sphere(0.3);
  const c = lib.compound([{ shape: a, position: [-0.4, 0, 0] }, { shape: b, position: [0.4, 0, 0] }]);
  // The compound keeps its own copies of the children's geometry, so they may go at once.
  a.dispose();
  b.dispose();
  return c;
}

/**
 * Runs the soak; returns the figures. `log` gets progress lines. Throws nothing for a leak: the figures say it
 * (`heapGrowth`, `liveAfter` against `liveBefore`), so that a caller can print them all.
 */
export async function runSoak({ queries = 10_000_000, cycles = 1_000_000, log = () => {} } = {}) {
  const lib = await import(pathToFileURL(LIB).href);
  await lib.init();
  const kinds = makers(lib);
  const t0 = performance.now();

  // The shapes the queries run on: every convex kind, a compound; a mesh and a heightfield for the queries that take them.
  const convex = kinds.slice(0, 10).map((f) => f());
  convex.push(compoundOf(lib));
  const oct = octahedron(1.2);
  const meshShape = lib.mesh(oct.vertices, oct.indices);
  const field = kinds[11]();
  const poses = convex.map((_, i) => [0.35 * Math.cos(i), 0.3 * Math.sin(1.3 * i), 0.2 * Math.sin(i), 0, 0, Math.sin(0.1 * i), Math.cos(0.1 * i)]);
  const n = convex.length;
  const pairs = new Uint32Array(2 * n * n);
  for (let i = 0, k = 0; i < n; i++) for (let j = 0; j < n; j++, k += 2) { pairs[k] = i; pairs[k + 1] = j; }
  const batchPoses = new Float64Array(poses.flat());
  const world = new lib.World();
  world.add(field, [0, -1, 0, 0, 0, 0, 1]);
  // Bodies at rest: the world's queries run on a fixed state (a step that brings bodies into contact makes
  // contact caches, which is the world's state growing, not a leak; the cycles step worlds of their own).
  for (let i = 0; i < 6; i++) world.add(convex[1 + (i % 6)], [2.5 * i, 3, 0, 0, 0, 0, 1]);

  let done = 0;
  const pairQueries = [
    (a, pa, b, pb) => lib.intersect(a, pa, b, pb),
    (a, pa, b, pb) => lib.distance(a, pa, b, pb),
    (a, pa, b, pb) => lib.penetration(a, pa, b, pb),
    (a, pa, b, pb) => lib.chungWang(a, pa, b, pb),
    (a, pa, b, pb) => lib.sat(a, pa, b, pb),
    (a, pa, b, pb) => lib.contact(a, pa, b, pb, { margin: 0.05 }),
    (a, pa, b, pb) => lib.contacts(a, pa, b, pb, { margin: 0.05 }),
    (a, pa, b, pb) => lib.shapecast(a, pa, b, pb, { translationB: [-1, 0.2, 0] }),
  ];
  const ray = { origin: [-3, 0.1, 0.05], direction: [1, 0, 0], maxT: 10 };
  // One round: every pair query on one pair, the one-shape queries, the mesh's and the world's, and a batch.
  const round = (r) => {
    const i = r % n;
    const j = (r * 7 + 3) % n;
    const q = pairQueries[r % pairQueries.length];
    const sat = q === pairQueries[4];
    // SAT takes polyhedral shapes, a compound not every query: a refusal is an answer too, and must cost no memory.
    try {
      q(convex[i], poses[i], convex[j], poses[j]);
    } catch (e) {
      if (!(e instanceof lib.CollidoscopeError) || !(sat || e.code === 'unsupported-query')) throw e;
    }
    lib.raycast(convex[i], poses[i], ray);
    lib.contains(convex[i], poses[i], [0.1, 0.1, 0.1]);
    try {
      lib.project(convex[i], poses[i], [1.5, 0.2, 0.1]);
    } catch (e) {
      if (!(e instanceof lib.CollidoscopeError)) throw e;
    }
    lib.distance(meshShape, undefined, convex[j], [2.5, 0, 0, 0, 0, 0, 1]);
    lib.raycast(meshShape, undefined, ray);
    lib.project(meshShape, undefined, [0.1, 2, 0.3]);
    done += 8;
    if (r % 8 === 0) {
      lib.batch(r % 16 === 0 ? 'distance' : 'intersect', convex, batchPoses, pairs);
      done += n * n;
    }
    if (r % 64 === 0) {
      world.raycast(ray);
      world.overlap(convex[1], [0, 0, 0, 0, 0, 0, 1]);
      done += 2;
    }
  };
  const createOne = (c) => {
    const kind = c % (kinds.length + 3);
    if (kind < kinds.length) {
      const s = kinds[kind]();
      lib.intersect(s, undefined, convex[1], [0.5, 0, 0, 0, 0, 0, 1]);
      s.dispose();
    } else if (kind === kinds.length) {
      const s = compoundOf(lib);
      lib.distance(s, undefined, convex[2], [2, 0, 0, 0, 0, 0, 1]);
      s.dispose();
    } else if (kind === kinds.length + 1) {
      const w = new lib.World();
      const ground = lib.box([5, 0.5, 5]);
      const ball = lib.sphere(0.3);
      w.add(ground, [0, -0.5, 0, 0, 0, 0, 1]);
      const body = w.add(ball, [0, 0.5, 0, 0, 0, 0, 1], { mass: 1 });
      w.step();
      w.remove(body);
      w.dispose();
      ground.dispose();
      ball.dispose();
    } else {
      const b = lib.createBatch('intersect', convex.slice(0, 4), { capacity: 8 });
      b.dispose();
    }
  };

  // The module keeps the last error's text (a refused query's message) until the next error: its size is part of
  // the heap. Every figure is read right after the same refusal, so that it holds the same text.
  const stats = () => {
    try {
      lib.sat(convex[4], undefined, convex[5], undefined);
    } catch (e) {
      if (!(e instanceof lib.CollidoscopeError)) throw e;
    }
    return lib.stats();
  };
  // Warm-up: every kind of call, so that the buffers that grow to the largest call have grown.
  for (let r = 0; r < 4096; r++) round(r);
  for (let c = 0; c < 10 * (kinds.length + 3); c++) createOne(c);
  const before = stats();
  log(`soak: after the warm-up: heap ${before.heapBytes} bytes, ${before.liveShapes} live shapes, ${before.liveWorlds} live worlds, memory ${before.memoryBytes} bytes`);
  let maxHeap = before.heapBytes;
  done = 0;
  const tq = performance.now();
  for (let r = 0; done < queries; r++) {
    round(r);
    if (r % (process.env.SOAK_VERBOSE ? 2000 : 100_000) === 0) {
      const s = stats();
      maxHeap = Math.max(maxHeap, s.heapBytes);
      if (r % 500_000 === 0 && r || process.env.SOAK_VERBOSE) log(`soak: ${done} queries, heap ${s.heapBytes}, live shapes ${s.liveShapes}`);
    }
  }
  const queriesMs = performance.now() - tq;
  const afterQueries = stats();
  const tc = performance.now();
  for (let c = 0; c < cycles; c++) {
    createOne(c);
    if (c % 10_000 === 0) {
      const s = stats();
      maxHeap = Math.max(maxHeap, s.heapBytes);
      if (c % 200_000 === 0 && c) log(`soak: ${c} cycles, heap ${s.heapBytes}, live shapes ${s.liveShapes}`);
    }
  }
  const cyclesMs = performance.now() - tc;
  const after = stats();
  world.dispose();
  for (const s of [...convex, meshShape, field]) s.dispose();
  const end = lib.stats();
  return {
    queries: done,
    cycles,
    before,
    afterQueries,
    after,
    maxHeap,
    heapGrowth: after.heapBytes - before.heapBytes,
    afterDisposingAll: end,
    queriesSeconds: queriesMs / 1000,
    cyclesSeconds: cyclesMs / 1000,
    seconds: (performance.now() - t0) / 1000,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opts = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = Number(args[++i]);
    if (!(Number.isInteger(v) && v >= 0)) {
      console.error(`soak: ${a} needs a whole number`);
      process.exit(2);
    }
    if (a === '--queries') opts.queries = v;
    else if (a === '--cycles') opts.cycles = v;
    else {
      console.error(`soak: unknown argument ${a} (use --queries N, --cycles M)`);
      process.exit(2);
    }
  }
  const r = await runSoak({ ...opts, log: console.log });
  console.log(`soak: ${r.queries} queries in ${r.queriesSeconds.toFixed(1)} s, ${r.cycles} create/dispose cycles in ${r.cyclesSeconds.toFixed(1)} s`);
  console.log(`soak: heap after the warm-up ${r.before.heapBytes} bytes, after the queries ${r.afterQueries.heapBytes}, after the cycles ${r.after.heapBytes} (growth ${r.heapGrowth}; highest seen ${r.maxHeap}); wasm memory ${r.before.memoryBytes} → ${r.after.memoryBytes}`);
  console.log(`soak: live shapes ${r.before.liveShapes} → ${r.afterQueries.liveShapes} → ${r.after.liveShapes}, live worlds ${r.before.liveWorlds} → ${r.after.liveWorlds}; after disposing everything: ${r.afterDisposingAll.liveShapes} shapes, ${r.afterDisposingAll.liveWorlds} worlds`);
  const leaked = r.heapGrowth !== 0 || r.after.liveShapes !== r.before.liveShapes || r.after.liveWorlds !== r.before.liveWorlds
    || r.afterQueries.heapBytes !== r.before.heapBytes || r.afterDisposingAll.liveShapes !== 0 || r.afterDisposingAll.liveWorlds !== 0;
  console.log(leaked ? 'soak: FAILED: memory or live objects moved' : 'soak: ok (heap and live objects unchanged)');
  process.exitCode = leaked ? 1 : 0;
}
