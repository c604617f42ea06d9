import { FORMAT_NAMES } from '../formats/types.js';
import { isJsonObject } from '../json/types.js';
import { MEASURED_BASELINES } from '../metadata/format-metadata.js';
import { DATASET_KINDS } from '../model/kinds.js';
import { PROVIDER_NAMES } from '../providers/registry.js';
import { TOKENIZER_NAMES } from '../tokens/types.js';
import { LEVELS } from '../trim/levels.js';
import { UNMEASURED_CAUSES } from '../replay/corpus.js';
import { cellKey, rowKey, type BenchmarkResult, type BenchmarkRow } from './schema.js';

/**
 * A saved result checked against its schema (docs/benchmark-schema.md, src/benchmark/schema.ts)
 * before compare or merge does anything with it: a count that is negative or not a whole number,
 * a name devboy does not know, a list that is not a list. The first field that is not as the
 * schema says, by its path (`rows[12].tokens`), and what it should be.
 */
export class ResultFieldError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path} ${problem}`);
  }
}

type Check = (value: unknown, path: string) => void;

const fail = (path: string, expected: string, got: unknown): never => {
  throw new ResultFieldError(path, got === undefined ? 'is missing' : `must be ${expected}, not ${shown(got)}`);
};

const str: Check = (v, p) => void (typeof v === 'string' || fail(p, 'a string', v));
const bool: Check = (v, p) => void (typeof v === 'boolean' || fail(p, 'true or false', v));
/** A count: tokens, bytes, pages, items. */
const count: Check = (v, p) =>
  void ((typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || fail(p, 'a whole number, 0 or more', v));
const positive: Check = (v, p) =>
  void ((typeof v === 'number' && Number.isSafeInteger(v) && v >= 1) || fail(p, 'a whole number, 1 or more', v));
/** A time or a ratio. */
const nonNegative: Check = (v, p) => void ((typeof v === 'number' && Number.isFinite(v) && v >= 0) || fail(p, 'a number, 0 or more', v));
/** A saving: 1 - tokens / baseline tokens, so at most 1 (-0.5 = 50% more). */
const saving: Check = (v, p) => void ((typeof v === 'number' && Number.isFinite(v) && v <= 1) || fail(p, 'a fraction, at most 1', v));
const anyObject: Check = (v, p) => void (isJsonObject(v) || fail(p, 'an object', v));

function oneOf(names: readonly string[], what: string): Check {
  return (v, p) => void ((typeof v === 'string' && names.includes(v)) || fail(p, `${what} (${names.join(', ')})`, v));
}
function nullable(check: Check): Check {
  return (v, p) => (v === null ? undefined : check(v, p));
}
function list(check: Check): Check {
  return (v, p) => {
    if (!Array.isArray(v)) fail(p, 'a list', v);
    (v as unknown[]).forEach((x, i) => check(x, `${p}[${i}]`));
  };
}
function pair(check: Check): Check {
  return (v, p) => {
    if (!Array.isArray(v) || v.length !== 2) fail(p, 'a pair [fastest, slowest]', v);
    (v as unknown[]).forEach((x, i) => check(x, `${p}[${i}]`));
  };
}
/** An object with these members (`?` after a name: optional); members not listed are not checked. */
function object(members: Record<string, Check>): Check {
  const fields = Object.entries(members).map(([k, check]) => ({ key: k.replace(/\?$/, ''), optional: k.endsWith('?'), check }));
  return (v, p) => {
    if (!isJsonObject(v)) fail(p, 'an object', v);
    const o = v as Record<string, unknown>;
    for (const { key, optional, check } of fields) {
      if (!(key in o)) {
        if (!optional) fail(join(p, key), 'present', undefined);
        continue;
      }
      check(o[key], join(p, key));
    }
  };
}
function record(check: Check): Check {
  return (v, p) => {
    if (!isJsonObject(v)) fail(p, 'an object', v);
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) check(x, join(p, k));
  };
}

const provider = oneOf(PROVIDER_NAMES, 'a provider');
const kind = oneOf(DATASET_KINDS, 'a dataset kind');
const level = oneOf(LEVELS, 'a level');
const format = oneOf(FORMAT_NAMES, 'a format');
const tokenizer = oneOf(TOKENIZER_NAMES, 'a tokenizer');
/** What a run's savings are against: JSON, or a baseline format (--savings-baseline yaml). */
const measuredBaseline = oneOf(MEASURED_BASELINES, 'a savings baseline');
const sessionBaseline = oneOf([...MEASURED_BASELINES, 'upstream'], 'a savings baseline or upstream');

const source = object({ kind: oneOf(['corpus', 'live'], 'corpus or live'), 'corpus?': str, 'provider?': provider, 'target?': str });

const row = object({
  provider,
  project: str,
  dataset: kind,
  label: str,
  level,
  format,
  tokenizer,
  tokens: count,
  bytes: count,
  pages: count,
  encode_ms: nonNegative,
  decode_ms: nonNegative,
  encode_spread_ms: pair(nonNegative),
  decode_spread_ms: pair(nonNegative),
  'encode_runs?': count,
  'decode_runs?': count,
  lossless: bool,
  'lossless_reason?': str,
  'loss?': object({ values: count, lost: count, share: saving, paths: list(anyObject), more_paths: count }),
  savings: object({
    baseline: measuredBaseline,
    baseline_tokens: count,
    encoder: saving,
    dedup: saving,
    combined: saving,
    'vs?': record(saving),
  }),
  metadata: object({
    raw_chars: count,
    output_chars: count,
    pre_trim_chars: count,
    estimated_tokens: count,
    compression_ratio: nonNegative,
    format: str,
    truncated: bool,
    total_items: nullable(count),
    included_items: count,
    chunked: bool,
    total_chunks: count,
    chunk_number: count,
    provider_pagination: nullable(anyObject),
    provider_sort: nullable(anyObject),
    dedup_savings_pct: saving,
    encoder_savings_pct: saving,
    combined_savings_pct: saving,
    baseline: str,
    tokenizer: str,
  }),
});

const RESULT = object({
  devboy: str,
  source,
  settings: object({
    budget: positive,
    runs: positive,
    'timing?': object({ mode: oneOf(['adaptive', 'fixed'], 'adaptive or fixed'), max_runs: positive, budget_ms: nonNegative }),
    savings_baseline: measuredBaseline,
    levels: list(level),
    formats: list(format),
    'dataset_kinds?': list(kind),
    'session?': str,
  }),
  tokenizers: list(object({ name: tokenizer, estimate: bool, implementation: str })),
  formats: list(object({ name: format, media_type: str, implementation: str })),
  datasets: list(
    object({ provider, project: str, dataset: kind, label: str, items: count, pagination: nullable(anyObject), sort: nullable(anyObject) }),
  ),
  rows: list(row),
  heuristic_bias: list(anyObject),
  fit: list(
    object({ provider, project: str, dataset: kind, label: str, format, tokenizer, budget: positive, total_items: count, fits: bool }),
  ),
  'skipped?': list(object({ file: str, 'line?': positive, 'col?': positive, reason: str })),
  'unmeasured?': list(object({ file: str, cause: oneOf(UNMEASURED_CAUSES, UNMEASURED_CAUSES.join(', ')), reason: str })),
  'recordings?': object({ measured: count, unmeasured: count, skipped: count }),
  'unmeasured_cells?': list(object({ provider, project: str, dataset: kind, label: str, level, format, reason: str })),
  'method_contrast?': anyObject,
  lossy: list(anyObject),
  'winner_by_tokenizer?': list(anyObject),
  'explainers?': list(object({ format, source: str, bytes: count, tokens: record(count) })),
  'break_even?': list(anyObject),
  // A `devboy proxy` ledger's session is taken against the upstream's text as sent (docs/proxy.md).
  'session?': object({ file: str, calls: count, hits: count, baseline: sessionBaseline, results: list(anyObject) }),
  'merged_from?': list(object({ file: str, source, datasets: count, rows: count })),
});

/**
 * Throws ResultFieldError at the first field of `doc` that is not as docs/benchmark-schema.md says,
 * or at a row whose identity (what compare matches rows by) an earlier row already has.
 */
export function checkResultFields(doc: unknown): void {
  RESULT(doc, '');
  // The counts are of the lists the result carries: a count that disagrees would make the summary line lie.
  const { recordings, unmeasured, skipped } = doc as Pick<BenchmarkResult, 'recordings' | 'unmeasured' | 'skipped'>;
  if (recordings) {
    if (recordings.unmeasured !== (unmeasured ?? []).length)
      throw new ResultFieldError('recordings.unmeasured', `is ${recordings.unmeasured}, but unmeasured lists ${(unmeasured ?? []).length}`);
    if (recordings.skipped !== (skipped ?? []).length)
      throw new ResultFieldError('recordings.skipped', `is ${recordings.skipped}, but skipped lists ${(skipped ?? []).length}`);
  }
  const seen = new Map<string, number>();
  (doc as { rows: BenchmarkRow[] }).rows.forEach((r, i) => {
    const id = rowKey(r);
    const first = seen.get(id);
    if (first !== undefined)
      throw new ResultFieldError(`rows[${i}]`, `has the identity of rows[${first}] (${id}): compare could match only one of them`);
    seen.set(id, i);
  });
  // A cell not measured has no rows: one that has them would be counted and listed as missing at once.
  const measured = new Set((doc as { rows: BenchmarkRow[] }).rows.map(cellKey));
  (doc as Pick<BenchmarkResult, 'unmeasured_cells'>).unmeasured_cells?.forEach((c, i) => {
    if (measured.has(cellKey(c)))
      throw new ResultFieldError(`unmeasured_cells[${i}]`, `is listed as not measured, but rows measure it (${cellKey(c)})`);
  });
}

/** `rows[3].tokens`, `settings.budget`, `settings["odd key"]`. */
function join(path: string, key: string): string {
  const member = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : JSON.stringify(key);
  if (path === '') return member;
  return member.startsWith('"') ? `${path}[${member}]` : `${path}.${member}`;
}

function shown(v: unknown): string {
  if (v === undefined) return 'missing';
  const text = JSON.stringify(v);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
