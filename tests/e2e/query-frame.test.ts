// Choosing a query from the Query menu frames what the views then show: the right view's content moves between
// A − B, shape A in the world (the obbtree view's mesh) and the unit Gauss sphere, so its camera is aimed again.
// Measured on screenshots at 1400×900: the drawing's bounding box (pixels unlike the background) lies inside the
// right view and its centre near the view's centre, after each switch from the default page and along a sequence.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useServerAndBrowser } from './harness';
import { expectWholeAndCentred, screenshotPixels } from './page-helpers';

const env = useServerAndBrowser();

/** The bounding box of the pixels of `selector` that differ from its most common colour (its background). */
async function drawnBox(page: Page, selector: string): Promise<{ x0: number; y0: number; x1: number; y1: number; width: number; height: number; count: number }> {
  const { data, width, height } = await screenshotPixels(page, selector);
  const counts = new Map<number, number>();
  for (let i = 0; i < data.length; i += 4) {
    const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let bg = 0, most = -1;
  for (const [key, n] of counts) if (n > most) { most = n; bg = key; }
  const [br, bgr, bb] = [bg >> 16, (bg >> 8) & 255, bg & 255];
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, count = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = 4 * (y * width + x);
      if (Math.abs(data[i] - br) + Math.abs(data[i + 1] - bgr) + Math.abs(data[i + 2] - bb) < 60) continue;
      count++;
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
  }
  return { x0, y0, x1, y1, width, height, count };
}

async function choose(page: Page, query: string): Promise<void> {
  await page.selectOption('#query', query);
  await page.waitForFunction((q) => (window as any).__collidoscope.scene?.query === q, query, { timeout: 10_000 });
  // Two frames: the views render on the next animation frame.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function expectFramed(page: Page, what: string): Promise<void> {
  // The drawing only: the view's heading and labels are HTML over the canvas.
  const hide = await page.addStyleTag({ content: '.view-title, .label-layer { visibility: hidden !important; }' });
  const box = await drawnBox(page, '#canvas-minkowski');
  await hide.evaluate((el) => (el as Element).remove());
  expect(box.count, what).toBeGreaterThan(500);
  expectWholeAndCentred(box, what, { x: 0.12, y: 0.12 });
  // And not a speck: the drawing fills a good part of the view's width or height.
  expect(Math.max((box.x1 - box.x0) / box.width, (box.y1 - box.y0) / box.height), what).toBeGreaterThan(0.4);
}

async function open(): Promise<{ page: Page; errors: string[] }> {
  const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(env.url);
  await page.waitForFunction(() => (window as any).__collidoscope?.ready === true, null, { timeout: 30_000 });
  return { page, errors };
}

describe('the right view after a query is chosen from the menu (1400×900)', () => {
  for (const query of ['obbtree', 'chungwang', 'raycast']) {
    it(`frames the view of ${query} whole and centred, chosen from the default page`, async () => {
      const { page, errors } = await open();
      try {
        await expectFramed(page, 'default page');
        await choose(page, query);
        await expectFramed(page, query);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }

  it('frames each view along a sequence of switches (Gauss sphere, A − B, a ray, back)', async () => {
    const { page, errors } = await open();
    try {
      for (const query of ['chungwang', 'penetration', 'chungwang', 'raycast', 'chungwang', 'intersect']) {
        await choose(page, query);
        await expectFramed(page, query);
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
