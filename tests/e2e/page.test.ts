// The page in a real browser: it loads, steps (buttons, scrubber, keys), draws, edits shapes, reports errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './harness';
import { canvasStats, colourCentroid, counterText, openPage, state, type OpenedPage } from './page-helpers';

const env = useServerAndBrowser();

describe('page', () => {
  let opened: OpenedPage;
  beforeAll(async () => {
    opened = await openPage(env.browser, env.url);
  }, 60_000);
  afterAll(async () => {
    await opened?.page.close();
  });

  it('starts on the first step of the default scene with a trace', async () => {
    const s = await state(opened.page);
    expect(s.ready).toBe(true);
    expect(s.error).toBeNull();
    expect(s.scene?.version).toBe(1);
    expect(s.scene?.shapes).toHaveLength(2);
    expect(s.frameCount).toBeGreaterThanOrEqual(3);
    expect(s.frameIndex).toBe(0);
    expect(s.result).not.toBeNull();
    expect(await counterText(opened.page)).toBe(`step 1 / ${s.frameCount}`);
    expect(await opened.page.locator('#pseudocode li').count()).toBeGreaterThan(2);
    expect(await opened.page.locator('#pseudocode li.active').count()).toBe(1);
    expect((await opened.page.textContent('#caption'))?.trim().length).toBeGreaterThan(0);
  });

  it('steps with the buttons', async () => {
    const { page } = opened;
    const n = (await state(page)).frameCount;
    await page.click('#next');
    await page.click('#next');
    expect((await state(page)).frameIndex).toBe(2);
    expect(await counterText(page)).toBe(`step 3 / ${n}`);
    await page.click('#prev');
    expect((await state(page)).frameIndex).toBe(1);
    await page.click('#last');
    expect((await state(page)).frameIndex).toBe(n - 1);
    expect(await counterText(page)).toBe(`step ${n} / ${n}`);
    expect(await page.isDisabled('#next')).toBe(true);
    await page.click('#first');
    expect((await state(page)).frameIndex).toBe(0);
    expect(await page.isDisabled('#prev')).toBe(true);
  });

  it('steps with the keyboard, and not while typing in a field', async () => {
    const { page } = opened;
    const n = (await state(page)).frameCount;
    await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => undefined);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect((await state(page)).frameIndex).toBe(2);
    await page.keyboard.press('ArrowLeft');
    expect((await state(page)).frameIndex).toBe(1);
    expect(await counterText(page)).toBe(`step 2 / ${n}`);
    await page.keyboard.press('End');
    expect((await state(page)).frameIndex).toBe(n - 1);
    await page.keyboard.press('Home');
    expect((await state(page)).frameIndex).toBe(0);

    const input = page.locator('#editor-a input[type=number]').first();
    await input.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('End');
    expect((await state(page)).frameIndex).toBe(0);
    await input.blur();
  });

  it('the scrubber selects a step', async () => {
    const { page } = opened;
    await page.locator('#scrubber').fill('2');
    expect((await state(page)).frameIndex).toBe(2);
    expect(await counterText(page)).toMatch(/^step 3 \//);
    await page.keyboard.press('Home');
  });

  it('plays and pauses with Space', async () => {
    const { page } = opened;
    await page.keyboard.press('Home');
    expect((await state(page)).frameIndex).toBe(0);
    await page.keyboard.press(' ');
    await page.waitForFunction(() => (window as any).__collidoscope.frameIndex >= 1, null, { timeout: 5000 });
    await page.keyboard.press(' ');
    const at = (await state(page)).frameIndex;
    await page.waitForTimeout(1200);
    expect((await state(page)).frameIndex).toBe(at);
    expect(await page.textContent('#play')).toMatch(/Play/);
  });

  it('draws both views (canvases are not blank)', async () => {
    const { page } = opened;
    await page.waitForTimeout(300);
    for (const sel of ['#canvas-shapes', '#canvas-minkowski']) {
      const stats = await canvasStats(page, sel);
      expect(stats.colours, sel).toBeGreaterThan(20);
      expect(stats.foreground, sel).toBeGreaterThan(0.02);
    }
  });

  it('switches the query', async () => {
    const { page } = opened;
    await page.selectOption('#query', 'intersect');
    let s = await state(page);
    expect(s.scene?.query).toBe('intersect');
    expect(s.result).toHaveProperty('intersecting');
    await page.selectOption('#query', 'distance');
    s = await state(page);
    expect(s.scene?.query).toBe('distance');
    expect(s.result).toHaveProperty('distance');
  });

  it('edits a shape, and shows the library error for a bad value', async () => {
    const { page } = opened;
    await page.selectOption('#type-b', 'sphere');
    let s = await state(page);
    expect(s.scene?.shapes[1].type).toBe('sphere');
    expect(s.error).toBeNull();

    const radius = page.locator('#editor-b input[type=number]').first();
    await radius.fill('-1');
    await page.waitForFunction(() => (window as any).__collidoscope.error !== null);
    s = await state(page);
    expect(s.error).toMatch(/radius/);
    expect(await page.isVisible('#banner')).toBe(true);
    expect(await page.textContent('#banner-text')).toBe(s.error);
    expect(s.scene?.shapes[1].radius).not.toBe(-1); // the last valid scene stays

    await radius.fill('0.4');
    s = await state(page);
    expect(s.error).toBeNull();
    expect(await page.isVisible('#banner')).toBe(false);
    expect(s.scene?.shapes[1].radius).toBe(0.4);

    await page.selectOption('#type-a', 'polytope');
    await page.click('#editor-a button:has-text("Random polytope")');
    s = await state(page);
    expect(s.scene?.shapes[0].type).toBe('polytope');
    expect((s.scene?.shapes[0].points as unknown[]).length).toBeGreaterThanOrEqual(6);

    for (const type of ['point', 'segment', 'triangle', 'capsule', 'cylinder', 'cone', 'ellipsoid', 'box']) {
      await page.selectOption('#type-a', type);
      s = await state(page);
      expect(s.scene?.shapes[0].type).toBe(type);
      expect(s.error).toBeNull();
    }
  });

  it('a click attaches the gizmo to a shape, and dragging it moves the shape and re-runs the trace', async () => {
    const { page } = opened;
    await page.keyboard.press('Escape');
    await page.keyboard.press('t');
    // Shape A is drawn in amber: find it on the canvas.
    const amber = { r: [150, 255] as [number, number], g: [80, 190] as [number, number], b: [0, 90] as [number, number] };
    const at = await colourCentroid(page, '#canvas-shapes', amber);
    expect(at.count).toBeGreaterThan(500);
    await page.mouse.click(at.x, at.y);
    await page.waitForFunction(() => document.getElementById('select-a')!.classList.contains('on'));
    const before = await state(page);
    // Drag from the gizmo's centre (its handles sit at the shape's origin).
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(at.x + 10 * i, at.y - 6 * i, { steps: 2 });
    await page.mouse.up();
    await page.waitForFunction((p) => JSON.stringify((window as any).__collidoscope.scene.shapes[0].position) !== p,
      JSON.stringify(before.scene!.shapes[0].position), { timeout: 5000 });
    const after = await state(page);
    expect(after.scene!.shapes[1]).toEqual(before.scene!.shapes[1]);
    expect(after.result).not.toEqual(before.result);
    expect(after.frameIndex).toBeLessThan(after.frameCount);
    // Escape detaches; R switches the gizmo to rotation.
    await page.keyboard.press('r');
    expect(await page.getAttribute('#mode-rotate', 'class')).toContain('on');
    await page.keyboard.press('t');
    await page.keyboard.press('Escape');
    expect(await page.getAttribute('#select-a', 'class')).not.toContain('on');
  });

  it('has thrown nothing uncaught', () => {
    expect(opened.errors).toEqual([]);
  });
});

describe('gallery', () => {
  it('loads an example scene', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      const entries = await page.evaluate(async () => (await fetch('gallery.json')).json()) as { name: string; scene: { query: string; shapes: { type: string }[] } }[];
      expect(Array.isArray(entries)).toBe(true);
      const usable = entries.findIndex((e) => e.scene.query === 'intersect' || e.scene.query === 'distance');
      expect(usable, 'the gallery has an intersect or distance scene').toBeGreaterThanOrEqual(0);
      expect(await page.locator('#gallery option').count()).toBe(entries.length + 1);
      await page.selectOption('#gallery', String(usable));
      const s = await state(page);
      expect(s.error).toBeNull();
      expect(s.scene?.query).toBe(entries[usable].scene.query);
      expect(s.scene?.shapes.map((x) => x.type)).toEqual(entries[usable].scene.shapes.map((x) => x.type));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);
});
