import { assembleResult, type Measured } from '../benchmark/assemble.js';
import type { BenchmarkResult, BenchmarkSourceInfo, MergedPart } from '../benchmark/schema.js';
import { DataError, UsageError } from '../errors.js';
import { jsonEqual } from '../json/equal.js';

export interface ResultFile {
  file: string;
  result: BenchmarkResult;
}

/**
 * Combine the results of one benchmark split across jobs (a CI matrix: one job per provider,
 * project or repository) into one result, as if one run had measured every dataset. Parts must be
 * the same measurement: one devboy version, the same tokenizers and format implementations, the
 * same settings; anything else is refused with one line naming the first difference. A dataset may
 * come from one part only. `merged_from` keeps each part's file and source. Every section computed
 * from rows (bias, method contrast, winners, break-even, losses) is computed again over all the
 * rows, as the run does (assembleResult): a part's own are of its rows only.
 */
export function mergeResults(parts: readonly ResultFile[]): BenchmarkResult {
  const first = parts[0];
  if (!first) throw new UsageError('nothing to merge: give at least one result file');
  for (const part of parts.slice(1)) assertSameMeasurement(first, part);
  assertOneKind(parts, first);
  assertDisjoint(parts);
  const provenance: MergedPart[] = parts.flatMap((p) =>
    // A part that is itself merged passes its own parts on, so provenance stays flat.
    p.result.merged_from?.length
      ? p.result.merged_from
      : [{ file: p.file, source: p.result.source, datasets: p.result.datasets.length, rows: p.result.rows.length }],
  );
  const head = first.result;
  return {
    ...assembleResult({
      devboy: head.devboy,
      source: commonSource(parts.map((p) => p.result.source)),
      settings: head.settings,
      tokenizers: head.tokenizers,
      formats: head.formats,
      datasets: parts.flatMap((p) => p.result.datasets),
      rows: parts.flatMap((p) => p.result.rows),
      fit: parts.flatMap((p) => p.result.fit),
      ...recordingLists(parts),
      ...(head.session ? { session: head.session } : {}),
      ...(head.explainers ? { explainers: head.explainers } : {}),
    }),
    merged_from: provenance,
  };
}

function assertOneKind(parts: readonly ResultFile[], first: ResultFile): void {
  const other = parts.find((p) => p.result.source.kind !== first.result.source.kind);
  if (other)
    throw new DataError(
      `is a ${other.result.source.kind} run and ${first.file} a ${first.result.source.kind} run: merge recorded and live runs separately`,
      { file: other.file },
    );
}

function assertDisjoint(parts: readonly ResultFile[]): void {
  const owner = new Map<string, string>();
  for (const p of parts) {
    for (const d of p.result.datasets) {
      const key = [d.provider, d.project, d.dataset, d.label].join(' ');
      const seen = owner.get(key);
      if (seen !== undefined)
        throw new DataError(`measures ${key}, which ${seen} measured too: a dataset may come from one part only`, { file: p.file });
      owner.set(key, p.file);
    }
  }
}

/**
 * The parts' lists of recordings and cells, gathered. Each part lists the recordings of its own
 * projects; a recording outside any provider is listed by every part not narrowed to one.
 */
function recordingLists(parts: readonly ResultFile[]): Pick<Measured, 'skipped' | 'unmeasured' | 'recordings' | 'unmeasured_cells'> {
  const skipped = parts.some((p) => p.result.skipped) ? uniqueJson(parts.flatMap((p) => p.result.skipped ?? [])) : undefined;
  const unmeasured = parts.some((p) => p.result.unmeasured) ? uniqueJson(parts.flatMap((p) => p.result.unmeasured ?? [])) : undefined;
  // Cells belong to datasets, and a dataset to one part: the parts' lists join as they are.
  const unmeasuredCells = parts.some((p) => p.result.unmeasured_cells) ? parts.flatMap((p) => p.result.unmeasured_cells ?? []) : undefined;
  // Parts measure disjoint projects (their datasets may not overlap), so their measured recordings add up.
  const recordings = parts.some((p) => p.result.recordings)
    ? {
        measured: parts.reduce((n, p) => n + (p.result.recordings?.measured ?? 0), 0),
        unmeasured: unmeasured?.length ?? 0,
        skipped: skipped?.length ?? 0,
      }
    : undefined;
  return {
    ...(skipped ? { skipped } : {}),
    ...(unmeasured ? { unmeasured } : {}),
    ...(recordings ? { recordings } : {}),
    ...(unmeasuredCells ? { unmeasured_cells: unmeasuredCells } : {}),
  };
}

/** The first of each run of equal entries, in order. */
function uniqueJson<T>(xs: T[]): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const key = JSON.stringify(x);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What two parts must share to be one measurement; the first difference is the error. */
function assertSameMeasurement(a: ResultFile, b: ResultFile): void {
  const checks: [string, unknown, unknown][] = [
    ['devboy version', a.result.devboy, b.result.devboy],
    ...namedList('tokenizer', a.result.tokenizers, b.result.tokenizers),
    ...namedList('format', a.result.formats, b.result.formats),
    ...(Object.keys({ ...a.result.settings, ...b.result.settings }) as (keyof BenchmarkResult['settings'])[]).map(
      (k): [string, unknown, unknown] => [`settings.${k}`, a.result.settings[k], b.result.settings[k]],
    ),
    ['session', a.result.session, b.result.session],
    ['explainers', a.result.explainers, b.result.explainers],
  ];
  for (const [what, x, y] of checks) {
    if (!jsonEqual(x ?? null, y ?? null)) {
      throw new DataError(
        `${what} is ${describe(y)} but ${a.file} has ${describe(x)}: only results of one devboy version, tokenizers, formats and settings can be merged`,
        { file: b.file },
      );
    }
  }
}

/** Names first (a tokenizer or format only one part has), then each entry as a whole (its implementation). */
function namedList(what: string, a: { name: string }[], b: { name: string }[]): [string, unknown, unknown][] {
  const names = (xs: { name: string }[]) => xs.map((x) => x.name).join(',');
  if (names(a) !== names(b)) return [[`${what}s`, names(a), names(b)]];
  return a.map((x, i): [string, unknown, unknown] => [`${what} ${x.name}`, x, b[i]]);
}

/** The source all parts share; a field the parts disagree on is dropped (merged_from keeps each). */
function commonSource(sources: BenchmarkSourceInfo[]): BenchmarkSourceInfo {
  const [first, ...rest] = sources;
  const out: BenchmarkSourceInfo = { kind: first!.kind };
  for (const key of ['corpus', 'provider', 'target'] as const) {
    const v = first![key];
    if (v !== undefined && rest.every((s) => s[key] === v)) Object.assign(out, { [key]: v });
  }
  return out;
}

function describe(v: unknown): string {
  if (v === undefined || v === null) return 'none';
  if (Array.isArray(v)) return v.join(',');
  if (typeof v === 'object' && 'implementation' in v) return `'${String(v.implementation)}'`;
  const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
