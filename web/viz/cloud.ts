// Point clouds for the hull view: generators (random ball, sphere, cube grid, a three.js geometry's
// vertices), and the parser of a pasted list of points. Coordinates are rounded to 3 decimals so that
// permalinks stay short.
import * as THREE from 'three';
import type { Vec3 } from '../lib/index';

export type Generator = 'ball' | 'sphere' | 'grid' | 'geometry';

export const GENERATORS: { id: Generator; name: string; count: number; min: number; max: number; unit: string }[] = [
  { id: 'ball', name: 'random ball', count: 120, min: 1, max: 100_000, unit: 'points' },
  { id: 'sphere', name: 'random sphere', count: 80, min: 1, max: 100_000, unit: 'points' },
  { id: 'grid', name: 'cube grid n×n×n', count: 4, min: 1, max: 40, unit: 'n' },
  { id: 'geometry', name: 'three.js geometry', count: 0, min: 0, max: 0, unit: '' },
];

export const GEOMETRIES: { id: string; name: string; make: () => THREE.BufferGeometry }[] = [
  { id: 'icosahedron', name: 'IcosahedronGeometry (detail 1)', make: () => new THREE.IcosahedronGeometry(1, 1) },
  { id: 'dodecahedron', name: 'DodecahedronGeometry', make: () => new THREE.DodecahedronGeometry(1, 0) },
  { id: 'torusknot', name: 'TorusKnotGeometry', make: () => new THREE.TorusKnotGeometry(0.7, 0.22, 48, 6) },
  { id: 'torus', name: 'TorusGeometry', make: () => new THREE.TorusGeometry(0.8, 0.3, 8, 24) },
  { id: 'box', name: 'BoxGeometry (3 segments)', make: () => new THREE.BoxGeometry(1.6, 1.1, 0.8, 3, 3, 3) },
  { id: 'cylinder', name: 'CylinderGeometry', make: () => new THREE.CylinderGeometry(0.7, 0.7, 1.6, 16, 2) },
  { id: 'cone', name: 'ConeGeometry', make: () => new THREE.ConeGeometry(0.8, 1.6, 16, 3) },
  { id: 'sphere', name: 'SphereGeometry (UV)', make: () => new THREE.SphereGeometry(1, 12, 8) },
];

const r3 = (x: number): number => {
  const r = Math.round(x * 1000) / 1000;
  return Object.is(r, -0) ? 0 : r;
};
const rounded = (x: number, y: number, z: number): Vec3 => [r3(x), r3(y), r3(z)];

/** A small seeded generator (mulberry32): the same seed gives the same cloud. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` points uniform in the unit ball. */
export function randomBall(n: number, rand: () => number): Vec3[] {
  const pts: Vec3[] = [];
  while (pts.length < n) {
    const x = 2 * rand() - 1, y = 2 * rand() - 1, z = 2 * rand() - 1;
    if (x * x + y * y + z * z <= 1) pts.push(rounded(x, y, z));
  }
  return pts;
}

/** `n` points uniform on the unit sphere: every one is a hull vertex. */
export function randomSphere(n: number, rand: () => number): Vec3[] {
  const pts: Vec3[] = [];
  for (let i = 0; i < n; i++) {
    const z = 2 * rand() - 1;
    const t = 2 * Math.PI * rand();
    const r = Math.sqrt(Math.max(0, 1 - z * z));
    pts.push(rounded(r * Math.cos(t), z, r * Math.sin(t)));
  }
  return pts;
}

/** n×n×n points on a grid filling [-1, 1]³: many coplanar and collinear points. */
export function cubeGrid(n: number): Vec3[] {
  const pts: Vec3[] = [];
  const at = (i: number) => (n === 1 ? 0 : -1 + (2 * i) / (n - 1));
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) pts.push(rounded(at(i), at(j), at(k)));
  return pts;
}

/** The distinct vertices of a three.js geometry. */
export function geometryPoints(id: string): Vec3[] {
  const g = (GEOMETRIES.find((x) => x.id === id) ?? GEOMETRIES[0]).make();
  const pos = g.getAttribute('position');
  const seen = new Set<string>();
  const pts: Vec3[] = [];
  for (let i = 0; i < pos.count; i++) {
    const p = rounded(pos.getX(i), pos.getY(i), pos.getZ(i));
    const key = p.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    pts.push(p);
  }
  g.dispose();
  return pts;
}

export function generate(gen: Generator, count: number, opts: { seed: number; geometry: string }): Vec3[] {
  const rand = seededRandom(opts.seed);
  switch (gen) {
    case 'ball': return randomBall(count, rand);
    case 'sphere': return randomSphere(count, rand);
    case 'grid': return cubeGrid(count);
    case 'geometry': return geometryPoints(opts.geometry);
  }
}

/** The cloud the hull query starts with. */
export function defaultCloud(): Vec3[] {
  return randomBall(GENERATORS[0].count, seededRandom(1));
}

export class PointsParseError extends Error {
  constructor(readonly line: number, detail: string) {
    super(line > 0 ? `Points, line ${line}: ${detail}` : `Points: ${detail}`);
  }
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Points from text: one point per line, "x y z", "x, y, z" or "[x, y, z]" (blank lines and lines starting
 * with # are skipped); or a whole JSON array of [x, y, z]. Throws PointsParseError naming the line.
 */
export function parsePoints(text: string): Vec3[] {
  const lines = text.split(/\r\n|\r|\n/);
  const trimmed = text.trim();
  // A JSON array of points on one or more lines: "[[0,0,0],[1,0,0]]".
  if (trimmed.startsWith('[[')) {
    let data: unknown;
    try {
      data = JSON.parse(trimmed);
    } catch {
      data = undefined;
    }
    if (Array.isArray(data)) {
      return data.map((p, i) => {
        if (!Array.isArray(p) || p.length !== 3 || !p.every((x) => typeof x === 'number' && Number.isFinite(x))) {
          throw new PointsParseError(0, `point ${i + 1} of the JSON array is not three finite numbers [x, y, z]`);
        }
        return p as Vec3;
      });
    }
  }
  const pts: Vec3[] = [];
  lines.forEach((raw, i) => {
    let s = raw.trim();
    if (s === '' || s.startsWith('#')) return;
    const shown = s.length > 40 ? s.slice(0, 40) + '…' : s;
    if (s.endsWith(',')) s = s.slice(0, -1).trim(); // a line copied out of a JSON array
    const bracketed = s.startsWith('[') || s.endsWith(']');
    if (bracketed) {
      if (!(s.startsWith('[') && s.endsWith(']'))) throw new PointsParseError(i + 1, `unbalanced brackets in "${shown}"`);
      s = s.slice(1, -1).trim();
    }
    const parts = s.split(/\s*,\s*|\s+/).filter((x) => x !== '');
    if (parts.length !== 3) {
      throw new PointsParseError(i + 1, `expected three numbers "x y z" or "[x, y, z]", got ${parts.length} in "${shown}"`);
    }
    const xyz = parts.map((p) => {
      if (!NUMBER.test(p)) throw new PointsParseError(i + 1, `"${p.length > 20 ? p.slice(0, 20) + '…' : p}" is not a number`);
      const v = Number(p);
      if (!Number.isFinite(v)) throw new PointsParseError(i + 1, `"${p}" is not a finite number`);
      return v;
    });
    pts.push(xyz as Vec3);
  });
  if (pts.length === 0) throw new PointsParseError(0, 'the list is empty: give one point "x y z" per line');
  return pts;
}

/** One "x y z" line per point. */
export function formatPoints(pts: readonly Vec3[]): string {
  return pts.map((p) => p.map((x) => String(x)).join(' ')).join('\n');
}
