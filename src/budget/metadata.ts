import type { JsonValue } from '../json/types.js';
import type { ItemList } from '../model/index.js';

/**
 * The provider's own JSON for some of the items: the savings baseline of a response holding them.
 * GitHub threads are built from review comments, so a thread's JSON is its comments' JSON (by id).
 * Without provider JSON, the items themselves at full detail stand in.
 */
export function providerJsonOf(
  input: ItemList & { raw?: readonly JsonValue[]; rawAligned?: boolean },
  fullValues: readonly JsonValue[],
): (indexes: readonly number[]) => JsonValue[] {
  const raw = input.raw;
  if (!raw) return (indexes) => indexes.map((i) => fullValues[i]!);
  if (input.rawAligned !== false) return (indexes) => indexes.map((i) => raw[i]!);
  if (input.kind === 'discussions') {
    const threads = input.items;
    const byId = new Map<string, JsonValue>();
    for (const r of raw) if (r && typeof r === 'object' && !Array.isArray(r) && r['id'] !== undefined) byId.set(String(r['id']), r);
    return (indexes) =>
      indexes.flatMap((i) => threads[i]!.comments.map((c) => byId.get(c.id)).filter((v): v is JsonValue => v !== undefined));
  }
  return (indexes) => (indexes.length === input.items.length ? [...raw] : indexes.map((i) => fullValues[i]!));
}
