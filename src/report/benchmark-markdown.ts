import type { BenchmarkResult } from '../benchmark/schema.js';
import { mdTokenizer } from './md-names.js';
import { pct, saved, SMALL_EDGE, summarize, type BenchmarkSummary } from './benchmark-summary.js';
import { speedRows, speedWarnings, timingHeading } from './speed-view.js';
import type { MethodContrast } from '../benchmark/method-contrast.js';
import { SPEED_REFERENCE } from '../benchmark/speed.js';
import { rangeFromZero, xyBarChart } from './mermaid.js';
import { fewerOrMore, int, plural } from '../text/words.js';
import { header, recordingsLine, unmeasuredCellsText } from './header.js';
import { familyMarkdownLines } from './families.js';
import { answerText, lossCell, lostShare, places } from './losses.js';
import { lossSummary } from '../formats/loss.js';
import { htmlText, mdCode, mdName, mdRow as row } from '../escape/markdown.js';
import { tokenizerLabel } from '../tokens/registry.js';
import type { DatasetEntry } from '../benchmark/schema.js';

/** The report for CI job summaries and PR comments: totals, bias and losses up front, details folded. */
export function benchmarkMarkdown(result: BenchmarkResult): string {
  const s = summarize(result);
  const words: Words = {
    baseline: mdName(result.settings.savings_baseline),
    tk: s.primary === 'heuristic' ? 'heuristic tokens (an estimate)' : `${mdTokenizer(s.primary)} tokens`,
    // Inside <summary>, Markdown is not read: the same words as HTML text.
    tkHtml: htmlText(s.primary === 'heuristic' ? 'heuristic tokens (an estimate)' : `${tokenizerLabel(s.primary)} tokens`),
  };
  return [
    ...openingMarkdown(result, s, words),
    ...totalsMarkdown(result, s, words),
    ...totalsCharts(s),
    '',
    ...recommendationMarkdown(s, words.tk, words.baseline),
    ...familyMarkdownLines(result),
    ...(s.contrast ? ['', ...contrastMarkdown(s.contrast)] : []),
    ...speedMarkdown(result, s),
    ...sessionMarkdown(s),
    ...heuristicMarkdown(result, s),
    ...fitMarkdown(result, s, words),
    ...recordingsMarkdown(result),
    ...skippedMarkdown(result),
    ...roundTripsMarkdown(result, s),
    ...unmeasuredCellsMarkdown(result),
    ...perDatasetMarkdown(result, s, words),
  ].join('\n');
}

/** How the report names its baseline and token counts, in Markdown and (inside `<summary>`) as HTML text. */
interface Words {
  baseline: string;
  tk: string;
  tkHtml: string;
}

/** The title, the answer and the headline, and what was measured. */
function openingMarkdown(result: BenchmarkResult, s: BenchmarkSummary, words: Words): string[] {
  return [
    '## devboy benchmark',
    '',
    ...(s.answer ? [`**${htmlText(answerText(s.answer, s.primary))}**`, ''] : []),
    ...headlineMarkdown(s, words.tk, words.baseline),
    '',
    ...header(result, mdCode, mdName)
      .split('\n')
      .map((l) => `- ${l}`),
    '',
  ];
}

function totalsMarkdown(result: BenchmarkResult, s: BenchmarkSummary, words: Words): string[] {
  const out = [
    `### Totals (${words.tk}; change vs ${words.baseline}; pages at ${int(result.settings.budget)} ${mdTokenizer(s.primary)} tokens; **bold** = fewest tokens among lossless formats)`,
    '',
    row(['level', ...s.formats.map(mdName)]),
    row(['---', ...s.formats.map(() => '---:')]),
  ];
  for (const t of s.totals) {
    out.push(
      row([
        mdName(t.level),
        ...t.cells.map((c) => {
          const text = `${int(c.tokens)} (${pct(c.saving)}), ${plural(c.pages, 'page')}${c.lossyRows ? ` ⚠ ${c.lossyRows} lossy${lostShare(s, c.format, t.level)}` : ''}${c.unmeasured ? ` ⚠ ${int(c.unmeasured)} not measured` : ''}`;
          return c.format === t.winner ? `**${text}**` : text;
        }),
      ]),
    );
  }
  return out;
}

/** One bar chart of the totals per level. */
function totalsCharts(s: BenchmarkSummary): string[] {
  const out: string[] = [];
  for (const t of s.totals) {
    const shown = t.cells.filter((c) => c.tokens > 0);
    if (shown.length === 0) continue;
    out.push(
      '',
      xyBarChart({
        title: `${t.level}: ${mdTokenizer(s.primary)} tokens per format (fewer is better)`,
        categories: shown.map((c) => c.format),
        yLabel: 'tokens',
        values: shown.map((c) => c.tokens),
        yRange: rangeFromZero(shown.map((c) => c.tokens)),
        height: 220,
      }),
    );
  }
  return out;
}

function speedMarkdown(result: BenchmarkResult, s: BenchmarkSummary): string[] {
  if (!s.speed.length) return [];
  const out = [
    '',
    '### Speed',
    '',
    `${timingHeading(result)}.`,
    '',
    row(['format', 'encode ms', `vs ${SPEED_REFERENCE}`, 'decode ms', `vs ${SPEED_REFERENCE}`, 'runs']),
    row(['---', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const r of speedRows(result, s)) out.push(row([mdName(r.format), r.encode, r.encodeRatio, r.decode, r.decodeRatio, r.runs]));
  const warnings = speedWarnings(result, s, mdName);
  if (warnings.length) out.push('', ...warnings.map((w) => `- ⚠ ${w}`));
  return out;
}

function sessionMarkdown(s: BenchmarkSummary): string[] {
  if (!s.session) return [];
  const x = s.session;
  const level = x.rows.some((r) => r.level !== undefined);
  return [
    '',
    `### Session ${mdCode(x.file)}: ${plural(x.calls, 'call')}, ${int(x.hits)} repeated (savings of ${mdTokenizer(s.primary)} tokens vs ${mdName(x.baseline)}; combined = dedup + (1 − dedup) × encoder; measured = what the model received)`,
    '',
    ...(level ? ['level: the calls the proxy lowered with `--level`, lossy by choice: not in encoder or combined, in measured.', ''] : []),
    row(['format', 'dedup', 'encoder', 'combined', 'measured', ...(level ? ['level'] : [])]),
    row(['---', '---:', '---:', '---:', '---:', ...(level ? ['---:'] : [])]),
    ...x.rows.map((r) =>
      row([
        mdName(r.format),
        saved(r.dedup),
        saved(r.encoder),
        saved(r.combined),
        saved(r.measured),
        ...(level ? [r.level === undefined ? '-' : saved(r.level)] : []),
      ]),
    ),
  ];
}

function heuristicMarkdown(result: BenchmarkResult, s: BenchmarkSummary): string[] {
  if (!result.heuristic_bias.length) return [];
  const w = s.heuristicWinners;
  return [
    '',
    '### Heuristic (bytes / 3.5)',
    '',
    w
      ? `It picks another winner than ${mdTokenizer(s.primary)} in ${int(w.differ)} of ${plural(w.cells, 'dataset/level cell')} (${int(w.ties)} have a tie, which agrees when a tied format is the other's winner).`
      : `No real tokenizer in this run to compare it with.`,
    '',
    '<details><summary>Its bias per format and level (negative = undercounts)</summary>',
    '',
    row(['level', ...s.formats.map(mdName)]),
    row(['---', ...s.formats.map(() => '---:')]),
    ...groupBias(result, s.levels, s.formats).map((b) => row(b)),
    '',
    '</details>',
  ];
}

/** The first response at the budget of each dataset that does not fit whole. */
function fitMarkdown(result: BenchmarkResult, s: BenchmarkSummary, words: Words): string[] {
  if (!s.fit.length) return [];
  return [
    '',
    `<details><summary>First response at ${int(result.settings.budget)} ${words.tkHtml} (devboy format's pipeline; the ${plural(s.fit.length, 'dataset')} that do not fit whole at full detail)</summary>`,
    '',
    row(['dataset', ...s.formats.map(mdName)]),
    row(['---', ...s.formats.map(() => '---')]),
    ...s.fit.map((f) => row([datasetTitle(f.dataset), ...s.formats.map((name) => f.cells.get(name) ?? '')])),
    '',
    '</details>',
  ];
}

/** The line that accounts for every corpus recording, and each one not measured with its reason, folded. */
function recordingsMarkdown(result: BenchmarkResult): string[] {
  const line = recordingsLine(result, 'below');
  if (!line) return [];
  const out = ['', '### Recordings', '', line];
  const unmeasured = result.unmeasured ?? [];
  if (unmeasured.length) {
    out.push('', `<details><summary>Not measured (${unmeasured.length})</summary>`, '');
    for (const u of unmeasured) out.push(`- ${mdCode(u.file)}: ${mdCode(u.reason)}`);
    out.push('', '</details>');
  }
  return out;
}

function skippedMarkdown(result: BenchmarkResult): string[] {
  const skipped = result.skipped ?? [];
  if (!skipped.length) return [];
  return [
    '',
    `### Skipped recordings (${skipped.length})`,
    '',
    ...skipped.map(
      (x) =>
        `- ${mdCode(`${x.file}${x.line !== undefined ? `:${x.line}${x.col !== undefined ? `:${x.col}` : ''}` : ''}`)}: ${mdCode(x.reason)}`,
    ),
  ];
}

/** The cells a format cannot write, each with its reason; nothing when every cell was measured. */
function unmeasuredCellsMarkdown(result: BenchmarkResult): string[] {
  const cells = result.unmeasured_cells ?? [];
  const text = unmeasuredCellsText(cells);
  if (!text) return [];
  return [
    '',
    '### Not measured',
    '',
    `${text}.`,
    '',
    ...cells.map((c) => `- ${datasetTitle(c)} ${mdName(c.level)} ${mdName(c.format)}: ${mdCode(c.reason)}`),
  ];
}

/** Whether every row round-tripped; when not, what each lossy format loses, and each lossy cell folded. */
function roundTripsMarkdown(result: BenchmarkResult, s: BenchmarkSummary): string[] {
  if (result.lossy.length === 0) return ['', '### Round trips', '', 'Every format round-tripped every row (values and key order).'];
  const formats = [...new Set(result.lossy.map((l) => l.format))].map(mdName).join(', ');
  return [
    '',
    '### Round trips',
    '',
    `Not lossless: ${plural(result.lossy.length, 'dataset/level/format cell')} (${formats}); every other row round-tripped.`,
    '',
    `What each lossy format loses (${mdTokenizer(s.primary)} rows; share of the leaf values of the datasets that do not round-trip; the places that lost most):`,
    '',
    row(['format', 'level', 'lost', 'where']),
    row(['---', '---', '---', '---']),
    ...s.losses.map((l) =>
      row([mdName(l.format), mdName(l.level), htmlText(lossCell(l)), l.paths.length ? mdCode(places(l).replace(/^ \(|\)$/g, '')) : '']),
    ),
    '',
    '<details><summary>Each lossy cell and what it lost</summary>',
    '',
    ...result.lossy.map(
      (l) =>
        `- ${datasetTitle(l)} ${mdName(l.level)} ${mdName(l.format)}: ${mdCode(`${l.loss ? `${lossSummary(l.loss)}; first: ` : ''}${l.reason}`)}`,
    ),
    '',
    '</details>',
  ];
}

/** Every dataset at every level, folded: the figures the totals add up. */
function perDatasetMarkdown(result: BenchmarkResult, s: BenchmarkSummary, words: Words): string[] {
  const out = [
    '',
    `<details><summary>Per dataset (${s.datasets.length}): ${words.tkHtml}, change vs ${htmlText(result.settings.savings_baseline)}, pages at ${int(result.settings.budget)}</summary>`,
    '',
    row(['dataset', 'level', ...s.formats.map(mdName)]),
    row(['---', '---', ...s.formats.map(() => '---:')]),
  ];
  for (const d of s.datasets) {
    for (const l of d.levels) {
      out.push(
        row([
          l === d.levels[0] ? datasetTitle(d.dataset) : '',
          mdName(l.level),
          ...s.formats.map((f) => {
            const r = l.cells.get(f);
            if (!r) return '';
            const text = `${int(r.tokens)} (${pct(r.savings.encoder)})${r.pages > 1 ? ` ${int(r.pages)}p` : ''}${r.lossless ? '' : ' ⚠'}`;
            return f === l.winner ? `**${text}**` : text;
          }),
        ]),
      );
    }
  }
  out.push('', '</details>', '');
  return out;
}

/** The answer first, as the terminal report gives it: the best lossless format per level, and what the level saves. */
function headlineMarkdown(s: BenchmarkSummary, tk: string, baseline: string): string[] {
  const h = s.headline;
  const best = h.best.map((b) => {
    if (!b.format) return `${mdName(b.level)} none lossless`;
    if ((b.saving ?? 0) <= 0) return `${mdName(b.level)} **${mdName(b.format)}** (none beats ${baseline})`;
    return `${mdName(b.level)} **${mdName(b.format)}** ${pct(b.saving!)}`;
  });
  const small = h.best.filter((b) => b.format && (b.saving ?? 0) > 0 && b.saving! < SMALL_EDGE).map((b) => mdName(b.level));
  const out = [
    `**Best lossless format per level** (${tk} vs ${baseline}): ${best.join(', ')}${small.length ? ` (under 1% at ${small.join(' and ')}: about a tie)` : ''}.`,
  ];
  if (h.from && h.levels.length)
    out.push(
      '',
      `**The level saves more** (${mdName(h.from.format)} vs ${mdName(h.from.level)}): ${h.levels.map((l) => `${mdName(l.level)} ${pct(l.saving)}`).join(', ')}.`,
    );
  return out;
}

function groupBias(result: BenchmarkResult, levels: string[], formats: string[]): string[][] {
  const out: string[][] = [];
  for (const tokenizer of new Set(result.heuristic_bias.map((b) => b.tokenizer))) {
    for (const level of levels) {
      out.push([
        `${mdName(level)} vs ${mdName(tokenizer)}`,
        ...formats.map((f) => {
          const b = result.heuristic_bias.find((x) => x.tokenizer === tokenizer && x.level === level && x.format === f);
          return b ? `${b.bias >= 0 ? '+' : ''}${(b.bias * 100).toFixed(1)}%` : '';
        }),
      ]);
    }
  }
  return out;
}

/** `github` `owner__repo` `issues`, 30 items: `GET /repos/...`: each part from data in its own code span. */
function datasetTitle(d: Pick<DatasetEntry, 'provider' | 'project' | 'dataset' | 'label'> & { items?: number }): string {
  const items = d.items === undefined ? '' : `, ${plural(d.items, 'item')}`;
  return `${mdName(d.provider)} ${mdCode(d.project)} ${mdName(d.dataset)}${items}: ${mdCode(d.label)}`;
}

function recommendationMarkdown(s: BenchmarkSummary, tk: string, baseline: string): string[] {
  const kinds = [...new Set(s.recommendations.map((r) => r.kind))];
  if (kinds.length === 0) return [];
  const out = [
    `### Recommendation (the lossless format with the fewest ${tk} per dataset kind and level, its change vs ${baseline}; the runner-up and how much more it costs)`,
    '',
    row(['kind (datasets)', ...s.levels.map(mdName)]),
    row(['---', ...s.levels.map(() => '---')]),
  ];
  for (const kind of kinds) {
    const rec = s.recommendations.filter((r) => r.kind === kind);
    out.push(
      row([
        `${mdName(kind)} (${rec[0]?.datasets ?? 0})`,
        ...s.levels.map((level) => {
          const r = rec.find((x) => x.level === level);
          if (!r?.winner) return 'none lossless';
          const next = r.runnerUp
            ? `; ${mdName(r.runnerUp.format)} +${((r.runnerUp.tokens / r.runnerUp.winnerTokens - 1) * 100).toFixed(1)}%`
            : '';
          return `**${mdName(r.winner)}** ${pct(r.saving ?? 0)}${next}`;
        }),
      ]),
    );
  }
  return out;
}

function contrastMarkdown(c: MethodContrast): string[] {
  const change = (f: number) => `${fewerOrMore(f)} tokens`;
  return [
    `### Why published numbers differ (devboy-tools' method against devboy's, on the same ${plural(c.scope.datasets, 'dataset')}: issue, merge request and diff lists at full detail)`,
    '',
    row([
      'format',
      'published method (vs json_pretty, bytes / 3.5)',
      `measured (vs json_compact, ${c.measured.tokenizer})`,
      'conclusion flips',
    ]),
    row(['---', '---:', '---:', '---:']),
    ...c.formats.map((f) =>
      row([mdName(f.format), change(f.published_saving), change(f.measured_saving), `${f.flips} of ${c.scope.datasets}`]),
    ),
  ];
}
