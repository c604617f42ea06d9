export const TOKENIZER_NAMES = ['heuristic', 'o200k_base', 'cl100k_base'] as const;
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];

export interface Tokenizer {
  name: TokenizerName;
  /** True when counts are an approximation rather than a real BPE encoding. */
  estimate: boolean;
  count(text: string): number;
}
