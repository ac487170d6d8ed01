// The direction of the imports in web/, read from the TypeScript sources by madge:
//  (a) no import cycles in web/lib and web/viz, through value imports or type-only ones (`import type`,
//      which the compiler erases, still tie two modules' declarations together).
//  (b) nothing in web/lib imports web/viz: the page builds on the library, never the reverse;
//  (c) the drawing layer web/lib/draw imports only three.js (the package 'three', its addons under
//      'three/examples/jsm/'), its own modules, and the library's entry web/lib/index.ts (for its types and its
//      shape samplers: collidoscope/three's bundle keeps that one an import of the shared index.mjs).
// Every import counts for (b) and (c), type-only ones too. The last test runs the same check on copies of
// web/ with a forbidden import added, so that a check which has gone blind fails too.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

interface MadgeResult {
  obj(): Record<string, string[]>;
  circular(): string[][];
  warnings(): { skipped: string[] };
}
type Madge = (paths: string[], config: Record<string, unknown>) => Promise<MadgeResult>;
// madge ships no type declarations: taken through require, typed here by what this test uses.
const madge = createRequire(import.meta.url)('madge') as Madge;

/** The import graph of `root`/web/lib and `root`/web/viz: file (relative to root) → what it imports. */
async function importGraph(root: string, typeImports: boolean): Promise<MadgeResult> {
  return madge([path.join(root, 'web', 'lib'), path.join(root, 'web', 'viz')], {
    baseDir: root,
    fileExtensions: ['ts'],
    tsConfig: path.join(ROOT, 'tsconfig.json'),
    includeNpm: true,
    excludeRegExp: [/^web\/dist\//],
    detectiveOptions: { ts: { skipTypeImports: !typeImports }, es6: { skipTypeImports: !typeImports } },
  });
}

/** The npm package a resolved file belongs to ('@types/three' counts as 'three'), or null for a source of web/. */
function packageOf(file: string): string | null {
  const at = file.lastIndexOf('node_modules/');
  if (at < 0) return null;
  const parts = file.slice(at + 'node_modules/'.length).split('/');
  const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  return name.replace(/^@types\//, '');
}

const isOwn = (file: string, dir: string) => file.startsWith(dir + '/');

/** What the drawing layer may import besides its own modules and three.js. */
const DRAW_MAY_IMPORT = new Set(['web/lib/index.ts']);

interface Violations {
  /** Cycles of value imports (anywhere). */
  cycles: string[][];
  /** Cycles that need a type-only import. */
  typeCycles: string[][];
  /** web/lib → web/viz imports, as "from → to". */
  libToViz: string[];
  /** web/lib/draw imports of anything else than three.js, web/lib/draw and DRAW_MAY_IMPORT. */
  drawForeign: string[];
  /** Files madge could not resolve (a check that sees nothing must not pass). */
  unresolved: string[];
}

async function checkImports(root: string): Promise<Violations> {
  const all = await importGraph(root, true);
  const values = await importGraph(root, false);
  const graph = all.obj();
  const edges = Object.entries(graph).flatMap(([from, tos]) => tos.map((to) => ({ from, to })));
  return {
    cycles: values.circular(),
    typeCycles: all.circular(),
    libToViz: edges.filter((e) => isOwn(e.from, 'web/lib') && isOwn(e.to, 'web/viz')).map((e) => `${e.from} → ${e.to}`),
    drawForeign: edges
      .filter((e) => isOwn(e.from, 'web/lib/draw'))
      .filter((e) => !(isOwn(e.to, 'web/lib/draw') || DRAW_MAY_IMPORT.has(e.to) || packageOf(e.to) === 'three'))
      .map((e) => `${e.from} → ${e.to}`),
    // The Emscripten glue is an import of package.json "imports", built into web/dist: not a source.
    unresolved: all.warnings().skipped.filter((s) => !s.startsWith('#collidoscope-wasm')),
  };
}

describe('imports in web/', () => {
  it('have no cycles, web/lib never imports web/viz, and web/lib/draw imports only three.js and the library entry', async () => {
    const v = await checkImports(ROOT);
    expect(v).toEqual({ cycles: [], typeCycles: [], libToViz: [], drawForeign: [], unresolved: [] });
    // The graph is the real one: the page's entry reaches the drawing layer, and the drawing layer reaches three.js.
    const graph = (await importGraph(ROOT, true)).obj();
    expect(graph['web/lib/three.ts']).toContain('web/lib/draw/frames.ts');
    expect(graph['web/viz/queries.ts']).toContain('web/lib/draw/frames.ts');
    expect(graph['web/lib/draw/primitives.ts'].map(packageOf)).toContain('three');
  }, 60_000);

  it('are caught when a forbidden import is added (on a copy of web/)', async () => {
    const scratch = path.join(ROOT, 'build', 'deps-test');
    const cases: { file: string; line: string; expect: (v: Violations) => void }[] = [
      {
        file: 'web/lib/draw/gjk.ts', line: "import '../../viz/app';",
        expect: (v) => expect(v.libToViz).toContain('web/lib/draw/gjk.ts → web/viz/app.ts'),
      },
      {
        file: 'web/lib/three.ts', line: "import type { Row } from '../viz/query-view';",
        expect: (v) => expect(v.libToViz).toContain('web/lib/three.ts → web/viz/query-view.ts'),
      },
      {
        file: 'web/lib/draw/epa.ts', line: "import { CollidoscopeError } from '../errors';",
        expect: (v) => expect(v.drawForeign).toContain('web/lib/draw/epa.ts → web/lib/errors.ts'),
      },
      {
        file: 'web/viz/queries.ts', line: "import './app';",
        expect: (v) => expect(v.cycles.map((c) => c.join(' → '))).toContainEqual(expect.stringContaining('web/viz/queries.ts')),
      },
      {
        file: 'web/lib/draw/types.ts', line: "import type { FrameOverlay } from '../../viz/query-view';",
        expect: (v) => {
          expect(v.libToViz).toContain('web/lib/draw/types.ts → web/viz/query-view.ts');
          expect(v.typeCycles.length).toBeGreaterThan(0);
        },
      },
    ];
    try {
      for (const c of cases) {
        rmSync(scratch, { recursive: true, force: true });
        mkdirSync(scratch, { recursive: true });
        for (const dir of ['lib', 'viz']) {
          cpSync(path.join(ROOT, 'web', dir), path.join(scratch, 'web', dir), { recursive: true });
        }
        const file = path.join(scratch, c.file);
        writeFileSync(file, `${c.line}\n${readFileSync(file, 'utf8')}`);
        c.expect(await checkImports(scratch));
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 120_000);
});
