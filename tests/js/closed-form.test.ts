// Closed forms through the package (points, spheres, segments, capsules, and points and boxes against boxes;
// wasm/include/collidoscope/closed_form.h):
// single queries and batch() on random pairs against a reference written here — rotation matrices from the
// quaternions, and the distance of two core segments by a ternary search of the point-to-segment distance
// along one of them (convex along it) — and batch() against the single queries bit for bit.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batch, batchLayout, batchResult, box, capsule, ConvexShape, distance, init, intersect, isClosedForm, penetration, point, run,
  segment, sphere, trace, type DistanceResult, type IntersectResult, type PenetrationResult, type Scene, type Vec3,
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

// ---- boxes --------------------------------------------------------------------------------------------------------
// Points and spheres against boxes (either order) and boxes against boxes, on random pairs: the point–box distance
// against the clamp of the centre into the box (rotation matrices written here), every answer against the general
// algorithms (the same scene with "closedForms": false runs GJK and EPA), the axis-aligned box–box depth against
// the least per-axis overlap, and batch() against the single queries bit for bit.

interface BoxPair { a: Scene['shapes'][number]; b: Scene['shapes'][number] }

function randomUnitQuat(rand: () => number): [number, number, number, number] {
  const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
  const n = Math.hypot(...q);
  return q.map((c) => c / n) as [number, number, number, number];
}

function boxPairs(count: number, seed: number): BoxPair[] {
  const rand = seededRandom(seed);
  const size = (): V => [0.05 + rand(), 0.05 + rand(), 0.05 + rand()];
  const out: BoxPair[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 3;  // 0: point or sphere, box; 1: box, point or sphere; 2: box, box
    const roundOrPoint = (): Scene['shapes'][number] => (rand() < 0.25 ? { type: 'point' } : { type: 'sphere', radius: 0.02 + 0.8 * rand() });
    const boxShape = (): Scene['shapes'][number] => ({ type: 'box', halfExtents: size() });
    const a = kind === 0 ? roundOrPoint() : boxShape();
    const b = kind === 1 ? roundOrPoint() : boxShape();
    for (const s of [a, b]) {
      if (rand() < 0.3) s.margin = 0.2 * rand();
      s.rotation = randomUnitQuat(rand);
    }
    a.position = [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1];
    const placement = Math.floor(i / 3) % 3;  // anywhere, deep, coincident centres
    const spread = placement === 0 ? 3 : 0.5;
    b.position = placement === 2 ? [...a.position] as V : add(a.position as V, [spread * (2 * rand() - 1), spread * (2 * rand() - 1), spread * (2 * rand() - 1)]);
    out.push({ a, b });
  }
  return out;
}

/** Distance from world point p to the core of a posed box: clamp in the box frame (R^T (p − c)). */
function pointBoxCore(p: V, box: Scene['shapes'][number]): number {
  const c = box.position as V;
  const d = sub(p, c);
  const axes = [rotate(box.rotation!, [1, 0, 0]), rotate(box.rotation!, [0, 1, 0]), rotate(box.rotation!, [0, 0, 1])];
  const h = box.halfExtents!;
  let sq = 0;
  for (let i = 0; i < 3; i++) {
    const q = dot(axes[i], d);
    const g = Math.abs(q) - h[i];
    if (g > 0) sq += g * g;
  }
  return Math.sqrt(sq);
}

const radiusOf = (s: Scene['shapes'][number]): number => (s.radius ?? 0) + (s.margin ?? 0);

function convex(s: Scene['shapes'][number]): ConvexShape {
  const o = { margin: s.margin ?? 0 };
  if (s.type === 'box') return box(s.halfExtents as Vec3, o);
  if (s.type === 'sphere') return sphere(s.radius!, o);
  return point(o);
}

const poseOf = (s: Scene['shapes'][number]): number[] => [...(s.position as V), ...s.rotation!];

describe('closed forms for boxes', () => {
  const pairs = boxPairs(900, 20261129);

  it('point/sphere–box: the clamp reference and the general algorithms; box–box: the general algorithms', () => {
    let general = 0, forms = 0;
    pairs.forEach(({ a, b }, i) => {
      const what = `pair ${i}: ${a.type} vs ${b.type}`;
      const S = Math.max(...(a.position as V).map(Math.abs), ...(b.position as V).map(Math.abs), 2);
      const r = radiusOf(a) + radiusOf(b);
      const scene = (query: 'intersect' | 'distance' | 'penetration', closedForms = true): Scene =>
        ({ version: 1, query, shapes: [a, b], ...(closedForms ? {} : { closedForms: false }) });
      const gjk = run(scene('distance', false)) as DistanceResult;
      const epa = run(scene('penetration', false)) as PenetrationResult;
      const p = run(scene('penetration')) as PenetrationResult;
      const traced = trace(scene('penetration'));
      if (isClosedForm(traced)) forms++;
      expect(Math.abs(p.depth - epa.depth), what).toBeLessThanOrEqual(1e-9 * S);
      if (p.intersecting) {
        const diff = sub(sub(p.pointA as V, p.pointB as V), scale(p.normal as V, p.depth));
        expect(Math.max(...diff.map(Math.abs)), what).toBeLessThan(1e-12 * S);
      }
      if (gjk.distance > 1e-9 * S || gjk.distance === 0) {
        expect((run(scene('intersect')) as IntersectResult).intersecting, what).toBe(gjk.distance === 0);
      }
      if (a.type !== 'box' || b.type !== 'box') {
        const [pt, bx] = a.type === 'box' ? [b, a] : [a, b];
        const ref = Math.max(0, pointBoxCore(pt.position as V, bx) - r);
        const d = run(scene('distance')) as DistanceResult;
        expect(Math.abs(d.distance - ref), what).toBeLessThanOrEqual(1e-12 * S);
        expect(Math.abs(d.distance - gjk.distance), what).toBeLessThanOrEqual(1e-9 * S);
        expect(d.iterations, what).toBe(0);
      } else {
        general++;
      }
    });
    expect(general, 'box–box pairs').toBeGreaterThan(250);
    expect(forms, 'penetrations answered by a closed form').toBeGreaterThan(500);
  });

  it('axis-aligned boxes: the depth is the least per-axis overlap plus the margins', () => {
    const rand = seededRandom(77);
    let answered = 0;
    for (let i = 0; i < 300; i++) {
      const h = (): V => [0.2 + rand(), 0.2 + rand(), 0.2 + rand()];
      const ha = h(), hb = h();
      const pa: V = [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1], pb: V = [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1];
      const ma = i % 2 ? 0.1 * rand() : 0, mb = i % 2 ? 0.1 * rand() : 0;
      const overlap = Math.min(...[0, 1, 2].map((k) => ha[k] + hb[k] - Math.abs(pb[k] - pa[k])));
      const t = trace({ version: 1, query: 'penetration', shapes: [
        { type: 'box', halfExtents: ha, margin: ma, position: pa }, { type: 'box', halfExtents: hb, margin: mb, position: pb }] });
      if (overlap < 0) continue;  // apart cores: GJK's closest points
      answered++;
      if (!isClosedForm(t)) throw new Error(`pair ${i}: expected a closed form`);
      expect(t.closedForm).toBe('box-box');
      expect(Math.abs(t.result.depth - (overlap + ma + mb)), `pair ${i}`).toBeLessThanOrEqual(1e-12);
      expect(t.frames[0].axisKind).toBe('face-a');
    }
    expect(answered).toBeGreaterThan(100);
  });

  it('batch() answers every pair bit for bit as the single queries', () => {
    const shapes = pairs.map((p) => [convex(p.a), convex(p.b)] as const);
    const all = shapes.flat();
    const poses = new Float64Array(pairs.flatMap((p) => [...poseOf(p.a), ...poseOf(p.b)]));
    const idx = new Uint32Array(all.map((_, i) => i));
    for (const query of ['intersect', 'distance', 'penetration'] as const) {
      const out = batch(query, all, poses, idx);
      const single = { intersect, distance, penetration }[query];
      pairs.forEach((p, i) => {
        expect(batchResult(query as 'distance', out, i), `${query} pair ${i}`).toEqual(single(shapes[i][0], poseOf(p.a), shapes[i][1], poseOf(p.b)));
      });
    }
  });
});
