// A compound scene in a real browser: the page has no view of a compound's queries yet (they have no steps to
// trace), so a link to one must leave a clear message naming the shape, fall back to a working scene, and raise
// no page error; the library answers the same scene (run()) with the child named.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, run, type Scene } from '../../web/lib/index';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { openPage, state } from './page-helpers';

const env = useServerAndBrowser();

beforeAll(async () => {
  await init();
});

const scene: Scene = {
  version: 1, query: 'distance',
  shapes: [
    { type: 'compound', children: [{ type: 'box', halfExtents: [0.5, 0.2, 0.3], position: [-0.6, 0, 0] }, { type: 'sphere', radius: 0.4, position: [0.7, 0.3, 0] }] },
    { type: 'sphere', radius: 0.4, position: [3, 0, 0] },
  ],
};

describe('a compound on the page', () => {
  it('says clearly that the page has no steps for it, and keeps working', async () => {
    expect(run(scene)).toMatchObject({ child: 1 });
    const { page, errors } = await openPage(env.browser, encodeLink(scene, env.url));
    try {
      const s = await state(page);
      expect(s.error).toMatch(/shapes\[0\]\.type: query "distance" on a compound has no steps to trace/);
      expect(s.frameCount).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
