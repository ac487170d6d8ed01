// Types for scripts/soak.mjs (imported by tests/js/soak.test.ts).
export interface SoakStats { liveShapes: number; liveWorlds: number; heapBytes: number; memoryBytes: number }

export function runSoak(options?: { queries?: number; cycles?: number; log?: (line: string) => void }): Promise<{
  queries: number;
  cycles: number;
  /** After the warm-up, after the queries, after the cycles. */
  before: SoakStats;
  afterQueries: SoakStats;
  after: SoakStats;
  /** The largest heap seen at the checkpoints. */
  maxHeap: number;
  heapGrowth: number;
  /** After the soak disposed the shapes and the world it kept. */
  afterDisposingAll: SoakStats;
  queriesSeconds: number;
  cyclesSeconds: number;
  seconds: number;
}>;
