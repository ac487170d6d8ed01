// Small helpers shared by the JS tests.
import { expect } from 'vitest';
import { CollidoscopeError } from '../../web/lib/index';

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
