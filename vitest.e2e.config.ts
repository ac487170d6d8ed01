// Browser tests: tests/e2e/**/*.test.ts drive Debian's /usr/bin/chromium through playwright-core
// (see tests/e2e/harness.ts) against the built page in web/dist/viz.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      // The tests compute the page's expected answers with the library's TypeScript sources in Node: their glue
      // import points at the flavour with triangle meshes, the one the page is built with (as in vitest.config.ts).
      { find: /^#collidoscope-wasm$/, replacement: path.join(root, 'web/dist/lib/meshes/collidoscope_wasm.mjs') },
      { find: /^(?:\.{1,2}\/)+(?:[\w.-]+\/)*collidoscope_wasm\.mjs$/, replacement: path.join(root, 'web/dist/lib/meshes/collidoscope_wasm.mjs') },
    ],
  },
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    passWithNoTests: true,
  },
});
