import type { Comparison, EntryChange, EntryId } from '../compare/compare.js';
import { htmlText, mdCode, mdName, mdRow as row } from '../escape/markdown.js';
import { TIMING_HEAD, timingCells, timingTitle, timingWarning } from './compare-table.js';
import {
  changeText,
  compareView,
  overText,
  pagesText,
  plural,
  rowsText,
  roundTripText,
  runText,
  tolerance,
  type CompareView,
} from './compare-view.js';
import type { RenderOptions } from './exporter.js';
import { mdTokenizer } from './md-names.js';
import { tokenizerLabel } from '../tokens/registry.js';
import { rangeAround, xyBarChart } from './mermaid.js';
import { int } from '../text/words.js';
import { unmeasuredCellsText } from './header.js';

/** Rows shown before the rest of a list is folded away: the report should read in seconds. */
const SHOWN = 10;

/** The most characters GitHub takes in one pull-request comment (its API refuses a longer body). */
export const GITHUB_COMMENT_LIMIT = 65_536;

/** Charts of more formats than this say nothing at a glance (and a result file can name thousands). */
const MAX_CHART_FORMATS = 24;

/**
 * `devboy compare --markdown`, for `$GITHUB_STEP_SUMMARY` and PR comments: the verdict, the cells
 * that changed, then the rows that fail the gate (regressions, lost round trips, missing rows), then
 * those that do not (improvements, regained round trips, new rows), each list's first rows in view
 * and the rest folded, timing folded at the end. The whole report stays under `maxChars` (GitHub's
 * comment limit by default): when it would not, every list is cut to as many rows as fit, and the
 * report says how many it left out and where the full comparison is (`fullReport`).
 */
export function compareMarkdown(c: Comparison, options: RenderOptions = {}): string {
  const limit = options.maxChars ?? GITHUB_COMMENT_LIMIT;
  const v = compareView(c);
  const whole = render(c, v, Number.POSITIVE_INFINITY, options);
  if (whole.length <= limit) return whole;
  // The length grows with the rows shown: the most rows per list that fit, found by bisection.
  let lo = 0;
  let hi = Math.max(v.changed.length, c.regressions.length, c.improvements.length, c.lost_round_trips.length) + 1;
  hi = Math.max(hi, c.gained_round_trips.length, c.removed.length, c.added.length, c.notes.length, c.timing.per_format.length);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (render(c, v, mid, options).length <= limit) lo = mid;
    else hi = mid - 1;
  }
  const text = render(c, v, lo, options);
  if (text.length <= limit) return text;
  // Only a result of absurd size gets here (its verdict and headings alone are over the limit).
  const cut = text.slice(0, text.lastIndexOf('\n', limit - 400));
  return `${cut}\n\n${cutNotice(text.length - cut.length, 'characters', options)}\n`;
}

/** The report with at most `most` rows of every list (Infinity: all of them, long lists folded). */
function render(c: Comparison, v: CompareView, most: number, options: RenderOptions): string {
  return [
    ...verdictSection(c, v, most, options),
    ...summarySection(c, v, most, options),
    ...chartSection(v),
    ...listSections(c, v, most, options),
    ...timingSection(c, most, options),
  ].join('\n');
}

function verdictSection(c: Comparison, v: CompareView, most: number, options: RenderOptions): string[] {
  const out: string[] = ['<!-- devboy compare -->', '## devboy compare', ''];
  out.push(`${c.passed ? '✅' : '❌'} ${boldVerdict(v.verdict)}`);
  out.push(
    '',
    `Base ${runText(c.base, mdCode)} → head ${runText(c.head, mdCode)}. A row is a dataset at a level in a format; its tokens under each tokenizer are side by side.`,
  );
  if (c.notes.length) {
    out.push('', ...c.notes.slice(0, most).map((n) => `- note: ${mdCode(n)}`));
    if (c.notes.length > most) out.push(`- ${cutNotice(c.notes.length - most, 'notes', options)}`);
  }
  return out;
}

/** The format × level cells that changed, or a line saying none did. */
function summarySection(c: Comparison, v: CompareView, most: number, options: RenderOptions): string[] {
  const summaryCells = v.changed.slice(0, most);
  const out: string[] = [''];
  if (v.changed.length === 0) {
    out.push(`### Summary`, '', `No token, page, round-trip or row change in any of the ${v.unchangedCells} format/level cells.`);
    return out;
  }
  out.push(
    `### Summary: format × level cells that changed (tokens summed over the rows both runs have; ▲N/▼N = rows beyond ±${tolerance(c.max_regression)}; pages under ${v.primary ? mdTokenizer(v.primary) : '-'})`,
    '',
  );
  out.push(
    row(['format', 'level', ...v.tokenizers.map(mdTokenizer), 'pages', 'round trips', 'rows']),
    row(['---', '---', ...v.tokenizers.map(() => '---:'), '---:', '---', '---']),
  );
  for (const cell of summaryCells) {
    out.push(
      row([
        mdName(cell.format),
        mdName(cell.level),
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
  if (v.changed.length > summaryCells.length) out.push('', cutNotice(v.changed.length - summaryCells.length, 'changed cells', options));
  if (v.unchangedCells) out.push('', `${plural(v.unchangedCells, 'other format/level cell')} unchanged.`);
  return out;
}

function chartSection(v: CompareView): string[] {
  if (!(v.byFormat.length && v.primary && v.byFormat.length <= MAX_CHART_FORMATS)) return [];
  const percents = v.byFormat.map((f) => f.percent);
  return [
    '',
    xyBarChart({
      title: `${tokenizerLabel(v.primary)} tokens per format, head as % of base, all levels (line = base, above it = more tokens)`,
      categories: v.byFormat.map((f) => f.format),
      yLabel: 'head tokens, % of base',
      values: percents,
      yRange: rangeAround(100, percents),
      line: v.byFormat.map(() => 100),
    }),
  ];
}

/** What fails the gate first (regressions, lost round trips, missing rows), then what does not. */
function listSections(c: Comparison, v: CompareView, most: number, options: RenderOptions): string[] {
  const out: string[] = [];
  const entries = (title: string, list: EntryChange[]) => {
    if (list.length === 0) return;
    out.push('', `### ${title} (${plural(list.length, 'row')})`, '');
    const head = [
      row(['dataset', 'level', 'format', ...v.tokenizers.map(mdTokenizer)]),
      row(['---', '---', '---', ...v.tokenizers.map(() => '---:')]),
    ];
    const lines = list
      .slice(0, most)
      .map((e) => row([mdEntryTitle(e), mdName(e.level), mdName(e.format), ...v.tokenizers.map((tk) => changeText(e.tokens[tk]))]));
    out.push(...folded(head, lines, list.length, options));
  };
  const listed = (title: string, list: (EntryId & { reason?: string; tokenizers?: string[] })[], last: 'reason' | 'tokenizers') => {
    if (list.length === 0) return;
    out.push('', `### ${title} (${plural(list.length, 'row')})`, '');
    const head = [row(['dataset', 'level', 'format', last]), row(['---', '---', '---', '---'])];
    const lines = list
      .slice(0, most)
      .map((e) =>
        row([
          mdEntryTitle(e),
          mdName(e.level),
          mdName(e.format),
          last === 'reason'
            ? mdCode(e.reason ?? '')
            : `${(e.tokenizers ?? []).map(mdTokenizer).join(', ')}${e.reason ? `: ${mdCode(e.reason)}` : ''}`,
        ]),
      );
    out.push(...folded(head, lines, list.length, options));
  };
  entries(`Regressions: tokens grew more than ${tolerance(c.max_regression)}`, c.regressions);
  listed('Stopped round-tripping', c.lost_round_trips, 'reason');
  listed('Missing from the head', c.removed, 'tokenizers');
  entries(`Improvements: tokens shrank more than ${tolerance(c.max_regression)}`, c.improvements);
  listed('Round-trip now', c.gained_round_trips, 'reason');
  listed('New in the head', c.added, 'tokenizers');
  out.push(...notMeasuredSection(c, most, options));
  return out;
}

/** Cells the head could not write (a format refused a value), with the encoder's reason. */
function notMeasuredSection(c: Comparison, most: number, options: RenderOptions): string[] {
  const unwritten = unmeasuredCellsText(c.not_measured);
  if (!unwritten) return [];
  const head = [row(['dataset', 'level', 'format', 'reason']), row(['---', '---', '---', '---'])];
  const lines = c.not_measured.slice(0, most).map((x) => row([mdEntryTitle(x), mdName(x.level), mdName(x.format), mdCode(x.reason)]));
  return [
    '',
    `### Not measured in the head (${plural(c.not_measured.length, 'cell')})`,
    '',
    `${unwritten}; compared with nothing.`,
    '',
    ...folded(head, lines, c.not_measured.length, options),
  ];
}

/** Timing, folded at the end. */
function timingSection(c: Comparison, most: number, options: RenderOptions): string[] {
  const out: string[] = ['', `<details><summary>${htmlText(timingTitle(c), Number.POSITIVE_INFINITY)}</summary>`, ''];
  if (c.timing.per_format.length) {
    out.push(row([...TIMING_HEAD]), row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---']));
    for (const x of c.timing.per_format.slice(0, most)) {
      const cells = timingCells(x);
      cells[0] = mdName(x.format);
      if (x.flag) cells[cells.length - 1] = `**${x.flag}**`;
      out.push(row(cells));
    }
    if (c.timing.per_format.length > most) out.push('', cutNotice(c.timing.per_format.length - most, 'timings', options));
  }
  const few = timingWarning(c);
  if (few) out.push('', `⚠️ ${few}`);
  out.push('', '</details>', '');
  return out;
}

/** The first rows of a table in view, the rest in a folded copy of it; rows beyond `lines` were cut for size. */
function folded(head: string[], lines: string[], total: number, options: RenderOptions): string[] {
  const cut = total - lines.length;
  const notice = cut > 0 ? ['', cutNotice(cut, 'rows', options)] : [];
  if (lines.length <= SHOWN) return [...head, ...lines, ...notice];
  return [
    ...head,
    ...lines.slice(0, SHOWN),
    '',
    `<details><summary>${int(lines.length - SHOWN)} more</summary>`,
    '',
    ...head,
    ...lines.slice(SHOWN),
    '',
    '</details>',
    ...notice,
  ];
}

/** What a report cut for size says where the cut was: how much is missing and where it is. */
function cutNotice(count: number, what: string, options: RenderOptions): string {
  const where = options.fullReport
    ? /^https?:\/\/[^\s<>()[\]`]+$/.test(options.fullReport)
      ? `<${options.fullReport}>`
      : mdCode(options.fullReport)
    : '`devboy compare BASE HEAD --json` (or the table without `--markdown`) lists every one';
  return `… ${int(count)} more ${what} not shown, to keep this report under GitHub's ${int(GITHUB_COMMENT_LIMIT)}-character comment limit; the full comparison: ${where}.`;
}

/** `github` names print bare, project and request in code spans: each part from data in its own. */
function mdEntryTitle(e: EntryId): string {
  return `${mdName(e.provider)} ${mdCode(e.project)} ${mdName(e.dataset)}: ${mdCode(e.label)}`;
}

function boldVerdict(verdict: string): string {
  const m = /^(PASSED|FAILED): (.*)$/.exec(verdict);
  if (!m) return verdict;
  return `**${m[1] === 'PASSED' ? 'Passed' : 'Failed'}**: ${m[2]!}`;
}
