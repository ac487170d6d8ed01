// Captions and pseudocode come from web/lib/captions.ts. tests/js/fixtures/captions.json holds, for one scene per
// (query, frame kind, reason), the pseudocode and captions that the C++ core wrote before the text moved out of
// it (printed by that build, an independent implementation): trace() must read exactly the same.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { pseudocodeOf } from '../../web/lib/captions';
import { init, run, trace, type Scene, type Trace } from '../../web/lib/index';

interface Fixture {
  pseudocode: Record<string, string[]>;
  traces: { scene: Scene; captions: string[] }[];
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/captions.json', import.meta.url), 'utf8')) as Fixture;

beforeAll(async () => {
  await init();
});

describe('captions as the C++ core wrote them', () => {
  for (const [query, lines] of Object.entries(fixture.pseudocode)) {
    it(`pseudocode of ${query}`, () => {
      expect(pseudocodeOf(query as Trace['query'])).toEqual(lines);
    });
  }
  fixture.traces.forEach(({ scene, captions }, i) => {
    it(`scene ${i} (${scene.query}): every frame's caption`, () => {
      const t = trace(scene);
      expect(t.pseudocode).toEqual(fixture.pseudocode[scene.query]);
      expect(t.frames.map((f) => f.caption)).toEqual(captions);
      for (const f of t.frames) {
        expect(f.caption.length).toBeGreaterThan(0);
        expect(f.line).toBeGreaterThanOrEqual(1);
        expect(f.line).toBeLessThanOrEqual(t.pseudocode.length);
      }
    });
  });
  it('covers every query with a trace', () => {
    expect(new Set(fixture.traces.map((t) => t.scene.query))).toEqual(
      new Set(['intersect', 'distance', 'penetration', 'hull', 'sat', 'raycast', 'shapecast', 'chungwang']));
  });
});

describe('trace() keeps the shape of the JSON', () => {
  it('puts pseudocode after query and the caption last (hull: after iteration)', () => {
    const gjk = trace({ version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: 1 }, { type: 'sphere', radius: 1, position: [3, 0, 0] }] });
    expect(Object.keys(gjk).slice(0, 3)).toEqual(['query', 'pseudocode', 'frames']);
    expect(Object.keys(gjk.frames[0]).at(-1)).toBe('caption');
    const hull = trace({ version: 1, query: 'hull', shapes: [{ type: 'box', halfExtents: [1, 2, 3] }] });
    expect(Object.keys(hull.frames[0]).slice(0, 4)).toEqual(['kind', 'line', 'iteration', 'caption']);
  });
  it('ends a GJK trace with the result in a sentence', () => {
    const scene: Scene = { version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: 1 }, { type: 'box', halfExtents: [1, 1, 1], position: [3, 0, 0] }] };
    const t = trace(scene);
    const r = run(scene) as { distance: number; iterations: number; status: string };
    expect(r.distance).toBe(1);
    expect(t.frames.at(-1)!.caption).toBe(`Result: distance 1 after ${r.iterations} iteration${r.iterations === 1 ? '' : 's'} (${r.status}).`);
  });
});
