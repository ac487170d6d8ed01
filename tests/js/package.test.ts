// The npm package as a user gets it: `npm pack`, the tarball unpacked into a fresh project's node_modules, then
//  - a Node ES module consumer imports 'collidoscope', awaits init() and runs queries (answers checked against
//    analytic values), and imports the 'collidoscope/wasm-file' flavour, which must answer every gallery scene
//    exactly as the default one does;
//  - the wasm-file flavour without its .wasm fails with a 'load-failed' CollidoscopeError naming the file;
//  - the wasm-file loader takes every documented form of `wasm` (URL, path, bytes, Response, over HTTP with and
//    without the application/wasm type) and says clearly what went wrong otherwise;
//  - 'collidoscope/three' loads next to three.js and shares the library instead of bundling a copy;
//  - tsc type-checks a TypeScript consumer against the shipped declarations with Node's own module resolution
//    (nodenext), and rejects a consumer that misuses the API (so the types are real, not `any`);
//  - the default flavour's download (gzip -9) is well below @dimforge/rapier3d-compat's (scripts/sizes.mjs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, packPackage, ROOT, type Packed } from '../pack';
import { measureSizes } from '../../scripts/sizes.mjs';
import { packInlinedWasm } from '../../scripts/build.mjs';

const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let work = '';
let consumer = '';
let pkgDir = '';
let packed: Packed = { tarball: '', files: [] };

beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'collidoscope-pack-'));
  packed = packPackage(work);
  consumer = path.join(work, 'consumer');
  pkgDir = installPacked(packed, consumer);
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs `code` as an ES module in `dir` with Node; returns its stdout parsed as JSON (stderr must be empty). */
function runNode(dir: string, name: string, code: string): any {
  writeFileSync(path.join(dir, name), code);
  const r = spawnSync(process.execPath, [name], { cwd: dir, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20 });
  expect(r.error).toBeUndefined();
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

describe('the packed npm package', () => {
  it('holds the three flavours, their wasm, the three.js helpers, the CLI and the type declarations, and nothing else', () => {
    const files = packed.files;
    for (const f of ['package.json', 'web/dist/lib/index.mjs', 'web/dist/lib/index.d.ts', 'web/dist/lib/errors.d.ts',
      'web/dist/lib/link.d.ts', 'web/dist/lib/wasm.d.ts', 'web/dist/lib/collidoscope_wasm.mjs', 'web/dist/lib/cli.mjs',
      'web/dist/lib/wasm-file/index.mjs', 'web/dist/lib/wasm-file/index.d.ts', 'web/dist/lib/wasm-file/collidoscope_wasm.mjs',
      'web/dist/lib/wasm-file/collidoscope_wasm.wasm', 'web/dist/lib/three.mjs', 'web/dist/lib/three.d.ts',
      'web/dist/lib/wasm-file/three.mjs', 'web/dist/lib/wasm-file/three.d.ts', 'web/dist/lib/element.mjs',
      'web/dist/lib/meshes/index.mjs', 'web/dist/lib/meshes/index.d.ts', 'web/dist/lib/meshes/collidoscope_wasm.mjs',
      'web/dist/lib/meshes/three.mjs', 'web/dist/lib/meshes/three.d.ts',
      'web/dist/lib/element.d.ts', 'web/dist/lib/embed.d.ts', 'web/dist/viz/index.html', 'web/dist/viz/main.js',
      'web/dist/viz/style.css', 'web/dist/viz/gallery.json']) {
      expect(files).toContain(f);
    }
    // The page ships for <collidoscope-view>'s default src, without its source map.
    expect(files.filter((f) => !f.startsWith('web/dist/lib/') && !f.startsWith('web/dist/viz/')
      && !['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'].includes(f))).toEqual([]);
    // three.js and the .wasm beside the page under content-hashed names (scripts/build.mjs), named by index.html.
    const viz = files.filter((f) => f.startsWith('web/dist/viz/')).map((f) => f.slice('web/dist/viz/'.length)).sort();
    expect(viz.map((f) => f.replace(/-[0-9A-Z]{8}\./, '-HASH.'))).toEqual(
      ['collidoscope_wasm-HASH.wasm', 'explain.css', 'gallery.json', 'index.html', 'main.js', 'style.css', 'three-HASH.js']);
    const html = readFileSync(path.join(pkgDir, 'web', 'dist', 'viz', 'index.html'), 'utf8');
    for (const f of viz.filter((x) => /-[0-9A-Z]{8}\./.test(x))) expect(html).toContain(`href="${f}"`);
    expect(files).toContain('LICENSE');
    expect(files).toContain('CHANGELOG.md');
    // The wasm-file flavour's .wasm and the page's copy (the default flavour embeds its own), and every path the
    // exports map names is shipped.
    expect(files.filter((f) => f.endsWith('.wasm') && !f.startsWith('web/dist/viz/'))).toEqual(['web/dist/lib/wasm-file/collidoscope_wasm.wasm']);
    expect(readFileSync(path.join(pkgDir, 'web', 'dist', 'viz', viz.find((f) => f.endsWith('.wasm'))!)))
      .toEqual(readFileSync(path.join(pkgDir, 'web', 'dist', 'lib', 'wasm-file', 'collidoscope_wasm.wasm')));
    const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
    const targets: string[] = [];
    for (const v of Object.values(pkg.exports) as (string | Record<string, string>)[]) {
      targets.push(...(typeof v === 'string' ? [v] : Object.values(v)));
    }
    for (const t of targets) expect(files).toContain(t.replace(/^\.\//, ''));
    // Only the element's module has an effect on import (it registers <collidoscope-view>).
    expect(pkg.sideEffects).toEqual(['./web/dist/lib/element.mjs']);
    expect(pkg.peerDependenciesMeta?.three?.optional).toBe(true);
    expect(pkg.dependencies ?? {}).toEqual({});
    // No shipped declaration points at the repository-only '#collidoscope-wasm' import map.
    for (const f of files.filter((n) => n.endsWith('.d.ts'))) {
      expect(readFileSync(path.join(pkgDir, f), 'utf8'), f).not.toMatch(/(from\s+|import\()['"]#/);
    }
  });

  it('loads in a Node ES module consumer and answers queries', () => {
    const out = runNode(consumer, 'main.mjs', `
import { init, run, CollidoscopeError } from 'collidoscope';
const before = [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
await init();
const d = run({ version: 1, query: 'distance', shapes: [
  { type: 'sphere', radius: 1 }, { type: 'box', halfExtents: [1, 1, 1], position: [5, 0, 0] }] });
const c = run({ version: 1, query: 'raycast', shapes: [{ type: 'sphere', radius: 2 }],
  ray: { origin: [-10, 0, 0], direction: [1, 0, 0], maxT: 20 } });
let field = null;
try { run({ version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: NaN }, { type: 'point' }] }); }
catch (e) { field = e instanceof CollidoscopeError ? e.field : 'not a CollidoscopeError'; }
const after = [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
console.log(JSON.stringify({ distance: d.distance, t: c.t, field, before, after }));
`);
    expect(out.distance).toBeCloseTo(3, 12); // box face at x = 4, sphere surface at x = 1
    expect(out.t).toBeCloseTo(8, 12);        // the ray meets the sphere at x = −2
    expect(out.field).toBe('shapes[0].radius');
    // A library installs no process-wide handlers (Emscripten's glue does by default).
    expect(out.after).toEqual(out.before);
  });

  it('collidoscope/element imports in Node without a DOM, and its default page is the one shipped beside it', () => {
    const out = runNode(consumer, 'element.mjs', `
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CollidoscopeView, defaultPageUrl } from 'collidoscope/element';
const page = fileURLToPath(defaultPageUrl());
const html = readFileSync(page, 'utf8');
const script = /<script type="module" src="([^"]+)"/.exec(html)?.[1];
console.log(JSON.stringify({ kind: typeof CollidoscopeView, page, script,
  scriptThere: existsSync(new URL(script, defaultPageUrl())), attrs: CollidoscopeView.observedAttributes }));
`);
    expect(out.kind).toBe('function');
    expect(out.page).toBe(path.join(pkgDir, 'web', 'dist', 'viz', 'index.html'));
    expect(out.scriptThere).toBe(true);
    expect(out.attrs).toEqual(['src', 'scene', 'step', 'autoplay', 'speed', 'views', 'locked', 'predict']);
  });

  it('runs the shape API from the tarball: shapes, poses, queries, a batch, disposal', () => {
    const out = runNode(consumer, 'objects.mjs', `
import { init, sphere, box, polytope, distance, raycast, batch, batchLayout, stats, CollidoscopeError } from 'collidoscope';
await init();
const a = sphere(1);
const b = box([1, 1, 1]);
const p = polytope(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]));
const d = distance(a, undefined, b, { position: [5, 0, 0] });
const r = raycast(p, [10, 0, 0, 0, 0, 0, 1], { origin: [15, 0.1, 0.1], direction: [-1, 0, 0], maxT: 10 });
const poses = new Float64Array([0, 0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 1]);
const out = batch('distance', [a, b, p], poses, new Uint32Array([0, 1, 0, 2]));
const stride = batchLayout('distance').stride;
const live = stats().liveShapes;
a.dispose();
let code = null;
try { distance(a, undefined, b, undefined); } catch (e) { code = e instanceof CollidoscopeError ? e.code : 'other'; }
console.log(JSON.stringify({ d: d.distance, t: r.t, b0: out[0], b1: out[stride], live, after: stats().liveShapes, code }));
`);
    expect(out.d).toBeCloseTo(3, 12);
    expect(out.t).toBeCloseTo(4.2, 12);                // enters through the face x + y + z = 1 (local x = 0.8)
    expect(out.b0).toBeCloseTo(3, 12);
    expect(out.b1).toBeCloseTo(2, 12);                 // the sphere's top (y = 1) to the tetrahedron's corner (0, 3, 0)
    expect(out.live).toBe(3);
    expect(out.after).toBe(2);
    expect(out.code).toBe('disposed');
  });

  it("the 'collidoscope/wasm-file' flavour answers every gallery scene exactly as the default one (as 'collidoscope/meshes' with level geometry)", () => {
    const out = runNode(consumer, 'flavours.mjs', `
import { readdirSync, readFileSync } from 'node:fs';
import * as single from 'collidoscope';
import * as full from 'collidoscope/meshes';
import * as separate from 'collidoscope/wasm-file';
await Promise.all([single.init(), full.init(), separate.init()]);
const dir = ${JSON.stringify(path.join(ROOT, 'shared', 'scenes'))};
const answer = (lib, f, scene) => { try { return JSON.stringify(f(lib)(scene)); } catch (e) { return 'error ' + e.code + ' ' + e.message; } };
const rows = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((file) => {
  const scene = JSON.parse(readFileSync(dir + '/' + file, 'utf8'));
  // A scene with a mesh or heightfield (a world's floor) is the meshes flavour's; the default one refuses it.
  const level = scene.shapes.some((s) => s.type === 'mesh' || s.type === 'heightfield');
  const ref = level ? full : single;
  const run = [answer(ref, (l) => l.run, scene), answer(separate, (l) => l.run, scene)];
  // The broad-phase view's trace of a "pairs" scene is the meshes flavours' too (the default one runs, not traces, it).
  const pairs = scene.query === 'pairs';
  const trace = [answer(pairs ? full : ref, (l) => l.trace, scene), answer(separate, (l) => l.trace, scene)];
  // Only what differs is printed in full (traces are large).
  return { file, level, refused: level ? answer(single, (l) => l.run, scene) : null,
    traceRefused: pairs ? answer(single, (l) => l.trace, scene) : null,
    run: run[0] === run[1] ? run[0].slice(0, 80) : run, traceSame: trace[0] === trace[1],
    traceFrames: trace[0].startsWith('error') ? trace[0] : JSON.parse(trace[0]).frames?.length ?? null };
});
const d = separate.run({ version: 1, query: 'distance', shapes: [
  { type: 'sphere', radius: 1 }, { type: 'box', halfExtents: [1, 1, 1], position: [3, 0, 0] }] });
const sameClass = single.CollidoscopeError === separate.CollidoscopeError;
console.log(JSON.stringify({ rows, distance: d.distance, sameClass }));
`);
    expect(out.rows.length).toBeGreaterThan(20);
    for (const r of out.rows) {
      expect(typeof r.run, `${r.file}: ${JSON.stringify(r.run)}`).toBe('string'); // the same answer from both
      expect(r.run, r.file).not.toMatch(/^error/);
      expect(r.traceSame, r.file).toBe(true);
      if (r.level) expect(r.refused, r.file).toMatch(/^error .*no triangle meshes, heightfields or compounds/);
      if (r.traceRefused !== null) expect(r.traceRefused, r.file).toMatch(/^error unsupported-query .*does not trace "pairs" scenes/);
    }
    expect(out.rows.filter((r: { traceRefused: unknown }) => r.traceRefused !== null).length).toBeGreaterThan(0);
    expect(out.rows.filter((r: { level: boolean }) => r.level).length).toBeGreaterThan(0);
    expect(out.rows.filter((r: { traceFrames: unknown }) => typeof r.traceFrames === 'number' && r.traceFrames > 0).length).toBeGreaterThan(20);
    expect(out.distance).toBeCloseTo(1, 12);
    // Two flavours are two separate module instances (documented: use one of them).
    expect(out.sameClass).toBe(false);
  });

  it("meshes: the default flavour refuses them clearly; 'collidoscope/meshes' and 'collidoscope/wasm-file' have them", () => {
    const out = runNode(consumer, 'meshes.mjs', `
import * as small from 'collidoscope';
import * as full from 'collidoscope/meshes';
import * as separate from 'collidoscope/wasm-file';
await Promise.all([small.init(), full.init(), separate.init()]);
const tetra = [[0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]];
const scene = { version: 1, query: 'raycast', shapes: [{ type: 'mesh', vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0]], triangles: [[0, 1, 2]] }],
  ray: { origin: [0.2, 0.2, 1], direction: [0, 0, -1] } };
const refusal = (f) => { try { f(); return null; } catch (e) { return { code: e.code, field: e.field, message: e.message }; } };
const answers = [full, separate].map((lib) => {
  const m = lib.mesh(...tetra);
  const s = lib.sphere(0.1);
  const r = { hit: lib.raycast(m, undefined, { origin: [0.2, 0.2, 2], direction: [0, 0, -1], maxT: 5 }).t,
    d: lib.distance(m, undefined, s, { position: [2, 0, 0] }).distance, scene: lib.run(scene).triangle,
    contacts: lib.contactsBatchResult(lib.contactsBatch([m, s], [0, 0, 0, 0, 0, 0, 1, 0.1, 0.1, 0.1, 0, 0, 0, 1], [0, 1]), 0).contacts.length };
  m.dispose(); s.dispose();
  return r;
});
console.log(JSON.stringify({ answers, api: refusal(() => small.mesh(...tetra)), scene: refusal(() => small.run(scene)),
  contactsBatch: refusal(() => small.contactsBatch([small.sphere(1)], [0, 0, 0, 0, 0, 0, 1], [0, 0])),
  compound: refusal(() => small.compound([{ shape: small.sphere(1) }])),
  convex: small.distance(small.sphere(1), undefined, small.sphere(1), { position: [3, 0, 0] }).distance }));
`);
    for (const a of out.answers) {
      expect(a.hit).toBeCloseTo(1.4, 12); // the face x + y + z = 1 at (0.2, 0.2, 0.6)
      expect(a.d).toBeCloseTo(0.9, 12); // vertex (1, 0, 0) to the sphere at x = 2, radius 0.1
      expect(a.scene).toBe(0);
      expect(a.contacts).toBeGreaterThan(0); // the sphere at (0.1, 0.1, 0.1) overlaps the tetrahedron's faces
    }
    for (const e of [out.api, out.scene, out.contactsBatch, out.compound]) {
      expect(e).not.toBeNull();
      expect(e.message).toMatch(/collidoscope\/meshes/);
    }
    expect(out.scene.field).toBe('shapes[0].type');
    expect(out.convex).toBeCloseTo(1, 12);
  });

  it("init({ wasm }) hands the binary to the wasm-file flavour; a bad one is 'load-failed' and init() can be retried", () => {
    const out = runNode(consumer, 'init-options.mjs', `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { init, sphere, distance, CollidoscopeError } from 'collidoscope/wasm-file';
const wasmPath = createRequire(import.meta.url).resolve('collidoscope/wasm-file/collidoscope_wasm.wasm');
let first = null;
try { await init({ wasm: new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]) }); }
catch (e) { first = { isError: e instanceof CollidoscopeError, code: e.code, message: e.message }; }
await init({ wasm: readFileSync(wasmPath) });
const d = distance(sphere(1), undefined, sphere(1), { position: [3, 0, 0] }).distance;
console.log(JSON.stringify({ first, d }));
`);
    expect(out.first.isError).toBe(true);
    expect(out.first.code).toBe('load-failed');
    expect(out.first.message.length).toBeGreaterThan(30);
    expect(out.d).toBeCloseTo(1, 12);
  });

  it("without its .wasm, the 'collidoscope/wasm-file' flavour rejects init() with a 'load-failed' error naming the file", () => {
    const broken = path.join(work, 'broken');
    const pkg = installPacked(packed, broken);
    rmSync(path.join(pkg, 'web', 'dist', 'lib', 'wasm-file', 'collidoscope_wasm.wasm'));
    const out = runNode(broken, 'main.mjs', `
import { init, CollidoscopeError } from 'collidoscope/wasm-file';
try { await init(); console.log(JSON.stringify({ loaded: true })); }
catch (e) { console.log(JSON.stringify({ isError: e instanceof CollidoscopeError, code: e.code, message: e.message })); }
`);
    expect(out.isError).toBe(true);
    expect(out.code).toBe('load-failed');
    expect(out.message).toMatch(/collidoscope_wasm\.wasm/);
    expect(out.message).toMatch(/ENOENT|no such file/);
  });

  it('the wasm-file loader takes every documented form of `wasm` and explains each failure', async () => {
    // The loader exactly as shipped inside wasm-file/index.mjs, bundled on its own beside the shipped glue so that
    // its options can be exercised directly (init() passes { wasm } through to it).
    const esbuild = await import('esbuild');
    const flavourDir = path.join(pkgDir, 'web', 'dist', 'lib', 'wasm-file');
    await esbuild.build({
      entryPoints: [path.join(ROOT, 'web', 'lib', 'wasm-file.ts')],
      outfile: path.join(flavourDir, 'loader-under-test.mjs'),
      bundle: true, format: 'esm', platform: 'neutral', logLevel: 'silent',
      plugins: [{ name: 'glue', setup(b) { b.onResolve({ filter: /^#collidoscope-wasm-file-glue$/ }, () => ({ path: './collidoscope_wasm.mjs', external: true })); } }],
    });
    const wasmPath = path.join(flavourDir, 'collidoscope_wasm.wasm');
    const out = runNode(consumer, 'loader.mjs', `
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import create from ${JSON.stringify(pathToFileURL(path.join(flavourDir, 'loader-under-test.mjs')).href)};
const wasmPath = ${JSON.stringify(wasmPath)};
const bytes = readFileSync(wasmPath);
let streamed = 0;
const streaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = (...a) => { streamed++; return streaming(...a); };
const server = createServer((req, res) => {
  if (req.url === '/missing.wasm') { res.writeHead(404, { 'Content-Type': 'text/plain' }); res.end('no'); return; }
  res.writeHead(200, { 'Content-Type': req.url === '/typed.wasm' ? 'application/wasm' : 'application/octet-stream' });
  res.end(bytes);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = 'http://127.0.0.1:' + server.address().port;
const cases = {
  default: undefined,
  path: wasmPath,
  fileUrl: pathToFileURL(wasmPath),
  fileUrlString: pathToFileURL(wasmPath).href,
  uint8Array: new Uint8Array(bytes),
  arrayBuffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
  response: new Response(bytes, { headers: { 'Content-Type': 'application/wasm' } }),
  untypedResponsePromise: Promise.resolve(new Response(bytes)),
  httpTyped: base + '/typed.wasm',
  httpUntyped: new URL(base + '/untyped.wasm'),
  httpMissing: base + '/missing.wasm',
  fetchedMissing: fetch(base + '/missing.wasm'),
  missingFile: wasmPath.replace(/collidoscope_wasm\\.wasm$/, 'nope.wasm'),
  notWasm: new Uint8Array([1, 2, 3, 4]),
  number: 42,
};
const results = {};
for (const [name, wasm] of Object.entries(cases)) {
  const s0 = streamed;
  try {
    const m = await create(name === 'default' ? undefined : { wasm });
    const reply = JSON.parse(m.runScene(JSON.stringify({ version: 1, query: 'distance',
      shapes: [{ type: 'sphere', radius: 1 }, { type: 'point', position: [3, 0, 0] }] }), false));
    results[name] = { distance: reply.value.distance, streamed: streamed - s0 };
  } catch (e) {
    results[name] = { error: String(e) };
  }
}
server.close();
console.log(JSON.stringify(results));
`);
    for (const name of ['default', 'path', 'fileUrl', 'fileUrlString', 'uint8Array', 'arrayBuffer']) {
      expect(out[name], name).toEqual({ distance: 2, streamed: 0 });
    }
    // Compiled while downloading only when the server says application/wasm; otherwise from the whole body.
    expect(out.response).toEqual({ distance: 2, streamed: 1 });
    expect(out.httpTyped).toEqual({ distance: 2, streamed: 1 });
    expect(out.untypedResponsePromise).toEqual({ distance: 2, streamed: 0 });
    expect(out.httpUntyped).toEqual({ distance: 2, streamed: 0 });
    expect(out.httpMissing.error).toMatch(/collidoscope\/wasm-file: could not fetch http:\/\/127\.0\.0\.1:\d+\/missing\.wasm: HTTP 404/);
    expect(out.fetchedMissing.error).toMatch(/missing\.wasm: HTTP 404/);
    expect(out.missingFile.error).toMatch(/could not read file:\/\/.*nope\.wasm: ENOENT/);
    expect(out.notWasm.error).toMatch(/CompileError/);
    expect(out.number.error).toMatch(/TypeError: collidoscope\/wasm-file: options\.wasm must be .* \(got number\)/);
  });

  it("'collidoscope/three' loads next to three.js and shares the library's module instead of bundling a copy", () => {
    // three.js is the user's (an optional peer dependency): take the repository's copy.
    symlinkSync(path.join(ROOT, 'node_modules', 'three'), path.join(consumer, 'node_modules', 'three'), 'dir');
    const out = runNode(consumer, 'three.mjs', `
const three = await import('collidoscope/three');
const threeFile = await import('collidoscope/wasm-file/three');
const { init, box } = await import('collidoscope');
await init();
// One init() serves the helpers: drawShape calls the library (it would throw 'not-initialized' on a copy).
const g = three.drawShape(box([1, 2, 3]), { position: [1, 0, 0] });
console.log(JSON.stringify({ exports: Object.keys(three).sort(), fileExports: Object.keys(threeFile).sort(),
  drawn: g.children.length, x: g.position.x }));
`);
    expect(out.exports).toEqual(expect.arrayContaining(['drawShape', 'drawResult', 'drawTraceFrame', 'dispose']));
    expect(out.drawn).toBeGreaterThan(0);
    expect(out.x).toBe(1);
    expect(out.fileExports).toEqual(out.exports);
    for (const f of ['web/dist/lib/three.mjs', 'web/dist/lib/wasm-file/three.mjs']) {
      const src = readFileSync(path.join(pkgDir, f), 'utf8');
      // Neither the wasm glue nor the library's own code (its registry calls) is bundled: it comes from ./index.mjs.
      expect(src, f).not.toMatch(/collidoscope_wasm|createCollidoscopeModule|_cds_query|runScene\(/);
    }
  });

  it('type-checks a TypeScript consumer with Node resolution, and rejects a wrong one', () => {
    rmSync(path.join(consumer, 'node_modules', '@types'), { recursive: true, force: true });
    symlinkSync(path.join(ROOT, 'node_modules', '@types'), path.join(consumer, 'node_modules', '@types'), 'dir');
    writeFileSync(path.join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: false, types: [] },
      files: ['good.mts'],
    }));
    writeFileSync(path.join(consumer, 'good.mts'), `
import {
  init, run, trace, encodeLink, decodeLink, validateScene, hull, boundingVolumes, CollidoscopeError,
  point, sphere, box, capsule, cylinder, cone, ellipsoid, segment, triangle, polytope, polytopeFromGeometry, createShape,
  intersect, distance, penetration, chungWang, sat, raycast, shapecast, sceneOf, batch, batchLayout, batchResult,
  IntersectCache, stats, ConvexShape, isClosedForm, setTolerance, getTolerance, DEFAULT_TOLERANCE,
  type DistanceResult, type Scene, type SatTrace, type PoseLike, type GjkTrace, type EpaTrace, type RaycastResult,
  type ClosedFormTrace,
  type ShapecastTrace, type IntersectResult, type HullResult, type ObbResult, type Vec3, type Scene2D,
} from 'collidoscope';
import * as separate from 'collidoscope/wasm-file';
import * as three from 'collidoscope/three';
import { BoxGeometry, Group, Object3D } from 'three';
await init({});
await separate.init({ wasm: new URL('https://example.invalid/collidoscope_wasm.wasm') });
const scene: Scene = { version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: 1 }, { type: 'point', position: [3, 0, 0] }] };
const d: number = (run(scene) as DistanceResult).distance;
const d2: number = (separate.run(scene) as separate.DistanceResult).distance;
const t: SatTrace = trace({ ...scene, query: 'sat' });
const axis: [number, number, number] = t.result.axis;
const e: CollidoscopeError | null = null;
const link: string = encodeLink(validateScene(scene));
const back: Scene | Scene2D = decodeLink(link);
const backDimension: 2 | undefined = 'dimension' in back ? back.dimension : undefined;

// Shapes, poses and queries.
const shapes: ConvexShape[] = [
  point({ margin: 0.1 }), sphere(1), box([1, 2, 3]), capsule(0.5, 1), cylinder(0.5, 1), cone(0.5, 1), ellipsoid([1, 2, 3]),
  segment([0, 0, 0], [1, 0, 0]), triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]), polytope([[0, 0, 0], [1, 0, 0], [0, 1, 0]]),
  polytope(new Float32Array(12)), polytopeFromGeometry(new BoxGeometry(1, 1, 1)), createShape({ type: 'sphere', radius: 2 }),
];
const object = new Object3D();
const poses: PoseLike[] = [object, [0, 0, 0, 0, 0, 0, 1], new Float32Array(7), { position: [1, 2, 3], rotation: [0, 0, 0, 1] }];
const [a, b] = shapes;
const cache = new IntersectCache();
const i: IntersectResult = intersect(a, poses[0], b, poses[1], { cache });
// A point and a sphere: a closed form, whose trace is one frame (isClosedForm tells it from GJK's steps).
const gt: GjkTrace | ClosedFormTrace = intersect(a, poses[0], b, poses[1], { trace: true, cache });
const form: string | null = isClosedForm(gt) ? gt.closedForm : gt.frames[0].kind;
const dist: DistanceResult = distance(a, undefined, b, poses[3]);
const et: EpaTrace | ClosedFormTrace = penetration(a, undefined, b, undefined, { trace: true });
const sep: Vec3 | null = chungWang(a, undefined, b, undefined).separatingAxis;
const depth: number = sat(shapes[2], undefined, shapes[9], undefined).depth;
const hit: RaycastResult = raycast(b, undefined, { origin: [-5, 0, 0], direction: { x: 1, y: 0, z: 0 }, maxT: 10 });
const st: ShapecastTrace = shapecast(a, undefined, b, undefined, { translationB: [1, 0, 0] }, { trace: true });
const s2: Scene = sceneOf('shapecast', a, undefined, b, undefined, { translationA: [0, 1, 0] });
const h: HullResult = hull(shapes[2], poses[2]);
const o: ObbResult = boundingVolumes(new Float64Array(9));
const out: Float64Array = batch('raycast', shapes, new Float32Array(7 * shapes.length), new Uint32Array([0, 1]), { rays: new Float64Array(14) });
const first: RaycastResult = batchResult('raycast', out, 0);
const stride: number = batchLayout('intersect').stride;
const mem: number = stats().heapBytes;
setTolerance(1e-4);
const tolerance: number = getTolerance();
setTolerance(DEFAULT_TOLERANCE);
{
  using temporary = sphere(1);
  distance(temporary, undefined, a, undefined);
}
for (const shape of shapes) shape.dispose();

// Debug drawing.
const group: Group = new Group();
group.add(three.drawShape(b, object), three.drawResult(dist), three.drawTraceFrame(gt, 0, { scene: s2 }));
three.dispose(group);
export { d, d2, axis, e, back, i, form, et, sep, depth, hit, st, h, o, first, stride, mem };
`);
    const good = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: consumer, encoding: 'utf8' });
    expect(good.stdout + good.stderr).toBe('');
    expect(good.status).toBe(0);
    // A misuse: a wrong query name and a string radius, in either flavour.
    writeFileSync(path.join(consumer, 'tsconfig.json'), readFileSync(path.join(consumer, 'tsconfig.json'), 'utf8').replace('good.mts', 'bad.mts'));
    writeFileSync(path.join(consumer, 'bad.mts'), `
import { run } from 'collidoscope';
import { run as run2 } from 'collidoscope/wasm-file';
run({ version: 1, query: 'teleport', shapes: [{ type: 'sphere', radius: '1' }] });
run2({ version: 1, query: 'warp', shapes: [{ type: 'sphere', radius: 1 }] });
import { sphere, distance, batch } from 'collidoscope';
sphere('big');
distance(sphere(1), undefined, { type: 'sphere', radius: 1 }, undefined);
batch('jump', [], new Float64Array(0), new Uint32Array(0));
`);
    const bad = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: consumer, encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/teleport/);
    expect(bad.stdout).toMatch(/warp/);
    expect(bad.stdout).toMatch(/bad\.mts\(7,8\).*'string' is not assignable to parameter of type 'number'/);
    expect(bad.stdout).toMatch(/bad\.mts\(8,.*ConvexShape/);
    expect(bad.stdout).toMatch(/"jump"/);
  }, 180_000); // two tsc runs over three.js's declarations
});

describe('the inlined wasm, packed', () => {
  // The default flavour as a browser loads it: without Node's zlib (process.getBuiltinModule), through
  // DecompressionStream; and in an engine with neither, a clear error. Each in a fresh Node process.
  const lib = pathToFileURL(path.join(ROOT, 'web', 'dist', 'lib', 'index.mjs')).href;
  const runWith = (prelude: string) =>
    spawnSync(process.execPath, ['--input-type=module', '-e', `${prelude}
const { init, distance, sphere } = await import(${JSON.stringify(lib)});
try {
  await init();
  console.log(JSON.stringify(distance(sphere(1), { position: [0, 0, 0] }, sphere(2), { position: [10, 0, 0] }).distance));
} catch (e) { console.log(e.code + ': ' + e.message); }`], { encoding: 'utf8' });

  it('unpacks through DecompressionStream where Node\'s zlib is not reachable', () => {
    const r = runWith('delete process.getBuiltinModule;');
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toBe(7); // 10 − 1 − 2
  });

  it('packing is done once: a build run again leaves a packed glue as it is, and a glue without a wasm is an error', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'collidoscope-pack-'));
    try {
      const glue = path.join(dir, 'collidoscope_wasm.mjs');
      const packed = readFileSync(path.join(ROOT, 'web', 'dist', 'lib', 'collidoscope_wasm.mjs'), 'utf8');
      writeFileSync(glue, packed);
      await packInlinedWasm(glue);
      expect(readFileSync(glue, 'utf8')).toBe(packed);
      writeFileSync(glue, 'export default createCollidoscopeModule;');
      await expect(packInlinedWasm(glue)).rejects.toThrow(/no inlined wasm found/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says which flavour to use in an engine that cannot unpack it', () => {
    const r = runWith('delete process.getBuiltinModule; delete globalThis.DecompressionStream;');
    expect(r.stdout).toMatch(/^load-failed: .*DecompressionStream.*collidoscope\/wasm-file/);
  });
});

describe('download size', () => {
  it('the default flavour (gzip -9, as shipped) is less than a fifth of @dimforge/rapier3d-compat', async () => {
    const m = await measureSizes();
    // The files a bundler takes: the library and its glue with the wasm inside; rapier's single ESM file.
    expect(m.default.files.map((f) => path.basename(f)).sort()).toEqual(['collidoscope_wasm.mjs', 'index.mjs']);
    expect(m.rapier.files.length).toBeGreaterThan(0);
    expect(m.rapier.gzip).toBeGreaterThan(500_000); // sanity: rapier's inlined wasm really was measured
    // rapier is a whole physics engine, so this compares downloads, not features: a collision library that
    // ships its own visual debugger should still cost a small fraction of it.
    expect(m.default.gzip).toBeLessThan(m.rapier.gzip / 5);
    // The inlined flavours carry their wasm gzipped before base64 (scripts/build.mjs packInlinedWasm), so the
    // download costs what the separate .wasm does: 'collidoscope/meshes' against the wasm-file flavour, which
    // links the same code, within 2 %; and the inlined file is smaller than the wasm it carries.
    expect(m.meshes.gzip).toBeLessThan(m.wasmFile.gzip * 1.02);
    const wasmBytes = statSync(path.join(ROOT, 'web', 'dist', 'lib', 'wasm-file', 'collidoscope_wasm.wasm')).size;
    expect(statSync(path.join(ROOT, 'web', 'dist', 'lib', 'meshes', 'collidoscope_wasm.mjs')).size).toBeLessThan(wasmBytes);
    // The default flavour leaves the mesh code out.
    expect(m.default.gzip).toBeLessThan(m.meshes.gzip);
  });
});
