// The batch queries a game would move off its main thread, for tests/e2e/worker.test.ts (a module Web Worker in
// Chromium) and tests/js/worker.test.ts (a Node worker_threads Worker): the inputs, the worker module that
// answers them with the built package, and the checks of its answers against closed forms.
//
// Shapes: spheres, axis-aligned boxes and polytopes of a box's 8 corners (closed forms exist for every pair of
// these), and rotated boxes and random point clouds (no closed form: those pairs are checked against the same
// batch run on the main thread). Every pair i < j is queried: 276 pairs.
import { expect } from 'vitest';

export type WorkerQuery = 'intersect' | 'distance' | 'penetration';
export const WORKER_QUERIES: readonly WorkerQuery[] = ['intersect', 'distance', 'penetration'];

type Vec3 = [number, number, number];

export type ShapeInput =
  | { type: 'sphere'; radius: number }
  | { type: 'box'; halfExtents: Vec3 }
  | { type: 'polytope'; points: Vec3[] };

/** What the main thread posts to the worker (plain data and typed arrays). */
export interface ScenarioInput {
  shapes: ShapeInput[];
  /** 7 numbers per shape: [x, y, z, qx, qy, qz, qw]. */
  poses: Float64Array;
  /** 2 shape indices per query. */
  pairs: Uint32Array;
  queries: readonly WorkerQuery[];
}

/** A bad input's CollidoscopeError as plain data: structured cloning keeps an Error's message but not the name of
 *  a class it does not know, nor the error's own fields. */
export interface ErrorData {
  name: string;
  code: string;
  field: string | null;
  message: string;
  isCollidoscopeError: boolean;
}

/** The worker's first message; its second is { detached: byte lengths of the results after the transfer }. */
export interface WorkerReply {
  results: Record<WorkerQuery, Float64Array>;
  errors: { radius: ErrorData | null; pose: ErrorData | null; pair: ErrorData | null };
  beforeInit: ErrorData | null;
  globals: { window: string; document: string };
  liveShapes: number;
}

/** The errors the worker provokes, as the API documents them. */
export const EXPECTED_ERRORS = {
  radius: { code: 'invalid-argument', field: 'radius' },
  pose: { code: 'invalid-argument', field: 'poses[1][0]' },
  pair: { code: 'invalid-argument', field: 'pairs[1]' },
} as const;

/** The scene spans about this much: tolerances are a fraction of it. */
const SCALE = 10;
/** The library's accuracy at its default settings: 1e-9 of the scale. */
export const TOLERANCE = 1e-9 * SCALE;

const IDENTITY = [0, 0, 0, 1];

/** Park–Miller minimal standard generator in [0, 1): the same inputs on every run. */
function seeded(seed: number): () => number {
  let s = seed % 2147483647;
  if (s <= 0) s += 2147483646;
  return () => {
    s = (s * 16807) % 2147483647;
    return (s - 1) / 2147483646;
  };
}

/** A shape and its 7 pose numbers. */
interface Placed {
  shape: ShapeInput;
  pose: number[];
}

/** Shapes with random sizes and positions in a 4-unit cube; the axis-aligned boxes and box-corner polytopes keep
 *  the identity rotation (checkClosedForms recognizes them by it), everything else gets a random one. */
export function makeScenario(seed: number): ScenarioInput {
  const rand = seeded(seed);
  const between = (lo: number, hi: number) => lo + (hi - lo) * rand();
  const position = () => [between(-2, 2), between(-2, 2), between(-2, 2)];
  const rotation = () => {
    const q = [between(-1, 1), between(-1, 1), between(-1, 1), between(-1, 1)];
    const n = Math.hypot(...q);
    return q.map((x) => x / n);
  };
  const halves = (): Vec3 => [between(0.3, 1.2), between(0.3, 1.2), between(0.3, 1.2)];
  const corners = (h: Vec3): Vec3[] =>
    [0, 1, 2, 3, 4, 5, 6, 7].map((k) => [k & 1 ? h[0] : -h[0], k & 2 ? h[1] : -h[1], k & 4 ? h[2] : -h[2]]);
  const placed: Placed[] = [];
  for (let i = 0; i < 10; i++) placed.push({ shape: { type: 'sphere', radius: between(0.3, 1.5) }, pose: [...position(), ...rotation()] });
  for (let i = 0; i < 4; i++) {
    const h = halves();
    placed.push({ shape: { type: 'box', halfExtents: h }, pose: [...position(), ...IDENTITY] });
  }
  for (let i = 0; i < 4; i++) {
    const h = halves();
    placed.push({ shape: { type: 'polytope', points: corners(h) }, pose: [...position(), ...IDENTITY] });
  }
  for (let i = 0; i < 3; i++) placed.push({ shape: { type: 'box', halfExtents: halves() }, pose: [...position(), ...rotation()] });
  for (let i = 0; i < 3; i++) {
    const n = 8 + Math.floor(rand() * 25);
    const cloud = Array.from({ length: n }, (): Vec3 => [between(-1, 1), between(-1, 1), between(-1, 1)]);
    placed.push({ shape: { type: 'polytope', points: cloud }, pose: [...position(), ...rotation()] });
  }
  const pairs: number[] = [];
  for (let i = 0; i < placed.length; i++) for (let j = i + 1; j < placed.length; j++) pairs.push(i, j);
  return {
    shapes: placed.map((p) => p.shape),
    poses: new Float64Array(placed.flatMap((p) => p.pose)),
    pairs: new Uint32Array(pairs),
    queries: WORKER_QUERIES,
  };
}

/**
 * `function answer(collidoscope, input)`: the batches of `input` and the three bad inputs, with the package
 * namespace `collidoscope` (initialized). One text, run by the worker and by the main thread alike, so that the
 * two sides answer the same inputs with the same calls.
 */
export const ANSWER_FUNCTION = `function answer(collidoscope, input) {
  const errorData = (f) => {
    try {
      f();
      return null;
    } catch (e) {
      return { name: e.name, code: e.code, field: e.field, message: e.message, isCollidoscopeError: e instanceof collidoscope.CollidoscopeError };
    }
  };
  const shapes = input.shapes.map((s) => s.type === 'sphere' ? collidoscope.sphere(s.radius)
    : s.type === 'box' ? collidoscope.box(s.halfExtents) : collidoscope.polytope(s.points));
  try {
    const results = {};
    for (const q of input.queries) results[q] = collidoscope.batch(q, shapes, input.poses, input.pairs);
    const badPoses = input.poses.slice();
    badPoses[7] = NaN;
    const errors = {
      radius: errorData(() => collidoscope.sphere(-1)),
      pose: errorData(() => collidoscope.batch('distance', shapes, badPoses, input.pairs)),
      pair: errorData(() => collidoscope.batch('intersect', shapes, input.poses, [0, shapes.length])),
    };
    return { results, errors };
  } finally {
    for (const s of shapes) s.dispose();
  }
}`;

/**
 * The worker module, as a user would write it: a static import of the package, init() started at once, each
 * message answered with batches whose Float64Arrays are transferred back, errors sent back as plain data.
 * `host` 'browser': a module Web Worker (self); 'node': a worker_threads Worker (parentPort).
 */
export function workerModuleSource(specifier: string, host: 'browser' | 'node'): string {
  const header = host === 'browser'
    ? `const listen = (f) => self.addEventListener('message', (e) => f(e.data));
const post = (message, transfer) => self.postMessage(message, transfer);`
    : `import { parentPort } from 'node:worker_threads';
const listen = (f) => parentPort.on('message', f);
const post = (message, transfer) => parentPort.postMessage(message, transfer);`;
  return `${header}
import * as collidoscope from ${JSON.stringify(specifier)};

${ANSWER_FUNCTION}

// This worker has its own instance of the package: nothing is loaded before its own init().
let beforeInit = null;
try {
  collidoscope.sphere(1);
} catch (e) {
  beforeInit = { name: e.name, code: e.code, field: e.field, message: e.message, isCollidoscopeError: e instanceof collidoscope.CollidoscopeError };
}
const ready = collidoscope.init();

listen(async (input) => {
  try {
    await ready;
    const { results, errors } = answer(collidoscope, input);
    const globals = { window: typeof window, document: typeof document };
    const arrays = Object.values(results);
    post({ results, errors, beforeInit, globals, liveShapes: collidoscope.stats().liveShapes }, arrays.map((a) => a.buffer));
    post({ detached: arrays.map((a) => a.byteLength) });
  } catch (e) {
    post({ failure: String(e && e.stack || e) });
  }
});
`;
}

/** The 64 bits of each double, so that two arrays compare bit for bit (NaN payloads and −0 included). */
export function bitsOf(a: Float64Array): bigint[] {
  return Array.from(new BigUint64Array(a.buffer, a.byteOffset, a.length));
}

// ------------------------------------------------------------------ closed forms

const sub = (a: number[], b: number[]): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const norm = (v: number[]) => Math.hypot(v[0], v[1], v[2]);

/** What the three queries must answer for one pair. `intersecting` is undefined for pairs within the tolerance of
 *  touching, and `normal` where it is not unique (two equally shallow axes) or there is no overlap. */
interface Expected {
  intersecting: boolean | undefined;
  distance: number;
  depth: number;
  normal?: Vec3;
}

/** Sphere A against sphere B: everything follows from the centres and radii. */
function sphereSphere(ca: Vec3, ra: number, cb: Vec3, rb: number): Expected {
  const d = norm(sub(cb, ca));
  const gap = d - ra - rb;
  const u = sub(cb, ca).map((x) => x / d) as Vec3;
  return {
    intersecting: Math.abs(gap) <= TOLERANCE ? undefined : gap < 0,
    distance: Math.max(0, gap),
    depth: Math.max(0, -gap),
    normal: gap < -TOLERANCE ? u : undefined,
  };
}

/** Two axis-aligned boxes: their Minkowski difference is the box of half extents ha + hb around cb − ca. */
function boxBox(ca: Vec3, ha: Vec3, cb: Vec3, hb: Vec3): Expected {
  const d = sub(cb, ca);
  const gaps = [0, 1, 2].map((k) => Math.abs(d[k]) - ha[k] - hb[k]);
  const outside = Math.hypot(...gaps.map((g) => Math.max(g, 0)));
  const worst = Math.max(...gaps);
  if (worst >= 0) return { intersecting: worst <= TOLERANCE ? undefined : false, distance: outside, depth: 0 };
  // Overlapping: the shallowest axis separates them.
  const order = [0, 1, 2].sort((i, j) => gaps[j] - gaps[i]);
  const k = order[0];
  const clear = gaps[order[0]] - gaps[order[1]] > TOLERANCE;
  const normal: Vec3 = [0, 0, 0];
  normal[k] = d[k] >= 0 ? 1 : -1;
  return { intersecting: worst >= -TOLERANCE ? undefined : true, distance: 0, depth: -worst, normal: clear && Math.abs(d[k]) > TOLERANCE ? normal : undefined };
}

/** A sphere against an axis-aligned box; `sphereIsA` says which of the pair the sphere is. */
function sphereBox(cs: Vec3, r: number, cb: Vec3, h: Vec3, sphereIsA: boolean): Expected {
  const local = sub(cs, cb);
  const nearest = [0, 1, 2].map((k) => Math.min(Math.max(local[k], -h[k]), h[k]));
  const outside = norm(sub(local, nearest));
  // Signed distance of the centre to the box: positive outside, minus the depth to the nearest face inside.
  const signed = outside > 0 ? outside : -Math.min(...[0, 1, 2].map((k) => h[k] - Math.abs(local[k])));
  const gap = signed - r;
  const expected: Expected = {
    intersecting: Math.abs(gap) <= TOLERANCE ? undefined : gap < 0,
    distance: Math.max(0, gap),
    depth: Math.max(0, -gap),
  };
  if (outside > TOLERANCE && gap < -TOLERANCE) {
    const fromBox = sub(local, nearest).map((x) => x / outside) as Vec3;
    expected.normal = (sphereIsA ? fromBox.map((x) => -x) : fromBox) as Vec3;
  }
  return expected;
}

/**
 * Checks the worker's answers against the closed forms wherever one applies; returns how many pairs it checked,
 * how many of those overlap and of how many it checked the normal, so that the caller can see that the scenario
 * exercised both outcomes.
 */
export function checkClosedForms(
  input: ScenarioInput,
  results: Record<WorkerQuery, Float64Array>,
  layouts: Record<WorkerQuery, readonly string[]>,
): { checked: number; overlapping: number; normals: number } {
  const field = (q: WorkerQuery, name: string) => {
    const k = layouts[q].indexOf(name);
    expect(k, `${q} has a field ${name}`).toBeGreaterThanOrEqual(0);
    return k;
  };
  const at = {
    intersecting: field('intersect', 'intersecting'),
    distance: field('distance', 'distance'),
    penIntersecting: field('penetration', 'intersecting'),
    depth: field('penetration', 'depth'),
    normal: field('penetration', 'normal.x'),
  };
  const center = (i: number): Vec3 => [input.poses[7 * i], input.poses[7 * i + 1], input.poses[7 * i + 2]];
  const aabbOf = (i: number): Vec3 | null => {
    const s = input.shapes[i];
    const identity = [3, 4, 5, 6].every((k) => input.poses[7 * i + k] === IDENTITY[k - 3]);
    if (!identity) return null;
    if (s.type === 'box') return s.halfExtents;
    // A polytope of a box's 8 corners (the scenario's only polytopes with the identity rotation).
    if (s.type === 'polytope' && s.points.length === 8) return [0, 1, 2].map((k) => Math.max(...s.points.map((p) => p[k]))) as Vec3;
    return null;
  };
  const n = input.pairs.length / 2;
  const stride = (q: WorkerQuery) => layouts[q].length;
  let checked = 0;
  let overlapping = 0;
  let normals = 0;
  for (let i = 0; i < n; i++) {
    const a = input.pairs[2 * i];
    const b = input.pairs[2 * i + 1];
    const sa = input.shapes[a];
    const sb = input.shapes[b];
    let e: Expected | null = null;
    if (sa.type === 'sphere' && sb.type === 'sphere') e = sphereSphere(center(a), sa.radius, center(b), sb.radius);
    else if (sa.type === 'sphere' && aabbOf(b)) e = sphereBox(center(a), sa.radius, center(b), aabbOf(b)!, true);
    else if (sb.type === 'sphere' && aabbOf(a)) e = sphereBox(center(b), sb.radius, center(a), aabbOf(a)!, false);
    else if (aabbOf(a) && aabbOf(b)) e = boxBox(center(a), aabbOf(a)!, center(b), aabbOf(b)!);
    if (e === null) continue;
    checked++;
    if (e.depth > 0) overlapping++;
    const what = `pair ${i} (shapes ${a}, ${b}: ${sa.type}, ${sb.type})`;
    const I = results.intersect;
    const D = results.distance;
    const P = results.penetration;
    if (e.intersecting !== undefined) {
      expect(I[stride('intersect') * i + at.intersecting], `${what} intersect`).toBe(e.intersecting ? 1 : 0);
      expect(P[stride('penetration') * i + at.penIntersecting], `${what} penetration.intersecting`).toBe(e.intersecting ? 1 : 0);
    }
    expect(Math.abs(D[stride('distance') * i + at.distance] - e.distance), `${what} distance`).toBeLessThanOrEqual(TOLERANCE);
    expect(Math.abs(P[stride('penetration') * i + at.depth] - e.depth), `${what} depth`).toBeLessThanOrEqual(TOLERANCE);
    if (e.normal) {
      normals++;
      const o = stride('penetration') * i + at.normal;
      const got = [P[o], P[o + 1], P[o + 2]];
      expect(norm(sub(got, e.normal)), `${what} normal ${got} vs ${e.normal}`).toBeLessThanOrEqual(1e-9);
    }
  }
  return { checked, overlapping, normals };
}
