import { parse, stringify, YAMLParseError } from 'yaml';
import { DataError, lineColAt } from '../errors.js';
import { depthMessage } from '../json/depth.js';
import { assertEncodableDepth, loneSurrogateError } from '../json/encode-guard.js';
import { findNumberLoss } from '../json/numbers.js';
import { isWellFormed } from '../json/surrogates.js';
import type { JsonValue } from '../json/types.js';
import { FORMAT_INFO } from './info.js';
import { nonFiniteNumber } from './non-finite.js';
import type { Format } from './types.js';

/**
 * YAML 1.2 through the `yaml` package, block style as people paste it: its `stringify` defaults
 * except that no line is folded (`lineWidth: 0`) and a repeated object is written again rather than
 * as an anchor and alias (`*a1`), which a value read from JSON never means. Folding only splits long
 * lines, and it cost data: a multi-line string with a line over 80 columns became a folded block
 * (`>`), which yaml 2.9.1 writes wrongly when it holds consecutive lines of spaces (blank context
 * lines of a diff). Unfolded, such a string is a literal block (`|`). Read with `parse` and the core
 * schema: duplicate keys are refused, aliases are capped by the library (100), and what JSON cannot
 * hold is refused where it is: `.inf` and `.nan`, numbers a double does not hold exactly, nesting the
 * parser's recursion cannot follow (it gives up from about 800 levels; devboy's limit is 500).
 *
 * Known upstream losses (yaml 2.9.1, test/baselines.test.ts): a string no block can hold (it ends in
 * a line of spaces) is written double-quoted, over several lines once longer than 40 characters, and
 * a line of one space in it is escaped twice (`\\ `): it reads back as a backslash. Also a text of
 * spaces and line breaks only, and a document that is one text starting with a space. verify names
 * each.
 */
const STRINGIFY = { aliasDuplicateObjects: false, lineWidth: 0 } as const;

export const yaml: Format = {
  ...FORMAT_INFO.yaml,
  encode: (value: JsonValue) => {
    assertEncodableDepth(value);
    let text: string;
    try {
      text = stringify(value, STRINGIFY);
    } catch (err) {
      throw loneSurrogateError('yaml', value) ?? new DataError(`YAML cannot encode this value: ${(err as Error).message}`, undefined, err);
    }
    if (!isWellFormed(text)) throw loneSurrogateError('yaml', value) ?? new DataError('YAML output is not valid UTF-8 text');
    // As stringify writes it, ending in a line break: when the last value is a block that keeps its
    // trailing line breaks (`|+`, a text ending in blank lines), that line break is the text's own.
    return text;
  },
  decode: (text: string) => {
    let value: JsonValue;
    try {
      value = (parse(text, { prettyErrors: false, logLevel: 'error' }) ?? null) as JsonValue;
    } catch (err) {
      if (err instanceof YAMLParseError) {
        const at = err.linePos?.[0] ?? lineColAt(text, err.pos[0]);
        const message = /Maximum call stack/.test(err.message)
          ? depthMessage()
          : err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
        throw new DataError(`invalid YAML: ${message}`, at ? { line: at.line, col: at.col } : undefined, err);
      }
      if (err instanceof RangeError) throw new DataError(`invalid YAML: ${depthMessage()}`, undefined, err);
      throw new DataError(`invalid YAML: ${(err as Error).message}`, undefined, err);
    }
    const odd = nonFiniteNumber(value);
    if (odd) throw new DataError(`YAML ${odd.value} at ${odd.path} has no JSON value`);
    const loss = findNumberLoss(text, value);
    if (loss) throw new DataError(`number ${loss.literal} ${loss.loss}`, lineColAt(text, loss.offset));
    return value;
  },
};
