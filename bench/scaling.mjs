#!/usr/bin/env node
// Two native experiments, run from build/bench:
//
//  A. The scaling experiment of the rigid-body thesis in shared/seeds (ch. 7, table 7.1):
//     triangle pairs, bounding spheres + triangle pairs, and GJK on the hulls,
//     as the polygon count of two convex meshes grows from 8 to 1024
//     (build/bench/collidoscope_scaling, bench/scaling.cpp).
//  B. "The NoTrace build of each algorithm must cost the same as if no trace
//     hooks existed": the same benchmark translation unit compiled against
//     the headers and against hook-free copies made by bench/strip_trace.mjs,
//     linked into one binary and timed interleaved
//     (build/bench/collidoscope_notrace, bench/notrace_*.cpp), plus a
//     function-by-function comparison of the three objects' machine code
//     (objdump).
//
//   node bench/scaling.mjs [--quick] [--json OUT]     prints the markdown
//
// Exports runScaling({ quick, buildDir }) -> JSON-able result and
// scalingMarkdown(result) -> markdown lines, for scripts/bench.mjs.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = ['collidoscope_scaling', 'collidoscope_notrace'];
const METHODS = ['tri', 'sphere', 'gjk', 'gjkCold'];

// Table 7.1 of that thesis: mean time of 10 000 simulation iterations (the
// thesis's units; only ratios are compared), per polygon count.
export const PAPER = {
  machine: 'HP nx6325, Mobile AMD Sempron 3500+, 1 GB, Windows XP (thesis, ch. 7.2)',
  rows: [
    [8, 11.35, 8.55, 8.62], [16, 26.31, 15.81, 11.61], [24, 48.89, 23.41, 13.67], [32, 79.67, 36.65, 16.58],
    [40, 117.54, 44.98, 19.59], [48, 164.06, 64.38, 22.38], [56, 216.99, 77.55, 25.67], [64, 296.23, 102.74, 29.63],
    [72, 403.87, 121.49, 32.07], [80, 524.69, 150.34, 34.12],
  ].map(([polygons, tri, sphere, gjk]) => ({ polygons, tri, sphere, gjk })),
};

function sh(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}\n${r.stderr ?? ''}`);
  return r.stdout;
}

// Configures build/bench when needed and builds the two targets (a no-op when up to date).
function build(buildDir) {
  if (!existsSync(path.join(buildDir, 'CMakeCache.txt'))) {
    run('cmake', ['-S', ROOT, '-B', buildDir, '-DCMAKE_BUILD_TYPE=Release', '-DCOLLIDOSCOPE_BENCH=ON', '-DCOLLIDOSCOPE_BUILD_TESTS=OFF'], { stdio: ['ignore', 'inherit', 'inherit'] });
  }
  run('cmake', ['--build', buildDir, '--parallel', process.env.BUILD_JOBS ?? '2', '--target', ...TARGETS], { stdio: ['ignore', 'inherit', 'inherit'] });
}

// ---------------------------------------------------------------- machine code

// Function name -> normalized lines (instructions with their offsets, and
// relocations), for every function of an object file or archive. The
// stripped and deep copies live in namespaces collidoscope_stripped /
// collidoscope_deep; their names are mapped back to collidoscope.
function disassemble(file) {
  const text = run('objdump', ['-d', '-r', '-C', '-w', '--no-show-raw-insn', file]);
  const fns = new Map();
  const bySection = new Map();
  let member = '';
  let section = '';
  let cur = null;
  for (let line of text.split('\n')) {
    line = line
      .replace(/21collidoscope_stripped/g, '12collidoscope')
      .replace(/17collidoscope_deep/g, '12collidoscope')
      .replace(/collidoscope_stripped|collidoscope_deep/g, 'collidoscope')
      .replace(/collidoscope_nt_(hooked|stripped|deep)_lib/g, 'collidoscope_nt_lib');
    const mem = /^(\S+\.o):\s+file format/.exec(line);
    if (mem) {
      member = path.basename(mem[1]);
      cur = null;
      continue;
    }
    const sec = /^Disassembly of section (\S+):$/.exec(line);
    if (sec) {
      section = sec[1];
      continue;
    }
    const head = /^[0-9a-f]+ <(.*)>:$/.exec(line);
    if (head) {
      let name = `${member}|${head[1]}`;
      for (let k = 2; fns.has(name); ++k) name = `${member}|${head[1]}#${k}`;
      cur = { name, lines: [], instructions: 0, targets: new Set() };
      fns.set(name, cur);
      if (!bySection.has(`${member}|${section}`)) bySection.set(`${member}|${section}`, name);
      continue;
    }
    if (!cur) continue;
    // With -w an instruction's relocations follow it on the same line, after tabs.
    const insn = /^\s+([0-9a-f]+):\t([^\t]*)(.*)$/.exec(line);
    if (!insn) continue;
    cur.lines.push(`${insn[1]} ${insn[2].replace(/\s+/g, ' ').trim()}`);
    ++cur.instructions;
    for (const m of insn[3].matchAll(/\t([0-9a-f]+): (R_\S+)\t([^\t]*)/g)) {
      cur.lines.push(`  ${m[1]} ${m[2]} ${m[3]}`);
      cur.targets.add(`${member}|${m[3].replace(/[-+]0x[0-9a-f]+$/, '')}`);
    }
  }
  // Relocations against a local function name its section: resolve to the function.
  for (const fn of fns.values()) {
    fn.calls = new Set([...fn.targets].map((t) => bySection.get(t) ?? t).filter((t) => fns.has(t)));
  }
  return fns;
}

const same = (a, b) => a !== undefined && b !== undefined && a.lines.length === b.lines.length && a.lines.every((l, i) => l === b.lines[i]);

// Functions reachable from `root` through relocations inside the same object
// (calls to out-of-line template instances, .isra/.constprop clones), with
// their cold parts.
function closure(fns, root) {
  const seen = new Set();
  const stack = [root];
  while (stack.length) {
    const n = stack.pop();
    if (seen.has(n) || !fns.has(n)) continue;
    seen.add(n);
    for (const c of fns.get(n).calls) stack.push(c);
    stack.push(`${n} [clone .cold]`);
  }
  return [...seen];
}

// ntb::Algo order (bench/notrace_api.h): the query function of each.
const QUERIES = [
  ['gjkDistance', 'queryGjkDistance('],
  ['gjkIntersect', 'queryGjkIntersect('],
  ['penetration (GJK+EPA)', 'queryPenetration('],
  ['gjkRayCast', 'queryRayCast('],
  ['chungWangIntersect', 'queryChungWang('],
  ['buildHull', 'queryHull('],
  ['satBoxes', 'querySatBoxes('],
  ['satHulls', 'querySatHulls('],
];

// All functions of two disassemblies: how many are identical, instruction totals, the differing ones.
function whole(a, b) {
  const names = new Set([...a.keys(), ...b.keys()]);
  let identical = 0;
  const differing = [];
  for (const k of names) {
    if (same(a.get(k), b.get(k))) ++identical;
    else differing.push({ name: shortName(k), a: a.get(k)?.instructions ?? null, b: b.get(k)?.instructions ?? null });
  }
  const count = (m) => [...m.values()].reduce((n, f) => n + f.instructions, 0);
  return { functions: names.size, identical, instructionsA: count(a), instructionsB: count(b), differing };
}

function compareCode(buildDir) {
  const list = Object.fromEntries(
    readFileSync(path.join(buildDir, 'notrace', 'objects.txt'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [k, v] = l.split('=');
        return [k, v.split(';')];
      }),
  );
  const byQuery = {};
  const totals = { stripped: { functions: 0, identical: 0, a: 0, b: 0 }, deep: { functions: 0, identical: 0, a: 0, b: 0 } };
  QUERIES.forEach(([algo, needle], k) => {
    const obj = (v) => list[v].find((f) => f.includes(`algo_${k}.cpp.o`));
    // Objects are named after their source (algo_k.cpp.o): keep member names comparable.
    const tu = Object.fromEntries(['hooked', 'stripped', 'deep'].map((v) => [v, disassemble(obj(v))]));
    const root = [...tu.hooked.keys()].find((n) => n.includes(`::${needle}`) && !n.includes('[clone'));
    if (!root) return;
    const row = {};
    const names = {};
    for (const v of ['hooked', 'stripped', 'deep']) {
      names[v] = closure(tu[v], root);
      row[v] = { functions: names[v].length, instructions: names[v].reduce((n, x) => n + tu[v].get(x).instructions, 0) };
    }
    const identical = (v) => names.hooked.length === names[v].length && names.hooked.every((x) => same(tu.hooked.get(x), tu[v].get(x)));
    row.identicalToStripped = identical('stripped');
    row.identicalToDeep = identical('deep');
    row.differingFromDeep = [...new Set([...names.hooked, ...names.deep])]
      .filter((x) => !same(tu.hooked.get(x), tu.deep.get(x)))
      .map((x) => ({ name: shortName(x), hooked: tu.hooked.get(x)?.instructions ?? null, deep: tu.deep.get(x)?.instructions ?? null }));
    row.objectVsStripped = whole(tu.hooked, tu.stripped);
    row.objectVsDeep = whole(tu.hooked, tu.deep);
    for (const v of ['stripped', 'deep']) {
      const w = row[v === 'stripped' ? 'objectVsStripped' : 'objectVsDeep'];
      totals[v].functions += w.functions;
      totals[v].identical += w.identical;
      totals[v].a += w.instructionsA;
      totals[v].b += w.instructionsB;
    }
    byQuery[algo] = row;
  });
  const libs = { hooked: disassemble(list.hooked_lib[0]), stripped: disassemble(list.stripped_lib[0]), deep: disassemble(list.deep_lib[0]) };
  // Constants (.rodata*) of the benchmark objects, byte for byte.
  const rodata = (file) =>
    run('objdump', ['-s', '-j', '.rodata', '-j', '.rodata.cst8', '-j', '.rodata.cst16', '-j', '.rodata.cst4', file])
      .split('\n')
      .filter((l) => /^ [0-9a-f]{4} /.test(l))
      .join('\n');
  let rodataSame = null;
  try {
    rodataSame = list.hooked.every((f, i) => rodata(f) === rodata(list.stripped[i]));
  } catch {
    rodataSame = null;
  }
  return {
    byQuery,
    totals,
    libHookedVsStripped: whole(libs.hooked, libs.stripped),
    libHookedVsDeep: whole(libs.hooked, libs.deep),
    rodataHookedVsStripped: rodataSame,
  };
}

function shortName(k) {
  const [member, name] = k.split('|');
  const short = name.replace(/\(.*$/s, '').replace(/collidoscope::/g, '').replace(/<[^<>]*(<[^<>]*>[^<>]*)*>/g, '<…>');
  return `${member.replace(/\.cpp\.o$/, '')}: ${short}${/\[clone [^\]]+\]/.test(name) ? ' ' + name.match(/\[clone [^\]]+\]/g).join(' ') : ''}`;
}

// ---------------------------------------------------------------- run

export async function runScaling({ quick = false, buildDir = path.join(ROOT, 'build', 'bench') } = {}) {
  const started = Date.now();
  build(buildDir);
  const scaling = JSON.parse(run(path.join(buildDir, 'collidoscope_scaling'), quick ? ['--quick'] : []));
  const notrace = JSON.parse(run(path.join(buildDir, 'collidoscope_notrace'), quick ? ['--quick'] : []));
  const code = compareCode(buildDir);
  const report = (v) => JSON.parse(readFileSync(path.join(buildDir, 'notrace', v, 'collidoscope', 'strip_report.json'), 'utf8'));
  const cc = JSON.parse(readFileSync(path.join(buildDir, 'compile_commands.json'), 'utf8'));
  const cmd = (needle) => cc.find((e) => e.command.includes(needle))?.command ?? '';
  const flagsOf = (c) => c.split(/\s+/).filter((f) => /^-(O|std|f|W|m|D)/.test(f)).join(' ');
  // Growth relative to 8 triangles, per family, and the thesis's.
  const growth = {};
  for (const [family, all] of Object.entries(scaling.families)) {
    const sizes = all.filter((x) => !x.error);
    const base = sizes.find((x) => x.polygons === 8) ?? sizes[0];
    const at = (n) => sizes.find((x) => x.polygons === n);
    const slope = (a, b, m) => Math.log(b.nsPerTest[m] / a.nsPerTest[m]) / Math.log(b.polygons / a.polygons);
    const g = {
      base: base.polygons,
      rows: sizes.map((x) => ({ polygons: x.polygons, ...Object.fromEntries(METHODS.map((m) => [m, x.nsPerTest[m] / base.nsPerTest[m]])) })),
      slopes: {},
    };
    for (const [a, b] of [[8, 80], [80, 1024], [8, 1024]])
      if (at(a) && at(b)) g.slopes[`${a}-${b}`] = Object.fromEntries(METHODS.map((m) => [m, slope(at(a), at(b), m)]));
    growth[family] = g;
  }
  const p8 = PAPER.rows[0], p80 = PAPER.rows[PAPER.rows.length - 1];
  const paperSlopes = Object.fromEntries(['tri', 'sphere', 'gjk'].map((m) => [m, Math.log(p80[m] / p8[m]) / Math.log(10)]));
  return {
    quick,
    seconds: (Date.now() - started) / 1000,
    machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length, os: `${os.type()} ${os.release()}`, loadAverage: os.loadavg().map((x) => +x.toFixed(2)) },
    versions: { gxx: sh('g++', ['--version']).split('\n')[0], objdump: sh('objdump', ['--version']).split('\n')[0], node: process.version },
    flags: { scaling: flagsOf(cmd('bench/scaling.cpp')), notraceHooked: flagsOf(cmd('collidoscope_nt_hooked_tu')), notraceStripped: flagsOf(cmd('collidoscope_nt_stripped_tu')) },
    scaling: { ...scaling, growth, paper: { ...PAPER, slopes: paperSlopes } },
    notrace: { ...notrace, code, strip: { stripped: report('stripped'), deep: report('deep') } },
  };
}

// ---------------------------------------------------------------- markdown

const f = (x, d = 2) => (x === undefined || x === null || Number.isNaN(x) ? '—' : x.toFixed(d));
const ns = (x) => (x === undefined ? '—' : x >= 1e6 ? `${(x / 1e6).toFixed(2)} ms` : x >= 1e4 ? `${(x / 1e3).toFixed(1)} µs` : `${x.toFixed(0)} ns`);

export function scalingMarkdown(r) {
  const md = [];
  const s = r.scaling;
  const st = s.settings;
  const fam = Object.fromEntries(Object.entries(s.families).map(([k, v]) => [k, v.filter((x) => !x.error)]));
  const errors = Object.entries(s.families).flatMap(([k, v]) => v.filter((x) => x.error).map((x) => `${k} ${x.polygons}: ${x.error}`));
  const paper = s.paper;
  const p8 = paper.rows[0], p80 = paper.rows[paper.rows.length - 1];
  const fill = (x) => (100 * x.volume) / ((4 / 3) * Math.PI * x.radius ** 3);
  md.push('## Scaling with the polygon count (the rigid-body thesis, table 7.1)', '');
  md.push(
    `The thesis's experiment, natively: a pair of convex meshes of F triangles at random in a cube, together ${st.density * 100} % of its volume (each body volume ${st.bodyVolume}, cube side ${f(st.cubeSide)}). Two mesh families, F = 8 being the octahedron in both: **sphere** — V = F/2 + 2 points on a sphere (the octahedron's 6, then farthest-point sampling), their hull built by collidoscope, so the body rounds off as F grows; **flat** — the octahedron's faces cut into F/8 triangles each (longest-edge bisection), so the body stays an octahedron, as the thesis's "octahedron represented by F polygons" reads. ${st.worlds} seeded worlds (random position, orientation, 1 unit/s, 1 rad/s) stepped ${st.frames} frames of ${st.timeStep * 1000} ms; bodies bounce off the walls and pass through each other; every method answers the same ${st.worlds * st.frames} tests, frame by frame. **tri**: all F² triangle pairs with Möller's interval test (written in bench/scaling.cpp; against GJK on ${s.triTriCheck.pairs} random triangle pairs, ${s.triTriCheck.coplanarPairs} of them coplanar: ${s.triTriCheck.disagree} disagreements), stopping at the first overlapping pair; **sphere**: bounding spheres (centred on the body, radius its farthest vertex), then tri; **GJK**: \`gjkIntersect\` on \`Shape::polytope(mesh vertices)\`, warm-started from the previous frame (\`GjkCache\`); **GJK cold**: no cache. Median thread-CPU ns per test over ${st.repeats} interleaved repeats${st.repeats > 5 ? ' (5 when a tri pass takes > 0.5 s)' : ''}, order rotated every repeat, after a warm-up; g++ \`${r.flags.scaling}\`.`,
    '',
  );
  if (errors.length) md.push(`Sizes that could not be built: ${errors.join('; ')}.`, '');
  md.push('| F | V sphere / flat | tri: sphere / flat | sphere + tri: sphere / flat | GJK warm: sphere / flat | GJK cold: sphere / flat | GJK iterations warm / cold (sphere) | tri / GJK: sphere / flat |');
  md.push('|---:|---:|---:|---:|---:|---:|---:|---:|');
  const sizes = fam.sphere.map((x) => x.polygons).filter((n) => fam.flat.some((y) => y.polygons === n));
  const both = (n, fn) => fn(fam.sphere.find((x) => x.polygons === n), fam.flat.find((x) => x.polygons === n));
  for (const n of sizes) {
    md.push(
      both(n, (a, b) => {
        const v = (x) => `${x.vertices}${x.supportVertices !== x.vertices ? ` (hull ${x.supportVertices})` : ''}${x.hillClimb ? '¹' : ''}`;
        const t = (m) => `${ns(a.nsPerTest[m])} / ${ns(b.nsPerTest[m])}`;
        return `| ${n} | ${v(a)} / ${v(b)} | ${t('tri')} | ${t('sphere')} | ${t('gjk')} | ${t('gjkCold')} | ${f(a.gjkIterationsPerTest.warm)} / ${f(a.gjkIterationsPerTest.cold)} | ${f(a.nsPerTest.tri / a.nsPerTest.gjk, 0)} / ${f(b.nsPerTest.tri / b.nsPerTest.gjk, 0)} |`;
      }),
    );
  }
  md.push('', "¹ 96 points or more: the polytope's support walks its hull by hill climbing (polytope_support.h) instead of scanning the points — for the flat family that hull is the octahedron's 6 vertices.", '');
  md.push(`Growth, time relative to 8 triangles, next to the thesis's table 7.1 (whose times include the rest of its simulation loop — integration, wall tests, drawing; ${paper.machine}):`, '');
  md.push('| F | tri: sphere / flat / thesis | sphere + tri: sphere / flat / thesis | GJK: sphere / flat / thesis | GJK cold: sphere / flat |');
  md.push('|---:|---:|---:|---:|---:|');
  const gs = s.growth.sphere.rows, gf = s.growth.flat.rows;
  for (const n of sizes) {
    const a = gs.find((x) => x.polygons === n), b = gf.find((x) => x.polygons === n);
    const p = paper.rows.find((x) => x.polygons === n);
    const pr = (m) => (p ? f(p[m] / p8[m]) : '—');
    md.push(`| ${n} | ${f(a.tri)} / ${f(b.tri)} / ${pr('tri')} | ${f(a.sphere)} / ${f(b.sphere)} / ${pr('sphere')} | ${f(a.gjk)} / ${f(b.gjk)} / ${pr('gjk')} | ${f(a.gjkCold)} / ${f(b.gjkCold)} |`);
  }
  const sl = (g, k, m) => f(g.slopes[k]?.[m]);
  md.push('');
  md.push(
    `Log–log slopes (time ∝ F^k), 8 → 80 triangles: tri ${sl(s.growth.sphere, '8-80', 'tri')} (sphere) / ${sl(s.growth.flat, '8-80', 'tri')} (flat) / ${f(paper.slopes.tri)} (thesis); sphere + tri ${sl(s.growth.sphere, '8-80', 'sphere')} / ${sl(s.growth.flat, '8-80', 'sphere')} / ${f(paper.slopes.sphere)}; GJK ${sl(s.growth.sphere, '8-80', 'gjk')} / ${sl(s.growth.flat, '8-80', 'gjk')} / ${f(paper.slopes.gjk)}.` +
      (s.growth.sphere.slopes['80-1024'] ? ` 80 → 1024: tri ${sl(s.growth.sphere, '80-1024', 'tri')} / ${sl(s.growth.flat, '80-1024', 'tri')}, sphere + tri ${sl(s.growth.sphere, '80-1024', 'sphere')} / ${sl(s.growth.flat, '80-1024', 'sphere')}, GJK ${sl(s.growth.sphere, '80-1024', 'gjk')} / ${sl(s.growth.flat, '80-1024', 'gjk')}.` : ''),
    '',
  );
  md.push(`Colliding pairs each method reports, on static poses (the first frame of fresh seeded worlds: ${st.staticPoses} per size up to 128 triangles, fewer above — tri runs where the spheres overlap, since elsewhere it cannot find a pair) and on the timed tests. "B small": B at 1/27 of A's volume (the pair still 1 % of the cube), so that one body can hold the other.`, '');
  md.push('| family | F | poses | spheres overlap | tri = sphere + tri | GJK | GJK only (containment / other) | tri only | B small: tri / GJK / containment | timed: tri / sphere + tri / GJK, mismatches |');
  md.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const [family, list] of Object.entries(fam)) {
    for (const x of list) {
      const c = x.staticCounts, u = x.staticSmallB.counts, t = x.timedCounts;
      const mism = t.sphereMismatch + t.triOnly + t.warmColdMismatch + t.gjkOnlyOther + t.containment;
      md.push(`| ${family} | ${x.polygons} | ${c.tests} | ${c.spheres} | ${c.tri} | ${c.gjk} | ${c.containment} / ${c.gjkOnlyOther} | ${c.triOnly} | ${u.tri} / ${u.gjk} / ${u.containment}${u.gjkOnlyOther + u.triOnly ? ` (+${u.gjkOnlyOther + u.triOnly} other)` : ''} | ${t.tri} / ${t.sphereTri} / ${t.gjk}, ${mism} |`);
    }
  }
  md.push('');
  const sp = fam.sphere, fl = fam.flat;
  const S8 = sp.find((x) => x.polygons === 8), S80 = sp.find((x) => x.polygons === 80), F80 = fl.find((x) => x.polygons === 80);
  const Slast = sp[sp.length - 1], Flast = fl[fl.length - 1];
  const g = (family, n) => s.growth[family].rows.find((x) => x.polygons === n);
  if (S8 && S80 && F80) {
    const all = [...sp, ...fl];
    const agree = all.every((x) => x.staticCounts.triOnly === 0 && x.staticCounts.gjkOnlyOther === 0 && x.staticCounts.containment === 0 && x.timedCounts.sphereMismatch + x.timedCounts.triOnly + x.timedCounts.warmColdMismatch + x.timedCounts.gjkOnlyOther + x.timedCounts.containment === 0);
    const contain = all.reduce((n, x) => n + x.staticSmallB.counts.containment, 0);
    const gjkOnlySmall = all.reduce((n, x) => n + x.staticSmallB.counts.gjk - x.staticSmallB.counts.tri, 0);
    const otherSmall = all.reduce((n, x) => n + x.staticSmallB.counts.gjkOnlyOther + x.staticSmallB.counts.triOnly, 0);
    md.push(
      `- **tri** grows as in the thesis, only more steeply: ${f(g('sphere', 80).tri, 0)}× (sphere) and ${f(g('flat', 80).tri, 0)}× (flat) from 8 to 80 triangles against the thesis's ${f(p80.tri / p8.tri, 0)}× — quadratic (slope ≈ 2), since a separated pair tests all F² triangle pairs; the thesis's slope ${f(paper.slopes.tri)} is flattened by the fixed cost of its simulation loop. At ${Slast.polygons} triangles one test takes ${ns(Slast.nsPerTest.tri)}, ${f(Slast.nsPerTest.tri / Slast.nsPerTest.gjk, 0)}× GJK.`,
    );
    md.push(
      `- **sphere + tri** depends on how well the sphere fits. On the flat family (the thesis's octahedra: the body fills ${f(fill(F80), 0)} % of its bounding sphere at every F) it grows like tri scaled down — ${f(g('flat', 80).sphere, 0)}× to 80 triangles, thesis ${f(p80.sphere / p8.sphere, 0)}× — because the share of poses whose spheres overlap without a collision stays the same ("false collisions", as the thesis says). On the sphere family the body fills ${f(fill(S8), 0)} % of its sphere at 8 triangles but ${f(fill(S80), 0)} % at 80 and ${f(fill(Slast), 0)} % at ${Slast.polygons}, false collisions all but vanish, and the column grows only ${f(g('sphere', 80).sphere, 1)}× to 80 triangles; it then rests on the few timed poses whose spheres overlap, so it is the noisiest column.`,
    );
    md.push(
      `- **GJK** stays nearly flat: ${f(g('sphere', 80).gjk, 2)}× (sphere) / ${f(g('flat', 80).gjk, 2)}× (flat) from 8 to 80 triangles, thesis ${f(p80.gjk / p8.gjk, 2)}×; ${f(g('sphere', Slast.polygons).gjk, 1)}× / ${f(g('flat', Flast.polygons).gjk, 1)}× at ${Slast.polygons}. Separated bodies take ~${f(S80.gjkIterationsPerTest.warm, 1)} iterations, so the time is a few support calls, each a scan of the ${S80.vertices} vertices at 80 triangles; from 96 points the support walks the hull (for the flat family: the octahedron's 6 vertices, so GJK gets *faster* there). The warm start hardly matters here (${f(S80.gjkIterationsPerTest.warm, 2)} against ${f(S80.gjkIterationsPerTest.cold, 2)} iterations cold at 80 triangles): the first direction, between the centres, already separates most pairs. ${(() => {
        const from = (list) => list.find((x, i) => list.slice(i).every((y) => y.nsPerTest.gjk < y.nsPerTest.sphere))?.polygons;
        const slower = sp.filter((x) => x.polygons > 8 && x.nsPerTest.sphere < x.nsPerTest.gjk).map((x) => x.polygons);
        const falseRate = (S80.staticCounts.spheres - S80.staticCounts.tri) / S80.staticCounts.tests;
        return `Against sphere + tri, GJK wins on the flat family from ${from(fl) ?? '—'} triangles on (${f(F80.nsPerTest.sphere / F80.nsPerTest.gjk, 0)}× at 80, ${f(Flast.nsPerTest.sphere / Flast.nsPerTest.gjk, 0)}× at ${Flast.polygons}); on the sphere family sphere + tri is faster at ${slower.join(', ') || 'no size'} triangles, because the timed poses hold ${slower.every((n) => { const x = sp.find((y) => y.polygons === n); return x.timedCounts.spheres === x.timedCounts.tri; }) ? 'no' : 'few'} false collisions there — but on the static poses at 80 triangles ${f(100 * falseRate, 1)} % are false collisions, each costing a full tri pass: ${ns(falseRate * S80.nsPerTest.tri)} per test on average against GJK's ${ns(S80.nsPerTest.gjk)}, and colliding pairs cost sphere + tri a search for the first crossing pair (${ns(Slast.nsPerTest.sphere)} per test at ${Slast.polygons} triangles, GJK ${ns(Slast.nsPerTest.gjk)}). At 8 triangles the sphere test, which rejects most pairs for a few flops, is ${f(S8.nsPerTest.gjk / S8.nsPerTest.sphere, 1)}× faster than GJK; `;
      })()}the thesis measured them level there.`,
    );
    md.push(
      `- **Answers**: ${agree ? 'for equal bodies all methods reported exactly the same colliding pairs at every size of both families (sphere + tri always equal to tri, warm GJK equal to cold, no GJK-only pair)' : '**some counts differ for equal bodies (see the table)**'}: two congruent convex bodies cannot contain one another (equal volumes), and no pose touched within rounding. With B at 1/27 of A's volume GJK reports ${gjkOnlySmall} pairs more than the triangle tests over all sizes, ${contain} of them checked to be containments (a vertex of one body inside the other while no triangle pairs cross)${otherSmall ? `, ${otherSmall} not` : ''}: the triangle tests see surface intersection, GJK overlap of the solids.`,
      '',
    );
  }

  // ---------------------------------------------------------------- B
  const n = r.notrace;
  const code = n.code;
  const strip = n.strip.stripped;
  const deep = n.strip.deep;
  md.push('## The NoTrace build costs what a hook-free build costs', '');
  md.push(
    `bench/notrace_bench.cpp is compiled once per algorithm (so that one algorithm's code cannot change the compiler's inlining choices for another), three times over, into one binary (build/bench/collidoscope_notrace): **hooked** against wasm/include as shipped (the default \`NoTrace\` policy); **stripped** against a copy made at build time by bench/strip_trace.mjs, which deletes every \`if constexpr (Trace::enabled)\` statement by brace matching (${strip.hookCount} hooks in ${Object.keys(strip.files).length} headers; an \`else\` branch is kept) — compiled with \`-Dcollidoscope=collidoscope_stripped\`; **deep**: stripped, plus the trace-only code found *outside* \`if constexpr\` (listed below) — \`-Dcollidoscope=collidoscope_deep\`. Each copy has its own build of the library sources it needs, same flags (\`${r.flags.notraceHooked}\`). Per algorithm the three run identical inputs (checked by hash), interleaved with the order rotated every repeat, ${n.repeats} repeats of ≥ ${n.targetMs} ms of thread CPU time after a warm-up; ratios of runs adjacent in time, median [quartiles], and the ratio of the fastest runs.`,
    '',
  );
  md.push('| algorithm | queries | iterations / query (all three) | results bit-identical | hooked ns / query | hooked / stripped: median [quartiles], minima | machine code hooked vs stripped (instructions) | hooked / deep: median [quartiles], minima | machine code hooked vs deep (instructions) |');
  md.push('|---|---:|---:|---|---:|---:|---|---:|---|');
  for (const a of n.algorithms) {
    const c = code.byQuery[a.name];
    const itSame = a.iterationsIdentical && a.iterationsPerQuery.every((x) => x === a.iterationsPerQuery[0]);
    const rs = a.hookedOverStripped, rd = a.hookedOverDeep;
    const codeS = c ? `${c.identicalToStripped ? '**identical**' : 'differs'} (${c.hooked.instructions} / ${c.stripped.instructions})` : '—';
    const codeD = c ? `${c.identicalToDeep ? '**identical**' : 'differs'} (${c.hooked.instructions} / ${c.deep.instructions})` : '—';
    md.push(`| ${a.name}${a.name === 'buildHull' ? ' (vertices)' : a.name.startsWith('sat') ? ' (axes)' : ''} | ${a.queries} | ${f(a.iterationsPerQuery[0], 2)}${itSame ? '' : ' (differ!)'} | ${a.resultsIdentical && a.inputsIdentical ? 'yes' : '**no**'} | ${ns(a.nsPerQuery.hooked)} | ${f(rs.median, 3)} [${f(rs.q25, 3)}, ${f(rs.q75, 3)}], ${f(rs.ofMinima, 3)} | ${codeS} | ${f(rd.median, 3)} [${f(rd.q25, 3)}, ${f(rd.q75, 3)}], ${f(rd.ofMinima, 3)} | ${codeD} |`);
  }
  md.push('');
  const t = code.totals.stripped;
  const td = code.totals.deep;
  md.push(
    `Machine code: objdump -d -r of each algorithm's three objects, namespaces mapped back, compared function by function (instructions, offsets and relocations); the counts in the table are those of the query function and every function of its object it reaches (out-of-line template instances, .isra clones). Over the ${Object.keys(code.byQuery).length} objects, hooked and stripped have ${t.identical} of ${t.functions} functions identical (${t.a} / ${t.b} instructions)${code.rodataHookedVsStripped === true ? ' and identical constants (.rodata)' : ''}; the library sources compiled against each header set (${code.libHookedVsStripped.functions} functions) ${code.libHookedVsStripped.identical === code.libHookedVsStripped.functions ? 'are identical too' : `have ${code.libHookedVsStripped.identical} identical`}. Hooked and deep: ${td.identical} of ${td.functions} identical (${td.a} / ${td.b} instructions).`,
    '',
  );
  // Deep edits: where trace-only code lives outside `if constexpr`.
  md.push('Trace-only code outside `if constexpr` (the deep copy deletes it; lines of wasm/include/collidoscope):', '');
  for (const [file, x] of Object.entries(deep.files)) {
    const edits = [...(x.deep ?? [])].sort((a, b) => (a.lines?.[0] ?? 0) - (b.lines?.[0] ?? 0));
    for (const e of edits) md.push(`- ${file}:${(e.lines ?? []).join(', ') || '?'} — ${e.why}${e.applied ? '' : ' (**pattern no longer matches**)'}`);
  }
  md.push('');
  const epa = n.algorithms.find((a) => a.name.startsWith('penetration'));
  // Identical machine code cannot differ in cost: how far those ratios stray from 1 (code
  // placement, the machine's load) is the noise. A cost is claimed where the code differs and
  // both the median ratio and the ratio of the minima exceed it.
  const identicalPairs = n.algorithms.flatMap((a) => [
    ...(code.byQuery[a.name]?.identicalToStripped ? [a.hookedOverStripped] : []),
    ...(code.byQuery[a.name]?.identicalToDeep ? [a.hookedOverDeep] : []),
  ]);
  const noise = Math.max(0.01, ...identicalPairs.map((x) => Math.abs(x.median - 1)));
  const noiseMin = Math.max(0.01, ...identicalPairs.map((x) => Math.abs(x.ofMinima - 1)));
  const costly = n.algorithms.filter(
    (a) => code.byQuery[a.name] && !code.byQuery[a.name].identicalToDeep && a.hookedOverDeep.median > 1 + noise && a.hookedOverDeep.ofMinima > 1 + noiseMin,
  );
  md.push(
    `- The hooks inside \`if constexpr\` cost nothing: hooked and stripped compile to the same machine code${t.identical === t.functions ? ` (every function of all ${Object.keys(code.byQuery).length} objects and of the library copies)` : ''}, give bit-identical results with identical iteration counts, and time within noise (ratios ${f(Math.min(...n.algorithms.map((a) => a.hookedOverStripped.median)), 3)}–${f(Math.max(...n.algorithms.map((a) => a.hookedOverStripped.median)), 3)}).`,
  );
  if (costly.length) {
    md.push(
      `- Trace-only code outside them does cost: ${costly.map((a) => `${a.name} takes ${f(a.hookedOverDeep.median, 3)}× [${f(a.hookedOverDeep.q25, 3)}, ${f(a.hookedOverDeep.q75, 3)}] the deep build's time (minima ${f(a.hookedOverDeep.ofMinima, 3)}×), above the noise of identical machine code (±${f(noise * 100, 1)} % on medians, ±${f(noiseMin * 100, 1)} % on minima)`).join('; ')}.` +
        ' The deep build drops exactly the trace-only code listed above; which entries the costly algorithms use is in that list.',
    );
  } else {
    md.push(`- The trace-only code outside \`if constexpr\` did not cost measurably in this run (deep ratios within the noise: ±${f(noise * 100, 1)} % on medians, ±${f(noiseMin * 100, 1)} % on minima, the largest deviations between identical machine code).`);
  }
  const dOther = Object.entries(code.byQuery).filter(([k, c]) => !c.identicalToDeep && !costly.some((a) => a.name === k));
  if (dOther.length) {
    const describe = ([k, c]) => {
      const changed = c.differingFromDeep.filter((d) => d.hooked !== d.deep).sort((x, y) => Math.abs((y.hooked ?? 0) - (y.deep ?? 0)) - Math.abs((x.hooked ?? 0) - (x.deep ?? 0)));
      const rest = c.differingFromDeep.length - changed.length;
      return `${k}: ${changed.slice(0, 3).map((d) => `${d.name.replace(/^algo_\d+: /, '')} ${d.hooked === null ? 'inlined' : `${d.hooked} instructions`} → ${d.deep === null ? 'inlined' : `${d.deep}`}`).join(', ') || 'no count changed'}${rest ? `${changed.length ? ', and ' : '; '}${rest} function(s) differing only in labels or layout` : ''}`;
    };
    md.push(`- Deep code that differs without a cost above that noise: ${dOther.map(describe).join('; ')}.`);
  }
  md.push('');
  md.push(`Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.os}, load average ${r.machine.loadAverage.join(' / ')} at the end; ${r.versions.gxx}; ${r.versions.objdump}. This section took ${f(r.seconds, 0)} s${r.quick ? ' (--quick)' : ''}.`, '');
  return md;
}

// ---------------------------------------------------------------- standalone

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const jsonAt = args.indexOf('--json');
  const result = await runScaling({ quick });
  if (jsonAt >= 0 && args[jsonAt + 1]) writeFileSync(args[jsonAt + 1], JSON.stringify(result, null, 1) + '\n');
  console.log(scalingMarkdown(result).join('\n'));
}
