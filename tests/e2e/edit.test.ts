// Editing every part of a scene on the page: the ray and the shape-cast motion (panel fields and drag handles in
// the shapes view), a ray or motion the page made following the shapes, exact quaternion entry, scene JSON
// (paste, import, export: export then import gives the same scene and permalink), a link that cannot be opened
// staying in the address bar, and the built page opened from disk. References come from the library run here in
// Node and from arithmetic written out in the tests, never from the page's own code.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { decodeLink, init, run, type Scene } from '../../web/lib/index';
import { DEFAULT_ROOT } from '../../scripts/serve.mjs';
import { useServerAndBrowser } from './harness';
import { colourPixels, dragHandle, openPage, state, type ColourRange, type PageState } from './page-helpers';

const env = useServerAndBrowser();

beforeAll(async () => {
  await init();
});

type V3 = [number, number, number];
type SceneState = PageState & { scene: Scene; handles: Record<string, [number, number]> };

async function fullState(page: Page): Promise<SceneState> {
  return (await state(page)) as unknown as SceneState;
}

async function setQuery(page: Page, q: string): Promise<void> {
  await page.selectOption('#query', q);
  await page.waitForFunction((want) => (window as any).__collidoscope.scene?.query === want, q, { timeout: 10_000 });
}

/** Types `value` into the number field `selector` (one input event, as when the user finishes typing). */
async function typeInto(page: Page, selector: string, value: string): Promise<void> {
  await page.fill(selector, value);
}

/** The page's result is the library's answer for the page's scene (run here, in Node). */
function expectLibraryResult(s: SceneState): void {
  const mine = run(s.scene) as unknown as Record<string, unknown>;
  for (const k of ['hit', 't']) expect(s.result?.[k], k).toEqual(mine[k]);
}


const norm = (v: readonly number[]) => Math.hypot(...v);

describe('the ray', () => {
  it('is edited in the panel: origin, direction and maxT go to the scene, the trace and the link', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    await setQuery(page, 'raycast');
    expect(await page.isVisible('#ray-maxT')).toBe(true);
    expect(await page.isVisible('#motion-translationB-x')).toBe(false);
    const before = await fullState(page);
    expect(before.result?.hit).toBe(true);

    // A ray too short to reach the shape misses it.
    await typeInto(page, '#ray-maxT', '0.25');
    await page.waitForFunction(() => (window as any).__collidoscope.scene.ray.maxT === 0.25);
    let s = await fullState(page);
    expect(s.result?.hit).toBe(false);
    expectLibraryResult(s);

    // Back to a long ray, started from another origin and turned a little.
    await typeInto(page, '#ray-maxT', '20');
    await typeInto(page, '#ray-origin-y', String(before.scene.ray!.origin[1] + 0.05));
    await typeInto(page, '#ray-direction-z', '0.01');
    await page.waitForFunction(() => (window as any).__collidoscope.scene.ray.direction[2] === 0.01);
    s = await fullState(page);
    expect(s.scene.ray).toEqual({
      origin: [before.scene.ray!.origin[0], before.scene.ray!.origin[1] + 0.05, before.scene.ray!.origin[2]],
      direction: [1, 0, 0.01], maxT: 20,
    });
    expect(s.result?.hit).toBe(true);
    expectLibraryResult(s);
    // The address bar holds the edited ray.
    await page.waitForFunction(() => location.href === (window as any).__collidoscope.link, null, { timeout: 5000 });
    expect(decodeLink(page.url()).ray).toEqual(s.scene.ray);

    // A bad value is refused with the library's message naming the field; the scene keeps its ray.
    await typeInto(page, '#ray-maxT', '-1');
    s = await fullState(page);
    expect(s.error).toMatch(/^Ray: .*maxT/);
    expect(s.scene.ray!.maxT).toBe(20);
    expect(await page.getAttribute('#ray-maxT', 'aria-invalid')).toBe('true');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('is dragged by its handles: the end turns and stretches it (a unit direction stays unit), the origin moves it', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    await setQuery(page, 'raycast');
    const before = await fullState(page);
    expect(Object.keys(before.handles).sort()).toEqual(['origin', 'tip']);
    await dragHandle(page, 'tip', 0, -60);
    await page.waitForFunction((d) => JSON.stringify((window as any).__collidoscope.scene.ray.direction) !== d,
      JSON.stringify(before.scene.ray!.direction), { timeout: 5000 });
    let s = await fullState(page);
    expect(s.scene.ray!.origin).toEqual(before.scene.ray!.origin);
    expect(norm(s.scene.ray!.direction)).toBeCloseTo(1, 5);
    // Dragged up on the screen: the ray now climbs.
    expect(s.scene.ray!.direction[1]).toBeGreaterThan(0.01);
    expect(s.scene.ray!.maxT).not.toBe(before.scene.ray!.maxT);
    expectLibraryResult(s);
    // The panel shows the dragged ray.
    expect(Number(await page.inputValue('#ray-maxT'))).toBe(s.scene.ray!.maxT);

    const turned = s.scene.ray!;
    await dragHandle(page, 'origin', -40, 0);
    await page.waitForFunction((o) => JSON.stringify((window as any).__collidoscope.scene.ray.origin) !== o,
      JSON.stringify(turned.origin), { timeout: 5000 });
    s = await fullState(page);
    expect(s.scene.ray!.direction).toEqual(turned.direction);
    expect(s.scene.ray!.maxT).toBe(turned.maxT);
    expectLibraryResult(s);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('the shape-cast motion', () => {
  it('is edited in the panel and by the handles of where A and B end', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    await setQuery(page, 'shapecast');
    expect(await page.isVisible('#motion-translationB-x')).toBe(true);
    expect(await page.isVisible('#ray-maxT')).toBe(false);
    const before = await fullState(page);
    expect(Object.keys(before.handles).sort()).toEqual(['endA', 'endB']);

    // B moved the other way misses A.
    await typeInto(page, '#motion-translationB-x', '1');
    await page.waitForFunction(() => (window as any).__collidoscope.scene.motion.translationB[0] === 1);
    let s = await fullState(page);
    expect(s.result?.hit).toBe(false);
    expectLibraryResult(s);
    await typeInto(page, '#motion-translationA-y', '0.5');
    await page.waitForFunction(() => (window as any).__collidoscope.scene.motion.translationA[1] === 0.5);
    s = await fullState(page);
    expect(s.scene.motion!.translationA).toEqual([0, 0.5, 0]);
    expectLibraryResult(s);

    // The handle of B's end, dragged: B's translation changes, A's and the shapes do not.
    const edited = s;
    await dragHandle(page, 'endB', -50, 30);
    await page.waitForFunction((t) => JSON.stringify((window as any).__collidoscope.scene.motion.translationB) !== t,
      JSON.stringify(edited.scene.motion!.translationB), { timeout: 5000 });
    s = await fullState(page);
    expect(s.scene.motion!.translationA).toEqual([0, 0.5, 0]);
    expect(s.scene.shapes).toEqual(edited.scene.shapes);
    expect(s.scene.motion!.translationB![0]).toBeLessThan(1);
    expectLibraryResult(s);
    expect(Number(await page.inputValue('#motion-translationB-x'))).toBe(s.scene.motion!.translationB![0]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('made by the page follows the shapes (B still moves to A); one set by the user stays as set', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    await setQuery(page, 'shapecast');
    await typeInto(page, '#editor-b input[aria-label="shape B position x"]', '2.5');
    await page.waitForFunction(() => (window as any).__collidoscope.scene.shapes[1].position[0] === 2.5);
    let s = await fullState(page);
    const a = s.scene.shapes[0].position!;
    const b = s.scene.shapes[1].position!;
    const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
    expect(s.scene.motion).toEqual({ translationA: [0, 0, 0], translationB: [0, 1, 2].map((k) => round4(a[k] - b[k])) });
    expect(s.result?.hit).toBe(true);
    expectLibraryResult(s);

    // A motion of the user's own: moving B keeps it.
    await typeInto(page, '#motion-translationB-y', '0.125');
    await page.waitForFunction(() => (window as any).__collidoscope.scene.motion.translationB[1] === 0.125);
    const own = (await fullState(page)).scene.motion;
    await typeInto(page, '#editor-b input[aria-label="shape B position x"]', '2');
    await page.waitForFunction(() => (window as any).__collidoscope.scene.shapes[1].position[0] === 2);
    s = await fullState(page);
    expect(s.scene.motion).toEqual(own);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('quaternion entry', () => {
  it('normalizes the four numbers, shows the normalized value, and names a bad field', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    for (const [c, v] of [['x', '1'], ['y', '2'], ['z', '3'], ['w', '4']]) await page.fill(`#quat-b-${c}`, v);
    await page.click('#quat-b-apply');
    let s = await fullState(page);
    const l = Math.sqrt(30);
    const want = [1 / l, 2 / l, 3 / l, 4 / l];
    s.scene.shapes[1].rotation!.forEach((x, k) => expect(x).toBeCloseTo(want[k], 15));
    expect(norm(s.scene.shapes[1].rotation!)).toBeCloseTo(1, 15);
    expect(await page.textContent('#quat-b-note')).toMatch(/^normalized: \[0\.18257418583505/);
    expect(Number(await page.inputValue('#quat-b-w'))).toBe(s.scene.shapes[1].rotation![3]);
    expectLibraryResultDistance(s);

    // Not a number in w: the message names it, the field is marked, the rotation stays.
    const kept = s.scene.shapes[1].rotation;
    await page.fill('#quat-b-w', 'abc');
    await page.press('#quat-b-w', 'Enter');
    expect(await page.textContent('#quat-b-note')).toBe('Shape B rotation: quaternion w must be a finite number, got "abc"');
    expect(await page.getAttribute('#quat-b-w', 'aria-invalid')).toBe('true');
    s = await fullState(page);
    expect(s.scene.shapes[1].rotation).toEqual(kept);

    // All zero: no length to divide by.
    for (const c of ['x', 'y', 'z', 'w']) await page.fill(`#quat-a-${c}`, '0');
    await page.click('#quat-a-apply');
    expect(await page.textContent('#quat-a-note')).toMatch(/Shape A rotation: .*\[0, 0, 0, 0\] has no length/);
    expect(errors).toEqual([]);
    await page.close();
  });
});

function expectLibraryResultDistance(s: SceneState): void {
  const mine = run(s.scene) as unknown as Record<string, unknown>;
  expect(s.result?.distance).toBe(mine.distance);
}

describe('scene JSON', () => {
  it('export then import gives the same scene and the same permalink', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    await setQuery(page, 'shapecast');
    await typeInto(page, '#motion-translationB-z', '-0.3');
    await page.keyboard.press('Escape');
    await page.click('#last');
    const exported = await fullState(page);
    await page.click('#scene-json-box summary');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#scene-json-download')]);
    expect(download.suggestedFilename()).toBe('collidoscope-shapecast.json');
    const file = await download.path();
    const text = readFileSync(file!, 'utf8');
    // The file is the scene, with its step: the format the CLI reads.
    expect(JSON.parse(text)).toEqual({ ...exported.scene, step: exported.frameIndex });
    expect(run(JSON.parse(text) as Scene)).toEqual(run(exported.scene));

    // Somewhere else, then the file imported: the same scene, step and permalink.
    await setQuery(page, 'distance');
    expect((await fullState(page)).link).not.toBe(exported.link);
    await page.setInputFiles('#scene-json-file', { name: 'scene.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction(() => (window as any).__collidoscope.scene.query === 'shapecast');
    const imported = await fullState(page);
    expect(imported.scene).toEqual(exported.scene);
    expect(imported.frameIndex).toBe(exported.frameIndex);
    expect(imported.link).toBe(exported.link);
    expect(await page.textContent('#scene-json-status')).toBe('File "scene.json": scene loaded.');

    // "This scene" puts the same text in the box; pasted back, it gives the same link again.
    await page.click('#scene-json-show');
    expect(await page.inputValue('#scene-json')).toBe(text);
    await setQuery(page, 'intersect');
    await page.click('#scene-json-load');
    await page.waitForFunction(() => (window as any).__collidoscope.scene.query === 'shapecast');
    expect((await fullState(page)).link).toBe(exported.link);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says where pasted text is not JSON, and lets the library name a bad field', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    await page.click('#scene-json-box summary');
    const shown = (await fullState(page)).scene;
    await page.fill('#scene-json', '{\n  "version": 1,\n  "query": "distance",\n  "shapes": [\n');
    await page.click('#scene-json-load');
    expect(await page.textContent('#scene-json-status')).toMatch(/^Pasted JSON: it is not valid JSON.*line \d+, column \d+\.$/);
    expect((await fullState(page)).scene).toEqual(shown);

    const bad = { version: 1, query: 'distance', shapes: [{ type: 'sphere', radius: -2 }, { type: 'point' }] };
    await page.fill('#scene-json', JSON.stringify(bad));
    await page.keyboard.press('Control+Enter');
    const s = await fullState(page);
    expect(s.error).toMatch(/^Pasted JSON: .*shapes\[0\]\.radius/);
    expect(s.scene).toEqual(shown);
    expect(await page.textContent('#scene-json-status')).toMatch(/not loaded/);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('a link the page cannot open', () => {
  it('stays in the address bar with a message naming its parameter, until the user moves on', async () => {
    const hash = '#v1=garbled!!link';
    const { page, errors } = await openPage(env.browser, env.url + hash);
    let s = await fullState(page);
    expect(s.error).toBe('Could not open this link: the link cannot be read: it is not valid base64url-encoded UTF-8 '
      + '(the payload has characters outside base64url) (parameter "v1", 13 characters: "garbled!!link"). The address bar keeps '
      + 'the link as opened, to fix or to report. Showing the default scene instead.');
    // Steps in the default scene do not write over it.
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(500);
    expect(new URL(page.url()).hash).toBe(hash);
    expect(await page.isVisible('#banner')).toBe(true);
    // Dismissed: the address becomes the link of what the page shows.
    await page.click('#banner-close');
    await page.waitForFunction(() => location.href === (window as any).__collidoscope.link, null, { timeout: 5000 });
    s = await fullState(page);
    expect(decodeLink(page.url()).query).toBe(s.scene.query);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('with a scene the library refuses, keeps the address and names the field', async () => {
    const scene = { version: 1, query: 'distance', shapes: [{ type: 'box', halfExtents: [1, 1] }, { type: 'point' }] };
    const hash = `#v1=${Buffer.from(JSON.stringify(scene)).toString('base64url')}`;
    const { page, errors } = await openPage(env.browser, env.url + hash);
    const s = await fullState(page);
    expect(s.error).toMatch(/^Could not open this link: shapes\[0\]\.halfExtents: .*must have 3 numbers/);
    await page.waitForTimeout(500);
    expect(new URL(page.url()).hash).toBe(hash);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('the built page opened from disk', () => {
  it('says how to serve it instead of waiting forever', async () => {
    const page = await env.browser.newPage();
    await page.goto(pathToFileURL(path.join(DEFAULT_ROOT, 'index.html')).href);
    await page.waitForFunction(() => (window as any).__collidoscope?.ready === true, null, { timeout: 10_000 });
    expect(await page.isVisible('#banner')).toBe(true);
    const text = await page.textContent('#banner-text');
    expect(text).toMatch(/served over http/);
    expect(text).toMatch(/npm start/);
    expect(await page.textContent('#gallery')).toMatch(/Serve the page/);
    await page.close();
  });
});

/** Shape A's amber (COLORS.a over the dark background) and B's blue, with room for shading. */
const AMBER: ColourRange = { r: [95, 255], g: [60, 190], b: [0, 80] };
const BLUE: ColourRange = { r: [25, 120], g: [75, 200], b: [130, 255] };

/** Both shapes are drawn whole (no pixel of theirs on the canvas's border) and large (each over 1 % of it). */
async function expectFramed(page: Page, what: string): Promise<void> {
  await page.waitForTimeout(600);
  for (const [name, range] of [['A', AMBER], ['B', BLUE]] as const) {
    const box = await colourPixels(page, '#canvas-shapes', range);
    expect(box.count / (box.width * box.height), `${what}: shape ${name} is large`).toBeGreaterThan(0.01);
    expect(box.x0, `${what}: ${name} left`).toBeGreaterThan(1);
    expect(box.y0, `${what}: ${name} top`).toBeGreaterThan(1);
    expect(box.x1, `${what}: ${name} right`).toBeLessThan(box.width - 2);
    expect(box.y1, `${what}: ${name} bottom`).toBeLessThan(box.height - 2);
  }
}

describe('framing', () => {
  const pair = (s: number) => ({
    version: 1, query: 'distance',
    shapes: [
      { type: 'box', halfExtents: [s, 0.5 * s, 0.7 * s], position: [-1.5 * s, 0, 0] },
      { type: 'sphere', radius: 0.6 * s, position: [1.5 * s, 0.3 * s, 0] },
    ],
  });

  it.each([1e-6, 1e6])('a scene of size %s frames itself', async (size) => {
    const { page, errors } = await openPage(env.browser, env.url + `#v1=${Buffer.from(JSON.stringify(pair(size))).toString('base64url')}`);
    expect((await fullState(page)).error).toBeNull();
    await expectFramed(page, `size ${size}`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a pair example after a hull example is framed without Reset view', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    const entries = await page.evaluate(async () => (await fetch('gallery.json')).json()) as { scene: Scene }[];
    const hull = entries.findIndex((e) => e.scene.query === 'hull');
    const boxes = entries.findIndex((e) => e.scene.query === 'distance' && e.scene.shapes.every((s) => s.type === 'box'));
    expect(hull).toBeGreaterThanOrEqual(0);
    expect(boxes).toBeGreaterThanOrEqual(0);
    await page.selectOption('#gallery', String(hull));
    await page.waitForFunction(() => (window as any).__collidoscope.scene.query === 'hull');
    await page.waitForTimeout(400);
    await page.selectOption('#gallery', String(boxes));
    await page.waitForFunction(() => (window as any).__collidoscope.scene.query === 'distance');
    await expectFramed(page, 'after the hull');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('what a new user hit', () => {
  it('the large-coordinates example: closest points told apart, numbers whole; the last step marks the line that stopped GJK', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    const entries = await page.evaluate(async () => (await fetch('gallery.json')).json()) as { file: string; scene: Scene }[];
    const i = entries.findIndex((e) => /large-coordinates/.test(e.file) && e.scene.query === 'distance');
    expect(i).toBeGreaterThanOrEqual(0);
    await page.selectOption('#gallery', String(i));
    await page.click('#last');
    const s = await fullState(page);
    const rows = Object.fromEntries(await page.$$eval('#values tr', (trs) => trs.map((tr) => [
      tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? ''])));
    expect(rows.pointA).toBeDefined();
    expect(rows.pointA).not.toBe(rows.pointB);
    // Each written coordinate is the result's within the digits shown: parse them back.
    for (const key of ['pointA', 'pointB'] as const) {
      const shown = (rows[key] as string).replace(/[()]/g, '').split(', ').map(Number);
      const want = s.result![key] as number[];
      shown.forEach((x, k) => expect(Math.abs(x - want[k])).toBeLessThanOrEqual(1e-6 * Math.abs(want[k])));
    }
    // The x coordinates differ by 1e-6 near 1e4: written apart.
    const xs = ['pointA', 'pointB'].map((k) => (rows[k] as string).slice(1).split(',')[0]);
    expect(xs[0]).not.toBe(xs[1]);
    expect(await page.$eval('#values td', (td) => getComputedStyle(td).wordBreak)).toBe('normal');
    // The gap test (line 4) stopped the run; the distance is written on the step's own line.
    const ended = await page.$$eval('#pseudocode li.ended', (lis) => lis.map((li) => [li.getAttribute('data-line'), li.textContent]));
    expect(ended).toHaveLength(1);
    expect(ended[0][1]).toMatch(/v·w ≤/);
    expect(await page.$eval('#pseudocode li.active', (li) => li.textContent)).toMatch(/^distance ←/);
    // One step back, nothing is marked as having stopped the run.
    await page.click('#prev');
    expect(await page.$$eval('#pseudocode li.ended', (lis) => lis.length)).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the keys hint names the gizmo keys only where there is a gizmo; the count field of the cloud says its size', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    expect(await page.innerText('#keys-hint')).toMatch(/T \/ R gizmo/);
    const entries = await page.evaluate(async () => (await fetch('gallery.json')).json()) as { scene: Scene }[];
    const hull = entries.findIndex((e) => e.scene.query === 'hull');
    await page.selectOption('#gallery', String(hull));
    await page.waitForFunction(() => (window as any).__collidoscope.scene.query === 'hull');
    expect(await page.innerText('#keys-hint')).not.toMatch(/gizmo/);
    const points = (entries[hull].scene.shapes[0].points as unknown[]).length;
    expect(await page.textContent('#cloud-count')).toMatch(new RegExp(`^${points} points`));
    expect(Number(await page.inputValue('#cloud-count-input'))).toBe(points);
    expect(errors).toEqual([]);
    await page.close();
  });
});
