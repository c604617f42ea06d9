import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from './optional.js';
import type { Tokenizer, TokenizerName } from './types.js';

/** The part of @lenml/tokenizers (a fork of transformers.js's tokenizers) devboy uses. */
interface LenmlLibrary {
  TokenizerLoader: {
    fromPreTrained(params: { tokenizerJSON: unknown; tokenizerConfig: unknown }): {
      encode(text: string, options: { add_special_tokens: boolean }): number[];
    };
  };
}

interface TokenizerJson {
  added_tokens?: { content: string; special: boolean }[];
}

/**
 * A model family's Hugging Face tokenizer.json, shipped by its @lenml/tokenizer-* package, run by
 * @lenml/tokenizers (the package's own dependency, resolved from the family package so the two
 * versions belong together). The tokenizer.json is read as JSON rather than through the package's
 * main module, which embeds the same data as JavaScript and loads slower.
 *
 * Special tokens ("<|begin_of_text|>", "<start_of_turn>") are dropped from the added tokens, so
 * their text in tool output counts as ordinary text, as devboy counts o200k_base; added tokens that
 * are not special (Qwen's "<tool_call>", Gemma's "<unused0>") stay, since the model's tokenizer
 * matches them in any text.
 */
export function loadLenml(name: TokenizerName): Tokenizer {
  const root = packageRoot(name);
  const json = JSON.parse(readFileSync(join(root, 'models', 'tokenizer.json'), 'utf8')) as TokenizerJson;
  const config = JSON.parse(readFileSync(join(root, 'models', 'tokenizer_config.json'), 'utf8')) as unknown;
  json.added_tokens = (json.added_tokens ?? []).filter((t) => !t.special);
  const library = createRequire(join(root, 'package.json'))('@lenml/tokenizers') as LenmlLibrary;
  const tokenizer = library.TokenizerLoader.fromPreTrained({ tokenizerJSON: json, tokenizerConfig: config });
  return {
    name,
    estimate: false,
    count: (text: string) => (text === '' ? 0 : tokenizer.encode(text, { add_special_tokens: false }).length),
  };
}
