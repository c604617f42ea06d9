import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'devboy-input-limit-'));
after(() => rmSync(dir, { recursive: true, force: true }));
// 1.5 MiB of JSON: over a 1 MiB cap, under the default.
const file = join(dir, 'big.json');
const text = JSON.stringify(Array.from({ length: 30_000 }, (_, i) => ({ id: i, title: `issue number ${i} of many` })));
writeFileSync(file, text);

describe('inputs devboy reads whole are bounded (DEVBOY_MAX_INPUT_MB, default 128)', () => {
  it('a file over the cap is refused before it is read: one line naming the file, its size and the ways around it', async () => {
    const r = await runCli(['convert', file, '--to', 'toon'], { env: { DEVBOY_MAX_INPUT_MB: '1' } });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      `devboy convert: ${file}: ${(Buffer.byteLength(text) / 1024 / 1024).toFixed(1)} MiB, over the 1 MiB devboy reads whole (peak memory is about 11-15x the input): raise DEVBOY_MAX_INPUT_MB, or for GCF use convert --stream\n`,
    );
  });

  it('standard input is counted as it arrives and refused once past the cap', async () => {
    const r = await runCli(['convert', '-', '--to', 'toon'], { input: text, env: { DEVBOY_MAX_INPUT_MB: '1' } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^devboy convert: <stdin>: more than 1 MiB devboy reads whole/);
  });

  it('under the cap (the default) the same file converts, and format and session are bounded the same way', async () => {
    assert.equal((await runCli(['convert', file, '--to', 'json-compact'])).code, 0);
    for (const command of ['format', 'session']) {
      const r = await runCli([command, file], { env: { DEVBOY_MAX_INPUT_MB: '1' } });
      assert.equal(r.code, 1, command);
      assert.match(r.stderr, /MiB, over the 1 MiB devboy reads whole/, command);
    }
  });

  it('a cap that is not a whole number of MiB is a usage error', async () => {
    const r = await runCli(['convert', file, '--to', 'toon'], { env: { DEVBOY_MAX_INPUT_MB: '0.5' } });
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'devboy convert: DEVBOY_MAX_INPUT_MB must be a whole number of MiB of at least 1, got "0.5"\n');
  });
});
