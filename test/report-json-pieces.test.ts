import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { writeFileAtomic } from '../src/io/atomic-write.js';
import { benchmarkJson, benchmarkJsonPieces } from '../src/report/benchmark-json.js';
import { FIXTURES } from './helpers/paths.js';

// A large corpus's JSON result is written in pieces (so it is never held whole): the pieces must
// make exactly the text that benchmarkJson gives, whatever the number of rows.

const small: BenchmarkResult = JSON.parse(readFileSync(join(FIXTURES, 'report', 'small-result.json'), 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'devboy-json-pieces-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The small result with its rows repeated to `n` rows. */
function withRows(n: number): BenchmarkResult {
  return { ...small, rows: Array.from({ length: n }, (_, i) => ({ ...small.rows[i % small.rows.length]!, tokens: i })) };
}

describe('benchmark JSON in pieces', () => {
  it('the pieces join to the whole text, from no rows to several pieces, and the text parses back', () => {
    for (const n of [0, 1, 255, 256, 257, 700]) {
      const r = withRows(n);
      const pieces = [...benchmarkJsonPieces(r)];
      assert.equal(pieces.join(''), benchmarkJson(r), `${n} rows`);
      assert.ok(pieces.length >= Math.ceil(n / 256), `${n} rows in ${pieces.length} pieces`);
      assert.deepEqual(JSON.parse(pieces.join('')).rows, r.rows);
    }
  });

  it('written to a file piece by piece: the same bytes as written whole', async () => {
    const r = withRows(600);
    await writeFileAtomic(join(dir, 'pieces.json'), benchmarkJsonPieces(r));
    await writeFileAtomic(join(dir, 'whole.json'), benchmarkJson(r));
    assert.equal(readFileSync(join(dir, 'pieces.json'), 'utf8'), readFileSync(join(dir, 'whole.json'), 'utf8'));
  });
});
