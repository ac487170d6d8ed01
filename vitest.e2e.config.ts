// Browser tests: tests/e2e/**/*.test.ts drive Debian's /usr/bin/chromium through playwright-core
// (see tests/e2e/harness.ts) against the built page in web/dist/viz.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    passWithNoTests: true,
  },
});
