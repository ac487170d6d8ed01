import { describe, expect, it } from 'vitest';
import { CollidoscopeError, run } from '../../web/lib/index';

describe('before init()', () => {
  it('run throws a clear not-initialized error', () => {
    try {
      run({ version: 1, query: 'distance', shapes: [{ type: 'point' }, { type: 'point' }] });
      throw new Error('run did not throw');
    } catch (e) {
      expect(e).toBeInstanceOf(CollidoscopeError);
      expect((e as CollidoscopeError).code).toBe('not-initialized');
      expect((e as CollidoscopeError).message).toMatch(/init\(\)/);
    }
  });
});
