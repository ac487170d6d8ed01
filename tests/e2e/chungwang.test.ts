// The Chung–Wang view in a real browser: each chungwang scene of the gallery (shared/scenes/3N-*.json) opens
// from a permalink and steps through every frame with the kinds, captions and values of the library's own
// trace (computed here in Node); the page's answer is the library's run(); the Gauss sphere shows the
// directions r_i, the wedge of a hemisphere step, and — for overlapping shapes — the red proof that no
// hemisphere holds them; a link taken at a middle step reopens the same scene at the same step.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { init, run, trace, type ChungWangTrace, type Scene } from '../../web/lib/index';
import { encodeLink } from '../../web/lib/link';
import { fmt } from '../../web/lib/draw/format';
import { useServerAndBrowser } from './harness';
import { canvasStats, captionText, colourCentroid, counterText, expectLinkReopensSame, openPage, state } from './page-helpers';

const env = useServerAndBrowser();

const sceneDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'scenes');
const SCENES = [
  '30-chungwang-boxes-apart.json',
  '31-chungwang-cone-cylinder-overlap.json',
  '32-chungwang-cone-box-switch.json',
  '33-chungwang-rounded-capsule-box.json',
];

function loadScene(file: string): Scene {
  return JSON.parse(readFileSync(join(sceneDir, file), 'utf8')) as Scene;
}

/** The red of the proof (#ff4d4d): the offending projection, the surrounding directions and tetrahedron. */
const RED = { r: [225, 255] as [number, number], g: [50, 110] as [number, number], b: [50, 110] as [number, number] };
/** The green of the wedge that holds the projections and of the reflected s (#3ddc97). */
const GREEN = { r: [30, 110] as [number, number], g: [180, 240] as [number, number], b: [120, 180] as [number, number] };

async function valuesText(page: Page): Promise<string> {
  return (await page.textContent('#values')) ?? '';
}

async function gaussLabels(page: Page): Promise<string[]> {
  return page.$$eval('#view-minkowski .label', (els) => els.filter((e) => (e as HTMLElement).style.display !== 'none').map((e) => e.textContent ?? ''));
}

beforeAll(async () => {
  await init();
});

describe('Chung–Wang view', () => {
  it('the gallery has the chungwang scenes, each with the frame kinds this test needs', () => {
    const kinds = new Set<string>();
    for (const file of SCENES) {
      const t = trace(loadScene(file)) as ChungWangTrace;
      expect(t.query).toBe('chungwang');
      for (const f of t.frames) kinds.add(f.kind);
    }
    for (const k of ['init', 'support', 'hemisphere', 'reflect', 'switch', 'done']) expect(kinds.has(k), k).toBe(true);
    // Both answers, the rounded case and the proof of intersection are among them.
    const results = SCENES.map((f) => run(loadScene(f)) as { intersecting: boolean });
    expect(results.some((r) => r.intersecting)).toBe(true);
    expect(results.some((r) => !r.intersecting)).toBe(true);
    expect(SCENES.some((f) => (trace(loadScene(f)) as ChungWangTrace).marginB > 0)).toBe(true);
  });

  for (const file of SCENES) {
    it(`${file}: every frame as the library traces it, and the library's answer`, async () => {
      const scene = loadScene(file);
      const expected = trace(scene) as ChungWangTrace;
      const answer = run(scene);
      const { page, errors } = await openPage(env.browser, encodeLink({ ...scene, step: 0 }, env.url));
      try {
        let s = await state(page);
        expect(s.error).toBeNull();
        expect(s.scene?.query).toBe('chungwang');
        expect(await page.inputValue('#query')).toBe('chungwang');
        expect(await page.textContent('#algorithm')).toBe('Chung–Wang');
        const n = expected.frames.length;
        expect(s.frameCount).toBe(n);
        // The page's answer is run()'s, and the sentence says it.
        expect(s.result).toEqual(answer);
        const r = answer as { intersecting: boolean; separatingAxis: number[] | null; iterations: number };
        const sentence = (await page.textContent('#result')) ?? '';
        expect(sentence).toMatch(r.intersecting ? /^Intersecting/ : /^Separated/);
        expect(sentence).toContain(`${r.iterations} iteration`);
        if (r.separatingAxis) expect(sentence).toContain(fmt(r.separatingAxis[0], 6));

        for (let i = 0; i < n; i++) {
          if (i > 0) {
            if (i % 2) await page.click('#next');
            else await page.keyboard.press('ArrowRight');
          }
          s = await state(page);
          const f = expected.frames[i];
          expect(s.frameIndex).toBe(i);
          expect(s.frameKind, `kind of step ${i + 1}`).toBe(f.kind);
          expect(await counterText(page)).toBe(`step ${i + 1} / ${n}`);
          const caption = await captionText(page);
          expect(caption.length).toBeGreaterThan(0);
          expect(caption).toBe(f.caption.trim());
          expect(await page.locator('#pseudocode li.active').count()).toBe(1);
          // The values table: the iteration, s, and on frames with support points the gap to 9 digits.
          const rows = await page.locator('#values tr').count();
          expect(rows, `values of step ${i + 1}`).toBeGreaterThanOrEqual(8);
          const values = await valuesText(page);
          expect(values).toContain(`iteration${f.iteration}`);
          expect(values).toContain(`|R|${f.directions.length}`);
          if (f.gap !== null) expect(values).toContain(fmt(f.gap, 9));
          if (f.plane?.wedge) expect(values).toMatch(/wedge r_a → r_b/);
          if (f.nextS) expect(values).toMatch(/next s/);
          // The Gauss sphere labels every r_i (repeats share a label).
          if (f.directions.length && f.kind !== 'support' && f.kind !== 'switch') {
            const labels = (await gaussLabels(page)).join(' ');
            expect(labels).toContain('r₀');
          }
        }
        expect(await page.isDisabled('#next')).toBe(true);
        expect((await valuesText(page))).toMatch(r.intersecting ? /resultintersecting/ : /resultseparated/);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }, 180_000);
  }

  it('draws the wedge on a hemisphere step and the red proof when no hemisphere holds R', async () => {
    const scene = loadScene('31-chungwang-cone-cylinder-overlap.json');
    const t = trace(scene) as ChungWangTrace;
    const wedgeAt = t.frames.findIndex((f) => f.kind === 'hemisphere' && f.plane?.outcome === 'fits' && f.plane.wedge && f.plane.wedge.ia !== f.plane.wedge.ib);
    const proofAt = t.frames.findIndex((f) => f.plane?.outcome === 'no-half-plane');
    expect(wedgeAt).toBeGreaterThan(0);
    expect(proofAt).toBeGreaterThan(wedgeAt);

    // From the support step just before: the wedge step adds green, the proof adds red (measured as increases,
    // so that the origin's marker and the arrows' shading do not count).
    expect(t.frames[wedgeAt - 1].kind).toBe('support');
    const count = async (page: Page, range: typeof RED) => (await colourCentroid(page, '#canvas-minkowski', range)).count;
    const { page, errors } = await openPage(env.browser, encodeLink({ ...scene, step: wedgeAt - 1 }, env.url));
    try {
      await page.waitForTimeout(300);
      const green0 = await count(page, GREEN);
      const red0 = await count(page, RED);
      await page.keyboard.press('ArrowRight');
      expect((await state(page)).frameIndex).toBe(wedgeAt);
      await page.waitForTimeout(300);
      const gauss = await canvasStats(page, '#canvas-minkowski');
      expect(gauss.colours).toBeGreaterThan(20);
      const green1 = await count(page, GREEN);
      // No green before the step; the wedge covers ~60 pixels of this layout (it scales with the view).
      expect(green1 - green0, 'the green wedge').toBeGreaterThan(30);
      let labels = await gaussLabels(page);
      expect(labels.some((l) => /^r_a = r/.test(l))).toBe(true);
      expect(labels.some((l) => /^r_b = r/.test(l))).toBe(true);
      expect(labels).toContain('w');
      expect(labels).toContain('plane ⊥ r');
      // The shapes view: p, q and the two supporting planes.
      expect((await canvasStats(page, '#canvas-shapes')).foreground).toBeGreaterThan(0.02);
      const shapeLabels = await page.$$eval('#view-shapes .label', (els) => els.map((e) => e.textContent ?? ''));
      expect(shapeLabels).toEqual(expect.arrayContaining(['p', 'q', 's']));

      // Step to the proof: the opposite wedge, the offending projection and the four directions in red.
      for (let i = wedgeAt; i < proofAt; i++) await page.keyboard.press('ArrowRight');
      const s = await state(page);
      expect(s.frameIndex).toBe(proofAt);
      expect(s.frameKind).toBe('hemisphere');
      await page.waitForTimeout(300);
      const red2 = await count(page, RED);
      expect(red2 - red0, 'the red proof').toBeGreaterThan(300);
      labels = await gaussLabels(page);
      expect(labels).toContain('opposite wedge');
      expect(labels.join(' ')).toMatch(/O lies inside conv\{/);
      expect(labels).not.toContain('w'); // no hemisphere, no centre
      expect(await valuesText(page)).toMatch(/no \(projections surround O\)/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("the page's link reopens the same Chung–Wang scene at the same step", async () => {
    const first = await openPage(env.browser, encodeLink({ ...loadScene('32-chungwang-cone-box-switch.json'), step: 0 }, env.url));
    const target = Math.floor((await state(first.page)).frameCount / 2);
    for (let i = 0; i < target; i++) await first.page.keyboard.press('ArrowRight');
    const { after } = await expectLinkReopensSame(env.browser, first);
    expect(after.scene?.query).toBe('chungwang');
    expect(after.frameIndex).toBe(target);
  }, 120_000);
});
