// collidoscope/three in a real WebGL renderer (headless Chromium): a user's scene with drawShape, drawResult and
// drawTraceFrame shows the page's colours where the library says, labels become DOM elements when asked, and
// dispose() frees the GPU geometries. The page (three-helper-page.ts) is bundled here with esbuild, the way a
// user's bundler would take the library and the helper together.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer as startStaticServer } from '../../scripts/serve.mjs';
import { launchBrowser } from './harness';
import type { Case, RenderStats } from './three-helper-page';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.join(ROOT, 'build', 'e2e-three-helper');
const GLUE = path.join(ROOT, 'web', 'dist', 'lib', 'collidoscope_wasm.mjs');

let server: { url: string; close: () => Promise<void> } | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'tests', 'e2e', 'three-helper-page.ts')],
    outfile: path.join(OUT, 'page.js'),
    bundle: true, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'warning', external: ['node:*'],
    plugins: [{
      // The Emscripten glue, built by `npm run build`, is bundled in (as the page does).
      name: 'glue',
      setup: (b) => { b.onResolve({ filter: /^#collidoscope-wasm$|collidoscope_wasm\.mjs$/ }, () => ({ path: GLUE })); },
    }],
  });
  writeFileSync(path.join(OUT, 'index.html'), '<!doctype html><meta charset="utf-8"><body style="margin:0"><script type="module" src="page.js"></script>\n');
  server = await startStaticServer({ root: OUT, port: 0 });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function renderCase(which: Case, labels: boolean): Promise<{ stats: RenderStats; errors: string[] }> {
  const page = await browser!.newPage({ viewport: { width: 800, height: 600 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(`console: ${m.text()}`); });
  await page.goto(new URL('index.html', server!.url).href);
  await page.waitForFunction(() => (window as unknown as { threeHelperReady?: boolean }).threeHelperReady === true, null, { timeout: 30_000 });
  const stats = await page.evaluate(([w, l]) => (window as unknown as { threeHelper: (w: Case, l: boolean) => Promise<RenderStats> }).threeHelper(w, l), [which, labels] as const);
  await page.close();
  return { stats, errors };
}

describe('collidoscope/three in a WebGL renderer', () => {
  it('drawShape and drawResult: amber A, blue B, white closest points where the result puts them; dispose frees the geometries', async () => {
    const { stats, errors } = await renderCase('result', false);
    expect(errors).toEqual([]);
    expect(stats.amber).toBeGreaterThan(2000);
    expect(stats.blue).toBeGreaterThan(1000);
    expect(stats.whiteAt).toEqual([true, true, false]); // pointA, pointB; empty space below the shapes
    expect(stats.labels).toEqual([]);
    expect(stats.geometries).toBeGreaterThan(3);
    // What is left: the one sphere all dots share (kept for the next drawing).
    expect(stats.geometriesAfterDispose).toBeLessThanOrEqual(1);
  });

  it('labels: true gives DOM labels for a CSS2DRenderer', async () => {
    const { stats, errors } = await renderCase('result', true);
    expect(errors).toEqual([]);
    expect(stats.labels.sort()).toEqual(['pA', 'pB']);
  });

  it('drawTraceFrame (a SAT axis frame): A\'s and B\'s intervals are drawn as bold bars in the user\'s renderer', async () => {
    const { stats, errors } = await renderCase('sat-frame', false);
    expect(errors).toEqual([]);
    // No shapes are drawn in this case: the amber and blue pixels are the interval bars (the face is yellow).
    expect(stats.amber).toBeGreaterThan(100);
    expect(stats.blue).toBeGreaterThan(100);
    expect(stats.geometriesAfterDispose).toBeLessThanOrEqual(1);
  });
});
