#!/usr/bin/env node
// Worlds: collidoscope's World against rapier3d-compat's world, in Node, on
// the same moving bodies: the collision phase of a frame (broad phase plus
// the narrow phase's overlap test on every pair whose boxes overlap).
//
//   node bench/world.mjs [--quick]        prints the markdown section
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

function benchOne(n, frames, passes, ours, rapier) {
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
  for (let fr = 0; fr < frames; fr++) rapierFrame(fr);
  const to = [], tr = [];
  let pairs = 0;
  for (let p = 0; p < passes; p++) {
    let c = cpuMs();
    for (let fr = 0; fr < frames; fr++) pairs = oursFrame(fr);
    to.push((cpuMs() - c) / frames);
    c = cpuMs();
    for (let fr = 0; fr < frames; fr++) rapierFrame(fr);
    tr.push((cpuMs() - c) / frames);
  }
  row.frameMs = { ours: median(to), rapier: median(tr) };
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

  world.dispose();
  for (const s of shapes) s.dispose();
  rw.free();
  return row;
}

export async function runWorld({ quick = false } = {}) {
  const result = { pending: {}, rows: [] };
  const ours = await loadOurs();
  const rapier = await loadRapier();
  if (ours.pending) result.pending.ours = ours.pending;
  if (rapier.pending) result.pending.rapier = rapier.pending;
  if (ours.pending || rapier.pending) return result;
  result.rapier = rapier.version;
  for (const n of [1000, 10000]) {
    const frames = n >= 10000 ? 20 : 60;
    result.rows.push(benchOne(n, frames, quick ? 3 : 7, ours, rapier));
  }
  return result;
}

export function worldMarkdown(r) {
  const md = ['## Worlds: the collision phase against rapier', ''];
  md.push('N moving boxes and spheres (half each, about one overlapping neighbour per body), the same poses for both; per frame ours copies the poses into `world.poses()` and calls `world.pairSlots()`, rapier sets every kinematic body\'s next translation and rotation and runs `world.step()` with one sensor collider per body (its broad phase and intersection tests; nothing to solve) (bench/world.mjs). Ratio = ours ÷ rapier\'s (< 1: ours faster); medians of interleaved passes. The full step of a solver is not measured yet: the World has no solver yet.', '');
  for (const [k, v] of Object.entries(r.pending)) md.push(`- **${k} pending**: ${v}`);
  if (Object.keys(r.pending).length) md.push('');
  if (r.rows.length) {
    md.push(`| bodies | frames | ms per frame: ours / rapier ${r.rapier ?? ''} | ratio | pairs: ours / rapier | disagreements | box pairs tested (ours) |`);
    md.push('|---:|---:|---:|---:|---:|---:|---:|');
    for (const x of r.rows)
      md.push(`| ${x.bodies} | ${x.frames} | ${f(x.frameMs.ours, 3)} / ${f(x.frameMs.rapier, 3)} | ${f(x.frameMs.ours / x.frameMs.rapier)} | ${x.pairs} / ${x.rapierPairs} | ${x.disagreements} | ${x.candidates} |`);
    md.push('');
  }
  return md;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await runWorld({ quick: process.argv.includes('--quick') });
  console.log(worldMarkdown(r).join('\n'));
}
