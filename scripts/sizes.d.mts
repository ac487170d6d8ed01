// Types for scripts/sizes.mjs (imported by tests/js/package.test.ts).
export const ROOT: string;
export interface Measured {
  name: string;
  /** Relative to the repository root. */
  files: string[];
  raw: number;
  /** Sum over the files of each one's gzip -9 size. */
  gzip: number;
}
export interface Sizes {
  collidoscopeVersion: string;
  rapierVersion: string;
  /** 'collidoscope': no meshes. */
  default: Measured;
  /** 'collidoscope/meshes': the same library with meshes, wasm inlined. */
  meshes: Measured;
  wasmFile: Measured;
  wasmOnly: Measured;
  rapier: Measured;
}
export function fileSize(file: string): { file: string; raw: number; gzip: number };
export function moduleGraph(entry: string, opts?: { resolveDir?: string }): Promise<string[]>;
export function measureSizes(): Promise<Sizes>;
export function markdownTable(m: Sizes): string;
