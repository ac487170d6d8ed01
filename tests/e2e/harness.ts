// Shared helpers for the browser tests (tests/e2e/**/*.test.ts, run by vitest.e2e.config.ts).
// The page is served by the same code as `npm start` (scripts/serve.mjs) from web/dist/viz,
// which `npm test` builds first.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { DEFAULT_ROOT, startServer as startStaticServer } from '../../scripts/serve.mjs';

/** Debian's Chromium; override with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** Serve web/dist/viz on a free loopback port. */
export async function startServer(): Promise<{ url: string; close: () => Promise<void> }> {
  if (!existsSync(path.join(DEFAULT_ROOT, 'index.html'))) {
    throw new Error(`${DEFAULT_ROOT}/index.html is missing: build first (npm run build)`);
  }
  const { url, close } = await startStaticServer({ root: DEFAULT_ROOT, port: 0 });
  return { url, close };
}

/** Launch headless Chromium. playwright-core gives every launch() a fresh temporary profile
 *  (its own --user-data-dir, deleted on close), so runs never share state. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} not found: run scripts/bootstrap.sh (installs Debian's chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
  });
}

/**
 * Starts the server and the browser before a test file's tests and closes them after; the returned
 * object's `url` and `browser` are valid inside tests and later hooks.
 */
export function useServerAndBrowser(): { readonly url: string; readonly browser: Browser } {
  let server: { url: string; close: () => Promise<void> } | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    get url() {
      if (!server) throw new Error('the server is not started yet (use it inside tests or hooks)');
      return server.url;
    },
    get browser() {
      if (!browser) throw new Error('the browser is not launched yet (use it inside tests or hooks)');
      return browser;
    },
  };
}
