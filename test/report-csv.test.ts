import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseBenchmarkResult } from '../src/benchmark/read-result.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { CSV_COLUMNS, EXPORTERS } from '../src/report/index.js';
import { assertCsvMatches, readCsv } from './helpers/csv.js';
import { FIXTURES, REPO_ROOT } from './helpers/paths.js';

// The CSV export read back with a real CSV parser (csv-parse, RFC 4180 strict) must give the JSON's rows.

const file = join(FIXTURES, 'report', 'small-result.json');
const result = parseBenchmarkResult(readFileSync(file, 'utf8'), file);

describe('--export-csv', () => {
  it('parses back with csv-parse to the same rows as the JSON, column by column', () => {
    const text = EXPORTERS.csv.render({ result });
    assertCsvMatches(text, result);
    // Spot-check against the JSON itself, not only against the column definitions.
    const rec = readCsv(text);
    const lossy = result.rows.findIndex((r) => !r.lossless);
    assert.equal(rec[lossy]!['lossless'], 'false');
    assert.equal(rec[lossy]!['lossless_reason'], result.rows[lossy]!.lossless_reason);
    assert.equal(Number(rec[0]!['tokens']), result.rows[0]!.tokens);
    assert.equal(Number(rec[0]!['encode_max_ms']), result.rows[0]!.encode_spread_ms[1]);
  });

  it('RFC 4180: CRLF line ends, commas, quotes, CR and LF quoted, quotes doubled', () => {
    const odd: BenchmarkResult = structuredClone(result);
    odd.rows = odd.rows.slice(0, 3);
    odd.rows[0]!.label = 'GET /search?q="a, b"';
    odd.rows[1]!.label = 'line one\nline two\r\nthree';
    odd.rows[2]!.lossless_reason = '"quoted" only';
    const text = EXPORTERS.csv.render({ result: odd });
    assert.ok(text.endsWith('\r\n'));
    assert.ok(text.includes('"GET /search?q=""a, b"""'));
    assert.ok(text.includes('"""quoted"" only"'));
    assertCsvMatches(text, odd);
  });

  it('docs/benchmark-schema.md names every column, in order', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'benchmark-schema.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## CSV'));
    const named = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(
      named,
      CSV_COLUMNS.map((c) => c.name),
    );
  });
});
