import Table from 'cli-table3';
import type { BenchmarkResult } from '../benchmark/schema.js';
import { int, msSpread, pct, ratio, saved, summarize } from './benchmark-summary.js';
import { SPEED_REFERENCE } from '../benchmark/speed.js';
import { header, lossyText, skippedLines } from './header.js';
import { BASELINE_FORMAT } from '../metadata/format-metadata.js';
import { familyTableLines } from './families.js';

/**
 * The terminal report: totals first (which format wins at each level), then each dataset, then
 * the heuristic's bias and anything lossy. Every figure's tokenizer and baseline are in its header.
 */
export function benchmarkTable(result: BenchmarkResult, options: { color?: boolean } = {}): string {
  const s = summarize(result);
  const star = (text: string) => (options.color ? `\u001b[1m${text} *\u001b[22m` : `${text} *`);
  const baseline = result.settings.savings_baseline;
  const tk = s.primary === 'heuristic' ? 'heuristic tokens (an estimate)' : `${s.primary} tokens`;
  const out: string[] = [];

  out.push(header(result));
  out.push('');
  out.push(
    `Totals over ${result.datasets.length} datasets: ${tk}; change vs ${baseline} (same items, level and tokenizer); pages at ${int(result.settings.budget)} ${s.primary} tokens; * = fewest tokens among lossless formats`,
  );
  const totals = new Table({ head: ['level', ...s.formats], style: { head: [], border: [] }, chars: COMPACT });
  for (const t of s.totals) {
    totals.push([
      t.level,
      ...t.cells.map((c) => {
        const text = `${int(c.tokens)} ${pct(c.saving)} ${int(c.pages)}p${c.lossyRows ? ` (${c.lossyRows} lossy)` : ''}`;
        return c.format === t.winner ? star(text) : text;
      }),
    ]);
  }
  out.push(totals.toString());
  out.push(...familyTableLines(result));

  if (s.speed.length) {
    out.push('');
    out.push(
      `Speed: time to encode and decode every dataset at every level once (sum of per-call medians of ${result.settings.runs} runs, [sum of fastest-sum of slowest]); ×N = time / ${SPEED_REFERENCE}'s in this run`,
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
      `Session ${x.file}: ${x.calls} calls, ${x.hits} answered by a reference to an earlier identical output; savings of ${s.primary} tokens vs ${x.baseline} (combined = dedup + (1 - dedup) × encoder; measured = what the model received)`,
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
  out.push(
    `Per dataset: ${tk}, change vs ${baseline}, pages at ${int(result.settings.budget)} ${s.primary} tokens; ! = not lossless (see below)`,
  );
  const detail = new Table({
    head: ['dataset / level', ...s.formats],
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 },
    chars: BORDERLESS,
  });
  const baselineFormat = BASELINE_FORMAT[baseline];
  for (const d of s.datasets) {
    detail.push([{ colSpan: s.formats.length + 1, content: clip(d.title, 100) }]);
    for (const l of d.levels) {
      detail.push([
        `  ${l.level}`,
        ...s.formats.map((f) => {
          const r = l.cells.get(f);
          if (!r) return '';
          const change = f === baselineFormat ? '' : ` ${pct(r.savings.encoder)}`;
          const text = `${int(r.tokens)}${change}${r.pages > 1 ? ` ${r.pages}p` : ''}${r.lossless ? '' : ' !'}`;
          return f === l.winner ? star(text) : text;
        }),
      ]);
    }
  }
  out.push(detail.toString());

  if (s.fit.length) {
    out.push('');
    out.push(
      `First response at ${int(result.settings.budget)} ${s.primary} tokens (devboy format's pipeline): items included, at which detail; only datasets that do not fit whole at full detail`,
    );
    const fit = new Table({
      head: ['dataset', ...s.formats],
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 },
      chars: BORDERLESS,
    });
    for (const f of s.fit) fit.push([clip(f.title, 48), ...s.formats.map((name) => f.cells.get(name) ?? '')]);
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
    out.push(
      s.disagreements.length
        ? `The heuristic picks a different winner than ${s.primary} in ${s.disagreements.length} of ${s.datasets.length * s.levels.length} dataset/level cells.`
        : `The heuristic and ${s.primary} pick the same winner in every dataset/level cell.`,
    );
  }

  out.push('');
  out.push(lossyText(result));
  const skipped = skippedLines(result);
  if (skipped.length) out.push('', ...skipped);
  return out.join('\n');
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

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
