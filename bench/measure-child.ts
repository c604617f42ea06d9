import { spawn } from 'node:child_process';
import { createReadStream, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface ChildRun {
  exitCode: number | null;
  /** Milliseconds from spawn to exit. */
  totalMs: number;
  /** Milliseconds from spawn to the first byte, and to the end of the third line, of standard output. */
  firstByteMs: number | null;
  firstRowMs: number | null;
  /** Peak resident set size in bytes, from the child's own resourceUsage (null when it died too hard to say). */
  peakRssBytes: number | null;
  /** Largest heap in use right after a garbage collection: the live high-water mark (approximate). */
  liveHeapMaxBytes: number | null;
  /** CPU milliseconds the child used, user + system, all threads (null when it died too hard to say). */
  cpuMs: number | null;
  /** The signal that killed it, if one did (e.g. SIGABRT when V8 runs out of heap). */
  signal: string | null;
  stdoutBytes: number;
  /** The last bytes of standard output (for checking a trailer). */
  tail: string;
  stderr: string;
}

const PEAK_PRELOAD = pathToFileURL(join(fileURLToPath(new URL('.', import.meta.url)), 'peak-rss.js')).href;

/**
 * Run `node [nodeFlags] script args` with `stdinFile` piped in, and watch its standard output as a
 * consumer would: when the first byte arrives, when the first row (line 3: after the GCF header and a
 * section header) is complete. The output itself is counted and dropped.
 */
export function measureChild(
  script: string,
  args: string[],
  opts: { stdinFile?: string; nodeFlags?: string[]; tmpDir: string },
): Promise<ChildRun> {
  const peakFile = join(opts.tmpDir, `peak-${process.hrtime.bigint()}`);
  const started = performance.now();
  const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), '--import', PEAK_PRELOAD, script, ...args], {
    env: { ...process.env, DEVBOY_BENCH_PEAK_FILE: peakFile },
    stdio: [opts.stdinFile ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  if (opts.stdinFile && child.stdin) {
    const input = createReadStream(opts.stdinFile);
    input.pipe(child.stdin);
    // A child that stops reading (it failed) must not crash the benchmark.
    child.stdin.on('error', () => input.destroy());
  }
  let firstByteMs: number | null = null;
  let firstRowMs: number | null = null;
  let newlines = 0;
  let stdoutBytes = 0;
  let tail = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const now = performance.now() - started;
    firstByteMs ??= now;
    if (firstRowMs === null) {
      for (const byte of chunk) if (byte === 10 && ++newlines === 3) firstRowMs = now;
    }
    stdoutBytes += chunk.length;
    tail = (tail + chunk.toString('utf8', Math.max(0, chunk.length - 200))).slice(-200);
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      const totalMs = performance.now() - started;
      let peak = { peakRssBytes: null as number | null, liveHeapMaxBytes: null as number | null, cpuMs: null as number | null };
      try {
        peak = JSON.parse(readFileSync(peakFile, 'utf8'));
        rmSync(peakFile);
      } catch {
        // killed before its exit handler ran (e.g. out of memory)
      }
      resolve({ exitCode, signal, totalMs, firstByteMs, firstRowMs, ...peak, stdoutBytes, tail, stderr });
    });
  });
}
