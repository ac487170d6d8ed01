#!/usr/bin/env node
// Mesh–mesh intersection on two OBB trees and the seed's frame-rate
// experiment (Rasku 2003, §9), natively: build/bench/collidoscope_mesh_mesh_bench
// (bench/mesh_mesh_bench.cpp says what it measures) prints two markdown
// tables; this module reads them into rows for bench/results.json and puts
// them in bench/results.md with their legend.
//
//   node bench/frame_rate.mjs [--quick]        prints the markdown section
//   import { runFrameRate, frameRateMarkdown } from './bench/frame_rate.mjs'   (scripts/bench.mjs)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The markdown tables of `text`, each as { header: string[], rows: string[][] }, in order. */
export function markdownTables(text) {
  const tables = [];
  let current = null;
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) {
      current = null;
      continue;
    }
    const cells = line.slice(1, line.endsWith('|') ? -1 : undefined).split('|').map((c) => c.trim());
    if (current === null) {
      current = { header: cells, rows: [] };
      tables.push(current);
    } else if (!cells.every((c) => /^:?-+:?$/.test(c))) {
      if (cells.length !== current.header.length) throw new Error(`frame_rate: a row of ${cells.length} cells under a header of ${current.header.length}: ${line}`);
      current.rows.push(cells);
    }
  }
  return tables;
}

const asObjects = (t) => t.rows.map((r) => Object.fromEntries(t.header.map((h, i) => [h, Number.isNaN(Number(r[i])) ? r[i] : Number(r[i])])));

export async function runFrameRate({ quick = false, buildDir = path.join(ROOT, 'build', 'bench') } = {}) {
  const exe = path.join(buildDir, 'collidoscope_mesh_mesh_bench');
  if (!existsSync(exe)) return { pending: `${exe} is not built`, pairs: [], frames: [] };
  const tables = markdownTables(execFileSync(exe, quick ? ['--quick'] : [], { encoding: 'utf8', maxBuffer: 1 << 24 }));
  if (tables.length !== 2) throw new Error(`frame_rate: expected 2 tables from ${exe}, got ${tables.length}`);
  return { quick, pairs: asObjects(tables[0]), frames: asObjects(tables[1]), headers: tables.map((t) => t.header) };
}

const row = (header, o) => `| ${header.map((h) => o[h]).join(' | ')} |`;

export function frameRateMarkdown(r) {
  const md = ['## Mesh against mesh on two OBB trees, and the seed\'s frame-rate experiment (natively)', ''];
  if (r.pending) return [...md, `- **pending**: ${r.pending}`, ''];
  const [pairHeader, frameHeader] = r.headers;
  md.push('Two copies of a torus of n triangles in random poses, centres 0.2–2.6 apart (the tori reach 1.35 from their centre): from interlocked to apart. First: stop at the first intersecting triangle pair; All: every pair. Volume tests (node pairs), triangle tests and contacts are means over the configurations in All mode; "seed lower/upper" are the seed\'s bounds on the volume tests for the k contacts found (mesh_mesh.h seedTestBounds), averaged over the configurations with contacts. At 1 000 triangles every answer is checked against brute force over all n² triangle pairs ("mismatches" counts disagreements) (build/bench/collidoscope_mesh_mesh_bench, bench/mesh_mesh_bench.cpp).', '');
  md.push(`| ${pairHeader.join(' | ')} |`, `|${pairHeader.map(() => '---:').join('|')}|`, ...r.pairs.map((o) => row(pairHeader, o)), '');
  md.push('The seed\'s frame-rate experiment (§9): N meshes moving and spinning at random in a box (about 4 % of it in their enclosing cubes). Every frame: the broad phase on cubes that hold each mesh in any orientation (sorted on x, checked on y and z), then an All query on the two trees of every overlapping pair of cubes. Per frame: cube pairs, pairs with contact, volume and triangle tests, contacts, and the time of the whole frame (broad plus narrow phase, one core); beside the volume tests per pair in contact, the seed\'s lower and upper bounds for that pair\'s contacts. Meshes: the seed\'s cube (12 triangles) and icospheres of 80 to 20 480 triangles.', '');
  md.push(`| ${frameHeader.join(' | ')} |`, `|${frameHeader.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...r.frames.map((o) => row(frameHeader, o)), '');
  return md;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await runFrameRate({ quick: process.argv.includes('--quick') });
  console.log(frameRateMarkdown(r).join('\n'));
}
