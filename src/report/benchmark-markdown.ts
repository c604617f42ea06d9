import type { BenchmarkResult } from '../benchmark/schema.js';
import { tokenizerLabel } from '../tokens/registry.js';
import { int, msSpread, pct, ratio, saved, summarize, type BenchmarkSummary } from './benchmark-summary.js';
import type { MethodContrast } from '../benchmark/method-contrast.js';
import { SPEED_REFERENCE } from '../benchmark/speed.js';
import { rangeFromZero, xyBarChart } from './mermaid.js';
import { fewerOrMore, plural } from './words.js';
import { header } from './header.js';
import { familyMarkdownLines } from './families.js';
import { answerText, lossCell, places } from './losses.js';
import { lossSummary } from '../formats/loss.js';

/** The report for CI job summaries and PR comments: totals, bias and losses up front, details folded. */
export function benchmarkMarkdown(result: BenchmarkResult): string {
  const s = summarize(result);
  const baseline = result.settings.savings_baseline;
  const tk = s.primary === 'heuristic' ? 'heuristic tokens (an estimate)' : `${tokenizerLabel(s.primary)} tokens`;
  const out: string[] = [
    '## devboy benchmark',
    '',
    ...header(result)
      .split('\n')
      .map((l) => `- ${esc(l)}`),
    '',
    ...(s.answer ? [`**${esc(answerText(s.answer, s.primary))}**`, ''] : []),
  ];

  out.push(
    `### Totals (${tk}; change vs ${baseline}; pages at ${int(result.settings.budget)} ${tokenizerLabel(s.primary)} tokens; **bold** = fewest tokens among lossless formats)`,
    '',
  );
  out.push(row(['level', ...s.formats]), row(['---', ...s.formats.map(() => '---:')]));
  for (const t of s.totals) {
    out.push(
      row([
        t.level,
        ...t.cells.map((c) => {
          const lost = s.losses.find((l) => l.format === c.format && l.level === t.level);
          const share = lost && lost.values > 0 ? `, ${((lost.lost / lost.values) * 100).toFixed(1)}% of values lost` : '';
          const text = `${int(c.tokens)} (${pct(c.saving)}), ${plural(c.pages, 'page')}${c.lossyRows ? ` ⚠ ${c.lossyRows} lossy${share}` : ''}`;
          return c.format === t.winner ? `**${text}**` : text;
        }),
      ]),
    );
  }

  for (const t of s.totals) {
    const shown = t.cells.filter((c) => c.tokens > 0);
    if (shown.length === 0) continue;
    out.push(
      '',
      xyBarChart({
        title: `${t.level}: ${tokenizerLabel(s.primary)} tokens per format (fewer is better)`,
        categories: shown.map((c) => c.format),
        yLabel: 'tokens',
        values: shown.map((c) => c.tokens),
        yRange: rangeFromZero(shown.map((c) => c.tokens)),
        height: 220,
      }),
    );
  }

  out.push('', ...recommendationMarkdown(s, tk, baseline));
  out.push(...familyMarkdownLines(result));
  if (s.contrast) out.push('', ...contrastMarkdown(s.contrast));

  if (s.speed.length) {
    out.push(
      '',
      `### Speed (every dataset at every level once: sum of per-call medians of ${plural(result.settings.runs, 'run')}, [fastest-slowest]; ×N = time / ${SPEED_REFERENCE}'s in this run)`,
      '',
    );
    out.push(
      row(['format', 'encode', `vs ${SPEED_REFERENCE}`, 'decode', `vs ${SPEED_REFERENCE}`]),
      row(['---', '---:', '---:', '---:', '---:']),
    );
    for (const f of s.speed)
      out.push(
        row([
          f.format,
          msSpread(f.encode.median_ms, f.encode.spread_ms),
          ratio(f.encode.vs_json_compact),
          msSpread(f.decode.median_ms, f.decode.spread_ms),
          ratio(f.decode.vs_json_compact),
        ]),
      );
  }

  if (s.session) {
    const x = s.session;
    out.push(
      '',
      `### Session \`${esc(x.file)}\`: ${plural(x.calls, 'call')}, ${int(x.hits)} repeated (savings of ${tokenizerLabel(s.primary)} tokens vs ${x.baseline}; combined = dedup + (1 − dedup) × encoder; measured = what the model received)`,
      '',
    );
    out.push(row(['format', 'dedup', 'encoder', 'combined', 'measured']), row(['---', '---:', '---:', '---:', '---:']));
    for (const r of x.rows) out.push(row([r.format, saved(r.dedup), saved(r.encoder), saved(r.combined), saved(r.measured)]));
  }

  if (result.heuristic_bias.length) {
    const w = s.heuristicWinners;
    out.push(
      '',
      '### Heuristic (bytes / 3.5)',
      '',
      w
        ? `It picks another winner than ${tokenizerLabel(s.primary)} in ${int(w.differ)} of ${plural(w.cells, 'dataset/level cell')} (${int(w.ties)} have a tie, which agrees when a tied format is the other's winner).`
        : `No real tokenizer in this run to compare it with.`,
      '',
      '<details><summary>Its bias per format and level (negative = undercounts)</summary>',
      '',
    );
    out.push(row(['level', ...s.formats]), row(['---', ...s.formats.map(() => '---:')]));
    for (const b of groupBias(result, s.levels, s.formats)) out.push(row(b));
    out.push('', '</details>');
  }

  if (s.fit.length) {
    out.push(
      '',
      `<details><summary>First response at ${int(result.settings.budget)} ${tokenizerLabel(s.primary)} tokens (devboy format's pipeline; the ${plural(s.fit.length, 'dataset')} that do not fit whole at full detail)</summary>`,
      '',
    );
    out.push(row(['dataset', ...s.formats]), row(['---', ...s.formats.map(() => '---')]));
    for (const f of s.fit) out.push(row([esc(f.title), ...s.formats.map((name) => f.cells.get(name) ?? '')]));
    out.push('', '</details>');
  }

  const skipped = result.skipped ?? [];
  if (skipped.length) {
    out.push('', `### Skipped recordings (${skipped.length})`, '');
    for (const x of skipped)
      out.push(
        `- \`${esc(x.file)}${x.line !== undefined ? `:${x.line}${x.col !== undefined ? `:${x.col}` : ''}` : ''}\`: ${esc(x.reason)}`,
      );
  }

  out.push('', '### Round trips', '');
  if (result.lossy.length === 0) out.push('Every format round-tripped every row (values and key order).');
  else {
    const formats = [...new Set(result.lossy.map((l) => l.format))].join(', ');
    out.push(
      `Not lossless: ${plural(result.lossy.length, 'dataset/level/format cell')} (${formats}); every other row round-tripped.`,
      '',
      `What each lossy format loses (${tokenizerLabel(s.primary)} rows; share of the leaf values of the datasets that do not round-trip; the places that lost most):`,
      '',
      row(['format', 'level', 'lost', 'where']),
      row(['---', '---', '---', '---']),
      ...s.losses.map((l) => row([l.format, l.level, esc(lossCell(l)), esc(places(l).replace(/^ \(|\)$/g, ''))])),
      '',
      '<details><summary>Each lossy cell and what it lost</summary>',
      '',
    );
    for (const l of result.lossy)
      out.push(
        `- ${esc(`${l.provider} ${l.project} ${l.dataset} ${l.label} ${l.level} ${l.format}`)}: ${esc(`${l.loss ? `${lossSummary(l.loss)}; first: ` : ''}${l.reason}`)}`,
      );
    out.push('', '</details>');
  }

  out.push(
    '',
    `<details><summary>Per dataset (${s.datasets.length}): ${tk}, change vs ${baseline}, pages at ${int(result.settings.budget)}</summary>`,
    '',
  );
  out.push(row(['dataset', 'level', ...s.formats]), row(['---', '---', ...s.formats.map(() => '---:')]));
  for (const d of s.datasets) {
    for (const l of d.levels) {
      out.push(
        row([
          l === d.levels[0] ? esc(d.title) : '',
          l.level,
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
  return out.join('\n');
}

function groupBias(result: BenchmarkResult, levels: string[], formats: string[]): string[][] {
  const out: string[][] = [];
  for (const tokenizer of new Set(result.heuristic_bias.map((b) => b.tokenizer))) {
    for (const level of levels) {
      out.push([
        `${level} vs ${tokenizer}`,
        ...formats.map((f) => {
          const b = result.heuristic_bias.find((x) => x.tokenizer === tokenizer && x.level === level && x.format === f);
          return b ? `${b.bias >= 0 ? '+' : ''}${(b.bias * 100).toFixed(1)}%` : '';
        }),
      ]);
    }
  }
  return out;
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function esc(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/</g, '&lt;');
}

function recommendationMarkdown(s: BenchmarkSummary, tk: string, baseline: string): string[] {
  const kinds = [...new Set(s.recommendations.map((r) => r.kind))];
  if (kinds.length === 0) return [];
  const out = [
    `### Recommendation (the lossless format with the fewest ${tk} per dataset kind and level, its change vs ${baseline}; the runner-up and how much more it costs)`,
    '',
    row(['kind (datasets)', ...s.levels]),
    row(['---', ...s.levels.map(() => '---')]),
  ];
  for (const kind of kinds) {
    const rec = s.recommendations.filter((r) => r.kind === kind);
    out.push(
      row([
        `${kind} (${rec[0]?.datasets ?? 0})`,
        ...s.levels.map((level) => {
          const r = rec.find((x) => x.level === level);
          if (!r?.winner) return 'none lossless';
          const next = r.runnerUp ? `; ${r.runnerUp.format} +${((r.runnerUp.tokens / r.runnerUp.winnerTokens - 1) * 100).toFixed(1)}%` : '';
          return `**${r.winner}** ${pct(r.saving ?? 0)}${next}`;
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
    ...c.formats.map((f) => row([f.format, change(f.published_saving), change(f.measured_saving), `${f.flips} of ${c.scope.datasets}`])),
  ];
}
