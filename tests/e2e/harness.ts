// Shared helpers for the browser tests (tests/e2e/**/*.test.ts, run by vitest.e2e.config.ts).
// The page is served by the same code as `npm start` (scripts/serve.mjs) from web/dist/viz,
// which `npm test` builds first.
import { existsSync } from 'node:fs';
import path from 'node:path';
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
