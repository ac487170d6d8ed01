// The "pairs" query in the side panel: the step's kind, the sweep line's value, the active list, the box pairs
// so far, the candidates, and each narrow-phase step's answer; the trace's own numbers (PairsFrame), nothing
// recomputed.
import type { PairsTrace } from '../lib/index';
import { fmt } from '../lib/draw/format';
import type { Row } from './query-view';

const AXES = ['x', 'y', 'z'];
const list = (pairs: readonly (readonly number[])[]): string => (pairs.length ? pairs.map((p) => `(${p[0]}, ${p[1]})`).join(' ') : 'none');

export function pairsRows(frame: PairsTrace['frames'][number], trace: PairsTrace): Row[] {
  const rows: Row[] = [['step', frame.kind]];
  if (frame.kind === 'boxes') {
    const planes = frame.boxes.filter((b) => b.unbounded).length;
    rows.push(['shapes', String(frame.boxes.length)]);
    if (planes) rows.push(['planes (no box)', String(planes)]);
  }
  if (frame.kind === 'sort') {
    rows.push(['endpoints per list', String(frame.lists[0].length)],
      ['swept axis', frame.axis === null ? '— (fewer than 2 boxes)' : AXES[frame.axis]]);
  }
  if (frame.kind === 'sweep' && frame.endpoint) {
    rows.push(
      ['sweep value S', fmt(frame.endpoint.value, 6)],
      ['endpoint', `${frame.endpoint.isMin ? 'min' : 'max'} of shape ${frame.endpoint.shape} (list place ${frame.position})`],
      ['active list', frame.active.length ? frame.active.join(', ') : 'empty'],
      ['found here', list(frame.found), frame.found.length ? 'ok' : undefined],
      ['box pairs so far', `${frame.pairs.length}: ${list(frame.pairs)}`],
    );
  }
  if (frame.kind === 'narrow' && frame.pair) {
    rows.push(
      ['candidate', `${(frame.candidate ?? 0) + 1} of ${trace.result.candidates}: (${frame.pair[0]}, ${frame.pair[1]})${frame.planePair ? ', a plane' : ''}`],
      ['intersect()', `${frame.intersecting ? 'intersecting' : 'apart'} (${frame.iterations === 1 ? '1 GJK iteration' : `${frame.iterations} GJK iterations`})`, frame.intersecting ? 'ok' : undefined],
      ['pairs so far', list(frame.pairs)],
    );
  }
  rows.push(['candidates (narrow phase)', `${trace.result.candidates} (${trace.boxPairs} box pairs)`]);
  // The answer waits for the last frame, as every query's does.
  if (trace.frames[trace.frames.length - 1] === frame) rows.push(['answer', list(trace.result.pairs), 'ok']);
  if (trace.truncated) rows.push(['steps shown', 'the first ones only (cap); the answer is whole']);
  return rows;
}
