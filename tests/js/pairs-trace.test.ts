// trace() of the scene query "pairs" (sap_view.h): a world's broad phase, sweep and prune, then its narrow phase,
// checked against independent facts computed here — the answer and every narrow-phase step against run() and
// against intersect() on every pair of shapes (no broad phase); the sweep's box pairs against every pair of the
// trace's boxes overlapping on all three axes; each active list against the intervals that contain the sweep
// line; the sorted lists sorted, two endpoints per bounded shape. Also the gallery's scenes and the frame cap.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  box, compound, type ConvexShape, heightfield, init, isPairs, mesh, resultSentence, run, sphere, trace, type PairsTrace, type Scene,
} from '../../web/lib/index';
import { everyConvexShape, randomPose, seeded } from './helpers';
import { randomSoup } from './mesh-gen';

beforeAll(async () => {
  await init();
});

type PairsScene = Scene & { query: 'pairs' };
type Box = PairsTrace['frames'][number]['boxes'][number];

/** Shapes of every kind the world takes (a plane too), at random poses in a few units. */
function zooScene(seed: number): PairsScene {
  const rand = seeded(seed);
  const soup = randomSoup(rand, 16);
  const shapes: ConvexShape[] = [
    ...everyConvexShape(rand),
    box([3, 0.1, 0.05]),
    compound([{ shape: sphere(0.3) }, { shape: box([0.2, 0.2, 0.2]), position: [0.6, 0, 0] }]),
    mesh(soup.vertices, soup.indices),
    heightfield([[0, 0.1, 0], [0.2, 0, 0.1], [0, 0.1, 0]], [0.5, 0.5]),
  ];
  const specs = shapes.map((s) => s.spec());
  for (const s of shapes) s.dispose();
  return {
    version: 1, query: 'pairs',
    shapes: [
      ...specs.map((s) => {
        const p = randomPose(rand, 3);
        return { ...s, position: [p[0], p[1], p[2]], rotation: [p[3], p[4], p[5], p[6]] } as Scene['shapes'][number];
      }),
      { type: 'plane', normal: [0, 1, 0], offset: -1 },
    ],
  };
}

const frames = (t: PairsTrace, kind: string) => t.frames.filter((f) => f.kind === kind);
const overlapOn = (a: Box, b: Box, k: number) => a.min![k] <= b.max![k] && b.min![k] <= a.max![k];

/** intersect() on every pair of the scene's shapes (no broad phase). */
function bruteForce(scene: PairsScene): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < scene.shapes.length; i++) {
    for (let j = i + 1; j < scene.shapes.length; j++) {
      const r = run({ version: 1, query: 'intersect', shapes: [scene.shapes[i], scene.shapes[j]] }) as { intersecting: boolean };
      if (r.intersecting) out.push([i, j]);
    }
  }
  return out;
}

describe('trace() of a "pairs" scene', () => {
  for (const seed of [3, 8]) {
    it(`gives run()'s answer, and each step is what its numbers say (seed ${seed})`, () => {
      const scene = zooScene(seed);
      const t = trace(scene);
      expect(isPairs(t)).toBe(true);
      expect(t.truncated).toBe(false);
      const r = run(scene);
      expect(t.result).toEqual(r);
      const want = bruteForce(scene);
      expect(r.pairs).toEqual(want);
      expect(want.length).toBeGreaterThan(2);

      // The boxes: every shape's, the plane unbounded.
      const [first] = frames(t, 'boxes');
      expect(t.frames[0]).toBe(first);
      expect(first.boxes.map((b) => b.shape)).toEqual(scene.shapes.map((_, i) => i));
      expect(first.boxes.map((b) => b.unbounded)).toEqual(scene.shapes.map((s) => s.type === 'plane'));
      const bounded = first.boxes.filter((b) => !b.unbounded);

      // The sorted lists: sorted, a min and a max of each bounded shape, the values the boxes' own.
      const [sort] = frames(t, 'sort');
      expect(t.frames[1]).toBe(sort);
      for (let k = 0; k < 3; k++) {
        const list = sort.lists[k];
        expect(list.length).toBe(2 * bounded.length);
        for (let e = 1; e < list.length; e++) expect(list[e - 1].value).toBeLessThanOrEqual(list[e].value);
        for (const b of bounded) {
          const mine = list.filter((e) => e.shape === b.shape);
          expect(mine.map((e) => [e.isMin, e.value]).sort()).toEqual([[false, b.max![k]], [true, b.min![k]]].sort());
        }
      }

      // The sweep: one frame per endpoint of the swept axis, in list order; the active list is the intervals
      // containing the sweep line (the endpoint's own shape by its kind: a min opens, a max closes); the box
      // pairs at the end are every pair of bounded boxes overlapping on all three axes.
      const axis = t.sweepAxis;
      expect(sort.axis).toBe(axis);
      const sweep = frames(t, 'sweep');
      expect(sweep.length).toBe(2 * bounded.length);
      sweep.forEach((f, i) => {
        expect(f.position).toBe(i);
        expect(f.endpoint).toEqual(sort.lists[axis][i]);
        const s = f.endpoint!.value;
        const open = bounded.filter((b) => (b.shape === f.endpoint!.shape ? f.endpoint!.isMin : b.min![axis] <= s && s < b.max![axis]));
        expect([...f.active].sort((a, b) => a - b)).toEqual(open.map((b) => b.shape));
      });
      const boxPairs: [number, number][] = [];
      for (let i = 0; i < bounded.length; i++) {
        for (let j = i + 1; j < bounded.length; j++) {
          if ([0, 1, 2].every((k) => overlapOn(bounded[i], bounded[j], k))) boxPairs.push([bounded[i].shape, bounded[j].shape]);
        }
      }
      expect([...sweep[sweep.length - 1].pairs].sort((p, q) => p[0] - q[0] || p[1] - q[1])).toEqual(boxPairs);
      expect(t.boxPairs).toBe(boxPairs.length);

      // The narrow phase: one frame per candidate (the box pairs and the plane's pairs), intersect()'s answer.
      const narrow = frames(t, 'narrow');
      expect(narrow.length).toBe(r.candidates);
      expect(r.candidates).toBe(boxPairs.length + (scene.shapes.length - 1));
      const hits = narrow.filter((f) => f.intersecting).map((f) => f.pair);
      expect(hits).toEqual(want);
      expect(narrow[narrow.length - 1].pairs).toEqual(want);
      for (const f of narrow) {
        const [i, j] = f.pair!;
        const one = run({ version: 1, query: 'intersect', shapes: [scene.shapes[i], scene.shapes[j]] }) as { intersecting: boolean };
        expect(f.intersecting, `pair ${i}, ${j}`).toBe(one.intersecting);
        expect(f.planePair).toBe(scene.shapes[i].type === 'plane' || scene.shapes[j].type === 'plane');
      }

      // Words: the pseudocode, a line and a caption on every frame.
      expect(t.pseudocode.length).toBe(7);
      for (const f of t.frames) {
        expect(f.line).toBeGreaterThanOrEqual(1);
        expect(f.line).toBeLessThanOrEqual(7);
        expect(f.caption.length).toBeGreaterThan(10);
        expect(f.caption).not.toMatch(/undefined|NaN|\[object|null/);
        if (f.kind === 'sweep') expect(f.caption).toContain(`shape ${f.endpoint!.shape}`);
        if (f.kind === 'narrow') expect(f.caption).toContain(`shapes ${f.pair![0]} and ${f.pair![1]}`);
      }
      expect(resultSentence(t)).toContain(`${want.length} pairs intersect`);
    });
  }

  it('steps through the gallery\'s pairs scenes to run()\'s answer', () => {
    const lessons = JSON.parse(readFileSync('shared/lessons.json', 'utf8')) as { lessons: { lesson: string; scenes: { file: string }[] }[] };
    const files = lessons.lessons.flatMap((l) => l.scenes.map((s) => s.file));
    const scenes = files.map((f) => JSON.parse(readFileSync(`shared/scenes/${f}`, 'utf8')) as Scene).filter((s) => s.query === 'pairs');
    expect(scenes.length).toBe(2);
    for (const scene of scenes) {
      const t = trace(scene as PairsScene);
      expect(scene.shapes.length).toBeGreaterThanOrEqual(6);
      expect(t.truncated).toBe(false);
      expect(t.result).toEqual(run(scene as PairsScene));
      expect(t.result.pairs).toEqual(bruteForce(scene as PairsScene));
      expect(frames(t, 'narrow').length).toBe(t.result.candidates);
    }
  });

  it('cuts the frames of a big world at the cap, and still answers it whole', () => {
    const rand = seeded(5);
    const scene: PairsScene = {
      version: 1, query: 'pairs',
      shapes: Array.from({ length: 1200 }, () => ({
        type: 'sphere' as const, radius: 0.3, position: [rand() * 40, rand() * 4, rand() * 4] as [number, number, number],
      })),
    };
    const t = trace(scene);
    expect(t.truncated).toBe(true);
    expect(t.frames.length).toBeLessThanOrEqual(2000);
    expect(t.frames.length).toBeGreaterThan(2);
    expect(t.result).toEqual(run(scene));
  });
});
