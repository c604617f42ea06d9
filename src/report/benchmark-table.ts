import Table from 'cli-table3';
import { tokenizerLabel } from '../tokens/registry.js';
import type { BenchmarkResult } from '../benchmark/schema.js';
import { int, msSpread, pct, ratio, saved, summarize, type BenchmarkSummary } from './benchmark-summary.js';
import type { MethodContrast } from '../benchmark/method-contrast.js';
import type { RenderOptions } from './exporter.js';
import { SPEED_REFERENCE } from '../benchmark/speed.js';
import { header, lossyText, skippedLines } from './header.js';
import { fewerOrMore, plural } from './words.js';
import { baselineFormatOf } from '../metadata/format-metadata.js';
import { familyDetailLines, familySummaryLines } from './families.js';
import { answerText, lossLines } from './losses.js';

/**
 * The terminal report, summary first so it fits one screen: totals, the recommendation per dataset
 * kind and level, why published numbers differ, speed, and one line each on the heuristic, round
 * trips and skipped recordings. `details` adds every dataset, the first response at the budget, the
 * heuristic's bias per format and level, and every lossy cell. Every figure names its tokenizer and
 * baseline in its heading.
 */
export function benchmarkTable(result: BenchmarkResult, options: RenderOptions = {}): string {
  const s = summarize(result);
  const star = (text: string) => (options.color ? `\u001b[1m${text} *\u001b[22m` : `${text} *`);
  const baseline = result.settings.savings_baseline;
  const tk = s.primary === 'heuristic' ? 'heuristic tokens (an estimate)' : `${tokenizerLabel(s.primary)} tokens`;
  const out: string[] = [];

  out.push(header(result));
  if (s.answer) out.push(answerText(s.answer, s.primary));
  out.push('');
  out.push(
    `Totals over ${plural(result.datasets.length, 'dataset')}: ${tk}; change vs ${baseline} (same items, level and tokenizer); pages at ${int(result.settings.budget)} ${tokenizerLabel(s.primary)} tokens; * = fewest tokens among lossless formats`,
  );
  const totals = new Table({ head: ['level', ...s.formats], style: { head: [], border: [] }, chars: COMPACT });
  for (const t of s.totals) {
    totals.push([
      t.level,
      ...t.cells.map((c) => {
        const lost = s.losses.find((l) => l.format === c.format && l.level === t.level);
        const share = lost && lost.values > 0 ? `, ${((lost.lost / lost.values) * 100).toFixed(1)}% lost` : '';
        const text = `${int(c.tokens)} ${pct(c.saving)} ${int(c.pages)}p${c.lossyRows ? ` (${c.lossyRows} lossy${share})` : ''}`;
        return c.format === t.winner ? star(text) : text;
      }),
    ]);
  }
  out.push(totals.toString());

  out.push('', ...recommendationLines(s, tk, baseline));
  out.push(...familySummaryLines(result));
  if (s.contrast) out.push('', ...contrastLines(s.contrast));

  if (s.speed.length) {
    out.push('');
    out.push(
      `Speed: time to encode and decode every dataset at every level once (sum of per-call medians of ${plural(result.settings.runs, 'run')}, [sum of fastest-sum of slowest]); ×N = time / ${SPEED_REFERENCE}'s in this run`,
    );
    const speed = new Table({
      head: ['format', 'encode', `vs ${SPEED_REFERENCE}`, 'decode', `vs ${SPEED_REFERENCE}`],
      style: { head: [], border: [] },
      chars: COMPACT,
    });
    for (const f of s.speed)
      speed.push([
        f.format,
        msSpread(f.encode.median_ms, f.encode.spread_ms),
        ratio(f.encode.vs_json_compact),
        msSpread(f.decode.median_ms, f.decode.spread_ms),
        ratio(f.decode.vs_json_compact),
      ]);
    out.push(speed.toString());
  }

  if (s.session) {
    const x = s.session;
    out.push('');
    out.push(
      `Session ${x.file}: ${plural(x.calls, 'call')}, ${int(x.hits)} answered by a reference to an earlier identical output; savings of ${tokenizerLabel(s.primary)} tokens vs ${x.baseline} (combined = dedup + (1 - dedup) × encoder; measured = what the model received)`,
    );
    const session = new Table({
      head: ['format', 'dedup', 'encoder', 'combined', 'measured'],
      style: { head: [], border: [] },
      chars: COMPACT,
    });
    for (const r of x.rows) session.push([r.format, saved(r.dedup), saved(r.encoder), saved(r.combined), saved(r.measured)]);
    out.push(session.toString());
  }

  out.push('');
  const heuristic = heuristicLine(result, s);
  if (heuristic) out.push(heuristic);
  out.push(options.details ? lossyText(result) : lossySummary(result));
  out.push(...lossLines(s));
  const skipped = skippedLines(result);
  if (skipped.length) out.push(...skipped);

  if (!options.details) {
    out.push(
      `Per dataset, the first response at the budget, the heuristic's bias and every lossy cell: --details (or --export-markdown, --json).`,
    );
    return out.join('\n');
  }

  out.push('');
  out.push(
    `Per dataset: ${tk}, change vs ${baseline}, pages at ${int(result.settings.budget)} ${tokenizerLabel(s.primary)} tokens; ! = not lossless (see above)`,
  );
  const detail = new Table({
    head: ['dataset / level', ...s.formats],
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 },
    chars: BORDERLESS,
  });
  const baselineFormat = baselineFormatOf(baseline);
  for (const d of s.datasets) {
    detail.push([{ colSpan: s.formats.length + 1, content: d.title }]);
    for (const l of d.levels) {
      detail.push([
        `  ${l.level}`,
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
  out.push(detail.toString());
  out.push(...familyDetailLines(result));

  if (s.fit.length) {
    out.push('');
    out.push(
      `First response at ${int(result.settings.budget)} ${tokenizerLabel(s.primary)} tokens (devboy format's pipeline): items included, at which detail; only datasets that do not fit whole at full detail`,
    );
    const fit = new Table({
      head: ['dataset / format', ...s.formats],
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 },
      chars: BORDERLESS,
    });
    for (const f of s.fit) {
      fit.push([{ colSpan: s.formats.length + 1, content: f.title }]);
      fit.push(['', ...s.formats.map((name) => f.cells.get(name) ?? '')]);
    }
    out.push(fit.toString());
  }

  if (result.heuristic_bias.length) {
    out.push('');
    out.push('Heuristic (bytes / 3.5) vs real tokenizer, all datasets: negative = the heuristic undercounts');
    const bias = new Table({ head: ['level', ...s.formats], style: { head: [], border: [] }, chars: COMPACT });
    for (const tokenizer of new Set(result.heuristic_bias.map((b) => b.tokenizer))) {
      for (const level of s.levels) {
        bias.push([
          `${level} vs ${tokenizer}`,
          ...s.formats.map((f) => {
            const b = result.heuristic_bias.find((x) => x.tokenizer === tokenizer && x.level === level && x.format === f);
            return b ? `${b.bias >= 0 ? '+' : ''}${(b.bias * 100).toFixed(1)}%` : '';
          }),
        ]);
      }
    }
    out.push(bias.toString());
  }
  return out.join('\n');
}

/** Per dataset kind and level: which format to use, what it saves, what the next best costs more. */
function recommendationLines(s: BenchmarkSummary, tk: string, baseline: string): string[] {
  const kinds = [...new Set(s.recommendations.map((r) => r.kind))];
  if (kinds.length === 0) return [];
  const table = new Table({ head: ['kind', ...s.levels], style: { head: [], border: [] }, chars: COMPACT });
  for (const kind of kinds) {
    const rec = s.recommendations.filter((r) => r.kind === kind);
    table.push([
      `${kind} (${rec[0]?.datasets ?? 0})`,
      ...s.levels.map((level) => {
        const r = rec.find((x) => x.level === level);
        if (!r?.winner) return 'none lossless';
        const next = r.runnerUp ? `; ${r.runnerUp.format} +${((r.runnerUp.tokens / r.runnerUp.winnerTokens - 1) * 100).toFixed(1)}%` : '';
        return `${r.winner} ${pct(r.saving ?? 0)}${next}`;
      }),
    ]);
  }
  return [
    `Recommendation: the lossless format with the fewest ${tk} per dataset kind (datasets) and level, its change vs ${baseline}; the runner-up and how much more it costs`,
    table.toString(),
  ];
}

/** The same datasets under devboy-tools' published method and under devboy's. */
export function contrastLines(c: MethodContrast): string[] {
  const table = new Table({
    head: [
      'format',
      `published method (vs json_pretty, bytes / 3.5)`,
      `measured (vs json_compact, ${c.measured.tokenizer})`,
      'conclusion flips',
    ],
    style: { head: [], border: [] },
    chars: COMPACT,
  });
  for (const f of c.formats)
    table.push([
      f.format,
      fewerOrMoreTokens(f.published_saving),
      fewerOrMoreTokens(f.measured_saving),
      `${f.flips} of ${plural(c.scope.datasets, 'dataset')}`,
    ]);
  return [
    `Why published numbers differ: devboy-tools' method against devboy's, on the same ${plural(c.scope.datasets, 'dataset')} (issue, merge request and diff lists at full detail)`,
    table.toString(),
  ];
}

function fewerOrMoreTokens(saving: number): string {
  return `${fewerOrMore(saving)} tokens`;
}

/** One line: how far the heuristic is off, and how often it would pick another format. */
function heuristicLine(result: BenchmarkResult, s: BenchmarkSummary): string | undefined {
  if (result.heuristic_bias.length === 0 || !s.heuristicWinners) return undefined;
  const biases = result.heuristic_bias.map((b) => b.bias * 100);
  const range = `${Math.min(...biases).toFixed(1)}% to ${Math.max(...biases) >= 0 ? '+' : ''}${Math.max(...biases).toFixed(1)}%`;
  const w = s.heuristicWinners;
  return [
    `Heuristic (bytes / 3.5): off by ${range} against ${tokenizerLabel(s.primary)} per format and level; it picks another winner in ${int(w.differ)} of`,
    `  ${plural(w.cells, 'dataset/level cell')} (${int(w.ties)} have a tie, which agrees when a tied format is the other's winner).`,
  ].join('\n');
}

function lossySummary(result: BenchmarkResult): string {
  if (result.lossy.length === 0) return lossyText(result);
  const formats = [...new Set(result.lossy.map((l) => l.format))].join(', ');
  return `Not lossless: ${plural(result.lossy.length, 'dataset/level/format cell')} (${formats}); every other row round-tripped. --details lists them.`;
}

/** No rule between rows: a dataset's four levels read as one block. */
const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

/** 93 datasets read better as aligned text under a title line than boxed. */
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
