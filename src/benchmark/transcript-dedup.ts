import type { FormatName } from '../formats/types.js';
import type { ProxySummary } from '../proxy/summary.js';
import { roundFraction, type SavingsBaseline } from '../metadata/format-metadata.js';
import { playTranscript } from '../transcript/playback.js';
import type { TranscriptEntry } from '../transcript/types.js';
import type { TokenizerName } from '../tokens/types.js';
import type { SessionSummary } from './schema.js';

/** Dedup saving per format and tokenizer (the refs and id headers tokenize a little differently next to each encoding). */
export type TranscriptDedup = Partial<Record<FormatName, Partial<Record<TokenizerName, number>>>>;

/**
 * Play an agent session back once per format and tokenizer. Which calls are repeats does not depend on
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

/**
 * A `devboy proxy --log` ledger as the benchmark's session: the proxy's own figures per tokenizer (the
 * summary it printed on exit), and its dedup saving in every measured format's rows, since the proxy
 * chose formats call by call. Tokenizers the ledger did not count with get no figure (dedup 0).
 */
export function ledgerDedupForBenchmark(
  name: string,
  summary: ProxySummary,
  formats: readonly FormatName[],
): { dedup: TranscriptDedup; summary: SessionSummary } {
  const dedup: TranscriptDedup = {};
  for (const t of summary.totals) for (const format of formats) (dedup[format] ??= {})[t.tokenizer] = roundFraction(t.dedup);
  return {
    dedup,
    summary: {
      file: name,
      calls: summary.calls,
      hits: summary.refs,
      baseline: 'upstream',
      results: summary.totals.map((t) => ({
        format: 'proxy' as const,
        tokenizer: t.tokenizer,
        dedup: roundFraction(t.dedup),
        encoder: roundFraction(t.encoder),
        combined: roundFraction(t.combined),
        measured: roundFraction(t.measured),
        ...(summary.lowered ? { level: roundFraction(t.level) } : {}),
        baseline_tokens: t.baseline_tokens,
        received_tokens: t.received_tokens,
      })),
    },
  };
}
