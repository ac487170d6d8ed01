// The memory soak's short run (scripts/soak.mjs; `npm run soak` runs 10⁷ queries and 10⁶ create/dispose cycles):
// every query of the object API, batches and a world's queries over shapes of every kind, then shapes, meshes,
// compounds, worlds with bodies and batch buffers created and disposed. After a warm-up, the wasm heap and the
// live shapes and worlds do not move; disposing what the soak kept brings both counts to zero.
import { describe, expect, it } from 'vitest';
import { runSoak } from '../../scripts/soak.mjs';

describe('the memory soak', () => {
  it('100 000 queries and 10 000 create/dispose cycles leave the heap and the live objects where they were', async () => {
    const r = await runSoak({ queries: 100_000, cycles: 10_000 });
    expect(r.queries).toBeGreaterThanOrEqual(100_000);
    expect(r.afterQueries.heapBytes).toBe(r.before.heapBytes);
    expect(r.after.heapBytes).toBe(r.before.heapBytes);
    expect(r.maxHeap).toBe(r.before.heapBytes);
    expect(r.after.memoryBytes).toBe(r.before.memoryBytes);
    expect([r.afterQueries.liveShapes, r.after.liveShapes]).toEqual([r.before.liveShapes, r.before.liveShapes]);
    expect(r.after.liveWorlds).toBe(r.before.liveWorlds);
    expect(r.before.liveShapes).toBeGreaterThan(10);
    expect(r.afterDisposingAll).toMatchObject({ liveShapes: 0, liveWorlds: 0 });
  }, 120_000);
});
