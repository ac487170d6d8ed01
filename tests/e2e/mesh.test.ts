// A scene with a triangle mesh in a real browser: a ray cast on a torus made here opens from a permalink, draws
// the mesh and the hit triangle (green pixels in both views), shows the library's own answer (run() on the
// same scene) in one step with no page error, and its link reopens the same scene; a query the page cannot
// run on a mesh (distance) leaves a clear message, not a broken view.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, run, type Scene, type Vec3 } from '../../web/lib/index';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { colourPixels, expectLinkReopensSame, openPage, state } from './page-helpers';

const env = useServerAndBrowser();

beforeAll(async () => {
  await init();
});

/** A torus around y (12 × 6 quads, 144 triangles), coordinates rounded so that the link stays short. */
function torusMesh(): { vertices: Vec3[]; triangles: [number, number, number][] } {
  const nu = 12, nv = 6, R = 1, r = 0.35;
  const vertices: Vec3[] = [];
  for (let i = 0; i < nu; i++) {
    for (let j = 0; j < nv; j++) {
      const u = (2 * Math.PI * i) / nu, w = (2 * Math.PI * j) / nv;
      vertices.push([(R + r * Math.cos(w)) * Math.cos(u), r * Math.sin(w), (R + r * Math.cos(w)) * Math.sin(u)]
        .map((x) => Math.round(x * 1e4) / 1e4) as Vec3);
    }
  }
  const at = (i: number, j: number) => ((i + nu) % nu) * nv + ((j + nv) % nv);
  const triangles: [number, number, number][] = [];
  for (let i = 0; i < nu; i++) {
    for (let j = 0; j < nv; j++) {
      const a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
      triangles.push([a, d, c], [a, c, b]);
    }
  }
  return { vertices, triangles };
}

const scene: Scene = {
  version: 1, query: 'raycast',
  shapes: [{ type: 'mesh', ...torusMesh(), position: [0, 0, 0], rotation: [0.2, 0, 0, 0.98] }],
  ray: { origin: [-2.5, 1.2, 0.3], direction: [1, -0.45, 0], maxT: 6 },
};

/** The hit triangle's green (primitives.ts COLORS.simplex, #3ddc97), with room for blending. */
const GREEN = { r: [20, 110], g: [170, 255], b: [100, 190] } as { r: [number, number]; g: [number, number]; b: [number, number] };
/** The mesh's amber (COLORS.a, #f5a524). */
const AMBER = { r: [170, 255], g: [100, 190], b: [0, 80] } as { r: [number, number]; g: [number, number]; b: [number, number] };

describe('a mesh on the page', () => {
  it('draws a ray cast on a mesh: the mesh, the hit triangle, the library\'s answer, and a link that reopens it', async () => {
    const expected = run(scene) as ReturnType<typeof run> & { triangle: number };
    expect(expected.triangle).toBeGreaterThanOrEqual(0);
    const opened = await openPage(env.browser, encodeLink(scene, env.url));
    const { page, errors } = opened;
    try {
      const s = await state(page);
      expect(s.error).toBeNull();
      expect(s.frameCount).toBe(1);
      expect(s.result).toEqual(expected);
      const caption = await page.locator('#caption').innerText();
      expect(caption).toContain(`triangle ${expected.triangle} is hit first`);
      for (const canvas of ['#canvas-shapes', '#canvas-minkowski']) {
        expect((await colourPixels(page, canvas, AMBER)).count, `${canvas}: the mesh`).toBeGreaterThan(500);
        expect((await colourPixels(page, canvas, GREEN)).count, `${canvas}: the hit triangle`).toBeGreaterThan(20);
      }
      // Shape A's editor names the type it does not offer, and the mesh's size, with no margin field.
      expect(await page.locator('#type-a option:checked').innerText()).toBe('mesh (from the scene)');
      const editor = page.locator('#type-a').locator('xpath=ancestor::details[1]');
      expect(await editor.innerText()).toContain('72 vertices, 144 triangles');
      expect(await editor.getByRole('spinbutton', { name: /margin/ }).count()).toBe(0);
      await expectLinkReopensSame(env.browser, opened);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('says clearly that the page cannot step through distance on a mesh yet', async () => {
    const { ray: _ray, ...rest } = scene;
    const distance: Scene = { ...rest, query: 'distance', shapes: [scene.shapes[0], { type: 'sphere', radius: 0.5, position: [2, 0, 0] }] };
    const { page, errors } = await openPage(env.browser, encodeLink(distance, env.url));
    try {
      const s = await state(page);
      expect(s.error).toMatch(/shapes\[0\]\.type: .*"distance" on a mesh has no steps to trace yet/);
      // The page falls back to its default scene and keeps working.
      expect(s.frameCount).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
