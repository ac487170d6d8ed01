// 2D scenes ("dimension": 2) on the page. A 2D scene is the 3D scene in the plane z = 0 (DESIGN.md), so the page
// draws its 3D twin with the 3D views: the one place where [x, y] becomes [x, y, 0] is here (liftScene, liftTrace).
// The trace stepped, the values table, the link and the JSON stay the 2D scene's own.
import type {
  GjkFrame, GjkTrace, PlanarEpaFrame, PlanarEpaTrace, Quat, Scene, Scene2D, Shape, Shape2D, Trace, Vec2, Vec3,
} from '../lib/index';
import { round } from '../lib/draw/format';
import { planarEpaDrawing } from '../lib/draw/planar-epa';
import { gjkRows } from './gjk-panel';
import { planarEpaRows } from './planar-epa-panel';
import { viewOf } from './queries';
import type { FrameOverlay, Row } from './query-view';

/** The queries a 2D scene runs (the library answers unsupported-query for the others). */
export const PLANAR_QUERIES = ['intersect', 'distance', 'penetration', 'raycast', 'shapecast'] as const;

/** Whether `scene` (as given, unvalidated) is a 2D scene. */
export function isPlanar(scene: unknown): boolean {
  return !!scene && typeof scene === 'object' && (scene as { dimension?: unknown }).dimension === 2;
}

/** The rotation about z by `angle` radians, as the library builds it from a 2D shape's angle. */
export function angleQuat(angle: number): Quat {
  return [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];
}

/** The angle (radians, counter-clockwise) of a rotation about z; the page rounds dragged angles to 6 decimals. */
export function quatAngle(q: Quat): number {
  return round(2 * Math.atan2(q[2], q[3]), 6);
}

const lift2 = (v: Vec2 | undefined): Vec3 | undefined => (v ? [v[0], v[1], 0] : undefined);

/** The 3D twin of a 2D shape: what the library runs (a circle is a sphere, a polygon a flat polytope ...). */
export function liftShape(s: Shape2D): Shape {
  const type = s.type === 'circle' ? 'sphere' : s.type === 'polygon' ? 'polytope' : s.type;
  const out: Shape = { type };
  if (s.radius !== undefined) out.radius = s.radius;
  if (s.halfHeight !== undefined) out.halfHeight = s.halfHeight;
  if (s.halfExtents) out.halfExtents = [s.halfExtents[0], s.halfExtents[1], 0];
  if (s.points) out.points = s.points.map((p) => [p[0], p[1], 0]);
  if (s.margin !== undefined) out.margin = s.margin;
  if (s.position) out.position = lift2(s.position);
  if (s.angle !== undefined) out.rotation = angleQuat(s.angle);
  return out;
}

/** The 3D twin of a 2D scene, for the views (never for the library: the 2D scene is what runs). */
export function liftScene(s: Scene2D): Scene {
  const out: Scene = { version: 1, query: s.query, shapes: s.shapes.map(liftShape) };
  if (s.ray) out.ray = { ...s.ray, origin: lift2(s.ray.origin)!, direction: lift2(s.ray.direction)! };
  if (s.motion) {
    out.motion = {};
    if (s.motion.translationA) out.motion.translationA = lift2(s.motion.translationA);
    if (s.motion.translationB) out.motion.translationB = lift2(s.motion.translationB);
  }
  return out;
}

/**
 * A 2D trace with every [x, y] written [x, y, 0]. Every pair of numbers in a 2D trace is a vector (its type is
 * the 3D one with Vec3 → Vec2: lib/types.ts Planar), so the lift needs no list of fields.
 */
export function liftTrace<T>(value: unknown): T {
  const lift = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      if (v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number') return [v[0], v[1], 0];
      return v.map(lift);
    }
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) o[k] = lift(x);
      return o;
    }
    return v;
  };
  return lift(value) as T;
}

/** What the simplex of a GJK frame is in the plane: a point, a segment or a triangle (null when W is empty). */
export function simplexKind(size: number): 'point' | 'segment' | 'triangle' | null {
  return size === 1 ? 'point' : size === 2 ? 'segment' : size === 3 ? 'triangle' : null;
}

/** The headings of the two views for a 2D scene. */
export function planarTitles(shapes: number): [string, string] {
  return shapes < 2
    ? ['Shape A and the ray (the plane, seen from above)', 'Shape A: the ray, x(λ) and the simplex']
    : ['Shapes A and B (the plane, seen from above)', 'Minkowski difference A − B (w = a − b)  ·  O = origin'];
}

/**
 * Frame `index` of a 2D trace as the page shows it: drawn from the lifted trace `lifted` (the 3D drawings for GJK
 * and the casts, the planar EPA's own), listed from the 2D frame (2-component vectors in the values table).
 */
export function planarOverlay(trace: Trace, lifted: Trace, index: number, drawn: Scene): FrameOverlay | null {
  const frame = trace.frames[index];
  if (!frame) return null;
  if (trace.query === 'penetration') {
    const drawing = planarEpaDrawing(lifted.frames[index] as unknown as PlanarEpaFrame, lifted as unknown as PlanarEpaTrace);
    return { ...drawing, values: () => planarEpaRows(frame as unknown as PlanarEpaFrame, trace as unknown as PlanarEpaTrace) };
  }
  const drawing = viewOf(lifted.query).drawer.draw(lifted, index, drawn);
  if (!drawing) return null;
  const rows = (): Row[] => (trace.query === 'intersect' || trace.query === 'distance'
    ? gjkRows(frame as GjkFrame, trace as GjkTrace)
    : viewOf(lifted.query).rows(lifted.frames[index], lifted));
  return { ...drawing, values: rows };
}

/** The ray and the motion of a 3D twin written back for its 2D scene: their x and y (z stays 0 in the plane). */
export function planarCast(twin: Scene): Pick<Scene2D, 'ray' | 'motion'> {
  const drop = (v: Vec3): Vec2 => [v[0], v[1]];
  const out: Pick<Scene2D, 'ray' | 'motion'> = {};
  if (twin.ray) out.ray = { ...twin.ray, origin: drop(twin.ray.origin), direction: drop(twin.ray.direction) };
  if (twin.motion) {
    out.motion = {};
    if (twin.motion.translationA) out.motion.translationA = drop(twin.motion.translationA);
    if (twin.motion.translationB) out.motion.translationB = drop(twin.motion.translationB);
  }
  return out;
}
