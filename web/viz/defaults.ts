// Default scene, default parameters of each shape type, and the random polytope generator.
import type { Scene, Shape, ShapeType, Vec3 } from '../lib/index';

export const SHAPE_TYPES: ShapeType[] = [
  'point', 'sphere', 'box', 'capsule', 'cylinder', 'cone', 'ellipsoid', 'segment', 'triangle', 'polytope', 'plane',
];

export function defaultScene(): Scene {
  return {
    version: 1,
    query: 'distance',
    shapes: [
      { type: 'box', halfExtents: [0.7, 0.5, 0.45], position: [-1.25, 0.15, 0], rotation: [0.1305, 0.2588, 0.0922, 0.9525] },
      { type: 'cone', radius: 0.55, halfHeight: 0.65, position: [1.05, -0.1, 0.25], rotation: [0, 0, 0.3827, 0.9239] },
    ],
  };
}

/** Parameters a shape of `type` starts with when the user picks that type. */
export function defaultParams(type: ShapeType): Partial<Shape> {
  switch (type) {
    case 'point': return {};
    case 'sphere': return { radius: 0.6 };
    case 'box': return { halfExtents: [0.6, 0.45, 0.4] };
    case 'capsule': return { radius: 0.35, halfHeight: 0.5 };
    case 'cylinder': return { radius: 0.5, halfHeight: 0.55 };
    case 'cone': return { radius: 0.55, halfHeight: 0.65 };
    case 'ellipsoid': return { radii: [0.8, 0.5, 0.4] };
    case 'segment': return { points: [[-0.6, -0.3, 0], [0.6, 0.3, 0]] };
    case 'triangle': return { points: [[-0.6, -0.4, 0], [0.6, -0.4, 0], [0, 0.6, 0.1]] };
    case 'polytope': return { points: randomPolytopePoints() };
    case 'plane': return { normal: [0, 1, 0], offset: 0 };  // a floor through the shape's position
    case 'mesh': return smallMesh();  // not offered by the picker: meshes come from scenes and links
    case 'heightfield': return smallHeightfield();  // not offered by the picker either
    case 'compound': return {  // not offered by the picker: compounds come from scenes and links
      children: [{ type: 'box', halfExtents: [0.4, 0.2, 0.3], position: [-0.4, 0, 0] }, { type: 'sphere', radius: 0.35, position: [0.45, 0.1, 0] }],
    };
  }
}

/** A shape of a new type keeping the pose and margin of `old`. */
export function changeType(old: Shape, type: ShapeType): Shape {
  const s: Shape = { type, ...defaultParams(type) };
  if (old.margin !== undefined) s.margin = old.margin;
  if (old.position) s.position = [...old.position] as Vec3;
  if (old.rotation) s.rotation = [...old.rotation] as Shape['rotation'];
  return s;
}

/** 6–12 points scattered near a sphere of radius ~0.6, rounded to 2 decimals (short links). */
export function randomPolytopePoints(rand: () => number = Math.random): Vec3[] {
  const n = 6 + Math.floor(rand() * 7);
  const pts: Vec3[] = [];
  for (let i = 0; i < n; i++) {
    const z = 2 * rand() - 1;
    const t = 2 * Math.PI * rand();
    const r = Math.sqrt(1 - z * z);
    const s = 0.4 + 0.35 * rand();
    pts.push([r * Math.cos(t) * s, z * s, r * Math.sin(t) * s].map((x) => Math.round(x * 100) / 100) as Vec3);
  }
  return pts;
}

/** A small open, non-convex mesh: a 3 × 3 grid of heights (a saddle), 8 triangles counter-clockwise from +y. */
/** A 5 × 5 terrain patch with one hill, 1.2 wide, its corner at the origin. */
export function smallHeightfield(): Pick<Shape, 'heights' | 'cellSize'> {
  const heights: number[][] = [];
  for (let i = 0; i < 5; i++) heights.push([0, 1, 2, 3, 4].map((j) => Math.round(40 * Math.exp(-((i - 2) ** 2 + (j - 2) ** 2) / 2)) / 100));
  return { heights, cellSize: [0.3, 0.3] };
}

export function smallMesh(): Pick<Shape, 'vertices' | 'triangles'> {
  const vertices: Vec3[] = [];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) vertices.push([(i - 1) * 0.6, (i - 1) * (j - 1) * 0.35, (j - 1) * 0.6]);
  }
  const triangles: [number, number, number][] = [];
  for (let i = 0; i < 2; i++) {
    for (let j = 0; j < 2; j++) {
      const a = 3 * i + j, b = a + 1, c = a + 3, d = a + 4;
      triangles.push([a, b, d], [a, d, c]);
    }
  }
  return { vertices, triangles };
}
