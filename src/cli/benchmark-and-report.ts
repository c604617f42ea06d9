import { parseBenchmarkResult } from '../benchmark/read-result.js';
import { runBenchmark, type BenchmarkOptions } from '../benchmark/run.js';
import type { BenchmarkResult } from '../benchmark/schema.js';
import { loadBenchmarkData, type SourceRequest } from '../benchmark/source.js';
import { loadPipelineConfig } from '../budget/strategies/config.js';
import { compareResults, type Comparison } from '../compare/compare.js';
import { loadExplainers } from '../formats/explainers.js';
import type { FormatName } from '../formats/types.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { resolveOutputTarget } from '../io/output-target.js';
import { readInput } from '../io/read-input.js';
import type { SavingsBaseline } from '../metadata/format-metadata.js';
import { COMPARE_EXPORTERS, EXPORTERS, type ExporterName, type RenderOptions, type ReportInput } from '../report/index.js';
import type { TokenizerName } from '../tokens/types.js';

/** `devboy benchmark` with its flags parsed and checked: what to measure, where from, and where each report goes. */
export interface BenchmarkRequest {
  source: SourceRequest;
  /** What to measure; the explainers and the session's dedup are read here. */
  measure: Omit<BenchmarkOptions, 'explainers' | 'session' | 'clock' | 'formatOptions'>;
  /** devboy.toml whose [format_explainers] replace the prompts that teach each format (default: ./devboy.toml if present). */
  config?: string | undefined;
  /** An agent session (a transcript, devboy JSONL or a proxy ledger) for the dedup column. */
  session?: string | undefined;
  /** A saved result to compare the run with, and the largest token growth it tolerates (a fraction). */
  baseline?: string | undefined;
  maxRegression: number;
  /** Files a report is written to, atomically, in this order. */
  exports: { file: string; exporter: ExporterName }[];
  /** The report on stdout, and how the table and the Markdown report render. */
  print: 'json' | 'markdown' | 'table';
  render: RenderOptions;
  /** Skipped corpus recordings fail the run unless allowed (they are listed either way). */
  allowSkipped: boolean;
  progress?: { update(done: number, total: number, what: string): void; done(): void };
}

/** What the command writes: stdout's report in pieces (a large corpus's JSON is tens of megabytes), stderr's notes, the exit code. */
export interface BenchmarkOutcome {
  stdout: Iterable<string>;
  stderr: string[];
  exitCode: 0 | 1;
}

/**
 * A benchmark as `devboy benchmark` runs it: the inputs checked first, the data read, every
 * dataset measured, compared with `--baseline`, and each report exported; the library prints
 * nothing, so what goes to the terminal is returned.
 */
export async function benchmarkAndReport(req: BenchmarkRequest): Promise<BenchmarkOutcome> {
  const { explainers, baseline, session } = await readInputsFirst(req);
  const { datasets, source } = await loadBenchmarkData(req.source);
  const result = await runBenchmark(datasets, source, { ...req.measure, explainers, ...(session ? { session } : {}) }, (p) =>
    req.progress?.update(p.done, p.total, p.what),
  );
  req.progress?.done();
  const comparison =
    baseline && req.baseline
      ? compareResults({ file: req.baseline, result: baseline }, { file: 'this run', result }, { maxRegression: req.maxRegression })
      : undefined;
  const input: ReportInput = { result, ...(comparison ? { comparison } : {}) };
  for (const { file, exporter } of req.exports) await writeFileAtomic(file, piecesOf(exporter, input), { createFolders: true });
  return {
    stdout: req.print === 'json' ? piecesOf('json', input) : [EXPORTERS[req.print].render(input, req.render)],
    ...verdict(req, result, comparison),
  };
}

/** The output paths, the explainers, the baseline and the session, read first: a typo in any of them should not cost a whole run. */
async function readInputsFirst(req: BenchmarkRequest) {
  for (const { file } of req.exports) await resolveOutputTarget(file, { createFolders: true });
  const { formats, tokenizers, savingsBaseline } = req.measure;
  const explainers = await loadExplainers(formats, (await loadPipelineConfig(req.config)).explainers);
  const baselineInput = req.baseline ? await readInput(req.baseline) : undefined;
  const baseline = baselineInput ? parseBenchmarkResult(baselineInput.text, baselineInput.name) : undefined;
  const session = req.session ? await sessionDedup(req.session, formats, tokenizers, savingsBaseline as SavingsBaseline) : undefined;
  return { explainers, baseline, session };
}

/** In pieces where the exporter has them: on a large corpus the JSON is tens of megabytes. */
function piecesOf(name: ExporterName, input: ReportInput): Iterable<string> {
  return EXPORTERS[name].pieces?.(input) ?? [EXPORTERS[name].render(input)];
}

/** Exit 1 on a failed comparison or skipped recordings (unless allowed), with what stderr says about them. */
function verdict(req: BenchmarkRequest, result: BenchmarkResult, comparison: Comparison | undefined): Omit<BenchmarkOutcome, 'stdout'> {
  const stderr: string[] = [];
  let exitCode: 0 | 1 = 0;
  // JSON on stdout is for machines; the comparison still reaches the person reading the log.
  if (req.print === 'json' && comparison)
    stderr.push(COMPARE_EXPORTERS.table.render(comparison, req.render.width !== undefined ? { width: req.render.width } : {}));
  if (comparison && !comparison.passed) exitCode = 1;
  const skipped = result.skipped?.length ?? 0;
  if (skipped > 0 && !req.allowSkipped) {
    stderr.push(
      `devboy benchmark: ${skipped} corpus recording${skipped === 1 ? ' was' : 's were'} skipped (listed in the report); --allow-skipped accepts a partial corpus\n`,
    );
    exitCode = 1;
  }
  return { stderr, exitCode };
}

/** `--session`: a proxy ledger is summed; a transcript is played back once per format and tokenizer. */
async function sessionDedup(file: string, formats: FormatName[], tokenizers: TokenizerName[], baseline: SavingsBaseline) {
  const [{ parseTranscript }, { transcriptDedupForBenchmark, ledgerDedupForBenchmark }, ledger] = await Promise.all([
    import('../transcript/load.js'),
    import('../benchmark/transcript-dedup.js'),
    import('../proxy/ledger.js'),
  ]);
  const input = await readInput(file);
  if (ledger.isLedgerText(input.text)) {
    const { header, calls } = ledger.parseLedger(input.text, input.name);
    const { summarizeLedger } = await import('../proxy/summary.js');
    return ledgerDedupForBenchmark(input.name, summarizeLedger(header, calls), formats);
  }
  const loaded = { ...parseTranscript(input.text, 'auto', input.name), name: input.name };
  return transcriptDedupForBenchmark(loaded.name, loaded.entries, formats, tokenizers, baseline);
}
