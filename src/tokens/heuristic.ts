import type { Tokenizer } from './types.js';

/**
 * The estimate devboy-tools uses (ceil(UTF-8 bytes / 3.5)). Kept so its bias against a real
 * tokenizer can be measured, never as a substitute for one.
 */
export const heuristic: Tokenizer = {
  name: 'heuristic',
  estimate: true,
  count: (text: string) => Math.ceil(Buffer.byteLength(text, 'utf8') / 3.5),
};
