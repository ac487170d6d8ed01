// 2D scenes ("dimension": 2) on the page: the two 2D gallery scenes stepped to the end against the library (run
// here in Node) and against independent references — seed 004's worked example (its shapes and its Minkowski
// difference, transcribed from the seed), a convex hull of all differences a − b, the separating-axis overlap of
// two polygons — the simplex drawn per step, a 2D link reopening bit for bit, the 2D shape editor, JSON export and
// import, and the query list in the plane.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { decodeLink, encodeLink, init, run, trace, type Scene2D } from '../../web/lib/index';
import { stepsOf } from '../js/helpers';
import { useServerAndBrowser } from './harness';
import { captionText, canvasStats, expectLinkReopensSame, openPage, state, type PageState } from './page-helpers';

const env = useServerAndBrowser();
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

beforeAll(async () => {
  await init();
});

type V2 = [number, number];
type PlanarState = PageState & {
  scene: Scene2D;
  planar: { difference: V2[]; simplex: 'point' | 'segment' | 'triangle' | null; shapes: V2[] } | null;
};

const planarState = async (page: Page) => (await state(page)) as unknown as PlanarState;

function sceneFile(name: string): Scene2D {
  return JSON.parse(readFileSync(path.join(root, 'shared', 'scenes', name), 'utf8')) as Scene2D;
}

/** The points of "{(x,y), (x,y), ...}". */
function pointList(text: string): V2[] {
  return [...text.matchAll(/\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)/g)].map((m) => [Number(m[1]), Number(m[2])]);
}

/**
 * Seed 004's worked example of a Minkowski difference (../shared/seeds/004_c2c451dadb36b45f.txt, outside the
 * repository, so its numbers are transcribed here as tests/cpp/test_planar.cpp has them): A = {(0,2), (0,3), (2,2)},
 * B = {(1,1), (3,1), (3,4), (1,4)}, "A − B" = {(−1,−1), (−1,2), (3,2), (3,−2), (1,−2)}. The seed writes the difference
 * as the set of b − a (its listed points' x run from min(B) − max(A) = −1 to 3), so the library's A − B (w = a − b)
 * is its mirror through the origin.
 */
function seedExample(): { a: V2[]; b: V2[]; listed: V2[] } {
  return {
    a: pointList('(0,2), (0,3), (2,2)'),
    b: pointList('(1,1), (3,1), (3,4),(1,4)'),
    listed: pointList('(-1,-1),(-1,2),(3,2),(3,-2),(1,-2)'),
  };
}

/** Convex hull (Andrew's monotone chain), counter-clockwise, without collinear points. */
function hull(points: V2[]): V2[] {
  const p = [...points].sort((u, v) => u[0] - v[0] || u[1] - v[1]);
  const cross = (o: V2, a: V2, b: V2) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (pts: V2[]) => {
    const out: V2[] = [];
    for (const q of pts) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], q) <= 0) out.pop();
      out.push(q);
    }
    out.pop();
    return out;
  };
  return [...half(p), ...half([...p].reverse())];
}

const key = (v: V2) => `${v[0]},${v[1]}`;
const asSet = (vs: V2[]) => vs.map(key).sort();

/** The world vertices of a 2D polygon: turned by its angle, then moved to its position. */
function worldPolygon(s: Scene2D['shapes'][number]): V2[] {
  const a = s.angle ?? 0;
  const [px, py] = s.position ?? [0, 0];
  return (s.points ?? []).map(([x, y]) => [px + Math.cos(a) * x - Math.sin(a) * y, py + Math.sin(a) * x + Math.cos(a) * y]);
}

/**
 * Penetration of two convex polygons by the separating-axis theorem: over every edge normal of both, the overlap
 * of the projections when B moves along +n; the smallest is the depth, its axis the normal.
 */
function satPenetration(A: V2[], B: V2[]): { depth: number; normal: V2 } {
  let best = { depth: Infinity, normal: [0, 0] as V2 };
  for (const P of [A, B]) {
    for (let i = 0; i < P.length; i++) {
      const [x0, y0] = P[i];
      const [x1, y1] = P[(i + 1) % P.length];
      const len = Math.hypot(x1 - x0, y1 - y0);
      for (const n of [[(y1 - y0) / len, -(x1 - x0) / len], [-(y1 - y0) / len, (x1 - x0) / len]] as V2[]) {
        const dots = (Q: V2[]) => Q.map((q) => q[0] * n[0] + q[1] * n[1]);
        const overlap = Math.max(...dots(A)) - Math.min(...dots(B));
        if (overlap < best.depth) best = { depth: overlap, normal: n };
      }
    }
  }
  return best;
}

/** Opens the gallery entry of `file` in the page (the example list), at its first step. */
async function openGallery(page: Page, file: string): Promise<void> {
  const entries = await page.evaluate(async () => (await fetch('gallery.json')).json()) as { file: string }[];
  const index = entries.findIndex((e) => e.file === file);
  expect(index, `${file} is in gallery.json`).toBeGreaterThanOrEqual(0);
  await page.selectOption('#gallery', String(index));
  await page.waitForFunction(() => (window as any).__collidoscope.planar !== null, null, { timeout: 10_000 });
}

const kindOf = (n: number) => (n === 1 ? 'point' : n === 2 ? 'segment' : n === 3 ? 'triangle' : null);

describe('the 2D GJK first lesson (seed 004)', () => {
  it('is seed 004\'s example, steps point → segment → triangle as the trace does, and ends at the library\'s answer', async () => {
    const seed = seedExample();
    const scene = sceneFile('00-2d-gjk-first-lesson.json');
    expect(scene.dimension).toBe(2);
    expect(scene.shapes.map((s) => s.points)).toEqual([seed.a, seed.b]);

    const { page, errors } = await openPage(env.browser, env.url);
    try {
      await openGallery(page, '00-2d-gjk-first-lesson.json');
      let s = await planarState(page);
      expect(s.error).toBeNull();
      expect(s.scene).toEqual(scene);

      // The flat A − B drawn: the seed's listed difference mirrored through O, and the hull of every a − b.
      const drawn = hull(s.planar!.difference);
      expect(asSet(drawn)).toEqual(asSet(seed.listed.map(([x, y]) => [-x + 0, -y + 0] as V2)));
      const brute = hull(seed.a.flatMap((a) => seed.b.map((b) => [a[0] - b[0], a[1] - b[1]] as V2)));
      expect(asSet(drawn)).toEqual(asSet(brute));
      // The seed's point: the polygons meet, so O lies in their difference (inside every edge of the CCW hull).
      for (let i = 0; i < brute.length; i++) {
        const [p, q] = [brute[i], brute[(i + 1) % brute.length]];
        expect((q[0] - p[0]) * (0 - p[1]) - (q[1] - p[1]) * (0 - p[0])).toBeGreaterThanOrEqual(0);
      }

      // Every step: the frame, its caption and the simplex drawn are the trace's.
      const t = stepsOf(trace(scene as Scene2D & { query: 'distance' }));
      expect(s.frameCount).toBe(t.frames.length);
      const kinds: (string | null)[] = [];
      for (let i = 0; i < t.frames.length; i++) {
        s = await planarState(page);
        expect(s.frameIndex).toBe(i);
        expect(s.frameKind).toBe(t.frames[i].kind);
        expect(await captionText(page)).toBe(t.frames[i].caption);
        expect(s.planar!.simplex).toBe(kindOf(t.frames[i].simplex.length));
        kinds.push(s.planar!.simplex);
        await page.keyboard.press('ArrowRight');
      }
      // The lesson's path: W grows from a point to a segment to a triangle holding O.
      expect(kinds.filter((k, i) => k !== kinds[i - 1])).toEqual(['point', 'segment', 'triangle']);

      s = await planarState(page);
      expect(s.frameIndex).toBe(t.frames.length - 1);
      const r = run(scene as Scene2D & { query: 'distance' });
      expect(s.result).toEqual(r);
      expect(r.distance).toBe(0);
      const values = await page.textContent('#values');
      expect(values).toContain(`pointA(${r.pointA.join(', ')})`);
      expect((await canvasStats(page, '#canvas-minkowski')).foreground).toBeGreaterThan(0.05);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);
});

describe('the 2D EPA scene', () => {
  it('steps the planar EPA to the library\'s answer, which is the separating-axis overlap of the two polygons', async () => {
    const scene = sceneFile('01-2d-epa-polygons.json');
    expect(scene.query).toBe('penetration');
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      await openGallery(page, '01-2d-epa-polygons.json');
      const t = stepsOf(trace(scene as Scene2D & { query: 'penetration' }));
      let s = await planarState(page);
      expect(s.frameCount).toBe(t.frames.length);
      expect(t.frames.some((f) => f.kind === 'expand'), 'the scene grows its polygon at least once').toBe(true);
      for (let i = 0; i < t.frames.length; i++) {
        s = await planarState(page);
        expect(s.frameKind).toBe(t.frames[i].kind);
        expect(await captionText(page)).toBe(t.frames[i].caption);
        // The values table counts the polygon's vertices of this frame.
        expect(await page.textContent('#values')).toContain(`vertices of P${t.frames[i].vertices.length}`);
        await page.keyboard.press('ArrowRight');
      }
      s = await planarState(page);
      const r = run(scene as Scene2D & { query: 'penetration' });
      expect(s.result).toEqual(r);
      const ref = satPenetration(worldPolygon(scene.shapes[0]), worldPolygon(scene.shapes[1]));
      expect(r.intersecting).toBe(true);
      expect(r.depth).toBeCloseTo(ref.depth, 12);
      expect(r.normal[0]).toBeCloseTo(ref.normal[0], 12);
      expect(r.normal[1]).toBeCloseTo(ref.normal[1], 12);
      expect(await page.textContent('#values')).toContain(`result depth${String(Number(r.depth.toPrecision(9)))}`);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);
});

const lesson: Scene2D = {
  version: 1, dimension: 2, query: 'distance',
  shapes: [{ type: 'polygon', points: [[0, 0], [4, 0], [0, 3]] }, { type: 'circle', radius: 0.5, position: [3, 3] }],
};

describe('2D links, editing and JSON', () => {
  it('a 2D link with awkward doubles reopens bit for bit at its step', async () => {
    const scene: Scene2D & { step: number } = {
      version: 1, dimension: 2, query: 'penetration', step: 2,
      shapes: [
        { type: 'box', halfExtents: [1, 0.1 + 0.2], angle: 1 / 3 },
        { type: 'capsule', radius: 0.25, halfHeight: 0.7, position: [0.9, 1e-7 + 0.3], angle: -Math.PI / 7 },
      ],
    };
    const first = await openPage(env.browser, env.url + encodeLink(scene));
    const s = await planarState(first.page);
    expect(s.error).toBeNull();
    const { step, ...shown } = scene;
    expect(s.scene).toEqual(shown);
    expect(s.frameIndex).toBe(step);
    // toEqual compares numbers with Object.is: every double as encoded.
    expect(decodeLink(s.link)).toEqual(scene);
    await expectLinkReopensSame(env.browser, first);
  }, 60_000);

  it('editing a number field of a 2D shape changes the scene and the answer; a bad value names the field', async () => {
    const { page, errors } = await openPage(env.browser, env.url + encodeLink(lesson));
    try {
      expect(await page.isVisible('#type2d-b')).toBe(true);
      expect(await page.isVisible('#type-b')).toBe(false);
      await page.fill('#editor-b input[aria-label="position x of 2D shape B"]', '4');
      await page.waitForFunction(() => (window as any).__collidoscope.scene.shapes[1].position[0] === 4, null, { timeout: 5000 });
      let s = await planarState(page);
      expect(s.scene.shapes[1]).toEqual({ type: 'circle', radius: 0.5, position: [4, 3] });
      // The circle's centre (4, 3) is (3·4 + 4·3 − 12)/5 = 12/5 from the hypotenuse 3x + 4y = 12, its edge 12/5 − 1/2.
      expect((s.result as { distance: number }).distance).toBeCloseTo(12 / 5 - 0.5, 12);
      expect(s.result).toEqual(run(s.scene));

      await page.fill('#editor-a input[aria-label="angle in radians of 2D shape A"]', '0.5');
      await page.waitForFunction(() => (window as any).__collidoscope.scene.shapes[0].angle === 0.5, null, { timeout: 5000 });
      s = await planarState(page);
      expect(s.result).toEqual(run(s.scene));

      await page.selectOption('#type2d-b', 'box');
      await page.waitForFunction(() => (window as any).__collidoscope.scene.shapes[1].type === 'box', null, { timeout: 5000 });
      s = await planarState(page);
      expect(s.scene.shapes[1].position).toEqual([4, 3]);
      expect(s.result).toEqual(run(s.scene));

      await page.fill('#editor-b input[aria-label="half extents y of 2D shape B"]', '');
      await page.waitForFunction(() => (window as any).__collidoscope.error !== null, null, { timeout: 5000 });
      s = await planarState(page);
      expect(s.error).toMatch(/shapes\[1\]\.halfExtents\[1\]/);
      expect(s.scene.shapes[1].halfExtents).toEqual([0.6, 0.4]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('the gizmo moves a 2D shape in the plane, keeping its angle, and the answer follows', async () => {
    const scene: Scene2D = {
      version: 1, dimension: 2, query: 'distance',
      shapes: [{ type: 'box', halfExtents: [1, 0.5] }, { type: 'box', halfExtents: [0.5, 0.5], position: [3, 0], angle: 1 / 3 }],
    };
    const { page, errors } = await openPage(env.browser, env.url + encodeLink(scene));
    try {
      await page.click('#select-b');
      await page.waitForTimeout(150);
      const [x, y] = (await planarState(page)).planar!.shapes[1];
      // From the gizmo's centre, right and up on the screen: +x and +y in the plane seen from above.
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let i = 1; i <= 8; i++) await page.mouse.move(x + 5 * i, y - 4 * i, { steps: 2 });
      await page.mouse.up();
      await page.waitForTimeout(300);
      const s = await planarState(page);
      expect(s.error).toBeNull();
      const b = s.scene.shapes[1];
      expect(b.position).toHaveLength(2);
      expect(b.position![0]).toBeGreaterThan(3);
      expect(b.position![1]).toBeGreaterThan(0);
      expect(b.angle).toBe(1 / 3);
      expect(s.scene.shapes[0]).toEqual(scene.shapes[0]);
      expect(s.result).toEqual(run(s.scene));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('exports a 2D scene as its own JSON and imports a pasted 2D scene', async () => {
    const { page, errors } = await openPage(env.browser, env.url + encodeLink({ ...lesson, step: 1 }));
    try {
      await page.click('#scene-json-box summary');
      await page.click('#scene-json-show');
      const exported = JSON.parse(await page.inputValue('#scene-json'));
      expect(exported).toEqual({ ...lesson, step: 1 });
      const pasted: Scene2D = { ...lesson, query: 'intersect', shapes: [lesson.shapes[0], { type: 'segment', points: [[1, 1], [5, 5]] }] };
      await page.fill('#scene-json', JSON.stringify(pasted));
      await page.click('#scene-json-load');
      await page.waitForFunction(() => (window as any).__collidoscope.scene.query === 'intersect', null, { timeout: 5000 });
      const s = await planarState(page);
      expect(s.scene).toEqual(pasted);
      // The segment from (1, 1) crosses the triangle (1, 1 is inside it: 3 + 4 < 12).
      expect(s.result).toEqual(run(pasted));
      expect((s.result as { intersecting: boolean }).intersecting).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('edits a 2D ray and a 2D motion in the panel\'s number fields (x and y, no z), and the answer follows', async () => {
    // A unit box at the origin; a ray along +x from (-5, 0.25) enters its face x = -0.5 at t = 4.5.
    const box: Scene2D = {
      version: 1, dimension: 2, query: 'raycast',
      shapes: [{ type: 'box', halfExtents: [0.5, 0.5] }],
      ray: { origin: [-5, 0.25], direction: [1, 0], maxT: 10 },
    };
    const { page, errors } = await openPage(env.browser, env.url + encodeLink(box));
    try {
      expect(await page.isVisible('#ray-origin-x')).toBe(true);
      expect(await page.isVisible('#ray-origin-z')).toBe(false);
      expect(await page.isVisible('#ray-direction-z')).toBe(false);
      let s = await planarState(page);
      expect((s.result as { t: number }).t).toBe(4.5);
      // From (-3, 0.25) the same face is 2.5 away; a y of 0.75 passes above the box.
      await page.fill('#ray-origin-x', '-3');
      await page.waitForFunction(() => (window as any).__collidoscope.scene.ray.origin[0] === -3, null, { timeout: 5000 });
      s = await planarState(page);
      expect(s.scene.ray).toEqual({ origin: [-3, 0.25], direction: [1, 0], maxT: 10 });
      expect((s.result as { t: number }).t).toBe(2.5);
      expect(s.result).toEqual(run(s.scene));
      await page.fill('#ray-origin-y', '0.75');
      await page.waitForFunction(() => (window as any).__collidoscope.scene.ray.origin[1] === 0.75, null, { timeout: 5000 });
      s = await planarState(page);
      expect((s.result as { hit: boolean }).hit).toBe(false);

      // Two unit boxes 3 apart (gap 2): B moving by (-4, 0) first touches A at λ = 2/4.
      const cast: Scene2D = {
        version: 1, dimension: 2, query: 'shapecast',
        shapes: [{ type: 'box', halfExtents: [0.5, 0.5] }, { type: 'box', halfExtents: [0.5, 0.5], position: [3, 0] }],
        motion: { translationB: [-1, 0] },
      };
      await page.goto(env.url + encodeLink(cast));
      await page.waitForFunction(() => (window as any).__collidoscope?.ready === true, null, { timeout: 15000 });
      expect(await page.isVisible('#motion-translationB-x')).toBe(true);
      expect(await page.isVisible('#motion-translationB-z')).toBe(false);
      await page.fill('#motion-translationB-x', '-4');
      await page.waitForFunction(() => (window as any).__collidoscope.scene.motion.translationB[0] === -4, null, { timeout: 5000 });
      s = await planarState(page);
      expect(s.scene.motion).toEqual({ translationB: [-4, 0] });
      expect((s.result as { t: number }).t).toBeCloseTo(0.5, 9);
      expect(s.result).toEqual(run(s.scene));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('switches among the queries of the plane, and keeps the scene when a query needs 3D', async () => {
    const { page, errors } = await openPage(env.browser, env.url + encodeLink(lesson));
    try {
      await page.selectOption('#query', 'penetration');
      await page.waitForFunction(() => (window as any).__collidoscope.scene.query === 'penetration', null, { timeout: 5000 });
      let s = await planarState(page);
      expect(s.scene).toEqual({ ...lesson, query: 'penetration' });
      expect(s.result).toEqual(run({ ...lesson, query: 'penetration' }));

      await page.selectOption('#query', 'raycast');
      await page.waitForFunction(() => (window as any).__collidoscope.scene.query === 'raycast', null, { timeout: 5000 });
      s = await planarState(page);
      expect(s.scene.dimension).toBe(2);
      expect(s.scene.shapes).toEqual([lesson.shapes[0]]);
      expect(s.scene.ray?.origin).toHaveLength(2);
      expect(s.result).toEqual(run(s.scene));

      await page.selectOption('#query', 'sat');
      await page.waitForFunction(() => (window as any).__collidoscope.error !== null, null, { timeout: 5000 });
      s = await planarState(page);
      expect(s.error).toMatch(/2D scenes run intersect, distance, penetration, raycast, shapecast; "sat" needs a 3D scene/);
      expect(s.scene.query).toBe('raycast');
      expect(await page.inputValue('#query')).toBe('raycast');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);
});
