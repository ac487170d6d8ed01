// Planar EPA frames (penetration of a 2D scene) in the side panel: the nearest edge, the gap of the termination
// test, the polygon's size, and the result; vectors with their two components.
import type { PlanarEpaFrame, PlanarEpaTrace } from '../lib/index';
import { dot3, fmt, fmtVec, len3 } from '../lib/draw/format';
import { pushMarginAndResultRows } from './epa-panel';
import type { Row } from './query-view';

export function planarEpaRows(frame: PlanarEpaFrame, trace: PlanarEpaTrace): Row[] {
  const rows: Row[] = [];
  rows.push(['iteration', String(frame.iteration)]);
  const n = frame.vertices.length;
  if (n) {
    const known = len3(frame.normal) > 0;
    rows.push(['depth d (nearest edge)', known ? fmt(frame.depth, 9) : '—']);
    rows.push(['normal n', known ? fmtVec(frame.normal) : '—']);
    if (frame.closest !== null && frame.closest < n) {
      const i = frame.closest;
      rows.push(['nearest edge', `${fmtVec(frame.vertices[i].w)} → ${fmtVec(frame.vertices[(i + 1) % n].w)}`]);
    }
    if (frame.support) {
      rows.push(['w', fmtVec(frame.support.w)]);
      rows.push(['n·w', fmt(dot3(frame.normal, frame.support.w), 9)]);
    }
    if (frame.gap !== null) {
      const ok = frame.gap <= frame.tolerance;
      rows.push(['gap n·w − d', `${fmt(frame.gap)} ${ok ? '≤' : '>'} ${fmt(frame.tolerance, 3)}`, ok ? 'ok' : 'pending']);
    }
    rows.push(['vertices of P', String(n)]);
    if (frame.kind === 'expand') rows.push(['vertices dropped', String(frame.removed.length)]);
  }
  pushMarginAndResultRows(rows, frame.kind === 'done', n > 0, frame.depth, trace);
  return rows;
}
