import type { Comparison, EntryChange, EntryId } from '../compare/compare.js';
import { tokenizerLabel } from '../tokens/registry.js';
import { timingCells, timingTitle } from './compare-table.js';
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
  tolerance,
} from './compare-view.js';
import { rangeAround, xyBarChart } from './mermaid.js';

/** Rows shown before the rest of a list is folded away: the report should read in seconds. */
const SHOWN = 10;

/**
 * `devboy compare --markdown`, for `$GITHUB_STEP_SUMMARY` and PR comments: the verdict, a chart of
 * the change per format, the cells that changed, then each changed row once (tokenizers side by
 * side; long lists folded), timing folded at the end.
 */
export function compareMarkdown(c: Comparison): string {
  const v = compareView(c);
  const out: string[] = ['## devboy compare', ''];
  out.push(`${c.passed ? '✅' : '❌'} ${boldVerdict(v.verdict)}`);
  out.push(
    '',
    `Base ${code(runText(c.base))} → head ${code(runText(c.head))}. A row is a dataset at a level in a format; its tokens under each tokenizer are side by side.`,
  );
  if (c.notes.length) out.push('', ...c.notes.map((n) => `- note: ${esc(n)}`));

  if (v.byFormat.length && v.primary) {
    const percents = v.byFormat.map((f) => f.percent);
    out.push(
      '',
      xyBarChart({
        title: `${tokenizerLabel(v.primary)} tokens per format, head as % of base, all levels (line = base; above it = more tokens)`,
        categories: v.byFormat.map((f) => f.format),
        yLabel: 'head tokens, % of base',
        values: percents,
        yRange: rangeAround(100, percents),
        line: v.byFormat.map(() => 100),
      }),
    );
  }

  out.push('');
  if (v.changed.length === 0) {
    out.push(`### Summary`, '', `No token, page, round-trip or row change in any of the ${v.unchangedCells} format/level cells.`);
  } else {
    out.push(
      `### Summary: format × level cells that changed (tokens summed over the rows both runs have; ▲N/▼N = rows beyond ±${tolerance(c.max_regression)}; pages under ${v.primary ? tokenizerLabel(v.primary) : '-'})`,
      '',
    );
    out.push(
      row(['format', 'level', ...v.tokenizers.map(tokenizerLabel), 'pages', 'round trips', 'rows']),
      row(['---', '---', ...v.tokenizers.map(() => '---:'), '---:', '---', '---']),
    );
    for (const cell of v.changed) {
      out.push(
        row([
          cell.format,
          cell.level,
          ...v.tokenizers.map((tk) => {
            const x = cell.byTokenizer.get(tk);
            if (!x) return '';
            const text = `${changeText(x.tokens)} ${overText(x)}`.trim();
            return x.regressions ? `**${text}**` : text;
          }),
          pagesText(cell.pages),
          roundTripText(cell),
          rowsText(cell),
        ]),
      );
    }
    if (v.unchangedCells) out.push('', `${plural(v.unchangedCells, 'other format/level cell')} unchanged.`);
  }

  const entries = (title: string, list: EntryChange[]) => {
    if (list.length === 0) return;
    out.push('', `### ${title} (${plural(list.length, 'row')})`, '');
    const head = [
      row(['dataset', 'level', 'format', ...v.tokenizers.map(tokenizerLabel)]),
      row(['---', '---', '---', ...v.tokenizers.map(() => '---:')]),
    ];
    const lines = list.map((e) => row([esc(entryTitle(e)), e.level, e.format, ...v.tokenizers.map((tk) => changeText(e.tokens[tk]))]));
    out.push(...folded(head, lines));
  };
  entries(`Regressions: tokens grew more than ${tolerance(c.max_regression)}`, c.regressions);
  entries(`Improvements: tokens shrank more than ${tolerance(c.max_regression)}`, c.improvements);

  const listed = (title: string, list: (EntryId & { reason?: string; tokenizers?: string[] })[], last: 'reason' | 'tokenizers') => {
    if (list.length === 0) return;
    out.push('', `### ${title} (${plural(list.length, 'row')})`, '');
    const head = [row(['dataset', 'level', 'format', last]), row(['---', '---', '---', '---'])];
    const lines = list.map((e) =>
      row([esc(entryTitle(e)), e.level, e.format, esc(last === 'reason' ? (e.reason ?? '') : (e.tokenizers ?? []).join(', '))]),
    );
    out.push(...folded(head, lines));
  };
  listed('Stopped round-tripping', c.lost_round_trips, 'reason');
  listed('Round-trip now', c.gained_round_trips, 'reason');
  listed('Missing from the head', c.removed, 'tokenizers');
  listed('New in the head', c.added, 'tokenizers');

  out.push('', `<details><summary>${esc(timingTitle(c))}</summary>`, '');
  if (c.timing.per_format.length) {
    out.push(
      row(['format', 'op', 'base', '', 'head', '', 'change', 'rows outside spread', '']),
      row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---', '---']),
    );
    for (const x of c.timing.per_format) {
      const cells = timingCells(x);
      if (x.flag) cells[8] = `**${x.flag}**`;
      out.push(row(cells));
    }
  }
  out.push('', '</details>', '');
  return out.join('\n');
}

/** The first rows of a table in view, the rest in a folded copy of it. */
function folded(head: string[], lines: string[]): string[] {
  if (lines.length <= SHOWN) return [...head, ...lines];
  return [
    ...head,
    ...lines.slice(0, SHOWN),
    '',
    `<details><summary>${lines.length - SHOWN} more</summary>`,
    '',
    ...head,
    ...lines.slice(SHOWN),
    '',
    '</details>',
  ];
}

function boldVerdict(verdict: string): string {
  const m = /^(PASSED|FAILED): (.*)$/.exec(verdict);
  if (!m) return esc(verdict);
  return `**${m[1] === 'PASSED' ? 'Passed' : 'Failed'}**: ${esc(m[2]!)}`;
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function esc(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/</g, '&lt;');
}
