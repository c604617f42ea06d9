import { canonicalBody, digestBody } from './canonical.js';
import { Lru } from './lru.js';
import type { DedupOptions, TranscriptCall } from './types.js';

/** Why a body is sent without an id: it will never be referred to. */
export type PlainReason = 'error' | 'small' | 'id-collision';

export type DedupDecision = { kind: 'ref'; id: string } | { kind: 'first'; id: string } | { kind: 'plain'; reason: PlainReason };

/**
 * Exact-repeat dedup state for one agent session: which bodies the model has seen, under which id.
 * It decides; it never encodes or counts (playback.ts does).
 */
export class DedupIndex {
  /** id -> full SHA-256 of bodies that can be referred to now. */
  private readonly recent: Lru<string, string>;
  /**
   * Every id shown to the model since the last boundary, evicted or not: an evicted body is still
   * in the model's context, so a different body must never be shown under the same short id.
   */
  private readonly shown = new Map<string, string>();

  constructor(private readonly options: DedupOptions) {
    if (!Number.isInteger(options.minBytes) || options.minBytes < 0)
      throw new RangeError(`minBytes must be a non-negative integer, got ${options.minBytes}`);
    this.recent = new Lru(options.lruSize);
  }

  decide(call: TranscriptCall): DedupDecision {
    // An error is often transient ("rate limited"); a ref would hide that it happened again.
    if (call.isError) return { kind: 'plain', reason: 'error' };
    const digest = digestBody(canonicalBody(call.output));
    if (digest.bytes < this.options.minBytes) return { kind: 'plain', reason: 'small' };
    if (this.recent.get(digest.id) === digest.sha256) return { kind: 'ref', id: digest.id };
    const owner = this.shown.get(digest.id);
    if (owner !== undefined && owner !== digest.sha256) return { kind: 'plain', reason: 'id-collision' };
    this.shown.set(digest.id, digest.sha256);
    this.recent.set(digest.id, digest.sha256);
    return { kind: 'first', id: digest.id };
  }

  /** Context compaction: the model no longer sees anything sent before. */
  boundary(): void {
    this.recent.clear();
    this.shown.clear();
  }
}
