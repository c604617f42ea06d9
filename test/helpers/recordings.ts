import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { corpusDir } from './paths.js';
import type { JsonObject, JsonValue } from '../../src/json/types.js';
import type { RecordedExchange } from '../../src/replay/exchange.js';
import { DevboyError } from '../../src/errors.js';

export { REPO_ROOT } from './paths.js';
export const CORPUS_DIR = corpusDir();

export async function recording(file: string): Promise<RecordedExchange> {
  return JSON.parse(await readFile(join(CORPUS_DIR, file), 'utf8')) as RecordedExchange;
}

export async function recordedBody(file: string): Promise<JsonValue> {
  return (await recording(file)).response.body;
}

export async function recordedList(file: string, field?: string): Promise<JsonObject[]> {
  const body = await recordedBody(file);
  const list = field ? (body as JsonObject)[field] : body;
  if (!Array.isArray(list)) throw new Error(`${file}: no list${field ? ` under ${field}` : ''}`);
  return list as JsonObject[];
}

/** A sleep that returns at once and remembers what it was asked to wait. */
export function instantSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

/** The DevboyError a promise rejects with; fails the test if it resolves or throws anything else. */
export async function rejection(promise: Promise<unknown>): Promise<DevboyError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DevboyError) return err;
    throw err;
  }
  throw new Error('expected a rejection, but the promise resolved');
}
