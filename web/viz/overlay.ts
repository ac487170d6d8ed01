// What the page draws and lists for one trace frame, by algorithm: gjk-overlay.ts (intersect, distance),
// epa-overlay.ts (penetration), hull-overlay.ts (hull), sat-overlay.ts (sat), cast-overlay.ts (raycast,
// shapecast) and cw-overlay.ts (chungwang). The views and the panel ask overlayFor() and never branch on
// the query.
import type * as THREE from 'three';
import { castOverlay, describeCastResult } from './cast-overlay';
import { chungWangOverlay, describeChungWangResult } from './cw-overlay';
import { epaOverlay, describeEpaResult } from './epa-overlay';
import { gjkOverlay, describeGjkResult } from './gjk-overlay';
import { describeHullResult, hullOverlay } from './hull-overlay';
import { isHullTrace } from './hull-types';
import { describeSatResult, satOverlay } from './sat-overlay';
import type { ChungWangTrace, EpaTrace, GjkTrace, RaycastTrace, SatTrace, Scene, ShapecastTrace, Trace } from '../lib/index';

/** Any trace the page shows. */
export type AnyTrace = Trace;

export interface DrawContext {
  /** Radius of what the view shows (A − B with the origin, or both shapes): sets dash and arrow sizes. */
  scale: number;
  /** Length of direction and normal arrows in this view. */
  arrowLength: number;
  /** Centre of what the view shows (the shapes view sets it). */
  center?: THREE.Vector3;
}

/** A row of the values table: name, value, and optionally a class ('ok' or 'pending'). */
export type Row = [string, string, string?];

export interface FrameOverlay {
  /** Draw the frame in the Minkowski-difference view (group is empty on entry). */
  minkowski?(g: THREE.Group, ctx: DrawContext): void;
  /** Draw the frame's points on the shapes A and B (world space). */
  shapes?(g: THREE.Group, ctx: DrawContext): void;
  /** Draw the frame in the hull view (the point cloud's space). */
  hull?(g: THREE.Group, ctx: DrawContext): void;
  /** The values table. */
  values(): Row[];
}

export function isEpaTrace(t: AnyTrace | null): t is EpaTrace {
  return t !== null && t.query === 'penetration';
}

export function isSatTrace(t: AnyTrace | null): t is SatTrace {
  return t !== null && t.query === 'sat';
}

export function isCastTrace(t: AnyTrace | null): t is RaycastTrace | ShapecastTrace {
  return t !== null && (t.query === 'raycast' || t.query === 'shapecast');
}

export function isChungWangTrace(t: AnyTrace | null): t is ChungWangTrace {
  return t !== null && t.query === 'chungwang';
}

/** The overlay of frame `index`; `scene` is the scene the trace came from (the casts draw its ray or motion). */
export function overlayFor(trace: AnyTrace | null, index: number, scene?: Scene): FrameOverlay | null {
  if (!trace) return null;
  if (isHullTrace(trace)) {
    const f = trace.frames[index];
    return f ? hullOverlay(f, trace) : null;
  }
  if (isEpaTrace(trace)) {
    const f = trace.frames[index];
    return f ? epaOverlay(f, trace) : null;
  }
  if (isSatTrace(trace)) {
    const f = trace.frames[index];
    return f ? satOverlay(f, trace) : null;
  }
  if (isCastTrace(trace)) {
    const f = trace.frames[index];
    return f ? castOverlay(f, trace, scene) : null;
  }
  if (isChungWangTrace(trace)) {
    const f = trace.frames[index];
    return f ? chungWangOverlay(f, trace) : null;
  }
  const gjk = trace as GjkTrace;
  const f = gjk.frames[index];
  return f ? gjkOverlay(f, gjk) : null;
}

/** One sentence with the trace's result. */
export function describeResult(trace: AnyTrace): string {
  if (isHullTrace(trace)) return describeHullResult(trace);
  if (isEpaTrace(trace)) return describeEpaResult(trace);
  if (isSatTrace(trace)) return describeSatResult(trace);
  if (isCastTrace(trace)) return describeCastResult(trace);
  if (isChungWangTrace(trace)) return describeChungWangResult(trace);
  return describeGjkResult(trace as GjkTrace);
}

/** Heading of the pseudocode panel. */
export function algorithmName(trace: AnyTrace | null): string {
  if (isHullTrace(trace)) return 'Quickhull';
  if (isSatTrace(trace)) return 'Separating-axis test';
  if (isCastTrace(trace)) return trace.query === 'raycast' ? 'GJK ray cast' : 'GJK shape cast';
  if (isChungWangTrace(trace)) return 'Chung–Wang';
  return isEpaTrace(trace) ? 'EPA (after GJK)' : 'GJK';
}

export type AlgorithmMode = 'gjk' | 'epa' | 'hull' | 'sat' | 'cast' | 'cw';

/** The page's mode: which views, panels and legend entries are shown. */
export function algorithmMode(trace: AnyTrace | null): AlgorithmMode {
  if (isHullTrace(trace)) return 'hull';
  if (isSatTrace(trace)) return 'sat';
  if (isCastTrace(trace)) return 'cast';
  if (isChungWangTrace(trace)) return 'cw';
  return isEpaTrace(trace) ? 'epa' : 'gjk';
}
