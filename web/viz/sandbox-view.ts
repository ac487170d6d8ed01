// The "simulate" query on the page: the sandbox. Its frames are the library's trace() of the scene (every shape's
// pose and the step's contact points, impulses included); the page draws them and never steps a body itself. Here:
// the view's drawing and values, the pair of shapes at a frame as a two-shape scene (the jump to the GJK/EPA
// stepper), and the bodies the user drops into the scene.
import * as THREE from 'three';
import { fmt, fmtVec, round } from '../lib/draw/format';
import { SIMULATE } from '../lib/draw/frames';
import { run, trace as runTrace } from '../lib/index';
import type { Scene, Shape, SimulateFrame, SimulateTrace, Trace } from '../lib/index';
import type { QueryView, Row } from './query-view';

/** A simulate trace as the page steps through it: the library's, with the lines its frames highlight. */
export interface SandboxTrace extends SimulateTrace {
  pseudocode: string[];
  /** Seconds per step (the scene's dt, default 1/60). */
  dt: number;
  /** The scene's moving bodies: when a frame has as many asleep, its step moved nothing. */
  bodies: number;
}

// One step as the solver takes it (solver.h: each of its substeps of h = dt / substeps runs every line).
const WORLD_CODE = [
  'start: every shape at its pose; the bodies have their velocities',
  'each step: broad phase: the pairs whose boxes, grown by the step\'s motion, overlap',
  '  contacts of each pair: up to 4 points, normal from A to B, signed distance (> 0: speculative)',
  '  velocities: v ← v + g·h for every body',
  '  impulses: warm start, then friction and normal impulses at every point (soft where they overlap), a few rounds',
  '  fast bodies: a shape cast stops them at the earliest time of impact',
  '  positions: x ← x + v·h, q ← normalize(q + ½ (ω, 0) q h)',
  '  relax: one more round without the push apart, so that it does not go on as motion',
  '  sleeping: an island of bodies all slower than 0.1 m/s for 0.5 s sleeps; steps skip it until something wakes it',
];

/** Default seconds per step, as the library's (README: scene format, "dt"). */
const DEFAULT_DT = 1 / 60;

/** The scene's trace, with its pseudocode and its dt. */
export function sandboxTrace(scene: Scene): SandboxTrace {
  const t = runTrace(scene as Scene & { query: 'simulate' });
  return { ...t, pseudocode: WORLD_CODE, dt: scene.dt ?? DEFAULT_DT, bodies: scene.bodies?.length ?? 0 };
}

/** The pairs of shapes that have contact points in `frame`, each once (a < b as the trace has them), with how many. */
export function contactPairs(frame: SimulateFrame): { a: number; b: number; points: number }[] {
  const out = new Map<string, { a: number; b: number; points: number }>();
  for (const c of frame.contacts) {
    const key = `${c.a},${c.b}`;
    const p = out.get(key) ?? { a: c.a, b: c.b, points: 0 };
    p.points++;
    out.set(key, p);
  }
  return [...out.values()];
}

/**
 * Shapes a and b of `scene` at `frame`'s poses, as a two-shape scene: "penetration" when they overlap, else
 * "distance" (the GJK/EPA stepper, closed forms off); "contacts" for a mesh or heightfield, which those queries do
 * not take, with a margin that shows a near contact. The poses are the frame's numbers as they are (the scene format normalizes
 * quaternions inside every query, and the trace's are unit already).
 */
export function pairScene(scene: Scene, frame: SimulateFrame, a: number, b: number): Scene {
  const placed = (i: number): Shape => {
    const p = frame.poses[i];
    return { ...scene.shapes[i], position: [p[0], p[1], p[2]], rotation: [p[3], p[4], p[5], p[6]] };
  };
  const shapes = [placed(a), placed(b)];
  const level = shapes.some((s) => s.type === 'mesh' || s.type === 'heightfield');
  if (level) {
    const near = frame.contacts.filter((c) => c.a === a && c.b === b).reduce((m, c) => Math.max(m, c.distance), 0);
    return { version: 1, query: 'contacts', shapes, margin: near > 0 ? Number((1.25 * near).toPrecision(2)) : 0 };
  }
  // closedForms false: boxes, spheres and capsules have closed forms, which answer in one step; the jump is to the
  // steps of GJK and EPA, where a contact that went wrong shows why.
  const overlap = (run({ version: 1, query: 'penetration', shapes, closedForms: false }) as { intersecting: boolean }).intersecting;
  return { version: 1, query: overlap ? 'penetration' : 'distance', shapes, closedForms: false };
}

/** The shapes a user drops into the sandbox. */
export type DropKind = 'box' | 'sphere' | 'capsule';

const DROPPED: Record<DropKind, Shape> = {
  box: { type: 'box', halfExtents: [0.4, 0.3, 0.35] },
  sphere: { type: 'sphere', radius: 0.4 },
  capsule: { type: 'capsule', radius: 0.25, halfHeight: 0.4 },
};

/** Height above the scene's highest point at the start where a dropped body starts. */
const DROP_HEIGHT = 1.5;

/**
 * `scene` with one more body: a `kind` shape above the highest shape at the start (`top`, the highest y drawn at
 * frame 0), tilted a little and set off sideways by the number of bodies so that drops do not land on one spot;
 * mass: the default (its volume).
 */
export function withDropped(scene: Scene, kind: DropKind, top: number): Scene {
  const n = scene.bodies?.length ?? 0;
  const angle = 2.399963 * n; // the golden angle: successive drops spread around the centre
  const r = 0.3 * Math.sqrt(n);
  const shape: Shape = {
    ...DROPPED[kind],
    position: [round(r * Math.cos(angle), 4), round(top + DROP_HEIGHT, 4), round(r * Math.sin(angle), 4)],
    rotation: [0.0998, 0, 0.0499, 0.99376],
  };
  return { ...scene, shapes: [...scene.shapes, shape], bodies: [...(scene.bodies ?? []), { shape: scene.shapes.length }] };
}

/** `scene` without its last shape, when that shape is a body (null otherwise): undoes withDropped. */
export function withoutLastBody(scene: Scene): Scene | null {
  const last = scene.shapes.length - 1;
  const bodies = scene.bodies ?? [];
  if (last < 0 || !bodies.some((b) => b.shape === last)) return null;
  return { ...scene, shapes: scene.shapes.slice(0, last), bodies: bodies.filter((b) => b.shape !== last) };
}

/** Which shapes of `scene` move (the library's drawing layer decides, for collidoscope/three too). */
export { movingShapes } from '../lib/draw/simulate';

/** The sandbox the query list opens from another query: a floor, a box, a sphere and a capsule falling on it. */
export function defaultSandbox(): Scene {
  return {
    version: 1, query: 'simulate', steps: 150, dt: DEFAULT_DT,
    shapes: [
      { type: 'box', halfExtents: [3, 0.25, 3], position: [0, -0.25, 0] },
      { type: 'box', halfExtents: [0.5, 0.5, 0.5], position: [0, 1.5, 0], rotation: [0.1305, 0, 0, 0.99145] },
      { type: 'sphere', radius: 0.4, position: [0.3, 3, 0.2] },
      { type: 'capsule', radius: 0.25, halfHeight: 0.5, position: [-0.6, 2.2, -0.4], rotation: [0, 0, 0.7071068, 0.7071068] },
    ],
    bodies: [{ shape: 1 }, { shape: 2 }, { shape: 3 }],
  };
}

// ---- drawing ---------------------------------------------------------------------------------------------------

/** The values table: the step, the time, the contacts and the pairs in contact, then each contact point. */
function sandboxRows(frame: SimulateFrame, t: SandboxTrace): Row[] {
  const pairs = contactPairs(frame);
  const rows: Row[] = [
    ['step', `${frame.step} of ${t.result.steps}`],
    ['time', `${fmt(frame.step * t.dt, 6)} s`],
    ['contact points', `${frame.contacts.length}${frame.contactsTruncated ? ' (more not listed)' : ''}`, 'ok'],
    ['found at', foundAt(frame, t)],
    ['pairs in contact', pairs.length ? pairs.map((p) => `${p.a}–${p.b}`).join(', ') : 'none'],
  ];
  // Sleeping pairs' points are listed after the solved ones, as their island fell asleep.
  if (frame.sleeping > 0) {
    const kept = frame.contacts.length - Math.min(frame.solvedPoints, frame.contacts.length);
    rows.push(['sleeping bodies', `${frame.sleeping}; ${kept} of the points not solved this step (#${frame.contacts.length - kept + 1}–#${frame.contacts.length})`]);
  }
  frame.contacts.slice(0, 24).forEach((c, i) => {
    rows.push([`#${i + 1} shapes ${c.a}–${c.b}: distance`, fmt(c.distance, 9)],
      ['  normal impulse', `${fmt(c.normalImpulse, 6)} N·s`], ['  normal (A to B)', fmtVec(c.normal, 4)]);
  });
  if (frame.contacts.length > 24) rows.push(['…', `${frame.contacts.length - 24} more contact points`]);
  return rows;
}

/**
 * Where a frame's contacts were found: at the poses its step started from, the previous step's, which the bodies
 * drawn have left (they are the poses after the step). The frame before shows them when the trace keeps every step.
 */
function foundAt(frame: SimulateFrame, t: SimulateTrace): string {
  if (frame.step === 0) return 'the start (no step yet)';
  const before = frame.step - 1;
  return t.every === 1 ? `the poses of step ${before} (the frame before); the bodies are drawn after step ${frame.step}`
    : `the poses of step ${before} (not kept: this trace keeps one step in ${t.every}); the bodies are drawn after step ${frame.step}`;
}

/** The line a frame highlights: the start, or the positions' line (the bodies moved). */
/** The pseudocode line of a frame: the start, the positions' line of a step that moved bodies, or sleeping when all slept. */
export function sandboxLine(frame: SimulateFrame, t: SandboxTrace): number {
  if (frame.step === 0) return 1;
  // (The relax round's line comes after the positions'.)
  return t.bodies > 0 && frame.sleeping >= t.bodies ? WORLD_CODE.length : WORLD_CODE.length - 2;
}

/** Room around a moving shape's centre when framing the run (its size, roughly: the drawn shapes add their own). */
const FRAME_MARGIN = 0.5;

/** Frames the views on the whole run, not only the frame shown: where every shape's centre goes (every 10th frame). */
function frameWorld(_scene: Scene, a: THREE.Sphere, b: THREE.Sphere, trace: Trace | null): void {
  const t = trace as unknown as SandboxTrace | null;
  if (!t || t.query !== 'simulate') return;
  const frames = t.frames.filter((_, i) => i % 10 === 0 || i === t.frames.length - 1);
  for (const f of frames) {
    for (const p of f.poses) {
      const s = new THREE.Sphere(new THREE.Vector3(p[0], p[1], p[2]), FRAME_MARGIN);
      a.union(s);
      b.union(s);
    }
  }
}

/**
 * The counter at frame `index`: the simulation's step it shows, of the scene's steps ("step 630 of 5000"), not the
 * frame's number (a long run's trace keeps every `every`-th step).
 */
export function sandboxCounter(t: SimulateTrace, index: number): string {
  return `step ${t.frames[index]?.step ?? 0} of ${t.result.steps}`;
}

/** Milliseconds between frames for playing in real time: the scene's dt times the frames' stride. */
export function playInterval(t: SandboxTrace): number {
  return 1000 * t.dt * t.every;
}

export const SANDBOX_VIEW: QueryView = {
  algorithm: 'Rigid bodies: broad phase, contacts, impulses',
  mode: 'world', family: 'world', traced: 'simulate' as Trace['query'],
  drawer: SIMULATE as unknown as QueryView['drawer'],
  minkowski: () => 'single',
  // A step finds its contacts once, at the poses it starts from (the soft step), then moves the bodies: the points
  // are drawn where the step found them, the bodies where it left them.
  titles: () => ['Bodies after this step · its contacts, found at its start', 'Contacts: arrow length = normal impulse'],
  rows: sandboxRows as unknown as QueryView['rows'],
  line: (f, t) => sandboxLine(f as unknown as SimulateFrame, t as unknown as SandboxTrace),
  answer: (scene) => sandboxTrace(scene) as unknown as Trace,
  sentence: (t) => (t.frames[t.frames.length - 1] as unknown as SimulateFrame & { caption: string }).caption,
  // From a pair query: the default sandbox (a pair is not a world: it has no floor and no bodies).
  fromPair: () => ({ scene: defaultSandbox() }),
  frame: frameWorld,
  poses: (tr, i) => (tr as unknown as SandboxTrace).frames[i]?.poses ?? null,
  playInterval: (tr) => playInterval(tr as unknown as SandboxTrace),
  counter: (tr, i) => sandboxCounter(tr as unknown as SandboxTrace, i),
};
