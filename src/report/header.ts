import type { BenchmarkResult } from '../benchmark/schema.js';
import { lossSummary } from '../formats/loss.js';
import { skippedText } from '../replay/corpus.js';
import { EMBEDDED_CORPUS_LABEL } from '../replay/embedded-corpus.js';
import { int, plural } from './words.js';

/** What every exporter says first: the source, the tokenizers with their implementations, the baseline. */
export function header(result: BenchmarkResult): string {
  const src =
    result.source.kind === 'corpus'
      ? corpusName(result.source.corpus)
      : `live ${result.source.provider ?? ''} ${result.source.target ?? ''}`;
  const tks = result.tokenizers.map((t) => `${t.name} (${t.implementation})`).join('; ');
  return [
    `devboy benchmark: ${src.trim()}, ${plural(result.datasets.length, 'dataset')}, ${plural(result.rows.length, 'row')}`,
    `tokenizers: ${tks}`,
    `savings baseline: ${result.settings.savings_baseline}; budget ${int(result.settings.budget)} tokens; timings: median of ${plural(result.settings.runs, 'run')}${result.settings.session ? `; dedup from session ${result.settings.session}` : '; dedup 0 (no --session)'}`,
  ].join('\n');
}

function corpusName(corpus: string | undefined): string {
  return corpus === EMBEDDED_CORPUS_LABEL ? 'the embedded corpus (corpus/ shipped with devboy)' : `corpus ${corpus ?? ''}`;
}

export function lossyText(result: BenchmarkResult): string {
  if (result.lossy.length === 0)
    return 'Lossless: every format round-tripped every row (decode(encode(x)) equals x, values and key order).';
  const lines = [`Not lossless: ${plural(result.lossy.length, 'dataset/level/format cell')} (all other rows round-tripped):`];
  for (const l of result.lossy)
    lines.push(
      `  ${l.provider} ${l.project} ${l.dataset} ${l.level} ${l.format}: ${l.loss ? `${lossSummary(l.loss)}; first: ` : ''}${l.reason}`,
    );
  return lines.join('\n');
}

/** Corpus recordings left out, each with its file and reason; nothing when the corpus was read whole. */
export function skippedLines(result: BenchmarkResult): string[] {
  const skipped = result.skipped ?? [];
  if (skipped.length === 0) return [];
  return [
    `Skipped: ${skipped.length} corpus recording${skipped.length === 1 ? '' : 's'} could not be read or replayed (their rows are missing):`,
    ...skipped.map((s) => `  ${skippedText(s)}`),
  ];
}
