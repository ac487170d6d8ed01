// A 2D scene's link (the CLI's `link` makes them) in the page, which does not draw 2D scenes yet: the banner says
// so and where to run it, the default scene is shown and steps, and no error escapes to the page.
import { describe, expect, it } from 'vitest';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { openPage, state, useDefaultState } from './page-helpers';

const env = useServerAndBrowser();
const defaults = useDefaultState(env);

const lesson = {
  version: 1, dimension: 2, query: 'distance',
  shapes: [{ type: 'polygon', points: [[0, 0], [4, 0], [0, 3]] }, { type: 'circle', radius: 0.5, position: [3, 3] }],
};

describe('a 2D scene in the page', () => {
  it('opens as the default scene with a banner saying 2D scenes are not drawn and where to run them', async () => {
    const { page, errors } = await openPage(env.browser, env.url + encodeLink(lesson));
    try {
      const s = await state(page);
      expect(s.error).toMatch(/does not draw 2D scenes \("dimension": 2\) yet: run or trace them with the CLI/);
      expect(s.error).toMatch(/Showing the default scene instead\.$/);
      expect(await page.isVisible('#banner')).toBe(true);
      expect(s.scene).toEqual(defaults().scene);
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowRight');
      expect((await state(page)).frameIndex).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('pasted into an open page keeps the scene shown and says why', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      await page.evaluate((h) => { location.hash = h; }, encodeLink(lesson));
      await page.waitForFunction(() => (window as any).__collidoscope.error !== null, null, { timeout: 10_000 });
      const s = await state(page);
      expect(s.error).toMatch(/does not draw 2D scenes/);
      expect(s.scene).toEqual(defaults().scene);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);
});
