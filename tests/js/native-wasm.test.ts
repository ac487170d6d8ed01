// The same scene gives the same bits natively and in wasm (DESIGN.md's conventions: a link must replay the same
// steps in any build). Every gallery scene, and variants of each with other poses, is answered by the wasm module
// (runScene, the call behind run() and trace()) and by the native build (build/native/collidoscope_run_scenes,
// tests/tools/run_scenes.cpp, g++); the answers and the traces must be equal number for number (Object.is: the
// sign of a zero counts), and a refused scene must be refused with the same field and message.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, sceneOf, type Scene, type Vec3 } from '../../web/lib/index';
import { mod } from '../../web/lib/module';
import { everyConvexShape, randomPose, seeded } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');
const RUNNER = path.join(ROOT, 'build', 'native', 'collidoscope_run_scenes');
const SCENES = path.join(ROOT, 'shared', 'scenes');

beforeAll(async () => {
  await init();
});

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The first place where a and b differ (numbers by Object.is), or null. */
function firstDifference(a: Json, b: Json, at = ''): string | null {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) ? null : `${at}: ${a} ≠ ${b}`;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${at}: length ${a.length} ≠ ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${at}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.join() !== kb.join()) return `${at}: keys ${ka.join()} ≠ ${kb.join()}`;
    for (const k of ka) {
      const d = firstDifference(a[k], b[k], `${at}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return a === b ? null : `${at}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`;
}

/** The wasm module's answer in the runner's form: the value's JSON, or "error <field>: <message>". */
function wasmAnswer(scene: string, trace: boolean): Json | string {
  const reply = JSON.parse(mod().runScene(scene, trace)) as { ok: boolean; value?: Json; error?: { field: string | null; message: string } };
  return reply.ok ? (reply.value as Json) : `error ${reply.error?.field ?? ''}: ${reply.error?.message}`;
}

/** The native build's answers: two lines per scene (run, then trace). */
function nativeAnswers(scenes: string[]): (Json | string)[] {
  const out = execFileSync(RUNNER, { input: scenes.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 30 });
  return out.split('\n').slice(0, 2 * scenes.length).map((l) => (l.startsWith('error ') ? l : (JSON.parse(l) as Json)));
}

/** A copy of a scene with every 3D shape's (or body's) position moved and its rotation replaced. */
function moved(scene: Record<string, unknown>, rand: () => number): Record<string, unknown> {
  const copy = structuredClone(scene);
  const place = (s: Record<string, unknown>) => {
    if (Array.isArray(s.position) && s.position.length === 3)
      s.position = (s.position as number[]).map((x) => x + 0.6 * (2 * rand() - 1));
    if (Array.isArray(s.rotation) && s.rotation.length === 4) {
      const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
      const n = Math.hypot(...q);
      s.rotation = q.map((x) => x / n);
    }
  };
  for (const key of ['shapes', 'bodies']) {
    const list = copy[key];
    if (Array.isArray(list)) for (const s of list) if (s && typeof s === 'object') place(s as Record<string, unknown>);
  }
  return copy;
}

describe('native and wasm builds', () => {
  it('give the same bits on every gallery scene and on moved copies of each, answers and traces', () => {
    expect(existsSync(RUNNER), `${RUNNER} is built by \`node scripts/build.mjs --native-only\``).toBe(true);
    const files = readdirSync(SCENES).filter((f) => f.endsWith('.json')).sort();
    expect(files.length).toBeGreaterThan(40);
    const rand = seeded(20261127);
    const scenes: string[] = [];
    for (const f of files) {
      const scene = JSON.parse(readFileSync(path.join(SCENES, f), 'utf8')) as Record<string, unknown>;
      scenes.push(JSON.stringify(scene));
      for (let k = 0; k < 3; k++) scenes.push(JSON.stringify(moved(scene, rand)));
    }
    const native = nativeAnswers(scenes);
    expect(native).toHaveLength(2 * scenes.length);
    const differences: string[] = [];
    let answered = 0;
    scenes.forEach((scene, i) => {
      for (const trace of [false, true]) {
        const w = wasmAnswer(scene, trace);
        const n = native[2 * i + (trace ? 1 : 0)];
        if (typeof w !== 'string') answered++;
        const d = firstDifference(w as Json, n as Json);
        if (d) differences.push(`${files[Math.floor(i / 4)]} #${i % 4} ${trace ? 'trace' : 'run'}${d}`);
      }
    });
    expect(differences.slice(0, 40)).toEqual([]);
    // Most scenes are answered, not refused (a moved 2D scene or a moved mesh may be refused the same way).
    expect(answered).toBeGreaterThan(1.5 * scenes.length);
  });

  it('give the same bits on every query between every pair of shape types at random poses', () => {
    const rand = seeded(20261128);
    const scenes: string[] = [];
    const label: string[] = [];
    const add = (s: Scene, what: string) => {
      scenes.push(JSON.stringify(s));
      label.push(`${s.query} ${what}`);
    };
    const shapes = everyConvexShape(rand);
    for (const a of shapes) {
      for (const b of shapes) {
        const pa = randomPose(rand, 1), pb = randomPose(rand, 1.5), pair = `${a.type}–${b.type}`;
        for (const q of ['intersect', 'distance', 'penetration', 'chungwang'] as const) add(sceneOf(q, a, pa, b, pb), pair);
        add(sceneOf('shapecast', a, pa, b, pb, { translationB: [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1] }), pair);
        add(sceneOf('contacts', a, pa, b, pb, { margin: 0.05 }), pair);
      }
      const ray = { origin: [3, 2 * rand() - 1, 2 * rand() - 1] as Vec3, direction: [-1, 0.3 * rand(), 0.3 * rand()] as Vec3 };
      add(sceneOf('raycast', a, randomPose(rand, 1), ray), a.type);
      add(sceneOf('project', a, randomPose(rand, 1), [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1]), a.type);
      // A shape against itself at one pose: round cores fill EPA's polytope and refine its normal.
      const p = randomPose(rand, 1);
      add(sceneOf('penetration', a, p, a, p), `${a.type} on itself`);
    }
    const native = nativeAnswers(scenes);
    const differences: string[] = [];
    scenes.forEach((scene, i) => {
      for (const trace of [false, true]) {
        const d = firstDifference(wasmAnswer(scene, trace) as Json, native[2 * i + (trace ? 1 : 0)] as Json);
        if (d) differences.push(`${label[i]} ${trace ? 'trace' : 'run'}${d}`);
      }
    });
    expect(scenes.length).toBeGreaterThan(800);
    expect(differences.slice(0, 40)).toEqual([]);
  }, 180_000);

  it('give the same bits on worlds of round and flat bodies falling onto a plane until they sleep, and awake', () => {
    const rand = seeded(20261129);
    const scenes: string[] = [];
    for (const sleep of [true, false]) {
      const kinds = [
        { type: 'cylinder', radius: 0.3, halfHeight: 0.4 }, { type: 'cone', radius: 0.35, halfHeight: 0.4 },
        { type: 'box', halfExtents: [0.3, 0.2, 0.4] }, { type: 'ellipsoid', radii: [0.3, 0.4, 0.25] },
        { type: 'capsule', radius: 0.2, halfHeight: 0.3 }, { type: 'sphere', radius: 0.3 },
      ];
      const shapes: Record<string, unknown>[] = [{ type: 'plane', normal: [0, 1, 0], offset: 0 }];
      for (let i = 0; i < 12; i++) {
        const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
        const n = Math.hypot(...q);
        shapes.push({ ...kinds[i % kinds.length], position: [2 * rand() - 1, 0.5 + 0.8 * i, 2 * rand() - 1], rotation: q.map((x) => x / n) });
      }
      scenes.push(JSON.stringify({
        version: 1, query: 'simulate', shapes, bodies: shapes.slice(1).map((_, i) => ({ shape: i + 1 })),
        gravity: [0, -9.81, 0], dt: 1 / 60, steps: 400, sleep,
      }));
    }
    const native = nativeAnswers(scenes);
    scenes.forEach((scene, i) => {
      const run = wasmAnswer(scene, false) as { bodies: { velocity: number[] }[] } & Json;
      expect(typeof run, String(run)).toBe('object');
      // With sleeping on, bodies at rest end asleep (a sleeping body's velocity is exactly zero).
      const asleep = run.bodies.filter((b) => b.velocity.every((v) => v === 0)).length;
      if (i === 0) expect(asleep).toBeGreaterThan(0);
      expect(firstDifference(run, native[2 * i] as Json)).toBeNull();
      expect(firstDifference(wasmAnswer(scene, true) as Json, native[2 * i + 1] as Json)).toBeNull();
    });
  });
});
