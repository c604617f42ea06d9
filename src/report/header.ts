import type { BenchmarkResult } from '../benchmark/schema.js';
import { lossSummary } from '../formats/loss.js';
import { skippedText } from '../replay/corpus.js';
import { EMBEDDED_CORPUS_LABEL } from '../replay/embedded-corpus.js';
import { int, plural } from '../text/words.js';
import { terminalText } from '../escape/terminal.js';

/**
 * What every exporter says first: the source, the tokenizers with their implementations, the baseline.
 * `data` escapes the strings that come from the result for the exporter's sink.
 */
export function header(result: BenchmarkResult, data: (text: string) => string, name: (text: string) => string = data): string {
  const src =
    result.source.kind === 'corpus'
      ? corpusName(result.source.corpus, data)
      : `live ${data(result.source.provider ?? '')} ${data(result.source.target ?? '')}`;
  const tks = result.tokenizers.map((t) => `${name(t.name)} (${data(t.implementation)})`).join('; ');
  return [
    `devboy benchmark: ${src.trim()}, ${plural(result.datasets.length, 'dataset')}, ${plural(result.rows.length, 'row')}`,
    `tokenizers: ${tks}`,
    `savings baseline: ${result.settings.savings_baseline}; budget ${int(result.settings.budget)} tokens; timings: ${timingWords(result)}${result.settings.session ? `; dedup from session ${data(result.settings.session)}` : '; dedup 0 (no --session)'}`,
  ].join('\n');
}

/** How many runs stand behind each timing: exactly N, or up to N within a budget per cell. */
function timingWords(result: BenchmarkResult): string {
  const t = result.settings.timing;
  if (t && t.mode === 'adaptive' && t.max_runs > 1)
    return `median of 1 to ${plural(t.max_runs, 'run')} per cell (as many as fit in ${int(t.budget_ms)} ms)`;
  if (t && t.mode === 'adaptive') return '1 run per cell';
  return `median of ${plural(result.settings.runs, 'run')} per cell`;
}

function corpusName(corpus: string | undefined, data: (text: string) => string): string {
  return corpus === EMBEDDED_CORPUS_LABEL ? 'the embedded corpus (corpus/ shipped with devboy)' : `corpus ${data(corpus ?? '')}`;
}

export function lossyText(result: BenchmarkResult): string {
  if (result.lossy.length === 0)
    return 'Lossless: every format round-tripped every row (decode(encode(x)) equals x, values and key order).';
  const lines = [`Not lossless: ${plural(result.lossy.length, 'dataset/level/format cell')} (all other rows round-tripped):`];
  for (const l of result.lossy)
    lines.push(
      `  ${terminalText(`${l.provider} ${l.project} ${l.dataset} ${l.level} ${l.format}`)}: ${terminalText(`${l.loss ? `${lossSummary(l.loss)}; first: ` : ''}${l.reason}`)}`,
    );
  return lines.join('\n');
}

/** Corpus recordings left out, each with its file and reason; nothing when the corpus was read whole. */
export function skippedLines(result: BenchmarkResult): string[] {
  const skipped = result.skipped ?? [];
  if (skipped.length === 0) return [];
  return [
    `Skipped: ${skipped.length} corpus recording${skipped.length === 1 ? '' : 's'} could not be read or replayed (their rows are missing):`,
    ...skipped.map((s) => `  ${terminalText(skippedText(s))}`),
  ];
}
