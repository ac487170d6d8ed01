// The pure parts of the page's explaining tools: the convergence plot's numbers (web/viz/convergence.ts) and
// predict mode's questions (web/viz/predict-questions.ts), checked on the library's traces of gallery scenes
// against independent references: the bounds recomputed from the frames' raw dot products, the support
// point found by brute force over the vertices of A − B, and the kept simplex from the next frame.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, trace, type EpaTrace, type GjkTrace, type Scene, type Trace } from '../../web/lib/index';
import { convergence, linearTicks, pointAt } from '../../web/viz/convergence';
import { faceQuestion, questionFor, regionQuestion, supportQuestion, WRONG_CHOICES } from '../../web/viz/predict-questions';
import { sceneDir } from './vectors';

beforeAll(async () => {
  await init();
});

const scene = (f: string) => JSON.parse(readFileSync(join(sceneDir, f), 'utf8')) as Scene;
const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** World-space corners of a box shape (scene format: halfExtents, position, rotation quaternion). */
function boxCorners(s: { halfExtents?: number[]; position?: number[]; rotation?: number[] }): number[][] {
  const [hx, hy, hz] = s.halfExtents!;
  const [x, y, z, w] = s.rotation ?? [0, 0, 0, 1];
  const n = Math.hypot(x, y, z, w);
  const [qx, qy, qz, qw] = [x / n, y / n, z / n, w / n];
  const rot = (p: number[]) => {
    // v' = v + 2w(q × v) + 2 q × (q × v)
    const c1 = [qy * p[2] - qz * p[1], qz * p[0] - qx * p[2], qx * p[1] - qy * p[0]];
    const c2 = [qy * c1[2] - qz * c1[1], qz * c1[0] - qx * c1[2], qx * c1[1] - qy * c1[0]];
    return [0, 1, 2].map((k) => p[k] + 2 * qw * c1[k] + 2 * c2[k]);
  };
  const pos = s.position ?? [0, 0, 0];
  const out: number[][] = [];
  for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
    const r = rot([sx * hx, sy * hy, sz * hz]);
    out.push(r.map((v, k) => v + pos[k]));
  }
  return out;
}

describe('convergence (the plot of bounds per iteration)', () => {
  it('GJK: one point per iteration, ‖v‖ and v·w/‖v‖ from the support frames', () => {
    for (const f of ['01-sphere-box-distance.json', '05-polytope-ellipsoid.json', '03-cone-cylinder-intersect.json']) {
      const tr = trace(scene(f)) as GjkTrace;
      const c = convergence(tr)!;
      expect(c.algorithm).toBe('gjk');
      expect(c.iterations.length, f).toBe(tr.result.iterations);
      expect(c.iterations).toEqual(c.iterations.map((_, i) => i + 1));
      c.frames.forEach((fi, i) => {
        const fr = tr.frames[fi];
        expect(fr.kind).toBe('support');
        expect(fr.iteration).toBe(i + 1);
        const norm = Math.sqrt(fr.vv);
        expect(c.series[0].values[i]).toBe(norm);
        const lower = (fr.vw as number) / norm;
        expect(c.series[1].values[i]).toBe(lower > 0 ? lower : null);
      });
    }
  });

  it('GJK: the bounds bracket the distance of the cores and meet at the end', () => {
    const tr = trace(scene('01-sphere-box-distance.json')) as GjkTrace;
    const r = tr.result as { distance: number };
    const core = r.distance + tr.marginA + tr.marginB;
    const c = convergence(tr)!;
    const [up, low] = c.series;
    up.values.forEach((u, i) => {
      expect(u!).toBeGreaterThanOrEqual(core - 1e-12);
      if (low.values[i] !== null) expect(low.values[i]!).toBeLessThanOrEqual(core + 1e-12);
    });
    const last = up.values.length - 1;
    expect(Math.abs(up.values[last]! - low.values[last]!)).toBeLessThan(1e-9);
  });

  it('EPA: lower bound the nearest face, upper bound n·w = d + gap; casts: λ non-decreasing', () => {
    const tr = trace(scene('13-box-deep-inside-box.json'));
    const c = convergence(tr)!;
    expect(c.algorithm).toBe('epa');
    expect(c.iterations.length).toBe((tr.result as { iterations: number }).iterations);
    c.frames.forEach((fi, i) => {
      const fr = tr.frames[fi] as { depth: number; gap: number };
      expect(c.series[1].values[i]).toBe(fr.depth);
      expect(c.series[0].values[i]).toBe(fr.depth + fr.gap);
      expect(c.series[0].values[i]!).toBeGreaterThanOrEqual(c.series[1].values[i]!);
    });
    expect(c.series[1].values.at(-1)).toBeCloseTo(1.6, 12); // the small box leaves through x: 2 − 0.5 + 0.1

    const cast = trace(scene('50-raycast-cylinder.json'));
    const k = convergence(cast)!;
    expect(k.algorithm).toBe('cast');
    expect(k.series.map((s) => s.id)).toEqual(['lambda']);
    expect(k.iterations.length).toBe((cast.result as { iterations: number }).iterations);
    const lambdas = k.series[0].values as number[];
    for (let i = 1; i < lambdas.length; i++) expect(lambdas[i]).toBeGreaterThanOrEqual(lambdas[i - 1]);
    expect(lambdas.at(-1)).toBe((cast.result as { t: number }).t);
  });

  it('is null for queries without iterations to plot, for a closed form, and for no trace', () => {
    for (const f of ['20-hull-random-ball.json', '40-sat-edge-edge.json', '30-chungwang-boxes-apart.json', '04-capsules-crossing.json']) {
      expect(convergence(trace(scene(f)) as Trace), f).toBeNull();
    }
    // Two spheres: a closed form, one frame, whichever query.
    for (const query of ['intersect', 'distance', 'penetration'] as const) {
      const t = trace({ version: 1, query, shapes: [{ type: 'sphere', radius: 1 }, { type: 'sphere', radius: 1, position: [3, 0, 0] }] });
      expect(t.frames, query).toHaveLength(1);
      expect(convergence(t), query).toBeNull();
    }
    expect(convergence(null)).toBeNull();
  });

  it('takes a log axis only when every value is positive and they span over two decades', () => {
    const mk = (vals: number[]) => ({
      query: 'raycast', frames: vals.map((x, i) => ({ kind: 'support', iteration: i + 1, newLambda: x })),
    });
    expect(convergence(mk([1e-4, 0.5, 1]))!.log).toBe(true);
    expect(convergence(mk([0.01, 0.5, 1]))!.log).toBe(false); // exactly two decades
    expect(convergence(mk([0, 1e-4, 1]))!.log).toBe(false);
  });

  it('pointAt marks the last iteration at or before the step; linearTicks are round', () => {
    const c = convergence(trace(scene('01-sphere-box-distance.json')))!;
    expect(pointAt(c, 0)).toBe(-1);
    expect(pointAt(c, c.frames[0])).toBe(0);
    expect(pointAt(c, c.frames[1] - 1)).toBe(0);
    expect(pointAt(c, 1e9)).toBe(c.frames.length - 1);
    expect(linearTicks(0, 4, 4)).toEqual([0, 1, 2, 3, 4]);
    expect(linearTicks(0.86, 4, 3)).toEqual([2, 4]);
    expect(linearTicks(0, 0.3, 3)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(linearTicks(2, 2)).toEqual([2]);
  });
});

describe('predict questions', () => {
  it('support question: the answer is the support point, the brute-force maximum of d·p over the corners of A − B', () => {
    // A sphere's core is its centre, so A − B's core is the box's corners mirrored and shifted.
    const s = scene('01-sphere-box-distance.json');
    const tr = trace(s) as GjkTrace;
    const centre = s.shapes[0].position!;
    const corners = boxCorners(s.shapes[1] as never).map((c) => c.map((x, k) => centre[k] - x));
    let asked = 0;
    tr.frames.forEach((f, i) => {
      if (f.kind !== 'support') return;
      const q = supportQuestion(tr.frames, i, corners)!;
      expect(q, `step ${i}`).not.toBeNull();
      asked++;
      const right = q.choices.filter((c) => c.correct);
      expect(right).toHaveLength(1);
      expect(right[0].point).toEqual(f.support!.w);
      const best = Math.max(...corners.map((p) => dot(f.direction, p)));
      expect(dot(f.direction, right[0].point)).toBeCloseTo(best, 12);
      expect(q.choices.length).toBeGreaterThanOrEqual(2);
      expect(q.choices.length).toBeLessThanOrEqual(WRONG_CHOICES + 1);
      for (const c of q.choices.filter((x) => !x.correct)) {
        // Wrong choices are points of A − B that clearly reach less far along d.
        expect(corners.some((p) => p.every((x, k) => x === c.point[k])) || tr.frames.some((g) => g.support?.w.every((x, k) => x === c.point[k]))).toBe(true);
        expect(dot(f.direction, c.point)).toBeLessThan(best - 1e-6);
      }
    });
    expect(asked).toBe((tr.result as { iterations: number }).iterations);
  });

  it('region question: the answer is the next frame\'s simplex, named from W ∪ {w}', () => {
    for (const f of ['01-sphere-box-distance.json', '03-cone-cylinder-intersect.json', '05-polytope-ellipsoid.json']) {
      const tr = trace(scene(f)) as GjkTrace;
      let asked = 0;
      tr.frames.forEach((fr, i) => {
        if (fr.kind !== 'simplex') return;
        const before = tr.frames[i - 1];
        const q = regionQuestion(tr.frames, i);
        if (before.simplex.length === 0) { expect(q).toBeNull(); return; }
        expect(q, `${f} step ${i}`).not.toBeNull();
        asked++;
        expect(q!.vertices[0].w).toEqual(before.support!.w);
        const right = q!.choices.filter((c) => c.correct);
        expect(right).toHaveLength(1);
        const keptW = right[0].members.map((k) => q!.vertices[k].w);
        expect(keptW.map((w) => JSON.stringify(w)).sort()).toEqual(fr.simplex.map((v) => JSON.stringify(v.w)).sort());
        const keys = q!.choices.map((c) => c.members.join(','));
        expect(new Set(keys).size).toBe(keys.length);
        expect(right[0].label).toMatch(/^(point|segment|triangle|tetrahedron) /);
      });
      expect(asked, f).toBeGreaterThan(0);
    }
  });

  it('face question (EPA): the answer is the face whose plane is nearest O, recomputed from its vertices', () => {
    for (const f of ['13-box-deep-inside-box.json', '11-edge-edge-crossing.json', '16-tiny-rotation.json']) {
      const tr = trace(scene(f)) as EpaTrace;
      let asked = 0;
      tr.frames.forEach((fr, i) => {
        if (fr.kind !== 'closest') { expect(faceQuestion(tr.frames, i)).toBeNull(); return; }
        // Each face's plane distance from its own vertices and outward normal: n·v0 (independent of f.distance).
        const planeDist = (face: (typeof fr.faces)[number]) => {
          const [a, b, c] = face.v.map((k) => fr.vertices[k].w);
          const n = [0, 1, 2].map((k) => (b[(k + 1) % 3] - a[(k + 1) % 3]) * (c[(k + 2) % 3] - a[(k + 2) % 3])
            - (b[(k + 2) % 3] - a[(k + 2) % 3]) * (c[(k + 1) % 3] - a[(k + 1) % 3]));
          return dot(n, a) / Math.hypot(...n);
        };
        const nearest = Math.min(...fr.faces.map(planeDist));
        const q = faceQuestion(tr.frames, i);
        if (!q) return; // every face ties with the nearest
        asked++;
        const right = q.choices.filter((c) => c.correct);
        expect(right).toHaveLength(1);
        expect(right[0].id).toBe(fr.closest);
        expect(planeDist(fr.faces.find((x) => x.id === fr.closest)!)).toBeCloseTo(nearest, 9);
        for (const c of q.choices.filter((x) => !x.correct)) {
          expect(planeDist(fr.faces.find((x) => x.id === c.id)!)).toBeGreaterThan(nearest + 1e-9);
        }
        expect(q.choices.length).toBeLessThanOrEqual(WRONG_CHOICES + 1);
      });
      expect(asked, f).toBeGreaterThan(0);
    }
  });

  it('asks only before support and simplex frames, and places the answer at different buttons', () => {
    const tr = trace(scene('05-polytope-ellipsoid.json')) as GjkTrace;
    const pool = tr.frames.flatMap((f) => (f.support ? [f.support.w] : []));
    const places = new Set<number>();
    tr.frames.forEach((f, i) => {
      const q = questionFor(tr.frames, i, pool);
      if (f.kind === 'init' || f.kind === 'done') expect(q).toBeNull();
      if (q) places.add(q.choices.findIndex((c) => c.correct));
    });
    expect(places.size).toBeGreaterThan(1);
    expect(questionFor(tr.frames, tr.frames.length, pool)).toBeNull();
  });
});
