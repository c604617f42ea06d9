import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadTokenizer } from '../src/tokens/registry.js';
import { BPE_NAMES, forcedCounters, libraryCount } from './helpers/bpe-reference.js';
import { sampledExchanges } from './helpers/corpus-bodies.js';
import { FULL_SUITE } from './helpers/sampling.js';

describe('token counts on the corpus equal gpt-tokenizer countTokens', () => {
  for (const name of BPE_NAMES) {
    it(`${name}: every response body, as compact and as pretty JSON`, async () => {
      const [reference, tokenizer, { buckets }] = await Promise.all([libraryCount(name), loadTokenizer(name), forcedCounters(name)]);
      // A third of the bodies up to 30,000 characters in the fast suite, every one in the full suite (npm run test:corpus).
      const exchanges = await sampledExchanges(3);
      assert.ok(exchanges.length > (FULL_SUITE ? 200 : 60), `${exchanges.length} bodies`);
      const wrong: string[] = [];
      let total = 0;
      for (const e of exchanges) {
        for (const [form, text] of [
          ['compact', JSON.stringify(e.response.body)],
          ['pretty', JSON.stringify(e.response.body, null, 2)],
        ] as const) {
          const want = reference(text);
          total += want;
          const got = tokenizer.count(text);
          // Every piece through the long-piece merge too: real text has few pieces long enough to reach it.
          const viaBuckets = buckets.count(text);
          if (got !== want || viaBuckets !== want)
            wrong.push(`${e.file} (${form}): library ${want}, devboy ${got}, bucket merge ${viaBuckets}`);
        }
      }
      assert.deepEqual(wrong, []);
      assert.ok(total > (FULL_SUITE ? 1_000_000 : 100_000), `${total} tokens`);
    });
  }
});
