import type { Tokenizer } from '../../src/tokens/types.js';

/**
 * `t`, remembering its counts: a test that counts the same large texts again (a shaper per test, a
 * determinism check) pays once. A count depends on the text alone, and each tokenizer has tests of its own.
 */
export function rememberingTokenizer(t: Tokenizer): Tokenizer {
  const counts = new Map<string, number>();
  return {
    name: t.name,
    estimate: t.estimate,
    count: (text) => {
      let n = counts.get(text);
      if (n === undefined) counts.set(text, (n = t.count(text)));
      return n;
    },
  };
}
