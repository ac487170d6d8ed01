// Prepended (outside the module factory) to the Emscripten ES-module output.
// Emscripten 3.1.6's Node code path names require() and __dirname, which do
// not exist in an ES module. Both are defined here without top-level await
// and without importing node: modules, so bundlers (Vite 5 and 6 included,
// whose default target has no top-level await) take the file as it is. The
// glue only calls require() to read files from disk, which neither flavour
// does (the default one has the wasm inlined, the wasm-file one instantiates
// it itself): should it ever, Node's process.getBuiltinModule answers.
const __collidoscopeIsNode =
  typeof process === 'object' && process.versions != null && process.versions.node != null;
const require = __collidoscopeIsNode
  ? (id) => {
      const m = typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule(id) : undefined;
      if (m === undefined) throw new Error(`collidoscope: the WebAssembly glue needs require('${id}'), which needs Node >= 20.16`);
      return m;
    }
  : undefined;
const __dirname =
  __collidoscopeIsNode && import.meta.url.startsWith('file:')
    ? decodeURIComponent(new URL('.', import.meta.url).pathname).replace(/\/$/, '')
    : '';
