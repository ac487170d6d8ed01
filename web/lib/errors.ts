// collidoscope — the one error class of the API, and the JSON encoding of
// inputs for the C++ side.

/**
 * Every failure of the API: bad scenes and shapes, garbled links, calls
 * before init(). `code` is machine-readable ('invalid-scene', 'invalid-json',
 * 'unsupported-query', 'bad-link', 'not-initialized', 'load-failed';
 * the object API adds 'invalid-argument' for a bad argument and 'disposed'
 * for a shape used after dispose()),
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

// JSON has no NaN or Infinity (JSON.stringify writes null); send them as
// strings the C++ validator recognises, so the error says "got NaN".
// Typed arrays (Float32Array positions, say) become plain arrays.
function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  }
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return Array.from(value as unknown as ArrayLike<number>);
  }
  return value;
}

/** Scene or shape → JSON text for the wasm module (strings pass through unchanged). */
export function toSceneJson(value: unknown): string {
  if (typeof value === 'string') return value;
  let text: string | undefined;
  try {
    text = JSON.stringify(value, replacer);
  } catch (e) {
    // BigInt values and cycles.
    throw new CollidoscopeError('invalid-scene', null, `the value cannot be written as JSON: ${(e as Error).message}`);
  }
  if (text === undefined) throw new CollidoscopeError('invalid-scene', null, `expected an object, got ${typeof value}`);
  return text;
}
