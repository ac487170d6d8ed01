// 2D scenes ("dimension": 2) on the page: the views draw a 2D scene's 3D twin in the plane z = 0 (lifted by
// lib/draw/planar.ts); the trace stepped, the values table, the link and the JSON stay the 2D scene's own.
import { isClosedForm, type PlanarEpaFrame, type PlanarEpaTrace, type Quat, type Scene, type Scene2D, type Trace, type Vec2, type Vec3 } from '../lib/index';
import { frameDrawer } from '../lib/draw/frames';
import { round } from '../lib/draw/format';
import { planarEpaRows } from './planar-epa-panel';
import { viewOfTrace } from './queries';
import type { FrameOverlay, Row } from './query-view';

export { liftScene, liftTrace } from '../lib/draw/planar';

/** The queries a 2D scene runs (the library answers unsupported-query for the others). */
export const PLANAR_QUERIES = ['intersect', 'distance', 'penetration', 'raycast', 'shapecast'] as const;

/** Whether `scene` (as given, unvalidated) is a 2D scene. */
export function isPlanar(scene: unknown): boolean {
  return !!scene && typeof scene === 'object' && (scene as { dimension?: unknown }).dimension === 2;
}

/** The angle (radians, counter-clockwise) of a rotation about z; the page rounds dragged angles to 6 decimals. */
export function quatAngle(q: Quat): number {
  return round(2 * Math.atan2(q[2], q[3]), 6);
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
  const drawing = frameDrawer(lifted)?.draw(lifted, index, drawn);
  if (!frame || !drawing) return null;
  const rows = (): Row[] => {
    if (trace.query === 'penetration' && !isClosedForm(trace)) {
      return planarEpaRows(frame as unknown as PlanarEpaFrame, trace as unknown as PlanarEpaTrace);
    }
    // GJK's, the casts' and closed forms' tables read [x, y] vectors as they read [x, y, z] ones (lib/draw/format.ts).
    return viewOfTrace(trace).rows(frame, trace);
  };
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
