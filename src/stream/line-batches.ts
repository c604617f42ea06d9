export interface SourceLine {
  text: string;
  /** 1-based line number in the input. */
  line: number;
}

/**
 * Split text arriving in pieces into lines without holding more than one piece and one partial line.
 * Yields the complete lines of each piece together, so a caller can write its output once per piece:
 * early output when input trickles in, few writes when it floods in.
 */
export async function* lineBatches(chunks: AsyncIterable<string>): AsyncGenerator<SourceLine[]> {
  let partial = '';
  let line = 0;
  for await (const chunk of chunks) {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    if (parts.length > 0) yield parts.map((t) => ({ text: stripCr(t), line: ++line }));
  }
  if (partial !== '') yield [{ text: stripCr(partial), line: ++line }];
}

function stripCr(t: string): string {
  return t.endsWith('\r') ? t.slice(0, -1) : t;
}
