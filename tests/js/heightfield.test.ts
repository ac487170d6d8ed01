// heightfield() and the scale option of mesh(): terrain through the object API and scenes. References are made
// here: the two triangles of each cell written from the documented layout and cast against with a
// Möller–Trumbore test, a flat field against a plane's closed form, and a scaled mesh against the mesh of its
// scaled vertices (computed here, so the answers must agree bit for bit).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createShape, distance, heightfield, init, intersect, mesh, MeshShape, plane, raycast, run, sceneOf, shapecast, sphere,
  stats, type Vec3,
} from '../../web/lib/index';
import { drawShape } from '../../web/lib/three';
import { expectInvalidArguments, type InvalidCase, seeded } from './helpers';

beforeAll(async () => {
  await init();
});

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** The cells' triangles as heightfield.h lays them out: [a, c, b] and [a, d, c] per cell, in order. */
function cellTriangles(h: number[][], sx: number, sz: number): V[][] {
  const at = (i: number, j: number): V => [i * sx, h[i][j], j * sz];
  const out: V[][] = [];
  for (let i = 0; i + 1 < h.length; i++) {
    for (let j = 0; j + 1 < h[0].length; j++) {
      const a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
      out.push([a, c, b], [a, d, c]);
    }
  }
  return out;
}

function mollerTrumbore(o: V, d: V, t: V[]): number | null {
  const e1 = sub(t[1], t[0]), e2 = sub(t[2], t[0]);
  const p = cross(d, e2);
  const det = dot(e1, p);
  if (Math.abs(det) < 1e-300) return null;
  const s = sub(o, t[0]);
  const u = dot(s, p) / det;
  if (u < -1e-12 || u > 1 + 1e-12) return null;
  const q = cross(s, e1);
  const v = dot(d, q) / det;
  if (v < -1e-12 || u + v > 1 + 1e-12) return null;
  return dot(e2, q) / det;
}

function randomGrid(rand: () => number, rows: number, cols: number): number[][] {
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => 2 * rand() - 1));
}

describe('heightfield()', () => {
  it('ray casts hit the cell triangles a brute-force Möller–Trumbore finds, from number[][] and typed arrays', () => {
    const rand = seeded(4);
    const h = randomGrid(rand, 6, 5);
    const tris = cellTriangles(h, 0.5, 0.75);
    const flat = h.flat();
    const fields = [
      heightfield(h, [0.5, 0.75]),
      heightfield({ values: Float64Array.from(flat), rows: 6, columns: 5 }, [0.5, 0.75]),
    ];
    let hits = 0;
    for (let k = 0; k < 60; k++) {
      const o: V = [4 * rand() - 1, 3, 4 * rand() - 0.5];
      const d: V = [rand() - 0.5, -1 - rand(), rand() - 0.5];
      let best = Infinity, tri = -1, second = Infinity;
      tris.forEach((t, i) => {
        const x = mollerTrumbore(o, d, t);
        if (x === null || x < 0 || x > 5) return;
        if (x < best) [second, best, tri] = [best, x, i];
        else if (x < second) second = x;
      });
      for (const f of fields) {
        const r = raycast(f, undefined, { origin: o, direction: d, maxT: 5 });
        expect(r.hit).toBe(tri >= 0);
        if (tri < 0) continue;
        expect(r.t as number).toBeCloseTo(best, 9);
        if (second - best > 1e-9) expect(r.triangle).toBe(tri);
      }
      if (tri >= 0) hits++;
    }
    expect(hits).toBeGreaterThan(20);
    expect(fields[0].type).toBe('heightfield');
    expect(fields[0]).toBeInstanceOf(MeshShape);
    expect(fields[0].report.triangleCount).toBe(2 * 5 * 4);
    for (const f of fields) f.dispose();
  });

  it('a Float32Array is widened: the same as its float32-rounded number[][]', () => {
    const rand = seeded(5);
    const values = Float32Array.from(randomGrid(rand, 3, 4).flat());
    const rows = [0, 1, 2].map((i) => Array.from(values.subarray(4 * i, 4 * i + 4)));
    const a = heightfield({ values, rows: 3, columns: 4 }, [1, 1]);
    const b = heightfield(rows, [1, 1]);
    expect(a.spec()).toEqual(b.spec());
    a.dispose();
    b.dispose();
  });

  it('a flat field answers as a plane inside its extent: distance, intersect, raycast, shapecast', () => {
    const f = heightfield(Array.from({ length: 9 }, () => new Array(9).fill(0)), [0.5, 0.5]);
    const floor = plane([0, 1, 0], 0);
    const pose = { position: [-2, 0, -2] as Vec3 };
    const ball = sphere(0.5);
    for (const y of [1.5, 0.6, 0.4]) {
      const at = { position: [0.3, y, -0.7] as Vec3 };
      const fd = distance(f, pose, ball, at), pd = distance(floor, undefined, ball, at);
      expect(fd.distance).toBeCloseTo(pd.distance, 12);
      expect(intersect(f, pose, ball, at).intersecting).toBe(intersect(floor, undefined, ball, at).intersecting);
      const ray = { origin: [0.35, y + 2, -1.1] as Vec3, direction: [0.1, -1, 0.05] as Vec3, maxT: 10 };
      expect(raycast(f, pose, ray).t as number).toBeCloseTo(raycast(floor, undefined, ray).t as number, 12);
    }
    const cast = shapecast(f, pose, ball, { position: [0.2, 2.5, 0.4] }, { translationB: [0, -4, 0] });
    expect(cast.t as number).toBeCloseTo(0.5, 9);
    for (const s of [f, floor, ball]) s.dispose();
  });

  it('spec() and sceneOf() carry the heightfield and its scale; run() of that scene answers the same', () => {
    const h = [[0, 0.5, 0], [0.25, 1, 0.25], [0, 0.5, 0]];
    const f = heightfield(h, [0.5, 0.25], { scale: [2, 1, -1] });
    expect(f.spec()).toEqual({ type: 'heightfield', heights: h, cellSize: [0.5, 0.25], scale: [2, 1, -1] });
    const ray = { origin: [1, 3, -0.25] as Vec3, direction: [0, -1, 0] as Vec3, maxT: 10 };
    const r = raycast(f, undefined, ray);
    // The mirror in z keeps the normals up; the centre of the hill is at x = 1·2, z = −0.25.
    expect(r.hit).toBe(true);
    expect(r.t as number).toBeCloseTo(2, 12);
    expect((r.normal as Vec3)[1]).toBeGreaterThan(0);
    expect(run(sceneOf('raycast', f, undefined, ray))).toEqual(r);
    // createShape() of the same spec is the same shape.
    const g = createShape({ type: 'heightfield', heights: h, cellSize: [0.5, 0.25], scale: [2, 1, -1] });
    expect(raycast(g, undefined, ray)).toEqual(r);
    f.dispose();
    g.dispose();
  });

  it('drawShape() draws its cells: two triangles each', () => {
    const f = heightfield([[0, 0, 0], [0, 1, 0]], [1, 1]);
    const g = drawShape(f.spec());
    let triangles = 0;
    g.traverse((o) => {
      const geo = (o as { geometry?: { index: { count: number } | null; attributes: { position: { count: number } } } }).geometry;
      if (o.type === 'Mesh' && geo) triangles += (geo.index ? geo.index.count : geo.attributes.position.count) / 3;
    });
    expect(triangles).toBe(4);
    f.dispose();
  });

  it('the wasm heap returns to where it was after dispose()', () => {
    const values = new Float64Array(200 * 200).map((_, k) => Math.sin(k));
    // A first round grows the registry's slots and the module's scratch (kept for reuse).
    for (const f of Array.from({ length: 3 }, () => heightfield({ values, rows: 200, columns: 200 }, [1, 1]))) f.dispose();
    const before = stats();
    const made = Array.from({ length: 3 }, () => heightfield({ values, rows: 200, columns: 200 }, [1, 1], { scale: [1, 2, 1] }));
    expect(stats().heapBytes).toBeGreaterThan(before.heapBytes + 3 * 2 * 199 * 199 * 60);
    for (const f of made) f.dispose();
    expect(stats().heapBytes).toBe(before.heapBytes);
  });

  it('bad heights and cell sizes name the field; the heap is left as it was', () => {
    const heap = stats().heapBytes;
    const cases: InvalidCase[] = [
      [() => heightfield([[0, 0], [0, 0, 0]], [1, 1]), 'heights[1]', /every row must have 2/],
      [() => heightfield([[0, 0]], [1, 1]), 'heights', /at least 2 rows/],
      [() => heightfield([[0], [0]], [1, 1]), 'heights[0]', /at least 2 heights/],
      [() => heightfield([[0, 0], [0, NaN]], [1, 1]), 'heights[1][1]', /finite/],
      [() => heightfield([[0, 0], [0, Infinity]], [1, 1]), 'heights[1][1]', /finite/],
      [() => heightfield([[0, 0], [0, 0]], [0, 1]), 'cellSize[0]', /positive/],
      [() => heightfield([[0, 0], [0, 0]], [1, -1]), 'cellSize[1]', /positive/],
      [() => heightfield([[0, 0], [0, 0]], [1] as never), 'cellSize', /2 numbers/],
      [() => heightfield({ values: new Float64Array(5), rows: 2, columns: 3 }, [1, 1]), 'heights.values', /rows × columns = 6/],
      [() => heightfield({ values: new Float64Array(4), rows: 2.5, columns: 2 }, [1, 1]), 'heights.rows', /whole number/],
      [() => heightfield({ values: [0, 0, 0, 0] as never, rows: 2, columns: 2 }, [1, 1]), 'heights.values', /Float32Array/],
      [() => heightfield({ values: new Float32Array(0), rows: 1002, columns: 1002 }, [1, 1]), 'heights', /the limit is 1000000/],
      [() => heightfield('x' as never, [1, 1]), 'heights', /rows of heights/],
      [() => heightfield([[0, 0], [0, 0]], [1, 1], { margin: 0.1 } as never), 'options.margin', /unknown option/],
      [() => heightfield([[0, 0], [0, 0]], [1, 1], { scale: [1, 0, 1] }), 'scale[1]', /must not be 0/],
      [() => createShape({ type: 'heightfield', heights: [[0, 0], [0, 0]], cellSize: [1, 1], margin: 0.1 }), 'margin', /no margin/],
    ];
    expectInvalidArguments(cases);
    expect(stats().heapBytes).toBe(heap);
  });
});

describe('mesh() with { scale }', () => {
  // A closed octahedron, outward CCW.
  const vertices = [1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1];
  const indices = [0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5];

  it('equals the mesh of the scaled vertices (winding reversed under a mirror), bit for bit', () => {
    const rand = seeded(8);
    for (const k of [[2, 0.5, 1.5], [-1.5, 1, 1], [-1, -2, -0.5]] as Vec3[]) {
      const a = mesh(vertices, indices, { scale: k });
      const scaled = vertices.map((x, i) => x * k[i % 3]);
      const mirrored = k[0] * k[1] * k[2] < 0;
      const tri = mirrored ? indices.map((_, i) => indices[i - (i % 3) + [0, 2, 1][i % 3]]) : indices;
      const b = mesh(scaled, tri);
      const ball = sphere(0.3);
      for (let n = 0; n < 20; n++) {
        const o: Vec3 = [6 * rand() - 3, 6 * rand() - 3, 5];
        const ray = { origin: o, direction: [-o[0] * rand(), -o[1] * rand(), -5] as Vec3, maxT: 2 };
        const ra = raycast(a, undefined, ray);
        expect(ra).toEqual(raycast(b, undefined, ray));
        if (ra.hit) expect(dot(ra.normal as V, ray.direction)).toBeLessThan(0);
        const at = { position: [4 * rand() - 2, 4 * rand() - 2, 4 * rand() - 2] as Vec3 };
        expect(distance(a, undefined, ball, at)).toEqual(distance(b, undefined, ball, at));
        expect(intersect(ball, at, a, undefined)).toEqual(intersect(ball, at, b, undefined));
      }
      // Written back as given: the unscaled vertices and triangles, and the scale.
      const triples = <T,>(xs: number[]) => Array.from({ length: xs.length / 3 }, (_, i) => xs.slice(3 * i, 3 * i + 3) as T);
      expect(a.spec()).toEqual({ type: 'mesh', vertices: triples<Vec3>(vertices), triangles: triples<[number, number, number]>(indices), scale: k });
      for (const s of [a, b, ball]) s.dispose();
    }
  });

  it('bad scales and options name the field', () => {
    const cases: InvalidCase[] = [
      [() => mesh(vertices, indices, { scale: [1, 0, 1] }), 'scale[1]', /must not be 0/],
      [() => mesh(vertices, indices, { scale: [1, 1] as never }), 'scale', /array of 3 numbers/],
      [() => mesh(vertices, indices, { scale: [1, NaN, 1] }), 'scale[1]', /finite/],
      [() => mesh(vertices, indices, { scale: [2e15, 1, 1] }), 'scale[0]', /1e15/],
      [() => mesh(vertices.map((x) => 4 * x), indices, { scale: [5e14, 1, 1] }), 'scale', /grow past 1e15/],
      [() => mesh(vertices, indices, { margin: 0.1 } as never), 'options.margin', /no margin/],
      [() => mesh(vertices, indices, 3 as never), 'options', /must be an object/],
    ];
    expectInvalidArguments(cases);
  });
});
