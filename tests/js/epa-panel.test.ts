// The EPA side panel's rows on a refined last step: identical cylinders at one pose fill EPA's polytope, whose
// normal is then walked downhill on h(n) = n·s(n); the panel must label that depth as h(n), not as the nearest
// face's distance, and show both. Reference: the depth of two identical cylinders at one pose is 2·min(r, h)
// (the shorter way out: across the side, 2r, or along the axis, 2h).
import { beforeAll, describe, expect, it } from 'vitest';
import { init, trace, type EpaFrame, type EpaTrace, type Scene } from '../../web/lib/index';
import { epaRows } from '../../web/viz/epa-panel';

beforeAll(async () => {
  await init();
});

const rowsOf = (f: EpaFrame, t: EpaTrace) => new Map(epaRows(f, t).map((r) => [r[0], r[1]]));

describe('EPA panel', () => {
  it('labels a refined depth as h(n) and shows the nearest face below it', () => {
    const cyl = { type: 'cylinder', radius: 0.5, halfHeight: 0.7 };
    const scene = { version: 1, query: 'penetration', shapes: [{ ...cyl, position: [0, 0, 0] }, { ...cyl, position: [0, 0, 0] }] } as Scene;
    const t = trace(scene) as unknown as EpaTrace;
    const last = t.frames[t.frames.length - 1];
    expect(last.reason).toBe('refined');
    const rows = rowsOf(last, t);
    const refined = Number(rows.get('depth h(n) (refined)'));
    const nearest = Number(rows.get('nearest face d'));
    expect(refined).toBeCloseTo(2 * Math.min(0.5, 0.7), 9);
    expect(nearest).toBeLessThan(refined);
    expect(nearest).toBeGreaterThan(0.99);
    expect(rows.has('depth d (nearest face)')).toBe(false);
    expect(rows.has('gap h(n) − d')).toBe(true);
  });

  it("labels an ordinary step's depth as the nearest face", () => {
    const box = { type: 'box', halfExtents: [0.5, 0.5, 0.5] };
    const cyl = { type: 'cylinder', radius: 0.4, halfHeight: 0.6 };
    const scene = { version: 1, query: 'penetration', shapes: [{ ...box, position: [0, 0, 0] }, { ...cyl, position: [0.7, 0.1, 0.05] }] } as Scene;
    const t = trace(scene) as unknown as EpaTrace;
    const last = t.frames[t.frames.length - 1];
    expect(last.reason).not.toBe('refined');
    const rows = rowsOf(last, t);
    expect(rows.has('depth d (nearest face)')).toBe(true);
    expect(rows.has('nearest face d')).toBe(false);
  });
});
