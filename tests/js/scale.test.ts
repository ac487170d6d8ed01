// The `scale` option and the scene format's "scale" against independent answers: a scaled sphere is the
// ellipsoid of scaled radii (a point's distance by bisection on the ellipse of the axis plane it lies in, rays by
// the quadratic in the unit sphere), a scaled box the box of |s|·h, a mirrored polytope the polytope of the
// mirrored points; batches agree with single queries; scenes and specs keep the scale as given; bad scales are
// errors naming the component.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batch, batchResult, box, capsule, contains, cylinder, distance, init, penetration, polytope, project, raycast, run,
  shapeSurface, sphere, type Scene, type Vec3,
} from '../../web/lib/index';
import { catchError } from './helpers';

beforeAll(async () => {
  await init();
});

const TOL = 1e-9;

/** Distance from (x, y) outside the ellipse x²/a² + y²/b² = 1 (a, b > 0), by bisection on Eberly's t. */
function ellipseDistance(a: number, b: number, x: number, y: number): number {
  x = Math.abs(x);
  y = Math.abs(y);
  // F(t) = (a x/(t + a²))² + (b y/(t + b²))² − 1 decreases from > 0 at t = 0 (outside) to −1.
  const F = (t: number) => (a * x / (t + a * a)) ** 2 + (b * y / (t + b * b)) ** 2 - 1;
  let lo = 0, hi = Math.hypot(a * x, b * y);
  for (let i = 0; i < 200; ++i) {
    const mid = 0.5 * (lo + hi);
    if (F(mid) > 0) lo = mid; else hi = mid;
  }
  const t = 0.5 * (lo + hi);
  const px = a * a * x / (t + a * a), py = b * b * y / (t + b * b);
  return Math.hypot(x - px, y - py);
}

describe('scale', () => {
  it('a sphere scaled by (a, b, c) is the ellipsoid of radii (a r, b r, c r)', () => {
    const r = 0.8, sc: Vec3 = [2, -0.5, 1.5];
    const s = sphere(r, { scale: sc });
    const pt = sphere(0);
    // Points in the x–y plane: the ellipse of semi-axes 2r, 0.5r.
    for (const [x, y] of [[3, 0.2], [0.5, 2], [-2.5, -1], [1.9, 0.6]]) {
      const d = distance(s, undefined, pt, { position: [x, y, 0] }).distance;
      expect(Math.abs(d - ellipseDistance(2 * r, 0.5 * r, x, y))).toBeLessThan(TOL * 4);
    }
    // A ray along z through (0.3, 0.1): enters at z = −c r √(1 − (x/ar)² − (y/br)²).
    const [x, y] = [0.3, 0.1];
    const z = 1.5 * r * Math.sqrt(1 - (x / (2 * r)) ** 2 - (y / (0.5 * r)) ** 2);
    const hit = raycast(s, undefined, { origin: [x, y, -5], direction: [0, 0, 1], maxT: 10 });
    expect(hit.hit).toBe(true);
    expect(Math.abs((hit.t ?? Number.NaN) - (5 - z))).toBeLessThan(TOL * 5);
    // Penetration with a slab whose top is at y = −0.2: the ellipsoid reaches y = −0.4.
    const slab = box([20, 1, 20]);
    const p = penetration(s, undefined, slab, { position: [0, -1.2, 0] });
    expect(Math.abs(p.depth - 0.2)).toBeLessThan(TOL * 20);
    for (const o of [s, pt, slab]) o.dispose();
  });

  it('a scaled box is the box of |s|·h (the same bits), in batches too', () => {
    const a = box([1, 0.5, 2], { scale: [-2, 0.5, 3] });
    const b = box([2, 0.25, 6]);
    const ball = sphere(0.4);
    const poses = [0.3, 2.1, -0.2, 0, 0, 0, 1];
    expect(distance(a, undefined, ball, poses)).toEqual(distance(b, undefined, ball, poses));
    expect(penetration(a, undefined, ball, [0.3, 0.1, 5.9, 0, 0, 0, 1])).toEqual(penetration(b, undefined, ball, [0.3, 0.1, 5.9, 0, 0, 0, 1]));
    const identity = [0, 0, 0, 0, 0, 0, 1];
    const out = batch('distance', [a, b, ball], [...identity, ...identity, ...poses], [0, 2, 1, 2]);
    expect(batchResult('distance', out, 0)).toEqual(batchResult('distance', out, 1));
    expect(batchResult('distance', out, 0)).toEqual(distance(a, undefined, ball, poses));
    for (const o of [a, b, ball]) o.dispose();
  });

  it('a mirrored polytope is the polytope of the mirrored points', () => {
    const pts: Vec3[] = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.6, 0.6, 0.6]];
    const mirrored = polytope(pts, { scale: [-1, 2, 1] });
    const byHand = polytope(pts.map(([x, y, z]) => [-x, 2 * y, z] as Vec3));
    const ball = sphere(0.3);
    for (const pose of [[-1.5, 0.5, 0.2, 0, 0, 0, 1], [-0.3, 0.4, 0.2, 0, 0, 0, 1], [1, 1, 1, 0, 0, 0, 1]]) {
      expect(distance(mirrored, undefined, ball, pose)).toEqual(distance(byHand, undefined, ball, pose));
      expect(penetration(mirrored, undefined, ball, pose)).toEqual(penetration(byHand, undefined, ball, pose));
    }
    // The hull query of a scene: faces outward (every vertex on the inner side of every face).
    const h = run({ version: 1, query: 'hull', shapes: [{ type: 'polytope', points: pts, scale: [-1, 2, 1] }] }) as {
      vertices: Vec3[]; faces: [number, number, number][];
    };
    const c = [0, 1, 2].map((i) => h.vertices.reduce((s, v) => s + v[i], 0) / h.vertices.length);
    for (const [i, j, k] of h.faces) {
      const [a, b, d] = [h.vertices[i], h.vertices[j], h.vertices[k]];
      const u = b.map((x, n) => x - a[n]), v = d.map((x, n) => x - a[n]);
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      expect(n[0] * (c[0] - a[0]) + n[1] * (c[1] - a[1]) + n[2] * (c[2] - a[2])).toBeLessThan(0);
    }
    for (const o of [mirrored, byHand, ball]) o.dispose();
  });

  it('an uneven cylinder: contains is the unscaled test at S⁻¹p', () => {
    const sc: Vec3 = [2, 1, 0.5];
    const c = cylinder(0.8, 1, { scale: sc });
    let seed = 5;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 5 - 2.5;
    for (let i = 0; i < 200; ++i) {
      const p: Vec3 = [rand(), rand(), rand()];
      const q = p.map((x, k) => x / sc[k]);
      const inside = Math.hypot(q[0], q[2]) <= 0.8 && Math.abs(q[1]) <= 1;
      expect(contains(c, undefined, p).inside).toBe(inside);
    }
    c.dispose();
  });

  it('batches of scaled shapes answer as the single calls, bit for bit', () => {
    const shapes = [
      cylinder(0.8, 1, { scale: [2, 1, 0.5] }), capsule(0.3, 0.6, { scale: [1, 2, 1.5] }),
      polytope([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], { scale: [-1, 1, 2] }), sphere(0.5, { scale: [1, 3, 1] }),
    ];
    let seed = 9;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const poses = new Float64Array(shapes.flatMap((_, i) => [i, rand(), rand(), 0, 0, Math.sin(0.3 * i), Math.cos(0.3 * i)]));
    const n = 40;
    const indices = new Uint32Array(n).map((_, i) => i % shapes.length);
    const points = new Float64Array(3 * n).map(() => (rand() - 0.3) * 4);
    for (const q of ['contains', 'project'] as const) {
      const out = batch(q, shapes, poses, indices, { points });
      for (let i = 0; i < n; i++) {
        const k = indices[i];
        const pose = Array.from(poses.subarray(7 * k, 7 * k + 7));
        const pt = Array.from(points.subarray(3 * i, 3 * i + 3)) as Vec3;
        // A batch's layout has no room for project's feature (toEqual ignores the undefined key).
        const single = q === 'contains' ? contains(shapes[k], pose, pt) : { ...project(shapes[k], pose, pt), feature: undefined };
        expect(batchResult(q as 'project', out, i)).toEqual(single);
      }
    }
    const pairs = [0, 1, 1, 2, 2, 3, 3, 0];
    const d = batch('penetration', shapes, poses, pairs);
    for (let i = 0; i < 4; i++) {
      const [a, b] = [pairs[2 * i], pairs[2 * i + 1]];
      expect(batchResult('penetration', d, i)).toEqual(penetration(shapes[a], Array.from(poses.subarray(7 * a, 7 * a + 7)), shapes[b], Array.from(poses.subarray(7 * b, 7 * b + 7))));
    }
    for (const s of shapes) s.dispose();
  });

  it('specs and scenes keep the scale as given, and leave it out when it is [1, 1, 1]', () => {
    const c = capsule(0.4, 0.8, { scale: [2, 1, 1], margin: 0.1 });
    expect(c.spec()).toEqual({ type: 'capsule', radius: 0.4, halfHeight: 0.8, margin: 0.1, scale: [2, 1, 1] });
    const plain = sphere(1, { scale: [1, 1, 1] });
    expect(plain.spec()).toEqual({ type: 'sphere', radius: 1 });
    // The drawn surface is scaled: the capsule reaches x = 2·0.4 + 0.1 and y = 0.8 + 0.4 + 0.1.
    const surf = shapeSurface({ type: 'capsule', radius: 0.4, halfHeight: 0.8, margin: 0.1, scale: [2, 1, 1] }, 400);
    const maxX = Math.max(...surf.map((p) => p[0])), maxY = Math.max(...surf.map((p) => p[1]));
    expect(maxX).toBeLessThanOrEqual(0.9 + TOL);
    expect(maxX).toBeGreaterThan(0.88);
    expect(maxY).toBeLessThanOrEqual(1.3 + TOL);
    expect(maxY).toBeGreaterThan(1.29);
    c.dispose();
    plain.dispose();
  });

  it('bad scales are errors naming the component', () => {
    const cases: [() => unknown, string][] = [
      [() => box([1, 1, 1], { scale: [1, 0, 1] }), 'scale[1]'],
      [() => sphere(1, { scale: [1, 1, Number.NaN] }), 'scale[2]'],
      [() => sphere(1, { scale: [1e-16, 1, 1] }), 'scale[0]'],
      [() => sphere(1, { scale: [1, 1] as unknown as Vec3 }), 'scale'],
      [() => polytope([[0, 0, 0], [1, 0, 0]], { scale: [0, 1, 1] }), 'scale[0]'],
      [() => polytope([[0, 0, 0]], { scale: [1, 1] as unknown as Vec3 }), 'scale'],
    ];
    for (const [f, field] of cases) expect(catchError(f).field).toBe(field);
    const scene: Scene = { version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: 1, scale: [1, 0, 1] }, { type: 'point' }] };
    expect(catchError(() => run(scene)).field).toBe('shapes[0].scale[1]');
    expect(catchError(() => box([1, 1, 1], { size: 2 } as never)).field).toBe('options.size');
  });
});
