/**
 * Whether a number written in a text survives being read into a double and written out again.
 *
 * Every encoder devboy uses writes a number as the shortest decimal that reads back to the same
 * double (`String(n)`), so a literal survives exactly when that decimal has the literal's value:
 * `1.5e3` and `1500` are the same number, `12345678901234567890` and `12345678901234567000` are not.
 */

/** JSON's number grammar (RFC 8259), which TOON, GCF and STC share for unquoted numbers. */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

export function isJsonNumber(text: string): boolean {
  return JSON_NUMBER.test(text);
}

/**
 * Why the JSON number `literal` cannot be read into a double and written back with the same value,
 * as the rest of a sentence that starts with the literal; null when it can.
 */
export function numberLoss(literal: string, value: number = Number(literal)): string | null {
  // Up to 15 significant digits, no exponent, magnitude between 1e-14 and 1e15: always exact
  // (a double carries 15.95 decimal digits), and nearly every number in real data.
  if (literal.length <= 15 && !/[eE]/.test(literal)) return null;
  if (!Number.isFinite(value)) return `is out of range of a double: it would become ${value > 0 ? 'Infinity' : '-Infinity'}`;
  const written = decimal(String(value));
  const read = decimal(literal);
  if (written.digits === read.digits && written.exponent === read.exponent) return null;
  if (value === 0) return 'is too close to zero for a double: it would become 0';
  return `cannot be held exactly by a double: it would become ${String(value)}`;
}

interface Decimal {
  /** Significant digits without leading or trailing zeros; '' for zero. */
  digits: string;
  /** The value is 0.digits × 10^exponent (sign ignored: -0 and 0 are the same number). */
  exponent: number;
}

/** A number's decimal value, normalized so that equal values compare equal. */
function decimal(text: string): Decimal {
  const m = /^-?([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!m) throw new Error(`not a decimal number: ${text}`);
  const int = m[1] ?? '';
  const frac = m[2] ?? '';
  const all = int + frac;
  let first = 0;
  while (first < all.length && all.charCodeAt(first) === 0x30) first++;
  if (first === all.length) return { digits: '', exponent: 0 };
  let last = all.length;
  while (all.charCodeAt(last - 1) === 0x30) last--;
  // Exponents beyond a double's range have already made the value Infinity or 0; Number() is exact below 2^53.
  return { digits: all.slice(first, last), exponent: Number(m[3] ?? '0') + int.length - first };
}

/** A number written in a text that its decoded value does not hold exactly. */
export interface NumberLoss {
  literal: string;
  /** Offset of the literal in the text. */
  offset: number;
  /** Rest of the sentence after the literal, from numberLoss. */
  loss: string;
}

/**
 * The first unquoted number in a TOON, GCF or STC text that `decoded` (what the format's decoder
 * made of the text) holds inexactly, or null.
 *
 * Those decoders take a token for a number when the whole token matches JSON's number grammar, and
 * their tokens end at delimiters, spaces and line ends, none of which can occur inside a number. So
 * every number they read is a maximal run of number characters, standing alone (no letter, digit or
 * non-ASCII character touching it), outside quoted strings; each such run that could be inexact (an
 * exponent, or more than 15 characters) is checked. A run that is only part of an unquoted string
 * (`note: build 12345678901234567890 ok`) is told apart by the value: the decoder turned a real number
 * into a double (or, for TOON's out-of-range `1e400`, into the string "1e400") that then appears in
 * `decoded`, and only then is it a loss.
 */
export function findNumberLoss(text: string, decoded: unknown): NumberLoss | null {
  let seen: { numbers: Set<number>; strings: Set<string> } | undefined;
  let quotes: QuoteTracker | undefined;
  RUN.lastIndex = 0;
  for (let m = RUN.exec(text); m !== null; m = RUN.exec(text)) {
    const run = m[0];
    const at = m.index;
    if (run.length <= 15 && !/[eE]/.test(run)) continue;
    if (!/[0-9]/.test(run)) continue;
    if (isWordChar(text.charCodeAt(at - 1)) || isWordChar(text.charCodeAt(at + run.length)) || !JSON_NUMBER.test(run)) continue;
    const value = Number(run);
    const loss = numberLoss(run, value);
    if (loss === null) continue;
    quotes ??= new QuoteTracker(text);
    if (quotes.inString(at)) continue;
    seen ??= scalarsOf(decoded);
    if (seen.numbers.has(value) || (!Number.isFinite(value) && seen.strings.has(run))) return { literal: run, offset: at, loss };
  }
  return null;
}

/**
 * A maximal run of number characters (those without a digit are skipped by the caller). The regex
 * engine finds these much faster than a loop over every character; the few that could be inexact
 * are then looked at one by one. No digit in the pattern: `[…]*[0-9][…]*` backtracks over a long
 * run without one (a Markdown rule, `eeee`) once per start, quadratic in the run's length.
 */
const RUN = /[-+.0-9eE]+/g;

/** A character that makes a run part of a longer token: a letter, digit, underscore, or anything non-ASCII. */
function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c >= 0x80;
}

/** A quote that opens a string: not inside a word (where it is a character of an unquoted string) and not escaped. */
const OPENING_QUOTE = /(?<![A-Za-z0-9_\u0080-\uffff\\])"/g;
/**
 * The rest of a quoted string after its opening quote: to the closing quote, or the line's end if
 * unclosed. It always matches: a backslash that ends a line (a YAML literal block) is the string's
 * last character, else the failed match would restart the scan from the top and never end.
 */
const QUOTED_REST = /(?:[^"\\\n]|\\.)*\\?(?:"|(?=\n)|$)/y;

/** Whether offsets, asked in increasing order, fall inside quoted strings; linear in the text overall. */
class QuoteTracker {
  private start = -1;
  private end = -1;
  private nextOpen: number;

  constructor(private readonly text: string) {
    this.nextOpen = this.findOpen(0);
  }

  inString(offset: number): boolean {
    for (;;) {
      if (offset < this.end) return offset > this.start;
      if (this.nextOpen < 0 || this.nextOpen > offset) return false;
      this.start = this.nextOpen;
      QUOTED_REST.lastIndex = this.start + 1;
      QUOTED_REST.exec(this.text);
      this.end = QUOTED_REST.lastIndex;
      this.nextOpen = this.findOpen(this.end);
    }
  }

  private findOpen(from: number): number {
    OPENING_QUOTE.lastIndex = from;
    return OPENING_QUOTE.exec(this.text)?.index ?? -1;
  }
}

/** Every number and string in a value (iteratively: the value may be deep). */
function scalarsOf(value: unknown): { numbers: Set<number>; strings: Set<string> } {
  const numbers = new Set<number>();
  const strings = new Set<string>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number') numbers.add(v);
    else if (typeof v === 'string') strings.add(v);
    else if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) stack.push(x);
  }
  return { numbers, strings };
}
