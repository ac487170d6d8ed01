// The sandbox's scene making (web/viz/sandbox-view.ts), without a browser: the pair of a frame as a two-shape scene
// (checked against the distance and depth of two spheres worked out by hand), dropped bodies and their removal,
// the contact pairs of a frame, and the real-time pace of play.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, run, type Scene, type SimulateFrame } from '../../web/lib/index';
import { contactPairs, pairScene, playInterval, SANDBOX_VIEW, sandboxCounter, sandboxTrace, withDropped, withoutLastBody } from '../../web/viz/sandbox-view';

beforeAll(async () => {
  await init();
});

const world: Scene = {
  version: 1, query: 'simulate', steps: 2,
  shapes: [
    { type: 'box', halfExtents: [3, 0.5, 3], position: [0, -0.5, 0] },
    { type: 'sphere', radius: 0.5, position: [0, 2, 0] },
    { type: 'sphere', radius: 0.25, position: [3, 2, 0] },
  ],
  bodies: [{ shape: 1 }, { shape: 2 }],
};

/** A frame with the given poses and no contacts (its numbers made here, not by the library). */
const frameAt = (poses: number[][]): SimulateFrame => ({ step: 7, poses, contacts: [], contactsTruncated: false } as unknown as SimulateFrame);

describe('pairScene', () => {
  const still = [0, 0, 0, 1];
  it('puts the two shapes at the frame\'s poses, as they are, and asks penetration when they overlap', () => {
    // Centres 0.6 apart, radii 0.5 + 0.25: overlap 0.15. The rotation is kept as given, not normalized.
    const q = [0.1, 0.2, 0.3, 0.9];
    const frame = frameAt([[0, -0.5, 0, ...still], [1, 1, 1, ...q], [1.6, 1, 1, ...still]]);
    const pair = pairScene(world, frame, 1, 2);
    expect(pair).toEqual({
      version: 1, query: 'penetration', closedForms: false,
      shapes: [{ type: 'sphere', radius: 0.5, position: [1, 1, 1], rotation: q }, { type: 'sphere', radius: 0.25, position: [1.6, 1, 1], rotation: still }],
    });
    const r = run(pair) as { intersecting: boolean; depth: number };
    expect(r.intersecting).toBe(true);
    expect(Math.abs(r.depth - 0.15)).toBeLessThan(1e-9);
  });

  it('asks distance when they are apart', () => {
    const frame = frameAt([[0, -0.5, 0, ...still], [0, 1, 0, ...still], [0, 3, 0, ...still]]);
    const pair = pairScene(world, frame, 1, 2);
    expect(pair.query).toBe('distance');
    // Centres 2 apart: the gap is 2 − 0.75.
    expect(Math.abs((run(pair) as { distance: number }).distance - 1.25)).toBeLessThan(1e-9);
  });

  it('opens a heightfield pair as contacts, with a margin a little over the near contact\'s gap', () => {
    const level: Scene = { ...world, shapes: [{ type: 'heightfield', heights: [[0, 0], [0, 0]], cellSize: [4, 4], position: [-2, 0, -2] }, world.shapes[1], world.shapes[2]] };
    const frame = {
      ...frameAt([[-2, 0, -2, ...still], [0, 0.52, 0, ...still], [3, 2, 0, ...still]]),
      contacts: [{ a: 0, b: 1, pointA: [0, 0, 0], pointB: [0, 0.02, 0], normal: [0, 1, 0], distance: 0.02, normalImpulse: 0, frictionImpulse: [0, 0, 0] }],
    } as unknown as SimulateFrame;
    const pair = pairScene(level, frame, 0, 1);
    expect(pair.query).toBe('contacts');
    expect(pair.margin).toBe(0.025);
    const r = run(pair) as { contacts: { depth: number }[] };
    expect(r.contacts.length).toBeGreaterThan(0);
    // The sphere's lowest point is 0.02 above the flat heightfield: depth −0.02.
    expect(Math.abs(r.contacts[0].depth + 0.02)).toBeLessThan(1e-9);
  });
});

describe('dropping and removing bodies', () => {
  it('drops a body 1.5 above the given top, with the default mass, and removes it again exactly', () => {
    const next = withDropped(world, 'capsule', 2.5);
    expect(next.shapes.length).toBe(4);
    expect(next.shapes[3]).toMatchObject({ type: 'capsule' });
    expect(next.shapes[3].position![1]).toBe(4);
    expect(next.bodies).toEqual([{ shape: 1 }, { shape: 2 }, { shape: 3 }]);
    expect(withoutLastBody(next)).toEqual(world);
    // The scene runs: the capsule falls.
    const r = run({ ...next, steps: 10 } as Scene & { query: 'simulate' }) as { bodies: { position: number[] }[] };
    expect(r.bodies[2].position[1]).toBeLessThan(4);
  });

  it('removes nothing when the last shape is static', () => {
    expect(withoutLastBody({ ...world, bodies: [{ shape: 1 }] })).toBeNull();
  });
});

describe('frames', () => {
  it('lists each pair in contact once with its number of points', () => {
    const c = (a: number, b: number) => ({ a, b });
    const frame = { ...frameAt([]), contacts: [c(0, 1), c(0, 1), c(1, 2), c(0, 1)] } as unknown as SimulateFrame;
    expect(contactPairs(frame)).toEqual([{ a: 0, b: 1, points: 3 }, { a: 1, b: 2, points: 1 }]);
  });

  it('names the sleeping bodies and which points were not solved, from the trace\'s counts', () => {
    // A box at rest on the floor: asleep by step 120 (sleepTime 0.5 s), its four corners kept, none solved.
    const resting: Scene = {
      version: 1, query: 'simulate', steps: 120,
      shapes: [{ type: 'box', halfExtents: [3, 0.5, 3], position: [0, -0.5, 0] }, { type: 'box', halfExtents: [0.5, 0.5, 0.5], position: [0, 0.52, 0] }],
      bodies: [{ shape: 1, mass: 1 }],
    };
    const t = sandboxTrace(resting);
    const last = t.frames[t.frames.length - 1];
    expect([last.sleeping, last.solvedPoints, last.contacts.length]).toEqual([1, 0, 4]);
    const rows = SANDBOX_VIEW.rows(last as never, t as never) as [string, string][];
    expect(rows.find((r) => r[0] === 'sleeping bodies')?.[1]).toBe('1; 4 of the points not solved this step (#1–#4)');
    const awake = sandboxTrace({ ...resting, sleep: false } as Scene);
    const lastAwake = awake.frames[awake.frames.length - 1];
    expect(lastAwake.sleeping).toBe(0);
    expect((SANDBOX_VIEW.rows(lastAwake as never, awake as never) as [string, string][]).some((r) => r[0] === 'sleeping bodies')).toBe(false);
    // The pseudocode: a step where every body sleeps moved nothing, so its line is sleeping's, not the positions'.
    const line = (f: SimulateFrame, tr: typeof t) => SANDBOX_VIEW.line!(f as never, tr as never);
    expect(t.pseudocode[line(last, t) - 1]).toMatch(/^ *sleeping:/);
    expect(awake.pseudocode[line(lastAwake, awake) - 1]).toMatch(/^ *positions:/);
    const firstAsleep = t.frames.findIndex((f) => f.sleeping === 1);
    expect(firstAsleep).toBeGreaterThan(1);
    expect(t.pseudocode[line(t.frames[firstAsleep - 1], t) - 1]).toMatch(/^ *positions:/);
    expect(line(t.frames[0], t)).toBe(1);
  });

  it('plays one frame per dt (times the stride of a long run)', () => {
    expect(playInterval(sandboxTrace({ ...world, dt: 0.02 }))).toBeCloseTo(20, 12);
    // A run of 5000 steps keeps at most 2000 frames: every 3rd step.
    const long = sandboxTrace({ ...world, dt: 0.01, steps: 5000 });
    expect(long.every).toBe(3);
    expect(playInterval(long)).toBeCloseTo(30, 12);
  });
});

describe('sandboxCounter', () => {
  it('counts the simulation\'s steps, not the frames: a long run keeps every k-th step and the last', () => {
    // 4500 steps: at most 2000 frames, so every ceil(4499 / 1999) = 3rd step (README: simulate's trace).
    const t = sandboxTrace({ ...world, steps: 4500, shapes: world.shapes.slice(0, 2), bodies: [{ shape: 1 }] });
    expect(t.every).toBe(3);
    expect(t.frames.length).toBe(1501);
    expect(sandboxCounter(t, 0)).toBe('step 0 of 4500');
    expect(sandboxCounter(t, 1)).toBe('step 3 of 4500');
    expect(sandboxCounter(t, 700)).toBe('step 2100 of 4500');
    expect(sandboxCounter(t, 1500)).toBe('step 4500 of 4500');
  });

  it('with every step kept, the step is the frame\'s number', () => {
    const t = sandboxTrace({ ...world, steps: 30 });
    expect(t.every).toBe(1);
    expect(t.frames.map((_, i) => sandboxCounter(t, i))).toEqual(Array.from({ length: 31 }, (_, i) => `step ${i} of 30`));
  });
});
