// Batches from a Node worker_threads Worker, with each flavour of the built package (web/dist/lib): the worker
// (tests/worker-scenario.ts) imports the package, makes spheres, boxes and polytopes, answers intersect, distance
// and penetration for 276 pairs and transfers the Float64Arrays back. Its answers are checked
//  - against closed forms (sphere–sphere, sphere–box and box–box with axis-aligned boxes) within 1e-9 of the scale;
//  - bit for bit against the same batches on this thread. That is a fair reference for the pairs without a closed
//    form: the same wasm (the wasm-file flavour's .wasm is the binary the default flavour inlines, which this thread
//    loads) runs on the same inputs, and the library is deterministic (no fast-math, no threads, no clocks), so any
//    difference would come from the trip to the worker and back — lost precision, a wrong pose, a reordered pair;
//  - for bad input: the worker's CollidoscopeError arrives as plain data with its name, code and field, the same
//    error this thread raises for the same input.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as lib from '../../web/lib/index';
import {
  ANSWER_FUNCTION, bitsOf, checkClosedForms, EXPECTED_ERRORS, makeScenario, WORKER_QUERIES, workerModuleSource,
  type ErrorData, type WorkerQuery, type WorkerReply,
} from '../worker-scenario';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FLAVOURS = {
  'collidoscope': path.join(ROOT, 'web', 'dist', 'lib', 'index.mjs'),
  'collidoscope/wasm-file': path.join(ROOT, 'web', 'dist', 'lib', 'wasm-file', 'index.mjs'),
};

let work = '';
let main: { results: Record<WorkerQuery, Float64Array>; errors: WorkerReply['errors'] };
const input = makeScenario(17);

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'collidoscope-worker-'));
  await lib.init();
  // The main thread's answers, from the same function text the worker runs.
  const answer = new Function('collidoscope', 'input', `${ANSWER_FUNCTION}\nreturn answer(collidoscope, input);`) as
    (c: typeof lib, i: typeof input) => typeof main;
  main = answer(lib, input);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Starts a worker on `source`, posts `input`, and resolves to its two messages (the reply, then the byte lengths
 *  of the transferred arrays as the worker sees them afterwards). */
async function runWorker(name: string, source: string): Promise<{ reply: WorkerReply; detached: number[] }> {
  const file = path.join(work, `${name.replace(/\W/g, '-')}.mjs`);
  writeFileSync(file, source);
  const worker = new Worker(pathToFileURL(file));
  try {
    const messages: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      worker.on('message', (m: { failure?: string }) => {
        if (m.failure) reject(new Error(`the worker failed: ${m.failure}`));
        messages.push(m);
        if (messages.length === 2) resolve();
      });
      worker.on('error', reject);
      worker.on('exit', (code) => reject(new Error(`the worker exited (${code}) after ${messages.length} message(s)`)));
      worker.postMessage(input);
    });
    return { reply: messages[0] as WorkerReply, detached: (messages[1] as { detached: number[] }).detached };
  } finally {
    await worker.terminate();
  }
}

describe.each(Object.entries(FLAVOURS))('%s in a worker_threads Worker', (name, entry) => {
  let reply: WorkerReply;
  let detached: number[];

  beforeAll(async () => {
    ({ reply, detached } = await runWorker(name, workerModuleSource(pathToFileURL(entry).href, 'node')));
  });

  it('answers a few hundred pairs per query, transferred back as Float64Arrays', () => {
    const n = input.pairs.length / 2;
    expect(n).toBe(276);
    for (const q of WORKER_QUERIES) {
      expect(reply.results[q]).toBeInstanceOf(Float64Array);
      expect(reply.results[q]).toHaveLength(lib.batchLayout(q).stride * n);
    }
    // Transferred, not copied: the worker's arrays are empty once posted.
    expect(detached).toEqual(WORKER_QUERIES.map(() => 0));
    // Every shape it made was disposed.
    expect(reply.liveShapes).toBe(0);
  });

  it('matches the closed forms for spheres and axis-aligned boxes', () => {
    const layouts = Object.fromEntries(WORKER_QUERIES.map((q) => [q, lib.batchLayout(q).fields])) as Record<WorkerQuery, readonly string[]>;
    const { checked, overlapping, normals } = checkClosedForms(input, reply.results, layouts);
    // 45 sphere–sphere, 80 sphere–box and 28 box–box pairs, overlapping (normals checked where one axis is
    // clearly shallowest) and apart.
    expect(checked).toBe(153);
    expect(overlapping).toBeGreaterThan(15);
    expect(normals).toBeGreaterThan(15);
    expect(checked - overlapping).toBeGreaterThan(15);
  });

  it('gives bit for bit the answers of the same batches on the main thread', () => {
    for (const q of WORKER_QUERIES) {
      const got = bitsOf(reply.results[q]);
      const want = bitsOf(main.results[q]);
      expect(got.length).toBe(want.length);
      const differ = got.flatMap((b, i) => (b === want[i] ? [] : [i]));
      expect(differ, `${q}: doubles that differ`).toEqual([]);
    }
  });

  it('reports bad input as a CollidoscopeError whose name, code and field arrive as plain data', () => {
    const keys = Object.keys(EXPECTED_ERRORS) as (keyof typeof EXPECTED_ERRORS)[];
    for (const k of keys) {
      const e = reply.errors[k] as ErrorData;
      expect(e, k).not.toBeNull();
      expect(e).toMatchObject({ name: 'CollidoscopeError', isCollidoscopeError: true, ...EXPECTED_ERRORS[k] });
      expect(e.message.startsWith(`${EXPECTED_ERRORS[k].field}: `)).toBe(true);
      // The same error as on the main thread, to the letter.
      expect(e).toEqual(main.errors[k]);
    }
  });

  it('has its own module instance: queries before its own init() fail with not-initialized', () => {
    expect(reply.beforeInit).toMatchObject({ name: 'CollidoscopeError', code: 'not-initialized', field: null, isCollidoscopeError: true });
  });
});
