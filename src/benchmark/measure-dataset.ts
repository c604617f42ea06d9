import { DataError } from '../errors.js';
import type { Format, FormatName } from '../formats/types.js';
import type { JsonValue } from '../json/types.js';
import {
  BASELINE_FORMAT,
  baselineFormatOf,
  SAVINGS_BASELINES,
  type MeasuredBaseline,
  type SavingsBaseline,
} from '../metadata/format-metadata.js';
import type { Dataset } from '../model/index.js';
import type { Tokenizer, TokenizerName } from '../tokens/types.js';
import { datasetAtLevel, type Level } from '../trim/levels.js';
import { firstResponseFit } from './fit.js';
import { measureEncoding, type Encoded } from './measure.js';
import { PageRenders, pagesAtBudget, type Pages } from './pages.js';
import type { Clock } from './phases.js';
import { buildRow } from './row.js';
import type { BenchmarkOptions } from './run.js';
import type { BenchmarkRow, DatasetEntry, FitEntry, UnmeasuredCell } from './schema.js';
import type { TimingPlan } from './timing.js';
import type { TokenCache } from './token-cache.js';

/** What every dataset of a run is measured with, loaded once per run. */
export interface RunTools {
  options: BenchmarkOptions;
  clock: Clock;
  formats: ReadonlyMap<FormatName, Format>;
  /** Every format encoded: those asked for, the savings baselines and the run's savings format. */
  measured: readonly FormatName[];
  savingsFormat: FormatName;
  tokenizers: readonly Tokenizer[];
  caches: ReadonlyMap<TokenizerName, TokenCache>;
  timing: TimingPlan;
  /** The fit view's tokenizer (the report's main one) and its memoizing count. */
  fitTokenizer: Tokenizer;
  fitCount: (text: string) => number;
}

/** What a run keeps of each dataset: counts and rows, not texts. */
export interface RunTally {
  entries: DatasetEntry[];
  rows: BenchmarkRow[];
  fit: FitEntry[];
  /** Dataset × level × format cells a format could not write, with the encoder's reason. */
  unmeasuredCells: UnmeasuredCell[];
}

/**
 * One dataset at every level: rows under every tokenizer, and its fit view. `beforeLevel` is told
 * what is about to be measured (for progress). What the dataset needed (its texts, the token
 * caches) is dropped before the next.
 */
export function measureDataset(tools: RunTools, ds: Dataset, tally: RunTally, beforeLevel: (what: string) => void): void {
  const { options, clock, formats, fitTokenizer, fitCount } = tools;
  tally.entries.push(datasetEntry(ds));
  const rawBytes = Buffer.byteLength(JSON.stringify(ds.raw));
  const fitFormat = (name: FormatName, fullText?: string, fullTokens?: number) =>
    tally.fit.push(
      clock.run('fit', () =>
        firstResponseFit(ds, formats.get(name)!, fitTokenizer, options.budget, knowing(fullText, fullTokens, fitCount), fullText),
      ),
    );
  // The formats that could not write this dataset at some level.
  const unwritten = new Set<FormatName>();
  for (const level of options.levels) {
    beforeLevel(`${ds.provider}/${ds.project} ${ds.kind} ${level}`);
    for (const name of measureLevel(tools, ds, level, rawBytes, tally, fitFormat)) unwritten.add(name);
  }
  // A format that could not write the dataset at some level has no fit: its cells say why.
  if (!options.levels.includes('full')) for (const name of options.formats) if (!unwritten.has(name)) fitFormat(name);
  // A chunk shares text with its own dataset only: what was counted for this one is dropped.
  for (const cache of tools.caches.values()) cache.clear();
}

type FitFormat = (name: FormatName, fullText?: string, fullTokens?: number) => void;

/** Rows of one level under every tokenizer; returns the formats that could not write it (listed in the tally). */
function measureLevel(tools: RunTools, ds: Dataset, level: Level, rawBytes: number, tally: RunTally, fitFormat: FitFormat): FormatName[] {
  const { options, clock, formats, measured, tokenizers, caches, timing } = tools;
  const items = datasetAtLevel(ds, level);
  const { encoded, cannot } = encodeEach(measured, formats, items, timing, clock);
  // Every row's savings are taken against the baselines: a level one of them cannot write has no rows.
  const baseline = unwritableBaseline(cannot, options.savingsBaseline);
  const written = options.formats.filter((name) => {
    const why = cannot.get(name) ?? baseline;
    if (why !== undefined) tally.unmeasuredCells.push({ ...cellOf(ds), level, format: name, reason: why });
    return why === undefined;
  });
  const tokens = new Map(
    tokenizers.map((t) => {
      // Kept for the dataset: the fit view and the baselines ask for some of them again.
      const { keep } = caches.get(t.name)!;
      return [t, new Map([...encoded].map(([name, e]) => [name, keep(e.text)] as const))] as const;
    }),
  );
  const pages = pagesOfLevel(tools, ds, items, encoded, tokens, written);
  for (const tokenizer of tokenizers) {
    const counted = tokens.get(tokenizer)!;
    tally.rows.push(...rowsOfTokenizer(tools, { ds, rawBytes, level, tokenizer, counted, encoded, pages }, written));
    // The fit view starts from the full level's text: measured here, so it is not encoded again.
    if (level === 'full' && tokenizer === tools.fitTokenizer) {
      for (const name of written) fitFormat(name, encoded.get(name)!.text, counted.get(name)!);
    }
  }
  return options.formats.filter((name) => !written.includes(name));
}

/**
 * Every format's encoding of one level's items, or why a format cannot write them (a lone surrogate
 * in TOON or GCF): `convert --to auto` passes over such a format and stats lists it; a run lists the
 * cell and measures the rest.
 */
function encodeEach(
  names: readonly FormatName[],
  formats: ReadonlyMap<FormatName, Format>,
  items: JsonValue,
  timing: TimingPlan,
  clock: Clock,
): { encoded: Map<FormatName, Encoded>; cannot: Map<FormatName, string> } {
  const encoded = new Map<FormatName, Encoded>();
  const cannot = new Map<FormatName, string>();
  for (const name of names) {
    try {
      encoded.set(name, measureEncoding(formats.get(name)!, items, timing, clock));
    } catch (err) {
      if (!(err instanceof DataError)) throw err;
      cannot.set(name, err.message);
    }
  }
  return { encoded, cannot };
}

/** Why no row of a level can be built when a savings baseline (the run's, or a JSON one every row keeps) cannot write its items. */
function unwritableBaseline(cannot: ReadonlyMap<FormatName, string>, savingsBaseline: MeasuredBaseline): string | undefined {
  const baselines = [...new Set<MeasuredBaseline>([savingsBaseline, ...SAVINGS_BASELINES])];
  const stuck = baselines.find((b) => cannot.has(baselineFormatOf(b)));
  return stuck === undefined ? undefined : `the savings baseline ${stuck} cannot write it: ${cannot.get(baselineFormatOf(stuck))!}`;
}

function cellOf(ds: Dataset): Omit<UnmeasuredCell, 'level' | 'format' | 'reason'> {
  return { provider: ds.provider, project: ds.project, dataset: ds.kind, label: ds.label };
}

/**
 * Pages format by format, so that the tokenizers' plans share one format's chunk texts and page
 * checks, which are dropped before the next format's.
 */
function pagesOfLevel(
  tools: RunTools,
  ds: Dataset,
  items: JsonValue[],
  encoded: ReadonlyMap<FormatName, Encoded>,
  tokens: ReadonlyMap<Tokenizer, ReadonlyMap<FormatName, number>>,
  written: readonly FormatName[],
): Map<FormatName, Map<Tokenizer, Pages>> {
  const { options, clock, tokenizers, caches } = tools;
  // The planner's size guesses: the same for every format and tokenizer, computed when a list needs pages.
  let sizes: number[] | undefined;
  const sizesOf = () => (sizes ??= items.map((v) => Buffer.byteLength(JSON.stringify(v))));
  const pages = new Map<FormatName, Map<Tokenizer, Pages>>();
  for (const format of written) {
    const e = encoded.get(format)!;
    const renders = new PageRenders(e.format, items);
    const byTokenizer = new Map<Tokenizer, Pages>();
    for (const tokenizer of tokenizers) {
      byTokenizer.set(
        tokenizer,
        clock.run('pages', () =>
          pagesAtBudget({
            kind: ds.kind,
            items,
            text: e.text,
            models: ds.result.items,
            budget: options.budget,
            format: e.format,
            tokenizer,
            count: knowing(e.text, tokens.get(tokenizer)!.get(format)!, caches.get(tokenizer.name)!.count),
            sizes: sizesOf,
            renders,
            // A list that does not round-trip whole makes a lossy row whatever its pages do.
            checkPages: e.lossless,
          }),
        ),
      );
    }
    pages.set(format, byTokenizer);
  }
  return pages;
}

interface LevelUnderTokenizer {
  ds: Dataset;
  rawBytes: number;
  level: Level;
  tokenizer: Tokenizer;
  /** Tokens of every measured format's text under `tokenizer`. */
  counted: ReadonlyMap<FormatName, number>;
  encoded: ReadonlyMap<FormatName, Encoded>;
  pages: ReadonlyMap<FormatName, ReadonlyMap<Tokenizer, Pages>>;
}

/** One row per asked format that could write the level's items, under one tokenizer. */
function rowsOfTokenizer(tools: RunTools, l: LevelUnderTokenizer, written: readonly FormatName[]): BenchmarkRow[] {
  const { options, savingsFormat } = tools;
  const { counted, tokenizer } = l;
  const baselineTokens = {
    ...(Object.fromEntries(SAVINGS_BASELINES.map((b) => [b, counted.get(BASELINE_FORMAT[b])!])) as Record<SavingsBaseline, number>),
    [options.savingsBaseline]: counted.get(savingsFormat)!,
  };
  return written.map((format) => {
    const e = l.encoded.get(format)!;
    const { pages: n, loss, report } = l.pages.get(format)!.get(tokenizer)!;
    return buildRow({
      dataset: l.ds,
      rawBytes: l.rawBytes,
      level: l.level,
      format,
      // The whole list round-trips, yet a page may not: then the row is not lossless either.
      encoded: loss && e.lossless ? { ...e, lossless: false, reason: loss, ...(report ? { loss: report } : {}) } : e,
      tokenizer: tokenizer.name,
      tokens: counted.get(format)!,
      baselineTokens,
      pages: n,
      savingsBaseline: options.savingsBaseline,
      dedup: options.session?.dedup[format]?.[tokenizer.name] ?? 0,
    });
  });
}

/** A count that already knows one text's answer (the whole list the planner starts from). */
function knowing(text: string | undefined, tokens: number | undefined, count: (t: string) => number): (t: string) => number {
  return text === undefined || tokens === undefined ? count : (t) => (t === text ? tokens : count(t));
}

function datasetEntry(ds: Dataset): DatasetEntry {
  return {
    provider: ds.provider,
    project: ds.project,
    dataset: ds.kind,
    label: ds.label,
    items: ds.result.items.length,
    pagination: ds.result.pagination ?? null,
    sort: ds.result.sort_info ?? null,
  };
}
