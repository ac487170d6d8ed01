// Changing the query in the page's list moves the scene between query families: two-shape queries keep the pair,
// raycast keeps shape A and adds a ray aimed at it, shapecast adds a motion that brings B to A, sat replaces a
// curved shape by its bounding box (and says so), and fields a query does not use are dropped — every switch ends
// with a trace that the library accepts and no page error.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, trace, type Scene } from '../../web/lib/index';
import { useServerAndBrowser } from './harness';
import { openPage } from './page-helpers';

const env = useServerAndBrowser();

beforeAll(async () => {
  await init();
});

interface Seen {
  query: string;
  frames: number;
  scene: Scene;
  error: string | null;
}

describe('switching the query', () => {
  it('moves the scene between pair, ray and motion queries and back', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    const seen: Seen[] = [];
    for (const q of ['raycast', 'shapecast', 'sat', 'chungwang', 'raycast', 'distance', 'hull', 'raycast', 'penetration']) {
      await page.selectOption('#query', q);
      await page.waitForFunction((want) => (window as any).__collidoscope.scene?.query === want, q, { timeout: 10_000 });
      seen.push(await page.evaluate(() => {
        const s = (window as any).__collidoscope;
        return { query: s.scene.query, frames: s.frameCount, scene: s.scene, error: s.error };
      }));
      expect(await page.$eval('#query', (e) => (e as HTMLSelectElement).value)).toBe(q);
    }
    expect(errors).toEqual([]);
    for (const s of seen) {
      // The page's scene is one the library traces, with the same number of frames.
      expect(trace(s.scene).frames.length).toBe(s.frames);
      expect(s.frames).toBeGreaterThan(0);
      expect('ray' in s.scene).toBe(s.query === 'raycast');
      expect('motion' in s.scene).toBe(s.query === 'shapecast');
      if (s.query === 'raycast') expect(s.scene.shapes).toHaveLength(1);
      else if (s.query !== 'hull') expect(s.scene.shapes).toHaveLength(2);
    }
    // The default pair has a cone: sat boxed it and said so; no other switch left a message.
    const sat = seen.find((s) => s.query === 'sat')!;
    expect(sat.scene.shapes.every((s) => ['box', 'polytope', 'triangle', 'segment', 'point', 'sphere', 'capsule'].includes(s.type))).toBe(true);
    expect(sat.error).toMatch(/bounding box/);
    for (const s of seen.filter((x) => x.query !== 'sat')) expect(s.error).toBeNull();
    // The ray is aimed at shape A: it hits.
    const ray = seen.find((s) => s.query === 'raycast')!;
    const r = trace(ray.scene as Scene & { query: 'raycast' }).result;
    expect(r.hit).toBe(true);
    await page.close();
  });
});
