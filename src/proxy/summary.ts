import { combineSavings, computeSavings, type Savings } from '../transcript/savings.js';
import { escapeInvisible } from '../errors.js';
import { int, plural, savedPct } from '../text/words.js';
import { tokenizerLabel } from '../tokens/registry.js';
import type { TokenizerName } from '../tokens/types.js';
import type { LedgerCall, LedgerHeader } from './ledger.js';

export interface TokenizerTotals extends Savings {
  tokenizer: TokenizerName;
  /**
   * The level saving, lossy by choice: 1 - received / baseline over the calls lowered by --level (0 when
   * none). Apart from `encoder`, which is judged on the calls sent in full and verified against the
   * upstream only, and from `combined`, seed 001's formula over dedup and encoder.
   */
  level: number;
  /** Tokens of the lowered calls: as the upstream sent them, and as the model received them. */
  level_baseline_tokens: number;
  level_received_tokens: number;
  /** Tokens of every tool result as the upstream sent it. */
  baseline_tokens: number;
  /** Tokens the model received: bodies, refs, id lines, explainers, pages and ids fetched. */
  received_tokens: number;
  saved_tokens: number;
  explainer_tokens: number;
  /** What the added tool handed back (pages, whole results): no baseline of their own. */
  fetched_tokens: number;
}

export interface ToolTotals {
  tool: string;
  calls: number;
  encoded: number;
  lowered: number;
  refs: number;
  baseline_tokens: number;
  received_tokens: number;
}

/** What the proxy prints when it exits, and `devboy session` prints for its ledger: the same function over the same lines. */
export interface ProxySummary {
  header: LedgerHeader;
  calls: number;
  encoded: number;
  /** Lowered by --level: lossy by choice, never counted as re-encoded and verified. */
  lowered: number;
  /** Items the lowered calls left out (GitHub's pull requests in issue lists). */
  left_out_items: number;
  kept: number;
  refs: number;
  errors: number;
  fetches: number;
  paged: number;
  /** Calls whose upstream text was not re-encoded, by reason. */
  kept_reasons: Record<string, number>;
  /** Per tokenizer in header.tokenizers, the seeds' accounting. */
  totals: TokenizerTotals[];
  /** Under header.tokenizer. */
  by_tool: ToolTotals[];
}

export function summarizeLedger(header: LedgerHeader, calls: readonly LedgerCall[]): ProxySummary {
  const totals = header.tokenizers.map((t) => tokenizerTotals(t, calls));
  const tools = new Map<string, ToolTotals>();
  const primary = header.tokenizer;
  const keptReasons: Record<string, number> = {};
  for (const c of calls) {
    const row = tools.get(c.tool) ?? { tool: c.tool, calls: 0, encoded: 0, lowered: 0, refs: 0, baseline_tokens: 0, received_tokens: 0 };
    row.calls++;
    if (c.outcome === 'encoded') row.encoded++;
    if (c.outcome === 'lowered') row.lowered++;
    if (c.outcome === 'ref') row.refs++;
    row.baseline_tokens += c.tokens_before[primary] ?? 0;
    row.received_tokens += c.tokens_after[primary] ?? 0;
    tools.set(c.tool, row);
    if (c.outcome === 'kept' && c.why) {
      const reason = reasonKey(c.why);
      keptReasons[reason] = (keptReasons[reason] ?? 0) + 1;
    }
  }
  const count = (o: LedgerCall['outcome']) => calls.filter((c) => c.outcome === o).length;
  return {
    header,
    calls: calls.length,
    encoded: count('encoded'),
    lowered: count('lowered'),
    left_out_items: calls.reduce((n, c) => n + (c.outcome === 'lowered' ? (c.left_out?.items ?? 0) : 0), 0),
    kept: count('kept'),
    refs: count('ref'),
    errors: count('error'),
    fetches: count('fetched'),
    paged: calls.filter((c) => c.pages !== null).length,
    kept_reasons: keptReasons,
    totals,
    by_tool: [...tools.values()].sort(
      (a, b) => b.baseline_tokens - b.received_tokens - (a.baseline_tokens - a.received_tokens) || (a.tool < b.tool ? -1 : 1),
    ),
  };
}

/**
 * Seed 001's accounting (src/transcript/savings.ts) over what the proxy sent. The explainer is the
 * encoder's cost, so it is charged to the encoder (to the level saving when it came with a lowered
 * result); what the added tool fetched has no baseline and only lowers the measured saving. A call
 * lowered by --level is not the upstream's value: it is kept out of the encoder saving and counted as
 * the level saving, while dedup and measured take every call.
 */
function tokenizerTotals(t: TokenizerName, calls: readonly LedgerCall[]): TokenizerTotals {
  let baseline = 0;
  let baselineOfSent = 0;
  let encodedOfSent = 0;
  let loweredBaseline = 0;
  let loweredReceived = 0;
  let refs = 0;
  let idHeaders = 0;
  let explainers = 0;
  let fetched = 0;
  let received = 0;
  for (const c of calls) {
    const before = c.tokens_before[t] ?? 0;
    const after = c.tokens_after[t] ?? 0;
    const header = c.header_tokens[t] ?? 0;
    const explainer = c.explainer_tokens[t] ?? 0;
    received += after;
    if (c.outcome === 'fetched') {
      fetched += after;
      continue;
    }
    baseline += before;
    if (c.outcome === 'ref') {
      refs += after;
      continue;
    }
    idHeaders += header;
    explainers += explainer;
    if (c.outcome === 'lowered') {
      loweredBaseline += before;
      loweredReceived += after - header;
      continue;
    }
    baselineOfSent += before;
    encodedOfSent += after - header;
  }
  // Dedup over every call sent in full, lowered or not: what refs and id lines saved and cost.
  const { dedup, measured } = computeSavings({
    baseline,
    baselineOfSent: baselineOfSent + loweredBaseline,
    encodedOfSent: encodedOfSent + loweredReceived,
    refs,
    idHeaders,
    received,
  });
  const encoder = baselineOfSent === 0 ? 0 : 1 - encodedOfSent / baselineOfSent;
  return {
    tokenizer: t,
    baseline_tokens: baseline,
    received_tokens: received,
    saved_tokens: baseline - received,
    explainer_tokens: explainers,
    fetched_tokens: fetched,
    dedup,
    encoder,
    combined: combineSavings(dedup, encoder),
    measured,
    level: loweredBaseline === 0 ? 0 : 1 - loweredReceived / loweredBaseline,
    level_baseline_tokens: loweredBaseline,
    level_received_tokens: loweredReceived,
  };
}

/** A reason without its figures, so that reasons group: "toon is not smaller (12 vs 10 ...)" -> "toon is not smaller". */
function reasonKey(why: string): string {
  return why.replace(/\s*\(.*$/s, '').replace(/^not exact JSON: .*/s, 'not exact JSON');
}

/** The summary as text: every figure names its tokenizer, every saving its baseline. */
export function proxySummaryText(s: ProxySummary): string {
  const h = s.header;
  const lines = [
    `devboy proxy: ${plural(s.calls, 'tool call')} through ${escapeInvisible(h.upstream)}; format ${h.format} (chosen with ${h.tokenizer}); baseline: the upstream's text as sent`,
    `  ${s.encoded} re-encoded and verified, ${lowered(s)}${s.kept} passed through unchanged, ${s.refs} sent as a dedup reference, ${s.errors} errors, ${s.fetches} fetched through the added tool${s.paged ? `, ${s.paged} paged` : ''}`,
  ];
  const reasons = Object.entries(s.kept_reasons).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (reasons.length) lines.push(`  unchanged because: ${reasons.map(([why, n]) => `${escapeInvisible(why)} (${n})`).join('; ')}`);
  for (const t of s.totals) {
    const tk = `${tokenizerLabel(t.tokenizer)} tokens${t.tokenizer === 'heuristic' ? ', an estimate' : ''}`;
    lines.push(
      `  ${tk}: baseline ${int(t.baseline_tokens)}, received ${int(t.received_tokens)} (explainer ${int(t.explainer_tokens)}, fetched ${int(t.fetched_tokens)}), saved ${int(t.saved_tokens)}`,
      `    dedup ${savedPct(t.dedup)}, encoder ${savedPct(t.encoder)}, combined ${savedPct(t.combined)} (dedup + (1 - dedup) * encoder), measured ${savedPct(t.measured)} (1 - received / baseline)`,
    );
    if (s.lowered)
      lines.push(
        `    level ${savedPct(t.level)} (1 - received / baseline of the ${plural(s.lowered, 'call')} lowered to ${escapeInvisible(h.level ?? '')} detail: lossy by choice, not verified against the upstream): ${int(t.level_baseline_tokens)} -> ${int(t.level_received_tokens)}, apart from encoder and combined`,
      );
  }
  if (s.by_tool.length) {
    lines.push(`  by tool (${tokenizerLabel(h.tokenizer)} tokens: baseline -> received):`);
    for (const r of s.by_tool)
      lines.push(
        `    ${escapeInvisible(r.tool)}: ${plural(r.calls, 'call')}, ${r.encoded} re-encoded, ${s.lowered ? `${r.lowered} lowered, ` : ''}${r.refs} refs, ${int(r.baseline_tokens)} -> ${int(r.received_tokens)}`,
      );
  }
  return lines.join('\n');
}

/** "1 lowered to minimal detail (lossy by choice; 51 items left out), " when --level lowered any call. */
function lowered(s: ProxySummary): string {
  if (!s.lowered) return '';
  const left = s.left_out_items ? `; ${plural(s.left_out_items, 'item')} left out` : '';
  return `${s.lowered} lowered to ${escapeInvisible(s.header.level ?? '')} detail (lossy by choice${left}), `;
}
