// The page's views of "contact" and "contacts" in a real browser: links to touching boxes, a sphere and a box with
// a gap within the margin, a pair apart beyond it, and a box on a hand-made floor mesh open in one frame whose
// panel numbers are contact()'s and contacts()' own (the library's object API, not the page's code); the list has
// as many contacts as contacts() returns; the links reopen the same; the Query menu switches to them and back;
// no page error anywhere.
import { beforeAll, describe, expect, it } from 'vitest';
import { box, contact, contacts, init, mesh, run, sphere, type ContactQueryResult, type ContactsResult, type ConvexShape, type Scene, type Vec3 } from '../../web/lib/index';
import { fmt, fmtVec } from '../../web/lib/draw/format';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { captionText, expectLinkReopensSame, openPage, state } from './page-helpers';

const env = useServerAndBrowser();

beforeAll(async () => {
  await init();
});

const ID = [0, 0, 0, 0, 0, 0, 1];

/** A scene of two shapes at positions, with a margin. */
function pairScene(query: 'contact' | 'contacts', a: Scene['shapes'][number], b: Scene['shapes'][number], margin: number): Scene {
  return { version: 1, query, margin, shapes: [a, b] };
}

/** The values table as [name, value] pairs. */
async function valueRows(page: import('playwright-core').Page): Promise<[string, string][]> {
  return page.$$eval('#values tbody tr', (trs) => trs.map((tr) => [tr.querySelector('th')!.textContent ?? '', tr.querySelector('td')!.textContent ?? ''] as [string, string]));
}

/** A 4 × 4 floor of unit squares in y = 0 (two triangles each, counter-clockwise from +y). */
function floorMesh(): { vertices: Vec3[]; triangles: [number, number, number][] } {
  const n = 4;
  const vertices: Vec3[] = [];
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) vertices.push([i - n / 2, 0, j - n / 2]);
  const id = (i: number, j: number) => i * (n + 1) + j;
  const triangles: [number, number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) triangles.push([id(i, j), id(i, j + 1), id(i + 1, j + 1)], [id(i, j), id(i + 1, j + 1), id(i + 1, j)]);
  return { vertices, triangles };
}

/** contact() through the object API on shapes built from the scene's numbers. */
function apiContact(a: ConvexShape, pa: number[], b: ConvexShape, pb: number[], margin: number) {
  return contact(a, pa, b, pb, { margin });
}

describe('the contact view', () => {
  const cases: { name: string; scene: Scene; want: () => ReturnType<typeof contact> }[] = [
    {
      name: 'touching boxes',
      scene: pairScene('contact', { type: 'box', halfExtents: [0.5, 0.5, 0.5] }, { type: 'box', halfExtents: [0.5, 0.5, 0.5], position: [1, 0.2, 0] }, 0),
      want: () => { using a = box([0.5, 0.5, 0.5]); return apiContact(a, ID, a, [1, 0.2, 0, 0, 0, 0, 1], 0); },
    },
    {
      name: 'a sphere and a box with a gap within the margin',
      scene: pairScene('contact', { type: 'sphere', radius: 0.5 }, { type: 'box', halfExtents: [0.4, 0.6, 0.5], position: [1.1, 0.1, 0], rotation: [0, 0, 0.2, 0.9797958971132712] }, 0.3),
      want: () => { using a = sphere(0.5); using b = box([0.4, 0.6, 0.5]); return apiContact(a, ID, b, [1.1, 0.1, 0, 0, 0, 0.2, 0.9797958971132712], 0.3); },
    },
    {
      name: 'a sphere and a box apart beyond the margin',
      scene: pairScene('contact', { type: 'sphere', radius: 0.5 }, { type: 'box', halfExtents: [0.4, 0.6, 0.5], position: [2.5, 0, 0] }, 0.3),
      want: () => { using a = sphere(0.5); using b = box([0.4, 0.6, 0.5]); return apiContact(a, ID, b, [2.5, 0, 0, 0, 0, 0, 1], 0.3); },
    },
  ];

  for (const { name, scene, want } of cases) {
    it(`shows contact()'s answer for ${name}, and its link reopens the same`, async () => {
      const c = want();
      const opened = await openPage(env.browser, encodeLink(scene, env.url));
      const { page, errors } = opened;
      const s = await state(page);
      expect(s.error).toBeNull();
      expect(s.scene).toEqual(scene);
      expect([s.frameIndex, s.frameCount, s.frameKind]).toEqual([0, 1, 'answer']);
      const rows = new Map(await valueRows(page));
      expect(rows.get('margin')).toBe(fmt(scene.margin!, 9));
      if (c === null) {
        expect(rows.get('contact')).toMatch(/none/);
        expect(await captionText(page)).toMatch(/No contact/);
      } else {
        expect(rows.get('contact')).toBe('yes');
        expect(rows.get('distance')).toBe(fmt(c.distance, 12));
        expect(rows.get('normal (A to B)')).toBe(fmtVec(c.normal, 9));
        expect(rows.get('pointA')).toBe(fmtVec(c.pointA, 9));
        expect(rows.get('pointB')).toBe(fmtVec(c.pointB, 9));
        // The page's state holds the result itself: the same numbers, bit for bit.
        expect(s.result).toMatchObject({ contact: true, distance: c.distance, normal: c.normal.map((x) => x + 0), pointA: c.pointA.map((x) => x + 0), pointB: c.pointB.map((x) => x + 0) });
        expect(await captionText(page)).toMatch(c.distance > 0 ? /apart by/ : c.distance < 0 ? /overlapping/ : /touching/);
      }
      expect(errors).toEqual([]);
      await expectLinkReopensSame(env.browser, opened);
    });
  }
});

describe('the caption in a short window', () => {
  it('scrolls with a thin scroll bar in an 800 × 500 iframe of the full page', async () => {
    // Rotated, so that every number of the caption has its 6 digits: five lines in a box of three.
    const scene = pairScene('contact', { type: 'sphere', radius: 0.5, position: [0.013, -0.021, 0.017] }, { type: 'box', halfExtents: [0.4, 0.6, 0.5], position: [1.1, 0.1, 0.05], rotation: [0.1, 0.2, 0.2, 0.9486832980505138] }, 0.3);
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      await page.setContent(`<iframe src="${encodeLink(scene, env.url)}" width="800" height="500" style="border:0"></iframe>`);
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      await frame.waitForFunction(() => (window as any).__collidoscope?.ready === true, null, { timeout: 30_000 });
      const caption = await frame.$eval('#caption', (el) => {
        const style = getComputedStyle(el);
        return { scrolls: el.scrollHeight > el.clientHeight, width: style.scrollbarWidth, overflow: style.overflowY, text: el.textContent };
      });
      // This caption is longer than the capped box: it scrolls, and says so with a thin bar.
      expect(caption, caption.text ?? '').toMatchObject({ scrolls: true, width: 'thin', overflow: 'auto' });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('the margin field', () => {
  it('edits the scene\'s margin: a gap beyond 0 becomes a contact at 0.5, as contact() says; −1 is refused by name', async () => {
    // Unit spheres 2.4 apart: a gap of 0.4.
    const scene = pairScene('contact', { type: 'sphere', radius: 1 }, { type: 'sphere', radius: 1, position: [2.4, 0, 0] }, 0);
    const { page, errors } = await openPage(env.browser, encodeLink(scene, env.url));
    try {
      expect(await page.isVisible('#contact-margin')).toBe(true);
      expect(await page.inputValue('#contact-margin')).toBe('0');
      expect((await state(page)).result).toMatchObject({ contact: false });
      await page.fill('#contact-margin', '0.5');
      const s = await state(page);
      expect((s.scene as { margin?: number } | null)?.margin).toBe(0.5);
      using a = sphere(1);
      const c = contact(a, ID, a, [2.4, 0, 0, 0, 0, 0, 1], { margin: 0.5 });
      expect(c).not.toBeNull();
      expect(s.result).toMatchObject({ contact: true, distance: c!.distance, pointA: c!.pointA, pointB: c!.pointB });
      await page.fill('#contact-margin', '-1');
      const refused = await state(page);
      expect(refused.error).toMatch(/^Margin: .*margin.*must not be negative/);
      expect((refused.scene as { margin?: number } | null)?.margin).toBe(0.5);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('the contacts view', () => {
  const floor = floorMesh();
  const scene: Scene = {
    version: 1, query: 'contacts', margin: 0.05,
    shapes: [{ type: 'mesh', ...floor }, { type: 'box', halfExtents: [0.7, 0.3, 0.45], position: [0.1, 0.2, 0.3], rotation: [0.1, 0.2, 0, 0.9746794344808963] }],
  };

  it('lists every contact of a box on a floor mesh, as contacts() does, and its link reopens the same', async () => {
    using m = mesh(new Float64Array(floor.vertices.flat()), new Uint32Array(floor.triangles.flat()));
    using b = box([0.7, 0.3, 0.45]);
    const want = contacts(m, ID, b, [0.1, 0.2, 0.3, 0.1, 0.2, 0, 0.9746794344808963], { margin: 0.05 });
    expect(want.contacts.length).toBeGreaterThan(2);
    const opened = await openPage(env.browser, encodeLink(scene, env.url));
    const { page, errors } = opened;
    const s = await state(page);
    expect(s.error).toBeNull();
    const rows = await valueRows(page);
    const map = new Map(rows);
    expect(map.get('contacts')).toBe(String(want.contacts.length));
    const depths = rows.filter(([k]) => /^#\d+ .*: depth$/.test(k));
    expect(depths.length).toBe(want.contacts.length);
    want.contacts.forEach((c, i) => {
      expect(depths[i]).toEqual([`#${i + 1} triangle ${c.triangle}: depth`, fmt(c.depth, 12)]);
    });
    const result = s.result as { contacts: { triangle: number; depth: number; normal: Vec3 }[] };
    expect(result.contacts.map((c) => [c.triangle, c.depth, c.normal])).toEqual(want.contacts.map((c) => [c.triangle, c.depth, c.normal.map((x) => x + 0)]));
    expect(await captionText(page)).toMatch(new RegExp(`^${want.contacts.length} contacts within the margin`));
    expect(errors).toEqual([]);
    await expectLinkReopensSame(env.browser, opened);
  });

  it('is offered by the Query menu, which switches to contact and contacts and back', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      const before = await state(page);
      const gap = (run({ ...(before.scene as unknown as Scene), query: 'distance' }) as { distance: number }).distance;
      for (const q of ['contact', 'contacts', 'distance'] as const) {
        await page.selectOption('#query', q);
        const s = await state(page);
        expect(s.scene?.query).toBe(q);
        // The same pair of shapes. The page's first pair is apart: the contact queries get a margin a little
        // over the library's distance of the pair (so that the contact shows, and the banner says why), distance none.
        expect(s.scene?.shapes).toEqual(before.scene?.shapes);
        const margin = (s.scene as { margin?: number } | null)?.margin;
        if (q === 'distance') {
          expect(s.error).toBeNull();
          expect(margin).toBeUndefined();
          continue;
        }
        expect(gap).toBeGreaterThan(0);
        expect(margin).toBeGreaterThan(gap);
        expect(margin).toBeLessThanOrEqual(1.4 * gap);
        expect(s.frameCount).toBe(1);
        expect(s.error).toContain(`the margin is set to ${margin}`);
        const r = run(s.scene as unknown as Scene) as ContactQueryResult | ContactsResult;
        if (q === 'contact') expect(r).toMatchObject({ contact: true });
        else expect((r as ContactsResult).contacts.length).toBeGreaterThan(0);
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
