// Prepended (outside the module factory) to the Emscripten ES-module output.
// Emscripten 3.1.6's Node code path calls require() and reads __dirname,
// which do not exist in an ES module; define both from import.meta.url when
// running under Node. In browsers and bundlers the dynamic imports below are
// never evaluated.
const __collidoscopeIsNode =
  typeof process === 'object' && process.versions != null && process.versions.node != null;
const require = __collidoscopeIsNode
  ? (await import('node:module')).createRequire(import.meta.url)
  : undefined;
const __dirname = __collidoscopeIsNode
  ? (await import('node:path')).dirname((await import('node:url')).fileURLToPath(import.meta.url))
  : '';
