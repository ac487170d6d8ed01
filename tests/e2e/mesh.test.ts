// A scene with a triangle mesh in a real browser: a ray cast on a torus made here opens from a permalink, draws
// the mesh and the hit triangle (green pixels in both views), shows the library's own answer (run() on the
// same scene) in one step with no page error, and its link reopens the same scene; a query the page cannot
// run on a mesh (distance) leaves a clear message, not a broken view.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, run, type Scene, type Vec3 } from '../../web/lib/index';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { expectTriangleRaycastPage, openPage, state } from './page-helpers';

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

describe('a mesh on the page', () => {
  it('draws a ray cast on a mesh: the mesh, the hit triangle, the library\'s answer, and a link that reopens it', async () => {
    const expected = run(scene) as ReturnType<typeof run> & { triangle: number };
    await expectTriangleRaycastPage(env.browser, encodeLink(scene, env.url), expected, 'mesh', '72 vertices, 144 triangles');
  });

  it('says clearly what the page cannot show on a mesh yet', async () => {
    const { ray: _ray, ...rest } = scene;
    const pair = (query: Scene['query']): Scene => ({ ...rest, query, shapes: [scene.shapes[0], { type: 'sphere', radius: 0.5, position: [2, 0, 0] }] });
    // distance on a mesh is answered by run() but has no steps to show; penetration is not available on a mesh.
    for (const [query, why] of [['distance', /shapes\[0\]\.type: .*"distance" on a mesh has no steps to trace/], ['penetration', /shapes\[0\]\.type: .*"penetration" on a mesh is not available/]] as const) {
      const { page, errors } = await openPage(env.browser, encodeLink(pair(query), env.url));
      try {
        const s = await state(page);
        expect(s.error).toMatch(why);
        // The page falls back to its default scene and keeps working.
        expect(s.frameCount).toBeGreaterThan(0);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });
});
