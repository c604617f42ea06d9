import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DataError } from '../src/errors.js';
import { describeDifference, firstDifference } from '../src/json/equal.js';
import { findJsonError, parseJson, parseNdjson } from '../src/json/parse.js';

function errorOf(fn: () => unknown): DataError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof DataError, `expected a DataError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected an error');
}

describe('parseJson reports where JSON is broken', () => {
  const cases: [string, string, number, number, RegExp][] = [
    ['missing value', '{\n  "a": }', 2, 8, /expected a value/],
    ['trailing comma in array', '[1,\n2,\n]', 3, 1, /unexpected '\]'/],
    ['bare word', '{"a": tru}', 1, 10, /expected true/],
    ['unterminated string', '{"a": "abc', 1, 11, /unterminated string/],
    ['raw newline in a string', '["a\nb"]', 1, 4, /control character/],
    ['two values', '{} {}', 1, 4, /after the JSON value/],
    ['empty input', '', 1, 1, /expected a value/],
    ['single-quoted key', "{'a': 1}", 1, 2, /property name in double quotes/],
  ];
  for (const [name, text, line, col, message] of cases) {
    it(name, () => {
      const err = errorOf(() => parseJson(text, 'in.json'));
      assert.deepEqual(err.location, { file: 'in.json', line, col });
      assert.match(err.message, message);
      assert.equal(err.oneLine().includes('\n'), false);
      assert.match(err.oneLine(), new RegExp(`^in\\.json:${line}:${col}: invalid JSON`));
    });
  }

  it('the scanner accepts exactly what JSON.parse accepts (property)', () => {
    const mutate = fc
      .tuple(fc.jsonValue(), fc.nat(), fc.constantFrom('', '}', ']', ',', '"', ':', 'x', '\n', '\\', ' '))
      .map(([v, at, ch]) => {
        const s = JSON.stringify(v, null, at % 3);
        const i = at % (s.length + 1);
        return s.slice(0, i) + ch + s.slice(i + (at % 2));
      });
    fc.assert(
      fc.property(mutate, (text) => {
        let ok = true;
        try {
          JSON.parse(text);
        } catch {
          ok = false;
        }
        if (ok) return true;
        const { offset } = findJsonError(text);
        return offset >= 0 && offset <= text.length;
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseNdjson', () => {
  it('reads one value per line and skips blank lines', () => {
    assert.deepEqual(parseNdjson('{"a":1}\n\n[2]\r\n"x"\n'), [{ a: 1 }, [2], 'x']);
  });
  it('names the line of a bad record', () => {
    const err = errorOf(() => parseNdjson('{"a":1}\n{"a":}\n', 'rows.ndjson'));
    assert.deepEqual(err.location, { file: 'rows.ndjson', line: 2, col: 6 });
  });
});

describe('firstDifference', () => {
  it('finds a key-order change and says where', () => {
    const d = firstDifference({ x: [{ a: 1, b: 2 }] }, { x: [{ b: 2, a: 1 }] });
    assert.deepEqual(d, {
      path: '$.x[0]',
      kind: 'key-order',
      expected: 'a,b',
      actual: 'b,a',
      keys: { expected: ['a', 'b'], actual: ['b', 'a'] },
    });
    assert.match(describeDifference(d!), /key order changed at \$\.x\[0\]/);
  });
  it('finds a changed scalar type (1 becoming "1")', () => {
    assert.equal(firstDifference([1], ['1'])?.kind, 'type');
  });
  it('quotes odd keys in paths', () => {
    assert.equal(firstDifference({ 'a b': 1 }, { 'a b': 2 })?.path, '$["a b"]');
  });
  it('returns null for equal values', () => {
    assert.equal(firstDifference({ a: [1, null] }, { a: [1, null] }), null);
  });
});
