/** Token totals of a played-back transcript, all under one tokenizer. */
export interface TranscriptTotals {
  /** Baseline tokens of every call (what the session would cost with no dedup and no encoder). */
  baseline: number;
  /** Baseline tokens of the calls that were sent in full (not refs). */
  baselineOfSent: number;
  /** Tokens of the encoded bodies of the calls sent in full, without their id headers. */
  encodedOfSent: number;
  /** Tokens the refs cost. */
  refs: number;
  /** Extra tokens the id headers added to bodies sent the first time. */
  idHeaders: number;
  /** Tokens the model actually received: refs + encoded bodies + id headers. */
  received: number;
}

/** Fractions of the baseline (0.25 = 25% fewer tokens), as seed 001's FormatMetadata defines them. */
export interface Savings {
  dedup: number;
  encoder: number;
  combined: number;
  measured: number;
}

/**
 * Seed 001's savings rule. Dedup pays for its own machinery: what refs saved minus what the refs and
 * the id headers cost, over the baseline of all calls, so a session without repeats shows a negative
 * dedup saving. The encoder is judged only on the calls sent in full. `combined` is the seed's
 * formula; `measured` is 1 - received/baseline. They differ by encoder * (refs + idHeaders) / baseline,
 * because the formula assumes the encoder also shrank the refs and headers, which it does not.
 */
export function computeSavings(t: TranscriptTotals): Savings {
  const dedup = t.baseline === 0 ? 0 : (t.baseline - t.baselineOfSent - t.refs - t.idHeaders) / t.baseline;
  const encoder = t.baselineOfSent === 0 ? 0 : 1 - t.encodedOfSent / t.baselineOfSent;
  return {
    dedup,
    encoder,
    combined: combineSavings(dedup, encoder),
    measured: t.baseline === 0 ? 0 : 1 - t.received / t.baseline,
  };
}

/** Seed 001's combined saving: the encoder's saving on what dedup left. */
export function combineSavings(dedup: number, encoder: number): number {
  return dedup + (1 - dedup) * encoder;
}
