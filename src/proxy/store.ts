/** What the added tool can hand back for an id: the whole result as it was encoded, and its pages. */
export interface HeldResult {
  whole: string;
  pages?: readonly string[];
}

/**
 * Results the model may ask for again, by content-hash id, bounded by their total UTF-16 length: the
 * least recently used go first. An id whose result was let go answers with an error saying so,
 * never with something else.
 */
export class ResultStore {
  private readonly held = new Map<string, HeldResult>();
  private size = 0;

  constructor(private readonly maxChars: number) {}

  put(id: string, result: HeldResult): void {
    this.drop(id);
    const size = sizeOf(result);
    if (size > this.maxChars) return;
    this.held.set(id, result);
    this.size += size;
    for (const [old, r] of this.held) {
      if (this.size <= this.maxChars) break;
      this.held.delete(old);
      this.size -= sizeOf(r);
    }
  }

  get(id: string): HeldResult | undefined {
    const r = this.held.get(id);
    if (r) {
      this.held.delete(id);
      this.held.set(id, r);
    }
    return r;
  }

  private drop(id: string): void {
    const r = this.held.get(id);
    if (!r) return;
    this.held.delete(id);
    this.size -= sizeOf(r);
  }
}

function sizeOf(r: HeldResult): number {
  return r.whole.length + (r.pages?.reduce((n, p) => n + p.length, 0) ?? 0);
}
