// scripts/serve.mjs as a browser meets it: the page's files compressed when the request allows it (and byte for
// byte the files when decoded), sent as they are otherwise; ETags and 304s; long caching only for the
// content-hashed names of the built page.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding, DEFAULT_ROOT, startServer } from '../../scripts/serve.mjs';

interface Reply { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

/** A raw GET or HEAD (no automatic decoding, unlike fetch). */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('chooseEncoding', () => {
  it('takes brotli before gzip, honours q=0 and "*", and sends identity when neither is accepted', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*, br;q=0')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('deflate')).toBeNull();
    expect(chooseEncoding('')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding('gzip;q=0')).toBeNull();
  });
});

describe('the built page as served', () => {
  let url = '';
  let close: () => Promise<void> = async () => {};
  const page = readdirSync(DEFAULT_ROOT);
  const hashed = page.filter((f) => /-[0-9A-Z]{8}\.(js|wasm)$/.test(f));

  beforeAll(async () => {
    ({ url, close } = await startServer({ root: DEFAULT_ROOT, port: 0 }));
  });
  afterAll(() => close());

  it('has the page, three.js and the .wasm as separate files', () => {
    expect(page).toContain('main.js');
    expect(hashed.filter((f) => f.startsWith('three-') && f.endsWith('.js'))).toHaveLength(1);
    expect(hashed.filter((f) => f.startsWith('collidoscope_wasm-') && f.endsWith('.wasm'))).toHaveLength(1);
  });

  for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
    it(`sends the JavaScript and the .wasm ${encoding}-compressed when asked, the same bytes once decoded`, async () => {
      for (const f of ['main.js', ...hashed, 'index.html']) {
        const r = await get(url + f, { 'Accept-Encoding': encoding });
        const raw = readFileSync(path.join(DEFAULT_ROOT, f));
        expect(r.status, f).toBe(200);
        expect(r.headers['content-encoding'], f).toBe(encoding);
        expect(r.headers.vary, f).toBe('Accept-Encoding');
        expect(Number(r.headers['content-length']), f).toBe(r.body.length);
        expect(r.body.length, f).toBeLessThan(raw.length * 0.6);
        expect(decode(r.body).equals(raw), f).toBe(true);
      }
    });
  }

  it('sends the files as they are without Accept-Encoding, or when it allows no encoding of ours', async () => {
    for (const headers of [{} as Record<string, string>, { 'Accept-Encoding': 'identity' }, { 'Accept-Encoding': 'deflate' }, { 'Accept-Encoding': 'br;q=0, gzip;q=0' }]) {
      const r = await get(url + 'main.js', headers);
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(r.body.equals(readFileSync(path.join(DEFAULT_ROOT, 'main.js')))).toBe(true);
    }
  });

  it('answers a request with the ETag it sent with 304 and no body, per encoding', async () => {
    const first = await get(url + 'main.js', { 'Accept-Encoding': 'gzip' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get(url + 'main.js', { 'Accept-Encoding': 'gzip', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    // A list holding it, and its weak form, match too; another encoding's or a stale tag does not.
    expect((await get(url + 'main.js', { 'Accept-Encoding': 'gzip', 'If-None-Match': `"old", W/${etag}` })).status).toBe(304);
    const br = await get(url + 'main.js', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(br.status).toBe(200);
    expect(br.headers.etag).not.toBe(etag);
    expect((await get(url + 'main.js', { 'If-None-Match': '"stale"' })).status).toBe(200);
  });

  it('lets a browser keep the hashed files for a year and revalidate the others', async () => {
    for (const f of hashed) {
      expect((await get(url + f)).headers['cache-control'], f).toBe('public, max-age=31536000, immutable');
    }
    for (const f of ['', 'main.js', 'style.css', 'gallery.json']) {
      expect((await get(url + f)).headers['cache-control'], f || 'index').toBe('no-cache');
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const head = await get(url + 'main.js', { 'Accept-Encoding': 'gzip' }, 'HEAD');
    const full = await get(url + 'main.js', { 'Accept-Encoding': 'gzip' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(head.headers.etag).toBe(full.headers.etag);
  });
});

describe('a changed file', () => {
  it('gets a new ETag and is sent anew to a browser holding the old one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'collidoscope-serve-'));
    writeFileSync(path.join(dir, 'index.html'), '<p>one</p>');
    const { url, close } = await startServer({ root: dir, port: 0 });
    try {
      const a = await get(url);
      writeFileSync(path.join(dir, 'index.html'), '<p>two, a little longer</p>');
      const b = await get(url, { 'If-None-Match': String(a.headers.etag) });
      expect(b.status).toBe(200);
      expect(b.body.toString()).toBe('<p>two, a little longer</p>');
      expect(b.headers.etag).not.toBe(a.headers.etag);
      // Images are not compressed again.
      writeFileSync(path.join(dir, 'x.png'), Buffer.alloc(4096));
      expect((await get(url + 'x.png', { 'Accept-Encoding': 'gzip' })).headers['content-encoding']).toBeUndefined();
    } finally {
      await close();
    }
  });
});
