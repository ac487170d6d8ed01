// Compounds through the object API's native child loop: single queries, batch() and createBatch() with the
// `features` side output, contact() and contacts(). The references are independent routes: run() of the query's
// scene (sceneOf), and the children made as separate shapes queried one by one, combined by the documented rule.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batch, type BatchExtras, batchResult, box, capsule, compound, CompoundShape, cone, contact, contacts, contactsBatch, contactsBatchResult,
  ConvexShape, createBatch, cylinder,
  distance, ellipsoid, init, intersect, mesh, penetration, point, polytope, project, contains, raycast, run, sceneOf,
  segment, shapecast, sphere, triangle, type Vec3,
} from '../../web/lib/index';
import { catchError, seeded } from './helpers';

beforeAll(async () => {
  await init();
});

type R = Record<string, unknown>;
type Pose = { position: Vec3; rotation: [number, number, number, number] };

function randomPose(rand: () => number, spread: number): Pose {
  const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
  const n = Math.hypot(...q);
  return {
    position: [spread * (2 * rand() - 1), spread * (2 * rand() - 1), spread * (2 * rand() - 1)],
    rotation: [q[0] / n, q[1] / n, q[2] / n, q[3] / n],
  };
}

function randomConvex(rand: () => number): ConvexShape {
  const s = () => 0.1 + 0.5 * rand();
  const p = (): Vec3 => [s() - 0.3, s() - 0.3, s() - 0.3];
  switch (Math.floor(rand() * 10)) {
    case 0: return point();
    case 1: return sphere(s());
    case 2: return box([s(), s(), s()]);
    case 3: return capsule(s(), s());
    case 4: return cylinder(s(), s());
    case 5: return cone(s(), s());
    case 6: return ellipsoid([s(), s(), s()]);
    case 7: return segment(p(), p());
    case 8: return triangle(p(), p(), p());
    default: return polytope([p(), p(), p(), p(), p()]);
  }
}

/** A compound of n random children at random poses; the children are disposed (the compound keeps copies). */
function randomCompound(rand: () => number, n: number): { c: CompoundShape; parts: { shape: ConvexShape; pose: Pose }[] } {
  const parts = Array.from({ length: n }, () => ({ shape: randomConvex(rand), pose: randomPose(rand, 1.2) }));
  const c = compound(parts.map((p) => ({ shape: p.shape, position: p.pose.position, rotation: p.pose.rotation })));
  return { c, parts };
}

const disposeAll = (shapes: ConvexShape[]) => shapes.forEach((s) => s.dispose());
/** The "contacts" scene of a pair (sceneOf has no contacts query: it is distance's scene with a margin). */
const contactsScene = (a: ConvexShape, pa: Pose | undefined, b: ConvexShape, pb: Pose | undefined, margin: number) =>
  ({ ...sceneOf('distance', a, pa, b, pb), query: 'contacts', margin }) as Parameters<typeof run>[0];
const poseArray = (p: Pose) => [...p.position, ...p.rotation];
/** batchResult() for a query chosen at run time (its overloads take one query name each). */
const decode = batchResult as (query: 'intersect' | 'distance' | 'penetration', out: Float64Array, i: number, extras: BatchExtras) => unknown;

describe('compounds in the object API, natively', () => {
  it('single queries equal run() of their scene, field for field, with the child', () => {
    const rand = seeded(1806);
    let answered = 0, missed = 0;
    for (let trial = 0; trial < 12; trial++) {
      const { c, parts } = randomCompound(rand, 2 + Math.floor(rand() * 19));
      const other = trial % 4 === 0 ? randomCompound(rand, 3).c : randomConvex(rand);
      const pc = randomPose(rand, 1), po = randomPose(rand, 2);
      const ray = { origin: [4, 3 * rand() - 1.5, 1] as Vec3, direction: [-6, 3 * rand() - 1.5, rand() - 1] as Vec3, maxT: 1.5 };
      const pt: Vec3 = [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1];
      const motion = { translationA: [rand(), rand(), rand()] as Vec3, translationB: [-2 * rand(), -rand(), rand()] as Vec3 };
      const cases: [string, () => unknown, () => unknown][] = [
        ['intersect', () => intersect(c, pc, other, po), () => run(sceneOf('intersect', c, pc, other, po))],
        ['distance', () => distance(other, po, c, pc), () => run(sceneOf('distance', other, po, c, pc))],
        ['penetration', () => penetration(c, pc, other, po), () => run(sceneOf('penetration', c, pc, other, po))],
        ['shapecast', () => shapecast(c, pc, other, po, motion), () => run(sceneOf('shapecast', c, pc, other, po, motion))],
        ['raycast', () => raycast(c, pc, ray), () => run(sceneOf('raycast', c, pc, ray))],
        ['contains', () => contains(c, pc, pt), () => run(sceneOf('contains', c, pc, pt))],
        ['project', () => project(c, pc, pt), () => run(sceneOf('project', c, pc, pt))],
      ];
      for (const [name, got, want] of cases) {
        const r = got() as R;
        // JSON drops the sign of a zero, which the object API's numbers keep (as for every shape).
        expect(JSON.parse(JSON.stringify(r)), name).toEqual(want());
        const child = ('child' in r ? r.child : r.childA) as number | null | undefined;
        expect(child === undefined, name).toBe(false);
        if (child === null) missed++;
        else answered++;
      }
      disposeAll([c, other, ...parts.map((p) => p.shape)]);
    }
    expect(answered).toBeGreaterThan(25);
    expect(missed).toBeGreaterThan(5);
  });

  it('batch() and createBatch() with features give the single results, children included', () => {
    const rand = seeded(1807);
    const made = [randomCompound(rand, 6), randomCompound(rand, 9)];
    const shapes: ConvexShape[] = [made[0].c, made[1].c, randomConvex(rand), randomConvex(rand)];
    const poses = shapes.map(() => randomPose(rand, 1.5));
    const flatPoses = new Float64Array(poses.flatMap(poseArray));
    const pairs = new Uint32Array([0, 1, 0, 2, 3, 1, 2, 3, 1, 1, 0, 0]);
    const n = pairs.length / 2;
    let children = 0;
    for (const q of ['intersect', 'distance', 'penetration'] as const) {
      const features = new Int32Array(2 * n).fill(7);
      const out = batch(q, shapes, flatPoses, pairs, { features });
      const buffers = createBatch(q, shapes, { capacity: n, features: true });
      buffers.poses.set(flatPoses);
      buffers.pairs.set(pairs);
      const inPlace = buffers.run(n);
      expect(Array.from(inPlace)).toEqual(Array.from(out));
      expect(Array.from(buffers.features)).toEqual(Array.from(features));
      const fn = { intersect, distance, penetration }[q];
      for (let i = 0; i < n; i++) {
        const a = pairs[2 * i], b = pairs[2 * i + 1];
        const single = fn(shapes[a], poses[a], shapes[b], poses[b]) as unknown as R;
        expect(decode(q, out, i, { features, shapes, pairs }), `${q} ${i}`).toEqual(single);
        // Not a compound: −1, whatever the other side.
        if (!(shapes[a] instanceof CompoundShape)) expect(features[2 * i]).toBe(-1);
        if (!(shapes[b] instanceof CompoundShape)) expect(features[2 * i + 1]).toBe(-1);
        if (features[2 * i] >= 0) children++;
      }
      buffers.dispose();
    }
    // One-shape queries: the compound's child in featureA, −1 for B.
    const rays = new Float64Array([3, 0.2, 0.1, -6, 0, 0, 1, 0, 3, 0, 0, -6, 0.1, 1]);
    const rayFeatures = new Int32Array(4);
    const rayOut = batch('raycast', shapes, flatPoses, [0, 1], { rays, features: rayFeatures });
    for (let i = 0; i < 2; i++) {
      const single = raycast(shapes[i], poses[i], { origin: [rays[7 * i], rays[7 * i + 1], rays[7 * i + 2]], direction: [rays[7 * i + 3], rays[7 * i + 4], rays[7 * i + 5]], maxT: rays[7 * i + 6] }) as unknown as R;
      expect(batchResult('raycast', rayOut, i, { features: rayFeatures, shapes, pairs: [0, 1] })).toEqual(single);
      expect(rayFeatures[2 * i + 1]).toBe(-1);
    }
    expect(children).toBeGreaterThan(6);
    for (const m of made) {
      m.c.dispose();
      for (const p of m.parts) p.shape.dispose();
    }
    shapes[2].dispose();
    shapes[3].dispose();
  });

  it('contact() is the nearest child within the margin and contacts() one per child, as the children queried one by one', () => {
    const rand = seeded(1808);
    let withContact = 0, listed = 0;
    for (let trial = 0; trial < 15; trial++) {
      const { c, parts } = randomCompound(rand, 2 + Math.floor(rand() * 8));
      const other = randomConvex(rand);
      const po = randomPose(rand, 1.2);
      const margin = 0.6 * rand();
      // At the identity pose a child is where compound() put it.
      const each = parts.map((p) => contact(p.shape, p.pose, other, po, { margin }));
      let best = -1;
      each.forEach((r, i) => { if (r !== null && (best < 0 || r.distance < (each[best] as { distance: number }).distance)) best = i; });
      const got = contact(c, undefined, other, po, { margin });
      if (best < 0) expect(got).toBeNull();
      else {
        expect(got).toEqual({ ...each[best], child: best });
        withContact++;
      }
      const list = contacts(c, undefined, other, po, { margin });
      const want = each.flatMap((r, i) => (r === null ? [] : [{ triangle: null, depth: -r.distance, normal: r.normal, pointA: r.pointA, pointB: r.pointB, child: i }]));
      expect(list.contacts).toEqual(want);
      expect(list.truncated).toBe(false);
      listed += want.length;
      // The other order names the child the same way.
      const swapped = contacts(other, po, c, undefined, { margin });
      expect(swapped.contacts.map((x) => (x as unknown as R).child)).toEqual(want.map((x) => x.child));
      disposeAll([c, other, ...parts.map((p) => p.shape)]);
    }
    expect(withContact).toBeGreaterThan(4);
    expect(listed).toBeGreaterThan(8);
  });

  it('contactsBatch() gives each pair\'s contacts() with the children, compounds on either side or both', () => {
    const rand = seeded(1811);
    const made = [randomCompound(rand, 5), randomCompound(rand, 7)];
    const shapes: ConvexShape[] = [made[0].c, made[1].c, randomConvex(rand), randomConvex(rand)];
    const poses = shapes.map(() => randomPose(rand, 1.2));
    const pairs = [0, 1, 0, 2, 3, 1, 2, 3, 1, 0];
    const margins = new Float64Array(pairs.length / 2).map(() => 0.5 * rand());
    const r = contactsBatch(shapes, new Float64Array(poses.flatMap(poseArray)), pairs, { margins });
    expect(Array.from(r.compoundSides)).toEqual([3, 1, 2, 0, 3]);
    let withChildren = 0;
    for (let i = 0; i < pairs.length / 2; i++) {
      const [a, b] = [pairs[2 * i], pairs[2 * i + 1]];
      const want = contacts(shapes[a], poses[a], shapes[b], poses[b], { margin: margins[i] });
      expect(contactsBatchResult(r, i), `pair ${i}`).toEqual(want);
      withChildren += want.contacts.filter((x) => 'child' in x || 'childA' in x).length;
    }
    expect(withChildren).toBeGreaterThan(3);
    disposeAll([...shapes, ...made.flatMap((x) => x.parts.map((p) => p.shape))]);
  });

  it('contacts() of a compound against a mesh: each child\'s contacts with the mesh, child after child, as run() lists them', () => {
    const rand = seeded(1812);
    // A bumpy 8×8 floor of 128 triangles.
    const n = 8, v: number[] = [], t: number[] = [];
    for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) v.push(-2 + (4 * i) / n, 0.15 * Math.sin(3 * i + 5 * j), -2 + (4 * j) / n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const k = i * (n + 1) + j;
      t.push(k, k + 1, k + n + 1, k + 1, k + n + 2, k + n + 1);
    }
    const floor = mesh(v, t);
    let listed = 0, batched = 0;
    for (let trial = 0; trial < 12; trial++) {
      const { c, parts } = randomCompound(rand, 3 + Math.floor(rand() * 6));
      const pm = randomPose(rand, 0.4);
      const margin = 0.3 * rand();
      // The compound at the identity pose: each child where compound() put it, queried as a shape of its own.
      const want = parts.flatMap((p, i) => contacts(p.shape, p.pose, floor, pm, { margin }).contacts.map((x) => ({ ...x, child: i })));
      const got = contacts(c, undefined, floor, pm, { margin });
      expect(got.contacts).toEqual(want);
      expect(got.truncated).toBe(false);
      expect(got.contacts.every((x) => x.triangle !== null && x.triangle >= 0 && x.triangle < t.length / 3)).toBe(true);
      // The scene route (each child pair run as a mesh scene of its own) agrees, in either order.
      expect(run(contactsScene(c, undefined, floor, pm, margin))).toEqual(JSON.parse(JSON.stringify(got)));
      const swapped = contacts(floor, pm, c, undefined, { margin });
      expect(run(contactsScene(floor, pm, c, undefined, margin))).toEqual(JSON.parse(JSON.stringify(swapped)));
      expect(swapped.contacts.map((x) => [x.triangle, (x as unknown as R).child])).toEqual(want.map((x) => [x.triangle, x.child]));
      // In a batch, both orders, beside a convex pair.
      const other = sphere(0.3);
      const r = contactsBatch([c, floor, other], new Float64Array([0, 0, 0, 0, 0, 0, 1, ...poseArray(pm), 0, 0.2, 0, 0, 0, 0, 1]),
        [0, 1, 1, 0, 0, 2], { margin });
      expect(contactsBatchResult(r, 0)).toEqual(got);
      expect(contactsBatchResult(r, 1)).toEqual(swapped);
      expect(contactsBatchResult(r, 2)).toEqual(contacts(c, undefined, other, { position: [0, 0.2, 0] }, { margin }));
      listed += want.length;
      batched += r.offsets[3];
      disposeAll([c, other, ...parts.map((p) => p.shape)]);
    }
    expect(listed).toBeGreaterThan(20);
    expect(batched).toBeGreaterThan(2 * listed);
    floor.dispose();
  });

  it('a compound against a mesh: each child meets the mesh; run() adds the triangle', () => {
    const rand = seeded(1810);
    const { c, parts } = randomCompound(rand, 8);
    const grid = mesh([-2, 0, -2, 2, 0, -2, 2, 0, 2, -2, 0, 2], [0, 2, 1, 0, 3, 2]);
    let answered = 0;
    for (let trial = 0; trial < 10; trial++) {
      const pc = randomPose(rand, 1.5), pm = randomPose(rand, 0.3);
      for (const [name, got, want] of [
        ['intersect', () => intersect(c, pc, grid, pm), () => run(sceneOf('intersect', c, pc, grid, pm))],
        ['distance', () => distance(grid, pm, c, pc), () => run(sceneOf('distance', grid, pm, c, pc))],
      ] as [string, () => unknown, () => unknown][]) {
        const r = JSON.parse(JSON.stringify(got())) as R;
        const scene = want() as R;
        expect(scene, name).toMatchObject(r);
        expect(Object.keys(scene), name).toContain('triangle');
        if (r.child !== null) answered++;
      }
    }
    expect(answered).toBeGreaterThan(8);
    expect(catchError(() => penetration(c, undefined, grid, undefined)).field).toBe('b.type');
    c.dispose();
    grid.dispose();
    for (const p of parts) p.shape.dispose();
  });

  it('features options are checked, naming the option', () => {
    const s = sphere(1), b = box([1, 1, 1]);
    const poses = [0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 1];
    const cases: [() => unknown, string][] = [
      [() => batch('distance', [s, b], poses, [0, 1], { features: new Int32Array(1) }), 'options.features'],
      [() => batch('distance', [s, b], poses, [0, 1], { features: new Float64Array(2) as never }), 'options.features'],
      [() => batch('distance', [s, b], poses, [0, 1], { features: [0, 0] as never }), 'options.features'],
      [() => createBatch('distance', [s, b], { capacity: 1, features: 'yes' as never }), 'options.features'],
      [() => createBatch('distance', [s, b], { capacity: 1 }).features, 'features'],
      [() => batchResult('distance', new Float64Array(100), 1, { features: new Int32Array(2) }), 'extras.features'],
    ];
    for (const [f, field] of cases) {
      const e = catchError(f);
      expect(e.code, field).toBe('invalid-argument');
      expect(e.field).toBe(field);
    }
    // Two convex shapes: −1 on both sides, and no child field.
    const features = new Int32Array(2).fill(5);
    const out = batch('distance', [s, b], poses, [0, 1], { features });
    expect(Array.from(features)).toEqual([-1, -1]);
    expect(batchResult('distance', out, 0, { features, shapes: [s, b], pairs: [0, 1] })).toEqual(distance(s, undefined, b, { position: [3, 0, 0] }));
    s.dispose();
    b.dispose();
  });
});
