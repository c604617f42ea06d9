import type { BenchmarkResult, BenchmarkRow } from '../benchmark/schema.js';
import { SAVINGS_BASELINES } from '../metadata/format-metadata.js';
import { csvField } from '../escape/csv.js';

export interface CsvColumn {
  name: string;
  /** What the column holds (docs/benchmark-schema.md lists these; a test keeps the two in step). */
  doc: string;
  value(r: BenchmarkRow): string | number | boolean;
}

/** One line per benchmark row, flat: the row's fields, spreads split in two, savings by name. */
export const CSV_COLUMNS: readonly CsvColumn[] = [
  { name: 'provider', doc: 'github, gitlab or jira', value: (r) => r.provider },
  { name: 'project', doc: 'the project (owner__repo, Jira key)', value: (r) => r.project },
  { name: 'dataset', doc: 'dataset kind', value: (r) => r.dataset },
  { name: 'label', doc: 'the request (method, path and query)', value: (r) => r.label },
  { name: 'level', doc: 'raw, full, standard, minimal', value: (r) => r.level },
  { name: 'format', doc: 'the encoding', value: (r) => r.format },
  { name: 'tokenizer', doc: 'what counted the tokens', value: (r) => r.tokenizer },
  { name: 'tokens', doc: 'tokens of the encoded items', value: (r) => r.tokens },
  { name: 'bytes', doc: 'UTF-8 bytes of the encoded items', value: (r) => r.bytes },
  { name: 'pages', doc: 'responses to read every item at the budget', value: (r) => r.pages },
  { name: 'encode_ms', doc: 'median encode time per call', value: (r) => r.encode_ms },
  { name: 'encode_min_ms', doc: 'fastest timed encode run', value: (r) => r.encode_spread_ms[0] },
  { name: 'encode_max_ms', doc: 'slowest timed encode run', value: (r) => r.encode_spread_ms[1] },
  { name: 'encode_runs', doc: 'timed encode runs (empty in results from before adaptive timing)', value: (r) => r.encode_runs ?? '' },
  { name: 'decode_ms', doc: 'median decode time per call', value: (r) => r.decode_ms },
  { name: 'decode_min_ms', doc: 'fastest timed decode run', value: (r) => r.decode_spread_ms[0] },
  { name: 'decode_max_ms', doc: 'slowest timed decode run', value: (r) => r.decode_spread_ms[1] },
  { name: 'decode_runs', doc: 'timed decode runs (empty in results from before adaptive timing)', value: (r) => r.decode_runs ?? '' },
  { name: 'lossless', doc: '`true` or `false`', value: (r) => r.lossless },
  { name: 'lossless_reason', doc: 'the first difference when not lossless, else empty', value: (r) => r.lossless_reason ?? '' },
  {
    name: 'lost_share',
    doc: 'when not lossless, the share of leaf values that did not come back the same (`loss.share`), else empty',
    value: (r) => r.loss?.share ?? '',
  },
  { name: 'savings_baseline', doc: 'what `encoder_saving` is against', value: (r) => r.savings.baseline },
  { name: 'baseline_tokens', doc: 'tokens of that baseline encoding', value: (r) => r.savings.baseline_tokens },
  { name: 'encoder_saving', doc: '1 - tokens / baseline_tokens', value: (r) => r.savings.encoder },
  { name: 'dedup_saving', doc: "the session's dedup saving (0 without --session)", value: (r) => r.savings.dedup },
  { name: 'combined_saving', doc: 'dedup + (1 - dedup) * encoder', value: (r) => r.savings.combined },
  ...SAVINGS_BASELINES.map((b): CsvColumn => ({
    name: `saving_vs_${b}`,
    doc: `the encoder saving against ${b}`,
    value: (r) => r.savings.vs[b],
  })),
  { name: 'items', doc: 'items in the dataset', value: (r) => r.metadata.total_items ?? '' },
  { name: 'raw_bytes', doc: "UTF-8 bytes of the provider's items as compact JSON", value: (r) => r.metadata.raw_chars },
  { name: 'compression_ratio', doc: 'bytes / raw_bytes', value: (r) => r.metadata.compression_ratio },
];

/**
 * `--export-csv`: RFC 4180 (CRLF line ends, a header line, fields quoted when they hold a comma,
 * a quote, CR or LF, quotes doubled), numbers as JSON writes them, so a parser gets the JSON's values;
 * a text cell that a spreadsheet would run as a formula starts with `'` (src/escape/csv.ts).
 */
export function benchmarkCsv(result: BenchmarkResult): string {
  const lines = [CSV_COLUMNS.map((c) => csvField(c.name))];
  for (const r of result.rows) lines.push(CSV_COLUMNS.map((c) => csvField(c.value(r))));
  return lines.map((l) => `${l.join(',')}\r\n`).join('');
}
