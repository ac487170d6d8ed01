// Property tests of the JS API (fast-check): random shapes at every scale from 1e-6 to 1e6 (convex shapes, small
// triangle meshes, compounds), random poses in every form the API takes (arrays, Float64Array, Float32Array,
// { position, rotation }, three.js-like objects), hostile values (NaN, infinities, denormals, wrong lengths,
// detached buffers), and shapes, meshes, compounds and worlds made and disposed in every order.
// Invariants:
// - the object API's answer is run() of its scene (sceneOf) bit for bit;
// - batch() and createBatch(), with every option (features, barycentric, warm-start caches, one margin or one per
//   pair, rays, motions, points), give each query bit for bit what the single call gives (and the same caches);
// - distance ≥ 0, symmetric in A and B within the accuracy, and consistent with intersect();
// - the same pose in any form gives the same bits (a Float32Array is the doubles it rounds to);
// - every bad input (a typed array of the wrong length or with a detached buffer, a disposed object) throws a
//   CollidoscopeError naming the field, and leaves the module answering as before;
// - World.pairs() is intersect() on every pair of bodies; a mesh's ray cast is the nearest hit of its triangles
//   cast one by one as triangle() shapes;
// - stats()' live shapes and worlds follow every create and dispose, and after every property they and the wasm
//   heap are where they started.
//
// `npm test` runs each property PROPERTY_RUNS times (default 60) from PROPERTY_SEED (default 20261127), so a
// failure replays; `PROPERTY_RUNS=20000 PROPERTY_SEED=$RANDOM npx vitest run tests/js/properties.test.ts`
// runs a long search. fast-check shrinks a failure to a small counterexample and prints its seed and path.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batch, batchLayout, batchResult, CollidoscopeError, compound, createBatch, contact, contains, createShape, distance, init, intersect, IntersectCache,
  mesh, type MeshShape, penetration, poseNumbers as poseArray, project, raycast, run, sceneOf, shapecast, stats, triangle, World,
  type BatchOptions, type BatchQuery, type Body, type ConvexShape, type ProjectResult, type RaycastResult, type PoseLike, type Shape, type Vec3,
} from '../../web/lib/index';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261127);
const params = { numRuns: RUNS, seed: SEED, endOnFailure: true };

beforeAll(async () => {
  await init();
});

/**
 * Checks a property and that it gives back what it took. The module keeps buffers that grow to the largest call
 * seen (batch scratch, error texts, the registry's free list), so a first run may raise the heap; the same inputs
 * run again (same seed) must not raise it further, and no shape or world may stay alive.
 *
 * `heapSlack` (bytes) is for properties that make meshes: malloc hands out a free block whole when what would be
 * left is under its 16-byte minimum, so after many differently sized allocations the bytes in use drift by a few
 * words with the heap's layout (±8 to ±16 seen, up or down) without anything kept. A leak of one block per run
 * (at least 16 bytes × PROPERTY_RUNS, 960 at the default 60) still shows.
 */
function check<T>(arb: fc.Arbitrary<T>, predicate: (v: T) => void, heapSlack = 0): void {
  const { liveShapes, liveWorlds } = stats();
  fc.assert(fc.property(arb, predicate), params);
  const heap = stats().heapBytes;
  fc.assert(fc.property(arb, predicate), params);
  if (heapSlack === 0) expect(stats().heapBytes).toBe(heap);
  else expect(Math.abs(stats().heapBytes - heap)).toBeLessThanOrEqual(heapSlack);
  expect(stats().liveShapes).toBe(liveShapes);
  expect(stats().liveWorlds).toBe(liveWorlds);
}

/** check()'s heap slack for properties that make meshes (see check()). */
const MESH_HEAP_SLACK = 64;

// ------------------------------------------------------------------ arbitraries

const SCALES = [1e-6, 1e-3, 1, 1e3, 1e6];
const unit = fc.double({ min: -1, max: 1, noNaN: true });
const size = fc.double({ min: 0.1, max: 2, noNaN: true });
const vec = fc.tuple(unit, unit, unit);

/** A convex shape's spec at `scale`: every type the scene format has for convex shapes. */
const shapeSpec = (scale: number): fc.Arbitrary<Shape> => fc.oneof(
  size.map((r) => ({ type: 'sphere', radius: r * scale }) as Shape),
  fc.tuple(size, size, size).map((h) => ({ type: 'box', halfExtents: h.map((x) => x * scale) }) as Shape),
  fc.tuple(size, size).map(([r, h]) => ({ type: 'capsule', radius: r * scale, halfHeight: h * scale }) as Shape),
  fc.tuple(size, size).map(([r, h]) => ({ type: 'cylinder', radius: r * scale, halfHeight: h * scale }) as Shape),
  fc.tuple(size, size).map(([r, h]) => ({ type: 'cone', radius: r * scale, halfHeight: h * scale }) as Shape),
  fc.tuple(size, size, size).map((r) => ({ type: 'ellipsoid', radii: r.map((x) => x * scale) }) as Shape),
  // Random clouds; a flat or tiny one may be refused, which the property treats as a valid answer.
  fc.array(vec, { minLength: 4, maxLength: 14 }).map((ps) => ({ type: 'polytope', points: ps.map((p) => p.map((x) => 2 * x * scale)) }) as Shape),
);

/** A unit quaternion from four numbers (the identity when they are all tiny). */
function quat(q: number[]): [number, number, number, number] {
  const l = Math.hypot(...q);
  return l < 1e-3 ? [0, 0, 0, 1] : [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

/** 7 pose numbers within 3·scale of the origin. */
const poseNumbers = (scale: number) => fc.tuple(vec, fc.tuple(unit, unit, unit, unit))
  .map(([p, q]) => [...p.map((x) => 3 * x * scale), ...quat(q)]);

/** The same pose in each of the forms PoseLike takes (Float32 forms carry their rounded doubles). */
type PoseForm = 'array' | 'float64' | 'object' | 'three';
function poseAs(form: PoseForm, n: readonly number[]): PoseLike {
  switch (form) {
    case 'array': return [...n];
    case 'float64': return new Float64Array(n);
    case 'object': return { position: [n[0], n[1], n[2]], rotation: [n[3], n[4], n[5], n[6]] };
    default: return { position: { x: n[0], y: n[1], z: n[2] }, quaternion: { x: n[3], y: n[4], z: n[5], w: n[6] } };
  }
}
const poseForm = fc.constantFrom<PoseForm>('array', 'float64', 'object', 'three');

/** A pair scene: two specs and two poses at one scale. */
const pairCase = fc.constantFrom(...SCALES).chain((scale) => fc.record({
  scale: fc.constant(scale),
  a: shapeSpec(scale),
  b: shapeSpec(scale),
  pa: poseNumbers(scale),
  pb: poseNumbers(scale),
  formA: poseForm,
  formB: poseForm,
}));

/** Makes the shapes (null when the library refuses a spec, which must be a CollidoscopeError), runs f, disposes. */
function withShapes<T>(specs: Shape[], f: (shapes: ConvexShape[]) => T): T | null {
  const made: ConvexShape[] = [];
  try {
    for (const s of specs) {
      try {
        made.push(createShape(s));
      } catch (e) {
        if (!(e instanceof CollidoscopeError)) throw e;
        return null;
      }
    }
    return f(made);
  } finally {
    for (const s of made) s.dispose();
  }
}

/** f must throw a CollidoscopeError whose field starts with `field`. */
function expectRefused(f: () => unknown, field: string): void {
  let thrown: unknown;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, `no CollidoscopeError for ${field}`).toBeInstanceOf(CollidoscopeError);
  expect(String((thrown as CollidoscopeError).field ?? '')).toMatch(new RegExp(`^${field.replace(/[.[\]]/g, '\\$&')}`));
}

// ------------------------------------------------------------------ properties

describe('pair queries on random shapes and poses (fast-check)', () => {
  it('equal run() of their scene bit for bit, in every pose form', () => {
    check(pairCase, (c) => {
      withShapes([c.a, c.b], ([a, b]) => {
        const pa = poseAs(c.formA, c.pa);
        const pb = poseAs(c.formB, c.pb);
        expect(intersect(a, pa, b, pb)).toEqual(run(sceneOf('intersect', a, c.pa, b, c.pb)));
        expect(distance(a, pa, b, pb)).toEqual(run(sceneOf('distance', a, c.pa, b, c.pb)));
        expect(penetration(a, pa, b, pb)).toEqual(run(sceneOf('penetration', a, c.pa, b, c.pb)));
      });
    });
  });

  it('give distance ≥ 0, the same distance with A and B swapped, and intersect() consistent with it', () => {
    check(pairCase, (c) => {
      withShapes([c.a, c.b], ([a, b]) => {
        const ab = distance(a, c.pa, b, c.pb).distance;
        const ba = distance(b, c.pb, a, c.pa).distance;
        // The default accuracy is 1e-10 of the scene's scale; a swap takes GJK down another path.
        const tol = 1e-8 * c.scale;
        expect(ab).toBeGreaterThanOrEqual(0);
        expect(Math.abs(ab - ba)).toBeLessThanOrEqual(tol);
        const hit = intersect(a, c.pa, b, c.pb).intersecting;
        expect(intersect(b, c.pb, a, c.pa).intersecting === hit || ab <= tol).toBe(true);
        if (hit) expect(ab).toBeLessThanOrEqual(tol);
        if (ab > tol) expect(hit).toBe(false);
      });
    });
  });

  it('read a Float32Array pose as the doubles it holds', () => {
    check(pairCase, (c) => {
      withShapes([c.a, c.b], ([a, b]) => {
        const f32 = new Float32Array(c.pb);
        expect(distance(a, c.pa, b, f32)).toEqual(distance(a, c.pa, b, Array.from(f32)));
      });
    });
  });
});

/** batch() for one query of each kind, with the extras it needs, against the single query. */
const BATCH_QUERIES: BatchQuery[] = ['intersect', 'distance', 'penetration', 'contact', 'raycast', 'shapecast', 'contains', 'project'];

describe('batch() on random shapes (fast-check)', () => {
  it('gives every query bit for bit what the single query returns, with Float64 and Float32 poses', () => {
    const batchCase = fc.constantFrom(...SCALES).chain((scale) => fc.record({
      scale: fc.constant(scale),
      specs: fc.array(shapeSpec(scale), { minLength: 2, maxLength: 5 }),
      poses: fc.array(poseNumbers(scale), { minLength: 5, maxLength: 5 }),
      pairs: fc.array(fc.tuple(fc.nat(4), fc.nat(4)), { minLength: 1, maxLength: 6 }),
      extra: fc.array(fc.tuple(vec, vec), { minLength: 6, maxLength: 6 }),
      query: fc.constantFrom(...BATCH_QUERIES),
      f32: fc.boolean(),
    }));
    check(batchCase, (c) => {
      withShapes(c.specs, (shapes) => {
        const n = shapes.length;
        const flat = c.poses.slice(0, n).flat();
        const poses = c.f32 ? new Float32Array(flat) : new Float64Array(flat);
        const poseOf = (i: number) => Array.from(poses.subarray(7 * i, 7 * i + 7));
        const one = c.query === 'raycast' || c.query === 'contains' || c.query === 'project';
        const pairs = c.pairs.map(([i, j]) => [i % n, j % n]);
        const indices = new Uint32Array(one ? pairs.map((p) => p[0]) : pairs.flat());
        const s = 3 * c.scale;
        const rays = pairs.map((_, k) => [...c.extra[k][0].map((x) => 2 * s * x), ...c.extra[k][1], 4 * s] as number[]);
        const motions = pairs.map((_, k) => [...c.extra[k][0].map((x) => s * x), ...c.extra[k][1].map((x) => s * x)]);
        const points = pairs.map((_, k) => c.extra[k][0].map((x) => s * x) as Vec3);
        const margin = 0.5 * c.scale;
        const options = c.query === 'raycast' ? { rays: new Float64Array(rays.flat()) }
          : c.query === 'shapecast' ? { motions: new Float64Array(motions.flat()) }
          : c.query === 'contains' || c.query === 'project' ? { points: new Float64Array(points.flat()) }
          : c.query === 'contact' ? { margin } : {};
        const out = batch(c.query, shapes, poses, indices, options);
        pairs.forEach(([i, j], k) => {
          const a = shapes[i];
          const b = shapes[j];
          const single = c.query === 'intersect' ? intersect(a, poseOf(i), b, poseOf(j))
            : c.query === 'distance' ? distance(a, poseOf(i), b, poseOf(j))
            : c.query === 'penetration' ? penetration(a, poseOf(i), b, poseOf(j))
            : c.query === 'contact' ? contact(a, poseOf(i), b, poseOf(j), { margin })
            : c.query === 'raycast' ? raycast(a, poseOf(i), { origin: rays[k].slice(0, 3) as Vec3, direction: rays[k].slice(3, 6) as Vec3, maxT: rays[k][6] })
            : c.query === 'shapecast' ? shapecast(a, poseOf(i), b, poseOf(j), { translationA: motions[k].slice(0, 3) as Vec3, translationB: motions[k].slice(3, 6) as Vec3 })
            : c.query === 'contains' ? contains(a, poseOf(i), points[k])
            : (({ feature: _f, ...rest }) => rest)(project(a, poseOf(i), points[k]));
          expect(batchResult(c.query as 'distance', out, k), `${c.query} ${k}`).toEqual(single);
        });
      });
    });
  });
});

describe('bad input (fast-check): a CollidoscopeError naming the field, and nothing else changes', () => {
  const bad = fc.constantFrom(NaN, Infinity, -Infinity);

  it('a non-finite number anywhere in a pose', () => {
    check(fc.tuple(pairCase, fc.nat(6), bad, poseForm), ([c, at, value, form]) => {
      withShapes([c.a, c.b], ([a, b]) => {
        const good = distance(a, c.pa, b, c.pb);
        const n = [...c.pb];
        n[at] = value;
        expectRefused(() => distance(a, c.pa, b, poseAs(form, n)), 'poseB');
        expectRefused(() => intersect(a, poseAs(form, n), b, c.pb), 'poseA');
        expect(distance(a, c.pa, b, c.pb)).toEqual(good);
      });
    });
  });

  it('typed arrays of the wrong length, and detached ones, given to batch()', () => {
    check(fc.tuple(pairCase, fc.integer({ min: -3, max: 3 }).filter((d) => d !== 0), fc.boolean()), ([c, delta, detach]) => {
      withShapes([c.a, c.b], ([a, b]) => {
        const poses = new Float64Array([...c.pa, ...c.pb]);
        const pairs = new Uint32Array([0, 1]);
        const good = Array.from(batch('distance', [a, b], poses, pairs));
        let wrong: Float64Array;
        if (detach) {
          wrong = new Float64Array([...c.pa, ...c.pb]);
          structuredClone(wrong.buffer, { transfer: [wrong.buffer] });
          expect(wrong.length).toBe(0);
        } else {
          wrong = new Float64Array(Math.max(0, 14 + delta));
        }
        expectRefused(() => batch('distance', [a, b], wrong, pairs), 'poses');
        const odd = new Uint32Array(Math.max(1, 2 + delta) | 1);
        expectRefused(() => batch('distance', [a, b], poses, odd), 'pairs');
        expectRefused(() => batch('raycast', [a, b], poses, new Uint32Array([0]), { rays: new Float64Array(7 + delta) }), 'options.rays');
        expect(Array.from(batch('distance', [a, b], poses, pairs))).toEqual(good);
      });
    });
  });

  it('denormal and signed-zero coordinates are numbers like any other: answered, not refused', () => {
    const tiny = fc.constantFrom(5e-324, -5e-324, 2.2e-308, -0, 0);
    check(fc.tuple(pairCase, fc.nat(2), tiny), ([c, at, value]) => {
      withShapes([c.a, c.b], ([a, b]) => {
        const n = [...c.pb];
        n[at] = value;
        const r = distance(a, c.pa, b, n);
        expect(r.distance).toBeGreaterThanOrEqual(0);
        expect(r).toEqual(run(sceneOf('distance', a, c.pa, b, n)));
      });
    });
  });
});

describe('disposal in every order (fast-check)', () => {
  it('a disposed shape is refused by name, the others still answer, and every shape is freed', () => {
    const caseArb = fc.record({
      specs: fc.array(shapeSpec(1), { minLength: 2, maxLength: 6 }),
      order: fc.array(fc.nat(5), { minLength: 1, maxLength: 12 }),
    });
    check(caseArb, (c) => {
      const shapes: ConvexShape[] = [];
      try {
        for (const s of c.specs) {
          try {
            shapes.push(createShape(s));
          } catch (e) {
            if (!(e instanceof CollidoscopeError)) throw e;
          }
        }
        if (shapes.length < 2) return;
        const far = { position: [10, 0, 0] as Vec3 };
        // The answers before any disposal: each shape against the first, 10 apart.
        const first = shapes.map((s) => distance(shapes[0], undefined, s, far).distance);
        for (const k of c.order) {
          const victim = shapes[k % shapes.length];
          victim.dispose();
          victim.dispose(); // twice is harmless
          expect(victim.disposed).toBe(true);
          for (const [i, s] of shapes.entries()) {
            if (s.disposed || shapes[0].disposed) {
              let e: unknown;
              try {
                distance(shapes[0], undefined, s, far);
              } catch (x) {
                e = x;
              }
              expect(e).toBeInstanceOf(CollidoscopeError);
              expect((e as CollidoscopeError).code).toBe('disposed');
            } else {
              expect(distance(shapes[0], undefined, s, far).distance).toBe(first[i]);
            }
          }
        }
      } finally {
        for (const s of shapes) s.dispose();
      }
    });
  });
});

// ------------------------------------------------------------------ batches with every option

/** A small random triangle soup near the origin at `scale`: 1–6 triangles, each a centre plus three offsets. */
const soupSpec = (scale: number, v: fc.Arbitrary<number[]> = vec) => fc.array(fc.tuple(v, v, v, v), { minLength: 1, maxLength: 6 }).map((ts) => {
  const vertices: number[] = [];
  for (const [c, ...corners] of ts) for (const d of corners) vertices.push(...d.map((x, k) => scale * (1.5 * c[k] + 0.7 * x)));
  return { vertices, indices: vertices.map((_, i) => i).filter((i) => i < vertices.length / 3) };
});

/** A compound's children at `scale`: 1–3 convex specs, each at a position within 1.5·scale. */
const compoundSpec = (scale: number) => fc.array(fc.tuple(shapeSpec(scale), vec), { minLength: 1, maxLength: 3 })
  .map((cs) => cs.map(([s, p]) => ({ spec: s, position: p.map((x) => 1.5 * x * scale) as Vec3 })));

type AnySpec = { kind: 'convex'; spec: Shape } | { kind: 'mesh'; soup: { vertices: number[]; indices: number[] } }
  | { kind: 'compound'; children: { spec: Shape; position: Vec3 }[] };
const anySpec = (scale: number): fc.Arbitrary<AnySpec> => fc.oneof(
  { weight: 3, arbitrary: shapeSpec(scale).map((spec) => ({ kind: 'convex', spec }) as AnySpec) },
  { weight: 1, arbitrary: soupSpec(scale).map((soup) => ({ kind: 'mesh', soup }) as AnySpec) },
  { weight: 1, arbitrary: compoundSpec(scale).map((children) => ({ kind: 'compound', children }) as AnySpec) },
);

/** Makes a shape of any kind (null when the library refuses it, which must be a CollidoscopeError). */
function makeAny(s: AnySpec): ConvexShape | null {
  try {
    if (s.kind === 'convex') return createShape(s.spec);
    if (s.kind === 'mesh') return mesh(s.soup.vertices, s.soup.indices);
    const children: { shape: ConvexShape; position: Vec3 }[] = [];
    try {
      for (const c of s.children) children.push({ shape: createShape(c.spec), position: c.position });
      return compound(children);
    } finally {
      for (const c of children) c.shape.dispose();
    }
  } catch (e) {
    if (!(e instanceof CollidoscopeError)) throw e;
    return null;
  }
}

/** withShapes() for specs of any kind: the refused ones are left out. */
function withAny<T>(specs: AnySpec[], f: (shapes: ConvexShape[]) => T): T {
  const made: ConvexShape[] = [];
  try {
    for (const s of specs) {
      const shape = makeAny(s);
      if (shape !== null) made.push(shape);
    }
    return f(made);
  } finally {
    for (const s of made) s.dispose();
  }
}

/** The bits of each number (NaN payloads and −0 included): what "bit for bit" compares. */
const bits = (a: ArrayLike<number>): bigint[] => Array.from(new BigUint64Array(Float64Array.from(a).buffer));

/** The result of f, or the CollidoscopeError it threw (any other error is rethrown). */
function attempt<T>(f: () => T): T | CollidoscopeError {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof CollidoscopeError)) throw e;
    return e;
  }
}

/** A batch case: shapes of every kind (meshes, compounds), poses, queries and their extras at one scale. */
const optionsCase = fc.constantFrom(...SCALES).chain((scale) => fc.record({
  scale: fc.constant(scale),
  specs: fc.array(anySpec(scale), { minLength: 2, maxLength: 5 }),
  poses: fc.array(poseNumbers(scale), { minLength: 5, maxLength: 5 }),
  moved: fc.array(poseNumbers(scale), { minLength: 5, maxLength: 5 }),
  pairs: fc.array(fc.tuple(fc.nat(4), fc.nat(4)), { minLength: 1, maxLength: 6 }),
  extra: fc.array(fc.tuple(vec, vec, size), { minLength: 6, maxLength: 6 }),
  query: fc.constantFrom(...BATCH_QUERIES),
  features: fc.boolean(),
  perPairMargins: fc.boolean(),
  f32: fc.boolean(),
}));

type OptionsCase = typeof optionsCase extends fc.Arbitrary<infer T> ? T : never;

/** The inputs of one batch of `c` over `n` shapes: flat arrays, and each query's single-call arguments. */
function batchInputs(c: OptionsCase, n: number) {
  const one = c.query === 'raycast' || c.query === 'contains' || c.query === 'project';
  const pairs = c.pairs.map(([i, j]) => [i % n, j % n]);
  const s = 3 * c.scale;
  const rays = pairs.map((_, k) => [...c.extra[k][0].map((x) => 2 * s * x), ...c.extra[k][1], 4 * s] as number[]);
  const motions = pairs.map((_, k) => [...c.extra[k][0].map((x) => s * x), ...c.extra[k][1].map((x) => s * x)]);
  const points = pairs.map((_, k) => c.extra[k][0].map((x) => s * x) as Vec3);
  const margins = pairs.map((_, k) => c.extra[k][2] * c.scale);
  const indices = new Uint32Array(one ? pairs.map((p) => p[0]) : pairs.flat());
  return { one, pairs, rays, motions, points, margins, indices };
}

/** The single query k of a batch, as batchResult() decodes it. */
function singleOf(query: BatchQuery, shapes: ConvexShape[], poseOf: (i: number) => number[], inputs: ReturnType<typeof batchInputs>, k: number, cache?: IntersectCache): unknown {
  const [i, j] = inputs.pairs[k];
  const a = shapes[i], b = shapes[j];
  const ray = inputs.rays[k], motion = inputs.motions[k], point = inputs.points[k];
  switch (query) {
    case 'intersect': return intersect(a, poseOf(i), b, poseOf(j), cache ? { cache } : undefined);
    case 'distance': return distance(a, poseOf(i), b, poseOf(j));
    case 'penetration': return penetration(a, poseOf(i), b, poseOf(j));
    case 'contact': return contact(a, poseOf(i), b, poseOf(j), { margin: inputs.margins[k] });
    case 'raycast': return raycast(a, poseOf(i), { origin: ray.slice(0, 3) as Vec3, direction: ray.slice(3, 6) as Vec3, maxT: ray[6] });
    case 'shapecast': return shapecast(a, poseOf(i), b, poseOf(j), { translationA: motion.slice(0, 3) as Vec3, translationB: motion.slice(3, 6) as Vec3 });
    case 'contains': return contains(a, poseOf(i), point);
    // A batch's project has a fixed layout: no `feature`, and no mesh barycentric (that is raycast's option).
    default: return (({ feature: _f, barycentric: _b, ...rest }) => rest)(project(a, poseOf(i), point) as ProjectResult & { barycentric?: Vec3 });
  }
}

describe('batches with every option on shapes of every kind (fast-check)', () => {
  it('batch() and createBatch() with features, barycentric, caches, margins, rays, motions and points equal the single calls bit for bit', () => {
    check(optionsCase, (c) => {
      withAny(c.specs, (shapes) => {
        const n = shapes.length;
        if (n === 0) return;
        const inputs = batchInputs(c, n);
        const q = c.query;
        const count = inputs.pairs.length;
        const caches = q === 'intersect' ? new Float64Array(4 * count) : undefined;
        const singleCaches = inputs.pairs.map(() => new IntersectCache());
        // The same queries in place: buffers made once and kept across both frames (their caches too).
        const live = createBatch(q, shapes, { capacity: count + 1, precision: c.f32 ? 'f32' : 'f64', caches: caches !== undefined, features: c.features, barycentric: q === 'raycast' });
        try {
          // Two frames: the second starts from the caches the first left (a warm start), at moved poses.
          for (const frame of [c.poses, c.moved]) {
            const flat = frame.slice(0, n).flat();
            const poses = c.f32 ? new Float32Array(flat) : new Float64Array(flat);
            const poseOf = (i: number) => Array.from(poses.subarray(7 * i, 7 * i + 7));
            const features = c.features ? new Int32Array(2 * count).fill(-7) : undefined;
            const barycentric = q === 'raycast' ? new Float64Array(3 * count).fill(-7) : undefined;
            // contact: one margin per pair, or the first pair's for all of them as `margin`.
            if (q === 'contact' && !c.perPairMargins) inputs.margins.fill(inputs.margins[0]);
            const options: BatchOptions = {
              ...(q === 'raycast' ? { rays: new Float64Array(inputs.rays.flat()), barycentric } : {}),
              ...(q === 'shapecast' ? { motions: new Float64Array(inputs.motions.flat()) } : {}),
              ...(q === 'contains' || q === 'project' ? { points: new Float64Array(inputs.points.flat()) } : {}),
              ...(q === 'contact' ? (c.perPairMargins ? { margins: new Float64Array(inputs.margins) } : { margin: inputs.margins[0] }) : {}),
              ...(caches ? { caches } : {}),
              ...(features ? { features } : {}),
            };
            const out = attempt(() => batch(q, shapes, poses, inputs.indices, options));
            const singles = inputs.pairs.map((_, k) => attempt(() => singleOf(q, shapes, poseOf, inputs, k, singleCaches[k])));

            live.poses.set(poses);
            live.pairs.set(inputs.indices);
            if (options.rays) live.rays.set(options.rays as Float64Array);
            if (options.motions) live.motions.set(options.motions as Float64Array);
            if (options.points) live.points.set(options.points as Float64Array);
            if (q === 'contact') live.margins.set(inputs.margins);
            const inPlace = attempt(() => live.run(count));

            if (out instanceof CollidoscopeError) {
              // A batch is refused only when one of its queries is, for the same reason; in place too.
              expect(singles.some((s) => s instanceof CollidoscopeError && s.code === out.code), out.message).toBe(true);
              expect(inPlace instanceof CollidoscopeError && inPlace.code, 'createBatch() refuses what batch() refuses').toBe(out.code);
              return;
            }
            singles.forEach((single, k) => {
              // Without `features` a batch names no triangle or child (the single query always does).
              const want = features || single === null ? single : (({ triangle: _t, child: _c, childA: _a, childB: _b, ...rest }) => rest)(single as Record<string, unknown>);
              const extras = features || barycentric ? { features, barycentric, shapes, pairs: inputs.indices } : undefined;
              expect(batchResult(q as 'distance', out, k, extras), `${q} ${k}`).toEqual(want);
              if (caches) expect(bits(caches.subarray(4 * k, 4 * k + 4)), `cache ${k}`).toEqual(bits(singleCaches[k].data));
            });
            // Asking for features changes no result (with caches the second frame's warm start would differ).
            if (features && !caches) expect(bits(batch(q, shapes, poses, inputs.indices, { ...options, features: undefined }))).toEqual(bits(out));
            // createBatch(): the same inputs written in place give batch()'s numbers bit for bit.
            if (inPlace instanceof CollidoscopeError) throw inPlace;
            expect(bits(inPlace), 'createBatch out').toEqual(bits(out));
            if (caches) expect(bits(live.caches.subarray(0, 4 * count)), 'createBatch caches').toEqual(bits(caches));
            if (features) expect(Array.from(live.features.subarray(0, 2 * count)), 'createBatch features').toEqual(Array.from(features));
            if (barycentric) expect(bits(live.barycentric.subarray(0, 3 * count)), 'createBatch barycentric').toEqual(bits(barycentric));
          }
        } finally {
          live.dispose();
        }
      });
    }, MESH_HEAP_SLACK);
  });
});

// ------------------------------------------------------------------ wrong lengths and detached buffers

/** A typed array like `like` whose buffer has been transferred away (detached): it reads as length 0. */
function detached<T extends Float64Array | Float32Array | Uint32Array | Int32Array>(like: T): T {
  const copy = like.slice() as T;
  structuredClone(copy.buffer, { transfer: [copy.buffer] });
  return copy;
}

/** The typed-array arguments of batch(), with the queries that take each. */
const BATCH_FIELDS = [
  ['poses', ['distance', 'raycast']], ['pairs', ['intersect', 'distance', 'contact']], ['options.rays', ['raycast']],
  ['options.motions', ['shapecast']], ['options.points', ['contains', 'project']], ['options.margins', ['contact']],
  ['options.caches', ['intersect']], ['options.out', ['distance', 'raycast', 'contact']],
  ['options.features', ['distance', 'raycast']], ['options.barycentric', ['raycast']],
] as const;

describe('typed arrays of wrong lengths and detached buffers (fast-check)', () => {
  const fieldCase = fc.tuple(
    pairCase,
    fc.constantFrom(...BATCH_FIELDS).chain(([field, queries]) => fc.tuple(fc.constant(field), fc.constantFrom<BatchQuery>(...queries))),
    fc.integer({ min: 1, max: 3 }),
    fc.integer({ min: -3, max: 3 }),
    fc.boolean(),
    fc.boolean(),
  );

  it('batch() refuses each one with a CollidoscopeError naming the field, and answers as before after', () => {
    check(fieldCase, ([c, [field, q], count, delta, detach, f32]) => {
      withShapes([c.a, c.b], ([a, b]) => {
        const one = q === 'raycast' || q === 'contains' || q === 'project';
        const pairs = new Uint32Array(Array.from({ length: (one ? 1 : 2) * count }, (_, i) => i % 2));
        const s = c.scale;
        const good: Record<string, Float64Array | Float32Array | Uint32Array | Int32Array> = {
          poses: f32 ? new Float32Array([...c.pa, ...c.pb]) : new Float64Array([...c.pa, ...c.pb]),
          pairs,
          'options.rays': new Float64Array(Array.from({ length: count }, () => [-4 * s, 0, 0, 1, 0, 0, 8 * s]).flat()),
          'options.motions': new Float64Array(Array.from({ length: count }, () => [s, 0, 0, 0, 0, 0]).flat()),
          'options.points': new Float64Array(Array.from({ length: count }, () => [0, s, 0]).flat()),
          'options.margins': new Float64Array(count).fill(0.1 * s),
          'options.caches': new Float64Array(4 * count),
          'options.out': new Float64Array(batchLayout(q).stride * count),
          'options.features': new Int32Array(2 * count),
          'options.barycentric': new Float64Array(3 * count),
        };
        const call = (args: typeof good) => {
          const options: BatchOptions = {};
          if (q === 'raycast') options.rays = args['options.rays'] as Float64Array;
          if (q === 'shapecast') options.motions = args['options.motions'] as Float64Array;
          if (q === 'contains' || q === 'project') options.points = args['options.points'] as Float64Array;
          if (q === 'contact') options.margins = args['options.margins'] as Float64Array;
          if (field === 'options.caches') options.caches = args['options.caches'] as Float64Array;
          if (field === 'options.out') options.out = args['options.out'] as Float64Array;
          if (field === 'options.features') options.features = args['options.features'] as Int32Array;
          if (field === 'options.barycentric') options.barycentric = args['options.barycentric'] as Float64Array;
          return Array.from(batch(q, [a, b], args.poses, args.pairs, options));
        };
        // Fresh caches each time: a call updates them, and warm-started answers may take fewer iterations.
        const fresh = () => ({ ...good, 'options.caches': new Float64Array(4 * count) });
        const before = call(fresh());
        const g = good[field];
        // A wrong length: off by `delta` numbers where the count is exact, short where it is "at least"; pairs:
        // an odd count of indices for a pair query (a whole number of pairs would just be another batch).
        const atLeast = field === 'options.out' || field === 'options.features' || field === 'options.barycentric';
        const length = field === 'pairs' ? Math.max(1, 2 * count + (delta % 2 === 0 ? 1 : delta))
          : atLeast ? Math.max(0, g.length - Math.abs(delta || 1)) : Math.max(0, g.length + (delta || 1));
        const wrong = detach ? detached(g) : new (g.constructor as new (n: number) => typeof g)(length);
        expect(wrong.length).not.toBe(g.length);
        expectRefused(() => call({ ...good, [field]: wrong }), field);
        expect(call(fresh()), 'the module answers as before').toEqual(before);
      });
    });
  });

  it('a detached buffer as a pose of the single queries or of a World is refused by name, the pose kept', () => {
    check(fc.tuple(pairCase, poseForm), ([c, form]) => {
      withShapes([c.a, c.b], ([a, b]) => {
        const good = distance(a, c.pa, b, c.pb);
        const gone = detached(new Float64Array(c.pb));
        expectRefused(() => distance(a, c.pa, b, gone), 'poseB');
        expectRefused(() => intersect(a, gone, b, poseAs(form, c.pb)), 'poseA');
        expectRefused(() => raycast(a, gone, { origin: [0, 0, 0], direction: [1, 0, 0] }), 'pose');
        const world = new World();
        try {
          const body = world.add(a, c.pa);
          expectRefused(() => world.add(b, gone), 'pose');
          expectRefused(() => world.setPose(body, gone), 'pose');
          expect(Array.from(world.pose(body))).toEqual(Array.from(poseArray(c.pa)));
        } finally {
          world.dispose();
        }
        expect(distance(a, c.pa, b, c.pb)).toEqual(good);
      });
    });
  });
});

// Inputs these properties found, kept as fixed cases.
describe('regressions found by the properties', () => {
  it('a detached pairs array is refused by name (it threw a TypeError from inside batch())', () => {
    withShapes([{ type: 'sphere', radius: 1 }, { type: 'box', halfExtents: [1, 1, 1] }], ([a, b]) => {
      const poses = new Float64Array([0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 1]);
      for (const q of ['distance', 'raycast'] as const) {
        const extra = q === 'raycast' ? { rays: new Float64Array([-5, 0, 0, 1, 0, 0, 10]) } : {};
        expectRefused(() => batch(q, [a, b], poses, detached(new Uint32Array(q === 'raycast' ? [0] : [0, 1])), extra), 'pairs');
        const empty = { ...extra, ...(q === 'raycast' ? { rays: new Float64Array(0) } : {}) };
        expectRefused(() => batch(q, [a, b], poses, new Uint32Array(0), { ...empty, out: detached(new Float64Array(4)) }), 'options.out');
        expect(batch(q, [a, b], poses, new Uint32Array(0), empty).length, 'an empty batch stays a valid batch').toBe(0);
      }
    });
  });

  it("raycast()'s barycentric coordinates on a mesh write a zero as +0, as batch() and run() do", () => {
    // A one-triangle mesh hit at u = 1 − 6.3e-11, v = 0: the registry computed v as −0.
    const m = mesh([1.6721535675884094e-107, -7.884890740392503e-182, 7.181483731896888e-45, -7.261263440025606e-65, -1.994667914122626e-270,
      -0.0000028772953750570733, -9.39758908390691e-149, 0.000005139759316128342, 4.2633558222624437e-275], [0, 1, 2]);
    try {
      const pose = [0, -3.2523546542771482e-16, -7.068444193780814e-83, 0, 0, 0, 1];
      const rays = new Float64Array([8.804843039672653e-241, 0, 3.680600376956417e-40, 3.602746075595156e-183, -2.674365412348191e-123, 6.535520295516941e-126, 0.012]);
      const ray = { origin: Array.from(rays.subarray(0, 3)) as Vec3, direction: Array.from(rays.subarray(3, 6)) as Vec3, maxT: rays[6] };
      const single = raycast(m, pose, ray) as RaycastResult & { barycentric: Vec3 | null };
      const barycentric = new Float64Array(3);
      batch('raycast', [m], new Float64Array(pose), new Uint32Array([0]), { rays, barycentric });
      expect(single.hit).toBe(true);
      expect(single.barycentric).not.toBeNull();
      expect(bits(single.barycentric as Vec3)).toEqual(bits(barycentric));
      expect(Object.is(barycentric[1], 0)).toBe(true);
      expect((run(sceneOf('raycast', m, pose, ray)) as { barycentric?: Vec3 }).barycentric).toEqual(single.barycentric);
    } finally {
      m.dispose();
    }
  });
});

// ------------------------------------------------------------------ disposal of every kind of object

/** One step of a random life: make an object, dispose one (again, perhaps), use one, or put a shape in a world. */
type LifeStep =
  | { op: 'make'; kind: 'shape' | 'mesh' | 'compound' | 'world'; spec: AnySpec }
  | { op: 'dispose' | 'use'; at: number }
  | { op: 'add'; world: number; shape: number };

const lifeStep: fc.Arbitrary<LifeStep> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('make' as const), kind: fc.constantFrom('shape' as const, 'mesh' as const, 'compound' as const, 'world' as const), spec: anySpec(1) })
    .map((s): LifeStep => {
      // The kind decides; the spec supplies the numbers when they fit it (a shape, a mesh, a compound).
      if (s.kind === 'world' || s.spec.kind === (s.kind === 'shape' ? 'convex' : s.kind)) return s;
      return { ...s, spec: s.kind === 'shape' ? { kind: 'convex', spec: { type: 'sphere', radius: 0.5 } }
        : s.kind === 'mesh' ? { kind: 'mesh', soup: { vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 2] } }
        : { kind: 'compound', children: [{ spec: { type: 'box', halfExtents: [0.2, 0.3, 0.4] }, position: [0.5, 0, 0] }] } };
    }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('dispose' as const), at: fc.nat(20) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('use' as const), at: fc.nat(20) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('add' as const), world: fc.nat(20), shape: fc.nat(20) }) },
);

/** f must throw CollidoscopeError 'disposed' naming `field` (a string, or a pattern for a slot's name). */
function expectDisposed(f: () => unknown, field: string | RegExp): void {
  let thrown: unknown;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, `no CollidoscopeError for ${String(field)}`).toBeInstanceOf(CollidoscopeError);
  const e = thrown as CollidoscopeError;
  if (typeof field === 'string') {
    expect(e.code, e.message).toBe('disposed');
    expect(e.field, e.message).toBe(field);
  } else {
    expect(e.field, e.message).toMatch(field);
  }
}

describe('disposal of shapes, meshes, compounds and worlds in every order (fast-check)', () => {
  it('live counts follow every create and dispose, a disposed object is refused by name, and all return to the start', () => {
    check(fc.array(lifeStep, { minLength: 4, maxLength: 30 }), (steps) => {
      const start = stats();
      const objects: (ConvexShape | World)[] = [];
      const bodies = new Map<World, Body[]>();
      const probe = createShape({ type: 'sphere', radius: 0.25 });
      const far = { position: [5, 0, 0] as Vec3 };
      try {
        for (const step of steps) {
          if (step.op === 'make') {
            if (step.kind === 'world') {
              const w = new World();
              objects.push(w);
              bodies.set(w, []);
            } else {
              const s = makeAny(step.spec);
              if (s !== null) objects.push(s);
            }
          } else if (objects.length > 0 && step.op === 'dispose') {
            const o = objects[step.at % objects.length];
            o.dispose(); // a second time too, now and then: harmless
            expect(o.disposed).toBe(true);
          } else if (objects.length > 0 && step.op === 'use') {
            const o = objects[step.at % objects.length];
            if (o instanceof World) {
              if (o.disposed) {
                expectDisposed(() => o.pairs(), 'world');
                expectDisposed(() => o.add(probe), 'world');
              } else if (bodies.get(o)!.some((b) => b.shape.disposed)) {
                // A body whose shape was disposed under it is named by its slot; the world still answers.
                expectDisposed(() => o.pairs(), /^bodies\[\d+\]\.shape$/);
              } else {
                const pairs = o.pairs();
                expect(pairs.every(([a, b]) => a.slot < b.slot)).toBe(true);
              }
            } else if (o.disposed) {
              expectDisposed(() => distance(o, undefined, probe, far), 'a');
              expectDisposed(() => distance(probe, undefined, o, far), 'b');
              expectDisposed(() => raycast(o, undefined, { origin: [-5, 0, 0], direction: [1, 0, 0] }), 'shape');
              expectDisposed(() => o.spec(), 'shape');
              expectDisposed(() => batch('raycast', [probe, o], new Float64Array([0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]), new Uint32Array([1]), { rays: new Float64Array([-5, 0, 0, 1, 0, 0, 10]) }), 'shapes[1]');
            } else {
              const r = attempt(() => raycast(o, undefined, { origin: [-5, 0.01, 0.02], direction: [1, 0, 0] }));
              if (r instanceof CollidoscopeError) throw r;
              expect(typeof r.hit).toBe('boolean');
            }
          } else if (step.op === 'add') {
            // A world and a shape among those made (live or disposed), when there are both.
            const worlds = objects.filter((o): o is World => o instanceof World);
            const shapes = objects.filter((o): o is ConvexShape => !(o instanceof World));
            if (worlds.length === 0 || shapes.length === 0) continue;
            const w = worlds[step.world % worlds.length];
            const s = shapes[step.shape % shapes.length];
            if (w.disposed) expectDisposed(() => w.add(s), 'world');
            else if (s.disposed) expectDisposed(() => w.add(s), 'shape');
            else bodies.get(w)!.push(w.add(s, { position: [0.1 * bodies.get(w)!.length, 0, 0] }));
          }
          // The live counts follow the objects exactly (the probe is one shape).
          const now = stats();
          expect(now.liveShapes - start.liveShapes).toBe(1 + objects.filter((o) => !(o instanceof World) && !o.disposed).length);
          expect(now.liveWorlds - start.liveWorlds).toBe(objects.filter((o) => o instanceof World && !o.disposed).length);
        }
      } finally {
        for (const o of objects) o.dispose();
        probe.dispose();
      }
      expect(stats().liveShapes).toBe(start.liveShapes);
      expect(stats().liveWorlds).toBe(start.liveWorlds);
    }, MESH_HEAP_SLACK);
  });
});

// ------------------------------------------------------------------ worlds and meshes against brute force

/** p moved by a pose [x, y, z, qx, qy, qz, qw]: rotated by the unit quaternion, then translated. */
function posed(pose: readonly number[], p: readonly number[]): number[] {
  const [x, y, z, qx, qy, qz, qw] = pose;
  // v + 2w(q × v) + 2q × (q × v), q the quaternion's vector part.
  const c1 = [qy * p[2] - qz * p[1], qz * p[0] - qx * p[2], qx * p[1] - qy * p[0]];
  const c2 = [qy * c1[2] - qz * c1[1], qz * c1[0] - qx * c1[2], qx * c1[1] - qy * c1[0]];
  return [x + p[0] + 2 * (qw * c1[0] + c2[0]), y + p[1] + 2 * (qw * c1[1] + c2[1]), z + p[2] + 2 * (qw * c1[2] + c2[2])];
}

/** The distance from p to the segment ab. */
function pointSegment(p: readonly number[], a: readonly number[], b: readonly number[]): number {
  const ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const ap = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
  const l2 = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2];
  const u = l2 > 0 ? Math.min(1, Math.max(0, (ap[0] * ab[0] + ap[1] * ab[1] + ap[2] * ab[2]) / l2)) : 0;
  return Math.hypot(ap[0] - u * ab[0], ap[1] - u * ab[1], ap[2] - u * ab[2]);
}

describe('worlds and meshes against brute force (fast-check)', () => {
  // Evenly spread numbers (fast-check's doubles favour 0 and tiny values: bodies would pile up at the origin, and
  // rays would run along axes through vertices and edges, grazes that cannot be compared beyond the accuracy).
  const even = fc.integer({ min: -1e6, max: 1e6 }).map((x) => x / 1e6);
  const evenVec = fc.tuple(even, even, even);
  const evenPose = (scale: number) => fc.tuple(evenVec, fc.tuple(even, even, even, even)).map(([p, q]) => [...p.map((x) => 3 * x * scale), ...quat(q)]);

  const worldCase = fc.record({
    specs: fc.array(anySpec(1), { minLength: 1, maxLength: 5 }),
    bodies: fc.array(fc.tuple(fc.nat(4), evenPose(1)), { minLength: 2, maxLength: 10 }),
    frames: fc.array(fc.array(fc.tuple(fc.nat(9), fc.constantFrom('move', 'teleport', 'remove', 'add'), evenPose(1)), { maxLength: 4 }), { minLength: 1, maxLength: 3 }),
    broadphase: fc.constantFrom('sweep-and-prune' as const, 'tree' as const),
  });

  /** intersect() on every pair of live bodies, by slot: the pairs World.pairs() must find. */
  function bruteForcePairs(world: World, live: Body[]): number[] {
    const bySlot = [...live].sort((a, b) => a.slot - b.slot);
    const out: number[] = [];
    for (let i = 0; i < bySlot.length; i++) {
      for (let j = i + 1; j < bySlot.length; j++) {
        const a = bySlot[i], b = bySlot[j];
        if (intersect(a.shape, world.pose(a), b.shape, world.pose(b)).intersecting) out.push(a.slot, b.slot);
      }
    }
    return out;
  }

  it('World.pairs() is intersect() on every pair of bodies, as bodies move, teleport, leave and come back', () => {
    check(worldCase, (c) => {
      withAny(c.specs, (shapes) => {
        if (shapes.length === 0) return;
        const world = new World({ broadphase: c.broadphase });
        try {
          const live = c.bodies.map(([k, pose]) => world.add(shapes[k % shapes.length], pose));
          expect(Array.from(world.pairSlots())).toEqual(bruteForcePairs(world, live));
          for (const frame of c.frames) {
            for (const [k, what, pose] of frame) {
              if (live.length === 0 && what !== 'add') continue;
              const i = k % Math.max(1, live.length);
              if (what === 'move') {
                // A small step through the pose view, as a game writes it.
                const view = world.poses();
                for (let d = 0; d < 3; d++) view[7 * live[i].slot + d] += 0.1 * pose[d];
              } else if (what === 'teleport') {
                world.setPose(live[i], pose);
              } else if (what === 'remove') {
                world.remove(live[i]);
                live.splice(i, 1);
              } else {
                live.push(world.add(shapes[k % shapes.length], pose));
              }
            }
            const got = Array.from(world.pairSlots());
            expect(got).toEqual(bruteForcePairs(world, live));
            expect(world.pairs().map(([a, b]) => [a.slot, b.slot]).flat()).toEqual(got);
          }
        } finally {
          world.dispose();
        }
      });
    }, MESH_HEAP_SLACK);
  });

  const meshRayCase = fc.constantFrom(...SCALES).chain((scale) => fc.record({
    scale: fc.constant(scale),
    soup: soupSpec(scale, evenVec),
    pose: evenPose(scale),
    origin: evenVec,
    aim: fc.tuple(fc.nat(), even, even, even),
    reach: size,
  }));

  it("a mesh's raycast() is the nearest hit of triangle() shapes, one per triangle", () => {
    check(meshRayCase, (c) => {
      let m: MeshShape;
      try {
        m = mesh(c.soup.vertices, c.soup.indices);
      } catch (e) {
        if (!(e instanceof CollidoscopeError)) throw e;
        return;
      }
      const tris: ConvexShape[] = [];
      try {
        const s = c.scale;
        // From a point of a cube of side 8·scale towards a point of one triangle (its corners weighted by the aim),
        // and on past it (maxT > 1): most rays hit, and the others miss near the mesh.
        const origin = c.origin.map((x) => 4 * s * x) as Vec3;
        const [which, ...w] = c.aim;
        const n = c.soup.indices.length / 3;
        const weights = w.map((x) => x + 0.8);
        const corner = (k: number) => c.soup.vertices.slice(3 * c.soup.indices[3 * (which % n) + k], 3 * c.soup.indices[3 * (which % n) + k] + 3);
        const local = [0, 1, 2].map((d) => (weights[0] * corner(0)[d] + weights[1] * corner(1)[d] + weights[2] * corner(2)[d]) / (weights[0] + weights[1] + weights[2]));
        const target = posed(c.pose, local);
        const direction = target.map((x, k) => x - origin[k]) as Vec3;
        const ray = { origin, direction, maxT: 1 + c.reach };
        const got = raycast(m, c.pose, ray) as RaycastResult;
        let best: RaycastResult | null = null;
        let bestIndex = -1;
        // The mesh skips the triangles it reports degenerate (no normal: zero area or too thin); so does the reference.
        const skipped = new Set(m.report.degenerate);
        for (let t = 0; t < c.soup.indices.length / 3; t++) {
          if (skipped.has(t)) continue;
          const p = (k: number) => c.soup.vertices.slice(3 * c.soup.indices[3 * t + k], 3 * c.soup.indices[3 * t + k] + 3) as Vec3;
          let tri: ConvexShape;
          try {
            tri = triangle(p(0), p(1), p(2));
          } catch (e) {
            // A triangle the mesh keeps may still be too flat for a triangle() shape: then no reference for it.
            if (!(e instanceof CollidoscopeError)) throw e;
            throw new Error(`triangle ${t} is refused as a shape (${e.message}) but not reported degenerate by the mesh`);
          }
          tris.push(tri);
          const r = raycast(tri, c.pose, ray);
          if (r.hit && (best === null || (r.t as number) < (best.t as number))) {
            best = r;
            bestIndex = t;
          }
        }
        const length = Math.hypot(...direction);
        // The two ray–triangle tests differ within their accuracy: t within 1e-9 of the scale (in units of the
        // direction). Beyond it only a grazing ray may tell them apart: the earlier hit (or the only one) lies on
        // an edge of its triangle, within 1e-9 of the scale (a needle thinner than that is all edge).
        const tol = (1e-9 * s) / length;
        const grazes = (hit: RaycastResult, t: number) => {
          const corners = [0, 1, 2].map((k) => posed(c.pose, c.soup.vertices.slice(3 * c.soup.indices[3 * t + k], 3 * c.soup.indices[3 * t + k] + 3)));
          const d = Math.min(...[0, 1, 2].map((k) => pointSegment(hit.point as number[], corners[k], corners[(k + 1) % 3])));
          expect(d, `${hit === got ? 'the mesh' : `triangle ${t}`} hit at t = ${hit.t}, ${d} from an edge`).toBeLessThanOrEqual(1e-9 * s);
        };
        const meshTriangle = (got as RaycastResult & { triangle: number | null }).triangle as number;
        if (got.hit && best !== null) {
          if (Math.abs((got.t as number) - (best.t as number)) > tol) {
            if ((got.t as number) < (best.t as number)) grazes(got, meshTriangle);
            else grazes(best, bestIndex);
          }
        } else if (got.hit) {
          grazes(got, meshTriangle);
        } else if (best !== null) {
          grazes(best, bestIndex);
        }
      } finally {
        m.dispose();
        for (const t of tris) t.dispose();
      }
    }, MESH_HEAP_SLACK);
  });
});
