import type { RegressionReport } from '../benchmark/regression.js';
import type { BenchmarkResult } from '../benchmark/schema.js';

/** What an exporter renders: a benchmark result, and the regression gate's verdict when there was one. */
export interface ReportInput {
  result: BenchmarkResult;
  regression?: RegressionReport;
}

export interface RenderOptions {
  /** ANSI emphasis (a terminal that is a TTY, NO_COLOR unset). */
  color?: boolean;
}

/**
 * One way to show a result (as hyperfine keeps its exporters): result in, text out. Exporters
 * measure nothing and print nothing; the command decides where the text goes.
 */
export interface Exporter {
  name: string;
  /** What it is for, for help texts. */
  description: string;
  /** File extension of its output, with the dot. */
  extension: string;
  render(input: ReportInput, options?: RenderOptions): string;
}
