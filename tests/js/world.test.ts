// The World (web/lib/world.ts) in wasm: pairs against brute force — intersect() on every pair of bodies,
// without any broad phase — on random worlds of every shape type (meshes, heightfields, compounds and planes
// too) while bodies move through the pose view, teleport, leave and come back; the scene format's "pairs"
// against the same brute force; errors that name the problem and change nothing; and memory that returns.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  box, compound, type ConvexShape, heightfield, init, intersect, mesh, plane, raycast, run, shapecast, sphere, stats, trace, World, type Body,
  type Scene,
} from '../../web/lib/index';
import { catchError, everyConvexShape, randomPose, seeded } from './helpers';
import { randomSoup } from './mesh-gen';

beforeAll(async () => {
  await init();
});

function zoo(rand: () => number): ConvexShape[] {
  const soup = randomSoup(rand, 16);
  return [
    ...everyConvexShape(rand),
    box([3, 0.1, 0.05]),
    compound([{ shape: sphere(0.3) }, { shape: box([0.2, 0.2, 0.2]), position: [0.6, 0, 0] }]),
    mesh(soup.vertices, soup.indices),
    heightfield([[0, 0.1, 0], [0.2, 0, 0.1], [0, 0.1, 0]], [0.5, 0.5]),
  ];
}

/** intersect() on every pair of live bodies, by slot. */
function bruteForce(world: World): number[] {
  const live: Body[] = [];
  for (let s = 0; s < world.poses().length / 7; s++) {
    const b = world.bodyAt(s);
    if (b) live.push(b);
  }
  const out: number[] = [];
  for (let i = 0; i < live.length; i++) {
    for (let j = i + 1; j < live.length; j++) {
      const a = live[i], b = live[j];
      if (intersect(a.shape, world.pose(a), b.shape, world.pose(b)).intersecting) out.push(a.slot, b.slot);
    }
  }
  return out;
}

describe('World', () => {
  it.each(['sweep-and-prune', 'tree'] as const)('finds the pairs intersect() finds on every pair, frame after frame (%s)', (broadphase) => {
    const rand = seeded(11);
    const shapes = [...zoo(rand), plane([0, 1, 0], -2)];
    const world = new World({ broadphase });
    const bodies: Body[] = [];
    for (let i = 0; i < 80; i++) bodies.push(world.add(shapes[Math.floor(rand() * shapes.length)], randomPose(rand, 8)));
    let total = 0;
    for (let frame = 0; frame < 12; frame++) {
      const poses = world.poses();
      for (const b of bodies) {
        if (rand() < 0.05) {
          poses.set(randomPose(rand, 8), 7 * b.slot);
        } else {
          for (let k = 0; k < 3; k++) poses[7 * b.slot + k] += (rand() - 0.5) * 0.2;
        }
      }
      if (frame % 4 === 1) {
        for (let k = 0; k < 5; k++) {
          const i = Math.floor(rand() * bodies.length);
          world.remove(bodies[i]);
          bodies[i] = world.add(shapes[Math.floor(rand() * shapes.length)], randomPose(rand, 8));
        }
      }
      const got = Array.from(world.pairSlots());
      const want = bruteForce(world);
      expect(got, `frame ${frame}`).toEqual(want);
      expect(world.candidates).toBeGreaterThanOrEqual(want.length / 2);
      total += want.length / 2;
    }
    expect(total, 'the random worlds have overlapping pairs to find').toBeGreaterThan(20);
    const named = world.pairs();
    expect(named.map(([a, b]) => [a.slot, b.slot]).flat()).toEqual(Array.from(world.pairSlots()));
    world.dispose();
    for (const s of shapes) s.dispose();
  });

  it('answers the scene format\'s "pairs" as intersect() on every pair of its shapes', () => {
    const rand = seeded(3);
    const shapes = zoo(rand);
    const specs = shapes.map((s) => s.spec());
    const poses = specs.map(() => randomPose(rand, 3));
    const scene: Scene = {
      version: 1, query: 'pairs',
      shapes: specs.map((s, i) => ({ ...s, position: [poses[i][0], poses[i][1], poses[i][2]], rotation: [poses[i][3], poses[i][4], poses[i][5], poses[i][6]] })),
    };
    const r = run(scene as Scene & { query: 'pairs' });
    const want: [number, number][] = [];
    for (let i = 0; i < shapes.length; i++) {
      for (let j = i + 1; j < shapes.length; j++) {
        const pair = run({ version: 1, query: 'intersect', shapes: [scene.shapes[i], scene.shapes[j]] }) as { intersecting: boolean };
        if (pair.intersecting) want.push([i, j]);
      }
    }
    expect(r.pairs).toEqual(want);
    expect(want.length).toBeGreaterThan(2);
    expect(r.candidates).toBeGreaterThanOrEqual(want.length);
    // The same shapes in a World at the same poses: the same pairs.
    const world = new World();
    shapes.forEach((s, i) => world.add(s, poses[i]));
    expect(world.pairs().map(([a, b]) => [a.slot, b.slot])).toEqual(want);
    world.dispose();
    for (const s of shapes) s.dispose();
  });

  it('reports bad poses, foreign bodies and disposed shapes by name, and changes nothing', () => {
    const ball = sphere(1);
    const world = new World();
    const a = world.add(ball, [0, 0, 0, 0, 0, 0, 1]);
    const b = world.add(ball, { position: [1.5, 0, 0] });
    expect(Array.from(world.pairSlots())).toEqual([a.slot, b.slot]);

    let e = catchError(() => world.add(ball, [0, NaN, 0, 0, 0, 0, 1]));
    expect([e.code, e.field]).toEqual(['invalid-argument', 'pose[1]']);
    e = catchError(() => world.setPose(a, { rotation: [0, 0, 0, 0] }));
    expect(e.field).toBe('pose[3..6]');
    e = catchError(() => world.add(ball, { position: [0, 0, 0], spin: 1 } as never));
    expect(e.field).toBe('pose.spin');

    world.poses()[7 * b.slot] = Infinity;
    e = catchError(() => world.pairs());
    expect([e.code, e.field]).toEqual(['invalid-argument', `poses[${b.slot}][0]`]);
    world.poses()[7 * b.slot] = 1.5;
    expect(world.pairs().length).toBe(1);

    world.remove(b);
    e = catchError(() => world.remove(b));
    expect(e.field).toBe('body');
    e = catchError(() => world.setPose(b, {}));
    expect(e.field).toBe('body');
    const other = new World();
    const c = other.add(ball);
    e = catchError(() => world.remove(c));
    expect(e.detail).toMatch(/not a body of this world/);

    const cube = box([1, 1, 1]);
    world.add(cube);
    cube.dispose();
    e = catchError(() => world.pairs());
    expect(e.detail).toMatch(/disposed/);
    e = catchError(() => world.add(cube));
    expect([e.code, e.field]).toEqual(['disposed', 'shape']);

    e = catchError(() => new World({ broadphase: 'grid' as never }));
    expect([e.code, e.field]).toEqual(['invalid-argument', 'options.broadphase']);
    e = catchError(() => new World({ broadPhase: 'tree' } as never));
    expect([e.code, e.field]).toEqual(['invalid-argument', 'options.broadPhase']);

    world.dispose();
    e = catchError(() => world.add(ball));
    expect([e.code, e.field]).toEqual(['disposed', 'world']);
    world.dispose(); // idempotent
    other.dispose();
    ball.dispose();
  });

  it('returns its memory when disposed', () => {
    const ball = sphere(0.5);
    const warm = new World();
    for (let i = 0; i < 500; i++) warm.add(ball, [i % 10, Math.floor(i / 10) % 10, Math.floor(i / 100), 0, 0, 0, 1]);
    warm.pairs();
    warm.dispose();
    const before = stats();
    for (let round = 0; round < 20; round++) {
      const w = new World();
      for (let i = 0; i < 500; i++) w.add(ball, [i % 10, Math.floor(i / 10) % 10, Math.floor(i / 100), 0, 0, 0, 1]);
      expect(w.pairs().length).toBeGreaterThan(500);
      w.dispose();
    }
    const after = stats();
    expect(after.liveWorlds).toBe(before.liveWorlds);
    expect(after.heapBytes).toBe(before.heapBytes);
    ball.dispose();
  });
});

describe('World motion', () => {
  it('falls as semi-implicit Euler says, and a "simulate" scene gives the same bits', () => {
    using ball = sphere(0.5);
    using floor = box([5, 0.5, 5]);
    using world = new World();
    const b = world.add(ball, { position: [0, 50, 0] }, { mass: 3, velocity: [2, 0, 0] });
    world.add(floor, { position: [0, -0.5, 0] });
    expect(world.mass(b)).toBe(3);
    for (let i = 0; i < 100; i++) world.step({ dt: 0.01, gravity: [0, -10, 0] });
    // 100 steps of the default S = 4 substeps, h = 0.01/S: y = 50 − 10·h²·N(N+1)/2, N = 100·S.
    const S = 4, h = 0.01 / S, N = 100 * S;
    const p = world.pose(b);
    expect(p[1]).toBeCloseTo(50 - 10 * h * h * N * (N + 1) / 2, 9);
    expect(p[0]).toBeCloseTo(2 * N * h, 9);
    expect(world.velocities()[6 * b.slot + 1]).toBeCloseTo(-10 * h * N, 9);
    const r = run({
      version: 1, query: 'simulate', dt: 0.01, gravity: [0, -10, 0], steps: 100,
      shapes: [{ type: 'sphere', radius: 0.5, position: [0, 50, 0] }, { type: 'box', halfExtents: [5, 0.5, 5], position: [0, -0.5, 0] }],
      bodies: [{ shape: 0, mass: 3, velocity: [2, 0, 0] }],
    });
    expect(r.bodies[0].position).toEqual([p[0], p[1], p[2]]);
    expect(r.bodies[0].rotation).toEqual([p[3], p[4], p[5], p[6]]);
    expect(r.steps).toBe(100);
  });

  it('keeps a stack of boxes standing on a floor, with contacts to show', () => {
    using cube = box([0.5, 0.5, 0.5]);
    using ground = plane([0, 1, 0], 0);
    using world = new World();
    world.add(ground);
    const boxes = Array.from({ length: 5 }, (_, i) => world.add(cube, { position: [0, 0.5 + i, 0] }, { mass: 1 }));
    let worst = 0;
    for (let s = 0; s < 300; s++) {
      const stats = world.step({ sleep: false }); // the solver's own stability, solved every step
      expect(stats.points).toBeGreaterThan(0);
      for (const [i, b] of boxes.entries()) {
        const p = world.pose(b);
        worst = Math.max(worst, Math.abs(p[1] - (0.5 + i)), Math.hypot(p[0], p[2]));
      }
    }
    expect(worst).toBeLessThan(0.01);
    const contacts = world.contacts();
    expect(contacts.length).toBeGreaterThanOrEqual(4 * 5);
    for (const c of contacts) {
      expect(boxes.includes(c.a) || boxes.includes(c.b)).toBe(true);
      expect(Math.abs(c.normal[1])).toBeCloseTo(1, 6);
      expect(c.normalImpulse).toBeGreaterThanOrEqual(0);
    }
  });

  it('uses a resting pair\'s manifold again while it moved less than manifoldReuse, and says how often', () => {
    using cube = box([0.5, 0.5, 0.5]);
    using ground = plane([0, 1, 0], 0);
    const run = (options: { manifoldReuse?: number }) => {
      using world = new World();
      world.add(ground);
      const boxes = Array.from({ length: 3 }, (_, i) => world.add(cube, { position: [0, 0.5 + i, 0] }, { mass: 1 }));
      let reused = 0, manifolds = 0;
      for (let s = 0; s < 120; s++) {
        const stats = world.step({ sleep: false, ...options });
        reused += stats.reusedManifolds;
        manifolds += stats.manifolds;
        expect(stats.reusedManifolds).toBeLessThanOrEqual(stats.manifolds);
      }
      return { reused, manifolds, heights: boxes.map((b) => world.pose(b)[1]) };
    };
    const never = run({ manifoldReuse: 0 });
    expect(never.reused).toBe(0);
    const byDefault = run({});
    // A resting stack moves well under 1 mm a step: most of its pairs keep their manifolds.
    expect(byDefault.reused).toBeGreaterThan(byDefault.manifolds / 2);
    // ...and stands where it stands when every manifold is computed anew, within the reuse tolerance.
    for (const [i, h] of byDefault.heights.entries()) expect(Math.abs(h - never.heights[i])).toBeLessThan(0.001);
  });

  it('puts a resting stack to sleep, keeps it put, and wakes it when a box falls on it', () => {
    using cube = box([0.5, 0.5, 0.5]);
    using ground = plane([0, 1, 0], 0);
    using world = new World();
    world.add(ground);
    const stack = Array.from({ length: 3 }, (_, i) => world.add(cube, { position: [0, 0.5 + i, 0] }, { mass: 1 }));
    const lone = world.add(cube, { position: [6, 0.5, 0] }, { mass: 1 });
    let steps = 0;
    while (world.step().sleeping < 4 && steps < 120) steps++;
    // At rest from the start: asleep after the 0.5 s of rest the default asks, not before.
    expect(steps + 1).toBeGreaterThanOrEqual(30);
    expect(steps).toBeLessThan(120);
    const poses = Array.from(world.poses());
    const contacts = world.contacts().length;
    expect(contacts).toBe(4 * 4); // each box's face on what is under it, kept while asleep
    for (let s = 0; s < 60; s++) {
      const stats = world.step();
      expect([stats.sleeping, stats.points]).toEqual([4, 0]);
    }
    expect(Array.from(world.poses())).toEqual(poses);
    expect(Array.from(world.velocities()).every((v) => v === 0)).toBe(true);
    expect(world.contacts().length).toBe(contacts);

    // The lone box moved 3 m above the stack's top and pushed down: it wakes, then so does the stack under it.
    const top = world.pose(stack[2]);
    world.setPose(lone, { position: [top[0], top[1] + 3, top[2]] });
    world.setMotion(lone, { mass: 1, velocity: [0, -1, 0] });
    const sleeping: number[] = [];
    let lowest = Infinity;
    for (let s = 0; s < 120; s++) {
      sleeping.push(world.step().sleeping);
      lowest = Math.min(lowest, world.pose(stack[2])[1]);
    }
    expect(sleeping[0]).toBe(3);
    expect(Math.min(...sleeping)).toBe(0);
    expect(lowest, 'the landing pushed the stack down').toBeLessThan(top[1] - 1e-5);
    expect(world.pose(lone)[1]).toBeCloseTo(top[1] + 1, 2);
    expect(sleeping.at(-1), 'and it all sleeps again').toBe(4);

    // sleep: false wakes everyone and keeps them awake.
    for (let s = 0; s < 60; s++) expect(world.step({ sleep: false }).sleeping).toBe(0);
    expect(world.step({ sleep: false }).points).toBe(4 * 4 + 0);
  });

  it('keeps sleeping islands asleep when bodies come and go elsewhere, and wakes the one a removed body touched', () => {
    using cube = box([0.5, 0.5, 0.5]);
    using ball = sphere(0.5);
    using ground = plane([0, 1, 0], 0);
    using world = new World();
    const bystander = world.add(cube, { position: [0, 0.5, 20] }); // static, in a low slot
    world.add(ground);
    const a = Array.from({ length: 3 }, (_, i) => world.add(cube, { position: [-5, 0.5 + i, 0] }, { mass: 1 }));
    const b = Array.from({ length: 3 }, (_, i) => world.add(cube, { position: [5, 0.5 + i, 0] }, { mass: 1 }));
    let steps = 0;
    while (world.step().sleeping < 6 && steps < 120) steps++;
    expect(steps).toBeLessThan(120);
    const restB = b.map((id) => world.pose(id));
    // A falling ball far off and the bystander removed (every later slot's body renumbered inside): nothing wakes.
    world.add(ball, { position: [0, 10, -10] }, { mass: 1 });
    world.remove(bystander);
    for (let s = 0; s < 30; s++) expect(world.step().sleeping).toBe(6);
    // The middle box of stack a taken out: a's island wakes, b's sleeps on, not moved by a bit.
    world.remove(a[1]);
    expect(world.step().sleeping).toBe(3);
    for (let s = 0; s < 60; s++) world.step();
    expect(world.pose(a[2])[1]).toBeCloseTo(1.5, 1);
    expect(b.map((id) => world.pose(id))).toEqual(restB);
  });

  it('traces a "simulate" scene step by step, ending in its result', () => {
    const scene = {
      version: 1 as const, query: 'simulate' as const, steps: 20,
      shapes: [{ type: 'box' as const, halfExtents: [0.5, 0.5, 0.5] as [number, number, number], position: [0, 0.6, 0] as [number, number, number] }, { type: 'plane' as const, normal: [0, 1, 0] as [number, number, number], offset: 0 }],
      bodies: [{ shape: 0 }],
    };
    const t = trace(scene);
    expect(t.query).toBe('simulate');
    expect(t.frames.length).toBe(21);
    expect(t.frames.map((f) => f.step)).toEqual(Array.from({ length: 21 }, (_, i) => i));
    const last = t.frames[20];
    expect(last.poses[0].slice(0, 3)).toEqual(t.result.bodies[0].position);
    expect(last.contacts.length).toBe(4);
    expect(last.caption).toMatch(/Step 20: 4 contact points between 1 pair/);
    expect(run(scene).bodies[0]).toEqual(t.result.bodies[0]);
  });

  it('steps a compound body: an L of two boxes falls on a floor and rests on its bar, its mass its children\'s volume', () => {
    // A bar 2 × 0.5 × 0.5 and a post 0.5 × 1 × 0.5 on its right end: volume 0.5 + 0.25, at density 1.
    using l = compound([{ shape: box([1, 0.25, 0.25]), position: [0, 0.25, 0] }, { shape: box([0.25, 0.5, 0.25]), position: [0.75, 1, 0] }]);
    using ground = plane([0, 1, 0], 0);
    using world = new World();
    world.add(ground);
    const body = world.add(l, { position: [0, 1, 0], rotation: [0, 0, Math.sin(0.1), Math.cos(0.1)] }, {});
    expect(world.mass(body)).toBeCloseTo(0.75, 12);
    for (let s = 0; s < 300; s++) world.step();
    const p = world.pose(body);
    // Resting on the bar: its bottom (the compound's origin) on the floor, upright (the post up, y of its axis ≈ 1).
    expect(p[1]).toBeCloseTo(0, 2);
    const up = 1 - 2 * (p[3] * p[3] + p[5] * p[5]);
    expect(up).toBeGreaterThan(0.9999);
    const v = Array.from(world.velocities().slice(6 * body.slot, 6 * body.slot + 6));
    expect(Math.hypot(...v)).toBeLessThan(1e-2);
    // The bar's face on the floor: its four corners, each from child 0 against the plane.
    const contacts = world.contacts();
    expect(contacts.length).toBe(4);
    for (const c of contacts) expect(Math.abs(c.pointA[1]) + Math.abs(c.pointB[1])).toBeLessThan(0.01);
  });

  it('refuses bad motion and bad steps by name, and moves nothing', () => {
    using ball = sphere(0.5);
    using ground = plane([0, 1, 0], 0);
    using world = new World();
    const g = world.add(ground);
    const b = world.add(ball, { position: [0, 2, 0] }, {});
    expect(world.mass(b)).toBeCloseTo((4 / 3) * Math.PI * 0.125, 12); // density 1
    let e = catchError(() => world.setMotion(g, { mass: 1 }));
    expect([e.code, e.field]).toEqual(['invalid-argument', 'motion.mass']);
    expect(e.detail).toMatch(/static/);
    e = catchError(() => world.setMotion(b, { mass: -1 }));
    expect(e.field).toBe('motion.mass');
    e = catchError(() => world.setMotion(b, { velocity: [0, NaN, 0] }));
    expect(e.field).toBe('motion.velocity[1]');
    e = catchError(() => world.setMotion(b, { speed: 1 } as never));
    expect(e.field).toBe('motion.speed');
    const count = world.count;
    e = catchError(() => world.add(ball, {}, { mass: -2 }));
    expect(e.field).toBe('motion.mass');
    expect(world.count, 'a refused add adds nothing').toBe(count);

    const before = Array.from(world.poses());
    world.velocities()[6 * b.slot + 2] = Infinity;
    e = catchError(() => world.step());
    expect([e.code, e.field]).toEqual(['invalid-argument', `velocities[${b.slot}][2]`]);
    world.velocities()[6 * b.slot + 2] = 0;
    for (const [options, field] of [[{ dt: 0 }, 'options.dt'], [{ dt: NaN }, 'options.dt'], [{ gravity: [0, Infinity, 0] }, 'options.gravity[1]'],
      [{ substeps: 0 }, 'options.substeps'], [{ iterations: 2.5 }, 'options.iterations'], [{ friction: -1 }, 'options'], [{ restitution: 2 }, 'options'],
      [{ timestep: 1 }, 'options.timestep'], [{ sleep: 'no' }, 'options.sleep'], [{ manifoldReuse: -0.001 }, 'options'],
      [{ manifoldReuse: NaN }, 'options'], [{ manifoldReuse: '1' }, 'options.manifoldReuse']] as const) {
      e = catchError(() => world.step(options as never));
      expect(e.field, JSON.stringify(options)).toBe(field);
    }
    expect(Array.from(world.poses())).toEqual(before);
    world.step();
    expect(world.pose(b)[1]).toBeLessThan(2);
  });
});

describe('World queries', () => {
  it('raycast, overlap and shapecast equal the queries on every body', () => {
    const rand = seeded(21);
    const shapes = [...zoo(rand)];
    const ground = plane([0, 1, 0], -2);
    const world = new World();
    const bodies = Array.from({ length: 60 }, () => world.add(shapes[Math.floor(rand() * shapes.length)], randomPose(rand, 8)));
    const floor = world.add(ground);
    let hits = 0, overlaps = 0, casts = 0;
    for (let q = 0; q < 30; ++q) {
      const dir = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
      const origin: [number, number, number] = [12 * dir[0], 12 * dir[1], 12 * dir[2]];
      const ray = { origin, direction: [-2 * dir[0] + rand() - 0.5, -2 * dir[1] + rand() - 0.5, -2 * dir[2] + rand() - 0.5] as [number, number, number], maxT: 20 };
      const brute: [number, number][] = [];
      for (const b of [...bodies, floor]) {
        const r = raycast(b.shape, world.pose(b), ray);
        if (r.hit) brute.push([r.t!, b.slot]);
      }
      brute.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      const all = world.raycast(ray, { all: true });
      expect(all.map((h) => [h.t, h.body.slot])).toEqual(brute);
      const nearest = world.raycast(ray);
      if (brute.length === 0) expect(nearest).toBeNull();
      else {
        expect(nearest!.body.slot).toBe(brute[0][1]);
        expect(nearest!.t).toBeCloseTo(brute[0][0], 9);
      }
      hits += brute.length;

      using probe = sphere(0.3 + rand());
      const pose = randomPose(rand, 8);
      const over = world.overlap(probe, pose).map((b) => b.slot);
      const bruteOver = [...bodies, floor].filter((b) => intersect(b.shape, world.pose(b), probe, pose).intersecting).map((b) => b.slot).sort((x, y) => x - y);
      expect(over).toEqual(bruteOver);
      overlaps += over.length;

      const move: [number, number, number] = [8 * (rand() - 0.5), 8 * (rand() - 0.5), 8 * (rand() - 0.5)];
      const cast = world.shapecast(probe, pose, move);
      let best: [number, number] | null = null;
      for (const b of bodies) {
        const r = shapecast(b.shape, world.pose(b), probe, pose, { translationA: [0, 0, 0], translationB: move });
        if (r.hit && (best === null || r.t! < best[0])) best = [r.t!, b.slot];
      }
      // The plane y ≤ −2 by hand: the sphere's lowest point, y − radius, reaches −2 at t = (y − r + 2)/(−dy).
      const radius = (probe.spec() as { radius: number }).radius;
      const h = pose[1] - radius + 2;
      const tPlane = h <= 0 ? 0 : move[1] < 0 && h <= -move[1] ? h / -move[1] : null;
      if (tPlane !== null && (best === null || tPlane < best[0])) best = [tPlane, floor.slot];
      if (best === null) expect(cast).toBeNull();
      else {
        expect(cast!.body.slot).toBe(best[1]);
        expect(cast!.t).toBeCloseTo(best[0], 9);
        casts++;
      }
    }
    expect(hits).toBeGreaterThan(10);
    expect(overlaps).toBeGreaterThan(5);
    expect(casts).toBeGreaterThan(5);
    world.dispose();
    ground.dispose();
    for (const s of shapes) s.dispose();
  });

  it('names bad rays, poses and translations', () => {
    using ball = sphere(1);
    using world = new World();
    world.add(ball);
    let e = catchError(() => world.raycast({ origin: [0, NaN, 5], direction: [0, 0, -1] }));
    expect(e.field).toBe('ray.origin[1]');
    e = catchError(() => world.raycast({ origin: [0, 0, 5], direction: [0, 0, 0] }));
    expect(e.field).toBe('ray.direction');
    e = catchError(() => world.raycast({ origin: [0, 0, 5], direction: [0, 0, -1], maxT: Infinity }));
    expect(e.field).toBe('ray.maxT');
    expect(world.raycast({ origin: [0, 0, 5], direction: [0, 0, -1], maxT: 10 })!.t).toBe(4);
    e = catchError(() => world.overlap(ball, { position: [0, 0, 0], rotation: [0, 0, 0, 0] }));
    expect(e.field).toBe('pose[3..6]');
    e = catchError(() => world.shapecast(ball, {}, [1, 'x' as never, 0]));
    expect(e.field).toBe('translation[1]');
  });
});
