import { isJsonObject, type JsonValue } from '../json/types.js';
import type { DatasetKind, ModelItem } from '../model/index.js';
import { has, str, type ItemShape } from './item-shape.js';
import { PROVIDER_NAMES, PROVIDERS } from './registry.js';

export type { ItemShape } from './item-shape.js';

const SOURCES = new Set<string>(PROVIDER_NAMES);

/** devboy's own items, recognised by string ids and a `source` naming a provider. */
const DEVBOY_SHAPES: readonly ItemShape[] = [
  {
    name: 'devboy merge requests',
    provider: 'devboy',
    kind: 'merge_requests',
    aligned: true,
    normalize: (r) => r as unknown as ModelItem[],
    test: (o) => str(o, 'key') && str(o, 'source_branch') && SOURCES.has(o['source'] as string) && Array.isArray(o['reviewers']),
  },
  {
    name: 'devboy issues',
    provider: 'devboy',
    kind: 'issues',
    aligned: true,
    normalize: (r) => r as unknown as ModelItem[],
    test: (o) => str(o, 'key') && str(o, 'title') && SOURCES.has(o['source'] as string) && Array.isArray(o['assignees']),
  },
  {
    name: 'devboy file diffs',
    provider: 'devboy',
    kind: 'diffs',
    aligned: true,
    normalize: (r) => r as unknown as ModelItem[],
    test: (o) => str(o, 'file_path') && str(o, 'diff') && typeof o['new_file'] === 'boolean',
  },
  {
    name: 'devboy discussions',
    provider: 'devboy',
    kind: 'discussions',
    aligned: true,
    normalize: (r) => r as unknown as ModelItem[],
    test: (o) => str(o, 'id') && typeof o['resolved'] === 'boolean' && Array.isArray(o['comments']),
  },
  {
    name: 'devboy comments',
    provider: 'devboy',
    kind: 'comments',
    aligned: true,
    normalize: (r) => r as unknown as ModelItem[],
    test: (o) => str(o, 'id') && str(o, 'body') && !has(o, 'user') && !has(o, 'noteable_type') && !has(o, 'comments') && !has(o, 'created'),
  },
];

/** Devboy's own items first (string ids, `source`), then each provider's, in registry order. */
export function itemShapes(browseBase: string | undefined): ItemShape[] {
  return [...DEVBOY_SHAPES, ...PROVIDER_NAMES.flatMap((name) => PROVIDERS[name].itemShapes(browseBase))];
}

/** The shape all items of a list share, or where the first one that differs is. */
export function shapeOfList(
  list: readonly JsonValue[],
  browseBase: string | undefined,
  kind?: DatasetKind,
): { shape?: ItemShape; mismatch?: number } {
  // A shape whose list may turn out all of another kind (GitHub's issues holding pull requests only) is a candidate for that kind too.
  const shapes = itemShapes(browseBase).filter((s) => kind === undefined || s.kind === kind || s.allDropped?.kind === kind);
  const first = list[0];
  if (!isJsonObject(first)) return { mismatch: 0 };
  const shape = shapes.find((s) => s.test(first));
  if (!shape) return { mismatch: 0 };
  const bad = list.findIndex((v) => !isJsonObject(v) || !shape.test(v));
  return bad >= 0 ? { shape, mismatch: bad } : { shape };
}
