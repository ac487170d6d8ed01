// The page in an 800×500 iframe of a host page, embedded (?embed) and whole (the side panel beside a 400-px stage):
// for gallery scenes of every kind of view and for the obbtree view at its last step, the step counter and every
// control of the step bar lie whole inside the frame, none over another, and the counter's text is not clipped.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Frame } from 'playwright-core';
import type { Scene } from '../../web/lib/index';
import { encodeLink } from '../../web/lib/link';
import { builtinScene } from '../../web/viz/builtin-meshes';
import { useServerAndBrowser } from './harness';

const env = useServerAndBrowser();
const GALLERY = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist', 'viz', 'gallery.json');

const gallery = JSON.parse(readFileSync(GALLERY, 'utf8')) as { title: string; scene: Scene }[];
/** A 2D lesson, a GJK pair, a point cloud's hull, a ray cast, SAT, and the obbtree view with a long counter. */
const SCENES: { name: string; scene: Scene }[] = [
  ...[0, 1, 19, 25, 33].map((i) => ({ name: gallery[i].title, scene: gallery[i].scene })),
  { name: 'the torus knot\'s OBB tree, last step', scene: { ...builtinScene('torus-knot'), step: 10_000 } },
];

const CONTROLS = ['#first', '#prev', '#play', '#next', '#last', '#scrubber', '#counter', '#speed', '#predict'];

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;

async function checkStepBar(frame: Frame, controls: string[], name: string): Promise<void> {
  const boxes: Box[] = [];
  for (const sel of controls) {
    const b = await frame.locator(sel).boundingBox();
    expect(b, `${name}: ${sel} shown`).not.toBeNull();
    // Bounding boxes are in the host page's coordinates; the iframe sits at (0, 0).
    expect(b!.x, `${name}: ${sel}`).toBeGreaterThanOrEqual(0);
    expect(b!.y, `${name}: ${sel}`).toBeGreaterThanOrEqual(0);
    expect(b!.x + b!.width, `${name}: ${sel} inside the frame's right edge`).toBeLessThanOrEqual(800.5);
    expect(b!.y + b!.height, `${name}: ${sel} inside the frame's bottom edge`).toBeLessThanOrEqual(500.5);
    for (const [k, other] of boxes.entries()) expect(overlap(b!, other), `${name}: ${sel} over ${controls[k]}`).toBe(false);
    boxes.push(b!);
  }
  const counter = await frame.locator('#counter').evaluate((e) => ({ text: e.textContent, fits: e.scrollWidth <= e.clientWidth + 0.5 }));
  expect(counter.text, name).toMatch(/^step \d+ \/ \d+$/);
  expect(counter.fits, `${name}: the counter's text fits its box`).toBe(true);
}

describe('the step bar in an 800×500 iframe', () => {
  for (const embed of [true, false]) {
    it(`keeps the counter and the controls whole (${embed ? '?embed' : 'the whole page, side panel and all'})`, async () => {
      const page = await env.browser.newPage({ viewport: { width: 900, height: 600 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      try {
        for (const { name, scene } of SCENES) {
          const src = encodeLink(scene, env.url + (embed ? '?embed' : ''));
          await page.setContent(`<!doctype html><body style="margin:0"><iframe src="${src}" width="800" height="500" style="border:0"></iframe></body>`);
          const frame = (await (await page.waitForSelector('iframe')).contentFrame())!;
          await frame.waitForFunction(() => (window as any).__collidoscope?.ready === true, null, { timeout: 30_000 });
          const s = await frame.evaluate(() => ({ error: (window as any).__collidoscope.error, index: (window as any).__collidoscope.frameIndex, count: (window as any).__collidoscope.frameCount }));
          expect(s.error, name).toBeNull();
          if (scene.step) expect(s.index, name).toBe(s.count - 1);
          await checkStepBar(frame, embed ? [...CONTROLS, '#open-page'] : CONTROLS, name);
        }
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});

/** The caption's box, its text's height, and whether it lies above the views, in the frame. */
async function captionFit(frame: Frame): Promise<{ text: string; scroll: number; client: number; top: number; bottom: number; viewsTop: number }> {
  return frame.evaluate(() => {
    const c = document.getElementById('caption')!;
    const r = c.getBoundingClientRect();
    const views = document.querySelector('.views, #views') ?? document.getElementById('canvas-shapes')!;
    return { text: c.textContent ?? '', scroll: c.scrollHeight, client: c.clientHeight, top: r.top, bottom: r.bottom, viewsTop: views.getBoundingClientRect().top };
  });
}

describe('the caption in an 800×500 iframe (?embed) with the note banner shown', () => {
  it('shows every line of each step\'s caption, above the views; a longer text scrolls within 40 % of the frame', async () => {
    const page = await env.browser.newPage({ viewport: { width: 900, height: 600 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    try {
      const src = encodeLink({ ...gallery[1].scene, query: 'penetration' } as Scene, env.url + '?embed');
      await page.setContent(`<!doctype html><body style="margin:0"><iframe src="${src}" width="800" height="500" style="border:0"></iframe></body>`);
      const frame = (await (await page.waitForSelector('iframe')).contentFrame())!;
      await frame.waitForFunction(() => (window as any).__collidoscope?.ready === true, null, { timeout: 30_000 });
      // The query list is in the hidden side panel: chosen as the page's own handler hears it. The obbtree view
      // swaps in the torus knot and says so in the note banner.
      await frame.evaluate(() => {
        const select = document.getElementById('query') as HTMLSelectElement;
        select.value = 'obbtree';
        select.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await frame.waitForFunction(() => (window as any).__collidoscope.scene?.query === 'obbtree');
      expect(await frame.locator('#banner').isVisible()).toBe(true);
      let lines = 0;
      for (let i = 0; i < 20; i++) {
        const fit = await captionFit(frame);
        expect(fit.scroll, `step ${i}: ${fit.text}`).toBeLessThanOrEqual(fit.client);
        expect(fit.bottom, `step ${i}`).toBeLessThanOrEqual(fit.viewsTop + 0.5);
        lines = Math.max(lines, Math.round((fit.client - 12) / 18));
        await frame.evaluate(() => document.getElementById('next')!.click());
      }
      expect(lines).toBeGreaterThanOrEqual(2);
      // Five lines' worth: all of it shows (the views give up the height), the step bar stays whole.
      const five = 'The boxes of node pair (A 894, B\'s box) overlap: descend into A\'s node, the larger box. '.repeat(5);
      await frame.evaluate((t) => { document.getElementById('caption')!.textContent = t; }, five);
      const whole = await captionFit(frame);
      expect(whole.client).toBeGreaterThan(4 * 18);
      expect(whole.scroll).toBeLessThanOrEqual(whole.client);
      await checkStepBar(frame, [...CONTROLS, '#open-page'], 'five-line caption');
      // Far longer: the caption stops at 40 % of the frame and scrolls to its last line.
      await frame.evaluate((t) => { document.getElementById('caption')!.textContent = t + ' The end.'; }, five.repeat(6));
      const long = await captionFit(frame);
      expect(long.bottom - long.top).toBeLessThanOrEqual(0.4 * 500 + 0.5);
      expect(long.scroll).toBeGreaterThan(long.client);
      const reached = await frame.evaluate(() => {
        const c = document.getElementById('caption')!;
        c.scrollTop = c.scrollHeight;
        return c.scrollTop + c.clientHeight >= c.scrollHeight - 1 && getComputedStyle(c).overflowY === 'auto';
      });
      expect(reached).toBe(true);
      await checkStepBar(frame, [...CONTROLS, '#open-page'], 'long caption');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
