// SAT frames (query "sat") in the side panel: the candidate axis, the intervals on it, the best axis so far,
// and the result.
import { axisKindName } from '../lib/captions';
import type { SatFrame, SatTrace } from '../lib/index';
import { fmt, fmtVec } from '../lib/draw/format';
import { axesTested, shownAxis } from '../lib/draw/sat';
import type { Row } from './query-view';

function interval(a: number, b: number): string {
  return `[${fmt(a)}, ${fmt(b)}]`;
}

export function satRows(frame: SatFrame, trace: SatTrace): Row[] {
  const rows: Row[] = [];
  const n = axesTested(trace);
  const skippedSoFar = trace.frames.slice(0, trace.frames.indexOf(frame) + 1).filter((f) => f.kind === 'skip').length;
  if (frame.kind === 'prepare') {
    rows.push(['candidate axes tested', String(n)]);
    rows.push(['parallel pairs skipped', String(trace.frames.filter((f) => f.kind === 'skip').length)]);
    rows.push(['kinds', [...new Set(trace.frames.filter((f) => f.kind === 'axis').map((f) => f.axisKind))].join(', ') || '—']);
    rows.push(['lines drawn', 'amber: faces of A, blue: faces of B, grey: edge × edge and others']);
  } else if (frame.kind === 'skip') {
    rows.push(['candidate', `skipped (${frame.axisKind})`, 'pending']);
    rows.push(['why', frame.axisKind === 'flat-side'
      ? 'an edge ∥ the flat shape\'s normal n: |n × ê| ≤ 1e-10'
      : 'an edge of A ∥ an edge of B: |â × b̂| ≤ 1e-10']);
    rows.push(['axes tested so far', String(trace.frames.slice(0, trace.frames.indexOf(frame)).filter((f) => f.kind === 'axis').length)]);
  }
  const f = shownAxis(frame, trace);
  if (f) {
    rows.push([frame.kind === 'done' ? 'deciding axis' : 'axis', `${f.index + 1} / ${n}`]);
    rows.push(['kind', axisKindName(f.axisKind)]);
    rows.push(['axis L (A → B)', fmtVec(f.axis)]);
    rows.push(['[minA, maxA]', interval(f.minA, f.maxA)]);
    rows.push(['[minB, maxB]', interval(f.minB, f.maxB)]);
    rows.push(['A − B on L', interval(f.minA - f.maxB, f.maxA - f.minB)]);
    if (f.separates) rows.push(['gap minB − maxA', `${fmt(-f.overlap, 9)} > 0: separates`, 'ok']);
    else rows.push(['overlap maxA − minB', `${fmt(f.overlap, 9)}${f.overlap === 0 ? ` (touching, |·| ≤ ${fmt(f.tolerance, 3)})` : ''}`]);
    if (frame.kind === 'axis' && !f.separates) {
      const better = frame.best === frame.index;
      rows.push(['least so far?', better ? 'yes: new best axis' : 'no: not below the best so far', better ? 'ok' : undefined]);
    }
  }
  if (frame.kind !== 'prepare' && frame.best >= 0) {
    const best = trace.frames.find((x) => x.kind === 'axis' && x.index === frame.best);
    const what = frame.bestOverlap < 0 ? `gap ${fmt(-frame.bestOverlap, 9)}` : `overlap ${fmt(frame.bestOverlap, 9)}`;
    rows.push(['best so far', `axis ${frame.best + 1}${best ? ` (${best.axisKind})` : ''}: ${what}`]);
  }
  if (skippedSoFar && frame.kind !== 'skip') rows.push(['parallel pairs skipped', String(skippedSoFar)]);
  if (trace.marginA > 0 || trace.marginB > 0) rows.push(['r_A, r_B (in the intervals)', `${fmt(trace.marginA)}, ${fmt(trace.marginB)}`]);
  if (frame.kind === 'done') {
    const r = trace.result;
    rows.push(['result', r.intersecting ? 'intersecting' : 'separated', 'ok']);
    rows.push([r.intersecting ? 'depth' : 'gap', fmt(r.intersecting ? r.depth : r.gap, 9)]);
    rows.push(['axis', fmtVec(r.axis, 6)]);
    rows.push(['axes tested', String(r.axesTested)]);
    rows.push(['status', r.status, r.status === 'ok' ? 'ok' : 'pending']);
  }
  return rows;
}
