// The loader of the 'collidoscope/wasm-file' flavour: the Emscripten glue built without -sSINGLE_FILE
// (web/dist/lib/wasm-file/collidoscope_wasm.mjs) plus collidoscope_wasm.wasm beside it, compiled while it
// downloads (WebAssembly.instantiateStreaming). scripts/build.mjs bundles web/lib/index.ts a second time into
// web/dist/lib/wasm-file/index.mjs with '#collidoscope-wasm' resolved to this file, so the default export has the
// glue factory's signature and index.ts's init() uses it unchanged (its rejection becomes 'load-failed').
//
// Where the binary comes from, first match wins:
//   options.wasm        a URL or string (fetched; in Node a file: URL or a path is read from disk), the bytes
//                       (ArrayBuffer / Uint8Array), or a Response / promise of one (e.g. fetch(...));
//   options.wasmBinary  the bytes (the glue's own option name);
//   otherwise           new URL('./collidoscope_wasm.wasm', import.meta.url), written literally so that Vite,
//                       webpack, Parcel and esbuild-based tools see it and emit the .wasm as an asset.
import createGlue from '#collidoscope-wasm-file-glue';
import type { WasmModule } from '#collidoscope-wasm-file-glue';

/** Everything `options.wasm` may be. */
export type WasmSource = string | URL | ArrayBuffer | Uint8Array | Response | PromiseLike<Response>;

export interface WasmFileOptions {
  wasm?: WasmSource;
  wasmBinary?: ArrayBuffer | Uint8Array;
}

/** The part of Emscripten's Module object this loader sets. */
interface GlueOptions {
  instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): object;
}

const PREFIX = 'collidoscope/wasm-file';

function isNode(): boolean {
  return typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';
}

/** `specifier` through import() in a way bundlers leave alone (it only runs in Node). */
function nodeImport<T>(specifier: string): Promise<T> {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ specifier) as Promise<T>;
}

function isResponse(x: unknown): x is Response {
  if (typeof Response === 'function' && x instanceof Response) return true;
  // A Response from another realm or fetch implementation.
  const r = x as Partial<Response> | null;
  return typeof r === 'object' && r !== null && typeof r.arrayBuffer === 'function' && typeof r.ok === 'boolean'
    && typeof r.headers === 'object' && r.headers !== null && typeof r.headers.get === 'function';
}

function isThenable(x: unknown): x is PromiseLike<unknown> {
  return (typeof x === 'object' || typeof x === 'function') && x !== null && typeof (x as PromiseLike<unknown>).then === 'function';
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Compiles and instantiates a fetched binary: streaming when the server says application/wasm (the only type
 *  instantiateStreaming accepts), otherwise from the whole body. */
async function fromResponse(res: Response, what: string, imports: WebAssembly.Imports): Promise<WebAssembly.WebAssemblyInstantiatedSource> {
  const where = res.url || what;
  if (!res.ok) throw new Error(`${PREFIX}: could not fetch ${where}: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
  const type = res.headers.get('content-type') ?? '';
  if (typeof WebAssembly.instantiateStreaming === 'function' && /^\s*application\/wasm\s*(;|$)/i.test(type)) {
    return WebAssembly.instantiateStreaming(res, imports);
  }
  return WebAssembly.instantiate(await res.arrayBuffer(), imports);
}

/** file: URLs are read with node:fs (Node's fetch cannot read them). */
async function fromFile(url: URL, imports: WebAssembly.Imports): Promise<WebAssembly.WebAssemblyInstantiatedSource> {
  const fs = await nodeImport<typeof import('node:fs/promises')>('node:fs/promises');
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(url);
  } catch (e) {
    throw new Error(`${PREFIX}: could not read ${url.href}: ${message(e)}`);
  }
  return WebAssembly.instantiate(bytes as BufferSource, imports);
}

async function fromLocation(location: string | URL, imports: WebAssembly.Imports): Promise<WebAssembly.WebAssemblyInstantiatedSource> {
  let url: URL | null = null;
  if (location instanceof URL) url = location;
  // A scheme of two or more letters ('C:\…' is a Windows path, not a URL).
  else if (/^[a-z][a-z0-9+.-]+:/i.test(location)) url = new URL(location);
  if (isNode()) {
    if (url === null) {
      // A path in Node, relative to the working directory.
      const { pathToFileURL } = await nodeImport<typeof import('node:url')>('node:url');
      url = pathToFileURL(location as string);
    }
    if (url.protocol === 'file:') return fromFile(url, imports);
  }
  const target = url ? url.href : (location as string);
  let res: Response;
  try {
    res = await fetch(target);
  } catch (e) {
    throw new Error(`${PREFIX}: could not fetch ${target}: ${message(e)}`);
  }
  return fromResponse(res, target, imports);
}

async function instantiate(source: WasmSource, imports: WebAssembly.Imports): Promise<WebAssembly.WebAssemblyInstantiatedSource> {
  const s: unknown = isThenable(source) ? await source : source;
  if (s instanceof ArrayBuffer || ArrayBuffer.isView(s)) return WebAssembly.instantiate(s as BufferSource, imports);
  if (typeof s === 'string' || s instanceof URL) return fromLocation(s, imports);
  if (isResponse(s)) return fromResponse(s, 'the given Response', imports);
  throw new TypeError(`${PREFIX}: options.wasm must be a URL, a string, an ArrayBuffer, a Uint8Array or a Response (got ${s === null ? 'null' : typeof s})`);
}

/** Same signature as the glue's default export: resolves to the module once the .wasm is instantiated. */
export default function createCollidoscopeModule(options: WasmFileOptions = {}): Promise<WasmModule> {
  const { wasm, wasmBinary, ...rest } = options;
  const source: WasmSource = wasm ?? wasmBinary ?? new URL('./collidoscope_wasm.wasm', import.meta.url);
  return new Promise<WasmModule>((resolve, reject) => {
    const glueOptions: GlueOptions = {
      ...rest,
      // Emscripten calls this instead of fetching the file itself; returning {} says "asynchronous: I will
      // call receive()". A failure here would leave the glue's promise pending, so it rejects ours directly.
      instantiateWasm(imports, receive) {
        instantiate(source, imports)
          .then((r) => receive(r.instance, r.module))
          .catch(reject);
        return {};
      },
    };
    (createGlue as unknown as (o: GlueOptions) => Promise<WasmModule>)(glueOptions).then(resolve, reject);
  });
}
