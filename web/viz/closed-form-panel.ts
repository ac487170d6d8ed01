// A closed form's one frame in the side panel: the cores' closest points p, q and their distance d, the radii and
// the rounding bound, the comparison the answer comes from, and the answer (vectors of a 2D trace with two components).
// A centre inside a box shows the nearest face instead; two boxes show the axis of least overlap (or the separating
// one), its kind and its overlap.
import { closedFormAxisName, closedFormTitle } from '../lib/captions';
import type { ClosedFormFrame, ClosedFormTrace } from '../lib/index';
import { fmt, fmtVec } from '../lib/draw/format';
import { fmtVecPair } from './vec-pair';
import type { Row } from './query-view';

export function closedFormRows(frame: ClosedFormFrame, trace: ClosedFormTrace): Row[] {
  if (frame.form === 'box-box') return boxBoxRows(frame, trace);
  const d = frame.coreDistance;
  const radius = frame.radiusA + frame.radiusB;
  if (frame.axisKind !== null) {
    // A centre inside a box: its projection on the nearest face, and the answer across that face.
    const rows: Row[] = [
      ['closed form', closedFormTitle(frame.form)],
      ['p (core of A)', fmtVec(frame.coreA, 6)],
      ['q (core of B)', fmtVec(frame.coreB, 6)],
      ['nearest face', closedFormAxisName(frame)],
      ['distance to it', fmt(d, 9)],
      ['r_A, r_B', `${fmt(frame.radiusA)}, ${fmt(frame.radiusB)}`],
    ];
    return [...rows, ...answerRows(trace)];
  }
  const rows: Row[] = [
    ['closed form', closedFormTitle(frame.form)],
    ['p (core of A)', fmtVec(frame.coreA, 6)],
    ['q (core of B)', fmtVec(frame.coreB, 6)],
    ['d = ‖q − p‖', fmt(d, 9)],
    ['r_A, r_B', `${fmt(frame.radiusA)}, ${fmt(frame.radiusB)}`],
    ['touching bound τ', fmt(frame.touching, 3)],
  ];
  switch (trace.query) {
    case 'intersect': {
      const ok = d <= radius + frame.touching;
      rows.push(['d vs r_A + r_B + τ', `${fmt(d)} ${ok ? '≤' : '>'} ${fmt(radius + frame.touching)}`, ok ? 'ok' : 'pending']);
      rows.push(['result', trace.result.intersecting ? 'intersecting' : 'separated', 'ok']);
      break;
    }
    case 'distance': {
      const r = trace.result;
      rows.push(['d − r_A − r_B', fmt(d - radius, 9)]);
      rows.push(['result distance', fmt(r.distance, 9), 'ok']);
      const [pa, pb] = fmtVecPair(r.pointA, r.pointB);
      rows.push(['pointA', pa], ['pointB', pb]);
      break;
    }
    case 'penetration': {
      const r = trace.result;
      rows.push(['r_A + r_B − d', fmt(radius - d, 9)]);
      rows.push(['result depth', fmt(r.depth, 9), r.intersecting ? 'ok' : undefined]);
      rows.push(['result normal', fmtVec(r.normal, 6)]);
      const [pa, pb] = fmtVecPair(r.pointA, r.pointB);
      rows.push(['pointA', pa], ['pointB', pb]);
      break;
    }
  }
  return rows;
}

/** The answer's rows, from the result alone. */
function answerRows(trace: ClosedFormTrace): Row[] {
  switch (trace.query) {
    case 'intersect':
      return [['result', trace.result.intersecting ? 'intersecting' : 'separated', 'ok']];
    case 'distance': {
      const r = trace.result;
      const [pa, pb] = fmtVecPair(r.pointA, r.pointB);
      return [['result distance', fmt(r.distance, 9), 'ok'], ['pointA', pa], ['pointB', pb]];
    }
    case 'penetration': {
      const r = trace.result;
      const [pa, pb] = fmtVecPair(r.pointA, r.pointB);
      return [
        ['result depth', fmt(r.depth, 9), r.intersecting ? 'ok' : undefined],
        ['result normal', fmtVec(r.normal, 6)],
        ['pointA', pa], ['pointB', pb],
      ];
    }
  }
}

function boxBoxRows(frame: ClosedFormFrame, trace: ClosedFormTrace): Row[] {
  const overlap = frame.overlap ?? 0;
  const rows: Row[] = [
    ['closed form', closedFormTitle(frame.form)],
    ['axis', closedFormAxisName(frame)],
    ['L (A → B)', fmtVec(frame.axis ?? [0, 0, 0], 6)],
    ['overlap along L', fmt(overlap, 9), overlap >= 0 ? 'ok' : 'pending'],
    ['r_A, r_B', `${fmt(frame.radiusA)}, ${fmt(frame.radiusB)}`],
    ['touching bound τ', fmt(frame.touching, 3)],
  ];
  if (trace.query === 'penetration') rows.push(['p, q (contact on the cores)', `${fmtVec(frame.coreA, 6)}, ${fmtVec(frame.coreB, 6)}`]);
  return [...rows, ...answerRows(trace)];
}
