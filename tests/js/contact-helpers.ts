// What the two tests of the scene query "contact" share: contact()'s answer as a scene writes it, and the loop
// that checks run() of a scene against contact() on every convex pair type (contact-scene.test.ts builds the
// scene by hand, contact-sceneof.test.ts with sceneOf('contact')).
import { expect } from 'vitest';
import {
  contact, run, sphere, plane, type ContactQueryResult, type ContactResult, type ConvexShape, type Scene, type Vec3,
} from '../../web/lib/index';
import { everyConvexShape, randomPose, seeded } from './helpers';

/** contact()'s answer as the scene writes it: null fields beyond the margin, −0 as 0 in vectors. */
export function asScene(c: ContactResult | null, without: ContactQueryResult): ContactQueryResult {
  const v = (x: Vec3): Vec3 => [x[0] + 0, x[1] + 0, x[2] + 0];
  if (c === null) return { contact: false, distance: null, normal: null, pointA: null, pointB: null, iterations: without.iterations, status: without.status };
  return { contact: true, distance: c.distance, normal: v(c.normal), pointA: v(c.pointA), pointB: v(c.pointB), iterations: c.iterations, status: c.status };
}

/** One shape of every convex type, rounded ones, a scaled one and a plane. */
export function everyContactShape(rand: () => number): ConvexShape[] {
  return [...everyConvexShape(rand), sphere(0.2 + rand(), { scale: [1, 2, 0.5] }), plane([0.3, 1, -0.2], 0.4)];
}

/**
 * On every pair of everyContactShape() at 6 random poses each, with the margin margins(k, rand) (undefined: none
 * given), run(makeScene(…)) equals contact() bit for bit; each kind of answer (none, apart, overlapping) is seen
 * more than 100 times. check(scene, margin) may assert more about each scene.
 */
export function expectScenesEqualContact(
  seed: number,
  makeScene: (a: ConvexShape, pa: number[], b: ConvexShape, pb: number[], margin: number | undefined) => Scene,
  margins: (k: number, rand: () => number) => number | undefined,
  check?: (scene: Scene, margin: number | undefined) => void,
): void {
  const rand = seeded(seed);
  const shapes = everyContactShape(rand);
  const seen = { none: 0, apart: 0, overlapping: 0 };
  for (const a of shapes) {
    for (const b of shapes) {
      if (a.type === 'plane' && b.type === 'plane') continue;
      for (let k = 0; k < 6; k++) {
        const pa = randomPose(rand, 3);
        const pb = randomPose(rand, 3);
        const margin = margins(k, rand);
        const scene = makeScene(a, pa, b, pb, margin);
        check?.(scene, margin);
        const got = run(scene) as ContactQueryResult;
        const want = contact(a, pa, b, pb, margin === undefined ? undefined : { margin });
        // Without a contact, contact() returns null: the scene keeps GJK's iterations and status.
        expect(got, `${a.type} ${b.type} margin ${margin}`).toStrictEqual(asScene(want, got));
        if (want === null) seen.none++;
        else if (want.distance > 0) seen.apart++;
        else seen.overlapping++;
      }
    }
  }
  expect(seen.none).toBeGreaterThan(100);
  expect(seen.apart).toBeGreaterThan(100);
  expect(seen.overlapping).toBeGreaterThan(100);
  for (const s of shapes) s.dispose();
}
