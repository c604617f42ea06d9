import { FORMAT_NAMES, loadFormat } from '../src/formats/registry.js';
import type { JsonValue } from '../src/json/types.js';
import { timeSync } from '../src/benchmark/timing.js';
import { readCorpus } from '../src/replay/corpus.js';
import { corpusPath } from './budget-common.js';
import type { BenchContext, BenchOutcome, BenchSection } from './section.js';

interface Throughput {
  input: string;
  format: string;
  bytes: number;
  encode_mb_s: number;
  decode_mb_s: number;
  /** Against JSON.stringify / JSON.parse of the same value, measured in the same run. */
  encode_vs_json: number;
  decode_vs_json: number;
}

/**
 * Encoder and decoder throughput of every format, as a ratio to JSON.stringify / JSON.parse timed
 * in the same run on the same value: absolute MB/s depend on the machine, the ratio much less.
 */
export const formatsSection: BenchSection = {
  name: 'formats',
  description: 'encode/decode throughput of each format, as a ratio to JSON.stringify/JSON.parse in the same run',
  async run(ctx: BenchContext): Promise<BenchOutcome> {
    const corpus = ctx.options.get('corpus') ?? corpusPath();
    const runs = Number(ctx.options.get('runs') ?? 7);
    const bodies = (await readCorpus(corpus)).flatMap((p) => p.entries.map((e) => ({ file: e.file, body: e.exchange.response.body })));
    const largest = bodies.reduce((a, b) => (JSON.stringify(b.body).length > JSON.stringify(a.body).length ? b : a));
    const inputs: { name: string; value: JsonValue }[] = [
      { name: `largest body (${largest.file.split('/').slice(0, 2).join('/')})`, value: largest.body },
      { name: `whole corpus as one array (${bodies.length} bodies)`, value: bodies.map((b) => b.body) },
    ];
    const results: Throughput[] = [];
    for (const input of inputs) {
      const jsonText = JSON.stringify(input.value);
      const mb = Buffer.byteLength(jsonText) / 1e6;
      ctx.log(`${input.name}: ${mb.toFixed(2)} MB of compact JSON`);
      for (const name of FORMAT_NAMES) {
        const format = await loadFormat(name);
        const text = format.encode(input.value);
        // Reference and subject alternate so machine noise hits both alike.
        const ref = { enc: timeSync(() => JSON.stringify(input.value), runs), dec: timeSync(() => JSON.parse(jsonText), runs) };
        const enc = timeSync(() => format.encode(input.value), runs);
        const dec = timeSync(() => format.decode(text), runs);
        const r: Throughput = {
          input: input.name,
          format: name,
          bytes: Buffer.byteLength(text),
          encode_mb_s: mb / (enc.median_ms / 1000),
          decode_mb_s: mb / (dec.median_ms / 1000),
          encode_vs_json: enc.median_ms / ref.enc.median_ms,
          decode_vs_json: dec.median_ms / ref.dec.median_ms,
        };
        results.push(r);
        ctx.log(
          `  ${name.padEnd(12)} encode ${r.encode_mb_s.toFixed(1)} MB/s (${r.encode_vs_json.toFixed(2)}x JSON.stringify's time), decode ${r.decode_mb_s.toFixed(1)} MB/s (${r.decode_vs_json.toFixed(2)}x JSON.parse's time)`,
        );
      }
    }
    const lines = [
      `Encoder/decoder speed, median of ${runs} runs; MB/s of the value's compact JSON size; "x JSON" = time relative to JSON.stringify / JSON.parse of the same value in the same run`,
      `${'input'.padEnd(44)} ${'format'.padEnd(12)} ${'encode MB/s'.padStart(11)} ${'x JSON'.padStart(7)} ${'decode MB/s'.padStart(11)} ${'x JSON'.padStart(7)}`,
      ...results.map(
        (r) =>
          `${r.input.slice(0, 44).padEnd(44)} ${r.format.padEnd(12)} ${r.encode_mb_s.toFixed(1).padStart(11)} ${r.encode_vs_json.toFixed(2).padStart(7)} ${r.decode_mb_s.toFixed(1).padStart(11)} ${r.decode_vs_json.toFixed(2).padStart(7)}`,
      ),
    ];
    return { text: lines.join('\n'), data: { runs, results } };
  },
};
