// Files over the page's limit (MAX_SCENE_TEXT, 5 000 000: the paste limit, here in bytes) are refused by their
// size, before a byte is read: a scene file picked with "Import", a mesh file picked or dropped. The banner says
// which file, its size and the limit; the text box and the scene stay as they were. A file of exactly the limit is
// read. Reading is watched by counting calls to Blob's text() and arrayBuffer() in the page.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useServerAndBrowser } from './harness';
import { openPage, state } from './page-helpers';

const env = useServerAndBrowser();

const LIMIT = 5_000_000;

/** Counts the page's Blob reads from now on (File inherits text() and arrayBuffer() from Blob). */
async function countReads(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as any;
    w.__reads = 0;
    for (const name of ['text', 'arrayBuffer'] as const) {
      const original = Blob.prototype[name] as (this: Blob) => Promise<unknown>;
      (Blob.prototype as any)[name] = function (this: Blob) {
        w.__reads++;
        return original.call(this);
      };
    }
  });
}

const reads = (page: Page): Promise<number> => page.evaluate(() => (window as any).__reads as number);
const bannerText = (page: Page): Promise<string> => page.evaluate(() => document.getElementById('banner-text')!.textContent ?? '');
const bannerVisible = (page: Page): Promise<boolean> => page.evaluate(() => {
  const b = document.getElementById('banner')!;
  return !b.hidden && b.getClientRects().length > 0;
});

describe('files over the size limit', () => {
  it('a scene file of 5 000 001 bytes is refused unread, in the banner and the status line; one of 5 000 000 is read', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      const before = await state(page);
      await page.evaluate(() => { (document.getElementById('scene-json') as HTMLTextAreaElement).value = '{"kept": true}'; });
      await countReads(page);
      await page.setInputFiles('#scene-json-file', { name: 'cloud.json', mimeType: 'application/json', buffer: Buffer.alloc(LIMIT + 1, 0x20) });
      await expect.poll(() => bannerVisible(page)).toBe(true);
      expect(await bannerText(page)).toBe('File "cloud.json" was not read: it is 5,000,001 bytes, and the page reads files of up to '
        + '5,000,000 (a larger one would hold the tab for seconds; the library\'s run() and mesh() take more).');
      expect(await page.textContent('#scene-json-status')).toBe(await bannerText(page));
      expect(await page.evaluate(() => document.getElementById('scene-json-status')!.classList.contains('error'))).toBe(true);
      expect(await reads(page)).toBe(0);
      expect(await page.inputValue('#scene-json')).toBe('{"kept": true}');
      expect((await state(page)).scene).toEqual(before.scene);

      // At the limit the file is read (5 000 000 spaces: read, then found to hold no JSON).
      await page.click('#banner-close');
      await page.setInputFiles('#scene-json-file', { name: 'blank.json', mimeType: 'application/json', buffer: Buffer.alloc(LIMIT, 0x20) });
      await expect.poll(() => page.textContent('#scene-json-status')).toBe('File "blank.json": there is no JSON to read (the text is empty).');
      expect(await reads(page)).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('a mesh file over the limit, picked or dropped, is refused unread in the banner and the mesh status', async () => {
    const { page, errors } = await openPage(env.browser, env.url);
    try {
      await page.selectOption('#query', 'obbtree');
      await page.waitForFunction(() => (window as any).__collidoscope.scene?.query === 'obbtree');
      const before = await state(page);
      await countReads(page);
      await page.setInputFiles('#mesh-file', { name: 'statue.obj', mimeType: 'text/plain', buffer: Buffer.alloc(LIMIT + 1, 0x20) });
      await expect.poll(() => bannerVisible(page)).toBe(true);
      const picked = await bannerText(page);
      expect(picked).toMatch(/^"statue\.obj" was not read: it is 5,000,001 bytes, and the page reads files of up to 5,000,000 /);
      expect(await page.locator('#mesh-status').innerText()).toBe(picked);

      // Dropped on the page: a glTF binary of 6 000 000 bytes.
      await page.click('#banner-close');
      await page.evaluate(() => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(6_000_000)], 'city.glb', { type: 'model/gltf-binary' }));
        document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      });
      await expect.poll(() => bannerVisible(page)).toBe(true);
      expect(await bannerText(page)).toMatch(/^"city\.glb" was not read: it is 6,000,000 bytes, and the page reads files of up to 5,000,000 /);
      expect(await reads(page)).toBe(0);
      expect((await state(page)).scene).toEqual(before.scene);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
