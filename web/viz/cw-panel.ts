// Chung–Wang frames (query "chungwang") in the side panel: s, p, q and the gap, the directions R and the
// hemisphere test, the next s, and the result.
import type { ChungWangFrame, ChungWangTrace, Vec3 } from '../lib/index';
import { clockwise, indexOf, previousW, rName } from '../lib/draw/chungwang';
import { dot3, fmt, fmtVec } from '../lib/draw/format';
import type { Row } from './query-view';

const OUTCOME: Record<string, string> = {
  first: 'yes (first r: w = r)',
  'keep-w': 'yes (old w still has w·r ≥ 0)',
  fits: 'yes (w·r < 0; projections fit a half-plane)',
  'no-half-plane': 'no (projections surround O)',
  failed: 'no',
};

export function chungWangRows(frame: ChungWangFrame, trace: ChungWangTrace): Row[] {
  const rows: Row[] = [];
  rows.push(['iteration', String(frame.iteration)]);
  rows.push(['s', fmtVec(frame.s)]);
  rows.push(['p = S_A(s)', fmtVec(frame.p)]);
  rows.push(['q = S_B(−s)', fmtVec(frame.q)]);
  const margins = trace.marginA > 0 || trace.marginB > 0;
  if (margins) {
    rows.push(['r_A, r_B', `${fmt(trace.marginA)}, ${fmt(trace.marginB)}`]);
    if (frame.pCore) rows.push(['p core, q core', `${fmtVec(frame.pCore)}, ${fmtVec(frame.qCore)}`]);
  }
  if (frame.gap !== null) {
    const ok = frame.gap > frame.tolerance;
    rows.push(['gap s·(q − p)', `${fmt(frame.gap, 9)} ${ok ? '>' : '≤'} τ = ${fmt(frame.tolerance, 3)}`, ok ? 'ok' : 'pending']);
  } else {
    rows.push(['gap s·(q − p)', '—']);
  }
  rows.push(['r = (q − p)/‖q − p‖', fmtVec(frame.r)]);
  rows.push(['|R|', String(frame.directions.length)]);
  const pl = frame.plane;
  const outcome = frame.kind === 'hemisphere' ? (pl?.outcome ?? (frame.directions.length === 1 ? 'first' : frame.hemisphere ? 'keep-w' : 'failed')) : null;
  const holds = outcome ? (OUTCOME[outcome] ?? outcome) : frame.directions.length === 0 ? '— (R is empty)' : frame.hemisphere ? 'yes' : 'no';
  rows.push(['hemisphere holds R', holds, frame.hemisphere ? undefined : 'pending']);
  rows.push(['w', fmtVec(frame.w)]);
  // The sub-algorithm's quick test: the w of the step before against the new r.
  const quick = (w: Vec3 | null, name: string) => {
    if (!w || !frame.r) return;
    const d = dot3(w, frame.r);
    rows.push([name, `${fmt(d, 6)} ${d >= 0 ? '≥ 0: w still fits' : '< 0: w must move ⊥ r'}`]);
  };
  if (frame.kind === 'support' && frame.gap !== null && frame.gap <= frame.tolerance) quick(frame.w, 'w·r (quick test)');
  if (frame.kind === 'hemisphere' && frame.directions.length > 1) quick(previousW(trace, indexOf(frame, trace)), 'old w·r (quick test)');
  if (pl) {
    const wedge = pl.wedge;
    if (wedge) {
      const theta = wedge.ia === wedge.ib ? 0 : clockwise(wedge.ra, wedge.rb);
      rows.push(['wedge r_a → r_b (clockwise)', `${rName(wedge.ia)}′ → ${rName(wedge.ib)}′, θ = ${fmt((theta * 180) / Math.PI, 4)}°`]);
    } else {
      rows.push(['wedge r_a → r_b', '— (every r_j ∥ r)']);
    }
    if (pl.steps.length) rows.push(['sweep', pl.steps.map((st) => `${rName(st.index)}′ ${st.case}`).join(', ')]);
  }
  if (frame.nextS) {
    rows.push([frame.kind === 'switch' ? 'next s ← w (tilted inwards)' : "next s' = s − 2(r·s) r", fmtVec(frame.nextS)]);
    if (frame.kind === 'reflect' && frame.r) rows.push(['r·s', fmt(dot3(frame.r, frame.s), 6)]);
  } else {
    rows.push(['next s', '—']);
  }
  if (frame.kind === 'done') {
    const r = trace.result;
    rows.push(['result', r.intersecting ? 'intersecting' : 'separated', r.intersecting ? 'pending' : 'ok']);
    rows.push(['status', r.status]);
    if (r.separatingAxis) rows.push(['separating axis', fmtVec(r.separatingAxis, 6)]);
  }
  return rows;
}
