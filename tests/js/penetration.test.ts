import { beforeAll, describe, expect, it } from 'vitest';
import { init, run, trace, type PenetrationResult, type Scene, type Shape, type Vec3 } from '../../web/lib/index';
import { stepsOf } from './helpers';

beforeAll(async () => {
  await init();
});

const pen = (a: Shape, b: Shape): Scene & { query: 'penetration' } => ({ version: 1, query: 'penetration', shapes: [a, b] });
const sub = (p: Vec3, q: Vec3): Vec3 => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
const norm = (p: Vec3) => Math.hypot(p[0], p[1], p[2]);

function checkInvariants(r: PenetrationResult) {
  expect(Math.abs(norm(r.normal) - 1)).toBeLessThan(1e-12);
  const d = sub(r.pointA, r.pointB);
  if (r.intersecting) {
    for (let i = 0; i < 3; i++) expect(Math.abs(d[i] - r.depth * r.normal[i])).toBeLessThan(1e-12);
  }
  expect(r.depth).toBeGreaterThanOrEqual(0);
}

describe('penetration (analytic)', () => {
  it('two spheres: r_A + r_B − |c_B − c_A| along the centre line', () => {
    const r = run(pen({ type: 'sphere', radius: 1 }, { type: 'sphere', radius: 0.5, position: [0.6, 0.8, 0] })) as PenetrationResult;
    expect(r.intersecting).toBe(true);
    expect(Math.abs(r.depth - 0.5)).toBeLessThan(1e-15);
    expect(r.normal[0]).toBeCloseTo(0.6, 14);
    expect(r.normal[1]).toBeCloseTo(0.8, 14);
    checkInvariants(r);
  });

  it('boxes stacked with overlap 1e-3: depth 1e-3, normal +y', () => {
    const r = run(pen({ type: 'box', halfExtents: [1, 1, 1] }, { type: 'box', halfExtents: [1, 1, 1], position: [0.3, 1.999, -0.2] })) as PenetrationResult;
    expect(Math.abs(r.depth - 1e-3)).toBeLessThan(1e-15);
    expect(r.normal).toEqual([0, 1, 0]);
    expect(r.status).toBe('converged');
    checkInvariants(r);
  });

  it('boxes exactly face to face: touching, depth 0, a real normal (not NaN)', () => {
    const r = run(pen({ type: 'box', halfExtents: [1, 1, 1] }, { type: 'box', halfExtents: [1, 1, 1], position: [0.3, 2, -0.2] })) as PenetrationResult;
    expect(r.intersecting).toBe(true);
    expect(r.depth).toBe(0);
    expect(r.status).toBe('touching');
    expect(Math.abs(r.normal[1] - 1)).toBeLessThan(1e-12);
    checkInvariants(r);
  });

  it('sphere centre inside a box: radius + distance to the nearest face', () => {
    const r = run(pen({ type: 'box', halfExtents: [2, 1, 3] }, { type: 'sphere', radius: 0.25, position: [0.5, 0.7, 0.4] })) as PenetrationResult;
    expect(Math.abs(r.depth - (0.25 + 0.3))).toBeLessThan(1e-12);
    expect(Math.abs(r.normal[1] - 1)).toBeLessThan(1e-12);
    checkInvariants(r);
  });

  it('separated shapes: not intersecting, depth 0, the closest points', () => {
    const r = run(pen({ type: 'box', halfExtents: [1, 1, 1] }, { type: 'sphere', radius: 1, position: [4, 0, 0] })) as PenetrationResult;
    expect(r.intersecting).toBe(false);
    expect(r.depth).toBe(0);
    expect(r.pointA).toEqual([1, 0, 0]);
    expect(r.pointB).toEqual([3, 0, 0]);
    expect(r.normal).toEqual([1, 0, 0]);
  });
});

describe('penetration trace', () => {
  const scene = pen({ type: 'box', halfExtents: [1, 0.5, 0.8], rotation: [0.1, 0.2, 0.05, 0.97] },
    { type: 'polytope', points: [[0, 0, 0], [1.2, 0, 0], [0, 1, 0.1], [0.2, 0.1, 1], [0.6, 0.7, 0.6]], position: [0.5, 0.1, 0.2] });

  it('equals run, starts with the seed and ends with done', () => {
    const t = stepsOf(trace(scene));
    expect(t.query).toBe('penetration');
    expect(t.result).toEqual(run(scene));
    expect(t.frames[0].kind).toBe('seed');
    expect(t.frames[t.frames.length - 1].kind).toBe('done');
  });

  it('every frame is consistent: faces index vertices, the closest face exists, the depth never decreases', () => {
    const t = stepsOf(trace(scene));
    let lastDepth = -Infinity;
    for (const f of t.frames) {
      expect(f.line).toBeGreaterThanOrEqual(1);
      expect(f.line).toBeLessThanOrEqual(t.pseudocode.length);
      for (const face of f.faces) {
        for (const i of face.v) expect(i).toBeLessThan(f.vertices.length);
        expect(Math.abs(norm(face.normal) - 1)).toBeLessThan(1e-12);
        // the origin is inside the polytope: every face plane has it behind (up to rounding)
        expect(face.distance).toBeGreaterThan(-1e-12);
      }
      if (f.kind === 'closest') {
        const c = f.faces.find((x) => x.id === f.closest);
        expect(c).toBeDefined();
        expect(Math.min(...f.faces.map((x) => x.distance))).toBe(c!.distance);
        expect(c!.distance).toBeGreaterThanOrEqual(lastDepth - 1e-15);
        lastDepth = c!.distance;
      }
      if (f.kind === 'expand') {
        expect(f.added.length).toBe(f.horizon.length);
        for (const id of f.added) expect(f.faces.some((x) => x.id === id)).toBe(true);
        for (const gone of f.removed) expect(f.faces.some((x) => x.id === gone.id)).toBe(false);
      }
    }
    expect(Math.abs(lastDepth - t.result.depth)).toBeLessThan(1e-9);
  });
});
