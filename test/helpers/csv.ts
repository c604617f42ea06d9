import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import type { BenchmarkResult, BenchmarkRow } from '../../src/benchmark/schema.js';
import { csvUnneutralised } from '../../src/escape/csv.js';

/** Parse strictly as RFC 4180 says (csv-parse: header line, CRLF records, no relaxed quoting). */
export function readCsv(text: string): Record<string, string>[] {
  return parse(text, { columns: true, record_delimiter: '\r\n', relax_quotes: false, relax_column_count: false, bom: false });
}

/** A CSV record turned back into the JSON row's fields, by hand, not through the exporter's column table. */
function rowOf(cells: Record<string, string>) {
  // Text cells a spreadsheet would run as formulas carry a leading ' (src/escape/csv.ts).
  const c = Object.fromEntries(Object.entries(cells).map(([k, v]) => [k, csvUnneutralised(v)]));
  const n = (k: string) => {
    assert.match(c[k]!, /^-?\d+(\.\d+)?(e[-+]?\d+)?$/, `${k} is a number: ${c[k]}`);
    return Number(c[k]);
  };
  return {
    provider: c['provider'],
    project: c['project'],
    dataset: c['dataset'],
    label: c['label'],
    level: c['level'],
    format: c['format'],
    tokenizer: c['tokenizer'],
    tokens: n('tokens'),
    bytes: n('bytes'),
    pages: n('pages'),
    encode_ms: n('encode_ms'),
    encode_spread_ms: [n('encode_min_ms'), n('encode_max_ms')],
    ...(c['encode_runs'] !== '' ? { encode_runs: n('encode_runs') } : {}),
    decode_ms: n('decode_ms'),
    decode_spread_ms: [n('decode_min_ms'), n('decode_max_ms')],
    ...(c['decode_runs'] !== '' ? { decode_runs: n('decode_runs') } : {}),
    lossless: c['lossless'] === 'true' ? true : c['lossless'] === 'false' ? false : c['lossless'],
    ...(c['lossless_reason'] ? { lossless_reason: c['lossless_reason'] } : {}),
    savings: {
      baseline: c['savings_baseline'],
      baseline_tokens: n('baseline_tokens'),
      encoder: n('encoder_saving'),
      dedup: n('dedup_saving'),
      combined: n('combined_saving'),
      vs: { json_compact: n('saving_vs_json_compact'), json_pretty: n('saving_vs_json_pretty') },
    },
    metadata: { total_items: n('items'), raw_chars: n('raw_bytes'), compression_ratio: n('compression_ratio') },
  };
}

function jsonRow(r: BenchmarkRow) {
  // Of the loss report, the CSV carries the share (checked in assertCsvMatches).
  const { metadata, loss: _loss, ...rest } = r;
  return {
    ...rest,
    metadata: { total_items: metadata.total_items, raw_chars: metadata.raw_chars, compression_ratio: metadata.compression_ratio },
  };
}

/** Every CSV line is the JSON row of the same index, field for field (FormatMetadata beyond its 3 columns aside). */
export function assertCsvMatches(text: string, res: BenchmarkResult): void {
  const records = readCsv(text);
  assert.equal(records.length, res.rows.length);
  res.rows.forEach((r, i) => {
    assert.deepEqual(rowOf(records[i]!), jsonRow(r), `row ${i}`);
    assert.equal(records[i]!['lost_share'], r.loss ? String(r.loss.share) : '', `row ${i} lost_share`);
  });
}
