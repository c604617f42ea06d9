import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readCorpus } from '../src/replay/corpus.js';
import { mergeCountByBuckets, mergeCountByScan, type MergeCount } from '../src/tokens/bpe-merge.js';
import { BUCKETS_FROM_BYTES } from '../src/tokens/bpe-counter.js';
import { ByteRanks, toByteString } from '../src/tokens/byte-ranks.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import { corpusPath, median } from './budget-common.js';
import type { BenchContext, BenchOutcome, BenchSection } from './section.js';

type BpeName = 'o200k_base' | 'cl100k_base';
const NAMES: BpeName[] = ['o200k_base', 'cl100k_base'];
const RUN_LENGTHS = [10_000, 100_000, 200_000, 2_000_000];
const AS_TEXT = { disallowedSpecial: new Set<string>() };
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface RunRow {
  encoding: BpeName;
  chars: number;
  count: number;
  /** devboy's counter: median wall-clock and CPU milliseconds of one call. */
  ms: number;
  cpu_ms: number;
  /** gpt-tokenizer's countTokens on the same text in a child process, CPU milliseconds; null when skipped. */
  library_ms: number | null;
  library_count: number | null;
  skipped: string | null;
}

interface CorpusRow {
  encoding: BpeName;
  texts: number;
  mb: number;
  tokens: number;
  ms: number;
  library_ms: number;
  /** devboy's time over gpt-tokenizer's, same texts, same run: below 1 is faster. */
  vs_library: number;
  equal: boolean;
}

interface ThresholdRow {
  piece: string;
  bytes: number;
  scan_us: number;
  buckets_us: number;
}

/**
 * Token counting: runs of one character (one pre-tokenized piece each, where gpt-tokenizer's merge is
 * quadratic) and the whole corpus, devboy's counter against gpt-tokenizer's countTokens in the same
 * run; then the two merges on single pieces around the length where the counter switches between them.
 */
export const tokenizeSection: BenchSection = {
  name: 'tokenize',
  description: "token counting (runs of one character, the corpus) against gpt-tokenizer's countTokens in the same run",
  async run(ctx: BenchContext): Promise<BenchOutcome> {
    const capS = Number(ctx.options.get('tokenize-cap') ?? 20);
    const runs = Number(ctx.options.get('tokenize-runs') ?? 3);
    const bodies = (await readCorpus(ctx.options.get('corpus') ?? corpusPath())).flatMap((p) =>
      p.entries.map((e) => e.exchange.response.body),
    );
    const texts = bodies.flatMap((b) => [JSON.stringify(b), JSON.stringify(b, null, 2)]);
    const runRows: RunRow[] = [];
    const corpusRows: CorpusRow[] = [];
    for (const name of NAMES) {
      const tokenizer = await loadTokenizer(name);
      let last: { chars: number; ms: number } | undefined;
      for (const chars of RUN_LENGTHS) {
        const text = 'a'.repeat(chars);
        const count = tokenizer.count(text);
        const calls = timeCalls(() => tokenizer.count(text), 2000);
        const lib = libraryOnRun(name, chars, capS, last);
        if (lib.ms !== null) last = { chars, ms: lib.ms };
        const row: RunRow = { encoding: name, chars, count, ...calls, library_ms: lib.ms, library_count: lib.count, skipped: lib.skipped };
        runRows.push(row);
        ctx.log(
          `  ${name} run of ${chars} x "a": ${count} tokens in ${row.ms.toFixed(1)} ms (CPU ${row.cpu_ms.toFixed(1)} ms); gpt-tokenizer ${lib.ms === null ? lib.skipped : `${lib.ms.toFixed(0)} ms`}`,
        );
      }
      const library =
        name === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
      const libCount = (t: string) => library.countTokens(t, AS_TEXT);
      const ours: number[] = [];
      const theirs: number[] = [];
      let tokens = 0;
      let libTokens = 0;
      // Alternate the two so drift in machine load hits both alike.
      for (let i = 0; i < runs; i++) {
        theirs.push(cpuMs(() => (libTokens = texts.reduce((n, t) => n + libCount(t), 0))));
        ours.push(cpuMs(() => (tokens = texts.reduce((n, t) => n + tokenizer.count(t), 0))));
      }
      const row: CorpusRow = {
        encoding: name,
        texts: texts.length,
        mb: texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6,
        tokens,
        ms: median(ours),
        library_ms: median(theirs),
        vs_library: median(ours) / median(theirs),
        equal: tokens === libTokens,
      };
      corpusRows.push(row);
      ctx.log(`  ${name} corpus: ${row.ms.toFixed(0)} ms vs gpt-tokenizer ${row.library_ms.toFixed(0)} ms (${row.vs_library.toFixed(2)}x)`);
    }
    const thresholdRows = await threshold();
    const text = [
      `Runs of one character ("a"), one piece each: devboy's counter (median of calls within ~2 s, wall clock and CPU) and gpt-tokenizer's countTokens (CPU of one call in a child process, capped at ${capS} s)`,
      `${'encoding'.padEnd(12)} ${'chars'.padStart(9)} ${'tokens'.padStart(8)} ${'devboy ms'.padStart(10)} ${'CPU ms'.padStart(8)} ${'gpt-tokenizer CPU'.padStart(26)}`,
      ...runRows.map(
        (r) =>
          `${r.encoding.padEnd(12)} ${String(r.chars).padStart(9)} ${String(r.count).padStart(8)} ${r.ms.toFixed(1).padStart(10)} ${r.cpu_ms.toFixed(1).padStart(8)} ${(r.library_ms === null ? r.skipped! : `${r.library_ms.toFixed(0)} ms${r.library_count === r.count ? '' : ` COUNT ${r.library_count}`}`).padStart(26)}`,
      ),
      '',
      `Whole corpus (every response body as compact and pretty JSON), CPU time, median of ${runs} alternating passes; "x lib" = devboy's time over gpt-tokenizer's countTokens in the same run`,
      `${'encoding'.padEnd(12)} ${'texts'.padStart(6)} ${'MB'.padStart(6)} ${'tokens'.padStart(9)} ${'devboy ms'.padStart(10)} ${'lib ms'.padStart(8)} ${'x lib'.padStart(6)} ${'MB/s'.padStart(6)}  counts`,
      ...corpusRows.map(
        (r) =>
          `${r.encoding.padEnd(12)} ${String(r.texts).padStart(6)} ${r.mb.toFixed(1).padStart(6)} ${String(r.tokens).padStart(9)} ${r.ms.toFixed(0).padStart(10)} ${r.library_ms.toFixed(0).padStart(8)} ${r.vs_library.toFixed(2).padStart(6)} ${(r.mb / (r.ms / 1000)).toFixed(1).padStart(6)}  ${r.equal ? 'equal' : 'DIFFER'}`,
      ),
      '',
      `Threshold (o200k_base): one piece merged by the scan (O(n²)) and by the bucket queue, CPU µs per piece (40 pieces, median of repeats); the counter uses buckets from ${BUCKETS_FROM_BYTES} bytes`,
      `${'piece'.padEnd(22)} ${'bytes'.padStart(6)} ${'scan µs'.padStart(9)} ${'buckets µs'.padStart(11)} ${'scan/buckets'.padStart(13)}`,
      ...thresholdRows.map(
        (r) =>
          `${r.piece.padEnd(22)} ${String(r.bytes).padStart(6)} ${r.scan_us.toFixed(1).padStart(9)} ${r.buckets_us.toFixed(1).padStart(11)} ${(r.scan_us / r.buckets_us).toFixed(2).padStart(13)}`,
      ),
    ].join('\n');
    return {
      text,
      data: {
        cap_s: capS,
        runs,
        buckets_from_bytes: BUCKETS_FROM_BYTES,
        run_rows: runRows,
        corpus_rows: corpusRows,
        threshold_rows: thresholdRows,
      },
    };
  },
};

/**
 * gpt-tokenizer on a run, in a child process so a run it cannot finish is cut off at the cap.
 * Skipped without trying when the quadratic fit through the last size it finished says it would
 * take more than the cap.
 */
function libraryOnRun(
  name: BpeName,
  chars: number,
  capS: number,
  last: { chars: number; ms: number } | undefined,
): { ms: number | null; count: number | null; skipped: string | null } {
  const estimateS = last ? (last.ms / 1000) * (chars / last.chars) ** 2 : 0;
  if (estimateS > capS) return { ms: null, count: null, skipped: `skipped: > ${capS} s (est. ${formatSeconds(estimateS)})` };
  const script = [
    `const { countTokens } = await import('gpt-tokenizer/encoding/${name}');`,
    `const opts = { disallowedSpecial: new Set() };`,
    `countTokens('warm up', opts);`,
    `const text = 'a'.repeat(${chars});`,
    `const start = process.cpuUsage();`,
    `const count = countTokens(text, opts);`,
    `const used = process.cpuUsage(start);`,
    `process.stdout.write(JSON.stringify({ ms: (used.user + used.system) / 1000, count }));`,
  ].join('\n');
  // The cap is on its CPU time; the wall-clock limit leaves room for a busy machine and for loading the table.
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    timeout: capS * 3000 + 5000,
    encoding: 'utf8',
  });
  if (r.status !== 0 || !r.stdout) return { ms: null, count: null, skipped: `skipped: > ${capS} s` };
  const { ms, count } = JSON.parse(r.stdout) as { ms: number; count: number };
  return ms > capS * 1000 ? { ms: null, count: null, skipped: `skipped: > ${capS} s` } : { ms, count, skipped: null };
}

/**
 * CPU time as well as wall clock: the benchmark shares its machine, and the CPU time of synchronous
 * single-threaded work is what it costs, however many other processes want the cores.
 */
function cpuMs(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Median wall-clock and CPU milliseconds of one call, over calls repeated for about `budgetMs` (at least 3). */
function timeCalls(fn: () => unknown, budgetMs: number): { ms: number; cpu_ms: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  const start = performance.now();
  while (wall.length < 3 || (performance.now() - start < budgetMs && wall.length < 200)) {
    const t = performance.now();
    cpu.push(cpuMs(fn));
    wall.push(performance.now() - t);
  }
  return { ms: median(wall), cpu_ms: median(cpu) };
}

function formatSeconds(s: number): string {
  return s < 3600 ? `${s.toFixed(0)} s` : `${(s / 3600).toFixed(1)} h`;
}

/** Both merges on the same pieces of each kind and length: where one stops being the faster. */
async function threshold(): Promise<ThresholdRow[]> {
  const raw = (await import('gpt-tokenizer/bpeRanks/o200k_base')).default;
  const ranks = new ByteRanks(raw);
  let seed = 12345;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >> 8) % n;
  };
  const pick = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[random(alphabet.length)]).join('');
  const kinds: { piece: string; make: (bytes: number, i: number) => string }[] = [
    { piece: 'run of one letter', make: (bytes, i) => 'abcdefghij'[i % 10]!.repeat(bytes) },
    { piece: 'random lowercase', make: (bytes) => pick('abcdefghijklmnopqrstuvwxyz', bytes) },
    { piece: 'random CJK', make: (bytes) => pick('的一是不了人我在有他这为之大来以个中上们', Math.ceil(bytes / 3)) },
  ];
  const rows: ThresholdRow[] = [];
  for (const kind of kinds) {
    for (const bytes of [64, 128, 192, 256, 384, 512, 1024]) {
      const pieces = Array.from({ length: 40 }, (_, i) => toByteString(kind.make(bytes, i)));
      const per = (merge: MergeCount) => {
        const { cpu_ms } = timeCalls(() => pieces.forEach((p) => merge(p.length, (s, e) => ranks.ofRange(p, s, e))), 300);
        return (cpu_ms * 1000) / pieces.length;
      };
      rows.push({ piece: kind.piece, bytes: pieces[0]!.length, scan_us: per(mergeCountByScan), buckets_us: per(mergeCountByBuckets) });
    }
  }
  return rows;
}
