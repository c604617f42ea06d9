import { fewerOrMore } from '../report/words.js';
import type { ConvertStats } from './convert.js';

/** The `--stats` block: every token figure names its tokenizer, the saving names its baseline. */
export function formatConvertStats(s: ConvertStats): string {
  const tk = s.estimate ? `${s.tokenizer} tokens, an estimate` : `${s.tokenizer} tokens`;
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
