// The hull view in a real browser: a hull permalink opens the point cloud, steps through the whole
// quickhull build (buttons and keys) with a new caption at every step, draws the cone of new faces, and its
// link reopens the same step; the bounding-volume overlays toggle and list their volumes; a garbled pasted
// point list and a cloud too large to trace are reported in the banner.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { canvasStats, colourCentroid, counterText, expectLinkReopensSame, openPage, state, stepThroughAll, stepToKind } from './page-helpers';

const env = useServerAndBrowser();

type V3 = [number, number, number];

/** 36 points: 28 near a slightly squashed sphere (golden spiral) and 8 inside, rounded to 3 decimals. */
function cloud(): V3[] {
  const pts: V3[] = [];
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  for (let i = 0; i < 28; i++) {
    const y = 1 - (2 * (i + 0.5)) / 28;
    const r = Math.sqrt(1 - y * y);
    const t = i * 2.399963;
    const s = 1 + 0.08 * Math.sin(3 * i);
    pts.push([r3(1.2 * s * r * Math.cos(t)), r3(0.8 * s * y), r3(s * r * Math.sin(t))]);
  }
  for (let i = 0; i < 8; i++) pts.push([r3(0.3 * Math.cos(i)), r3(0.2 * Math.sin(2 * i)), r3(0.25 * Math.sin(i))]);
  return pts;
}

const hullScene = { version: 1 as const, query: 'hull', shapes: [{ type: 'polytope', points: cloud() }] };

const GREEN = { r: [20, 120] as [number, number], g: [150, 255] as [number, number], b: [100, 200] as [number, number] };
const YELLOW = { r: [220, 255] as [number, number], g: [180, 230] as [number, number], b: [60, 130] as [number, number] };

async function bannerText(page: Page): Promise<string> {
  return (await page.isVisible('#banner')) ? ((await page.textContent('#banner-text')) ?? '') : '';
}

describe('hull view', () => {
  it('opens a hull permalink and steps through the whole quickhull build with the buttons and the keys', async () => {
    const { page, errors } = await openPage(env.browser, encodeLink({ ...hullScene, step: 0 }, env.url));
    try {
      let s = await state(page);
      expect(s.error).toBeNull();
      expect(s.scene?.query).toBe('hull');
      expect(s.scene?.shapes).toHaveLength(1);
      expect(await page.inputValue('#query')).toBe('hull');
      expect(await page.textContent('#algorithm')).toMatch(/quickhull/i);
      // The cloud replaces the two-shape views and editors.
      expect(await page.isVisible('#canvas-hull')).toBe(true);
      expect(await page.isVisible('#view-shapes')).toBe(false);
      expect(await page.isVisible('#editor-a')).toBe(false);
      expect(await page.isVisible('#cloud-points')).toBe(true);
      expect((await page.inputValue('#cloud-points')).trim().split('\n')).toHaveLength(36);
      expect(s.frameIndex).toBe(0);
      const n = s.frameCount;
      expect(n).toBeGreaterThanOrEqual(8);
      expect(await counterText(page)).toBe(`step 1 / ${n}`);

      const kinds = await stepThroughAll(page);
      s = await state(page);
      for (const k of ['tetrahedron', 'eye', 'visible', 'horizon', 'cone']) expect(kinds, k).toContain(k);
      expect(kinds[kinds.length - 1]).toBe('done');
      expect(await page.isDisabled('#next')).toBe(true);
      const r = s.result as { kind: string; vertices: V3[]; faces: number[][] };
      expect(r.kind).toBe('polyhedron');
      expect(r.vertices.length).toBeGreaterThanOrEqual(4);
      expect(r.vertices.length).toBeLessThanOrEqual(28); // the 8 inner points are never hull vertices
      // Euler on the triangulation of a closed convex polyhedron: F = 2V − 4.
      expect(r.faces.length).toBe(2 * r.vertices.length - 4);
      expect(await page.textContent('#result')).toMatch(/polyhedron/);

      await page.keyboard.press('ArrowLeft');
      expect((await state(page)).frameIndex).toBe(n - 2);
      await page.click('#first');
      expect((await state(page)).frameIndex).toBe(0);
      await page.keyboard.press('End');
      expect((await state(page)).frameIndex).toBe(n - 1);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('draws the cloud, the hull and the new faces on a cone frame', async () => {
    const { page, errors } = await openPage(env.browser, encodeLink({ ...hullScene, step: 0 }, env.url));
    try {
      const at = await stepToKind(page, 'cone');
      expect(at).toBeGreaterThan(0);
      const values = (await page.textContent('#values')) ?? '';
      expect(values).toMatch(/faces/);
      expect(values).toMatch(/points left/);
      expect(values).toMatch(/visible \/ horizon \/ new/);
      await page.waitForTimeout(300);
      const stats = await canvasStats(page, '#canvas-hull');
      expect(stats.colours).toBeGreaterThan(20);
      expect(stats.foreground).toBeGreaterThan(0.03);
      // The new faces are green.
      expect((await colourCentroid(page, '#canvas-hull', GREEN)).count).toBeGreaterThan(30);
      // On an eye frame the eye's distance to its face is listed.
      expect(await stepToKind(page, 'eye')).toBeGreaterThan(0);
      expect((await page.textContent('#values')) ?? '').toMatch(/eye distance/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("the page's link reopens the same cloud at the same step", async () => {
    const first = await openPage(env.browser, encodeLink({ ...hullScene, step: 0 }, env.url));
    const target = await stepToKind(first.page, 'horizon');
    expect(target).toBeGreaterThan(0);
    const { after } = await expectLinkReopensSame(env.browser, first);
    expect(after.scene).toEqual(hullScene);
    expect(after.frameIndex).toBe(target);
    expect(after.frameKind).toBe('horizon');
  }, 120_000);

  it('toggles the AABB, sphere and OBB overlays and lists their volumes', async () => {
    const { page, errors } = await openPage(env.browser, encodeLink({ ...hullScene, step: 1000 }, env.url));
    try {
      let s = await state(page);
      expect(s.frameKind).toBe('done');
      expect(s.bounds, 'the "obb" query answers for the cloud').not.toBeNull();
      expect(s.boundsShown).toEqual([]);
      const volume = async (id: string) => Number(await page.getAttribute(`#bounds tr[data-bound="${id}"] td`, 'data-volume'));
      const vols: Record<string, number> = {};
      for (const id of ['aabb', 'sphere', 'obbPoints', 'obbTriangles', 'obb']) {
        vols[id] = await volume(id);
        expect(vols[id], id).toBeGreaterThan(0);
        expect(await page.textContent(`#bounds tr[data-bound="${id}"] td`)).toMatch(/\d/);
      }
      const b = s.bounds!;
      expect(vols.aabb).toBeCloseTo(b.aabb.volume, 9);
      expect(vols.sphere).toBeCloseTo(b.sphere.volume, 9);
      // The refined box is never larger than the axis-aligned one.
      expect(vols.aabb).toBeGreaterThanOrEqual(vols.obb * (1 - 1e-12));
      expect(vols.obb).toBeCloseTo(b.volume, 9);

      await page.waitForTimeout(300);
      const before = (await colourCentroid(page, '#canvas-hull', YELLOW)).count;
      await page.check('#bound-aabb');
      await page.check('#bound-obb');
      s = await state(page);
      expect(s.boundsShown.sort()).toEqual(['aabb', 'obb']);
      await page.waitForTimeout(300);
      const withAabb = (await colourCentroid(page, '#canvas-hull', YELLOW)).count;
      expect(withAabb).toBeGreaterThan(before + 100);
      await page.check('#bound-sphere');
      await page.check('#bound-obbPoints');
      await page.check('#bound-obbTriangles');
      expect((await state(page)).boundsShown).toHaveLength(5);
      await page.uncheck('#bound-aabb');
      s = await state(page);
      expect(s.boundsShown).not.toContain('aabb');
      expect(s.boundsShown).toHaveLength(4);
      // Stepping keeps the overlays.
      await page.keyboard.press('Home');
      expect((await state(page)).boundsShown).toHaveLength(4);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('a garbled pasted point list shows the banner with its line, as text', async () => {
    const { page, errors } = await openPage(env.browser, encodeLink({ ...hullScene, step: 2 }, env.url));
    try {
      const before = await state(page);
      await page.fill('#cloud-points', '0 0 0\n1 0 0\n[0, 1\n0 0 1\n');
      await page.click('#cloud-apply');
      let s = await state(page);
      expect(s.error).toMatch(/line 3/);
      expect(await bannerText(page)).toMatch(/line 3/);
      expect(s.scene).toEqual(before.scene);
      expect(s.frameIndex).toBe(2);

      await page.fill('#cloud-points', '0 0 0\n1 0 0\n0 1 0\n<img src=x onerror="window.__pwned=1"> 1 2\n');
      await page.click('#cloud-apply');
      s = await state(page);
      expect(s.error).toMatch(/line 4/);
      expect(await bannerText(page)).toContain('<img');
      expect(await page.locator('#banner img').count()).toBe(0);
      expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();

      // A good list (both notations) replaces the cloud and starts at the first step.
      await page.fill('#cloud-points', '0 0 0\n[1, 0, 0]\n0 1 0\n0, 0, 1\n1 1 1\n');
      await page.click('#cloud-apply');
      s = await state(page);
      expect(s.error).toBeNull();
      expect(await page.isVisible('#banner')).toBe(false);
      expect(s.scene?.shapes[0]).toEqual({ type: 'polytope', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]] });
      expect(s.frameIndex).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('generates clouds, refuses to trace more than 5000 points, and switches back to two shapes', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      expect((await state(page)).scene?.query).toBe('distance');
      await page.selectOption('#query', 'hull');
      let s = await state(page);
      expect(s.error).toBeNull();
      expect(s.scene?.shapes).toHaveLength(1);
      expect(await page.isVisible('#canvas-hull')).toBe(true);

      await page.selectOption('#cloud-generator', 'grid');
      s = await state(page);
      expect(s.error).toBeNull();
      expect((s.scene!.shapes[0].points as V3[]).length).toBe(64);
      await page.keyboard.press('End');
      expect((await state(page)).frameKind).toMatch(/done|degenerate/);

      await page.selectOption('#cloud-generator', 'geometry');
      await page.selectOption('#cloud-geometry', 'torusknot');
      s = await state(page);
      expect(s.error).toBeNull();
      expect((s.scene!.shapes[0].points as V3[]).length).toBeGreaterThan(100);

      await page.selectOption('#cloud-generator', 'sphere');
      await page.fill('#cloud-count-input', '6000');
      await page.click('#cloud-generate');
      s = await state(page);
      expect(s.error).toMatch(/5000/);
      expect(await bannerText(page)).toMatch(/fewer points/);
      expect((s.scene!.shapes[0].points as V3[]).length).toBeLessThanOrEqual(5000);

      await page.selectOption('#query', 'distance');
      s = await state(page);
      expect(s.scene?.shapes).toHaveLength(2);
      expect(s.result).toHaveProperty('distance');
      expect(await page.isVisible('#canvas-shapes')).toBe(true);
      expect(await page.isVisible('#canvas-hull')).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
