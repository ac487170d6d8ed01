// Small helpers shared by the JS tests.
import { expect } from 'vitest';
import {
  box, capsule, CollidoscopeError, cone, ConvexShape, cylinder, ellipsoid, point, polytope, segment, sphere, triangle, type Vec3,
} from '../../web/lib/index';

/** Runs f, which must throw a CollidoscopeError; returns it. */
export function catchError(f: () => unknown): CollidoscopeError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollidoscopeError);
    return e as CollidoscopeError;
  }
  throw new Error('expected a CollidoscopeError, nothing was thrown');
}

/**
 * Runs f, which must be refused with CollidoscopeError 'out-of-memory' naming `field`, its message matching `message`;
 * returns the error.
 */
export function expectOutOfMemory(f: () => unknown, field: string | null, message: RegExp = /wasm memory/): CollidoscopeError {
  const e = catchError(f);
  expect(e.code).toBe('out-of-memory');
  expect(e.field).toBe(field);
  expect(e.message).toMatch(message);
  return e;
}

/** A call that must throw `invalid-argument`, the field it must name, and what its detail must say. */
export type InvalidCase = [() => unknown, string, RegExp];

/** Each case throws a CollidoscopeError 'invalid-argument' naming its field, with a detail matching its pattern. */
export function expectInvalidArguments(cases: readonly InvalidCase[]): void {
  for (const [f, field, message] of cases) {
    const e = catchError(f);
    expect(e.code, field).toBe('invalid-argument');
    expect(e.field, e.message).toBe(field);
    expect(e.detail, field).toMatch(message);
  }
}

/**
 * The trace of an algorithm's steps: t itself, which must not be a closed form's one frame (pairs of points,
 * spheres, segments and capsules are answered by closed forms; these scenes are not such pairs).
 */
export function stepsOf<T extends { query: string }>(t: T): Exclude<T, { closedForm: unknown }> {
  expect((t as { closedForm?: unknown }).closedForm, 'a trace of steps, not a closed form').toBeUndefined();
  return t as Exclude<T, { closedForm: unknown }>;
}

/** A pose as 7 numbers: a position in a cube of side `spread` around the origin, a uniform-ish unit quaternion. */
export function randomPose(rand: () => number, spread: number): number[] {
  const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
  const n = Math.hypot(...q);
  return [(rand() - 0.5) * spread, (rand() - 0.5) * spread, (rand() - 0.5) * spread, ...q.map((c) => c / n)];
}

/** A seeded uniform generator in [0, 1) (mulberry32, the page's): the same seed, the same inputs. */
export { seededRandom as seeded } from '../../web/viz/cloud';

/** One convex shape of every type, and rounded ones, sized and placed from `rand`. */
export function everyConvexShape(rand: () => number): ConvexShape[] {
  const r = () => 0.2 + rand();
  const p = (): Vec3 => [rand() - 0.5, rand() - 0.5, rand() - 0.5];
  return [
    point(), point({ margin: 0.1 }), sphere(r()), box([r(), r(), r()]), capsule(r(), r()), cylinder(r(), r()),
    cone(r(), r()), ellipsoid([r(), r(), r()]), segment(p(), p()), triangle(p(), p(), p()),
    polytope(Array.from({ length: 9 }, p)), box([r(), r(), r()], { margin: 0.05 }),
  ];
}
