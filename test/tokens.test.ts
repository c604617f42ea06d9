import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encode as o200kEncode } from 'gpt-tokenizer/encoding/o200k_base';
import { loadTokenizer } from '../src/tokens/registry.js';
import { corpusExchanges } from './helpers/corpus-bodies.js';

describe('tokenizers', () => {
  it('o200k_base matches the reference vectors of tiktoken', async () => {
    const t = await loadTokenizer('o200k_base');
    // tiktoken: o200k_base.encode("hello world") == [24912, 2375]
    assert.deepEqual(o200kEncode('hello world'), [24912, 2375]);
    assert.equal(t.count('hello world'), 2);
    assert.equal(t.count(''), 0);
    assert.equal(t.estimate, false);
  });

  it('counts special-token text in tool output as text instead of failing', async () => {
    for (const name of ['o200k_base', 'cl100k_base'] as const) {
      const t = await loadTokenizer(name);
      assert.ok(t.count('logs: <|endoftext|> end') > 3);
    }
  });

  it('the heuristic is ceil(UTF-8 bytes / 3.5) and says it is an estimate', async () => {
    const h = await loadTokenizer('heuristic');
    assert.equal(h.estimate, true);
    assert.equal(h.count('é'), 1); // 2 bytes
    assert.equal(h.count('abcdefg'), 2); // 7 bytes
    assert.equal(h.count('abcdefgh'), 3); // 8 bytes
  });

  it('on real API output, o200k_base and cl100k_base disagree and the heuristic is off from both', async () => {
    const [o200k, cl100k, h] = await Promise.all([loadTokenizer('o200k_base'), loadTokenizer('cl100k_base'), loadTokenizer('heuristic')]);
    // Forty bodies of up to 30,000 characters: about 200 kB of real output, where the first forty
    // bodies of any size were 2.2 MB and took most of this file's time to count three times over.
    const bodies = (await corpusExchanges())
      .map((e) => JSON.stringify(e.response.body))
      .filter((s) => s.length <= 30_000)
      .slice(0, 40);
    const text = bodies.join('\n');
    const a = o200k.count(text);
    const b = cl100k.count(text);
    assert.notEqual(a, b);
    assert.notEqual(h.count(text), a);
    assert.ok(bodies.every((s) => o200k.count(s) > 0));
  });

  it('loads each encoding once', async () => {
    assert.equal(await loadTokenizer('o200k_base'), await loadTokenizer('o200k_base'));
  });
});
