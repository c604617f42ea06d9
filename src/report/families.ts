import Table from 'cli-table3';
import type { BreakEvenEntry } from '../benchmark/break-even.js';
import type { BenchmarkResult } from '../benchmark/schema.js';
import { tokenizerLabel } from '../tokens/registry.js';
import type { TokenizerName } from '../tokens/types.js';

/**
 * The winner by tokenizer family and the break-even of each format's explainer, as lines for the
 * terminal table and the Markdown report. Views only: the figures are in the result
 * (src/benchmark/families.ts, src/benchmark/break-even.ts).
 */

const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

function tokenizersOf(result: BenchmarkResult): TokenizerName[] {
  return result.tokenizers.map((t) => t.name);
}

function winnerHeading(): string {
  return `Winner by tokenizer family: the lossless format with the fewest tokens, summed over each kind's datasets (ties to the first format listed); changes = real tokenizers pick different formats`;
}

function breakEvenHeading(result: BenchmarkResult): string {
  const sources = (result.explainers ?? []).map((e) => `${e.format} ${e.source}`).join(', ');
  return `Break-even: tool results of a kind after which a format's saving per result vs ${result.settings.savings_baseline} repays its explainer (ceil(explainer tokens / saving per result)); never = no saving; explainers: ${sources}`;
}

function breakEvenCell(e: BreakEvenEntry | undefined): string {
  if (!e) return '';
  if (!e.lossless) return 'lossy';
  return e.break_even === null ? 'never' : String(e.break_even);
}

function groupBreakEven(result: BenchmarkResult): Map<string, Map<TokenizerName, BreakEvenEntry>> {
  const rows = new Map<string, Map<TokenizerName, BreakEvenEntry>>();
  for (const e of result.break_even ?? []) {
    const key = `${e.dataset} / ${e.level} / ${e.format}`;
    let m = rows.get(key);
    if (!m) rows.set(key, (m = new Map()));
    m.set(e.tokenizer, e);
  }
  return rows;
}

/** Terminal lines (empty when the result has neither view, as results saved before them). */
export function familyTableLines(result: BenchmarkResult): string[] {
  const out: string[] = [];
  const names = tokenizersOf(result);
  const winners = result.winner_by_tokenizer ?? [];
  if (winners.length) {
    out.push('', winnerHeading());
    const t = new Table({
      head: ['kind / level', ...names.map(tokenizerLabel), 'changes'],
      style: { head: [], border: [] },
      chars: COMPACT,
    });
    for (const w of winners)
      t.push([
        `${w.dataset} / ${w.level}`,
        ...names.map((n) => w.winners.find((x) => x.tokenizer === n)?.format ?? '-'),
        w.changes ? 'yes' : '',
      ]);
    out.push(t.toString(), changesLine(result));
  }
  if (result.explainers?.length) {
    out.push('', breakEvenHeading(result));
    out.push(
      `Explainer tokens: ${result.explainers.map((e) => `${e.format} ${names.map((n) => `${e.tokens[n] ?? '-'}`).join('/')}`).join('; ')} (${names.map(tokenizerLabel).join('/')})`,
    );
    const t = new Table({ head: ['kind / level / format', ...names.map(tokenizerLabel)], style: { head: [], border: [] }, chars: COMPACT });
    for (const [key, byTokenizer] of groupBreakEven(result)) t.push([key, ...names.map((n) => breakEvenCell(byTokenizer.get(n)))]);
    out.push(t.toString());
  }
  return out;
}

/** Markdown lines: the winner table in full, the break-even table folded. */
export function familyMarkdownLines(result: BenchmarkResult): string[] {
  const out: string[] = [];
  const names = tokenizersOf(result);
  const winners = result.winner_by_tokenizer ?? [];
  if (winners.length) {
    out.push('', `### ${winnerHeading()}`, '');
    out.push(mdRow(['kind / level', ...names.map(tokenizerLabel), 'changes']), mdRow(['---', ...names.map(() => '---'), '---']));
    for (const w of winners)
      out.push(
        mdRow([
          `${w.dataset} / ${w.level}`,
          ...names.map((n) => w.winners.find((x) => x.tokenizer === n)?.format ?? '-'),
          w.changes ? '**yes**' : '',
        ]),
      );
    out.push('', changesLine(result));
  }
  if (result.explainers?.length) {
    out.push('', `### ${breakEvenHeading(result)}`, '');
    out.push(mdRow(['explainer', ...names.map(tokenizerLabel)]), mdRow(['---', ...names.map(() => '---:')]));
    for (const e of result.explainers) out.push(mdRow([`${e.format} (${e.bytes} bytes)`, ...names.map((n) => String(e.tokens[n] ?? ''))]));
    out.push('', '<details><summary>Break-even per kind, level and format</summary>', '');
    out.push(mdRow(['kind / level / format', ...names.map(tokenizerLabel)]), mdRow(['---', ...names.map(() => '---:')]));
    for (const [key, byTokenizer] of groupBreakEven(result)) out.push(mdRow([key, ...names.map((n) => breakEvenCell(byTokenizer.get(n)))]));
    out.push('', '</details>');
  }
  return out;
}

function changesLine(result: BenchmarkResult): string {
  const winners = result.winner_by_tokenizer ?? [];
  const changed = winners.filter((w) => w.changes).length;
  return changed
    ? `The winner changes between tokenizer families in ${changed} of ${winners.length} kind/level cells.`
    : `Every tokenizer family picks the same winner in all ${winners.length} kind/level cells.`;
}

function mdRow(cells: string[]): string {
  return `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
}
