// 2D scenes ("dimension": 2) through the JS API, permalinks and the CLI: [x, y] results against analytic
// answers, the same answer as the scene's twin in the plane z = 0, traces with captions, errors naming the field.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decodeLink, encodeLink, init, resultSentence, run, trace, validateScene, type Scene, type Scene2D,
} from '../../web/lib/index';
import { catchError, stepsOf } from './helpers';
import { root } from './vectors';

const cli = join(root, 'web', 'dist', 'lib', 'cli.mjs');

beforeAll(async () => {
  await init();
});

const lesson: Scene2D & { query: 'distance' } = {
  version: 1,
  dimension: 2,
  query: 'distance',
  shapes: [
    { type: 'polygon', points: [[0, 0], [4, 0], [0, 3]] },
    { type: 'circle', radius: 0.5, position: [3, 3] },
  ],
};

describe('2D scenes in the JS API', () => {
  it('answers a point–polygon distance with [x, y] vectors', () => {
    // Hypotenuse 3x + 4y = 12; the circle's centre (3, 3) is 9/5 from it, its edge 9/5 − 1/2.
    const r = run(lesson);
    expect(r.distance).toBeCloseTo(9 / 5 - 0.5, 12);
    expect(r.pointA).toHaveLength(2);
    expect(r.pointB).toHaveLength(2);
    // The foot of (3, 3) on the hypotenuse: (3, 3) − (9/5)·(3, 4)/5.
    expect(r.pointA[0]).toBeCloseTo(3 - (9 / 5) * 0.6, 12);
    expect(r.pointA[1]).toBeCloseTo(3 - (9 / 5) * 0.8, 12);
  });

  it('answers box–box penetration like the overlap of the projections', () => {
    const r = run({
      version: 1, dimension: 2, query: 'penetration',
      shapes: [{ type: 'box', halfExtents: [1, 2] }, { type: 'box', halfExtents: [0.5, 0.5], position: [0.3, 2.2] }],
    });
    // Overlap along x: 1 + 0.5 − 0.3 = 1.2; along y: 2 + 0.5 − 2.2 = 0.3, the smaller: B moves along +y.
    expect(r.intersecting).toBe(true);
    expect(r.depth).toBeCloseTo(0.3, 12);
    expect(r.normal[0]).toBeCloseTo(0, 12);
    expect(r.normal[1]).toBeCloseTo(1, 12);
  });

  it('gives the answer of the twin scene in the plane z = 0, bit for bit', () => {
    const angle = 0.4;
    const planar = run({
      version: 1, dimension: 2, query: 'distance',
      shapes: [
        { type: 'capsule', radius: 0.25, halfHeight: 1, position: [0.5, -0.5], angle },
        { type: 'segment', points: [[2, -1], [3, 2]] },
      ],
    });
    const spatial = run({
      version: 1, query: 'distance',
      shapes: [
        { type: 'capsule', radius: 0.25, halfHeight: 1, position: [0.5, -0.5, 0], rotation: [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)] },
        { type: 'segment', points: [[2, -1, 0], [3, 2, 0]] },
      ],
    } as Scene);
    if (!('pointA' in spatial) || !('distance' in spatial) || spatial.pointA === null || spatial.pointB === null) throw new Error('expected a distance result');
    expect(planar.distance).toBe(spatial.distance);
    expect(planar.pointA).toEqual(spatial.pointA.slice(0, 2));
    expect(planar.pointB).toEqual(spatial.pointB.slice(0, 2));
    expect(spatial.pointA[2]).toBe(0);
  });

  it('traces GJK in the plane: every simplex point is [x, y] and the captions read (x, y)', () => {
    const t = stepsOf(trace(lesson));
    expect(t.frames.length).toBeGreaterThan(1);
    for (const f of t.frames) {
      for (const s of f.simplex) expect(s.w).toHaveLength(2);
      expect(f.v).toHaveLength(2);
      expect(f.caption).not.toMatch(/undefined|NaN/);
    }
    const sentence = resultSentence(t);
    expect(sentence).toMatch(/^Distance 1\.3 between \([-\d.e]+, [-\d.e]+\) on A/);
  });

  it('traces the planar EPA: a seed polygon, growing by support points, ending at the depth', () => {
    // Seed 004's pair: A's corner (2, 2) lies 1 inside B's side x = 1, the nearest side of A − B.
    const t = stepsOf(trace({
      version: 1, dimension: 2, query: 'penetration',
      shapes: [{ type: 'polygon', points: [[0, 2], [0, 3], [2, 2]] }, { type: 'polygon', points: [[1, 1], [3, 1], [3, 4], [1, 4]] }],
    }));
    expect(t.dimension).toBe(2);
    expect(t.pseudocode).toHaveLength(8);
    expect(t.frames[0].kind).toBe('seed');
    expect(t.frames.at(-1)!.kind).toBe('done');
    for (const f of t.frames) {
      for (const v of f.vertices) expect(v.w).toHaveLength(2);
      expect(f.line).toBeGreaterThanOrEqual(1);
      expect(f.line).toBeLessThanOrEqual(8);
      expect(f.caption).not.toMatch(/undefined|NaN|face/);
    }
    expect(t.frames.some((f) => f.kind === 'closest' && /nearest the origin is at distance d = 1 along n = \(1, 0\)/.test(f.caption))).toBe(true);
    expect(t.result.depth).toBeCloseTo(1, 12);
    expect(t.result).toEqual(run({ version: 1, dimension: 2, query: 'penetration', shapes: [{ type: 'polygon', points: [[0, 2], [0, 3], [2, 2]] }, { type: 'polygon', points: [[1, 1], [3, 1], [3, 4], [1, 4]] }] }));
  });

  it('validates and normalizes a 2D scene in its own format', () => {
    const v = validateScene({ version: 1, dimension: 2, query: 'intersect', shapes: [{ type: 'circle', radius: 1 }, { type: 'point' }] });
    expect(v).toEqual({
      version: 1, dimension: 2, query: 'intersect',
      shapes: [{ type: 'circle', radius: 1, position: [0, 0] }, { type: 'point', position: [0, 0], angle: 0 }],
    });
  });

  it('names the field of a 3D vector, a quaternion or a 3D-only query in a 2D scene', () => {
    const bad = (scene: unknown) => catchError(() => run(scene as Scene));
    const base = { version: 1, dimension: 2, query: 'distance' };
    let e = bad({ ...base, shapes: [{ type: 'circle', radius: 1, position: [1, 2, 3] }, { type: 'point' }] });
    expect([e.code, e.field]).toEqual(['invalid-scene', 'shapes[0].position']);
    expect(e.message).toMatch(/\[x, y\]/);
    e = bad({ ...base, shapes: [{ type: 'point' }, { type: 'box', halfExtents: [1, 1], rotation: [0, 0, 0, 1] }] });
    expect([e.code, e.field]).toEqual(['invalid-scene', 'shapes[1].rotation']);
    expect(e.message).toMatch(/angle/);
    e = bad({ ...base, shapes: [{ type: 'point' }, { type: 'polygon', points: [[0, 0]], colour: 1 }] });
    expect([e.code, e.field]).toEqual(['invalid-scene', 'shapes[1].colour']);
    e = bad({ ...base, shapes: [{ type: 'point' }, { type: 'circle', radius: 1, angle: Number.NaN }] });
    expect(e.field).toBe('shapes[1].angle');
    e = bad({ ...base, query: 'sat', shapes: [{ type: 'point' }, { type: 'point' }] });
    expect([e.code, e.field]).toEqual(['unsupported-query', 'query']);
  });
});

describe('2D permalinks and CLI', () => {
  it('a 2D scene round-trips through a permalink bit for bit', () => {
    const scene: Scene2D = { ...lesson, shapes: [{ type: 'polygon', points: [[0.1, 1 / 3], [Math.PI, -1e-300], [2, 7]], angle: 0.1 }, { type: 'circle', radius: Math.E }], step: 3 };
    const back = decodeLink(encodeLink(scene, 'http://localhost:8080/'));
    expect(back).toEqual(scene);
  });

  it('a link to a 2D scene with a 3D point is a bad link naming the field', () => {
    const link = encodeLink({ ...lesson, shapes: [lesson.shapes[0], { type: 'point', position: [0, 0, 0] }] });
    const e = catchError(() => decodeLink(link));
    expect([e.code, e.field]).toEqual(['bad-link', 'shapes[1].position']);
  });

  it('runs, traces and links a 2D scene file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'collidoscope-2d-'));
    const file = join(dir, 'lesson.json');
    writeFileSync(file, JSON.stringify(lesson));
    const call = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    const r = call(['run', file]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(run(lesson));
    const t = call(['trace', file]);
    expect(t.status).toBe(0);
    expect(JSON.parse(t.stdout).frames[0].simplex[0].w).toHaveLength(2);
    const l = call(['link', file]);
    expect(l.status).toBe(0);
    expect(decodeLink(l.stdout.trim())).toEqual(lesson);
    writeFileSync(file, JSON.stringify({ ...lesson, shapes: [lesson.shapes[0], { type: 'sphere', radius: 1 }] }));
    const bad = call(['run', file]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/shapes\[1\]\.type.*unknown 2D shape type "sphere"/);
  });
});
