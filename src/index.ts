/**
 * devboy as a library: what the CLI measures and converts, for tools that want it in their own
 * process (an MCP proxy, an agent framework, a CI script). This file is the whole public API
 * (docs/library.md); anything not exported here is internal and may change in any release.
 *
 * Formats and tokenizers load lazily (their libraries and vocabularies are large), hence the
 * promises; a loaded `Format` or `Tokenizer` is synchronous.
 */
import { loadFormat, type FormatName, type FormatOptions } from './formats/registry.js';
import type { JsonValue } from './json/types.js';
import { DEFAULT_TOKENIZER, loadTokenizer, type TokenizerName } from './tokens/registry.js';

// Formats: encode, decode, and the round-trip check `devboy convert --verify` makes.
export { FORMAT_INFO, FORMAT_NAMES, loadFormat, type Format, type FormatName, type FormatOptions } from './formats/registry.js';
export type { FormatInfo } from './formats/types.js';
export { verifyRoundTrip, type RoundTrip } from './formats/verify.js';
export { convert, type ConvertRequest, type ConvertResult } from './convert/convert.js';
export { parseJson } from './json/parse.js';
export type { JsonArray, JsonObject, JsonPrimitive, JsonValue } from './json/types.js';

// Tokenizers: real BPE (o200k_base, cl100k_base, model families installed on demand) and the heuristic.
export { DEFAULT_TOKENIZER, loadTokenizer, TOKENIZER_NAMES, type Tokenizer, type TokenizerName } from './tokens/registry.js';

// Levels of detail and the normalized model of provider items.
export { DETAIL_LEVELS, itemsAtLevel, LEVELS, type DetailLevel, type Level } from './trim/levels.js';
export type {
  Comment,
  DatasetKind,
  Discussion,
  FileDiff,
  Issue,
  ItemList,
  MergeRequest,
  Pagination,
  ProviderResult,
  SortInfo,
  User,
} from './model/index.js';

// Responses within a token budget (`devboy format`): trimmed, chunked, with a chunk index.
export { buildResponse, type ResponseOutcome, type ResponseRequest } from './budget/response-request.js';
export {
  budgetResponses,
  respondWithinBudget,
  type BudgetInput,
  type BudgetOptions,
  type BudgetResponses,
  type BudgetResult,
} from './budget/respond-within-budget.js';

// Savings accounting: the 19 FormatMetadata fields, combined = dedup + (1 - dedup) * encoder.
export {
  buildFormatMetadata,
  combineSavings,
  FORMAT_METADATA_FIELDS,
  type FormatMetadata,
  type MetadataFacts,
  type SavingsBaseline,
} from './metadata/format-metadata.js';

// Benchmark results and the regression gate (`devboy compare`).
export type { BenchmarkResult, BenchmarkRow } from './benchmark/schema.js';
export { compareResults, DEFAULT_MAX_REGRESSION, type Comparison, type NamedResult } from './compare/compare.js';

// Errors: every failure devboy reports is one of these, with a one-line message (`oneLine()`).
export { DataError, DevboyError, UsageError } from './errors.js';

/** `value` encoded in `format` (any of `FORMAT_NAMES`); an unknown name is a UsageError listing them. */
export async function encode(value: JsonValue, format: FormatName, options: FormatOptions = {}): Promise<string> {
  return (await loadFormat(format, options)).encode(value);
}

/** `text` decoded from `format` (any of `FORMAT_NAMES`) to a JSON value. */
export async function decode(text: string, format: FormatName, options: FormatOptions = {}): Promise<JsonValue> {
  return (await loadFormat(format, options)).decode(text);
}

/** Tokens of `text` under `tokenizer` (o200k_base unless named); the heuristic is an estimate and says so in its name. */
export async function countTokens(text: string, tokenizer: TokenizerName = DEFAULT_TOKENIZER): Promise<number> {
  return (await loadTokenizer(tokenizer)).count(text);
}
