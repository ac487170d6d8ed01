// A heightfield in a real browser: a ray cast on a terrain patch opens from a permalink, draws the field's cells
// and the hit triangle (amber and green pixels in both views), shows the library's own answer (run() on the same
// scene) with the hit triangle named, the editor names the grid with no margin field, and the link reopens the
// same scene. A distance query (answered by the library, with no steps to trace) leaves a clear message.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, run, type Scene } from '../../web/lib/index';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { expectTriangleRaycastPage, openPage, state } from './page-helpers';

const env = useServerAndBrowser();

beforeAll(async () => {
  await init();
});

/** 7 × 7 heights of two bumps, rounded so that the link stays short. */
function terrain(): number[][] {
  return Array.from({ length: 7 }, (_, i) => Array.from({ length: 7 }, (_, j) =>
    Math.round(100 * (0.6 * Math.exp(-((i - 2) ** 2 + (j - 2) ** 2) / 3) - 0.3 * Math.exp(-((i - 5) ** 2 + (j - 4) ** 2) / 2))) / 100));
}

const scene: Scene = {
  version: 1, query: 'raycast',
  shapes: [{ type: 'heightfield', heights: terrain(), cellSize: [0.4, 0.4], position: [-1.2, -0.3, -1.2], rotation: [0, 0, 0, 1] }],
  ray: { origin: [-1.8, 1.4, 0.4], direction: [1, -0.9, -0.3], maxT: 4 },
};

describe('a heightfield on the page', () => {
  it('draws a ray cast on a heightfield: its cells, the hit triangle, the library\'s answer, and a link that reopens it', async () => {
    const expected = run(scene) as ReturnType<typeof run> & { triangle: number };
    await expectTriangleRaycastPage(env.browser, encodeLink(scene, env.url), expected, 'heightfield', '7 × 7 heights, cells 0.4 × 0.4');
  });

  it('says clearly that the page has no steps for a distance query on a heightfield, and keeps working', async () => {
    const { ray: _ray, ...rest } = scene;
    const distance: Scene = { ...rest, query: 'distance', shapes: [scene.shapes[0], { type: 'sphere', radius: 0.3, position: [0, 1, 0] }] };
    // The library answers it (run()); the page shows traced steps, which a mesh query does not have yet.
    expect(run(distance)).toHaveProperty('distance');
    const { page, errors } = await openPage(env.browser, encodeLink(distance, env.url));
    try {
      const s = await state(page);
      expect(s.error).toMatch(/shapes\[0\]\.type: .*"distance" on a mesh has no steps to trace yet/);
      expect(s.frameCount).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
