import { fewerOrMore, plural } from '../text/words.js';
import { tokenizerLabel } from '../tokens/registry.js';
import { displayWidth, terminalText } from '../escape/terminal.js';
import type { CallReport, TranscriptReport } from './playback.js';

/** The human-readable report: every token figure names its tokenizer, every saving its baseline. */
export function transcriptReportText(r: TranscriptReport, source: { name: string; kind: string }): string {
  const tk = r.estimate ? `${r.tokenizer} tokens, an estimate` : `${tokenizerLabel(r.tokenizer)} tokens`;
  const rows = r.per_call.map((c, i) => [
    String(i + 1),
    c.line === null ? '-' : String(c.line),
    terminalText(c.tool, 28),
    outcome(c),
    group(c.tokens),
    group(c.baseline_tokens),
  ]);
  const head = ['#', 'line', 'tool', 'sent as', `tokens`, `baseline`];
  const widths = head.map((h, col) => Math.max(displayWidth(h), ...rows.map((row) => displayWidth(row[col]!))));
  const align = (row: string[]) =>
    row
      .map((cell, col) => {
        const fill = ' '.repeat(Math.max(0, widths[col]! - displayWidth(cell)));
        return col >= 4 ? fill + cell : cell + fill;
      })
      .join('  ')
      .trimEnd();
  const sentInFull = r.calls - r.hits;
  const lines = [
    `session ${terminalText(source.name)} (${source.kind}): ${plural(r.calls, 'call')}, ${plural(r.boundaries, 'boundary', 'boundaries')}; format ${r.format}; ${tk}; baseline ${r.baseline}`,
    `ids: ${r.settings.id}; bodies under ${r.settings.min_bytes} bytes get none; last ${r.settings.lru_size} bodies referable`,
    '',
    align(head),
    ...rows.map(align),
    '',
    `calls ${r.calls}, hits ${r.hits}, errors ${r.errors} (never deduped), lossy encodings ${r.lossy_calls}${r.lossy_calls > 0 ? ` (${r.format} did not round-trip them: devboy convert --verify shows where)` : ''}`,
    `baseline  ${group(r.baseline_tokens).padStart(10)} ${tk} (${r.baseline})`,
    `received  ${group(r.received_tokens).padStart(10)} ${tk}`,
    `dedup     ${pct(r.dedup_savings_pct)}  what refs saved minus what refs and ids cost, over the baseline of all calls`,
    `encoder   ${pct(r.encoder_savings_pct)}  ${r.format} over the ${sentInFull} call${sentInFull === 1 ? '' : 's'} sent in full`,
    `combined  ${pct(r.combined_savings_pct)}  dedup + (1 - dedup) * encoder`,
    `measured  ${pct(r.measured_savings_pct)}  1 - received / baseline`,
    `all savings: ${tk} against ${r.baseline}`,
  ];
  if (r.gcf_delta) lines.push('', ...deltaLines(r, tk));
  return lines.join('\n');
}

function deltaLines(r: TranscriptReport, tk: string): string[] {
  const d = r.gcf_delta!;
  const skipped = Object.entries(d.skipped)
    .map(([why, n]) => `${n} ${why}`)
    .join(', ');
  return [
    `side by side: ${d.method}`,
    `  ${d.wire_calls} call${d.wire_calls === 1 ? '' : 's'} sent as delta wires${skipped ? `; the rest as above (${skipped})` : ''}`,
    `  received ${group(d.received_tokens)} ${tk}: ${fewerOrMore(d.savings_pct)} than ${r.baseline} (dedup + encoder above: ${fewerOrMore(r.measured_savings_pct)})`,
    `  rebuilt by the reference decoder: ${d.same_list} same list, ${d.same_set_only} same rows in another order, ${d.different} different`,
  ];
}

function outcome(c: CallReport): string {
  if (c.hit) return `ref ${c.ref}`;
  if (c.id !== null) return `body ${c.id}`;
  return `body (${c.plain_reason === 'small' ? 'small' : c.plain_reason === 'error' ? 'error' : 'id taken'})`;
}

function group(n: number): string {
  return n.toLocaleString('en-US');
}

function pct(f: number): string {
  return `${(f * 100).toFixed(1)}%`.padStart(7);
}
