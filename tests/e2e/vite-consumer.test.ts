// A web app that uses the published package, built by Vite and opened in headless Chromium:
//   `npm pack` -> the tarball unpacked into a fresh project's node_modules (no registry) -> index.html + main.js
//   importing 'collidoscope' (wasm inlined) and 'collidoscope/wasm-file' (separate .wasm) -> vite build (production)
//   -> served by scripts/serve.mjs -> both flavours answer queries with known answers in the page.
// Checks that the separate .wasm is emitted once as an asset, fetched as its own request with application/wasm and
// compiled with WebAssembly.instantiateStreaming, that Vite reports nothing unexpected, and that the page has no errors.
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { build, type Logger } from 'vite';
import { startServer } from '../../scripts/serve.mjs';
import { installPacked, packPackage } from '../pack';
import { launchBrowser } from './harness';

const MAIN_JS = `
import * as single from 'collidoscope';
import * as separate from 'collidoscope/wasm-file';
import * as singleThree from 'collidoscope/three';
import * as separateThree from 'collidoscope/wasm-file/three';

const sphere = (radius, position = [0, 0, 0]) => ({ type: 'sphere', radius, position });
const box = (h, position) => ({ type: 'box', halfExtents: [h, h, h], position });

async function answers(lib) {
  await lib.init();
  const distance = lib.run({ version: 1, query: 'distance', shapes: [sphere(1), box(1, [3, 0, 0])] });
  const apart = lib.run({ version: 1, query: 'intersect', shapes: [sphere(1), sphere(1, [2.5, 0, 0])] });
  const touching = lib.run({ version: 1, query: 'intersect', shapes: [sphere(1), sphere(1, [1.5, 0, 0])] });
  const pen = lib.run({ version: 1, query: 'penetration', shapes: [sphere(1), sphere(1, [1.5, 0, 0])] });
  const ray = lib.run({ version: 1, query: 'raycast', shapes: [sphere(2)], ray: { origin: [-10, 0, 0], direction: [1, 0, 0], maxT: 20 } });
  const hull = lib.hull([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.1, 0.1, 0.1]]);
  let error = null;
  try {
    lib.run({ version: 1, query: 'distance', shapes: [sphere(-1), { type: 'point' }] });
  } catch (e) {
    error = { isCollidoscopeError: e instanceof lib.CollidoscopeError, code: e.code, field: e.field };
  }
  return {
    distance: distance.distance, apart: apart.intersecting, touching: touching.intersecting,
    depth: pen.depth, normal: pen.normal, t: ray.t, hullVertices: hull.vertices.length, hullFaces: hull.faces.length, error,
  };
}

// The shape API and the three.js helpers, as a game would use them.
async function game(lib, three) {
  await lib.init();
  const ball = lib.sphere(1);
  const crate = lib.box([1, 1, 1]);
  const d = lib.distance(ball, { position: [0, 0, 0] }, crate, new Float32Array([3, 0, 0, 0, 0, 0, 1]));
  const poses = new Float32Array([0, 0, 0, 0, 0, 0, 1, 1.5, 0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 1]);
  const hits = lib.batch('intersect', [ball, crate, lib.sphere(0.5)], poses, new Uint32Array([0, 1, 0, 2, 1, 2]));
  const { stride } = lib.batchLayout('intersect');
  const drawn = three.drawShape(crate, { position: [1, 2, 3] });
  const live = lib.stats().liveShapes;
  crate.dispose();
  let code = null;
  try { lib.distance(ball, undefined, crate, undefined); } catch (e) { code = e instanceof lib.CollidoscopeError ? e.code : 'other'; }
  return { distance: d.distance, hits: [hits[0], hits[stride], hits[2 * stride]], drawnChildren: drawn.children.length,
    drawnAt: drawn.position.toArray(), live, code };
}

Promise.all([answers(single), answers(separate), game(single, singleThree), game(separate, separateThree)]).then(
  ([a, b, g, h]) => { window.__results = { single: a, separate: b, game: g, gameSeparate: h }; },
  (e) => { window.__results = { failure: String(e && e.stack || e) }; },
);
`;

const INDEX_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>collidoscope consumer</title></head>
<body><script type="module" src="./main.js"></script></body></html>
`;

let work = '';
let app = '';
let browser: Browser | undefined;
let server: { url: string; close: () => Promise<void> } | undefined;
const viteMessages: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'collidoscope-vite-'));
  app = path.join(work, 'app');
  installPacked(packPackage(work), app);
  // three.js is the app's own (collidoscope's optional peer dependency): the repository's copy.
  symlinkSync(path.join(process.cwd(), 'node_modules', 'three'), path.join(app, 'node_modules', 'three'), 'dir');
  writeFileSync(path.join(app, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(app, 'main.js'), MAIN_JS);
  const record = (level: string) => (msg: string) => viteMessages.push(`${level}: ${msg}`);
  const logger: Logger = {
    hasWarned: false,
    info: () => {},
    warn: record('warn'),
    warnOnce: record('warn'),
    error: record('error'),
    clearScreen: () => {},
    hasErrorLogged: () => false,
  };
  await build({
    root: app,
    configFile: false,
    mode: 'production',
    logLevel: 'warn',
    customLogger: logger,
    cacheDir: path.join(work, 'vite-cache'),
    // Vite 5 and 6's default target ('modules'), older than Vite 8's: the package must build for it unchanged
    // (no top-level await, no syntax those browsers lack).
    build: { outDir: path.join(app, 'dist'), emptyOutDir: true, target: ['es2020', 'edge88', 'firefox78', 'chrome87', 'safari14'] },
  });
  server = await startServer({ root: path.join(app, 'dist'), port: 0 });
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a Vite app using the packed package, in Chromium', () => {
  it('Vite emits the separate .wasm once and reports nothing but the known notices', () => {
    const assets = readdirSync(path.join(app, 'dist', 'assets'));
    expect(assets.filter((f) => f.endsWith('.wasm'))).toHaveLength(1);
    expect(assets.filter((f) => f.endsWith('.wasm'))[0]).toMatch(/^collidoscope_wasm-[\w-]+\.wasm$/);
    // Known and harmless: the size notice for a chunk holding the inlined wasm (the reason for the wasm-file flavour).
    const unexpected = viteMessages.filter((m) => !/^warn: .*Some chunks are larger than 500 kB after minification/s.test(m));
    expect(unexpected).toEqual([]);
  });

  it('both flavours load and answer with the known values; the .wasm is a streamed request of type application/wasm', async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    const responses: { url: string; status: number; type: string }[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    page.on('response', (r) => responses.push({ url: r.url(), status: r.status(), type: r.headers()['content-type'] ?? '' }));
    // Count how the wasm gets compiled.
    await page.addInitScript(() => {
      const w = window as unknown as { __streamed: number };
      w.__streamed = 0;
      const original = WebAssembly.instantiateStreaming;
      WebAssembly.instantiateStreaming = (...args: Parameters<typeof original>) => {
        w.__streamed++;
        return original(...args);
      };
    });
    try {
      await page.goto(server!.url);
      await page.waitForFunction(() => (window as any).__results !== undefined, null, { timeout: 30_000 });
      const results = await page.evaluate(() => (window as any).__results);
      expect(results.failure).toBeUndefined();
      for (const flavour of ['single', 'separate']) {
        const r = results[flavour];
        expect(r.distance, flavour).toBeCloseTo(1, 12);   // sphere surface x = 1, box face x = 2
        expect(r.apart, flavour).toBe(false);             // centres 2.5 apart, radii sum 2
        expect(r.touching, flavour).toBe(true);           // centres 1.5 apart
        expect(r.depth, flavour).toBeCloseTo(0.5, 12);    // 2 − 1.5
        expect(r.normal[0], flavour).toBeCloseTo(1, 12);  // move B along +x
        expect(Math.abs(r.normal[1]) + Math.abs(r.normal[2]), flavour).toBeLessThan(1e-12);
        expect(r.t, flavour).toBeCloseTo(8, 12);          // the ray meets the sphere at x = −2
        expect(r.hullVertices, flavour).toBe(4);          // the inner point is not a vertex
        expect(r.hullFaces, flavour).toBe(4);
        expect(r.error, flavour).toEqual({ isCollidoscopeError: true, code: 'invalid-scene', field: 'shapes[0].radius' });
      }
      expect(results.separate).toEqual(results.single);
      for (const g of [results.game, results.gameSeparate]) {
        expect(g.distance).toBeCloseTo(1, 12);
        expect(g.hits).toEqual([1, 0, 0]);           // ball–crate overlap at 1.5; the small sphere at x = 5 is apart
        expect(g.drawnChildren).toBeGreaterThan(0);  // the helpers use the same module instance as init()
        expect(g.drawnAt).toEqual([1, 2, 3]);
        expect(g.live).toBe(3);
        expect(g.code).toBe('disposed');
      }

      const wasm = responses.filter((r) => /\.wasm(\?|$)/.test(new URL(r.url).pathname));
      expect(wasm).toHaveLength(1);
      expect(wasm[0].status).toBe(200);
      expect(wasm[0].type).toBe('application/wasm');
      expect(new URL(wasm[0].url).pathname).toMatch(/^\/assets\/collidoscope_wasm-[\w-]+\.wasm$/);
      expect(await page.evaluate(() => (window as any).__streamed)).toBe(1);
      expect(responses.filter((r) => r.status !== 200)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
