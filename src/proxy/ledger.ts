import { open, type FileHandle } from 'node:fs/promises';
import { DataError } from '../errors.js';
import { isJsonObject, type JsonObject } from '../json/types.js';
import { forEachJsonLine } from '../transcript/parse-native.js';
import type { FormatName } from '../formats/types.js';
import type { TokenizerName } from '../tokens/types.js';
import type { LeftOut } from './level.js';
import type { OverBudgetPage } from './pages.js';

/** How a proxied tool call reached the model. */
export const CALL_OUTCOMES = ['encoded', 'lowered', 'kept', 'ref', 'fetched', 'error'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** The first line of a ledger: the settings every figure below was made with. */
export interface LedgerHeader {
  devboy_proxy_ledger: 1;
  devboy: string;
  /** The upstream's program name (no arguments: they can hold secrets). */
  upstream: string;
  format: FormatName | 'auto';
  /** What --format auto and "fewer tokens" counted with. */
  tokenizer: TokenizerName;
  /** Every count below is given under each of these. */
  tokenizers: TokenizerName[];
  /** What the savings are taken against. */
  baseline: 'upstream';
  dedup: { min_bytes: number; lru_size: number } | null;
  budget: number | null;
  level: string | null;
  explainer: boolean;
}

/** One tools/call, as the proxy answered it. */
export interface LedgerCall {
  call: number;
  tool: string;
  /** First 16 hex digits of SHA-256 of the arguments' JSON: repeats are visible, values are not. */
  args_sha256: string;
  outcome: CallOutcome;
  /** The encoding the model got (null: the upstream's text as it was). */
  format: FormatName | null;
  /** Every re-encoded text decoded back to the upstream's value. False when nothing was re-encoded. */
  verified: boolean;
  /** Why the upstream's text went through unchanged, when it did. */
  why: string | null;
  /** --level applied (lossy by choice; outcome `lowered`), or null. */
  level: string | null;
  /** Items of the upstream's list a lowered result does not hold (GitHub's pull requests in an issue list), or null. */
  left_out: LeftOut | null;
  /**
   * A body over --budget sent in pages: how many, the object member whose list they hold (null: the
   * result is the list), and the pages over the budget (each one item too large for a page), or null.
   */
  pages: { id: string; count: number; member: string | null; over_budget: OverBudgetPage[] } | null;
  dedup: 'first' | 'ref' | 'plain' | null;
  dedup_id: string | null;
  bytes_before: number;
  bytes_after: number;
  tokens_before: Partial<Record<TokenizerName, number>>;
  tokens_after: Partial<Record<TokenizerName, number>>;
  /** Part of tokens_after: the id line put above a body sent the first time. */
  header_tokens: Partial<Record<TokenizerName, number>>;
  /** Part of tokens_after: the format's explainer, sent once. */
  explainer_tokens: Partial<Record<TokenizerName, number>>;
  /** Milliseconds from the upstream's answer to the proxy's. */
  ms_added: number;
  /** Anything else the reader should know (a result over --max-result-mb, one over --budget sent whole, a lowered one); also on standard error. */
  note?: string;
}

export type LedgerLine = LedgerHeader | LedgerCall;

/** Appends one JSON line per call; the file is replaced when the proxy starts. */
export class LedgerWriter {
  private queue: Promise<unknown> = Promise.resolve();
  /** The first write that failed (a full disk): the session goes on, and close() reports it. */
  private failure: Error | undefined;

  private constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
  ) {}

  static async open(path: string, header: LedgerHeader): Promise<LedgerWriter> {
    let handle: FileHandle;
    try {
      handle = await open(path, 'w');
    } catch (err) {
      throw new DataError(`cannot write the ledger: ${(err as Error).message}`, { file: path });
    }
    const writer = new LedgerWriter(handle, path);
    writer.write(header);
    return writer;
  }

  write(line: LedgerLine): void {
    const text = `${JSON.stringify(line)}\n`;
    this.queue = this.queue
      .then(() => (this.failure ? undefined : this.handle.appendFile(text, 'utf8')))
      .catch((err: Error) => (this.failure ??= err));
  }

  async close(): Promise<void> {
    await this.queue;
    await this.handle.close();
    if (this.failure) throw new DataError(`the ledger is incomplete: ${this.failure.message}`, { file: this.path });
  }
}

/** Whether a session file is a proxy ledger: its first record says so. */
export function isLedgerText(text: string): boolean {
  const first = text.slice(0, 4096).split('\n', 2)[0] ?? '';
  return /^\s*\{\s*"devboy_proxy_ledger"\s*:/.test(first);
}

/** A ledger read back: its header and calls, checked for the members the summary needs. */
export function parseLedger(text: string, file?: string): { header: LedgerHeader; calls: LedgerCall[] } {
  let header: LedgerHeader | undefined;
  const calls: LedgerCall[] = [];
  forEachJsonLine(text, file, (value, line) => {
    const where = { ...(file !== undefined ? { file } : {}), line };
    if (!isJsonObject(value)) throw new DataError('ledger line must be a JSON object', where);
    if ('devboy_proxy_ledger' in value) {
      if (header) throw new DataError('a second ledger header: one ledger per file (the proxy replaces the file on start)', where);
      header = value as unknown as LedgerHeader;
      return;
    }
    if (!header) throw new DataError('not a devboy proxy ledger: the first line has no "devboy_proxy_ledger"', where);
    calls.push(checkCall(value, header, where));
  });
  if (!header) throw new DataError('empty ledger', file !== undefined ? { file } : undefined);
  return { header, calls };
}

function checkCall(value: JsonObject, header: LedgerHeader, where: { file?: string; line: number }): LedgerCall {
  const fail = (what: string): never => {
    throw new DataError(`ledger call ${what}`, where);
  };
  if (typeof value.tool !== 'string') fail('needs "tool" (a string)');
  if (!(CALL_OUTCOMES as readonly string[]).includes(value.outcome as string))
    fail(`has an unknown "outcome" (${CALL_OUTCOMES.join(', ')})`);
  for (const member of ['tokens_before', 'tokens_after', 'header_tokens', 'explainer_tokens'] as const) {
    const counts = value[member];
    if (!isJsonObject(counts)) fail(`needs "${member}" (an object of counts per tokenizer)`);
    for (const t of header.tokenizers) {
      if (!Number.isInteger((counts as JsonObject)[t])) fail(`"${member}" has no count for ${t}`);
    }
  }
  return value as unknown as LedgerCall;
}
