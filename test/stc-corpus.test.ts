import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { firstDifference, describeDifference } from '../src/json/equal.js';
import type { JsonValue } from '../src/json/types.js';
import { decodeStc, encodeStc, tableFields } from '../src/formats/stc/index.js';
import { corpusDir } from './helpers/paths.js';
import { PROVIDER_NAMES } from '../src/providers/registry.js';

/** How many arrays in `v` the encoder writes as tables and as scalar arrays (by shape, not by text search). */
function countShapes(v: JsonValue, acc = { tables: 0, scalarArrays: 0 }): typeof acc {
  if (Array.isArray(v)) {
    if (v.length > 0 && v.every((x) => x === null || typeof x !== 'object')) acc.scalarArrays++;
    else if (tableFields(v) !== null) acc.tables++;
    for (const x of v) countShapes(x, acc);
  } else if (v !== null && typeof v === 'object') {
    for (const x of Object.values(v)) countShapes(x, acc);
  }
  return acc;
}

const CORPUS = corpusDir();

function corpusFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'LICENSES') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...corpusFiles(path));
    else if (entry.name.endsWith('.json') && dir !== CORPUS) out.push(path);
  }
  return out.sort();
}

describe('STC round-trip over the recorded corpus', () => {
  // A missing corpus must fail loudly: a round-trip suite that runs zero cases proves nothing.
  it('finds the corpus with bodies from every provider', () => {
    assert.ok(existsSync(CORPUS), `corpus not found at ${CORPUS}`);
    const files = corpusFiles(CORPUS);
    assert.ok(files.length >= 200, `only ${files.length} corpus files`);
    for (const provider of PROVIDER_NAMES) {
      assert.ok(
        files.some((f) => relative(CORPUS, f).startsWith(provider + '/')),
        `no ${provider} bodies`,
      );
    }
  });

  if (!existsSync(CORPUS)) return;
  let tables = 0;
  let scalarArrays = 0;

  for (const file of corpusFiles(CORPUS)) {
    it(relative(CORPUS, file), () => {
      const body = (JSON.parse(readFileSync(file, 'utf8')) as { response: { body: JsonValue } }).response.body;
      const text = encodeStc(body);
      const back = decodeStc(text);
      const diff = firstDifference(body, back);
      assert.equal(diff, null, diff ? describeDifference(diff) : '');
      assert.equal(JSON.stringify(back), JSON.stringify(body));
      // Canonical: re-encoding the decoded value gives the same bytes.
      assert.equal(encodeStc(back), text);
      // The body's own JSON text is STC as well (spec section 5).
      assert.equal(JSON.stringify(decodeStc(JSON.stringify(body))), JSON.stringify(body));
      const shapes = countShapes(body);
      if (shapes.tables > 0) tables++;
      if (shapes.scalarArrays > 0) scalarArrays++;
    });
  }

  it('exercises tables and scalar arrays on real data', (t) => {
    t.diagnostic(`corpus bodies with a table: ${tables}; with a scalar array: ${scalarArrays}`);
    assert.ok(tables >= 20, `only ${tables} bodies encoded with a table`);
    assert.ok(scalarArrays >= 20, `only ${scalarArrays} bodies encoded with a scalar array`);
  });
});
