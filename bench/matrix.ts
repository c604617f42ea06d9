import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PHASES, type Phase } from '../src/benchmark/phases.js';
import { corpusPath } from './budget-common.js';
import { measureChild, type ChildRun } from './measure-child.js';
import type { BenchContext, BenchOutcome, BenchSection } from './section.js';

const CLI = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const FLOOR = fileURLToPath(new URL('./floor.js', import.meta.url));
const PHASES_CHILD = fileURLToPath(new URL('./benchmark-phases.js', import.meta.url));

/** Issue 13's targets. */
const MAX_VS_FLOOR = 2.5;
const MAX_RSS_BYTES = 400 * 1024 * 1024;
const MAX_SCALED_RSS = 2;

interface Pair {
  floor: ChildRun;
  benchmark: ChildRun;
}

/**
 * The whole benchmark matrix as a user runs it (`devboy benchmark --json -o FILE`, a process of its
 * own) against its floor (bench/floor.ts: every corpus body encoded once in pretty JSON, compact JSON,
 * TOON and GCF, decoded once by the reference libraries, counted once with o200k_base), the two
 * alternating so machine load hits both alike; then the same benchmark over a corpus `scale` times the
 * size (the corpus repeated under new project names), for how memory and time grow; then one run in
 * process with a phase clock, for where the time goes.
 */
export const matrixSection: BenchSection = {
  name: 'matrix',
  description: 'devboy benchmark (whole process) vs its floor script in the same run; a 10x corpus; where the time goes',
  async run(ctx: BenchContext): Promise<BenchOutcome> {
    const corpus = ctx.options.get('corpus') ?? corpusPath();
    const repeats = Number(ctx.options.get('matrix-repeats') ?? 3);
    const scale = Number(ctx.options.get('matrix-scale') ?? 10);
    const out = join(ctx.tmpDir, 'matrix-run.json');
    const benchmarkArgs = (dir?: string) => ['benchmark', ...(dir ? ['--corpus', dir] : []), '--json', '-o', out];
    const ok = (what: string, run: ChildRun) => {
      if (run.exitCode !== 0) throw new Error(`${what} exited ${run.exitCode ?? run.signal}: ${run.stderr.trim().split('\n').pop()}`);
      return run;
    };

    const pairs: Pair[] = [];
    for (let i = 0; i < repeats; i++) {
      const floor = ok('floor', await measureChild(FLOOR, [corpus], { tmpDir: ctx.tmpDir }));
      // The default run: the embedded corpus unless another was asked for.
      const benchmark = ok('benchmark', await measureChild(CLI, benchmarkArgs(ctx.options.get('corpus')), { tmpDir: ctx.tmpDir }));
      pairs.push({ floor, benchmark });
      ctx.log(
        `  round ${i + 1}: floor ${s(floor.totalMs)} (${s(floor.cpuMs)} CPU, ${mb(floor.peakRssBytes)}), benchmark ${s(benchmark.totalMs)} (${s(benchmark.cpuMs)} CPU, ${mb(benchmark.peakRssBytes)}): ${(benchmark.totalMs / floor.totalMs).toFixed(2)}x`,
      );
    }
    const wallRatios = pairs.map((p) => p.benchmark.totalMs / p.floor.totalMs);
    const cpuRatios = pairs.map((p) => p.benchmark.cpuMs! / p.floor.cpuMs!);
    const benchWall = median(pairs.map((p) => p.benchmark.totalMs));
    const benchRss = Math.max(...pairs.map((p) => p.benchmark.peakRssBytes ?? Number.POSITIVE_INFINITY));

    const scaledDir = join(ctx.tmpDir, `corpus-x${scale}`);
    const projects = repeatCorpus(corpus, scaledDir, scale);
    ctx.log(`  ${scale}x corpus: ${projects} project folders in ${scaledDir}`);
    const scaled = ok(`benchmark on the ${scale}x corpus`, await measureChild(CLI, benchmarkArgs(scaledDir), { tmpDir: ctx.tmpDir }));
    // Time against the median of the 1x rounds; memory against the largest 1x peak (the kinder figure for 1x).
    const timeRatio = scaled.totalMs / benchWall;
    const cpuTimeRatio = scaled.cpuMs! / median(pairs.map((p) => p.benchmark.cpuMs!));
    const rssRatio = scaled.peakRssBytes! / benchRss;
    ctx.log(`  ${scale}x corpus: ${s(scaled.totalMs)} (${s(scaled.cpuMs)} CPU), ${mb(scaled.peakRssBytes)}`);

    const phasesFile = join(ctx.tmpDir, 'matrix-phases.json');
    ok('phase run', await measureChild(PHASES_CHILD, [phasesFile, ...(ctx.options.get('corpus') ? [corpus] : [])], { tmpDir: ctx.tmpDir }));
    const phases = (JSON.parse(readFileSync(phasesFile, 'utf8')) as { phases_ms: Record<Phase, number> }).phases_ms;
    const phaseTotal = PHASES.reduce((sum, p) => sum + phases[p], 0);
    const shares = Object.fromEntries(PHASES.map((p) => [p, phases[p] / phaseTotal])) as Record<Phase, number>;

    const verdict = (good: boolean) => (good ? 'ok' : 'OVER');
    const lines = [
      `Benchmark matrix (devboy benchmark --json -o FILE, whole process) against its floor (bench/floor.ts), ${repeats} alternating rounds; wall clock, and CPU time (user + system, all threads) which a loaded machine disturbs less`,
      `  benchmark / floor, wall:  median ${median(wallRatios).toFixed(2)}x (rounds ${range(wallRatios)}; target at most ${MAX_VS_FLOOR}x: ${verdict(median(wallRatios) <= MAX_VS_FLOOR)})`,
      `  benchmark / floor, CPU:   median ${median(cpuRatios).toFixed(2)}x (rounds ${range(cpuRatios)})`,
      `  benchmark: ${s(benchWall)} wall median, peak RSS ${mb(benchRss)} (largest of the rounds; target at most ${mb(MAX_RSS_BYTES)}: ${verdict(benchRss <= MAX_RSS_BYTES)}); floor: ${s(median(pairs.map((p) => p.floor.totalMs)))}, ${mb(Math.max(...pairs.map((p) => p.floor.peakRssBytes ?? 0)))}`,
      `  ${scale}x corpus (${projects} projects): ${s(scaled.totalMs)}, peak RSS ${mb(scaled.peakRssBytes)}`,
      `    peak RSS ${rssRatio.toFixed(2)}x the 1x run's (target at most ${MAX_SCALED_RSS}x: ${verdict(rssRatio <= MAX_SCALED_RSS)})`,
      `    time ${timeRatio.toFixed(2)}x the 1x run's wall, ${cpuTimeRatio.toFixed(2)}x its CPU (linear: ${scale}x; ${(timeRatio / scale).toFixed(2)} and ${(cpuTimeRatio / scale).toFixed(2)} of linear)`,
      `  where the time goes (one run in process, wall clock, ${s(phaseTotal)}; exclusive: counting inside the page planner is tokenize):`,
      ...PHASES.map((p) => `    ${p.padEnd(9)} ${(100 * shares[p]).toFixed(1).padStart(5)}%  ${s(phases[p]).padStart(7)}`),
    ];
    return {
      text: lines.join('\n'),
      data: {
        repeats,
        rounds: pairs.map((p) => ({
          floor: { wall_ms: p.floor.totalMs, cpu_ms: p.floor.cpuMs, peak_rss_bytes: p.floor.peakRssBytes },
          benchmark: { wall_ms: p.benchmark.totalMs, cpu_ms: p.benchmark.cpuMs, peak_rss_bytes: p.benchmark.peakRssBytes },
        })),
        vs_floor_wall: median(wallRatios),
        vs_floor_cpu: median(cpuRatios),
        peak_rss_bytes: benchRss,
        scaled: {
          scale,
          projects,
          wall_ms: scaled.totalMs,
          cpu_ms: scaled.cpuMs,
          peak_rss_bytes: scaled.peakRssBytes,
          time_ratio: timeRatio,
          cpu_ratio: cpuTimeRatio,
          rss_ratio: rssRatio,
        },
        phases_ms: phases,
        phase_shares: shares,
      },
    };
  },
};

/** Copy every project folder of `from` into `to` `times` times, as `<project>__copyN`; returns the number of project folders. */
function repeatCorpus(from: string, to: string, times: number): number {
  let projects = 0;
  for (const provider of readdirSync(from)) {
    const providerDir = join(from, provider);
    if (!statSync(providerDir).isDirectory()) continue;
    for (const project of readdirSync(providerDir)) {
      const projectDir = join(providerDir, project);
      if (!statSync(projectDir).isDirectory()) continue;
      for (let i = 1; i <= times; i++) cpSync(projectDir, join(to, provider, `${project}__copy${i}`), { recursive: true });
      projects += times;
    }
  }
  return projects;
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
}

function range(xs: number[]): string {
  return `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;
}

function s(ms: number | null): string {
  return ms === null ? '?' : `${(ms / 1000).toFixed(1)} s`;
}

function mb(bytes: number | null): string {
  return bytes === null ? '?' : `${Math.round(bytes / 1024 / 1024)} MB`;
}
