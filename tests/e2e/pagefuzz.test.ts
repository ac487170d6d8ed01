// The page fuzzer's short run (scripts/pagefuzz.mjs): a fixed seed's hostile links and pasted scene JSON, one
// after another in one page. Each input leaves no uncaught error, no console error, no crash or reload, an
// answering tab, and either the scene shown (where the library's own decodeLink/validateScene/trace accept it)
// or a banner or status line with the library's message. The long run: npm run pagefuzz -- --count N --seed S.
import { describe, expect, it } from 'vitest';
import { runPageFuzz } from '../../scripts/pagefuzz.mjs';
import { useServerAndBrowser } from './harness';

const env = useServerAndBrowser();

const COUNT = 250;
const SEED = 20261127;

describe('the page fuzzer', () => {
  it(`${COUNT} hostile links and pasted scenes from seed ${SEED}: a clear outcome for each, nothing escapes`, async () => {
    const { inputs, failures } = await runPageFuzz({ count: COUNT, seed: SEED, url: env.url, browser: env.browser });
    expect(inputs).toBe(COUNT);
    expect(failures.map((f) => `#${f.index} ${f.problem}\n  ${f.input}`)).toEqual([]);
  }, 240_000);
});
