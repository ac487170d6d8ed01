import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeLink, init, run, type Scene } from '../../web/lib/index';
import { expected, galleryFiles, root, sceneDir, vectorDir } from './vectors';

const cli = join(root, 'web', 'dist', 'lib', 'cli.mjs');

function collidoscope(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', input, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  await init();
});

describe('collidoscope run', () => {
  for (const [name, exp] of Object.entries(expected)) {
    it(`answers ${name} like the analytic reference`, () => {
      const r = collidoscope(['run', join(vectorDir, `${name}.json`)]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      if (exp.distance !== undefined) expect(Math.abs(out.distance - exp.distance)).toBeLessThanOrEqual(exp.tolerance);
      if (exp.intersecting !== undefined) expect(out.intersecting).toBe(exp.intersecting);
    });
  }

  it('runs every gallery scene and prints what the API returns', () => {
    for (const file of galleryFiles()) {
      const r = collidoscope(['run', join(sceneDir, file)]);
      expect(r.code, file).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(run(readScene(join(sceneDir, file))));
    }
  });

  it('reads the scene from standard input with -', () => {
    const r = collidoscope(['run', '-'], JSON.stringify({ version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: 1 }, { type: 'sphere', radius: 1, position: [0, 5, 0] }] }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).distance).toBe(3);
  });

  it('runs a "contact" scene: unit spheres 2.5 apart have a contact at margin 0.5, none at margin 0.25', () => {
    const scene = (margin: number) => JSON.stringify({
      version: 1, query: 'contact', margin, shapes: [{ type: 'sphere', radius: 1 }, { type: 'sphere', radius: 1, position: [2.5, 0, 0] }],
    });
    const near = collidoscope(['run', '-'], scene(0.5));
    expect(near.code).toBe(0);
    expect(JSON.parse(near.stdout)).toMatchObject({ contact: true, distance: 0.5, normal: [1, 0, 0], pointA: [1, 0, 0], pointB: [1.5, 0, 0] });
    const far = collidoscope(['run', '-'], scene(0.25));
    expect(far.code).toBe(0);
    expect(JSON.parse(far.stdout)).toMatchObject({ contact: false, distance: null, normal: null });
  });
});

function readScene(path: string): Scene {
  return JSON.parse(readFileSync(path, 'utf8')) as Scene;
}

describe('collidoscope run on the EPA hard cases (shared/vectors/epa)', () => {
  const epaDir = join(root, 'shared', 'vectors', 'epa');
  const epaExpected = JSON.parse(readFileSync(join(epaDir, 'expected.json'), 'utf8')) as Record<string, {
    depth: number; tolerance: number; intersecting: boolean; statusMayBe?: string[]; uncertifiedTolerance?: number;
  }>;
  for (const [name, exp] of Object.entries(epaExpected)) {
    it(`${name}: depth within its tolerance (the wasm build, as native)`, () => {
      const r = collidoscope(['run', join(epaDir, `${name}.json`)]);
      expect(r.stderr).toBe('');
      const out = JSON.parse(r.stdout);
      expect(out.intersecting).toBe(exp.intersecting);
      const allowedLoose = out.status !== 'converged' && out.status !== 'touching' && exp.statusMayBe?.includes(out.status);
      const tol = allowedLoose ? (exp.uncertifiedTolerance as number) : exp.tolerance;
      if (!allowedLoose) expect(['converged', 'touching']).toContain(out.status);
      expect(Math.abs(out.depth - exp.depth)).toBeLessThanOrEqual(tol);
    });
  }
});

describe('collidoscope trace and link', () => {
  it('trace prints pseudocode and frames ending in the result', () => {
    const r = collidoscope(['trace', join(vectorDir, 'cylinders-side-by-side.json')]);
    expect(r.code).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(t.pseudocode.length).toBeGreaterThan(5);
    expect(t.frames.length).toBeGreaterThan(2);
    expect(t.frames[t.frames.length - 1].kind).toBe('done');
    // A box and a sphere: the closed form's one frame.
    const c = collidoscope(['trace', join(vectorDir, 'sphere-box.json')]);
    expect(c.code).toBe(0);
    const closed = JSON.parse(c.stdout);
    expect(closed.closedForm).toBe('box-point');
    expect(closed.pseudocode).toHaveLength(3);
    expect(closed.frames).toHaveLength(1);
    expect(closed.result.distance).toBeCloseTo(Math.sqrt(18) - 0.5, 12);
  });

  it('ends quietly when the reader closes the pipe early (trace | head)', async () => {
    // The box stack's trace is megabytes of JSON, far more than a pipe holds: the CLI is still writing when the
    // reader goes away after its first chunk.
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [cli, 'trace', join(sceneDir, '75-world-box-stack.json')], { cwd: root });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    let first = '';
    child.stdout.once('data', (d) => {
      first = String(d);
      child.stdout.destroy();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(first.startsWith('{')).toBe(true);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('link prints a permalink that decodes to the same scene', () => {
    const file = join(sceneDir, galleryFiles()[0]);
    const r = collidoscope(['link', file, '--base', 'https://example.org/viz/']);
    expect(r.code).toBe(0);
    const link = r.stdout.trim();
    expect(link.startsWith('https://example.org/viz/#v1=')).toBe(true);
    expect(decodeLink(link)).toEqual(readScene(file));
  });
});

describe('bad scene files: a message naming the field, exit code 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'collidoscope-cli-'));
  const write = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const cases: [string, string, RegExp][] = [
    ['negative radius', JSON.stringify({ version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: -1 }, { type: 'point' }] }), /shapes\[0\]\.radius: must not be negative/],
    ['unknown type', JSON.stringify({ version: 1, query: 'distance', shapes: [{ type: 'blob' }, { type: 'point' }] }), /shapes\[0\]\.type: unknown shape type "blob"/],
    ['not JSON', '{ version: 1 ', /not valid JSON/],
    ['overflowing number', '{"version":1,"query":"distance","shapes":[{"type":"sphere","radius":1e999},{"type":"point"}]}', /shapes\[0\]\.radius: must be a finite number/],
    ['missing version', JSON.stringify({ query: 'distance', shapes: [] }), /version: is missing/],
  ];
  for (const [name, text, pattern] of cases) {
    it(name, () => {
      const r = collidoscope(['run', write(`${name.replace(/ /g, '-')}.json`, text)]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr).not.toMatch(/at .*\.mjs|RuntimeError|Aborted/);
    });
  }

  it('a missing file', () => {
    const r = collidoscope(['run', join(dir, 'nope.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read .*nope\.json: no such file/);
  });

  it('an unknown command prints the usage', () => {
    const r = collidoscope(['frobnicate', 'x.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command "frobnicate"/);
    expect(r.stderr).toMatch(/usage: collidoscope/);
  });
});
