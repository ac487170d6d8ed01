// The page's explaining tools in a real browser: the example list grouped by lesson with each example's
// sentence, predict mode for GJK and EPA (a wrong choice is told so, a right one shows the step, the answer is
// the trace's),
// the convergence plot (a point per iteration holding the trace's values, a click goes to the step), and the
// result box that waits for the last step or for "Show answer". References come from shared/lessons.json
// and from the library's trace() run here in Node, not from the page.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { init, trace, type EpaTrace, type GjkTrace, type Scene } from '../../web/lib/index';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { openPage, state } from './page-helpers';

const env = useServerAndBrowser();
const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('shared/lessons.json', root)), 'utf8')) as {
  lessons: { lesson: string; scenes: { file: string; title: string; sentence: string }[] }[];
};
const scene = (file: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`shared/scenes/${file}`, root)), 'utf8')) as Scene;

beforeAll(async () => {
  await init();
});

const frameIndex = async (page: Page) => (await state(page)).frameIndex;
const visible = (page: Page, sel: string) => page.isVisible(sel);

describe('gallery in lessons', () => {
  it('groups the examples by lesson in the manifest\'s order, titled, with the sentence under the list', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      const groups = await page.$$eval('#gallery optgroup', (gs) => gs.map((g) => ({
        label: (g as HTMLOptGroupElement).label,
        options: [...g.querySelectorAll('option')].map((o) => o.textContent),
      })));
      const lessons = manifest.lessons.filter((l) => l.scenes.length > 0);
      expect(groups.map((g) => g.label)).toEqual(lessons.map((l, i) => `${i + 1}. ${l.lesson}`));
      groups.forEach((g, i) => expect(g.options).toEqual(lessons[i].scenes.map((e) => e.title)));
      expect(groups.map((g) => g.label.replace(/^\d+\. /, ''))).toEqual(
        expect.arrayContaining(['GJK in 3D', 'EPA: penetration depth', 'Convex hulls', 'Ray casts and shape casts']),
      );
      expect(await visible(page, '#gallery-sentence')).toBe(false);

      // Choosing an example shows it and its sentence; stepping keeps the sentence; editing the scene drops it.
      const entry = manifest.lessons[2].scenes[1];
      const option = await page.$eval('#gallery', (sel, title) => [...(sel as HTMLSelectElement).options].find((o) => o.textContent === title)!.value, entry.title);
      await page.selectOption('#gallery', option);
      expect(await page.textContent('#gallery-sentence')).toBe(entry.sentence);
      expect(await visible(page, '#gallery-sentence')).toBe(true);
      expect((await state(page)).scene).toEqual(JSON.parse(JSON.stringify(scene(entry.file))));
      await page.keyboard.press('ArrowRight');
      expect(await page.textContent('#gallery-sentence')).toBe(entry.sentence);
      await page.selectOption('#query', 'distance');
      expect(await visible(page, '#gallery-sentence')).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('predict mode', () => {
  const file = '01-sphere-box-distance.json';
  const tr = () => trace(scene(file)) as GjkTrace;

  it('holds each GJK step for a choice: a wrong one is told so, the right one shows the step', async () => {
    const t = tr();
    const { page, errors } = await openPage(env.browser, encodeLink({ ...scene(file), step: 0 }, env.url));
    try {
      expect(await visible(page, '#quiz')).toBe(false);
      expect(await page.getAttribute('#predict', 'aria-pressed')).toBe('false');
      // Off by default: steps go straight on.
      await page.keyboard.press('ArrowRight');
      expect(await frameIndex(page)).toBe(1);
      await page.keyboard.press('ArrowLeft');

      await page.click('#predict');
      expect(await page.getAttribute('#predict', 'aria-pressed')).toBe('true');
      await page.keyboard.press('ArrowRight');
      expect(await frameIndex(page), 'the step waits for the choice').toBe(0);
      expect(await page.getAttribute('#quiz', 'data-state')).toBe('asking');
      const points = await page.$$eval('#quiz .quiz-choice', (bs) => bs.map((b) => JSON.parse((b as HTMLElement).dataset.point!) as number[]));
      expect(points.length).toBeGreaterThanOrEqual(2);
      const answer = t.frames[1].support!.w;
      const right = points.findIndex((p) => p.every((x, k) => x === answer[k]));
      expect(right, 'the trace\'s support point is among the choices').toBeGreaterThanOrEqual(0);
      expect(points.filter((p) => p.every((x, k) => x === answer[k]))).toHaveLength(1);
      const wrong = right === 0 ? 1 : 0;

      await page.click(`#quiz .quiz-choice >> nth=${wrong}`);
      expect(await frameIndex(page)).toBe(0);
      expect(await page.getAttribute('#quiz .quiz-feedback', 'class')).toContain('wrong');
      expect(await page.textContent('#quiz .quiz-feedback')).toMatch(/^Not /);
      expect(await page.getAttribute(`#quiz .quiz-choice >> nth=${wrong}`, 'class')).toContain('wrong');

      await page.click(`#quiz .quiz-choice >> nth=${right}`);
      const s = await state(page);
      expect(s.frameIndex).toBe(1);
      expect(s.frameKind).toBe('support');
      expect(await page.getAttribute('#quiz', 'data-state')).toBe('solved');
      expect(await page.textContent('#quiz .quiz-feedback')).toMatch(/^Right: w = /);

      // The region question before the simplex update, answered with a number key.
      await page.keyboard.press('ArrowRight');
      expect(await frameIndex(page)).toBe(1);
      const sets = await page.$$eval('#quiz .quiz-choice', (bs) => bs.map((b) => JSON.parse((b as HTMLElement).dataset.members!) as string[]));
      const names = new Map<string, string>([[JSON.stringify(t.frames[1].support!.w), 'w'],
        ...t.frames[1].simplex.map((v, i) => [JSON.stringify(v.w), String(i + 1)] as [string, string])]);
      const kept = t.frames[2].simplex.map((v) => names.get(JSON.stringify(v.w))).sort();
      const pick = sets.findIndex((m) => JSON.stringify([...m].sort()) === JSON.stringify(kept));
      expect(pick).toBeGreaterThanOrEqual(0);
      await page.keyboard.press(String(pick + 1));
      expect(await frameIndex(page)).toBe(2);
      expect((await state(page)).frameKind).toBe('simplex');

      // Answered steps are not asked again; "Reveal" shows a step without a choice.
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowRight');
      expect(await frameIndex(page)).toBe(1);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      expect(await frameIndex(page)).toBe(2);
      await page.click('#quiz .quiz-reveal');
      expect(await frameIndex(page)).toBe(3);
      expect(await page.textContent('#quiz .quiz-feedback')).toMatch(/^The answer: w = /);

      // Play stops at a question instead of running past it.
      await page.click('#speed');
      await page.selectOption('#speed', '4');
      await page.click('#play');
      await page.waitForFunction(() => (window as any).__collidoscope.playing === false, null, { timeout: 10_000 });
      expect(await frameIndex(page)).toBe(3);
      expect(await page.getAttribute('#quiz', 'data-state')).toBe('asking');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('asks before EPA picks the face nearest the origin', async () => {
    const epaFile = '13-box-deep-inside-box.json';
    const t = trace(scene(epaFile)) as EpaTrace;
    const { page, errors } = await openPage(env.browser, encodeLink({ ...scene(epaFile), step: 0 }, env.url));
    try {
      await page.click('#predict');
      await page.keyboard.press('ArrowRight');
      expect(t.frames[1].kind).toBe('closest');
      expect(await frameIndex(page)).toBe(0);
      const faces = await page.$$eval('#quiz .quiz-choice', (bs) => bs.map((b) => Number((b as HTMLElement).dataset.face)));
      expect(faces.length).toBeGreaterThanOrEqual(2);
      const right = faces.indexOf(t.frames[1].closest!);
      expect(right).toBeGreaterThanOrEqual(0);
      await page.click(`#quiz .quiz-choice >> nth=${right === 0 ? 1 : 0}`);
      expect(await frameIndex(page)).toBe(0);
      expect(await page.textContent('#quiz .quiz-feedback')).toMatch(/^Not face \d/);
      await page.click(`#quiz .quiz-choice >> nth=${right}`);
      expect(await frameIndex(page)).toBe(1);
      expect((await state(page)).frameKind).toBe('closest');
      // Support and expand steps are not asked about: the next question stands before the next 'closest'.
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      expect(await frameIndex(page)).toBe(3);
      expect(await page.getAttribute('#quiz', 'data-state')).toBe('asking');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('answers to touch on a phone, and an embed turns it on with "predict"', async () => {
    const t = tr();
    const link = encodeLink({ ...scene(file), step: 0 }, env.url);
    const ctx = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await ctx.newPage();
    try {
      await page.goto(link.replace('/#', '/?embed&predict#'));
      await page.waitForFunction(() => (window as any).__collidoscope?.ready === true);
      expect(await page.getAttribute('#predict', 'aria-pressed')).toBe('true');
      await page.tap('#next');
      expect(await frameIndex(page)).toBe(0);
      const points = await page.$$eval('#quiz .quiz-choice', (bs) => bs.map((b) => JSON.parse((b as HTMLElement).dataset.point!) as number[]));
      const answer = t.frames[1].support!.w;
      const right = points.findIndex((p) => p.every((x, k) => x === answer[k]));
      // The choices and the step bar are on the first screen together.
      for (const sel of [`#quiz .quiz-choice >> nth=${right}`, '#next', '#plot']) {
        const box = (await page.locator(sel).boundingBox())!;
        expect(box.y + box.height, sel).toBeLessThanOrEqual(844);
      }
      await page.tap(`#quiz .quiz-choice >> nth=${right}`);
      expect(await frameIndex(page)).toBe(1);
    } finally {
      await ctx.close();
    }
  });
});

describe('convergence plot', () => {
  it('plots a point per iteration with the trace\'s bounds; a click goes to that step', async () => {
    const file = '05-polytope-ellipsoid.json';
    const t = trace(scene(file)) as GjkTrace;
    const { page, errors } = await openPage(env.browser, encodeLink({ ...scene(file), step: 0 }, env.url));
    try {
      expect(await visible(page, '#plot')).toBe(true);
      const read = (series: string) => page.$$eval(`#plot .plot-dot[data-series="${series}"]`, (ds) => ds.map((d) => ({
        frame: Number(d.getAttribute('data-frame')), value: JSON.parse(d.getAttribute('data-value')!) as number,
      })));
      const upper = await read('upper');
      const lower = await read('lower');
      const support = t.frames.map((f, i) => ({ f, i })).filter((x) => x.f.kind === 'support');
      expect(upper).toHaveLength((t.result as { iterations: number }).iterations);
      expect(upper).toEqual(support.map(({ f, i }) => ({ frame: i, value: Math.sqrt(f.vv) })));
      expect(lower).toEqual(support.filter(({ f }) => (f.vw as number) > 0)
        .map(({ f, i }) => ({ frame: i, value: (f.vw as number) / Math.sqrt(f.vv) })));
      expect(await page.$$eval('#plot .plot-dot.current', (d) => d.length)).toBe(0);

      // Clicking the fifth iteration's column shows its support frame and marks it.
      const target = support[4].i;
      await page.click(`#plot rect.plot-col[data-frame="${target}"]`);
      expect(await frameIndex(page)).toBe(target);
      expect(await page.$$eval('#plot .plot-dot.current', (ds) => ds.map((d) => Number(d.getAttribute('data-frame'))))).toEqual([target, target]);
      await page.keyboard.press('ArrowRight');
      expect(await page.$$eval('#plot .plot-dot.current', (ds) => ds.map((d) => Number(d.getAttribute('data-frame'))))).toEqual([target, target]);

      // Casts plot λ; a query without iterations has no plot.
      await page.selectOption('#query', 'raycast');
      expect(await page.$$eval('#plot .plot-dot', (ds) => ds.map((d) => d.getAttribute('data-series')))).toSatisfy(
        (s: string[]) => s.length > 0 && s.every((x) => x === 'lambda'),
      );
      await page.selectOption('#query', 'sat');
      expect(await visible(page, '#plot')).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('result box', () => {
  it('shows the answer only at the last step, or when asked, until the scene changes', async () => {
    const file = '13-box-deep-inside-box.json';
    const { page, errors } = await openPage(env.browser, encodeLink({ ...scene(file), step: 0 }, env.url));
    try {
      expect(await visible(page, '#result')).toBe(false);
      expect(await visible(page, '#result-cover')).toBe(true);
      await page.keyboard.press('End');
      expect(await visible(page, '#result')).toBe(true);
      expect(await page.textContent('#result')).toMatch(/depth 1\.6\b/);
      expect(await visible(page, '#result-cover')).toBe(false);
      await page.keyboard.press('ArrowLeft');
      expect(await visible(page, '#result')).toBe(false);

      await page.click('#show-answer');
      expect(await visible(page, '#result')).toBe(true);
      await page.keyboard.press('Home');
      expect(await visible(page, '#result'), 'asked for: it stays').toBe(true);

      // A new scene hides it again; playing at 4× reaches the last step and shows it.
      await page.selectOption('#query', 'distance');
      expect(await visible(page, '#result')).toBe(false);
      await page.selectOption('#speed', '4');
      const t0 = Date.now();
      await page.click('#play');
      await page.waitForFunction(() => (window as any).__collidoscope.playing === false, null, { timeout: 20_000 });
      const s = await state(page);
      expect(s.frameIndex).toBe(s.frameCount - 1);
      // 4× is one step every 0.225 s: the steps after the first take at least that long each.
      expect(Date.now() - t0).toBeGreaterThanOrEqual((s.frameCount - 1) * 225 - 50);
      expect(await visible(page, '#result')).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
