import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { itemsOf } from '../src/model/index.js';
import { readResponse } from '../src/providers/response.js';
import { corpusDatasets } from './helpers/budget.js';
import { oneResponseDatasets } from './helpers/corpus-bodies.js';

// devboy format reads a recorded response as a file; the benchmark reads it through the client
// libraries. One rule for what the response holds (GitHub's issue lists also carry pull requests:
// both leave them out) means the same items, the same keys, in the same order.

describe('devboy format and the benchmark read the same items from the same response', () => {
  it('every one-page corpus dataset: same kind, same count, same keys in order', async () => {
    let compared = 0;
    let withPullRequests = 0;
    for (const { dataset: d, exchange } of await oneResponseDatasets()) {
      const read = readResponse(exchange as never, exchange.file, d.kind);
      assert.equal(read.kind, d.kind, d.label);
      const keys = (list: readonly object[]) =>
        list.map((i) => ('key' in i ? i.key : 'id' in i ? i.id : 'file_path' in i ? i.file_path : ''));
      assert.deepEqual(keys(read.items as object[]), keys(itemsOf(d).items as object[]), `${d.project} ${d.label}`);
      compared++;
      const body = exchange.response.body;
      if (Array.isArray(body) && body.some((v) => v && typeof v === 'object' && 'pull_request' in v)) withPullRequests++;
    }
    assert.ok(compared > 40, `${compared} datasets compared`);
    assert.ok(withPullRequests > 0, 'some compared issue lists hold pull requests, so the rule was exercised');
  });

  it('a search across repositories names the repository in every key, so keys are unique', async () => {
    const search = (await corpusDatasets()).find((d) => d.label.startsWith('GET /search/issues'))!;
    const keys = itemsOf(search).items.map((i) => (i as { key: string }).key);
    assert.equal(new Set(keys).size, keys.length);
    assert.ok(
      keys.every((k) => /^[^/#]+\/[^/#]+#\d+$/.test(k)),
      keys.slice(0, 3).join(', '),
    );
  });
});
