/** Cutting a long text at line boundaries, with a visible marker where lines were left out. */

export interface LineRange {
  start: number;
  end: number;
}

export function cutMarker(lines: number): string {
  return `…[cut ${lines} line${lines === 1 ? '' : 's'}]`;
}

export function commentsCutMarker(comments: number): string {
  return `…[cut ${comments} comment${comments === 1 ? '' : 's'}]`;
}

/** Texts shorter than this are kept whole: cutting them saves less than the marker costs. */
export const MIN_CUT_CHARS = 240;
/** A text is cut in at most this many blocks of lines: the trim tree stays small, cuts stay coarse. */
export const MAX_BLOCKS = 16;

/**
 * Split a text's lines into at most MAX_BLOCKS consecutive blocks of about equal length, each
 * at least one line. Undefined when the text is too short or a single line: it is kept whole.
 */
export function lineBlocks(lines: readonly string[]): LineRange[] | undefined {
  const total = lines.reduce((n, l) => n + l.length + 1, 0);
  if (lines.length < 2 || total < MIN_CUT_CHARS) return undefined;
  const count = Math.min(MAX_BLOCKS, lines.length);
  const target = total / count;
  const blocks: LineRange[] = [];
  let start = 0;
  let size = 0;
  for (let i = 0; i < lines.length; i++) {
    size += lines[i]!.length + 1;
    if (size >= target && blocks.length < count - 1) {
      blocks.push({ start, end: i + 1 });
      start = i + 1;
      size = 0;
    }
  }
  if (start < lines.length) blocks.push({ start, end: lines.length });
  return blocks;
}

/** The text with only the kept blocks, each run of cut blocks replaced by one marker line. */
export function renderCut(lines: readonly string[], blocks: readonly LineRange[], kept: readonly boolean[]): string {
  if (kept.every(Boolean)) return lines.join('\n');
  const out: string[] = [];
  let cut = 0;
  blocks.forEach((b, k) => {
    if (kept[k]) {
      if (cut > 0) out.push(cutMarker(cut));
      cut = 0;
      for (let i = b.start; i < b.end; i++) out.push(lines[i]!);
    } else cut += b.end - b.start;
  });
  if (cut > 0) out.push(cutMarker(cut));
  return out.join('\n');
}
