// Types for scripts/build.mjs (imported by tests/js/package.test.ts).

/** Packs the wasm inlined in a -sSINGLE_FILE glue (gzipped, then base64, unpacked by the glue in init());
 *  leaves a glue packed before as it is; rejects a file with no inlined wasm. */
export function packInlinedWasm(file: string): Promise<void>;
