// 2D scenes ("dimension": 2) in the drawing layer. A 2D scene is the 3D scene in the plane z = 0 (DESIGN.md), so its
// shapes, scene and trace are drawn as their 3D twins: this file is the one place where [x, y] becomes [x, y, 0],
// for the visualizer page and for collidoscope/three's drawTraceFrame alike.
import type { Quat, Scene, Scene2D, Shape, Shape2D, Vec2, Vec3 } from '../index';

/** The rotation about z by `angle` radians, as the library builds it from a 2D shape's angle. */
export function angleQuat(angle: number): Quat {
  return [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];
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

/**
 * Whether a trace is a 2D scene's: the planar EPA says so ("dimension": 2); GJK's frames have their v, the casts'
 * their x, a closed form's its coreA, with two components.
 */
export function isPlanarTrace(trace: { query: string; frames: readonly unknown[]; dimension?: unknown; closedForm?: unknown }): boolean {
  if (trace.dimension === 2) return true;
  const f = trace.frames[0] as { v?: unknown; x?: unknown; coreA?: unknown } | undefined;
  const probe = trace.closedForm !== undefined ? f?.coreA
    : trace.query === 'intersect' || trace.query === 'distance' ? f?.v
      : trace.query === 'raycast' || trace.query === 'shapecast' ? f?.x : undefined;
  return Array.isArray(probe) && probe.length === 2;
}
