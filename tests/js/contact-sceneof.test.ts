// sceneOf('contact', …) and sceneOf('contacts', …): the scene of a contact query with its margin, whose run()
// answers what contact() (contacts()) answers on the same pair, bit for bit (the scene writes −0 as 0); the margin
// as the scene keeps it; and bad margins named as contact() names them.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  box, capsule, compound, contact, contacts, mesh, run, sceneOf, sphere,
  type ContactQueryResult, type ContactResult,
} from '../../web/lib/index';
import { asScene, expectScenesEqualContact } from './contact-helpers';
import { catchError, randomPose, seeded } from './helpers';
import { floor } from './mesh-gen';

beforeAll(async () => {
  const { init } = await import('../../web/lib/index');
  await init();
});

/** A JSON round trip: what run() of a scene can say (−0 becomes 0). */
const asJson = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

describe("sceneOf('contact')", () => {
  it('gives the scene whose run() is contact() bit for bit, on every convex pair type, planes too, at many margins', () => {
    // No options, margin 0, a small margin, a large one.
    expectScenesEqualContact(9181, (a, pa, b, pb, margin) => sceneOf('contact', a, pa, b, pb, margin === undefined ? undefined : { margin }),
      (k, rand) => [undefined, 0, 0.3 * rand(), 3 * rand()][k % 4],
      (scene, margin) => {
        expect(scene.query).toBe('contact');
        // The margin asked (contact()'s default, 0, when none was).
        expect(scene.margin).toBe(margin ?? 0);
      });
  });

  it('keeps the margin edge: a gap equal to the margin is a contact, just above it none (spheres by hand)', () => {
    // Unit spheres 2.5 apart: a gap of exactly 0.5.
    using a = sphere(1);
    const pa = [0, 0, 0, 0, 0, 0, 1];
    const pb = [2.5, 0, 0, 0, 0, 0, 1];
    const at = (margin: number) => run(sceneOf('contact', a, pa, a, pb, { margin })) as ContactQueryResult;
    expect(at(0.5)).toMatchObject({ contact: true, distance: 0.5, normal: [1, 0, 0], pointA: [1, 0, 0], pointB: [1.5, 0, 0] });
    expect(at(0.5 * (1 - Number.EPSILON)).contact).toBe(false);
  });

  it('names the answering children of compounds as contact() does', () => {
    const rand = seeded(313);
    using c = compound([{ shape: box([0.5, 0.3, 0.4]), position: [-0.6, 0, 0] }, { shape: sphere(0.4), position: [0.7, 0.1, 0] }]);
    using s = capsule(0.3, 0.5);
    let found = 0;
    for (let k = 0; k < 40; k++) {
      const pa = randomPose(rand, 2);
      const pb = randomPose(rand, 2);
      const margin = k % 2 === 0 ? 0 : rand();
      const got = run(sceneOf('contact', c, pa, s, pb, { margin })) as ContactQueryResult;
      const want = contact(c, pa, s, pb, { margin }) as (ContactResult & { child?: number }) | null;
      const { child, ...rest } = got;
      expect(rest).toStrictEqual(asScene(want, got));
      expect(child).toBe(want === null ? null : want.child);
      if (want !== null) found++;
    }
    expect(found).toBeGreaterThan(10);
  });

  it('names a bad margin as contact() does (a CollidoscopeError on options.margin)', () => {
    using a = sphere(1);
    const far = [3, 0, 0, 0, 0, 0, 1];
    const cases: [unknown, RegExp][] = [
      [{ margin: -0.1 }, /must not be negative/],
      [{ margin: NaN }, /finite/],
      [{ margin: Infinity }, /finite/],
      [{ margin: '0.1' }, /must be a number/],
      [{ margin: 2e15 }, /at most 1e15/],
    ];
    for (const [options, message] of cases) {
      const e = catchError(() => sceneOf('contact', a, undefined, a, far, options as never));
      expect([e.code, e.field], JSON.stringify(options)).toEqual(['invalid-argument', 'options.margin']);
      expect(e.message).toMatch(message);
      // contact() itself names the same field, except for a margin too large for a scene (it takes any finite one).
      if (!/1e15/.test(message.source)) expect(catchError(() => contact(a, undefined, a, far, options as never)).field).toBe('options.margin');
    }
    const unknown = catchError(() => sceneOf('contact', a, undefined, a, far, { gap: 1 } as never));
    expect(unknown.field).toBe('options.gap');
    // An unknown query is named, with every query sceneOf takes (contacts too, which batch() does not).
    const q = catchError(() => sceneOf('contactz' as never, a, undefined, a, far));
    expect([q.code, q.field]).toEqual(['invalid-argument', 'query']);
    expect(q.message).toMatch(/unknown query "contactz" \(expected .*\bcontact, .*\bcontacts\)/);
  });
});

describe("sceneOf('contacts')", () => {
  it('gives the scene whose run() is contacts() of a mesh and a shape, bit for bit (either order)', () => {
    const rand = seeded(5150);
    const f = floor(6);
    using m = mesh(new Float64Array(f.vertices), new Uint32Array(f.indices));
    const bodies = [box([0.4, 0.3, 0.5]), sphere(0.45), capsule(0.2, 0.6)];
    let listed = 0, empty = 0;
    for (const s of bodies) {
      for (let k = 0; k < 20; k++) {
        const pm = [0, 0, 0, 0, 0, 0, 1];
        const ps = randomPose(rand, 4);
        ps[1] = 1.5 * (rand() - 0.2);  // near the floor: some overlap it, some are within the margin, some apart
        const margin = k % 3 === 0 ? 0 : 0.3 * rand();
        for (const [a, pa, b, pb] of [[m, pm, s, ps], [s, ps, m, pm]] as const) {
          const scene = sceneOf('contacts', a, pa, b, pb, { margin });
          expect([scene.query, scene.margin]).toEqual(['contacts', margin]);
          const want = contacts(a, pa, b, pb, { margin });
          expect(run(scene)).toStrictEqual(asJson(want));
          if (want.contacts.length > 0) listed++;
          else empty++;
        }
      }
    }
    expect(listed).toBeGreaterThan(30);
    expect(empty).toBeGreaterThan(5);
    for (const s of bodies) s.dispose();
  });

  it('gives contacts() of a compound and a shape, and of two convex shapes (their one contact)', () => {
    const rand = seeded(2718);
    using c = compound([{ shape: box([0.5, 0.3, 0.4]), position: [-0.6, 0, 0] }, { shape: sphere(0.4), position: [0.7, 0.1, 0] }]);
    using s = box([0.3, 0.4, 0.5]);
    using t = capsule(0.25, 0.4);
    let found = 0;
    for (const [a, b] of [[c, s], [s, t], [t, c]] as const) {
      for (let k = 0; k < 30; k++) {
        const pa = randomPose(rand, 2);
        const pb = randomPose(rand, 2);
        const margin = k % 2 === 0 ? 0 : rand();
        const want = contacts(a, pa, b, pb, { margin });
        expect(run(sceneOf('contacts', a, pa, b, pb, { margin })), `${a.type} ${b.type}`).toStrictEqual(asJson(want));
        found += want.contacts.length;
      }
    }
    expect(found).toBeGreaterThan(20);
  });
});
