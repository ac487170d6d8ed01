// web/lib/generated-schema.ts is generated from the C++ tables (wasm/tools/schema_ts.cpp; ctest checks the
// committed file is current). Here: it agrees with what the wasm build reports at run time and with the
// TypeScript side's pseudocode.
import { beforeAll, describe, expect, it } from 'vitest';
import { pseudocodeOf } from '../../web/lib/captions';
import { BATCH_LAYOUTS, PSEUDOCODE_LINES } from '../../web/lib/generated-schema';
import { batchLayout, init, type BatchQuery } from '../../web/lib/index';

beforeAll(async () => {
  await init();
});

describe('generated schema', () => {
  for (const [query, lines] of Object.entries(PSEUDOCODE_LINES)) {
    it(`${query}: the pseudocode has the lines the C++ frames number`, () => {
      expect(pseudocodeOf(query as keyof typeof PSEUDOCODE_LINES)).toHaveLength(lines);
    });
  }
  for (const [query, layout] of Object.entries(BATCH_LAYOUTS)) {
    it(`${query}: the batch layout is the one the wasm module reports`, () => {
      const l = batchLayout(query as BatchQuery);
      expect(l.fields).toEqual(layout.fields);
      expect(l.stride).toBe(layout.fields.length);
      expect(l.statusNames).toEqual(layout.status);
      expect(l.axisKindNames).toEqual('axisKind' in layout ? layout.axisKind : undefined);
    });
  }
});
