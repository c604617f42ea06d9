import { INDEX_FORMS, withIndex, type ChunkRange, type IndexForm } from './index-text.js';

export interface PackRequest {
  /** Items, in reading order. */
  count: number;
  /** Relative size of each item (bytes of its JSON will do): what the packer guesses with. */
  sizes: readonly number[];
  /** The content of a chunk: items [from, to) encoded. */
  render(from: number, to: number): string;
  /** The index appended to chunk `current` of `chunks`. */
  index(chunks: readonly ChunkRange[], current: number, form: IndexForm): string;
  budget: number;
  tokens(text: string): number;
  /** Tokens of render(0, count), when the caller has counted them already. */
  wholeTokens?: number;
  /** Largest share of the budget the index may take before a shorter form is used. */
  indexShare?: number;
  /**
   * How a finished chunk is checked: `response` counts its whole response (content, blank line,
   * index) once more; `parts` adds the content's count and the index's count and JOIN_MARGIN, which
   * saves a count per chunk (what the benchmark's pages column uses; tests check the bound holds).
   */
  check?: 'response' | 'parts';
  /** Items too large for a response are an error for the caller: try shorter index forms first. */
  mustFit?: boolean;
}

export interface Packed {
  chunks: ChunkRange[];
  /** Index form used; undefined when everything fits in one response without an index. */
  form?: IndexForm;
  /** Items too large for a response of their own with the index (each is a chunk by itself). */
  oversized: { item: number; tokens: number }[];
}

export const INDEX_SHARE = 0.25;
/** Tokens the join of content and index may add over the two counted apart (BPE merges across it). */
export const JOIN_MARGIN = 3;
const MAX_ROUNDS = 8;

/**
 * Split items (in reading order) into consecutive chunks such that every chunk's response — its
 * content, a blank line and the chunk index — is within the budget under the given tokenizer, in
 * as few responses as possible: every form of the index that could need fewer is tried, and the
 * plan with the fewest chunks wins (then the fewest tokens, index included). A detailed index that
 * costs a response more than a plain one is not worth it to a reader who has to ask for it.
 *
 * Cheap by construction: item sizes are scaled to tokens by the whole text's own ratio, chunks are
 * filled by that guess, each chunk's content is counted once and trimmed or grown by the guess when
 * it misses (what an item added between two counts replaces its guess in every later fill), and the
 * finished responses are counted once more against the budget. The index's own
 * size is reserved up front and raised when a response comes out over; a form of the index that
 * would take more than a quarter of the budget gives way to a shorter one.
 */
export function packChunks(req: PackRequest): Packed {
  const n = req.count;
  const single = [{ offset: 0, limit: n }];
  // A response that is not chunked may still carry a line of its own (devboy format's trim note).
  const soloIndex = req.index(single, 0, 'detailed');
  const whole = soloIndex === '' ? (req.wholeTokens ?? req.tokens(req.render(0, n))) : req.tokens(withIndex(req.render(0, n), soloIndex));
  if (whole <= req.budget || n <= 1)
    return { chunks: single, oversized: n === 1 && whole > req.budget ? [{ item: 0, tokens: whole }] : [] };

  const rendered = new Map<string, { text: string; tokens: number }>();
  const content = (from: number, to: number) => {
    const key = `${from}:${to}`;
    let r = rendered.get(key);
    if (!r) {
      const text = req.render(from, to);
      r = { text, tokens: req.tokens(text) };
      rendered.set(key, r);
    }
    return r;
  };
  const guess = evenSplit(n, Math.max(2, Math.ceil(whole / (req.budget * 0.9))));
  // Tokens per item as the counts so far say (0: not counted yet), shared by every fill.
  const learned = new Float64Array(n);
  let best = packFrom(req, 0, guess, whole, content, learned);
  let bestCost = planCost(req, best, content);
  for (let f = INDEX_FORMS.indexOf(best.form ?? 'detailed') + 1; f < INDEX_FORMS.length; f++) {
    // No form can take fewer responses than the content alone needs with an empty index.
    if (best.chunks.length <= Math.ceil(whole / req.budget)) break;
    const other = packFrom(req, f, best.chunks, whole, content, learned);
    const cost = planCost(req, other, content);
    if (other.form !== INDEX_FORMS[f]) continue;
    if (cost.responses < bestCost.responses || (cost.responses === bestCost.responses && cost.tokens < bestCost.tokens)) {
      best = other;
      bestCost = cost;
    }
  }
  return best;
}

/** Responses a plan needs (oversized items count as one each here) and the tokens they take. */
function planCost(
  req: PackRequest,
  packed: Packed,
  content: (from: number, to: number) => { text: string; tokens: number },
): { responses: number; tokens: number } {
  const index = packed.form ? indexTokens(req, packed.chunks, packed.form) : 0;
  let tokens = 0;
  for (const c of packed.chunks) tokens += content(c.offset, c.offset + c.limit).tokens + index;
  return { responses: packed.chunks.length, tokens };
}

/**
 * Pack starting from index form `startForm`, moving to a shorter form when the index takes more
 * than its share of the budget or (mustFit) an item cannot fit beside it.
 */
function packFrom(
  req: PackRequest,
  startForm: number,
  guessChunks: ChunkRange[],
  whole: number,
  content: (from: number, to: number) => { text: string; tokens: number },
  learned: Float64Array,
): Packed {
  const totalSize = req.sizes.reduce((s, x) => s + Math.max(1, x), 0);
  const share = req.indexShare ?? INDEX_SHARE;
  let formIndex = startForm;
  let guess = guessChunks;
  let reserve = indexTokens(req, guess, INDEX_FORMS[formIndex]!);
  // Pick the form from the guessed chunk count first, so that filling usually happens once.
  while (formIndex < INDEX_FORMS.length - 1 && reserve > share * req.budget) reserve = indexTokens(req, guess, INDEX_FORMS[++formIndex]!);
  let last: Packed | undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const form = INDEX_FORMS[formIndex]!;
    // A response checked by parts is counted as content + index + JOIN_MARGIN: leave room for the margin.
    const cap = req.budget - reserve - (req.check === 'parts' ? JOIN_MARGIN : 0);
    if (cap <= 0 && formIndex < INDEX_FORMS.length - 1) {
      formIndex++;
      reserve = indexTokens(req, guess, INDEX_FORMS[formIndex]!);
      continue;
    }
    const packed = fill(req, Math.max(1, cap), whole / totalSize, content, learned);
    last = { ...packed, form };
    const cost = indexTokens(req, packed.chunks, form);
    if (formIndex < INDEX_FORMS.length - 1 && (cost > share * req.budget || (req.mustFit && packed.oversized.length > 0))) {
      formIndex++;
      guess = packed.chunks;
      reserve = indexTokens(req, guess, INDEX_FORMS[formIndex]!);
      continue;
    }
    const over = overshoot(req, packed, form, cost, content);
    if (over <= 0) return last;
    // A smaller cap makes more chunks, and so a longer index (a plain one grows by an entry per
    // chunk), which a refill at reserve + over would find over again: reserve for the chunks the
    // smaller cap is likely to make.
    const more = Math.min(req.count, packed.chunks.length + Math.ceil((packed.chunks.length * over) / Math.max(1, cap)) + 1);
    guess = packed.chunks;
    reserve = Math.max(reserve + over, cost, indexTokens(req, splitInto(req.count, more), form)) + round;
  }
  // Only reached when the index keeps growing faster than the chunks shrink: report what was packed last.
  return last!;
}

/** Greedy fill of consecutive chunks whose content is at most `cap` tokens, one count per chunk when the guess holds. */
function fill(
  req: PackRequest,
  cap: number,
  tokensPerSize: number,
  content: (from: number, to: number) => { text: string; tokens: number },
  learned: Float64Array,
): Omit<Packed, 'form'> {
  const n = req.count;
  const guessOf = (i: number) => Math.max(1, req.sizes[i]!) * tokensPerSize;
  // What an item adds to a chunk: learned from two counts of one chunk that differ by it, else the guess.
  const est = (i: number) => learned[i]! || guessOf(i) * ratio;
  const learn = (from: number, to: number, tokens: number) => {
    let sum = 0;
    for (let i = from; i < to; i++) sum += guessOf(i);
    for (let i = from; i < to; i++) learned[i] = Math.max(1, (tokens * guessOf(i)) / sum);
  };
  const chunks: ChunkRange[] = [];
  const oversized: Packed['oversized'] = [];
  let ratio = 1;
  let s = 0;
  while (s < n) {
    let e = s;
    let guessed = 0;
    while (e < n && (e === s || guessed + est(e) <= cap)) guessed += est(e++);
    let t = content(s, e).tokens;
    while (t > cap && e > s + 1) {
      // Drop from the end until the guessed excess is gone, at least one item.
      const was = { e, t };
      let excess = t - cap;
      do excess -= est(--e);
      while (excess > 0 && e > s + 1);
      t = content(s, e).tokens;
      learn(e, was.e, was.t - t);
    }
    // Grow by as many items as the guess says still fit; halve the step when the count says no.
    let step = 0;
    for (let room = cap - t; e + step < n && est(e + step) <= room; step++) room -= est(e + step);
    while (step > 0) {
      const grown = content(s, e + step).tokens;
      learn(e, e + step, grown - t);
      if (grown <= cap) {
        e += step;
        t = grown;
        step = 0;
        for (let room = cap - t; e + step < n && est(e + step) <= room; step++) room -= est(e + step);
      } else step = Math.floor(step / 2);
    }
    if (e === s + 1 && t > cap) oversized.push({ item: s, tokens: t });
    let sizeSum = 0;
    for (let i = s; i < e; i++) sizeSum += guessOf(i);
    ratio = t / sizeSum;
    chunks.push({ offset: s, limit: e - s });
    s = e;
  }
  return { chunks, oversized };
}

/** How far the worst chunk's response is over the budget (0 or less: all fit). Oversized items are not checked. */
function overshoot(
  req: PackRequest,
  packed: Omit<Packed, 'form'>,
  form: IndexForm,
  indexCost: number,
  content: (from: number, to: number) => { text: string; tokens: number },
): number {
  const oversized = new Set(packed.oversized.map((o) => o.item));
  let over = Number.NEGATIVE_INFINITY;
  packed.chunks.forEach((c, k) => {
    if (c.limit === 1 && oversized.has(c.offset)) return;
    const body = content(c.offset, c.offset + c.limit);
    const t =
      req.check === 'parts' ? body.tokens + indexCost + JOIN_MARGIN : req.tokens(withIndex(body.text, req.index(packed.chunks, k, form)));
    over = Math.max(over, t - req.budget);
  });
  return over;
}

function indexTokens(req: PackRequest, chunks: readonly ChunkRange[], form: IndexForm): number {
  // The marker moves with the chunk. In the full forms every entry is there whichever chunk it is; the
  // elided form is longest for a chunk in the middle (first, gap, neighbours, gap, last). Numbers of
  // other chunks differ by a digit or two: hence the slack.
  const probes = [...new Set([0, Math.floor(chunks.length / 2), chunks.length - 1])];
  return Math.max(...probes.map((k) => req.tokens(withIndex('', req.index(chunks, k, form))))) + 2;
}

/** `parts` consecutive chunks of n items whose sizes differ by at most one. */
function splitInto(n: number, parts: number): ChunkRange[] {
  const out: ChunkRange[] = [];
  for (let k = 0; k < parts; k++) {
    const offset = Math.floor((k * n) / parts);
    out.push({ offset, limit: Math.floor(((k + 1) * n) / parts) - offset });
  }
  return out;
}

function evenSplit(n: number, parts: number): ChunkRange[] {
  const size = Math.ceil(n / parts);
  const out: ChunkRange[] = [];
  for (let s = 0; s < n; s += size) out.push({ offset: s, limit: Math.min(size, n - s) });
  return out;
}
