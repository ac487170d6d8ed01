// The ray-cast and shape-cast view in a real browser: every gallery scene shared/scenes/5N-*.json opens from a
// permalink and steps through all its frames (the kinds the library's trace has, a caption and a values table
// at each step, no page error), ends on the library's own run() answer, and draws the ray (or the relative
// motion) from the scene; the link of a middle step reopens it; the closed-form sphere cases, a ray starting
// inside and shapes overlapping at the start step through too; switching between a ray cast and a shape cast
// draws the new scene's ray, not the previous one's.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { init, run, trace, type RaycastTrace, type Scene, type ShapecastTrace } from '../../web/lib/index';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { colourCentroid, counterText, expectLinkReopensSame, openPage, state, stepThroughAll } from './page-helpers';

const env = useServerAndBrowser();

const sceneDir = path.join(__dirname, '..', '..', 'shared', 'scenes');
const castFiles = readdirSync(sceneDir).filter((f) => /^5\d-.*\.json$/.test(f)).sort();
const readScene = (f: string) => JSON.parse(readFileSync(path.join(sceneDir, f), 'utf8')) as Scene;

type V3 = [number, number, number];
type Q = [number, number, number, number];

/** Cases the gallery does not show: closed-form spheres, a ray from inside A, shapes overlapping at t = 0. */
const extraScenes: Record<string, Scene> = {
  'sphere ray (closed form)': {
    version: 1, query: 'raycast', shapes: [{ type: 'sphere', radius: 0.8, position: [0.2, 0.1, 0] as V3 }],
    ray: { origin: [-1.6, 0.5, 0.3] as V3, direction: [1, -0.1, -0.1] as V3, maxT: 3 },
  },
  'ray from inside a box': {
    version: 1, query: 'raycast', shapes: [{ type: 'box', halfExtents: [1, 0.5, 0.5] as V3 }],
    ray: { origin: [0.2, 0.1, 0] as V3, direction: [1, 0, 0] as V3, maxT: 3 },
  },
  'spheres passing (closed form)': {
    version: 1, query: 'shapecast',
    shapes: [{ type: 'sphere', radius: 0.5 }, { type: 'sphere', radius: 0.3, position: [-2, 0.4, 0] as V3 }],
    motion: { translationA: [0.5, 0, 0] as V3, translationB: [2.5, -0.4, 0] as V3 },
  },
  'box and ellipsoid overlapping at the start': {
    version: 1, query: 'shapecast',
    shapes: [
      { type: 'box', halfExtents: [0.5, 0.5, 0.5] as V3, rotation: [0, 0, 0, 1] as Q },
      { type: 'ellipsoid', radii: [0.4, 0.3, 0.5] as V3, position: [0.6, 0.2, 0] as V3 },
    ],
    motion: { translationA: [0, 0, 0] as V3, translationB: [1, 0, 0] as V3 },
  },
};

/** The ray's colour (objects.ts COLORS.direction, #ffd166) with some room for blending. */
const YELLOW = { r: [225, 255] as [number, number], g: [185, 225] as [number, number], b: [70, 135] as [number, number] };

/** Texts of the HTML labels a view shows. */
async function viewLabels(page: Page, view: '#view-shapes' | '#view-minkowski'): Promise<string[]> {
  return page.$$eval(`${view} .label`, (els) => els.map((e) => e.textContent ?? ''));
}

async function valuesRows(page: Page): Promise<[string, string][]> {
  return page.$$eval('#values tr', (trs) => trs.map((tr) => [
    tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? '',
  ] as [string, string]));
}

/**
 * Opens `scene` at step 0 and checks every frame against the library's trace: kinds, iteration and λ in the
 * values table, a caption; the last frame's result equals run(scene).
 */
async function checkScene(name: string, scene: Scene): Promise<void> {
  const expected = trace(scene) as RaycastTrace | ShapecastTrace;
  const answer = run(scene);
  const { page, errors } = await openPage(env.browser, encodeLink({ ...scene, step: 0 }, env.url));
  try {
    let s = await state(page);
    expect(s.error, name).toBeNull();
    expect(s.scene?.query, name).toBe(scene.query);
    expect(await page.inputValue('#query')).toBe(scene.query);
    expect(await page.textContent('#algorithm')).toBe(scene.query === 'raycast' ? 'GJK ray cast' : 'GJK shape cast');
    expect(s.frameCount, name).toBe(expected.frames.length);
    expect(await counterText(page)).toBe(`step 1 / ${expected.frames.length}`);

    // Forward with the buttons and keys: the kinds are the trace's.
    const kinds = await stepThroughAll(page);
    expect(kinds, name).toEqual(expected.frames.map((f) => f.kind));

    // Backward: at each frame the values table shows the frame's iteration and λ, and the caption is the frame's.
    for (let i = expected.frames.length - 1; i >= 0; i--) {
      const shown = await page.evaluate(() => ({
        index: (window as any).__collidoscope.frameIndex as number,
        caption: (document.getElementById('caption')?.textContent ?? '').trim(),
        rows: [...document.querySelectorAll('#values tr')].map((tr) => [
          tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? '',
        ] as [string, string]),
      }));
      expect(shown.index).toBe(i);
      const f = expected.frames[i];
      const rows = shown.rows;
      expect(rows.length, `${name}: values of step ${i + 1}`).toBeGreaterThanOrEqual(5);
      const get = (k: string) => rows.find(([key]) => key === k)?.[1];
      expect(get('iteration'), `${name} step ${i + 1}`).toBe(String(f.iteration));
      expect(get('status')).toBe(f.reason);
      expect(rows.some(([k]) => k.startsWith('λ')), `${name} step ${i + 1}: a λ row`).toBe(true);
      if (f.kind === 'support' && f.updated) expect(get('λ (old → new)')).toMatch(/→/);
      if (f.kind === 'support') expect(rows.some(([k]) => k.startsWith('v·w vs'))).toBe(true);
      if (f.kind === 'simplex') expect(rows.some(([k]) => k.includes('vs tolerance'))).toBe(true);
      expect(shown.caption).toBe(f.caption);
      if (i > 0) await page.keyboard.press('ArrowLeft');
    }

    // The answer: the page's result is the library's run() answer, and the sentence states it.
    await page.keyboard.press('End');
    s = await state(page);
    expect(s.frameKind).toBe('done');
    expect(s.result, name).toEqual(JSON.parse(JSON.stringify(answer)));
    const sentence = (await page.textContent('#result')) ?? '';
    const r = answer as { hit: boolean; t: number | null };
    if (r.hit) expect(sentence, name).toMatch(/t = \d/);
    else expect(sentence, name).toMatch(/misses|do not touch/);
    expect(sentence).not.toMatch(/[{}]/);
    const values = (await valuesRows(page)).map(([k, v]) => `${k} ${v}`).join('\n');
    expect(values).toMatch(r.hit ? /result hit/ : /result miss/);

    // The ray (or relative motion) from the scene is drawn in the right view, with its end labelled; solid
    // and bold from s to the hit.
    if (r.hit && (r.t ?? 0) > 0) {
      await page.waitForTimeout(250);
      expect((await colourCentroid(page, '#canvas-minkowski', YELLOW)).count, `${name}: the ray`).toBeGreaterThan(30);
    }
    const right = await viewLabels(page, '#view-minkowski');
    expect(right.some((t) => (scene.query === 'raycast' ? /maxT/ : /^r \(λ = 1\)$/).test(t)), `${name}: ${right.join(' | ')}`).toBe(true);
    if (r.hit) expect(right).toContain('hit');
    expect(errors, name).toEqual([]);
  } finally {
    await page.close();
  }
}

beforeAll(async () => {
  await init();
});

describe('ray cast and shape cast view', () => {
  it('has ray-cast and shape-cast scenes in the gallery (shared/scenes/5N-*.json)', () => {
    const queries = castFiles.map((f) => readScene(f).query);
    expect(queries).toContain('raycast');
    expect(queries).toContain('shapecast');
  });

  for (const file of castFiles) {
    it(`steps through ${file} and ends on the library's answer`, async () => {
      await checkScene(file, readScene(file));
    }, 180_000);
  }

  for (const [name, scene] of Object.entries(extraScenes)) {
    it(`steps through: ${name}`, async () => {
      await checkScene(name, scene);
    }, 120_000);
  }

  it("the page's link at a middle step reopens the same cast scene at that step", async () => {
    const file = castFiles.find((f) => readScene(f).query === 'shapecast')!;
    const first = await openPage(env.browser, encodeLink({ ...readScene(file), step: 0 }, env.url));
    const target = Math.floor((await state(first.page)).frameCount / 2);
    for (let i = 0; i < target; i++) await first.page.keyboard.press('ArrowRight');
    const { after } = await expectLinkReopensSame(env.browser, first);
    expect(after.scene?.query).toBe('shapecast');
    expect(after.frameIndex).toBe(target);
  }, 120_000);

  it('switching examples draws the new scene\'s ray or motion, not the previous one\'s', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      const entries = await page.evaluate(async () => (await fetch('gallery.json')).json()) as { file: string; scene: Scene }[];
      const ray = entries.findIndex((e) => e.scene.query === 'raycast');
      const cast = entries.findIndex((e) => e.scene.query === 'shapecast');
      expect(ray).toBeGreaterThanOrEqual(0);
      expect(cast).toBeGreaterThanOrEqual(0);
      for (const i of [ray, cast, ray]) {
        await page.selectOption('#gallery', String(i));
        const s = await state(page);
        expect(s.error).toBeNull();
        expect(s.scene?.query).toBe(entries[i].scene.query);
        const right = await viewLabels(page, '#view-minkowski');
        const left = await viewLabels(page, '#view-shapes');
        if (entries[i].scene.query === 'raycast') {
          // The ray of this scene: its origin s and its end in both views; no shape-cast motion.
          expect(right.some((t) => /maxT/.test(t)), right.join(' | ')).toBe(true);
          // At λ = 0 x is still at s, and one label names both.
          expect(left.some((t) => /^s( = x \(λ = 0\))?$/.test(t)), left.join(' | ')).toBe(true);
          expect(right.some((t) => /^r \(λ = 1\)$/.test(t))).toBe(false);
        } else {
          expect(right.some((t) => /^r \(λ = 1\)$/.test(t)), right.join(' | ')).toBe(true);
          expect(right.some((t) => /maxT/.test(t))).toBe(false);
          expect(left.some((t) => /^t_[AB]$/.test(t)), left.join(' | ')).toBe(true);
        }
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
