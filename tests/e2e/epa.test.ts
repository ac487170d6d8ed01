// The EPA view in a real browser: a penetration scene opens from a permalink or the gallery, steps frame by
// frame (buttons and keys) with a new caption each time, draws the polytope on expand frames, and its link
// reopens the same scene at the same step; stacked boxes show their 0.001 overlap as the depth.
import { describe, expect, it } from 'vitest';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { canvasStats, colourCentroid, counterText, expectLinkReopensSame, openPage, state, stepThroughAll, stepToKind } from './page-helpers';

const env = useServerAndBrowser();

type V3 = [number, number, number];

/** A box and an ellipsoid overlapping deeply: a curved difference, so EPA expands its polytope many times. */
const boxEllipsoid = {
  version: 1 as const,
  query: 'penetration' as const,
  shapes: [
    { type: 'box' as const, halfExtents: [1, 0.8, 0.7] as V3, rotation: [0.1, 0.2, 0, 0.97] as [number, number, number, number] },
    { type: 'ellipsoid' as const, radii: [0.9, 0.6, 0.7] as V3, position: [0.9, 0.5, 0.3] as V3 },
  ],
};

/** Two unit boxes, one on the other, overlapping by 0.001 along y. */
// EPA's steps on two boxes (by default the pair is answered by the box–box closed form).
const stackedBoxes = {
  version: 1 as const,
  query: 'penetration' as const,
  closedForms: false,
  shapes: [
    { type: 'box' as const, halfExtents: [1, 1, 1] as V3, position: [0, 0, 0] as V3, rotation: [0, 0, 0, 1] as [number, number, number, number] },
    { type: 'box' as const, halfExtents: [1, 1, 1] as V3, position: [0, 1.999, 0] as V3, rotation: [0, 0, 0, 1] as [number, number, number, number] },
  ],
};

describe('EPA view', () => {
  it('steps through every frame of a penetration trace with the buttons and the keys', async () => {
    const { page, errors } = await openPage(env.browser, encodeLink({ ...boxEllipsoid, step: 0 }, env.url));
    try {
      let s = await state(page);
      expect(s.error).toBeNull();
      expect(s.scene?.query).toBe('penetration');
      expect(await page.inputValue('#query')).toBe('penetration');
      expect(await page.textContent('#algorithm')).toMatch(/EPA/);
      expect(s.frameIndex).toBe(0);
      expect(s.frameKind).toBe('seed');
      // seed, then at least one closest → support → expand, then support → done.
      expect(s.frameCount).toBeGreaterThanOrEqual(5);
      const n = s.frameCount;
      expect(await counterText(page)).toBe(`step 1 / ${n}`);

      const kinds = await stepThroughAll(page);
      s = await state(page);
      expect(kinds).toContain('closest');
      expect(kinds).toContain('support');
      expect(kinds).toContain('expand');
      expect(kinds[kinds.length - 1]).toBe('done');
      expect(await page.isDisabled('#next')).toBe(true);

      // The last frame shows the answer: depth, normal, contact points.
      const r = s.result as { intersecting: boolean; depth: number; normal: number[]; pointA: number[]; pointB: number[] };
      expect(r.intersecting).toBe(true);
      expect(r.depth).toBeGreaterThan(0);
      expect(Math.hypot(...r.normal)).toBeCloseTo(1, 9);
      expect(await page.textContent('#result')).toMatch(/depth/i);
      expect(await page.textContent('#values')).toMatch(/result depth/);

      // And back with the keys.
      await page.keyboard.press('ArrowLeft');
      expect((await state(page)).frameIndex).toBe(n - 2);
      await page.keyboard.press('Home');
      expect((await state(page)).frameIndex).toBe(0);
      await page.keyboard.press('End');
      expect((await state(page)).frameIndex).toBe(n - 1);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('draws the polytope, the removed faces and the horizon on an expand frame', async () => {
    const { page, errors } = await openPage(env.browser, encodeLink({ ...boxEllipsoid, step: 0 }, env.url));
    try {
      const at = await stepToKind(page, 'expand');
      expect(at).toBeGreaterThan(0);
      const values = (await page.textContent('#values')) ?? '';
      expect(values).toMatch(/faces/);
      expect(values).toMatch(/removed \/ horizon \/ new/);
      await page.waitForTimeout(300);
      const stats = await canvasStats(page, '#canvas-minkowski');
      expect(stats.colours).toBeGreaterThan(20);
      expect(stats.foreground).toBeGreaterThan(0.02);
      // The horizon edges are drawn bold in orange (#ff9f1c), over everything else.
      const orange = { r: [225, 255] as [number, number], g: [130, 180] as [number, number], b: [0, 70] as [number, number] };
      expect((await colourCentroid(page, '#canvas-minkowski', orange)).count).toBeGreaterThan(30);
      expect(await canvasStats(page, '#canvas-shapes').then((x) => x.foreground)).toBeGreaterThan(0.02);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("the page's link reopens the same penetration scene at the same step", async () => {
    const first = await openPage(env.browser, encodeLink({ ...boxEllipsoid, step: 0 }, env.url));
    const n = (await state(first.page)).frameCount;
    const target = Math.min(3, n - 1);
    for (let i = 0; i < target; i++) await first.page.keyboard.press('ArrowRight');
    const { after } = await expectLinkReopensSame(env.browser, first);
    expect(after.scene?.query).toBe('penetration');
    expect(after.frameIndex).toBe(target);
  }, 120_000);

  it('stacked boxes overlapping by 0.001 give depth 0.001 along y', async () => {
    const { page, errors } = await openPage(env.browser, encodeLink({ ...stackedBoxes, step: 1_000 }, env.url));
    try {
      const s = await state(page);
      expect(s.error).toBeNull();
      expect(s.frameIndex).toBe(s.frameCount - 1);
      expect(s.frameKind).toBe('done');
      const r = s.result as { intersecting: boolean; depth: number; normal: number[]; pointA: number[]; pointB: number[] };
      expect(r.intersecting).toBe(true);
      expect(Math.abs(r.depth - 0.001)).toBeLessThan(1e-9);
      expect(Math.abs(r.normal[1])).toBeCloseTo(1, 9);
      // pointA − pointB = depth · normal
      for (let i = 0; i < 3; i++) expect(r.pointA[i] - r.pointB[i]).toBeCloseTo(r.depth * r.normal[i], 9);
      expect(await page.textContent('#result')).toMatch(/0\.001/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('the query selector switches between the GJK and the EPA drawings', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      expect(await page.textContent('#algorithm')).toBe('GJK');
      expect(await page.isVisible('.legend-epa >> nth=0')).toBe(false);
      await page.selectOption('#query', 'penetration');
      let s = await state(page);
      expect(s.error).toBeNull();
      expect(s.scene?.query).toBe('penetration');
      expect(s.result).toHaveProperty('depth');
      expect(await page.textContent('#algorithm')).toMatch(/EPA/);
      expect(await page.isVisible('.legend-epa >> nth=0')).toBe(true);
      await page.selectOption('#query', 'distance');
      s = await state(page);
      expect(s.result).toHaveProperty('distance');
      expect(await page.textContent('#algorithm')).toBe('GJK');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('opens the penetration scenes of the gallery', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      const entries = await page.evaluate(async () => (await fetch('gallery.json')).json()) as { name: string; scene: { query: string } }[];
      const picks = entries.map((e, i) => (e.scene.query === 'penetration' ? i : -1)).filter((i) => i >= 0);
      expect(picks.length, 'the gallery has penetration scenes (shared/scenes/1N-*.json)').toBeGreaterThan(0);
      for (const i of picks) {
        await page.selectOption('#gallery', String(i));
        const s = await state(page);
        expect(s.error, entries[i].name).toBeNull();
        expect(s.scene?.query).toBe('penetration');
        expect(s.frameCount).toBeGreaterThanOrEqual(1);
        expect(await page.inputValue('#gallery')).toBe(String(i));
        await page.keyboard.press('End');
        expect((await state(page)).frameKind).toBe('done');
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
