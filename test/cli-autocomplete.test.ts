import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { FORMAT_NAMES } from '../src/formats/types.js';
import { PROVIDER_NAMES } from '../src/providers/registry.js';
import { runCli } from './helpers/cli.js';
import { commandIds } from './helpers/paths.js';

/** What bash offers for `words` (the last one being completed), with devboy's script loaded. */
function complete(script: string, words: string[]): string[] {
  const line = words.map((w) => `'${w}'`).join(' ');
  const r = spawnSync(
    'bash',
    [
      '--norc',
      '--noprofile',
      '-c',
      `${script}\nCOMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _devboy_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter(Boolean).sort();
}

describe('devboy autocomplete', () => {
  it('bash: commands, flags of the command typed, and the values a flag accepts', async (t) => {
    if (spawnSync('bash', ['-c', 'true']).status !== 0) return t.skip('no bash here');
    const r = await runCli(['autocomplete', 'bash']);
    assert.equal(r.code, 0, r.stderr);
    const script = r.stdout;
    assert.deepEqual(complete(script, ['devboy', '']), commandIds());
    assert.deepEqual(
      complete(script, ['devboy', 'co']),
      commandIds().filter((c) => c.startsWith('co')),
    );
    assert.deepEqual(complete(script, ['devboy', 'convert', '--st']), ['--stats', '--stream']);
    // --to takes every format of the registry, and auto.
    assert.deepEqual(complete(script, ['devboy', 'convert', 'x.json', '--to', '']), [...FORMAT_NAMES, 'auto'].sort());
    assert.deepEqual(complete(script, ['devboy', 'convert', '-t', 'j']), FORMAT_NAMES.filter((f) => f.startsWith('j')).sort());
    assert.ok(FORMAT_NAMES.filter((f) => f.startsWith('j')).length > 1, 'the prefix picks more than one format');
    assert.deepEqual(complete(script, ['devboy', 'benchmark', '--tokenizers', 'o']), []); // a list: free text
    assert.deepEqual(complete(script, ['devboy', 'record', '--provider', 'g']), PROVIDER_NAMES.filter((p) => p.startsWith('g')).sort());
    assert.deepEqual(complete(script, ['devboy', 'help', 'se']), ['session']);
    // Hidden flags stay hidden (record's -o exists only to refuse it).
    assert.deepEqual(complete(script, ['devboy', 'record', '--o']), ['--out-dir', '--owner']);
  });

  it('zsh gets the same script through bashcompinit; an unknown shell is a usage error', async () => {
    const zsh = await runCli(['autocomplete', 'zsh']);
    assert.equal(zsh.code, 0, zsh.stderr);
    assert.match(zsh.stdout, /^autoload -U \+X bashcompinit && bashcompinit$/m);
    assert.match(zsh.stdout, /^complete -o default -F _devboy_complete devboy$/m);
    const fish = await runCli(['autocomplete', 'fish']);
    assert.equal(fish.code, 2);
    assert.match(fish.stderr, /^devboy autocomplete: Expected fish to be one of: bash, zsh/);
  });
});
