/** What a benchmark run spends its time on (`npm run bench`'s matrix section prints the shares). */
export const PHASES = ['load', 'encode', 'decode', 'verify', 'timing', 'tokenize', 'pages', 'fit', 'other'] as const;
export type Phase = (typeof PHASES)[number];

/**
 * Exclusive wall time per phase: time inside a nested phase (a count inside the page planner) is
 * the inner phase's, not the outer's. A run without a clock pays nothing for the accounting.
 */
export class PhaseClock {
  readonly totals: Record<Phase, number> = Object.fromEntries(PHASES.map((p) => [p, 0])) as Record<Phase, number>;
  private current: Phase = 'other';
  private readonly stack: Phase[] = [];
  private since: number;

  /** `now`: milliseconds of wall time by default; a process CPU-time clock works too (a loaded machine). */
  constructor(private readonly now: () => number = () => performance.now()) {
    this.since = now();
  }

  run<T>(phase: Phase, fn: () => T): T {
    this.enter(phase);
    try {
      return fn();
    } finally {
      this.exit();
    }
  }

  async runAsync<T>(phase: Phase, fn: () => Promise<T>): Promise<T> {
    this.enter(phase);
    try {
      return await fn();
    } finally {
      this.exit();
    }
  }

  /** Totals so far, including the phase still running. */
  snapshot(): Record<Phase, number> {
    const now = this.now();
    return { ...this.totals, [this.current]: this.totals[this.current] + (now - this.since) };
  }

  private enter(phase: Phase): void {
    const now = this.now();
    this.totals[this.current] += now - this.since;
    this.stack.push(this.current);
    this.current = phase;
    this.since = now;
  }

  private exit(): void {
    const now = this.now();
    this.totals[this.current] += now - this.since;
    this.current = this.stack.pop() ?? 'other';
    this.since = now;
  }
}

/** The clock of a run that is not being profiled. */
export const NO_CLOCK = {
  run: <T>(_phase: Phase, fn: () => T): T => fn(),
  runAsync: <T>(_phase: Phase, fn: () => Promise<T>): Promise<T> => fn(),
};

export type Clock = Pick<PhaseClock, 'run' | 'runAsync'>;
