import { UsageError } from '../errors.js';
import { heuristic } from './heuristic.js';
import { TOKENIZER_NAMES, type Tokenizer, type TokenizerName } from './types.js';

export { TOKENIZER_NAMES, type Tokenizer, type TokenizerName } from './types.js';

export const DEFAULT_TOKENIZER: TokenizerName = 'o200k_base';

export function assertTokenizerName(name: string): TokenizerName {
  if (!(TOKENIZER_NAMES as readonly string[]).includes(name)) {
    throw new UsageError(`unknown tokenizer '${name}' (expected one of: ${TOKENIZER_NAMES.join(', ')})`);
  }
  return name as TokenizerName;
}

const loaded = new Map<TokenizerName, Promise<Tokenizer>>();

export function loadTokenizer(name: TokenizerName): Promise<Tokenizer> {
  let t = loaded.get(name);
  if (!t) {
    t = name === 'heuristic' ? Promise.resolve(heuristic) : import('./bpe.js').then((m) => m.loadBpe(name));
    loaded.set(name, t);
  }
  return t;
}
