// Permalinks in a real browser: a link reproduces scene and step; a bad link shows a banner and the
// default scene, and nothing in it is ever parsed as HTML.
import { describe, expect, it } from 'vitest';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { base64url, openPage, state, useDefaultState } from './page-helpers';

const env = useServerAndBrowser();
const defaults = useDefaultState(env);

const scene = {
  version: 1 as const,
  query: 'distance' as const,
  shapes: [
    { type: 'box' as const, halfExtents: [0.5, 0.4, 0.3] as [number, number, number], position: [-1, 0.25, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number] },
    { type: 'capsule' as const, radius: 0.3, halfHeight: 0.5, position: [1, 0, 0.2] as [number, number, number], rotation: [0, 0, 0.6, 0.8] as [number, number, number, number] },
  ],
};

describe('permalinks', () => {
  it("the page's own link reopens the same scene and step", async () => {
    const first = await openPage(env.browser, env.url);
    const { page } = first;
    await page.selectOption('#type-a', 'ellipsoid');
    await page.selectOption('#query', 'intersect');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const s1 = await state(page);
    expect(s1.frameIndex).toBe(2);
    // The hash is written with replaceState, coalesced when changes come faster than 200 ms.
    await page.waitForFunction(() => location.href === (window as any).__collidoscope.link, null, { timeout: 5000 });
    const url = page.url();
    expect(url).toContain('#v1=');

    const second = await openPage(env.browser, url);
    const s2 = await state(second.page);
    expect(s2.scene).toEqual(s1.scene);
    expect(s2.frameIndex).toBe(s1.frameIndex);
    expect(s2.error).toBeNull();
    expect(await second.page.textContent('#counter')).toBe(await page.textContent('#counter'));
    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
    await page.close();
    await second.page.close();
  }, 60_000);

  it('a link made with encodeLink opens its scene at its step', async () => {
    const link = encodeLink({ ...scene, step: 2 }, env.url);
    const { page, errors } = await openPage(env.browser, link);
    const s = await state(page);
    expect(s.error).toBeNull();
    expect(s.scene).toEqual(scene);
    expect(s.frameIndex).toBe(Math.min(2, s.frameCount - 1));
    expect(s.frameCount).toBeGreaterThan(2);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('follows hashchange (a link pasted into the address bar of an open page)', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    const hash = encodeLink({ ...scene, query: 'intersect', step: 1 });
    await page.evaluate((h) => { location.hash = h; }, hash);
    await page.waitForFunction(() => (window as any).__collidoscope.scene.query === 'intersect', null, { timeout: 5000 });
    const s = await state(page);
    expect(s.scene).toEqual({ ...scene, query: 'intersect' });
    expect(s.frameIndex).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('a step beyond the trace is clamped to the last frame', async () => {
    const { page } = await openPage(env.browser, encodeLink({ ...scene, step: 10_000 }, env.url));
    const s = await state(page);
    expect(s.frameIndex).toBe(s.frameCount - 1);
    await page.close();
  }, 60_000);
});

describe('bad permalinks', () => {
  const img = '<img src=x onerror="window.__pwned=1">';
  const cases: [string, string][] = [
    ['garbage characters', '#v1=%%%garbage'],
    ['not a collidoscope link', '#something-else'],
    ['valid base64, not JSON', '#v1=' + base64url('hello world')],
    ['valid base64 JSON, not a scene', '#v1=' + base64url('{"hello":1}')],
    ['valid base64 JSON null', '#v1=' + base64url('null')],
    ['markup in a shape type', '#v1=' + base64url(JSON.stringify({ version: 1, query: 'distance', shapes: [{ type: img }, { type: 'point' }] }))],
    ['markup in the query', '#v1=' + base64url(JSON.stringify({ version: 1, query: img, shapes: [{ type: 'point' }, { type: 'point' }] }))],
    ['markup in a field name', '#v1=' + base64url(JSON.stringify({ version: 1, query: 'distance', shapes: [{ type: 'sphere', [img]: 1 }, { type: 'point' }] }))],
    ['markup in a number field', '#v1=' + base64url(JSON.stringify({ version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: img }, { type: 'point' }] }))],
  ];

  for (const [name, hash] of cases) {
    it(`${name}: banner, default scene, nothing injected`, async () => {
      const { page, errors } = await openPage(env.browser, env.url + hash);
      const s = await state(page);
      expect(s.error).toBeTruthy();
      expect(await page.isVisible('#banner')).toBe(true);
      const text = await page.textContent('#banner-text');
      expect(text).toBe(s.error);
      expect(text).toMatch(/default scene/);
      expect(s.scene).toEqual(defaults().scene);
      expect(s.frameIndex).toBe(0);
      expect(s.frameCount).toBe(defaults().frameCount);
      const injected = await page.evaluate(() => ({
        imgs: document.querySelectorAll('img').length,
        handlers: document.querySelectorAll('[onerror], [onload]').length,
        pwned: (window as any).__pwned ?? null,
      }));
      expect(injected).toEqual({ imgs: 0, handlers: 0, pwned: null });
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);
  }

  it('the banner can be dismissed and a later good scene works', async () => {
    const { page } = await openPage(env.browser, env.url + '#v1=%%%garbage');
    await page.click('#banner-close');
    expect(await page.isVisible('#banner')).toBe(false);
    expect((await state(page)).error).toBeNull();
    await page.close();
  }, 60_000);
});
