// Scaled shapes on the page: a link with an unevenly scaled capsule and a mirrored polytope opens without
// errors, answers what the library answers for that scene, keeps the scale in its own link, shows the scale
// in the shape editor, and an edit of the scale reaches the answer.
import { describe, expect, it } from 'vitest';
import { encodeLink } from '../../web/lib/link';
import { init, run } from '../../web/lib/index';
import { useServerAndBrowser } from './harness';
import { openPage, state } from './page-helpers';

const env = useServerAndBrowser();

type V3 = [number, number, number];
const scene = {
  version: 1 as const,
  query: 'distance' as const,
  shapes: [
    { type: 'capsule' as const, radius: 0.4, halfHeight: 0.8, scale: [2, 1, 0.7] as V3, position: [-1.2, 0, 0] as V3, rotation: [0, 0, 0, 1] as [number, number, number, number] },
    { type: 'polytope' as const, points: [[0, 0, 0], [1, 0, 0], [0, 1.2, 0], [0, 0, 1], [0.8, 0.9, 0.7]] as V3[], scale: [-1, 1, 1] as V3, position: [1.6, -0.3, 0.2] as V3, rotation: [0, 0, 0, 1] as [number, number, number, number] },
  ],
};

describe('scaled shapes on the page', () => {
  it('a link with scaled shapes: the library answer, the scale kept and editable', async () => {
    await init();
    const { page, errors } = await openPage(env.browser, encodeLink(scene, env.url));
    const s = await state(page);
    expect(s.error).toBeNull();
    expect(s.scene?.shapes[0].scale).toEqual([2, 1, 0.7]);
    expect(s.scene?.shapes[1].scale).toEqual([-1, 1, 1]);
    const want = run(scene) as { distance: number };
    expect(s.result?.distance).toBe(want.distance);
    // The mirrored polytope starts at x = 1.6 − 1 = 0.6 and the capsule ends at x = −1.2 + 0.8 (its radius scaled
    // by 2): at least 1 apart; its vertex (0.6, −0.3, 0.2) and the capsule's point (−0.4, 0, 0) bound it above.
    expect(want.distance).toBeGreaterThanOrEqual(1 - 1e-9);
    expect(want.distance).toBeLessThanOrEqual(Math.hypot(1, 0.3, 0.2) + 1e-9);
    // The editor shows the scale; editing it changes the answer.
    const sx = page.locator('#editor-a input[aria-label="shape A scale x"]');
    expect(await sx.inputValue()).toBe('2');
    await sx.fill('1');
    await page.waitForFunction((d) => (window as any).__collidoscope.result?.distance !== d, want.distance, { timeout: 10_000 });
    const after = await state(page);
    const narrower = run({ ...scene, shapes: [{ ...scene.shapes[0], scale: [1, 1, 0.7] as V3 }, scene.shapes[1]] }) as { distance: number };
    expect(after.result?.distance).toBe(narrower.distance);
    expect(after.scene?.shapes[0].scale).toEqual([1, 1, 0.7]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
