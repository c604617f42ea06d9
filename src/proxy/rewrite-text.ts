import { parseJson } from '../json/parse.js';
import { firstLoneSurrogate, isWellFormed } from '../json/surrogates.js';
import { isJsonObject, type JsonValue } from '../json/types.js';
import { verifyRoundTrip } from '../formats/verify.js';
import { candidateFormats } from '../formats/info.js';
import { byRank } from '../formats/rank.js';
import type { Format, FormatName } from '../formats/types.js';
import type { Tokenizer } from '../tokens/types.js';

/**
 * The formats the proxy tries: for --format auto the candidates, as `convert --to auto` (a baseline such
 * as CSV is measured, never chosen); a format named, baseline or not, is tried alone, as `convert --to`
 * writes it.
 */
export function proxyFormats(format: FormatName | 'auto'): FormatName[] {
  return format === 'auto' ? candidateFormats() : [format];
}

/** What the proxy does with one text block of a tool result. */
export type TextVerdict =
  | {
      kind: 'encoded';
      format: FormatName;
      /** The text the model receives instead: decoded, it is `value` again (checked). */
      text: string;
      value: JsonValue;
      /** Tokens of the original text and of `text` under the choosing tokenizer. */
      before: number;
      after: number;
    }
  | {
      kind: 'kept';
      /** Why the original text goes through byte for byte. */
      reason: string;
      /** The exact JSON value of the text, when it is one (dedup and pages still use it). */
      value?: JsonValue;
    };

export interface TextRewriteSettings {
  /** The formats to try (proxyFormats): one, or the candidates for --format auto. */
  formats: readonly Format[];
  /** What "fewer tokens" is counted with (--tokenizer). */
  tokenizer: Tokenizer;
  /** Texts longer than this (UTF-8 bytes) are not parsed at all. */
  maxBytes: number;
}

/**
 * Re-encode a text block only when that is safe and smaller: the text must be exactly one JSON object
 * or array (devboy's strict reader: no duplicate keys, no number a double cannot hold, no nesting past
 * the limit), hold no lone surrogate, and the chosen encoding must decode back, from its own text, to
 * the same value (values and key order; the check of `convert --verify`) and count fewer tokens. The
 * choice is a function of the text alone, so the same result always gives the same bytes.
 */
export function rewriteText(text: string, settings: TextRewriteSettings): TextVerdict {
  const read = readJsonText(text, settings.maxBytes);
  return 'reason' in read ? { kind: 'kept', reason: read.reason } : encodeValue(text, read.value, settings);
}

/** The exact JSON object or array a text is, or why it is not one the proxy may touch. */
export function readJsonText(text: string, maxBytes: number): { value: JsonValue } | { reason: string } {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) return { reason: `over --max-result-mb (${bytes} bytes)` };
  const first = firstNonSpace(text);
  if (first !== '{' && first !== '[') return { reason: 'not JSON' };
  // UTF-8 cannot carry a lone surrogate: the text as a reader gets it is not the text the server meant.
  if (!isWellFormed(text)) return { reason: 'lone surrogate in the text' };
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch (err) {
    return { reason: `not exact JSON: ${(err as Error).message}` };
  }
  if (!Array.isArray(value) && !isJsonObject(value)) return { reason: 'not a JSON object or array' };
  const lone = firstLoneSurrogate(value);
  if (lone) return { reason: `lone surrogate ${lone.escape} at ${lone.path}` };
  return { value };
}

/**
 * The candidate with the fewest tokens among those that decode back to `value`, if it has fewer
 * tokens than `text`. Candidates are checked from the fewest tokens up, so usually one is decoded.
 */
export function encodeValue(text: string, value: JsonValue, settings: TextRewriteSettings): TextVerdict {
  const failures: string[] = [];
  const candidates: { format: FormatName; codec: Format; text: string; tokens: number }[] = [];
  for (const codec of settings.formats) {
    try {
      const encoded = codec.encode(value);
      candidates.push({ format: codec.name, codec, text: encoded, tokens: settings.tokenizer.count(encoded) });
    } catch (err) {
      failures.push(`${codec.name}: ${(err as Error).message}`);
    }
  }
  // convert --to auto's order (a tie to the earlier format in the registry): the choice depends on the text alone.
  candidates.sort(byRank);
  const before = settings.tokenizer.count(text);
  for (const c of candidates) {
    if (c.tokens >= before)
      return {
        kind: 'kept',
        reason: `${c.format} is not smaller (${c.tokens} vs ${before} ${settings.tokenizer.name} tokens)`,
        value,
      };
    const check = verifyRoundTrip(c.codec, value, c.text);
    if (check.lossless) return { kind: 'encoded', format: c.format, text: c.text, value, before, after: c.tokens };
    failures.push(check.reason ?? `${c.format} did not round-trip`);
  }
  return { kind: 'kept', reason: `no format round-trips it (${failures.join('; ')})`, value };
}

function firstNonSpace(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') return c;
  }
  return undefined;
}
