import Table from 'cli-table3';
import { tokenizerLabel } from '../tokens/registry.js';
import type { Comparison, EntryChange, EntryId } from '../compare/compare.js';
import type { TimingChange } from '../compare/timing.js';
import { msSpread, ratio } from './benchmark-summary.js';
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
export function compareTable(c: Comparison): string {
  const v = compareView(c);
  const out: string[] = [`devboy compare: ${runText(c.base)} -> ${runText(c.head)}`, v.verdict];
  for (const n of c.notes) out.push(`note: ${n}`);

  out.push('');
  if (v.changed.length === 0) {
    out.push(`Summary: no token, page, round-trip or row change in any of the ${v.unchangedCells} format/level cells.`);
  } else {
    out.push(
      `Summary: format x level cells that changed (tokens summed over the rows both runs have; ▲N/▼N = rows beyond ±${tolerance(c.max_regression)}; pages under ${v.primary ? tokenizerLabel(v.primary) : '-'})`,
    );
    const t = new Table({
      head: ['format', 'level', ...v.tokenizers.flatMap((tk) => [tokenizerLabel(tk), '']), 'pages', 'round trips', 'rows'],
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 },
      chars: BORDERLESS,
    });
    for (const cell of v.changed) {
      t.push([
        cell.format,
        cell.level,
        ...v.tokenizers.flatMap((tk) => {
          const x = cell.byTokenizer.get(tk);
          return [x ? changeText(x.tokens, '->') : '', overText(x)];
        }),
        pagesText(cell.pages, '->'),
        roundTripText(cell),
        rowsText(cell),
      ]);
    }
    out.push(t.toString());
    if (v.unchangedCells) out.push(`(${plural(v.unchangedCells, 'format/level cell')} unchanged)`);
  }

  const entries = (title: string, list: EntryChange[]) => {
    if (list.length === 0) return;
    out.push('', `${title} (${plural(list.length, 'row')}; tokens base -> head under each tokenizer)`);
    const t = new Table({
      head: ['level', 'format', ...v.tokenizers.map(tokenizerLabel), 'dataset'],
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 },
      chars: BORDERLESS,
    });
    for (const e of list) t.push([e.level, e.format, ...v.tokenizers.map((tk) => changeText(e.tokens[tk], '->')), entryTitle(e)]);
    out.push(t.toString());
  };
  entries(`Regressions: grew more than ${tolerance(c.max_regression)}`, c.regressions);
  entries(`Improvements: shrank more than ${tolerance(c.max_regression)}`, c.improvements);

  const listed = (title: string, list: (EntryId & { reason?: string; tokenizers?: string[] })[]) => {
    if (list.length === 0) return;
    out.push('', `${title} (${plural(list.length, 'row')})`);
    for (const e of list)
      out.push(
        `  ${e.level} ${e.format} ${entryTitle(e)}${e.reason ? `: ${e.reason}` : ''}${e.tokenizers ? ` [${e.tokenizers.join(', ')}]` : ''}`,
      );
  };
  listed('Stopped round-tripping', c.lost_round_trips);
  listed('Round-trip now', c.gained_round_trips);
  listed('Missing from the head', c.removed);
  listed('New in the head', c.added);

  out.push('', timingTitle(c));
  if (c.timing.per_format.length) {
    const t = new Table({
      head: ['format', 'op', 'base', '', 'head', '', 'change', 'rows outside spread', ''],
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 },
      chars: BORDERLESS,
    });
    for (const x of c.timing.per_format) t.push(timingCells(x));
    out.push(t.toString());
  }
  // Borderless tables pad their last column; trailing blanks only get in the way of a log.
  return `${out.join('\n').replace(/[ \t]+$/gm, '')}\n`;
}

export function timingTitle(c: Comparison): string {
  const t = c.timing;
  if (!t.tokenizer || t.rows_compared === 0) return 'Timing: nothing to compare.';
  const flagged = t.per_format.filter((x) => x.flag).length;
  return (
    `Timing (informational, never fails the gate): ${flagged} of ${t.per_format.length} format timings flagged (rows holding most of their time outside both runs' spreads); ` +
    `${t.rows_slower} of ${t.rows_compared} rows slower, ${t.rows_faster} faster outside their spreads. ` +
    `Sums of per-call medians over the rows both runs have, [sum of fastest-sum of slowest runs], ×N = time / json-compact's in the same run.`
  );
}

export function timingCells(x: TimingChange): string[] {
  return [
    x.format,
    x.op,
    msSpread(x.base.median_ms, x.base.spread_ms),
    ratio(x.base.vs_json_compact),
    msSpread(x.head.median_ms, x.head.spread_ms),
    ratio(x.head.vs_json_compact),
    signedPct(x.change),
    `${x.rows_slower} slower, ${x.rows_faster} faster of ${x.rows}`,
    x.flag ?? '',
  ];
}

/** Rows of figures read better aligned under one header line than boxed. */
const BORDERLESS = Object.fromEntries(
  [
    'top',
    'top-mid',
    'top-left',
    'top-right',
    'bottom',
    'bottom-mid',
    'bottom-left',
    'bottom-right',
    'left',
    'left-mid',
    'mid',
    'mid-mid',
    'right',
    'right-mid',
    'middle',
  ].map((k) => [k, '']),
);
