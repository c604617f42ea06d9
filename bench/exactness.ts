import { decodeGeneric, encodeGeneric } from '@blackwell-systems/gcf';
import { decode as toonDecode, encode as toonEncode } from '@toon-format/toon';
import { timeSync } from '../src/benchmark/timing.js';
import { loadFormat } from '../src/formats/registry.js';
import { decodeUtf8 } from '../src/io/utf8.js';
import { tooDeepPath } from '../src/json/depth.js';
import { findNumberLoss } from '../src/json/numbers.js';
import { parseJson } from '../src/json/parse.js';
import type { JsonValue } from '../src/json/types.js';
import { readCorpus } from '../src/replay/corpus.js';
import { corpusPath } from './budget-common.js';
import type { BenchContext, BenchOutcome, BenchSection } from './section.js';

interface Cost {
  step: string;
  /** What the step adds its checks to, timed in the same run on the same input. */
  reference: string;
  subject_ms: number;
  reference_ms: number;
  ratio: number;
}

/**
 * What reading and writing exactly costs (docs/formats/exactness.md): each checked step against the
 * bare step it wraps, on the whole corpus as one value, in the same run.
 */
export const exactnessSection: BenchSection = {
  name: 'exactness',
  description: "cost of devboy's exact reading and writing checks, as a ratio to the unchecked step in the same run",
  async run(ctx: BenchContext): Promise<BenchOutcome> {
    const runs = Number(ctx.options.get('runs') ?? 7);
    const bodies = (await readCorpus(ctx.options.get('corpus') ?? corpusPath())).flatMap((p) =>
      p.entries.map((e) => e.exchange.response.body),
    );
    const value: JsonValue = bodies;
    const json = JSON.stringify(value, null, 2);
    const bytes = Buffer.from(json, 'utf8');
    const [jsonFormat, toon, gcf, stc] = await Promise.all([loadFormat('json'), loadFormat('toon'), loadFormat('gcf'), loadFormat('stc')]);
    const toonText = toon.encode(value);
    const gcfText = gcf.encode(value);
    const stcText = stc.encode(value);
    ctx.log(`whole corpus as one array: ${bodies.length} bodies, ${(bytes.length / 1e6).toFixed(2)} MB of JSON`);
    const pairs: [string, () => unknown, string, () => unknown][] = [
      ['strict UTF-8 decode', () => decodeUtf8(bytes), "Buffer.toString('utf8')", () => bytes.toString('utf8')],
      ['parseJson', () => parseJson(json), 'JSON.parse', () => JSON.parse(json)],
      ['json encode (checked)', () => jsonFormat.encode(value), 'JSON.stringify', () => JSON.stringify(value, null, 2)],
      ['toon decode (checked)', () => toon.decode(toonText), 'toon decode', () => toonDecode(toonText, { strict: true })],
      ['toon encode (checked)', () => toon.encode(value), 'toon encode', () => toonEncode(value)],
      ['gcf decode (checked)', () => gcf.decode(gcfText), 'decodeGeneric', () => decodeGeneric(gcfText)],
      ['gcf encode (checked)', () => gcf.encode(value), 'encodeGeneric', () => encodeGeneric(value)],
      [
        'stc decode + convert checks',
        () => {
          const v = stc.decode(stcText);
          return findNumberLoss(stcText, v) ?? tooDeepPath(v);
        },
        'stc decode',
        () => stc.decode(stcText),
      ],
    ];
    const results: Cost[] = [];
    for (const [step, subject, reference, ref] of pairs) {
      // Reference first, then subject, each its own warm-up: both measured in the same state of the machine.
      const r = timeSync(ref, runs);
      const s = timeSync(subject, runs);
      const cost: Cost = { step, reference, subject_ms: s.median_ms, reference_ms: r.median_ms, ratio: s.median_ms / r.median_ms };
      results.push(cost);
      ctx.log(`  ${step}: ${cost.subject_ms.toFixed(1)} ms vs ${reference} ${cost.reference_ms.toFixed(1)} ms (${cost.ratio.toFixed(2)}x)`);
    }
    const lines = [
      `Exact reading and writing, whole corpus as one value (${(bytes.length / 1e6).toFixed(2)} MB of JSON), median of ${runs} runs; x = time relative to the unchecked step in the same run`,
      `${'step'.padEnd(30)} ${'ms'.padStart(8)} ${'reference'.padEnd(24)} ${'ms'.padStart(8)} ${'x'.padStart(6)}`,
      ...results.map(
        (c) =>
          `${c.step.padEnd(30)} ${c.subject_ms.toFixed(1).padStart(8)} ${c.reference.padEnd(24)} ${c.reference_ms.toFixed(1).padStart(8)} ${c.ratio.toFixed(2).padStart(6)}`,
      ),
    ];
    return { text: lines.join('\n'), data: { runs, bytes: bytes.length, results } };
  },
};
