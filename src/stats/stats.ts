import { DataError } from '../errors.js';
import { FORMAT_NAMES, loadFormats, type FormatName, type FormatOptions } from '../formats/registry.js';
import type { LossReport } from '../formats/loss.js';
import type { InputFormatName } from '../formats/detect.js';
import type { Input } from '../io/read-input.js';
import { isJsonObject, type JsonValue } from '../json/types.js';
import { baselineFormatOf, roundFraction, savingAgainst, type MeasuredBaseline } from '../metadata/format-metadata.js';
import type { DatasetKind, ModelItem } from '../model/index.js';
import { leftOutList, readResponse, type LeftOutList, type ResponseItems } from '../providers/response.js';
import { loadTokenizer } from '../tokens/registry.js';
import type { Tokenizer, TokenizerName } from '../tokens/types.js';
import { itemsAtLevel, DETAIL_LEVELS, type Level } from '../trim/levels.js';
import { readValue } from '../convert/convert.js';
import { rankLossless } from '../formats/rank.js';
import { measureEncoding, type Encoded } from '../benchmark/measure.js';
import { pagesAtBudget } from '../benchmark/pages.js';
import type { Timing } from '../benchmark/schema.js';
import { TokenCache } from '../benchmark/token-cache.js';
import { tokenizerImplementation } from '../benchmark/versions.js';
import { devboyVersion } from '../versions.js';
import type { Explainer } from '../formats/explainers.js';
import { countExplainers, type BreakEvenEntry, type ExplainerEntry } from '../benchmark/break-even.js';
import type { WinnerEntry } from '../benchmark/families.js';
import { familyViewsOfCounts, type MeasuredCounts } from '../benchmark/input-families.js';

export const STATS_SCHEMA = 'devboy.stats/1';

export interface StatsRequest {
  input: Input;
  from?: InputFormatName;
  /**
   * Measure the provider items the input holds (at every level), not the whole input as given (the
   * default, what `convert --to auto` chooses for). `kind` implies it.
   */
  items?: boolean;
  /** Narrows what a provider response is read as (e.g. a Jira issue's comments). */
  kind?: DatasetKind;
  tokenizers: TokenizerName[];
  budget: number;
  runs: number;
  savingsBaseline: MeasuredBaseline;
  formatOptions?: FormatOptions;
  /** The prompts that teach each format, for the break-even (none: no break-even). */
  explainers?: readonly Explainer[];
}

export interface StatsRow {
  level: Level;
  format: FormatName;
  tokenizer: TokenizerName;
  tokens: number;
  bytes: number;
  /** Tokens saved against the savings baseline (same level and tokenizer): 0.1 = 10% fewer, negative = more. */
  saving: number;
  /** Responses of at most `budget` tokens an agent reads to see every item; 1 for a value that is no list and fits. */
  pages: number | null;
  lossless: boolean;
  reason?: string;
  /** When not lossless: the share of leaf values that did not come back the same, and where (src/formats/loss.ts). */
  loss?: LossReport;
  encode: Timing;
  decode: Timing;
}

/** What was measured: the whole input as given (the default), or the provider items it holds (`--items`). */
export type Measured = 'input' | 'items';

export interface Recommendation {
  /** For what it was chosen: the whole input as given, or its provider items as sent. */
  measured: Measured;
  tokenizer: TokenizerName;
  estimate: boolean;
  level: Level;
  format: FormatName;
  tokens: number;
  baseline: { name: MeasuredBaseline; tokens: number };
  /** Against the baseline, as in the rows. */
  saving: number;
  runner_up?: { format: FormatName; tokens: number };
  /** Tool results like this one after which the format's saving repays its explainer; null: never; absent: JSON needs none. */
  break_even?: { explainer_tokens: number; results: number | null };
}

export interface StatsResult {
  schema: typeof STATS_SCHEMA;
  devboy: string;
  input: {
    file: string;
    format: InputFormatName;
    bytes: number;
    /** `input`: the whole input as given; `items`: the provider items it holds, at every level (--items). */
    measured: Measured;
    /** What the value was recognised as (e.g. "GitHub issues"); null when it is not a provider's items. */
    shape: string | null;
    /** Why it is not a provider's items, when it is not. */
    note?: string;
    kind: DatasetKind | null;
    items: number | null;
    /**
     * Items of another kind the input holds beside those (a GitHub issues list's pull requests): a
     * list of their own that `--items` leaves out, and the `--type` that measures them instead.
     */
    left_out?: LeftOutList;
  };
  settings: { budget: number; runs: number; savings_baseline: MeasuredBaseline; levels: Level[]; formats: FormatName[] };
  tokenizers: { name: TokenizerName; estimate: boolean; implementation: string }[];
  rows: StatsRow[];
  /** Formats that cannot write the value at a level (e.g. a lone surrogate in TOON or GCF): no row, a reason. */
  unmeasured: { level: Level; format: FormatName; reason: string }[];
  recommendation: Recommendation;
  /** Per level: the fewest-token lossless format under each tokenizer, and whether real tokenizers disagree. */
  winner_by_tokenizer: WinnerEntry[];
  /** The prompts that teach each format, counted under every tokenizer. */
  explainers: ExplainerEntry[];
  /** Per level, format and tokenizer: results like this input after which the explainer is repaid. */
  break_even: BreakEvenEntry[];
}

interface LevelValue {
  level: Level;
  value: JsonValue;
  models?: readonly ModelItem[];
}

/**
 * `devboy stats`: one input in every format under every tokenizer, and the format to use. The input
 * is the whole input as given, as `convert --to auto` reads it; with `items` (or a `kind`), the
 * provider items it holds instead, at every detail level.
 */
export async function computeStats(req: StatsRequest): Promise<StatsResult> {
  const { from, value } = await readValue(req.input, req.from, req.formatOptions);
  const { measured, recognised, read, levels } = whatToMeasure(req, value);
  const formats = await loadFormats(FORMAT_NAMES, req.formatOptions);
  const tokenizers = await Promise.all(req.tokenizers.map((n) => loadTokenizer(n)));
  const caches = new Map(tokenizers.map((t) => [t.name, new TokenCache(t)]));
  const rows: StatsRow[] = [];
  const unmeasured: StatsResult['unmeasured'] = [];
  const kind = measured === 'items' ? read?.kind : undefined;
  for (const lv of levels) {
    const encoded: Encoded[] = [];
    for (const f of formats) {
      const e = measureOrExplain(f, lv.value, req.runs);
      if ('cannot' in e) unmeasured.push({ level: lv.level, format: f.name, reason: e.cannot });
      else encoded.push(e);
    }
    for (const tokenizer of tokenizers) {
      const { count } = caches.get(tokenizer.name)!;
      const baselineTokens = count(encoded.find((e) => e.format.name === baselineFormatOf(req.savingsBaseline))!.text);
      for (const e of encoded) rows.push(statsRow(e, lv, { kind, tokenizer, count, baselineTokens, req, items: measured === 'items' }));
    }
  }
  const main = tokenizers.find((t) => !t.estimate) ?? tokenizers[0]!;
  const explainers = req.explainers?.length ? countExplainers(req.explainers, tokenizers) : [];
  const views = levels.map((lv) => familyViewsOfCounts(countsAt(rows, lv.level, tokenizers, req, explainers)));
  const break_even = views.flatMap((v) => v.break_even);
  const recommendation = recommend(rows, main, req.savingsBaseline, req.input.name, measured);
  const repaid = break_even.find((b) => b.level === 'raw' && b.format === recommendation.format && b.tokenizer === main.name);
  return {
    schema: STATS_SCHEMA,
    devboy: devboyVersion(),
    input: {
      file: req.input.name,
      format: from,
      bytes: Buffer.byteLength(req.input.text),
      measured,
      shape: read?.shape ?? null,
      ...('note' in recognised ? { note: recognised.note } : {}),
      kind: read?.kind ?? null,
      items: read ? read.items.length : null,
      ...(read && leftOutList(read) ? { left_out: leftOutList(read)! } : {}),
    },
    settings: {
      budget: req.budget,
      runs: req.runs,
      savings_baseline: req.savingsBaseline,
      levels: levels.map((l) => l.level),
      formats: formats.map((f) => f.name),
    },
    tokenizers: tokenizers.map((t) => ({ name: t.name, estimate: t.estimate, implementation: tokenizerImplementation(t.name) })),
    rows,
    unmeasured,
    recommendation: repaid
      ? { ...recommendation, break_even: { explainer_tokens: repaid.explainer_tokens, results: repaid.break_even } }
      : recommendation,
    winner_by_tokenizer: views.flatMap((v) => v.winner_by_tokenizer),
    explainers,
    break_even,
  };
}

/** The whole input as given (one `raw` level), or with `items` (or a `kind`) the provider items it holds at every level. */
function whatToMeasure(
  req: StatsRequest,
  value: JsonValue,
): { measured: Measured; recognised: { read: ResponseItems } | { note: string }; read: ResponseItems | undefined; levels: LevelValue[] } {
  const measured: Measured = req.items || req.kind !== undefined ? 'items' : 'input';
  // Asked for items: not reading the input as a provider's is the error. As given: only a description.
  const recognised = measured === 'items' ? { read: readResponse(value, req.input.name, req.kind) } : recognise(value, req.input.name);
  const read = 'read' in recognised ? recognised.read : undefined;
  const levels: LevelValue[] =
    measured === 'items' && read
      ? [
          { level: 'raw', value: read.raw, ...(read.rawAligned ? { models: read.items } : {}) },
          ...DETAIL_LEVELS.map((level) => ({ level, value: itemsAtLevel(read, level) as JsonValue, models: read.items })),
        ]
      : [{ level: 'raw', value }];
  return { measured, recognised, read, levels };
}

interface RowContext {
  /** The items' kind when the provider items are measured (for the chunk index), else none. */
  kind: DatasetKind | undefined;
  tokenizer: Tokenizer;
  count: (text: string) => number;
  baselineTokens: number;
  req: StatsRequest;
  items: boolean;
}

/** One format's row at a level under one tokenizer: its tokens, saving and pages, lossless only if its pages are too. */
function statsRow(e: Encoded, lv: LevelValue, c: RowContext): StatsRow {
  const tokens = c.count(e.text);
  const pages = pagesOf(e, lv, c.kind, c.tokenizer, c.req.budget, c.count, c.items);
  const lossless = e.lossless && !pages.loss;
  return {
    level: lv.level,
    format: e.format.name,
    tokenizer: c.tokenizer.name,
    tokens,
    bytes: e.bytes,
    saving: roundFraction(savingAgainst(tokens, c.baselineTokens)),
    pages: pages.pages,
    lossless,
    ...(e.reason || pages.loss ? { reason: e.reason ?? pages.loss } : {}),
    ...(e.loss ? { loss: e.loss } : pages.report ? { loss: pages.report } : {}),
    encode: e.encode,
    decode: e.decode,
  };
}

/** One level's counts as plain numbers, for the family views the benchmark report uses too. */
function countsAt(
  rows: readonly StatsRow[],
  level: Level,
  tokenizers: readonly Tokenizer[],
  req: StatsRequest,
  explainers: readonly ExplainerEntry[],
): MeasuredCounts {
  const at = rows.filter((r) => r.level === level);
  const counts: MeasuredCounts['counts'] = {};
  const lossless: MeasuredCounts['lossless'] = {};
  for (const r of at) {
    (counts[r.tokenizer] ??= {})[r.format] = r.tokens;
    lossless[r.format] = (lossless[r.format] ?? true) && r.lossless;
  }
  return {
    label: req.input.name,
    level,
    counts,
    lossless,
    tokenizers: tokenizers.map((t) => ({ name: t.name, estimate: t.estimate })),
    baseline: req.savingsBaseline,
    ...(explainers.length ? { explainers } : {}),
  };
}

/** What the input holds, to describe it: a provider's items when it is one (the rule `devboy format` and the benchmark share), else why not. */
function recognise(value: JsonValue, file: string): { read: ResponseItems } | { note: string } {
  try {
    return { read: readResponse(value, file) };
  } catch (err) {
    if (!(err instanceof DataError)) throw err;
    const exchange = isJsonObject(value) && isJsonObject(value['request']) && isJsonObject(value['response']);
    return { note: exchange ? `a recorded exchange, ${err.message}` : 'not a provider response' };
  }
}

/**
 * One format's encoding of the value, timed; or, when it cannot write it (a lone surrogate in TOON or
 * GCF), why: `convert --to auto` passes over such a format, and stats lists it instead of failing.
 */
function measureOrExplain(format: Encoded['format'], value: JsonValue, runs: number): Encoded | { cannot: string } {
  try {
    // One input: exactly --runs timed runs (no time budget).
    return measureEncoding(format, value, { maxRuns: runs, budgetMs: 0 });
  } catch (err) {
    return { cannot: `cannot encode as ${format.name}: ${(err as Error).message}` };
  }
}

function pagesOf(
  e: Encoded,
  lv: LevelValue,
  kind: DatasetKind | undefined,
  tokenizer: Tokenizer,
  budget: number,
  count: (text: string) => number,
  checkPages: boolean,
): { pages: number | null; loss?: string; report?: LossReport } {
  if (!Array.isArray(lv.value)) return { pages: count(e.text) <= budget ? 1 : null };
  return pagesAtBudget({
    // As given, a row round-trips when the whole text does (what convert writes and --to auto
    // checks); page by page only for provider items, which devboy format pages.
    checkPages,
    ...(kind ? { kind } : {}),
    items: lv.value,
    text: e.text,
    ...(lv.models ? { models: lv.models } : {}),
    budget,
    format: e.format,
    tokenizer,
    count,
  });
}

/**
 * The lossless format with the fewest tokens under the main tokenizer (the first real one asked
 * for), at level raw (the input as given, or the items as sent), ranked as `convert --to auto` ranks:
 * a baseline (YAML, CSV, Markdown, XML) is measured and listed, never recommended.
 */
export function recommend(
  rows: readonly StatsRow[],
  main: Tokenizer,
  baseline: MeasuredBaseline,
  file: string,
  measured: Measured,
): Recommendation {
  const at = rows.filter((r) => r.level === 'raw' && r.tokenizer === main.name);
  const ranked = rankLossless(at);
  const best = ranked[0];
  if (!best) throw new DataError('no format round-trips this input', { file });
  const base = at.find((r) => r.format === baselineFormatOf(baseline))!;
  const next = ranked[1];
  return {
    measured,
    tokenizer: main.name,
    estimate: main.estimate,
    level: 'raw',
    format: best.format,
    tokens: best.tokens,
    baseline: { name: baseline, tokens: base.tokens },
    saving: best.saving,
    ...(next ? { runner_up: { format: next.format, tokens: next.tokens } } : {}),
  };
}
