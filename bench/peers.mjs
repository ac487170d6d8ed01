#!/usr/bin/env node
// Native peers: collidoscope against libccd, Bullet and qhull on identical
// inputs — intersect, distance, penetration and hull construction — with
// accuracy against exact references, and each query's time over the time of
// the support calls it makes. Drives build/bench/collidoscope_peers
// (bench/peers.cpp, target from bench/peers.cmake).
//
//   import { runPeers, peersMarkdown } from './bench/peers.mjs';
//   const result = await runPeers({ quick, buildDir });   // plain JSON-able object
//   const lines = peersMarkdown(result);                   // markdown lines (## section)
//
//   node bench/peers.mjs [--quick] [--json out.json]       // prints the markdown
//
// runPeers builds the target itself (cmake --build buildDir --target
// collidoscope_peers; configures buildDir first if it has no CMakeCache.txt).
// Needs the Debian packages libccd-dev, libbullet-dev, libqhull-dev and
// pkg-config; without them the result is { skipped: reason }.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET = 'collidoscope_peers';

const sh = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
};

function ensureBuilt(buildDir) {
  const log = [];
  const step = (args) => {
    const r = spawnSync('cmake', args, { cwd: ROOT, encoding: 'utf8' });
    log.push(`$ cmake ${args.join(' ')}`, r.stdout ?? '', r.stderr ?? '');
    return r.status === 0;
  };
  if (!existsSync(path.join(buildDir, 'CMakeCache.txt')))
    step(['-S', ROOT, '-B', buildDir, '-DCMAKE_BUILD_TYPE=Release', '-DCOLLIDOSCOPE_BENCH=ON', '-DCOLLIDOSCOPE_BUILD_TESTS=OFF']);
  const ok = step(['--build', buildDir, '--parallel', process.env.BUILD_JOBS ?? '2', '--target', TARGET]);
  const exe = path.join(buildDir, TARGET);
  return ok && existsSync(exe) ? { exe } : { error: `could not build ${TARGET}`, log: log.join('\n').slice(-4000) };
}

function runJson(exe, args, timeoutMs) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(exe, args, { encoding: 'utf8', maxBuffer: 256 * 2 ** 20, timeout: timeoutMs });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.error || r.status !== 0)
    throw new Error(`${path.basename(exe)} ${args.join(' ')}: ${r.error?.message ?? `exit ${r.status ?? r.signal}`}\n${(r.stderr ?? '').slice(-2000)}`);
  return { data: JSON.parse(r.stdout), seconds };
}

function machineAndToolchain(buildDir, versions) {
  const lscpu = sh('lscpu', []);
  const field = (name) => lscpu.match(new RegExp(`^${name}:\\s*(.+)$`, 'm'))?.[1]?.trim();
  let command = '';
  try {
    const cc = JSON.parse(readFileSync(path.join(buildDir, 'compile_commands.json'), 'utf8'));
    command = cc.find((e) => e.file.endsWith(path.join('bench', 'peers.cpp')))?.command ?? '';
  } catch {}
  const words = command.split(/\s+/);
  const flags = words.filter((f) => /^-(O|std|f|W|m|D)/.test(f)).join(' ');
  const compiler = words[0] ? sh(words[0], ['--version']).split('\n')[0] : '';
  const dpkg = sh('dpkg-query', ['-W', '-f=${Package} ${Version}\\n', 'libccd-dev', 'libbullet-dev', 'libqhull-dev']);
  const packages = Object.fromEntries(dpkg.split('\n').filter(Boolean).map((l) => l.split(' ')));
  return {
    machine: {
      cpu: field('Model name') ?? os.cpus()[0]?.model,
      cores: os.cpus().length,
      threadsPerCore: Number(field('Thread\\(s\\) per core')) || undefined,
      memoryGB: +(os.totalmem() / 2 ** 30).toFixed(1),
      os: `${os.type()} ${os.release()}`,
      loadAverageAtEnd: os.loadavg().map((x) => +x.toFixed(2)),
    },
    compiler,
    flags,
    peers: {
      'libccd-dev': packages['libccd-dev'] ?? null,
      'libbullet-dev': packages['libbullet-dev'] ?? null,
      'libqhull-dev': packages['libqhull-dev'] ?? null,
      bulletVersion: versions.bulletVersion,
      bulletDoublePrecision: versions.bulletDouble,
      ccdDoublePrecision: versions.ccdDouble,
      qhullVersion: versions.qhull,
    },
  };
}

// What each contender was run with (the harness sets these; bench/peers.cpp).
const SETTINGS = {
  collidoscope:
    'defaults: GJK relative and absolute tolerance 1e-10, 256 iterations; EPA 1e-10 / 1e-10, 506 iterations (512-vertex polytope); Chung–Wang 256 iterations. Shapes built with Shape::polytope (scan below 96 points, hill climbing / Dobkin–Kirkpatrick from 96); the "scan" columns reset polytopeSupport to force the plain scan.',
  libccd:
    'CCD_INIT defaults: max_iterations = (unsigned long)-1 (no cap), epa_tolerance 1e-4, mpr_tolerance 1e-4, dist_tolerance 1e-6, first_dir = ccdFirstDirDefault; double precision (CCD_DOUBLE). Support callbacks call collidoscope::fullSupport on the same Shape (core support + radius along the direction); centers (needed by MPR) are the world centroid of a polytope\'s points, else the position. libccd 2.1 has no distance query (only ccdGJKIntersect, ccdGJKSeparate, ccdGJKPenetration, ccdMPRIntersect, ccdMPRPenetration).',
  bullet:
    'double precision (libBulletCollision-float64 / libLinearMath-float64, BT_USE_DOUBLE_PRECISION). btSphereShape(r) and btCapsuleShape(r, 2·halfHeight) keep Bullet\'s margin = radius (a core plus a radius, as ours); btBoxShape and btConvexHullShape (same points) get setMargin(0). btGjkPairDetector: btVoronoiSimplexSolver + btGjkEpaPenetrationDepthSolver (as Bullet\'s convex–convex algorithm), m_maximumDistanceSquared at its default (BT_LARGE_FLOAT); compile-time tolerances of the double build (REL_ERROR2 1e-12, gGjkEpaPenetrationTolerance, 1000 iterations). btGjkEpaSolver2 (GJK_ACCURACY and EPA_ACCURACY 1e-12, 128 GJK iterations, EPA 128 vertices / 255 iterations in the double build), guess = B\'s origin − A\'s; Distance() works on the cores, the harness subtracts the margins; Penetration(usemargins = true); its normal is returned in A\'s local frame and the harness rotates it to world space.',
  qhull:
    'libqhull_r qh_new_qhull(dim 3, "qhull") — default options (facets merged within roundoff, no triangulation); the time includes qh_freeqhull and qh_memfreeshort.',
  bulletHull: 'btConvexHullComputer::compute(double coords, stride 24, shrink 0, shrinkClamp 0).',
};

export async function runPeers({ quick = false, buildDir = path.join(ROOT, 'build', 'bench') } = {}) {
  const t0 = process.hrtime.bigint();
  const built = ensureBuilt(buildDir);
  if (built.error) return { skipped: `${built.error} (needs libccd-dev, libbullet-dev, libqhull-dev, pkg-config)`, log: built.log };
  const versions = runJson(built.exe, ['versions']).data;
  const queryArgs = quick
    ? ['queries', '--pairs', '16', '--pairs1024', '4', '--repeats', '5', '--sample-us', '300']
    : ['queries', '--pairs', '160', '--pairs1024', '48', '--repeats', '15', '--sample-us', '2000'];
  const hullArgs = quick ? ['hull', '--sizes', '1000,10000,100000', '--repeats', '5'] : ['hull', '--sizes', '1000,10000,100000', '--repeats', '9'];
  const queries = runJson(built.exe, queryArgs, 20 * 60 * 1000);
  const hull = runJson(built.exe, hullArgs, 20 * 60 * 1000);
  return {
    quick,
    arguments: { queries: queryArgs.slice(1), hull: hullArgs.slice(1) },
    ...machineAndToolchain(buildDir, versions),
    settings: SETTINGS,
    queries: queries.data,
    hull: hull.data,
    seconds: { queries: +queries.seconds.toFixed(1), hull: +hull.seconds.toFixed(1), total: +(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1) },
  };
}

// ---------------------------------------------------------------- markdown

const POSES = { separated: 'separated', nearGap: 'near, gap 1e-3', nearOverlap: 'near, overlap 1e-3', overlapping: 'overlapping' };
const POSES_SHORT = { separated: 'separated', nearGap: 'near gap', nearOverlap: 'near overlap', overlapping: 'overlapping' };
const SHORT = {
  ours: 'collidoscope', oursCW: 'Chung–Wang', oursScan: 'ours (scan support)', ccdGJK: 'libccd GJK', ccdMPR: 'libccd MPR',
  btPair: 'Bullet btGjkPairDetector', btGjkEpa2: 'Bullet btGjkEpaSolver2',
};

const fmtNs = (x) => (x == null || !Number.isFinite(x) ? '—' : x >= 10000 ? `${(x / 1000).toFixed(1)} µs` : `${Math.round(x)}`);
const fmtR = (x) => (x == null || !Number.isFinite(x) ? '—' : x >= 10 ? `${x.toFixed(0)}×` : `${x.toFixed(2)}×`);
const fmtE = (x) => (x == null || !Number.isFinite(x) ? '—' : x === 0 ? '0' : x.toExponential(1));
const fmtIt = (x) => (x == null || !Number.isFinite(x) ? '' : ` (${x.toFixed(1)} it)`);
const median = (xs) => {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return v.length ? (v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2) : NaN;
};
const geomean = (xs) => {
  const v = xs.filter((x) => Number.isFinite(x) && x > 0);
  return v.length ? Math.exp(v.reduce((s, x) => s + Math.log(x), 0) / v.length) : NaN;
};

function ratioSummary(q, ids, base = 'ours') {
  const out = {};
  for (const id of ids) {
    const rs = q.cells.map((c) => c.ns[id] / c.ns[base]);
    const v = rs.filter(Number.isFinite);
    out[id] = { geomean: geomean(v), min: Math.min(...v), max: Math.max(...v), slower: v.filter((r) => r < 1).length, cells: v.length };
  }
  return out;
}

function timeTable(md, q, ids, itersFor) {
  md.push(`| shape | pose | ${ids.map((id) => SHORT[id]).join(' | ')} |`);
  md.push(`|---|---|${ids.map(() => '---:').join('|')}|`);
  for (const c of q.cells) {
    const cells = ids.map((id) => {
      const ns = c.ns[id];
      if (ns == null) return '—';
      const it = itersFor.includes(id) ? fmtIt(c.accuracy[id]?.iterationsMean) : '';
      return id === 'ours' ? `**${fmtNs(ns)}**${it}` : `${fmtNs(ns)}${it} · ${fmtR(ns / c.ns.ours)}`;
    });
    md.push(`| ${c.shape} | ${POSES[c.pose]} | ${cells.join(' | ')} |`);
  }
  const s = ratioSummary(q, ids.filter((id) => id !== 'ours'));
  md.push(`| **geometric mean of the ratios** | | — | ${ids.filter((id) => id !== 'ours').map((id) => fmtR(s[id].geomean)).join(' | ')} |`);
  md.push('');
  return s;
}

// Where a contender's answers go wrong (errors over 1e-3, wrong / no answers, NaN), by shape, worst first.
function whereBad(q, id) {
  const by = new Map();
  for (const c of q.cells) {
    const a = c.accuracy[id];
    if (!a) continue;
    const [bad, n] = by.get(c.shape) ?? [0, 0];
    by.set(c.shape, [bad + (a.over1e3 ?? 0) + a.wrong + a.noAnswer + a.nan, n + a.n]);
  }
  return [...by].filter(([, [bad]]) => bad > 0).sort((x, y) => y[1][0] / y[1][1] - x[1][0] / x[1][1]).map(([shape, [bad, n]]) => `${shape} ${bad}/${n}`);
}

function accuracyTable(md, q, ids, { values, normals }) {
  const head = ['contender', 'pose', 'pairs', 'wrong answer', 'no answer', 'NaN'];
  if (values) head.push(normals ? 'depth error median / max' : 'error median / max');
  if (normals) head.push('normal error median / max');
  if (values) head.push('> 1e-9', '> 1e-6', '> 1e-3');
  head.push('iterations mean (max) · support calls');
  md.push(`| ${head.join(' | ')} |`, `|---|---|${head.slice(2).map(() => '---:').join('|')}|`);
  for (const id of ids) {
    const byPose = q.accuracyByPose[id] ?? {};
    for (const [pose, a] of Object.entries(byPose)) {
      const row = [SHORT[id], POSES[pose], a.n, a.wrong, a.noAnswer, a.nan];
      if (values) row.push(`${fmtE(a.errMedian)} / ${fmtE(a.errMax)}`);
      if (normals) row.push(`${fmtE(a.normalErrMedian)} / ${fmtE(a.normalErrMax)}`);
      if (values) row.push(a.over1e9 ?? '—', a.over1e6 ?? '—', a.over1e3 ?? '—');
      row.push(iterCell(a));
      md.push(`| ${row.join(' | ')} |`);
    }
  }
  md.push('');
}

const iterCell = (a) =>
  `${a.iterationsMean != null ? `${a.iterationsMean.toFixed(1)} (${a.iterationsMax})` : '—'} · ${a.supportCallsMean != null ? a.supportCallsMean.toFixed(1) : '—'}`;

// Intersect: one row per contender, the four pose classes side by side.
function intersectAccuracyTable(md, q, ids) {
  const poses = Object.keys(POSES);
  md.push(`| contender | wrong answers (${poses.map((p) => POSES[p]).join(' / ')}) | no answer | iterations mean (max) · support calls, per pose class |`);
  md.push('|---|---:|---:|---|');
  for (const id of ids) {
    const a = q.accuracyByPose[id] ?? {};
    md.push(`| ${SHORT[id]} | ${poses.map((p) => a[p]?.wrong ?? '—').join(' / ')} | ${poses.reduce((s, p) => s + (a[p]?.noAnswer ?? 0), 0)} | ${poses.map((p) => (a[p] ? iterCell(a[p]) : '—')).join('; ')} |`);
  }
  md.push('');
}

const sum = (xs) => xs.reduce((s, x) => s + x, 0);
const totals = (q, id, key) => sum(Object.values(q.accuracyByPose[id] ?? {}).map((a) => a[key] ?? 0));
const failures = (q, id) => totals(q, id, 'wrong') + totals(q, id, 'noAnswer') + totals(q, id, 'nan');
const pairsOf = (q, id) => totals(q, id, 'n');
const list = (xs) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

// Cells where `id` beats collidoscope by more than 10 %, grouped by shape.
function losses(q, id, base = 'ours') {
  const by = new Map();
  for (const c of q.cells) {
    const r = c.ns[id] / c.ns[base];
    if (Number.isFinite(r) && r < 0.9) by.set(c.shape, [...(by.get(c.shape) ?? []), POSES_SHORT[c.pose]]);
  }
  const all = new Set(q.cells.map((c) => c.pose)).size;
  return [...by].map(([shape, poses]) => `${shape} (${poses.length === all ? 'every pose' : poses.join(' / ')})`);
}

function groupRatio(q, id, shapes) {
  return geomean(q.cells.filter((c) => shapes.includes(c.shape)).map((c) => c.ns[id] / c.ns.ours));
}
const POLY = ['polytope 8', 'polytope 32', 'polytope 128', 'polytope 1024', 'box'];
const ROUND = ['sphere', 'capsule'];

// ---- query time over support time

const QUERY_NAMES = { intersect: 'intersect', distance: 'distance', penetration: 'penetration' };
// Pairs the library's API (api.cpp, batch) answers by a closed form on the cores (closed_form.h), with no support call.
const CLOSED_FORM = ['sphere', 'capsule'];

// Per cell of a query: its time over (support calls × the time of one support of A plus one of B), both measured in that cell.
function supportRatios(q) {
  return q.cells.map((c) => {
    const calls = c.accuracy.ours?.supportCallsMean;
    const sp = c.supportPair ?? {};
    const ratio = calls > 0 && sp.ns > 0 ? c.ns.ours / (calls * sp.ns) : NaN;
    const own = sp.replayCalls > 0 && sp.replayNs > 0 ? c.ns.ours / sp.replayNs : NaN;
    return { shape: c.shape, pose: c.pose, ns: c.ns.ours, calls, pairNs: sp.ns, ratio, own, replayNs: sp.replayNs, replayCalls: sp.replayCalls };
  });
}

// "shape (poses)" for the cells that pass `keep`, grouped by shape; "every pose" when all of the query's do.
function cellsByShape(xs, keep, extra = () => '') {
  const by = new Map();
  for (const x of xs) if (keep(x)) by.set(x.shape, [...(by.get(x.shape) ?? []), x]);
  const all = new Set(xs.map((x) => x.pose)).size;
  return [...by].map(([shape, ys]) => `${shape} (${ys.length === all ? 'every pose' : ys.map((x) => POSES_SHORT[x.pose]).join(' / ')}${extra(ys)})`);
}

function supportRatioSection(md, Q) {
  const ids = Object.keys(QUERY_NAMES).filter((id) => Q.queries[id]?.cells?.some((c) => c.supportPair));
  if (!ids.length) return;
  const per = Object.fromEntries(ids.map((id) => [id, supportRatios(Q.queries[id])]));
  md.push('### Query time over the time of its support calls', '');
  md.push(
    'How close each query comes to the cost of the support calls it cannot avoid. In every cell the harness also times the support pair — one support of A plus one of B, ' +
      'through PosedShape as the queries call them (minkowskiSupport: the unit in which GJK and EPA ask for a point of A − B), along 8 random unit directions per pair of the cell — ' +
      'in the same interleaved samples as the contenders above (thread CPU time, medians over the same repeats, the same pairs). ' +
      'The support calls per query are counted in the untimed accuracy pass (GJK and EPA together; the "support calls" of the tables above). ' +
      'Each entry is **ratio = query time ÷ (support calls × support-pair time)**, then (support calls × support-pair ns): 1× would be a query that does nothing but call supports; ' +
      'the rest is the algorithm\'s own work — GJK\'s simplex solver, EPA\'s polytope bookkeeping, setup and the result. ' +
      '"Own directions" sets the query time against a replay of exactly the support calls the query made, along its own directions (recorded per pair, timed in the same samples): ' +
      'random directions can cost a support more or less than the query\'s — on large polytopes a query\'s directions converge and its hill-climbing walks retrace vertices already in cache. ' +
      'Spheres and capsules: the library\'s API answers these pairs by a closed form on the cores (closed_form.h), with no support call at all; ' +
      'this bench calls gjkIntersect, gjkDistance and penetration directly, so their rows measure the general algorithms on a point or segment core.',
    '',
  );
  const poses = Object.keys(POSES);
  md.push(`| shape | pose | ${ids.map((id) => QUERY_NAMES[id]).join(' | ')} |`);
  md.push(`|---|---|${ids.map(() => '---:').join('|')}|`);
  const shapes = [...new Set(ids.flatMap((id) => per[id].map((x) => x.shape)))];
  const entry = (x) =>
    !x
      ? ''
      : Number.isFinite(x.ratio)
        ? `**${fmtR(x.ratio)}** (${x.calls.toFixed(1)} × ${x.pairNs.toFixed(0)} ns) · own directions ${fmtR(x.own)}`
        : x.calls === 0
          ? 'closed form (no support call)'
          : '—';
  for (const shape of shapes)
    for (const pose of poses) {
      const xs = ids.map((id) => per[id].find((x) => x.shape === shape && x.pose === pose));
      if (xs.every((x) => !x)) continue;
      const name = CLOSED_FORM.includes(shape) ? `${shape} (closed form in the API)` : shape;
      md.push(`| ${name} | ${POSES[pose]} | ${xs.map(entry).join(' | ')} |`);
    }
  const gm = (id, pick, key = 'ratio') => geomean(per[id].filter(pick).map((x) => x[key]));
  const general = (x) => !CLOSED_FORM.includes(x.shape);
  const every = () => true;
  md.push(
    `| **geometric mean** (polytopes and boxes) | | ${ids.map((id) => `**${fmtR(gm(id, general))}** · own directions ${fmtR(gm(id, general, 'own'))}`).join(' | ')} |`,
    `| geometric mean (every cell) | | ${ids.map((id) => `${fmtR(gm(id, every))} · own directions ${fmtR(gm(id, every, 'own'))}`).join(' | ')} |`,
    '',
  );
  const over = (id) => cellsByShape(per[id], (x) => x.ratio > 2, (ys) => `; up to ${fmtR(Math.max(...ys.map((x) => x.ratio)))}`);
  const within = (id) => cellsByShape(per[id], (x) => x.ratio <= 2);
  // Where the replay puts a cell on the other side of 2×.
  const flips = ids.flatMap((id) => per[id].filter((x) => x.ratio > 2 !== x.own > 2 && Number.isFinite(x.own)).map((x) => `${QUERY_NAMES[id]} ${x.shape} ${POSES_SHORT[x.pose]} (${fmtR(x.ratio)}, own directions ${fmtR(x.own)})`));
  const worst = ids.flatMap((id) => per[id].map((x) => ({ ...x, id }))).filter((x) => Number.isFinite(x.ratio)).sort((a, b) => b.ratio - a.ratio)[0];
  // ns a query spends outside its support calls, per call (against the replay of its own calls).
  const outside = (id) => per[id].filter(general).map((x) => (x.ns - x.replayNs) / x.replayCalls).filter(Number.isFinite);
  const range = (xs) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))} ns (median ${Math.round(median(xs))})`;
  const pairOf = (shape) => median(ids.flatMap((id) => per[id].filter((x) => x.shape === shape).map((x) => x.pairNs)));
  const penOf = (shape, pose) => per.penetration?.find((x) => x.shape === shape && x.pose === pose)?.ratio;
  const overlapHighest = per.penetration?.filter(general).every((x) => x.pose !== 'overlapping' || x.ratio > penOf(x.shape, 'nearOverlap'));
  md.push(
    `Geometric mean of the ratio over polytopes and boxes: ${ids.map((id) => `${QUERY_NAMES[id]} ${fmtR(gm(id, general))} (own directions ${fmtR(gm(id, general, 'own'))})`).join(', ')}; over every cell, spheres and capsules included: ${ids.map((id) => `${QUERY_NAMES[id]} ${fmtR(gm(id, every))}`).join(', ')}. ` +
      `Above the 2× aim: ${ids.map((id) => `${QUERY_NAMES[id]} on ${over(id).length ? list(over(id)) : 'no cell'}`).join('; ')}. ` +
      `Within it: ${ids.map((id) => `${QUERY_NAMES[id]} on ${within(id).length ? list(within(id)) : 'no cell'}`).join('; ')}. ` +
      (flips.length ? `Against the query's own directions the verdict changes for ${list(flips)}. ` : 'Against the query\'s own directions no cell changes side of 2×. ') +
      (worst ? `The worst cell is ${worst.id} on ${worst.shape} ${POSES_SHORT[worst.pose]} (${fmtR(worst.ratio)}). ` : '') +
      `Outside its support calls (the replay of its own) a query spends, per call, on polytopes and boxes: ${ids.map((id) => `${QUERY_NAMES[id]} ${range(outside(id))}`).join(', ')} — for intersect and distance much the same whatever the shape, so there the ratio is set by what a support pair costs: ` +
      `${['sphere', 'box', 'polytope 8', 'polytope 32', 'polytope 128', 'polytope 1024'].map((sh) => `${Math.round(pairOf(sh))} ns for ${sh === 'sphere' ? 'spheres' : sh === 'box' ? 'boxes' : sh.replace('polytope ', '') + ' points'}`).join(', ')}. ` +
      'Where a profile (callgrind and perf on the worst cells) makes it clear, that time is GJK\'s simplex solver (the exact triangle and tetrahedron sub-solvers with their rounding guards: about half of a box–box intersect\'s instructions, against under a third in the supports) ' +
      'and, for penetration, EPA\'s polytope bookkeeping on top of the GJK it starts from (linear scans for the neighbours of the visible faces and for the nearest face, new face normals), which grows with EPA\'s iterations' +
      (overlapHighest ? ': on every polytope and box the overlapping cell, where EPA iterates most, has the higher penetration ratio. ' : '. ') +
      'A sphere\'s or capsule\'s support is two rotations and little else, so the general algorithms there run at many times their support cost — the reason the API takes the closed forms.',
    '',
  );
}

export function peersMarkdown(r) {
  const md = ['## Native peers: libccd, Bullet and qhull', ''];
  if (r.skipped) {
    md.push(`Skipped: ${r.skipped}.`, '');
    return md;
  }
  const Q = r.queries;
  const I = Q.queries.intersect, D = Q.queries.distance, P = Q.queries.penetration;
  md.push(
    `Every contender gets the same shapes and poses as the same doubles (bench/peers.cpp, build/bench/collidoscope_peers). ` +
      `Times are the harness thread's CPU time (CLOCK_THREAD_CPUTIME_ID, so that other processes on a shared machine do not count), medians over ${Q.repeats} repeats of a sample of ~${Q.sampleUs ?? 1000} µs, the contenders interleaved sample by sample after a warm-up sample; ` +
      `a sample walks all pairs of the cell, as a narrow phase walks its pair list, so with many large shapes the data come from L2/L3 rather than L1 (a cell of 1024-point polytopes holds ${((2 * Q.pairs1024 * 1024 * (24 + 32)) / 2 ** 20).toFixed(1)} MB of points in our and Bullet's copies, plus the support structures); ` +
      `each entry is the median ns per query · its ratio to collidoscope's time in the same cell (> 1×: the peer is slower), with iterations per query where the algorithm reports them. ` +
      `${Q.pairsPerCell} pairs per cell (${Q.pairs1024} for 1024-point polytopes)${r.quick ? ' — a --quick run' : ''}; the run took ${r.seconds.total} s.`,
    '',
  );
  md.push(`- Machine: ${r.machine.cpu}, ${r.machine.cores} cores (${r.machine.threadsPerCore ?? '?'} thread per core), ${r.machine.memoryGB} GB, ${r.machine.os}; load average at the end ${r.machine.loadAverageAtEnd.join(' / ')} (a shared machine: trust ratios, not absolute times).`);
  md.push(`- Compiler: ${r.compiler}; flags \`${r.flags}\` (the harness and the library; the peers are Debian's builds).`);
  md.push(`- Peers: libccd-dev ${r.peers['libccd-dev']} (double precision: ${r.peers.ccdDoublePrecision}), libbullet-dev ${r.peers['libbullet-dev']} (Bullet ${(r.peers.bulletVersion / 100).toFixed(2)}, double precision: ${r.peers.bulletDoublePrecision}), libqhull-dev ${r.peers['libqhull-dev']} (qhull ${r.peers.qhullVersion}).`);
  md.push(`- Settings. collidoscope: ${r.settings.collidoscope}`);
  md.push(`- libccd: ${r.settings.libccd}`);
  md.push(`- Bullet: ${r.settings.bullet}`);
  md.push(
    '- Inputs: polytopes of 8, 32, 128 and 1024 random points on an ellipsoid (radii 1 × 0.6–1 × 0.6–1), boxes (half extents 0.3–1), spheres (radius 0.3–1), capsules (radius 0.2–0.5, half height 0.3–1); A of size 1 at a random pose within ±2, B of the same class scaled 0.6–1.4 with a random rotation, moved along a random direction until the signed distance of the full shapes is 0.1–0.5 (separated), +1e-3 (near, gap), −1e-3 (near, overlap) or −0.05…−0.2 (overlapping). The placement uses collidoscope; the references below decide what is right.',
  );
  md.push(
    `- References (exact, independent of the library's geometry): spheres and capsules analytically (segment–segment distance of the cores minus the radii, which is also minus the depth); boxes and polytopes from their hulls (qhull, "qhull Qt", posed with reference.h's own rotation matrix): distance by vertex–triangle and edge–edge pairs, depth by the separating-axis minimum over the facets of A − B (face normals and the edge pairs whose Gauss-map arcs cross), checked against brute force over all point triples by \`collidoscope_peers selfcheck\`. ${Q.reference.failed} reference failures; the near classes sit within ${fmtE(Q.reference.nearClassesMaxDeviation)} of ±1e-3.`,
  );
  md.push(
    '- Accuracy: errors are absolute, divided by the scene scale (largest coordinate, ~2–4 here); "wrong answer" = intersecting or not contradicts the reference; "no answer" = no result or a failure code; the normal error is how much farther B must move along the reported normal than along the best one (h_A(n) + h_B(−n) − depth, over the scale); "> 1e-9" etc. count answers whose depth or normal error exceeds that. Iterations are each algorithm\'s own count (GJK, Chung–Wang; EPA for our penetration, 0 when GJK alone decided; m_curIter for Bullet\'s pair detector); support calls (calls of A\'s support per query, GJK and EPA together) are counted in a separate untimed pass for collidoscope and libccd.',
    '',
  );

  // ---- intersect
  md.push('### Intersection', '');
  const iIds = I.contenders.map((c) => c.id);
  const sI = timeTable(md, I, iIds, ['ours', 'oursCW', 'oursScan']);
  intersectAccuracyTable(md, I, iIds);
  const peersI = ['ccdGJK', 'ccdMPR', 'btPair', 'btGjkEpa2'];
  const failI = iIds.filter((id) => failures(I, id) > 0).map((id) => `${SHORT[id]} ${failures(I, id)} of ${pairsOf(I, id)}`);
  const lossI = peersI.map((id) => [id, losses(I, id)]).filter(([, l]) => l.length);
  md.push(
    `Peer time over ours, geometric mean over the ${sI.ccdGJK.cells} cells: ${peersI.map((id) => `${SHORT[id]} ${fmtR(sI[id].geomean)}`).join(', ')}; Chung–Wang takes ${fmtR(sI.oursCW.geomean)} our GJK's time. ` +
      (lossI.length ? `We lose (the peer more than 10 % faster) to ${lossI.map(([id, l]) => `${SHORT[id]} on ${list(l)}`).join('; to ')}. ` : 'No peer is more than 10 % faster than ours in any cell. ') +
      (failI.length ? `Wrong or missing answers: ${failI.join(', ')}. ` : 'Every contender answered every pair correctly (the near classes are 1e-3 from touching, far above any tolerance). ') +
      'Bullet has no boolean GJK query: its pair detector runs a GJK intersection test, then a distance GJK, then EPA when the cores overlap (bullet3 btGjkPairDetector.cpp), and btGjkEpaSolver2::Distance computes a full distance — yet the latter still beats our boolean GJK near contact on small polytopes, boxes and spheres.',
    '',
  );

  // ---- distance
  md.push('### Distance', '');
  const dIds = D.contenders.map((c) => c.id);
  const sD = timeTable(md, D, dIds, ['ours', 'oursScan', 'btPair']);
  accuracyTable(md, D, dIds, { values: true });
  const lossD = ['btPair', 'btGjkEpa2'].map((id) => [id, losses(D, id)]).filter(([, l]) => l.length);
  const big = D.cells.filter((c) => c.ns.oursScan != null);
  const scanVsBullet = geomean(big.map((c) => c.ns.btPair / c.ns.oursScan));
  const exactD = dIds.filter((id) => totals(D, id, 'over1e9') === 0 && failures(D, id) === 0).map((id) => SHORT[id]);
  const accD = dIds.map((id) => `${SHORT[id]} ${totals(D, id, 'over1e9')} over 1e-9 (${totals(D, id, 'over1e6')} over 1e-6)`);
  md.push(
    `Bullet's time over ours, geometric mean over the ${sD.btPair.cells} cells: btGjkPairDetector ${fmtR(sD.btPair.geomean)}, btGjkEpaSolver2::Distance ${fmtR(sD.btGjkEpa2.geomean)}. ` +
      (lossD.length ? `We lose (Bullet more than 10 % faster) to ${lossD.map(([id, l]) => `${SHORT[id]} on ${list(l)}`).join('; to ')}. ` : '') +
      `At 128 and 1024 points our support structure is worth ${fmtR(sD.oursScan.geomean)} (the scan column against ours); with the same O(n) scan of the points as Bullet's btConvexHullShape, the pair detector takes ${fmtR(scanVsBullet)} our time. ` +
      `Errors: ${accD.join(', ')}` +
      (exactD.length ? `; exact to rounding on every pair: ${list(exactD)}.` : '.'),
    '',
  );

  // ---- penetration
  md.push('### Penetration depth', '');
  const pIds = P.contenders.map((c) => c.id);
  timeTable(md, P, pIds, ['ours']);
  accuracyTable(md, P, pIds, { values: true, normals: true });
  const peersP = pIds.filter((id) => id !== 'ours');
  const badP = peersP.map((id) => [id, whereBad(P, id)]).filter(([, b]) => b.length);
  const oursBad = totals(P, 'ours', 'over1e9') + failures(P, 'ours');
  md.push(
    `Peer time over ours on polytopes and boxes: ${peersP.map((id) => `${SHORT[id]} ${fmtR(groupRatio(P, id, POLY))}`).join(', ')}; on spheres and capsules: ${peersP.map((id) => `${SHORT[id]} ${fmtR(groupRatio(P, id, ROUND))}`).join(', ')} (geometric means). ` +
      'On spheres and capsules ours adds the radii to a core query, as Bullet\'s pair detector does with its margins, where libccd and btGjkEpaSolver2 run EPA or MPR on the round surface. ' +
      `On polytopes and boxes our EPA is slower than ${list(peersP.filter((id) => groupRatio(P, id, POLY) < 0.9).map((id) => SHORT[id]))}` +
      (peersP.some((id) => Math.abs(groupRatio(P, id, POLY) - 1) <= 0.1)
        ? ` and on par with ${list(peersP.filter((id) => Math.abs(groupRatio(P, id, POLY) - 1) <= 0.1).map((id) => SHORT[id]))}`
        : '') +
      '. (EPA leaves its fixed 512-vertex polytope and face arrays unwritten until used since this bench found them zeroed on every call — a third of a box–box penetration in memset; box penetration got 2.2× faster.) ' +
      `In exchange ${oursBad === 0 ? 'every one of our answers is exact to rounding (no error above 1e-9 of the scale)' : `${oursBad} of our answers miss 1e-9 of the scale`}, while ` +
      `${peersP.map((id) => `${SHORT[id]} has ${totals(P, id, 'over1e6')} of ${pairsOf(P, id)} answers off by more than 1e-6 (${totals(P, id, 'over1e3')} by more than 1e-3, ${failures(P, id)} wrong or missing)`).join(', ')}. ` +
      'libccd\'s EPA stops at its 1e-4 tolerance, MPR returns the depth along its portal, which is not the minimum translation in general, and btGjkEpaSolver2 runs on the full round shapes. ' +
      (badP.length ? `Answers off by more than 1e-3 or failed, by shape: ${badP.map(([id, b]) => `${SHORT[id]} ${b.join(', ')}`).join('; ')}.` : ''),
    '',
  );

  supportRatioSection(md, Q);

  // ---- hull
  const H = r.hull;
  md.push('### Hull construction', '');
  md.push(
    `Median CPU ms over ${H.repeats} interleaved repeats after a warm-up build; ratio = peer time / collidoscope time. qhull: ${r.settings.qhull} Bullet: ${r.settings.bulletHull} ` +
      'Checks on the warm-up build: hull vertices must be input points, and no input point may lie more than 1e-9 outside a face plane (all faces, or 2 000 sampled when there are more). Balls and spheres are uniform random (radius 1); grids are k³ points with k = 10, 22, 46 in [−1, 1]³ (only the 8 corners are vertices).',
    '',
  );
  md.push('| cloud | points | collidoscope ms | Bullet ms · ratio | qhull ms · ratio | vertices: ours / Bullet / qhull (exact) | faces with points outside: ours / Bullet / qhull | Bullet vertex shift |');
  md.push('|---|---:|---:|---:|---:|---|---|---:|');
  for (const c of H.clouds) {
    const o = c.contenders.ours, b = c.contenders.bullet, q = c.contenders.qhull;
    const f2 = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
    md.push(
      `| ${c.cloud} | ${c.points} | **${f2(o.ms)}** | ${f2(b.ms)} · ${fmtR(b.ms / o.ms)} | ${f2(q.ms)} · ${fmtR(q.ms / o.ms)} | ${o.vertices} / ${b.vertices} / ${q.vertices}${c.expectedVertices >= 0 ? ` (${c.expectedVertices})` : ''} | ` +
        `${o.facesWithPointsOutside}/${o.facesChecked} / ${b.facesWithPointsOutside}/${b.facesChecked} / ${q.facesWithPointsOutside}/${q.facesChecked} | ${fmtE(b.vertexDeviation)} |`,
    );
  }
  md.push('');
  const ratioOf = (c, id) => c.contenders[id].ms / c.contenders.ours.ms;
  const qLoss = H.clouds.filter((c) => ratioOf(c, 'qhull') < 0.9).map((c) => `${c.cloud} ${c.points} (${fmtR(ratioOf(c, 'qhull'))})`);
  const bLoss = H.clouds.filter((c) => ratioOf(c, 'bullet') < 0.9).map((c) => `${c.cloud} ${c.points}`);
  const qDiff = H.clouds.filter((c) => c.contenders.qhull.vertices !== c.contenders.ours.vertices).map((c) => `${c.cloud} ${c.points}`);
  const bDiff = H.clouds.filter((c) => c.contenders.bullet.vertices !== c.contenders.ours.vertices).map((c) => `${c.cloud} ${c.points} (${c.contenders.bullet.vertices} against ${c.contenders.ours.vertices})`);
  const oursOut = sum(H.clouds.map((c) => c.contenders.ours.facesWithPointsOutside));
  md.push(
    `Peer time over ours, geometric mean over the ${H.clouds.length} clouds: qhull ${fmtR(geomean(H.clouds.map((c) => ratioOf(c, 'qhull'))))}, Bullet ${fmtR(geomean(H.clouds.map((c) => ratioOf(c, 'bullet'))))}. ` +
      (qLoss.length ? `qhull is more than 10 % faster on ${list(qLoss)}. ` : 'qhull is never more than 10 % faster. ') +
      `qhull ${qDiff.length ? `differs from our vertex count on ${list(qDiff)}` : 'finds our vertex count on every cloud'}, and ${oursOut === 0 ? 'no input point lies outside any of our faces' : `${oursOut} of our checked faces have points outside`}. ` +
      `Bullet's btConvexHullComputer quantises its input to a grid of 1/10216 of the extent: its vertices move by up to ${fmtE(Math.max(...H.clouds.map((c) => c.contenders.bullet.vertexDeviation)))} and input points end up outside its faces by as much` +
      (bDiff.length ? `; its vertex count differs on ${list(bDiff)}` : '') +
      (bLoss.length ? `. Bullet is more than 10 % faster than ours on ${list(bLoss)}.` : '.'),
    '',
  );
  return md;
}

// ---------------------------------------------------------------- standalone
if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const jsonAt = args.indexOf('--json');
  const result = await runPeers({ quick });
  if (jsonAt >= 0 && args[jsonAt + 1]) writeFileSync(args[jsonAt + 1], JSON.stringify(result, null, 2) + '\n');
  console.log(peersMarkdown(result).join('\n'));
}
