import type { Readable, Writable } from 'node:stream';
import { DevboyError } from '../errors.js';
import { loadExplainers } from '../formats/explainers.js';
import { loadFormats, type FormatName } from '../formats/registry.js';
import { loadTokenizer } from '../tokens/registry.js';
import type { TokenizerName } from '../tokens/types.js';
import { DEFAULT_DEDUP } from '../transcript/types.js';
import { devboyVersion } from '../versions.js';
import { Bridge, clip, type AddedTool, type BridgeEnd } from './bridge.js';
import type { ProxyLevel } from './level.js';
import { LedgerWriter, type LedgerCall, type LedgerHeader } from './ledger.js';
import { proxyFormats } from './rewrite-text.js';
import { ResultShaper } from './shape-result.js';
import { summarizeLedger, type ProxySummary } from './summary.js';
import { toolMatcher } from './tool-match.js';
import { openAgentSide, openUpstream, type UpstreamSpec } from './upstream.js';

export interface ProxyRequest {
  upstream: UpstreamSpec;
  format: FormatName | 'auto';
  tokenizer: TokenizerName;
  /** Every ledger count is made under each; --tokenizer is added first when missing. */
  tokenizers: readonly TokenizerName[];
  skipTools: readonly string[];
  onlyTools: readonly string[];
  budget: number | null;
  level: ProxyLevel | null;
  dedup: boolean;
  explainer: boolean;
  timeoutMs: number;
  startTimeoutMs: number;
  maxResultMb: number;
  log?: string;
  /** The agent's side. */
  stdin: Readable;
  stdout: Writable;
  /** One line for the person; the library never prints. */
  onNote: (line: string) => void;
}

export interface ProxyOutcome {
  end: BridgeEnd;
  summary: ProxySummary;
  /** 0: the agent ended the session; 1: the upstream failed. */
  exitCode: number;
}

/** The tool the proxy adds to the upstream's list. */
export const ADDED_TOOL: AddedTool = {
  name: 'devboy_result',
  description:
    'Returns a tool result the devboy proxy shortened: pass the id shown with it (shadow_...) for the whole result, and "page" for one page of a paged result.',
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'the id shown with the result, e.g. shadow_5feceb66ffc8' },
      page: { type: 'integer', minimum: 1, description: 'one page of a paged result (1 is the page already shown)' },
    },
    required: ['id'],
  },
};

/** Results held for the added tool, at most this many UTF-16 units in all (least recently used let go first). */
const STORE_CHARS = 64 * 1024 * 1024;

/** `devboy proxy`: serve the agent on stdin/stdout, in front of the upstream, until either side ends. */
export async function runProxy(req: ProxyRequest): Promise<ProxyOutcome> {
  const { shaper, counterNames, maxMessageBytes } = await resultShaper(req);
  const upstream = await openUpstream(req.upstream, maxMessageBytes);
  const header = ledgerHeader(req, upstream.name, counterNames);
  let ledger: LedgerWriter | undefined;
  try {
    ledger = req.log ? await LedgerWriter.open(req.log, header) : undefined;
  } catch (err) {
    await upstream.transport.close();
    throw err;
  }
  const records: LedgerCall[] = [];
  const agent = await openAgentSide(req.stdin, req.stdout, maxMessageBytes);
  const bridge = new Bridge({
    agent,
    upstream: upstream.transport,
    timeoutMs: req.timeoutMs,
    startTimeoutMs: req.startTimeoutMs,
    shaper,
    addedTool: req.dedup || req.budget !== null || req.level !== null ? ADDED_TOOL : null,
    onRecord: (r) => {
      records.push(r);
      ledger?.write(r);
    },
    onNote: req.onNote,
  });
  upstream.transport.onerror = (err) => {
    // The SDK's reader reports a line that is no JSON-RPC message (or one over the size limit) here.
    const junk = err.name === 'SyntaxError' || err.name === 'ZodError' || /ReadBuffer exceeded/.test(err.message);
    if (junk) bridge.upstreamFault(`it wrote to stdout something that is not an MCP message (${clip(err.message, 120)})`);
    else req.onNote(`upstream: ${clip(err.message)}`);
  };
  upstream.transport.onclose = () => bridge.upstreamFault(upstream.exit() ?? 'it closed the connection');
  const agentGone = () => bridge.agentClosed();
  req.stdin.once('end', agentGone);
  req.stdin.once('close', agentGone);
  req.stdout.once('error', agentGone);
  await agent.start();

  const end = await bridge.done;
  req.stdin.off('end', agentGone);
  req.stdin.off('close', agentGone);
  upstream.transport.onclose = undefined;
  await Promise.all([upstream.transport.close().catch(() => undefined), agent.close().catch(() => undefined)]);
  const ledgerOk = await closeLedger(ledger, req.onNote);
  return { end, summary: summarizeLedger(header, records), exitCode: end.reason === 'agent-closed' && ledgerOk ? 0 : 1 };
}

/** The shaper of every tools/call result, with the counters it loaded and the largest message the proxy passes on. */
async function resultShaper(req: ProxyRequest): Promise<{ shaper: ResultShaper; counterNames: TokenizerName[]; maxMessageBytes: number }> {
  const counterNames = [req.tokenizer, ...req.tokenizers.filter((t) => t !== req.tokenizer)];
  const counters = await Promise.all(counterNames.map((n) => loadTokenizer(n)));
  const formats = await loadFormats(proxyFormats(req.format));
  const explainers = req.explainer ? await loadExplainers(formats.map((f) => f.name)) : [];
  const maxResultBytes = Math.round(req.maxResultMb * 1024 * 1024);
  // A message must fit whole to be passed on at all; a result over --max-result-mb is passed on unread.
  const maxMessageBytes = Math.max(64 * 1024 * 1024, 4 * maxResultBytes);
  const shaper = new ResultShaper({
    formats,
    tokenizer: counters[0]!,
    counters,
    maxResultBytes,
    budget: req.budget,
    level: req.level,
    dedup: req.dedup ? DEFAULT_DEDUP : null,
    explainers: new Map(explainers.map((e) => [e.format, e.text])),
    toolRule: toolMatcher({ skip: req.skipTools, only: req.onlyTools }),
    addedTool: ADDED_TOOL.name,
    storeChars: STORE_CHARS,
  });
  return { shaper, counterNames, maxMessageBytes };
}

function ledgerHeader(req: ProxyRequest, upstream: string, counterNames: TokenizerName[]): LedgerHeader {
  return {
    devboy_proxy_ledger: 1,
    devboy: devboyVersion(),
    upstream,
    format: req.format,
    tokenizer: req.tokenizer,
    tokenizers: counterNames,
    baseline: 'upstream',
    dedup: req.dedup ? { min_bytes: DEFAULT_DEDUP.minBytes, lru_size: DEFAULT_DEDUP.lruSize } : null,
    budget: req.budget,
    level: req.level,
    explainer: req.explainer,
  };
}

/** Whether the ledger (if any) was written whole; a failure is a note for the person. */
async function closeLedger(ledger: LedgerWriter | undefined, onNote: (line: string) => void): Promise<boolean> {
  try {
    await ledger?.close();
    return true;
  } catch (err) {
    onNote(err instanceof DevboyError ? err.oneLine() : clip((err as Error).message));
    return false;
  }
}
