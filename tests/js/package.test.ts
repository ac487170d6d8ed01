// The npm package as a user gets it: `npm pack`, the tarball unpacked into a fresh project's node_modules, then
//  - a Node ES module consumer imports 'collidoscope', awaits init() and runs queries (answers checked against
//    analytic values);
//  - tsc type-checks a TypeScript consumer against the shipped declarations with Node's own module resolution
//    (nodenext), and rejects a consumer that misuses the API (so the types are real, not `any`).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let work = '';
let consumer = '';
let packed: { files: { path: string }[] } = { files: [] };

beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'collidoscope-pack-'));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  packed = JSON.parse(out)[0];
  consumer = path.join(work, 'consumer');
  mkdirSync(path.join(consumer, 'node_modules'), { recursive: true });
  execFileSync('tar', ['-xzf', path.join(work, (packed as unknown as { filename: string }).filename), '-C', path.join(consumer, 'node_modules')]);
  renameSync(path.join(consumer, 'node_modules', 'package'), path.join(consumer, 'node_modules', 'collidoscope'));
  writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed npm package', () => {
  it('holds the library, its wasm, the CLI and the type declarations, and nothing else', () => {
    const files = packed.files.map((f) => f.path).sort();
    for (const f of ['package.json', 'web/dist/lib/index.mjs', 'web/dist/lib/index.d.ts', 'web/dist/lib/errors.d.ts',
      'web/dist/lib/link.d.ts', 'web/dist/lib/collidoscope_wasm.mjs', 'web/dist/lib/cli.mjs']) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => !f.startsWith('web/dist/lib/') && !['package.json', 'README.md', 'LICENSE'].includes(f))).toEqual([]);
  });

  it('loads in a Node ES module consumer and answers queries', () => {
    writeFileSync(path.join(consumer, 'main.mjs'), `
import { init, run, CollidoscopeError } from 'collidoscope';
await init();
const d = run({ version: 1, query: 'distance', shapes: [
  { type: 'sphere', radius: 1 }, { type: 'box', halfExtents: [1, 1, 1], position: [5, 0, 0] }] });
const c = run({ version: 1, query: 'raycast', shapes: [{ type: 'sphere', radius: 2 }],
  ray: { origin: [-10, 0, 0], direction: [1, 0, 0], maxT: 20 } });
let field = null;
try { run({ version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: NaN }, { type: 'point' }] }); }
catch (e) { field = e instanceof CollidoscopeError ? e.field : 'not a CollidoscopeError'; }
console.log(JSON.stringify({ distance: d.distance, t: c.t, field }));
`);
    const r = spawnSync(process.execPath, ['main.mjs'], { cwd: consumer, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.distance).toBeCloseTo(3, 12); // box face at x = 4, sphere surface at x = 1
    expect(out.t).toBeCloseTo(8, 12);        // the ray meets the sphere at x = −2
    expect(out.field).toBe('shapes[0].radius');
  });

  it('type-checks a TypeScript consumer with Node resolution, and rejects a wrong one', () => {
    writeFileSync(path.join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: false, types: [] },
      files: ['good.mts'],
    }));
    writeFileSync(path.join(consumer, 'good.mts'), `
import { init, run, trace, CollidoscopeError, type DistanceResult, type Scene, type SatTrace } from 'collidoscope';
await init();
const scene: Scene = { version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: 1 }, { type: 'point', position: [3, 0, 0] }] };
const d: number = (run(scene) as DistanceResult).distance;
const t: SatTrace = trace({ ...scene, query: 'sat' });
const axis: [number, number, number] = t.result.axis;
const e: CollidoscopeError | null = null;
export { d, axis, e };
`);
    const good = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: consumer, encoding: 'utf8' });
    expect(good.stdout + good.stderr).toBe('');
    expect(good.status).toBe(0);
    // A misuse: a wrong query name and a string radius.
    writeFileSync(path.join(consumer, 'tsconfig.json'), readFileSync(path.join(consumer, 'tsconfig.json'), 'utf8').replace('good.mts', 'bad.mts'));
    writeFileSync(path.join(consumer, 'bad.mts'), `
import { run } from 'collidoscope';
run({ version: 1, query: 'teleport', shapes: [{ type: 'sphere', radius: '1' }] });
`);
    const bad = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: consumer, encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/teleport/);
  });
});
