import type { FormatName } from '../formats/types.js';
import { roundFraction, type SavingsBaseline } from '../metadata/format-metadata.js';
import { playTranscript } from '../transcript/playback.js';
import type { TranscriptEntry } from '../transcript/types.js';
import type { TokenizerName } from '../tokens/types.js';
import type { SessionSummary } from './schema.js';

/** Dedup saving per format and tokenizer (the refs and id headers tokenize a little differently next to each encoding). */
export type TranscriptDedup = Partial<Record<FormatName, Partial<Record<TokenizerName, number>>>>;

/**
 * Replay an agent session once per format and tokenizer. Which calls are repeats does not depend on
 * the format; what they save does, slightly, so every row carries the figure of its own format.
 */
export async function transcriptDedupForBenchmark(
  name: string,
  entries: readonly TranscriptEntry[],
  formats: readonly FormatName[],
  tokenizers: readonly TokenizerName[],
  baseline: SavingsBaseline,
): Promise<{ dedup: TranscriptDedup; summary: SessionSummary }> {
  const dedup: TranscriptDedup = {};
  const results: SessionSummary['results'] = [];
  let calls = 0;
  let hits = 0;
  for (const tokenizer of tokenizers) {
    for (const format of formats) {
      const r = await playTranscript(entries, { format, tokenizer, baseline, file: name });
      calls = r.calls;
      hits = r.hits;
      (dedup[format] ??= {})[tokenizer] = roundFraction(r.dedup_savings_pct);
      results.push({
        format,
        tokenizer,
        dedup: roundFraction(r.dedup_savings_pct),
        encoder: roundFraction(r.encoder_savings_pct),
        combined: roundFraction(r.combined_savings_pct),
        measured: roundFraction(r.measured_savings_pct),
        baseline_tokens: r.baseline_tokens,
        received_tokens: r.received_tokens,
      });
    }
  }
  return { dedup, summary: { file: name, calls, hits, baseline, results } };
}
