import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { respondWithinBudget, datasetBudgetInput } from '../src/budget/respond-within-budget.js';
import { loadFormat } from '../src/formats/registry.js';
import { buildFormatMetadata, FORMAT_METADATA_FIELDS, type MetadataFacts } from '../src/metadata/format-metadata.js';
import { itemsAtLevel } from '../src/trim/levels.js';
import { itemsOf } from '../src/model/index.js';
import { loadCorpusDatasets } from '../src/providers/load.js';
import { memoTokenizer } from './helpers/budget.js';
import { corpusDir } from './helpers/paths.js';

const facts: MetadataFacts = {
  outputBytes: 700,
  tokens: 180,
  format: 'toon',
  tokenizer: 'o200k_base',
  rawBytes: 2100,
  truncated: true,
  preTrimBytes: 1500,
  totalItems: 30,
  includedItems: 12,
  totalChunks: 3,
  chunkNumber: 2,
  pagination: { offset: 0, limit: 30, total: 57, has_more: true },
  baseline: 'json_compact',
  baselineTokens: 240,
  dedup: 0.2,
};

describe('buildFormatMetadata: the one FormatMetadata builder', () => {
  it('derives every one of the 19 fields from the facts', () => {
    assert.deepEqual(buildFormatMetadata(facts), {
      raw_chars: 2100,
      output_chars: 700,
      pre_trim_chars: 1500,
      estimated_tokens: 180,
      compression_ratio: 0.333333,
      format: 'toon',
      truncated: true,
      total_items: 30,
      included_items: 12,
      chunked: true,
      total_chunks: 3,
      chunk_number: 2,
      provider_pagination: { offset: 0, limit: 30, total: 57, has_more: true },
      provider_sort: null,
      dedup_savings_pct: 0.2,
      encoder_savings_pct: 0.25,
      // seed 001: combined = dedup + (1 - dedup) * encoder
      combined_savings_pct: 0.4,
      baseline: 'json_compact',
      tokenizer: 'o200k_base',
    });
    assert.deepEqual(Object.keys(buildFormatMetadata(facts)), [...FORMAT_METADATA_FIELDS]);
  });

  it('untrimmed output: pre_trim_chars is the output; no raw bytes claims no compression; no baseline tokens, no saving', () => {
    const m = buildFormatMetadata({ ...facts, truncated: false, rawBytes: 0, baselineTokens: 0, dedup: undefined, totalChunks: 1 });
    assert.equal(m.pre_trim_chars, 700);
    assert.equal(m.compression_ratio, 1);
    assert.equal(m.encoder_savings_pct, 0);
    assert.equal(m.dedup_savings_pct, 0);
    assert.equal(m.combined_savings_pct, 0);
    assert.equal(m.chunked, false);
  });

  it('a response larger than its baseline has a negative saving, not a clipped one', () => {
    const m = buildFormatMetadata({ ...facts, tokens: 300, dedup: 0 });
    assert.equal(m.encoder_savings_pct, -0.25);
    assert.equal(m.combined_savings_pct, -0.25);
  });
});

describe("devboy format's metadata, recomputed from the response it returned (real data)", () => {
  it('sizes, tokens, ratio and saving of a trimmed chunk and of a whole response', async () => {
    const { tokenizer, count } = await memoTokenizer('o200k_base');
    const toon = await loadFormat('toon');
    const datasets = await loadCorpusDatasets(corpusDir(), { project: 'betamaxpy__betamax' });
    const d = datasets.find((x) => x.kind === 'issues' && x.result.items.length > 50)!;
    for (const budget of [1500, undefined]) {
      const r = respondWithinBudget(datasetBudgetInput(d), { format: toon, tokenizer, count, ...(budget ? { budget } : {}) });
      const m = r.metadata;
      const raw = Buffer.byteLength(JSON.stringify(d.raw));
      const out = Buffer.byteLength(r.content);
      assert.equal(m.raw_chars, raw);
      assert.equal(m.output_chars, out);
      assert.equal(m.estimated_tokens, tokenizer.count(r.content));
      assert.equal(m.compression_ratio, Math.round((out / raw) * 1e6) / 1e6);
      assert.equal(m.pre_trim_chars, budget ? Buffer.byteLength(toon.encode(itemsAtLevel(itemsOf(d), 'full'))) : out);
      assert.equal(m.included_items, r.included.length);
      assert.equal(m.total_items, d.result.items.length);
      const baselineTokens = tokenizer.count(JSON.stringify(r.included.map((i) => d.raw[i])));
      assert.equal(m.encoder_savings_pct, Math.round((1 - m.estimated_tokens / baselineTokens) * 1e6) / 1e6);
      assert.equal(m.truncated, budget !== undefined);
    }
  });
});
