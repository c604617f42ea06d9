import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { findNumberLoss } from '../src/json/numbers.js';

describe('findNumberLoss scans a text once', () => {
  // A YAML text of a GitHub search holds long runs of number characters without a digit (Markdown
  // rules, `eee`): the scan's regex backtracked over each such run once per start position, so a
  // run of n characters cost n² steps and decoding one 570 KB YAML body took minutes. A million
  // characters is some 10^12 steps for a quadratic scan and milliseconds for a linear one: the
  // limit tells the two apart on any machine, however busy. The scan is synchronous, so it runs in
  // a child process that the limit can stop.
  it('a run of a million number characters without a digit', () => {
    const script = `
      const { findNumberLoss } = await import(${JSON.stringify(new URL('../src/json/numbers.js', import.meta.url).href)});
      const text = 'a: ' + '-'.repeat(500000) + 'e'.repeat(500000) + '\\nb: 12345678901234567890';
      const loss = findNumberLoss(text, { a: 'x', b: 12345678901234567000 });
      process.stdout.write(JSON.stringify({ literal: loss?.literal, offset: loss?.offset, at: text.indexOf('1234') }));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000, encoding: 'utf8' });
    assert.equal(child.signal, null, 'the scan did not finish within a minute');
    const out = JSON.parse(child.stdout) as { literal: string; offset: number; at: number };
    assert.equal(out.literal, '12345678901234567890');
    assert.equal(out.offset, out.at);
  });

  it('still finds a number standing alone and skips one inside a word', () => {
    assert.equal(findNumberLoss('x: 1e400', { x: Infinity })?.literal, '1e400');
    assert.equal(findNumberLoss('x: v12345678901234567890', { x: 'v12345678901234567890' }), null);
    assert.equal(findNumberLoss('x: --12345678901234567890e--', { x: 12345678901234567000 }), null);
  });

  // In a YAML literal block a line can end with a backslash after a quote (`"C:\dir\`); the
  // quoted-string scan found no end there, started again from the top and never stopped.
  it('a quote whose line ends with a backslash (a YAML literal block)', () => {
    const script = `
      const { findNumberLoss } = await import(${JSON.stringify(new URL('../src/json/numbers.js', import.meta.url).href)});
      const text = 'body: |-\\n  say "C:\\\\dir\\\\\\n  done\\nn: 12345678901234567890';
      const loss = findNumberLoss(text, { body: 'x', n: 12345678901234567000 });
      process.stdout.write(JSON.stringify({ literal: loss?.literal ?? null }));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000, encoding: 'utf8' });
    assert.equal(child.signal, null, 'the scan did not finish within a minute');
    assert.equal(child.stderr, '');
    assert.deepEqual(JSON.parse(child.stdout), { literal: '12345678901234567890' });
  });
});
