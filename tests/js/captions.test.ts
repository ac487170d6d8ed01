// Captions, pseudocode and result sentences come from web/lib/captions.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, resultSentence, run, trace, type Scene } from '../../web/lib/index';

beforeAll(async () => {
  await init();
});

describe('trace() keeps the shape of the JSON', () => {
  it('puts pseudocode after query and the caption last (hull: after iteration)', () => {
    const gjk = trace({ version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: 1 }, { type: 'sphere', radius: 1, position: [3, 0, 0] }] });
    expect(Object.keys(gjk).slice(0, 3)).toEqual(['query', 'pseudocode', 'frames']);
    expect(Object.keys(gjk.frames[0]).at(-1)).toBe('caption');
    const hull = trace({ version: 1, query: 'hull', shapes: [{ type: 'box', halfExtents: [1, 2, 3] }] });
    expect(Object.keys(hull.frames[0]).slice(0, 4)).toEqual(['kind', 'line', 'iteration', 'caption']);
  });
  it('ends a trace with its result sentence', () => {
    const scene: Scene = { version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: 1 }, { type: 'box', halfExtents: [1, 1, 1], position: [3, 0, 0] }] };
    const t = trace(scene);
    const r = run(scene) as { distance: number; iterations: number; status: string };
    expect(r.distance).toBe(1);
    expect(t.frames.at(-1)!.caption).toBe(`Distance 1 between (1, 0, 0) on A and (2, 0, 0) on B (${r.iterations} iteration${r.iterations === 1 ? '' : 's'}, ${r.status}).`);
    expect(resultSentence(t)).toBe(t.frames.at(-1)!.caption);
  });
});
