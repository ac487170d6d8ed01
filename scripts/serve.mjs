#!/usr/bin/env node
// Tiny static file server for web/dist/viz (used by `npm start` and by tests/e2e/harness.ts).
//   node scripts/serve.mjs [dir]      PORT (default 8080; next free port if busy), HOST (default 127.0.0.1)
// Text, JavaScript and WebAssembly go out compressed (brotli or gzip, as the request's Accept-Encoding allows);
// every file has an ETag (a conditional request gets 304); content-hashed names (three-ABCD1234.js) may be
// cached for a year, other files are revalidated each time.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_ROOT = path.join(ROOT_DIR, 'web', 'dist', 'viz');

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

export function mimeType(file) {
  return MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Types worth compressing (images and fonts are compressed already). */
const COMPRESSIBLE = /^(text\/|application\/(json|wasm|javascript)|image\/svg)/;

/** The encodings this server writes, in order of preference. */
export const ENCODINGS = ['br', 'gzip'];

/**
 * The encoding to send for an Accept-Encoding header: the first of ENCODINGS it accepts ("*" counts; q=0
 * refuses), or null for the file as it is.
 */
export function chooseEncoding(header) {
  if (typeof header !== 'string' || header.trim() === '') return null;
  const q = new Map();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';').map((x) => x.trim());
    if (!name) continue;
    const qp = params.find((p) => p.startsWith('q='));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  for (const enc of ENCODINGS) {
    const v = q.get(enc) ?? q.get('*');
    if (v !== undefined && v > 0) return enc;
  }
  return null;
}

/** A file name with an 8-character content hash (scripts/build.mjs names them so): its bytes never change. */
export function isHashedName(file) {
  return /-[0-9A-Z]{8}\.[a-z0-9]+$/.test(path.basename(file));
}

const compressors = {
  br: promisify(brotliCompress),
  gzip: promisify(gzip),
};
const compressorOptions = {
  // Quality 9 of 11: close to the best ratio, fast enough to compress three.js on the first request.
  br: { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } },
  gzip: { level: 9 },
};

/** Bodies and ETags by file, size, mtime and encoding: each file is read, hashed and compressed once. */
const bodies = new Map();
const MAX_CACHED = 64;

async function bodyOf(file, st, encoding) {
  const key = `${file}\0${st.size}\0${st.mtimeMs}\0${encoding ?? ''}`;
  let entry = bodies.get(key);
  if (!entry) {
    entry = (async () => {
      const raw = await readFile(file);
      const body = encoding ? await compressors[encoding](raw, compressorOptions[encoding]) : raw;
      // The ETag names the file's bytes and the encoding: each representation has its own.
      const hash = createHash('sha256').update(raw).digest('base64url').slice(0, 22);
      return { body, etag: `"${hash}${encoding ? `-${encoding}` : ''}"` };
    })();
    entry.catch(() => bodies.delete(key));
    if (bodies.size >= MAX_CACHED) bodies.delete(bodies.keys().next().value);
    bodies.set(key, entry);
  }
  return entry;
}

/** If-None-Match matches `etag` (weak comparison, as RFC 9110 asks for this header). */
function notModified(header, etag) {
  if (typeof header !== 'string') return false;
  const bare = (t) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

function isInside(root, p) {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** Map a request URL to a file under root, or null if it is outside root / malformed. */
export function resolveRequestPath(root, url) {
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(url, 'http://x').pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const segments = pathname.split('/');
  if (segments.some((s) => s === '..')) return null;
  const file = path.resolve(root, '.' + path.posix.normalize('/' + pathname));
  return isInside(root, file) ? file : null;
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

/** Request handler serving files from root (GET/HEAD only, no directory listings, no traversal). */
export function createStaticHandler(root = DEFAULT_ROOT) {
  const absRoot = path.resolve(root);
  let realRoot = null;
  return async (req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return send(res, 405, 'method not allowed\n', { Allow: 'GET, HEAD' });
      }
      realRoot ??= await realpath(absRoot);
      let file = resolveRequestPath(absRoot, req.url ?? '/');
      if (!file) return send(res, 400, 'bad request\n');
      let st = await stat(file).catch(() => null);
      if (st?.isDirectory()) {
        if (!(req.url ?? '/').split('?')[0].endsWith('/')) {
          const u = new URL(req.url ?? '/', 'http://x');
          return send(res, 301, 'moved\n', { Location: u.pathname + '/' + u.search });
        }
        file = path.join(file, 'index.html');
        st = await stat(file).catch(() => null);
      }
      if (!st?.isFile()) return send(res, 404, 'not found\n');
      // Refuse symlinks that lead outside the served directory.
      const real = await realpath(file);
      if (!isInside(realRoot, real)) return send(res, 404, 'not found\n');
      const type = mimeType(file);
      const compressible = COMPRESSIBLE.test(type);
      const encoding = compressible ? chooseEncoding(req.headers['accept-encoding']) : null;
      const { body, etag } = await bodyOf(real, st, encoding);
      const headers = {
        'Content-Type': type,
        'Cache-Control': isHashedName(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
        ETag: etag,
        'X-Content-Type-Options': 'nosniff',
        ...(compressible ? { Vary: 'Accept-Encoding' } : {}),
      };
      if (notModified(req.headers['if-none-match'], etag)) {
        res.writeHead(304, headers);
        return res.end();
      }
      res.writeHead(200, {
        ...headers,
        ...(encoding ? { 'Content-Encoding': encoding } : {}),
        'Content-Length': body.length,
      });
      if (req.method === 'HEAD') return res.end();
      res.end(body);
    } catch (err) {
      if (!res.headersSent) send(res, 500, 'internal error\n');
      else res.destroy();
    }
  };
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(server.address().port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/**
 * Start a static server.
 * @param {{root?: string, port?: number, host?: string, tries?: number}} [opts]
 *   port 0 (the default) = any free port; otherwise port, port+1, ... (tries ports in all).
 * @returns {Promise<{url: string, port: number, server: import('node:http').Server, close: () => Promise<void>}>}
 */
export async function startServer({ root = DEFAULT_ROOT, port = 0, host = '127.0.0.1', tries = 20 } = {}) {
  const server = createServer(createStaticHandler(root));
  let bound = null;
  let lastErr = null;
  const attempts = port === 0 ? 1 : tries;
  for (let i = 0; i < attempts; i++) {
    try {
      bound = await listen(server, port === 0 ? 0 : port + i, host);
      break;
    } catch (err) {
      lastErr = err;
      if (err?.code !== 'EADDRINUSE' && err?.code !== 'EACCES') throw err;
    }
  }
  if (bound === null) throw lastErr ?? new Error('could not bind a port');
  const urlHost = host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const url = `http://${urlHost.includes(':') ? `[${urlHost}]` : urlHost}:${bound}/`;
  const close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections?.();
    });
  return { url, port: bound, server, close };
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const root = path.resolve(process.argv[2] ?? DEFAULT_ROOT);
  const port = process.env.PORT ? Number(process.env.PORT) : 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: bad PORT ${JSON.stringify(process.env.PORT)}`);
    process.exit(2);
  }
  try {
    await stat(path.join(root, 'index.html'));
  } catch {
    console.error(`serve: ${path.relative(process.cwd(), root) || root}/index.html not found — run the build first (npm run build)`);
    process.exit(1);
  }
  const { url, close } = await startServer({ root, port, host: process.env.HOST || '127.0.0.1' });
  if (port !== 0 && !url.endsWith(`:${port}/`)) console.log(`serve: port ${port} is busy, using the next free one`);
  console.log(`collidoscope is being served at ${url}  (Ctrl+C to stop)`);
  const stop = () => close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
