// Pairs answered by a closed form on the page (points, spheres, segments, capsules; circles in 2D; points and boxes
// against boxes): one step, its
// caption, pseudocode and values, the cores' closest points drawn, no plot and nothing to predict — in 3D and in the
// plane — and GJK's steps back when a shape becomes a box. References are worked out by hand: a capsule of radius
// 0.5 and half-height 1 at the origin (core from (0, −1, 0) to (0, 1, 0)) and a ball of radius 0.25 at (2, 0.5, 0),
// whose centre projects onto the core at p = (0, 0.5, 0): d = 2, distance 2 − 0.75 = 1.25 between (0.5, 0.5, 0) and
// (1.75, 0.5, 0).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { encodeLink, init, isClosedForm, run, trace, type Scene, type Scene2D } from '../../web/lib/index';
import { useServerAndBrowser } from './harness';
import { captionText, colourPixels, counterText, openPage, state } from './page-helpers';

const env = useServerAndBrowser();

beforeAll(async () => {
  await init();
});


const capsuleAndBall: Scene = {
  version: 1, query: 'distance',
  shapes: [{ type: 'capsule', radius: 0.5, halfHeight: 1 }, { type: 'sphere', radius: 0.25, position: [2, 0.5, 0] }],
};

/** The values table as "name value" rows. */
const valueRows = (page: Page) => page.$$eval('#values tr', (trs) => trs.map((tr) => `${tr.querySelector('th')!.textContent} ${tr.querySelector('td')!.textContent}`));

/** The pseudocode lines shown and the one highlighted (1-based, 0 for none). */
async function pseudocode(page: Page): Promise<{ lines: number; active: number }> {
  return page.$$eval('#pseudocode li', (lis) => ({
    lines: lis.length,
    active: lis.findIndex((li) => li.classList.contains('active')) + 1,
  }));
}

const visible = (page: Page, sel: string) => page.isVisible(sel);

/** The frame's green (COLORS.simplex, #3ddc97: the cores' closest points p, q and their segment) pixels in a view. */
const GREEN = { r: [30, 110] as [number, number], g: [190, 245] as [number, number], b: [120, 185] as [number, number] };

describe('a closed form on the page', () => {
  it('3D: one step naming the form, its caption, three lines with the last lit, the values; a box brings GJK back', async () => {
    const { page, errors } = await openPage(env.browser, env.url + encodeLink(capsuleAndBall).replace(/^.*#/, '#'));
    try {
      let s = await state(page);
      expect(s.error).toBeNull();
      expect(s.frameCount).toBe(1);
      expect(s.frameKind).toBe('closed-form');
      expect(s.closedForm).toBe('segment-point');
      expect(s.result).toEqual(run(capsuleAndBall));
      expect(await counterText(page)).toBe('step 1 / 1');
      expect(await captionText(page)).toBe('Closed form (segment–point): the closest point of A\'s core segment to B\'s centre is 2 away; minus the radii 0.5 + 0.25, the distance is 1.25.');
      expect(await page.textContent('#algorithm')).toBe('Closed form (segment–point)');
      expect(await pseudocode(page)).toEqual({ lines: 3, active: 3 });
      expect((await page.textContent('#result'))?.trim()).toBe('Distance 1.25 between (0.5, 0.5, 0) on A and (1.75, 0.5, 0) on B (closed form segment–point).');
      expect(await valueRows(page)).toEqual(expect.arrayContaining([
        'p (core of A) (0, 0.5, 0)', 'q (core of B) (2, 0.5, 0)', 'd = ‖q − p‖ 2', 'r_A, r_B 0.5, 0.25',
        'result distance 1.25', 'pointA (0.5, 0.5, 0)', 'pointB (1.75, 0.5, 0)',
      ]));
      expect((await valueRows(page)).some((r) => /^touching bound τ \S+e-1\d$/.test(r))).toBe(true);
      // Nothing to step: the buttons are off, and the keys leave the step where it is.
      for (const b of ['#first', '#prev', '#play', '#next', '#last']) expect(await page.isDisabled(b), b).toBe(true);
      await page.keyboard.press('ArrowRight');
      expect((await state(page)).frameIndex).toBe(0);
      // No plot; predict mode says there is nothing to predict.
      expect(await visible(page, '#plot')).toBe(false);
      await page.click('#predict');
      expect(await page.textContent('#quiz .quiz-question')).toMatch(/closed form .* nothing to predict/);
      expect(await page.$$eval('#quiz .quiz-choice', (b) => b.length)).toBe(0);
      await page.click('#predict');
      // The cores' closest points and their segment are drawn, in both views.
      expect((await colourPixels(page, '#canvas-shapes', GREEN)).count).toBeGreaterThan(20);
      expect((await colourPixels(page, '#canvas-minkowski', GREEN)).count).toBeGreaterThan(20);

      // Another query on the same pair: still the closed form, with its own last line.
      await page.selectOption('#query', 'penetration');
      await page.waitForFunction(() => (window as any).__collidoscope.scene?.query === 'penetration');
      s = await state(page);
      expect([s.frameCount, s.closedForm]).toEqual([1, 'segment-point']);
      expect(await captionText(page)).toBe('Closed form (segment–point): the closest point of A\'s core segment to B\'s centre is 2 away, more than the radii 0.5 + 0.25: separated, no penetration.');
      expect(await page.textContent('#pseudocode li.active')).toMatch(/^depth ← r_A \+ r_B − d/);
      await page.selectOption('#query', 'intersect');
      await page.waitForFunction(() => (window as any).__collidoscope.scene?.query === 'intersect');
      expect(await captionText(page)).toMatch(/is 2 away, more than the radii 0\.5 \+ 0\.25: separated\.$/);

      // B becomes a box: GJK's steps, its pseudocode and its plot are back.
      await page.selectOption('#type-b', 'box');
      await page.waitForFunction(() => (window as any).__collidoscope.scene?.shapes[1].type === 'box');
      s = await state(page);
      const gjk = trace({ ...(s.scene as unknown as Scene) });
      expect('closedForm' in gjk).toBe(false);
      expect(s.closedForm).toBeNull();
      expect(s.frameCount).toBe(gjk.frames.length);
      expect(s.frameCount).toBeGreaterThan(1);
      expect(s.frameKind).toBe('init');
      expect(await page.textContent('#algorithm')).toBe('GJK');
      expect((await pseudocode(page)).lines).toBe(gjk.pseudocode.length);
      expect(await page.isDisabled('#next')).toBe(false);
      await page.keyboard.press('End');
      expect(await visible(page, '#plot')).toBe(true);
      // And back to a sphere: the closed form again.
      await page.selectOption('#type-b', 'sphere');
      await page.waitForFunction(() => (window as any).__collidoscope.scene?.shapes[1].type === 'sphere');
      s = await state(page);
      expect([s.frameCount, s.closedForm, s.frameIndex]).toEqual([1, 'segment-point', 0]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it('2D: a capsule and a circle in the plane, one step, the caption and values in (x, y); a box brings the planar EPA\'s steps back', async () => {
    // The circle's centre (0.5, 0.5) projects onto the capsule's core at p = (0, 0.5): d = 0.5, depth
    // 0.5 + 0.25 − 0.5 = 0.25 along (1, 0), contact (0.5, 0.5) on A and (0.25, 0.5) on B.
    const flat: Scene2D = {
      version: 1, dimension: 2, query: 'penetration',
      shapes: [{ type: 'capsule', radius: 0.5, halfHeight: 1 }, { type: 'circle', radius: 0.25, position: [0.5, 0.5] }],
    };
    const { page, errors } = await openPage(env.browser, env.url + encodeLink(flat).replace(/^.*#/, '#'));
    try {
      let s = await state(page);
      expect(s.error).toBeNull();
      expect([s.frameCount, s.frameKind, s.closedForm]).toEqual([1, 'closed-form', 'segment-point']);
      expect(s.result).toEqual(run(flat));
      expect(await captionText(page)).toBe('Closed form (segment–point): the closest point of A\'s core segment to B\'s centre is 0.5 away; '
        + 'depth = r_A + r_B − d = 0.5 + 0.25 − 0.5 = 0.25 along the line of the closest points, n = (1, 0).');
      expect(await valueRows(page)).toEqual(expect.arrayContaining([
        'p (core of A) (0, 0.5)', 'q (core of B) (0.5, 0.5)', 'd = ‖q − p‖ 0.5', 'result depth 0.25', 'result normal (1, 0)',
        'pointA (0.5, 0.5)', 'pointB (0.25, 0.5)',
      ]));
      expect(await pseudocode(page)).toEqual({ lines: 3, active: 3 });
      expect(await visible(page, '#plot')).toBe(false);
      expect((await colourPixels(page, '#canvas-shapes', GREEN)).count).toBeGreaterThan(20);

      await page.selectOption('#type2d-b', 'box');
      await page.waitForFunction(() => (window as any).__collidoscope.scene?.shapes[1].type === 'box');
      s = await state(page);
      expect(s.closedForm).toBeNull();
      const steps = trace(s.scene as unknown as Scene2D & { query: 'penetration' });
      expect('closedForm' in steps).toBe(false);
      expect((steps as { dimension?: number }).dimension).toBe(2);
      expect(s.frameCount).toBe(steps.frames.length);
      expect(s.frameCount).toBeGreaterThan(1);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it('a sphere inside a box: one step of the point–box form naming the nearest face, the depth across it', async () => {
    // The centre (0.9, 0.2, 0) is 0.1 from the box's +x face, 0.8 from +y, 1 from ±z: depth 0.5 + 0.1 = 0.6 with
    // the box moved along −x; contact (0.4, 0.2, 0) on the sphere, (1, 0.2, 0) on the box.
    const ballInBox: Scene = {
      version: 1, query: 'penetration',
      shapes: [{ type: 'sphere', radius: 0.5, position: [0.9, 0.2, 0] }, { type: 'box', halfExtents: [1, 1, 1] }],
    };
    const { page, errors } = await openPage(env.browser, env.url + encodeLink(ballInBox).replace(/^.*#/, '#'));
    try {
      const s = await state(page);
      expect(s.error).toBeNull();
      expect([s.frameCount, s.frameKind, s.closedForm]).toEqual([1, 'closed-form', 'point-box']);
      expect(s.result).toEqual(run(ballInBox));
      expect(await captionText(page)).toBe('Closed form (point–box): A\'s centre lies in B\'s box, 0.1 from its nearest face (B\'s x face normal); '
        + 'depth = r_A + r_B + 0.1 = 0.6 across that face, n = (-1, 0, 0).');
      expect(await valueRows(page)).toEqual(expect.arrayContaining([
        'nearest face B\'s x face normal', 'result depth 0.6', 'result normal (-1, 0, 0)',
      ]));
      expect(await pseudocode(page)).toEqual({ lines: 3, active: 3 });
      expect((await colourPixels(page, '#canvas-shapes', GREEN)).count).toBeGreaterThan(20);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it('two boxes: one step of the box–box form naming the axis of least overlap, its kind and the overlap', async () => {
    // B (half-size 0.5, turned 20° about y) against the unit box: the least overlap comes from the trace; its
    // caption, values and result are the library's.
    const s20 = Math.sin(Math.PI / 18), c20 = Math.cos(Math.PI / 18);
    const boxes: Scene = {
      version: 1, query: 'penetration',
      shapes: [{ type: 'box', halfExtents: [1, 1, 1] }, { type: 'box', halfExtents: [0.5, 0.5, 0.5], position: [1.3, 0.6, 0.2], rotation: [0, s20, 0, c20] }],
    };
    const t = trace(boxes);
    if (!isClosedForm(t)) throw new Error('expected a closed form');
    const { page, errors } = await openPage(env.browser, env.url + encodeLink(boxes).replace(/^.*#/, '#'));
    try {
      const s = await state(page);
      expect(s.error).toBeNull();
      expect([s.frameCount, s.frameKind, s.closedForm]).toEqual([1, 'closed-form', 'box-box']);
      expect(s.result).toEqual(run(boxes));
      expect(await captionText(page)).toBe(t.frames[0].caption);
      expect(await captionText(page)).toMatch(/^Closed form \(box–box\): the least overlap of the 15 axes, radii 0 \+ 0 included, is \S+ along (A's|B's) . (face normal|edge × B's . edge)/);
      const rows = await valueRows(page);
      expect(rows.some((r) => /^axis (A's|B's) . (face normal|edge × B's . edge)$/.test(r)), rows.join('; ')).toBe(true);
      expect(rows.some((r) => /^overlap along L \S+$/.test(r))).toBe(true);
      expect(await page.textContent('#pseudocode li.active')).toMatch(/^depth ← m \+ r_A \+ r_B along n = L/);
      // The axis's note beside the witness points (the contact markers cover the witness points' green).
      const notes = await page.$$eval('.label-note', (els) => els.map((e) => e.textContent ?? ''));
      expect(notes.some((n) => /^L \((face-a|face-b|edge-edge)\): overlap \S+$/.test(n)), notes.join('; ')).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it('the gallery\'s crossing capsules: its sentence says what is shown, one step of the segment–segment form', async () => {
    const manifest = JSON.parse(readFileSync(new URL('../../shared/lessons.json', import.meta.url), 'utf8')) as {
      lessons: { scenes: { file: string; title: string; sentence: string }[] }[];
    };
    const entry = manifest.lessons.flatMap((l) => l.scenes).find((e) => e.file === '04-capsules-crossing.json')!;
    expect(entry.sentence).toMatch(/closed form/);
    expect(entry.sentence).not.toMatch(/GJK runs/);
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      const index = await page.$eval('#gallery', (sel, title) => [...(sel as HTMLSelectElement).options].find((o) => o.textContent === title)!.value, entry.title);
      await page.selectOption('#gallery', index);
      await page.waitForFunction(() => (window as any).__collidoscope.closedForm === 'segment-segment');
      const s = await state(page);
      expect(s.frameCount).toBe(1);
      expect(await page.textContent('#gallery-sentence')).toBe(entry.sentence);
      // The cores' closest points are about 0.22 apart (√0.05 by hand), less than 0.3 + 0.25: the capsules overlap.
      expect(await captionText(page)).toMatch(/^Closed form \(segment–segment\): the closest points of A's and B's core segments are 0\.2236\d* apart, within the radii 0\.3 \+ 0\.25: the shapes overlap, distance 0 /);
      expect((s.result as { distance: number }).distance).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);
});
