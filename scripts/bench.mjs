#!/usr/bin/env node
// `npm run bench`: builds what the benchmarks need and runs them; not part of `npm test`.
//   1. bootstrap (scripts/bootstrap.sh) + Google Benchmark (Debian libbenchmark-dev) if missing
//   2. wasm + JS bundles (scripts/build.mjs), native bench targets in build/bench (Release = -O2,
//      -DCOLLIDOSCOPE_BENCH=ON, tests off)
//   3. build/bench/collidoscope_bench (support queries, structure and hull construction)
//   4. bench/hull.mjs (hull construction vs three.js's ConvexHull, interleaved, medians)
//   4b. build/bench/collidoscope_iterations (Chung–Wang vs GJK intersect: iterations and time)
//   4c. bench/peers.mjs (libccd, Bullet, qhull natively), bench/wasm.mjs (rapier3d-compat and its SIMD build, crashcat, Jolt in Node; wasm
//       vs native), bench/scaling.mjs (the triangle-pairs / spheres / GJK scaling experiment; NoTrace vs no hooks),
//       bench/meshes.mjs (triangle meshes: three-mesh-bvh in Node, Bullet's btBvhTriangleMeshShape natively),
//       bench/frame_rate.mjs (mesh–mesh on two OBB trees and the seed's frame-rate experiment, natively),
//       bench/world.mjs (worlds: the collision phase and a 1 000-box pile against rapier3d-compat and cannon-es)
//   5. bench/results.json + bench/results.md: machine, compilers, flags, versions, medians, ratios
// Speed is only ever reported as ratios between contenders measured side by side in this run.
import { execFileSync, execSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = path.join(ROOT, 'build', 'bench');
const args = process.argv.slice(2);
const quick = args.includes('--quick'); // shorter runs, for trying the script out
// --only <section>: re-run one section of step 4c (after a change to its algorithm) and keep every other
// section of the last full run (bench/results.json); results.md says which section ran when.
const SECTIONS = [
  ['peers', 'peers.mjs', 'runPeers', 'peersMarkdown'],
  ['wasm', 'wasm.mjs', 'runWasm', 'wasmMarkdown'],
  ['scaling', 'scaling.mjs', 'runScaling', 'scalingMarkdown'],
  ['meshes', 'meshes.mjs', 'runMeshes', 'meshesMarkdown'],
  ['frameRate', 'frame_rate.mjs', 'runFrameRate', 'frameRateMarkdown'],
  ['world', 'world.mjs', 'runWorld', 'worldMarkdown'],
];
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args[onlyAt + 1] : null;
if (onlyAt >= 0 && !SECTIONS.some(([k]) => k === only)) {
  console.error(`bench: --only takes one of ${SECTIONS.map(([k]) => k).join(', ')}, got ${only ?? 'nothing'}`);
  process.exit(2);
}
const RESULTS_JSON = path.join(ROOT, 'bench', 'results.json');
const previous = only ? JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) : null;

function run(cmd, argv, opts = {}) {
  console.log(`$ ${[cmd, ...argv].join(' ')}`);
  const r = spawnSync(cmd, argv, { cwd: ROOT, stdio: 'inherit', ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited with ${r.status ?? r.signal}`);
}
const sh = (c) => {
  try {
    return execSync(c, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
};

// ---------------------------------------------------------------- 1. prerequisites
run('bash', [path.join(ROOT, 'scripts', 'bootstrap.sh')]);
// Debian packages of the native benchmarks and the peers they measure: Google Benchmark, libccd, Bullet, qhull.
const APT = { 'libbenchmark-dev': '/usr/include/benchmark/benchmark.h', 'libccd-dev': '/usr/include/ccd/ccd.h',
  'libbullet-dev': '/usr/include/bullet/btBulletCollisionCommon.h', 'libqhull-dev': '/usr/include/libqhull_r/libqhull_r.h',
  'pkg-config': '/usr/bin/pkg-config' };
const missing = Object.entries(APT).filter(([, file]) => !existsSync(file)).map(([pkg]) => pkg);
if (missing.length) {
  const root = process.getuid?.() === 0;
  const pre = root ? [] : ['sudo', '-n'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  console.log(`bench: installing ${missing.join(', ')}`);
  const [c, ...a] = [...pre, 'apt-get', 'update', '-qq'];
  run(c, a, { env });
  const [c2, ...a2] = [...pre, 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing];
  run(c2, a2, { env });
}

// ---------------------------------------------------------------- 2. builds
const { build } = await import(pathToFileURL(path.join(ROOT, 'scripts', 'build.mjs')).href);
await build(['wasm', 'js']);
// The world section runs in Node on the package alone; every other needs the native bench targets.
const native = only !== 'world';
if (native) {
  run('cmake', ['-S', ROOT, '-B', BUILD, '-DCMAKE_BUILD_TYPE=Release', '-DCOLLIDOSCOPE_BENCH=ON', '-DCOLLIDOSCOPE_BUILD_TESTS=OFF']);
  // Every bench target (bench/*.cmake add theirs: peers, the wasm-vs-native driver, the scaling experiment, ...).
  run('cmake', ['--build', BUILD, '--parallel', process.env.BUILD_JOBS ?? '2']);
}

// ---------------------------------------------------------------- 3–4b. native benchmarks, hulls, Chung–Wang
// (with --only: the last full run's, from results.json)
let support, crossover, dkFrom, builds, hullNative, hull, iterations, gbContext;
if (only) {
  ({ support: { rows: support, crossoverHillBeatsBrute: crossover, dkBeatsHillFrom: dkFrom }, supportBuild: builds, hullNative,
    hullVsThree: hull, chungWangVsGjk: iterations } = previous);
  gbContext = previous.machine.googleBenchmark;
} else {
  ({ support, crossover, dkFrom, builds, hullNative, hull, iterations, gbContext } = await runNativeSections());
}

async function runNativeSections() {
  const rawJson = path.join(BUILD, 'support_bench.json');
  run(path.join(BUILD, 'collidoscope_bench'), [
    `--benchmark_min_time=${quick ? 0.05 : 0.3}`,
    `--benchmark_repetitions=${quick ? 1 : 5}`,
    ...(quick ? [] : ['--benchmark_report_aggregates_only=true']),
    `--benchmark_out=${rawJson}`,
    '--benchmark_out_format=json',
  ]);
  const gb = JSON.parse(readFileSync(rawJson, 'utf8'));
  // name -> median CPU time in ns (the run_name of the median aggregate, or the single run).
  const timeOf = {};
  for (const b of gb.benchmarks) {
    if (b.run_type === 'aggregate' && b.aggregate_name !== 'median') continue;
    const unit = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 }[b.time_unit];
    timeOf[b.run_name ?? b.name] = { ns: b.cpu_time * unit, counters: b };
  }
  const ns = (name) => timeOf[name]?.ns;
  const sizes = [...new Set(Object.keys(timeOf).filter((k) => k.startsWith('BM_Support/points/')).map((k) => Number(k.split('/')[2])))].sort((a, b) => a - b);
  const support = sizes.map((n) => {
    const t = { points: ns(`BM_Support/points/${n}`), brute: ns(`BM_Support/brute/${n}`), hill: ns(`BM_Support/hill/${n}`), dk: ns(`BM_Support/dk/${n}`) };
    return {
      vertices: n,
      ns: t,
      levels: timeOf[`BM_Support/dk/${n}`]?.counters.levels,
      bruteOverHill: t.brute / t.hill,
      hillOverDk: t.hill / t.dk,
      pointsOverBest: t.points / Math.min(t.brute, t.hill, t.dk),
    };
  });
  const crossover = support.find((r, i) => support.slice(i).every((s) => s.bruteOverHill > 1))?.vertices ?? null;
  const dkFrom = support.find((r, i) => r.vertices >= 1000 && support.slice(i).every((s) => s.hillOverDk > 1))?.vertices ?? null;
  const builds = ['hill', 'dk'].flatMap((m) => [1000, 10000, 100000].map((n) => ({ method: m, points: n, ms: ns(`BM_SupportBuild/${m}/${n}`) / 1e6 })));
  const hullNative = ['ball', 'sphere'].flatMap((c) => [1000, 10000, 100000].map((n) => ({
    cloud: c, points: n, ms: ns(`BM_Hull/${c}/${n}`) / 1e6, vertices: timeOf[`BM_Hull/${c}/${n}`]?.counters.vertices,
  })));

  // ---------------------------------------------------------------- 4. hull vs three.js
  const { benchHull } = await import(pathToFileURL(path.join(ROOT, 'bench', 'hull.mjs')).href);
  const hull = await benchHull({ repeats: quick ? 3 : 7, sizes: quick ? [100000] : [10000, 100000] });

  // ---------------------------------------------------------------- 4b. Chung–Wang vs GJK intersect
  const iterations = JSON.parse(execFileSync(path.join(BUILD, 'collidoscope_iterations'), quick ? ['2', '3'] : ['12', '9'], { encoding: 'utf8' }));


  return { support, crossover, dkFrom, builds, hullNative, hull, iterations, gbContext: gb.context };
}

// ---------------------------------------------------------------- 4c. the peers, natively and in Node; scaling; NoTrace
// Each module runs its own interleaved measurements and returns JSON plus a markdown section.
const sections = [];
for (const [key, file, runName, mdName] of SECTIONS) {
  const mod = await import(pathToFileURL(path.join(ROOT, 'bench', file)).href);
  if (only && key !== only) {
    if (previous[key]) sections.push({ key, result: previous[key], markdown: mod[mdName](previous[key]) });
    continue;
  }
  console.log(`bench: ${file}`);
  const t = Date.now();
  const result = await mod[runName]({ quick, buildDir: BUILD });
  console.log(`bench: ${file} done in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  sections.push({ key, result, markdown: mod[mdName](result) });
}

// ---------------------------------------------------------------- 5. results
const ccFile = path.join(BUILD, 'compile_commands.json');
const cc = existsSync(ccFile) ? JSON.parse(readFileSync(ccFile, 'utf8')) : [];
const libCmd = cc.find((e) => e.file.endsWith('polytope_support.cpp'))?.command ?? '';
const flags = only ? previous.flags.native : libCmd.split(/\s+/).filter((f) => /^-(O|std|f|W|m|D)/.test(f) && !f.startsWith('-DCOLLIDOSCOPE_SOURCE')).join(' ');
const wasmFlags = sh(`grep -o -- '-O[0-9s]' ${path.join(ROOT, 'build', 'wasm', 'compile_commands.json')} | sort -u | tr '\\n' ' '`);
const THREE = await import('three');
const results = {
  date: new Date().toISOString(),
  commit: sh('git rev-parse --short HEAD') + (sh('git status --porcelain') ? ' (+ uncommitted changes)' : ''),
  machine: {
    cpu: os.cpus()[0]?.model, cores: os.cpus().length, memoryGB: +(os.totalmem() / 2 ** 30).toFixed(1),
    os: `${os.type()} ${os.release()}`, loadAverage: os.loadavg().map((x) => +x.toFixed(2)),
    googleBenchmark: gbContext,
  },
  versions: {
    node: process.version, gxx: sh('g++ --version').split('\n')[0], emcc: sh('emcc --version').split('\n')[0],
    three: THREE.REVISION, libbenchmark: sh("dpkg-query -W -f='${Version}' libbenchmark-dev"),
  },
  flags: { native: flags, wasmCompile: wasmFlags.trim(), wasmLink: '-O2 (CMakeLists.txt)' },
  support: { note: 'CPU ns per query, medians; points on the unit sphere (all hull vertices)', rows: support, crossoverHillBeatsBrute: crossover, dkBeatsHillFrom: dkFrom },
  supportBuild: builds,
  hullNative,
  hullVsThree: hull,
  chungWangVsGjk: iterations,
  ...Object.fromEntries(sections.map((x) => [x.key, x.result])),
};
// With --only, the run's own date, commit and machine go to `reruns`; the rest keeps the full run's.
if (only) {
  const rerun = { date: results.date, commit: results.commit, cpu: results.machine.cpu, loadAverage: results.machine.loadAverage };
  for (const k of ['date', 'commit', 'machine', 'versions', 'flags']) results[k] = previous[k];
  results.reruns = { ...(previous.reruns ?? {}), [only]: rerun };
} else {
  delete results.reruns;
}
writeFileSync(RESULTS_JSON, JSON.stringify(results, null, 2) + '\n');

const f = (x, d = 2) => (x === undefined || Number.isNaN(x) ? '—' : x.toFixed(d));
const md = [];
md.push('# collidoscope benchmarks', '');
md.push(`Generated by \`npm run bench\` (scripts/bench.mjs) on ${results.date}, commit ${results.commit}.`);
for (const [k, r] of Object.entries(results.reruns ?? {}))
  md.push(`The section \`${k}\` was re-run alone (\`npm run bench -- --only ${k}\`) on ${r.date}, commit ${r.commit}, ${r.cpu}, load average ${r.loadAverage.join(' / ')}.`);
md.push('Speed is reported as ratios between contenders measured side by side in this run; absolute times are for context only.', '');
md.push('## Machine and toolchain', '');
md.push(`- CPU: ${results.machine.cpu}, ${results.machine.cores} cores, ${results.machine.memoryGB} GB; ${results.machine.os}; load average at the end ${results.machine.loadAverage.join(' / ')}`);
md.push(`- ${results.versions.gxx}; flags: \`${flags}\``);
md.push(`- ${results.versions.emcc}; wasm compile ${results.flags.wasmCompile || '(see build/wasm)'}, link ${results.flags.wasmLink}`);
md.push(`- Node ${results.versions.node}; three.js r${results.versions.three}; Google Benchmark ${results.versions.libbenchmark}`, '');
md.push('## Support queries (native)', '');
md.push('One support query on V points of the unit sphere (every point is a hull vertex), 4096 fixed random directions; median CPU ns.', '');
md.push('| V | scan points | scan hull vertices | hill climb | DK hierarchy (levels) | brute / hill | hill / DK |');
md.push('|---:|---:|---:|---:|---:|---:|---:|');
for (const r of support)
  md.push(`| ${r.vertices} | ${f(r.ns.points, 1)} | ${f(r.ns.brute, 1)} | ${f(r.ns.hill, 1)} | ${f(r.ns.dk, 1)} (${r.levels ?? '—'}) | ${f(r.bruteOverHill)} | ${f(r.hillOverDk)} |`);
md.push('');
md.push(`- Hill climbing beats the scan from **${crossover ?? '—'}** vertices on (brute / hill > 1 from there).`);
md.push(`- The Dobkin–Kirkpatrick descent beats hill climbing (at ≥ 1000 vertices) from **${dkFrom ?? '—'}** vertices on.`);
md.push('- PolytopeSupport::Method::Auto: scan below kHillClimbMinVertices, hill climbing below kHierarchyMinVertices, DK above (polytope_support.h).', '');
md.push('Building the structure (hull included), points on a sphere, median ms:', '');
md.push('| points | hill climbing (= hull + adjacency) | DK hierarchy | DK / hill |', '|---:|---:|---:|---:|');
for (const n of [1000, 10000, 100000]) {
  const h = builds.find((b) => b.method === 'hill' && b.points === n)?.ms;
  const d = builds.find((b) => b.method === 'dk' && b.points === n)?.ms;
  md.push(`| ${n} | ${f(h)} | ${f(d)} | ${f(d / h)} |`);
}
md.push('');
md.push('Break-even: building costs as much as `build / (scan − walk)` queries save; see the tables (a one-shot scene query makes ~10–100 support calls, far fewer).', '');
md.push('## Hull construction', '');
md.push('Native buildHull, median ms:', '', '| cloud | points | hull vertices | ms |', '|---|---:|---:|---:|');
for (const r of hullNative) md.push(`| ${r.cloud} | ${r.points} | ${r.vertices ?? '—'} | ${f(r.ms)} |`);
md.push('');
md.push(`Against three.js's ConvexHull (setFromPoints), same clouds, interleaved in one Node process after warm-up, medians of ${hull.rows[0]?.repeats ?? '?'} repeats. Ratio = collidoscope time / three.js time (< 1: collidoscope faster). wasm goes through \`hull(Float64Array)\` of web/dist/lib/index.mjs (one copy into wasm memory, no scene JSON; the result JSON is included); native is build/bench/collidoscope_hull_timing.`, '');
if (Object.keys(hull.pending).length) {
  for (const [k, v] of Object.entries(hull.pending)) md.push(`- **${k} pending**: ${v}`);
  md.push('');
}
md.push('| cloud | points | three.js ms | wasm ms | native ms | wasm / three | native / three | hull vertices (three / ours) |');
md.push('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of hull.rows)
  md.push(`| ${r.cloud} | ${r.points} | ${f(r.medianMs.three, 1)} | ${f(r.medianMs.wasm, 1)} | ${f(r.medianMs.native, 1)} | ${f(r.ratioVsThree.wasm)} | ${f(r.ratioVsThree.native)} | ${r.hull.three?.vertices ?? '—'} / ${(r.hull.wasm ?? r.hull.native)?.vertices ?? '—'} |`);
md.push('');
md.push('## Chung–Wang against GJK intersect', '');
md.push(`Same random pairs (${iterations.pairsPerClass} per class: every pair of ${iterations.types.join(', ')}), placed at a signed distance found by bisection. Iterations per query (mean / median / p90 / p99 / max) and median ns per query over interleaved passes (build/bench/collidoscope_iterations, bench/iterations.cpp). Near touching: |signed distance| ≤ 1e-6 of the size; exactly touching pairs, which Chung–Wang never decides, are in the C++ tests (test_chung_wang.cpp).`, '');
md.push('| pairs | Chung–Wang iterations | GJK iterations | Chung–Wang ns | GJK ns | CW / GJK time | disagreements |', '|---|---|---|---:|---:|---:|---:|');
const its = (x) => `${x.mean} / ${x.median} / ${x.p90} / ${x.p99} / ${x.max}`;
for (const c of iterations.classes)
  md.push(`| ${c.name} | ${its(c.chungWang.iterations)} | ${its(c.gjkIntersect.iterations)} | ${f(c.chungWang.medianNs, 0)} | ${f(c.gjkIntersect.medianNs, 0)} | ${f(c.chungWang.medianNs / c.gjkIntersect.medianNs)} | ${c.disagreements} |`);
md.push('');
for (const x of sections) md.push(...x.markdown, '');
writeFileSync(path.join(ROOT, 'bench', 'results.md'), md.join('\n'));
console.log(md.join('\n'));
console.log('bench: wrote bench/results.md and bench/results.json');
