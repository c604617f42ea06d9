import { availableParallelism, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { FORMAT_NAMES, loadFormat } from '../src/formats/registry.js';
import type { JsonValue } from '../src/json/types.js';
import { readCorpus } from '../src/replay/corpus.js';
import { corpusPath } from './budget-common.js';
import type { BenchContext, BenchOutcome, BenchSection } from './section.js';

interface Throughput {
  input: string;
  format: string;
  bytes: number;
  encode_mb_s: number;
  decode_mb_s: number;
  /** Against JSON.stringify / JSON.parse of the same value, measured in the same rounds (wall-clock time). */
  encode_vs_json: number;
  decode_vs_json: number;
  /** The same ratios in CPU time of the process, which waiting for a busy machine's cores does not inflate. */
  encode_vs_json_cpu: number;
  decode_vs_json_cpu: number;
}

/**
 * Encoder and decoder throughput of every format, as a ratio to JSON.stringify / JSON.parse timed
 * in the same rounds on the same value: absolute MB/s depend on the machine, the ratio much less.
 */
export const formatsSection: BenchSection = {
  name: 'formats',
  description: 'encode/decode throughput of each format, as a ratio to JSON.stringify/JSON.parse in the same run',
  async run(ctx: BenchContext): Promise<BenchOutcome> {
    const corpus = ctx.options.get('corpus') ?? corpusPath();
    const runs = Number(ctx.options.get('runs') ?? 7);
    const load = `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores at the start`;
    const bodies = (await readCorpus(corpus)).flatMap((p) => p.entries.map((e) => ({ file: e.file, body: e.exchange.response.body })));
    const largest = bodies.reduce((a, b) => (JSON.stringify(b.body).length > JSON.stringify(a.body).length ? b : a));
    const inputs: { name: string; value: JsonValue }[] = [
      { name: `largest body (${largest.file.split('/').slice(0, 2).join('/')})`, value: largest.body },
      { name: `whole corpus as one array (${bodies.length} bodies)`, value: bodies.map((b) => b.body) },
    ];
    const results: Throughput[] = [];
    ctx.log(load);
    for (const input of inputs) {
      const jsonText = JSON.stringify(input.value);
      const mb = Buffer.byteLength(jsonText) / 1e6;
      ctx.log(`${input.name}: ${mb.toFixed(2)} MB of compact JSON`);
      for (const name of FORMAT_NAMES) {
        const format = await loadFormat(name);
        const text = format.encode(input.value);
        // Each measurement starts from a collected heap, so that no format pays for the garbage of the one before.
        collectGarbage();
        const enc = timePaired(
          () => JSON.stringify(input.value),
          () => format.encode(input.value),
          runs,
        );
        collectGarbage();
        const dec = timePaired(
          () => JSON.parse(jsonText),
          () => format.decode(text),
          runs,
        );
        const r: Throughput = {
          input: input.name,
          format: name,
          bytes: Buffer.byteLength(text),
          encode_mb_s: mb / (enc.subject_ms / 1000),
          decode_mb_s: mb / (dec.subject_ms / 1000),
          encode_vs_json: enc.ratio,
          decode_vs_json: dec.ratio,
          encode_vs_json_cpu: enc.cpu_ratio,
          decode_vs_json_cpu: dec.cpu_ratio,
        };
        results.push(r);
        ctx.log(
          `  ${name.padEnd(12)} encode ${r.encode_mb_s.toFixed(1)} MB/s (${r.encode_vs_json.toFixed(2)}x JSON.stringify's time, ${r.encode_vs_json_cpu.toFixed(2)}x in CPU time), decode ${r.decode_mb_s.toFixed(1)} MB/s (${r.decode_vs_json.toFixed(2)}x JSON.parse's time, ${r.decode_vs_json_cpu.toFixed(2)}x in CPU time)`,
        );
      }
    }
    const x = (v: number): string => v.toFixed(2).padStart(7);
    const lines = [
      `Encoder/decoder speed over ${runs} rounds, each timing JSON and the format back to back (${load}).`,
      `MB/s: median, of the value's compact JSON size. "x JSON": median over the rounds of the format's time / JSON.stringify's or JSON.parse's time on the same value; "cpu": the same in CPU time of the process (GC threads included), steadier when other processes compete for the cores.`,
      `${'input'.padEnd(44)} ${'format'.padEnd(12)} ${'encode MB/s'.padStart(11)} ${'x JSON'.padStart(7)} ${'cpu'.padStart(7)} ${'decode MB/s'.padStart(11)} ${'x JSON'.padStart(7)} ${'cpu'.padStart(7)}`,
      ...results.map(
        (r) =>
          `${r.input.slice(0, 44).padEnd(44)} ${r.format.padEnd(12)} ${r.encode_mb_s.toFixed(1).padStart(11)} ${x(r.encode_vs_json)} ${x(r.encode_vs_json_cpu)} ${r.decode_mb_s.toFixed(1).padStart(11)} ${x(r.decode_vs_json)} ${x(r.decode_vs_json_cpu)}`,
      ),
    ];
    // Issue 13: STC at least a third of JSON's speed (time at most 3x), on the whole corpus and the largest body.
    const stcTarget = results
      .filter((r) => r.format === 'stc')
      .map((r) => {
        const enc = 1 / r.encode_vs_json;
        const dec = 1 / r.decode_vs_json;
        const verdict = enc >= 1 / 3 && dec >= 1 / 3 ? 'ok' : 'UNDER';
        return `STC speed / JSON's, ${r.input}: encode ${enc.toFixed(2)}x, decode ${dec.toFixed(2)}x (target at least 0.33x: ${verdict})`;
      });
    lines.push(...stcTarget);
    return { text: lines.join('\n'), data: { runs, load: loadavg()[0], results } };
  },
};

let gc: (() => void) | undefined;

/** A full garbage collection; the bench runs without --expose-gc, so the flag is set here, once. */
function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** Shortest timed batch: CPU time is read from the kernel and needs batches of a millisecond or more. */
const MIN_BATCH_MS = 1;

interface Paired {
  /** Median wall-clock milliseconds per call. */
  ref_ms: number;
  subject_ms: number;
  /** Median over the rounds of subject time / reference time, wall-clock and CPU. */
  ratio: number;
  cpu_ratio: number;
}

interface Sample {
  wall: number;
  cpu: number;
}

/**
 * Times `ref` and `subject` in rounds, one batch of each per round, the order swapped every round. Other
 * processes on a busy machine then slow both sides of a round alike, and the median of the per-round
 * ratios is steadier than the ratio of two medians taken minutes apart.
 */
function timePaired(ref: () => unknown, subject: () => unknown, runs: number): Paired {
  const reps = Math.max(batchSize(ref), batchSize(subject));
  batch(ref, reps);
  batch(subject, reps);
  const refs: number[] = [];
  const subjects: number[] = [];
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  for (let i = 0; i < runs; i++) {
    let r: Sample;
    let s: Sample;
    if (i % 2 === 0) {
      r = batch(ref, reps);
      s = batch(subject, reps);
    } else {
      s = batch(subject, reps);
      r = batch(ref, reps);
    }
    refs.push(r.wall / reps);
    subjects.push(s.wall / reps);
    ratios.push(s.wall / r.wall);
    cpuRatios.push(s.cpu / Math.max(r.cpu, 0.001));
  }
  return { ref_ms: median(refs), subject_ms: median(subjects), ratio: median(ratios), cpu_ratio: median(cpuRatios) };
}

/** Calls per batch so that one batch lasts at least MIN_BATCH_MS. */
function batchSize(fn: () => unknown): number {
  const first = batch(fn, 1).wall;
  return first >= MIN_BATCH_MS ? 1 : Math.min(1 << 16, Math.ceil(MIN_BATCH_MS / Math.max(first, 0.0005)));
}

function batch(fn: () => unknown, reps: number): Sample {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < reps; i++) fn();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
