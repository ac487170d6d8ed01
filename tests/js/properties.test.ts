// Property tests of the JS API (fast-check): random shapes at every scale from 1e-6 to 1e6, random poses in
// every form the API takes (arrays, Float64Array, Float32Array, { position, rotation }, three.js-like objects),
// hostile values (NaN, infinities, denormals, wrong lengths, detached buffers) and disposal in every order.
// Invariants:
// - the object API's answer is run() of its scene (sceneOf) bit for bit, and batch() gives it bit for bit;
// - distance ≥ 0, symmetric in A and B within the accuracy, and consistent with intersect();
// - the same pose in any form gives the same bits (a Float32Array is the doubles it rounds to);
// - every bad input throws a CollidoscopeError naming the field, and leaves the module answering as before;
// - after every property, the live shapes and the wasm heap are where they started.
//
// `npm test` runs each property PROPERTY_RUNS times (default 60) from PROPERTY_SEED (default 20261127), so a
// failure replays; `PROPERTY_RUNS=20000 PROPERTY_SEED=$RANDOM npx vitest run tests/js/properties.test.ts`
// runs a long search. fast-check shrinks a failure to a small counterexample and prints its seed and path.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batch, batchResult, CollidoscopeError, contact, contains, createShape, distance, init, intersect, penetration,
  project, raycast, run, sceneOf, shapecast, stats,
  type BatchQuery, type ConvexShape, type PoseLike, type Shape, type Vec3,
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
 * run again (same seed) must not raise it further, and no shape may stay alive.
 */
function check<T>(arb: fc.Arbitrary<T>, predicate: (v: T) => void): void {
  const live = stats().liveShapes;
  fc.assert(fc.property(arb, predicate), params);
  const heap = stats().heapBytes;
  fc.assert(fc.property(arb, predicate), params);
  expect(stats().heapBytes).toBe(heap);
  expect(stats().liveShapes).toBe(live);
}

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
