// The npm package as a user gets it, for tests/js/package.test.ts and tests/e2e/vite-consumer.test.ts:
// `npm pack` of the built repository, and the tarball unpacked into a consumer project's node_modules (what
// `npm install <tarball>` does for a package without dependencies, with no registry involved).
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface Packed {
  /** The .tgz file. */
  tarball: string;
  /** Paths inside the package, as npm lists them. */
  files: string[];
}

/** Packs the repository (web/dist must be built) into `dest`. */
export function packPackage(dest: string): Packed {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dest], {
    cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'],
  });
  const info = JSON.parse(out)[0] as { filename: string; files: { path: string }[] };
  return { tarball: path.join(dest, info.filename), files: info.files.map((f) => f.path).sort() };
}

/** Makes `dir` an ES module project with the packed package in node_modules/collidoscope; returns that path. */
export function installPacked(packed: Packed, dir: string): string {
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  execFileSync('tar', ['-xzf', packed.tarball, '-C', modules]);
  const pkg = path.join(modules, 'collidoscope');
  renameSync(path.join(modules, 'package'), pkg);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  return pkg;
}
