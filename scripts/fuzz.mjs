#!/usr/bin/env node
// Fuzzing: the libFuzzer targets of tests/fuzz and a JS fuzzer for the permalink decoder.
//
//   node scripts/fuzz.mjs [--seconds N] [--target a,b,...] [--jobs J] [--seed S]       a quick check
//   node scripts/fuzz.mjs --runs N [--minutes M] [--target …] [--jobs J] [--seed S] [--resume]   a campaign
//
// Targets (default: fuzz_scene, fuzz_hull, fuzz_pair, fuzz_mesh, fuzz_world, link, known):
//   fuzz_scene      bytes → parseScene → runScene with and without a trace; sceneToJson round trip
//   fuzz_hull       exactly representable point clouds → buildHull / hullOfPoints, hull invariants
//   fuzz_pair       two shapes, poses, a ray and a motion → GJK, EPA, Chung–Wang, casts, SAT invariants
//   fuzz_mesh       small meshes (slivers, duplicates, invalid ones) → validation, ray casts, convex–mesh
//                   intersect/distance and mesh–mesh intersect against brute force over the triangles
//   fuzz_world      World operations on both broad phases → pairs() = intersect() on every pair, finite
//                   state after step(), raycast/overlap against the per-body queries, clean errors
//   link            JS: garbled, oversized and nested permalinks → decodeLink (web/dist/lib/index.mjs)
//   known           replays tests/fuzz/known/known.json: each recorded failure must still fail the same way
//   fuzz_hull_full  (only when named) the hull target on any doubles (needles, denormals, nudged lattices)
//
// A quick check (what `npm test` runs, with fixed input counts):
// 1. Configures build/fuzz with clang (-DCOLLIDOSCOPE_FUZZ=ON; tests/fuzz/fuzz.cmake adds ASan + UBSan +
//    libFuzzer) if it has no CMakeCache.txt, and builds the targets asked for.
// 2. Runs each libFuzzer target for N seconds (-max_total_time, -timeout=10, -rss_limit_mb=2048) on a
//    scratch copy of tests/fuzz/corpus/<target> (build/fuzz/run/<target>), so nothing is written into the
//    repository; J targets at a time (default: 2, or 1 on a single core).
// 3. Runs the link fuzzer for N seconds in a child process (a hang is caught by a watchdog), seeded.
// Prints one line per target, "fuzz <target>: ok (<execs> execs)" or "fuzz <target>: FAILED — <what>"
// (with the broken invariant, the crash file and its bytes in base64; a failure that matches
// tests/fuzz/known/known.json ends the target's run as ok, noting it), then "fuzz: N passed, M failed";
// exit code 1 on any failure. `runFuzz({ seconds, targets })` does the same for scripts/test.mjs.
//
// A campaign (`npm run fuzz -- --runs 1000000`; default targets: all but known, fuzz_hull_full included):
// N inputs per target (or M minutes, whichever ends first), going on past failures, J targets at a time
// (default 2); see "campaigns" below. It writes tests/fuzz/REPORT.md and merges new coverage into
// tests/fuzz/corpus/<target>; --resume carries on a stopped campaign from build/fuzz/campaign/<target>.
// Exit code 1 when a failure not in known.json was found.
//
// Only build: `node scripts/fuzz.mjs --build-only [--target …]` configures build/fuzz if needed and builds the binaries
// the targets need (default: those of a quick check), without running anything (scripts/test.mjs runs it in the
// background while the browser tests run).
// Same code as a campaign ran? `node scripts/fuzz.mjs --same-build [--target …]` builds the targets here and
// compares their SHA-256 with the campaign's state (exit code 1 when one differs). Clean builds of one source
// tree in one directory give the same bytes; a build directory copied in from elsewhere may hold objects
// that its timestamps hide, so clean it first (cmake --build build/fuzz --target clean).
// Reproduce a crash: build/fuzz/fuzz/<target> <crash file>.
// Reproduce a link input: node scripts/fuzz.mjs --target link --seed S --replay K.
// Regenerate the fuzz_scene seeds from shared/: node scripts/fuzz.mjs --seed-corpus.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = path.join(ROOT, 'build', 'fuzz');
const BIN = path.join(BUILD, 'fuzz');
const RUN = path.join(BUILD, 'run');
const FUZZ_DIR = path.join(ROOT, 'tests', 'fuzz');
const LIB = path.join(ROOT, 'web', 'dist', 'lib', 'index.mjs');

export const LIBFUZZER_TARGETS = ['fuzz_scene', 'fuzz_hull', 'fuzz_pair', 'fuzz_mesh', 'fuzz_world', 'fuzz_hull_full'];
export const DEFAULT_TARGETS = ['fuzz_scene', 'fuzz_hull', 'fuzz_pair', 'fuzz_mesh', 'fuzz_world', 'link', 'known'];
export const DEFAULT_SECONDS = 15;
// Longest input per target: a scene of a few dozen points; 64 points and a rotation; two shapes, a ray and a
// motion; two meshes of 12 triangles, rays and a shape; 48 world operations.
const MAX_LEN = { fuzz_scene: 4096, fuzz_hull: 1024, fuzz_hull_full: 1024, fuzz_pair: 512, fuzz_mesh: 1024, fuzz_world: 2048 };

// ------------------------------------------------------------------ build

// What '#' in a recorded invariant (known.json) matches: any number as the
// targets print it (an index, or a double such as -7.9999996151723991 or
// 4.9406564584124654e-324).
const ANY_NUMBER = '-?\\d+(?:\\.\\d+)?(?:e[-+]?\\d+)?';

function configureAndBuild(targets, log) {
  const cache = path.join(BUILD, 'CMakeCache.txt');
  if (!existsSync(cache)) {
    const args = ['-S', ROOT, '-B', BUILD, '-DCMAKE_BUILD_TYPE=RelWithDebInfo', '-DCMAKE_CXX_COMPILER=clang++',
      '-DCOLLIDOSCOPE_FUZZ=ON', '-DCOLLIDOSCOPE_BUILD_TESTS=OFF'];
    log(`$ cmake ${args.join(' ')}`);
    const r = spawnSync('cmake', args, { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) return `cmake configure failed (exit ${r.status ?? r.error?.message})`;
  }
  const jobs = String(Math.max(1, os.availableParallelism?.() ?? os.cpus().length));
  const args = ['--build', BUILD, '-j', jobs, '--target', ...targets];
  log(`$ cmake ${args.join(' ')}`);
  const r = spawnSync('cmake', args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) return `build failed (exit ${r.status ?? r.error?.message})`;
  return null;
}

// ------------------------------------------------------------------ libFuzzer targets

function copyCorpus(target, dir) {
  mkdirSync(dir, { recursive: true });
  const src = path.join(FUZZ_DIR, 'corpus', target === 'fuzz_hull_full' ? 'fuzz_hull_full' : target);
  if (!existsSync(src)) return 0;
  let n = 0;
  for (const f of readdirSync(src)) {
    const p = path.join(src, f);
    if (statSync(p).isFile()) {
      copyFileSync(p, path.join(dir, f));
      n++;
    }
  }
  return n;
}

// The lines of a failure worth showing: the invariant (or the sanitizer's verdict) and what follows it.
function failureSummary(text) {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('INVARIANT '));
  if (at >= 0) {
    const out = [lines[at].replace(/^INVARIANT /, '')];
    for (let i = at + 1; i < lines.length && !lines[i].startsWith('==') && out.length < 8; i++) {
      if (lines[i].trim()) out.push(lines[i].length > 600 ? `${lines[i].slice(0, 600)}…` : lines[i]);
    }
    return out;
  }
  const picks = [];
  for (const l of lines) {
    if (/runtime error:|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|^SUMMARY:|ALARM: working on the last Unit/.test(l)) {
      picks.push(l.trim());
    }
  }
  return picks.length ? picks.slice(0, 6) : ['(no diagnosis found in the output)'];
}

function runLibFuzzer(target, seconds, seed, runs) {
  const bin = path.join(BIN, target);
  const scratch = path.join(RUN, target);
  rmSync(scratch, { recursive: true, force: true });
  const corpus = path.join(scratch, 'corpus');
  const artifacts = path.join(scratch, 'artifacts');
  mkdirSync(artifacts, { recursive: true });
  const seeds = copyCorpus(target, corpus);
  const args = [
    `-max_total_time=${seconds}`,
    // A fixed number of inputs (with a fixed seed: the same inputs on every machine), seconds as a cap only.
    ...(runs ? [`-runs=${runs}`] : []),
    // Full-length inputs from the start: the targets read their numbers with FuzzedDataProvider, and
    // libFuzzer's default length control keeps inputs at a few bytes for minutes (all defaults).
    '-len_control=0',
    `-max_len=${MAX_LEN[target] ?? 1024}`,
    '-timeout=10',
    '-rss_limit_mb=2048',
    '-print_final_stats=1',
    `-artifact_prefix=${artifacts}${path.sep}`,
  ];
  if (seed !== undefined) args.push(`-seed=${seed}`);
  const dict = path.join(FUZZ_DIR, `${target}.dict`);
  if (existsSync(dict)) args.push(`-dict=${dict}`);
  args.push(corpus);
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(bin, args, { cwd: scratch, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d) => {
      out += d.toString();
      if (out.length > 4_000_000) out = out.slice(-2_000_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    // libFuzzer stops itself; this only catches a run that does not (a wedged exit).
    const watchdog = setTimeout(() => child.kill('SIGKILL'), (seconds + 120) * 1000);
    child.on('error', (e) => {
      clearTimeout(watchdog);
      resolve({ name: target, ok: false, execs: 0, detail: [`cannot run ${bin}: ${e.message}`] });
    });
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      const execs = Number(/stat::number_of_executed_units:\s*(\d+)/.exec(out)?.[1] ?? /Done (\d+) runs/.exec(out)?.[1] ?? 0);
      if (code === 0) return resolve({ name: target, ok: true, execs, seeds });
      const crash = /(?:Test unit written to|written to) (\S+)/.exec(out)?.[1];
      const detail = failureSummary(out);
      // A failure recorded in known.json is not a new one (the 'known' step replays its input); the run ends
      // there, as a campaign's segment does.
      if (!signal && isKnown(target, detail[0], knownEntries())) {
        return resolve({ name: target, ok: true, execs, seeds, note: `stopped at a recorded failure: ${detail[0]}` });
      }
      if (signal) detail.unshift(`killed by ${signal} (the run did not end)`);
      if (crash && existsSync(crash)) {
        const kind = path.basename(crash).split('-')[0];
        detail.push(`${kind} file: ${crash}`);
        const bytes = readFileSync(crash);
        if (bytes.length <= 8192) detail.push(`input (base64): ${bytes.toString('base64')}`);
        detail.push(`reproduce: ${path.relative(ROOT, bin)} <that file>`);
      }
      resolve({ name: target, ok: false, execs, detail });
    });
  });
}

// ------------------------------------------------------------------ recorded failures

function replayKnown() {
  const manifest = path.join(FUZZ_DIR, 'known', 'known.json');
  if (!existsSync(manifest)) return { name: 'known', ok: true, execs: 0, note: 'no recorded failures' };
  const entries = JSON.parse(readFileSync(manifest, 'utf8')).failures ?? [];
  const problems = [];
  for (const e of entries) {
    const bin = path.join(BIN, e.target);
    const file = path.join(FUZZ_DIR, 'known', e.file);
    const r = spawnSync(bin, [file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const text = `${r.stdout ?? ''}${r.stderr ?? ''}`;
    // '#' in a recorded invariant stands for any number (face and vertex
    // indices change with the order a hull is numbered in; depths and
    // distances are written as the doubles they are).
    const escaped = `INVARIANT ${e.target}: ${e.invariant}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const want = new RegExp(escaped.replace(/#/g, ANY_NUMBER));
    if (r.error) problems.push(`${e.file}: cannot run ${e.target}: ${r.error.message}`);
    else if (r.status === 0) {
      problems.push(`${e.file} no longer fails (fixed?): remove it from tests/fuzz/known/known.json and keep it as a regression test`);
    } else if (!want.test(text)) {
      problems.push(`${e.file} fails differently: ${failureSummary(text)[0]} (recorded: ${e.invariant})`);
    }
  }
  return problems.length
    ? { name: 'known', ok: false, execs: entries.length, detail: problems }
    : { name: 'known', ok: true, execs: entries.length, note: `${entries.length} recorded failures still fail as recorded` };
}

// ------------------------------------------------------------------ the link fuzzer (JS)

function runLinkFuzzer(seconds, seed, runs) {
  const scratch = path.join(RUN, 'link');
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  if (!existsSync(LIB)) {
    return Promise.resolve({ name: 'link', ok: false, execs: 0, detail: [`${path.relative(ROOT, LIB)} is missing: run node scripts/build.mjs first`] });
  }
  const args = [fileURLToPath(import.meta.url), '--link-worker', '--seconds', String(seconds), '--seed', String(seed), '--scratch', scratch, ...(runs ? ['--runs', String(runs)] : [])];
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (out += d.toString()));
    child.stderr.on('data', (d) => (out += d.toString()));
    // A call that never returns stops the worker's clock; 60 s past the end it is a hang.
    let hung = false;
    const watchdog = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, (seconds + 60) * 1000);
    child.on('close', (code) => {
      clearTimeout(watchdog);
      const last = out.trim().split('\n').filter((l) => l.startsWith('{')).pop();
      let report = null;
      try {
        report = last ? JSON.parse(last) : null;
      } catch {
        report = null;
      }
      if (hung) {
        const current = path.join(scratch, 'current.json');
        const what = existsSync(current) ? readFileSync(current, 'utf8').slice(0, 2000) : '(unknown)';
        return resolve({ name: 'link', ok: false, execs: 0, detail: [`hang: a decodeLink call did not return within 60 s`, `input: ${what}`] });
      }
      if (code === 0 && report?.ok) return resolve({ name: 'link', ok: true, execs: report.execs, note: report.note });
      const detail = report?.failure ? [report.failure, ...(report.details ?? [])] : [`the link fuzzer exited with ${code}`, ...out.trim().split('\n').slice(-8)];
      resolve({ name: 'link', ok: false, execs: report?.execs ?? 0, detail });
    });
  });
}

// A small, seeded PRNG (mulberry32): the same seed gives the same inputs.
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Valid scenes: the gallery and the test vectors.
function loadScenes() {
  const scenes = [];
  for (const dir of ['shared/scenes', 'shared/vectors/gjk', 'shared/vectors/epa']) {
    const abs = path.join(ROOT, dir);
    if (!existsSync(abs)) continue;
    for (const f of readdirSync(abs).sort()) {
      if (!f.endsWith('.json') || f === 'expected.json') continue;
      scenes.push({ name: `${dir}/${f}`, scene: JSON.parse(readFileSync(path.join(abs, f), 'utf8')) });
    }
  }
  return scenes;
}

// Link inputs. Each is a function of the PRNG only, so (seed, index) reproduces it.
const MAX_PAYLOAD = 2_000_000; // web/lib/link.ts
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const NOISE = `${B64URL}=+/%#?& \t\n\u0000é€\u{1F600}\uD800\uDFFF"\\[]{}:,`;

function makeGenerator(rng, scenes, encodeLink) {
  const pick = (xs) => xs[Math.floor(rng() * xs.length)];
  const int = (lo, hi) => lo + Math.floor(rng() * (hi - lo + 1));
  const links = scenes.map((s) => encodeLink(s.scene));
  const b64 = (bytes) => Buffer.from(bytes).toString('base64url');
  const hashOf = (text) => `#v1=${b64(Buffer.from(text, 'utf8'))}`;
  const specials = [
    NaN, Infinity, -Infinity, -0, 0, 1e308, -1e308, 5e-324, 1e15, 1e16, 2 ** 53, -1, 0.5, 1,
    'NaN', 'Infinity', '-Infinity', '1', '', null, true, false, [], {}, [1, 2], [0, 0, 0], [0, 0, 0, 0],
    'point', 'box', 'polytope', 'distance', 'raycast', '__proto__', '<img src=x onerror=alert(1)>', 'é€😀',
  ];
  const nest = (v, depth, obj) => {
    let out = v;
    for (let i = 0; i < depth; i++) out = obj ? { a: out } : [out];
    return out;
  };
  const paths = (v, prefix = [], acc = []) => {
    acc.push(prefix);
    if (v && typeof v === 'object' && prefix.length < 6) {
      for (const k of Object.keys(v)) paths(v[k], [...prefix, k], acc);
    }
    return acc;
  };
  const setAt = (root, p, value) => {
    if (p.length === 0) return value;
    let o = root;
    for (let i = 0; i < p.length - 1; i++) o = o[p[i]];
    o[p[p.length - 1]] = value;
    return root;
  };
  const mutateValue = () => {
    const r = rng();
    // A copy: the same [] or {} placed twice and then mutated inside would make the scene a cycle.
    if (r < 0.55) return structuredClone(pick(specials));
    if (r < 0.65) return nest(structuredClone(pick(specials)), int(60, 70), rng() < 0.5);
    if (r < 0.7) return nest(0, int(1000, 3000), false); // deeper: nested() builds the text directly
    if (r < 0.8) return Array.from({ length: int(0, 2000) }, () => (rng() < 0.5 ? [rng(), rng(), rng()] : rng() * 1e6));
    if (r < 0.9) return 'x'.repeat(int(60, 70000));
    return (rng() - 0.5) * 10 ** int(-320, 320);
  };
  const jsonMutation = () => {
    const scene = structuredClone(pick(scenes).scene);
    let root = scene;
    for (let k = int(1, 3); k > 0; k--) {
      const ps = paths(root);
      const p = pick(ps);
      const r = rng();
      if (r < 0.6 || p.length === 0) root = setAt(root, p, mutateValue());
      else if (r < 0.8) {
        let o = root;
        for (let i = 0; i < p.length - 1; i++) o = o[p[i]];
        if (o && typeof o === 'object') delete o[p[p.length - 1]];
      } else {
        let o = root;
        for (let i = 0; i < p.length; i++) o = o?.[p[i]];
        if (o && typeof o === 'object' && !Array.isArray(o)) o[pick(['colour', 'Version', 'x'.repeat(int(1, 100000)), 'é€', '__proto__', 'constructor'])] = mutateValue();
      }
    }
    // Two deep values nested into each other can exceed what this Node's own JSON.stringify
    // recurses through (a limit of the harness, not of the page): such an input is made as text by
    // nested() instead.
    let text;
    try {
      text = JSON.stringify(root) ?? 'undefined';
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      return nested();
    }
    if (rng() < 0.25) {
      // Text edits: duplicate keys, a stray character, a cut.
      const r = rng();
      if (r < 0.3) text = text.replace('{', '{"version":2,');
      else if (r < 0.6) {
        const at = int(0, text.length);
        text = text.slice(0, at) + pick(['"', ',', ']', '}', '\\', '\u0000', 'NaN', '1e999', '-', ' ']) + text.slice(at);
      } else text = text.slice(0, int(0, text.length));
    }
    return hashOf(text);
  };
  const charMutation = () => {
    let s = pick(links);
    for (let k = int(1, 4); k > 0; k--) {
      const at = int(0, s.length);
      const r = rng();
      if (r < 0.3) s = s.slice(0, at) + pick([...NOISE]) + s.slice(at + 1);
      else if (r < 0.5) s = s.slice(0, at) + pick([...NOISE]) + s.slice(at);
      else if (r < 0.7) s = s.slice(0, at) + s.slice(at + 1);
      else if (r < 0.8) s = s.slice(0, at);
      else if (r < 0.9) s = s.slice(0, at) + s.slice(int(0, s.length));
      else s = pick(['', 'https://example.org/page?q=1', 'x#', '#', '#v1=', '##']) + s.replace('#v1=', pick(['#v1=', '#v2=', 'v1=', '#V1=', '#v1==', '#v1=#v1=']));
    }
    return s;
  };
  const randomString = () => {
    const n = int(0, rng() < 0.9 ? 200 : 20000);
    let s = '';
    for (let i = 0; i < n; i++) s += rng() < 0.7 ? pick([...NOISE]) : String.fromCharCode(int(0, 0xffff));
    return pick(['', '#v1=', '#v1=', 'http://h/#v1=']) + s;
  };
  const randomBytes = () => `#v1=${b64(Uint8Array.from({ length: int(0, 300) }, () => int(0, 255)))}`;
  const nested = () => {
    // Very deep ones cost up to a second (JSON.parse, then the validator's
    // JSON.stringify overflowing the stack): one in 40 of these.
    const d = rng() < 0.025 ? pick([100000, 400000]) : pick([63, 64, 65, 66, 1000, 5000]);
    const obj = rng() < 0.5;
    return hashOf(obj ? `${'{"a":'.repeat(d)}1${'}'.repeat(d)}` : `${'['.repeat(d)}${']'.repeat(d)}`);
  };
  const oversized = () => {
    const n = MAX_PAYLOAD + int(-3, 3);
    return `#v1=${'A'.repeat(n - (n % 4 === 1 ? 1 : 0))}`;
  };
  const notAString = () => pick([undefined, null, 42, {}, [], ['#v1='], new String(pick(links)), 1n, () => '#v1=', Symbol('x')]);

  let index = 0;
  return () => {
    index++;
    // Oversized payloads cost ~50 ms each: one in 400.
    if (index % 400 === 0) return oversized();
    const r = rng();
    if (r < 0.3) return jsonMutation();
    if (r < 0.55) return charMutation();
    if (r < 0.7) return randomString();
    if (r < 0.82) return randomBytes();
    if (r < 0.92) return nested();
    if (r < 0.97) return pick(links);
    return notAString();
  };
}

function describeInput(x) {
  if (typeof x === 'string') return x.length > 600 ? `${JSON.stringify(x.slice(0, 600))}… (${x.length} chars)` : JSON.stringify(x);
  if (typeof x === 'bigint') return `${x}n`;
  if (typeof x === 'function' || typeof x === 'symbol') return String(x);
  try {
    return `${Object.prototype.toString.call(x)} ${JSON.stringify(x)}`;
  } catch {
    return Object.prototype.toString.call(x);
  }
}

// The checks on one decodeLink answer: null when they hold, else what broke.
function checkLink(lib, input) {
  const { CollidoscopeError, decodeLink, encodeLink, validateScene } = lib;
  let scene;
  try {
    scene = decodeLink(input);
  } catch (threw) {
    if (!(threw instanceof CollidoscopeError)) return `decodeLink threw ${threw?.constructor?.name ?? typeof threw} instead of CollidoscopeError: ${threw?.message ?? threw}`;
    if (threw.code !== 'bad-link') return `decodeLink threw CollidoscopeError with code '${threw.code}', not 'bad-link': ${threw.message}`;
    if (!threw.message || threw.message.length > 1000) return `decodeLink's error message is ${threw.message ? `${threw.message.length} characters long` : 'empty'} (a clear error is short)`;
    return null;
  }
  try {
    validateScene(scene);
  } catch (e) {
    return `decodeLink returned a scene that validateScene rejects: ${e.message}`;
  }
  let again;
  try {
    again = decodeLink(encodeLink(scene));
  } catch (e) {
    return `the decoded scene does not survive encodeLink → decodeLink: ${e.message}`;
  }
  if (JSON.stringify(again) !== JSON.stringify(scene)) return 'encodeLink → decodeLink changed the decoded scene';
  return null;
}

// keepGoing (a campaign): a broken check is recorded and the run goes on; the count of inputs done is
// written to <scratch>/progress.json every 500 inputs, so a run stopped from outside still says what ran.
async function linkWorker({ seconds, seed, scratch, replay, runs, keepGoing }) {
  const lib = await import(pathToFileURL(LIB).href);
  await lib.init();
  const { decodeLink, encodeLink, run } = lib;
  const scenes = loadScenes();
  const rng = mulberry32(seed);
  const next = makeGenerator(rng, scenes, encodeLink);
  if (replay !== undefined) {
    let input;
    for (let i = 1; i <= replay; i++) input = next();
    console.log(describeInput(input));
    try {
      console.log('decodeLink:', JSON.stringify(decodeLink(input)).slice(0, 2000));
    } catch (e) {
      const m = String(e?.message);
      console.log(`decodeLink threw ${e?.name}: ${m.length > 4000 ? `${m.slice(0, 2000)} … ${m.slice(-2000)}` : m}`);
    }
    return;
  }
  // A reference answer, asked again at the end: the module must still work after everything.
  const probe = scenes[0].scene;
  const before = JSON.stringify(run(probe));
  const report = (o) => console.log(JSON.stringify(o));
  const current = path.join(scratch, 'current.json');
  const progress = path.join(scratch, 'progress.json');
  const end = Date.now() + seconds * 1000;
  let execs = 0;
  let slowest = 0;
  let slowestInput = '';
  const failures = [];
  while (Date.now() < end && !(runs && execs >= runs)) {
    const input = next();
    writeFileSync(current, describeInput(input).slice(0, 100_000));
    const t0 = performance.now();
    const broken = checkLink(lib, input);
    const ms = performance.now() - t0;
    if (ms > slowest) {
      slowest = ms;
      slowestInput = describeInput(input).slice(0, 120);
    }
    if (broken) {
      const details = [`input #${execs + 1}: ${describeInput(input)}`, `reproduce: node scripts/fuzz.mjs --target link --seed ${seed} --replay ${execs + 1}`];
      if (!keepGoing) {
        report({ ok: false, execs, failure: broken, details });
        process.exit(1);
      }
      failures.push({ kind: 'wrong', what: broken, details });
    }
    execs++;
    if (keepGoing && execs % 500 === 0) writeFileSync(progress, JSON.stringify({ execs, failures }));
  }
  const after = JSON.stringify(run(probe));
  if (after !== before) {
    const what = `after ${execs} inputs the module answers ${scenes[0].name} differently`;
    if (!keepGoing) {
      report({ ok: false, execs, failure: what, details: [before, after] });
      process.exit(1);
    }
    failures.push({ kind: 'wrong', what, details: [before, after] });
  }
  const note = `slowest call ${slowest.toFixed(0)} ms: ${slowestInput}`;
  if (keepGoing) report({ ok: failures.length === 0, execs, failures, note });
  else report({ ok: true, execs, note });
}

// ------------------------------------------------------------------ the run

/** The libFuzzer binaries a quick run of `targets` needs: its native targets and, for 'known', the recorded failures'. */
function binariesFor(targets) {
  const need = targets.filter((t) => LIBFUZZER_TARGETS.includes(t));
  if (targets.includes('known') && existsSync(path.join(FUZZ_DIR, 'known', 'known.json'))) {
    for (const e of JSON.parse(readFileSync(path.join(FUZZ_DIR, 'known', 'known.json'), 'utf8')).failures ?? []) {
      if (!need.includes(e.target)) need.push(e.target);
    }
  }
  return need;
}

/** Configures build/fuzz if needed and builds the binaries a quick run of `targets` needs; true when it worked. */
export function buildFuzzTargets(targets = DEFAULT_TARGETS, log = console.log) {
  const unknown = targets.filter((t) => !LIBFUZZER_TARGETS.includes(t) && t !== 'link' && t !== 'known');
  if (unknown.length) {
    log(`fuzz build: FAILED — unknown fuzz target(s): ${unknown.join(', ')} (known: ${[...LIBFUZZER_TARGETS, 'link', 'known'].join(', ')})`);
    return false;
  }
  const need = binariesFor(targets);
  const err = need.length ? configureAndBuild(need, log) : null;
  log(err ? `fuzz build: FAILED — ${err}` : `fuzz build: ok (${need.join(', ') || 'nothing to build'})`);
  return !err;
}

/**
 * Builds what the targets need and runs each for `seconds`.
 * Returns { passed, failed, rows } with rows [{ name, ok, execs, detail?, note? }].
 */
// runs: { target: N } stops a target after N inputs (libFuzzer -runs; the link fuzzer's count), seconds
// remaining a cap: with a fixed seed, every machine then tries the same inputs (scripts/test.mjs does this).
export async function runFuzz({ seconds = DEFAULT_SECONDS, targets = DEFAULT_TARGETS, jobs, seed, runs = {}, log = console.log } = {}) {
  const unknown = targets.filter((t) => !LIBFUZZER_TARGETS.includes(t) && t !== 'link' && t !== 'known');
  if (unknown.length) throw new Error(`unknown fuzz target(s): ${unknown.join(', ')} (known: ${[...LIBFUZZER_TARGETS, 'link', 'known'].join(', ')})`);
  const linkSeed = seed ?? Math.floor(Math.random() * 2 ** 31);
  const rows = [];
  const native = targets.filter((t) => LIBFUZZER_TARGETS.includes(t));
  const needBuild = binariesFor(targets);
  let built = true;
  if (needBuild.length) {
    const err = configureAndBuild(needBuild, log);
    if (err) {
      built = false;
      rows.push({ name: 'build', ok: false, execs: 0, detail: [err] });
      log(`fuzz build: FAILED — ${err}`);
    }
  }
  const print = (r) => {
    if (r.ok) log(`fuzz ${r.name}: ok (${r.execs} execs)`);
    else log(`fuzz ${r.name}: FAILED — ${(r.detail ?? ['?'])[0]}`);
    if (r.note) log(`  ${r.note}`);
    for (const d of (r.ok ? [] : r.detail ?? []).slice(1)) log(`  ${d}`);
  };
  // J targets at a time (libFuzzer and the link fuzzer alike are single-threaded).
  const width = Math.max(1, jobs ?? Math.min(2, os.availableParallelism?.() ?? os.cpus().length));
  const tasks = [];
  if (built) for (const t of native) tasks.push(() => runLibFuzzer(t, seconds, seed, runs[t]));
  if (targets.includes('link')) tasks.push(() => runLinkFuzzer(seconds, linkSeed, runs.link));
  const results = new Array(tasks.length);
  let nextTask = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, tasks.length) }, async () => {
      while (nextTask < tasks.length) {
        const i = nextTask++;
        results[i] = await tasks[i]();
      }
    }),
  );
  for (const r of results) {
    rows.push(r);
    print(r);
  }
  if (targets.includes('link')) log(`  (link fuzzer seed ${linkSeed})`);
  if (targets.includes('known') && built) {
    const r = replayKnown();
    rows.push(r);
    print(r);
  }
  const passed = rows.filter((r) => r.ok).length;
  const failed = rows.length - passed;
  log(`fuzz: ${passed} passed, ${failed} failed`);
  return { passed, failed, rows };
}

// ------------------------------------------------------------------ campaigns (npm run fuzz -- --runs N)
//
// A campaign runs each target for N inputs (or M minutes) and goes on past failures: libFuzzer stops at the
// first one, so a target runs in segments of at most SEGMENT_RUNS inputs, each with its own seed (seed,
// seed + 1, …) on the growing corpus in build/fuzz/campaign/<target>/corpus; a failure ends a segment, is
// classified, and the next segment carries on. After every segment the target's state (inputs, time,
// failures, segments) is saved in state.json and REPORT.md rewritten, so --resume continues where a stopped
// run left off and the report always says what ran. At the end libFuzzer's -merge=1 adds to
// tests/fuzz/corpus/<target> only the inputs of the campaign's corpus that add coverage.
const CAMPAIGN = path.join(BUILD, 'campaign');
const REPORT = path.join(FUZZ_DIR, 'REPORT.md');
const SEGMENT_RUNS = 100_000;
const LINK_SEGMENT_RUNS = 20_000;
// A target that fails this often is reported as it is rather than run on: each failure costs a restart.
const MAX_FAILURES = 200;
export const CAMPAIGN_TARGETS = ['fuzz_scene', 'fuzz_hull', 'fuzz_pair', 'fuzz_mesh', 'fuzz_world', 'fuzz_hull_full', 'link'];

// What a failure is, from the target's output: a broken invariant (a wrong answer, or a NaN when the line
// says non-finite/NaN), a sanitizer crash, a timeout (-timeout, a hang) or out-of-memory (-rss_limit_mb).
function classify(out, artifact) {
  const prefix = artifact ? path.basename(artifact).split('-')[0] : '';
  const inv = out.split('\n').find((l) => l.startsWith('INVARIANT '));
  if (prefix === 'timeout' || /ERROR: libFuzzer: timeout/.test(out)) return { kind: 'hang', what: 'timeout: one input ran longer than 10 s' };
  if (prefix === 'oom' || /ERROR: libFuzzer: out-of-memory/.test(out)) {
    return { kind: 'oom', what: (/ERROR: libFuzzer: out-of-memory[^\n]*/.exec(out)?.[0] ?? 'out-of-memory').trim() };
  }
  if (inv) return { kind: /non-finite|\bNaN\b/i.test(inv) ? 'nan' : 'wrong', what: inv.replace(/^INVARIANT /, '') };
  return { kind: 'crash', what: failureSummary(out)[0] };
}

function knownEntries() {
  const manifest = path.join(FUZZ_DIR, 'known', 'known.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).failures ?? [] : [];
}

function isKnown(target, what, known) {
  return known.some((e) => {
    if (e.target !== target) return false;
    const escaped = `${e.target}: ${e.invariant}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/#/g, ANY_NUMBER);
    return new RegExp(`^${escaped}`).test(what);
  });
}

function countFiles(dir) {
  if (!existsSync(dir)) return { files: 0, bytes: 0 };
  let files = 0;
  let bytes = 0;
  for (const f of readdirSync(dir)) {
    const st = statSync(path.join(dir, f));
    if (st.isFile()) {
      files++;
      bytes += st.size;
    }
  }
  return { files, bytes };
}

// What a target runs: the libFuzzer binary, or for link the library bundle. A campaign records its SHA-256,
// so that its counts can be claimed for a later revision whose build of the target is the same bytes (built
// in the same directory: the binaries hold their source paths), and a resume onto other code is refused.
export function targetFingerprint(target) {
  const file = target === 'link' ? LIB : path.join(BIN, target);
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

// Whether this checkout builds each campaign target (all with a saved state, or those named) into the same
// bytes the campaign ran; prints one line per target. The campaign's counts hold for this revision where it does.
export function sameBuild(targets, log = console.log) {
  const names = targets ?? (existsSync(CAMPAIGN) ? readdirSync(CAMPAIGN) : []).filter((t) => existsSync(path.join(CAMPAIGN, t, 'state.json')));
  if (!names.length) {
    log('fuzz: no campaign state in build/fuzz/campaign');
    return false;
  }
  const native = names.filter((t) => t !== 'link');
  if (native.length) {
    const err = configureAndBuild(native, log);
    if (err) throw new Error(err);
  }
  let all = true;
  for (const t of names) {
    const file = path.join(CAMPAIGN, t, 'state.json');
    const st = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
    const now = targetFingerprint(t);
    const same = Boolean(st?.binary) && st.binary === now;
    all &&= same;
    log(`fuzz ${t}: ${!st ? 'no campaign state' : same ? `same build as the campaign (${st.execs.toLocaleString('en-US')} inputs, ${st.failures.length} failures, at revision ${st.revision})` : `build differs from the campaign's (sha256 ${(st.binary ?? '?').slice(0, 12)} → ${now.slice(0, 12)})`}`);
  }
  return all;
}

function loadState(target, { runs, seconds, seed, resume }, meta) {
  const dir = path.join(CAMPAIGN, target);
  const file = path.join(dir, 'state.json');
  const binary = targetFingerprint(target);
  if (resume && existsSync(file)) {
    const st = JSON.parse(readFileSync(file, 'utf8'));
    if (st.binary && st.binary !== binary)
      throw new Error(`${target}: its build changed since the campaign started (sha256 ${st.binary.slice(0, 12)} → ${binary.slice(0, 12)}); ` +
        'a resumed campaign must run the same code: start it afresh without --resume');
    st.runsWanted = runs ?? st.runsWanted;
    st.secondsWanted = seconds ?? st.secondsWanted;
    st.merged = false;
    return st;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'artifacts'), { recursive: true });
  const corpusBefore = countFiles(path.join(FUZZ_DIR, 'corpus', target));
  if (target !== 'link') copyCorpus(target, path.join(dir, 'corpus'));
  return {
    target, command: meta.command, revision: meta.revision, binary, runsWanted: runs ?? null, secondsWanted: seconds ?? null, seed, execs: 0, seconds: 0, segments: [],
    failures: [], corpusBefore, corpusAfter: null, merged: false, started: new Date().toISOString(),
  };
}

function saveState(st) {
  writeFileSync(path.join(CAMPAIGN, st.target, 'state.json'), `${JSON.stringify(st, null, 1)}\n`);
}

// Whether the target still has inputs (and time) to run.
function wantsMore(st) {
  if (st.failures.length >= MAX_FAILURES) return false;
  if (st.runsWanted && st.execs >= st.runsWanted) return false;
  if (st.secondsWanted && st.seconds >= st.secondsWanted) return false;
  return true;
}

function recordFailure(st, f) {
  st.failures.push(f);
}

function libFuzzerSegment(st, known) {
  const target = st.target;
  const dir = path.join(CAMPAIGN, target);
  const artifacts = path.join(dir, 'artifacts');
  const segSeed = st.seed + st.segments.length;
  const runs = Math.min(SEGMENT_RUNS, st.runsWanted ? st.runsWanted - st.execs : SEGMENT_RUNS);
  const secondsLeft = st.secondsWanted ? Math.max(1, Math.ceil(st.secondsWanted - st.seconds)) : 0;
  const args = [`-runs=${runs}`, '-len_control=0', `-max_len=${MAX_LEN[target] ?? 1024}`, '-timeout=10', '-rss_limit_mb=2048',
    '-print_final_stats=1', `-seed=${segSeed}`, `-artifact_prefix=${artifacts}${path.sep}`];
  if (secondsLeft) args.push(`-max_total_time=${secondsLeft}`);
  const dict = path.join(FUZZ_DIR, `${target}.dict`);
  if (existsSync(dict)) args.push(`-dict=${dict}`);
  args.push(path.join(dir, 'corpus'));
  const before = new Set(readdirSync(artifacts));
  const t0 = Date.now();
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(path.join(BIN, target), args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d) => {
      out += d.toString();
      if (out.length > 4_000_000) out = out.slice(0, 200_000) + out.slice(-1_000_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (e) => resolve({ error: e.message }));
    child.on('close', (code) => {
      const seconds = (Date.now() - t0) / 1000;
      const statuses = [...out.matchAll(/^#(\d+)\s/gm)];
      const execs = Number(/stat::number_of_executed_units:\s*(\d+)/.exec(out)?.[1] ?? statuses.at(-1)?.[1] ?? 0);
      st.execs += execs;
      st.seconds += seconds;
      st.segments.push({ seed: segSeed, execs, seconds: Math.round(seconds), exit: code });
      if (code !== 0) {
        const fresh = readdirSync(artifacts).filter((f) => !before.has(f) && !f.startsWith('slow-unit'));
        const artifact = fresh.length ? path.join(artifacts, fresh[0]) : null;
        const f = { ...classify(out, artifact), seed: segSeed, atInput: st.execs };
        if (artifact) {
          const bytes = readFileSync(artifact);
          f.file = path.relative(ROOT, artifact);
          if (bytes.length <= 4096) f.base64 = bytes.toString('base64');
          // A failing input the corpus already holds would fail every segment at start-up: drop it.
          if (execs < 2 * countFiles(path.join(dir, 'corpus')).files) {
            for (const c of readdirSync(path.join(dir, 'corpus'))) {
              if (readFileSync(path.join(dir, 'corpus', c)).equals(bytes)) rmSync(path.join(dir, 'corpus', c));
            }
          }
        } else if (execs === 0) {
          f.what = `${f.what} (the target did not start: exit ${code})`;
          st.failures.push(f);
          st.broken = true;
          return resolve({});
        }
        f.known = isKnown(target, f.what, known);
        recordFailure(st, f);
      }
      resolve({});
    });
  });
}

function linkSegment(st) {
  const dir = path.join(CAMPAIGN, 'link');
  mkdirSync(dir, { recursive: true });
  const segSeed = st.seed + st.segments.length;
  const runs = Math.min(LINK_SEGMENT_RUNS, st.runsWanted ? st.runsWanted - st.execs : LINK_SEGMENT_RUNS);
  const seconds = st.secondsWanted ? Math.max(1, st.secondsWanted - st.seconds) : 10 * 24 * 3600;
  const progress = path.join(dir, 'progress.json');
  rmSync(progress, { force: true });
  const args = [fileURLToPath(import.meta.url), '--link-worker', '--keep-going', '--seconds', String(seconds), '--seed', String(segSeed),
    '--scratch', dir, '--runs', String(runs)];
  const t0 = Date.now();
  return new Promise((resolve) => {
    let out = '';
    let lastBeat = Date.now();
    let lastExecs = -1;
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (out += d.toString()));
    child.stderr.on('data', (d) => (out += d.toString()));
    // progress.json moves every 500 inputs; a minute without it moving is a call that does not return.
    let hung = false;
    const beat = setInterval(() => {
      let execs = lastExecs;
      try {
        execs = JSON.parse(readFileSync(progress, 'utf8')).execs;
      } catch {
        // not written yet
      }
      if (execs !== lastExecs) {
        lastExecs = execs;
        lastBeat = Date.now();
      } else if (Date.now() - lastBeat > 90_000) {
        hung = true;
        child.kill('SIGKILL');
      }
    }, 5000);
    child.on('close', (code) => {
      clearInterval(beat);
      const secondsRun = (Date.now() - t0) / 1000;
      const last = out.trim().split('\n').filter((l) => l.startsWith('{')).pop();
      let report = null;
      try {
        report = last ? JSON.parse(last) : null;
      } catch {
        report = null;
      }
      let partial = null;
      try {
        partial = JSON.parse(readFileSync(progress, 'utf8'));
      } catch {
        partial = null;
      }
      const execs = report?.execs ?? partial?.execs ?? 0;
      st.execs += execs;
      st.seconds += secondsRun;
      st.segments.push({ seed: segSeed, execs, seconds: Math.round(secondsRun), exit: code });
      for (const f of report?.failures ?? partial?.failures ?? []) recordFailure(st, { ...f, seed: segSeed });
      if (hung) {
        const current = path.join(dir, 'current.json');
        recordFailure(st, { kind: 'hang', what: 'link: a decodeLink call did not return within 90 s', seed: segSeed,
          details: [`input: ${existsSync(current) ? readFileSync(current, 'utf8').slice(0, 2000) : '(unknown)'}`] });
      } else if (!report) {
        const oom = /heap out of memory/i.test(out);
        recordFailure(st, { kind: oom ? 'oom' : 'crash', what: `link: the worker exited with ${code}`, seed: segSeed, details: out.trim().split('\n').slice(-6) });
        if (execs === 0) st.broken = true;
      }
      resolve({});
    });
  });
}

// -use_counters=0: coverage counted by edges only, not by how often an edge runs (the hit-count buckets
// would keep hundreds of inputs per thousand run).
function mergeCorpus(st) {
  st.merged = true;
  if (st.target === 'link') return;
  const committed = path.join(FUZZ_DIR, 'corpus', st.target);
  mkdirSync(committed, { recursive: true });
  const r = spawnSync(path.join(BIN, st.target), ['-merge=1', '-len_control=0', `-max_len=${MAX_LEN[st.target] ?? 1024}`, '-timeout=10',
    '-rss_limit_mb=2048', '-use_counters=0', committed, path.join(CAMPAIGN, st.target, 'corpus')], { cwd: path.join(CAMPAIGN, st.target), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  st.mergeError = r.status === 0 ? undefined : `merge exited with ${r.status ?? r.error?.message}: ${failureSummary(`${r.stdout}${r.stderr}`)[0]}`;
  st.corpusAfter = countFiles(committed);
}

const KINDS = ['crash', 'hang', 'oom', 'nan', 'wrong'];

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function gitRevision() {
  const rev = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() || '?';
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).stdout?.trim();
  return dirty ? `${rev} (with uncommitted changes)` : rev;
}

// The report covers the latest campaign of every target (build/fuzz/campaign/*/state.json), so targets run
// by separate commands share one report; each row names its command and seed.
function writeReport(current) {
  const byTarget = new Map();
  for (const t of existsSync(CAMPAIGN) ? readdirSync(CAMPAIGN) : []) {
    const file = path.join(CAMPAIGN, t, 'state.json');
    if (existsSync(file)) byTarget.set(t, JSON.parse(readFileSync(file, 'utf8')));
  }
  for (const st of current) byTarget.set(st.target, st);
  const order = (t) => (CAMPAIGN_TARGETS.includes(t) ? CAMPAIGN_TARGETS.indexOf(t) : 99);
  const states = [...byTarget.values()].sort((a, b) => order(a.target) - order(b.target) || a.target.localeCompare(b.target));
  const n = (x) => x.toLocaleString('en-US');
  const cpus = os.cpus();
  const lines = [
    '# Fuzzing report',
    '',
    'Written by `npm run fuzz` (scripts/fuzz.mjs, README "Reliability"); rewritten after every segment of a run.',
    '',
    `- last written ${new Date().toISOString()}; git revision ${gitRevision()}`,
    `- machine: ${cpus.length} cores (${cpus[0]?.model?.trim() ?? '?'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}; load average when written ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    `- segments: target segment k runs with seed + k and ends at ${n(SEGMENT_RUNS)} inputs (link: ${n(LINK_SEGMENT_RUNS)}) or at a failure`,
    '',
    ...states.map((st) => `- ${st.target}: \`${st.command ?? '?'}\`, seed ${st.seed}, started ${st.started} at revision ${st.revision ?? '?'}` +
      (st.binary ? `; ${st.target === 'link' ? 'web/dist/lib/index.mjs' : `build/fuzz/fuzz/${st.target}`} sha256 ${st.binary.slice(0, 16)}` : '')),
    '',
    'Inputs count every execution, the corpus replayed at the start of each segment included. Kinds: crash',
    '(sanitizer report or signal), hang (one input over 10 s), oom (over 2 GiB), NaN (a broken invariant that',
    'names a non-finite value), wrong (any other broken invariant). "known" counts the failures that match',
    'tests/fuzz/known/known.json. Corpus: files in tests/fuzz/corpus/<target> before → after the merge.',
    '',
    '| target | inputs | of | time | exec/s | corpus | crash | hang | oom | NaN | wrong | known | status |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const st of states) {
    const count = (k) => st.failures.filter((f) => f.kind === k).length;
    const rate = st.seconds > 0 ? Math.round(st.execs / st.seconds) : 0;
    const done = st.runsWanted && st.execs >= st.runsWanted;
    const status = st.broken ? 'did not start' : done ? (st.merged ? 'complete' : 'complete, not merged yet')
      : st.failures.length >= MAX_FAILURES ? `stopped after ${MAX_FAILURES} failures`
        : st.secondsWanted && st.seconds >= st.secondsWanted ? 'time limit reached' : st.running && alive(st.pid) ? 'running' : 'stopped (resume with --resume)';
    const corpus = st.target === 'link' ? '—' : `${st.corpusBefore.files} → ${st.corpusAfter ? st.corpusAfter.files : '?'}`;
    const mins = st.seconds >= 120 ? `${(st.seconds / 60).toFixed(1)} min` : `${Math.round(st.seconds)} s`;
    lines.push(`| ${st.target} | ${n(st.execs)} | ${st.runsWanted ? n(st.runsWanted) : '—'} | ${mins} | ${n(rate)} | ${corpus} | ${KINDS.map(count).join(' | ')} | ${st.failures.filter((f) => f.known).length} | ${status}${st.mergeError ? `; ${st.mergeError}` : ''} |`);
  }
  const withFailures = states.filter((st) => st.failures.length);
  if (withFailures.length) {
    lines.push('', '## Failures', '', 'Grouped by target, kind and the first line (numbers in it differ between inputs of one group only when', 'the line itself differs: each distinct line is its own group). Input: the first one found, base64.');
    for (const st of withFailures) {
      const groups = new Map();
      for (const f of st.failures) {
        const key = `${f.kind}\u0000${f.what}`;
        if (!groups.has(key)) groups.set(key, { first: f, count: 0 });
        groups.get(key).count++;
      }
      lines.push('', `### ${st.target}`, '');
      for (const { first, count } of groups.values()) {
        lines.push(`- **${first.kind}**${first.known ? ' (known)' : ''}, ${count}×: \`${first.what.replace(/`/g, "'").slice(0, 400)}\``);
        lines.push(`  - seed ${first.seed}${first.file ? `, file ${first.file}` : ''}`);
        if (first.base64) lines.push(`  - input: \`${first.base64}\``);
        for (const d of first.details ?? []) lines.push(`  - ${String(d).replace(/`/g, "'").slice(0, 600)}`);
      }
    }
  }
  writeFileSync(REPORT, `${lines.join('\n')}\n`);
}

/**
 * A campaign: each target for `runs` inputs and/or `seconds` (both per target), `jobs` at a time; goes on
 * past failures, saves its state after every segment (resume: carry on from it), merges new coverage into
 * tests/fuzz/corpus and writes tests/fuzz/REPORT.md. Returns the targets' states.
 */
export async function runCampaign({ runs, seconds, targets = CAMPAIGN_TARGETS, jobs = 2, seed = 1, resume = false, log = console.log }) {
  const unknown = targets.filter((t) => !LIBFUZZER_TARGETS.includes(t) && t !== 'link');
  if (unknown.length) throw new Error(`unknown fuzz target(s): ${unknown.join(', ')} (a campaign runs: ${[...LIBFUZZER_TARGETS, 'link'].join(', ')})`);
  if (!runs && !seconds) throw new Error('a campaign needs --runs N or --minutes M');
  const native = targets.filter((t) => t !== 'link');
  if (native.length) {
    const err = configureAndBuild(native, log);
    if (err) throw new Error(err);
  }
  if (targets.includes('link') && !existsSync(LIB)) throw new Error(`${path.relative(ROOT, LIB)} is missing: run node scripts/build.mjs first`);
  mkdirSync(CAMPAIGN, { recursive: true });
  const known = knownEntries();
  const meta = { command: `node scripts/fuzz.mjs ${process.argv.slice(2).join(' ')}`.trim(), revision: gitRevision() };
  const states = targets.map((t) => loadState(t, { runs, seconds, seed, resume }, meta));
  const save = (st) => {
    saveState(st);
    writeReport(states);
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, states.length) }, async () => {
      while (next < states.length) {
        const st = states[next++];
        st.running = true;
        st.pid = process.pid;
        log(`fuzz ${st.target}: ${st.execs ? `resuming at ${st.execs} inputs` : 'starting'}`);
        while (wantsMore(st) && !st.broken) {
          await (st.target === 'link' ? linkSegment(st) : libFuzzerSegment(st, known));
          const last = st.failures.at(-1);
          log(`fuzz ${st.target}: ${st.execs} inputs, ${Math.round(st.seconds)} s, ${st.failures.length} failures${last ? ` (last: ${last.kind}${last.known ? ', known' : ''}: ${last.what.slice(0, 160)})` : ''}`);
          save(st);
        }
        mergeCorpus(st);
        st.running = false;
        save(st);
        log(`fuzz ${st.target}: done, ${st.execs} inputs; corpus ${st.corpusBefore.files} → ${st.corpusAfter?.files ?? st.corpusBefore.files} files`);
      }
    }),
  );
  writeReport(states);
  log(`fuzz: report written to ${path.relative(ROOT, REPORT)}`);
  return states;
}

// Seeds of fuzz_scene from the gallery and the test vectors (compact JSON: short inputs mutate better).
function seedCorpus() {
  const dir = path.join(FUZZ_DIR, 'corpus', 'fuzz_scene');
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith('.json')) rmSync(path.join(dir, f));
  let n = 0;
  for (const { name, scene } of loadScenes()) {
    const file = `${name.replace(/^shared\//, '').replace(/\//g, '-')}`;
    writeFileSync(path.join(dir, file), JSON.stringify(scene));
    n++;
  }
  console.log(`fuzz: wrote ${n} seeds to ${path.relative(ROOT, dir)}`);
}

function parseArgs(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--seconds') o.seconds = Number(value());
    else if (a === '--runs') o.runs = Number(value());
    else if (a === '--target' || a === '--targets') o.targets = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (a === '--jobs') o.jobs = Number(value());
    else if (a === '--seed') o.seed = Number(value());
    else if (a === '--replay') o.replay = Number(value());
    else if (a === '--scratch') o.scratch = value();
    else if (a === '--minutes') o.minutes = Number(value());
    else if (a === '--resume') o.resume = true;
    else if (a === '--keep-going') o.keepGoing = true;
    else if (a === '--link-worker') o.linkWorker = true;
    else if (a === '--seed-corpus') o.seedCorpus = true;
    else if (a === '--same-build') o.sameBuild = true;
    else if (a === '--build-only') o.buildOnly = true;
    else if (a === '--help' || a === '-h') o.help = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (o.seconds !== undefined && !(o.seconds > 0)) throw new Error('--seconds must be a positive number');
  if (o.runs !== undefined && !(Number.isInteger(o.runs) && o.runs > 0)) throw new Error('--runs must be a positive whole number');
  if (o.minutes !== undefined && !(o.minutes > 0)) throw new Error('--minutes must be a positive number');
  if (o.jobs !== undefined && !(Number.isInteger(o.jobs) && o.jobs > 0)) throw new Error('--jobs must be a positive whole number');
  if (o.seed !== undefined && !Number.isInteger(o.seed)) throw new Error('--seed must be a whole number');
  return o;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`fuzz: ${e.message}`);
    process.exit(2);
  }
  if (opts.help) {
    const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
    console.log(lines.slice(1, lines.findIndex((l) => l.startsWith('import'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  } else if (opts.linkWorker) {
    await linkWorker({ seconds: opts.seconds ?? DEFAULT_SECONDS, seed: opts.seed ?? 1, scratch: opts.scratch ?? os.tmpdir(), runs: opts.runs, keepGoing: opts.keepGoing });
  } else if (opts.replay !== undefined) {
    await linkWorker({ seed: opts.seed ?? 1, replay: opts.replay });
  } else if (opts.seedCorpus) {
    seedCorpus();
  } else if (opts.buildOnly) {
    process.exit(buildFuzzTargets(opts.targets) ? 0 : 1);
  } else if (opts.sameBuild) {
    process.exit(sameBuild(opts.targets) ? 0 : 1);
  } else if (opts.runs !== undefined || opts.minutes !== undefined || opts.resume) {
    try {
      const states = await runCampaign({ runs: opts.runs, seconds: opts.minutes && opts.minutes * 60, targets: opts.targets,
        jobs: opts.jobs ?? 2, seed: opts.seed ?? 1, resume: opts.resume });
      process.exitCode = states.some((st) => st.broken || st.failures.some((f) => !f.known)) ? 1 : 0;
    } catch (e) {
      console.error(`fuzz: ${e.message}`);
      process.exitCode = 2;
    }
  } else {
    const { failed } = await runFuzz({ seconds: opts.seconds, targets: opts.targets, jobs: opts.jobs, seed: opts.seed });
    process.exitCode = failed > 0 ? 1 : 0;
  }
}
