import type { BenchmarkResult, UnmeasuredCell } from '../benchmark/schema.js';
import { lossSummary } from '../formats/loss.js';
import { skippedText, UNMEASURED_CAUSES, type UnmeasuredCause } from '../replay/corpus.js';
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

/** How a report names each cause of a recording not measured, counted: `68 not a list devboy reads`. */
const CAUSE_WORDS: Record<UnmeasuredCause, [string, string]> = {
  'not-a-list': ['not a list devboy reads', 'not lists devboy reads'],
  duplicate: ['the same request as another recording', 'the same requests as other recordings'],
  'error-answer': ['an error answer', 'error answers'],
  'not-get': ['not a GET request', 'not GET requests'],
  'unreached-api-page': ['a later API page no first API page leads to', 'later API pages no first API page leads to'],
  'no-items': ['with no items devboy measures', 'with no items devboy measures'],
  'dataset-failed': ['part of a skipped dataset', 'parts of skipped datasets'],
  'answered-by-another': ['answered by another recording', 'answered by other recordings'],
};

/**
 * The one line that accounts for every recording of a corpus run: how many fed a dataset, how
 * many were read but not measured (by cause) and how many were skipped. Nothing for live runs
 * and results saved before the count existed. `data` escapes for the sink (counts need none).
 */
export function recordingsLine(result: BenchmarkResult, where: string): string | undefined {
  const r = result.recordings;
  if (!r) return undefined;
  const total = r.measured + r.unmeasured + r.skipped;
  const line = `Recordings: ${int(r.measured)} of ${plural(total, 'corpus recording')} measured (they feed the datasets), ${int(r.unmeasured)} not measured, ${int(r.skipped)} skipped.`;
  const byCause = new Map<UnmeasuredCause, number>();
  for (const u of result.unmeasured ?? []) byCause.set(u.cause, (byCause.get(u.cause) ?? 0) + 1);
  if (byCause.size === 0) return line;
  // Most first; ties in the registry's order.
  const ranked = UNMEASURED_CAUSES.filter((c) => byCause.has(c)).sort((a, b) => byCause.get(b)! - byCause.get(a)!);
  const causes = ranked.map((c) => {
    const n = byCause.get(c)!;
    return `${int(n)} ${CAUSE_WORDS[c][n === 1 ? 0 : 1]}`;
  });
  return `${line} Not measured: ${causes.join(', ')}; each with its file and reason ${where}.`;
}

/** Every recording read but not measured, `file: reason`, escaped for a terminal. */
export function unmeasuredLines(result: BenchmarkResult): string[] {
  return (result.unmeasured ?? []).map((u) => `  ${terminalText(`${u.file}: ${u.reason}`)}`);
}

/**
 * `8 dataset/level/format cells a format cannot write (toon 4, gcf 4)`: the cells a run has no rows
 * for, counted per format; nothing when every cell was measured. Format names are the registry's.
 */
export function unmeasuredCellsText(cells: readonly Pick<UnmeasuredCell, 'format'>[]): string | undefined {
  if (cells.length === 0) return undefined;
  const perFormat = new Map<string, number>();
  for (const c of cells) perFormat.set(c.format, (perFormat.get(c.format) ?? 0) + 1);
  const counts = [...perFormat].map(([format, n]) => `${format} ${int(n)}`).join(', ');
  return `${plural(cells.length, 'dataset/level/format cell')} a format cannot write (${counts})`;
}

/** The summary's line on the cells not measured, or nothing when every cell was. */
export function unmeasuredCellsLine(result: BenchmarkResult, where: string): string | undefined {
  const text = unmeasuredCellsText(result.unmeasured_cells ?? []);
  return text && `Not measured: ${text}; each with its reason ${where}.`;
}

/** Every cell not measured, `provider project kind level format: reason`, escaped for a terminal. */
export function unmeasuredCellLines(cells: readonly UnmeasuredCell[]): string[] {
  return cells.map((c) => `  ${terminalText(`${c.provider} ${c.project} ${c.dataset} ${c.level} ${c.format}`)}: ${terminalText(c.reason)}`);
}
