import { tokenizerLabel } from '../tokens/registry.js';
import type { Comparison, EntryChange, EntryId } from '../compare/compare.js';
import type { TimingChange } from '../compare/timing.js';
import { terminalText as t } from '../escape/terminal.js';
import type { RenderOptions } from './exporter.js';
import { figureText } from './speed-view.js';
import { int } from '../text/words.js';
import { DEFAULT_WIDTH, foldLine } from '../text/fold.js';
import { renderTable, type TextTable } from './text-table.js';
import { unmeasuredCellLines, unmeasuredCellsText } from './header.js';
import {
  changeText,
  compareView,
  entryTitle,
  overText,
  pagesText,
  plural,
  rowsText,
  roundTripText,
  runText,
  signedPct,
  tolerance,
} from './compare-view.js';

/**
 * The terminal report of `devboy compare` (and of `benchmark --baseline`): the verdict, what was
 * compared with what, the format x level cells that changed, then every changed row once with its
 * tokenizers side by side, then timing (informational). Figures first, long dataset names last.
 */
export function compareTable(c: Comparison, options: RenderOptions = {}): string {
  const width = options.width ?? DEFAULT_WIDTH;
  const v = compareView(c);
  const tk = (name: string) => t(tokenizerLabel(name));
  const out: string[] = [];
  // Folded to the width, long words too (a file path, a request): the verdict still starts its line.
  const para = (text: string, indent = '  ') => out.push(...foldLine(text, width, indent));
  const table = (tbl: TextTable) => out.push(renderTable(tbl, width));
  para(`devboy compare: ${runText(c.base, t)} -> ${runText(c.head, t)}`);
  para(v.verdict);
  for (const n of c.notes) para(`note: ${t(n)}`);

  out.push('');
  if (v.changed.length === 0) {
    para(`Summary: no token, page, round-trip or row change in any of the ${v.unchangedCells} format/level cells.`);
  } else {
    para(
      `Summary: format x level cells that changed (tokens summed over the rows both runs have; ▲N/▼N = rows beyond ±${tolerance(c.max_regression)}; pages under ${v.primary ? tk(v.primary) : '-'})`,
    );
    table({
      head: ['format', 'level', ...v.tokenizers.flatMap((name) => [tk(name), '']), 'pages', 'round trips', 'rows'],
      rows: v.changed.map((cell) => [
        t(cell.format),
        t(cell.level),
        ...v.tokenizers.flatMap((name) => {
          const x = cell.byTokenizer.get(name);
          return [x ? changeText(x.tokens, '->') : '', overText(x)];
        }),
        pagesText(cell.pages, '->'),
        roundTripText(cell),
        rowsText(cell),
      ]),
    });
    if (v.unchangedCells) out.push(`(${plural(v.unchangedCells, 'format/level cell')} unchanged)`);
  }

  // Each row under the dataset it belongs to (the title once for consecutive rows of one dataset),
  // so the figures keep their columns and the dataset's name its whole line.
  const entries = (title: string, list: EntryChange[]) => {
    if (list.length === 0) return;
    out.push('');
    para(`${title} (${plural(list.length, 'row')}; tokens base -> head under each tokenizer)`);
    const rows: TextTable['rows'] = [];
    let last: string | undefined;
    for (const e of list) {
      const name = entryTitle(e, t);
      if (name !== last) rows.push({ line: name });
      last = name;
      rows.push([`  ${t(e.level)}`, t(e.format), ...v.tokenizers.map((n) => changeText(e.tokens[n], '->'))]);
    }
    table({ head: ['dataset / level', 'format', ...v.tokenizers.map(tk)], rows });
  };
  const listed = (title: string, list: (EntryId & { reason?: string; tokenizers?: string[] })[]) => {
    if (list.length === 0) return;
    out.push('');
    para(`${title} (${plural(list.length, 'row')})`);
    for (const e of list)
      para(
        `  ${t(e.level)} ${t(e.format)} ${entryTitle(e, t)}${e.reason ? `: ${t(e.reason)}` : ''}${e.tokenizers ? ` [${e.tokenizers.map(tk).join(', ')}]` : ''}`,
        '    ',
      );
  };
  // What fails the gate first, then what does not.
  entries(`Regressions: grew more than ${tolerance(c.max_regression)}`, c.regressions);
  listed('Stopped round-tripping', c.lost_round_trips);
  listed('Missing from the head', c.removed);
  entries(`Improvements: shrank more than ${tolerance(c.max_regression)}`, c.improvements);
  listed('Round-trip now', c.gained_round_trips);
  listed('New in the head', c.added);
  const unwritten = unmeasuredCellsText(c.not_measured);
  if (unwritten) {
    out.push('');
    para(`Not measured in the head: ${unwritten}; compared with nothing:`);
    out.push(...unmeasuredCellLines(c.not_measured));
  }

  out.push('');
  timingPart(c, para, table);
  // Tables pad their last column; trailing blanks only get in the way of a log.
  return `${out.join('\n').replace(/[ \t]+$/gm, '')}\n`;
}

/** Timing, informational: the per-format table and the warning when too few runs rank nothing. */
function timingPart(c: Comparison, para: (text: string) => void, table: (tbl: TextTable) => void): void {
  para(timingTitle(c));
  if (c.timing.per_format.length) {
    table({
      head: [...TIMING_HEAD],
      rows: c.timing.per_format.map((x) => {
        const cells = timingCells(x);
        cells[0] = t(x.format);
        return cells;
      }),
    });
  }
  const few = timingWarning(c);
  if (few) para(`! ${few}`);
}

export function timingTitle(c: Comparison): string {
  const t = c.timing;
  if (!t.tokenizer || t.rows_compared === 0) return 'Timing: nothing to compare.';
  const flagged = t.per_format.filter((x) => x.flag).length;
  return (
    `Timing (informational, never fails the gate): ${flagged} of ${t.per_format.length} format timings flagged (the rows holding most of their time, timed at least ${t.min_runs} times in both runs, moved outside both runs' spreads, the same way as the total); ` +
    `${int(t.rows_slower)} of ${int(t.rows_compared)} rows slower, ${int(t.rows_faster)} faster outside their spreads, ${int(t.rows_few_runs)} timed too few times to tell. ` +
    `Sums of per-call medians over the rows both runs have (sums of the fastest … slowest runs), ×json-compact = time / json-compact's in the same run, base → head; runs = timed runs per cell (fewest-most), base → head; moved = rows slower/faster outside both spreads; few runs = too few to rank.`
  );
}

/** The timing table's columns, terminal and Markdown alike. */
export const TIMING_HEAD = ['format', 'op', 'base', 'head', 'change', '×json-compact', 'runs', 'moved', ''] as const;

/** One timing's cells; base → head pairs without spaces, so the table folds the figures, not them. */
export function timingCells(x: TimingChange): string[] {
  const ratios =
    x.base.vs_json_compact === null || x.head.vs_json_compact === null
      ? ''
      : `${ratioOnly(x.base.vs_json_compact)}→${ratioOnly(x.head.vs_json_compact)}`;
  return [
    x.format,
    x.op,
    figureText(x.base),
    figureText(x.head),
    signedPct(x.change),
    ratios,
    `${runRange(x.runs.base)}→${runRange(x.runs.head)}`,
    `${x.rows_slower}/${x.rows_faster}`,
    x.flag ?? (x.too_few_runs ? 'few runs' : ''),
  ];
}

/**
 * As the benchmark's speed table warns: the timings whose time is mostly in cells timed fewer than
 * min_runs times in either run have no spread to rank by, and are not flagged whatever they show.
 */
export function timingWarning(c: Comparison): string | undefined {
  const few = c.timing.per_format.filter((x) => x.too_few_runs);
  if (few.length === 0) return undefined;
  return `too few runs to rank ${few.length === c.timing.per_format.length ? 'any' : `${few.length} of ${c.timing.per_format.length}`} of these timings: most of their time is in cells timed fewer than ${c.timing.min_runs} times in one run or both, whose spread is unknown (a larger --time-budget gives more runs; --time-budget 0 --runs 5 always makes five).`;
}

function runRange([lo, hi]: [number, number]): string {
  return lo === hi ? String(lo) : `${lo}-${hi}`;
}

function ratioOnly(r: number): string {
  return `×${r.toFixed(2)}`;
}
