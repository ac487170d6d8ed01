#!/usr/bin/env node
// Tiny static file server for web/dist/viz (used by `npm start` and by tests/e2e/harness.ts).
//   node scripts/serve.mjs [dir]      PORT (default 8080; next free port if busy), HOST (default 127.0.0.1)
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
      res.writeHead(200, {
        'Content-Type': mimeType(file),
        'Content-Length': st.size,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file)
        .on('error', () => res.destroy())
        .pipe(res);
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
