import type { JsonObject, JsonValue } from '../json/types.js';
import type { DatasetKind, ModelItem, ProviderName } from '../model/index.js';

/** A kind of list item devboy recognises by its fields, and how it becomes model items. */
export interface ItemShape {
  name: string;
  provider: ProviderName | 'devboy';
  kind: DatasetKind;
  test(o: JsonObject): boolean;
  /** The whole list → model items; `aligned` says whether item i comes from raw[i]. */
  normalize(raw: JsonValue[]): ModelItem[];
  /** Items of the list that are not of this shape's kind and are left out (raw and model alike): which, what they are, their keys. */
  drop?: { test(raw: JsonValue): boolean; what: string; keys(dropped: readonly JsonValue[], list: readonly JsonValue[]): string[] };
  /** When `drop` leaves nothing of a non-empty list: what the list is then (its items all aligned). */
  allDropped?: { name: string; kind: DatasetKind; normalize(raw: JsonValue[]): ModelItem[] };
  aligned: boolean;
}

export const has = (o: JsonObject, ...keys: string[]) => keys.every((k) => k in o);
export const str = (o: JsonObject, k: string) => typeof o[k] === 'string';
export const each =
  <T extends ModelItem>(f: (v: JsonValue) => T) =>
  (raw: JsonValue[]) =>
    raw.map(f);
