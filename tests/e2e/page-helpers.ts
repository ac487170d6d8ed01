// Helpers shared by the page's browser tests (the server and browser come from ./harness).
import { beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';

export interface PageState {
  scene: { version: 1; query: string; shapes: Record<string, unknown>[] } | null;
  frameIndex: number;
  frameCount: number;
  /** Kind of the frame shown: GJK 'init' | 'support' | 'simplex' | 'done'; EPA 'seed' | 'closest' | 'support' | 'expand' | 'done';
   *  quickhull 'extremes' | 'tetrahedron' | 'eye' | 'visible' | 'horizon' | 'cone' | 'done' | 'degenerate';
   *  a closed form's one frame 'closed-form'. */
  frameKind: string | null;
  /** The closed form that answered the pair ('point-point', 'segment-point' ...), null for an algorithm's steps. */
  closedForm: string | null;
  result: Record<string, unknown> | null;
  /** Hull view: the "obb" query's answer for the cloud (aabb, sphere, fits, and the refined box), else null. */
  bounds: Record<string, any> | null;
  /** Hull view: ids of the bounding volumes drawn ('aabb', 'sphere', 'obbPoints', 'obbTriangles', 'obb'). */
  boundsShown: string[];
  error: string | null;
  link: string;
  playing: boolean;
  /**
   * The sandbox (query simulate): the frame's step, the poses the shapes are drawn at, its contact points and where
   * their dots are on the page; else null.
   */
  world: { step: number; poses: number[][]; contacts: number; contactsOnScreen: { pair: [number, number]; at: [number, number] }[] } | null;
  ready: boolean;
}

export interface OpenedPage {
  page: Page;
  /** Uncaught exceptions and console errors seen so far. */
  errors: string[];
}

/** Opens `url` in a fresh page and waits until the page says it is ready. */
export async function openPage(browser: Browser, url: string): Promise<OpenedPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // Ignore resource 404s (e.g. favicon) and driver chatter; keep script errors.
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  await page.goto(url);
  await page.waitForFunction(() => (window as any).__collidoscope?.ready === true, null, { timeout: 30_000 });
  return { page, errors };
}

/**
 * The state of the page opened without a link (the default scene), read once before the file's tests:
 * call at the top level of a test file; the returned function gives the state inside the tests.
 */
export function useDefaultState(env: { readonly url: string; readonly browser: Browser }): () => PageState {
  let defaults: PageState | undefined;
  beforeAll(async () => {
    const { page } = await openPage(env.browser, env.url);
    defaults = await state(page);
    await page.close();
  }, 60_000);
  return () => {
    if (!defaults) throw new Error('the default state is read in beforeAll');
    return defaults;
  };
}

export function state(page: Page): Promise<PageState> {
  return page.evaluate(() => JSON.parse(JSON.stringify((window as any).__collidoscope)) as PageState);
}

export async function counterText(page: Page): Promise<string> {
  return (await page.textContent('#counter')) ?? '';
}

export async function captionText(page: Page): Promise<string> {
  return ((await page.textContent('#caption')) ?? '').trim();
}

/**
 * The permalink round trip: waits until the address bar holds the link of what `first` shows, opens that link in
 * a new page and checks that it shows the same scene, step, frame kind, frame count, result, counter, caption and
 * values table, with no page error in either. Closes both pages; returns the two states (before, after).
 */
export async function expectLinkReopensSame(browser: Browser, first: OpenedPage): Promise<{ before: PageState; after: PageState }> {
  const { page } = first;
  // The hash is written with replaceState, coalesced when changes come faster than 200 ms.
  await page.waitForFunction(() => location.href === (window as any).__collidoscope.link, null, { timeout: 5000 });
  const before = await state(page);
  const url = page.url();
  expect(url).toContain('#v1=');
  const second = await openPage(browser, url);
  try {
    const after = await state(second.page);
    expect(after.error).toBeNull();
    expect(after.scene).toEqual(before.scene);
    expect(after.frameIndex).toBe(before.frameIndex);
    expect(after.frameKind).toBe(before.frameKind);
    expect(after.frameCount).toBe(before.frameCount);
    expect(after.result).toEqual(before.result);
    expect(await counterText(second.page)).toBe(await counterText(page));
    expect(await captionText(second.page)).toBe(await captionText(page));
    expect(await second.page.textContent('#values')).toBe(await page.textContent('#values'));
    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
    return { before, after };
  } finally {
    await page.close();
    await second.page.close();
  }
}

/** Steps forward from the first frame until a frame of `kind` is shown; its index, or -1 at the end. */
export async function stepToKind(page: Page, kind: string, after = 0): Promise<number> {
  await page.keyboard.press('Home');
  for (;;) {
    const s = await state(page);
    if (s.frameKind === kind && s.frameIndex >= after) return s.frameIndex;
    if (s.frameIndex >= s.frameCount - 1) return -1;
    await page.keyboard.press('ArrowRight');
  }
}

/** The RGBA pixels of a screenshot of `selector`, decoded by the browser (no PNG decoder here). */
export async function screenshotPixels(page: Page, selector: string): Promise<{ data: Buffer; width: number; height: number }> {
  const png = await page.locator(selector).screenshot();
  const decoded = await page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const bytes = ctx.getImageData(0, 0, c.width, c.height).data;
    // Back to Node as base64, in pieces that String.fromCharCode takes as arguments.
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { base64: btoa(text), width: c.width, height: c.height };
  }, 'data:image/png;base64,' + png.toString('base64'));
  return { data: Buffer.from(decoded.base64, 'base64'), width: decoded.width, height: decoded.height };
}

/**
 * How a canvas looks: the number of distinct colours (quantized to 4 bits per channel) and the share of
 * pixels that differ from its most common colour (the background). Measured on a real screenshot, so it
 * sees what a person sees, whatever the WebGL buffer settings.
 */
export async function canvasStats(page: Page, selector: string): Promise<{ colours: number; foreground: number }> {
  const { data } = await screenshotPixels(page, selector);
  const counts = new Map<number, number>();
  for (let i = 0; i < data.length; i += 4) {
    const key = ((data[i] >> 4) << 8) | ((data[i + 1] >> 4) << 4) | (data[i + 2] >> 4);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const total = data.length / 4;
  const background = Math.max(...counts.values());
  return { colours: counts.size, foreground: (total - background) / total };
}

/** Base64url of UTF-8 text, the encoding of permalink payloads. */
export function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

export interface ColourRange { r: [number, number]; g: [number, number]; b: [number, number] }

/** The pixels of an element whose colour falls in a range, in the element's screenshot pixels. */
export interface ColourPixels {
  count: number;
  /** Their mean position (0 when there are none). */
  x: number;
  y: number;
  /** Their bounding box (±Infinity when there are none). */
  x0: number; y0: number; x1: number; y1: number;
  /** The screenshot's size. */
  width: number;
  height: number;
}

/** The pixels of `selector`'s screenshot whose colour falls in `range`: where a shape is drawn, camera unknown. */
export async function colourPixels(page: Page, selector: string, range: ColourRange): Promise<ColourPixels> {
  const { data: d, width, height } = await screenshotPixels(page, selector);
  let sx = 0, sy = 0, n = 0, x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = 4 * (y * width + x);
      if (d[i] >= range.r[0] && d[i] <= range.r[1] && d[i + 1] >= range.g[0] && d[i + 1] <= range.g[1]
        && d[i + 2] >= range.b[0] && d[i + 2] <= range.b[1]) {
        sx += x; sy += y; n++;
        x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
      }
    }
  }
  return { count: n, x: n ? sx / n : 0, y: n ? sy / n : 0, x0, y0, x1, y1, width, height };
}

/** Centre (page coordinates) of the pixels of an element whose colour falls in `range`, and their count. */
export async function colourCentroid(page: Page, selector: string, range: ColourRange): Promise<{ x: number; y: number; count: number }> {
  const box = (await page.locator(selector).boundingBox())!;
  const found = await colourPixels(page, selector, range);
  const scale = box.width / found.width;
  return { x: box.x + found.x * scale, y: box.y + found.y * scale, count: found.count };
}

/**
 * From the first frame, steps through every frame, alternating the next button and the right arrow key.
 * At each step: the index advances by one, the frame count and the counter stay right, the caption is
 * non-empty and new, and exactly one pseudocode line is active. Returns the kinds of all frames in order.
 */
export async function stepThroughAll(page: Page): Promise<(string | null)[]> {
  let s = await state(page);
  const n = s.frameCount;
  const kinds = [s.frameKind];
  let prev = await captionText(page);
  expect(prev.length).toBeGreaterThan(0);
  for (let i = 1; i < n; i++) {
    if (i % 2) await page.click('#next');
    else await page.keyboard.press('ArrowRight');
    s = await state(page);
    expect(s.frameIndex).toBe(i);
    expect(s.frameCount).toBe(n);
    expect(await counterText(page)).toBe(`step ${i + 1} / ${n}`);
    const c = await captionText(page);
    expect(c.length).toBeGreaterThan(0);
    expect(c, `caption of step ${i + 1}`).not.toBe(prev);
    prev = c;
    expect(await page.locator('#pseudocode li.active').count()).toBe(1);
    kinds.push(s.frameKind);
  }
  return kinds;
}

/** Shape A's colour (primitives.ts COLORS.a, #f5a524), with room for blending. */
export const AMBER_A: ColourRange = { r: [170, 255], g: [100, 190], b: [0, 80] };
/** A hit triangle's colour (primitives.ts COLORS.simplex, #3ddc97), with room for blending. */
export const HIT_GREEN: ColourRange = { r: [20, 110], g: [170, 255], b: [100, 190] };

/**
 * Shape A's editor for a shape type the editor does not offer (mesh, heightfield, compound): it names the type
 * "from the scene", shows `summary` (its size), and has no margin field.
 */
export async function expectSceneShapeEditor(page: Page, type: string, summary: string): Promise<void> {
  expect(await page.locator('#type-a option:checked').innerText()).toBe(`${type} (from the scene)`);
  const editor = page.locator('#type-a').locator('xpath=ancestor::details[1]');
  expect(await editor.innerText()).toContain(summary);
  expect(await editor.getByRole('spinbutton', { name: /margin/ }).count()).toBe(0);
}

/**
 * A ray cast on a triangle shape A (mesh, heightfield) opened from `url`: one step showing `expected` (run() on the
 * same scene) with the hit triangle named in the caption, the shape (amber) and the hit triangle (green) drawn in
 * both views, A's editor as expectSceneShapeEditor says, a link that reopens the same scene, and no page error.
 */
export async function expectTriangleRaycastPage(browser: Browser, url: string, expected: { triangle: number },
  type: string, summary: string): Promise<void> {
  expect(expected.triangle).toBeGreaterThanOrEqual(0);
  const opened = await openPage(browser, url);
  const { page, errors } = opened;
  try {
    const s = await state(page);
    expect(s.error).toBeNull();
    expect(s.frameCount).toBe(1);
    expect(s.result).toEqual(expected);
    expect(await page.locator('#caption').innerText()).toContain(`triangle ${expected.triangle} is hit first`);
    for (const canvas of ['#canvas-shapes', '#canvas-minkowski']) {
      expect((await colourPixels(page, canvas, AMBER_A)).count, `${canvas}: the ${type}`).toBeGreaterThan(500);
      expect((await colourPixels(page, canvas, HIT_GREEN)).count, `${canvas}: the hit triangle`).toBeGreaterThan(20);
    }
    await expectSceneShapeEditor(page, type, summary);
    await expectLinkReopensSame(browser, opened);
    expect(errors).toEqual([]);
  } finally {
    await page.close();
  }
}

/**
 * A drawing's bounding box (pixels of a view's screenshot) lies whole inside the view, not touching its edges,
 * and its centre within `slack` (a share of the width and of the height) of the view's centre.
 */
export function expectWholeAndCentred(
  box: { x0: number; y0: number; x1: number; y1: number; width: number; height: number }, what: string,
  slack: { x: number; y: number },
): void {
  expect(box.x0, what).toBeGreaterThan(2);
  expect(box.y0, what).toBeGreaterThan(2);
  expect(box.x1, what).toBeLessThan(box.width - 3);
  expect(box.y1, what).toBeLessThan(box.height - 3);
  expect(Math.abs((box.x0 + box.x1) / 2 - box.width / 2), what).toBeLessThan(slack.x * box.width);
  expect(Math.abs((box.y0 + box.y1) / 2 - box.height / 2), what).toBeLessThan(slack.y * box.height);
}

/** Drags the handle `kind` of the shapes view by (dx, dy) pixels: a click attaches the gizmo, then a drag from its centre. */
export async function dragHandle(page: Page, kind: string, dx: number, dy: number): Promise<void> {
  const handles = (await page.evaluate(() => (window as unknown as { __collidoscope: { handles: Record<string, [number, number]> } })
    .__collidoscope.handles));
  const [x, y] = handles[kind];
  expect(x).toBeGreaterThan(0);
  await page.mouse.click(x, y);
  await page.waitForTimeout(150);
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(x + (dx * i) / 8, y + (dy * i) / 8, { steps: 2 });
  await page.mouse.up();
  await page.waitForTimeout(300);
}
