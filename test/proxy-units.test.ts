import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { deserializeMessage, ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { FORMAT_NAMES, loadFormats } from '../src/formats/registry.js';
import { jsonEqual } from '../src/json/equal.js';
import { LineReadBuffer } from '../src/proxy/line-buffer.js';
import { rewriteText } from '../src/proxy/rewrite-text.js';
import { ResultShaper } from '../src/proxy/shape-result.js';
import { ResultStore } from '../src/proxy/store.js';
import { summarizeLedger } from '../src/proxy/summary.js';
import { globRegExp, toolMatcher } from '../src/proxy/tool-match.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import { anyJson, scaledRuns } from './helpers/arbitraries.js';
import { rememberingTokenizer } from './helpers/remembering-tokenizer.js';
import { sampleFormats } from './helpers/sampling.js';

const settings = async () => ({
  formats: await loadFormats(FORMAT_NAMES),
  tokenizer: await loadTokenizer('o200k_base'),
  maxBytes: 16 * 1024 * 1024,
});

describe('proxy: one text block', () => {
  it('property: a re-encoded text decodes, in the format named, to the value of the original text; the same text gives the same bytes', async () => {
    const all = await settings();
    // The candidates and one baseline, xml, the one the other grids sample least (every format with
    // DEVBOY_TEST_CORPUS=full): the proxy tries the candidates, a baseline only when named, and the
    // baselines' codecs have property tests of their own. The second rewrite of each text counts
    // nothing anew: what it must reproduce is the encodings and the choice, and a count is the same
    // every time.
    const names = sampleFormats(FORMAT_NAMES, 4);
    const s = { ...all, formats: all.formats.filter((f) => names.includes(f.name)), tokenizer: rememberingTokenizer(all.tokenizer) };
    const byName = new Map(s.formats.map((f) => [f.name, f]));
    let encoded = 0;
    fc.assert(
      fc.property(fc.oneof(fc.array(anyJson), fc.dictionary(fc.string(), anyJson)), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const v = rewriteText(text, s);
        assert.deepEqual(rewriteText(text, s), v);
        if (v.kind !== 'encoded') return;
        encoded++;
        assert.ok(v.after < v.before);
        assert.ok(jsonEqual(byName.get(v.format)!.decode(v.text), JSON.parse(text)));
      }),
      { numRuns: scaledRuns(500) },
    );
    assert.ok(encoded > 0, 'no value was re-encoded: the property checked nothing');
  });

  it('kept, with the reason: not JSON, scalars, duplicate keys, long numbers, deep nesting, lone surrogates, over the size limit, not smaller', async () => {
    const s = await settings();
    const why = (text: string, max = s.maxBytes) => {
      const v = rewriteText(text, { ...s, maxBytes: max });
      assert.equal(v.kind, 'kept', text.slice(0, 40));
      return (v as { reason: string }).reason;
    };
    assert.equal(why('hello'), 'not JSON');
    assert.equal(why(' "a string"'), 'not JSON');
    assert.match(why('{"a": 1, "a": 2}'), /^not exact JSON: .*duplicate key/i);
    assert.match(why('[12345678901234567890, 1, 2]'), /^not exact JSON: /);
    assert.match(why(`${'['.repeat(600)}${']'.repeat(600)}`), /^not exact JSON: /);
    assert.equal(why('{"t": "\\ud800", "u": [1, 2, 3]}'), 'lone surrogate \\ud800 at $.t');
    assert.equal(why('["\ud800 raw"]'), 'lone surrogate in the text');
    assert.equal(why('[1,2,3]', 5), 'over --max-result-mb (7 bytes)');
    assert.match(why('[1]'), /is not smaller \(\d+ vs \d+ o200k_base tokens\)$/);
  });
});

describe('proxy: the line reader', () => {
  it("property: any split of a stream of messages into chunks gives the messages the SDK's own reader gives, in order", () => {
    const message = fc.record({
      jsonrpc: fc.constant('2.0' as const),
      id: fc.nat(),
      method: fc.string({ minLength: 1 }),
      params: fc.dictionary(fc.string(), anyJson),
    });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 12 }), (messages, cuts) => {
        const bytes = Buffer.from(messages.map((m) => `${JSON.stringify(m)}\n`).join(''), 'utf8');
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const buffer = new LineReadBuffer(1 << 20, deserializeMessage);
        const sdk = new ReadBuffer();
        sdk.append(bytes);
        const want: unknown[] = [];
        for (let m = sdk.readMessage(); m !== null; m = sdk.readMessage()) want.push(m);
        const got: unknown[] = [];
        let from = 0;
        for (const to of [...at, bytes.length]) {
          buffer.append(bytes.subarray(from, to));
          from = to;
          for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) got.push(m);
        }
        assert.equal(want.length, messages.length);
        assert.deepEqual(got, want);
      }),
      { numRuns: scaledRuns(1000) },
    );
  });

  it('a line over the limit is refused, like the SDK reader', () => {
    const buffer = new LineReadBuffer(10, deserializeMessage);
    assert.throws(() => buffer.append(Buffer.from('x'.repeat(11))), /ReadBuffer exceeded maximum size of 10 bytes/);
  });
});

describe('proxy: tool rules, the store, the ledger summary', () => {
  it('--skip-tools and --only-tools: names and globs, skip wins', () => {
    const rule = toolMatcher({ skip: ['read_*', 'edit_file'], only: ['read_*', 'get_?', 'list_issues'] });
    assert.deepEqual(rule('read_text_file'), { rewrite: false, why: 'kept exact by --skip-tools' });
    assert.deepEqual(rule('edit_file'), { rewrite: false, why: 'kept exact by --skip-tools' });
    assert.deepEqual(rule('get_x'), { rewrite: true });
    assert.deepEqual(rule('get_xy'), { rewrite: false, why: 'not in --only-tools' });
    assert.deepEqual(rule('list_issues'), { rewrite: true });
    assert.equal(globRegExp('a.b(c)').test('a.b(c)'), true);
    assert.equal(globRegExp('a.b').test('axb'), false);
  });

  it('the store lets the least recently used go first, within its size', () => {
    const store = new ResultStore(10);
    store.put('a', { whole: 'aaaa' });
    store.put('b', { whole: 'bbbb' });
    assert.equal(store.get('a')?.whole, 'aaaa');
    store.put('c', { whole: 'cccc' });
    assert.equal(store.get('b'), undefined);
    assert.equal(store.get('a')?.whole, 'aaaa');
    store.put('big', { whole: 'x'.repeat(11) });
    assert.equal(store.get('big'), undefined);
  });

  it("the summary is the savings rule's accounting over the ledger's lines, explainer charged to the encoder", async () => {
    const s = await settings();
    const shaper = new ResultShaper({
      formats: s.formats,
      tokenizer: s.tokenizer,
      counters: [s.tokenizer],
      maxResultBytes: s.maxBytes,
      budget: null,
      level: null,
      dedup: { minBytes: 64, lruSize: 8 },
      explainers: new Map(s.formats.map((f) => [f.name, `explainer of ${f.name}`])),
      toolRule: () => ({ rewrite: true }),
      addedTool: 'devboy_result',
      storeChars: 1 << 20,
    });
    const list = JSON.stringify(
      Array.from({ length: 40 }, (_, i) => ({ id: i, title: `issue ${i}`, state: 'open' })),
      null,
      2,
    );
    const result = { content: [{ type: 'text', text: list }] };
    const first = shaper.shape('list', { page: 1 }, result);
    const second = shaper.shape('list', { page: 1 }, result);
    assert.equal(first.record.outcome, 'encoded');
    assert.equal(second.record.outcome, 'ref');
    const o = 'o200k_base' as const;
    const header = {
      devboy_proxy_ledger: 1 as const,
      devboy: '0',
      upstream: 'x',
      format: 'auto' as const,
      tokenizer: o,
      tokenizers: [o],
      baseline: 'upstream' as const,
      dedup: null,
      budget: null,
      level: null,
      explainer: true,
    };
    const [t] = summarizeLedger(header, [first.record, second.record]).totals;
    const b = first.record.tokens_before[o]!;
    const x = first.record.explainer_tokens[o]!;
    const h = first.record.header_tokens[o]!;
    const sent = first.record.tokens_after[o]!;
    const ref = second.record.tokens_after[o]!;
    assert.ok(x > 0 && h > 0);
    assert.equal(t!.baseline_tokens, 2 * b);
    assert.equal(t!.received_tokens, sent + ref);
    assert.equal(t!.explainer_tokens, x);
    assert.equal(t!.dedup, (2 * b - b - ref - h) / (2 * b));
    assert.equal(t!.encoder, 1 - (sent - h) / b);
    assert.equal(t!.combined, t!.dedup + (1 - t!.dedup) * t!.encoder);
    assert.equal(t!.measured, 1 - (sent + ref) / (2 * b));
  });
});
