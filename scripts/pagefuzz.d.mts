// Types for scripts/pagefuzz.mjs (imported by tests/e2e/pagefuzz.test.ts).
import type { Browser } from 'playwright-core';

export const TIMEOUT_MS: number;

export interface PageFuzzInput {
  kind: 'hash' | 'paste';
  text: string;
  giant?: boolean;
}

export interface PageFuzzFailure {
  /** 1-based: `node scripts/pagefuzz.mjs --seed S --replay <index>` prints it. */
  index: number;
  kind: 'hash' | 'paste';
  /** The input, described (long ones cut). */
  input: string;
  /** What went wrong, every check that failed. */
  problem: string;
}

export interface PageFuzzOptions {
  count?: number;
  seed?: number;
  /** The page's URL (a server is started when missing). */
  url?: string;
  /** A browser to open the page in (Chromium is launched when missing). */
  browser?: Browser;
  log?: (line: string) => void;
}

export function makeInputs(seed: number, encodeLink: (scene: object) => string): () => PageFuzzInput;
export function describe(input: PageFuzzInput): string;
export function runPageFuzz(options?: PageFuzzOptions): Promise<{
  inputs: number;
  failures: PageFuzzFailure[];
  seconds: number;
  slowest: { ms: number; index: number };
  pages: number;
  spent: Record<string, number>;
}>;
