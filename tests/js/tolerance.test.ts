// setTolerance(): the accuracy of the object API's iterative queries and batches. Round ellipsoids (equal radii: EPA
// iterates on their curved cores, unlike a sphere's closed form) give analytic references: distance D − rA − rB
// and depth rA + rB − D for centres D apart. Loosened, the answers stay within the tolerance of the scale and take
// fewer iterations; scenes and links keep the default; bad values are refused and change nothing.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  batch, CollidoscopeError, DEFAULT_TOLERANCE, distance, ellipsoid, getTolerance, init, penetration, run, setTolerance,
  type DistanceResult, type Quat, type Vec3,
} from '../../web/lib/index';
import { seededRandom } from '../../web/viz/cloud';

beforeAll(async () => {
  await init();
});
afterEach(() => setTolerance());

const LOOSE = 1e-4;

/** Random pairs of round ellipsoids: radii, positions and a random rotation each (a round ellipsoid ignores it). */
function pairs(n: number, seed: number) {
  const rnd = seededRandom(seed);
  const out: { ra: number; rb: number; pa: Vec3; pb: Vec3; qa: Quat; qb: Quat }[] = [];
  const quat = (): Quat => {
    const q = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
    const l = Math.hypot(...q);
    return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
  };
  for (let i = 0; i < n; ++i) {
    const ra = 0.3 + rnd(), rb = 0.3 + rnd();
    const pa: Vec3 = [rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1];
    const dir = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
    const l = Math.hypot(...dir);
    const d = (ra + rb) * (0.5 + rnd());
    const pb: Vec3 = [pa[0] + (dir[0] / l) * d, pa[1] + (dir[1] / l) * d, pa[2] + (dir[2] / l) * d];
    out.push({ ra, rb, pa, pb, qa: quat(), qb: quat() });
  }
  return out;
}

describe('setTolerance', () => {
  it('starts at the default and refuses bad values, naming the field and changing nothing', () => {
    expect(getTolerance()).toBe(DEFAULT_TOLERANCE);
    for (const bad of [NaN, 0, -1e-4, Infinity, 1e-16, 0.1, '1e-4' as unknown as number, null as unknown as number]) {
      let caught: unknown;
      try {
        setTolerance(bad);
      } catch (e) {
        caught = e;
      }
      expect(caught, String(bad)).toBeInstanceOf(CollidoscopeError);
      expect((caught as CollidoscopeError).field).toBe('tolerance');
      expect(getTolerance()).toBe(DEFAULT_TOLERANCE);
    }
  });

  it('keeps distances and depths within the tolerance of the analytic answers, in fewer iterations', () => {
    const cases = pairs(200, 17);
    const answer = () => {
      let iterations = 0, worst = 0;
      for (const c of cases) {
        using a = ellipsoid([c.ra, c.ra, c.ra]);
        using b = ellipsoid([c.rb, c.rb, c.rb]);
        const poseA = { position: c.pa, rotation: c.qa }, poseB = { position: c.pb, rotation: c.qb };
        const centres = Math.hypot(c.pb[0] - c.pa[0], c.pb[1] - c.pa[1], c.pb[2] - c.pa[2]);
        const scale = Math.max(...c.pa.map(Math.abs), ...c.pb.map(Math.abs)) + Math.max(c.ra, c.rb);
        const d = distance(a, poseA, b, poseB);
        const p = penetration(a, poseA, b, poseB);
        const gap = centres - c.ra - c.rb;
        worst = Math.max(worst, Math.abs(d.distance - Math.max(gap, 0)) / scale, Math.abs(p.depth - Math.max(-gap, 0)) / scale);
        iterations += d.iterations + p.iterations;
      }
      return { iterations, worst };
    };
    const exact = answer();
    setTolerance(LOOSE);
    expect(getTolerance()).toBe(LOOSE);
    const loose = answer();
    expect(exact.worst).toBeLessThan(1e-9);
    expect(loose.worst).toBeLessThan(LOOSE);
    expect(loose.iterations).toBeLessThan(exact.iterations);
  });

  it('applies to batch() as to single queries, bit for bit, and leaves scenes at the default', () => {
    const cases = pairs(50, 23);
    // Unequal radii: GJK iterates towards a curved surface (on a round one its first step is exact).
    const shapes = cases.flatMap((c) => [ellipsoid([c.ra, 0.7 * c.ra, 0.5 * c.ra]), ellipsoid([c.rb, 0.6 * c.rb, 0.8 * c.rb])]);
    const poses = new Float64Array(cases.flatMap((c) => [...c.pa, ...c.qa, ...c.pb, ...c.qb]));
    const pairIndex = new Uint32Array(cases.flatMap((_, i) => [2 * i, 2 * i + 1, 2 * i, 2 * i + 1]));
    const scene = (c: (typeof cases)[number]) => ({
      version: 1 as const, query: 'distance' as const, shapes: [
        { type: 'ellipsoid' as const, radii: [c.ra, 0.7 * c.ra, 0.5 * c.ra] as Vec3, position: c.pa, rotation: c.qa },
        { type: 'ellipsoid' as const, radii: [c.rb, 0.6 * c.rb, 0.8 * c.rb] as Vec3, position: c.pb, rotation: c.qb },
      ],
    });
    const exactScenes = cases.map((c) => (run(scene(c)) as DistanceResult).distance);
    const exactBatch = batch('distance', shapes, poses, pairIndex);
    setTolerance(LOOSE);
    const looseBatch = batch('distance', shapes, poses, pairIndex);
    const stride = looseBatch.length / cases.length;
    let differ = 0;
    cases.forEach((c, i) => {
      const single = distance(shapes[2 * i], { position: c.pa, rotation: c.qa }, shapes[2 * i + 1], { position: c.pb, rotation: c.qb });
      expect(looseBatch[i * stride]).toBe(single.distance);
      expect((run(scene(c)) as DistanceResult).distance).toBe(exactScenes[i]);
      if (looseBatch[i * stride] !== exactBatch[i * stride]) ++differ;
    });
    // The loose run stops earlier on some pairs, so its answers are not all the default's.
    expect(differ).toBeGreaterThan(0);
    for (const s of shapes) s.dispose();
  });
});
