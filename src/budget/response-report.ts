import type { ResponseOutcome } from './response-request.js';
import { fewerOrMore, int } from '../text/words.js';
import { itemNoun } from './chunks/summary.js';
import { tokenizerLabel } from '../tokens/registry.js';

/** One line for `devboy format --stats`: what the response holds, what it cost, against what. */
export function responseStatsLine(out: ResponseOutcome, budget: number | undefined): string {
  const m = out.metadata;
  const d = out.detail;
  const estimate = m.tokenizer === 'heuristic' ? ' (estimate)' : '';
  const detail = m.truncated ? ` (${d.full} full, ${d.standard} standard, ${d.minimal} minimal, ${d.cut} with text cut)` : '';
  const within = budget === undefined ? '' : ` of ${int(budget)}`;
  const saving =
    m.encoder_savings_pct === 0
      ? `as many tokens as ${m.baseline} of the same items as sent`
      : `${fewerOrMore(m.encoder_savings_pct)} tokens than ${m.baseline} of the same items as sent`;
  const algorithm = out.algorithm ? `, ${out.algorithm}` : '';
  return `chunk ${m.chunk_number}/${m.total_chunks}: ${m.included_items} of ${m.total_items} ${itemNoun(out.kind, m.total_items ?? 0)}${detail} in ${int(m.estimated_tokens)}${within} ${tokenizerLabel(m.tokenizer)} tokens${estimate}, ${m.format}; ${saving}; strategy ${out.strategy} (${out.resolution.by}: ${out.resolution.name})${algorithm}`;
}

/** `devboy format --json`: the content, FormatMetadata (19 fields), and how the pipeline got there. */
export function responseJson(out: ResponseOutcome): string {
  return JSON.stringify(
    {
      content: out.content,
      metadata: out.metadata,
      pipeline: {
        kind: out.kind,
        input: out.shape,
        strategy: out.strategy,
        resolved_by: out.resolution.by,
        resolved_name: out.resolution.name,
        algorithm: out.algorithm ?? null,
        detail: out.detail,
        chunks: out.chunks,
        index_form: out.indexForm ?? null,
        estimate: out.metadata.tokenizer === 'heuristic',
        left_out: out.leftOut ?? null,
      },
    },
    null,
    2,
  );
}
