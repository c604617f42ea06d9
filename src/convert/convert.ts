import { DataError, lineColAt } from '../errors.js';
import { assertInputFormatName, detectFromContent, detectFromExtension, type InputFormatName } from '../formats/detect.js';
import { loadFormat, loadFormats, type FormatName, type FormatOptions } from '../formats/registry.js';
import { candidateFormats } from '../formats/info.js';
import { rankLossless } from '../formats/rank.js';
import type { RoundTrip } from '../formats/verify.js';
import { depthMessage, tooDeepPath } from '../json/depth.js';
import { LoneSurrogateError } from '../json/encode-guard.js';
import { findNumberLoss } from '../json/numbers.js';
import { parseNdjson } from '../json/parse.js';
import { findLoneSurrogateInText } from '../json/surrogates.js';
import type { JsonValue } from '../json/types.js';
import type { Input } from '../io/read-input.js';
import type { TokenizerName } from '../tokens/types.js';

export interface ConvertRequest {
  input: Input;
  /** Input format; detected from the extension, then the content, when absent. */
  from?: InputFormatName;
  /** `auto`: the lossless format with the fewest tokens under `tokenizer`. */
  to: FormatName | 'auto';
  /** What `auto` counts with (default o200k_base). */
  tokenizer?: TokenizerName;
  formatOptions?: FormatOptions;
  /** Decode the output again and fail unless it equals the input value. */
  verify?: boolean;
  /** Count bytes and tokens of input and output with this tokenizer. */
  stats?: TokenizerName;
}

export interface SideStats {
  format: InputFormatName;
  bytes: number;
  tokens: number;
}

export interface ConvertStats {
  tokenizer: TokenizerName;
  /** True when the tokenizer is an estimate (the heuristic), not a real BPE. */
  estimate: boolean;
  input: SideStats;
  output: SideStats;
  /** Fractions (0.25 = 25% fewer) of the output against the input as given. */
  saving: { tokens: number; bytes: number; baseline: string };
}

/** How `--to auto` chose: every format's tokens under one tokenizer, and whether it round-trips. */
export interface AutoChoice {
  tokenizer: TokenizerName;
  estimate: boolean;
  candidates: { format: FormatName; tokens: number; lossless: boolean; reason?: string }[];
}

export interface ConvertResult {
  from: InputFormatName;
  to: FormatName;
  auto?: AutoChoice;
  value: JsonValue;
  /** The encoded text, exactly as a model would receive it. */
  output: string;
  verification?: RoundTrip;
  stats?: ConvertStats;
}

export async function convert(req: ConvertRequest): Promise<ConvertResult> {
  const file = req.input.name;
  const { from, value } = await readValue(req.input, req.from, req.formatOptions);
  const auto = req.to === 'auto' ? await chooseFormat(value, req.tokenizer ?? 'o200k_base', req.formatOptions, file) : undefined;
  const to: FormatName = auto ? auto.chosen : (req.to as FormatName);
  const target = await loadFormat(to, req.formatOptions);
  let output: string;
  try {
    output = auto?.text ?? target.encode(value);
  } catch (err) {
    if (err instanceof LoneSurrogateError) throw locateLoneSurrogate(err, req.input, from);
    throw err instanceof DataError ? err.inFile(file) : new DataError(`cannot encode as ${to}: ${(err as Error).message}`, { file });
  }
  const result: ConvertResult = { from, to, value, output, ...(auto ? { auto: auto.choice } : {}) };
  if (req.verify) {
    // Loaded when asked for (--verify, --to auto): a plain convert starts sooner without it.
    const { verifyRoundTrip } = await import('../formats/verify.js');
    const check = verifyRoundTrip(target, value, output);
    result.verification = check;
    if (!check.lossless) throw new DataError(`round trip failed, output is not lossless: ${check.reason}`, { file });
  }
  if (req.stats) result.stats = await measure(req.input.text, from, output, to, req.stats);
  return result;
}

/** The input's format (given, else from the extension, then the content) and its value, exactly. */
export async function readValue(
  input: Input,
  from?: InputFormatName,
  options?: FormatOptions,
): Promise<{ from: InputFormatName; value: JsonValue }> {
  const format = from ?? (await detect(input, options));
  return { from: format, value: await decodeInput(input, format, options) };
}

/**
 * `--to auto`: encode in every candidate format, keep those whose output decodes (from its bytes) to
 * the input, and take the one with the fewest tokens; a tie goes to the earlier format in the registry.
 */
async function chooseFormat(
  value: JsonValue,
  tokenizerName: TokenizerName,
  options: FormatOptions | undefined,
  file: string,
): Promise<{ chosen: FormatName; text: string; choice: AutoChoice }> {
  const [{ loadTokenizer }, { verifyRoundTrip }] = await Promise.all([import('../tokens/registry.js'), import('../formats/verify.js')]);
  const tokenizer = await loadTokenizer(tokenizerName);
  const candidates: (AutoChoice['candidates'][number] & { text?: string })[] = [];
  // Baselines (YAML, CSV, Markdown, XML) are what a user may have today, never what devboy recommends.
  for (const format of await loadFormats(candidateFormats(), options)) {
    let text: string;
    try {
      text = format.encode(value);
    } catch (err) {
      candidates.push({ format: format.name, tokens: Number.NaN, lossless: false, reason: (err as Error).message });
      continue;
    }
    const check = verifyRoundTrip(format, value, text);
    candidates.push({
      format: format.name,
      tokens: tokenizer.count(text),
      lossless: check.lossless,
      ...(check.reason ? { reason: check.reason } : {}),
      text,
    });
  }
  const best = rankLossless(candidates)[0];
  if (!best) throw new DataError('no format round-trips this input (--to auto)', { file });
  return {
    chosen: best.format,
    text: best.text!,
    choice: {
      tokenizer: tokenizer.name,
      estimate: tokenizer.estimate,
      candidates: candidates.map(({ text: _text, ...c }) => c),
    },
  };
}

async function detect(input: Input, options?: FormatOptions): Promise<InputFormatName> {
  const byExt = input.path ? detectFromExtension(input.path, input.text) : undefined;
  if (byExt) return byExt;
  const [stc, toon] = await Promise.all([loadFormat('stc', options), loadFormat('toon', options)]);
  return detectFromContent(input.text, { stc, toon }, input.name);
}

/**
 * The input's value, exactly as its text means it, or a DataError saying where it cannot be: every
 * reader refuses numbers a double cannot hold, duplicate keys and nesting beyond MAX_DEPTH
 * (docs/formats/exactness.md). The JSON, NDJSON, TOON and GCF readers check this themselves; STC's
 * decoder (src/formats/stc) allows 1,000 levels and reads long numbers approximately, so both are
 * checked here for every input.
 */
async function decodeInput(input: Input, from: InputFormatName, options?: FormatOptions): Promise<JsonValue> {
  const format = assertInputFormatName(from);
  let value: JsonValue;
  if (format === 'ndjson') value = parseNdjson(input.text, input.name);
  else {
    const codec = await loadFormat(format, options);
    try {
      value = codec.decode(input.text);
    } catch (err) {
      if (err instanceof DataError) throw err.inFile(input.name);
      throw new DataError(`invalid ${format}: ${(err as Error).message}`, { file: input.name });
    }
  }
  if (format === 'stc') {
    const loss = findNumberLoss(input.text, value);
    if (loss) throw new DataError(`number ${loss.literal} ${loss.loss}`, { file: input.name, ...lineColAt(input.text, loss.offset) });
  }
  const deep = tooDeepPath(value);
  if (deep !== null) throw new DataError(depthMessage(deep), { file: input.name });
  return value;
}

/** The encoder's lone-surrogate refusal, placed at the escape in the input when the input is written in JSON syntax. */
function locateLoneSurrogate(err: LoneSurrogateError, input: Input, from: InputFormatName): DataError {
  const offset = from === 'json' || from === 'ndjson' || from === 'stc' ? findLoneSurrogateInText(input.text) : -1;
  return new DataError(err.message, { file: input.name, ...(offset >= 0 ? lineColAt(input.text, offset) : {}) });
}

async function measure(
  inputText: string,
  from: InputFormatName,
  output: string,
  to: FormatName,
  name: TokenizerName,
): Promise<ConvertStats> {
  const { loadTokenizer } = await import('../tokens/registry.js');
  const tokenizer = await loadTokenizer(name);
  // A final newline is file framing, not content; count neither side's.
  const inText = inputText.replace(/\r?\n$/, '');
  const input = { format: from, bytes: Buffer.byteLength(inText), tokens: tokenizer.count(inText) };
  const out = { format: to, bytes: Buffer.byteLength(output), tokens: tokenizer.count(output) };
  return {
    tokenizer: tokenizer.name,
    estimate: tokenizer.estimate,
    input,
    output: out,
    saving: {
      tokens: input.tokens === 0 ? 0 : 1 - out.tokens / input.tokens,
      bytes: input.bytes === 0 ? 0 : 1 - out.bytes / input.bytes,
      baseline: `input as given (${from})`,
    },
  };
}
