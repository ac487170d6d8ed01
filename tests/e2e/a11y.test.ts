// What a screen reader, a keyboard and a small screen meet on the page, read from Chromium itself: the
// accessibility tree's computed names (every control named, the canvases pictures named by what they draw at
// the step shown), the caption as a polite live region whose text changes on each step, the step slider's value
// in words matching the step, a visible focus ring, the embed's step bar too; the labels in the views not
// covering one another at any gallery example's last step; the whole caption on a phone.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useServerAndBrowser } from './harness';
import { base64url, openPage, state } from './page-helpers';

const env = useServerAndBrowser();

interface AXNode { ignored: boolean; role?: { value: string }; name?: { value: string }; properties?: { name: string }[] }

/** Roles of the controls a person operates: each needs a name. */
const CONTROL_ROLES = new Set(['button', 'checkbox', 'combobox', 'listbox', 'radio', 'slider', 'spinbutton', 'textbox', 'searchbox', 'switch']);

/** The controls of the accessibility tree (as Chromium computes it) that have no name, as "role" strings. */
async function unnamedControls(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree') as { nodes: AXNode[] };
    const controls = nodes.filter((n) => !n.ignored && CONTROL_ROLES.has(n.role?.value ?? ''));
    expect(controls.length).toBeGreaterThan(5);
    return controls.filter((n) => !(n.name?.value ?? '').trim()).map((n) => n.role!.value);
  } finally {
    await cdp.detach();
  }
}

/** The accessible name Chromium gives the element `selector`, and its role. */
async function axOf(page: Page, selector: string): Promise<{ role: string; name: string }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument') as { root: { nodeId: number } };
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector }) as { nodeId: number };
    expect(nodeId, selector).toBeGreaterThan(0);
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false }) as { nodes: AXNode[] };
    return { role: nodes[0]?.role?.value ?? '', name: nodes[0]?.name?.value ?? '' };
  } finally {
    await cdp.detach();
  }
}

const link = (scene: object) => `#v1=${base64url(JSON.stringify(scene))}`;
const box = (p: number[]) => ({ type: 'box', halfExtents: [0.5, 0.5, 0.5], position: p });

/** Scenes that between them show every kind of editor field. */
const SCENES: Record<string, object> = {
  // GJK's steps ("closedForms": false: by default the pair is answered by the point–box closed form).
  'sphere and box (distance)': { version: 1, query: 'distance', closedForms: false, shapes: [{ type: 'sphere', radius: 1 }, box([3, 0, 0])] },
  'capsule and polytope (penetration)': { version: 1, query: 'penetration', shapes: [
    { type: 'capsule', radius: 0.5, halfHeight: 1 },
    { type: 'polytope', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], position: [0.2, 0, 0] }] },
  'ray cast': { version: 1, query: 'raycast', shapes: [box([0, 0, 0])], ray: { origin: [-3, 0, 0], direction: [1, 0, 0], maxT: 10 } },
  'shape cast': { version: 1, query: 'shapecast', shapes: [box([0, 0, 0]), { type: 'sphere', radius: 0.5, position: [3, 0, 0] }],
    motion: { translationB: [-4, 0, 0] } },
  hull: { version: 1, query: 'hull', shapes: [{ type: 'polytope', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.2, 0.2, 0.2]] }] },
};

describe('every control has a name', () => {
  for (const [what, scene] of Object.entries(SCENES)) {
    it(what, async () => {
      const { page, errors } = await openPage(env.browser, env.url + link(scene));
      expect((await state(page)).error).toBeNull();
      await page.evaluate(() => { (document.getElementById('scene-json-box') as HTMLDetailsElement).open = true; });
      expect(await unnamedControls(page)).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});

/** Reads what assistive technology is told about the step: slider, caption, canvases. */
async function stepAnnouncement(page: Page) {
  return page.evaluate(() => {
    const s = document.getElementById('scrubber') as HTMLInputElement;
    const c = document.getElementById('caption')!;
    return {
      value: s.valueAsNumber,
      valueText: s.getAttribute('aria-valuetext') ?? '',
      live: c.getAttribute('aria-live'),
      caption: c.textContent ?? '',
    };
  });
}

describe('the step, as announced', () => {
  it('the slider reads "step i of n", the caption is a polite live region that changes, the canvases say the step', async () => {
    const { page, errors } = await openPage(env.browser, env.url + link(SCENES['sphere and box (distance)']));
    const n = (await state(page)).frameCount;
    expect(n).toBeGreaterThan(2);
    let before = await stepAnnouncement(page);
    for (let i = 1; i < n; i++) {
      await page.keyboard.press('ArrowRight');
      const now = await stepAnnouncement(page);
      const s = await state(page);
      expect(s.frameIndex).toBe(i);
      expect(now.value).toBe(i);
      expect(now.valueText.startsWith(`step ${i + 1} of ${n}`), now.valueText).toBe(true);
      expect(now.live).toBe('polite');
      expect(now.caption).not.toBe(before.caption);
      // The slider's words are the caption's first sentence (or its start).
      const words = now.valueText.slice(`step ${i + 1} of ${n}: `.length).replace(/…$/, '');
      expect(words.length).toBeGreaterThan(0);
      expect(now.caption.startsWith(words), `${words} / ${now.caption}`).toBe(true);
      for (const [canvas, title] of [['#canvas-shapes', 'Shapes A and B'], ['#canvas-minkowski', 'Minkowski difference']]) {
        const ax = await axOf(page, canvas);
        expect(ax.role).toBe('image');
        expect(ax.name).toContain(title);
        expect(ax.name).toContain('A is a sphere, B is a box');
        expect(ax.name).toContain(`step ${i + 1} of ${n}`);
      }
      before = now;
    }
    // The labels drawn are named too: the origin in the Minkowski view.
    expect((await axOf(page, '#canvas-minkowski')).name).toMatch(/Labels: .*\bO\b/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the hull view is a named picture of its points', async () => {
    const { page } = await openPage(env.browser, env.url + link(SCENES.hull));
    await page.keyboard.press('End');
    const ax = await axOf(page, '#canvas-hull');
    expect(ax.role).toBe('image');
    expect(ax.name).toMatch(/Quickhull of the point cloud: 5 points, step (\d+) of \1/);
    await page.close();
  });

  it('a control reached with the keyboard shows a focus ring', async () => {
    const { page } = await openPage(env.browser, env.url + link(SCENES['sphere and box (distance)']));
    await page.focus('#gallery');
    for (const id of ['query', 'mesh-builtin', 'mesh-file', 'copy-link']) {
      await page.keyboard.press('Tab');
      const ring = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const cs = getComputedStyle(el);
        return { id: el.id, style: cs.outlineStyle, width: parseFloat(cs.outlineWidth) };
      });
      expect(ring.id).toBe(id);
      expect(ring.style).not.toBe('none');
      expect(ring.width).toBeGreaterThanOrEqual(2);
    }
    await page.close();
  });

  it('in an embed, the step bar says the same, and every control there is named', async () => {
    const { page, errors } = await openPage(env.browser, env.url + '?embed' + link(SCENES['shape cast']));
    const n = (await state(page)).frameCount;
    await page.keyboard.press('End');
    const now = await stepAnnouncement(page);
    expect(now.value).toBe(n - 1);
    expect(now.valueText.startsWith(`step ${n} of ${n}`)).toBe(true);
    expect(now.live).toBe('polite');
    expect(await unnamedControls(page)).toEqual([]);
    expect((await axOf(page, '#canvas-shapes')).name).toContain(`step ${n} of ${n}`);
    await page.focus('#first');
    await page.keyboard.press('Tab');
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement as HTMLElement).outlineStyle);
    expect(ring).not.toBe('none');
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** The boxes of the labels in sight in each view (inside the view's rectangle), and of its heading, with their text. */
async function labelBoxes(page: Page) {
  return page.evaluate(() => [...document.querySelectorAll('.view')].map((view) => {
    const v = view.getBoundingClientRect();
    return [...view.querySelectorAll('.label-layer > *, .view-title')].map((el) => {
      const b = el.getBoundingClientRect();
      return { text: el.textContent ?? '', left: b.left, right: b.right, top: b.top, bottom: b.bottom, shown: (el as HTMLElement).style.display !== 'none' };
    }).filter((b) => b.shown && b.right > b.left && b.bottom > b.top && b.right > v.left && b.left < v.right && b.bottom > v.top && b.top < v.bottom);
  }));
}

describe('labels do not cover each other, nor the view\'s heading', () => {
  it('at the last step of every gallery example', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    const count = await page.evaluate(() => (document.getElementById('gallery') as HTMLSelectElement).options.length);
    expect(count).toBeGreaterThan(30);
    const clashes: string[] = [];
    let labels = 0;
    for (let i = 0; i < count; i++) {
      const value = await page.evaluate((k) => (document.getElementById('gallery') as HTMLSelectElement).options[k].value, i);
      if (!value) continue;
      await page.selectOption('#gallery', value);
      await page.keyboard.press('End');
      // Two frames: the render after the step, then any label shown late.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      for (const view of await labelBoxes(page)) {
        labels += view.length;
        for (let a = 0; a < view.length; a++) {
          for (let b = a + 1; b < view.length; b++) {
            const p = view[a], q = view[b];
            const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
            const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
            if (w > 0.5 && h > 0.5) clashes.push(`example ${value}: "${p.text}" and "${q.text}" (${w.toFixed(1)}×${h.toFixed(1)} px)`);
          }
        }
      }
    }
    expect(labels).toBeGreaterThan(100);
    expect(clashes).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('on a phone', () => {
  it('every caption shows whole, above the picture and the step buttons (390×844)', async () => {
    const page = await env.browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await page.goto(env.url);
    await page.waitForFunction(() => (window as any).__collidoscope?.ready === true);
    // The example with the longest captions: up to 267 characters, 6 lines at this width.
    const entries = await page.evaluate(async () => (await fetch('gallery.json')).json()) as { file: string }[];
    await page.selectOption('#gallery', String(entries.findIndex((e) => e.file === '05-polytope-ellipsoid.json')));
    await page.waitForFunction(() => (window as any).__collidoscope.scene?.shapes[1]?.type === 'ellipsoid');
    const n = (await state(page)).frameCount;
    let most = 0;
    for (let i = 0; i < n; i++) {
      if (i) await page.keyboard.press('ArrowRight');
      const m = await page.evaluate(() => {
        const c = document.getElementById('caption')!;
        const r = (id: string) => document.getElementById(id)!.getBoundingClientRect();
        return {
          scroll: c.scrollHeight, client: c.clientHeight, lines: Math.round((c.clientHeight - 12) / parseFloat(getComputedStyle(c).lineHeight)),
          canvas: r('canvas-shapes'), stepbar: r('stepbar'), h: innerHeight,
        };
      });
      most = Math.max(most, m.lines);
      expect(m.scroll, `step ${i + 1}: the caption is cut off`).toBeLessThanOrEqual(m.client + 1);
      expect(m.stepbar.bottom).toBeLessThanOrEqual(m.h);
      expect(m.canvas.height).toBeGreaterThan(150);
    }
    expect(most).toBeGreaterThan(4);
    await page.close();
  });
});
