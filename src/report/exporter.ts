import type { BenchmarkResult } from '../benchmark/schema.js';
import type { Comparison } from '../compare/compare.js';

/** What a benchmark exporter renders: a result, and its comparison with a baseline when there was one. */
export interface ReportInput {
  result: BenchmarkResult;
  comparison?: Comparison;
}

export interface RenderOptions {
  /** ANSI emphasis (a terminal that is a TTY, NO_COLOR unset). */
  color?: boolean;
  /** Every dataset and every lossy cell, not only the summary (the table's `--details`). */
  details?: boolean;
  /** Columns the terminal has (tables fold to fit); `--details` tables may be wider. */
  width?: number;
  /** The most characters a Markdown comparison may take (default: GitHub's comment limit, 65,536). */
  maxChars?: number;
  /** Where the full comparison is when the Markdown one had to be cut (a CI run's URL, an artifact's name). */
  fullReport?: string;
}

/**
 * One way to show a result (as hyperfine keeps its exporters): input in, text out. Exporters
 * measure nothing and print nothing; the command decides where the text goes. Benchmark results
 * (`ReportInput`) and comparisons (`Comparison`) each have their own map of exporters.
 */
export interface Exporter<Input = ReportInput> {
  name: string;
  /** What it is for, for help texts. */
  description: string;
  /** File extension of its output, with the dot. */
  extension: string;
  render(input: Input, options?: RenderOptions): string;
  /** render's text in consecutive pieces, for output too large to hold whole (a large corpus's JSON). */
  pieces?(input: Input): Iterable<string>;
}
