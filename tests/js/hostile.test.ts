// Hostile input to the JS API and the CLI: wrong types at every level of a scene, non-finite and
// extreme numbers, huge arrays and strings, deep nesting, cycles, proxies and throwing getters, prototype
// keys, emoji and lone surrogates, garbled and oversized permalinks; hostile files, streams and flags for
// the CLI.
//
// Every row must throw a CollidoscopeError with the row's code and field: never a RangeError or TypeError
// from JavaScript, never a wasm RuntimeError or abort. After every row the module must still answer a
// normal query bit for bit and hold exactly the wasm heap it held before (nothing leaked, nothing
// poisoned), and running the whole table a second time must not grow wasm memory (bounded).
//
// The ordinary bad values (NaN radius, unknown type, negative step, …) are in api.test.ts, objects.test.ts,
// link.test.ts and cli.test.ts; this file covers what they do not.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  batch, batchResult, boundingVolumes, box, capsule, CollidoscopeError, createShape, decodeLink, distance, ellipsoid,
  encodeLink, hull, init, intersect, minkowskiSurface, polytope, polytopeFromGeometry, raycast, run, sceneOf, shapecast,
  shapeSurface, sphere, stats, trace, validateScene,
  type ConvexShape, type PoseLike, type Scene, type Shape, type Vec3,
} from '../../web/lib/index';
import { root } from './vectors';

// ------------------------------------------------------------------ helpers

/** Runs f, which must throw a CollidoscopeError (anything else, or nothing, fails with what happened). */
function rejection(f: () => unknown): CollidoscopeError {
  let thrown: unknown;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  if (thrown instanceof CollidoscopeError) return thrown;
  const what = thrown === undefined ? 'nothing was thrown'
    : `${(thrown as Error)?.constructor?.name ?? typeof thrown}: ${String((thrown as Error)?.message ?? thrown)}`;
  throw new Error(`expected a CollidoscopeError, got ${what.slice(0, 300)}`);
}

/** A row: what to call, the code and field it must be refused with, and what the message must say. */
type Row = [name: string, call: () => unknown, code: string, field: string | null, pattern?: RegExp];

function expectRow([name, call, code, field, pattern]: Row): CollidoscopeError {
  const e = rejection(call);
  // The same call again: the same error, not a byte more of wasm heap (nothing leaks per call), and no
  // more wasm memory (what the first call grew is reused).
  const { heapBytes, memoryBytes } = stats();
  expect(rejection(call).message, name).toBe(e.message);
  expect(stats().heapBytes, `wasm heap after ${name} twice`).toBe(heapBytes);
  expect(stats().memoryBytes, `wasm memory after ${name} twice`).toBe(memoryBytes);
  expect(e.code, `${name}: ${e.message}`).toBe(code);
  expect(e.field, `${name}: ${e.message}`).toBe(field);
  // A clear message: says what is wrong (prefixed with the field), and stays readable whatever the input's size.
  expect(e.detail.length, name).toBeGreaterThan(5);
  expect(e.message.length, `${name}: ${e.message.slice(0, 200)}`).toBeLessThan(600);
  if (field !== null) expect(e.message.startsWith(`${field}: `), name).toBe(true);
  // Nothing that acts rather than shows: no terminal escapes or other controls, no bidi overrides.
  expect(e.message, name).not.toMatch(ACTING);
  if (pattern) expect(e.message, name).toMatch(pattern);
  return e;
}

const good: Scene = {
  version: 1, query: 'distance',
  shapes: [{ type: 'box', halfExtents: [1, 0.5, 0.25], rotation: [0, 0, 0.3, 0.95] }, { type: 'capsule', radius: 0.3, halfHeight: 0.6, position: [2.5, 0.2, 0.1] }],
};
/** The good scene with shape A's fields replaced (undefined deletes). */
function withA(fields: Record<string, unknown>): Scene {
  const a: Record<string, unknown> = { ...good.shapes[0], ...fields };
  for (const k of Object.keys(fields)) if (fields[k] === undefined) delete a[k];
  return { ...good, shapes: [a as unknown as Shape, good.shapes[1]] };
}
/** The good scene with top-level fields replaced (undefined deletes). */
function withScene(fields: Record<string, unknown>): Scene {
  const s: Record<string, unknown> = { ...good, ...fields };
  for (const k of Object.keys(fields)) if (fields[k] === undefined) delete s[k];
  return s as unknown as Scene;
}
const rayScene = (ray: unknown): Scene => ({ version: 1, query: 'raycast', shapes: [{ type: 'sphere', radius: 1 }], ray } as unknown as Scene);
const castScene = (motion: unknown): Scene => ({ ...good, query: 'shapecast', motion } as unknown as Scene);
const link = (text: string) => `https://example.org/viz/#v1=${Buffer.from(text, 'utf8').toString('base64url')}`;
/** A getter that throws, at `key` of `target`. */
function throwingAt<T extends object>(target: T, key: string, message = 'boom'): T {
  return Object.defineProperty({ ...target }, key, { enumerable: true, get() { throw new Error(message); } }) as T;
}
/** An array nested `depth` deep, built as objects (not text): [[[…]]]. */
function deepArray(depth: number): unknown[] {
  let d: unknown[] = [];
  for (let i = 0; i < depth; i++) d = [d];
  return d;
}
const TEN_MB = 'x'.repeat(10_000_000);
const LONG = /…/; // input echoed in a message is clipped
// eslint-disable-next-line no-control-regex
const ACTING = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
const MANY_KEYS = `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;

let a: ConvexShape;
let b: ConvexShape;
let expectedScene: unknown;
let expectedPair: unknown;
let baselineHeap = 0;

/**
 * A normal query answers exactly as before; the wasm heap holds no more than it did before the table (but
 * for the last error's text, kept for lastError()).
 */
function expectStillWorking(after: string): void {
  expect(run(good), `run() after ${after}`).toEqual(expectedScene);
  expect(distance(a, { position: [0, 0, 0] }, b, [2.5, 0.2, 0.1, 0, 0, 0, 1]), `distance() after ${after}`).toEqual(expectedPair);
  expect(stats().heapBytes - baselineHeap, `wasm heap in use after ${after}`).toBeLessThanOrEqual(1024);
  // No "__proto__" or "constructor" key reached a prototype.
  expect(({} as Record<string, unknown>).polluted, after).toBeUndefined();
  expect(Object.keys(Object.prototype), after).toEqual([]);
}

beforeAll(async () => {
  await init();
  a = box([1, 0.5, 0.25]);
  b = capsule(0.3, 0.6);
  // Warm up every entry point once, so that one-time allocations (scratch, layouts, batch arena) are in the baseline.
  expectedScene = run(good);
  trace(good);
  validateScene(good);
  shapeSurface(good.shapes[0]);
  minkowskiSurface(good.shapes[0], good.shapes[1]);
  hull([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]);
  boundingVolumes([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]);
  batch('distance', [a, b], new Float64Array([0, 0, 0, 0, 0, 0, 1, 2.5, 0.2, 0.1, 0, 0, 0, 1]), [0, 1]);
  raycast(a, undefined, { origin: [-5, 0, 0], direction: [1, 0, 0], maxT: 10 });
  expectedPair = distance(a, { position: [0, 0, 0] }, b, [2.5, 0.2, 0.1, 0, 0, 0, 1]);
  baselineHeap = stats().heapBytes;
});

afterAll(() => {
  a.dispose();
  b.dispose();
});

// ------------------------------------------------------------------ scenes: run, trace, validateScene, permalinks

// [name, scene (or JSON text), field, pattern]: refused by run, trace and validateScene alike with
// 'invalid-scene' (or 'invalid-json' for text that is not JSON), and by decodeLink, as 'bad-link' with the
// same field, once encodeLink has made a link of it (encodeLink itself refuses what has no JSON form).
type SceneRow = [name: string, scene: () => unknown, field: string | null, pattern?: RegExp, code?: 'invalid-json'];

const cycle = (): Scene => {
  const s = withA({});
  (s.shapes[0] as unknown as Record<string, unknown>).self = s.shapes[0];
  return s;
};
const cyclicVector = (): Scene => {
  const v: unknown[] = [0, 0, 0];
  v[1] = v;
  return withA({ position: v });
};
const selfContaining = (): Scene => {
  const s = withScene({}) as unknown as Record<string, unknown>;
  s.shapes = [s, good.shapes[1]];
  return s as unknown as Scene;
};
const revokedProxy = () => {
  const r = Proxy.revocable({}, {});
  r.revoke();
  return r.proxy;
};

const sceneRows: SceneRow[] = [
  // The scene itself.
  ['an array', () => [good], null, /must be a JSON object, got an array/],
  ['a boolean', () => true, null, /got a boolean/],
  ['undefined', () => undefined, null, /expected an object, got undefined/],
  ['a function', () => () => good, null, /got a function/],
  ['a symbol', () => Symbol('scene'), null, /got a symbol/],
  ['a BigInt', () => 1n, null, /got a BigInt/],
  ['a Map', () => new Map([['version', 1]]), 'version', /is missing/],
  ['an empty object', () => ({}), 'version', /is missing/],
  ['a revoked Proxy', revokedProxy, null, /cannot be read/],
  ['a Proxy whose ownKeys throws', () => new Proxy(good, { ownKeys() { throw new Error('no keys'); } }), null, /cannot be read: no keys/],
  // version
  ['version missing', () => withScene({ version: undefined }), 'version', /is missing/],
  ['version as a string', () => withScene({ version: '1' }), 'version', /must be 1/],
  ['version null', () => withScene({ version: null }), 'version', /must be 1/],
  ['version NaN', () => withScene({ version: NaN }), 'version', /must be 1/],
  ['version 1 + 2^-52', () => withScene({ version: 1 + Number.EPSILON }), 'version', /must be 1/],
  ['version [1]', () => withScene({ version: [1] }), 'version', /must be 1/],
  ['version a BigInt', () => withScene({ version: 1n }), 'version', /got a BigInt/],
  // query
  ['query a number', () => withScene({ query: 42 }), 'query', /must be a string, got a number/],
  ['query an array', () => withScene({ query: ['distance'] }), 'query', /must be a string, got an array/],
  ['query null', () => withScene({ query: null }), 'query', /got null/],
  ['query a function', () => withScene({ query: () => 'distance' }), 'query', /got a function/],
  ['query a getter that throws', () => throwingAt(good, 'query'), 'query', /cannot be read: boom/],
  ['query in capitals', () => withScene({ query: 'DISTANCE' }), 'query', /unknown query "DISTANCE"/],
  ['query an emoji', () => withScene({ query: '💥' }), 'query', /unknown query "💥"/],
  ['query with a lone surrogate', () => withScene({ query: '\uD800distance' }), 'query', /unknown query "\uFFFDdistance"/],
  ['query "__proto__"', () => withScene({ query: '__proto__' }), 'query', /unknown query/],
  // shapes
  ['shapes an object', () => withScene({ shapes: { 0: good.shapes[0], 1: good.shapes[1] } }), 'shapes', /must be an array of shapes, got an object/],
  ['shapes array-like', () => withScene({ shapes: { 0: good.shapes[0], 1: good.shapes[1], length: 2 } }), 'shapes', /got an object/],
  ['shapes null', () => withScene({ shapes: null }), 'shapes', /got null/],
  ['shapes a string', () => withScene({ shapes: 'box, capsule' }), 'shapes', /got a string/],
  ['no shapes', () => withScene({ shapes: [] }), 'shapes', /needs 2 shapes/],
  ['three shapes', () => withScene({ shapes: [...good.shapes, good.shapes[0]] }), 'shapes', /got 3/],
  ['a hole for shape A', () => withScene({ shapes: [, good.shapes[1]] }), 'shapes[0]', /must be an object, got null/], // eslint-disable-line no-sparse-arrays
  ['shape A undefined', () => withScene({ shapes: [undefined, good.shapes[1]] }), 'shapes[0]', /got null/],
  ['shape A a number', () => withScene({ shapes: [42, good.shapes[1]] }), 'shapes[0]', /got a number/],
  ['shape A an array', () => withScene({ shapes: [[], good.shapes[1]] }), 'shapes[0]', /got an array/],
  ['shape A a revoked Proxy', () => withScene({ shapes: [revokedProxy(), good.shapes[1]] }), 'shapes[0]', /cannot be read/],
  ['shapes a getter that throws', () => throwingAt(good, 'shapes', 'no shapes'), 'shapes', /cannot be read: no shapes/],
  ['shapes behind a Proxy whose get throws', () => new Proxy(good, { get(o, k) { if (k === 'shapes') throw new Error('trap'); return Reflect.get(o, k); } }), 'shapes', /cannot be read: trap/],
  // type
  ['type missing', () => withA({ type: undefined }), 'shapes[0].type', /is missing/],
  ['type a number', () => withA({ type: 3 }), 'shapes[0].type', /must be a string/],
  ['type in capitals', () => withA({ type: 'BOX' }), 'shapes[0].type', /unknown shape type "BOX"/],
  ['type "constructor"', () => withA({ type: 'constructor' }), 'shapes[0].type', /unknown shape type "constructor"/],
  ['type "toString"', () => withA({ type: 'toString' }), 'shapes[0].type', /unknown shape type/],
  ['type with a lone surrogate', () => withA({ type: 'box\uDC00' }), 'shapes[0].type', /unknown shape type "box\uFFFD"/],
  ['type with a terminal escape', () => withA({ type: '\u001b[2J\u001b[31mbox\n' }), 'shapes[0].type', /unknown shape type "\\u001b\[2J\\u001b\[31mbox\\u000a"/],
  ['query with a bidi override', () => withScene({ query: '\u202Eecnatsid' }), 'query', /unknown query "\\u202eecnatsid"/],
  ['a field with a C1 control', () => withA({ ['x\u009b2J']: 1 }), 'shapes[0].x\\u009b2J', /unknown field "x\\u009b2J"/],
  // numbers
  ['halfExtents an object with indices', () => withA({ halfExtents: { 0: 1, 1: 1, 2: 1 } }), 'shapes[0].halfExtents', /array of 3 numbers, got an object/],
  ['halfExtents with a string', () => withA({ halfExtents: [1, 1, '1'] }), 'shapes[0].halfExtents[2]', /must be a number, got a string/],
  ['halfExtents with an array', () => withA({ halfExtents: [1, [1], 1] }), 'shapes[0].halfExtents[1]', /got an array/],
  ['halfExtents with null', () => withA({ halfExtents: [1, null, 1] }), 'shapes[0].halfExtents[1]', /got null/],
  ['halfExtents with a boolean', () => withA({ halfExtents: [true, 1, 1] }), 'shapes[0].halfExtents[0]', /got a boolean/],
  ['halfExtents with a BigInt', () => withA({ halfExtents: [1, 1, 1n] }), 'shapes[0].halfExtents[2]', /got a BigInt/],
  ['halfExtents with a symbol', () => withA({ halfExtents: [1, Symbol('x'), 1] }), 'shapes[0].halfExtents[1]', /got a symbol/],
  ['halfExtents a Float32Array with NaN', () => withA({ halfExtents: new Float32Array([1, NaN, 1]) }), 'shapes[0].halfExtents[1]', /got NaN/],
  ['halfExtents -Infinity', () => withA({ halfExtents: [1, 1, -Infinity] }), 'shapes[0].halfExtents[2]', /got -Infinity/],
  ['halfExtents 1e308', () => withA({ halfExtents: [1e308, 1, 1] }), 'shapes[0].halfExtents[0]', /at most 1e15/],
  ['halfExtents Number.MAX_VALUE', () => withA({ halfExtents: [1, Number.MAX_VALUE, 1] }), 'shapes[0].halfExtents[1]', /at most 1e15/],
  ['halfExtents −5e-324 (a negative denormal)', () => withA({ halfExtents: [1, -5e-324, 1] }), 'shapes[0].halfExtents[1]', /must not be negative/],
  ['halfExtents the string "NaN"', () => withA({ halfExtents: [1, 'NaN', 1] }), 'shapes[0].halfExtents[1]', /got NaN/],
  ['halfExtents a Date', () => withA({ halfExtents: [1, new Date(0), 1] }), 'shapes[0].halfExtents[1]', /got a string/],
  ['halfExtents a getter that throws', () => withScene({ shapes: [throwingAt(good.shapes[0], 'halfExtents'), good.shapes[1]] }), 'shapes[0].halfExtents', /cannot be read: boom/],
  ['a toJSON that throws', () => withScene({ shapes: [{ ...good.shapes[0], toJSON() { throw new Error('no JSON'); } }, good.shapes[1]] }), 'shapes[0]', /toJSON\(\) failed: no JSON/],
  ['a function for a field', () => withA({ margin: () => 0.1 }), 'shapes[0].margin', /got a function/],
  ['a symbol for a field', () => withA({ rotation: Symbol('q') }), 'shapes[0].rotation', /got a symbol/],
  ['radius of a capsule a BigInt', () => ({ ...good, shapes: [good.shapes[0], { ...good.shapes[1], radius: 3n }] }), 'shapes[1].radius', /got a BigInt/],
  ['position a {x, y, z} object', () => withA({ position: { x: 1, y: 2, z: 3 } }), 'shapes[0].position', /array of 3 numbers, got an object/],
  ['position beyond 1e15', () => withA({ position: [0, 1e16, 0] }), 'shapes[0].position[1]', /at most 1e15/],
  ['position 1e308', () => withA({ position: [0, 0, -1e308] }), 'shapes[0].position[2]', /at most 1e15/],
  ['rotation of 3 numbers', () => withA({ rotation: [0, 0, 1] }), 'shapes[0].rotation', /must have 4 numbers, got 3/],
  ['rotation with Infinity', () => withA({ rotation: [0, Infinity, 0, 1] }), 'shapes[0].rotation[1]', /got Infinity/],
  ['rotation with a BigInt', () => withA({ rotation: [0, 0, 0, 1n] }), 'shapes[0].rotation[3]', /got a BigInt/],
  ['margin a string', () => withA({ margin: '0.1' }), 'shapes[0].margin', /must be a number, got a string/],
  ['margin Number.MAX_VALUE', () => withA({ margin: Number.MAX_VALUE }), 'shapes[0].margin', /at most 1e15/],
  ['points a string', () => ({ ...good, shapes: [{ type: 'polytope', points: '0 0 0' }, good.shapes[1]] }), 'shapes[0].points', /array of \[x, y, z\] points, got a string/],
  ['points with a string point', () => ({ ...good, shapes: [{ type: 'polytope', points: [[0, 0, 0], 'x'] }, good.shapes[1]] }), 'shapes[0].points[1]', /got a string/],
  ['points with a 4-number point', () => ({ ...good, shapes: [{ type: 'polytope', points: [[0, 0, 0, 0]] }, good.shapes[1]] }), 'shapes[0].points[0]', /got 4/],
  ['points nested 100 000 deep (objects)', () => ({ ...good, shapes: [{ type: 'polytope', points: deepArray(100_000) }, good.shapes[1]] }), 'shapes[0].points' + '[0]'.repeat(61), /nested too deeply/],
  ['a 100 000-deep array for the scene', () => deepArray(100_000), '[0]'.repeat(64), /nested too deeply/],
  ['shape A containing itself', cycle, 'shapes[0].self', /a cycle/],
  ['a position containing itself', cyclicVector, 'shapes[0].position[1]', /a cycle/],
  ['a scene containing itself as shape A', selfContaining, 'shapes[0]', /a cycle/],
  // Object-API shapes are not scene shapes (only their type is an own field).
  ['a ConvexShape as shape A', () => ({ ...good, shapes: [a, good.shapes[1]] }), 'shapes[0].halfExtents', /is missing/],
  // Unknown fields and prototype keys (JSON.parse makes "__proto__" an own key; nothing is polluted).
  ['"__proto__" in a shape', () => ({ ...good, shapes: [JSON.parse('{"type":"point","__proto__":{"polluted":1}}'), good.shapes[1]] }), 'shapes[0].__proto__', /unknown field "__proto__"/],
  ['"__proto__" in the scene', () => JSON.parse(`{"__proto__":{"polluted":1},${JSON.stringify(good).slice(1)}`), '__proto__', /unknown field/],
  ['"constructor" in the scene', () => withScene({ constructor: { prototype: { polluted: 1 } } }), 'constructor', /unknown field "constructor"/],
  ['"prototype" in a ray', () => rayScene({ origin: [0, 0, 0], direction: [1, 0, 0], prototype: 1 }), 'ray.prototype', /unknown field/],
  ['an emoji field', () => withA({ '🦄': 1 }), 'shapes[0].🦄', /unknown field "🦄"/],
  ['a field with a lone surrogate', () => withA({ ['\uD83Dkey']: 1 }), 'shapes[0].\uFFFDkey', /unknown field/],
  // ray, motion, step
  ['ray an array', () => rayScene([[0, 0, 0], [1, 0, 0]]), 'ray', /must be an object, got an array/],
  ['ray without a direction', () => rayScene({ origin: [0, 0, 0] }), 'ray.direction', /is missing/],
  ['ray.maxT a string', () => rayScene({ origin: [0, 0, 0], direction: [1, 0, 0], maxT: 'far' }), 'ray.maxT', /got a string/],
  ['ray.maxT NaN', () => rayScene({ origin: [0, 0, 0], direction: [1, 0, 0], maxT: NaN }), 'ray.maxT', /got NaN/],
  ['ray.origin 1e300 away', () => rayScene({ origin: [-1e300, 0, 0], direction: [1, 0, 0], maxT: 1e308 }), 'ray.origin[0]', /at most 1e15/],
  ['ray.direction 1e308', () => rayScene({ origin: [-5, 0, 0], direction: [1e308, 0, 0] }), 'ray.direction[0]', /at most 1e15/],
  ['ray.direction −0', () => rayScene({ origin: [-5, 0, 0], direction: [-0, 0, 0] }), 'ray.direction', /zero vector/],
  ['motion a string', () => castScene('fast'), 'motion', /got a string/],
  ['motion.translationB 1e200', () => castScene({ translationB: [-1e200, 0, 0] }), 'motion.translationB[0]', /at most 1e15/],
  ['motion.translationA with NaN', () => castScene({ translationA: [0, NaN, 0] }), 'motion.translationA[1]', /got NaN/],
  ['an unknown motion field', () => castScene({ translationB: [1, 0, 0], spin: [0, 1, 0] }), 'motion.spin', /unknown field/],
  ['step a string', () => withScene({ step: '3' }), 'step', /got a string/],
  ['step 1.5', () => withScene({ step: 1.5 }), 'step', /whole number/],
  ['step above 1 000 000', () => withScene({ step: 1_000_001 }), 'step', /whole number from 0 to 1000000/],
  ['step 2^53', () => withScene({ step: 2 ** 53 }), 'step', /whole number/],
  ['step Infinity', () => withScene({ step: Infinity }), 'step', /got Infinity/],
  ['step a BigInt', () => withScene({ step: 3n }), 'step', /got a BigInt/],
  // JSON text
  ['an empty string', () => '', null, /not valid JSON: unexpected end of input/, 'invalid-json'],
  ['"null"', () => 'null', null, /got null/],
  ['a NaN literal', () => '{"version":1,"query":"distance","shapes":[{"type":"sphere","radius":NaN},{"type":"point"}]}', null, /not valid JSON/, 'invalid-json'],
  ['an overflowing number', () => JSON.stringify(good).replace('"halfExtents":[1,', '"halfExtents":[1e999,'), 'shapes[0].halfExtents[0]', /overflows a double/],
  ['a duplicate key', () => `{"version":1,${JSON.stringify(good).slice(1)}`, null, /duplicate key "version"/, 'invalid-json'],
  ['a byte order mark', () => `\uFEFF${JSON.stringify(good)}`, null, /unexpected character at byte 0/, 'invalid-json'],
  ['objects 100 000 deep as text', () => `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`, null, /nested too deeply/, 'invalid-json'],
  ['a lone surrogate escape in the type', () => JSON.stringify(good).replace('"box"', '"bo\\udfffx"'), 'shapes[0].type', /unknown shape type "bo\uFFFDx"/],
  // Once n² key comparisons: minutes.
  ['an object of 100 000 keys', () => MANY_KEYS, 'k0', /unknown field "k0"/],
];

// Too big for a permalink (which refuses more than 2 000 000 characters first), and slow enough (a second or
// two each) that only run() takes them: trace and validateScene share its parser.
const bigSceneRows: SceneRow[] = [
  ['10 MB of text that is not JSON', () => TEN_MB, null, /not valid JSON: unexpected character at byte 0/, 'invalid-json'],
  ['a 10 MB query', () => withScene({ query: TEN_MB }), 'query', LONG],
  ['a 10 MB shape type', () => withA({ type: TEN_MB }), 'shapes[0].type', LONG],
  ['a 10 MB field name', () => withA({ [TEN_MB]: 1 }), `shapes[0].${'x'.repeat(64)}…`, LONG],
  ['halfExtents of 1 000 001 numbers', () => withA({ halfExtents: new Array(1_000_001).fill(1) }), 'shapes[0].halfExtents', /must have 3 numbers, got 1000001/],
  ['a polytope of 1 000 001 points', () => ({ ...good, shapes: [{ type: 'polytope', points: new Array(1_000_001).fill([0.5, 0.25, 0.125]) }, good.shapes[1]] }), 'shapes[0].points', /1000001 points; the limit is 1000000/],
  // Refused in JavaScript, before it is copied into wasm memory.
  ['96 MiB + 1 of text', () => ' '.repeat(96 * 1024 * 1024 + 1), null, /too large/, 'invalid-json'],
];

function sceneCalls([name, make, field, pattern, json]: SceneRow, withLink: boolean): Row[] {
  const code = json ?? 'invalid-scene';
  const rows: Row[] = [
    [`run: ${name}`, () => run(make() as Scene), code, field, pattern],
    [`trace: ${name}`, () => trace(make() as Scene), code, field, pattern],
    [`validateScene: ${name}`, () => validateScene(make()), code, field, pattern],
  ];
  if (withLink && typeof make() !== 'string') {
    let encoded: string | null = null;
    try {
      encoded = encodeLink(make() as object);
    } catch {
      // No JSON form (a BigInt, a cycle, …) or not an object: encodeLink says so, naming the same field.
      rows.push([`encodeLink: ${name}`, () => encodeLink(make() as object), 'invalid-scene', field]);
    }
    if (encoded !== null) {
      const hash = encoded;
      rows.push([`decodeLink: ${name}`, () => decodeLink(hash), 'bad-link', field]);
    }
  }
  return rows;
}

describe('scenes: every level, every wrong type', () => {
  it.each(sceneRows.map((r) => [r[0], r] as const))('%s', (_name, row) => {
    for (const r of sceneCalls(row, true)) {
      expectRow(r);
      expectStillWorking(r[0]);
    }
  });

  it.each(bigSceneRows.map((r) => [r[0], r] as const))('huge: %s', (_name, row) => {
    const memory = stats().memoryBytes;
    const [runRow] = sceneCalls(row, false);
    expectRow(runRow);
    expectStillWorking(runRow[0]);
    // The text refused in JavaScript never reached wasm memory.
    if (row[0].startsWith('96 MiB')) expect(stats().memoryBytes).toBe(memory);
  });
});

describe('edge values that are valid: answered, finite, exact', () => {
  const finite = (v: unknown): boolean =>
    typeof v === 'number' ? Number.isFinite(v) : Array.isArray(v) ? v.every(finite)
      : v !== null && typeof v === 'object' ? Object.values(v).every(finite) : true;
  const spheres = (rA: unknown, extra: Record<string, unknown> = {}): Scene => ({
    version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: rA, ...extra } as unknown as Shape, { type: 'sphere', radius: 1, position: [3, 0, 0] }],
  });

  it('−0, denormals, 1e15 and extreme (but non-zero) quaternions', () => {
    expect((run(spheres(-0)) as { distance: number }).distance).toBe(2);
    expect((run(spheres(5e-324)) as { distance: number }).distance).toBe(2);
    expect((run(spheres(0, { position: [-0, -0, -0] })) as { distance: number }).distance).toBe(2);
    expect((run(spheres(0, { margin: 5e-324 })) as { distance: number }).distance).toBe(2);
    expect(finite(run(spheres(1e15)))).toBe(true);
    // A denormal or huge quaternion is a rotation like any other once normalized: here about x, which
    // leaves a sphere where it is.
    for (const rotation of [[5e-324, 0, 0, 0], [1e308, 0, 0, 1e308], [1e-200, 0, 0, 1e-200]]) {
      const r = run(spheres(1, { rotation })) as { distance: number };
      expect(r.distance).toBe(1);
      expect(validateScene(spheres(1, { rotation })).shapes[0].rotation!.every(Number.isFinite)).toBe(true);
    }
    expect(validateScene(withScene({ step: 1_000_000 })).step).toBe(1_000_000);
    // Sample counts are clamped to 6…20000 (1e12 once wrapped around as a wasm int, to 6).
    expect(shapeSurface({ type: 'sphere', radius: 1 }, 1e12)).toHaveLength(20000);
    expect(shapeSurface({ type: 'sphere', radius: 1 }, 0)).toHaveLength(6);
    expect(validateScene(withScene({ step: -0 })).step).toBe(0);
  });

  it('rays with tiny and huge directions hit where they should (t in units of direction)', () => {
    // From (−5, 0.1, 0) along +x: the unit sphere is hit at 5 − √0.99 along the ray.
    const along = 5 - Math.sqrt(0.99);
    for (const k of [1e-200, 1e-100, 1, 1e15]) {
      const r = run(rayScene({ origin: [-5, 0.1, 0], direction: [k, 0, 0], maxT: 1e308 })) as { hit: boolean; t: number };
      expect(r.hit, `direction ${k}`).toBe(true);
      expect(Math.abs(r.t * k - along)).toBeLessThan(1e-14);
    }
  });

  it('a transparent Proxy, a null-prototype object and a toJSON are read as the scene they stand for', () => {
    const expected = run(good);
    expect(run(new Proxy(good, {}))).toEqual(expected);
    expect(run(Object.assign(Object.create(null), good))).toEqual(expected);
    expect(run({ toJSON: () => good } as unknown as Scene)).toEqual(expected);
    expect(run(withA({ rotation: new Float64Array([0, 0, 0.3, 0.95]) }))).toEqual(expected);
    expectStillWorking('the valid edge values');
  });
});

// ------------------------------------------------------------------ object API, surfaces, hulls, links

const poses = new Float64Array([0, 0, 0, 0, 0, 0, 1, 2.5, 0.2, 0.1, 0, 0, 0, 1]);
const geometry = (count: number) => ({ attributes: { position: { count, itemSize: 3, getX: () => 0, getY: () => 0, getZ: () => 0 } } });
const deepLink = (open: string, inner: string, close: string) => link(open.repeat(100_000) + inner + close.repeat(100_000));

const apiRows = (): Row[] => [
  // Shape constructors (objects.test.ts has NaN, strings, wrong lengths, unknown options).
  ['sphere(1n)', () => sphere(1n as unknown as number), 'invalid-argument', 'radius', /got a BigInt/],
  ['box with a BigInt', () => box([1, 1n, 1] as unknown as Vec3), 'invalid-argument', 'halfExtents[1]', /got a BigInt/],
  ['capsule with a function', () => capsule(1, (() => 1) as unknown as number), 'invalid-argument', 'halfHeight', /got a function/],
  ['ellipsoid from a Float64Array with NaN', () => ellipsoid(new Float64Array([1, NaN, 1]) as unknown as Vec3), 'invalid-argument', 'radii[1]', /NaN/],
  ['createShape with a symbol margin', () => createShape({ type: 'sphere', radius: 1, margin: Symbol('m') } as never), 'invalid-argument', 'margin', /got a symbol/],
  ['createShape of a cycle', () => { const s: Record<string, unknown> = { type: 'sphere', radius: 1 }; s.self = s; return createShape(s as never); }, 'invalid-argument', 'self', /a cycle/],
  ['createShape through a throwing getter', () => createShape(throwingAt({ type: 'sphere', radius: 1 }, 'radius') as never), 'invalid-argument', 'radius', /cannot be read: boom/],
  ['createShape with "__proto__"', () => createShape(JSON.parse('{"type":"sphere","radius":1,"__proto__":{"polluted":1}}')), 'invalid-argument', '__proto__', /unknown field/],
  ['createShape of a 10 MB type', () => createShape({ type: TEN_MB } as never), 'invalid-argument', 'type', LONG],
  ['createShape nested 100 000 deep', () => createShape({ type: 'box', halfExtents: deepArray(100_000) } as never), 'invalid-argument', 'halfExtents' + '[0]'.repeat(63), /nested too deeply/],
  // Point arrays (a length is whatever an array-like says).
  ['polytope of length 1e12', () => polytope({ length: 1e12 } as never), 'invalid-argument', 'points', /more than 1000000 points/],
  ['polytope of length −1', () => polytope({ length: -1 } as never), 'invalid-argument', 'points', /length of -1/],
  ['polytope of length 2^53', () => polytope({ length: 2 ** 53 } as never), 'invalid-argument', 'points', /length of/],
  ['polytope of length NaN', () => polytope({ length: NaN } as never), 'invalid-argument', 'points', /length of NaN/],
  ['polytope of 1 000 001 points', () => polytope(new Array(1_000_001).fill([0, 0, 0])), 'invalid-argument', 'points', /more than 1000000 points/],
  ['polytope of 3 000 003 numbers', () => polytope(new Array(3_000_003).fill(0)), 'invalid-argument', 'points', /more than 1000000 points/],
  ['polytope with a BigInt', () => polytope([[0, 0, 0], [0, 0, 1n]] as never), 'invalid-argument', 'points[1][2]', /bigint/],
  ['polytope with a typed-array point', () => polytope([[0, 0, 0], new Float64Array(3)] as never), 'invalid-argument', 'points[1]', /3 numbers/],
  ['polytopeFromGeometry of 1e12 vertices', () => polytopeFromGeometry(geometry(1e12)), 'invalid-argument', 'geometry.attributes.position.count', /whole number/],
  ['polytopeFromGeometry of −1 vertices', () => polytopeFromGeometry(geometry(-1)), 'invalid-argument', 'geometry.attributes.position.count', /-1/],
  ['polytopeFromGeometry of NaN vertices', () => polytopeFromGeometry(geometry(NaN)), 'invalid-argument', 'geometry.attributes.position.count', /NaN/],
  ['hull of length 1e12', () => hull({ length: 1e12 } as never), 'invalid-argument', 'points', /more than 1000000/],
  ['hull of a string', () => hull('0,0,0' as never), 'invalid-argument', 'points', /got string/],
  ['hull with trace: "yes"', () => hull([[0, 0, 0]], undefined, { trace: 'yes' } as never), 'invalid-argument', 'options.trace', /true or false/],
  ['hull of 1 000 001 points', () => hull(new Float64Array(3_000_003)), 'invalid-argument', 'points', /more than 1000000/],
  ['boundingVolumes of 1 000 001 points', () => boundingVolumes(new Array(3_000_003).fill(0)), 'invalid-argument', 'points', /more than 1000000/],
  ['boundingVolumes with −Infinity', () => boundingVolumes([[0, 0, 0], [0, -Infinity, 0]]), 'invalid-argument', 'points[1]', /finite/],
  // Poses (a plain object with a typo used to mean the origin).
  ['a pose with a typo', () => distance(a, { pos: [10, 0, 0] } as never, b, undefined), 'invalid-argument', 'poseA.pos', /unknown pose field/],
  ['a pose with a BigInt', () => distance(a, { position: [1n, 0, 0] } as never, b, undefined), 'invalid-argument', 'poseA.position[0]', /bigint/],
  ['a pose {x, y} without z', () => distance(a, { position: { x: 1, y: 2 } } as never, b, undefined), 'invalid-argument', 'poseA.position.z', /undefined/],
  ['a Float64Array pose of NaN', () => distance(a, new Float64Array(7).fill(NaN), b, undefined), 'invalid-argument', 'poseA[0]', /NaN/],
  ['a Float32Array pose overflowing to Infinity', () => distance(a, undefined, b, new Float32Array([1e39, 0, 0, 0, 0, 0, 1])), 'invalid-argument', 'poseB[0]', /Infinity/],
  ['a pose 1e300 away', () => distance(a, [1e300, 0, 0, 0, 0, 0, 1], b, undefined), 'invalid-argument', 'poseA[0]', /1e15/],
  ['trace: "yes"', () => distance(a, undefined, b, undefined, { trace: 'yes' } as never), 'invalid-argument', 'options.trace', /true or false/],
  ['a ray from 1e300 away', () => raycast(a, undefined, { origin: [-1e300, 0, 0], direction: [1, 0, 0], maxT: 1e308 }), 'invalid-argument', 'ray[0]', /1e15/],
  ['a ray direction of 1e308', () => raycast(a, undefined, { origin: [-5, 0, 0], direction: [1e308, 0, 0] }), 'invalid-argument', 'ray[3]', /1e15/],
  ['a translation of 1e200', () => shapecast(a, undefined, b, undefined, { translationB: [-1e200, 0, 0] }), 'invalid-argument', 'motion[3]', /1e15/],
  ['a translation as a string', () => shapecast(a, undefined, b, undefined, { translationA: 'fast' } as never), 'invalid-argument', 'motion.translationA', /string/],
  ['sceneOf with a BigInt pose', () => sceneOf('distance', a, [1n, 0, 0, 0, 0, 0, 1] as never, b, undefined), 'invalid-argument', 'poseA[0]', /bigint/],
  // The caller's getters and Proxies that throw (the scene path has its own rows above).
  ['a pose whose position getter throws', () => distance(a, { get position(): Vec3 { throw new Error('boom'); } } as PoseLike, b, undefined), 'invalid-argument', 'poseA', /cannot be read: boom/],
  ['a position whose x getter throws', () => distance(a, undefined, b, { position: { get x(): number { throw new Error('boom'); }, y: 0, z: 0 } }), 'invalid-argument', 'poseB.position', /cannot be read: boom/],
  ['a revoked Proxy for a pose', () => distance(a, revokedProxy() as never, b, undefined), 'invalid-argument', 'poseA', /cannot be read/],
  ['a Proxy of a shape', () => distance(new Proxy(a, {}), undefined, b, undefined), 'invalid-argument', 'a', /cannot be read/],
  ['a revoked Proxy for a shape', () => intersect(a, undefined, revokedProxy() as never, undefined), 'invalid-argument', 'b', /cannot be read/],
  ['a ray whose origin getter throws', () => raycast(a, undefined, { get origin(): Vec3 { throw new Error('boom'); }, direction: [1, 0, 0] }), 'invalid-argument', 'ray', /cannot be read: boom/],
  ['a motion behind a Proxy that throws', () => shapecast(a, undefined, b, undefined, new Proxy({ translationB: [1, 0, 0] }, { get() { throw new Error('trap'); } }) as never), 'invalid-argument', 'motion', /cannot be read: trap/],
  ['options whose trace getter throws', () => distance(a, undefined, b, undefined, { get trace(): boolean { throw new Error('boom'); } }), 'invalid-argument', 'options', /cannot be read: boom/],
  ['points behind a Proxy that throws', () => polytope(new Proxy([[0, 0, 0], [1, 0, 0]], { get(t, k) { if (k === '1') throw new Error('trap'); return Reflect.get(t, k); } }) as never), 'invalid-argument', 'points', /cannot be read: trap/],
  ['a geometry whose getX throws', () => polytopeFromGeometry({ attributes: { position: { count: 1, itemSize: 3, getX: () => { throw new Error('boom'); }, getY: () => 0, getZ: () => 0 } } }), 'invalid-argument', 'geometry', /cannot be read: boom/],
  ['hull of a revoked Proxy', () => hull(revokedProxy() as never), 'invalid-argument', 'points', /cannot be read/],
  ['hull options whose trace getter throws', () => hull([[0, 0, 0]], undefined, { get trace(): boolean { throw new Error('boom'); } } as never), 'invalid-argument', 'options', /cannot be read: boom/],
  ['createShape of a revoked Proxy', () => createShape(revokedProxy() as never), 'invalid-argument', 'shape', /cannot be read/],
  ['batch options whose getter throws', () => batch('distance', [a, b], poses, [0, 1], { get out(): Float64Array { throw new Error('boom'); } }), 'invalid-argument', 'options', /cannot be read: boom/],
  ['batch pairs behind a Proxy that throws', () => batch('distance', [a, b], poses, new Proxy([0, 1], { get(t, k) { if (k === '1') throw new Error('trap'); return Reflect.get(t, k); } })), 'invalid-argument', 'pairs', /cannot be read: trap/],
  ['batch poses behind a Proxy that throws', () => batch('distance', [a, b], new Proxy(Array.from(poses), { get(t, k) { if (k === '3') throw new Error('trap'); return Reflect.get(t, k); } }), [0, 1]), 'invalid-argument', 'poses', /cannot be read: trap/],
  // Batches.
  ['batch pairs of length −2', () => batch('distance', [a, b], poses, { length: -2 } as never), 'invalid-argument', 'pairs', /typed array/],
  ['batch pairs of length 1e12', () => batch('distance', [a, b], poses, { length: 1e12 } as never), 'invalid-argument', 'pairs', /at most 4194304/],
  ['batch rays of length −7', () => batch('raycast', [a], poses.subarray(0, 7), [0], { rays: { length: -7 } as never }), 'invalid-argument', 'options.rays', /typed array/],
  ['batch shapes array-like', () => batch('distance', { length: 2, 0: a, 1: b } as never, poses, [0, 1]), 'invalid-argument', 'shapes', /array of shapes/],
  ['batch pairs as BigInts', () => batch('distance', [a, b], poses, new BigUint64Array([0n, 1n]) as never), 'invalid-argument', 'pairs[0]', /bigint/],
  ['batch pair index 2^32', () => batch('distance', [a, b], poses, [0, 2 ** 32]), 'invalid-argument', 'pairs[1]', /from 0 to 1/],
  ['batch out a string', () => batch('distance', [a, b], poses, [0, 1], { out: 'x' as never }), 'invalid-argument', 'options.out', /Float64Array/],
  ['batchResult of a string', () => batchResult('distance', 'abcdefghijk' as never, 0), 'invalid-argument', 'out', /Float64Array/],
  ['batchResult at 1e308', () => batchResult('distance', new Float64Array(9), 1e308), 'invalid-argument', 'i', /query index/],
  ['batchResult at NaN', () => batchResult('distance', new Float64Array(9), NaN), 'invalid-argument', 'i', /query index/],
  // Surfaces.
  ['shapeSurface of NaN samples', () => shapeSurface(good.shapes[0], NaN), 'invalid-argument', 'samples', /whole number/],
  ['shapeSurface of 1.5 samples', () => shapeSurface(good.shapes[0], 1.5), 'invalid-argument', 'samples', /whole number/],
  ['shapeSurface of −1 samples', () => shapeSurface(good.shapes[0], -1), 'invalid-argument', 'samples', /whole number/],
  ['shapeSurface of "100" samples', () => shapeSurface(good.shapes[0], '100' as never), 'invalid-argument', 'samples', /string/],
  ['shapeSurface of 10n samples', () => shapeSurface(good.shapes[0], 10n as never), 'invalid-argument', 'samples', /bigint/],
  ['shapeSurface of a symbol', () => shapeSurface(Symbol('s') as never), 'invalid-scene', 'shape', /got a symbol/],
  ['shapeSurface with a BigInt radius', () => shapeSurface({ type: 'sphere', radius: 2n } as never), 'invalid-scene', 'shape.radius', /BigInt/],
  ['shapeSurface of 1e308', () => shapeSurface({ type: 'sphere', radius: 1e308 }), 'invalid-scene', 'shape.radius', /1e15/],
  ['minkowskiSurface of a number', () => minkowskiSurface(good.shapes[0], 5 as never), 'invalid-scene', 'b', /got a number/],
  ['minkowskiSurface with a function', () => minkowskiSurface(good.shapes[0], { type: 'sphere', radius: () => 1 } as never), 'invalid-scene', 'b.radius', /function/],
  // Permalinks.
  ['encodeLink with a number for the base', () => encodeLink(good, 42 as never), 'invalid-argument', 'base', /URL string/],
  ['encodeLink of null', () => encodeLink(null as never), 'invalid-scene', null, /got null/],
  ['encodeLink of an array', () => encodeLink([good] as never), 'invalid-scene', null, /got an array/],
  ['encodeLink of a BigInt step', () => encodeLink({ ...good, step: 1n } as never), 'invalid-scene', 'step', /BigInt/],
  ['decodeLink of a number', () => decodeLink(42 as never), 'bad-link', null, /expected a string/],
  ['decodeLink of undefined', () => decodeLink(undefined as never), 'bad-link', null, /expected a string/],
  ['decodeLink of an object', () => decodeLink({ hash: '#v1=' } as never), 'bad-link', null, /expected a string/],
  ['a 5 MB link', () => decodeLink(`#v1=${'A'.repeat(5_000_000)}`), 'bad-link', null, /too long \(5000000 characters/],
  ['a truncated link', () => decodeLink(encodeLink(good).slice(0, 60)), 'bad-link', null, /cannot be read/],
  ['a link of another version', () => decodeLink(link(JSON.stringify({ ...good, version: 2 }))), 'bad-link', 'version', /must be 1/],
  ['a link of arrays 100 000 deep', () => decodeLink(deepLink('[', '', ']')), 'bad-link', '[0]'.repeat(64), /nested too deeply/],
  ['a link of objects 100 000 deep', () => decodeLink(deepLink('{"a":', '1', '}')), 'bad-link', Array(64).fill('a').join('.'), /nested too deeply/],
  ['a link with a NaN literal', () => decodeLink(link(JSON.stringify(good).replace('0.25]', 'NaN]'))), 'bad-link', null, /not valid JSON/],
  ['a link with "NaN"', () => decodeLink(link(JSON.stringify(good).replace('0.25]', '"NaN"]'))), 'bad-link', 'shapes[0].halfExtents[2]', /got NaN/],
  ['a link with 1e999', () => decodeLink(link(JSON.stringify(good).replace('0.25]', '1e999]'))), 'bad-link', 'shapes[0].halfExtents[2]', /Infinity/],
  ['a link with step 1e7', () => decodeLink(link(JSON.stringify({ ...good, step: 1e7 }))), 'bad-link', 'step', /whole number/],
  ['a link with "__proto__"', () => decodeLink(link(`{"__proto__":{"polluted":1},${JSON.stringify(good).slice(1)}`)), 'bad-link', '__proto__', /unknown field/],
  ['a link with an emoji type', () => decodeLink(link(JSON.stringify(withA({ type: '📦' })))), 'bad-link', 'shapes[0].type', /"📦"/],
  ['a link with a lone surrogate', () => decodeLink(link(JSON.stringify(good).replace('"box"', '"\\ud800box"'))), 'bad-link', 'shapes[0].type', /"\uFFFDbox"/],
  ['a link of NUL bytes', () => decodeLink(`#v1=${Buffer.alloc(30).toString('base64url')}`), 'bad-link', null, /not valid JSON \(.*\\u0000/],
  ['a link with a terminal escape in the query', () => decodeLink(link(JSON.stringify({ ...good, query: '\u001b]0;pwned\u0007' }))), 'bad-link', 'query', /"\\u001b\]0;pwned\\u0007"/],
  ['batch of a 10 MB query with an escape', () => batch(`\u001b[2J${TEN_MB}` as never, [a, b], poses, [0, 1]), 'invalid-argument', 'query', /unknown query "\\u001b\[2Jx+…"/],
  ['a link of 1.9 MB of zeros', () => decodeLink(link(`[${new Array(700_000).fill(0).join(',')}]`)), 'bad-link', null, /must be a JSON object, got an array/],
  ['a link of a scene with a 1.4 MB field', () => decodeLink(link(JSON.stringify(withA({ type: 'x'.repeat(1_400_000) })))), 'bad-link', 'shapes[0].type', LONG],
];

describe('object API, surfaces, hulls and permalinks', () => {
  it.each(apiRows().map((r) => [r[0], r] as const))('%s', (_name, row) => {
    expectRow(row);
    expectStillWorking(row[0]);
  });

  it("an exception from the caller's own getter is the CollidoscopeError's cause", () => {
    const mine = new Error('my getter');
    const pose = { get position(): Vec3 { throw mine; } } as PoseLike;
    const e = expectRow(['a pose getter', () => distance(a, pose, b, undefined), 'invalid-argument', 'poseA', /cannot be read: my getter/]);
    expect((e as Error & { cause?: unknown }).cause).toBe(mine);
    expectStillWorking('a throwing pose getter');
  });

  it('a value nested too deeply under long keys: the field keeps its start and end, the message stays short', () => {
    // Found by the link fuzzer (scripts/fuzz.mjs): every key of the path was echoed whole. The walk that names
    // the field runs when JSON.stringify fails (here on the BigInt at the bottom).
    let deep: unknown = 1n;
    for (let i = 0; i < 70; i++) deep = { ['k'.repeat(5000) + i]: deep };
    const scene = { ...good, shapes: [{ type: 'sphere', radius: 1, ['x'.repeat(20_000)]: deep }, good.shapes[1]] };
    const e = rejection(() => validateScene(scene as unknown as Scene));
    expect(e.code).toBe('invalid-scene');
    expect(e.message).toMatch(/nested too deeply/);
    expect(e.message.length).toBeLessThan(400);
    // 120 characters of the path's start, "…", 120 of its end: the keys inside are clipped to 64 + "…".
    expect(e.field).toBe(`shapes[0].${'x'.repeat(64)}….${'k'.repeat(45)}`.slice(0, 120) + '…' + `.${'k'.repeat(64)}…`.repeat(2).slice(-120));
    expect(e.message.startsWith(`${e.field}: `)).toBe(true);
    expectStillWorking('deep long keys');
  });
});

// ------------------------------------------------------------------ bounded memory

describe('memory', () => {
  it('the whole table a second time leaves wasm memory where the first left it', () => {
    // (The huge rows check their own repetition above.)
    const rows = [...sceneRows.flatMap((r) => sceneCalls(r, true)), ...apiRows()];
    const pass = () => { for (const r of rows) rejection(r[1]); };
    pass();
    const first = stats();
    pass();
    const second = stats();
    expect(second.memoryBytes).toBe(first.memoryBytes);
    expect(second.heapBytes).toBe(first.heapBytes);
    expect(second.liveShapes).toBe(first.liveShapes);
    expectStillWorking('two passes of the table');
  }, 120_000);

  it('20 million values of "[0,0,…" (40 MB): an error, not a wasm abort, and the heap is given back', () => {
    // In a child process: the parse tree of the values read before the cap takes ~1 GB of wasm memory,
    // which wasm never returns to the system.
    const script = `
      import { init, run, stats, CollidoscopeError } from ${JSON.stringify(join(root, 'web/dist/lib/index.mjs'))};
      await init();
      const good = ${JSON.stringify(good)};
      const before = run(good);
      let error;
      try { run('[' + '0,'.repeat(20_000_000) + '0]'); } catch (e) {
        error = { isCollidoscopeError: e instanceof CollidoscopeError, name: e.constructor.name, code: e.code, field: e.field, message: e.message };
      }
      const after = run(good);
      console.log(JSON.stringify({ error, same: JSON.stringify(after) === JSON.stringify(before), stats: stats() }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 90_000 });
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(out.error).toMatchObject({ isCollidoscopeError: true, code: 'invalid-json', field: null });
    expect(out.error.message).toMatch(/too many values \(more than 8100000\)/);
    expect(out.same).toBe(true);
    // What stays: under 4 KB, and the 64 KB the heap checks hold back for an error's own message (heap_room.h).
    expect(out.stats.heapBytes).toBeLessThan(4096 + 65536);
    expect(out.stats.memoryBytes).toBeLessThan(1.5 * 1024 ** 3);
  }, 120_000);
});

// ------------------------------------------------------------------ CLI

describe('CLI: hostile files, streams and flags', () => {
  const cli = join(root, 'web', 'dist', 'lib', 'cli.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'collidoscope-hostile-'));
  const file = (name: string, content: string | Buffer) => {
    const p = join(dir, name);
    writeFileSync(p, content);
    return p;
  };
  const collidoscope = (args: string[], input?: string | Buffer) => {
    const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, input, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    return { code: r.status, signal: r.signal, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
  };
  // Random bytes from a fixed seed: NULs, invalid UTF-8, anything.
  const garbage = (n: number) => {
    let x = 0x9e3779b9;
    return Buffer.from(Array.from({ length: n }, () => {
      x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
      return x & 0xff;
    }));
  };
  const scene = JSON.stringify(good);

  /** Exit 2, nothing on stdout, and on stderr the problem named in one line (input) or one line then the usage. */
  function expectRefused(r: ReturnType<typeof collidoscope>, pattern: RegExp, usage = false): void {
    expect(r.signal, 'killed by the timeout: a hang').toBeNull();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.replace(/\n$/, '').split('\n');
    expect(lines[0]).toMatch(/^collidoscope: /);
    expect(lines[0]).toMatch(pattern);
    expect(lines[0].length).toBeLessThan(400);
    if (usage) expect(lines[1]).toMatch(/^usage: collidoscope/);
    else expect(lines, r.stderr.slice(0, 500)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at |RuntimeError|Aborted|internal error/);
    for (const line of lines) expect(line).not.toMatch(ACTING);
  }

  it('binary garbage', () => {
    expectRefused(collidoscope(['run', file('garbage.json', garbage(4096))]), /garbage\.json: the scene is not valid JSON: .* at byte \d+/);
  });

  it('binary garbage on standard input', () => {
    expectRefused(collidoscope(['trace', '-'], garbage(4096)), /^collidoscope: stdin: the scene is not valid JSON/);
  });

  it('empty standard input', () => {
    expectRefused(collidoscope(['run', '-'], ''), /stdin: the scene is not valid JSON: unexpected end of input at byte 0/);
  });

  it('50 MB of JSON: 25 million numbers (once a wasm abort and a stack trace)', () => {
    const p = file('big.json', `[${'0,'.repeat(25_000_000)}0]`);
    expectRefused(collidoscope(['run', p]), /big\.json: the scene is not valid JSON: JSON has too many values/);
  }, 60_000);

  it('an endless file (/dev/zero) is refused after 96 MiB', () => {
    expectRefused(collidoscope(['run', '/dev/zero']), /\/dev\/zero: is too large \(more than 96 MiB/);
  }, 60_000);

  it('JSON nested 100 000 deep', () => {
    expectRefused(collidoscope(['run', file('deep.json', '['.repeat(100_000) + ']'.repeat(100_000))]), /nested too deeply/);
  });

  it('a 10 MB field name is clipped in the message', () => {
    const p = file('long-key.json', JSON.stringify(withA({ [TEN_MB]: 1 })));
    expectRefused(collidoscope(['run', p]), /unknown field "x{64}…"/);
  });

  it('a terminal escape in a scene file is escaped in the message', () => {
    const r = collidoscope(['run', file('escape.json', JSON.stringify(withA({ type: '\u001b[2J\u001b[31mbox' })))]);
    expectRefused(r, /unknown shape type "\\u001b\[2J\\u001b\[31mbox"/);
  });

  it('NaN in a scene file', () => {
    expectRefused(collidoscope(['run', file('nan.json', scene.replace('0.25]', 'NaN]'))]), /not valid JSON: unexpected character at byte \d+/);
  });

  it('a missing file, a directory', () => {
    expectRefused(collidoscope(['run', join(dir, 'nope.json')]), /cannot read .*nope\.json: no such file$/);
    mkdirSync(join(dir, 'a-directory'), { recursive: true });
    expectRefused(collidoscope(['run', join(dir, 'a-directory')]), /cannot read .*a-directory: is a directory$/);
  });

  it('a permalink instead of a scene: as the argument, in a file, on standard input', () => {
    const url = encodeLink(good, 'http://localhost:8080/');
    expectRefused(collidoscope(['run', url]), /is a permalink: the CLI reads scene JSON/);
    expectRefused(collidoscope(['link', file('link.txt', `${url}\n`)]), /link\.txt: holds a permalink/);
    expectRefused(collidoscope(['run', '-'], url), /stdin: holds a permalink/);
  });

  it('wrong flags and arguments: the problem, then the usage', () => {
    expectRefused(collidoscope(['run', '--frobnicate', 'x.json']), /unknown option "--frobnicate"/, true);
    expectRefused(collidoscope(['run', 'a.json', 'b.json']), /"run" needs exactly one scene file/, true);
    expectRefused(collidoscope(['trace']), /"trace" needs exactly one scene file/, true);
    expectRefused(collidoscope(['link', 'x.json', '--base']), /--base needs a URL/, true);
    expectRefused(collidoscope(['run', '--base=http://x/', 'x.json']), /--base is only used by "link"/, true);
    expectRefused(collidoscope(['\u{1F4A5}', 'x.json']), /unknown command "💥"/, true);
  });

  it('a byte order mark is ignored, and the CLI still answers like the API', () => {
    const r = collidoscope(['run', file('bom.json', `\uFEFF${scene}`)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(run(good));
  });
});
