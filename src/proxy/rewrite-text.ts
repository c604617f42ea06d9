import { parseJson } from '../json/parse.js';
import { firstLoneSurrogate, isWellFormed } from '../json/surrogates.js';
import { isJsonObject, type JsonValue } from '../json/types.js';
import { verifyRoundTrip } from '../formats/verify.js';
import type { Format, FormatName } from '../formats/types.js';
import type { Tokenizer } from '../tokens/types.js';

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
  /** The candidates, in registry order: one format, or every format for --format auto. */
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
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > settings.maxBytes) return { kind: 'kept', reason: `over --max-result-mb (${bytes} bytes)` };
  const first = firstNonSpace(text);
  if (first !== '{' && first !== '[') return { kind: 'kept', reason: 'not JSON' };
  // UTF-8 cannot carry a lone surrogate: the text as a reader gets it is not the text the server meant.
  if (!isWellFormed(text)) return { kind: 'kept', reason: 'lone surrogate in the text' };
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch (err) {
    return { kind: 'kept', reason: `not exact JSON: ${(err as Error).message}` };
  }
  if (!Array.isArray(value) && !isJsonObject(value)) return { kind: 'kept', reason: 'not a JSON object or array' };
  const lone = firstLoneSurrogate(value);
  if (lone) return { kind: 'kept', reason: `lone surrogate ${lone.escape} at ${lone.path}`, value };

  const failures: string[] = [];
  let best: { format: FormatName; text: string; tokens: number } | undefined;
  for (const format of settings.formats) {
    let encoded: string;
    try {
      encoded = format.encode(value);
    } catch (err) {
      failures.push(`${format.name}: ${(err as Error).message}`);
      continue;
    }
    const check = verifyRoundTrip(format, value, encoded);
    if (!check.lossless) {
      failures.push(check.reason ?? `${format.name} did not round-trip`);
      continue;
    }
    const tokens = settings.tokenizer.count(encoded);
    // A tie keeps the earlier format in the registry's order: the choice must not depend on anything else.
    if (!best || tokens < best.tokens) best = { format: format.name, text: encoded, tokens };
  }
  if (!best) return { kind: 'kept', reason: `no format round-trips it (${failures.join('; ')})`, value };
  const before = settings.tokenizer.count(text);
  if (best.tokens >= before)
    return { kind: 'kept', reason: `${best.format} is not smaller (${best.tokens} vs ${before} ${settings.tokenizer.name} tokens)`, value };
  return { kind: 'encoded', format: best.format, text: best.text, value, before, after: best.tokens };
}

function firstNonSpace(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') return c;
  }
  return undefined;
}
