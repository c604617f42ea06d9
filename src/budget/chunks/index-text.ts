/** One chunk: items [offset, offset + limit) of the reading order. */
export interface ChunkRange {
  offset: number;
  limit: number;
}

/**
 * How much the index says: a summary per chunk (`detailed`), offsets only (`plain`), only the first,
 * the neighbours of this one and the last, with the others as ranges (`elided`), or only this chunk
 * and the next (`brief`, for budgets of a few hundred tokens), so the index stays small however many
 * chunks there are.
 */
export const INDEX_FORMS = ['detailed', 'plain', 'elided', 'brief'] as const;
export type IndexForm = (typeof INDEX_FORMS)[number];

export interface IndexSpec {
  /** Items in the whole response. */
  total: number;
  /** Name for a count of items: 3 → "files". */
  noun: (count: number) => string;
  /** What the reading order is, e.g. "newest first". */
  order: string;
  /** One line telling the agent how to ask for another chunk. */
  hint: string;
  /** One line about a chunk's items, for the detailed form. */
  summary?: (chunk: ChunkRange) => string;
}

/** devboy-tools' hint, for agents calling a tool with a `chunk` parameter. */
export const DEFAULT_HINT = 'Use `chunk: N` parameter to fetch a specific chunk. You may not need all chunks.';

/**
 * The chunk index appended to a response (devboy-tools' `[chunks] … [/chunks]` shape):
 *
 *     [chunks] 15/52 files in 4 chunks (order: as listed)
 *     chunk 1 (offset=0, limit=15): src/app/* (8), lib/* (7); +120/-45 << this response
 *     chunk 2 (offset=15, limit=15): …
 *     [/chunks]
 *     Use `chunk: N` parameter to fetch a specific chunk. You may not need all chunks.
 */
export function chunkIndexText(chunks: readonly ChunkRange[], current: number, spec: IndexSpec, form: IndexForm): string {
  const here = chunks[current]!;
  const lines = [`[chunks] ${here.limit}/${spec.total} ${spec.noun(spec.total)} in ${chunks.length} chunks (order: ${spec.order})`];
  const entry = (k: number): string => {
    const c = chunks[k]!;
    const summary = form === 'detailed' && spec.summary ? spec.summary(c) : '';
    return `chunk ${k + 1} (offset=${c.offset}, limit=${c.limit})${summary ? `: ${summary}` : ''}${k === current ? ' << this response' : ''}`;
  };
  if (form === 'brief') {
    lines.push(entry(current));
    if (current + 1 < chunks.length) lines.push(`next: ${entry(current + 1)}`);
  } else if (form !== 'elided') {
    for (let k = 0; k < chunks.length; k++) lines.push(entry(k));
  } else {
    const shown = [...new Set([0, current - 1, current, current + 1, chunks.length - 1])]
      .filter((k) => k >= 0 && k < chunks.length)
      .sort((a, b) => a - b);
    let next = 0;
    for (const k of shown) {
      if (k > next) lines.push(gap(chunks, next, k - 1));
      lines.push(entry(k));
      next = k + 1;
    }
  }
  lines.push('[/chunks]', spec.hint);
  return lines.join('\n');
}

function gap(chunks: readonly ChunkRange[], from: number, to: number): string {
  const first = chunks[from]!;
  const last = chunks[to]!;
  const label = from === to ? `chunk ${from + 1}` : `chunks ${from + 1}-${to + 1}`;
  return `${label} (offset=${first.offset}, limit=${last.offset + last.limit - first.offset})`;
}

/** The response: content, a blank line, the index. A response that is not chunked has no index. */
export function withIndex(content: string, index: string): string {
  return index === '' ? content : `${content}\n\n${index}`;
}
