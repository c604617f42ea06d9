import { kindedItems, type ItemList, type KindedItem } from '../../model/index.js';
import { diffLineCounts } from '../../trim/levels.js';
import { fileTypeWeight } from './file-type.js';

export const STRATEGY_NAMES = ['element_count', 'cascading', 'size_proportional', 'thread_level', 'head_tail', 'default'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/**
 * What a trimming strategy decides: how much each item is worth (which sets the reading order and
 * which items keep detail) and how much each line of a long text is worth (which lines a cut keeps).
 */
export interface Strategy {
  name: StrategyName;
  /** Value of each item, in (0, 1], for the items in the order given. */
  itemValues(list: ItemList): number[];
  /** Value of each line of a long text, for cutting it at line boundaries. */
  lineValues(lines: readonly string[]): number[];
  /** `head`: a cut keeps the first lines (readable as a text); `anywhere`: any lines (head, tail, error lines). */
  cut: 'head' | 'anywhere';
  /** The reading order these values give, in a few words, for the chunk index. */
  order: string;
}

/** Lines and items that say something failed: what a reader of a log looks for first. */
export const ERROR_PATTERN = /\b(ERROR|FATAL|Exception|panic(ked)?|Traceback)\b/;
const ERROR_BOOST = 4;

/** The first lines of a text say what it is about: value falls off slowly with position. */
function headFirst(count: number): number[] {
  return Array.from({ length: count }, (_, k) => 1 / (1 + k / 10));
}

/** devboy-tools' log rule: 30% of the value at the head (set-up), 70% at the tail (outcome), errors boosted. */
function headAndTail(texts: readonly string[]): number[] {
  const n = texts.length;
  const decay = (k: number) => 1 / (1 + k / 10);
  return texts.map((t, k) => (0.3 * decay(k) + 0.7 * decay(n - 1 - k)) * (ERROR_PATTERN.test(t) ? ERROR_BOOST : 1));
}

function normalize(values: number[]): number[] {
  const max = Math.max(0, ...values);
  return max > 0 ? values.map((v) => Math.max(v / max, 1e-6)) : values.map(() => 1);
}

/** When an item last said something: what "newest" means for cascading. */
function timeOf(entry: KindedItem): string | undefined {
  switch (entry.kind) {
    case 'discussions': {
      const last = entry.item.comments.at(-1);
      return last?.created_at ?? last?.updated_at;
    }
    case 'comments':
      return entry.item.created_at;
    case 'issues':
    case 'merge_requests':
      return entry.item.updated_at ?? entry.item.created_at;
    case 'diffs':
      return undefined;
  }
}

/** Text an item shows a reader, for spotting error lines. */
function itemText(entry: KindedItem): string {
  switch (entry.kind) {
    case 'issues':
    case 'merge_requests':
      return `${entry.item.title}\n${entry.item.description ?? ''}`;
    case 'diffs':
      return entry.item.diff;
    case 'comments':
      return entry.item.body;
    case 'discussions':
      return entry.item.comments.map((c) => c.body).join('\n');
  }
}

const elementCount: Strategy = {
  name: 'element_count',
  order: 'as listed',
  itemValues: ({ items }) => items.map((_, i) => (items.length === 1 ? 1 : 1 - (0.7 * i) / (items.length - 1))),
  lineValues: (lines) => headFirst(lines.length),
  cut: 'head',
};

const BETA = 0.95;
const cascading: Strategy = {
  name: 'cascading',
  order: 'newest first',
  itemValues: (list) => {
    // Chronological rank from timestamps when every item has one (GitLab lists notes newest first); else the list order.
    const times = kindedItems(list).map(timeOf);
    const byTime = times.every((t) => t !== undefined && !Number.isNaN(Date.parse(t)));
    const rank = list.items.map((_, i) => i);
    if (byTime) {
      const order = rank.slice().sort((a, b) => Date.parse(times[a]!) - Date.parse(times[b]!) || a - b);
      order.forEach((itemIndex, r) => (rank[itemIndex] = r));
    }
    return rank.map((r) => BETA ** (list.items.length - 1 - r));
  },
  lineValues: (lines) => headFirst(lines.length),
  cut: 'head',
};

const sizeProportional: Strategy = {
  name: 'size_proportional',
  order: 'by file type and size, lock files last',
  itemValues: (list) =>
    normalize(
      kindedItems(list).map((entry) => {
        if (entry.kind !== 'diffs') return JSON.stringify(entry.item).length;
        const { additions, deletions } = diffLineCounts(entry.item);
        return fileTypeWeight(entry.item.file_path) * (additions + deletions + 1);
      }),
    ),
  lineValues: (lines) => headFirst(lines.length),
  cut: 'head',
};

const threadLevel: Strategy = {
  name: 'thread_level',
  order: 'unresolved threads first',
  itemValues: (list) => kindedItems(list).map((entry) => (entry.kind === 'discussions' && entry.item.resolved ? 0.3 : 1)),
  lineValues: (lines) => headFirst(lines.length),
  cut: 'head',
};

const headTail: Strategy = {
  name: 'head_tail',
  order: 'tail and errors first, then head',
  itemValues: (list) => normalize(headAndTail(kindedItems(list).map(itemText))),
  lineValues: (lines) => headAndTail(lines),
  cut: 'anywhere',
};

const uniform: Strategy = {
  name: 'default',
  order: 'as listed',
  itemValues: ({ items }) => items.map(() => 1),
  lineValues: (lines) => headFirst(lines.length),
  cut: 'head',
};

export const STRATEGIES: Record<StrategyName, Strategy> = {
  element_count: elementCount,
  cascading,
  size_proportional: sizeProportional,
  thread_level: threadLevel,
  head_tail: headTail,
  default: uniform,
};

/** Item indexes by value, most valuable first; equal values keep their listed order. */
export function readingOrder(values: readonly number[]): number[] {
  return values.map((_, i) => i).sort((a, b) => values[b]! - values[a]! || a - b);
}
