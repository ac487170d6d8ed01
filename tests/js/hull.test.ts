import { beforeAll, describe, expect, it } from 'vitest';
import { boundingVolumes, CollidoscopeError, hull, init, run, trace, type HullResult, type ObbResult, type Scene, type Vec3 } from '../../web/lib/index';

beforeAll(async () => {
  await init();
});

const hullOf = (points: Vec3[]): Scene & { query: 'hull' } => ({ version: 1, query: 'hull', shapes: [{ type: 'polytope', points }] });
const key = (p: Vec3) => p.join(',');

describe('hull query', () => {
  it('a box: its 8 corners, 12 outward triangles, 6 quadrilaterals', () => {
    const h = run({ version: 1, query: 'hull', shapes: [{ type: 'box', halfExtents: [1, 2, 3], position: [5, 0, 0] }] }) as HullResult;
    expect(h.kind).toBe('polyhedron');
    const corners = new Set<string>();
    for (const sx of [4, 6]) for (const sy of [-2, 2]) for (const sz of [-3, 3]) corners.add(key([sx, sy, sz]));
    expect(new Set(h.vertices.map(key))).toEqual(corners);
    expect(h.faces.length).toBe(12);
    expect(h.polygons.map((p) => p.length).sort()).toEqual([4, 4, 4, 4, 4, 4]);
    // outward: the centre (5, 0, 0) is behind every triangle
    for (const [a, b, c] of h.faces) {
      const [p, q, r] = [h.vertices[a], h.vertices[b], h.vertices[c]];
      const u = [q[0] - p[0], q[1] - p[1], q[2] - p[2]], v = [r[0] - p[0], r[1] - p[1], r[2] - p[2]];
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      expect(n[0] * (5 - p[0]) + n[1] * (0 - p[1]) + n[2] * (0 - p[2])).toBeLessThan(0);
    }
  });

  it('an integer grid with many coplanar points: only the 8 corners are extreme', () => {
    const pts: Vec3[] = [];
    for (let x = 0; x <= 4; x++) for (let y = 0; y <= 4; y++) for (let z = 0; z <= 4; z++) pts.push([x, y, z]);
    const h = run(hullOf(pts)) as HullResult;
    expect(h.vertices.length).toBe(8);
    expect(h.polygons.length).toBe(6);
    // each vertex has exactly 3 neighbours along the cube's edges... at least 3, symmetric
    h.adjacency.forEach((adj, i) => {
      expect(adj.length).toBeGreaterThanOrEqual(3);
      for (const j of adj) expect(h.adjacency[j]).toContain(i);
    });
  });

  it('flat, collinear and single-point inputs give typed hulls', () => {
    const square: Vec3[] = [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1], [0.5, 0.5, 1], [0.5, 0, 1]];
    const flat = run(hullOf(square)) as HullResult;
    expect(flat.kind).toBe('polygon');
    expect(new Set(flat.vertices.map(key))).toEqual(new Set(['0,0,1', '1,0,1', '1,1,1', '0,1,1']));
    expect(Math.abs(flat.normal[2])).toBe(1);
    const line = run(hullOf([[0, 0, 0], [1, 1, 1], [3, 3, 3], [2, 2, 2]])) as HullResult;
    expect(line.kind).toBe('segment');
    expect(new Set(line.vertices.map(key))).toEqual(new Set(['0,0,0', '3,3,3']));
    const point = run(hullOf([[1, 2, 3], [1, 2, 3], [1, 2, 3]])) as HullResult;
    expect(point.kind).toBe('point');
    expect(point.vertices).toEqual([[1, 2, 3]]);
  });

  it('points on a sphere are all extreme', () => {
    const pts: Vec3[] = [];
    const n = 200;
    for (let i = 0; i < n; i++) {
      const y = 1 - (2 * i + 1) / n, r = Math.sqrt(1 - y * y), phi = i * 2.399963229728653;
      pts.push([r * Math.cos(phi), y, r * Math.sin(phi)]);
    }
    const h = run(hullOf(pts)) as HullResult;
    expect(h.vertices.length).toBe(n);
    expect(h.faces.length).toBe(2 * n - 4); // Euler for a triangulated sphere
  });

  it('curved shapes are refused with the field named', () => {
    try {
      run({ version: 1, query: 'hull', shapes: [{ type: 'ellipsoid', radii: [1, 2, 3] }] });
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(CollidoscopeError);
      expect((e as CollidoscopeError).field).toBe('shapes[0].type');
    }
  });
});

describe('hull trace', () => {
  const cloud: Vec3[] = [];
  let seed = 3;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  for (let i = 0; i < 80; i++) cloud.push([rnd(), rnd(), rnd()]);

  it('ends with the same hull as run, and every cone frame joins the eye to the horizon', () => {
    const t = trace(hullOf(cloud));
    expect(t.result).toEqual(run(hullOf(cloud)));
    expect(t.frames[0].kind).toBe('extremes');
    expect(t.frames[0].points.length).toBe(80);
    expect(t.frames[t.frames.length - 1].kind).toBe('done');
    for (const f of t.frames) {
      expect(f.line).toBeGreaterThanOrEqual(1);
      expect(f.line).toBeLessThanOrEqual(t.pseudocode.length);
      if (f.kind === 'cone') {
        expect(f.added.length).toBeGreaterThanOrEqual(3);
        for (const id of f.added) {
          const face = f.faces.find((x) => x.id === id)!;
          expect(face.v).toContain(f.eye);
        }
      }
      if (f.kind === 'horizon') {
        // one closed loop: each edge ends where the next begins
        for (let k = 0; k < f.horizon.length; k++) expect(f.horizon[k][1]).toBe(f.horizon[(k + 1) % f.horizon.length][0]);
      }
    }
  });

  it('refuses to trace more than 5000 points, naming the field', () => {
    const big: Vec3[] = Array.from({ length: 5001 }, (_, i) => [Math.cos(i), Math.sin(i * 1.3), (i % 97) / 97]);
    try {
      trace(hullOf(big));
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(CollidoscopeError);
      expect((e as CollidoscopeError).field).toBe('shapes[0].points');
      expect((e as CollidoscopeError).message).toMatch(/5000/);
    }
    expect((run(hullOf(big)) as HullResult).kind).toBe('polyhedron');
  });
});

describe('obb query', () => {
  const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

  it('a rotated box: the box itself (volume 8·hx·hy·hz), inside the AABB volume, containing every corner', () => {
    const scene: Scene = { version: 1, query: 'obb', shapes: [{ type: 'box', halfExtents: [1, 2, 3], position: [2, -1, 4], rotation: [0.3, 0.2, 0.1, 0.9] }] };
    const r = run(scene) as ObbResult;
    expect(Math.abs(r.volume - 48)).toBeLessThan(1e-9);
    expect(r.volume).toBeLessThanOrEqual(r.aabb.volume);
    expect(r.fits.points.volume).toBeGreaterThanOrEqual(r.volume - 1e-9);
    const corners = (run({ ...scene, query: 'hull' }) as HullResult).vertices;
    for (const p of corners) {
      const d: Vec3 = [p[0] - r.center[0], p[1] - r.center[1], p[2] - r.center[2]];
      r.axes.forEach((axis, k) => expect(Math.abs(dot(d, axis))).toBeLessThanOrEqual(r.halfExtents[k] + 1e-9));
    }
    // axes orthonormal
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(dot(r.axes[i], r.axes[j])).toBeCloseTo(i === j ? 1 : 0, 12);
    // the bounding sphere of a box is its circumsphere: radius √(1 + 4 + 9)
    expect(Math.abs(r.sphere.radius - Math.sqrt(14))).toBeLessThan(1e-9);
  });

  it('never larger than the axis-aligned box, even for an axis-aligned cloud', () => {
    const pts: Vec3[] = [];
    for (let i = 0; i < 100; i++) pts.push([Math.cos(i * 7.1) * 3, Math.sin(i * 3.3), ((i * 37) % 11) / 11]);
    const r = run({ version: 1, query: 'obb', shapes: [{ type: 'polytope', points: pts }] }) as ObbResult;
    expect(r.volume).toBeLessThanOrEqual(r.aabb.volume * (1 + 1e-12));
  });
});

describe('hull() and boundingVolumes() on typed arrays', () => {
  const cube: Vec3[] = [];
  for (const x of [-1, 1]) for (const y of [-2, 2]) for (const z of [-3, 3]) cube.push([x, y, z]);

  it('gives the same answer as the scene query, for Float64Array, Float32Array, flat numbers and triples', () => {
    const viaScene = run({ version: 1, query: 'hull', shapes: [{ type: 'polytope', points: cube }] }) as HullResult;
    const flat = cube.flat();
    for (const input of [Float64Array.from(flat), Float32Array.from(flat), flat, cube]) {
      expect(hull(input)).toEqual(viaScene);
    }
    const bounds = boundingVolumes(Float32Array.from(flat));
    expect(bounds).toEqual(run({ version: 1, query: 'obb', shapes: [{ type: 'polytope', points: cube }] }));
    expect(Math.abs(bounds.volume - 48)).toBeLessThan(1e-9);
  });

  it('a three.js-like Float32Array of 30 000 points: every point inside or on the hull', () => {
    const n = 30000;
    const pos = new Float32Array(3 * n);
    let seed = 11;
    const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 2 - 1;
    for (let i = 0; i < 3 * n; i += 3) pos.set([rnd() * 2, rnd(), rnd() * 0.5], i);
    const h = hull(pos);
    expect(h.kind).toBe('polyhedron');
    let worst = -Infinity;
    for (const [a, b, c] of h.faces) {
      const [p, q, r] = [h.vertices[a], h.vertices[b], h.vertices[c]];
      const e1 = [q[0] - p[0], q[1] - p[1], q[2] - p[2]], e2 = [r[0] - p[0], r[1] - p[1], r[2] - p[2]];
      const nx = e1[1] * e2[2] - e1[2] * e2[1], ny = e1[2] * e2[0] - e1[0] * e2[2], nz = e1[0] * e2[1] - e1[1] * e2[0];
      const len = Math.hypot(nx, ny, nz);
      for (let i = 0; i < n; i++) {
        const d = (nx * (pos[3 * i] - p[0]) + ny * (pos[3 * i + 1] - p[1]) + nz * (pos[3 * i + 2] - p[2])) / len;
        if (d > worst) worst = d;
      }
    }
    expect(worst).toBeLessThanOrEqual(h.tolerance * 2);
  });

  const bad: [string, unknown, string, RegExp][] = [
    ['empty', new Float64Array(0), 'points', /empty/],
    ['not a multiple of 3', [1, 2, 3, 4], 'points', /multiple of 3/],
    ['NaN', new Float64Array([0, 0, 0, 1, NaN, 1]), 'points[1]', /finite/],
    ['Infinity in a triple', [[0, 0, 0], [Infinity, 1, 1]], 'points[1]', /finite/],
    ['a triple of 2', [[0, 0, 0], [1, 1]], 'points[1]', /3 numbers/],
    ['a string', [[0, 0, '1']], 'points[0][2]', /number/],
  ];
  for (const [name, input, field, pattern] of bad) {
    it(`rejects ${name}, naming ${field}`, () => {
      try {
        hull(input as Float64Array);
        throw new Error('no error');
      } catch (e) {
        expect(e).toBeInstanceOf(CollidoscopeError);
        expect((e as CollidoscopeError).field).toBe(field);
        expect((e as CollidoscopeError).message).toMatch(pattern);
      }
    });
  }
});
