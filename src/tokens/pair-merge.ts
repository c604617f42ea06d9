/**
 * Hugging Face BPE merges (tokenizer.json "merges"): a pair of token ids merges into a new id at a
 * rank, and the lowest-ranked pair present merges first, the leftmost among equals. Unlike tiktoken's
 * ranks, a merge belongs to the pair, not to the text it makes: "ab"+"c" and "a"+"bc" may rank apart.
 */
import { heapPop, heapPush } from './number-heap.js';

export class MergeTable {
  // An open-addressing hash table in typed arrays. A Map keyed by left * ID_SPAN + right holds keys
  // past the small-integer range, so every insert and lookup hashed a boxed number: Gemma 3's half a
  // million merges took a third of its load, and lookups most of its merge time (npm run bench).
  private lefts: Int32Array;
  private rights: Int32Array;
  /** rank * ID_SPAN + merged id: exact in a double (ranks and ids are below 2^20). */
  private values: Float64Array;
  private count = 0;

  /** `expected`: how many merges will be added, so the table is sized once. */
  constructor(expected = 0) {
    let capacity = 1 << 10;
    while (capacity < 2 * expected) capacity *= 2;
    this.lefts = new Int32Array(capacity).fill(-1);
    this.rights = new Int32Array(capacity);
    this.values = new Float64Array(capacity);
  }

  /**
   * A table from the arrays of another (`arrays()`), e.g. read back from a cache file, without
   * re-adding every merge. Arrays that no table could have made are refused (RangeError): a
   * capacity not a power of two or with no empty slot would make lookups probe forever.
   */
  static fromArrays(stored: MergeTableArrays): MergeTable {
    const { lefts, rights, values } = stored;
    const capacity = lefts.length;
    if (capacity < 1 << 10 || (capacity & (capacity - 1)) !== 0 || rights.length !== capacity || values.length !== capacity)
      throw new RangeError('merge table arrays of inconsistent lengths');
    let count = 0;
    for (let i = 0; i < capacity; i++) {
      const l = lefts[i]!;
      if (l === -1) continue;
      if (l < 0 || l >= ID_SPAN || rights[i]! < 0 || rights[i]! >= ID_SPAN || !(values[i]! >= 0 && values[i]! < ID_SPAN * ID_SPAN))
        throw new RangeError(`merge table slot ${i} is outside the table's id span`);
      count++;
    }
    if (2 * count > capacity) throw new RangeError('merge table more than half full');
    const table = new MergeTable();
    table.lefts = lefts;
    table.rights = rights;
    table.values = values;
    table.count = count;
    return table;
  }

  /** The table's storage, for fromArrays (shared, not copied: do not add to the table after). */
  arrays(): MergeTableArrays {
    return { lefts: this.lefts, rights: this.rights, values: this.values };
  }

  add(left: number, right: number, rank: number, merged: number): void {
    if (left < 0 || right < 0 || left >= ID_SPAN || right >= ID_SPAN || rank >= ID_SPAN || merged >= ID_SPAN)
      throw new RangeError(`merge (${left}, ${right}) -> ${merged} at rank ${rank} is outside the table's id span`);
    // Half full at most, so probe runs stay short.
    if (2 * (this.count + 1) > this.lefts.length) this.grow();
    const at = this.slot(left, right);
    // A repeated pair takes its last rank, as the libraries' map builds do (none of the shipped files repeats one).
    if (this.lefts[at] === -1) this.count++;
    this.lefts[at] = left;
    this.rights[at] = right;
    this.values[at] = rank * ID_SPAN + merged;
  }

  /** rank * ID_SPAN + merged id, or undefined when the pair does not merge. */
  get(left: number, right: number): number | undefined {
    const at = this.slot(left, right);
    return this.lefts[at] === -1 ? undefined : this.values[at];
  }

  get size(): number {
    return this.count;
  }

  /** The slot holding the pair, or the empty slot where it would go (linear probing). */
  private slot(left: number, right: number): number {
    const mask = this.lefts.length - 1;
    let h = Math.imul(left, 0x9e3779b1) ^ right;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    let at = (h ^ (h >>> 13)) & mask;
    for (;;) {
      const l = this.lefts[at]!;
      if (l === -1 || (l === left && this.rights[at] === right)) return at;
      at = (at + 1) & mask;
    }
  }

  private grow(): void {
    const { lefts, rights, values } = this;
    this.lefts = new Int32Array(lefts.length * 2).fill(-1);
    this.rights = new Int32Array(lefts.length * 2);
    this.values = new Float64Array(lefts.length * 2);
    for (let i = 0; i < lefts.length; i++) {
      if (lefts[i] === -1) continue;
      const at = this.slot(lefts[i]!, rights[i]!);
      this.lefts[at] = lefts[i]!;
      this.rights[at] = rights[i]!;
      this.values[at] = values[i]!;
    }
  }
}

export interface MergeTableArrays {
  lefts: Int32Array;
  rights: Int32Array;
  values: Float64Array;
}

/** Above every token id of the vocabularies devboy loads (Gemma 3 has 262,144). */
export const ID_SPAN = 1 << 20;
const NONE = Number.POSITIVE_INFINITY;

/** Symbols from this many on merge through the heap; fewer through the scan (measured in npm run bench). */
export const HEAP_FROM_SYMBOLS = 48;

/**
 * Number of tokens left once every merge applies to the symbols (token ids; the array is used as
 * scratch space). Same rule as the tokenizers library's Word::merge_all; the two functions below
 * differ in cost only.
 */
export function pairMergeCount(ids: Int32Array, merges: MergeTable, heapFrom = HEAP_FROM_SYMBOLS): number {
  return ids.length < heapFrom ? pairMergeByScan(ids, merges) : pairMergeByHeap(ids, merges);
}

/** Short words: a scan for the lowest pair after every merge. */
export function pairMergeByScan(ids: Int32Array, merges: MergeTable): number {
  let parts = ids.length;
  if (parts <= 1) return parts;
  const pair = new Float64Array(parts);
  for (let i = 0; i < parts - 1; i++) pair[i] = merges.get(ids[i]!, ids[i + 1]!) ?? NONE;
  while (parts > 1) {
    let best = NONE;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      if (pair[i]! < best) {
        best = pair[i]!;
        at = i;
      }
    }
    if (at < 0) break;
    ids[at] = best % ID_SPAN;
    ids.copyWithin(at + 1, at + 2, parts);
    pair.copyWithin(at + 1, at + 2, parts);
    parts--;
    pair[at] = at + 1 < parts ? (merges.get(ids[at]!, ids[at + 1]!) ?? NONE) : NONE;
    if (at > 0) pair[at - 1] = merges.get(ids[at - 1]!, ids[at]!) ?? NONE;
  }
  return parts;
}

/**
 * Long words (Gemma's tokenizer does not split text into words: a compact JSON body is one word of
 * tens of thousands of symbols): the library's own scheme, a priority queue of (rank, position) over
 * a linked list of symbols. An entry is stale when its symbol was merged away or the pair at its
 * position changed (the right symbol grew, so the pair's rank changed), and is skipped when popped.
 */
export function pairMergeByHeap(ids: Int32Array, merges: MergeTable): number {
  const n = ids.length;
  if (n <= 1) return n;
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const gone = new Uint8Array(n);
  const heap: number[] = [];
  for (let i = 0; i < n; i++) {
    next[i] = i + 1 < n ? i + 1 : -1;
    prev[i] = i - 1;
  }
  // Entries are rank * 2^32 + position: the heap's order is the library's (lowest rank, then leftmost).
  const push = (at: number, packed: number | undefined) => {
    if (packed !== undefined) heapPush(heap, Math.floor(packed / ID_SPAN) * POS_SPAN + at);
  };
  for (let i = 0; i < n - 1; i++) push(i, merges.get(ids[i]!, ids[i + 1]!));
  let parts = n;
  while (heap.length > 0) {
    const top = heapPop(heap);
    const at = top % POS_SPAN;
    const rank = (top - at) / POS_SPAN;
    if (gone[at]) continue;
    const right = next[at]!;
    if (right < 0) continue;
    const packed = merges.get(ids[at]!, ids[right]!);
    if (packed === undefined || Math.floor(packed / ID_SPAN) !== rank) continue;
    ids[at] = packed % ID_SPAN;
    gone[right] = 1;
    const after = next[right]!;
    next[at] = after;
    if (after >= 0) prev[after] = at;
    parts--;
    const before = prev[at]!;
    if (before >= 0) push(before, merges.get(ids[before]!, ids[at]!));
    if (after >= 0) push(at, merges.get(ids[at]!, ids[after]!));
  }
  return parts;
}

const POS_SPAN = 2 ** 32;
