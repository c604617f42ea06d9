import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadTokenizer } from '../src/tokens/registry.js';
import { BPE_NAMES, forcedCounters, libraryCount } from './helpers/bpe-reference.js';
import { corpusExchanges } from './helpers/corpus-bodies.js';
import { sample, sampleShare } from './helpers/sampling.js';

describe('token counts on the corpus equal gpt-tokenizer countTokens', () => {
  for (const name of BPE_NAMES) {
    it(`${name}: every response body, as compact and as pretty JSON`, async () => {
      const [reference, tokenizer, { buckets }] = await Promise.all([libraryCount(name), loadTokenizer(name), forcedCounters(name)]);
      // An eighth of the bodies in the fast suite, every one in the full suite (npm run test:corpus).
      const exchanges = sample(await corpusExchanges(), 8);
      assert.ok(exchanges.length > 100 * sampleShare(8));
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
      assert.ok(total > 1_000_000 * sampleShare(8));
    });
  }
});
