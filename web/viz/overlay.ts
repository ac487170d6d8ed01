// What the page draws and lists for one trace frame, by algorithm: gjk-overlay.ts (intersect, distance),
// epa-overlay.ts (penetration) and hull-overlay.ts (hull). The views and the panel ask overlayFor() and
// never branch on the query.
import type * as THREE from 'three';
import { epaOverlay, describeEpaResult } from './epa-overlay';
import { gjkOverlay, describeGjkResult } from './gjk-overlay';
import { describeHullResult, hullOverlay } from './hull-overlay';
import { isHullTrace } from './hull-types';
import type { EpaTrace, GjkTrace, Trace } from '../lib/index';

/** Any trace the page shows. */
export type AnyTrace = Trace;

export interface DrawContext {
  /** Radius of what the view shows (A − B with the origin, or both shapes): sets dash and arrow sizes. */
  scale: number;
  /** Length of direction and normal arrows in this view. */
  arrowLength: number;
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

export function overlayFor(trace: AnyTrace | null, index: number): FrameOverlay | null {
  if (!trace) return null;
  if (isHullTrace(trace)) {
    const f = trace.frames[index];
    return f ? hullOverlay(f, trace) : null;
  }
  if (isEpaTrace(trace)) {
    const f = trace.frames[index];
    return f ? epaOverlay(f, trace) : null;
  }
  const gjk = trace as GjkTrace;
  const f = gjk.frames[index];
  return f ? gjkOverlay(f, gjk) : null;
}

/** One sentence with the trace's result. */
export function describeResult(trace: AnyTrace): string {
  if (isHullTrace(trace)) return describeHullResult(trace);
  if (isEpaTrace(trace)) return describeEpaResult(trace);
  return describeGjkResult(trace as GjkTrace);
}

/** Heading of the pseudocode panel. */
export function algorithmName(trace: AnyTrace | null): string {
  if (isHullTrace(trace)) return 'Quickhull';
  return isEpaTrace(trace) ? 'EPA (after GJK)' : 'GJK';
}

/** The page's mode: which views, panels and legend entries are shown. */
export function algorithmMode(trace: AnyTrace | null): 'gjk' | 'epa' | 'hull' {
  if (isHullTrace(trace)) return 'hull';
  return isEpaTrace(trace) ? 'epa' : 'gjk';
}
