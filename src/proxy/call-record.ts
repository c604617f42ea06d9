import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { DedupDecision } from '../transcript/dedup.js';
import type { Tokenizer, TokenizerName } from '../tokens/types.js';
import type { LedgerCall } from './ledger.js';
import type { Paged } from './pages.js';

/** How a ledger line ends: what the model got and why. */
export interface CallEnd {
  outcome: LedgerCall['outcome'];
  why: string | null;
  /** What the model got; 'same': the upstream's texts, already counted. */
  after: readonly string[] | 'same';
  header?: string[];
  explainer?: string[];
  note?: string;
}

/**
 * The ledger lines of one proxy session, and the token counts they are made of. A result's texts
 * are counted once per tokenizer while it is shaped (the upstream's text, the chosen encoding and
 * the ledger's figures are the same texts, and counting a large one is most of the proxy's work);
 * `clear()` forgets them before the next result.
 */
export class CallRecorder {
  private calls = 0;
  private readonly counted = new Map<TokenizerName, Map<string, number>>();

  /** `counters`: every ledger count is made under each (--tokenizers). */
  constructor(private readonly counters: readonly Tokenizer[]) {}

  /** A tokenizer whose counts of this result's texts are remembered until clear(). */
  memo(t: Tokenizer): Tokenizer {
    let seen = this.counted.get(t.name);
    if (!seen) this.counted.set(t.name, (seen = new Map()));
    const cache = seen;
    return {
      name: t.name,
      estimate: t.estimate,
      count: (text) => {
        let n = cache.get(text);
        if (n === undefined) cache.set(text, (n = t.count(text)));
        return n;
      },
    };
  }

  clear(): void {
    this.counted.clear();
  }

  /** The ledger line's start; `uncounted` texts are measured in bytes only. */
  start(tool: string, args: unknown, before: readonly string[], uncounted: readonly string[] = []): LedgerCall {
    return {
      call: ++this.calls,
      tool,
      args_sha256: createHash('sha256')
        .update(JSON.stringify(args ?? {}))
        .digest('hex')
        .slice(0, 16),
      outcome: 'kept',
      format: null,
      verified: false,
      why: null,
      level: null,
      left_out: null,
      pages: null,
      dedup: null,
      dedup_id: null,
      bytes_before: bytesOf(before) + bytesOf(uncounted),
      bytes_after: 0,
      tokens_before: this.count(before),
      tokens_after: {},
      header_tokens: zeros(this.counters),
      explainer_tokens: zeros(this.counters),
      ms_added: 0,
    };
  }

  /** The whole ledger line, `started` being when the proxy got the upstream's result. */
  finish(record: LedgerCall, started: number, end: CallEnd): LedgerCall {
    return {
      ...record,
      outcome: end.outcome,
      why: end.why,
      bytes_after: end.after === 'same' ? record.bytes_before : bytesOf(end.after),
      tokens_after: end.after === 'same' ? record.tokens_before : this.count(end.after),
      header_tokens: this.count(end.header ?? []),
      explainer_tokens: this.count(end.explainer ?? []),
      ms_added: round3(performance.now() - started),
      ...(end.note ? { note: end.note } : {}),
    };
  }

  private count(texts: readonly string[]): Partial<Record<TokenizerName, number>> {
    const out: Partial<Record<TokenizerName, number>> = {};
    for (const t of this.counters) {
      const m = this.memo(t);
      out[t.name] = texts.reduce((n, text) => n + m.count(text), 0);
    }
    return out;
  }
}

/** The ledger's dedup column: no dedup, a body sent plain, or a body shown with its id. */
export function dedupOf(decision: DedupDecision | null): LedgerCall['dedup'] {
  if (!decision) return null;
  return decision.kind === 'plain' ? 'plain' : 'first';
}

/** The ledger's `pages` of a paged body. */
export function pagesRecord(id: string, paged: Paged | undefined): LedgerCall['pages'] {
  return paged ? { id, count: paged.pages.length, member: paged.member, over_budget: paged.over } : null;
}

function bytesOf(texts: readonly string[]): number {
  return texts.reduce((n, t) => n + Buffer.byteLength(t, 'utf8'), 0);
}

function zeros(counters: readonly Tokenizer[]): Partial<Record<TokenizerName, number>> {
  return Object.fromEntries(counters.map((t) => [t.name, 0]));
}

function round3(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
