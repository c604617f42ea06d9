/**
 * A least-recently-used map of bounded size. A Map iterates in insertion order, so deleting and
 * re-inserting on every touch keeps the oldest entry first, ready to evict.
 */
export class Lru<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`LRU capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value, marking the key as just used. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Insert or refresh; returns the evicted key when the map was full. */
  set(key: K, value: V): K | undefined {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size <= this.capacity) return undefined;
    const oldest = this.entries.keys().next().value as K;
    this.entries.delete(oldest);
    return oldest;
  }

  clear(): void {
    this.entries.clear();
  }
}
