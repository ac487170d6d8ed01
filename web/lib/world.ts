/// <reference lib="esnext.disposable" preserve="true" />
// collidoscope — a collision world: many bodies, each a shape at a pose, and
// the pairs of them that overlap, found by a broad phase (boxes kept sorted
// from frame to frame) and the library's intersect() on the pairs whose boxes
// overlap (wasm/include/collidoscope/world.h).
//
//   import { init, World, sphere, box } from 'collidoscope';
//   await init();
//   using world = new World();
//   using ball = sphere(0.5);
//   using floor = box([10, 0.1, 10]);
//   world.add(floor, { position: [0, -0.1, 0] });
//   const b = world.add(ball, { position: [0, 0.45, 0] });
//   world.pairs();            // [[floor's body, b]]: the ball rests on the floor
//   world.setPose(b, { position: [0, 3, 0] });
//   world.pairs();            // []
//
// A game moving thousands of bodies writes their poses straight into wasm
// memory through poses() (7 numbers per body at 7·body.slot) and then calls
// pairs(), which checks and reads them all.
import type { WasmModule } from '#collidoscope-wasm';
import { CollidoscopeError } from './errors';
import { POSE, lastError, writePose } from './heap';
import { loadedModule, mod } from './module';
import type { ConvexShape, PoseLike } from './objects';
import type { Vec3 } from './types';

/** A body of a World: a shape at a pose. Made by World.add(). */
export interface Body {
  /** The world's id of the body (changes with every add, even of a reused slot). */
  readonly id: number;
  /** Where the body's pose is in World.poses(): numbers 7·slot to 7·slot + 6. Reused after remove(). */
  readonly slot: number;
  /** The shape; dispose it only after removing the body. */
  readonly shape: ConvexShape;
}

/** A vector argument as 3 numbers (default [0, 0, 0]); its non-finite numbers are named later by the caller. */
function vec(v: unknown, field: string): number[] {
  if (v === undefined) return [0, 0, 0];
  if (!Array.isArray(v) && !ArrayBuffer.isView(v)) throw new CollidoscopeError('invalid-argument', field, 'must be [x, y, z]');
  const a = v as ArrayLike<unknown>;
  if (a.length !== 3) throw new CollidoscopeError('invalid-argument', field, `must have 3 numbers, got ${a.length}`);
  const out: number[] = [];
  for (let i = 0; i < 3; i++) {
    const x = a[i];
    if (typeof x !== 'number') throw new CollidoscopeError('invalid-argument', `${field}[${i}]`, `must be a number, got ${typeof x}`);
    out.push(x);
  }
  return out;
}

const disposeSymbol: typeof Symbol.dispose =
  (Symbol as { dispose?: typeof Symbol.dispose }).dispose ?? (Symbol.for('Symbol.dispose') as typeof Symbol.dispose);

const finalizer: FinalizationRegistry<number> | null =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<number>((handle) => {
        loadedModule()?._cds_world_dispose(handle);
      })
    : null;

/** Heap scratch of the world calls: a pose, a ray or a step's settings (11 doubles), then out-parameters (12 doubles). */
const SCRATCH_IN = 11;
const HIT = 12;
let scratch = 0;
function scratchOf(m: WasmModule): number {
  if (scratch === 0) scratch = m._malloc(8 * (SCRATCH_IN + HIT));
  return scratch;
}

/** A world ray cast's hit: the body, t (in units of the direction), the point and the body's outward normal. */
export interface WorldRayHit {
  body: Body;
  t: number;
  point: Vec3;
  /** null when the ray starts inside the body (t = 0). */
  normal: Vec3 | null;
}

/** A world shape cast's first hit: the body, the time t in [0, 1] of the translation, the contact then. */
export interface WorldCastHit {
  body: Body;
  t: number;
  /** Unit, from the body to the cast shape. */
  normal: Vec3;
  /** On the body. */
  pointA: Vec3;
  /** On the cast shape (moved by t·translation). */
  pointB: Vec3;
  /** They overlap at t = 0. */
  initiallyOverlapping: boolean;
}

/** How a body moves (World.add's third argument, World.setMotion): given, it makes the body dynamic. */
export interface BodyMotion {
  /** kg; 0 makes the body static; default: the shape's volume at density 1 (rapier's default too). */
  mass?: number;
  /** m/s, of the centre of mass, world frame (default [0, 0, 0]). */
  velocity?: Vec3;
  /** rad/s, world frame (default [0, 0, 0]). */
  angularVelocity?: Vec3;
}

/** Options of World.step(); the defaults are the scene format's "simulate" and the solver's (solver.h). */
export interface StepOptions {
  /** Seconds (default 1/60). */
  dt?: number;
  /** m/s² (default [0, -9.81, 0]). */
  gravity?: Vec3;
  /**
   * Substeps per step on the step's contacts, 1–64 (default 4: with 3 rounds each and a relax round, what keeps a
   * stack of 10 boxes standing and brings a pile of 1 000 to rest).
   */
  substeps?: number;
  /** Impulse rounds per substep, 1–1000 (default 3), each substep then ending in one relax round (solver.h). */
  iterations?: number;
  /** Coulomb friction μ of every pair, ≥ 0 (default 0.5). */
  friction?: number;
  /** Restitution e of every pair, 0–1 (default 0). */
  restitution?: number;
  /** Shape casts stop fast bodies at the first time of impact (default true). */
  continuous?: boolean;
  /**
   * Islands of touching bodies that stay slower than 0.1 m/s (|v| + r·|ω|, r the bounding radius) for 0.5 s go to
   * sleep: velocities zeroed, left out of the step until an awake body's box reaches theirs, one of them is moved,
   * given a velocity or made static, or a static body they touch is moved; removing a body wakes the island it
   * belonged to or touched, adding one wakes what its box reaches (default true; false wakes every body and keeps
   * them awake).
   */
  sleep?: boolean;
  /**
   * Metres (default 0.001; 0: never). A pair's last manifold is used again, its points carried by their bodies,
   * while one body has moved relative to the other by at most this since the manifold was computed (the farthest
   * any point of it can have gone: the translation plus 2 sin(θ/2) times its bounding radius), as Bullet's and
   * Box2D's persistent manifolds do; a resting pile then skips most of its narrow phase. Mesh and compound pairs
   * are always computed anew.
   */
  manifoldReuse?: number;
}

/** What a step did: the solver's counts (the step's contacts, found once per step; ccdClamped over all its substeps). */
export interface StepStats {
  manifolds: number;
  points: number;
  warmStarted: number;
  ccdClamped: number;
  /** Dynamic bodies asleep after the step. */
  sleeping: number;
  /** Pairs whose last manifold was used again (StepOptions.manifoldReuse). */
  reusedManifolds: number;
}

/** A contact point of the last step, where it was as the step started: the normal from a to b. */
export interface WorldContact {
  a: Body;
  b: Body;
  pointA: Vec3;
  pointB: Vec3;
  normal: Vec3;
  /** Signed along the normal: negative when they overlap. */
  distance: number;
  /** Accumulated in the step's last substep, N·s. */
  normalImpulse: number;
  frictionImpulse: Vec3;
}

const CONTACT = 16;
const STEP_KEYS = ['dt', 'gravity', 'substeps', 'iterations', 'friction', 'restitution', 'continuous', 'sleep', 'manifoldReuse'] as const;

/** Options of new World(). */
export interface WorldOptions {
  /**
   * The broad phase: 'sweep-and-prune' (the default; the seed thesis's sweep of the boxes' sorted intervals) or
   * 'tree' (a dynamic AABB tree). Both find the same pairs; sweep and prune was the faster on bodies spread
   * through a volume (bench/results.md, "Worlds") and on a layer of them.
   */
  broadphase?: 'sweep-and-prune' | 'tree';
}

const BROADPHASES = ['sweep-and-prune', 'tree'] as const;

/**
 * A collision world in wasm memory. Add bodies (a shape and a pose), move them, and ask for the pairs that
 * overlap. Free it with dispose() (or `using`); a forgotten world is freed when garbage-collected. The
 * shapes are not owned: dispose them after the world (or after removing their bodies).
 */
export class World {
  #handle: number;
  #bodies: (Body | undefined)[] = [];
  #count = 0;
  #candidates = 0;

  constructor(options: WorldOptions = {}) {
    const m = mod();
    for (const k of Object.keys(options ?? {})) {
      if (k !== 'broadphase') throw new CollidoscopeError('invalid-argument', `options.${k}`, 'unknown option (expected broadphase)');
    }
    const kind = BROADPHASES.indexOf(options.broadphase ?? 'sweep-and-prune');
    if (kind < 0) {
      throw new CollidoscopeError('invalid-argument', 'options.broadphase', `must be 'sweep-and-prune' or 'tree', got ${String(options.broadphase)}`);
    }
    const handle = m._cds_world_create(kind);
    if (handle === 0) throw lastError(m);
    this.#handle = handle;
    finalizer?.register(this, handle, this);
  }

  #live(field = 'world'): number {
    if (this.#handle === 0) throw new CollidoscopeError('disposed', field, 'the world was disposed');
    return this.#handle;
  }

  #body(body: Body, field = 'body'): Body {
    if (this.#bodies[body?.slot] !== body) {
      throw new CollidoscopeError('invalid-argument', field, 'is not a body of this world (removed already, or added to another world)');
    }
    return body;
  }

  /** Live bodies. */
  get count(): number {
    return this.#count;
  }

  /** True after dispose(). */
  get disposed(): boolean {
    return this.#handle === 0;
  }

  /**
   * Adds a body: `shape` at `pose` (default: the origin), static unless `motion` is given (then dynamic, see
   * BodyMotion). Throws for a disposed shape, a bad pose or a bad motion (and then adds nothing).
   */
  add(shape: ConvexShape, pose?: PoseLike, motion?: BodyMotion): Body {
    const w = this.#live();
    const m = mod();
    const handle = shape.handle('shape');
    const at = scratchOf(m);
    writePose(m.HEAPF64, at >> 3, pose, 'pose');
    const id = m._cds_world_add(w, handle, at);
    if (id === 0) throw lastError(m);
    const body: Body = Object.freeze({ id, slot: m._cds_world_slot(w, id), shape });
    this.#bodies[body.slot] = body;
    this.#count++;
    if (motion !== undefined) {
      try {
        this.setMotion(body, motion);
      } catch (e) {
        this.remove(body);
        throw e;
      }
    }
    return body;
  }

  /**
   * Makes a body dynamic (or static with mass 0) and sets its velocities. Throws for a shape that can only be
   * static (planes, meshes, heightfields, compounds; shapes without volume), a negative mass or a non-finite
   * number, naming it; the body is then unchanged.
   */
  setMotion(body: Body, motion: BodyMotion): void {
    const w = this.#live();
    this.#body(body);
    if (motion === null || typeof motion !== 'object') {
      throw new CollidoscopeError('invalid-argument', 'motion', 'must be { mass?, velocity?, angularVelocity? }');
    }
    for (const k of Object.keys(motion)) {
      if (k !== 'mass' && k !== 'velocity' && k !== 'angularVelocity') {
        throw new CollidoscopeError('invalid-argument', `motion.${k}`, 'unknown field (expected mass, velocity or angularVelocity)');
      }
    }
    const v = [...vec(motion.velocity, 'motion.velocity'), ...vec(motion.angularVelocity, 'motion.angularVelocity')];
    for (let k = 0; k < 6; k++) {
      if (!Number.isFinite(v[k])) {
        throw new CollidoscopeError('invalid-argument', `motion.${k < 3 ? 'velocity' : 'angularVelocity'}[${k % 3}]`, 'must be a finite number');
      }
    }
    const mass = motion.mass ?? -1; // kMassOfVolume
    if (typeof mass !== 'number' || (motion.mass !== undefined && !(mass >= 0))) {
      throw new CollidoscopeError('invalid-argument', 'motion.mass', `must be a number ≥ 0 (0: static), got ${String(motion.mass)}`);
    }
    const m = mod();
    if (m._cds_world_set_mass(w, body.id, mass) === 0) {
      const e = lastError(m);
      throw new CollidoscopeError(e.code, e.field === 'mass' ? 'motion.mass' : e.field, e.detail);
    }
    this.velocities().set(v, 6 * body.slot);
  }

  /** A body's mass in kg (0: static). */
  mass(body: Body): number {
    const w = this.#live();
    this.#body(body);
    return mod()._cds_world_mass(w, body.id);
  }

  /**
   * The velocities in wasm memory: 6 numbers per slot, [vx, vy, vz, wx, wy, wz] (of the centre of mass; angular
   * in rad/s), world frame, a body's at 6·body.slot. Written by step(); writable as poses() is (checked by the next
   * step(): "velocities[slot][i]"). Valid until the next add().
   */
  velocities(): Float64Array {
    const w = this.#live();
    const m = mod();
    const ptr = m._cds_world_velocities(w);
    return m.HEAPF64.subarray(ptr >> 3, (ptr >> 3) + 6 * (this.poses().length / POSE));
  }

  /**
   * One step of the simulation: the broad phase, contact manifolds, sequential impulses with friction and
   * warm starting, shape casts for fast bodies; dynamic bodies' poses and velocities are read and written in
   * place. Throws for a bad option or a bad pose or velocity (naming it; nothing moves).
   */
  step(options: StepOptions = {}): StepStats {
    const w = this.#live();
    const m = mod();
    const at = scratchOf(m);
    const heap = m.HEAPF64;
    const o = options ?? {};
    for (const k of Object.keys(o)) {
      if (!(STEP_KEYS as readonly string[]).includes(k)) {
        throw new CollidoscopeError('invalid-argument', `options.${k}`, `unknown option (expected ${STEP_KEYS.join(', ')})`);
      }
    }
    const g = vec(o.gravity ?? [0, -9.81, 0], 'options.gravity');
    const numberOf = (x: unknown, d: number, name: string): number => {
      if (x === undefined) return d;
      if (typeof x !== 'number') throw new CollidoscopeError('invalid-argument', `options.${name}`, `must be a number, got ${typeof x}`);
      return x;
    };
    const values = [
      numberOf(o.dt, 1 / 60, 'dt'), g[0], g[1], g[2], numberOf(o.substeps, 4, 'substeps'), numberOf(o.iterations, 3, 'iterations'),
      numberOf(o.friction, 0.5, 'friction'), numberOf(o.restitution, 0, 'restitution'), o.continuous === false ? 0 : 1,
      o.sleep === false ? 0 : 1, numberOf(o.manifoldReuse, 0.001, 'manifoldReuse'),
    ];
    if (o.sleep !== undefined && typeof o.sleep !== 'boolean') {
      throw new CollidoscopeError('invalid-argument', 'options.sleep', `must be true or false, got ${typeof o.sleep}`);
    }
    for (const [i, name] of [[4, 'substeps'], [5, 'iterations']] as const) {
      const x = values[i];
      if (!Number.isInteger(x) || x < 1) throw new CollidoscopeError('invalid-argument', `options.${name}`, `must be a whole number ≥ 1, got ${x}`);
    }
    heap.set(values, at >> 3);
    const out = at + 8 * SCRATCH_IN;
    if (m._cds_world_step(w, at, out) === 0) {  // (out: 7 report numbers)
      const e = lastError(m);
      throw new CollidoscopeError(e.code, e.field?.startsWith('settings') ? `options${e.field.slice('settings'.length)}` : e.field, e.detail);
    }
    const h = m.HEAPF64;
    const r = out >> 3;
    this.#contactCount = h[r + 4];
    return {
      manifolds: h[r], points: h[r + 1], warmStarted: h[r + 2], ccdClamped: h[r + 3], sleeping: h[r + 5],
      reusedManifolds: h[r + 6],
    };
  }

  #contactCount = 0;  // the last step's, 0 once a body was removed (they may name it)

  /**
   * The bodies a ray meets, by the library's ray cast on each body whose box it crosses: the nearest hit (ties: the
   * smaller slot) or null, or with `{ all: true }` every hit sorted by t. The ray is origin + t·direction,
   * 0 ≤ t ≤ maxT (default 1, finite).
   */
  raycast(ray: { origin: Vec3; direction: Vec3; maxT?: number }, options?: { all?: false }): WorldRayHit | null;
  raycast(ray: { origin: Vec3; direction: Vec3; maxT?: number }, options: { all: true }): WorldRayHit[];
  raycast(ray: { origin: Vec3; direction: Vec3; maxT?: number }, options: { all?: boolean } = {}): WorldRayHit | null | WorldRayHit[] {
    const w = this.#live();
    const m = mod();
    const at = scratchOf(m);
    if (ray === null || typeof ray !== 'object') throw new CollidoscopeError('invalid-argument', 'ray', 'must be { origin, direction, maxT? }');
    const maxT = ray.maxT ?? 1;
    if (typeof maxT !== 'number') throw new CollidoscopeError('invalid-argument', 'ray.maxT', `must be a number, got ${typeof maxT}`);
    m.HEAPF64.set([...vec(ray.origin, 'ray.origin'), ...vec(ray.direction, 'ray.direction'), maxT], at >> 3);
    const out = at + 8 * SCRATCH_IN;
    const n = m._cds_world_raycast(w, at, options?.all ? 1 : 0, out);
    if (n < 0) throw lastError(m);
    const ptr = m.HEAPU32[out >> 2] >> 3;
    const h = m.HEAPF64;
    const hits: WorldRayHit[] = [];
    for (let i = 0; i < n; i++) {
      const k = ptr + HIT * i;
      const inside = h[k + 8] !== 0;
      hits.push({ body: this.#bodies[h[k]]!, t: h[k + 1], point: [h[k + 2], h[k + 3], h[k + 4]], normal: inside ? null : [h[k + 5], h[k + 6], h[k + 7]] });
    }
    return options?.all ? hits : hits[0] ?? null;
  }

  /** The bodies whose shapes intersect `shape` at `pose` (touching counts), by slot. */
  overlap(shape: ConvexShape, pose?: PoseLike): Body[] {
    const w = this.#live();
    const m = mod();
    const handle = shape.handle('shape');
    const at = scratchOf(m);
    writePose(m.HEAPF64, at >> 3, pose, 'pose');
    const out = at + 8 * SCRATCH_IN;
    const n = m._cds_world_overlap(w, handle, at, out);
    if (n < 0) throw lastError(m);
    const ptr = m.HEAPU32[out >> 2] >> 2;
    return Array.from(m.HEAP32.subarray(ptr, ptr + n), (slot) => this.#bodies[slot]!);
  }

  /**
   * `shape` at `pose` moved by `translation`: the first body it hits on the way (t in [0, 1]; ties: the smaller
   * slot), or null. A mesh cannot be cast through a world holding meshes (the library casts no mesh against a mesh).
   */
  shapecast(shape: ConvexShape, pose: PoseLike | undefined, translation: Vec3): WorldCastHit | null {
    const w = this.#live();
    const m = mod();
    const handle = shape.handle('shape');
    const at = scratchOf(m);
    writePose(m.HEAPF64, at >> 3, pose, 'pose');
    m.HEAPF64.set(vec(translation, 'translation'), (at >> 3) + POSE);
    const out = at + 8 * SCRATCH_IN;
    if (m._cds_world_shapecast(w, handle, at, out) === 0) throw lastError(m);
    const h = m.HEAPF64;
    const k = out >> 3;
    if (h[k] < 0) return null;
    return {
      body: this.#bodies[h[k]]!, t: h[k + 1], normal: [h[k + 5], h[k + 6], h[k + 7]], pointA: [h[k + 2], h[k + 3], h[k + 4]],
      pointB: [h[k + 9], h[k + 10], h[k + 11]], initiallyOverlapping: h[k + 8] !== 0,
    };
  }

  /** The contact points of the last step (bodies as given to add()). */
  contacts(): WorldContact[] {
    const w = this.#live();
    const out: WorldContact[] = [];
    if (this.#contactCount === 0) return out;
    const m = mod();
    const at = m._cds_world_contacts(w);  // copied on demand: a step does not pay for them
    const h = m.HEAPF64;
    for (let i = 0; i < this.#contactCount; i++) {
      const k = (at >> 3) + CONTACT * i;
      const v = (j: number): Vec3 => [h[k + j], h[k + j + 1], h[k + j + 2]];
      out.push({
        a: this.#bodies[h[k]]!, b: this.#bodies[h[k + 1]]!, pointA: v(2), pointB: v(5), normal: v(8),
        distance: h[k + 11], normalImpulse: h[k + 12], frictionImpulse: v(13),
      });
    }
    return out;
  }

  /** Removes a body. Throws for a body that is not in this world. */
  remove(body: Body): void {
    const w = this.#live();
    this.#body(body);
    const m = mod();
    if (m._cds_world_remove(w, body.id) === 0) throw lastError(m);
    this.#bodies[body.slot] = undefined;
    this.#count--;
    this.#contactCount = 0; // the last step's contacts may name the removed body
  }

  /** Moves a body. Throws for a bad pose (the body stays where it was). */
  setPose(body: Body, pose: PoseLike): void {
    const w = this.#live();
    this.#body(body);
    const m = mod();
    const at = scratchOf(m);
    writePose(m.HEAPF64, at >> 3, pose, 'pose');
    if (m._cds_world_set_pose(w, body.id, at) === 0) throw lastError(m);
  }

  /** A body's pose, [x, y, z, qx, qy, qz, qw] as it was given (a copy). */
  pose(body: Body): Float64Array {
    this.#body(body);
    return this.poses().slice(POSE * body.slot, POSE * body.slot + POSE);
  }

  /**
   * The poses in wasm memory: 7 numbers per slot, a body's at 7·body.slot. Write poses here and call pairs():
   * it checks them all (an error names "poses[slot]" and changes nothing). The view is only valid until the
   * next add() or any call that may grow wasm memory: take it again each frame.
   */
  poses(): Float64Array {
    const w = this.#live();
    const m = mod();
    const out = scratchOf(m) + 8 * POSE;
    const ptr = m._cds_world_poses(w, out);
    const slots = m.HEAP32[out >> 2];
    return m.HEAPF64.subarray(ptr >> 3, (ptr >> 3) + POSE * slots);
  }

  /** The body in a slot, or undefined for a free slot. */
  bodyAt(slot: number): Body | undefined {
    return this.#bodies[slot];
  }

  /**
   * The pairs of bodies whose shapes intersect (as intersect() answers at their poses; touching counts),
   * ordered by slot. Reads the poses first (see poses()).
   */
  pairs(): [Body, Body][] {
    const slots = this.pairSlots();
    const out: [Body, Body][] = new Array<[Body, Body]>(slots.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = [this.#bodies[slots[2 * i]]!, this.#bodies[slots[2 * i + 1]]!];
    return out;
  }

  /**
   * pairs() as slots, 2 per pair (i < j, sorted): a view of wasm memory, valid until the next world call. For
   * games that keep their own arrays by slot.
   */
  pairSlots(): Uint32Array {
    const w = this.#live();
    const m = mod();
    const out = scratchOf(m) + 8 * POSE;
    const n = m._cds_world_pairs(w, out, out + 8);
    if (n < 0) throw lastError(m);
    this.#candidates = m.HEAPF64[(out + 8) >> 3];
    const ptr = m.HEAPU32[out >> 2];
    return m.HEAPU32.subarray(ptr >> 2, (ptr >> 2) + 2 * n);
  }

  /** The number of pairs whose boxes overlapped in the last pairs(): the intersect() queries it ran. */
  get candidates(): number {
    return this.#candidates;
  }

  /** Frees the world's wasm memory (not its shapes). Idempotent. */
  dispose(): void {
    if (this.#handle === 0) return;
    loadedModule()?._cds_world_dispose(this.#handle);
    finalizer?.unregister(this);
    this.#handle = 0;
    this.#bodies = [];
    this.#count = 0;
    this.#contactCount = 0;
  }

  /** `using world = new World();` disposes it at the end of the block. */
  [disposeSymbol](): void {
    this.dispose();
  }
}
