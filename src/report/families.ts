import type { BreakEvenEntry } from '../benchmark/break-even.js';
import type { WinnerEntry } from '../benchmark/families.js';
import type { BenchmarkResult } from '../benchmark/schema.js';
import type { FormatName } from '../formats/types.js';
import { tokenizerLabel } from '../tokens/registry.js';
import type { TokenizerName } from '../tokens/types.js';
import { int, plural } from '../text/words.js';
import { terminalText } from '../escape/terminal.js';
import { mdCode, mdName, mdRow } from '../escape/markdown.js';
import { mdTokenizer } from './md-names.js';
import { renderTable, wrapText } from './text-table.js';

/** How a sink shows the strings of a result: names (formats, levels, kinds), tokenizers, other data. */
interface Names {
  name: (text: string) => string;
  tk: (name: string) => string;
  data: (text: string) => string;
}

const TERMINAL: Names = { name: (t) => terminalText(t), tk: (n) => terminalText(tokenizerLabel(n)), data: (t) => terminalText(t) };
const MARKDOWN: Names = { name: mdName, tk: mdTokenizer, data: (t) => mdCode(t) };

/**
 * The winner by tokenizer family and the break-even of each format's explainer, for the terminal
 * table and the Markdown report: a summary (one row per dataset kind, one column per level) and,
 * for --details, every tokenizer side by side. Views only: the figures are in the result
 * (src/benchmark/families.ts, src/benchmark/break-even.ts).
 */

/** The model tokenizers of a run (the bytes/3.5 heuristic is no family); the heuristic alone when nothing else ran. */
function realTokenizers(result: BenchmarkResult): TokenizerName[] {
  const real = result.tokenizers.filter((t) => !t.estimate).map((t) => t.name);
  return real.length ? real : result.tokenizers.map((t) => t.name);
}

function primaryOf(result: BenchmarkResult): TokenizerName {
  return realTokenizers(result)[0]!;
}

/** Kinds in the order the result lists its datasets, each with its number of datasets. */
function kindsOf(result: BenchmarkResult): { kind: string; datasets: number }[] {
  const counts = new Map<string, number>();
  for (const d of result.datasets) counts.set(d.dataset, (counts.get(d.dataset) ?? 0) + 1);
  return [...counts].map(([kind, datasets]) => ({ kind, datasets }));
}

/** `json-compact; stc: deepseek_v3, mistral`: the most common winner, then the others with the families that pick them. */
export function winnerCell(entry: WinnerEntry | undefined, tokenizers: readonly TokenizerName[], n: Names = TERMINAL): string {
  if (!entry) return '';
  const by = new Map<string, TokenizerName[]>();
  for (const name of tokenizers) {
    const w = entry.winners.find((x) => x.tokenizer === name);
    if (!w) continue;
    const key = w.format === undefined || w.format === null ? 'none lossless' : n.name(w.format);
    by.set(key, [...(by.get(key) ?? []), name]);
  }
  const groups = [...by].sort((a, b) => b[1].length - a[1].length);
  if (groups.length <= 1) return groups[0]?.[0] ?? '';
  return [groups[0]![0], ...groups.slice(1).map(([format, names]) => `${format}: ${names.map(n.tk).join(', ')}`)].join('; ');
}

/** A break-even as shown: a count of tool results, `never`, or `lossy` when the format does not round-trip there. */
function breakEvenText(e: BreakEvenEntry | undefined): string {
  if (!e) return '';
  if (!e.lossless) return 'lossy';
  return e.break_even === null ? 'never' : int(e.break_even);
}

/** Fewest to most over the tokenizers, `never` sorting last: `3`, `3-5`, `40-never`. */
function breakEvenRange(entries: (BreakEvenEntry | undefined)[]): string {
  const present = entries.filter((e): e is BreakEvenEntry => e !== undefined);
  if (present.length === 0) return '';
  if (present.some((e) => !e.lossless)) return 'lossy';
  const values = present.map((e) => e.break_even ?? Number.POSITIVE_INFINITY);
  const show = (v: number) => (v === Number.POSITIVE_INFINITY ? 'never' : int(v));
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? show(lo) : `${show(lo)}-${show(hi)}`;
}

function breakEvenIndex(result: BenchmarkResult): Map<string, BreakEvenEntry> {
  return new Map((result.break_even ?? []).map((e) => [`${e.dataset}|${e.level}|${e.format}|${e.tokenizer}`, e]));
}

function explainedFormats(result: BenchmarkResult): FormatName[] {
  const explained = new Set((result.explainers ?? []).map((e) => e.format));
  return result.settings.formats.filter((f) => explained.has(f));
}

/** What the summary says about winners by family, as a heading and rows (kinds) by levels; or one line when there is one family. */
function winnerSummary(result: BenchmarkResult, n: Names): { heading: string; rows?: string[][] } | undefined {
  const winners = result.winner_by_tokenizer;
  if (!winners?.length) return undefined;
  const names = realTokenizers(result);
  if (names.length < 2) {
    return {
      heading: `Winner by tokenizer family: one tokenizer counted (${n.tk(names[0]!)}), so the recommendation above is the only winner; --tokenizers all compares the model families.`,
    };
  }
  const changed = winners.filter((w) => w.changes).length;
  const rows = kindsOf(result).map(({ kind, datasets }) => [
    `${n.name(kind)} (${datasets})`,
    ...result.settings.levels.map((level) =>
      winnerCell(
        winners.find((w) => w.dataset === kind && w.level === level),
        names,
        n,
      ),
    ),
  ]);
  return {
    heading: `Winner by tokenizer family: the lossless format with the fewest tokens per dataset kind (datasets) and level under each of ${plural(names.length, 'tokenizer')}; "a; b: x, y" = a wins, except under x and y, where b does. The winner changes in ${int(changed)} of ${plural(winners.length, 'kind/level cell')}.`,
    rows,
  };
}

/** The summary's break-even rows: per kind and level, each explained format's break-even under the primary tokenizer, or its range over the tokenizers. */
function breakEvenSummary(result: BenchmarkResult, n: Names): { heading: string; explainers: string; rows: string[][] } | undefined {
  const formats = explainedFormats(result);
  if (!result.break_even || formats.length === 0) return undefined;
  const names = realTokenizers(result);
  const primary = primaryOf(result);
  const index = breakEvenIndex(result);
  const rows = kindsOf(result).map(({ kind, datasets }) => [
    `${n.name(kind)} (${datasets})`,
    ...result.settings.levels.map((level) =>
      formats.map((f) => `${n.name(f)} ${breakEvenRange(names.map((n) => index.get(`${kind}|${level}|${f}|${n}`)))}`).join(', '),
    ),
  ]);
  const over = names.length > 1 ? `fewest-most over the ${plural(names.length, 'tokenizer')}` : `${n.tk(primary)} tokens`;
  const explainerTokens = (result.explainers ?? [])
    .map((e) => `${n.name(e.format)} ${e.tokens[primary] ?? '?'}${e.source.startsWith('docs/formats/') ? '' : ` (${n.data(e.source)})`}`)
    .join(', ');
  return {
    heading: `Break-even: tool results of a kind after which a format's saving per result vs ${n.name(result.settings.savings_baseline)} repays the prompt that teaches it, ceil(explainer tokens / saving per result), ${over}; never = it saves nothing`,
    explainers: `Explainers (the prompts devboy ships with each format, unless devboy.toml [format_explainers] names another file): ${explainerTokens} ${n.tk(primary)} tokens`,
    rows,
  };
}

/** The full winner table: every tokenizer (the heuristic too) side by side, one row per kind and level. */
function winnerDetailRows(result: BenchmarkResult, n: Names): { head: string[]; rows: string[][] } | undefined {
  const winners = result.winner_by_tokenizer ?? [];
  if (winners.length === 0) return undefined;
  const names = result.tokenizers.map((t) => t.name);
  return {
    head: ['kind / level', ...names.map(n.tk), 'changes'],
    rows: winners.map((w) => [
      `${n.name(w.dataset)} / ${n.name(w.level)}`,
      ...names.map((t) => {
        const f = w.winners.find((x) => x.tokenizer === t)?.format;
        return f ? n.name(f) : 'none lossless';
      }),
      w.changes ? 'yes' : '',
    ]),
  };
}

/** The full break-even table: one row per kind, level and format, one column per tokenizer. */
function breakEvenDetailRows(result: BenchmarkResult, n: Names): { head: string[]; rows: string[][] } | undefined {
  const formats = explainedFormats(result);
  if (!result.break_even || formats.length === 0) return undefined;
  const names = result.tokenizers.map((t) => t.name);
  const index = breakEvenIndex(result);
  const rows: string[][] = [];
  for (const { kind } of kindsOf(result)) {
    for (const level of result.settings.levels) {
      for (const f of formats)
        rows.push([
          `${n.name(kind)} / ${n.name(level)} / ${n.name(f)}`,
          ...names.map((t) => breakEvenText(index.get(`${kind}|${level}|${f}|${t}`))),
        ]);
    }
  }
  const explainerRow = [
    'explainer tokens',
    ...names.map((t) => (result.explainers ?? []).map((e) => `${n.name(e.format)} ${e.tokens[t] ?? '?'}`).join(', ')),
  ];
  return { head: ['kind / level / format', ...names.map(n.tk)], rows: [explainerRow, ...rows] };
}

function table(head: string[], rows: string[][], width: number): string {
  return renderTable({ head, rows }, width);
}

/** Terminal summary lines (none for results saved before these views existed). */
export function familySummaryLines(result: BenchmarkResult, width: number): string[] {
  const out: string[] = [];
  const levels = result.settings.levels.map(TERMINAL.name);
  const w = winnerSummary(result, TERMINAL);
  if (w) {
    out.push('', ...wrapText(w.heading, width));
    if (w.rows) out.push(table(['kind', ...levels], w.rows, width));
  }
  const b = breakEvenSummary(result, TERMINAL);
  if (b) out.push('', ...wrapText(b.heading, width), ...wrapText(b.explainers, width), table(['kind', ...levels], b.rows, width));
  return out;
}

/** Terminal lines for --details: every tokenizer's winner and break-even side by side. */
export function familyDetailLines(result: BenchmarkResult): string[] {
  const out: string[] = [];
  const w = winnerDetailRows(result, TERMINAL);
  if (w && result.tokenizers.length > 1)
    out.push(
      '',
      'Winner per tokenizer, every kind and level (changes = the model tokenizers pick different formats)',
      table(w.head, w.rows, Number.POSITIVE_INFINITY),
    );
  const b = breakEvenDetailRows(result, TERMINAL);
  if (b)
    out.push(
      '',
      'Break-even per tokenizer: tool results until the explainer is repaid; never = no saving; lossy = the format does not round-trip there',
      table(b.head, b.rows, Number.POSITIVE_INFINITY),
    );
  return out;
}

/** Markdown: the summary tables in the open, the per-tokenizer tables folded. */
export function familyMarkdownLines(result: BenchmarkResult): string[] {
  const out: string[] = [];
  const levels = result.settings.levels.map(mdName);
  const w = winnerSummary(result, MARKDOWN);
  if (w) {
    if (w.rows)
      out.push('', `### ${w.heading}`, '', mdRow(['kind', ...levels]), mdRow(['---', ...levels.map(() => '---')]), ...w.rows.map(mdRow));
    else out.push('', w.heading);
  }
  const b = breakEvenSummary(result, MARKDOWN);
  if (b)
    out.push(
      '',
      `### ${b.heading}`,
      '',
      b.explainers,
      '',
      mdRow(['kind', ...levels]),
      mdRow(['---', ...levels.map(() => '---')]),
      ...b.rows.map(mdRow),
    );
  const wd = winnerDetailRows(result, MARKDOWN);
  const bd = breakEvenDetailRows(result, MARKDOWN);
  if ((wd && result.tokenizers.length > 1) || bd) {
    out.push('', '<details><summary>Winner and break-even per tokenizer</summary>');
    if (wd && result.tokenizers.length > 1) out.push('', mdRow(wd.head), mdRow(wd.head.map(() => '---')), ...wd.rows.map(mdRow));
    if (bd) out.push('', mdRow(bd.head), mdRow(['---', ...bd.head.slice(1).map(() => '---:')]), ...bd.rows.map(mdRow));
    out.push('', '</details>');
  }
  return out;
}
