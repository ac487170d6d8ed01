// The point queries on the page: a "project" or "contains" scene opens from its link in one step whose answer is
// the library's own (project()/contains() run here in Node, and analytic values for a box and a sphere), with the
// feature named in the caption and the values table and drawn green in both views, the query point red outside
// and green inside, a link that reopens it, the Query menu switching to both and back, the point's fields and
// its drag handle.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { box, contains, init, project, run, sphere, type Scene, type Vec3 } from '../../web/lib/index';
import { encodeLink } from '../../web/lib/link';
import { fmt, fmtVec } from '../../web/lib/draw/format';
import { useServerAndBrowser } from './harness';
import {
  AMBER_A, HIT_GREEN, colourPixels, dragHandle, expectLinkReopensSame, expectWholeAndCentred, openPage, state, type ColourRange,
} from './page-helpers';

const env = useServerAndBrowser();

beforeAll(async () => {
  await init();
});

/** The query point outside A (primitives.ts COLORS.removed, #ff4d4d), with room for blending. */
const OUTSIDE_RED: ColourRange = { r: [200, 255], g: [40, 120], b: [40, 120] };

/** The values table as name → value. */
async function values(page: Page): Promise<Record<string, string>> {
  return page.$$eval('#values tbody tr', (rows) => Object.fromEntries(rows.map((r) => [r.querySelector('th')!.textContent, r.querySelector('td')!.textContent])));
}

const HALF: Vec3 = [1, 0.6, 0.5];
const boxScene = (point: Vec3): Scene => ({ version: 1, query: 'project', shapes: [{ type: 'box', halfExtents: HALF }], point });

describe('project on the page', () => {
  // The nearest point of an axis-aligned box is p clamped into it; the feature is the set of clamped axes:
  // one (a face), two (an edge), three (a vertex). Corner i is (x > 0) + 2(y > 0) + 4(z > 0).
  const cases = [
    { name: 'a face', p: [2, 0.1, 0.2] as Vec3, kind: 'face', vertices: [1, 3, 5, 7] },
    { name: 'an edge', p: [2, 1.6, 0.2] as Vec3, kind: 'edge', vertices: [3, 7] },
    { name: 'a vertex', p: [2, 1.6, 1.5] as Vec3, kind: 'vertex', vertices: [7] },
  ];
  for (const c of cases) {
    it(`names and draws ${c.name} of a box, with project()'s numbers`, async () => {
      const clamped = c.p.map((x, k) => Math.min(HALF[k], Math.max(-HALF[k], x))) as Vec3;
      const api = project(box(HALF), undefined, c.p);
      const opened = await openPage(env.browser, encodeLink(boxScene(c.p), env.url));
      const { page, errors } = opened;
      try {
        const s = await state(page);
        expect(s.error).toBeNull();
        expect(s.frameCount).toBe(1);
        // The page's answer is the library's, bit for bit; and the analytic one.
        expect(s.result).toEqual(JSON.parse(JSON.stringify(api)));
        expect(api.feature).toEqual({ kind: c.kind, vertices: c.vertices });
        api.point.forEach((x, k) => expect(x).toBeCloseTo(clamped[k], 12));
        expect(api.distance).toBeCloseTo(Math.hypot(...c.p.map((x, k) => x - clamped[k])), 12);
        const v = await values(page);
        expect(v['closest point x']).toBe(fmtVec(api.point, 12));
        expect(v['distance |x − p|']).toBe(fmt(api.distance, 12));
        expect(v['inside']).toBe('no');
        expect(v['feature']).toBe(c.kind);
        expect(v['feature vertices']).toBe(c.vertices.join(', '));
        expect(await page.locator('#caption').innerText()).toContain(`on the ${c.kind} [${c.vertices.join(', ')}]`);
        for (const canvas of ['#canvas-shapes', '#canvas-minkowski']) {
          expect((await colourPixels(page, canvas, AMBER_A)).count, `${canvas}: the box`).toBeGreaterThan(500);
          // A face is filled; an edge is a line; a vertex a dot: all green, fewer pixels each.
          const green = (await colourPixels(page, canvas, HIT_GREEN)).count;
          expect(green, `${canvas}: the ${c.kind}`).toBeGreaterThan(c.kind === 'face' ? 1000 : 20);
          expect((await colourPixels(page, canvas, OUTSIDE_RED)).count, `${canvas}: p, outside`).toBeGreaterThan(10);
        }
        // The red dot is where the point's handle is, and the box and p are whole in the right view.
        const red = await colourPixels(page, '#canvas-shapes', OUTSIDE_RED);
        const rect = (await page.locator('#canvas-shapes').boundingBox())!;
        const scale = rect.width / red.width;
        const handle = (await page.evaluate(() => (window as any).__collidoscope.handles.point)) as [number, number];
        expect(Math.hypot(rect.x + red.x * scale - handle[0], rect.y + red.y * scale - handle[1])).toBeLessThan(6);
        const amber = await colourPixels(page, '#canvas-minkowski', AMBER_A);
        const dot = await colourPixels(page, '#canvas-minkowski', OUTSIDE_RED);
        expectWholeAndCentred({ x0: Math.min(amber.x0, dot.x0), y0: Math.min(amber.y0, dot.y0), x1: Math.max(amber.x1, dot.x1),
          y1: Math.max(amber.y1, dot.y1), width: amber.width, height: amber.height }, 'box and p, right view', { x: 0.15, y: 0.15 });
        if (c.kind === 'edge') await expectLinkReopensSame(env.browser, opened);
        expect(errors).toEqual([]);
      } finally {
        if (!page.isClosed()) await page.close();
      }
    });
  }

  it('projects from inside a sphere onto its surface, as the formula and project() say', async () => {
    const centre: Vec3 = [0.5, -0.2, 0.1], r = 1.2, p: Vec3 = [0.9, 0.3, 0.4];
    const scene: Scene = { version: 1, query: 'project', shapes: [{ type: 'sphere', radius: r, position: centre }], point: p };
    const d = p.map((x, k) => x - centre[k]);
    const len = Math.hypot(...d);
    const api = project(sphere(r), { position: centre }, p);
    const { page, errors } = await openPage(env.browser, encodeLink(scene, env.url));
    try {
      const s = await state(page);
      expect(s.error).toBeNull();
      expect(s.result).toEqual(JSON.parse(JSON.stringify(api)));
      api.point.forEach((x, k) => expect(x).toBeCloseTo(centre[k] + (r * d[k]) / len, 12));
      expect(api.distance).toBeCloseTo(r - len, 12);
      const v = await values(page);
      expect(v['inside']).toBe('yes');
      expect(v['feature']).toBe('surface');
      expect(v['closest point x']).toBe(fmtVec(api.point, 12));
      expect(await page.locator('#caption').innerText()).toContain('The point p is inside A');
      // Inside: p is green.
      expect((await colourPixels(page, '#canvas-minkowski', HIT_GREEN)).count).toBeGreaterThan(10);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('projects onto a mesh: the triangle, its barycentric coordinates and the face drawn', async () => {
    const scene: Scene = {
      version: 1, query: 'project', point: [0.2, 1, 0.3],
      shapes: [{ type: 'mesh', vertices: [[-1, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1]], triangles: [[0, 2, 1], [0, 3, 2]] }],
    };
    const api = run(scene) as unknown as { point: Vec3; distance: number; triangle: number; barycentric: Vec3; feature: { kind: string; vertices: number[] } };
    const opened = await openPage(env.browser, encodeLink(scene, env.url));
    const { page, errors } = opened;
    try {
      const s = await state(page);
      expect(s.error).toBeNull();
      expect(s.result).toEqual(api);
      // The foot on the plane y = 0, in triangle [0, 3, 2] (x < z there).
      api.point.forEach((x, k) => expect(x).toBeCloseTo([0.2, 0, 0.3][k], 12));
      expect(api.triangle).toBe(1);
      const v = await values(page);
      expect(v['triangle']).toBe('1');
      expect(v['barycentric (u, v, w)']).toBe(fmtVec(api.barycentric, 12));
      expect(v['feature']).toBe('face');
      expect(v['feature vertices']).toBe('0, 3, 2');
      for (const canvas of ['#canvas-shapes', '#canvas-minkowski']) {
        expect((await colourPixels(page, canvas, HIT_GREEN)).count, `${canvas}: the nearest triangle`).toBeGreaterThan(500);
      }
      await expectLinkReopensSame(env.browser, opened);
      expect(errors).toEqual([]);
    } finally {
      if (!page.isClosed()) await page.close();
    }
  });
});

describe('contains on the page', () => {
  for (const [where, p, inside] of [['inside', [1.2, 0.3, 0] as Vec3, true], ['outside', [1.6, 0.3, 0.1] as Vec3, false]] as const) {
    it(`colours a point ${where} a sphere by contains()'s answer`, async () => {
      const centre: Vec3 = [0.5, 0, 0];
      const scene: Scene = { version: 1, query: 'contains', shapes: [{ type: 'sphere', radius: 1, position: centre }], point: p };
      // Analytic: inside when |p − c| ≤ r.
      expect(Math.hypot(...p.map((x, k) => x - centre[k])) <= 1).toBe(inside);
      const api = contains(sphere(1), { position: centre }, p);
      expect(api.inside).toBe(inside);
      const { page, errors } = await openPage(env.browser, encodeLink(scene, env.url));
      try {
        const s = await state(page);
        expect(s.error).toBeNull();
        expect(s.result).toEqual(JSON.parse(JSON.stringify(api)));
        expect((await values(page))['inside']).toBe(inside ? 'yes' : 'no');
        expect(await page.locator('#caption').innerText()).toContain(`is ${where} shape A`);
        for (const canvas of ['#canvas-shapes', '#canvas-minkowski']) {
          expect((await colourPixels(page, canvas, inside ? HIT_GREEN : OUTSIDE_RED)).count, canvas).toBeGreaterThan(10);
          expect((await colourPixels(page, canvas, inside ? OUTSIDE_RED : HIT_GREEN)).count, canvas).toBe(0);
        }
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});

describe('the Query menu and the point', () => {
  it('switches a pair to project and contains (shape A and a point off it), edits the point, and back', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      const pairA = (await state(page)).scene!.shapes[0];
      for (const q of ['project', 'contains']) {
        await page.selectOption('#query', q);
        await page.waitForFunction((want) => (window as any).__collidoscope.scene?.query === want, q, { timeout: 10_000 });
        const s = await state(page);
        expect(s.error).toBeNull();
        const scene = s.scene as unknown as Scene;
        expect(scene.shapes).toEqual([pairA]);
        expect(scene.point).toHaveLength(3);
        expect(s.result).toEqual(run(scene));
        // The point starts outside A.
        expect((s.result as { inside: boolean }).inside).toBe(false);
        expect(await page.$eval('#query', (e) => (e as HTMLSelectElement).value)).toBe(q);
      }
      // The point's fields edit it; the answer follows.
      await page.fill('#point-x', '-1.25');
      await page.waitForFunction(() => (window as any).__collidoscope.scene?.point?.[0] === -1.25, null, { timeout: 10_000 });
      let s = await state(page);
      expect(s.result).toEqual(run(s.scene as unknown as Scene));
      expect((s.result as { inside: boolean }).inside).toBe(true);
      // From contains to project the point stays where it was set.
      await page.selectOption('#query', 'project');
      await page.waitForFunction(() => (window as any).__collidoscope.scene?.query === 'project', null, { timeout: 10_000 });
      s = await state(page);
      expect((s.scene as unknown as Scene).point?.[0]).toBe(-1.25);
      expect(s.result).toEqual(run(s.scene as unknown as Scene));
      expect((s.result as { inside: boolean }).inside).toBe(true);
      // Back to a pair query: the point is dropped, the pair comes back.
      await page.selectOption('#query', 'distance');
      await page.waitForFunction(() => (window as any).__collidoscope.scene?.query === 'distance', null, { timeout: 10_000 });
      s = await state(page);
      expect(s.error).toBeNull();
      expect(s.scene!.shapes).toHaveLength(2);
      expect('point' in s.scene!).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});


describe('the point\'s handle', () => {
  it('drags p in the shapes view; the answer, the fields and the link follow', async () => {
    const p: Vec3 = [2, 0.1, 0.2];
    const opened = await openPage(env.browser, encodeLink(boxScene(p), env.url));
    const { page, errors } = opened;
    try {
      expect(Object.keys((await page.evaluate(() => (window as any).__collidoscope.handles)) as object)).toEqual(['point']);
      await dragHandle(page, 'point', -60, 0);
      await page.waitForFunction((before) => JSON.stringify((window as any).__collidoscope.scene.point) !== before,
        JSON.stringify(p), { timeout: 5000 });
      const s = await state(page);
      const moved = (s.scene as unknown as Scene).point!;
      // p moved, and the answer is the library's for the new point.
      expect(moved).not.toEqual(p);
      expect(s.result).toEqual(run(s.scene as unknown as Scene));
      expect(Number(await page.inputValue('#point-x'))).toBe(moved[0]);
      await expectLinkReopensSame(env.browser, opened);
      expect(errors).toEqual([]);
    } finally {
      if (!page.isClosed()) await page.close();
    }
  });
});
