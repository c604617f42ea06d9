import type { RecordedExchange as Exchange } from '../replay/exchange.js';
import type { JsonObject, JsonValue } from '../json/types.js';
import type { TranscriptCall } from './types.js';

/** A tool output as a benchmark or a test has it in hand. */
export interface ToolOutput {
  tool: string;
  output: JsonValue;
  args?: JsonObject;
  isError?: boolean;
}

/** A session of calls, in the given order; repeat an item to model an agent asking again. */
export function transcriptFromOutputs(outputs: readonly ToolOutput[]): TranscriptCall[] {
  return outputs.map((o) => ({
    kind: 'call',
    tool: o.tool,
    ...(o.args !== undefined ? { args: o.args } : {}),
    output: o.output,
    isError: o.isError === true,
  }));
}

/**
 * One call per recorded HTTP exchange, in the given order: the tool is `METHOD /path`, the args hold
 * the URL, an HTTP status of 400 or more marks an error. The corpus records some URLs more than once,
 * so playing it back in order already contains real repeats.
 */
export function transcriptFromExchanges(exchanges: readonly Exchange[]): TranscriptCall[] {
  return exchanges.map((e) => ({
    kind: 'call',
    tool: `${e.request.method} ${pathOf(e.request.url)}`,
    args: { url: e.request.url },
    output: e.response.body,
    isError: e.response.status >= 400,
  }));
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
