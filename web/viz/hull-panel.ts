// Quickhull frames (query "hull") in the side panel: faces, conflict lists, the eye, and the result.
import type { HullFrame, HullTrace } from '../lib/index';
import { fmt, fmtVec } from '../lib/draw/format';
import { eyeFace, inputPoints } from '../lib/draw/quickhull';
import type { Row } from './query-view';

export function hullRows(frame: HullFrame, trace: HullTrace): Row[] {
  const P = inputPoints(trace);
  const rows: Row[] = [];
  rows.push(['iteration', String(frame.iteration)]);
  rows.push(['input points', String(P.length)]);
  rows.push(['faces', String(frame.faces.length)]);
  rows.push(['hull vertices', String(new Set(frame.faces.flatMap((f) => f.v)).size)]);
  const left = frame.faces.reduce((s, f) => s + f.conflicts.length, 0);
  rows.push(['points left (in conflict lists)', String(left), left === 0 && frame.faces.length ? 'ok' : undefined]);
  const withConflicts = frame.faces.filter((f) => f.conflicts.length).length;
  if (frame.faces.length) rows.push(['faces with conflict points', String(withConflicts)]);
  if (frame.eye !== null) {
    rows.push(['eye', `#${frame.eye} ${fmtVec(P[frame.eye])}`]);
    const ef = eyeFace(frame, P);
    if (ef) rows.push(['eye distance (to face ' + ef.face.id + ')', fmt(ef.distance, 6)]);
  }
  if (frame.kind === 'visible' || frame.kind === 'horizon' || frame.kind === 'cone') {
    rows.push(['visible / horizon / new', `${frame.visible.length} / ${frame.horizon.length} / ${frame.added.length}`]);
  }
  if (frame.kind === 'done' || frame.kind === 'degenerate') {
    const r = trace.result;
    rows.push(['result', r.kind]);
    rows.push(['vertices', String(r.vertices?.length ?? 0)]);
    rows.push(['triangles', String(r.faces?.length ?? 0)]);
    if (r.polygons) rows.push(['faces (coplanar merged)', String(r.polygons.length)]);
  }
  return rows;
}
