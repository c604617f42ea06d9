import { tokenizerLabel } from '../tokens/registry.js';
import type { BenchmarkResult } from '../benchmark/schema.js';
import { int, pct, saved, SMALL_EDGE, summarize, type BenchmarkSummary } from './benchmark-summary.js';
import type { MethodContrast } from '../benchmark/method-contrast.js';
import type { RenderOptions } from './exporter.js';
import { SPEED_REFERENCE } from '../benchmark/speed.js';
import { header, lossyText, recordingsLine, skippedLines, unmeasuredLines } from './header.js';
import { fewerOrMore, plural } from './words.js';
import { baselineFormatOf } from '../metadata/format-metadata.js';
import { familyDetailLines, familySummaryLines } from './families.js';
import { answerText, lossLines, lostShare } from './losses.js';
import { displayWidth, terminalText as t } from '../escape/terminal.js';
import { DEFAULT_WIDTH, renderTable, wrapText, type TextTable } from './text-table.js';

export { DEFAULT_WIDTH };
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
  const star = (text: string) => (options.color ? `\u001b[1m${text} *\u001b[22m` : `${text} *`);
  const baseline = t(result.settings.savings_baseline);
  const tkName = t(tokenizerLabel(s.primary));
  const tk = s.primary === 'heuristic' ? 'heuristic tokens (an estimate)' : `${tkName} tokens`;
  const formats = s.formats.map((f) => t(f));
  const out: string[] = [];
  const para = (text: string) => out.push(...wrapText(text, width));
  const table = (tbl: TextTable, w = width) => out.push(renderTable(tbl, w));

  if (s.answer) para(t(answerText(s.answer, s.primary)));
  out.push(...headlineLines(s, tk, baseline, width));
  out.push('');
  for (const line of header(result, t).split('\n')) {
    // One tokenizer a line when they do not fit on one: an implementation is never cut in two.
    if (line.startsWith('tokenizers: ') && displayWidth(line) > width) {
      const parts = line.slice('tokenizers: '.length).split('; ');
      out.push('tokenizers:');
      parts.forEach((p, i) => out.push(...wrapText(`  ${p}${i < parts.length - 1 ? ';' : ''}`, width, '    ')));
    } else para(line);
  }
  out.push('');
  para(
    `Totals over ${plural(result.datasets.length, 'dataset')}: ${tk}; change vs ${baseline} (same items, level and tokenizer); pages at ${int(result.settings.budget)} ${tkName} tokens below; * = fewest tokens among lossless formats`,
  );
  const baselineFormat = baselineFormatOf(result.settings.savings_baseline);
  table({
    head: ['level', ...formats],
    rows: s.totals.flatMap((x) => [
      [
        t(x.level),
        ...x.cells.map((c) => {
          const text = `${int(c.tokens)}${c.format === baselineFormat ? '' : ` ${pct(c.saving)}`}`;
          return c.format === x.winner ? star(text) : text;
        }),
      ],
      ['  pages', ...x.cells.map((c) => `${int(c.pages)}${c.lossyRows ? `, ${c.lossyRows} lossy${lostShare(s, c.format, x.level)}` : ''}`)],
    ]),
  });
  out.push('');
  recommendationLines(s, tk, baseline, para, table);
  for (const line of familySummaryLines(result, width)) out.push(line);
  if (s.contrast) {
    out.push('');
    contrastLines(s.contrast, para, table);
  }

  if (s.speed.length) {
    out.push('');
    para(timingHeading(result));
    table({
      head: ['format', 'encode ms', `vs ${SPEED_REFERENCE}`, 'decode ms', `vs ${SPEED_REFERENCE}`, 'runs'],
      rows: speedRows(result, s).map((r) => [t(r.format), r.encode, r.encodeRatio, r.decode, r.decodeRatio, r.runs]),
    });
    for (const w of speedWarnings(result, s, (f) => t(f))) para(`! ${w}`);
  }

  if (s.session) {
    const x = s.session;
    out.push('');
    para(
      `Session ${t(x.file)}: ${plural(x.calls, 'call')}, ${int(x.hits)} answered by a reference to an earlier identical output; savings of ${tkName} tokens vs ${t(x.baseline)} (combined = dedup + (1 - dedup) × encoder; measured = what the model received)`,
    );
    const level = x.rows.some((r) => r.level !== undefined);
    if (level) para('level: the calls the proxy lowered with --level, lossy by choice: not in encoder or combined, in measured');
    table({
      head: ['format', 'dedup', 'encoder', 'combined', 'measured', ...(level ? ['level'] : [])],
      rows: x.rows.map((r) => [
        t(r.format),
        saved(r.dedup),
        saved(r.encoder),
        saved(r.combined),
        saved(r.measured),
        ...(level ? [r.level === undefined ? '-' : saved(r.level)] : []),
      ]),
    });
  }

  out.push('');
  const heuristic = heuristicLine(result, s);
  if (heuristic) para(heuristic);
  // --details lists every lossy cell on a line of its own, as wide as it is.
  if (options.details) out.push(lossyText(result));
  else para(lossySummary(result));
  for (const line of lossLines(s)) out.push(...wrapText(t(line), width));
  const recordings = recordingsLine(result, options.details ? 'below' : 'under --details (or --json)');
  if (recordings) para(recordings);
  // --details names every recording not measured, as skipped ones are always named.
  if (options.details) out.push(...unmeasuredLines(result));
  for (const line of skippedLines(result)) para(line);

  if (!options.details) {
    para(
      `Per dataset, the first response at the budget, the heuristic's bias and every lossy cell: --details (or --export-markdown, --json).`,
    );
    return out.join('\n');
  }

  // --details: as wide as its figures need.
  out.push('');
  para(`Per dataset: ${tk}, change vs ${baseline}, pages at ${int(result.settings.budget)} ${tkName} tokens; ! = not lossless (see above)`);
  const detail: TextTable = { head: ['dataset / level', ...formats], rows: [] };
  for (const d of s.datasets) {
    detail.rows.push({ line: t(d.title) });
    for (const l of d.levels) {
      detail.rows.push([
        `  ${t(l.level)}`,
        ...s.formats.map((f) => {
          const r = l.cells.get(f);
          if (!r) return '';
          const change = f === baselineFormat ? '' : ` ${pct(r.savings.encoder)}`;
          const text = `${int(r.tokens)}${change}${r.pages > 1 ? ` ${int(r.pages)}p` : ''}${r.lossless ? '' : ' !'}`;
          return f === l.winner ? star(text) : text;
        }),
      ]);
    }
  }
  table(detail, Number.POSITIVE_INFINITY);
  for (const line of familyDetailLines(result)) out.push(line);

  if (s.fit.length) {
    out.push('');
    para(
      `First response at ${int(result.settings.budget)} ${tkName} tokens (devboy format's pipeline): items included, at which detail; only datasets that do not fit whole at full detail`,
    );
    const fit: TextTable = { head: ['dataset / format', ...formats], rows: [] };
    for (const f of s.fit) fit.rows.push({ line: t(f.title) }, ['', ...s.formats.map((name) => f.cells.get(name) ?? '')]);
    table(fit, Number.POSITIVE_INFINITY);
  }

  if (result.heuristic_bias.length) {
    out.push('');
    para('Heuristic (bytes / 3.5) vs real tokenizer, all datasets: negative = the heuristic undercounts');
    const bias: TextTable = { head: ['level', ...formats], rows: [] };
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
    table(bias, Number.POSITIVE_INFINITY);
  }
  return out.join('\n');
}

/**
 * The answer in two or three lines: per level the lossless format with the fewest tokens and its
 * saving vs the baseline (an edge under 1% said to be one), then what lowering the level saves by
 * itself, which on provider data is most of the saving.
 */
export function headlineLines(s: BenchmarkSummary, tk: string, baseline: string, width: number): string[] {
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
  return lines.flatMap((l) => wrapText(l, width));
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
