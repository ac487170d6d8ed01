// Mesh results in batches: the triangle (and a ray's barycentric coordinates) that batch() and createBatch() write
// to `features` and `barycentric`, and contacts of many pairs in one call (contactsBatch()). References: the single
// queries (raycast(), contacts(), contact()) and the scene route (run(sceneOf(...))), whose results name the
// triangle; every number must be theirs bit for bit. Meshes come from ./mesh-gen (random soups, a torus, an
// icosphere, a floor), poses and rays from a seeded generator.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batch, batchResult, box, capsule, compound, contacts, contactsBatch, contactsBatchResult, createBatch, distance, init, intersect,
  mesh, raycast, run, sceneOf, shapecast, sphere, CONTACT_RECORD_STRIDE, type ConvexShape, type MeshShape,
} from '../../web/lib/index';
import { catchError, randomPose, seeded } from './helpers';
import { floor, icosphere, randomSoup, torus } from './mesh-gen';

beforeAll(async () => {
  await init();
});

const meshes = (rand: () => number): MeshShape[] => [torus(16, 8, 1, 0.35), icosphere(2), randomSoup(rand, 80)].map((s) => mesh(s.vertices, s.indices));
const slice = (a: ArrayLike<number>, i: number, n: number): number[] => Array.from(a).slice(n * i, n * i + n);

describe('batch() features and barycentric', () => {
  it('raycast: triangle and barycentric equal raycast() bit for bit, and leave the results as they were', () => {
    const rand = seeded(181);
    const shapes: ConvexShape[] = [...meshes(rand), sphere(0.6)];
    const poses = shapes.flatMap(() => randomPose(rand, 0.6));
    const n = 400;
    const which = new Uint32Array(n);
    const rays = new Float64Array(7 * n);
    for (let i = 0; i < n; i++) {
      which[i] = i % shapes.length;
      const o = [0, 1, 2].map(() => 6 * rand() - 3);
      const target = [0, 1, 2].map((k) => poses[7 * which[i] + k] + 2.4 * rand() - 1.2);
      rays.set([...o, ...target.map((t, k) => t - o[k]), 1 + rand()], 7 * i);
    }
    const features = new Int32Array(2 * n).fill(7);
    const barycentric = new Float64Array(3 * n);
    const out = batch('raycast', shapes, poses, which, { rays, features, barycentric });
    expect(Array.from(out)).toEqual(Array.from(batch('raycast', shapes, poses, which, { rays })));
    let hits = 0;
    for (let i = 0; i < n; i++) {
      const s = shapes[which[i]];
      const single = raycast(s, slice(poses, which[i], 7), { origin: slice(rays, i, 7).slice(0, 3) as [number, number, number], direction: slice(rays, i, 7).slice(3, 6) as [number, number, number], maxT: rays[7 * i + 6] });
      const decoded = batchResult('raycast', out, i, { features, barycentric, shapes, pairs: which });
      if (which[i] === 3) {
        // Not a mesh: raycast() names no barycentric coordinates, and neither does batchResult() given the shapes.
        expect(decoded).toEqual(single);
        expect(batchResult('raycast', out, i, { barycentric })).toMatchObject({ barycentric: null });
        expect(slice(features, i, 2)).toEqual([-1, -1]);
        continue;
      }
      expect(decoded).toEqual(single);
      expect(features[2 * i + 1]).toBe(-1);
      if (single.hit) hits++;
    }
    expect(hits).toBeGreaterThan(150);
    for (const s of shapes) s.dispose();
  });

  it('intersect, distance and shapecast mesh–convex: the triangle run() and the single queries name, the mesh on either side', () => {
    const rand = seeded(182);
    const ms = meshes(rand);
    const convex = [capsule(0.2, 0.3), box([0.3, 0.2, 0.25]), sphere(0.4)];
    const shapes: ConvexShape[] = [...ms, ...convex];
    const n = 90;
    const poses = shapes.flatMap(() => randomPose(rand, 0.5));
    const pairs = new Uint32Array(2 * n);
    for (let i = 0; i < n; i++) {
      const m = i % 3, c = 3 + Math.floor(i / 3) % 3;
      // A mesh first, then second, then a pair of convex shapes (features −1: no triangle).
      pairs.set(i % 9 === 8 ? [3, 4] : i % 2 === 0 ? [m, c] : [c, m], 2 * i);
    }
    const motions = new Float64Array(6 * n).map(() => 2 * rand() - 1);
    const withIntersections = { intersect: 0, shapecast: 0 };
    for (const q of ['intersect', 'distance', 'shapecast'] as const) {
      const features = new Int32Array(2 * n);
      const options = q === 'shapecast' ? { motions } : {};
      const out = batch(q, shapes, poses, pairs, { ...options, features });
      expect(Array.from(out)).toEqual(Array.from(batch(q, shapes, poses, pairs, options)));
      for (let i = 0; i < n; i++) {
        const [a, b] = [pairs[2 * i], pairs[2 * i + 1]];
        const args = [shapes[a], slice(poses, a, 7), shapes[b], slice(poses, b, 7)] as const;
        const motion = { translationA: slice(motions, i, 6).slice(0, 3) as [number, number, number], translationB: slice(motions, i, 6).slice(3) as [number, number, number] };
        const decoded = batchResult(q as 'distance', out, i, { features, shapes, pairs });
        if (a >= 3 && b >= 3) {
          const single = q === 'intersect' ? intersect(...args) : q === 'distance' ? distance(...args) : shapecast(...args, motion);
          expect(decoded).toEqual(single);
          expect(slice(features, i, 2)).toEqual([-1, -1]);
          continue;
        }
        const scene = q === 'shapecast' ? sceneOf(q, ...args, motion) : sceneOf(q, ...args);
        const expected = run(scene) as unknown as { triangle: number | null; intersecting?: boolean; hit?: boolean };
        expect(decoded).toEqual(expected);
        // The single query names the same triangle.
        expect(q === 'intersect' ? intersect(...args) : q === 'distance' ? distance(...args) : shapecast(...args, motion)).toEqual(expected);
        // The triangle sits at the mesh's side.
        expect(features[2 * i + (a < 3 ? 1 : 0)]).toBe(-1);
        if (expected.intersecting === true) withIntersections.intersect++;
        if (expected.hit === true) withIntersections.shapecast++;
      }
    }
    expect(withIntersections.intersect).toBeGreaterThan(5);
    expect(withIntersections.shapecast).toBeGreaterThan(10);
    for (const s of shapes) s.dispose();
  });

  it('mesh–mesh intersect fills both triangles: run()\'s pair', () => {
    const rand = seeded(183);
    const ms = meshes(rand);
    const poses = ms.flatMap(() => randomPose(rand, 0.8));
    const pairs = new Uint32Array([0, 1, 1, 2, 2, 0, 0, 0]);
    const features = new Int32Array(8);
    batch('intersect', ms, poses, pairs, { features });
    let found = 0;
    for (let i = 0; i < 4; i++) {
      const [a, b] = [pairs[2 * i], pairs[2 * i + 1]];
      const r = run(sceneOf('intersect', ms[a], slice(poses, a, 7), ms[b], slice(poses, b, 7))) as unknown as { triangles: [number, number] | null };
      expect(slice(features, i, 2)).toEqual(r.triangles ?? [-1, -1]);
      if (r.triangles !== null) found++;
    }
    expect(found).toBeGreaterThan(0);
    for (const s of ms) s.dispose();
  });

  it('createBatch({ features, barycentric }) writes what batch() writes', () => {
    const rand = seeded(184);
    const shapes: ConvexShape[] = [...meshes(rand), sphere(0.5)];
    const poses = shapes.flatMap(() => randomPose(rand, 0.5));
    const n = 64;
    const which = new Uint32Array(n).map((_, i) => i % shapes.length);
    const rays = new Float64Array(7 * n);
    for (let i = 0; i < n; i++) rays.set([3 * rand() - 1.5, 3, 3 * rand() - 1.5, rand() - 0.5, -3, rand() - 0.5, 2], 7 * i);
    const features = new Int32Array(2 * n);
    const barycentric = new Float64Array(3 * n);
    const out = batch('raycast', shapes, poses, which, { rays, features, barycentric });
    const b = createBatch('raycast', shapes, { capacity: n, features: true, barycentric: true });
    b.poses.set(poses);
    b.pairs.set(which);
    b.rays.set(rays);
    expect(Array.from(b.run())).toEqual(Array.from(out));
    expect(Array.from(b.features)).toEqual(Array.from(features));
    expect(Array.from(b.barycentric)).toEqual(Array.from(barycentric));
    expect(features.some((f) => f >= 0)).toBe(true);
    b.dispose();
    const d = createBatch('distance', shapes, { capacity: 4, features: true });
    d.poses.set(poses);
    d.pairs.set([0, 3, 3, 1]);
    d.run(2);
    expect(d.features[0]).toBeGreaterThanOrEqual(0);
    expect(d.features[1]).toBe(-1);
    expect(d.features[2]).toBe(-1);
    expect(d.features[3]).toBeGreaterThanOrEqual(0);
    expect(catchError(() => d.barycentric).field).toBe('barycentric');
    d.dispose();
    const plain = createBatch('distance', shapes, { capacity: 1 });
    expect(catchError(() => plain.features).field).toBe('features');
    plain.dispose();
    for (const s of shapes) s.dispose();
  });

  it('wrong types and lengths are clear errors naming the option', () => {
    const f = floor(2);
    const m = mesh(f.vertices, f.indices);
    const s = sphere(0.5);
    const poses = [0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1];
    const pairs = [0, 1];
    const rays = [0, 1, 0, 0, -1, 0, 2];
    expect(catchError(() => batch('distance', [m, s], poses, pairs, { features: new Float64Array(2) as unknown as Int32Array })).field).toBe('options.features');
    expect(catchError(() => batch('distance', [m, s], poses, pairs, { features: new Int32Array(1) })).message).toMatch(/at least 2 numbers per query \(2\)/);
    expect(catchError(() => batch('distance', [m, s], poses, pairs, { barycentric: new Float64Array(3) })).message).toMatch(/only used by raycast/);
    expect(catchError(() => batch('raycast', [m], poses.slice(0, 7), [0], { rays, barycentric: new Float64Array(2) })).field).toBe('options.barycentric');
    expect(catchError(() => batch('raycast', [m], poses.slice(0, 7), [0], { rays, barycentric: [0, 0, 0] as unknown as Float64Array })).field).toBe('options.barycentric');
    expect(catchError(() => createBatch('distance', [m, s], { capacity: 1, features: 1 as unknown as boolean })).field).toBe('options.features');
    expect(catchError(() => createBatch('distance', [m, s], { capacity: 1, barycentric: true })).field).toBe('options.barycentric');
    const out = batch('distance', [m, s], poses, pairs);
    expect(catchError(() => batchResult('distance', out, 0, { features: new Int32Array(1) })).field).toBe('extras.features');
    expect(catchError(() => batchResult('distance', out, 0, { barycentric: new Float64Array(3) })).field).toBe('extras.barycentric');
    expect(catchError(() => batchResult('distance', out, 0, { triangles: 1 } as never)).field).toBe('options.triangles');
    // Features are named from the pair's shapes: batch()'s shapes and pairs come with them.
    expect(catchError(() => batchResult('distance', out, 0, { features: new Int32Array(2) })).field).toBe('extras.shapes');
    expect(catchError(() => batchResult('distance', out, 0, { features: new Int32Array(2), shapes: [m, s] })).field).toBe('extras.pairs');
    expect(catchError(() => batchResult('distance', out, 0, { features: new Int32Array(2), shapes: [m, s], pairs: [0] })).message).toMatch(/at least 2 numbers/);
    m.dispose();
    s.dispose();
  });
});

describe('contactsBatch()', () => {
  it('equals contacts() of every pair bit for bit, meshes on either side and convex pairs', () => {
    const rand = seeded(185);
    const f = floor(6);
    const shapes: ConvexShape[] = [mesh(f.vertices, f.indices), ...meshes(rand), capsule(0.3, 0.5), box([0.4, 0.3, 0.35]), sphere(0.5)];
    const poses = shapes.flatMap((_, i) => randomPose(rand, i === 0 ? 0.1 : 0.9));
    const list: number[] = [];
    for (let a = 0; a < shapes.length; a++) for (let b = 0; b < shapes.length; b++) if (a !== b && (a >= 4 || b >= 4)) list.push(a, b);
    const pairs = new Uint32Array(list);
    const n = list.length / 2;
    const margins = new Float64Array(n).map(() => 0.2 * rand());
    const r = contactsBatch(shapes, poses, pairs, { margins });
    expect(r.offsets).toHaveLength(n + 1);
    expect(r.contacts).toHaveLength(CONTACT_RECORD_STRIDE * r.offsets[n]);
    expect(r.truncated).toBe(false);
    let meshContacts = 0, convexContacts = 0;
    for (let i = 0; i < n; i++) {
      const [a, b] = [pairs[2 * i], pairs[2 * i + 1]];
      const single = contacts(shapes[a], slice(poses, a, 7), shapes[b], slice(poses, b, 7), { margin: margins[i] });
      expect(contactsBatchResult(r, i)).toEqual(single);
      if (a < 4 || b < 4) meshContacts += single.contacts.length;
      else convexContacts += single.contacts.length;
    }
    expect(meshContacts).toBeGreaterThan(20);
    expect(convexContacts).toBeGreaterThan(2);
    // One margin for all, into a caller's array: the same as margins filled with it.
    const out = new Float64Array(CONTACT_RECORD_STRIDE * 5000);
    const all = contactsBatch(shapes, poses, pairs, { margin: 0.1, out });
    expect(all.contacts.buffer).toBe(out.buffer);
    const same = contactsBatch(shapes, poses, pairs, { margins: new Float64Array(n).fill(0.1) });
    expect(Array.from(all.contacts)).toEqual(Array.from(same.contacts));
    expect(Array.from(all.offsets)).toEqual(Array.from(same.offsets));
    // A buffer too small: the pairs that lost contacts say so, the others are whole.
    const total = r.offsets[n];
    const small = contactsBatch(shapes, poses, pairs, { margins, capacity: Math.floor(total / 2) });
    expect(small.offsets[n]).toBe(Math.floor(total / 2));
    expect(small.truncated).toBe(true);
    for (let i = 0; i < n; i++) {
      const lost = small.offsets[i + 1] - small.offsets[i] < r.offsets[i + 1] - r.offsets[i];
      expect(small.truncatedPairs[i]).toBe(lost ? 1 : 0);
    }
    for (const s of shapes) s.dispose();
  });

  it('refuses two meshes and bad options clearly', () => {
    const f = floor(2);
    const m = mesh(f.vertices, f.indices);
    const s = sphere(0.5);
    const child = sphere(0.2);
    const c = compound([{ shape: child }]);
    const poses = [0, 0, 0, 0, 0, 0, 1, 0, 0.4, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1];
    const mm = catchError(() => contactsBatch([m, s, m], poses, [0, 1, 0, 2]));
    expect(mm.code).toBe('unsupported-query');
    expect(mm.field).toBe('shapes[2].type');
    // Two meshes are refused before anything runs, even after a pair that has contacts.
    const late = catchError(() => contactsBatch([m, s, c], poses, [2, 0, 0, 0]));
    expect([late.code, late.field]).toEqual(['unsupported-query', 'shapes[0].type']);
    expect(catchError(() => contactsBatch([m, s], poses.slice(0, 14), [0, 1], { margin: -1 })).field).toBe('options.margin');
    expect(catchError(() => contactsBatch([m, s], poses.slice(0, 14), [0, 1], { margins: [0, 0] })).field).toBe('options.margins');
    expect(catchError(() => contactsBatch([m, s], poses.slice(0, 14), [0, 1], { margins: [NaN] })).field).toBe('options.margins[0]');
    expect(catchError(() => contactsBatch([m, s], poses.slice(0, 14), [0, 1], { capacity: -1 })).field).toBe('options.capacity');
    expect(catchError(() => contactsBatch([m, s], poses.slice(0, 14), [0, 1], { out: new Float64Array(CONTACT_RECORD_STRIDE), capacity: 2 })).field).toBe('options.capacity');
    expect(catchError(() => contactsBatch([m, s], poses.slice(0, 14), [0, 1], { out: [] as unknown as Float64Array })).field).toBe('options.out');
    expect(catchError(() => contactsBatch([m, s], poses.slice(0, 14), [0, 2])).field).toBe('pairs[1]');
    expect(catchError(() => contactsBatch([m, s], poses.slice(0, 13), [0, 1])).field).toBe('poses');
    expect(catchError(() => contactsBatch([m, s], poses.slice(0, 14), [0, 1], { radius: 1 } as never)).field).toBe('options.radius');
    const r = contactsBatch([m, s], poses.slice(0, 14), [0, 1]);
    expect(catchError(() => contactsBatchResult(r, 1)).field).toBe('i');
    for (const x of [m, s, c, child]) x.dispose();
  });
});
