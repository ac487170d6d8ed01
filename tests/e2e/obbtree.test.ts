// The "obbtree" view in a real browser: a scene from a link runs and shows the library's own result (run() on the
// same scene), stepping forward and back changes the frame and its caption, the values table shows the volume
// tests beside the seed's bounds; a built-in mesh loads from the menu; an .obj file made here loads by drop and by
// the file input; a file that is not a mesh says so; and a mesh too large for a link gets a message, not a link.
// A mesh against a convex shape steps through its candidate triangles one by one; the tree is framed whole and
// centred at 1400×900, 390×844 and in an 800×500 iframe; a .glb's primitives and node transforms are applied.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { init, run, trace, type Scene, type Vec3 } from '../../web/lib/index';
import { encodeLink } from '../../web/lib/link';
import { builtinScene } from '../../web/viz/builtin-meshes';
import { TWO_PRIMITIVES_WORLD, glb, twoPrimitivesGlb } from '../js/gltf';
import { useServerAndBrowser } from './harness';
import { colourPixels, expectWholeAndCentred, openPage, state, type ColourRange } from './page-helpers';

const env = useServerAndBrowser();

beforeAll(async () => {
  await init();
});

type Tri = [number, number, number];

/** A wavy n × n grid, 2 units wide, coordinates rounded to 1e-4. */
function grid(n: number): { vertices: Vec3[]; triangles: Tri[] } {
  const vertices: Vec3[] = [];
  const triangles: Tri[] = [];
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) {
      vertices.push([i / n * 2 - 1, Math.round(1e4 * 0.1 * Math.sin(3 * i / n)) / 1e4, j / n * 2 - 1].map((x) => Math.round(x * 1e4) / 1e4) as Vec3);
    }
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j;
      triangles.push([a, a + 1, a + n + 1], [a + 1, a + n + 2, a + n + 1]);
    }
  }
  return { vertices, triangles };
}

/** The grid as OBJ text (1-based indices). */
function objText(n: number): string {
  const g = grid(n);
  return [...g.vertices.map((v) => `v ${v.join(' ')}`), ...g.triangles.map((t) => `f ${t.map((i) => i + 1).join(' ')}`)].join('\n');
}

/** One triangle (0,0,0), (1,0,0), (0,1,0) as float32 positions, in a glTF node moved up by 1. */
function gltfParts(uri: string | null): { json: string; bin: Buffer } {
  const bin = Buffer.from(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]).buffer);
  const gltf = {
    asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, translation: [0, 1, 0] }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    buffers: [uri === null ? { byteLength: bin.length } : { byteLength: bin.length, uri: uri + bin.toString('base64') }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: bin.length }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
  };
  return { json: JSON.stringify(gltf), bin };
}

async function values(page: Page): Promise<Record<string, string>> {
  const rows = await page.$$eval('#values tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent ?? '')));
  return Object.fromEntries(rows.map((r) => [r[0], r[1]]));
}

const scene: Scene & { query: 'obbtree' } = {
  version: 1, query: 'obbtree',
  shapes: [{ type: 'mesh', ...grid(4) }, { type: 'box', halfExtents: [0.2, 0.2, 0.2], position: [0.3, 0.1, -0.2] }],
};

describe('the obbtree view', () => {
  it('runs a scene from a link, steps forward and back, and shows the counts against the seed\'s bounds', async () => {
    const expected = run(scene);
    const frames = trace(scene).frames;
    const { page, errors } = await openPage(env.browser, encodeLink(scene, env.url));
    try {
      let s = await state(page);
      expect(s.error).toBeNull();
      expect(s.frameCount).toBe(frames.length);
      expect(s.result).toEqual(expected);
      expect(s.frameKind).toBe('level');
      const first = await page.locator('#caption').innerText();
      expect(first).toBe(frames[0].caption);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      s = await state(page);
      expect(s.frameIndex).toBe(2);
      expect(await page.locator('#caption').innerText()).toBe(frames[2].caption);
      await page.keyboard.press('ArrowLeft');
      expect((await state(page)).frameIndex).toBe(1);
      expect(await page.locator('#caption').innerText()).toBe(frames[1].caption);
      await page.keyboard.press('End');
      const v = await values(page);
      expect(v['volume tests (D + I)']).toBe(String(expected.nodePairs));
      expect(Number(v['seed: one contact 2·log₂(nA·nB) + 1'])).toBeCloseTo(2 * Math.log2(32) + 1, 3);
      expect(v.answer).toBe(expected.intersecting ? 'intersecting' : 'apart');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('loads a built-in mesh from the menu', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      await page.selectOption('#mesh-builtin', 'terrain');
      await page.waitForFunction(() => (window as any).__collidoscope.scene?.query === 'obbtree');
      const s = await state(page);
      expect(s.error).toBeNull();
      expect((s.scene!.shapes[0].triangles as unknown[]).length).toBe(512);
      expect(s.result).toMatchObject({ mode: 'mesh-convex', triangles: 512, intersecting: true });
      expect(s.link).toContain('#v1=');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('loads a dropped .obj file and one picked with the file input, and refuses a file that is not a mesh', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      await page.evaluate((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'grid.obj', { type: 'text/plain' }));
        document.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, objText(3));
      await page.waitForFunction(() => (window as any).__collidoscope.scene?.shapes?.[0]?.type === 'mesh');
      let s = await state(page);
      expect(s.scene!.query).toBe('obbtree');
      expect((s.scene!.shapes[0].triangles as unknown[]).length).toBe(18);
      expect(await page.locator('#mesh-status').innerText()).toContain('grid.obj: 18 triangles');

      await page.setInputFiles('#mesh-file', { name: 'grid5.obj', mimeType: 'text/plain', buffer: Buffer.from(objText(5)) });
      await page.waitForFunction(() => ((window as any).__collidoscope.scene?.shapes?.[0]?.triangles?.length ?? 0) === 50);
      s = await state(page);
      expect(s.error).toBeNull();

      await page.setInputFiles('#mesh-file', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await expect.poll(() => page.locator('#mesh-status').innerText()).toContain('not a mesh file');
      await page.setInputFiles('#mesh-file', { name: 'broken.glb', mimeType: 'model/gltf-binary', buffer: Buffer.from('not a glb') });
      await expect.poll(() => page.locator('#mesh-status').innerText()).toMatch(/broken\.glb" could not be read as glTF/);
      // The last good mesh stays.
      expect(((await state(page)).scene!.shapes[0].triangles as unknown[]).length).toBe(50);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('loads a .gltf and a .glb file, each mesh (each primitive) placed by its node\'s transform', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      const files = [
        { name: 'tri.gltf', mimeType: 'model/gltf+json', buffer: Buffer.from(gltfParts('data:application/octet-stream;base64,').json) },
        { name: 'tri.glb', mimeType: 'model/gltf-binary', buffer: glb(JSON.parse(gltfParts(null).json), gltfParts(null).bin) },
      ];
      for (const file of files) {
        await page.setInputFiles('#mesh-file', file);
        await expect.poll(() => page.locator('#mesh-status').innerText()).toContain(`${file.name}: 1 triangle, 3 vertices`);
        const s = await state(page);
        expect(s.error).toBeNull();
        expect(s.scene!.shapes[0].vertices).toEqual([[0, 1, 0], [1, 1, 0], [0, 2, 0]]);
        expect(s.scene!.shapes[0].triangles).toEqual([[0, 1, 2]]);
      }
      // Two primitives in one mesh, nested node transforms, a mirror among them.
      await page.setInputFiles('#mesh-file', { name: 'parts.glb', mimeType: 'model/gltf-binary', buffer: twoPrimitivesGlb() });
      await expect.poll(() => page.locator('#mesh-status').innerText()).toContain('parts.glb: 4 triangles, 10 vertices');
      const s = await state(page);
      expect(s.error).toBeNull();
      expect(s.scene!.shapes[0].vertices).toEqual(TWO_PRIMITIVES_WORLD.vertices);
      expect(s.scene!.shapes[0].triangles).toEqual(TWO_PRIMITIVES_WORLD.triangles);
      expect(s.result).toMatchObject({ mode: 'mesh-convex', triangles: 4 });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('says that a mesh too large for a link has none, instead of making a broken one', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      await page.setInputFiles('#mesh-file', { name: 'big.obj', mimeType: 'text/plain', buffer: Buffer.from(objText(60)) });
      await page.waitForFunction(() => ((window as any).__collidoscope.scene?.shapes?.[0]?.triangles?.length ?? 0) === 7200);
      const s = await state(page);
      expect(s.link).not.toContain('#');
      await page.click('#copy-link');
      await expect.poll(() => page.locator('#copy-status').innerText()).toMatch(/too large for a link: it would be [\d,]+ characters.*at most 100,000/);
      expect(await page.evaluate(() => location.hash)).toBe('');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

/** The colours the obbtree frames draw in (web/lib/draw/obbtree.ts), with room for antialiased edges. */
const LEVEL_CYAN: ColourRange = { r: [60, 130], g: [170, 235], b: [190, 255] };   // 0x5ad1e6, a level's boxes
const HIT_GREEN: ColourRange = { r: [30, 110], g: [180, 240], b: [110, 190] };    // 0x3ddc97, a touching triangle
const MISS_RED: ColourRange = { r: [200, 255], g: [40, 110], b: [40, 110] };      // 0xff4d4d, an apart one

/** `url` at 1400×900 or 390×844, or with ?embed in an 800×500 iframe of a host page: the page and where the views are. */
async function openAt(where: 'desktop' | 'phone' | 'iframe', scene: Scene): Promise<{ page: Page; view: Page | Frame; errors: string[] }> {
  const viewport = where === 'desktop' ? { width: 1400, height: 900 } : where === 'phone' ? { width: 390, height: 844 } : { width: 900, height: 600 };
  const page = await env.browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  if (where !== 'iframe') {
    await page.goto(encodeLink(scene, env.url));
    await page.waitForFunction(() => (window as any).__collidoscope?.ready === true, null, { timeout: 30_000 });
    return { page, view: page, errors };
  }
  await page.setContent(`<!doctype html><body style="margin:0"><iframe src="${encodeLink(scene, env.url + '?embed')}" width="800" height="500" style="border:0"></iframe></body>`);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame!.waitForFunction(() => (window as any).__collidoscope?.ready === true, null, { timeout: 30_000 });
  return { page, view: frame!, errors };
}

describe('the obbtree view against a convex shape, and its framing', () => {
  it('shows each candidate triangle\'s test as a step, the first touching one marked as the intersect answer', async () => {
    const sc: Scene = {
      version: 1, query: 'obbtree',
      shapes: [{ type: 'mesh', ...grid(4) }, { type: 'sphere', radius: 0.25, position: [0.52, 0.2, 0.1] }],
    };
    const t = trace(sc as Scene & { query: 'obbtree' });
    const answer = run({ ...sc, query: 'intersect' }) as unknown as { triangle: number | null };
    const first = t.frames.findIndex((f) => f.kind === 'step' && f.event === 'triangle' && f.firstHit);
    const apart = t.frames.findIndex((f) => f.kind === 'step' && f.event === 'triangle' && !f.hit);
    expect(first).toBeGreaterThan(0);
    expect(apart, 'the scene has a candidate triangle that does not touch').toBeGreaterThan(0);
    expect(t.frames[first].triangleA).toBe(answer.triangle);
    for (const [i, touching] of [[first, true], [apart, false]] as const) {
      const f = t.frames[i];
      const { page, errors } = await openPage(env.browser, encodeLink({ ...sc, step: i }, env.url));
      try {
        const s = await state(page);
        expect(s.error).toBeNull();
        expect(s.frameIndex).toBe(i);
        expect(s.frameKind).toBe('step');
        expect(await page.locator('#caption').innerText()).toBe(f.caption);
        const v = await values(page);
        expect(v.triangle).toBe(`${f.triangleA} vs B: ${touching ? 'touching (the answer)' : 'apart'}`);
        expect(v['GJK iterations']).toBe(String(f.iterations));
        expect(v['triangle tests so far']).toBe(String(f.triangleTests));
        if (touching) expect(v['distance (measured for the view)']).toBeUndefined();
        else expect(Number(v['distance (measured for the view)'])).toBeCloseTo(f.distance!, 5);
        // The triangle is filled green when it touches, red when apart; the answer is labelled.
        const colour = await colourPixels(page, '#canvas-shapes', touching ? HIT_GREEN : MISS_RED);
        expect(colour.count).toBeGreaterThan(20);
        expect(await page.getByText(`triangle ${f.triangleA}: the answer`).count()).toBe(touching ? 2 : 0);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });

  for (const where of ['desktop', 'phone', 'iframe'] as const) {
    it(`frames the torus knot's tree whole and centred in both views (${where})`, async () => {
      const { page, view, errors } = await openAt(where, builtinScene('torus-knot'));
      try {
        for (const canvas of ['#canvas-shapes', '#canvas-minkowski']) {
          // The root box (level 0) in the views' screenshots: its lines, not touching the edges, around the middle.
          const box = await colourPixels(view as Page, canvas, LEVEL_CYAN);
          expect(box.count, canvas).toBeGreaterThan(60);
          expectWholeAndCentred(box, canvas, { x: 0.1, y: 0.12 });
        }
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});
