// Ray-cast and shape-cast frames in the side panel: λ and x, the support point and the tests on it, v, and
// the result.
import { castFrameData, type CastTrace } from '../lib/draw/cast';
import { fmt, fmtVec, len3 } from '../lib/draw/format';
import { fmtVecPair } from './vec-pair';
import type { CastFrame, Vec3 } from '../lib/index';
import type { Row } from './query-view';

export function castRows(frame: CastFrame, trace: CastTrace): Row[] {
  const d = castFrameData(frame, trace);
  const rows: Row[] = [];
  const rho = frame.radius;
  const vNorm = Math.sqrt(Math.max(0, frame.vv));
  rows.push(['iteration', String(frame.iteration)]);
  if (frame.kind === 'support' && frame.updated && !(frame.newLambda > frame.oldLambda)) {
    rows.push(['λ (unchanged)', fmt(frame.lambda, 9)]);
  } else if (frame.kind === 'support' && frame.updated) {
    rows.push(['λ (old → new)', `${fmt(frame.oldLambda, 9)} → ${fmt(frame.newLambda, 9)}`, 'pending']);
  } else if (frame.kind === 'done' && !trace.result.hit) {
    rows.push(['λ', '— (miss)']);
  } else {
    rows.push(['λ', fmt(frame.lambda, 9)]);
  }
  rows.push([frame.kind === 'done' && !trace.result.hit ? 'last x' : d.shapeCast ? 'x = λr' : 'x = s + λr', fmtVec(frame.x, 5)]);
  if (frame.kind === 'support' && frame.updated) rows.push(['x tested (old)', fmtVec(d.xBefore, 5)]);
  if (frame.supportPoint) {
    rows.push([frame.kind === 'init' ? 'p₀ (first point of C)' : 'p = s_C(v)', fmtVec(frame.supportPoint, 5)]);
    if (d.shapeCast && frame.support) {
      rows.push(['a on A, b on B', `${fmtVec(frame.support.a)}, ${fmtVec(frame.support.b)}`]);
    }
  }
  if (frame.kind === 'support' && frame.support) {
    rows.push(['w = x − p', fmtVec(frame.support.w, 5)]);
    const front = frame.vw > frame.threshold;
    rows.push([rho > 0 ? 'v·w vs ρ‖v‖' : 'v·w vs 0', `${fmt(frame.vw, 7)} ${front ? '>' : '≤'} ${fmt(frame.threshold, 6)}`
      + (front ? ': x in front' : ': x behind'), front ? 'pending' : 'ok']);
    if (front) {
      const away = !(frame.vr < 0);
      const says = away ? '≥ 0: miss' : frame.reason === 'beyond-max-t' ? '< 0, but the plane lies beyond maxT: miss'
        : frame.updated && frame.newLambda > frame.oldLambda ? '< 0: λ advances' : '< 0: λ stays (the plane passes through x)';
      rows.push(['v·r', `${fmt(frame.vr, 7)} ${says}`, away ? undefined : 'ok']);
    } else {
      rows.push(['v·r', '— (not needed)']);
    }
  }
  if (frame.kind !== 'done' || vNorm > 0) rows.push([frame.kind === 'support' ? 'v (search)' : 'v', fmtVec(frame.v, 5)]);
  rows.push(['‖v‖', fmt(vNorm, 9)]);
  if (rho > 0) rows.push(['ρ (radii)', fmt(rho, 9)]);
  if (frame.kind === 'simplex') {
    const gap = vNorm - rho;
    const ok = frame.reason === 'point-inside' || gap <= frame.tolerance;
    rows.push([rho > 0 ? '‖v‖ − ρ vs tolerance' : '‖v‖ vs tolerance', `${fmt(gap, 6)} ${ok ? '≤' : '>'} ${fmt(frame.tolerance, 3)}`, ok ? 'ok' : 'pending']);
  }
  rows.push(['|P|', String(frame.simplex.length)]);
  if (frame.simplex.length) rows.push(['weights', frame.simplex.map((s) => fmt(s.lambda, 4)).join(', ')]);
  if (frame.kind !== 'done' && len3(frame.normal) > 0) rows.push(['n (plane normal)', fmtVec(unit(frame.normal), 5)]);
  rows.push(['status', frame.reason]);
  if (frame.kind === 'done') {
    const r = trace.result;
    rows.push(['result', r.hit ? 'hit' : 'miss', r.hit ? 'ok' : undefined]);
    if (r.hit) {
      rows.push([d.shapeCast ? 'time of impact t' : 't', fmt(r.t, 12)]);
      if ('point' in r) rows.push(['point', fmtVec(r.point, 7)]);
      rows.push(['normal', r.normal ? fmtVec(r.normal, 7) : '— (overlap at the start)']);
      if ('pointA' in r) {
        const [pa, pb] = r.pointA && r.pointB ? fmtVecPair(r.pointA, r.pointB, 7) : [fmtVec(r.pointA, 7), fmtVec(r.pointB, 7)];
        rows.push(['pointA', pa]);
        rows.push(['pointB', pb]);
      }
    }
    rows.push(['iterations, status', `${r.iterations}, ${r.status}`]);
  }
  return rows;
}

/** a / ‖a‖ (a 2D trace's [x, y] stays two components). */
function unit(a: Vec3): Vec3 {
  const l = len3(a);
  const k = 1 / l;
  return l > 0 ? a.map((x) => x * k) as Vec3 : a;
}
