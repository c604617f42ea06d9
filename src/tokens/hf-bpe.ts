import { MergeTable, pairMergeCount } from './pair-merge.js';
import { Vocabulary } from './vocabulary.js';

/**
 * Counts tokens as the Hugging Face tokenizers library encodes text with a BPE tokenizer.json
 * (`encode(text, add_special_tokens=False)`), for the parts of the format the model families devboy
 * loads use: added tokens, NFC/NFKC/Replace normalizers, Split and ByteLevel pre-tokenizers, and a
 * BPE model over bytes (ByteLevel) or characters with byte fallback (Gemma). A file using anything
 * else is refused at load, so a new package version cannot change counts silently.
 *
 * Special tokens are left out on purpose: their text in tool output ("<|begin_of_text|>") counts as
 * ordinary text, as devboy counts o200k_base. Added tokens that are not special (Qwen's
 * "<tool_call>", Gemma's "\n\n" and "<td>") stay: the library matches them in any text.
 *
 * The libraries that ship these files (@lenml/tokenizers, @huggingface/tokenizers) count the same,
 * checked on the corpus in the tests; this one is several times faster (npm run bench), mostly from
 * caching pieces and merging long words through a heap.
 */
export interface TokenizerJson {
  normalizer?: Normalizer | null;
  pre_tokenizer?: PreTokenizer | null;
  model: BpeModel;
  added_tokens?: AddedToken[];
}

type Normalizer =
  | { type: 'NFC' | 'NFKC' | 'NFD' | 'NFKD' }
  | { type: 'Replace'; pattern: { String?: string; Regex?: string }; content: string }
  | { type: 'Sequence'; normalizers: Normalizer[] }
  | { type: string };

type PreTokenizer =
  | { type: 'Sequence'; pretokenizers: PreTokenizer[] }
  | { type: 'Split'; pattern: { String?: string; Regex?: string }; behavior: string; invert: boolean }
  | { type: 'ByteLevel'; add_prefix_space?: boolean; use_regex?: boolean }
  | { type: string };

interface BpeModel {
  type: string;
  vocab: Record<string, number>;
  merges: (string | [string, string])[];
  ignore_merges?: boolean;
  byte_fallback?: boolean;
  dropout?: number | null;
  continuing_subword_prefix?: string | null;
  end_of_word_suffix?: string | null;
}

interface AddedToken {
  id: number;
  content: string;
  special: boolean;
  normalized?: boolean;
  lstrip?: boolean;
  rstrip?: boolean;
  single_word?: boolean;
}

/** The pre-tokenizing pattern ByteLevel applies when use_regex is on (GPT-2's). */
const GPT2_PATTERN = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

/** Pieces at most this long are cached: real text repeats its words; long pieces rarely repeat. */
const CACHE_MAX_PIECE = 256;
const CACHE_ENTRIES = 100_000;
const NON_ASCII = /[\u0080-\uffff]/;

type Emit = (piece: string) => void;
type Step = (text: string, emit: Emit) => void;

/** The parts of tokenizer.json the counter reads besides the vocabulary and merges: small, stored as JSON in a cache file. */
export interface BpeConfig {
  normalizer: Normalizer | null;
  pre_tokenizer: PreTokenizer | null;
  added_tokens: AddedToken[];
  ignore_merges: boolean;
  byte_fallback: boolean;
}

/** A tokenizer.json as the counter uses it: what src/tokens/bpe-cache.ts stores, so a later load skips JSON.parse and the merges loop. */
export interface CompiledBpe {
  config: BpeConfig;
  vocab: Vocabulary;
  merges: MergeTable;
}

/** The file's model checked and turned into token ids: the costly part of a load (half a million merges for Gemma 3). */
export function compileBpe(json: TokenizerJson): CompiledBpe {
  const model = json.model;
  if (model.type !== 'BPE') unsupported(`model ${model.type}`);
  if (model.dropout) unsupported('BPE dropout');
  if (model.continuing_subword_prefix || model.end_of_word_suffix) unsupported('subword prefixes or suffixes');
  const merges = new MergeTable(model.merges.length);
  addMerges(merges, model);
  return {
    config: {
      normalizer: json.normalizer ?? null,
      pre_tokenizer: json.pre_tokenizer ?? null,
      added_tokens: json.added_tokens ?? [],
      ignore_merges: model.ignore_merges === true,
      byte_fallback: model.byte_fallback === true,
    },
    vocab: Vocabulary.fromObject(model.vocab),
    merges,
  };
}

export class HfBpeCounter {
  /** Character models: the tokens of one character (at most two UTF-16 units), all that splitting a piece into characters looks up. */
  private readonly chars: Map<string, number>;
  /** ignore_merges: every token, as a piece that is one is one token. Empty otherwise. */
  private readonly whole: Map<string, number>;
  private readonly merges: MergeTable;
  private readonly byteLevel: boolean;
  /** ByteLevel: the vocabulary's character for each byte (GPT-2's bytes_to_unicode) and its id. */
  private readonly byteChars: string[] = [];
  private readonly byteIds = new Int32Array(256);
  /** Character models with byte fallback: the id of <0xXX> for each byte. */
  private readonly fallbackIds: Int32Array | undefined;
  private readonly ignoreMerges: boolean;
  private readonly normalize: (text: string) => string;
  private readonly preTokenize: Step;
  private readonly rawAdded: AddedTrie;
  private readonly normalizedAdded: AddedTrie;
  private cache = new Map<string, number>();

  /** From a parsed tokenizer.json, or from its compiled form (compileBpe, or read back from a cache file). */
  constructor(source: TokenizerJson | CompiledBpe) {
    const { config, vocab, merges } = 'model' in source ? compileBpe(source) : source;
    this.merges = merges;
    this.ignoreMerges = config.ignore_merges;
    const steps = preTokenizerSteps(config.pre_tokenizer);
    this.byteLevel = steps.byteLevel;
    this.preTokenize = compose(steps.steps);
    this.normalize = normalizerOf(config.normalizer);
    this.whole = this.ignoreMerges ? vocab.map() : new Map();
    this.chars = this.byteLevel ? new Map() : vocab.map((length) => length <= 2);

    if (this.byteLevel) {
      const chars = bytesToUnicode();
      const single = vocab.map((length) => length === 1);
      for (let b = 0; b < 256; b++) {
        const id = single.get(chars[b]!);
        if (id === undefined) unsupported(`a ByteLevel vocabulary without byte ${b}`);
        this.byteChars[b] = chars[b]!;
        this.byteIds[b] = id;
      }
    }
    if (config.byte_fallback) {
      this.fallbackIds = new Int32Array(256);
      const sixes = vocab.map((length) => length === 6);
      for (let b = 0; b < 256; b++) {
        const id = sixes.get(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
        if (id === undefined) unsupported(`byte fallback without the token for byte ${b}`);
        this.fallbackIds[b] = id;
      }
    }

    const added = config.added_tokens.filter((t) => !t.special);
    for (const t of added)
      if (t.lstrip || t.rstrip || t.single_word) unsupported(`added token ${JSON.stringify(t.content)} with lstrip, rstrip or single_word`);
    this.rawAdded = new AddedTrie(added.filter((t) => !t.normalized).map((t) => t.content));
    this.normalizedAdded = new AddedTrie(added.filter((t) => t.normalized).map((t) => t.content));
  }

  count(text: string): number {
    let n = 0;
    const onAdded = () => n++;
    const onPiece = (piece: string) => (n += this.countPiece(piece));
    const onNormalized = (segment: string) => this.preTokenize(segment, onPiece);
    this.rawAdded.split(text, (segment) => this.normalizedAdded.split(this.normalize(segment), onNormalized, onAdded), onAdded);
    return n;
  }

  /** Tokens of one pre-tokenized piece: the model's part. */
  countPiece(piece: string): number {
    const cached = this.cache.get(piece);
    if (cached !== undefined) return cached;
    const n = this.mergePiece(piece);
    if (piece.length <= CACHE_MAX_PIECE) {
      if (this.cache.size >= CACHE_ENTRIES) this.cache = new Map();
      this.cache.set(piece, n);
    }
    return n;
  }

  private mergePiece(piece: string): number {
    if (this.byteLevel) {
      const bytes = NON_ASCII.test(piece) ? Buffer.from(piece, 'utf8') : undefined;
      const length = bytes ? bytes.length : piece.length;
      const ids = new Int32Array(length);
      let key = '';
      for (let i = 0; i < length; i++) {
        const b = bytes ? bytes[i]! : piece.charCodeAt(i);
        ids[i] = this.byteIds[b]!;
        if (this.ignoreMerges) key += this.byteChars[b]!;
      }
      if (this.ignoreMerges && this.whole.has(key)) return 1;
      return pairMergeCount(ids, this.merges);
    }
    if (this.ignoreMerges && this.whole.has(piece)) return 1;
    const ids: number[] = [];
    for (const ch of piece) {
      const id = this.chars.get(ch);
      if (id !== undefined) ids.push(id);
      else if (this.fallbackIds) for (const b of Buffer.from(ch, 'utf8')) ids.push(this.fallbackIds[b]!);
      else unsupported(`a character outside the vocabulary without byte fallback (${JSON.stringify(ch)})`);
    }
    return pairMergeCount(Int32Array.from(ids), this.merges);
  }
}

/** A file the counter does not implement: refused, so counts are never silently different. */
function unsupported(what: string): never {
  throw new Error(`tokenizer.json uses ${what}, which devboy's BPE counter does not implement`);
}

/**
 * The file's merges into the table, each as the ids of its two parts and of the token they make.
 * Looked up in the parsed vocabulary object: a third faster than in a Map of it on Gemma 3's half a
 * million merges (three lookups each). A key the file lacks reads Object.prototype's members
 * ("constructor") or undefined, never a number: hence the typeof test.
 */
function addMerges(table: MergeTable, model: BpeModel): void {
  const { vocab, merges } = model;
  for (let rank = 0; rank < merges.length; rank++) {
    const m = merges[rank]!;
    let a: string;
    let b: string;
    if (typeof m === 'string') {
      const at = m.indexOf(' ');
      if (at < 0 || m.indexOf(' ', at + 1) >= 0) unsupported(`merge ${JSON.stringify(m)}`);
      a = m.slice(0, at);
      b = m.slice(at + 1);
    } else {
      a = m[0];
      b = m[1];
    }
    const left = vocab[a];
    const right = vocab[b];
    const merged = vocab[a + b];
    if (typeof left !== 'number' || typeof right !== 'number' || typeof merged !== 'number')
      unsupported(`merge ${JSON.stringify(m)} outside the vocabulary`);
    table.add(left, right, rank, merged);
  }
}

function normalizerOf(n: Normalizer | null): (text: string) => string {
  if (n === null) return (t) => t;
  switch (n.type) {
    case 'NFC':
    case 'NFKC':
    case 'NFD':
    case 'NFKD': {
      const form = n.type;
      // ASCII is the same in every normal form; most tool output is ASCII.
      return (t) => (NON_ASCII.test(t) ? t.normalize(form) : t);
    }
    case 'Replace': {
      const r = n as Extract<Normalizer, { type: 'Replace' }>;
      if (r.pattern.String === undefined) unsupported('a Replace normalizer with a regex');
      const from = r.pattern.String;
      return (t) => t.replaceAll(from, r.content);
    }
    case 'Sequence': {
      const parts = (n as Extract<Normalizer, { type: 'Sequence' }>).normalizers.map(normalizerOf);
      return (t) => parts.reduce((s, f) => f(s), t);
    }
    default:
      return unsupported(`normalizer ${n.type}`);
  }
}

/** The pre-tokenizer as split steps, and whether the model reads bytes (ByteLevel, which must come last). */
function preTokenizerSteps(p: PreTokenizer | null): { steps: Step[]; byteLevel: boolean } {
  if (p === null) return { steps: [], byteLevel: false };
  const list = p.type === 'Sequence' ? (p as Extract<PreTokenizer, { type: 'Sequence' }>).pretokenizers : [p];
  const steps: Step[] = [];
  let byteLevel = false;
  for (const step of list) {
    if (byteLevel) unsupported('a pre-tokenizer after ByteLevel');
    if (step.type === 'Split') {
      const s = step as Extract<PreTokenizer, { type: 'Split' }>;
      if (s.invert) unsupported('an inverted Split');
      steps.push(splitStep(s.pattern, s.behavior));
    } else if (step.type === 'ByteLevel') {
      const b = step as Extract<PreTokenizer, { type: 'ByteLevel' }>;
      if (b.add_prefix_space) unsupported('ByteLevel add_prefix_space');
      if (b.use_regex !== false) steps.push(splitStep({ Regex: GPT2_PATTERN }, 'Isolated'));
      byteLevel = true;
    } else {
      unsupported(`pre-tokenizer ${step.type}`);
    }
  }
  return { steps, byteLevel };
}

function compose(steps: Step[]): Step {
  return steps.reduceRight<Step>(
    (inner, step) => (text, emit) => step(text, (piece) => inner(piece, emit)),
    (text, emit) => emit(text),
  );
}

function splitStep(pattern: { String?: string; Regex?: string }, behavior: string): Step {
  if (pattern.Regex !== undefined) {
    if (behavior !== 'Isolated') unsupported(`a regex Split with behavior ${behavior}`);
    const re = new RegExp(toJsPattern(pattern.Regex), 'gu');
    return (text, emit) => {
      re.lastIndex = 0;
      let last = 0;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        if (m[0] === '') {
          re.lastIndex++;
          continue;
        }
        if (m.index > last) emit(text.slice(last, m.index));
        emit(m[0]);
        last = m.index + m[0].length;
      }
      if (last < text.length) emit(text.slice(last));
    };
  }
  const s = pattern.String;
  if (s === undefined || s === '') return unsupported('a Split without a pattern');
  if (behavior !== 'MergedWithPrevious' && behavior !== 'Isolated') unsupported(`a string Split with behavior ${behavior}`);
  const merged = behavior === 'MergedWithPrevious';
  return (text, emit) => {
    let last = 0;
    for (let at = text.indexOf(s); at >= 0; at = text.indexOf(s, at + s.length)) {
      if (merged) {
        emit(text.slice(last, at + s.length));
      } else {
        if (at > last) emit(text.slice(last, at));
        emit(s);
      }
      last = at + s.length;
    }
    if (last < text.length) emit(text.slice(last));
  };
}

/**
 * The library's patterns are Oniguruma's; JavaScript (Node 20) lacks the scoped case-insensitive
 * group `(?i:'s|'t|...)` the Llama 3 and Qwen patterns open with. It is rewritten letter by letter
 * (`'[sS]`); any other inline flag is refused.
 */
export function toJsPattern(pattern: string): string {
  const out = pattern.replace(
    /\(\?i:([A-Za-z'|]*)\)/g,
    (_, body: string) => `(?:${body.replace(/[A-Za-z]/g, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`)})`,
  );
  if (/\(\?[a-z]/i.test(out.replace(/\(\?[:=!]|\(\?<[=!]/g, ''))) unsupported(`the pattern ${JSON.stringify(pattern)}`);
  return out;
}

/** GPT-2's byte-to-character map: printable bytes stand for themselves, the rest move to U+0100 on. */
export function bytesToUnicode(): string[] {
  const chars: string[] = [];
  let next = 256;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    chars[b] = String.fromCharCode(printable ? b : next++);
  }
  return chars;
}

interface TrieNode {
  next: Map<number, TrieNode>;
  end: boolean;
}

/**
 * Added tokens found leftmost-longest, as the library's Aho-Corasick matcher finds them; the text
 * between them goes on to the normalizer and the model, each match is one token.
 */
class AddedTrie {
  private readonly root: TrieNode = { next: new Map(), end: false };
  private readonly empty: boolean;

  constructor(tokens: string[]) {
    for (const t of tokens) {
      let node = this.root;
      for (let i = 0; i < t.length; i++) {
        const c = t.charCodeAt(i);
        let child = node.next.get(c);
        if (!child) node.next.set(c, (child = { next: new Map(), end: false }));
        node = child;
      }
      node.end = true;
    }
    this.empty = this.root.next.size === 0;
  }

  split(text: string, onText: Emit, onToken: () => void): void {
    if (this.empty) {
      if (text !== '') onText(text);
      return;
    }
    let last = 0;
    let i = 0;
    while (i < text.length) {
      let node = this.root.next.get(text.charCodeAt(i));
      let end = -1;
      for (let j = i + 1; node; j++) {
        if (node.end) end = j;
        if (j >= text.length) break;
        node = node.next.get(text.charCodeAt(j));
      }
      if (end < 0) {
        i++;
        continue;
      }
      if (i > last) onText(text.slice(last, i));
      onToken();
      last = i = end;
    }
    if (last < text.length) onText(text.slice(last));
  }
}
