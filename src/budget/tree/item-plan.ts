import type { JsonObject, JsonValue } from '../../json/types.js';
import type { DatasetKind, KindedItem } from '../../model/index.js';
import { itemAtLevel, LEAST_DETAIL, UPGRADE_LEVELS, type UpgradeLevel } from '../../trim/levels.js';
import type { Strategy } from '../strategies/strategy.js';
import { commentsCutMarker, cutMarker, lineBlocks, renderCut, type LineRange } from './text-cut.js';

/** Token cost of one value inside a response: the caller's encoder and tokenizer. */
export type ValueTokens = (value: JsonValue) => number;
/** Token cost of a piece of text inside a string value. */
export type TextTokens = (text: string) => number;

/** A long text of an item at some level, cuttable at line boundaries. */
export interface CutText {
  /** Where it sits in the level's object, e.g. ['description'] or ['comments', 2, 'body']. */
  path: (string | number)[];
  lines: string[];
  blocks: LineRange[];
  blockTokens: number[];
  /** Share of the text's value each block holds (sums to 1). */
  blockShares: number[];
  /** The thread comment it belongs to, when that comment can be left out as a whole. */
  comment?: number;
  /** Blocks are kept only as a prefix (each needs the one before it), so the cut text reads on from the top. */
  prefix: boolean;
}

/** A thread comment between the first and the last: it can be left out (thread_level keeps both ends). */
export interface OptionalComment {
  index: number;
  /** Tokens of the comment with its body cut to a marker. */
  shellTokens: number;
}

export interface LevelPlan {
  level: UpgradeLevel;
  object: JsonObject;
  texts: CutText[];
  comments: OptionalComment[];
  /** Tokens of the object with every cuttable text reduced to its marker and every optional comment left out. */
  baseTokens: number;
}

export interface ItemPlan {
  /** Position in the list as given. */
  index: number;
  value: number;
  minimal: JsonObject;
  minimalTokens: number;
  levels: LevelPlan[];
}

/**
 * Everything the trim tree needs to know about one item: its renderings at each level, the texts
 * that can be cut and what each piece costs in tokens. Costs are estimates (an item alone, a text
 * piece alone); the budget loop checks the real count of what it renders.
 */
export function planItem(
  entry: KindedItem,
  index: number,
  value: number,
  strategy: Strategy,
  tokens: ValueTokens,
  textTokens: TextTokens,
): ItemPlan {
  const minimal = itemAtLevel(entry, LEAST_DETAIL);
  const levels = UPGRADE_LEVELS.map((level) => planLevel(entry.kind, itemAtLevel(entry, level), level, strategy, tokens, textTokens));
  return { index, value, minimal, minimalTokens: tokens(minimal), levels };
}

function planLevel(
  kind: DatasetKind,
  object: JsonObject,
  level: UpgradeLevel,
  strategy: Strategy,
  tokens: ValueTokens,
  textTokens: TextTokens,
): LevelPlan {
  const texts: CutText[] = [];
  const comments: OptionalComment[] = [];
  const cuttable = (path: (string | number)[], text: unknown, comment?: number) => {
    if (typeof text !== 'string') return;
    const lines = text.split('\n');
    const blocks = lineBlocks(lines);
    if (!blocks) return;
    const lineValues = strategy.lineValues(lines);
    const blockValues = blocks.map((b) => sum(lineValues.slice(b.start, b.end)));
    const total = sum(blockValues) || 1;
    texts.push({
      path,
      lines,
      blocks,
      blockTokens: blocks.map((b) => Math.max(1, textTokens(lines.slice(b.start, b.end).join('\n')))),
      blockShares: blockValues.map((v) => v / total),
      prefix: strategy.cut === 'head',
      ...(comment !== undefined ? { comment } : {}),
    });
  };
  if (kind === 'discussions') {
    const list = Array.isArray(object['comments']) ? (object['comments'] as JsonObject[]) : [];
    list.forEach((c, k) => {
      const middle = k > 0 && k < list.length - 1;
      cuttable(['comments', k, 'body'], c['body'], middle ? k : undefined);
      if (middle) comments.push({ index: k, shellTokens: tokens({ ...c, body: cutMarker(1) }) });
    });
  } else {
    const field = kind === 'diffs' ? 'diff' : kind === 'comments' ? 'body' : 'description';
    cuttable([field], object[field]);
  }
  const base = applyCuts(
    object,
    texts,
    comments,
    () => false,
    () => false,
  );
  return { level, object, texts, comments, baseTokens: tokens(base) };
}

/**
 * The level's object with the given blocks and comments kept: cut texts get their markers, a run
 * of left-out thread comments becomes one marker string in the list.
 */
export function applyCuts(
  object: JsonObject,
  texts: readonly CutText[],
  comments: readonly OptionalComment[],
  blockKept: (text: number, block: number) => boolean,
  commentKept: (comment: number) => boolean,
): JsonObject {
  const out = structuredClone(object);
  texts.forEach((t, ti) =>
    setAt(
      out,
      t.path,
      renderText(t, (b) => blockKept(ti, b)),
    ),
  );
  if (comments.length > 0 && Array.isArray(out['comments'])) {
    const dropped = new Set(comments.filter((c) => !commentKept(c.index)).map((c) => c.index));
    const list: JsonValue[] = [];
    let run = 0;
    (out['comments'] as JsonValue[]).forEach((c, k) => {
      if (dropped.has(k)) {
        run++;
        return;
      }
      if (run > 0) list.push(commentsCutMarker(run));
      run = 0;
      list.push(c);
    });
    if (run > 0) list.push(commentsCutMarker(run));
    out['comments'] = list;
  }
  return out;
}

function renderText(t: CutText, kept: (block: number) => boolean): string {
  return renderCut(
    t.lines,
    t.blocks,
    t.blocks.map((_, k) => kept(k)),
  );
}

function setAt(root: JsonObject, path: (string | number)[], value: string): void {
  let node: JsonValue = root;
  for (let i = 0; i < path.length - 1; i++) node = (node as Record<string | number, JsonValue>)[path[i]!]!;
  (node as Record<string | number, JsonValue>)[path[path.length - 1]!] = value;
}

function sum(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}
