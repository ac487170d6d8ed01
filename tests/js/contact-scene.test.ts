// The scene format's "contact" query: run() of a scene with "query": "contact" answers what contact() answers on
// the same shapes, poses and margin, bit for bit (the scene writes −0 as 0), on every convex pair type, planes and
// compounds; the margin's edge (a gap just below and just above it); and its errors.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  box, capsule, compound, cone, contact, ConvexShape, cylinder, init, mesh, run, sceneOf, sphere, trace,
  type ContactQueryResult, type ContactResult, type Scene,
} from '../../web/lib/index';
import { asScene, expectScenesEqualContact } from './contact-helpers';
import { catchError, randomPose, seeded } from './helpers';

beforeAll(async () => {
  await init();
});

/** The scene of contact(a, pa, b, pb, { margin }). */
function contactScene(a: ConvexShape, pa: number[], b: ConvexShape, pb: number[], margin?: number): Scene {
  const scene: Scene = { ...sceneOf('distance', a, pa, b, pb), query: 'contact' };
  if (margin !== undefined) scene.margin = margin;
  return scene;
}

describe('scene query "contact"', () => {
  it('equals contact() bit for bit on every convex pair type, planes included, at margins 0 and above', () => {
    expectScenesEqualContact(4242, contactScene, (k, rand) => (k % 3 === 0 ? 0 : 2 * rand()));
  });

  it('has margin 0 by default', () => {
    using a = sphere(1);
    using b = box([0.5, 0.5, 0.5]);
    const near = [2.2, 0, 0, 0, 0, 0, 1];
    expect((run(contactScene(a, [0, 0, 0, 0, 0, 0, 1], b, near)) as ContactQueryResult).contact).toBe(false);
    // The gap is 2.2 − 1 − 0.5 = 0.7.
    expect((run(contactScene(a, [0, 0, 0, 0, 0, 0, 1], b, near, 0.75)) as ContactQueryResult).contact).toBe(true);
  });

  it('reports a contact at a gap equal to the margin and just below it, none just above (spheres by hand)', () => {
    // Unit spheres 2.5 apart: a gap of exactly 0.5 (every number here is exact in binary).
    using a = sphere(1);
    const pa = [0, 0, 0, 0, 0, 0, 1];
    const pb = [2.5, 0, 0, 0, 0, 0, 1];
    const at = (margin: number) => run(contactScene(a, pa, a, pb, margin)) as ContactQueryResult;
    const gap = 0.5;
    expect(at(gap)).toMatchObject({ contact: true, distance: gap, normal: [1, 0, 0], pointA: [1, 0, 0], pointB: [1.5, 0, 0] });
    expect(at(gap * (1 + Number.EPSILON)).distance).toBe(gap);
    expect(at(gap * (1 - Number.EPSILON))).toMatchObject({ contact: false, distance: null, normal: null });
    // Overlapping by 0.25: distance −0.25 at any margin.
    expect(at(0).contact).toBe(false);
    const deep = run(contactScene(a, pa, a, [1.75, 0, 0, 0, 0, 0, 1], 0)) as ContactQueryResult;
    expect(deep).toMatchObject({ contact: true, distance: -0.25, normal: [1, 0, 0] });
  });

  it('switches at the distance of a pair without a closed form, as contact() does', () => {
    using a = cylinder(0.6, 0.8);
    using b = cone(0.5, 0.7);
    const pa = [0, 0, 0, 0, 0, 0, 1];
    const pb = [1.9, 0.3, -0.2, 0.1, 0.2, 0.3, 0.9273618495495704];
    const d = (run(contactScene(a, pa, b, pb, 10)) as ContactQueryResult).distance as number;
    expect(d).toBeGreaterThan(0.3);
    for (const margin of [d * (1 - 1e-6), d * (1 + 1e-6)]) {
      const got = run(contactScene(a, pa, b, pb, margin)) as ContactQueryResult;
      expect(got.contact).toBe(margin > d);
      expect(got).toStrictEqual(asScene(contact(a, pa, b, pb, { margin }), got));
    }
  });

  it('names the child pair of compounds as contact() does', () => {
    const rand = seeded(77);
    using c1 = compound([{ shape: box([0.5, 0.3, 0.4]), position: [-0.6, 0, 0] }, { shape: sphere(0.4), position: [0.7, 0.1, 0] }]);
    using c2 = compound([{ shape: capsule(0.2, 0.5), position: [0, 0.4, 0] }, { shape: box([0.3, 0.3, 0.3]), position: [0, -0.5, 0.2] }]);
    using s = cone(0.4, 0.5);
    let found = 0;
    // Each pair with the child fields its scene result carries.
    for (const [a, b, keys] of [[c1, s, ['child']], [s, c2, ['child']], [c1, c2, ['childA', 'childB']]] as const) {
      for (let k = 0; k < 30; k++) {
        const pa = randomPose(rand, 2);
        const pb = randomPose(rand, 2);
        const margin = k % 2 === 0 ? 0 : rand();
        const got = run(contactScene(a, pa, b, pb, margin)) as ContactQueryResult;
        const want = contact(a, pa, b, pb, { margin }) as (ContactResult & Record<string, unknown>) | null;
        const { child, childA, childB, ...rest } = got;
        expect(rest).toStrictEqual(asScene(want, got));
        const children: Record<string, unknown> = { child, childA, childB };
        expect(Object.keys(got).filter((key) => key.startsWith('child'))).toEqual([...keys]);
        for (const key of keys) expect(children[key], key).toBe(want === null ? null : want[key]);
        if (want !== null) found++;
      }
    }
    expect(found).toBeGreaterThan(15);
  });

  it('refuses a mesh as contact() does, naming the scene\'s shape', () => {
    using m = mesh(new Float64Array([0, 0, 0, 1, 0, 0, 0, 0, 1]), new Uint32Array([0, 1, 2]));
    using s = sphere(0.5);
    const id = [0, 0, 0, 0, 0, 0, 1];
    const fromApi = catchError(() => contact(m, id, s, id));
    for (const [a, b, field] of [[m, s, 'shapes[0].type'], [s, m, 'shapes[1].type']] as const) {
      const e = catchError(() => run(contactScene(a, id, b, id)));
      expect(e.code).toBe(fromApi.code);
      expect(e.field).toBe(field);
      // Messages start with the field they name.
      expect(e.message).toBe(fromApi.message.replace(fromApi.field ?? '', field));
    }
  });

  it('names bad margins and misplaced fields', () => {
    using a = sphere(1);
    const id = [0, 0, 0, 0, 0, 0, 1];
    const base = contactScene(a, id, a, [3, 0, 0, 0, 0, 0, 1]);
    const cases: [unknown, string, RegExp][] = [
      [{ ...base, margin: -0.1 }, 'margin', /must not be negative/],
      [{ ...base, margin: 'NaN' }, 'margin', /finite number, got NaN/],
      [{ ...base, margin: '0.1' }, 'margin', /must be a number, got a string/],
      [{ ...base, margin: 2e15 }, 'margin', /at most 1e15/],
      [{ ...base, margin: [0.1] }, 'margin', /must be a number/],
      [{ ...base, query: 'distance', margin: 0.1 }, 'margin', /only used by the contact and contacts queries/],
      [{ ...base, shapes: [base.shapes[0]] }, 'shapes', /needs 2 shapes/],
      [{ ...base, point: [0, 0, 0] }, 'point', /only used by the contains and project queries/],
      [{ ...base, ray: { origin: [0, 0, 0], direction: [1, 0, 0] } }, 'ray', /only used by the raycast query/],
    ];
    for (const [scene, field, message] of cases) {
      const e = catchError(() => run(scene as Scene));
      expect(e.field, JSON.stringify(scene)).toBe(field);
      expect(e.message).toMatch(message);
    }
    const unknown = catchError(() => run({ ...base, query: 'contactz' } as unknown as Scene));
    expect(unknown.message).toMatch(/contact, contacts/);
    // No trace, and no 2D form.
    const t = catchError(() => trace(base));
    expect([t.code, t.field]).toEqual(['unsupported-query', 'query']);
    const flat = catchError(() => run({ version: 1, dimension: 2, query: 'contact', shapes: [{ type: 'circle', radius: 1 }, { type: 'circle', radius: 1 }] } as unknown as Scene));
    expect([flat.code, flat.field]).toEqual(['unsupported-query', 'query']);
  });
});
