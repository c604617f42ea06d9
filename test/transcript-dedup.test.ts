import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DedupIndex } from '../src/transcript/dedup.js';
import { Lru } from '../src/transcript/lru.js';
import { playTranscript } from '../src/transcript/playback.js';
import { transcriptFromOutputs } from '../src/transcript/build.js';
import type { TranscriptCall, TranscriptEntry } from '../src/transcript/types.js';
import type { JsonValue } from '../src/json/types.js';
import { identifierKey, jsonValueLike, scaledRuns } from './helpers/arbitraries.js';

const call = (output: JsonValue, isError = false, tool = 't'): TranscriptCall => ({ kind: 'call', tool, output, isError });
const big = (n: number): JsonValue => ({ id: n, body: 'x'.repeat(600) });

describe('DedupIndex', () => {
  it('sends a body once with an id, then refers to that id; the id is shadow_ + 12 hex of SHA-256(JSON)', () => {
    const index = new DedupIndex({ minBytes: 512, lruSize: 8 });
    const first = index.decide(call(big(1)));
    const expectedId =
      'shadow_' +
      createHash('sha256')
        .update(JSON.stringify(big(1)))
        .digest('hex')
        .slice(0, 12);
    assert.deepEqual(first, { kind: 'first', id: expectedId });
    assert.deepEqual(index.decide(call(big(1), false, 'another tool')), { kind: 'ref', id: expectedId });
    assert.equal(index.decide(call(big(2))).kind, 'first');
  });

  it('never dedups errors, even large repeated ones', () => {
    const index = new DedupIndex({ minBytes: 0, lruSize: 8 });
    for (let i = 0; i < 3; i++) assert.deepEqual(index.decide(call(big(1), true)), { kind: 'plain', reason: 'error' });
    // An error does not make its body referable either.
    assert.equal(index.decide(call(big(1))).kind, 'first');
  });

  it('gives small bodies neither id nor ref', () => {
    const index = new DedupIndex({ minBytes: 512, lruSize: 8 });
    const small = { ok: true };
    assert.deepEqual(index.decide(call(small)), { kind: 'plain', reason: 'small' });
    assert.deepEqual(index.decide(call(small)), { kind: 'plain', reason: 'small' });
  });

  it('does not treat the same keys in another order as the same body', () => {
    const index = new DedupIndex({ minBytes: 0, lruSize: 8 });
    assert.equal(index.decide(call({ a: 1, b: 'y'.repeat(600) })).kind, 'first');
    assert.equal(index.decide(call({ b: 'y'.repeat(600), a: 1 })).kind, 'first');
  });

  it('forgets everything at a boundary', () => {
    const index = new DedupIndex({ minBytes: 0, lruSize: 8 });
    index.decide(call(big(1)));
    index.boundary();
    assert.equal(index.decide(call(big(1))).kind, 'first');
  });

  it('evicts the least recently used body when full', () => {
    const index = new DedupIndex({ minBytes: 0, lruSize: 2 });
    index.decide(call(big(1)));
    index.decide(call(big(2)));
    assert.equal(index.decide(call(big(1))).kind, 'ref'); // 1 is now the most recent
    index.decide(call(big(3))); // evicts 2
    assert.equal(index.decide(call(big(2))).kind, 'first');
    assert.equal(index.decide(call(big(1))).kind, 'first'); // evicted by 2's return
  });

  it('agrees with a plain-array model of the rules on random sessions', () => {
    const pool = fc.array(jsonValueLike(identifierKey), { minLength: 1, maxLength: 6 });
    const op = fc.oneof(
      { weight: 8, arbitrary: fc.record({ pick: fc.nat(), error: fc.boolean() }) },
      { weight: 1, arbitrary: fc.constant('boundary' as const) },
    );
    fc.assert(
      fc.property(
        pool,
        fc.array(op, { maxLength: 40 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 60 }),
        (bodies, ops, lruSize, minBytes) => {
          const index = new DedupIndex({ minBytes, lruSize });
          let recent: string[] = [];
          for (const o of ops) {
            if (o === 'boundary') {
              index.boundary();
              recent = [];
              continue;
            }
            const output = bodies[o.pick % bodies.length]!;
            const text = JSON.stringify(output);
            const got = index.decide(call(output, o.error));
            let expected: string;
            if (o.error) expected = 'plain';
            else if (Buffer.byteLength(text) < minBytes) expected = 'plain';
            else if (recent.includes(text)) expected = 'ref';
            else expected = 'first';
            assert.equal(got.kind, expected);
            if (expected === 'ref' || expected === 'first') {
              recent = [...recent.filter((t) => t !== text), text].slice(-lruSize);
            }
          }
        },
      ),
      { numRuns: scaledRuns(2000) },
    );
  });
});

describe('Lru', () => {
  it('rejects a capacity below one', () => {
    assert.throws(() => new Lru(0), RangeError);
  });
});

describe('playTranscript', () => {
  it('every ref names an id shown earlier since the last boundary; errors are never refs (random sessions)', async () => {
    const arbSession = fc.tuple(
      fc.array(fc.jsonValue() as fc.Arbitrary<JsonValue>, { minLength: 1, maxLength: 5 }),
      fc.array(
        fc.oneof(
          { weight: 8, arbitrary: fc.record({ pick: fc.nat(), error: fc.boolean() }) },
          { weight: 1, arbitrary: fc.constant('boundary' as const) },
        ),
        { maxLength: 30 },
      ),
    );
    await fc.assert(
      fc.asyncProperty(arbSession, async ([bodies, ops]) => {
        const entries: TranscriptEntry[] = ops.map((o) =>
          o === 'boundary' ? { kind: 'boundary', reason: 'compaction' } : call(bodies[o.pick % bodies.length]!, o.error),
        );
        const report = await playTranscript(entries, { format: 'json-compact', tokenizer: 'heuristic', minBytes: 0 });
        let shown = new Set<string>();
        let c = 0;
        for (const e of entries) {
          if (e.kind === 'boundary') {
            shown = new Set();
            continue;
          }
          const r = report.per_call[c++]!;
          if (r.hit) {
            assert.equal(e.isError, false);
            assert.ok(r.ref !== null && shown.has(r.ref), `ref ${r.ref} was not shown before`);
          }
          const header = /^<<<SHADOW:(shadow_[0-9a-f]{12})>>>\n/.exec(r.content);
          if (header) shown.add(header[1]!);
        }
        assert.equal(c, report.per_call.length);
      }),
      { numRuns: scaledRuns(300) },
    );
  });

  it('a session without repeats pays for its ids: negative dedup saving, same encoder saving', async () => {
    const entries = transcriptFromOutputs([1, 2, 3].map((n) => ({ tool: 'get', output: big(n) })));
    const withIds = await playTranscript(entries, { format: 'toon', tokenizer: 'o200k_base', minBytes: 0 });
    const noIds = await playTranscript(entries, { format: 'toon', tokenizer: 'o200k_base', minBytes: 1_000_000 });
    assert.equal(withIds.hits, 0);
    assert.ok(withIds.dedup_savings_pct < 0, `dedup ${withIds.dedup_savings_pct}`);
    assert.equal(noIds.dedup_savings_pct, 0);
    assert.equal(withIds.encoder_savings_pct, noIds.encoder_savings_pct);
  });

  it('sends a string output as-is and counts it the same under both baselines', async () => {
    const text = 'plain text result\n'.repeat(40);
    const entries = transcriptFromOutputs([{ tool: 'read', output: text }]);
    const r = await playTranscript(entries, { format: 'toon', tokenizer: 'o200k_base', minBytes: 1_000_000, baseline: 'json_pretty' });
    assert.equal(r.per_call[0]!.content, text);
    assert.equal(r.per_call[0]!.tokens, r.per_call[0]!.baseline_tokens);
    assert.equal(r.encoder_savings_pct, 0);
  });
});
