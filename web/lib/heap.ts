// collidoscope — moving the caller's numbers into the wasm heap, and the
// errors of the C exports: what the object API (objects.ts) and worlds
// (world.ts) share. Internal: not re-exported by index.ts.
import type { WasmModule } from '#collidoscope-wasm';
import { CollidoscopeError } from './errors';
import { mod, unwrap } from './module';
import type { Quat, Vec3 } from './types';

/** Numbers per pose: [x, y, z, qx, qy, qz, qw]. */
export const POSE = 7;

/** {x, y, z}: a three.js Vector3, say. */
export interface XYZ {
  x: number;
  y: number;
  z: number;
}
/** {x, y, z, w}: a three.js Quaternion, say. */
export interface XYZW extends XYZ {
  w: number;
}

/**
 * Where a shape is: a position and a rotation (unit quaternion [qx, qy, qz, qw], normalized if it is not).
 * Either may be left out (origin, no rotation). Accepted forms:
 * - `{ position: [x, y, z], rotation: [qx, qy, qz, qw] }` (as in the scene format);
 * - `{ position: {x, y, z}, quaternion: {x, y, z, w} }`: a three.js Object3D (its local transform;
 *   collidoscope/three's poseOf() reads the world transform);
 * - 7 numbers [x, y, z, qx, qy, qz, qw] (an array, Float64Array or Float32Array).
 */
export type PoseLike =
  | { position?: Vec3 | XYZ; rotation?: Quat | XYZW }
  // A three.js Object3D: its quaternion wins over its Euler `rotation`.
  | { position?: Vec3 | XYZ; quaternion: XYZW; rotation?: unknown }
  | readonly number[]
  | Float64Array
  | Float32Array;

/** Reply of the last failed _cds_* call, as a CollidoscopeError. */
export function lastError(m: WasmModule): CollidoscopeError {
  try {
    unwrap<unknown>(m.lastError());
  } catch (e) {
    if (e instanceof CollidoscopeError) return e;
    throw e;
  }
  return new CollidoscopeError('internal', null, 'the query failed without an error');
}

/**
 * Checks that wasm memory can still give `bytes` (what building a shape of this size needs at its peak), and
 * throws 'out-of-memory' naming `field` when it cannot. The module's memory grows up to 2 GB; a C++ allocation
 * that fails inside a build aborts the module (no exceptions in the wasm build), while a malloc here fails
 * cleanly: the block is taken and given back, so the build then finds room where the check did. (The C++
 * builders check the same way once their input is in wasm memory: heap_room.h.)
 */
export function ensureHeap(m: WasmModule, bytes: number, field: string | null, what: string): void {
  const p = m._malloc(bytes);
  if (p === 0) {
    throw new CollidoscopeError('out-of-memory', field, `${what} needs about ${Math.ceil(bytes / 1e6)} MB of wasm memory `
      + `at its peak, more than is left of the 2 GB the module can grow to (${Math.round(m.HEAPU8.buffer.byteLength / 1e6)} MB `
      + 'in use by the memory now): dispose shapes, meshes, worlds and batches that are no longer needed');
  }
  m._free(p);
}

// The C++ JSON reader's tree (json.h) in wasm32: a JsonValue, an object member (its key's std::string and its
// value), a malloc block's header, the longest string libc++ keeps inline, a node of the key set of an object of
// kLinearKeys (16) members or more.
const JSON_VALUE_BYTES = 56;
const JSON_MEMBER_BYTES = 68;
const BLOCK_BYTES = 8;
const INLINE_STRING = 10;
const LINEAR_KEYS = 16;
const KEY_NODE_BYTES = 24;
// Most values the reader takes (kJsonMaxValues in json.h): it stops reading at the next.
const MAX_JSON_VALUES = 8_100_000;

/**
 * The most wasm memory the C++ reader can need while it reads `text`: two copies of its UTF-8 bytes (the one embind
 * makes, the reader's std::string), every array's and object's vector at the capacity its emplace_backs grow it to
 * (the next power of two) and the blocks it outgrew on the way, strings too long to keep inline, and large objects'
 * key sets. Read as the reader would, up to the value it stops at (the UTF-8 bytes counted over the whole text); brackets and commas inside strings
 * are skipped, and an unclosed container counts as closed where the text ends.
 */
export function jsonReaderBytes(text: string): number {
  // Every UTF-16 unit's UTF-8 bytes, the reader stopping or not (the whole text is copied into wasm memory); a
  // surrogate pair's units count 3 bytes each: over its 4, never under.
  let utf8 = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    utf8 += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  let tree = 0;
  let values = 0;
  let rootDue = true;
  // Per open container: its elements so far, an element's bytes (JSON_MEMBER_BYTES in an object), whether an
  // element is due.
  const open: [number, number, boolean][] = [];
  // A container ends: its vector at the capacity emplace_back grows it to (the next power of two), the blocks it
  // outgrew (capacities 1, 2, …, capacity / 2: none of them can hold its next, so in the worst case none is used
  // again), and a large object's key set.
  const close = () => {
    const [n, element] = open.pop()!;
    if (n > 0) {
      const capacity = 2 ** Math.ceil(Math.log2(n));
      tree += (2 * capacity - 1) * element + BLOCK_BYTES + (element === JSON_MEMBER_BYTES && n >= LINEAR_KEYS ? n * KEY_NODE_BYTES : 0);
    }
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Blanks, and a member's colon (its value is part of its member).
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 58) continue;
    const top = open[open.length - 1];
    if (c === 44) { // ,
      if (top) top[2] = true;
      continue;
    }
    if (c === 93 || c === 125) { // ] }
      if (top) close();
      continue;
    }
    // An element (or the root) begins: one more value. The reader stops past the last it takes.
    if (top ? top[2] : rootDue) {
      if (top) {
        top[2] = false;
        top[0]++;
      } else rootDue = false;
      if (++values > MAX_JSON_VALUES) break;
    }
    if (c === 91 || c === 123) open.push([0, c === 123 ? JSON_MEMBER_BYTES : JSON_VALUE_BYTES, true]); // [ {
    else if (c === 34) { // a string: to its closing quote
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 ? 2 : 1;
      const length = 3 * (j - i - 1);
      if (length > INLINE_STRING) tree += length + 1 + BLOCK_BYTES;
      i = j;
    }
  }
  while (open.length > 0) close();
  return 2 * utf8 + tree;
}

/**
 * `text`, once wasm memory is known to hold it and its reading (jsonReaderBytes) on its way to a C++ entry point.
 * Throws 'out-of-memory' naming `field` when it cannot; the C++ builders then check the shapes the text describes
 * (heap_room.h).
 */
export function jsonRoom(text: string, field: string | null): string {
  ensureHeap(mod(), jsonReaderBytes(text) + 4096, field, `reading ${text.length} characters of JSON`);
  return text;
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'number') return String(v);
  return typeof v;
}

/**
 * An exception thrown while reading the caller's values (a getter, a Proxy trap, a revoked Proxy) as the
 * CollidoscopeError naming the field, with the original as its `cause`.
 */
export function unreadable(e: unknown, field: string): CollidoscopeError {
  if (e instanceof CollidoscopeError) return e;
  const err = new CollidoscopeError('invalid-argument', field, `cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  Object.defineProperty(err, 'cause', { value: e, configurable: true, writable: true });
  return err;
}

export function num(v: unknown, field: string): number {
  if (typeof v !== 'number') throw notNumber(v, field);
  return v;
}

export function notNumber(v: unknown, field: string): CollidoscopeError {
  return new CollidoscopeError('invalid-argument', field, `must be a number, got ${describe(v)}`);
}

// The field names below are put together only on the error paths: a game writes
// poses every frame, and a name per number would cost more than the query.

/** Writes n numbers of an array or of an {x, y, z(, w)} object; `field`.`sub` names it in an error. */
export function writeVec(heap: Float64Array, at: number, v: unknown, n: 3 | 4, field: string, sub: string): void {
  try {
    writeVecUnguarded(heap, at, v, n, field, sub);
  } catch (e) {
    throw unreadable(e, `${field}.${sub}`);
  }
}

export const AXES = ['x', 'y', 'z', 'w'] as const;

function writeVecUnguarded(heap: Float64Array, at: number, v: unknown, n: 3 | 4, field: string, sub: string): void {
  if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    const a = v as ArrayLike<unknown>;
    if (a.length !== n) throw new CollidoscopeError('invalid-argument', `${field}.${sub}`, `must have ${n} numbers, got ${a.length}`);
    for (let i = 0; i < n; i++) {
      const x = a[i];
      if (typeof x !== 'number') throw notNumber(x, `${field}.${sub}[${i}]`);
      heap[at + i] = x;
    }
    return;
  }
  if (v !== null && typeof v === 'object') {
    const o = v as Partial<XYZW>;
    for (let i = 0; i < n; i++) {
      const x = o[AXES[i]];
      if (typeof x !== 'number') throw notNumber(x, `${field}.${sub}.${AXES[i]}`);
      heap[at + i] = x;
    }
    return;
  }
  throw new CollidoscopeError('invalid-argument', `${field}.${sub}`, `must be ${n === 3 ? '[x, y, z] or {x, y, z}' : '[qx, qy, qz, qw] or {x, y, z, w}'}, got ${describe(v)}`);
}

/** Writes a pose as 7 doubles at heap[at]. Non-finite numbers are left for the C++ checks to name. */
export function writePose(heap: Float64Array, at: number, pose: PoseLike | undefined, field: string): void {
  try {
    if ((pose instanceof Float64Array || pose instanceof Float32Array) && pose.length === POSE) {
      // The hot path of a game loop: no per-number checks needed, and seven stores cost less than set().
      heap[at] = pose[0];
      heap[at + 1] = pose[1];
      heap[at + 2] = pose[2];
      heap[at + 3] = pose[3];
      heap[at + 4] = pose[4];
      heap[at + 5] = pose[5];
      heap[at + 6] = pose[6];
      return;
    }
    heap[at] = heap[at + 1] = heap[at + 2] = heap[at + 3] = heap[at + 4] = heap[at + 5] = 0;
    heap[at + 6] = 1;
    if (pose !== undefined) writePoseObject(heap, at, pose, field);
  } catch (e) {
    throw unreadable(e, field); // a revoked Proxy fails even instanceof
  }
}

function writePoseObject(heap: Float64Array, at: number, pose: PoseLike, field: string): void {
  if (Array.isArray(pose) || ArrayBuffer.isView(pose)) {
    const a = pose as ArrayLike<unknown>;
    if (a.length !== POSE) {
      throw new CollidoscopeError('invalid-argument', field, `must have 7 numbers [x, y, z, qx, qy, qz, qw], got ${a.length}`);
    }
    for (let i = 0; i < POSE; i++) {
      const x = a[i];
      if (typeof x !== 'number') throw notNumber(x, `${field}[${i}]`);
      heap[at + i] = x;
    }
    return;
  }
  if (pose === null || typeof pose !== 'object') {
    throw new CollidoscopeError('invalid-argument', field, `must be a pose ({ position, rotation } or 7 numbers), got ${describe(pose)}`);
  }
  const p = pose as { position?: unknown; rotation?: unknown; quaternion?: unknown };
  // A plain object must not carry other fields: a typo ({ pos: … }) would silently leave the shape at the
  // origin. Class instances (a three.js Object3D, say) have many more and keep them.
  const proto = Object.getPrototypeOf(pose);
  if (proto === Object.prototype || proto === null) {
    // for-in rather than Object.keys(): V8 walks a plain object's cached keys without making an array.
    for (const k in pose) {
      if (k !== 'position' && k !== 'rotation' && k !== 'quaternion' && Object.prototype.hasOwnProperty.call(pose, k)) {
        throw new CollidoscopeError('invalid-argument', `${field}.${k}`, 'unknown pose field (expected position, rotation or quaternion)');
      }
    }
  }
  if (p.position !== undefined) writeVec(heap, at, p.position, 3, field, 'position');
  // A three.js Object3D has both: its `rotation` is an Euler, its `quaternion` the rotation we want.
  if (p.quaternion !== undefined) writeVec(heap, at + 3, p.quaternion, 4, field, 'quaternion');
  else if (p.rotation !== undefined) writeVec(heap, at + 3, p.rotation, 4, field, 'rotation');
}

