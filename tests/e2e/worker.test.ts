// Batches from a module Web Worker in Chromium, with each flavour of the built package: a page starts
// `new Worker(url, { type: 'module' })`; the worker (tests/worker-scenario.ts) imports the package from its
// directory, makes spheres, boxes and polytopes, answers intersect, distance and penetration for 276 pairs and
// transfers the Float64Arrays back. The files are laid out as a site would serve them — the package under lib/,
// the workers under workers/, the page at the root — so the wasm-file flavour must find its .wasm from the
// library's own URL, not the page's or the worker's. The answers are checked
//  - against closed forms (sphere–sphere, sphere–box and box–box with axis-aligned boxes) within 1e-9 of the scale;
//  - bit for bit against the same batches on the page's main thread. That is a fair reference for the pairs
//    without a closed form: the same wasm runs on the same inputs, and the library is deterministic (no fast-math,
//    no threads, no clocks), so any difference would come from the trip to the worker and back;
//  - for bad input: the worker's CollidoscopeError arrives as plain data with its name, code and field, the same
//    error the main thread raises for the same input.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { launchBrowser } from './harness';
import {
  ANSWER_FUNCTION, bitsOf, checkClosedForms, EXPECTED_ERRORS, makeScenario, WORKER_QUERIES, workerModuleSource,
  type ErrorData, type WorkerQuery, type WorkerReply,
} from '../worker-scenario';

const FLAVOURS = {
  'collidoscope': { lib: 'lib/index.mjs', worker: 'workers/default.mjs' },
  'collidoscope/wasm-file': { lib: 'lib/wasm-file/index.mjs', worker: 'workers/wasm-file.mjs' },
};

// The page: both flavours on the main thread, and runScenario(), which starts a flavour's worker, posts the
// inputs, waits for its two messages, runs the same batches on the main thread and returns both sides' answers
// (the Float64Arrays as hex of their bytes, so that every bit reaches the test).
const INDEX_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>collidoscope in a worker</title></head>
<body><script type="module">
import * as defaultFlavour from './${FLAVOURS.collidoscope.lib}';
import * as wasmFileFlavour from './${FLAVOURS['collidoscope/wasm-file'].lib}';
${ANSWER_FUNCTION}
const flavours = {
  'collidoscope': { lib: defaultFlavour, worker: './${FLAVOURS.collidoscope.worker}' },
  'collidoscope/wasm-file': { lib: wasmFileFlavour, worker: './${FLAVOURS['collidoscope/wasm-file'].worker}' },
};
const hex = (a) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), (b) => b.toString(16).padStart(2, '0')).join('');
const hexAll = (results) => Object.fromEntries(Object.entries(results).map(([q, a]) => [q, { hex: hex(a), isFloat64Array: a instanceof Float64Array }]));
window.runScenario = async (flavour, plain) => {
  const { lib, worker: url } = flavours[flavour];
  const input = { shapes: plain.shapes, poses: new Float64Array(plain.poses), pairs: new Uint32Array(plain.pairs), queries: plain.queries };
  const worker = new Worker(url, { type: 'module' });
  const messages = [];
  try {
    await new Promise((resolve, reject) => {
      worker.onmessage = (e) => {
        if (e.data.failure) reject(new Error('the worker failed: ' + e.data.failure));
        messages.push(e.data);
        if (messages.length === 2) resolve();
      };
      worker.onerror = (e) => reject(new Error('worker error: ' + e.message));
      worker.postMessage(input);
    });
  } finally {
    worker.terminate();
  }
  const [reply, { detached }] = messages;
  await lib.init();
  const main = answer(lib, input);
  const layouts = Object.fromEntries(input.queries.map((q) => [q, lib.batchLayout(q).fields]));
  return { reply: { ...reply, results: hexAll(reply.results) }, detached, main: { ...main, results: hexAll(main.results) }, layouts };
};
window.pageReady = true;
</script></body></html>
`;

interface PageAnswer {
  reply: Omit<WorkerReply, 'results'> & { results: Record<WorkerQuery, { hex: string; isFloat64Array: boolean }> };
  detached: number[];
  main: { results: Record<WorkerQuery, { hex: string; isFloat64Array: boolean }>; errors: WorkerReply['errors'] };
  layouts: Record<WorkerQuery, string[]>;
}

function fromHex(hex: string): Float64Array {
  const bytes = Uint8Array.from(Buffer.from(hex, 'hex'));
  return new Float64Array(bytes.buffer);
}

function decode(results: PageAnswer['main']['results']): Record<WorkerQuery, Float64Array> {
  return Object.fromEntries(WORKER_QUERIES.map((q) => [q, fromHex(results[q].hex)])) as Record<WorkerQuery, Float64Array>;
}

let work = '';
let browser: Browser | undefined;
let page: Page | undefined;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
const requested: string[] = [];
const failedRequests: string[] = [];
const pageErrors: string[] = [];
const input = makeScenario(17);

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'collidoscope-worker-e2e-'));
  cpSync(path.join(process.cwd(), 'web', 'dist', 'lib'), path.join(work, 'lib'), { recursive: true });
  mkdirSync(path.join(work, 'workers'));
  // The workers import the package by a path relative to their own URL, as a site's worker would.
  for (const { lib, worker } of Object.values(FLAVOURS)) writeFileSync(path.join(work, worker), workerModuleSource(`../${lib}`, 'browser'));
  writeFileSync(path.join(work, 'index.html'), INDEX_HTML);
  server = await startServer({ root: work, port: 0 });
  server.server.on('request', (req, res) => {
    requested.push(req.url ?? '');
    res.once('finish', () => {
      if (res.statusCode >= 400) failedRequests.push(`${res.statusCode} ${req.url}`);
    });
  });
  browser = await launchBrowser();
  page = await browser.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  await page.goto(new URL('index.html', server.url).href);
  await page.waitForFunction(() => (window as unknown as { pageReady?: boolean }).pageReady === true);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.each(Object.keys(FLAVOURS))('%s in a module Web Worker in Chromium', (flavour) => {
  let answer: PageAnswer;
  let worker: Record<WorkerQuery, Float64Array>;

  beforeAll(async () => {
    const plain = { shapes: input.shapes, poses: Array.from(input.poses), pairs: Array.from(input.pairs), queries: input.queries };
    answer = await page!.evaluate(
      ([f, p]) => (window as unknown as { runScenario(f: string, p: unknown): Promise<PageAnswer> }).runScenario(f, p),
      [flavour, plain] as const,
    );
    worker = decode(answer.reply.results);
  });

  it('loads without the DOM and answers a few hundred pairs per query, transferred back as Float64Arrays', () => {
    expect(answer.reply.globals).toEqual({ window: 'undefined', document: 'undefined' });
    const n = input.pairs.length / 2;
    expect(n).toBe(276);
    for (const q of WORKER_QUERIES) {
      expect(answer.reply.results[q].isFloat64Array).toBe(true);
      expect(worker[q]).toHaveLength(answer.layouts[q].length * n);
    }
    // Transferred, not copied: the worker's arrays are empty once posted.
    expect(answer.detached).toEqual(WORKER_QUERIES.map(() => 0));
    expect(answer.reply.liveShapes).toBe(0);
  });

  it('matches the closed forms for spheres and axis-aligned boxes', () => {
    const { checked, overlapping, normals } = checkClosedForms(input, worker, answer.layouts);
    // 45 sphere–sphere, 80 sphere–box and 28 box–box pairs, overlapping (normals checked where one axis is
    // clearly shallowest) and apart.
    expect(checked).toBe(153);
    expect(overlapping).toBeGreaterThan(15);
    expect(normals).toBeGreaterThan(15);
    expect(checked - overlapping).toBeGreaterThan(15);
  });

  it('gives bit for bit the answers of the same batches on the main thread', () => {
    const main = decode(answer.main.results);
    for (const q of WORKER_QUERIES) {
      const got = bitsOf(worker[q]);
      const want = bitsOf(main[q]);
      expect(got.length).toBe(want.length);
      const differ = got.flatMap((b, i) => (b === want[i] ? [] : [i]));
      expect(differ, `${q}: doubles that differ`).toEqual([]);
    }
  });

  it('reports bad input as a CollidoscopeError whose name, code and field arrive as plain data', () => {
    for (const k of Object.keys(EXPECTED_ERRORS) as (keyof typeof EXPECTED_ERRORS)[]) {
      const e = answer.reply.errors[k] as ErrorData;
      expect(e, k).not.toBeNull();
      expect(e).toMatchObject({ name: 'CollidoscopeError', isCollidoscopeError: true, ...EXPECTED_ERRORS[k] });
      expect(e.message.startsWith(`${EXPECTED_ERRORS[k].field}: `)).toBe(true);
      expect(e).toEqual(answer.main.errors[k]);
    }
  });

  it('has its own module instance: queries before its own init() fail with not-initialized', () => {
    expect(answer.reply.beforeInit).toMatchObject({ name: 'CollidoscopeError', code: 'not-initialized', field: null, isCollidoscopeError: true });
  });
});

describe('the site', () => {
  it('served the wasm-file flavour its .wasm from beside the library, and nothing was missing or failed', () => {
    expect(requested).toContain('/lib/wasm-file/collidoscope_wasm.wasm');
    expect(requested).toContain('/workers/default.mjs');
    expect(requested).toContain('/workers/wasm-file.mjs');
    expect(failedRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
