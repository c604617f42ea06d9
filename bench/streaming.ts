import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureChild, type ChildRun } from './measure-child.js';
import { writeRowsFile } from './rows-file.js';
import type { BenchContext, BenchOutcome, BenchSection } from './section.js';

const CLI = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const STREAM = ['convert', '-', '--from', 'ndjson', '--to', 'gcf', '--stream'];
const BUFFERED = ['convert', '-', '--from', 'ndjson', '--to', 'gcf'];

interface Measured {
  rows: number;
  shape: string;
  mode: string;
  run: ChildRun;
}

/**
 * `devboy convert --stream` against the buffered `devboy convert` on the same NDJSON, in the same run:
 * time to the first row on standard output, total time, and peak RSS, at each size (default 10^4 and
 * 10^6 rows). Flat memory is shown two ways: peak RSS hardly moves from 10^4 to 10^6 rows, and under a
 * small V8 heap cap the stream still finishes while the buffered run cannot.
 */
export const streamingSection: BenchSection = {
  name: 'streaming',
  description: 'GCF stream encoding: time to first row and peak memory vs buffered convert',
  async run(ctx: BenchContext): Promise<BenchOutcome> {
    const sizes = (ctx.options.get('rows') ?? '10000,1000000').split(',').map(Number);
    const capMb = Number(ctx.options.get('heap-cap-mb') ?? 32);
    const repeat = Number(ctx.options.get('repeat') ?? 3);
    const results: Measured[] = [];
    const measure = async (rows: number, shape: string, mode: string, file: string, args: string[], nodeFlags: string[] = []) => {
      const times = rows <= 100_000 ? repeat : 1;
      const runs: ChildRun[] = [];
      for (let i = 0; i < times; i++) runs.push(await measureChild(CLI, args, { stdinFile: file, nodeFlags, tmpDir: ctx.tmpDir }));
      const run = median(runs);
      ctx.log(
        `  ${mode.padEnd(26)} ${rows.toLocaleString('en-US').padStart(10)} rows (${shape}): ${ms(run.firstRowMs)} to first row, ${ms(run.totalMs)} total, ${mb(run.peakRssBytes)} peak RSS, ${mb(run.liveHeapMaxBytes)} live heap, ${exit(run)}`,
      );
      results.push({ rows, shape, mode, run });
      return run;
    };

    const empty = join(ctx.tmpDir, 'empty.ndjson');
    await writeRowsFile(empty, 0);
    const floor = await measure(0, 'none', 'startup (no rows)', empty, STREAM);

    const checks: string[] = [];
    for (const rows of sizes) {
      ctx.log(`writing ${rows.toLocaleString('en-US')} rows`);
      const fixed = join(ctx.tmpDir, `rows-${rows}.ndjson`);
      const changing = join(ctx.tmpDir, `rows-${rows}-changing.ndjson`);
      await writeRowsFile(fixed, rows);
      await writeRowsFile(changing, rows, 50);
      const stream = await measure(rows, 'fixed keys', 'stream', fixed, STREAM);
      checks.push(
        stream.exitCode === 0 && stream.tail.endsWith(`##! summary counts=${rows}\n`)
          ? `ok: ${rows} rows, trailer counts=${rows}`
          : `FAILED: ${rows} rows: exit ${stream.exitCode} ${stream.stderr.trim()}`,
      );
      await measure(rows, 'fixed keys', 'buffered', fixed, BUFFERED);
      await measure(rows, 'keys change every 50', 'stream', changing, STREAM);
      if (rows === Math.max(...sizes)) {
        const cap = [`--max-old-space-size=${capMb}`];
        await measure(rows, 'fixed keys', `stream, ${capMb} MB heap cap`, fixed, STREAM, cap);
        await measure(rows, 'fixed keys', `buffered, ${capMb} MB heap cap`, fixed, BUFFERED, cap);
      }
    }
    return { text: report(results, floor, sizes, capMb, checks), data: { floor, results, checks } };
  },
};

function report(results: Measured[], floor: ChildRun, sizes: number[], capMb: number, checks: string[]): string {
  const find = (rows: number, mode: string, shape = 'fixed keys') =>
    results.find((r) => r.rows === rows && r.mode === mode && r.shape === shape)?.run;
  const lines = [
    'GCF streaming: devboy convert --stream vs buffered devboy convert (same input, same run; stdin piped from a file)',
    `${'rows'.padStart(10)}  ${'input keys'.padEnd(21)} ${'mode'.padEnd(26)} ${'first row'.padStart(10)} ${'total'.padStart(10)} ${'peak RSS'.padStart(10)} ${'live heap'.padStart(10)}  exit`,
  ];
  for (const r of results) {
    if (r.rows === 0) continue;
    lines.push(
      `${r.rows.toLocaleString('en-US').padStart(10)}  ${r.shape.padEnd(21)} ${r.mode.padEnd(26)} ${ms(r.run.firstRowMs).padStart(10)} ${ms(r.run.totalMs).padStart(10)} ${mb(r.run.peakRssBytes).padStart(10)} ${mb(r.run.liveHeapMaxBytes).padStart(10)}  ${exit(r.run)}`,
    );
  }
  lines.push(
    `reference: devboy startup with no rows (stream): ${ms(floor.firstByteMs)} to the GCF header, ${ms(floor.totalMs)} total, ${mb(floor.peakRssBytes)} peak RSS`,
  );
  const small = Math.min(...sizes);
  const large = Math.max(...sizes);
  const ratio = (a?: number | null, b?: number | null) => (a && b ? `${(a / b).toFixed(2)}x` : 'n/a');
  for (const rows of sizes) {
    lines.push(
      `first row at ${rows.toLocaleString('en-US')} rows: buffered/stream = ${ratio(find(rows, 'buffered')?.firstRowMs, find(rows, 'stream')?.firstRowMs)} (stream ${ms(find(rows, 'stream')?.firstRowMs ?? null)}, startup floor ${ms(floor.firstByteMs)})`,
    );
  }
  if (small !== large) {
    const grow = (key: 'peakRssBytes' | 'liveHeapMaxBytes', mode: string) => ratio(find(large, mode)?.[key], find(small, mode)?.[key]);
    lines.push(
      `${large.toLocaleString('en-US')} rows / ${small.toLocaleString('en-US')} rows: peak RSS stream ${grow('peakRssBytes', 'stream')}, buffered ${grow('peakRssBytes', 'buffered')}; live heap stream ${grow('liveHeapMaxBytes', 'stream')}, buffered ${grow('liveHeapMaxBytes', 'buffered')}`,
    );
  }
  const capStream = find(large, `stream, ${capMb} MB heap cap`);
  const capBuffered = find(large, `buffered, ${capMb} MB heap cap`);
  const outcome = (r?: ChildRun) => (r?.exitCode === 0 ? 'finished' : `failed (${r ? exit(r) : 'not run'})`);
  lines.push(
    `with a ${capMb} MB V8 heap cap (--max-old-space-size) at ${large.toLocaleString('en-US')} rows: stream ${outcome(capStream)}, buffered ${outcome(capBuffered)}`,
  );
  if (results.some((r) => r.rows > 0 && r.run.exitCode === 0 && r.run.liveHeapMaxBytes === null)) {
    lines.push('live heap n/a: no full garbage collection ran, the heap never grew enough to need one');
  }
  lines.push(...checks.map((c) => `check ${c}`));
  return lines.join('\n');
}

function exit(r: ChildRun): string {
  return r.signal ? `killed by ${r.signal}` : `exit ${r.exitCode}`;
}

function median(runs: ChildRun[]): ChildRun {
  return [...runs].sort((a, b) => a.totalMs - b.totalMs)[Math.floor(runs.length / 2)]!;
}

function ms(v: number | null): string {
  return v === null ? 'n/a' : `${Math.round(v).toLocaleString('en-US')} ms`;
}

function mb(v: number | null): string {
  return v === null ? 'n/a' : `${(v / 1024 / 1024).toFixed(1)} MB`;
}
