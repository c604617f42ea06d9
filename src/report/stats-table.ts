import { isCandidate } from '../formats/info.js';
import { lossSummary } from '../formats/loss.js';
import { leftOutNote } from '../providers/response.js';
import type { FormatName } from '../formats/types.js';
import type { Recommendation, StatsResult, StatsRow } from '../stats/stats.js';
import { ms, pct } from './benchmark-summary.js';
import { tokenizerLabel } from '../tokens/registry.js';
import { fewerOrMore, int, plural } from '../text/words.js';
import { terminalText as t } from '../escape/terminal.js';
import { DEFAULT_WIDTH, foldLine, listLines } from '../text/fold.js';
import { renderTable, type TextTable } from './text-table.js';

/**
 * `devboy stats` as text: the recommendation first, then every level x tokenizer against every
 * format (tokens, change vs the baseline, pages), bytes, speed, and what did not round-trip.
 */
export function statsTable(s: StatsResult, width = DEFAULT_WIDTH): string {
  const { input, settings } = s;
  const out = [
    `devboy stats: ${t(input.file)} (${input.format}, ${int(input.bytes)} bytes): ${inputText(input)}`,
    ...listLines(
      'tokenizers',
      s.tokenizers.map((t) => `${t.name} (${t.implementation})`),
      width,
    ),
    '',
    recommendationText(s.recommendation),
    '',
    `Tokens; change vs ${settings.savings_baseline} (same level and tokenizer); pages at ${int(settings.budget)} tokens of that tokenizer below; * = fewest tokens among lossless formats; ✗ = not lossless`,
  ];
  const formats = settings.formats;
  // Split to fit, each table keeps the level and tokenizer columns: a row says what it counts.
  const table: TextTable = { head: ['level', 'tokenizer', ...formats], rows: [], keyColumns: 2 };
  for (const level of settings.levels) {
    for (const [i, t] of s.tokenizers.entries()) {
      const rows = formats.map((f) => cell(s.rows, level, f, t.name));
      const best = winner(rows.filter((r): r is StatsRow => r !== undefined));
      table.rows.push([
        i === 0 ? level : '',
        t.estimate ? `${t.name} (est.)` : tokenizerLabel(t.name),
        ...rows.map((r) => {
          if (!r) return NOT_MEASURED;
          const text = `${int(r.tokens)} ${pct(r.saving)}${r.lossless ? '' : ' ✗'}`;
          return r.format === best ? `${text} *` : text;
        }),
      ]);
      // Pages on a row of their own: a cell of tokens, change and pages would not fit 100 columns.
      table.rows.push(['', '  pages', ...rows.map((r) => (!r || r.pages === null ? '-' : int(r.pages)))]);
    }
    table.rows.push(['', 'bytes', ...formats.map((f) => bytesOf(cell(s.rows, level, f, s.tokenizers[0]!.name)))]);
  }
  out.push(renderTable(table, width));

  out.push(...familyLines(s));

  const raw = s.tokenizers[0]!.name;
  out.push('', `Speed at level raw: per-call median of ${plural(settings.runs, 'run')} [fastest-slowest]`);
  const speed: TextTable = { head: ['format', 'encode', 'decode'], rows: [] };
  for (const f of formats) {
    const r = cell(s.rows, 'raw', f, raw);
    speed.rows.push(r ? [f, spread(r.encode), spread(r.decode)] : [f, NOT_MEASURED, NOT_MEASURED]);
  }
  out.push(renderTable(speed, width));

  const lossy = s.rows.filter((r) => !r.lossless && r.tokenizer === raw);
  if (lossy.length) {
    out.push('', `Not lossless: ${plural(lossy.length, 'level/format cell')}`);
    for (const r of lossy)
      out.push(`  ${r.level} ${r.format}: ${t(`${r.loss ? `${lossSummary(r.loss)}; first: ` : ''}${r.reason ?? 'does not round-trip'}`)}`);
  }
  if (s.unmeasured.length) {
    out.push('', `Not measured: ${plural(s.unmeasured.length, 'level/format cell')}`);
    for (const u of s.unmeasured) out.push(`  ${u.level} ${u.format}: ${t(u.reason)}`);
  }
  // Every line folds to the width, long words (a file's path) too; tables are fitted already.
  return `${out.flatMap((l) => (l.includes('\n') ? [l] : foldLine(l, width))).join('\n')}\n`;
}

/** What the figures are of: the whole input as given, or (--items) its provider items. */
function inputText(input: StatsResult['input']): string {
  const holds = input.shape ? `${input.shape}, ${plural(input.items ?? 0, 'item')}` : undefined;
  // A list of another kind beside the items (a GitHub issues list's pull requests) is never left out unsaid.
  const left = input.left_out;
  if (input.measured === 'items')
    return `${holds}: the provider items alone (--items), not the whole input${left ? `; ${leftOutNote(left, 'measures')}` : ''}`;
  if (!holds) return `the whole input as given (${t(input.note ?? 'not a provider response')})`;
  const other = left ? `, --type ${left.type} its ${plural(left.items, left.what.replace(/s$/, ''), left.what)}` : '';
  return `the whole input as given (it holds ${holds}; --items measures them alone${other})`;
}

/**
 * Where the winner changes between real tokenizers (only with two or more), and the break-even of
 * each format's explainer under the recommendation's tokenizer, one line per level.
 */
function familyLines(s: StatsResult): string[] {
  const out: string[] = [];
  const real = s.tokenizers.filter((t) => !t.estimate);
  if (real.length > 1) {
    out.push('', `Winner by tokenizer (lossless, fewest tokens; the heuristic aside):`);
    for (const w of s.winner_by_tokenizer) {
      const picks = w.winners
        .filter((x) => real.some((t) => t.name === x.tokenizer))
        .map((x) => `${tokenizerLabel(x.tokenizer)} ${x.format ?? 'none'}`);
      out.push(`  ${w.level.padEnd(8)} ${picks.join(', ')}${w.changes ? '  (the winner changes)' : ''}`);
    }
  }
  const tk = s.recommendation.tokenizer;
  const explained = s.explainers.filter((e) => e.tokens[tk] !== undefined);
  if (explained.length) {
    out.push(
      '',
      `Break-even under ${tokenizerLabel(tk)}: results like this one after which a format's saving per result vs ${s.settings.savings_baseline} repays the prompt that teaches it (${explained.map((e) => `${e.format} ${int(e.tokens[tk]!)}`).join(', ')} tokens); never = it saves nothing`,
    );
    for (const level of s.settings.levels) {
      const cells = s.break_even.filter((b) => b.level === level && b.tokenizer === tk);
      out.push(
        `  ${level.padEnd(8)} ${cells.map((b) => `${b.format} ${b.break_even === null ? 'never' : int(b.break_even)}${b.lossless ? '' : ' (lossy)'}`).join(', ')}`,
      );
    }
  }
  return out;
}

/** One line: the format, its tokens and saving against the named baseline, and what the runner-up costs. */
export function recommendationText(r: Recommendation): string {
  const tk = r.estimate ? `${r.tokenizer} tokens (an estimate)` : `${tokenizerLabel(r.tokenizer)} tokens`;
  const parts = [
    `Recommendation: ${r.format}, the lossless format with the fewest ${tk} for ${r.measured === 'items' ? 'its provider items as sent (--items)' : 'this input as given'}: ${int(r.tokens)}, ${fewerOrMore(r.saving)} than ${r.baseline.name} (${int(r.baseline.tokens)})`,
  ];
  if (r.runner_up)
    parts.push(
      `runner-up ${r.runner_up.format}: ${int(r.runner_up.tokens)}, ${fewerOrMore(1 - r.runner_up.tokens / r.tokens)} than ${r.format}`,
    );
  return parts.join('; ');
}

/** The row of a cell; none when the format cannot write the value (listed under "Not measured"). */
function cell(rows: readonly StatsRow[], level: string, format: FormatName, tokenizer: string): StatsRow | undefined {
  return rows.find((r) => r.level === level && r.format === format && r.tokenizer === tokenizer);
}

const NOT_MEASURED = 'not measured';

function bytesOf(row: StatsRow | undefined): string {
  return row ? int(row.bytes) : '-';
}

function winner(rows: readonly StatsRow[]): FormatName | undefined {
  const lossless = rows.filter((r) => r.lossless && isCandidate(r.format));
  const fewest = Math.min(...lossless.map((r) => r.tokens));
  return lossless.find((r) => r.tokens === fewest)?.format;
}

function spread(t: StatsRow['encode']): string {
  return t.runs === 0 ? '-' : `${ms(t.median_ms)} ms [${ms(t.min_ms)}-${ms(t.max_ms)}]`;
}
