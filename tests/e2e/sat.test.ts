// The separating-axis view in a real browser: the gallery's SAT scenes (shared/scenes/4N-sat-*.json) open from a
// permalink and step through every candidate axis with the frame kinds of the library's own trace, a caption and a
// values table each time; the page's result is the library's run() answer; a link taken at a middle step reopens
// the same scene at the same step; the overlap, the gap and the skipped parallel edges are drawn.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { init, run, trace, type SatResult, type SatTrace, type Scene } from '../../web/lib/index';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { captionText, colourCentroid, counterText, expectLinkReopensSame, openPage, state } from './page-helpers';

const env = useServerAndBrowser();

const SCENES_DIR = fileURLToPath(new URL('../../shared/scenes/', import.meta.url));

/** The SAT scenes of the gallery, by file name. */
const satScenes: { file: string; scene: Scene & { query: 'sat' } }[] = readdirSync(SCENES_DIR)
  .filter((f) => /^4\d-.*\.json$/.test(f))
  .sort()
  .map((file) => ({ file, scene: JSON.parse(readFileSync(path.join(SCENES_DIR, file), 'utf8')) }))
  .filter((e) => e.scene.query === 'sat');

function sceneNamed(prefix: string): Scene & { query: 'sat' } {
  const e = satScenes.find((x) => x.file.startsWith(prefix));
  if (!e) throw new Error(`no scene ${prefix}-*.json in shared/scenes`);
  return e.scene;
}

beforeAll(async () => {
  await init();
});

async function valuesRows(page: Page): Promise<string[]> {
  return page.$$eval('#values tr', (trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim()).join(' = ')));
}

/** Red of the overlap (#ff4d4d), green of the gap (#3ddc97), yellow of the features (#ffd166), drawn opaque. */
const RED = { r: [220, 255] as [number, number], g: [40, 110] as [number, number], b: [40, 110] as [number, number] };
const GREEN = { r: [30, 110] as [number, number], g: [180, 240] as [number, number], b: [120, 180] as [number, number] };
const YELLOW = { r: [235, 255] as [number, number], g: [190, 225] as [number, number], b: [70, 135] as [number, number] };

describe('SAT view', () => {
  it('has the SAT gallery scenes the view is tuned on', () => {
    const names = satScenes.map((e) => e.file);
    expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/^40-/), expect.stringMatching(/^41-/)]));
    // 40: intersecting, least overlap on an edge–edge axis, all 15 box axes tested.
    const r40 = run(sceneNamed('40')) as SatResult;
    expect(r40).toMatchObject({ intersecting: true, axisKind: 'edge-edge', axesTested: 15 });
    // 41: separated at the second axis.
    const r41 = run(sceneNamed('41')) as SatResult;
    expect(r41).toMatchObject({ intersecting: false, axesTested: 2 });
    // 42: boxes separated only by an edge–edge axis; 43: a parallel edge pair skipped.
    expect(run(sceneNamed('42')) as SatResult).toMatchObject({ intersecting: false, axisKind: 'edge-edge' });
    expect(trace(sceneNamed('43')).frames.some((f) => f.kind === 'skip')).toBe(true);
  });

  for (const { file, scene } of satScenes) {
    it(`steps through every frame of ${file} as the library traces it`, async () => {
      const expectedTrace = trace(scene) as SatTrace;
      const expectedResult = run(scene) as SatResult;
      const kinds = expectedTrace.frames.map((f) => f.kind);
      const n = kinds.length;
      const tested = expectedTrace.frames.filter((f) => f.kind === 'axis').length;

      const { page, errors } = await openPage(env.browser, encodeLink({ ...scene, step: 0 }, env.url));
      try {
        let s = await state(page);
        expect(s.error).toBeNull();
        expect(s.scene?.query).toBe('sat');
        expect(await page.inputValue('#query')).toBe('sat');
        expect(await page.textContent('#algorithm')).toBe('Separating-axis test');
        expect(s.frameCount).toBe(n);
        expect(s.frameIndex).toBe(0);
        // The page's answer is the library's.
        expect(s.result).toEqual(expectedResult);
        expect(await page.textContent('#result')).toMatch(expectedResult.intersecting ? /^Intersecting/ : /^Separated/);

        for (let i = 0; i < n; i++) {
          if (i > 0) {
            if (i % 2) await page.click('#next');
            else await page.keyboard.press('ArrowRight');
          }
          s = await state(page);
          const f = expectedTrace.frames[i];
          expect(s.frameIndex).toBe(i);
          expect(s.frameKind, `kind of step ${i + 1}`).toBe(f.kind);
          expect(await counterText(page)).toBe(`step ${i + 1} / ${n}`);
          expect((await captionText(page)).length, `caption of step ${i + 1}`).toBeGreaterThan(0);
          expect(await page.locator('#pseudocode li.active').count()).toBe(1);
          const rows = await valuesRows(page);
          expect(rows.length, `values of step ${i + 1}`).toBeGreaterThan(0);
          const text = rows.join('\n');
          if (f.kind === 'axis') {
            expect(text).toContain(`axis = ${f.index + 1} / ${tested}`);
            expect(text).toMatch(/\[minA, maxA\] = \[/);
            expect(text).toMatch(/\[minB, maxB\] = \[/);
            expect(text).toMatch(f.separates ? /gap minB − maxA = .*separates/ : /overlap maxA − minB = /);
            expect(text).toMatch(/best so far = axis \d+/);
          }
          if (f.kind === 'skip') expect(text).toMatch(/skipped/);
          if (f.kind === 'done') {
            expect(text).toContain(`result = ${expectedResult.intersecting ? 'intersecting' : 'separated'}`);
            expect(text).toContain(`axes tested = ${expectedResult.axesTested}`);
          }
        }
        expect(await page.isDisabled('#next')).toBe(true);
        expect((await state(page)).result).toEqual(expectedResult);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }, 120_000);
  }

  it("the page's link reopens the same SAT scene at a middle step", async () => {
    const first = await openPage(env.browser, encodeLink({ ...sceneNamed('40'), step: 0 }, env.url));
    const target = Math.floor((await state(first.page)).frameCount / 2);
    for (let i = 0; i < target; i++) await first.page.keyboard.press('ArrowRight');
    const { after } = await expectLinkReopensSame(env.browser, first);
    expect(after.scene?.query).toBe('sat');
    expect(after.frameIndex).toBe(target);
  }, 120_000);

  it('draws the overlap in red, the separating gap in green and the skipped parallel edges in yellow', async () => {
    // Control: the prepare frame draws only the candidate directions (grey, amber, blue): none of these colours.
    const z = await openPage(env.browser, encodeLink({ ...sceneNamed('40'), step: 0 }, env.url));
    try {
      expect((await state(z.page)).frameKind).toBe('prepare');
      await z.page.waitForTimeout(300);
      for (const range of [RED, GREEN, YELLOW]) expect((await colourCentroid(z.page, '#canvas-shapes', range)).count).toBeLessThan(5);
    } finally {
      await z.page.close();
    }
    // 40, the deciding edge–edge axis (done): the overlap of the two intervals.
    const a = await openPage(env.browser, encodeLink({ ...sceneNamed('40'), step: 1_000 }, env.url));
    try {
      expect((await state(a.page)).frameKind).toBe('done');
      await a.page.waitForTimeout(300);
      expect((await colourCentroid(a.page, '#canvas-shapes', RED)).count).toBeGreaterThan(10);
      expect((await colourCentroid(a.page, '#canvas-shapes', YELLOW)).count).toBeGreaterThan(10); // edge of A, edge of B
      expect(a.errors).toEqual([]);
    } finally {
      await a.page.close();
    }
    // 42, done: separated by an edge–edge axis, the gap in green; no overlap drawn.
    const b = await openPage(env.browser, encodeLink({ ...sceneNamed('42'), step: 1_000 }, env.url));
    try {
      expect((await state(b.page)).frameKind).toBe('done');
      await b.page.waitForTimeout(300);
      expect((await colourCentroid(b.page, '#canvas-shapes', GREEN)).count).toBeGreaterThan(10);
      expect((await colourCentroid(b.page, '#canvas-shapes', RED)).count).toBe(0);
      expect(b.errors).toEqual([]);
    } finally {
      await b.page.close();
    }
    // 43, the skip frame: the two parallel edges, found among the edges the trace shows.
    const scene43 = sceneNamed('43');
    const skipAt = trace(scene43).frames.findIndex((f) => f.kind === 'skip');
    expect(skipAt).toBeGreaterThan(0);
    const c = await openPage(env.browser, encodeLink({ ...scene43, step: skipAt }, env.url));
    try {
      expect((await state(c.page)).frameKind).toBe('skip');
      await c.page.waitForTimeout(300);
      expect((await colourCentroid(c.page, '#canvas-shapes', YELLOW)).count).toBeGreaterThan(10);
      expect(c.errors).toEqual([]);
    } finally {
      await c.page.close();
    }
  }, 120_000);

  it('opens the SAT scenes of the gallery, with the library answer at the last step', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      const entries = await page.evaluate(async () => (await fetch('gallery.json')).json()) as { name: string; scene: Scene }[];
      const picks = entries.map((e, i) => (e.scene.query === 'sat' ? i : -1)).filter((i) => i >= 0);
      expect(picks.length).toBe(satScenes.length);
      for (const i of picks) {
        await page.selectOption('#gallery', String(i));
        await page.keyboard.press('End');
        const s = await state(page);
        expect(s.error, entries[i].name).toBeNull();
        expect(s.frameKind).toBe('done');
        expect(s.result).toEqual(run(entries[i].scene));
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
