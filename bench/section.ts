/**
 * A benchmark section: one question `npm run bench` answers. Add a section by writing a module that
 * exports one of these and listing it in run.ts. Timings and memory belong here, never in tests, and
 * each figure is reported next to a reference measured in the same run.
 */
export interface BenchSection {
  name: string;
  /** One line: what it measures and against what. */
  description: string;
  run(context: BenchContext): Promise<BenchOutcome>;
}

export interface BenchContext {
  /** Arguments after `npm run bench --` that no section owns, as name -> value. */
  options: Map<string, string>;
  /** Scratch directory, removed after the run. */
  tmpDir: string;
  /** Progress lines go to stderr, so stdout stays the report. */
  log(line: string): void;
}

export interface BenchOutcome {
  /** The human-readable table for stdout. */
  text: string;
  /** The same figures as data, for `--out results.json`. */
  data: unknown;
}
