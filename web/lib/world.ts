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

/** A body of a World: a shape at a pose. Made by World.add(). */
export interface Body {
  /** The world's id of the body (changes with every add, even of a reused slot). */
  readonly id: number;
  /** Where the body's pose is in World.poses(): numbers 7·slot to 7·slot + 6. Reused after remove(). */
  readonly slot: number;
  /** The shape; dispose it only after removing the body. */
  readonly shape: ConvexShape;
}

const disposeSymbol: typeof Symbol.dispose =
  (Symbol as { dispose?: typeof Symbol.dispose }).dispose ?? (Symbol.for('Symbol.dispose') as typeof Symbol.dispose);

const finalizer: FinalizationRegistry<number> | null =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<number>((handle) => {
        loadedModule()?._cds_world_dispose(handle);
      })
    : null;

/** Heap scratch of the world calls: a pose (7 doubles), then the out-parameters (a pointer, a double). */
let scratch = 0;
function scratchOf(m: WasmModule): number {
  if (scratch === 0) scratch = m._malloc(8 * (POSE + 2));
  return scratch;
}

/** Options of new World(). */
export interface WorldOptions {
  /**
   * The broad phase: 'sweep-and-prune' (the default; the seed thesis's sorted interval lists) or 'tree' (a
   * dynamic AABB tree). Both find the same pairs; which is faster depends on the scene (bench/results.md,
   * "Worlds").
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

  /** Adds a body: `shape` at `pose` (default: the origin). Throws for a disposed shape or a bad pose. */
  add(shape: ConvexShape, pose?: PoseLike): Body {
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
    return body;
  }

  /** Removes a body. Throws for a body that is not in this world. */
  remove(body: Body): void {
    const w = this.#live();
    this.#body(body);
    const m = mod();
    if (m._cds_world_remove(w, body.id) === 0) throw lastError(m);
    this.#bodies[body.slot] = undefined;
    this.#count--;
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
  }

  /** `using world = new World();` disposes it at the end of the block. */
  [disposeSymbol](): void {
    this.dispose();
  }
}
