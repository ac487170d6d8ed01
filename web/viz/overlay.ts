// What the page draws and lists for one trace frame, by algorithm: gjk-overlay.ts (intersect, distance) and
// epa-overlay.ts (penetration). The views and the panel ask overlayFor() and never branch on the query.
import type * as THREE from 'three';
import { epaOverlay, describeEpaResult } from './epa-overlay';
import { gjkOverlay, describeGjkResult } from './gjk-overlay';
import type { EpaTrace, Trace } from '../lib/index';

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
  minkowski(g: THREE.Group, ctx: DrawContext): void;
  /** Draw the frame's points on the shapes A and B (world space). */
  shapes(g: THREE.Group, ctx: DrawContext): void;
  /** The values table. */
  values(): Row[];
}

export function isEpaTrace(t: Trace | null): t is EpaTrace {
  return t !== null && t.query === 'penetration';
}

export function overlayFor(trace: Trace | null, index: number): FrameOverlay | null {
  if (!trace) return null;
  if (isEpaTrace(trace)) {
    const f = trace.frames[index];
    return f ? epaOverlay(f, trace) : null;
  }
  const f = trace.frames[index];
  return f ? gjkOverlay(f, trace) : null;
}

/** One sentence with the trace's result. */
export function describeResult(trace: Trace): string {
  return isEpaTrace(trace) ? describeEpaResult(trace) : describeGjkResult(trace);
}

/** Heading of the pseudocode panel. */
export function algorithmName(trace: Trace | null): string {
  return isEpaTrace(trace) ? 'EPA (after GJK)' : 'GJK';
}
