// collidoscope — the one error class of the API, and the JSON encoding of
// inputs for the C++ side.

/**
 * Every failure of the API: bad scenes and shapes, garbled links, calls
 * before init(). `code` is machine-readable ('invalid-scene', 'invalid-json',
 * 'unsupported-query', 'bad-link', 'not-initialized', 'load-failed';
 * the object API adds 'invalid-argument' for a bad argument and 'disposed'
 * for a shape used after dispose(); any of them may throw 'out-of-memory'
 * for input whose reading or building needs more than is left of the 2 GB
 * of wasm memory: JSON text, a mesh, heightfield, compound or polytope, a
 * batch, a world or its next bodies — nothing is made then),
 * `field` names the offending field when there is one (e.g.
 * "shapes[1].radius"), and `message` reads "field: what is wrong".
 */
export class CollidoscopeError extends Error {
  readonly code: string;
  readonly field: string | null;
  /** The message without the field prefix. */
  readonly detail: string;

  constructor(code: string, field: string | null, detail: string) {
    super(field ? `${field}: ${detail}` : detail);
    this.name = 'CollidoscopeError';
    this.code = code;
    this.field = field;
    this.detail = detail;
  }
}

/**
 * @internal Text from the input for a message: at most 64 characters (then "…"), with control characters
 * and bidi overrides written as \uXXXX, so it can neither blow up the message nor drive a terminal or turn
 * a banner around. As clipForMessage() on the C++ side.
 */
export function printable(text: string, max = 64): string {
  const head = Array.from(text.slice(0, 2 * max + 1)); // max characters take at most 2·max UTF-16 units
  const clipped = head.length > max || text.length > 2 * max + 1 ? head.slice(0, max).join('') + '…' : text;
  return clipped.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// JSON has no NaN or Infinity (JSON.stringify writes null); send them as
// strings the C++ validator recognises, so the error says "got NaN".
// Typed arrays (Float32Array positions, say) become plain arrays.
// BigInts, functions and symbols have no JSON form (JSON.stringify throws on
// the first and silently drops the others, which would turn a bad field into
// a missing one): they stop the fast path, and locateBadValue() names them.
const NOT_JSON = Symbol('not JSON');
function replacer(_key: string, value: unknown): unknown {
  const t = typeof value;
  if (t === 'number' && !Number.isFinite(value)) {
    return Number.isNaN(value) ? 'NaN' : (value as number) > 0 ? 'Infinity' : '-Infinity';
  }
  if (t === 'bigint' || t === 'function' || t === 'symbol') throw NOT_JSON;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return Array.from(value as unknown as ArrayLike<number>);
  }
  return value;
}

// Deepest nesting the C++ reader accepts (kJsonMaxDepth in json.h); the walk
// below stops there, so a hostile 100 000-deep object cannot overflow the stack.
const MAX_DEPTH = 64;
// Longest start and end of a field path kept in a message (see locateBadValue).
const MAX_PATH = 120;
// Largest JSON text the C++ reader accepts (kJsonMaxBytes in json.h, 96 MiB).
// A longer string has at least as many UTF-8 bytes as UTF-16 units, so it is
// refused here without being copied into wasm memory.
const MAX_JSON_BYTES = 96 * 1024 * 1024;

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'bigint') return 'a BigInt';
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'symbol') return 'a symbol';
  return typeof v;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The first value of `root` that has no JSON form, visiting values in JSON.stringify's order (toJSON applied,
 * getters read once): its path (e.g. "shapes[0].radius", after `prefix`) and what is wrong. null if none is
 * found (a value that misbehaves only sometimes).
 */
function locateBadValue(root: unknown, prefix: string): { field: string; detail: string } | null {
  const ancestors: object[] = [];
  // Keys come from the input: each is clipped as printable() does, and a path deeper than a few keys
  // keeps its start and its end, so a hostile object cannot make the message long.
  const join = (path: string, key: string, index: boolean) => {
    const name = index ? key : printable(key);
    return index ? `${path}[${name}]` : path ? `${path}.${name}` : name;
  };
  const clipPath = (bad: { field: string; detail: string } | null) =>
    bad && bad.field.length > 2 * MAX_PATH + 1
      ? { ...bad, field: `${bad.field.slice(0, MAX_PATH)}…${bad.field.slice(-MAX_PATH)}` }
      : bad;
  const visit = (value: unknown, path: string, key: string): { field: string; detail: string } | null => {
    let v = value;
    let toJSON: unknown;
    try {
      toJSON = v !== null && (typeof v === 'object' || typeof v === 'bigint') ? (v as { toJSON?: unknown }).toJSON : undefined;
    } catch (e) {
      return { field: path, detail: `cannot be read: ${messageOf(e)}` };
    }
    if (typeof toJSON === 'function') {
      try {
        v = (toJSON as (k: string) => unknown).call(v, key);
      } catch (e) {
        return { field: path, detail: `its toJSON() failed: ${messageOf(e)}` };
      }
    }
    const t = typeof v;
    if (t === 'bigint' || t === 'function' || t === 'symbol') {
      return { field: path, detail: `must be a number, string, array or object, got ${kindOf(v)}` };
    }
    if (v === null || t !== 'object' || ArrayBuffer.isView(v)) return null;
    if (v instanceof Number || v instanceof String || v instanceof Boolean) return null;
    const obj = v as object;
    if (ancestors.includes(obj)) return { field: path, detail: 'refers back to an object that contains it (a cycle)' };
    if (ancestors.length >= MAX_DEPTH) return { field: path, detail: `is nested too deeply (more than ${MAX_DEPTH} levels)` };
    ancestors.push(obj);
    try {
      let isArray: boolean;
      let keys: string[];
      try {
        isArray = Array.isArray(obj);
        keys = isArray ? Array.from({ length: (obj as unknown[]).length }, (_, i) => String(i)) : Object.keys(obj);
      } catch (e) {
        return { field: path, detail: `cannot be read: ${messageOf(e)}` };
      }
      for (const k of keys) {
        const childPath = join(path, k, isArray);
        let child: unknown;
        try {
          child = (obj as Record<string, unknown>)[k];
        } catch (e) {
          return { field: childPath, detail: `cannot be read: ${messageOf(e)}` };
        }
        const bad = visit(child, childPath, k);
        if (bad) return bad;
      }
      return null;
    } finally {
      ancestors.pop();
    }
  };
  return clipPath(visit(root, prefix, ''));
}

/**
 * Scene or shape → JSON text for the wasm module (strings pass through unchanged). A value with no JSON form
 * throws CollidoscopeError `code` naming the field, its path prefixed with `prefix` (e.g. "shape").
 */
export function toSceneJson(value: unknown, code = 'invalid-scene', prefix = ''): string {
  if (typeof value === 'string') {
    if (value.length > MAX_JSON_BYTES) {
      throw new CollidoscopeError('invalid-json', prefix || null,
        `the JSON text is too large (${value.length} characters; the limit is 96 MiB)`);
    }
    return value;
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value, replacer);
  } catch (e) {
    // BigInts, functions, symbols, cycles, nesting deeper than the stack, getters or proxies that throw.
    const t = typeof value;
    if (value === null || t !== 'object') throw new CollidoscopeError(code, prefix || null, `expected an object, got ${kindOf(value)}`);
    const bad = locateBadValue(value, prefix);
    if (bad) throw new CollidoscopeError(code, bad.field || null, bad.detail);
    throw new CollidoscopeError(code, prefix || null, `the value cannot be written as JSON: ${e === NOT_JSON ? 'it holds a value with no JSON form' : messageOf(e)}`);
  }
  if (text === undefined) throw new CollidoscopeError(code, prefix || null, `expected an object, got ${kindOf(value)}`);
  if (text.length > MAX_JSON_BYTES) {
    throw new CollidoscopeError(code, prefix || null, `is too large: ${text.length} characters of JSON (the limit is 96 MiB)`);
  }
  return text;
}
