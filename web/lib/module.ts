// collidoscope — loading the WebAssembly module, and the JSON replies of its
// string entry points. Everything else reaches the module through mod().
import createCollidoscopeModule from '#collidoscope-wasm';
import type { WasmModule } from '#collidoscope-wasm';
import { CollidoscopeError } from './errors';

/** Options of init(). */
export interface InitOptions {
  /**
   * Where the separate-.wasm flavour finds its binary (a URL, the bytes, or a fetch Response). Default: the
   * .wasm file next to the module. The default flavour has the binary inlined and ignores this.
   */
  wasm?: string | URL | ArrayBuffer | Uint8Array | Response | PromiseLike<Response>;
}

let wasm: WasmModule | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads the WebAssembly module; call and await it once before anything else. Idempotent: later calls return
 * the same promise (their options are ignored). A failed load rejects with CollidoscopeError 'load-failed' and
 * may be retried.
 */
export function init(options: InitOptions = {}): Promise<void> {
  if (loading === null) {
    const opts: { wasm?: InitOptions['wasm'] } = {};
    if (options.wasm !== undefined) opts.wasm = options.wasm;
    loading = Promise.resolve()
      .then(() => createCollidoscopeModule(opts))
      .then(
        (m) => {
          wasm = m;
        },
        (e: unknown) => {
          loading = null;
          throw new CollidoscopeError('load-failed', null, `could not load the WebAssembly module: ${String(e)}`);
        },
      );
  }
  return loading;
}

/** @internal The loaded module; throws 'not-initialized' before init() has finished. */
export function mod(): WasmModule {
  if (wasm === null) throw new CollidoscopeError('not-initialized', null, 'call and await init() before using collidoscope');
  return wasm;
}

/** @internal The module if loaded, else null (finalizers must not throw). */
export function loadedModule(): WasmModule | null {
  return wasm;
}

interface Reply<T> {
  ok: boolean;
  value?: T;
  error?: { code: string; field: string | null; message: string };
}

/** @internal The value of a {"ok": true, "value"} reply; throws CollidoscopeError for {"ok": false, "error"}. */
export function unwrap<T>(replyText: string): T {
  const reply = JSON.parse(replyText) as Reply<T>;
  if (!reply.ok) {
    const e = reply.error ?? { code: 'internal', field: null, message: 'unknown error' };
    throw new CollidoscopeError(e.code, e.field, e.message);
  }
  return reply.value as T;
}
