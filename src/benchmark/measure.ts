import type { Format } from '../formats/types.js';
import { lossReport, unreadableLoss, type LossReport } from '../formats/loss.js';
import { asWritten, decoderRejected, judgeDecoded, type RoundTrip } from '../formats/verify.js';
import type { JsonValue } from '../json/types.js';
import { NO_CLOCK, type Clock } from './phases.js';
import type { Timing } from './schema.js';
import { timeAdaptive, type TimingPlan } from './timing.js';

/** One list of items encoded in one format: the text, whether it round-trips, and how fast. */
export interface Encoded {
  format: Format;
  text: string;
  bytes: number;
  lossless: boolean;
  reason?: string;
  /** When not lossless: what was lost, value by value. */
  loss?: LossReport;
  encode: Timing;
  decode: Timing;
}

/** The codecs warmUp has run in this process, by name. */
const warmed = new Set<string>();

/**
 * Run every codec on a small table of tool-output-like items until the JIT has compiled it, so the
 * first dataset's timings (often the largest, with one timed run) are not those of cold code. The
 * quick codecs are optimized after about twenty rounds; a slow one (the reference libraries take
 * milliseconds a round) stops after twenty once it has had `budgetMs`, by when its rounds are steady.
 */
export function warmUp(formats: readonly Format[], rounds = 30, budgetMs = 40): void {
  const value = warmUpValue();
  for (const format of formats) {
    // Compiled code outlives a run: a second run in the same process (a library caller, the proxy,
    // the test suite) finds the codec warm. Keyed by name: two TOON objects share their code.
    if (warmed.has(format.name)) continue;
    warmed.add(format.name);
    const start = performance.now();
    for (let i = 0; i < rounds && (i < 20 || performance.now() - start < budgetMs); i++) {
      try {
        format.decode(format.encode(value));
      } catch {
        // A codec that cannot take this value is measured, and reported, cell by cell.
      }
    }
  }
}

function warmUpValue(): JsonValue {
  return Array.from({ length: 40 }, (_, i) => ({
    id: 1000 + i,
    title: `Issue ${i}: "quoted", with a comma and a colon: here`,
    state: i % 3 ? 'open' : 'closed',
    draft: i % 5 === 0,
    score: i / 7,
    assignee: i % 4 ? { login: `user${i}`, id: i * 31 } : null,
    labels: i % 2 ? [{ name: 'bug', color: 'd73a4a' }] : [],
    body: `Steps:\n1. run it\n2. see \\ and \t tabs, é and 中\n${'more text '.repeat(i % 7)}`,
    created_at: `2024-01-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
  }));
}

const NOT_TIMED: Timing = { median_ms: 0, min_ms: 0, max_ms: 0, runs: 0 };

/**
 * Encode once, decode that text once and compare, then time encode and decode adaptively. The
 * encode that produced the text and the decode that checked it are the timer's first calls.
 */
export function measureEncoding(format: Format, value: JsonValue, timing: TimingPlan, clock: Clock = NO_CLOCK): Encoded {
  let encodeFirst = 0;
  const text = clock.run('encode', () => {
    const start = performance.now();
    const t = format.encode(value);
    encodeFirst = performance.now() - start;
    return t;
  });
  let decodeFirst = 0;
  let decoded: JsonValue | undefined;
  let rejection: unknown;
  let rejected = false;
  clock.run('decode', () => {
    const start = performance.now();
    try {
      // As verifyRoundTrip does: what a reader decodes is the text's UTF-8 bytes read back.
      decoded = format.decode(asWritten(text));
    } catch (err) {
      rejected = true;
      rejection = err;
    }
    decodeFirst = performance.now() - start;
  });
  const check: RoundTrip = rejected
    ? decoderRejected(format, rejection)
    : clock.run('verify', () => judgeDecoded(format, value, decoded as JsonValue));
  const loss = check.lossless
    ? undefined
    : clock.run('verify', () => (rejected ? unreadableLoss(value, (rejection as Error).message) : lossReport(value, decoded)));
  decoded = undefined; // not kept alive through the timed runs
  const encode = clock.run('timing', () => timeAdaptive(() => format.encode(value), timing, encodeFirst));
  const decode = rejected ? NOT_TIMED : clock.run('timing', () => timeAdaptive(() => format.decode(text), timing, decodeFirst));
  return {
    format,
    text,
    bytes: Buffer.byteLength(text),
    lossless: check.lossless,
    ...(check.reason !== undefined ? { reason: check.reason } : {}),
    ...(loss ? { loss } : {}),
    encode,
    decode,
  };
}
