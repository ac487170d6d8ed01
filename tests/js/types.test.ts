import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './vectors';

describe('TypeScript', () => {
  it('tsc --noEmit type-checks the library, the page, the hand-written wasm types and the tests', () => {
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', root], { cwd: root, encoding: 'utf8', timeout: 240_000 });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 240_000);
});
