import { beforeAll, describe, expect, it } from 'vitest';
import {
  init, minkowskiSurface, run, shapeSurface, trace, validateScene,
  type ChungWangResult, type DistanceResult, type GjkTrace, type IntersectResult, type RaycastResult, type SatResult,
  type Scene, type Shape, type ShapecastResult, type Vec3,
} from '../../web/lib/index';
import { catchError, stepsOf } from './helpers';
import { expected, vectorScene } from './vectors';

beforeAll(async () => {
  await init();
});


const twoSpheres = (rA: number, rB: number, x: number): Scene => ({
  version: 1, query: 'distance',
  shapes: [{ type: 'sphere', radius: rA }, { type: 'sphere', radius: rB, position: [x, 0, 0] }],
});

describe('analytic vectors (shared/vectors/gjk)', () => {
  for (const [name, exp] of Object.entries(expected)) {
    it(`${name}: ${exp.derivation}`, () => {
      const r = run(vectorScene(name));
      if (exp.distance !== undefined) {
        const d = r as DistanceResult;
        expect(Math.abs(d.distance - exp.distance)).toBeLessThanOrEqual(exp.tolerance);
        const gap = Math.hypot(d.pointB[0] - d.pointA[0], d.pointB[1] - d.pointA[1], d.pointB[2] - d.pointA[2]);
        expect(Math.abs(gap - d.distance)).toBeLessThanOrEqual(1e-9);
      }
      if (exp.intersecting !== undefined) expect((r as IntersectResult).intersecting).toBe(exp.intersecting);
      expect((r as DistanceResult | IntersectResult).status).toBe('converged');
    });
  }
});

describe('run', () => {
  it('accepts a scene object and a JSON string alike', () => {
    const scene = twoSpheres(1, 2, 10);
    expect(run(scene)).toEqual(run(JSON.stringify(scene)));
    expect((run(scene) as DistanceResult).distance).toBe(7);
  });

  it('intersect agrees with distance around contact', () => {
    for (const x of [1.9, 2.5, 2.999999, 3.000001, 4]) {
      const d = run(twoSpheres(1, 2, x)) as DistanceResult;
      const i = run({ ...twoSpheres(1, 2, x), query: 'intersect' }) as IntersectResult;
      expect(i.intersecting).toBe(x <= 3);
      expect(d.distance).toBeCloseTo(Math.max(0, x - 3), 12);
    }
  });

  it('widens Float32Array positions', () => {
    const scene = twoSpheres(1, 1, 0);
    scene.shapes[1].position = new Float32Array([5, 0, 0]) as unknown as [number, number, number];
    expect((run(scene) as DistanceResult).distance).toBe(3);
  });

  it('sat on two boxes, one turned 45° about z so that its edge faces A', () => {
    // B's edge reaches √2 toward A along x, A's face is at 1: overlap along
    // x is 1 + √2 − x. Along B's own face normals it is √2 + 1 − x/√2 and
    // along y and z it is 1 + √2 and 2, all larger for x ≥ 2.
    const scene = (x: number): Scene => ({
      version: 1, query: 'sat',
      shapes: [{ type: 'box', halfExtents: [1, 1, 1] },
        { type: 'box', halfExtents: [1, 1, 1], position: [x, 0, 0], rotation: [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)] }],
    });
    const hit = run(scene(2.2)) as SatResult;
    expect(hit.intersecting).toBe(true);
    expect(hit.depth).toBeCloseTo(1 + Math.SQRT2 - 2.2, 12);
    expect(hit.gap).toBe(0);
    expect(hit.axis[0]).toBeCloseTo(1, 12);
    expect(hit.status).toBe('ok');
    // Apart by 2.5 − (1 + √2) along x; any separating axis's gap is at most that distance.
    const apart = run(scene(2.5)) as SatResult;
    expect(apart.intersecting).toBe(false);
    expect(apart.depth).toBe(0);
    expect(apart.gap).toBeGreaterThan(0);
    expect(apart.gap).toBeLessThanOrEqual(2.5 - 1 - Math.SQRT2 + 1e-12);
  });

  it('raycast, shapecast and chungwang on unit spheres', () => {
    const ray = run({
      version: 1, query: 'raycast', shapes: [{ type: 'sphere', radius: 1 }],
      ray: { origin: [-5, 0, 0], direction: [1, 0, 0], maxT: 10 },
    }) as RaycastResult;
    expect(ray.hit).toBe(true);
    expect(ray.t as number).toBeCloseTo(4, 12);
    expect((ray.normal as Vec3)[0]).toBeCloseTo(-1, 12);
    const cast = run({
      ...twoSpheres(1, 1, 5), query: 'shapecast', motion: { translationB: [-4, 0, 0] },
    }) as ShapecastResult;
    expect(cast.t as number).toBeCloseTo(0.75, 12);
    const apart = run({ ...twoSpheres(1, 1, 3), query: 'chungwang' }) as ChungWangResult;
    expect(apart.intersecting).toBe(false);
    expect((apart.separatingAxis as Vec3)[0]).toBeCloseTo(1, 12);
    const overlapping = run({ ...twoSpheres(1, 1, 1.5), query: 'chungwang' }) as ChungWangResult;
    expect(overlapping.intersecting).toBe(true);
    expect(overlapping.separatingAxis).toBeNull();
  });

  it('sat, raycast, shapecast and chungwang traces end with run\'s result', () => {
    const scenes: Scene[] = [
      { ...twoSpheres(1, 1, 1.5), query: 'chungwang' },
      { version: 1, query: 'sat', shapes: [{ type: 'box', halfExtents: [1, 1, 1] }, { type: 'box', halfExtents: [1, 1, 1], position: [1.5, 0.3, 0] }] },
      { version: 1, query: 'raycast', shapes: [{ type: 'box', halfExtents: [1, 1, 1] }], ray: { origin: [-3, 0.2, 0], direction: [1, 0, 0], maxT: 5 } },
      { ...twoSpheres(1, 1, 5), shapes: [{ type: 'box', halfExtents: [1, 1, 1] }, { type: 'capsule', radius: 0.5, halfHeight: 1, position: [5, 0, 0] }], query: 'shapecast', motion: { translationB: [-4, 0, 0] } },
    ];
    for (const scene of scenes) {
      const t = trace(scene);
      expect(t.query).toBe(scene.query);
      expect(t.result).toEqual(run(scene));
      expect(t.frames.length).toBeGreaterThan(1);
      expect(stepsOf(t).frames[t.frames.length - 1].kind).toBe('done');
    }
  });

  it('is deterministic: the same scene gives the same bits', () => {
    const scene: Scene = {
      version: 1, query: 'distance',
      shapes: [{ type: 'ellipsoid', radii: [1, 2, 0.5], rotation: [0.1, 0.2, 0.3, 0.9] },
        { type: 'cone', radius: 0.7, halfHeight: 1.1, position: [2.2, 0.4, -0.3] }],
    };
    const a = run(scene) as DistanceResult;
    const b = run(scene) as DistanceResult;
    expect(Object.is(a.distance, b.distance)).toBe(true);
    expect(a.pointA).toEqual(b.pointA);
  });
});

describe('trace', () => {
  const scene: Scene = {
    version: 1, query: 'distance',
    shapes: [{ type: 'box', halfExtents: [1, 0.5, 0.7], rotation: [0.3, 0.1, 0, 0.95] },
      { type: 'polytope', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], position: [2, 0.5, 0.3] }],
  };

  it('has the same result as run, and frames that follow the pseudocode', () => {
    const t = trace(scene) as GjkTrace;
    expect(t.result).toEqual(run(scene));
    expect(t.frames[0].kind).toBe('init');
    expect(t.frames[t.frames.length - 1].kind).toBe('done');
    for (const f of t.frames) {
      expect(f.line).toBeGreaterThanOrEqual(1);
      expect(f.line).toBeLessThanOrEqual(t.pseudocode.length);
      expect(f.caption.length).toBeGreaterThan(10);
      if (f.simplex.length > 0) {
        const sum = f.simplex.reduce((s, v) => s + v.lambda, 0);
        expect(sum).toBeCloseTo(1, 12);
      }
      if (f.kind === 'support') expect(f.support).not.toBeNull();
    }
  });

  it('each support frame gap decreases towards the tolerance (the error bound)', () => {
    const t = trace(scene) as GjkTrace;
    const gaps = t.frames.filter((f) => f.kind === 'support' && f.gap !== null).map((f) => f.gap as number);
    expect(gaps.length).toBeGreaterThan(0);
    const last = t.frames.filter((f) => f.kind === 'support').pop()!;
    expect(last.gap as number).toBeLessThanOrEqual(last.tolerance);
  });
});

describe('bad input is a CollidoscopeError naming the field', () => {
  const base = (): Scene => twoSpheres(1, 1, 3);
  const cases: [string, () => unknown, string | null, RegExp][] = [
    ['NaN radius', () => { const s = base(); s.shapes[0].radius = NaN; return s; }, 'shapes[0].radius', /NaN/],
    ['Infinity coordinate', () => { const s = base(); s.shapes[1].position = [Infinity, 0, 0]; return s; }, 'shapes[1].position[0]', /Infinity/],
    ['negative radius', () => { const s = base(); s.shapes[1].radius = -2; return s; }, 'shapes[1].radius', /negative/],
    ['missing radius', () => { const s = base(); delete s.shapes[0].radius; return s; }, 'shapes[0].radius', /missing/],
    ['unknown type', () => { const s = base(); (s.shapes[0] as { type: string }).type = 'torus'; return s; }, 'shapes[0].type', /torus/],
    ['unknown field', () => ({ ...base(), colour: 'red' }), 'colour', /unknown field/],
    ['unknown shape field', () => { const s = base(); (s.shapes[0] as unknown as Record<string, unknown>).halfExtents = [1, 1, 1]; return s; }, 'shapes[0].halfExtents', /unknown field/],
    ['wrong version', () => ({ ...base(), version: 2 }), 'version', /1/],
    ['one shape', () => ({ ...base(), shapes: [base().shapes[0]] }), 'shapes', /2 shapes/],
    ['empty polytope', () => ({ ...base(), shapes: [{ type: 'polytope', points: [] }, base().shapes[1]] }), 'shapes[0].points', /at least 1/],
    ['triangle with 2 points', () => ({ ...base(), shapes: [{ type: 'triangle', points: [[0, 0, 0], [1, 0, 0]] }, base().shapes[1]] }), 'shapes[0].points', /exactly 3/],
    ['position of wrong length', () => { const s = base(); s.shapes[0].position = [1, 2] as unknown as [number, number, number]; return s; }, 'shapes[0].position', /3 numbers/],
    ['zero quaternion', () => { const s = base(); s.shapes[0].rotation = [0, 0, 0, 0]; return s; }, 'shapes[0].rotation', /zero/],
    ['string number', () => { const s = base(); (s.shapes[0] as unknown as Record<string, unknown>).radius = '1'; return s; }, 'shapes[0].radius', /number/],
    ['not an object', () => 42, null, /object/],
    ['null scene', () => null, null, /object/],
    ['ray on a query without one', () => ({ ...base(), query: 'distance', ray: { origin: [0, 0, 0], direction: [1, 0, 0] } }), 'ray', /only used by the raycast/],
    ['raycast without a ray', () => ({ ...base(), query: 'raycast' }), 'ray', /missing/],
    ['zero ray direction', () => ({ ...base(), query: 'raycast', ray: { origin: [0, 0, 0], direction: [0, 0, 0] } }), 'ray.direction', /zero/],
    ['sat on a cylinder', () => ({ ...base(), query: 'sat', shapes: [{ type: 'cylinder', radius: 1, halfHeight: 1 }, base().shapes[1]] }), 'shapes[0].type', /vertices/],
    ['unknown query', () => ({ ...base(), query: 'teleport' }), 'query', /unknown query/],
    ['negative step', () => ({ ...base(), step: -1 }), 'step', /whole number/],
  ];
  for (const [name, make, field, pattern] of cases) {
    it(name, () => {
      const e = catchError(() => run(make() as Scene));
      expect(e.field).toBe(field);
      expect(e.message).toMatch(pattern);
      if (field) expect(e.message.startsWith(`${field}: `)).toBe(true);
    });
  }

  it('garbled JSON text', () => {
    const e = catchError(() => run('{"version": 1, "shapes": [}'));
    expect(e.code).toBe('invalid-json');
    expect(e.message).toMatch(/byte \d+/);
  });

  it('deeply nested JSON is refused, not a crash', () => {
    const deep = `${'['.repeat(100000)}${']'.repeat(100000)}`;
    expect(catchError(() => run(deep)).code).toBe('invalid-json');
    // and the module still works afterwards
    expect((run(twoSpheres(1, 1, 3)) as DistanceResult).distance).toBe(1);
  });

  it('BigInt and cyclic values', () => {
    expect(catchError(() => run({ ...twoSpheres(1, 1, 3), step: 1n } as unknown as Scene)).code).toBe('invalid-scene');
    const cyclic: Record<string, unknown> = { ...twoSpheres(1, 1, 3) };
    cyclic.self = cyclic;
    expect(catchError(() => run(cyclic as unknown as Scene)).code).toBe('invalid-scene');
  });
});

describe('validateScene, shapeSurface, minkowskiSurface', () => {
  it('fills defaults and normalizes rotations', () => {
    const v = validateScene({ version: 1, query: 'intersect', shapes: [{ type: 'point' }, { type: 'sphere', radius: 1, rotation: [0, 0, 0, 2] }] });
    expect(v.shapes[0].position).toEqual([0, 0, 0]);
    expect(v.shapes[1].rotation).toEqual([0, 0, 0, 1]);
  });

  it('a box surface is its 8 corners, posed', () => {
    const pts = shapeSurface({ type: 'box', halfExtents: [1, 2, 3], position: [10, 0, 0] });
    expect(pts.length).toBe(8);
    for (const p of pts) {
      expect(Math.abs(Math.abs(p[0] - 10) - 1)).toBe(0);
      expect(Math.abs(p[1])).toBe(2);
      expect(Math.abs(p[2])).toBe(3);
    }
  });

  it('sphere surface samples lie on the sphere', () => {
    const pts = shapeSurface({ type: 'sphere', radius: 2, position: [1, 1, 1] }, 300);
    expect(pts.length).toBe(300);
    for (const p of pts) expect(Math.hypot(p[0] - 1, p[1] - 1, p[2] - 1)).toBeCloseTo(2, 12);
  });

  it('Minkowski difference of two boxes: every corner difference', () => {
    const a: Shape = { type: 'box', halfExtents: [1, 1, 1] };
    const b: Shape = { type: 'box', halfExtents: [0.5, 0.5, 0.5], position: [3, 0, 0] };
    const m = minkowskiSurface(a, b);
    expect(m.corePoints.length).toBe(64);
    expect(m.points).toEqual(m.corePoints);
    const xs = m.points.map((p) => p[0]);
    expect(Math.min(...xs)).toBe(-4.5);
    expect(Math.max(...xs)).toBe(-1.5);
  });

  it('bad shapes name the field', () => {
    expect(catchError(() => shapeSurface({ type: 'sphere', radius: -1 })).field).toBe('shape.radius');
  });
});
