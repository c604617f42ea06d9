/**
 * The meaning of a JSON text with nothing lost, for tests to compare against: a canonical string in
 * which numbers are exact decimals (not doubles), objects keep every member in order (duplicates
 * too), and strings keep every UTF-16 unit (lone surrogates too). Written separately from devboy's
 * reader so the tests do not check the reader against itself. Recursive: test inputs are shallow.
 */
export function meaningOf(text: string): string {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw new Error(`oracle: not JSON at ${i}`);
  };
  const value = (): string => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const members: string[] = [];
      ws();
      if (text[i] === '}') {
        i++;
        return '{}';
      }
      for (;;) {
        ws();
        const k = string();
        ws();
        if (text[i++] !== ':') fail();
        members.push(`${k}:${value()}`);
        ws();
        const d = text[i++];
        if (d === '}') return `{${members.join(',')}}`;
        if (d !== ',') fail();
      }
    }
    if (c === '[') {
      i++;
      const items: string[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return '[]';
      }
      for (;;) {
        items.push(value());
        ws();
        const d = text[i++];
        if (d === ']') return `[${items.join(',')}]`;
        if (d !== ',') fail();
      }
    }
    if (c === '"') return string();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return word;
      }
    }
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i));
    if (!m || m[0] === '') return fail();
    i += m[0].length;
    return exactDecimal(m[0]);
  };
  const string = (): string => {
    if (text[i] !== '"') fail();
    const start = i++;
    while (text[i] !== '"') {
      if (i >= text.length) fail();
      i += text[i] === '\\' ? 2 : 1;
    }
    i++;
    const s = JSON.parse(text.slice(start, i)) as string;
    return `s(${[...Array(s.length).keys()].map((k) => s.charCodeAt(k).toString(16)).join('.')})`;
  };
  const v = value();
  ws();
  if (i !== text.length) fail();
  return v;
}

/** A number literal as an exact decimal `n(digits e exponent)`, with BigInt arithmetic: `1.5e3` and `1500` agree. */
export function exactDecimal(literal: string): string {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(literal)!;
  let digits = BigInt(`${m[2]}${m[3] ?? ''}`);
  let exponent = BigInt(m[4] ?? '0') - BigInt((m[3] ?? '').length);
  if (digits === 0n) return 'n(0)';
  while (digits % 10n === 0n) {
    digits /= 10n;
    exponent += 1n;
  }
  return `n(${m[1]}${digits}e${exponent})`;
}
