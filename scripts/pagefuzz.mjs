#!/usr/bin/env node
// The page fuzzer: the visualizer (web/dist/viz) under hostile links and hostile scene JSON, in headless Chromium.
//
//   node scripts/pagefuzz.mjs [--count N] [--seed S] [--replay K]      (npm run pagefuzz -- --count 5000 --seed 7)
//
// The page is opened once; then each input is either a link put in the address bar (location.hash: the page's
// hashchange handler opens it) or JSON pasted into the side panel's "Scene JSON" box and loaded (the paste and
// import path). Inputs: gallery links with characters changed, inserted, cut and spliced into each other; gallery
// scenes with values replaced (NaN, ±1e999, wrong types, unknown and prototype keys, 100 000-deep nesting) and
// their text edited; random base64url; and, one in GIANT_EVERY, a giant scene (a cloud of 10⁶ points, a mesh of
// 10⁵ triangles, a 10⁶-element array) pasted. Per input:
//   - no `pageerror`, no console error, no crash, no reload (a token set on the page survives);
//   - the page handles the input, then answers a trivial evaluate, within TIMEOUT_MS (GIANT_TIMEOUT_MS for a
//     giant; a frozen tab fails); pasted text is copied into the page first and untimed (up to HANDOVER_MS): a
//     user's paste does not cross the DevTools protocol;
//   - the outcome is what the library's own API says in Node (web/dist/lib/meshes, the flavour the page runs):
//     decodeLink (for a link) or JSON.parse (for pasted text), then validateScene and trace(). Where that
//     succeeds the page shows the scene, without a banner; where it throws, the banner (for a link, or for
//     pasted JSON the library refuses) or the panel's status line (pasted text that is not JSON) is visible and
//     contains the library's message, is under 1 000 characters and holds no control or bidi characters;
//   - no message is an internal error leaking out (a wasm abort, a stack overflow, "undefined is not ...").
// `runPageFuzz({ count, seed })` returns { inputs, failures: [{ index, kind, input, problem }], seconds, slowest };
// tests/e2e/pagefuzz.test.ts runs a short version in `npm test`. Reproduce input K of seed S (the same generator
// gives the same inputs): node scripts/pagefuzz.mjs --seed S --replay K.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mulberry32 } from './fuzz.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LIB = path.join(ROOT, 'web', 'dist', 'lib', 'meshes', 'index.mjs');
/** How long the page may take to handle one ordinary input, and to answer a trivial expression after it. */
export const TIMEOUT_MS = 5_000;
/** A giant input (10⁶ points, 10⁵ triangles) may take longer to read and refuse, but not forever. */
const GIANT_TIMEOUT_MS = 30_000;
/**
 * How long Playwright may take to copy a pasted text into the page before it is pasted: a 59 MB cloud crosses the
 * DevTools protocol in 5–15 s on a busy machine, time no user's paste spends, so it is kept out of the page's.
 */
const HANDOVER_MS = 120_000;
/** One input in this many is a giant pasted scene. */
const GIANT_EVERY = 500;
const MAX_MESSAGE = 1000;
/** The longest scene text the page reads (MAX_SCENE_TEXT in web/viz/edit-math.ts); longer is refused unread. */
const MAX_SCENE_TEXT = 5_000_000;
// eslint-disable-next-line no-control-regex
const ACTING = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
// What an internal error looks like when it leaks into a message: a wasm trap or abort, an engine error.
const INTERNAL = /RuntimeError|Aborted\(|unreachable|memory access out of bounds|Maximum call stack|is not a function|Cannot read propert|is not defined|undefined is not|\[object Object\]|InternalError|out of bounds|std::|bad_alloc/;

/** The gallery's scenes (shared/scenes), the links the page's example list opens. */
function galleryScenes() {
  const dir = path.join(ROOT, 'shared', 'scenes');
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const NOISE = [...`${B64URL}=+/%#?& \t\n\u0000é€\u{1F600}\uD800"\\[]{}:,`];

/**
 * The input generator: a function of the PRNG only, so (seed, index) reproduces an input.
 * Each input is { kind: 'hash' | 'paste', text, giant? }.
 */
export function makeInputs(seed, encodeLink) {
  const rng = mulberry32(seed);
  const pick = (xs) => xs[Math.floor(rng() * xs.length)];
  const int = (lo, hi) => lo + Math.floor(rng() * (hi - lo + 1));
  const scenes = galleryScenes();
  const links = scenes.map((s) => encodeLink(s).slice(encodeLink(s).indexOf('#')));
  const hashOf = (text) => `#v1=${Buffer.from(text, 'utf8').toString('base64url')}`;
  const specials = [
    0, -0, 1, -1, 0.5, 1e308, -1e308, 5e-324, 2 ** 53, 1e15, 'NaN', 'Infinity', '-Infinity', '1', '', null, true,
    false, [], {}, [1, 2], [0, 0, 0], [0, 0, 0, 0], [NaN, 0, 0], 'point', 'box', 'mesh', 'polytope', 'hull',
    'distance', 'simulate', '__proto__', 'constructor', '<img src=x onerror=alert(1)>', '\u202eevil', '\u001b[2J',
  ];
  // Values that JSON.stringify cannot write: placed as tokens, then substituted into the text.
  const RAW = ['NaN', '-NaN', 'Infinity', '-Infinity', '1e999', '-1e999', '1e-999', '0x10', '01', '.5', 'undefined', '+1'];
  const nest = (v, depth, obj) => {
    let out = v;
    for (let i = 0; i < depth; i++) out = obj ? { a: out } : [out];
    return out;
  };
  const paths = (v, prefix = [], acc = []) => {
    acc.push(prefix);
    if (v && typeof v === 'object' && prefix.length < 6) for (const k of Object.keys(v)) paths(v[k], [...prefix, k], acc);
    return acc;
  };
  const parentOf = (root, p) => {
    let o = root;
    for (let i = 0; i < p.length - 1; i++) o = o[p[i]];
    return o;
  };
  let rawTokens = [];
  const value = () => {
    const r = rng();
    if (r < 0.45) return structuredClone(pick(specials));
    if (r < 0.6) {
      const token = `@@raw${rawTokens.length}@@`;
      rawTokens.push(pick(RAW));
      return token;
    }
    if (r < 0.68) return nest(structuredClone(pick(specials)), int(60, 70), rng() < 0.5);
    if (r < 0.76) return Array.from({ length: int(0, 3000) }, () => (rng() < 0.5 ? [rng(), rng(), rng()] : rng() * 1e6));
    if (r < 0.84) return 'x'.repeat(int(60, 50_000));
    return (rng() - 0.5) * 10 ** int(-320, 308);
  };
  // A gallery scene with one to four values replaced, keys deleted or unknown keys added; then maybe its text edited.
  const sceneText = () => {
    rawTokens = [];
    let root = structuredClone(pick(scenes));
    for (let k = int(1, 4); k > 0; k--) {
      const p = pick(paths(root));
      const r = rng();
      if (p.length === 0) root = r < 0.2 ? value() : root;
      else if (r < 0.6) parentOf(root, p)[p[p.length - 1]] = value();
      else if (r < 0.75) {
        const o = parentOf(root, p);
        if (Array.isArray(o)) o.splice(Number(p[p.length - 1]), 1);
        else delete o[p[p.length - 1]];
      } else {
        const o = p.reduce((x, key) => x?.[key], root);
        if (o && typeof o === 'object' && !Array.isArray(o)) o[pick(['colour', 'Version', 'x'.repeat(int(1, 3000)), 'é€', '__proto__', 'constructor', 'toString'])] = value();
      }
    }
    let text = JSON.stringify(root) ?? 'null';
    text = text.replace(/"@@raw(\d+)@@"/g, (_, i) => rawTokens[Number(i)]);
    const r = rng();
    if (r < 0.1) text = text.replace('{', pick(['{"version":2,', '{"version":1,', '{"query":"hull",', '{"__proto__":{"polluted":1},']));
    else if (r < 0.25) {
      const at = int(0, text.length);
      text = text.slice(0, at) + pick(['"', ',', ']', '}', '\\', '\u0000', 'NaN', '1e999', '-', ' ', '//', '\uD800']) + text.slice(at);
    } else if (r < 0.35) text = text.slice(0, int(0, text.length));
    return text;
  };
  const deep = () => {
    const d = rng() < 0.1 ? 100_000 : pick([63, 64, 65, 1000, 5000]);
    const obj = rng() < 0.5;
    return obj ? `${'{"a":'.repeat(d)}1${'}'.repeat(d)}` : `${'['.repeat(d)}${']'.repeat(d)}`;
  };
  // A gallery link with characters changed, inserted or removed; cut short; or spliced with another one.
  const mutatedLink = () => {
    let s = pick(links);
    for (let k = int(1, 4); k > 0; k--) {
      const at = int(0, s.length);
      const r = rng();
      if (r < 0.3) s = s.slice(0, at) + pick(NOISE) + s.slice(at + 1);
      else if (r < 0.45) s = s.slice(0, at) + pick(NOISE) + s.slice(at);
      else if (r < 0.6) s = s.slice(0, at) + s.slice(at + 1);
      else if (r < 0.7) s = s.slice(0, at);
      else if (r < 0.85) {
        const other = pick(links);
        s = s.slice(0, at) + other.slice(int(0, other.length));
      } else s = s.replace('#v1=', pick(['#v1=', '#v2=', '#v1==', '#v1=#v1=', '#V1=', '#x=', '#', '##v1=', '#v1=%20']));
    }
    return s;
  };
  const randomLink = () => {
    const n = int(0, rng() < 0.9 ? 300 : 20_000);
    let s = '';
    for (let i = 0; i < n; i++) s += rng() < 0.8 ? pick(NOISE) : String.fromCharCode(int(1, 0xffff));
    return pick(['#v1=', '#v1=', '#', '#v1']) + s;
  };
  const randomBytes = () => `#v1=${Buffer.from(Uint8Array.from({ length: int(0, 400) }, () => int(0, 255))).toString('base64url')}`;
  // Giant scenes, pasted (a link the page would never make): they must be refused or shown, and quickly.
  const giant = () => {
    const r = rng();
    const coords = (n, scale) => Array.from({ length: n }, () => [(rng() - 0.5) * scale, (rng() - 0.5) * scale, (rng() - 0.5) * scale]);
    if (r < 0.35) {
      return JSON.stringify({ version: 1, query: pick(['hull', 'obb', 'distance']), shapes: [{ type: 'polytope', points: coords(1_000_000, 10) }, { type: 'sphere', radius: 1, position: [20, 0, 0] }] });
    }
    if (r < 0.7) {
      // A mesh of 10⁵ triangles over 3·10⁴ vertices (a surface, not closed), or indices past the end.
      const nv = 30_000;
      const vertices = coords(nv, 10);
      const bad = rng() < 0.3;
      const triangles = Array.from({ length: 100_000 }, (_, i) => [i % nv, (i * 7 + 1) % nv, bad && i === 99_999 ? nv : (i * 13 + 2) % nv]);
      return JSON.stringify({ version: 1, query: pick(['distance', 'raycast', 'obbtree', 'intersect']), shapes: [{ type: 'mesh', vertices, triangles }, { type: 'box', halfExtents: [1, 1, 1], position: [0, 30, 0] }], ...(rng() < 0.5 ? { ray: { origin: [0, 30, 0], direction: [0, -1, 0] } } : {}) });
    }
    if (r < 0.85) return `[${new Array(1_000_000).fill('0.5').join(',')}]`;
    return JSON.stringify({ version: 1, query: 'simulate', shapes: Array.from({ length: 20_000 }, (_, i) => ({ type: 'sphere', radius: 0.5, position: [i, 0, 0] })) });
  };

  let index = 0;
  return () => {
    index++;
    if (index % GIANT_EVERY === 0) return { kind: 'paste', text: giant(), giant: true };
    const r = rng();
    if (r < 0.25) return { kind: 'hash', text: mutatedLink() };
    if (r < 0.45) return { kind: 'hash', text: hashOf(sceneText()) };
    if (r < 0.5) return { kind: 'hash', text: randomLink() };
    if (r < 0.55) return { kind: 'hash', text: randomBytes() };
    if (r < 0.6) return { kind: 'hash', text: hashOf(deep()) };
    if (r < 0.63) return { kind: 'hash', text: pick(links) };
    if (r < 0.9) return { kind: 'paste', text: sceneText() };
    if (r < 0.95) return { kind: 'paste', text: deep() };
    return { kind: 'paste', text: pick([JSON.stringify(pick(scenes), null, 2), '', '   ', 'null', '42', '"scene"', '[]', '{}', 'NaN', '{"version":1}', '\uFEFF{}']) };
  };
}

export function describe(input) {
  const t = input.text;
  const shown = t.length > 300 ? `${JSON.stringify(t.slice(0, 300))}… (${t.length} characters)` : JSON.stringify(t);
  return `${input.kind} ${shown}`;
}

/** What the library's own API says of an input: { ok: true } or { ok: false, message }. */
function oracle(lib, input, hashAsRead) {
  let candidate;
  if (input.kind === 'hash') {
    if (hashAsRead === '' || hashAsRead === '#') return { ok: true, traced: true };
    try {
      candidate = lib.decodeLink(hashAsRead);
    } catch (e) {
      return { ok: false, message: e.message, code: e.code };
    }
  } else {
    if (input.text.length > MAX_SCENE_TEXT) return { ok: false, message: 'characters long, and the page reads scenes of up to', json: true };
    if (input.text.trim() === '') return { ok: false, message: 'there is no JSON to read', json: true };
    try {
      candidate = JSON.parse(input.text);
    } catch {
      return { ok: false, message: 'not valid JSON', json: true };
    }
  }
  try {
    lib.validateScene(candidate);
  } catch (e) {
    return { ok: false, message: e.message, code: e.code };
  }
  // A valid scene: the page shows it if it can trace it. Some views trace another query (obb's hull, contact's
  // closed forms) or refuse what they cannot draw, so a trace refused here leaves either outcome open.
  try {
    lib.trace(candidate);
  } catch (e) {
    return { ok: true, traced: false, message: e.message };
  }
  return { ok: true, traced: true };
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`frozen: ${what} did not return within ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(timer));
}

// In the page: put the input in (pasted text was handed over before, as window.__pagefuzzText), let the page handle
// it, and read what it shows.
async function applyInPage({ kind, text }) {
  const app = window.__collidoscope;
  document.getElementById('banner-close')?.click(); // a fresh banner per input
  const status = document.getElementById('scene-json-status');
  let same = false;
  if (kind === 'hash') {
    const before = location.hash;
    const changed = new Promise((r) => window.addEventListener('hashchange', r, { once: true }));
    location.hash = text;
    // The page's listener was added first: when ours runs, the page has handled the link.
    same = location.hash === before;
    if (!same) await changed;
  } else {
    status.textContent = '';
    document.getElementById('scene-json').value = window.__pagefuzzText;
    window.__pagefuzzText = null;
    document.getElementById('scene-json-load').click();
  }
  const banner = document.getElementById('banner');
  const hash = location.hash;
  return {
    token: window.__pagefuzzToken ?? null,
    same,
    error: app.error,
    bannerVisible: !banner.hidden && banner.getClientRects().length > 0,
    bannerText: document.getElementById('banner-text').textContent,
    status: status.textContent,
    statusError: status.classList.contains('error'),
    hash: hash.length <= 200_000 ? hash : null,
    query: app.scene?.query ?? null,
  };
}

/** The checks of one input's outcome against the library's answer; the problems found. */
function judge(input, seen, expected) {
  const problems = [];
  const message = seen.bannerVisible ? seen.bannerText : '';
  const checkText = (t, where) => {
    if (!t) problems.push(`${where} is empty`);
    if (t.length > MAX_MESSAGE) problems.push(`${where} is ${t.length} characters long`);
    if (ACTING.test(t)) problems.push(`${where} holds a control or bidi character: ${JSON.stringify(t.slice(0, 200))}`);
    if (INTERNAL.test(t)) problems.push(`${where} is an internal error: ${JSON.stringify(t.slice(0, 300))}`);
  };
  if (expected === null) {
    // The address bar kept the page's own hash (the input equalled it): nothing to open.
    return problems;
  }
  if (expected.ok && !expected.traced) {
    if (seen.bannerVisible) checkText(seen.bannerText, 'the banner');
    else if (seen.error !== null) problems.push(`app.error is set but no banner is visible: ${JSON.stringify(seen.error.slice(0, 300))}`);
    return problems;
  }
  if (expected.ok) {
    if (seen.error !== null || seen.bannerVisible) problems.push(`the library accepts and traces this scene, but the page says: ${JSON.stringify((seen.error ?? seen.bannerText).slice(0, 300))}`);
    if (input.kind === 'paste' && !/scene loaded\.$/.test(seen.status)) problems.push(`the status line says ${JSON.stringify(seen.status.slice(0, 300))}, not that the scene loaded`);
    return problems;
  }
  if (input.kind === 'paste' && expected.json) {
    // Not JSON: the panel's status line says so, and where.
    if (!seen.statusError) problems.push(`pasted text that is not JSON, but the status line is not an error: ${JSON.stringify(seen.status.slice(0, 300))}`);
    if (!seen.status.includes(expected.message === 'not valid JSON' ? 'not valid JSON' : expected.message)) problems.push(`the status line does not say ${JSON.stringify(expected.message)}: ${JSON.stringify(seen.status.slice(0, 300))}`);
    checkText(seen.status, 'the status line');
    return problems;
  }
  if (!seen.bannerVisible) {
    problems.push(`the library refuses this (${JSON.stringify(expected.message.slice(0, 300))}) but no banner is visible${seen.error ? ` (app.error: ${JSON.stringify(seen.error.slice(0, 200))})` : ''}`);
    return problems;
  }
  if (seen.error !== seen.bannerText) problems.push('the banner text and app.error differ');
  checkText(message, 'the banner');
  // A link the browser cannot decode or parse: the reason in parentheses is the engine's own wording (Node's
  // TextDecoder and JSON.parse say it differently from Chromium's), so only the library's part is compared.
  const own = expected.code === 'bad-link' ? expected.message.replace(/ \(.*$/s, '') : expected.message;
  // Nesting past what the JSON writer recurses through is named by the JS side where the stack is small (Node)
  // and by the C++ reader where it is larger (Chromium): either way the message says so.
  const nested = /nested too deeply/.test(own) && /nested too deeply/.test(message);
  if (!nested && !message.includes(own)) problems.push(`the banner does not give the library's message ${JSON.stringify(expected.message.slice(0, 300))}: ${JSON.stringify(message.slice(0, 400))}`);
  if (input.kind === 'hash' && !/Showing the default scene instead\.$/.test(message)) problems.push(`the banner does not say the default scene is shown: ${JSON.stringify(message.slice(-200))}`);
  if (input.kind === 'paste' && !seen.statusError) problems.push(`the status line is not an error: ${JSON.stringify(seen.status.slice(0, 200))}`);
  return problems;
}

/**
 * Runs `count` inputs from `seed` through one page. `url`/`browser` may be given (the browser tests' harness);
 * otherwise a server and Chromium are started here and closed at the end.
 */
export async function runPageFuzz({ count = 300, seed = 1, url, browser, log = () => {} } = {}) {
  if (!existsSync(LIB)) throw new Error(`${path.relative(ROOT, LIB)} is missing: build first (node scripts/build.mjs)`);
  const lib = await import(pathToFileURL(LIB).href);
  await lib.init();
  const own = [];
  if (!url) {
    const { startServer, DEFAULT_ROOT } = await import('./serve.mjs');
    if (!existsSync(path.join(DEFAULT_ROOT, 'index.html'))) throw new Error(`${DEFAULT_ROOT}/index.html is missing: build first`);
    const server = await startServer({ root: DEFAULT_ROOT, port: 0 });
    url = server.url;
    own.push(() => server.close());
  }
  if (!browser) {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
      timeout: 60_000,
    });
    const b = browser;
    own.unshift(() => b.close());
  }
  const t0 = Date.now();
  const failures = [];
  let page = null;
  let events = [];
  let opens = 0;
  const open = async () => {
    if (page) await page.close().catch(() => {});
    opens++;
    page = await browser.newPage({ viewport: { width: 800, height: 500 } });
    events = [];
    page.on('pageerror', (e) => events.push(`uncaught exception: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) events.push(`console error: ${m.text().slice(0, 500)}`);
    });
    page.on('crash', () => events.push('the page crashed'));
    await page.goto(url);
    await page.waitForFunction(() => window.__collidoscope?.ready === true, null, { timeout: 30_000 });
    await page.evaluate(() => { window.__pagefuzzToken = 'pagefuzz'; });
    events = [];
  };
  const next = makeInputs(seed, lib.encodeLink);
  let slowest = { ms: 0, index: 0 };
  const spent = {};
  try {
    await open();
    for (let index = 1; index <= count; index++) {
      const input = next();
      const limit = input.giant ? GIANT_TIMEOUT_MS : TIMEOUT_MS;
      let start = Date.now();
      const problems = [];
      let seen = null;
      try {
        if (input.kind === 'paste') {
          await withTimeout(page.evaluate((t) => { window.__pagefuzzText = t; }, input.text), HANDOVER_MS, 'handing the text over to the page');
          start = Date.now();
        }
        seen = await withTimeout(page.evaluate(applyInPage, { kind: input.kind, text: input.kind === 'paste' ? null : input.text }), limit, 'the page, handling the input,');
        await withTimeout(page.evaluate(() => 1 + 1), TIMEOUT_MS, 'a trivial evaluate after the input');
      } catch (e) {
        problems.push(e.message.split('\n')[0]);
      }
      const ms = Date.now() - start;
      if (ms > slowest.ms) slowest = { ms, index };
      spent[input.kind] = (spent[input.kind] ?? 0) + ms;
      problems.push(...events);
      if (seen) {
        if (seen.token !== 'pagefuzz') problems.push('the page reloaded (its token is gone)');
        // The hash as the page read it (the browser escapes some characters); a hash equal to the one before opens nothing.
        const expected = seen.same ? null : oracle(lib, input, seen.hash ?? input.text);
        problems.push(...judge(input, seen, expected));
      }
      if (problems.length) {
        failures.push({ index, kind: input.kind, input: describe(input), problem: problems.join('; ') });
        log(`pagefuzz: input ${index} FAILED: ${problems.join('; ').slice(0, 600)}\n  ${describe(input).slice(0, 400)}`);
        // A fresh page for the next input: this one may be frozen, crashed or in a broken state.
        await open();
      }
      if (index % 250 === 0) log(`pagefuzz: ${index}/${count} inputs, ${failures.length} failed, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
  } finally {
    await page?.close().catch(() => {});
    for (const close of own) await close();
  }
  return { inputs: count, failures, seconds: (Date.now() - t0) / 1000, slowest, pages: opens, spent };
}

function parseArgs(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return Number(argv[++i]);
    };
    if (a === '--count') o.count = v();
    else if (a === '--seed') o.seed = v();
    else if (a === '--replay') o.replay = v();
    else throw new Error(`unknown argument ${a} (use --count N, --seed S, --replay K)`);
  }
  for (const k of ['count', 'seed', 'replay']) {
    if (o[k] !== undefined && !(Number.isInteger(o[k]) && o[k] >= (k === 'seed' ? 0 : 1))) throw new Error(`--${k} must be a whole number${k === 'seed' ? '' : ' ≥ 1'}`);
  }
  return o;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`pagefuzz: ${e.message}`);
    process.exit(2);
  }
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  if (opts.replay) {
    const lib = await import(pathToFileURL(LIB).href);
    await lib.init();
    const next = makeInputs(seed, lib.encodeLink);
    let input;
    for (let i = 0; i < opts.replay; i++) input = next();
    console.log(describe(input));
    console.log(`library: ${JSON.stringify(oracle(lib, input, input.kind === 'hash' ? input.text : ''))}`);
  } else {
    const count = opts.count ?? 1000;
    console.log(`pagefuzz: ${count} inputs, seed ${seed}`);
    const { inputs, failures, seconds, slowest, pages, spent } = await runPageFuzz({ count, seed, log: console.log });
    console.log(`pagefuzz: time per kind of input: ${Object.entries(spent).map(([k, ms]) => `${k} ${(ms / 1000).toFixed(0)} s`).join(', ')}`);
    console.log(`pagefuzz: ${inputs} inputs in ${seconds.toFixed(0)} s (slowest: input ${slowest.index}, ${slowest.ms} ms; ${pages} page load${pages === 1 ? '' : 's'}), ${failures.length} failed`);
    for (const f of failures.slice(0, 20)) console.log(`  #${f.index} ${f.problem.slice(0, 400)}\n    ${f.input.slice(0, 300)}`);
    if (failures.length) console.log(`reproduce: node scripts/pagefuzz.mjs --seed ${seed} --replay K`);
    process.exitCode = failures.length ? 1 : 0;
  }
}
