import { heapPop, heapPush } from './number-heap.js';

/** The rank of the byte range [start, end) of the piece being merged, or undefined when it is no token. */
export type RangeRank = (start: number, end: number) => number | undefined;

const NONE = 0x7fffffff; // above every rank: "no such token"

/**
 * Number of tokens byte-pair merging leaves of a piece of `length` bytes: repeatedly merge the
 * adjacent pair whose concatenation has the lowest rank, the leftmost among equal ranks, until no
 * pair is a token. Same rule as tiktoken and gpt-tokenizer; the two functions below differ in cost only.
 */
export type MergeCount = (length: number, rank: RangeRank) => number;

/**
 * The library's own scheme: a scan for the lowest pair after every merge, O(n²) in the piece's length,
 * which is the fastest on the short pieces real text is made of.
 */
export const mergeCountByScan: MergeCount = (length, rank) => {
  if (length <= 1) return length;
  // starts[i] is where part i begins; starts[parts] === length. pair[i] ranks parts i and i+1 joined.
  const starts = new Int32Array(length + 1);
  const pair = new Int32Array(length);
  for (let i = 0; i <= length; i++) starts[i] = i;
  for (let i = 0; i < length - 1; i++) pair[i] = rank(i, i + 2) ?? NONE;
  let parts = length;
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
    starts.copyWithin(at + 1, at + 2, parts + 1);
    pair.copyWithin(at + 1, at + 2, parts - 1);
    parts--;
    pair[at] = at + 1 < parts ? (rank(starts[at]!, starts[at + 2]!) ?? NONE) : NONE;
    if (at > 0) pair[at - 1] = rank(starts[at - 1]!, starts[at + 1]!) ?? NONE;
  }
  return parts;
};

/**
 * The same merge for long pieces (a run of one character is one piece however long it is, and the
 * scan is quadratic in it). Parts are a doubly linked list over byte offsets. Candidate pairs wait in
 * a priority queue ordered by (rank, position): a heap of the ranks present, and per rank a bucket of
 * positions, leftmost first. Positions only ever order parts left to right, so this picks the pair
 * the scan picks. An entry goes stale when its part is merged away or its pair's rank changes, and
 * is skipped when popped. Within a rank, positions mostly arrive in increasing order (merging sweeps
 * left to right), so a bucket is a queue with a heap for the few that arrive out of order: popping is
 * then O(1), where one heap of all pairs sifts through a heap as large as the piece (2-3x slower on
 * long runs, measured).
 */
export const mergeCountByBuckets: MergeCount = (length, rank) => {
  if (length <= 1) return length;
  const next = new Int32Array(length); // next[i]: where the part starting at i ends; -1 once merged away
  const prev = new Int32Array(length);
  const pair = new Int32Array(length); // rank of the part at i joined with the part after it
  const buckets = new Map<number, Bucket>();
  const live = new RankHeap();
  const add = (r: number, at: number) => {
    let b = buckets.get(r);
    if (b === undefined) buckets.set(r, (b = new Bucket()));
    if (!b.listed) {
      b.listed = true;
      live.push(r);
    }
    b.add(at);
  };
  for (let i = 0; i < length; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    const r = i + 1 < length ? (rank(i, i + 2) ?? NONE) : NONE;
    pair[i] = r;
    if (r !== NONE) add(r, i);
  }
  let parts = length;
  while (live.size > 0) {
    const r = live.peek();
    const b = buckets.get(r)!;
    if (b.empty()) {
      b.listed = false;
      live.pop();
      continue;
    }
    const at = b.pop();
    // Stale. (Two pairs can share a rank only through the library's BOM quirk; an entry whose rank
    // equals the current pair's at its position is then as good as a fresh one.)
    if (next[at] === -1 || pair[at] !== r) continue;
    const gone = next[at]!;
    const end = next[gone]!;
    next[at] = end;
    next[gone] = -1;
    if (end < length) prev[end] = at;
    parts--;
    const after = end < length ? (rank(at, next[end]!) ?? NONE) : NONE;
    pair[at] = after;
    if (after !== NONE) add(after, at);
    const before = prev[at]!;
    if (before >= 0) {
      const r2 = rank(before, end) ?? NONE;
      pair[before] = r2;
      if (r2 !== NONE) add(r2, before);
    }
  }
  return parts;
};

/**
 * Positions of one rank: a queue of those that arrived in increasing order, a heap of the rest.
 * Plain arrays: a long random piece has a bucket for each of hundreds of ranks, most holding one or
 * two positions, and typed arrays cost too much to allocate for that.
 */
class Bucket {
  /** Whether the rank heap holds this bucket's rank; it is dropped there lazily, once found empty. */
  listed = false;
  private queue: number[] = [];
  private head = 0;
  private side: number[] = [];

  empty(): boolean {
    return this.head === this.queue.length && this.side.length === 0;
  }

  add(at: number): void {
    const queue = this.queue;
    if (this.head === queue.length) {
      queue.length = 0;
      this.head = 0;
    }
    if (queue.length === 0 || at > queue[queue.length - 1]!) queue.push(at);
    else heapPush(this.side, at);
  }

  /** The leftmost position; the bucket must not be empty. */
  pop(): number {
    const side = this.side;
    if (side.length > 0 && (this.head === this.queue.length || side[0]! < this.queue[this.head]!)) return heapPop(side);
    const at = this.queue[this.head++]!;
    // Drop the popped front of a long queue now and then, so it does not hold the whole history.
    if (this.head >= 1024 && 2 * this.head >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return at;
  }
}

/** Min-heap of the ranks that have a bucket with entries; each rank at most once. */
class RankHeap {
  private data: number[] = [];

  get size(): number {
    return this.data.length;
  }

  peek(): number {
    return this.data[0]!;
  }

  push(r: number): void {
    heapPush(this.data, r);
  }

  pop(): void {
    heapPop(this.data);
  }
}
