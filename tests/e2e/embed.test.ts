// Embedding in a real browser: the page in embed mode ("?embed") inside an 800×500 iframe of a host page on
// another origin, driven by postMessage; the <collidoscope-view> element (collidoscope/element) in a host page;
// the embed options of the URL; the page and the embed in a 390×844 phone viewport.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { colourCentroid, openPage } from './page-helpers';

const env = useServerAndBrowser();
const DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');

// A sphere of radius 1 and a cube of half-size 1 whose centres are 5 apart along y: distance 5 − 1 − 1 = 3,
// whatever GJK's path ("closedForms": false, so that GJK runs: the pair would be a closed form of one step).
const sphereAndBox = {
  version: 1 as const,
  query: 'distance' as const,
  closedForms: false,
  shapes: [
    { type: 'sphere' as const, radius: 1, position: [0, 0, 0] as [number, number, number] },
    { type: 'box' as const, halfExtents: [1, 1, 1] as [number, number, number], position: [0, 5, 0] as [number, number, number] },
  ],
};

interface Ev { source: string; version: number; type: string; [k: string]: unknown }

/**
 * The host's own server, on 127.0.0.1 (the page's server answers as "localhost": another origin). It serves
 * /host.html (the body of the current test's host page), and the element module and the page shipped beside
 * it at the same relative places as in the package: /pkg/lib/element.mjs and /pkg/viz/.
 */
let hostBody = '';
let hostServer: Server | undefined;
let hostOrigin = '';
beforeAll(async () => {
  hostServer = createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    const types: Record<string, string> = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
    const send = (body: string | Buffer, type: string) => { res.writeHead(200, { 'Content-Type': type }); res.end(body); };
    if (p === '/host.html') return send(hostBody, 'text/html');
    const m = /^\/pkg\/(lib|viz)\/([\w.-]+)$/.exec(p);
    const file = m ? path.join(DIST, m[1], m[2]) : '';
    if (!m || !existsSync(file)) { res.writeHead(404); res.end(); return; }
    send(readFileSync(file), types[path.extname(file)] ?? 'application/octet-stream');
  });
  await new Promise<void>((resolve) => hostServer!.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://127.0.0.1:${(hostServer.address() as AddressInfo).port}`;
  if (new URL(env.url).hostname !== 'localhost') throw new Error(`the page's server ${env.url} is not "localhost"`);
});
afterAll(async () => { await new Promise((resolve) => hostServer?.close(resolve)); });

/** A host page with `body`; it records every collidoscope message it receives in `window.events`. */
async function openHost(body: string, viewport = { width: 1000, height: 700 }): Promise<{ page: Page; errors: string[] }> {
  const page = await env.browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  hostBody = `<!doctype html><html><body style="margin:0">
<script>
  window.events = [];
  addEventListener('message', (e) => { if (e.data && e.data.source === 'collidoscope') window.events.push(e.data); });
  window.send = (m) => document.querySelector('iframe').contentWindow.postMessage(m, '*');
</script>
${body}
</body></html>`;
  await page.goto(`${hostOrigin}/host.html`);
  return { page, errors };
}

async function events(page: Page): Promise<Ev[]> {
  return page.evaluate(() => (window as any).events as Ev[]);
}

/** Waits for an event matching `pred` among those recorded after `from`; returns it. */
async function waitEvent(page: Page, pred: string, from = 0): Promise<Ev> {
  const handle = await page.waitForFunction(([p, f]) => {
    const list = ((window as any).events as Ev[]).slice(f as number);
    return list.find(new Function('e', `return ${p}`) as (e: Ev) => boolean) ?? null;
  }, [pred, from] as const, { timeout: 20_000 });
  return (await handle.jsonValue()) as Ev;
}

function embedFrame(page: Page): Frame {
  const f = page.frames().find((x) => x !== page.mainFrame() && x.url().startsWith(env.url));
  if (!f) throw new Error('no embedded frame');
  return f;
}

async function frameState(f: Frame): Promise<any> {
  return f.evaluate(() => JSON.parse(JSON.stringify((window as any).__collidoscope)));
}

describe('the embed page in an 800×500 iframe, driven by postMessage from another origin', () => {
  let page: Page;
  let errors: string[];
  let frames = 0;
  beforeAll(async () => {
    ({ page, errors } = await openHost(`<iframe src="${encodeLink(sphereAndBox, env.url + '?embed')}" width="800" height="500" style="border:0"></iframe>`));
    const ready = await waitEvent(page, "e.type === 'ready'");
    frames = ready.frames as number;
  }, 60_000);
  afterAll(async () => { await page?.close(); });

  it('announces ready with the frame count, then the step shown', async () => {
    const f = embedFrame(page);
    const s = await frameState(f);
    expect(frames).toBeGreaterThan(1);
    expect(frames).toBe(s.frameCount);
    expect(s.scene).toEqual(sphereAndBox);
    expect((s.result as { distance: number }).distance).toBeCloseTo(3, 12);
    const list = await events(page);
    const first = list.findIndex((e) => e.type === 'ready');
    expect(list[first]).toMatchObject({ source: 'collidoscope', version: 1, frames });
    expect(list[first + 1]).toMatchObject({ type: 'step', step: 0, frames });
    expect(list[first + 1].caption).toBe((await f.textContent('#caption'))?.trim());
    expect(list.filter((e) => e.type === 'error')).toEqual([]);
  });

  it('shows the views, the caption and the step bar inside the 800×500 frame, without the side panel', async () => {
    const f = embedFrame(page);
    expect(await f.isHidden('#panel')).toBe(true);
    const inside = async (sel: string) => {
      const b = await f.locator(sel).boundingBox();
      expect(b, sel).not.toBeNull();
      // Bounding boxes are in the host page's coordinates; the iframe sits at (0, 0).
      expect(b!.x).toBeGreaterThanOrEqual(0);
      expect(b!.y).toBeGreaterThanOrEqual(0);
      expect(b!.x + b!.width).toBeLessThanOrEqual(800.5);
      expect(b!.y + b!.height).toBeLessThanOrEqual(500.5);
      return b!;
    };
    for (const sel of ['#caption', '#canvas-shapes', '#canvas-minkowski', '#first', '#prev', '#play', '#next', '#last', '#scrubber', '#speed']) {
      await inside(sel);
    }
    const canvas = await inside('#canvas-shapes');
    expect(canvas.height).toBeGreaterThan(250); // the picture keeps most of the frame
    expect(await f.evaluate(() => document.scrollingElement!.scrollHeight <= innerHeight)).toBe(true);
  });

  it('goes to a step, plays, changes speed and pauses on messages, posting a step event for each step', async () => {
    const f = embedFrame(page);
    let from = (await events(page)).length;
    await page.evaluate(() => (window as any).send({ source: 'collidoscope', version: 1, type: 'goto', step: 2 }));
    const at2 = await waitEvent(page, "e.type === 'step' && e.step === 2", from);
    expect(at2.frames).toBe(frames);
    expect(at2.caption).toBe((await f.textContent('#caption'))?.trim());
    expect(await f.textContent('#counter')).toBe(`step 3 / ${frames}`);

    from = (await events(page)).length;
    await page.evaluate(() => (window as any).send({ source: 'collidoscope', version: 1, type: 'goto', step: 'last' }));
    await waitEvent(page, `e.type === 'step' && e.step === ${frames - 1}`, from);

    await page.evaluate(() => (window as any).send({ source: 'collidoscope', version: 1, type: 'speed', value: 8 }));
    await f.waitForFunction(() => (window as any).__collidoscope.speed === 8);
    expect(await f.inputValue('#speed')).toBe('8');
    from = (await events(page)).length;
    // Play from the last step starts over at the first, then advances every 0.9 s / 8.
    await page.evaluate(() => (window as any).send({ source: 'collidoscope', version: 1, type: 'play' }));
    await waitEvent(page, "e.type === 'step' && e.step === 0", from);
    await waitEvent(page, "e.type === 'step' && e.step === 2", from);
    await page.evaluate(() => (window as any).send({ source: 'collidoscope', version: 1, type: 'pause' }));
    await f.waitForFunction(() => (window as any).__collidoscope.playing === false);
    const stopped = (await frameState(f)).frameIndex;
    await page.waitForTimeout(400); // more than three steps at speed 8
    expect((await frameState(f)).frameIndex).toBe(stopped);
  });

  it('loads a scene sent as an object, as JSON text and as a permalink', async () => {
    const f = embedFrame(page);
    const box = { version: 1, query: 'penetration', closedForms: false, shapes: [
      { type: 'box', halfExtents: [1, 1, 1] }, { type: 'box', halfExtents: [0.5, 0.5, 0.5], position: [1.2, 0.3, 0.1] }] };
    for (const scene of [box, JSON.stringify(sphereAndBox), encodeLink({ ...box, step: 1 }, 'https://example.org/')]) {
      const from = (await events(page)).length;
      await page.evaluate((s) => (window as any).send({ source: 'collidoscope', version: 1, type: 'load', scene: s }), scene);
      const ev = await waitEvent(page, "e.type === 'step'", from);
      const s = await frameState(f);
      const expected = typeof scene === 'string' && scene.startsWith('{') ? sphereAndBox : box;
      expect(s.scene).toEqual(expected);
      expect(ev.frames).toBe(s.frameCount);
      expect(ev.step).toBe(typeof scene === 'string' && scene.includes('#v1=') ? 1 : 0);
      expect(s.error).toBeNull();
    }
    // Boxes [-1, 1]³ and [0.7, 1.7]×[-0.2, 0.8]×[-0.4, 0.6] overlap least along x: 1 − 0.7 = 0.3.
    expect(((await frameState(f)).result as { depth: number }).depth).toBeCloseTo(0.3, 9);
  });

  it('answers a bad message with an error event naming what is wrong, and ignores messages not for it', async () => {
    const f = embedFrame(page);
    const cases: [unknown, RegExp][] = [
      [{ source: 'collidoscope', version: 1, type: 'jump' }, /type: unknown message type "jump"/],
      [{ source: 'collidoscope', version: 2, type: 'play' }, /version: .*version 1.* got 2/],
      [{ source: 'collidoscope', version: 1, type: 'goto', step: -1 }, /step: expected a whole number/],
      [{ source: 'collidoscope', version: 1, type: 'goto', step: 1, extra: true }, /"extra": unknown field/],
      [{ source: 'collidoscope', version: 1, type: 'speed', value: 100 }, /value: expected a play speed/],
      [{ source: 'collidoscope', version: 1, type: 'load', scene: 42 }, /scene: expected a scene object/],
      [{ source: 'collidoscope', version: 1, type: 'load', scene: '{not json' }, /scene: .*JSON/],
      [{ source: 'collidoscope', version: 1, type: 'load', scene: { ...sphereAndBox, shapes: [{ type: 'sphere', radius: -1 }, { type: 'point' }] } }, /shapes\[0\]\.radius/],
    ];
    const before = await frameState(f);
    for (const [msg, re] of cases) {
      const from = (await events(page)).length;
      await page.evaluate((m) => (window as any).send(m), msg);
      const ev = await waitEvent(page, "e.type === 'error'", from);
      expect(ev.message).toMatch(re);
      expect((await f.textContent('#banner-text')) ?? '').toMatch(re);
    }
    // The scene shown did not change.
    expect((await frameState(f)).scene).toEqual(before.scene);
    const from = (await events(page)).length;
    await page.evaluate(() => {
      (window as any).send({ type: 'goto', step: 0 });
      (window as any).send('hello');
      (window as any).send({ source: 'someone-else', type: 'goto' });
      (window as any).send({ source: 'collidoscope', version: 1, type: 'goto', step: 0 });
    });
    await waitEvent(page, "e.type === 'step' && e.step === 0", from);
    expect((await events(page)).slice(from).filter((e) => e.type === 'error')).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('the embed options of the URL', () => {
  it('embed=fixed, step, views and speed: the chosen view only, at that step, at that speed, locked', async () => {
    const { page, errors } = await openPage(env.browser, encodeLink({ ...sphereAndBox, step: 0 }, `${env.url}?embed=fixed&step=2&views=minkowski&speed=0.5`));
    const s = await page.evaluate(() => (window as any).__collidoscope);
    expect(s.frameIndex).toBe(2);
    expect(s.speed).toBe(0.5);
    expect(s.error).toBeNull();
    expect(await page.getAttribute('#app', 'data-embed')).toBe('fixed');
    expect(await page.isHidden('#panel')).toBe(true);
    expect(await page.isHidden('#view-shapes')).toBe(true);
    expect(await page.isVisible('#view-minkowski')).toBe(true);
    expect(await page.inputValue('#speed')).toBe('0.5');
    // Locked: a click on shape A does not attach the gizmo (the shapes view is hidden here; open it to try).
    await page.close();
    const locked = await openPage(env.browser, encodeLink(sphereAndBox, `${env.url}?embed=fixed`));
    const free = await openPage(env.browser, encodeLink(sphereAndBox, `${env.url}?embed`));
    for (const [p, expectOn] of [[free.page, true], [locked.page, false]] as const) {
      // Shape A is drawn in amber: click the middle of it.
      const amber = { r: [150, 255] as [number, number], g: [80, 190] as [number, number], b: [0, 90] as [number, number] };
      const at = await colourCentroid(p, '#canvas-shapes', amber);
      expect(at.count).toBeGreaterThan(200);
      await p.mouse.click(at.x, at.y);
      expect(await p.evaluate(() => document.getElementById('select-a')!.classList.contains('on'))).toBe(expectOn);
      await p.close();
    }
    expect([...errors, ...locked.errors, ...free.errors]).toEqual([]);
  });

  it('autoplay plays to the last step and stops there', async () => {
    const { page } = await openPage(env.browser, encodeLink(sphereAndBox, `${env.url}?embed&autoplay&speed=8`));
    const n = await page.evaluate(() => (window as any).__collidoscope.frameCount);
    await page.waitForFunction((last) => (window as any).__collidoscope.frameIndex === last, n - 1, { timeout: 10_000 });
    await page.waitForFunction(() => (window as any).__collidoscope.playing === false);
    await page.close();
  });

  it('a bad or unknown option is a visible error naming it; the other options still apply', async () => {
    const { page } = await openPage(env.browser, encodeLink(sphereAndBox, `${env.url}?embed&speed=fast&views=shapes,mink&autplay&step=1&locked=yes`));
    const s = await page.evaluate(() => (window as any).__collidoscope);
    expect(await page.isVisible('#banner')).toBe(true);
    const text = (await page.textContent('#banner-text')) ?? '';
    expect(text).toContain('speed: expected a number from 0.25 to 8');
    expect(text).toContain('"fast"');
    expect(text).toContain('views: unknown view "mink"');
    expect(text).toContain('unknown parameter "autplay"');
    expect(text).toContain('locked: expected no value, "true" or "false", got "yes"');
    expect(s.error).toBe(text);
    expect(s.frameIndex).toBe(1);
    expect(s.speed).toBe(1);
    expect(await page.isVisible('#view-shapes')).toBe(true);
    await page.close();
  });

  it('"Open ↗" leads to the full page at the same scene and step', async () => {
    const { page } = await openPage(env.browser, encodeLink(sphereAndBox, `${env.url}?embed&step=1`));
    const href = await page.getAttribute('#open-page', 'href');
    expect(href).toBe(encodeLink({ ...sphereAndBox, step: 1 }, env.url));
    await page.click('#next');
    expect(await page.getAttribute('#open-page', 'href')).toBe(encodeLink({ ...sphereAndBox, step: 2 }, env.url));
    await page.close();
  });
});

describe('<collidoscope-view> in a host page', () => {
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    ({ page, errors } = await openHost(`
<script type="module" src="/pkg/lib/element.mjs"></script>
<collidoscope-view id="v" style="width: 800px; height: 500px" step="1" speed="2" views="shapes,minkowski"
  scene='${JSON.stringify(sphereAndBox)}'></collidoscope-view>
<script>
  const v = document.getElementById('v');
  for (const t of ['ready', 'step', 'error']) v.addEventListener(t, (e) => window.events.push({ source: 'collidoscope', version: 1, type: 'el-' + t, ...e.detail }));
</script>`));
    await waitEvent(page, "e.type === 'el-ready'");
  }, 60_000);
  afterAll(async () => { await page?.close(); });

  it('loads the page shipped beside it (no src) with its attributes, and fires ready and step', async () => {
    const f = page.frames().find((x) => x.url().includes('/pkg/viz/index.html'));
    expect(f).toBeDefined();
    const s = await frameState(f!);
    expect(s.scene).toEqual(sphereAndBox);
    expect(s.speed).toBe(2);
    const ready = (await events(page)).find((e) => e.type === 'el-ready')!;
    expect(ready.frames).toBe(s.frameCount);
    const step = await waitEvent(page, "e.type === 'el-step' && e.step === 1");
    expect(step.caption).toBe((await f!.textContent('#caption'))?.trim());
    expect(await page.evaluate(() => (document.getElementById('v') as any).step)).toBe(1);
    const box = await page.locator('#v').boundingBox();
    expect(box).toMatchObject({ width: 800, height: 500 });
  });

  it('goTo(), play(), pause(), load() and attribute changes drive it', async () => {
    const f = page.frames().find((x) => x.url().includes('/pkg/viz/index.html'))!;
    let from = (await events(page)).length;
    await page.evaluate(() => (document.getElementById('v') as any).goTo(0));
    await waitEvent(page, "e.type === 'el-step' && e.step === 0", from);
    from = (await events(page)).length;
    await page.evaluate(() => document.getElementById('v')!.setAttribute('step', 'last'));
    const last = await waitEvent(page, "e.type === 'el-step' && e.step === e.frames - 1", from);
    expect(last.frames).toBe((await frameState(f)).frameCount);

    from = (await events(page)).length;
    await page.evaluate(() => { const v = document.getElementById('v') as any; v.speed = 8; v.play(); });
    await waitEvent(page, "e.type === 'el-step' && e.step === 1", from);
    await page.evaluate(() => (document.getElementById('v') as any).pause());
    await f.waitForFunction(() => (window as any).__collidoscope.playing === false);
    expect((await frameState(f)).speed).toBe(8);

    const cloud = { version: 1, query: 'hull', shapes: [{ type: 'polytope', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.1, 0.1, 0.1]] }] };
    from = (await events(page)).length;
    await page.evaluate((c) => (document.getElementById('v') as any).load(c), cloud);
    await waitEvent(page, "e.type === 'el-step'", from);
    const s = await frameState(f);
    expect(s.scene).toEqual(cloud);
    // The tetrahedron's four corners are its hull; the inner point is not.
    expect((s.result as { vertices: unknown[] }).vertices).toHaveLength(4);
    expect(errors).toEqual([]);
  });

  it('a bad attribute is an error event naming it', async () => {
    const from = (await events(page)).length;
    await page.evaluate(() => document.getElementById('v')!.setAttribute('views', 'shapes,plot'));
    const ev = await waitEvent(page, "e.type === 'el-error'", from);
    expect(ev.message).toMatch(/^views: unknown view "plot"/);
    const from2 = (await events(page)).length;
    await page.evaluate(() => (document.getElementById('v') as any).goTo(-3));
    const ev2 = await waitEvent(page, "e.type === 'el-error'", from2);
    expect(ev2.message).toMatch(/^Message from the host page: step: expected a whole number/);
  });

  it('a page that never answers is an error event naming src', async () => {
    const from = (await events(page)).length;
    await page.evaluate(() => {
      const el = document.createElement('collidoscope-view') as any;
      el.id = 'w';
      el.addEventListener('error', (e: CustomEvent) => (window as any).events.push({ source: 'collidoscope', version: 1, type: 'w-error', ...e.detail }));
      el.setAttribute('src', '/nothing-here.html');
      document.body.append(el);
    });
    const ev = await page.waitForFunction((f) => ((window as any).events as Ev[]).slice(f).find((e) => e.type === 'w-error') ?? null, from, { timeout: 40_000 });
    expect(((await ev.jsonValue()) as Ev).message).toMatch(/^src: the page at .*nothing-here\.html did not answer/);
  }, 60_000);
});

describe('a 390×844 phone viewport', () => {
  async function openPhone(url: string): Promise<Page> {
    const page = await env.browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await page.goto(url);
    await page.waitForFunction(() => (window as any).__collidoscope?.ready === true, null, { timeout: 30_000 });
    return page;
  }

  async function expectOnScreen(page: Page, selectors: string[]): Promise<void> {
    for (const sel of selectors) {
      const b = await page.locator(sel).boundingBox();
      expect(b, sel).not.toBeNull();
      expect(b!.y, sel).toBeGreaterThanOrEqual(0);
      expect(b!.y + b!.height, sel).toBeLessThanOrEqual(844.5);
      expect(b!.x, sel).toBeGreaterThanOrEqual(0);
      expect(b!.x + b!.width, sel).toBeLessThanOrEqual(390.5);
    }
  }

  for (const [name, suffix] of [['the page', ''], ['the embed', '?embed']] as const) {
    it(`${name}: picture, caption and step buttons on the first screen; big buttons; tap and swipe step`, async () => {
      const page = await openPhone(env.url + suffix);
      expect(await page.evaluate(() => scrollY)).toBe(0);
      await expectOnScreen(page, ['#caption', '#canvas-shapes', '#canvas-minkowski', '#first', '#prev', '#play', '#next', '#last', '#scrubber']);
      const shapes = (await page.locator('#canvas-shapes').boundingBox())!;
      expect(shapes.height).toBeGreaterThan(200);
      for (const sel of ['#prev', '#play', '#next']) {
        const b = (await page.locator(sel).boundingBox())!;
        expect(b.height, sel).toBeGreaterThanOrEqual(44);
        expect(b.width, sel).toBeGreaterThanOrEqual(44);
      }
      await page.tap('#next');
      expect(await page.evaluate(() => (window as any).__collidoscope.frameIndex)).toBe(1);
      // A swipe from right to left on the caption steps forward; left to right steps back.
      const swipe = (fromX: number, toX: number) => page.evaluate(([a, b]) => {
        const el = document.getElementById('caption')!;
        const r = el.getBoundingClientRect();
        const y = r.y + r.height / 2;
        const opts = { pointerId: 7, pointerType: 'touch', bubbles: true, isPrimary: true };
        el.dispatchEvent(new PointerEvent('pointerdown', { ...opts, clientX: a, clientY: y }));
        el.dispatchEvent(new PointerEvent('pointerup', { ...opts, clientX: b, clientY: y + 5 }));
      }, [fromX, toX]);
      await swipe(300, 120);
      expect(await page.evaluate(() => (window as any).__collidoscope.frameIndex)).toBe(2);
      await swipe(100, 300);
      expect(await page.evaluate(() => (window as any).__collidoscope.frameIndex)).toBe(1);
      await swipe(100, 120); // too short: not a swipe
      expect(await page.evaluate(() => (window as any).__collidoscope.frameIndex)).toBe(1);
      if (suffix === '') {
        // The side panel follows below the stage.
        const panel = (await page.locator('#panel').boundingBox())!;
        expect(panel.y).toBeGreaterThan((await page.locator('#stepbar').boundingBox())!.y);
      }
      await page.close();
    });
  }
});

describe('<collidoscope-view predict>', () => {
  // Boxes, not spheres: the cores of two spheres are points, so their A − B offers no choice to ask about.
  const boxes = { ...sphereAndBox, shapes: [{ type: 'box', halfExtents: [1, 1, 1] }, { type: 'box', halfExtents: [1, 1, 1], position: [3, 1, 0.5] }] };

  it('opens the page with predict mode on, and the property toggles it', async () => {
    const { page, errors } = await openHost(`
<script type="module" src="/pkg/lib/element.mjs"></script>
<collidoscope-view id="v" style="width: 800px; height: 500px" predict scene='${JSON.stringify(boxes)}'></collidoscope-view>
<script>
  document.getElementById('v').addEventListener('ready', (e) => window.events.push({ source: 'collidoscope', version: 1, type: 'el-ready' }));
</script>`);
    try {
      await waitEvent(page, "e.type === 'el-ready'");
      expect(await page.evaluate(() => (document.getElementById('v') as any).predict)).toBe(true);
      const f = page.frames().find((x) => x.url().includes('/pkg/viz/index.html'))!;
      expect(new URL(f.url()).searchParams.has('predict')).toBe(true);
      expect(await f.getAttribute('#predict', 'aria-pressed')).toBe('true');
      // GJK's first step is held for a choice.
      await f.click('#next');
      expect((await frameState(f)).frameIndex).toBe(0);
      expect(await f.getAttribute('#quiz', 'data-state')).toBe('asking');

      const from = (await events(page)).length;
      await page.evaluate(() => { (document.getElementById('v') as any).predict = false; });
      await waitEvent(page, "e.type === 'el-ready'", from);
      const g = page.frames().find((x) => x.url().includes('/pkg/viz/index.html'))!;
      expect(new URL(g.url()).searchParams.has('predict')).toBe(false);
      expect(await g.getAttribute('#predict', 'aria-pressed')).toBe('false');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
