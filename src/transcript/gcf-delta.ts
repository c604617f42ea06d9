import {
  decodeGenericDelta,
  decodeGenericFull,
  genericPackRoot,
  GenericDeltaSession,
  sizeGuard,
  verifyGenericDelta,
  type GenericSet,
} from '@blackwell-systems/gcf';
import { jsonEqual } from '../json/equal.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json/types.js';
import type { Tokenizer } from '../tokens/types.js';
import { packageVersion } from '../versions.js';
import { canonicalBody } from './canonical.js';
import type { TranscriptEntry } from './types.js';

/** Why a call cannot take part in a generic delta session (GCF SPEC 10a needs a keyed flat table). */
export type DeltaSkip = 'error' | 'string-output' | 'not-a-table' | 'nested-values' | 'keys-differ' | 'no-unique-key';

export interface DeltaCall {
  tool: string;
  /** 'full' and 'delta' are GenericDeltaSession wires; 'fallback' is what L0 dedup + the encoder sent. */
  sent: 'full' | 'delta' | 'fallback';
  skipped: DeltaSkip | null;
  tokens: number;
  /** For wires: does the consumer, applying them with the reference decoder, get the output back? */
  rebuilt: 'same-list' | 'same-set-other-order' | 'different' | null;
}

export interface DeltaReport {
  method: string;
  received_tokens: number;
  /** Fraction of the baseline, like the other *_pct fields. */
  savings_pct: number;
  wire_calls: number;
  same_list: number;
  same_set_only: number;
  different: number;
  skipped: Partial<Record<DeltaSkip, number>>;
  per_call: DeltaCall[];
}

interface Stream {
  producer: GenericDeltaSession;
  consumer: GenericSet;
}

/**
 * GCF's own multi-turn method, side by side with L0 dedup: successive outputs of the same tool with
 * the same args are sent as GenericDeltaSession wires (a full anchor, then added/changed/removed rows,
 * re-anchored by sizeGuard). Only keyed flat tables qualify; every other call is charged what the
 * L0 + encoder playback sent for it (`fallbackTokens`). Each wire is applied by the reference decoder and
 * checked against the real output: deltas are row *sets*, so row order can come back different.
 */
export function playGcfDelta(
  entries: readonly TranscriptEntry[],
  fallbackTokens: readonly number[],
  tokenizer: Tokenizer,
  baselineTokens: number,
): DeltaReport {
  let streams = new Map<string, Stream>();
  const perCall: DeltaCall[] = [];
  let i = 0;
  for (const entry of entries) {
    if (entry.kind === 'boundary') {
      streams = new Map();
      continue;
    }
    const fallback = fallbackTokens[i++]!;
    const table = entry.isError ? { skip: 'error' as const } : keyedTable(entry.output);
    if ('skip' in table) {
      perCall.push({ tool: entry.tool, sent: 'fallback', skipped: table.skip, tokens: fallback, rebuilt: null });
      continue;
    }
    const streamKey = `${entry.tool}\u0000${canonicalBody(entry.args ?? {})}`;
    let stream = streams.get(streamKey);
    let wire: string;
    let isFull: boolean;
    if (!stream || stream.consumer.key !== table.set.key) {
      const producer = new GenericDeltaSession(table.set, '', sizeGuard());
      wire = producer.currentFull();
      isFull = true;
      stream = { producer, consumer: table.set };
      streams.set(streamKey, stream);
    } else {
      ({ wire, isFull } = stream.producer.next(table.set));
    }
    let rebuilt: DeltaCall['rebuilt'];
    try {
      stream.consumer = apply(stream.consumer, wire, isFull);
      rebuilt = compare(stream.consumer.rows, table.rows, table.set.key);
    } catch {
      // The reference decoder refused the wire: the consumer has nothing usable; start this stream over.
      streams.delete(streamKey);
      rebuilt = 'different';
    }
    perCall.push({ tool: entry.tool, sent: isFull ? 'full' : 'delta', skipped: null, tokens: tokenizer.count(wire), rebuilt });
  }
  const received = perCall.reduce((n, c) => n + c.tokens, 0);
  const wires = perCall.filter((c) => c.rebuilt !== null);
  const skipped: Partial<Record<DeltaSkip, number>> = {};
  for (const c of perCall) if (c.skipped) skipped[c.skipped] = (skipped[c.skipped] ?? 0) + 1;
  return {
    method: `@blackwell-systems/gcf ${packageVersion('@blackwell-systems/gcf')} GenericDeltaSession (generic profile, sizeGuard re-anchoring), keyed flat tables only`,
    received_tokens: received,
    savings_pct: baselineTokens === 0 ? 0 : 1 - received / baselineTokens,
    wire_calls: wires.length,
    same_list: wires.filter((c) => c.rebuilt === 'same-list').length,
    same_set_only: wires.filter((c) => c.rebuilt === 'same-set-other-order').length,
    different: wires.filter((c) => c.rebuilt === 'different').length,
    skipped,
    per_call: perCall,
  };
}

/** What the consumer holds after receiving a wire: decoded and root-checked by the reference code. */
function apply(base: GenericSet, wire: string, isFull: boolean): GenericSet {
  if (isFull) {
    const { set, packRoot } = decodeGenericFull(wire);
    if (genericPackRoot(set) !== packRoot) throw new Error('GCF full payload does not hash to its pack_root');
    return set;
  }
  const delta = decodeGenericDelta(wire);
  return verifyGenericDelta(base, delta, delta.newRoot);
}

function compare(got: Array<Record<string, unknown>>, want: JsonObject[], key: string): DeltaCall['rebuilt'] {
  if (jsonEqual(got, want)) return 'same-list';
  const byKey = (rows: Array<Record<string, unknown>>) =>
    [...rows].sort((a, b) => (canonicalBody(a[key] as JsonValue) < canonicalBody(b[key] as JsonValue) ? -1 : 1));
  return jsonEqual(byKey(got), byKey(want)) ? 'same-set-other-order' : 'different';
}

/** Identity column candidates, in order of preference, before falling back to the first unique column. */
const KEY_NAMES = ['id', 'key', 'number', 'sha', 'iid', 'name'];

function keyedTable(output: JsonValue): { set: GenericSet; rows: JsonObject[] } | { skip: DeltaSkip } {
  if (typeof output === 'string') return { skip: 'string-output' };
  if (!Array.isArray(output) || output.length === 0 || !output.every(isJsonObject)) return { skip: 'not-a-table' };
  const rows = output as JsonObject[];
  const fields = Object.keys(rows[0]!);
  if (!rows.every((r) => jsonEqual(Object.keys(r), fields))) return { skip: 'keys-differ' };
  if (rows.some((r) => fields.some((f) => typeof r[f] === 'object' && r[f] !== null))) return { skip: 'nested-values' };
  const unique = (f: string) => new Set(rows.map((r) => canonicalBody(r[f]!))).size === rows.length && rows.every((r) => r[f] !== null);
  const key = [...KEY_NAMES.filter((k) => fields.includes(k)), ...fields].find(unique);
  if (key === undefined) return { skip: 'no-unique-key' };
  return { set: { name: 'rows', key, fields, rows }, rows };
}
