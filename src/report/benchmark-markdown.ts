import type { BenchmarkResult } from '../benchmark/schema.js';
import { int, msSpread, pct, ratio, saved, summarize } from './benchmark-summary.js';
import { SPEED_REFERENCE } from '../benchmark/speed.js';
import { rangeFromZero, xyBarChart } from './mermaid.js';
import { header } from './header.js';
import { familyMarkdownLines } from './families.js';

/** The report for CI job summaries and PR comments: totals, bias and losses up front, details folded. */
export function benchmarkMarkdown(result: BenchmarkResult): string {
  const s = summarize(result);
  const baseline = result.settings.savings_baseline;
  const tk = s.primary === 'heuristic' ? 'heuristic tokens (an estimate)' : `${s.primary} tokens`;
  const out: string[] = [
    '## devboy benchmark',
    '',
    ...header(result)
      .split('\n')
      .map((l) => `- ${esc(l)}`),
    '',
  ];

  out.push(
    `### Totals (${tk}; change vs ${baseline}; pages at ${int(result.settings.budget)} ${s.primary} tokens; **bold** = fewest tokens among lossless formats)`,
    '',
  );
  out.push(row(['level', ...s.formats]), row(['---', ...s.formats.map(() => '---:')]));
  for (const t of s.totals) {
    out.push(
      row([
        t.level,
        ...t.cells.map((c) => {
          const text = `${int(c.tokens)} (${pct(c.saving)}), ${int(c.pages)} pages${c.lossyRows ? ` ⚠ ${c.lossyRows} lossy` : ''}`;
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
        title: `${t.level}: ${s.primary} tokens per format (fewer is better)`,
        categories: shown.map((c) => c.format),
        yLabel: 'tokens',
        values: shown.map((c) => c.tokens),
        yRange: rangeFromZero(shown.map((c) => c.tokens)),
        height: 220,
      }),
    );
  }

  out.push(...familyMarkdownLines(result));

  if (s.speed.length) {
    out.push(
      '',
      `### Speed (every dataset at every level once: sum of per-call medians of ${result.settings.runs} runs, [fastest-slowest]; ×N = time / ${SPEED_REFERENCE}'s in this run)`,
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
      `### Session \`${esc(x.file)}\`: ${x.calls} calls, ${x.hits} repeated (savings of ${s.primary} tokens vs ${x.baseline}; combined = dedup + (1 − dedup) × encoder; measured = what the model received)`,
      '',
    );
    out.push(row(['format', 'dedup', 'encoder', 'combined', 'measured']), row(['---', '---:', '---:', '---:', '---:']));
    for (const r of x.rows) out.push(row([r.format, saved(r.dedup), saved(r.encoder), saved(r.combined), saved(r.measured)]));
  }

  if (result.heuristic_bias.length) {
    out.push('', '### Heuristic bias (bytes / 3.5 vs the real tokenizer; negative = undercounts)', '');
    out.push(row(['level', ...s.formats]), row(['---', ...s.formats.map(() => '---:')]));
    for (const b of groupBias(result, s.levels, s.formats)) out.push(row(b));
    out.push(
      '',
      s.disagreements.length
        ? `The heuristic picks a different winner than ${s.primary} in ${s.disagreements.length} dataset/level cells.`
        : `The heuristic and ${s.primary} agree on every winner.`,
    );
  }

  if (s.fit.length) {
    out.push(
      '',
      `### First response at ${int(result.settings.budget)} ${s.primary} tokens (devboy format's pipeline; datasets that do not fit whole at full detail)`,
      '',
    );
    out.push(row(['dataset', ...s.formats]), row(['---', ...s.formats.map(() => '---')]));
    for (const f of s.fit) out.push(row([esc(f.title), ...s.formats.map((name) => f.cells.get(name) ?? '')]));
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
  else
    for (const l of result.lossy) out.push(`- ${esc(`${l.provider} ${l.project} ${l.dataset} ${l.level} ${l.format}`)}: ${esc(l.reason)}`);

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
            const text = `${int(r.tokens)} (${pct(r.savings.encoder)})${r.pages > 1 ? ` ${r.pages}p` : ''}${r.lossless ? '' : ' ⚠'}`;
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
