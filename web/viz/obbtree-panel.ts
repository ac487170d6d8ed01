// The "obbtree" query in the side panel: the tree's numbers, the current step's node pair and counts, and for a
// pair the volume tests against the seed's bounds (2·log₂ n² + 1 for one contact, the k-contact bounds, and the
// path bound of the first touching pair's leaves).
import type { ObbTreeTrace } from '../lib/index';
import { fmt } from '../lib/draw/format';
import type { Row } from './query-view';

export function obbTreeRows(frame: ObbTreeTrace['frames'][number], trace: ObbTreeTrace): Row[] {
  const r = trace.result;
  const rows: Row[] = [
    ['A: triangles / nodes / levels', `${r.triangles} / ${r.nodes} / ${r.depth}`],
    ['splits (mean / median)', `${r.meanSplits} / ${r.medianSplits}`],
  ];
  if (frame.kind === 'level') rows.push(['level', `${frame.level} (${frame.nodes.length} nodes${frame.levelCut ? ', cut at the cap' : ''})`]);
  if (frame.kind === 'step') {
    rows.push(['node pair', `A ${frame.nodeA}, ${frame.nodeB === null ? 'B\'s box' : `B ${frame.nodeB}`}`]);
    rows.push(['step', frame.event === 'box-apart' ? `box apart on axis ${frame.axis} (${frame.axisKind})` : String(frame.event)]);
    if (frame.event === 'triangle' && frame.triangleB === null) {
      rows.push(['triangle', `${frame.triangleA} vs B: ${frame.hit ? 'touching' : 'apart'}${frame.firstHit ? ' (the answer)' : ''}`, frame.hit ? 'ok' : undefined],
        ['GJK iterations', String(frame.iterations)]);
      if (frame.distance !== null) rows.push(['distance (measured for the view)', fmt(frame.distance, 6)]);
    } else if (frame.event === 'triangle') {
      rows.push(['triangles', `${frame.triangleA} × ${frame.triangleB}: ${frame.hit ? 'intersect' : 'apart'}`, frame.hit ? 'ok' : undefined]);
    }
  }
  if (r.mode === 'tree') return rows;
  rows.push(['node pairs so far', String(frame.nodePairs)], ['box tests so far', String(frame.boxTests)],
    ['triangle tests so far', String(frame.triangleTests)]);
  // The answer waits for the last frame, as every query's does (predict mode asks for it first).
  if (frame.kind === 'done') rows.push(['answer', r.intersecting ? 'intersecting' : 'apart', 'ok']);
  rows.push(
    ['volume tests (D + I)', String(r.nodePairs)],
    ['seed: one contact 2·log₂(nA·nB) + 1', fmt(r.singleContactBound ?? 0, 4)],
    [`seed: k = ${r.contacts} contacts, lower … upper`, `${fmt(r.lowerBound ?? 0, 4)} … ${fmt(r.upperBound ?? 0, 4)}`],
    ['path bound 2(ℓA + ℓB) + 1', r.pathBound === null ? '— (no contact)' : String(r.pathBound)],
  );
  if (r.stepsTruncated) rows.push(['steps shown', 'the first 2000 (cap)']);
  return rows;
}
