// GJK frames (intersect, distance) in the side panel: the values of the termination test.
import type { GjkFrame, GjkTrace } from '../lib/index';
import { fmt, fmtVec, len3 } from '../lib/draw/format';
import { fmtVecPair } from './vec-pair';
import type { Row } from './query-view';

export function gjkRows(frame: GjkFrame, trace: GjkTrace): Row[] {
  const rows: Row[] = [];
  const vnorm = len3(frame.v);
  rows.push(['iteration', String(frame.iteration)]);
  rows.push([frame.simplex.length ? 'v' : 'v (direction)', fmtVec(frame.v)]);
  rows.push(['‖v‖', fmt(vnorm)]);
  rows.push(['‖v‖²', fmt(frame.vv)]);
  rows.push(['w', frame.support ? fmtVec(frame.support.w) : '—']);
  rows.push(['v·w', fmt(frame.vw)]);
  if (frame.gap !== null) {
    const ok = frame.gap <= frame.tolerance;
    rows.push(['gap ‖v‖² − v·w', `${fmt(frame.gap)} ${ok ? '≤' : '>'} ${fmt(frame.tolerance, 3)}`, ok ? 'ok' : 'pending']);
  }
  rows.push(['|W|', String(frame.simplex.length)]);
  if (frame.simplex.length) rows.push(['weights λ', frame.simplex.map((x) => fmt(x.lambda, 4)).join(', ')]);
  if (trace.marginA > 0 || trace.marginB > 0) {
    rows.push(['r_A, r_B', `${fmt(trace.marginA)}, ${fmt(trace.marginB)}`]);
    if (frame.simplex.length) rows.push(['‖v‖ − r_A − r_B', fmt(vnorm - trace.marginA - trace.marginB)]);
  }
  const r = trace.result;
  if (frame.kind === 'done' && 'distance' in r) {
    rows.push(['result distance', fmt(r.distance, 9), 'ok']);
    // Closest points a tiny gap apart far from the origin need more digits to be told apart.
    const [pa, pb] = fmtVecPair(r.pointA, r.pointB);
    rows.push(['pointA', pa]);
    rows.push(['pointB', pb]);
  }
  return rows;
}
