// The drawing of a trace frame, by query: one entry per traced query, so that the views that show frames
// (the visualizer page's, collidoscope/three's drawTraceFrame) never branch on the algorithm.
import {
  isMeshRaycast, isObbTree, isPairs, isSimulate, type ClosedFormTrace, type MeshRaycastTrace, type ObbTreeTrace, type PairsTrace,
  type PlanarEpaTrace, type Scene, type SimulateTrace, type Trace,
} from '../index';
import { castDrawing } from './cast';
import { chungWangDrawing } from './chungwang';
import { closedFormDrawing } from './closed-form';
import { epaDrawing } from './epa';
import { gjkDrawing } from './gjk';
import { meshRayDrawing } from './mesh-ray';
import { obbTreeDrawing } from './obbtree';
import { pairsDrawing } from './pairs';
import { planarEpaDrawing } from './planar-epa';
import { quickhullDrawing } from './quickhull';
import { satDrawing } from './sat';
import { simulateDrawing } from './simulate';
import type { FrameDrawing } from './types';

/** The algorithm's trace of query Q (GjkTrace answers two queries; a closed form's trace is drawn by CLOSED_FORM). */
export type TraceOf<Q extends Trace['query']> = Exclude<Trace, ClosedFormTrace> extends infer T
  ? T extends { query: infer K } ? (Q extends K ? T : never) : never
  : never;

type Drawn = Trace | PlanarEpaTrace | MeshRaycastTrace | ObbTreeTrace | PairsTrace | SimulateTrace;

export interface FrameDrawer<T extends Drawn> {
  /**
   * Where the frames live: 'pair' — on the shapes (FrameDrawing.shapes) and in A − B (minkowski); 'cloud' — in
   * the point cloud's space (FrameDrawing.hull).
   */
  space: 'pair' | 'cloud';
  /**
   * What FrameDrawing.minkowski draws in: 'difference' — A − B around the origin; 'shape-a' — shape A itself,
   * in world space (the ray cast, whose C is A); 'directions' — the unit sphere of directions (Chung–Wang).
   */
  minkowski: 'difference' | 'shape-a' | 'directions' | null;
  /** Frame `index` (null past the last); the casts take the ray or the motion from `scene`. */
  draw(trace: T, index: number, scene?: Scene | null): FrameDrawing | null;
}

/** Frame `index` of the trace through `drawing`, null past the last frame. */
function byFrame<T extends Drawn>(drawing: (frame: T['frames'][number], trace: T, scene?: Scene | null) => FrameDrawing) {
  return (trace: T, index: number, scene?: Scene | null): FrameDrawing | null => {
    const frame = trace.frames[index] as T['frames'][number] | undefined;
    return frame ? drawing(frame, trace, scene) : null;
  };
}

const gjk: FrameDrawer<TraceOf<'distance'>> = { space: 'pair', minkowski: 'difference', draw: byFrame(gjkDrawing) };

export const FRAME_DRAWERS: { readonly [Q in Trace['query']]: FrameDrawer<TraceOf<Q>> } = {
  intersect: gjk,
  distance: gjk,
  penetration: { space: 'pair', minkowski: 'difference', draw: byFrame(epaDrawing) },
  sat: { space: 'pair', minkowski: 'difference', draw: byFrame(satDrawing) },
  chungwang: { space: 'pair', minkowski: 'directions', draw: byFrame(chungWangDrawing) },
  raycast: { space: 'pair', minkowski: 'shape-a', draw: byFrame(castDrawing) },
  shapecast: { space: 'pair', minkowski: 'difference', draw: byFrame(castDrawing) },
  hull: { space: 'cloud', minkowski: null, draw: byFrame(quickhullDrawing) },
};

/** A closed form's one frame, whichever query it answers (and in the plane, lifted to z = 0). */
export const CLOSED_FORM: FrameDrawer<ClosedFormTrace> = { space: 'pair', minkowski: 'difference', draw: byFrame(closedFormDrawing) };

/** A ray cast on a mesh: its one frame, in world space in both views. */
export const MESH_RAY: FrameDrawer<MeshRaycastTrace> = { space: 'pair', minkowski: 'shape-a', draw: byFrame(meshRayDrawing) };

/** The "obbtree" query: the tree's levels and the descent, in world space in both views. */
export const OBB_TREE: FrameDrawer<ObbTreeTrace> = { space: 'pair', minkowski: 'shape-a', draw: byFrame(obbTreeDrawing) };

/**
 * A world's broad and narrow phase ("pairs"): in world space every shape's box and the frame's pairs; in the other
 * view ('shape-a': not A − B) the seed's figure of the sorted intervals, laid flat at z = 0.
 */
export const PAIRS: FrameDrawer<PairsTrace> = { space: 'pair', minkowski: 'shape-a', draw: byFrame(pairsDrawing) };

/** A world's step ("simulate"): its contact points and normals in world space; in the other view their impulses. */
export const SIMULATE: FrameDrawer<SimulateTrace> = { space: 'pair', minkowski: 'shape-a', draw: byFrame((f) => simulateDrawing(f)) };

/** The planar EPA's frames (a 2D scene's penetration, lifted to z = 0: see planar.ts). */
const PLANAR_EPA: FrameDrawer<PlanarEpaTrace> = { space: 'pair', minkowski: 'difference', draw: byFrame(planarEpaDrawing) };

/**
 * The drawer of the trace's query (undefined for a query that has no trace), or of its closed form. A 2D scene's
 * trace is drawn lifted to z = 0 (liftTrace): GJK's, the casts' and closed forms' frames as in 3D, the planar
 * EPA's by its own drawing.
 */
export function frameDrawer(trace: Trace | PlanarEpaTrace): FrameDrawer<Trace> | undefined {
  if ('closedForm' in trace) return CLOSED_FORM as unknown as FrameDrawer<Trace>;
  if (isMeshRaycast(trace)) return MESH_RAY as unknown as FrameDrawer<Trace>;
  if (isObbTree(trace)) return OBB_TREE as unknown as FrameDrawer<Trace>;
  if (isPairs(trace)) return PAIRS as unknown as FrameDrawer<Trace>;
  if (isSimulate(trace)) return SIMULATE as unknown as FrameDrawer<Trace>;
  if (trace.query === 'penetration' && (trace as { dimension?: unknown }).dimension === 2) {
    return PLANAR_EPA as unknown as FrameDrawer<Trace>;
  }
  return (FRAME_DRAWERS as Partial<Record<string, FrameDrawer<Trace>>>)[trace.query];
}
