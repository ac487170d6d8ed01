// EPA frames (penetration) in the side panel: the estimate, the gap of the termination test, and the result.
import type { EpaFrame, EpaTrace } from '../lib/index';
import { dot3, fmt, fmtVec, len3 } from '../lib/draw/format';
import { fmtVecPair } from './vec-pair';
import type { Row } from './query-view';

export function epaRows(frame: EpaFrame, trace: EpaTrace): Row[] {
  const rows: Row[] = [];
  rows.push(['iteration', String(frame.iteration)]);
  if (frame.vertices.length) {
    // A frame without a current estimate (the seed; the expand frames of the current trace) has a zero normal.
    const known = len3(frame.normal) > 0;
    // A refined frame's depth and normal are h(n) at the normal walked downhill (an upper bound), and its gap is
    // h(n) minus the nearest face's distance.
    const refined = frame.reason === 'refined';
    rows.push([refined ? 'depth h(n) (refined)' : 'depth d (nearest face)', known ? fmt(frame.depth, 9) : '—']);
    if (refined && frame.gap !== null) rows.push(['nearest face d', fmt(frame.depth - frame.gap, 9)]);
    rows.push(['normal n', known ? fmtVec(frame.normal) : '—']);
    if (frame.support) {
      rows.push(['w', fmtVec(frame.support.w)]);
      rows.push(['n·w', fmt(dot3(frame.normal, frame.support.w), 9)]);
    }
    if (frame.gap !== null) {
      const ok = frame.gap <= frame.tolerance;
      rows.push([refined ? 'gap h(n) − d' : 'gap n·w − d', `${fmt(frame.gap)} ${ok ? '≤' : '>'} ${fmt(frame.tolerance, 3)}`, ok ? 'ok' : 'pending']);
    }
    rows.push(['faces', String(frame.faces.length)]);
    rows.push(['vertices', String(frame.vertices.length)]);
    if (frame.kind === 'expand') {
      rows.push(['removed / horizon / new', `${frame.removed.length} / ${frame.horizon.length} / ${frame.added.length}`]);
    }
  }
  pushMarginAndResultRows(rows, frame.kind === 'done', frame.vertices.length > 0, frame.depth, trace);
  return rows;
}

/** What a 3D or a planar EPA trace gives to the margins' rows and, at the last frame, to the result's. */
export interface EpaTraceEnd {
  marginA: number;
  marginB: number;
  result: { depth: number; intersecting: boolean; normal: readonly number[]; pointA: readonly number[]; pointB: readonly number[] };
}

/** The rows the 3D and the planar EPA share: the margins (and the depth with them), then the result at the end. */
export function pushMarginAndResultRows(rows: Row[], last: boolean, hasPolytope: boolean, depth: number, trace: EpaTraceEnd): void {
  if (trace.marginA > 0 || trace.marginB > 0) {
    rows.push(['r_A, r_B', `${fmt(trace.marginA)}, ${fmt(trace.marginB)}`]);
    if (hasPolytope) rows.push(['d + r_A + r_B', fmt(depth + trace.marginA + trace.marginB, 9)]);
  }
  if (last) {
    const r = trace.result;
    rows.push(['result depth', fmt(r.depth, 9), r.intersecting ? 'ok' : undefined]);
    rows.push(['result normal', fmtVec(r.normal, 6)]);
    const [pa, pb] = fmtVecPair(r.pointA, r.pointB);
    rows.push(['pointA', pa]);
    rows.push(['pointB', pb]);
  }
}
