#!/usr/bin/env node
// Worlds: collidoscope's World against rapier3d-compat's world, in Node, on
// the same moving bodies: the collision phase of a frame (broad phase plus
// the narrow phase's overlap test on every pair whose boxes overlap).
//
//   node bench/world.mjs [--quick] [--collision-only | --pile-only]   prints the markdown section
//                                          (--collision-only: without the pile; --pile-only: the pile alone)
//   import { runWorld, worldMarkdown } from './bench/world.mjs'   (scripts/bench.mjs)
//
// Bodies: N (1 000 and 10 000) boxes (half-extents 0.2–0.5) and spheres
// (radius 0.3–0.6), half each, in a cube of side (4.2·N)^⅓, about one
// overlapping neighbour per body; each drifts (up to 0.05 per frame per
// axis, bouncing off the cube's walls) and turns (0.02 rad per frame about
// its own axis). The frames' poses are made before anything is timed, and
// both contenders read the same numbers.
//   ours    'collidoscope': new World(), one shape per body; per frame the
//           poses are copied into world.poses() (one Float64Array set) and
//           world.pairSlots() answers the intersecting pairs.
//   rapier  @dimforge/rapier3d-compat: one kinematic (position-based) body
//           per body with one sensor collider (ActiveCollisionTypes.ALL, so
//           that kinematic–kinematic pairs are tested; a sensor's narrow
//           phase is the overlap test, as ours); per frame
//           setNextKinematicTranslation and setNextKinematicRotation on
//           every body, then world.step(): its broad phase and the sensors'
//           intersection tests (nothing to solve). Reading
//           its pairs back is not timed (intersectionPairsWith per collider
//           is slower than the step itself); ours are returned by the call.
//   ours (tree)  the same with new World({ broadphase: 'tree' }).
//   cannon  cannon-es (plain JavaScript): one dynamic body per body (its
//           narrow phase skips kinematic pairs) with collisionResponse off
//           and no gravity, SAPBroadphase; per frame position and quaternion
//           set on every body (velocities zeroed), then world.step(1/60): its
//           broad phase and narrow phase (contacts are made; with the
//           response off nothing is solved). Its pairs are read back after
//           the step (they are the poses it was given: the step moves nothing).
//
// The pile: 1 000 unit boxes (half-extents 0.5, mass 1) in a 10 × 10 × 10
// grid 1.2 apart, starting 1 above a static floor (a box 100 × 1 × 100), fall
// and pile up; the full step (broad phase, contacts, solver, integration)
// over 180 frames at 60 Hz, each engine with its default solver settings
// (ours: 4 substeps × 3 rounds and a relax round, and also 4 × 1 with its
// relax round, rapier's count of rounds and stabilization passes; rapier: its IntegrationParameters, printed in the table;
// cannon: GSSolver 10 iterations, SAPBroadphase), µ = 0.5 where settable.
// Reported: ms per step, the mean height of the boxes at the end (a pile that
// sinks through the floor or explodes shows there); ours and rapier also with
// sleeping off (step({ sleep: false }); setCanSleep(false)): the same work
// with nobody resting.
//
// Agreement: the pairs of the last frame, ours against rapier's
// intersectionPairsWith (rapier computes in float32: pairs within rounding
// of touching may differ; the count is reported).
//
// Times: medians over interleaved passes of all frames (process.cpuUsage).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mulberry32 } from './random.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
};
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const f = (x, d = 2) => (x === undefined || Number.isNaN(x) ? '—' : x.toFixed(d));

// q ⊗ r, quaternions as [x, y, z, w].
function qmul(q, r) {
  return [
    q[3] * r[0] + q[0] * r[3] + q[1] * r[2] - q[2] * r[1],
    q[3] * r[1] - q[0] * r[2] + q[1] * r[3] + q[2] * r[0],
    q[3] * r[2] + q[0] * r[1] - q[1] * r[0] + q[2] * r[3],
    q[3] * r[3] - q[0] * r[0] - q[1] * r[1] - q[2] * r[2],
  ];
}

/** N bodies and `frames` frames of poses (7 numbers per body per frame). */
function makeScene(n, frames, rnd) {
  const side = Math.cbrt(4.2 * n);
  const bodies = [];
  for (let i = 0; i < n; i++) {
    const isBox = i % 2 === 0;
    bodies.push(isBox
      ? { type: 'box', halfExtents: [0.2 + 0.3 * rnd(), 0.2 + 0.3 * rnd(), 0.2 + 0.3 * rnd()] }
      : { type: 'sphere', radius: 0.3 + 0.3 * rnd() });
  }
  const poses = new Float64Array(7 * n * frames);
  const pos = [], vel = [], rot = [], turn = [];
  for (let i = 0; i < n; i++) {
    pos.push([side * rnd(), side * rnd(), side * rnd()]);
    vel.push([0.1 * rnd() - 0.05, 0.1 * rnd() - 0.05, 0.1 * rnd() - 0.05]);
    const a = [2 * rnd() - 1, 2 * rnd() - 1, 2 * rnd() - 1];
    const l = Math.hypot(...a) || 1;
    const h = 0.01; // half of 0.02 rad
    turn.push([(Math.sin(h) * a[0]) / l, (Math.sin(h) * a[1]) / l, (Math.sin(h) * a[2]) / l, Math.cos(h)]);
    rot.push([0, 0, 0, 1]);
  }
  for (let fr = 0; fr < frames; fr++) {
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 3; k++) {
        pos[i][k] += vel[i][k];
        if (pos[i][k] < 0 || pos[i][k] > side) vel[i][k] = -vel[i][k];
      }
      const q = qmul(rot[i], turn[i]);
      const l = Math.hypot(...q);
      rot[i] = q.map((c) => c / l);
      poses.set([...pos[i], ...rot[i]], 7 * (fr * n + i));
    }
  }
  return { bodies, poses, side };
}

async function loadRapier() {
  try {
    const mod = await import('@dimforge/rapier3d-compat');
    const R = mod.default ?? mod;
    await R.init();
    return { R, version: R.version() };
  } catch (e) {
    return { pending: `@dimforge/rapier3d-compat could not be loaded (${e.message})` };
  }
}

async function loadOurs() {
  const lib = path.join(ROOT, 'web', 'dist', 'lib', 'index.mjs');
  if (!existsSync(lib)) return { pending: 'web/dist/lib/index.mjs is not built (node scripts/build.mjs)' };
  const api = await import(pathToFileURL(lib).href);
  await api.init();
  return { api };
}

// cannon-es keeps a collision matrix with an entry per pair of bodies that have touched (a sparse array indexed
// by pair), which exhausts Node's default heap within a few frames of 10 000 colliding bodies: it runs up to this.
const CANNON_MAX_BODIES = 1000;

async function loadCannon() {
  try {
    const C = await import('cannon-es');
    const { readFileSync } = await import('node:fs');
    const version = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'cannon-es', 'package.json'), 'utf8')).version;
    return { C, version };
  } catch (e) {
    return { pending: `cannon-es could not be loaded (${e.message})` };
  }
}

function benchOne(n, frames, passes, ours, rapier, cannon) {
  const { bodies, poses } = makeScene(n, frames, mulberry32(0x3a11 + n));
  const row = { bodies: n, frames, pending: {} };

  // Ours.
  const { api } = ours;
  const shapes = bodies.map((b) => (b.type === 'box' ? api.box(b.halfExtents) : api.sphere(b.radius)));
  const world = new api.World();
  for (let i = 0; i < n; i++) world.add(shapes[i], poses.subarray(7 * i, 7 * i + 7));
  const oursFrame = (fr) => {
    world.poses().set(poses.subarray(7 * n * fr, 7 * n * (fr + 1)));
    return world.pairSlots().length / 2;
  };
  const tree = new api.World({ broadphase: 'tree' });
  for (let i = 0; i < n; i++) tree.add(shapes[i], poses.subarray(7 * i, 7 * i + 7));
  const treeFrame = (fr) => {
    tree.poses().set(poses.subarray(7 * n * fr, 7 * n * (fr + 1)));
    return tree.pairSlots().length / 2;
  };

  // cannon-es, up to CANNON_MAX_BODIES.
  const withCannon = n <= CANNON_MAX_BODIES;
  const { C } = cannon;
  const cw = new C.World({ gravity: new C.Vec3(0, 0, 0) });
  cw.broadphase = new C.SAPBroadphase(cw);
  const cbodies = (withCannon ? bodies : []).map((b) => {
    // Dynamic (cannon's narrow phase skips kinematic pairs), without response and without gravity; the
    // frame sets its pose and zeroes its velocity, so it goes where the frame says.
    const body = new C.Body({
      mass: 1,
      shape: b.type === 'box' ? new C.Box(new C.Vec3(...b.halfExtents)) : new C.Sphere(b.radius),
    });
    body.collisionResponse = false;
    cw.addBody(body);
    return body;
  });
  const cannonFrame = (fr) => {
    const base = 7 * n * fr;
    for (let i = 0; i < n; i++) {
      const k = base + 7 * i, b = cbodies[i];
      b.position.set(poses[k], poses[k + 1], poses[k + 2]);
      b.quaternion.set(poses[k + 3], poses[k + 4], poses[k + 5], poses[k + 6]);
      b.velocity.set(0, 0, 0);
      b.angularVelocity.set(0, 0, 0);
    }
    cw.step(1 / 60);
  };

  // rapier.
  const { R } = rapier;
  const rw = new R.World({ x: 0, y: 0, z: 0 });
  const rigid = [];
  const colliders = bodies.map((b, i) => {
    const body = rw.createRigidBody(R.RigidBodyDesc.kinematicPositionBased()
      .setTranslation(poses[7 * i], poses[7 * i + 1], poses[7 * i + 2])
      .setRotation({ x: poses[7 * i + 3], y: poses[7 * i + 4], z: poses[7 * i + 5], w: poses[7 * i + 6] }));
    rigid.push(body);
    const desc = (b.type === 'box' ? R.ColliderDesc.cuboid(...b.halfExtents) : R.ColliderDesc.ball(b.radius))
      .setSensor(true)
      .setActiveCollisionTypes(R.ActiveCollisionTypes.ALL);
    return rw.createCollider(desc, body);
  });
  const t = { x: 0, y: 0, z: 0 }, q = { x: 0, y: 0, z: 0, w: 1 };
  const rapierFrame = (fr) => {
    const base = 7 * n * fr;
    for (let i = 0; i < n; i++) {
      const k = base + 7 * i;
      t.x = poses[k]; t.y = poses[k + 1]; t.z = poses[k + 2];
      q.x = poses[k + 3]; q.y = poses[k + 4]; q.z = poses[k + 5]; q.w = poses[k + 6];
      rigid[i].setNextKinematicTranslation(t);
      rigid[i].setNextKinematicRotation(q);
    }
    rw.step();
  };

  // Warm-up: one pass each (JIT tiers, first broad-phase build).
  for (let fr = 0; fr < frames; fr++) oursFrame(fr);
  for (let fr = 0; fr < frames; fr++) treeFrame(fr);
  for (let fr = 0; fr < frames; fr++) rapierFrame(fr);
  if (withCannon) for (let fr = 0; fr < frames; fr++) cannonFrame(fr);
  const to = [], tt = [], tr = [], tc = [];
  let pairs = 0;
  for (let p = 0; p < passes; p++) {
    let c = cpuMs();
    for (let fr = 0; fr < frames; fr++) pairs = oursFrame(fr);
    to.push((cpuMs() - c) / frames);
    c = cpuMs();
    for (let fr = 0; fr < frames; fr++) treeFrame(fr);
    tt.push((cpuMs() - c) / frames);
    c = cpuMs();
    for (let fr = 0; fr < frames; fr++) rapierFrame(fr);
    tr.push((cpuMs() - c) / frames);
    if (!withCannon) continue;
    c = cpuMs();
    for (let fr = 0; fr < frames; fr++) cannonFrame(fr);
    tc.push((cpuMs() - c) / frames);
  }
  row.frameMs = { ours: median(to), tree: median(tt), rapier: median(tr), cannon: withCannon ? median(tc) : undefined };
  const treePairs = Array.from(tree.pairSlots());
  row.treeAgrees = treePairs.length === world.pairSlots().length && treePairs.every((x, i) => x === world.pairSlots()[i]);
  row.pairs = pairs;
  row.candidates = world.candidates;

  // Agreement on the last frame. rapier tests the poses a step starts from
  // (the previous frame's, for kinematic bodies moved to their next pose):
  // one more step with the same targets brings its pairs to the last poses.
  rw.step();
  const mine = new Set();
  const slots = world.pairSlots();
  for (let i = 0; i < slots.length; i += 2) mine.add(`${slots[i]},${slots[i + 1]}`);
  const index = new Map(colliders.map((c, i) => [c.handle, i]));
  const theirs = new Set();
  for (let i = 0; i < n; i++) {
    rw.intersectionPairsWith(colliders[i], (other) => {
      const j = index.get(other.handle);
      theirs.add(i < j ? `${i},${j}` : `${j},${i}`);
    });
  }
  let differ = 0;
  for (const k of mine) if (!theirs.has(k)) differ++;
  for (const k of theirs) if (!mine.has(k)) differ++;
  row.rapierPairs = theirs.size;
  row.disagreements = differ;

  // cannon's pairs of the last frame: the bodies its narrow phase made contacts for.
  if (withCannon) cannonFrame(frames - 1);
  const cindex = new Map(cbodies.map((b, i) => [b, i]));
  const cpairs = new Set();
  for (const eq of cw.contacts) {
    const i = cindex.get(eq.bi), j = cindex.get(eq.bj);
    cpairs.add(i < j ? `${i},${j}` : `${j},${i}`);
  }
  let cdiffer = 0;
  for (const k of mine) if (!cpairs.has(k)) cdiffer++;
  for (const k of cpairs) if (!mine.has(k)) cdiffer++;
  row.cannonPairs = withCannon ? cpairs.size : undefined;
  row.cannonDisagreements = withCannon ? cdiffer : undefined;

  world.dispose();
  tree.dispose();
  for (const s of shapes) s.dispose();
  rw.free();
  return row;
}

/** The 1 000-box pile: ms per full step for each engine, and the boxes' mean height at the end. */
function benchPile(ours, rapier, cannon, quick) {
  const side = 10, spacing = 1.2, n = side * side * side;
  const start = [];
  for (let i = 0; i < side; i++)
    for (let j = 0; j < side; j++)
      for (let k = 0; k < side; k++) start.push([(i - side / 2) * spacing, 1 + 0.5 + j * spacing, (k - side / 2) * spacing]);
  const steps = quick ? 90 : 180;
  const meanHeight = (ys) => ys.reduce((a, y) => a + y, 0) / ys.length;
  const row = { boxes: n, steps };

  // Ours, as it comes (islands at rest fall asleep) and with sleeping off.
  const { api } = ours;
  const cube = api.box([0.5, 0.5, 0.5]);
  const floor = api.box([50, 0.5, 50]);
  let c = 0;
  // Defaults (4 substeps × 3 rounds + 1 relax round), with and without
  // sleeping; then with rapier's count (4 substeps × 1 round + 1 relax
  // round, as its 1 PGS iteration and 1 stabilization pass), sleeping on.
  for (const [key, options] of [['ours', {}], ['oursAwake', { sleep: false }], ['oursRapierRounds', { substeps: 4, iterations: 1 }]]) {
    const world = new api.World();
    world.add(floor, { position: [0, -0.5, 0] });
    const bodies = start.map((p) => world.add(cube, { position: p }, { mass: 1 }));
    let sleeping = 0;
    c = cpuMs();
    for (let s = 0; s < steps; s++) sleeping = world.step(options).sleeping;
    row[key] = (cpuMs() - c) / steps;
    row[`${key}Height`] = meanHeight(bodies.map((b) => world.pose(b)[1]));
    row[`${key}Sleeping`] = sleeping;
    world.dispose();
  }
  cube.dispose();
  floor.dispose();

  // rapier, as it comes (resting bodies fall asleep and cost almost nothing), and with sleeping off.
  const { R } = rapier;
  for (const sleeping of [true, false]) {
    const rw = new R.World({ x: 0, y: -9.81, z: 0 });
    rw.createCollider(R.ColliderDesc.cuboid(50, 0.5, 50).setTranslation(0, -0.5, 0).setFriction(0.5));
    const rb = start.map((p) => {
      const b = rw.createRigidBody(R.RigidBodyDesc.dynamic().setTranslation(p[0], p[1], p[2]).setCanSleep(sleeping));
      rw.createCollider(R.ColliderDesc.cuboid(0.5, 0.5, 0.5).setFriction(0.5), b);
      return b;
    });
    c = cpuMs();
    for (let s = 0; s < steps; s++) rw.step();
    row[sleeping ? 'rapier' : 'rapierAwake'] = (cpuMs() - c) / steps;
    if (sleeping) {
      row.rapierHeight = meanHeight(rb.map((b) => b.translation().y));
      row.rapierSleeping = rb.filter((b) => b.isSleeping()).length;
      const ip = rw.integrationParameters;
      row.rapierSettings = { dt: ip.dt, substeps: ip.numSolverIterations, pgs: ip.numInternalPgsIterations,
        allowedError: ip.normalizedAllowedLinearError, prediction: ip.normalizedPredictionDistance };
    }
    rw.free();
  }

  // cannon-es.
  const { C } = cannon;
  const cw = new C.World({ gravity: new C.Vec3(0, -9.81, 0) });
  cw.broadphase = new C.SAPBroadphase(cw);
  cw.defaultContactMaterial.friction = 0.5;
  cw.addBody(new C.Body({ mass: 0, shape: new C.Box(new C.Vec3(50, 0.5, 50)), position: new C.Vec3(0, -0.5, 0) }));
  const cb = start.map((p) => {
    const b = new C.Body({ mass: 1, shape: new C.Box(new C.Vec3(0.5, 0.5, 0.5)), position: new C.Vec3(...p) });
    cw.addBody(b);
    return b;
  });
  c = cpuMs();
  for (let s = 0; s < steps; s++) cw.step(1 / 60);
  row.cannon = (cpuMs() - c) / steps;
  row.cannonHeight = meanHeight(cb.map((b) => b.position.y));
  return row;
}

export async function runWorld({ quick = false, collisionOnly = false, pileOnly = false } = {}) {
  const result = { pending: {}, rows: [] };
  const ours = await loadOurs();
  const rapier = await loadRapier();
  const cannon = await loadCannon();
  if (ours.pending) result.pending.ours = ours.pending;
  if (rapier.pending) result.pending.rapier = rapier.pending;
  if (cannon.pending) result.pending.cannon = cannon.pending;
  if (ours.pending || rapier.pending || cannon.pending) return result;
  result.rapier = rapier.version;
  result.cannon = cannon.version;
  for (const n of pileOnly ? [] : [1000, 10000]) {
    const frames = n >= 10000 ? 20 : 60;
    result.rows.push(benchOne(n, frames, quick ? 3 : 7, ours, rapier, cannon));
  }
  if (!collisionOnly) result.pile = benchPile(ours, rapier, cannon, quick);
  return result;
}

export function worldMarkdown(r) {
  const md = ['## Worlds: against rapier and cannon-es', ''];
  for (const [k, v] of Object.entries(r.pending)) md.push(`- **${k} pending**: ${v}`);
  if (Object.keys(r.pending).length) md.push('');
  if (r.rows.length) {
    md.push('### The collision phase', '');
    md.push(`N moving boxes and spheres (half each, about one overlapping neighbour per body), the same poses for all; per frame ours copies the poses into \`world.poses()\` and calls \`world.pairSlots()\` (broad phase: sweep and prune, or \`{ broadphase: 'tree' }\`), rapier ${r.rapier} sets every kinematic body's next pose and runs \`world.step()\` with one sensor collider per body, cannon-es ${r.cannon} sets every body's pose and runs \`world.step()\` with collision response off (bench/world.mjs). Ratio = ours ÷ theirs (< 1: ours faster); medians of interleaved passes. Disagreements: pairs of the last frame that one engine reports and the other does not.`, '');
    md.push('| bodies | ms per frame: ours (SAP) / ours (tree) / rapier / cannon | ours ÷ rapier (SAP, tree) | ours ÷ cannon (SAP, tree) | pairs: ours / rapier / cannon | disagreements: rapier, cannon | box pairs tested (ours) |');
    md.push('|---:|---:|---:|---:|---:|---:|---:|');
    for (const x of r.rows) {
      const t = x.frameMs;
      md.push(`| ${x.bodies} | ${f(t.ours, 3)} / ${f(t.tree, 3)} / ${f(t.rapier, 3)} / ${f(t.cannon, 3)} | ${f(t.ours / t.rapier)}, ${f(t.tree / t.rapier)} | ${f(t.ours / t.cannon)}, ${f(t.tree / t.cannon)} | ${x.pairs} / ${x.rapierPairs} / ${x.cannonPairs ?? '—'} | ${x.disagreements}, ${x.cannonDisagreements ?? '—'} | ${x.candidates}${x.treeAgrees ? '' : ' (the tree\'s pairs differ!)'} |`);
    }
    md.push('');
    if (r.rows.some((x) => x.frameMs.cannon === undefined)) md.push(`cannon-es runs up to ${CANNON_MAX_BODIES} bodies: beyond, its collision matrix (an entry per pair of bodies that touched, in a sparse array) exhausts Node's heap within a few frames.`, '');
  }
  if (r.pile) {
    const p = r.pile;
    md.push('### The full step: a pile of 1 000 boxes', '');
    md.push(`${p.boxes} unit boxes dropped in a 10 × 10 × 10 grid onto a static floor, ${p.steps} steps at 60 Hz, each engine with its default solver (cannon-es: SAPBroadphase); friction 0.5 (bench/world.mjs). The boxes' mean height at the end shows that each pile stood (it starts at 6.9).`, '');
    const rs = p.rapierSettings;
    md.push('| setting | ours (defaults) | rapier (its IntegrationParameters) |', '|---|---|---|');
    md.push(`| dt | 1/60 s | 1/${Math.round(1 / rs.dt)} s |`);
    md.push(`| velocity rounds per step | 4 substeps × (3 impulse rounds + 1 relax round) = 16, contacts found once per step | ${rs.substeps} substeps (numSolverIterations) × ${rs.pgs} PGS iteration = ${rs.substeps * rs.pgs}, then its stabilization pass |`);
    md.push(`| contacts | soft from the first touch (spring–damper 60 Hz, damping ratio 10, pushing apart at most 1 m/s), speculative (rigid) within 0.02 m | soft (spring–damper), allowed error ${f(rs.allowedError, 3)} m, prediction ${f(rs.prediction, 3)} m |`);
    md.push('| friction, restitution | 0.5, 0 | 0.5, 0 |');
    md.push('| sleeping | an island slower than 0.1 m/s (‖v‖ + r·‖ω‖) for 0.5 s | its default thresholds for 2 s |');
    md.push('| continuous collision | on (shape casts for a body moving over half its radius in a substep; none does here) | off (per body, off by default) |');
    md.push('| manifolds | kept while a pair moved less than 1 mm since they were made | its own (persistent contact manifolds) |', '');
    md.push('| ms per step: ours / rapier / cannon | ours ÷ rapier | without sleeping: ours / rapier | ours ÷ rapier without sleeping | ours ÷ cannon | mean height at the end: ours / rapier / cannon | asleep at the end: ours / rapier |');
    md.push('|---:|---:|---:|---:|---:|---:|---:|');
    md.push(`| ${f(p.ours, 2)} / ${f(p.rapier, 2)} / ${f(p.cannon, 2)} | ${f(p.ours / p.rapier)} | ${f(p.oursAwake, 2)} / ${f(p.rapierAwake, 2)} | ${f(p.oursAwake / p.rapierAwake)} | ${f(p.ours / p.cannon)} | ${f(p.oursHeight)} / ${f(p.rapierHeight)} / ${f(p.cannonHeight)} | ${p.oursSleeping} / ${p.rapierSleeping} |`);
    md.push('', `With rapier's count of rounds (\`step({ substeps: 4, iterations: 1 })\`: 1 round and its relax round per substep, as rapier's 1 PGS iteration and 1 stabilization pass; sleeping on) ours takes ${f(p.oursRapierRounds, 2)} ms per step (÷ rapier ${f(p.oursRapierRounds / p.rapier)}), mean height ${f(p.oursRapierRoundsHeight)}, ${p.oursRapierRoundsSleeping} of ${p.boxes} asleep at the end. The defaults' 3 rounds per substep keep test_world's checks on this pile (every box in its column and layer at 3 s, all asleep; sleep off, none moving 5 cm in 3 s more) and a stack of ten within 1 cm for 10 s; with 2 that stack drifts 14 mm sideways.`);
    md.push('', 'Both put islands at rest to sleep by default (ours: slower than 0.1 m/s for 0.5 s; rapier: under its thresholds for 2 s), and then skip them; cannon-es\'s sleeping is off by default. Without sleeping, both do the whole work every step.');
    md.push('');
  }
  return md;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await runWorld({
    quick: process.argv.includes('--quick'),
    collisionOnly: process.argv.includes('--collision-only'),
    pileOnly: process.argv.includes('--pile-only'),
  });
  console.log(worldMarkdown(r).join('\n'));
}
