// JS unit/integration tests: tests/js/**/*.test.ts, in Node.
// `npm test` runs this after the build (web/dist/lib/collidoscope_wasm.mjs must exist).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      // web/lib/*.ts import the Emscripten glue as '#collidoscope-wasm' (package.json "imports") or as
      // './collidoscope_wasm.mjs' (its place in web/dist/lib); when tests import the TypeScript
      // sources, point either at the built glue with triangle meshes (the 'collidoscope/meshes'
      // flavour's: the whole library; package.test.ts checks what the default flavour leaves out).
      { find: /^#collidoscope-wasm$/, replacement: path.join(root, 'web/dist/lib/meshes/collidoscope_wasm.mjs') },
      { find: /^(?:\.{1,2}\/)+(?:[\w.-]+\/)*collidoscope_wasm\.mjs$/, replacement: path.join(root, 'web/dist/lib/meshes/collidoscope_wasm.mjs') },
    ],
  },
  test: {
    include: ['tests/js/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    passWithNoTests: true,
  },
});
