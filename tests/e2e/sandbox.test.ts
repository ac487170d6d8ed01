// The sandbox (query "simulate") in a real browser: the gallery's world scenes open from the example list; playing,
// stepping and scrubbing show the poses of trace()'s frames computed here in Node (bit for bit: the same wasm, the
// same scene); a dropped body joins the scene and its link reopens it; a pair at a frame opens in the GJK/EPA stepper
// with the frame's poses, and run() of that scene gives the pair's penetration.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fmt } from '../../web/lib/draw/format';
import { init, run, trace, type Scene, type SimulateFrame, type SimulateTrace } from '../../web/lib/index';
import { useServerAndBrowser } from './harness';
import { counterText, expectLinkReopensSame, openPage, state } from './page-helpers';
import { encodeLink } from '../../web/lib/link';

const env = useServerAndBrowser();

beforeAll(async () => {
  await init();
});

const sceneFile = (file: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../shared/scenes/${file}`, import.meta.url)), 'utf8')) as Scene;
const STACK = '75-world-box-stack.json';
const BOWL = '76-world-capsule-heightfield.json';

interface WorldState { step: number; poses: number[][]; contacts: number }

/** The state's world without where its dots are on the page. */
async function world(page: Page): Promise<WorldState> {
  return page.evaluate(() => {
    const { step, poses, contacts } = (window as any).__collidoscope.world;
    return JSON.parse(JSON.stringify({ step, poses, contacts })) as WorldState;
  });
}

/** Opens the page and chooses the gallery example of `file`. */
async function openExample(file: string): Promise<{ page: Page; errors: string[] }> {
  const opened = await openPage(env.browser, env.url);
  const entries = await opened.page.evaluate(async () => (await fetch('gallery.json')).json()) as { file: string }[];
  const index = entries.findIndex((e) => e.file === file);
  expect(index, `${file} is in the gallery`).toBeGreaterThanOrEqual(0);
  await opened.page.selectOption('#gallery', String(index));
  return opened;
}

/** The poses of `f` as the page publishes them (the drawn objects' numbers). */
const posesOf = (f: SimulateFrame) => f.poses.map((p) => [...p]);

async function scrubTo(page: Page, index: number): Promise<void> {
  await page.$eval('#scrubber', (el, v) => {
    (el as HTMLInputElement).value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, index);
}

describe('the sandbox on the page', () => {
  it('opens the box stack from the gallery and shows trace()\'s frames when stepping, scrubbing and playing', async () => {
    const scene = sceneFile(STACK);
    const t = trace(scene as Scene & { query: 'simulate' }) as SimulateTrace;
    const { page, errors } = await openExample(STACK);
    try {
      let s = await state(page);
      expect(s.error).toBeNull();
      expect(s.scene!.query).toBe('simulate');
      expect(s.frameCount).toBe(t.frames.length);
      expect(s.frameKind).toBe('step');
      expect(await world(page)).toEqual({ step: 0, poses: posesOf(t.frames[0]), contacts: t.frames[0].contacts.length });
      expect(await page.locator('#app').getAttribute('data-algorithm')).toBe('world');
      expect(await page.isVisible('#sandbox-drop-box')).toBe(true);

      for (let i = 0; i < 3; i++) await page.click('#next');
      expect(await world(page)).toEqual({ step: t.frames[3].step, poses: posesOf(t.frames[3]), contacts: t.frames[3].contacts.length });

      await scrubTo(page, 120);
      const w = await world(page);
      expect(w.step).toBe(t.frames[120].step);
      expect(w.poses).toEqual(posesOf(t.frames[120]));
      // The values table lists the frame's step, time and contact points.
      const rows = await page.$$eval('#values tbody tr', (trs) => Object.fromEntries(trs.map((r) => [r.querySelector('th')!.textContent, r.querySelector('td')!.textContent])));
      expect(rows.step).toBe(`${t.frames[120].step} of ${t.result.steps}`);
      expect(rows['contact points']).toBe(String(t.frames[120].contacts.length));
      expect(rows.time).toBe(`${fmt(t.frames[120].step * scene.dt!, 6)} s`);

      // Back one frame, then play: frames go by at the scene's dt at most (never faster than real time).
      await page.click('#prev');
      expect((await state(page)).frameIndex).toBe(119);
      const started = Date.now();
      await page.click('#play');
      await page.waitForFunction(() => (window as any).__collidoscope.frameIndex >= 140, null, { timeout: 10_000 });
      await page.click('#play');
      const elapsed = Date.now() - started;
      s = await state(page);
      expect(s.playing).toBe(false);
      expect(elapsed).toBeGreaterThanOrEqual((s.frameIndex - 119 - 1) * 1000 * scene.dt!);
      expect((await world(page)).poses).toEqual(posesOf(t.frames[s.frameIndex]));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('drops a body into the scene and removes it; the link of the new scene reopens it frame for frame', async () => {
    const scene = sceneFile(STACK);
    const { page, errors } = await openExample(STACK);
    try {
      await scrubTo(page, 30);
      await page.click('#sandbox-drop-sphere');
      const s = await state(page);
      expect(s.error).toBeNull();
      const dropped = s.scene as unknown as Scene;
      expect(dropped.shapes.length).toBe(scene.shapes.length + 1);
      expect(dropped.shapes.slice(0, -1)).toEqual(scene.shapes);
      expect(dropped.shapes.at(-1)!.type).toBe('sphere');
      expect(dropped.bodies).toEqual([...scene.bodies!, { shape: scene.shapes.length }]);
      // Dropped above everything at the start: higher than the top box's top (y 4.58 + 0.5 ... tilted a little).
      expect(dropped.shapes.at(-1)!.position![1]).toBeGreaterThan(5.08);
      // The page's frames are trace()'s of the new scene.
      const t = trace(dropped as Scene & { query: 'simulate' }) as SimulateTrace;
      expect(s.frameIndex).toBe(30);
      expect((await world(page)).poses).toEqual(posesOf(t.frames[30]));
      // The sphere falls onto the stack: later frames have a contact with shape 6.
      expect(t.frames.some((f) => f.contacts.some((c) => c.a === 6 || c.b === 6))).toBe(true);

      await page.click('#sandbox-remove');
      expect((await state(page)).scene).toEqual(scene);
      await page.click('#sandbox-drop-box');
      const reopened = await expectLinkReopensSame(env.browser, { page, errors });
      expect(reopened.after.scene!.shapes.length).toBe(scene.shapes.length + 1);
    } finally {
      if (!page.isClosed()) await page.close();
    }
  }, 60_000);

  it('opens a pair at a frame in the GJK/EPA stepper with the frame\'s poses, and back', async () => {
    const scene = sceneFile(STACK);
    const t = trace(scene as Scene & { query: 'simulate' }) as SimulateTrace;
    const { page, errors } = await openExample(STACK);
    try {
      await scrubTo(page, 60);
      const f = t.frames[60];
      const pairs = await page.$$eval('#sandbox-pair option', (os) => os.map((o) => (o as HTMLOptionElement).value));
      // The pairs in contact first (as the trace has them), then every other pair.
      expect(pairs.slice(0, 5)).toEqual(['0,1', '1,2', '2,3', '3,4', '4,5']);
      expect(pairs.length).toBe(15);
      await page.selectOption('#sandbox-pair', '1,2');
      await page.click('#sandbox-open');
      const s = await state(page);
      expect(s.error).toBeNull();
      const pair = s.scene as unknown as Scene;
      const placed = (i: number) => ({ ...scene.shapes[i], position: f.poses[i].slice(0, 3), rotation: f.poses[i].slice(3) });
      expect(pair).toEqual({ version: 1, query: 'penetration', shapes: [placed(1), placed(2)], closedForms: false });
      expect(await page.locator('#app').getAttribute('data-algorithm')).toBe('epa');
      // The stepper's answer is run()'s; its depth is the deepest contact point's overlap (the solver's manifold
      // is clipped box faces, EPA the exact depth: they agree to 1e-5 of these unit boxes).
      const r = run(pair) as { intersecting: boolean; depth: number; normal: number[] };
      expect(s.result).toMatchObject({ intersecting: true, depth: r.depth });
      const deepest = Math.min(...f.contacts.filter((c) => c.a === 1 && c.b === 2).map((c) => c.distance));
      expect(deepest).toBeLessThan(0);
      expect(Math.abs(r.depth + deepest)).toBeLessThan(1e-5);
      expect(Math.abs(r.normal[1])).toBeGreaterThan(0.999);

      expect(await page.isVisible('#sandbox-back')).toBe(true);
      expect(await page.textContent('#sandbox-back')).toBe(`Back to the sandbox (step ${f.step})`);
      // The pair's link reopens the pair.
      await page.waitForFunction(() => location.href === (window as any).__collidoscope.link, null, { timeout: 5000 });
      const second = await openPage(env.browser, page.url());
      expect((await state(second.page)).scene).toEqual(pair);
      await second.page.close();

      await page.click('#sandbox-back');
      const back = await state(page);
      expect(back.scene).toEqual(scene);
      expect(back.frameIndex).toBe(60);
      expect(await page.isVisible('#sandbox-back')).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('opens the pair of a contact point clicked in the left view', async () => {
    const scene = sceneFile(STACK);
    const t = trace(scene as Scene & { query: 'simulate' }) as SimulateTrace;
    const { page, errors } = await openExample(STACK);
    try {
      await scrubTo(page, 90);
      const s = await state(page);
      const dots = s.world!.contactsOnScreen;
      // Two dots (pointA, pointB) per contact point of the frame.
      expect(dots.length).toBe(2 * t.frames[90].contacts.length);
      // The top pair's dots: nothing else is drawn near them on the screen.
      const top = dots.filter((d) => d.pair[0] === 4 && d.pair[1] === 5);
      expect(top.length).toBeGreaterThan(0);
      const box = (await page.locator('#canvas-shapes').boundingBox())!;
      const inside = top.find((d) => d.at[0] > box.x && d.at[0] < box.x + box.width && d.at[1] > box.y && d.at[1] < box.y + box.height);
      expect(inside, 'a dot of the pair 4–5 in the left view').toBeDefined();
      await page.mouse.click(inside!.at[0], inside!.at[1]);
      const after = await state(page);
      const f = t.frames[90];
      const placed = (i: number) => ({ ...scene.shapes[i], position: f.poses[i].slice(0, 3), rotation: f.poses[i].slice(3) });
      expect(after.scene!.shapes).toEqual([placed(4), placed(5)]);
      expect(['penetration', 'distance']).toContain(after.scene!.query);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('opens the heightfield bowl; its capsule and heightfield pair opens as a contacts scene at the frame\'s poses', async () => {
    const scene = sceneFile(BOWL);
    const t = trace(scene as Scene & { query: 'simulate' }) as SimulateTrace;
    const { page, errors } = await openExample(BOWL);
    try {
      // A frame after the capsule has come to rest on the bowl, pressing into it (a contact point overlaps).
      const index = t.frames.findIndex((f, i) => i >= 100 && f.contacts.some((c) => c.distance < 0));
      expect(index).toBeGreaterThan(0);
      await scrubTo(page, index);
      expect((await world(page)).poses).toEqual(posesOf(t.frames[index]));
      await page.selectOption('#sandbox-pair', '0,1');
      await page.click('#sandbox-open');
      const s = await state(page);
      expect(s.error).toBeNull();
      const f = t.frames[index];
      expect(s.scene!.query).toBe('contacts');
      expect(s.scene!.shapes[1]).toEqual({ ...scene.shapes[1], position: f.poses[1].slice(0, 3), rotation: f.poses[1].slice(3) });
      // run() of the jumped-to scene finds the heightfield's contacts.
      const r = run(s.scene as unknown as Scene) as { contacts: { depth: number }[] };
      expect(r.contacts.length).toBeGreaterThan(0);
      // A step finds its contacts once, at the poses it starts from (the frame before; this trace keeps every
      // step): the same scene at those poses is as deep as the solver's deepest point, to 1e-6.
      expect(t.every).toBe(1);
      const before = t.frames[index - 1];
      const atStart = { ...s.scene!, shapes: s.scene!.shapes.map((sh, k) => ({ ...sh, position: before.poses[k].slice(0, 3), rotation: before.poses[k].slice(3) })) };
      const r0 = run(atStart as unknown as Scene) as { contacts: { depth: number }[] };
      const deepest = Math.min(...f.contacts.map((c) => c.distance));
      expect(deepest).toBeLessThan(0);
      expect(Math.abs(Math.max(...r0.contacts.map((c) => c.depth)) + deepest)).toBeLessThan(1e-6);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('switches from a pair to the sandbox in the query list and back to a pair query', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      await page.selectOption('#query', 'simulate');
      let s = await state(page);
      expect(s.error).toBeNull();
      expect(s.scene!.query).toBe('simulate');
      expect(s.frameCount).toBeGreaterThan(100);
      await page.selectOption('#query', 'distance');
      s = await state(page);
      expect(s.scene!.query).toBe('distance');
      expect(s.scene!.shapes.length).toBe(2);
      expect(s.world).toBeNull();
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);
  it('counts simulation steps on a long run that keeps every third step: the counter, the scrubber, the found-at row', async () => {
    // 4500 steps: the trace keeps every 3rd (at most 2000 frames).
    const scene: Scene = {
      version: 1, query: 'simulate', steps: 4500,
      shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }, { type: 'sphere', radius: 0.5, position: [0, 3, 0] }],
      bodies: [{ shape: 1, velocity: [0.5, 0, 0] }],
    };
    const t = trace(scene as Scene & { query: 'simulate' }) as SimulateTrace;
    expect(t.every).toBe(3);
    const { page, errors } = await openPage(env.browser, encodeLink({ ...scene, step: 0 }, env.url));
    try {
      expect((await state(page)).error).toBeNull();
      expect(await counterText(page)).toBe('step 0 of 4500');
      await scrubTo(page, 700);
      expect(await counterText(page)).toBe(`step ${t.frames[700].step} of 4500`);
      expect(t.frames[700].step).toBe(2100);
      let w = await world(page);
      expect(w.step).toBe(2100);
      expect(w.poses).toEqual(posesOf(t.frames[700]));
      expect(await page.getAttribute('#scrubber', 'aria-valuetext')).toMatch(/^step 2100 of 4500/);
      // The next frame is the next step kept.
      await page.click('#next');
      expect(await counterText(page)).toBe('step 2103 of 4500');
      await page.click('#last');
      expect(await counterText(page)).toBe('step 4500 of 4500');
      w = await world(page);
      expect(w.poses).toEqual(posesOf(t.frames[t.frames.length - 1]));
      // The contacts are the step's, found at the poses it started from, which this trace did not keep.
      const rows = await page.$$eval('#values tbody tr', (trs) => Object.fromEntries(trs.map((r) => [r.querySelector('th')!.textContent, r.querySelector('td')!.textContent])));
      expect(rows['found at']).toBe('the poses of step 4499 (not kept: this trace keeps one step in 3); the bodies are drawn after step 4500');
      expect(await page.textContent('#view-shapes .view-title')).toMatch(/its contacts, found at its start/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
