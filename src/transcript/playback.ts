import { DataError } from '../errors.js';
import { loadFormat, type Format, type FormatName, type FormatOptions } from '../formats/registry.js';
import { verifyRoundTrip } from '../formats/verify.js';
import type { JsonValue } from '../json/types.js';
import { baselineText } from '../metadata/format-metadata.js';
import { DEFAULT_TOKENIZER, loadTokenizer, type TokenizerName } from '../tokens/registry.js';
import type { Tokenizer } from '../tokens/types.js';
import { ID_HEX_DIGITS, ID_PREFIX, idHeader, refLine } from './canonical.js';
import { DedupIndex, type PlainReason } from './dedup.js';
import { playGcfDelta, type DeltaReport } from './gcf-delta.js';
import { computeSavings, type TranscriptTotals } from './savings.js';
import { DEFAULT_DEDUP, type SavingsBaseline, type TranscriptCall, type TranscriptEntry } from './types.js';

export interface PlaybackOptions {
  format: FormatName;
  tokenizer?: TokenizerName;
  baseline?: SavingsBaseline;
  minBytes?: number;
  lruSize?: number;
  formatOptions?: FormatOptions;
  /** Also play back GCF generic delta sessions side by side (see gcf-delta.ts). */
  gcfDelta?: boolean;
  /** Named in errors about a call, e.g. the session file. */
  file?: string;
}

export interface CallReport {
  line: number | null;
  tool: string;
  is_error: boolean;
  /** The body was sent before (since the last boundary) and this call got a ref instead. */
  hit: boolean;
  /** On a hit, the id referred to. */
  ref: string | null;
  /** When the body is sent with an id header: that id. */
  id: string | null;
  /** Why a body got neither id nor ref ('error', 'small', 'id-collision'); null otherwise. */
  plain_reason: PlainReason | null;
  /** Exactly what the model receives for this call. */
  content: string;
  tokens: number;
  baseline_tokens: number;
  /** The body the model has for this call decodes to the recorded output (values and key order). */
  lossless: boolean;
}

/** devboy-tools' accounting for a whole session; `_pct` fields are fractions (0.25 = 25%), as there. */
export interface TranscriptReport {
  format: FormatName;
  tokenizer: TokenizerName;
  /** True when the tokenizer is an estimate (the heuristic). */
  estimate: boolean;
  baseline: SavingsBaseline;
  settings: { min_bytes: number; lru_size: number; id: string };
  calls: number;
  hits: number;
  errors: number;
  boundaries: number;
  lossy_calls: number;
  baseline_tokens: number;
  received_tokens: number;
  dedup_savings_pct: number;
  encoder_savings_pct: number;
  combined_savings_pct: number;
  measured_savings_pct: number;
  per_call: CallReport[];
  /** With `gcfDelta`: the same session sent as GCF generic delta wires where that applies. */
  gcf_delta?: DeltaReport;
}

/** Play a transcript back through exact-repeat dedup and an encoder, counting what the model would receive. */
export async function playTranscript(entries: readonly TranscriptEntry[], options: PlaybackOptions): Promise<TranscriptReport> {
  const tokenizer = await loadTokenizer(options.tokenizer ?? DEFAULT_TOKENIZER);
  const format = await loadFormat(options.format, options.formatOptions);
  const baseline = options.baseline ?? 'json_compact';
  const minBytes = options.minBytes ?? DEFAULT_DEDUP.minBytes;
  const lruSize = options.lruSize ?? DEFAULT_DEDUP.lruSize;
  const player: Player = {
    tokenizer,
    format,
    baseline,
    index: new DedupIndex({ minBytes, lruSize }),
    shown: new Map(),
    totals: { baseline: 0, baselineOfSent: 0, encodedOfSent: 0, refs: 0, idHeaders: 0, received: 0 },
    ...(options.file !== undefined ? { file: options.file } : {}),
  };
  const perCall: CallReport[] = [];
  let boundaries = 0;

  for (const entry of entries) {
    if (entry.kind === 'boundary') {
      player.index.boundary();
      player.shown.clear();
      boundaries++;
      continue;
    }
    perCall.push(playCall(player, entry));
  }

  const { totals } = player;
  const savings = computeSavings(totals);
  const report: TranscriptReport = {
    format: format.name,
    tokenizer: tokenizer.name,
    estimate: tokenizer.estimate,
    baseline,
    settings: { min_bytes: minBytes, lru_size: lruSize, id: `${ID_PREFIX} + first ${ID_HEX_DIGITS} hex digits of SHA-256(canonical JSON)` },
    calls: perCall.length,
    hits: perCall.filter((c) => c.hit).length,
    errors: perCall.filter((c) => c.is_error).length,
    boundaries,
    lossy_calls: perCall.filter((c) => !c.lossless).length,
    baseline_tokens: totals.baseline,
    received_tokens: totals.received,
    dedup_savings_pct: savings.dedup,
    encoder_savings_pct: savings.encoder,
    combined_savings_pct: savings.combined,
    measured_savings_pct: savings.measured,
    per_call: perCall,
  };
  if (options.gcfDelta)
    report.gcf_delta = playGcfDelta(
      entries,
      perCall.map((c) => c.tokens),
      tokenizer,
      totals.baseline,
    );
  return report;
}

/** One session's playback state: the encoder and tokenizer, the dedup index, and the running totals. */
interface Player {
  tokenizer: Tokenizer;
  format: Format;
  baseline: SavingsBaseline;
  index: DedupIndex;
  /** What each body shown with an id cost and whether it round-trips, so a ref can be judged without re-encoding. */
  shown: Map<string, { tokens: number; lossless: boolean }>;
  totals: TranscriptTotals;
  file?: string;
}

/** What the model receives for one call: a ref to a body it was shown (when that is smaller), else the body encoded. */
function playCall(p: Player, entry: TranscriptCall): CallReport {
  const { tokenizer, totals } = p;
  const baselineTokens = tokenizer.count(outputBaselineText(entry.output, p.baseline));
  totals.baseline += baselineTokens;
  const decision = p.index.decide(entry);
  const common = { line: entry.line ?? null, tool: entry.tool, is_error: entry.isError, baseline_tokens: baselineTokens };

  const earlier = decision.kind === 'ref' ? p.shown.get(decision.id) : undefined;
  if (decision.kind === 'ref' && earlier) {
    const content = refLine(decision.id);
    const tokens = tokenizer.count(content);
    // Never make it bigger: a ref that costs as much as the body is not worth sending.
    if (tokens < earlier.tokens) {
      totals.refs += tokens;
      totals.received += tokens;
      return { ...common, hit: true, ref: decision.id, id: null, plain_reason: null, content, tokens, lossless: earlier.lossless };
    }
  }

  const { text, lossless } = encodeBody(entry, p.format, p.file);
  const id = decision.kind === 'plain' ? null : decision.id;
  const content = id === null ? text : `${idHeader(id)}\n${text}`;
  const encodedTokens = tokenizer.count(text);
  const tokens = id === null ? encodedTokens : tokenizer.count(content);
  if (id !== null) p.shown.set(id, { tokens, lossless });
  totals.baselineOfSent += baselineTokens;
  totals.encodedOfSent += encodedTokens;
  totals.idHeaders += tokens - encodedTokens;
  totals.received += tokens;
  return {
    ...common,
    hit: false,
    ref: null,
    id,
    plain_reason: decision.kind === 'plain' ? decision.reason : null,
    content,
    tokens,
    lossless,
  };
}

/** What the session would cost with no dedup and no encoder. A string is sent as-is either way. */
export function outputBaselineText(output: JsonValue, baseline: SavingsBaseline): string {
  return typeof output === 'string' ? output : baselineText(output, baseline);
}

interface EncodedBody {
  text: string;
  lossless: boolean;
}

function encodeBody(call: TranscriptCall, format: Format, file?: string): EncodedBody {
  if (typeof call.output === 'string') return { text: call.output, lossless: true };
  let text: string;
  try {
    text = format.encode(call.output);
  } catch (err) {
    const where = { ...(file !== undefined ? { file } : {}), ...(call.line !== undefined ? { line: call.line } : {}) };
    throw new DataError(`cannot encode the output of ${call.tool} as ${format.name}: ${(err as Error).message}`, where);
  }
  return { text, lossless: verifyRoundTrip(format, call.output, text).lossless };
}
