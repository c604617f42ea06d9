import { tokenizerLabel } from '../tokens/registry.js';
import type { BenchmarkResult } from '../benchmark/schema.js';
import { pct, saved, SMALL_EDGE, summarize, type BenchmarkSummary } from './benchmark-summary.js';
import type { MethodContrast } from '../benchmark/method-contrast.js';
import type { RenderOptions } from './exporter.js';
import { SPEED_REFERENCE } from '../benchmark/speed.js';
import { header, lossyText, recordingsLine, skippedLines, unmeasuredCellLines, unmeasuredCellsLine, unmeasuredLines } from './header.js';
import { fewerOrMore, int, plural } from '../text/words.js';
import { baselineFormatOf } from '../metadata/format-metadata.js';
import { familyDetailLines, familySummaryLines } from './families.js';
import { answerText, lossLines, lostShare } from './losses.js';
import { terminalText as t } from '../escape/terminal.js';
import { DEFAULT_WIDTH, foldLine, listLines } from '../text/fold.js';
import { renderTable, type TextTable } from './text-table.js';
import { speedRows, speedWarnings, timingHeading } from './speed-view.js';

/**
 * The terminal report, the answer first so it decides at a glance: two or three lines naming the
 * best lossless format per level and what the level itself saves, then totals, the recommendation
 * per dataset kind and level, why published numbers differ, speed with its run counts and spread,
 * and one line each on the heuristic, round trips and skipped recordings. `details` adds every
 * dataset, the first response at the budget, the heuristic's bias per format and level, and every
 * lossy cell (those tables may be wider than the terminal). Every figure names its tokenizer and
 * baseline in its heading; every string from data is escaped for the terminal.
 */
export function benchmarkTable(result: BenchmarkResult, options: RenderOptions = {}): string {
  const width = options.width ?? DEFAULT_WIDTH;
  const s = summarize(result);
  const tkName = t(tokenizerLabel(s.primary));
  const out: string[] = [];
  const r: Report = {
    result,
    s,
    width,
    out,
    star: (text) => (options.color ? `\u001b[1m${text} *\u001b[22m` : `${text} *`),
    baseline: t(result.settings.savings_baseline),
    baselineFormat: baselineFormatOf(result.settings.savings_baseline),
    tkName,
    tk: s.primary === 'heuristic' ? 'heuristic tokens (an estimate)' : `${tkName} tokens`,
    formats: s.formats.map((f) => t(f)),
    para: (text) => out.push(...foldLine(text, width)),
    table: (tbl, w = width) => out.push(renderTable(tbl, w)),
  };

  openingLines(r);
  totalsLines(r);
  out.push('');
  recommendationLines(s, r.tk, r.baseline, r.para, r.table);
  for (const line of familySummaryLines(result, width)) out.push(line);
  if (s.contrast) {
    out.push('');
    contrastLines(s.contrast, r.para, r.table);
  }
  speedLines(r);
  sessionLines(r);
  out.push('');
  checkLines(r, options.details === true);
  if (!options.details) {
    r.para(
      `Per dataset, the first response at the budget, the heuristic's bias and every lossy cell: --details (or --export-markdown, --json).`,
    );
    return out.join('\n');
  }
  // --details: as wide as its figures need.
  perDatasetLines(r);
  fitLines(r);
  biasLines(r);
  return out.join('\n');
}

/** One report being written: its figures, how it names them, and where its lines go. */
interface Report {
  result: BenchmarkResult;
  s: BenchmarkSummary;
  width: number;
  out: string[];
  /** The fewest tokens among lossless formats, starred (and bold in colour). */
  star: (text: string) => string;
  baseline: string;
  /** The format the savings baseline is: its cells show no change against themselves. */
  baselineFormat: string;
  tkName: string;
  tk: string;
  formats: string[];
  /** A paragraph folded to the width. */
  para: (text: string) => void;
  /** A table fitted to the width, or as wide as its figures need (`Infinity`). */
  table: (tbl: TextTable, width?: number) => void;
}

/** The answer and the headline, then what was measured. */
function openingLines(r: Report): void {
  const { s, out, width } = r;
  if (s.answer) r.para(t(answerText(s.answer, s.primary)));
  out.push(...headlineLines(s, r.tk, r.baseline, width));
  out.push('');
  for (const line of header(r.result, t).split('\n')) {
    // One tokenizer a line when they do not fit on one: an implementation is never cut in two.
    if (line.startsWith('tokenizers: ')) out.push(...listLines('tokenizers', line.slice('tokenizers: '.length).split('; '), width));
    else r.para(line);
  }
  out.push('');
}

function totalsLines(r: Report): void {
  const { result, s } = r;
  r.para(
    `Totals over ${plural(result.datasets.length, 'dataset')}: ${r.tk}; change vs ${r.baseline} (same items, level and tokenizer); pages at ${int(result.settings.budget)} ${r.tkName} tokens below; * = fewest tokens among lossless formats`,
  );
  r.table({
    head: ['level', ...r.formats],
    rows: s.totals.flatMap((x) => [
      [
        t(x.level),
        ...x.cells.map((c) => {
          const text = `${int(c.tokens)}${c.format === r.baselineFormat ? '' : ` ${pct(c.saving)}`}`;
          return c.format === x.winner ? r.star(text) : text;
        }),
      ],
      [
        '  pages',
        ...x.cells.map(
          (c) =>
            `${int(c.pages)}${c.lossyRows ? `, ${c.lossyRows} lossy${lostShare(s, c.format, x.level)}` : ''}${c.unmeasured ? `, ${int(c.unmeasured)} not measured` : ''}`,
        ),
      ],
    ]),
  });
}

function speedLines(r: Report): void {
  const { result, s } = r;
  if (!s.speed.length) return;
  r.out.push('');
  r.para(timingHeading(result));
  r.table({
    head: ['format', 'encode ms', `vs ${SPEED_REFERENCE}`, 'decode ms', `vs ${SPEED_REFERENCE}`, 'runs'],
    rows: speedRows(result, s).map((x) => [t(x.format), x.encode, x.encodeRatio, x.decode, x.decodeRatio, x.runs]),
  });
  for (const w of speedWarnings(result, s, (f) => t(f))) r.para(`! ${w}`);
}

function sessionLines(r: Report): void {
  const x = r.s.session;
  if (!x) return;
  r.out.push('');
  r.para(
    `Session ${t(x.file)}: ${plural(x.calls, 'call')}, ${int(x.hits)} answered by a reference to an earlier identical output; savings of ${r.tkName} tokens vs ${t(x.baseline)} (combined = dedup + (1 - dedup) × encoder; measured = what the model received)`,
  );
  const level = x.rows.some((row) => row.level !== undefined);
  if (level) r.para('level: the calls the proxy lowered with --level, lossy by choice: not in encoder or combined, in measured');
  r.table({
    head: ['format', 'dedup', 'encoder', 'combined', 'measured', ...(level ? ['level'] : [])],
    rows: x.rows.map((row) => [
      t(row.format),
      saved(row.dedup),
      saved(row.encoder),
      saved(row.combined),
      saved(row.measured),
      ...(level ? [row.level === undefined ? '-' : saved(row.level)] : []),
    ]),
  });
}

/** One line each on the heuristic, round trips and what they lost, the corpus's recordings, and skipped recordings. */
function checkLines(r: Report, details: boolean): void {
  const { result, s, out, width } = r;
  const heuristic = heuristicLine(result, s);
  if (heuristic) r.para(heuristic);
  // --details lists every lossy cell on a line of its own, as wide as it is.
  if (details) out.push(lossyText(result));
  else r.para(lossySummary(result));
  for (const line of lossLines(s)) out.push(...foldLine(t(line), width));
  const unwritten = unmeasuredCellsLine(result, details ? 'below' : 'under --details (or --json)');
  if (unwritten) r.para(unwritten);
  // --details names every cell, as wide as its reason.
  if (details) out.push(...unmeasuredCellLines(result.unmeasured_cells ?? []));
  const recordings = recordingsLine(result, details ? 'below' : 'under --details (or --json)');
  if (recordings) r.para(recordings);
  // --details names every recording not measured, as skipped ones are always named.
  if (details) out.push(...unmeasuredLines(result));
  for (const line of skippedLines(result)) r.para(line);
}

function perDatasetLines(r: Report): void {
  const { result, s } = r;
  r.out.push('');
  r.para(
    `Per dataset: ${r.tk}, change vs ${r.baseline}, pages at ${int(result.settings.budget)} ${r.tkName} tokens; ! = not lossless (see above)`,
  );
  const detail: TextTable = { head: ['dataset / level', ...r.formats], rows: [] };
  for (const d of s.datasets) {
    detail.rows.push({ line: t(d.title) });
    for (const l of d.levels) {
      detail.rows.push([
        `  ${t(l.level)}`,
        ...s.formats.map((f) => {
          const row = l.cells.get(f);
          if (!row) return l.unmeasured.has(f) ? 'not measured' : '';
          const change = f === r.baselineFormat ? '' : ` ${pct(row.savings.encoder)}`;
          const text = `${int(row.tokens)}${change}${row.pages > 1 ? ` ${int(row.pages)}p` : ''}${row.lossless ? '' : ' !'}`;
          return f === l.winner ? r.star(text) : text;
        }),
      ]);
    }
  }
  r.table(detail, Number.POSITIVE_INFINITY);
  for (const line of familyDetailLines(result)) r.out.push(line);
}

function fitLines(r: Report): void {
  const { result, s } = r;
  if (!s.fit.length) return;
  r.out.push('');
  r.para(
    `First response at ${int(result.settings.budget)} ${r.tkName} tokens (devboy format's pipeline): items included, at which detail; only datasets that do not fit whole at full detail`,
  );
  const fit: TextTable = { head: ['dataset / format', ...r.formats], rows: [] };
  for (const f of s.fit) fit.rows.push({ line: t(f.title) }, ['', ...s.formats.map((name) => f.cells.get(name) ?? '')]);
  r.table(fit, Number.POSITIVE_INFINITY);
}

function biasLines(r: Report): void {
  const { result, s } = r;
  if (!result.heuristic_bias.length) return;
  r.out.push('');
  r.para('Heuristic (bytes / 3.5) vs real tokenizer, all datasets: negative = the heuristic undercounts');
  const bias: TextTable = { head: ['level', ...r.formats], rows: [] };
  for (const tokenizer of new Set(result.heuristic_bias.map((b) => b.tokenizer))) {
    for (const level of s.levels) {
      bias.rows.push([
        `${t(level)} vs ${t(tokenizer)}`,
        ...s.formats.map((f) => {
          const b = result.heuristic_bias.find((x) => x.tokenizer === tokenizer && x.level === level && x.format === f);
          return b ? `${b.bias >= 0 ? '+' : ''}${(b.bias * 100).toFixed(1)}%` : '';
        }),
      ]);
    }
  }
  r.table(bias, Number.POSITIVE_INFINITY);
}

/**
 * The answer in two or three lines: per level the lossless format with the fewest tokens and its
 * saving vs the baseline (an edge under 1% said to be one), then what lowering the level saves by
 * itself, which on provider data is most of the saving.
 */
function headlineLines(s: BenchmarkSummary, tk: string, baseline: string, width: number): string[] {
  const h = s.headline;
  const best = h.best.map((b) => {
    if (!b.format) return `${t(b.level)} none lossless`;
    if ((b.saving ?? 0) <= 0) return `${t(b.level)} ${t(b.format)} (none beats ${baseline})`;
    return `${t(b.level)} ${t(b.format)} ${pct(b.saving!)}`;
  });
  const small = h.best.filter((b) => b.format && (b.saving ?? 0) > 0 && b.saving! < SMALL_EDGE).map((b) => t(b.level));
  const edge = small.length ? ` (under 1% at ${small.join(' and ')}: about a tie)` : '';
  const lines = [`Best lossless format per level (${tk} vs ${baseline}): ${best.join(', ')}${edge}`];
  if (h.from && h.levels.length)
    lines.push(
      `The level saves more (${t(h.from.format)} vs ${t(h.from.level)}): ${h.levels.map((l) => `${t(l.level)} ${pct(l.saving)}`).join(', ')}`,
    );
  return lines.flatMap((l) => foldLine(l, width));
}

/** Per dataset kind and level: which format to use, what it saves, what the next best costs more. */
function recommendationLines(
  s: BenchmarkSummary,
  tk: string,
  baseline: string,
  para: (text: string) => void,
  table: (tbl: TextTable) => void,
): void {
  const kinds = [...new Set(s.recommendations.map((r) => r.kind))];
  if (kinds.length === 0) return;
  para(
    `Recommendation: the lossless format with the fewest ${tk} per dataset kind (datasets) and level, its change vs ${baseline}; the runner-up and how much more it costs`,
  );
  table({
    head: ['kind', ...s.levels.map((l) => t(l))],
    rows: kinds.map((kind) => {
      const rec = s.recommendations.filter((r) => r.kind === kind);
      return [
        `${t(kind)} (${rec[0]?.datasets ?? 0})`,
        ...s.levels.map((level) => {
          const r = rec.find((x) => x.level === level);
          if (!r?.winner) return 'none lossless';
          const next = r.runnerUp
            ? `; ${t(r.runnerUp.format)} +${((r.runnerUp.tokens / r.runnerUp.winnerTokens - 1) * 100).toFixed(1)}%`
            : '';
          return `${t(r.winner)} ${pct(r.saving ?? 0)}${next}`;
        }),
      ];
    }),
  });
}

/** The same datasets under devboy-tools' published method and under devboy's. */
function contrastLines(c: MethodContrast, para: (text: string) => void, table: (tbl: TextTable) => void): void {
  para(
    `Why published numbers differ: devboy-tools' method against devboy's, on the same ${plural(c.scope.datasets, 'dataset')} (issue, merge request and diff lists at full detail)`,
  );
  table({
    head: [
      'format',
      'published method (vs json_pretty, bytes / 3.5)',
      `measured (vs json_compact, ${t(c.measured.tokenizer)})`,
      'conclusion flips',
    ],
    rows: c.formats.map((f) => [
      t(f.format),
      `${fewerOrMore(f.published_saving)} tokens`,
      `${fewerOrMore(f.measured_saving)} tokens`,
      `${f.flips} of ${plural(c.scope.datasets, 'dataset')}`,
    ]),
  });
}

/** One paragraph: how far the heuristic is off, and how often it would pick another format. */
function heuristicLine(result: BenchmarkResult, s: BenchmarkSummary): string | undefined {
  if (result.heuristic_bias.length === 0 || !s.heuristicWinners) return undefined;
  const biases = result.heuristic_bias.map((b) => b.bias * 100);
  const range = `${Math.min(...biases).toFixed(1)}% to ${Math.max(...biases) >= 0 ? '+' : ''}${Math.max(...biases).toFixed(1)}%`;
  const w = s.heuristicWinners;
  return `Heuristic (bytes / 3.5): off by ${range} against ${t(tokenizerLabel(s.primary))} per format and level; it picks another winner in ${int(w.differ)} of ${plural(w.cells, 'dataset/level cell')} (${int(w.ties)} have a tie, which agrees when a tied format is the other's winner).`;
}

function lossySummary(result: BenchmarkResult): string {
  if (result.lossy.length === 0) return lossyText(result);
  const formats = [...new Set(result.lossy.map((l) => t(l.format)))].join(', ');
  return `Not lossless: ${plural(result.lossy.length, 'dataset/level/format cell')} (${formats}); every other row round-tripped. --details lists them.`;
}
