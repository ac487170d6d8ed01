// Planes (half-spaces) on the page: a world with a plane floor, a plane's contact, its point queries and a pairs
// scene with a plane open without a banner and draw the plane as a patch of its surface (the page publishes the
// patches it draws, read back from the objects); the patch's plane, normal and centre are checked against the
// library's own answers (run()'s contact, project, trace()'s poses), and its pixels against a scene without it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { encodeLink } from '../../web/lib/link';
import {
  init, run, trace, type ContactResult, type PairsResult, type ProjectResult, type Scene, type SimulateTrace, type Vec3,
} from '../../web/lib/index';
import { useServerAndBrowser } from './harness';
import { colourPixels, expectLinkReopensSame, openPage, type ColourRange } from './page-helpers';

const env = useServerAndBrowser();

beforeAll(async () => {
  await init();
});

interface DrawnPlane { center: Vec3; normal: Vec3; half: number }
interface Planes { shapes: DrawnPlane[]; minkowski: DrawnPlane[] }

const planes = (page: Page) => page.evaluate(() => JSON.parse(JSON.stringify((window as any).__collidoscope.planes)) as Planes);
const pageError = (page: Page) => page.evaluate(() => (window as any).__collidoscope.error as string | null);
const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const unit = (v: readonly number[]): Vec3 => { const l = Math.hypot(v[0], v[1], v[2]); return [v[0] / l, v[1] / l, v[2] / l]; };

/** The patches are Float32 geometry: their numbers to about 1e-6 of the scene's size. */
function expectVec(actual: readonly number[], expected: readonly number[], digits = 5): void {
  for (let k = 0; k < 3; k++) expect(actual[k]).toBeCloseTo(expected[k], digits);
}

const FLOOR = '77-world-plane-floor.json';
const sceneFile = (file: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../shared/scenes/${file}`, import.meta.url)), 'utf8')) as Scene;

/** A tilted floor A and a box B sunk into it. */
const CONTACT: Scene = {
  version: 1, query: 'contact', margin: 0,
  shapes: [
    { type: 'plane', normal: [0.2, 1, 0.1], offset: 0 },
    { type: 'box', halfExtents: [0.6, 0.4, 0.5], position: [0.3, 0.25, 0.2], rotation: [0.1305, 0.2588, 0.0922, 0.9525] },
  ],
};

/** Pixels of shape A's amber patch blended over the dark view (opacity 0.2 to 0.4): never the grey grid or blue B. */
const AMBER_PATCH: ColourRange = { r: [60, 255], g: [40, 200], b: [0, 70] };

describe('planes on the page', () => {
  it('a world on a plane floor: the gallery scene opens, the floor is a patch under every body at every step, its link reopens it', async () => {
    const scene = sceneFile(FLOOR);
    const t = trace(scene as Scene & { query: 'simulate' }) as SimulateTrace;
    const opened = await openPage(env.browser, env.url);
    const { page, errors } = opened;
    try {
      const entries = await page.evaluate(async () => (await fetch('gallery.json')).json()) as { file: string; lesson: string }[];
      const index = entries.findIndex((e) => e.file === FLOOR);
      expect(entries[index]?.lesson).toBe('A world: bodies and contacts');
      await page.selectOption('#gallery', String(index));
      expect(await pageError(page)).toBeNull();
      // Both views draw the floor (the right one faint, under the contacts): y = 0, normal up.
      for (let f = 0; f < t.frames.length; f += 30) {
        await page.$eval('#scrubber', (el, v) => {
          (el as HTMLInputElement).value = String(v);
          el.dispatchEvent(new Event('input', { bubbles: true }));
        }, f);
        const p = await planes(page);
        expect(p.shapes).toHaveLength(1);
        expect(p.minkowski).toHaveLength(1);
        const floor = p.shapes[0];
        expectVec(floor.normal, [0, 1, 0]);
        expect(floor.center[1]).toBeCloseTo(0, 6);
        // Every body of this frame (trace()'s poses, computed here) stands over the patch.
        for (const pose of t.frames[f].poses.slice(1)) {
          expect(Math.abs(pose[0] - floor.center[0])).toBeLessThan(floor.half);
          expect(Math.abs(pose[2] - floor.center[2])).toBeLessThan(floor.half);
        }
      }
      const { after } = await expectLinkReopensSame(env.browser, opened);
      expect(after.error).toBeNull();
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('a plane\'s contact: the patch is A\'s surface along run()\'s normal, and A − B\'s boundary holds pointA − pointB', async () => {
    const r = run(CONTACT) as ContactResult;
    const n = unit(CONTACT.shapes[0].normal!);
    const { page, errors } = await openPage(env.browser, encodeLink({ ...CONTACT, step: 0 }, env.url));
    try {
      expect(await pageError(page)).toBeNull();
      const p = await planes(page);
      expect(p.shapes).toHaveLength(1);
      // The plane is A: the contact normal from A to B is its own.
      expectVec(p.shapes[0].normal, r.normal);
      expectVec(p.shapes[0].normal, n);
      // pointA is on A's surface, so in the patch's plane.
      expect(dot(p.shapes[0].normal, r.pointA) - dot(p.shapes[0].normal, p.shapes[0].center)).toBeCloseTo(0, 5);
      expect(p.minkowski).toHaveLength(1);
      const m = p.minkowski[0];
      expectVec(m.normal, n);
      const d: Vec3 = [r.pointA[0] - r.pointB[0], r.pointA[1] - r.pointB[1], r.pointA[2] - r.pointB[2]];
      expect(dot(n, d) - dot(n, m.center)).toBeCloseTo(0, 5);
      // Overlapping: O is inside A − B, below its boundary by the depth.
      expect(dot(n, m.center)).toBeCloseTo(-r.distance, 5);
      // Its pixels: the amber patch covers a wide part of the left view.
      const amber = await colourPixels(page, '#canvas-shapes', AMBER_PATCH);
      expect(amber.count).toBeGreaterThan(0.04 * amber.width * amber.height);
      expect(amber.x1 - amber.x0).toBeGreaterThan(0.4 * amber.width);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('the same pair with a point for A instead has no patch and next to none of those pixels (they are the plane\'s)', async () => {
    const pointA: Scene = { ...CONTACT, shapes: [{ type: 'point', position: [0.3, 0, 0.2] }, CONTACT.shapes[1]] };
    const { page } = await openPage(env.browser, encodeLink({ ...pointA, step: 0 }, env.url));
    try {
      expect(await pageError(page)).toBeNull();
      expect(await planes(page)).toEqual({ shapes: [], minkowski: [] });
      const amber = await colourPixels(page, '#canvas-shapes', AMBER_PATCH);
      expect(amber.count).toBeLessThan(0.005 * amber.width * amber.height);
    } finally {
      await page.close();
    }
  });

  it('project onto a plane: the right view\'s patch is centred on the point project() answers', async () => {
    const scene: Scene = {
      version: 1, query: 'project', point: [1.5, 2, -0.5],
      shapes: [{ type: 'plane', normal: [0, 1, 1], offset: 0.3, rotation: [0, 0, 0.2588190, 0.9659258] }],
    };
    const r = run(scene) as ProjectResult;
    const { page, errors } = await openPage(env.browser, encodeLink({ ...scene, step: 0 }, env.url));
    try {
      expect(await pageError(page)).toBeNull();
      const p = await planes(page);
      expect(p.minkowski).toHaveLength(1);
      expectVec(p.minkowski[0].center, r.point);
      // The normal points from the surface to p (p is outside): (p − x) / distance.
      expectVec(p.minkowski[0].normal, scene.point!.map((c, k) => (c - r.point[k]) / r.distance));
      expect(p.shapes).toHaveLength(1);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('a pairs scene with a plane: the plane is drawn among the others and the page answers run()\'s pairs', async () => {
    const scene: Scene = {
      version: 1, query: 'pairs',
      shapes: [
        { type: 'sphere', radius: 0.5, position: [0, 0.3, 0] },
        { type: 'box', halfExtents: [0.4, 0.4, 0.4], position: [2, 1, 0] },
        { type: 'plane', normal: [1, 0, 0], offset: 2.5 },
      ],
    };
    const r = run(scene) as PairsResult;
    const { page, errors } = await openPage(env.browser, encodeLink({ ...scene, step: 0 }, env.url));
    try {
      const s = await page.evaluate(() => JSON.parse(JSON.stringify((window as any).__collidoscope)));
      expect(s.error).toBeNull();
      expect(s.result.pairs).toEqual(r.pairs);
      const p = await planes(page);
      expect(p.shapes).toHaveLength(1);
      expectVec(p.shapes[0].normal, [1, 0, 0]);
      expect(p.shapes[0].center[0]).toBeCloseTo(2.5, 5);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('the shape picker offers a plane with normal and offset fields; editing the offset moves the patch', async () => {
    const { page, errors } = await openPage(env.browser, encodeLink({ ...CONTACT, shapes: [{ type: 'sphere', radius: 0.5 }, CONTACT.shapes[1]], step: 0 }, env.url));
    try {
      await page.selectOption('#type-a', 'plane');
      expect(await pageError(page)).toBeNull();
      let p = await planes(page);
      expect(p.shapes).toHaveLength(1);
      expectVec(p.shapes[0].normal, [0, 1, 0]);
      const offset = page.locator('#editor-a input[aria-label="shape A offset"]');
      await offset.fill('-0.25');
      expect(await pageError(page)).toBeNull();
      p = await planes(page);
      expect(p.shapes[0].center[1]).toBeCloseTo(-0.25, 5);
      await page.locator('#editor-a input[aria-label="shape A normal x"]').fill('1');
      p = await planes(page);
      expectVec(p.shapes[0].normal, unit([1, 1, 0]));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('a plane under a traced query (distance): the banner says where the page shows a plane\'s pair, the scene stays', async () => {
    const { page } = await openPage(env.browser, encodeLink({ ...CONTACT, step: 0 }, env.url));
    try {
      await page.selectOption('#query', 'distance');
      const error = await pageError(page);
      expect(error).toMatch(/shapes\[0\]\.type: a plane's queries are closed forms with no trace/);
      expect(error).toMatch(/under the query "contact"/);
      const s = await page.evaluate(() => (window as any).__collidoscope.scene.query as string);
      expect(s).toBe('contact');
    } finally {
      await page.close();
    }
  });
});
