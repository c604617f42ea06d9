import type { FormatName } from '../formats/types.js';
import type { SavingsBaseline } from '../metadata/format-metadata.js';
import { replaySession } from '../session/replay.js';
import type { SessionEntry } from '../session/types.js';
import type { TokenizerName } from '../tokens/types.js';
import type { SessionSummary } from './schema.js';

/**
 * Replay an agent session once per format and tokenizer. Which calls are repeats does not depend on
 * the format, so the dedup saving per tokenizer is one number every row of the matrix can carry.
 */
export async function replayForBenchmark(
  name: string,
  entries: readonly SessionEntry[],
  formats: readonly FormatName[],
  tokenizers: readonly TokenizerName[],
  baseline: SavingsBaseline,
): Promise<{ dedup: Partial<Record<TokenizerName, number>>; summary: SessionSummary }> {
  const dedup: Partial<Record<TokenizerName, number>> = {};
  const results: SessionSummary['results'] = [];
  let calls = 0;
  let hits = 0;
  for (const tokenizer of tokenizers) {
    for (const format of formats) {
      const r = await replaySession(entries, { format, tokenizer, baseline, file: name });
      calls = r.calls;
      hits = r.hits;
      dedup[tokenizer] = r.dedup_savings_pct;
      results.push({ format, tokenizer, dedup: r.dedup_savings_pct, encoder: r.encoder_savings_pct, combined: r.combined_savings_pct, measured: r.measured_savings_pct, baseline_tokens: r.baseline_tokens, received_tokens: r.received_tokens });
    }
  }
  return { dedup, summary: { file: name, calls, hits, baseline, results } };
}
