import { fewerOrMore } from '../text/words.js';
import { tokenizerLabel } from '../tokens/registry.js';
import type { AutoChoice, ConvertStats } from './convert.js';
import type { FormatName } from '../formats/types.js';

/** The `--stats` block: every token figure names its tokenizer, the saving names its baseline. */
export function formatConvertStats(s: ConvertStats): string {
  const tk = s.estimate ? `${s.tokenizer} tokens, an estimate` : `${tokenizerLabel(s.tokenizer)} tokens`;
  const width = Math.max(s.input.format.length, s.output.format.length);
  const line = (label: string, side: ConvertStats['input']) =>
    `${label} ${side.format.padEnd(width)}  ${group(side.bytes).padStart(10)} bytes  ${group(side.tokens).padStart(9)} ${tk}`;
  return [
    line('input ', s.input),
    line('output', s.output),
    `output vs input: ${fewerOrMore(s.saving.tokens)} ${tk}, ${fewerOrMore(s.saving.bytes)} bytes; baseline: ${s.saving.baseline}`,
  ].join('\n');
}

function group(n: number): string {
  return n.toLocaleString('en-US');
}

/** What `--to auto` chose and why, on one line: the winner's tokens, the runner-up's cost, what was refused. */
export function autoChoiceText(chosen: FormatName, a: AutoChoice): string {
  const tk = a.estimate ? `${a.tokenizer} tokens (an estimate)` : `${tokenizerLabel(a.tokenizer)} tokens`;
  const ranked = a.candidates.filter((c) => c.lossless).sort((x, y) => x.tokens - y.tokens);
  const best = ranked[0]!;
  const next = ranked.find((c) => c.format !== chosen);
  const refused = a.candidates.filter((c) => !c.lossless).map((c) => c.format);
  return [
    `auto: ${chosen}, the lossless format with the fewest ${tk} for this input: ${group(best.tokens)}`,
    next ? `; runner-up ${next.format}: ${group(next.tokens)}, ${fewerOrMore(1 - next.tokens / best.tokens)}` : '',
    refused.length ? `; not lossless here: ${refused.join(', ')}` : '',
  ].join('');
}
