#!/usr/bin/env node
// Download size of each flavour of the package as shipped, next to @dimforge/rapier3d-compat's ESM entry:
// every file a bundler would include (the entry's static and dynamic imports, found by esbuild, plus the .wasm
// that the wasm-file flavour fetches), each compressed on its own with gzip level 9 (as a server would send it).
//   npm run sizes            markdown table on stdout (needs the build: npm run build)
//   npm run sizes -- --json  the measurements as JSON
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LIB = path.join(ROOT, 'web', 'dist', 'lib');

/** Raw and gzip -9 bytes of one file. */
export function fileSize(file) {
  const bytes = readFileSync(file);
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/** The files esbuild pulls in when bundling `entry` (a path, or a package name resolved like a bundler's ESM import). */
export async function moduleGraph(entry, { resolveDir = ROOT } = {}) {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [entry],
    absWorkingDir: resolveDir,
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['import'],
    external: ['node:*'],
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs).map((f) => path.resolve(resolveDir, f)).sort();
}

function total(name, files) {
  const parts = files.map(fileSize);
  return {
    name,
    files: parts.map((p) => path.relative(ROOT, p.file)),
    raw: parts.reduce((s, p) => s + p.raw, 0),
    gzip: parts.reduce((s, p) => s + p.gzip, 0),
  };
}

/** The package.json of the package holding `file` (its exports map may not expose ./package.json). */
function packageJsonOf(file) {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const p = path.join(dir, 'package.json');
    if (existsSync(p)) return JSON.parse(readFileSync(p, 'utf8'));
  }
  throw new Error(`no package.json above ${file}`);
}

function requireBuilt(file) {
  if (!existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: build first (npm run build)`);
  return file;
}

/** Measures the flavours in web/dist/lib and rapier3d-compat in node_modules. */
export async function measureSizes() {
  const wasmFile = requireBuilt(path.join(LIB, 'wasm-file', 'collidoscope_wasm.wasm'));
  const defaultFiles = await moduleGraph(requireBuilt(path.join(LIB, 'index.mjs')));
  const separateFiles = [...(await moduleGraph(requireBuilt(path.join(LIB, 'wasm-file', 'index.mjs')))), wasmFile];
  const meshesFiles = await moduleGraph(requireBuilt(path.join(LIB, 'meshes', 'index.mjs')));
  const rapierEntry = '@dimforge/rapier3d-compat';
  const rapierFiles = await moduleGraph(rapierEntry);
  const rapierPkg = packageJsonOf(rapierFiles[0]);
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return {
    collidoscopeVersion: pkg.version,
    rapierVersion: rapierPkg.version,
    default: total(`collidoscope ${pkg.version} (default, wasm inlined, no meshes)`, defaultFiles),
    meshes: total(`collidoscope/meshes ${pkg.version} (wasm inlined, with meshes)`, meshesFiles),
    wasmFile: total(`collidoscope/wasm-file ${pkg.version} (.mjs + .wasm)`, separateFiles),
    wasmOnly: total('collidoscope_wasm.wasm alone', [wasmFile]),
    rapier: total(`@dimforge/rapier3d-compat ${rapierPkg.version} (ESM entry)`, rapierFiles),
  };
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

export function markdownTable(m) {
  const rows = [m.default, m.meshes, m.wasmFile, m.wasmOnly, m.rapier];
  const lines = [
    '| what | files | raw | gzip -9 | gzip vs rapier |',
    '| --- | --- | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.name} | ${r.files.map((f) => '`' + path.basename(f) + '`').join(' + ')} | ${kib(r.raw)} | ${kib(r.gzip)} | ${(r.gzip / m.rapier.gzip * 100).toFixed(1)} % |`),
  ];
  return lines.join('\n');
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  try {
    const m = await measureSizes();
    if (process.argv.includes('--json')) console.log(JSON.stringify(m, null, 2));
    else {
      console.log(markdownTable(m));
      console.log(`\nMeasured ${new Date().toISOString().slice(0, 10)} with Node ${process.versions.node}; each file gzipped on its own (zlib level 9).`);
    }
  } catch (err) {
    console.error(`sizes: ${err.message}`);
    process.exit(1);
  }
}
