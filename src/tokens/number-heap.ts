/**
 * A binary min-heap of numbers kept in a plain array, as free functions: the BPE merges keep their
 * heaps in arrays they also read directly (the smallest is `heap[0]`), and a class around them cost
 * measurable time in the merge loops.
 */
export function heapPush(heap: number[], x: number): void {
  let i = heap.length;
  heap.push(x);
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (heap[p]! <= x) break;
    heap[i] = heap[p]!;
    i = p;
  }
  heap[i] = x;
}

/** Removes and returns the smallest number; the heap must not be empty. */
export function heapPop(heap: number[]): number {
  const top = heap[0]!;
  const x = heap.pop()!;
  const size = heap.length;
  if (size === 0) return top;
  let i = 0;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= size) break;
    if (c + 1 < size && heap[c + 1]! < heap[c]!) c++;
    if (heap[c]! >= x) break;
    heap[i] = heap[c]!;
    i = c;
  }
  heap[i] = x;
  return top;
}
