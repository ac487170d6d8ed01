// Meshes the page offers for the "obbtree" view, generated in code (deterministic: the same numbers on every
// machine, rounded to 4 decimals so that a link to them stays short): a torus knot, a terrain patch and a low-poly
// figure of a person's size. Each comes as a scene of the "obbtree" query with a shape B against it.
import type { Scene, Shape, Vec3 } from '../lib/index';

type Tri = [number, number, number];
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4 + 0;

/** A tube of `sides` around a closed curve sampled at `segments` points (the tube's triangles face outward). */
function tube(curve: (t: number) => Vec3, segments: number, sides: number, radius: number): { vertices: Vec3[]; triangles: Tri[] } {
  const vertices: Vec3[] = [];
  const triangles: Tri[] = [];
  const at = (i: number) => curve((i % segments) / segments * 2 * Math.PI);
  for (let i = 0; i < segments; ++i) {
    const p = at(i);
    const q = at(i + 1);
    const tangent = q.map((x, k) => x - p[k]);
    // A frame around the tangent: n from the curve's offset to the origin, b = t × n.
    const tl = Math.hypot(...tangent);
    const t = tangent.map((x) => x / tl);
    const c = p.map((x) => -x);
    const dot = c[0] * t[0] + c[1] * t[1] + c[2] * t[2];
    let n = c.map((x, k) => x - dot * t[k]);
    const nl = Math.hypot(...n);
    n = n.map((x) => x / nl);
    const b = [t[1] * n[2] - t[2] * n[1], t[2] * n[0] - t[0] * n[2], t[0] * n[1] - t[1] * n[0]];
    for (let j = 0; j < sides; ++j) {
      const a = (j / sides) * 2 * Math.PI;
      vertices.push([0, 1, 2].map((k) => r4(p[k] + radius * (Math.cos(a) * n[k] + Math.sin(a) * b[k]))) as Vec3);
    }
  }
  for (let i = 0; i < segments; ++i) {
    for (let j = 0; j < sides; ++j) {
      const a = i * sides + j;
      const b = i * sides + ((j + 1) % sides);
      const c = ((i + 1) % segments) * sides + j;
      const d = ((i + 1) % segments) * sides + ((j + 1) % sides);
      triangles.push([a, c, b], [b, c, d]);
    }
  }
  return { vertices, triangles };
}

/** A (2, 3) torus knot: 96 × 6 = 1152 triangles. */
export function torusKnot(): Shape {
  const knot = (t: number): Vec3 => {
    const r = 2 + Math.cos(3 * t);
    return [0.5 * r * Math.cos(2 * t), 0.5 * Math.sin(3 * t), 0.5 * r * Math.sin(2 * t)];
  };
  return { type: 'mesh', ...tube(knot, 96, 6, 0.22) };
}

/** A 16 × 16-cell terrain patch 4 units wide (heights from a few sines): 512 triangles, faces up. */
export function terrainPatch(): Shape {
  const n = 16;
  const size = 4;
  const vertices: Vec3[] = [];
  const triangles: Tri[] = [];
  for (let i = 0; i <= n; ++i) {
    for (let j = 0; j <= n; ++j) {
      const x = (i / n - 0.5) * size;
      const z = (j / n - 0.5) * size;
      const y = 0.35 * Math.sin(1.3 * x) * Math.cos(1.1 * z) + 0.15 * Math.sin(2.7 * x + 1.9 * z);
      vertices.push([r4(x), r4(y), r4(z)]);
    }
  }
  for (let i = 0; i < n; ++i) {
    for (let j = 0; j < n; ++j) {
      const a = i * (n + 1) + j;
      triangles.push([a, a + 1, a + n + 1], [a + 1, a + n + 2, a + n + 1]);
    }
  }
  return { type: 'mesh', vertices, triangles };
}

/** A low-poly figure 1.8 units tall (y up, feet at 0): legs, hips, torso, arms and head as boxes, 96 triangles. */
export function lowPolyFigure(): Shape {
  const vertices: Vec3[] = [];
  const triangles: Tri[] = [];
  const box = (c: Vec3, h: Vec3) => {
    const base = vertices.length;
    for (let k = 0; k < 8; ++k) {
      vertices.push([r4(c[0] + (k & 1 ? h[0] : -h[0])), r4(c[1] + (k & 2 ? h[1] : -h[1])), r4(c[2] + (k & 4 ? h[2] : -h[2]))]);
    }
    // Two CCW triangles per face, seen from outside.
    const faces: [number, number, number, number][] = [
      [0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6],
    ];
    for (const [a, b, c2, d] of faces) triangles.push([base + a, base + b, base + c2], [base + a, base + c2, base + d]);
  };
  box([-0.12, 0.42, 0], [0.08, 0.42, 0.09]);  // legs
  box([0.12, 0.42, 0], [0.08, 0.42, 0.09]);
  box([0, 0.92, 0], [0.2, 0.1, 0.11]);       // hips
  box([0, 1.25, 0], [0.22, 0.24, 0.12]);     // torso
  box([-0.3, 1.2, 0], [0.06, 0.3, 0.06]);   // arms
  box([0.3, 1.2, 0], [0.06, 0.3, 0.06]);
  box([0, 1.6, 0], [0.05, 0.05, 0.05]);     // neck
  box([0, 1.72, 0], [0.1, 0.1, 0.1]);      // head
  return { type: 'mesh', vertices, triangles };
}

export const BUILTIN_MESHES = {
  'torus-knot': { title: 'Torus knot (1152 triangles)', make: torusKnot, b: { type: 'sphere', radius: 0.35, position: [1.45, 0.1, 0] } as Shape },
  terrain: { title: 'Terrain patch (512 triangles)', make: terrainPatch, b: { type: 'capsule', radius: 0.25, halfHeight: 0.4, position: [0.3, 0.35, -0.2] } as Shape },
  figure: { title: 'Low-poly figure (96 triangles)', make: lowPolyFigure, b: { type: 'box', halfExtents: [0.3, 0.05, 0.3], position: [0.2, 1.05, 0.1] } as Shape },
} as const;

export type BuiltinMesh = keyof typeof BUILTIN_MESHES;

/** The "obbtree" scene of a built-in mesh with its shape B. */
export function builtinScene(name: BuiltinMesh): Scene {
  const m = BUILTIN_MESHES[name];
  return { version: 1, query: 'obbtree', shapes: [m.make(), m.b] };
}
