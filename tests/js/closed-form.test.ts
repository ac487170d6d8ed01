// Closed forms through the package (points, spheres, segments, capsules; wasm/include/collidoscope/closed_form.h):
// single queries and batch() on random pairs against a reference written here — rotation matrices from the
// quaternions, and the distance of two core segments by a ternary search of the point-to-segment distance
// along one of them (convex along it) — and batch() against the single queries bit for bit.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batch, batchLayout, batchResult, capsule, ConvexShape, distance, init, intersect, penetration, point, segment, sphere,
  type Vec3,
} from '../../web/lib/index';
import { seededRandom } from '../../web/viz/cloud';

beforeAll(async () => {
  await init();
});

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: V, s: number): V => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a: V): number => Math.hypot(a[0], a[1], a[2]);

/** R·v for the unit quaternion [x, y, z, w], as a rotation matrix. */
function rotate(q: number[], v: V): V {
  const [x, y, z, w] = q;
  const m = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
  return [dot(m[0] as V, v), dot(m[1] as V, v), dot(m[2] as V, v)];
}

interface Spec { kind: 'point' | 'sphere' | 'segment' | 'capsule'; radius: number; halfHeight: number; ends: [V, V]; margin: number }

function pointSegment(p: V, a: V, b: V): number {
  const d = sub(b, a);
  const dd = dot(d, d);
  const t = dd > 0 ? Math.min(1, Math.max(0, dot(sub(p, a), d) / dd)) : 0;
  return len(sub(p, add(a, scale(d, t))));
}

/** The world end points of a core at a pose (equal for a point core). */
function coreEnds(s: Spec, pose: number[]): [V, V] {
  const at = pose.slice(0, 3) as V;
  if (s.kind === 'point' || s.kind === 'sphere') return [at, at];
  return [add(rotate(pose.slice(3), s.ends[0]), at), add(rotate(pose.slice(3), s.ends[1]), at)];
}

function coreDistance(a: Spec, pa: number[], b: Spec, pb: number[]): number {
  const [a0, a1] = coreEnds(a, pa);
  const [b0, b1] = coreEnds(b, pb);
  const f = (s: number) => pointSegment(add(a0, scale(sub(a1, a0), s)), b0, b1);
  let lo = 0, hi = 1;
  for (let i = 0; i < 200; i++) {
    const m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (f(m1) <= f(m2)) hi = m2;
    else lo = m1;
  }
  return Math.min(f(0), f(1), f((lo + hi) / 2));
}

function randomSpec(rand: () => number, kind: Spec['kind']): Spec {
  const margin = rand() < 0.25 ? 0.2 * rand() : 0;
  const radius = kind === 'sphere' || kind === 'capsule' ? 0.05 + 0.6 * rand() : 0;
  const halfHeight = kind === 'capsule' ? (rand() < 0.1 ? 0 : 0.05 + rand()) : 0;
  const p = (): V => [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1];
  const ends: [V, V] = kind === 'capsule' ? [[0, -halfHeight, 0], [0, halfHeight, 0]] : kind === 'segment' ? [p(), p()] : [[0, 0, 0], [0, 0, 0]];
  return { kind, radius, halfHeight, ends, margin };
}

function make(s: Spec): ConvexShape {
  const o = { margin: s.margin };
  switch (s.kind) {
    case 'point': return point(o);
    case 'sphere': return sphere(s.radius, o);
    case 'segment': return segment(s.ends[0] as Vec3, s.ends[1] as Vec3, o);
    default: return capsule(s.radius, s.halfHeight, o);
  }
}

function randomPose(rand: () => number): number[] {
  const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
  const n = Math.hypot(...q);
  return [4 * rand() - 2, 4 * rand() - 2, 4 * rand() - 2, ...q.map((c) => c / n)];
}

const KINDS: Spec['kind'][] = ['point', 'sphere', 'segment', 'capsule'];

describe('closed forms on random pairs', () => {
  const rand = seededRandom(20261126);
  const pairs: { a: Spec; b: Spec; pa: number[]; pb: number[] }[] = [];
  for (let i = 0; i < 1600; i++) {
    const a = randomSpec(rand, KINDS[i % 4]), b = randomSpec(rand, KINDS[(i >> 2) % 4]);
    const pa = randomPose(rand), pb = randomPose(rand);
    if (i % 3 === 1) {
      // Near touching: B moved along the line of the cores' closest points (found by sampling) to a gap of ±1e-9…1e-3.
      const [a0, a1] = coreEnds(a, pa);
      let best = Infinity, dir: V = [1, 0, 0];
      const [b0, b1] = coreEnds(b, pb);
      for (let s = 0; s <= 64; s++) for (let t = 0; t <= 64; t++) {
        const d = sub(add(b0, scale(sub(b1, b0), t / 64)), add(a0, scale(sub(a1, a0), s / 64)));
        if (len(d) < best) best = len(d), dir = d;
      }
      if (best > 1e-6) {
        const want = a.radius + a.margin + b.radius + b.margin + (rand() - 0.5) * 2 * 10 ** (-9 + 6 * rand());
        const shift = scale(dir, (want - best) / best);
        pb[0] += shift[0], pb[1] += shift[1], pb[2] += shift[2];
      }
    }
    pairs.push({ a, b, pa, pb });
  }
  let shapes: (readonly [ConvexShape, ConvexShape])[] = [];
  beforeAll(() => {
    shapes = pairs.map((p) => [make(p.a), make(p.b)] as const);
  });

  it('distance, intersect and penetration match the reference', () => {
    let near = 0;
    pairs.forEach(({ a, b, pa, pb }, i) => {
      const [sa, sb] = shapes[i];
      const r = a.radius + a.margin + b.radius + b.margin;
      const core = coreDistance(a, pa, b, pb);
      const S = Math.max(...pa.slice(0, 3).map(Math.abs), ...pb.slice(0, 3).map(Math.abs), 2);
      const what = `pair ${i}: ${a.kind} vs ${b.kind}`;
      const d = distance(sa, pa, sb, pb);
      expect(d.distance, what).toBeCloseTo(Math.max(0, core - r), 11);
      expect(Math.abs(len(sub(d.pointA as V, d.pointB as V)) - d.distance), what).toBeLessThan(1e-12 * S);
      expect(d.iterations, what).toBe(0);
      const gap = core - r;
      if (Math.abs(gap) < 1e-6) near++;
      if (Math.abs(gap) > 1e-12 * S) {
        expect(intersect(sa, pa, sb, pb).intersecting, what).toBe(gap < 0);
        expect(penetration(sa, pa, sb, pb).intersecting, what).toBe(gap < 0);
      }
      const p = penetration(sa, pa, sb, pb);
      expect(Math.abs(p.depth - Math.max(0, r - core)), what).toBeLessThan(1e-12 * S);
      expect(Math.abs(len(p.normal as V) - 1), what).toBeLessThan(1e-15);
      if (p.intersecting) {
        const diff = sub(sub(p.pointA as V, p.pointB as V), scale(p.normal as V, p.depth));
        expect(Math.max(...diff.map(Math.abs)), what).toBeLessThan(1e-12 * S);
      }
    });
    expect(near, 'pairs within 1e-6 of touching').toBeGreaterThan(250);
  });

  it('batch() answers every pair bit for bit as the single queries, with Float64 and Float32 poses', () => {
    const all = shapes.flat();
    const poses = new Float64Array(pairs.flatMap((p) => [...p.pa, ...p.pb]));
    const idx = new Uint32Array(all.map((_, i) => i));
    for (const query of ['intersect', 'distance', 'penetration'] as const) {
      const out = batch(query, all, poses, idx);
      expect(out.length).toBe(batchLayout(query).stride * pairs.length);
      const single = { intersect, distance, penetration }[query];
      pairs.forEach((p, i) => {
        expect(batchResult(query as 'distance', out, i), `${query} pair ${i}`).toEqual(single(shapes[i][0], p.pa, shapes[i][1], p.pb));
      });
      // Float32 poses: the same as the Float64 poses they round to.
      const f32 = new Float32Array(poses);
      expect(batch(query, all, f32, idx), query).toEqual(batch(query, all, new Float64Array(f32), idx));
    }
  });
});
