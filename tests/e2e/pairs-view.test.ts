// The "pairs" view (sweep and prune, then intersect() per pair) in a real browser: the gallery's lesson opens an
// eight-shape world, every step draws and has its caption, the last step's values table and result are run()'s
// answer computed in Node; a sweep step shows the sweep line's value and the active list, and colours the figure's
// open intervals (none before the sweep); a link reopens the same step;
// the query menu makes a pairs scene of the current two shapes; no page errors.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { init, run, trace, type Scene } from '../../web/lib/index';
import { useServerAndBrowser } from './harness';
import { AMBER_A, colourPixels, expectLinkReopensSame, openPage, state, stepThroughAll } from './page-helpers';

const env = useServerAndBrowser();

beforeAll(async () => {
  await init();
});

type PairsScene = Scene & { query: 'pairs' };
const ROW_SCENE = JSON.parse(readFileSync('shared/scenes/70-pairs-sweep-row.json', 'utf8')) as PairsScene;
const pairText = (pairs: number[][]) => (pairs.length ? pairs.map((p) => `(${p[0]}, ${p[1]})`).join(' ') : 'none');

async function values(page: import('playwright-core').Page): Promise<Record<string, string>> {
  const rows = await page.$$eval('#values tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent ?? '')));
  return Object.fromEntries(rows.map((r) => [r[0], r[1]]));
}

describe('the pairs view', () => {
  it('opens the gallery\'s world, steps to the end and shows run()\'s pairs', async () => {
    const expected = run(ROW_SCENE);
    const traced = trace(ROW_SCENE);
    const opened = await openPage(env.browser, env.url);
    const { page, errors } = opened;
    try {
      const option = await page.$$eval('#gallery option', (os) => os.find((o) => o.textContent === 'Eight shapes in a row')?.getAttribute('value'));
      expect(option).toBeTruthy();
      await page.selectOption('#gallery', option!);
      let s = await state(page);
      expect(s.error).toBeNull();
      expect(s.scene?.query).toBe('pairs');
      expect(s.scene?.shapes.length).toBe(8);
      expect(s.frameCount).toBe(traced.frames.length);
      expect(await page.$eval('#query', (q) => (q as HTMLSelectElement).selectedOptions[0].textContent)).toBe('pairs — broad phase');
      const kinds = await stepThroughAll(page);
      expect(kinds).toEqual(traced.frames.map((f) => f.kind));
      s = await state(page);
      expect(s.frameIndex).toBe(traced.frames.length - 1);
      expect(s.result).toEqual(expected);
      const v = await values(page);
      expect(v.answer).toBe(pairText(expected.pairs));
      expect(v['pairs so far']).toBe(pairText(expected.pairs));
      expect(v['candidates (narrow phase)']).toBe(`${expected.candidates} (${traced.boxPairs} box pairs)`);
      expect(v.step).toBe('narrow');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('shows the sweep line\'s value and the active list, and colours the open intervals', async () => {
    const traced = trace(ROW_SCENE);
    // The first sweep step with two open intervals.
    const step = traced.frames.findIndex((f) => f.kind === 'sweep' && f.active.length === 2);
    expect(step).toBeGreaterThan(1);
    const frame = traced.frames[step];
    const { encodeLink } = await import('../../web/lib/link');
    const opened = await openPage(env.browser, encodeLink({ ...ROW_SCENE, step }, env.url));
    const { page, errors } = opened;
    const v = await values(page);
    expect(v.step).toBe('sweep');
    expect(v['sweep value S']).toBe(String(Number(frame.endpoint!.value.toPrecision(6))));
    expect(v['active list']).toBe(frame.active.join(', '));
    expect(v['box pairs so far'].startsWith(`${frame.pairs.length}:`)).toBe(true);
    // An open interval is drawn amber in the figure; before the sweep (the boxes, step 1) none is.
    expect((await colourPixels(page, '#view-minkowski canvas', AMBER_A)).count).toBeGreaterThan(40);
    await page.keyboard.press('Home');
    expect((await colourPixels(page, '#view-minkowski canvas', AMBER_A)).count).toBeLessThan(5);
    await page.keyboard.press('End');
    expect(errors).toEqual([]);
    // The link reopens the same step (scene, frame, caption, values), without page errors.
    await expectLinkReopensSame(env.browser, opened);
  });

  it('keeps the figure\'s labels inside its view on a narrow page', async () => {
    // 800 × 500, the size of an iframe that embeds the whole page: the right view is 200 pixels wide, and the
    // default pair's figure fills it (two rows per axis).
    const page = await env.browser.newPage({ viewport: { width: 800, height: 500 } });
    try {
      await page.goto(env.url);
      await page.waitForFunction(() => (window as any).__collidoscope?.ready === true, null, { timeout: 30_000 });
      await page.selectOption('#query', 'pairs');
      await page.keyboard.press('End');
      await page.waitForTimeout(300);
      const out = await page.evaluate(() => {
        const view = document.querySelector('#view-minkowski')!.getBoundingClientRect();
        const labels = [...document.querySelectorAll('#view-minkowski .label-pairs-tick')];
        return {
          count: labels.length,
          // The text's own extent, at least 4 pixels in from the view's sides (text reaching a side is cut by it).
          outside: labels.map((l) => {
            const range = document.createRange();
            range.selectNodeContents(l);
            return { text: l.textContent, r: range.getBoundingClientRect() };
          })
            .filter(({ r }) => r.left < view.left + 4 || r.right > view.right - 4)
            .map(({ text, r }) => `${text} [${r.left}, ${r.right}] not in [${view.left}, ${view.right}]`),
        };
      });
      // Two end labels per axis and "swept" beside the swept axis.
      expect(out.count).toBe(7);
      expect(out.outside).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('makes a pairs scene of the current pair from the query menu', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      const before = await state(page);
      await page.selectOption('#query', 'pairs');
      const s = await state(page);
      expect(s.error).toBeNull();
      expect(s.scene?.query).toBe('pairs');
      expect(s.scene?.shapes).toEqual(before.scene?.shapes);
      expect(s.result).toEqual(run(s.scene as unknown as PairsScene));
      expect(s.frameKind).toBe('boxes');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
