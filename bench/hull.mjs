#!/usr/bin/env node
// Hull construction: collidoscope vs three.js's ConvexHull on the same
// clouds, in one process, interleaved, after warm-up; medians over repeats,
// reported as ratios (collidoscope time / three.js time: < 1 means faster).
//
//   node bench/hull.mjs [--repeats N] [--json OUT]
//
// Contenders per cloud (100 000 points uniform in a ball and on a sphere;
// 10 000 too for the curve):
//   three      new ConvexHull().setFromPoints(vectors)   (THREE.Vector3[] built beforehand)
//   wasm       hull(Float64Array) — the typed-array API (the scene path adds JSON parsing)
//              through web/dist/lib/index.mjs — includes the scene's JSON round trip,
//              which is what a user of the npm package pays
//   native     build/bench/collidoscope_hull_timing (g++ -O2), same cloud via a
//              float64 file; one process per repeat, its own warm-up build,
//              timed inside (process start not counted)
// A contender that is not available (wasm without the 'hull' query, no native
// harness) is reported as pending, not faked.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { mulberry32 } from './random.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------- clouds (seeded, reproducible)
function gaussian(rnd) {
  const u = Math.max(rnd(), 1e-300);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
}
export function cloud(kind, n, seed) {
  const rnd = mulberry32(seed);
  const pts = new Array(n);
  for (let i = 0; i < n; ++i) {
    let x, y, z, l;
    do {
      x = gaussian(rnd);
      y = gaussian(rnd);
      z = gaussian(rnd);
      l = Math.hypot(x, y, z);
    } while (l < 1e-6);
    const r = kind === 'ball' ? Math.cbrt(rnd()) : 1;
    pts[i] = [(x / l) * r, (y / l) * r, (z / l) * r];
  }
  return pts;
}

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// ---------------------------------------------------------------- contenders
async function loadThree() {
  const THREE = await import('three');
  const { ConvexHull } = await import('three/examples/jsm/math/ConvexHull.js');
  return {
    prepare: (pts) => pts.map(([x, y, z]) => new THREE.Vector3(x, y, z)),
    run: (vecs) => {
      const h = new ConvexHull().setFromPoints(vecs);
      return { vertices: new Set(h.faces.flatMap((f) => {
        const vs = [];
        let e = f.edge;
        do {
          vs.push(e.head().point);
          e = e.next;
        } while (e !== f.edge);
        return vs;
      })).size, faces: h.faces.length };
    },
  };
}

async function loadWasm() {
  const lib = path.join(ROOT, 'web', 'dist', 'lib', 'index.mjs');
  if (!existsSync(lib)) return { pending: 'web/dist/lib/index.mjs not built' };
  const api = await import(pathToFileURL(lib).href);
  await api.init();
  try {
    const r = api.run({ version: 1, query: 'hull', shapes: [{ type: 'polytope', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]] }] });
    if (!r || !Array.isArray(r.vertices)) return { pending: "the wasm 'hull' query returned no vertices" };
  } catch (e) {
    return { pending: `the wasm 'hull' query is not wired yet (${e.code ?? ''} ${e.message})` };
  }
  // The typed-array API (one copy into wasm memory, no JSON), as a game
  // would call it with a geometry's position array; the input is prepared
  // outside the timing, as three.js's Vector3 list is.
  return {
    prepare: (pts) => Float64Array.from(pts.flat()),
    run: (flat) => {
      const r = api.hull(flat);
      return { vertices: r.vertices.length, faces: r.faces.length };
    },
  };
}

function loadNative(tmp) {
  const exe = path.join(ROOT, 'build', 'bench', 'collidoscope_hull_timing');
  if (!existsSync(exe)) return { pending: 'build/bench/collidoscope_hull_timing not built (npm run bench builds it)' };
  return {
    prepare: (pts, name) => {
      const file = path.join(tmp, `${name}.f64`);
      const buf = new Float64Array(pts.length * 3);
      pts.forEach((p, i) => buf.set(p, 3 * i));
      writeFileSync(file, Buffer.from(buf.buffer));
      return file;
    },
    // Timed inside the process (after one warm-up build).
    runTimed: (file) => {
      const r = spawnSync(exe, [file, '1'], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`collidoscope_hull_timing failed: ${r.stderr}`);
      const o = JSON.parse(r.stdout);
      return { ms: o.ms, vertices: o.vertices, faces: o.triangles };
    },
  };
}

// ---------------------------------------------------------------- the run
export async function benchHull({ repeats = 7, warmup = 2, sizes = [10000, 100000], log = console.log } = {}) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'collidoscope-bench-'));
  try {
    const three = await loadThree();
    const wasm = await loadWasm();
    const native = loadNative(tmp);
    const pending = {};
    if (wasm.pending) pending.wasm = wasm.pending;
    if (native.pending) pending.native = native.pending;
    for (const [k, v] of Object.entries(pending)) log(`hull bench: ${k} pending: ${v}`);

    const rows = [];
    for (const kind of ['ball', 'sphere']) {
      for (const n of sizes) {
        const pts = cloud(kind, n, kind === 'ball' ? 1 : 2);
        const name = `${kind}-${n}`;
        const input = { three: three.prepare(pts) };
        if (!wasm.pending) input.wasm = wasm.prepare(pts);
        if (!native.pending) input.native = native.prepare(pts, name);
        const times = { three: [], wasm: [], native: [] };
        const info = {};
        const timeJs = (c, key) => {
          const t0 = performance.now();
          const r = c.run(input[key]);
          const ms = performance.now() - t0;
          info[key] = r;
          return ms;
        };
        for (let w = 0; w < warmup; ++w) {
          timeJs(three, 'three');
          if (!wasm.pending) timeJs(wasm, 'wasm');
        }
        // Interleaved: each repeat runs every contender once, in rotating order.
        for (let r = 0; r < repeats; ++r) {
          const order = ['three', 'wasm', 'native'];
          for (let k = 0; k < r % 3; ++k) order.push(order.shift());
          for (const key of order) {
            if (key === 'three') times.three.push(timeJs(three, 'three'));
            else if (key === 'wasm' && !wasm.pending) times.wasm.push(timeJs(wasm, 'wasm'));
            else if (key === 'native' && !native.pending) {
              const o = native.runTimed(input.native);
              info.native = { vertices: o.vertices, faces: o.faces };
              times.native.push(o.ms);
            }
          }
        }
        const row = { cloud: kind, points: n, repeats, medianMs: {}, ratioVsThree: {}, hull: info };
        for (const key of ['three', 'wasm', 'native']) {
          if (times[key].length) row.medianMs[key] = median(times[key]);
        }
        for (const key of ['wasm', 'native']) {
          if (row.medianMs[key] !== undefined) row.ratioVsThree[key] = row.medianMs[key] / row.medianMs.three;
        }
        log(`hull bench: ${name}: ` + Object.entries(row.medianMs).map(([k, v]) => `${k} ${v.toFixed(1)} ms`).join(', ') +
            '  ratios vs three: ' + Object.entries(row.ratioVsThree).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', '));
        rows.push(row);
      }
    }
    const THREE = await import('three');
    return { threeRevision: THREE.REVISION, pending, rows };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const args = process.argv.slice(2);
  const opt = (name, def) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : def;
  };
  const out = await benchHull({ repeats: Number(opt('--repeats', 7)) });
  const json = opt('--json');
  if (json) writeFileSync(json, JSON.stringify(out, null, 2) + '\n');
  else console.log(JSON.stringify(out, null, 2));
}
