// A ray cast on a mesh in the side panel: the hit triangle, t, the barycentric coordinates, the point and the
// normal, and the tests the OBB tree ran against the brute-force count.
import type { MeshRaycastTrace } from '../lib/index';
import { fmt, fmtVec } from '../lib/draw/format';
import type { Row } from './query-view';

export function meshRayRows(frame: MeshRaycastTrace['frames'][number], trace: MeshRaycastTrace): Row[] {
  const r = trace.result;
  const rows: Row[] = [
    ['box tests', String(frame.boxTests)],
    ['triangle tests', `${frame.triangleTests} of ${frame.triangleCount}`],
  ];
  if (!frame.hit || r.t === null || r.point === null || r.normal === null) return [...rows, ['result', 'miss', 'ok']];
  return [
    ['triangle', String(frame.triangle), 'ok'],
    ['t', fmt(r.t, 12), 'ok'],
    ['barycentric (u, v, w)', r.barycentric ? fmtVec(r.barycentric, 6) : '—'],
    ['point', fmtVec(r.point, 6)],
    ['normal (CCW)', fmtVec(r.normal, 6)],
    ...rows,
  ];
}
