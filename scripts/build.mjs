#!/usr/bin/env node
// Build everything: native (build/native), wasm (build/wasm -> web/dist/lib/{,meshes/}collidoscope_wasm.mjs and
// web/dist/lib/wasm-file/collidoscope_wasm.{mjs,wasm}), JS bundles (web/dist/lib/**/*.mjs, web/dist/viz/*).
// The package has three flavours of the same API:
//   'collidoscope'            web/dist/lib/index.mjs + collidoscope_wasm.mjs (wasm embedded as base64; no
//                             triangle meshes, to stay a small download)
//   'collidoscope/meshes'     web/dist/lib/meshes/index.mjs + collidoscope_wasm.mjs (embedded, with meshes)
//   'collidoscope/wasm-file'  web/dist/lib/wasm-file/index.mjs + collidoscope_wasm.mjs + collidoscope_wasm.wasm
//                             (with meshes)
// and 'collidoscope/three' (+ 'collidoscope/{meshes,wasm-file}/three'), the three.js helpers, on top of each.
//   node scripts/build.mjs [--native-only | --wasm-only | --js-only]
// Any failing step aborts with a non-zero exit code and its error; nothing is skipped silently.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { checkLessons, galleryOrder } from './lessons.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (...p) => path.join(ROOT, ...p);
const JOBS = process.env.BUILD_JOBS ?? '2';

export class BuildError extends Error {}

function log(msg) {
  console.log(`build: ${msg}`);
}

function run(cmd, args, { env } = {}) {
  console.log(`$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.error) throw new BuildError(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new BuildError(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
}

function configured(buildDir) {
  return existsSync(path.join(buildDir, 'CMakeCache.txt')) && existsSync(path.join(buildDir, 'Makefile'));
}

export function buildNative() {
  const dir = rel('build', 'native');
  const t = Date.now();
  log('native (g++) -> build/native');
  if (!configured(dir)) run('cmake', ['-S', ROOT, '-B', dir, '-DCMAKE_BUILD_TYPE=Release']);
  run('cmake', ['--build', dir, '--parallel', JOBS]);
  log(`native done in ${((Date.now() - t) / 1000).toFixed(1)}s`);
}

// em++ runs node tools (acorn from Debian's node-acorn) that need this at -O1 and above.
const EM_ENV = {
  NODE_PATH: [process.env.NODE_PATH, '/usr/share/nodejs'].filter(Boolean).join(path.delimiter),
};

export async function buildWasm() {
  const dir = rel('build', 'wasm');
  const t = Date.now();
  log('wasm (em++) -> web/dist/lib/{,meshes/}collidoscope_wasm.mjs, web/dist/lib/wasm-file/collidoscope_wasm.{mjs,wasm}');
  if (!configured(dir)) run('emcmake', ['cmake', '-S', ROOT, '-B', dir, '-DCMAKE_BUILD_TYPE=Release'], { env: EM_ENV });
  run('cmake', ['--build', dir, '--parallel', JOBS], { env: EM_ENV });
  for (const out of [['collidoscope_wasm.mjs'], ['meshes', 'collidoscope_wasm.mjs'], ['wasm-file', 'collidoscope_wasm.mjs'], ['wasm-file', 'collidoscope_wasm.wasm']]) {
    if (!existsSync(rel('web', 'dist', 'lib', ...out))) {
      throw new BuildError(`wasm build finished but web/dist/lib/${out.join('/')} is missing`);
    }
  }
  for (const glue of [['collidoscope_wasm.mjs'], ['meshes', 'collidoscope_wasm.mjs']]) {
    await packInlinedWasm(rel('web', 'dist', 'lib', ...glue));
  }
  log(`wasm done in ${((Date.now() - t) / 1000).toFixed(1)}s`);
}

// The wasm inside a -sSINGLE_FILE glue is a base64 data URI. Base64 hides the byte patterns gzip finds
// (3 bytes become 4 characters), so the download of the flavours with the wasm inlined is packed here
// instead: the wasm gzipped, then base64 (the gzipped bytes have no patterns left to hide), unpacked by
// the engine's DecompressionStream when the module is created, and handed to the glue as `wasmBinary`
// (the glue then never reads its data URI, which is left empty). The glue is minified too. A file
// already packed (no data URI payload left) is left alone, so the step can run again.
const DATA_URI = /(["'])data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)\1/;
const PACKED_DATA_URI = /(["'])data:application\/octet-stream;base64,\1/;
const GLUE_EXPORT = 'export default createCollidoscopeModule;';
export async function packInlinedWasm(file) {
  const text = readFileSync(file, 'utf8');
  const m = DATA_URI.exec(text);
  if (!m) {
    if (PACKED_DATA_URI.test(text)) return; // packed before: the data URI is empty
    throw new BuildError(`${path.relative(ROOT, file)}: no inlined wasm found (was it linked with -sSINGLE_FILE?)`);
  }
  if (text.split(GLUE_EXPORT).length !== 2) {
    throw new BuildError(`${path.relative(ROOT, file)}: expected one '${GLUE_EXPORT}' in the glue`);
  }
  const packed = gzipSync(Buffer.from(m[2], 'base64'), { level: 9 }).toString('base64');
  const glue = text.replace(m[0], `${m[1]}data:application/octet-stream;base64,${m[1]}`).replace(GLUE_EXPORT, '')
    + `
const COLLIDOSCOPE_PACKED_WASM = '${packed}';
async function unpackWasm() {
  // Node: its zlib (DecompressionStream and atob are much slower there), reached without an import.
  const zlib = globalThis.process?.getBuiltinModule?.('node:zlib');
  if (zlib) return new Uint8Array(zlib.gunzipSync(Buffer.from(COLLIDOSCOPE_PACKED_WASM, 'base64')));
  if (typeof DecompressionStream !== 'function') {
    throw new Error('this JavaScript engine has no DecompressionStream, which unpacks the inlined wasm: use the flavour collidoscope/wasm-file');
  }
  const text = atob(COLLIDOSCOPE_PACKED_WASM);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
  const unpacked = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(unpacked).arrayBuffer());
}
export default async function createPackedCollidoscopeModule(options = {}) {
  return createCollidoscopeModule({ ...options, wasmBinary: await unpackWasm() });
}
`;
  const esbuild = await import('esbuild');
  const out = await esbuild.transform(glue, { minify: true, format: 'esm', target: 'es2022', legalComments: 'none' });
  writeFileSync(file, out.code);
}

const WASM_GLUE = rel('web', 'dist', 'lib', 'collidoscope_wasm.mjs');
// web/lib imports the Emscripten glue as '#collidoscope-wasm' (package.json "imports"; types from
// web/lib/wasm.d.ts); a direct '.../collidoscope_wasm.mjs' path is accepted too.
const WASM_IMPORT = /^#collidoscope-wasm$|(^|\/)collidoscope_wasm\.mjs$/;

/** esbuild plugin: the glue import becomes './collidoscope_wasm.mjs', the sibling file in web/dist/lib
 *  (library bundles), or is bundled from web/dist/lib (the page). */
function wasmGlue({ bundle, glue = './collidoscope_wasm.mjs' }) {
  return {
    name: 'collidoscope-wasm-glue',
    setup(b) {
      b.onResolve({ filter: WASM_IMPORT }, () =>
        bundle ? { path: WASM_GLUE } : { path: glue, external: true },
      );
    },
  };
}

const WASM_FILE_LOADER = rel('web', 'lib', 'wasm-file.ts');
// web/lib/wasm-file.ts imports the separate-.wasm glue under this name (package.json "imports").
const WASM_FILE_GLUE_IMPORT = /^#collidoscope-wasm-file-glue$/;

/** esbuild plugin for the 'collidoscope/wasm-file' flavour: the library's glue import becomes the loader
 *  web/lib/wasm-file.ts (bundled), whose own glue import becomes './collidoscope_wasm.mjs', the sibling file in
 *  web/dist/lib/wasm-file. */
function wasmFileLoader() {
  return {
    name: 'collidoscope-wasm-file-loader',
    setup(b) {
      b.onResolve({ filter: WASM_FILE_GLUE_IMPORT }, () => ({ path: './collidoscope_wasm.mjs', external: true }));
      b.onResolve({ filter: WASM_IMPORT }, () => ({ path: WASM_FILE_LOADER }));
    },
  };
}

/** esbuild plugin for the three.js helpers (web/lib/three.ts and the drawing layer web/lib/draw it builds on):
 *  the library (web/lib/index.ts, imported as './index' or '../index') stays an import of the flavour's index.mjs
 *  beside the bundle — one module instance, so the init() the user awaits is the one the helpers use. Any other
 *  library module would bundle a second copy of its state (the module, CollidoscopeError), so it is refused;
 *  so is anything outside web/lib (the page builds on the library, never the reverse). */
function libraryExternal() {
  const lib = rel('web', 'lib');
  const allowed = new Set([path.join(lib, 'index'), path.join(lib, 'three')]);
  return {
    name: 'collidoscope-library-external',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = path.resolve(args.resolveDir, args.path).replace(/\.(ts|js|mjs)$/, '');
        if (path.relative(lib, target).startsWith('..')) {
          return { errors: [{ text: `${path.relative(ROOT, args.importer)}: import '${args.path}' is outside web/lib` }] };
        }
        if (path.dirname(target) !== lib) return undefined; // web/lib/draw: bundled
        if (target === path.join(lib, 'index')) return { path: './index.mjs', external: true };
        if (allowed.has(target)) return undefined;
        return {
          errors: [{ text: `${path.relative(ROOT, args.importer)}: import '${args.path}' through the library's index (the helpers must share its module instance, not bundle a copy)` }],
        };
      });
    },
  };
}

/** esbuild plugin: the entry may import only the listed modules (paths without extension), and no package. */
function onlyImports(name, allowed) {
  return {
    name: `collidoscope-only-imports-${name}`,
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const target = path.resolve(args.resolveDir, args.path).replace(/\.(ts|js|mjs)$/, '');
        if (/^\.\.?\//.test(args.path) && allowed.includes(target)) return undefined;
        return { errors: [{ text: `${path.relative(ROOT, args.importer)}: the ${name} entry may not import '${args.path}'` }] };
      });
    },
  };
}

function requireFile(p) {
  if (!existsSync(p)) throw new BuildError(`missing input ${path.relative(ROOT, p)}`);
  return p;
}

export async function buildJs() {
  const t = Date.now();
  log('js (esbuild) -> web/dist/lib, web/dist/viz');
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch (err) {
    throw new BuildError(`cannot load esbuild (run scripts/bootstrap.sh / npm ci): ${err.message}`);
  }
  const common = {
    bundle: true,
    format: 'esm',
    target: 'es2022',
    logLevel: 'warning',
    absWorkingDir: ROOT,
    legalComments: 'none',
  };
  const distLib = rel('web', 'dist', 'lib');
  const distViz = rel('web', 'dist', 'viz');
  mkdirSync(distLib, { recursive: true });
  mkdirSync(distViz, { recursive: true });
  try {
    await Promise.all([
      // The library bundles are minified (the default flavour's download is a goal: under a fifth of
      // rapier3d-compat's); error objects carry their own name ('CollidoscopeError').
      // 'collidoscope' (no meshes) and 'collidoscope/meshes': the same library beside its flavour's glue.
      // The default flavour leaves the JS that only mesh traces use out too (web/lib/captions.ts).
      ...[distLib, path.join(distLib, 'meshes')].map((dir) =>
        esbuild.build({
          ...common,
          entryPoints: [requireFile(rel('web', 'lib', 'index.ts'))],
          outfile: path.join(dir, 'index.mjs'),
          platform: 'neutral',
          external: ['node:*'],
          minify: true,
          define: { __COLLIDOSCOPE_LEVEL_GEOMETRY__: dir === distLib ? 'false' : 'true' },
          plugins: [wasmGlue({ bundle: false })],
        }),
      ),
      // 'collidoscope/wasm-file': the same library with the loader of the separate .wasm.
      esbuild.build({
        ...common,
        entryPoints: [requireFile(rel('web', 'lib', 'index.ts'))],
        outfile: path.join(distLib, 'wasm-file', 'index.mjs'),
        platform: 'neutral',
        external: ['node:*'],
        minify: true,
        plugins: [wasmFileLoader()],
      }),
      // 'collidoscope/three' and 'collidoscope/{wasm-file,meshes}/three': three.js stays the user's (peer dependency).
      ...[distLib, path.join(distLib, 'wasm-file'), path.join(distLib, 'meshes')].map((dir) =>
        esbuild.build({
          ...common,
          entryPoints: [requireFile(rel('web', 'lib', 'three.ts'))],
          outfile: path.join(dir, 'three.mjs'),
          platform: 'neutral',
          external: ['node:*', 'three', 'three/*'],
          plugins: [libraryExternal()],
        }),
      ),
      // 'collidoscope/element': <collidoscope-view>, an iframe of the page; it bundles only the embed contract.
      esbuild.build({
        ...common,
        entryPoints: [requireFile(rel('web', 'lib', 'element.ts'))],
        outfile: path.join(distLib, 'element.mjs'),
        platform: 'browser',
        plugins: [onlyImports('element', [rel('web', 'lib', 'embed')])],
      }),
      esbuild.build({
        ...common,
        entryPoints: [requireFile(rel('web', 'lib', 'cli.ts'))],
        outfile: path.join(distLib, 'cli.mjs'),
        platform: 'node',
        banner: { js: '#!/usr/bin/env node' },
        external: ['node:*'],
        // The CLI reads any scene, meshes included: the glue with meshes.
        plugins: [wasmGlue({ bundle: false, glue: './meshes/collidoscope_wasm.mjs' })],
      }),
      buildPage(esbuild, common, distViz),
    ]);
  } catch (err) {
    // esbuild has already printed its diagnostics
    throw new BuildError(`esbuild failed: ${err.message.split('\n')[0]}`);
  }

  chmodSync(path.join(distLib, 'cli.mjs'), 0o755); // package.json "bin"

  // The package's type declarations (index.d.ts and what it imports), from the same sources.
  const tsc = spawnSync(process.execPath, [rel('node_modules', 'typescript', 'bin', 'tsc'), '-p', rel('tsconfig.lib.json')], {
    cwd: ROOT, stdio: 'inherit',
  });
  if (tsc.status !== 0) throw new BuildError('tsc could not emit the type declarations (tsconfig.lib.json)');
  // Relative imports get their extension: Node-style resolution (moduleResolution node16/nodenext, which
  // consumers of an ES module package use) needs './errors.js' where the sources say './errors'.
  // A declaration that mentions the glue's types imports them as '#collidoscope-wasm' (package.json "imports",
  // which point at web/lib/wasm.d.ts, not shipped): it gets './wasm.js', a copy of that file beside it.
  copyFileSync(requireFile(rel('web', 'lib', 'wasm.d.ts')), path.join(distLib, 'wasm.d.ts'));
  for (const f of readdirSync(distLib).filter((n) => n.endsWith('.d.ts'))) {
    const file = path.join(distLib, f);
    writeFileSync(file, readFileSync(file, 'utf8')
      .replace(/(from\s+'\.\/[\w-]+)(')/g, '$1.js$2')
      .replace(/(from\s+|import\()'#collidoscope-wasm'/g, "$1'./wasm.js'"));
  }
  // collidoscope/three's declarations: their own project, so that those of the drawing layer it imports
  // (web/lib/draw) stay under build/; the file shipped refers only to 'three' and './index'.
  const tscThree = spawnSync(process.execPath, [rel('node_modules', 'typescript', 'bin', 'tsc'), '-p', rel('tsconfig.three.json')], {
    cwd: ROOT, stdio: 'inherit',
  });
  if (tscThree.status !== 0) throw new BuildError('tsc could not emit the declarations of collidoscope/three (tsconfig.three.json)');
  const threeTypes = readFileSync(requireFile(rel('build', 'types-three', 'three.d.ts')), 'utf8');
  const foreign = [...threeTypes.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]).filter((m) => m !== './index' && m !== 'three');
  if (foreign.length) throw new BuildError(`three.d.ts imports ${foreign.join(', ')}: only 'three' and './index' ship`);
  writeFileSync(path.join(distLib, 'three.d.ts'), threeTypes.replace(/from\s+'\.\/index'/g, "from './index.js'"));
  // The wasm-file flavour has the same API, so the same declarations.
  const flavourNote = "// 'collidoscope/wasm-file': the API of 'collidoscope'; the wasm is loaded from collidoscope_wasm.wasm.\n";
  writeFileSync(path.join(distLib, 'wasm-file', 'index.d.ts'), `${flavourNote}export * from '../index.js';\n`);
  writeFileSync(path.join(distLib, 'wasm-file', 'three.d.ts'), `${flavourNote}export * from '../three.js';\n`);
  const meshesNote = "// 'collidoscope/meshes': the API of 'collidoscope', with triangle meshes in its wasm.\n";
  writeFileSync(path.join(distLib, 'meshes', 'index.d.ts'), `${meshesNote}export * from '../index.js';\n`);
  writeFileSync(path.join(distLib, 'meshes', 'three.d.ts'), `${meshesNote}export * from '../three.js';\n`);

  // Static files of the page.
  for (const f of readdirSync(rel('web', 'viz'))) {
    if (f.endsWith('.css')) copyFileSync(rel('web', 'viz', f), path.join(distViz, f));
  }
  writeGallery(path.join(distViz, 'gallery.json'));
  log(`js done in ${((Date.now() - t) / 1000).toFixed(1)}s`);
}

// ---- the page (web/dist/viz) ----------------------------------------------------------------------------------
// Three files load in parallel, two of them under content-hashed names that a server may cache for good
// (scripts/serve.mjs does): main.js (the page, with the library and the Emscripten glue), three-<hash>.js
// (three.js and the addons the page uses) and collidoscope_wasm-<hash>.wasm (compiled while it downloads).
// index.html names the hashed files in preload links, and main.js gets the .wasm's name as a constant.

/** The three.js addons the page imports, bundled into the three.js file with three itself. */
export const PAGE_THREE_ADDONS = [
  'controls/OrbitControls.js', 'controls/TransformControls.js', 'geometries/ConvexGeometry.js',
  'lines/LineMaterial.js', 'lines/LineSegments2.js', 'lines/LineSegmentsGeometry.js', 'loaders/GLTFLoader.js',
  'loaders/OBJLoader.js', 'renderers/CSS2DRenderer.js',
].map((f) => `three/examples/jsm/${f}`);

/** Hashed file names of the page: `<stem>-<8 characters>.<ext>`; older builds' files are removed by name. */
export const HASHED_PAGE_FILE = /^(three|collidoscope_wasm)-[0-9A-Z]{8}\.(js|wasm)$/;

const WASM_FILE_GLUE = rel('web', 'dist', 'lib', 'wasm-file', 'collidoscope_wasm.mjs');
const WASM_FILE_BINARY = rel('web', 'dist', 'lib', 'wasm-file', 'collidoscope_wasm.wasm');

/** 8 characters of the SHA-256 of `bytes`, in esbuild's alphabet (digits and capitals). */
function contentHash(bytes) {
  return BigInt('0x' + createHash('sha256').update(bytes).digest('hex').slice(0, 16)).toString(36).toUpperCase().padStart(8, '0').slice(-8);
}

/** esbuild plugin for the page: 'three' and the addons become imports of the three.js file (an addon missing
 *  from PAGE_THREE_ADDONS is an error); the library's glue import becomes the separate-.wasm loader, bundled
 *  with its glue. */
function pagePlugin(threeFile) {
  return {
    name: 'collidoscope-page',
    setup(b) {
      b.onResolve({ filter: /^three(\/|$)/ }, (args) => {
        if (args.path === 'three' || PAGE_THREE_ADDONS.includes(args.path)) return { path: `./${threeFile}`, external: true };
        return { errors: [{ text: `${path.relative(ROOT, args.importer)}: '${args.path}' is not in PAGE_THREE_ADDONS (scripts/build.mjs)` }] };
      });
      b.onResolve({ filter: WASM_FILE_GLUE_IMPORT }, () => ({ path: requireFile(WASM_FILE_GLUE) }));
      b.onResolve({ filter: WASM_IMPORT }, () => ({ path: WASM_FILE_LOADER }));
    },
  };
}

async function buildPage(esbuild, common, distViz) {
  for (const f of readdirSync(distViz)) if (HASHED_PAGE_FILE.test(f)) rmSync(path.join(distViz, f));
  const wasmBytes = readFileSync(requireFile(WASM_FILE_BINARY));
  const wasmFile = `collidoscope_wasm-${contentHash(wasmBytes)}.wasm`;
  writeFileSync(path.join(distViz, wasmFile), wasmBytes);
  const vendor = await esbuild.build({
    ...common,
    stdin: {
      contents: ['three', ...PAGE_THREE_ADDONS].map((m) => `export * from '${m}';`).join('\n'),
      resolveDir: ROOT,
      sourcefile: 'three-for-the-page.js',
    },
    outdir: distViz,
    entryNames: 'three-[hash]',
    platform: 'browser',
    minify: true,
    metafile: true,
  });
  const threeFile = path.basename(Object.keys(vendor.metafile.outputs)[0]);
  await esbuild.build({
    ...common,
    entryPoints: [requireFile(rel('web', 'viz', 'main.ts'))],
    outfile: path.join(distViz, 'main.js'),
    platform: 'browser',
    external: ['node:*'],
    minify: true,
    keepNames: true,
    sourcemap: 'linked',
    define: { COLLIDOSCOPE_WASM_FILE: JSON.stringify(wasmFile) },
    plugins: [pagePlugin(threeFile)],
  });
  const preload = `<link rel="modulepreload" href="${threeFile}">\n  `
    + `<link rel="preload" href="${wasmFile}" as="fetch" type="application/wasm" crossorigin>\n  `;
  const html = readFileSync(requireFile(rel('web', 'viz', 'index.html')), 'utf8');
  const at = html.indexOf('<script type="module" src="main.js">');
  if (at < 0) throw new BuildError('web/viz/index.html: no <script type="module" src="main.js"> to put the preload links before');
  writeFileSync(path.join(distViz, 'index.html'), html.slice(0, at) + preload + html.slice(at));
}

/**
 * web/dist/viz/gallery.json = [{lesson, title, sentence, name, file, scene}] in the order of shared/lessons.json,
 * which must list every scene of shared/scenes exactly once (a scene missing from it fails the build, named).
 */
export function writeGallery(out) {
  const dir = rel('shared', 'scenes');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : [];
  const manifestPath = requireFile(rel('shared', 'lessons.json'));
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch (err) {
    throw new BuildError(`shared/lessons.json: invalid JSON: ${err.message}`);
  }
  const problems = checkLessons(manifest, files);
  if (problems.length) throw new BuildError(`shared/lessons.json:\n  ${problems.join('\n  ')}`);
  const gallery = galleryOrder(manifest).map((entry) => {
    let scene;
    try {
      scene = JSON.parse(readFileSync(path.join(dir, entry.file), 'utf8'));
    } catch (err) {
      throw new BuildError(`shared/scenes/${entry.file}: invalid JSON: ${err.message}`);
    }
    return { ...entry, scene };
  });
  writeFileSync(out, JSON.stringify(gallery, null, 2) + '\n');
  log(`gallery.json: ${gallery.length} scene(s) in ${manifest.lessons.length} lessons`);
}

export const STEPS = { native: buildNative, wasm: buildWasm, js: buildJs };

/** Run the given steps in order; throws BuildError on the first failure. */
export async function build(steps = ['native', 'wasm', 'js']) {
  for (const s of steps) await STEPS[s]();
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const args = process.argv.slice(2);
  const only = { '--native-only': 'native', '--wasm-only': 'wasm', '--js-only': 'js' };
  const unknown = args.filter((a) => !(a in only));
  if (unknown.length) {
    console.error(`usage: node scripts/build.mjs [--native-only|--wasm-only|--js-only]  (unknown: ${unknown.join(' ')})`);
    process.exit(2);
  }
  const steps = args.length ? args.map((a) => only[a]) : ['native', 'wasm', 'js'];
  const t = Date.now();
  try {
    await build(steps);
    log(`ok (${steps.join(', ')}) in ${((Date.now() - t) / 1000).toFixed(1)}s`);
  } catch (err) {
    console.error(`build: FAILED: ${err.message}`);
    if (!(err instanceof BuildError)) console.error(err.stack);
    process.exit(1);
  }
}
