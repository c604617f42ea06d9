import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DataError } from '../src/errors.js';
import { textChunks } from '../src/stream/text-chunks.js';

async function collect(chunks: Buffer[]): Promise<string> {
  let out = '';
  for await (const t of textChunks(
    (async function* () {
      yield* chunks;
    })(),
    'in.ndjson',
  ))
    out += t;
  return out;
}

/** `bytes` cut at the given offsets. */
function cut(bytes: Buffer, at: number[]): Buffer[] {
  const points = [...new Set(at.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  out.push(bytes.subarray(from));
  return out;
}

describe('streamed input decoded as strict UTF-8', () => {
  it('any cut of valid UTF-8 into chunks decodes to the same text (characters split across chunks stay whole)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.array(fc.nat(), { maxLength: 12 }), async (text, at) => {
        assert.equal(await collect(cut(Buffer.from(text, 'utf8'), at)), text.replace(/^\uFEFF/, ''));
      }),
      { numRuns: 500 },
    );
  });

  it('a bad byte is refused with its offset and line:col in the whole input, wherever the chunks are cut', async () => {
    const bytes = Buffer.concat([Buffer.from('{"a":1}\n{"b":"é', 'utf8'), Buffer.from([0xff]), Buffer.from('"}\n')]);
    for (let split = 0; split <= bytes.length; split++) {
      await assert.rejects(collect(cut(bytes, [split])), (err: DataError) => {
        assert.equal(err.message, 'invalid UTF-8 at byte 16 (0xFF): a byte UTF-8 never uses');
        assert.deepEqual(err.location, { file: 'in.ndjson', line: 2, col: 8 });
        return true;
      });
    }
  });

  it('an input that ends inside a character is refused, not completed with U+FFFD', async () => {
    const bytes = Buffer.from('{"a":"€"}', 'utf8').subarray(0, 8);
    await assert.rejects(collect([bytes]), /invalid UTF-8 at byte 6 .*cut off by the end of the input/);
  });
});
