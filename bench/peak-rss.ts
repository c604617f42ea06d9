// Preloaded (node --import) into a measured child process. On exit it writes, as JSON, to the file
// named by DEVBOY_BENCH_PEAK_FILE: the peak resident set size the kernel counted, and the largest heap
// seen just after a full (mark-sweep) garbage collection: what was still alive. RSS alone also counts
// garbage V8 had not bothered to collect yet. null when no full collection ran. Also the CPU time the
// process used (user + system, all threads), which a loaded machine disturbs less than wall time.
import { writeFileSync } from 'node:fs';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

const file = process.env.DEVBOY_BENCH_PEAK_FILE;
if (file) {
  let liveHeapMax: number | null = null;
  let fullGcs = 0;
  const isFull = (e: PerformanceEntry) =>
    (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntries().some(isFull)) return;
    fullGcs++;
    liveHeapMax = Math.max(liveHeapMax ?? 0, process.memoryUsage().heapUsed);
  });
  observer.observe({ entryTypes: ['gc'] });
  process.on('exit', () => {
    const usage = process.resourceUsage();
    const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
    writeFileSync(file, JSON.stringify({ peakRssBytes: usage.maxRSS * 1024, liveHeapMaxBytes: liveHeapMax, fullGcs, cpuMs }));
  });
}
