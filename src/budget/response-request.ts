import type { Input } from '../io/read-input.js';
import { parseJson } from '../json/parse.js';
import type { SavingsBaseline } from '../metadata/format-metadata.js';
import { loadFormat, type FormatName } from '../formats/registry.js';
import { leftOutList, readResponse, type LeftOutList } from '../providers/response.js';
import type { DatasetKind } from '../model/index.js';
import { loadTokenizer, type TokenizerName } from '../tokens/registry.js';
import { respondWithinBudget, type BudgetResult } from './respond-within-budget.js';
import { resolveStrategy, type Resolution } from './strategies/resolver.js';
import type { StrategyName } from './strategies/strategy.js';

export interface ResponseRequest {
  input: Input;
  to: FormatName;
  tokenizer: TokenizerName;
  budget?: number;
  /** Use this strategy, whatever the resolver says. */
  strategy?: StrategyName;
  /** Tool or dataset name the resolver maps to a strategy; default: the kind of the items. */
  tool?: string;
  /** `[format_pipeline.strategies]` of devboy.toml. */
  overrides?: Readonly<Record<string, StrategyName>>;
  kind?: DatasetKind;
  chunk?: number;
  hint?: string;
  baseline?: SavingsBaseline;
  /** Counts tokens (default: the tokenizer's own count); pass a memoizing one to share counts. */
  count?: (text: string) => number;
}

export interface ResponseOutcome extends BudgetResult {
  kind: DatasetKind;
  /** What the input was recognised as. */
  shape: string;
  resolution: Resolution | { strategy: StrategyName; by: 'flag'; name: string };
  /**
   * Items the input held that are a list of another kind, left out of this one (a GitHub issues
   * list's pull requests): how many, what they are, and the `--type` that formats them instead.
   */
  leftOut?: LeftOutList;
}

/** `devboy format`: parse, recognise, pick the strategy, run the budget pipeline. */
export async function buildResponse(req: ResponseRequest): Promise<ResponseOutcome> {
  const value = parseJson(req.input.text, req.input.name);
  const read = readResponse(value, req.input.name, req.kind);
  const name = req.tool ?? read.kind;
  const resolution = req.strategy ? { strategy: req.strategy, by: 'flag' as const, name } : resolveStrategy(name, req.overrides);
  const [format, tokenizer] = await Promise.all([loadFormat(req.to), loadTokenizer(req.tokenizer)]);
  const result = respondWithinBudget(read, {
    format,
    tokenizer,
    strategy: resolution.strategy,
    ...(req.budget !== undefined ? { budget: req.budget } : {}),
    ...(req.chunk !== undefined ? { chunk: req.chunk } : {}),
    ...(req.hint ? { hint: req.hint } : {}),
    ...(req.baseline ? { baseline: req.baseline } : {}),
    ...(req.count ? { count: req.count } : {}),
  });
  const leftOut = leftOutList(read);
  return { ...result, kind: read.kind, shape: read.shape, resolution, ...(leftOut ? { leftOut } : {}) };
}
