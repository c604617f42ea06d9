import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { after, describe, it } from 'node:test';
import { recordLive } from '../src/record/record.js';
import { writeProjectAtomically } from '../src/record/write.js';
import { instantSleep } from './helpers/recordings.js';
import { JIRA_EMAIL, JIRA_TOKEN, startJiraLive } from './helpers/live-apis.js';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** `<tmp>/a/b/out`: two levels above --out that nothing may be written into. */
async function layout(): Promise<{ top: string; out: string }> {
  const top = await mkdtemp(join(tmpdir(), 'devboy-record-paths-'));
  dirs.push(top);
  return { top, out: join(top, 'a', 'b', 'out') };
}

/** Every path under `dir`, relative to it, folders with a trailing separator. */
async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const rel = relative(dir, join(entry.parentPath, entry.name));
    out.push(entry.isDirectory() ? `${rel}${sep}` : rel);
  }
  return out.sort();
}

function assertOnlyUnderOut(paths: string[]): void {
  const outside = paths.filter((p) => !`a${sep}b${sep}out${sep}`.startsWith(p) && !p.startsWith(`a${sep}b${sep}out${sep}`));
  assert.deepEqual(outside, [], 'nothing outside --out');
  assert.deepEqual(
    paths.filter((p) => p.split(sep).some((part) => part.startsWith('.devboy-'))),
    [],
    'no temporary files or folders',
  );
}

describe('record: names from input become one safe folder name inside --out', () => {
  for (const [project, folder] of [
    ['../../x', 'x'],
    ['/abs/x', 'abs__x'],
    ['..', '_'],
    ['.hidden', '_hidden'],
    ['a\\b\0c', 'a__b_c'],
  ] as const) {
    it(`Jira --project ${JSON.stringify(project)} is written to jira/${folder}`, async () => {
      const { top, out } = await layout();
      const live = await startJiraLive();
      try {
        const { sleep } = instantSleep();
        const result = await recordLive({
          provider: 'jira',
          project,
          env: { JIRA_HOST: live.url, JIRA_EMAIL, JIRA_API_TOKEN: JIRA_TOKEN },
          limit: 5,
          details: 0,
          outDir: out,
          http: { sleep },
        });
        assert.equal(result.projectDir, join(out, 'jira', folder));
        const files = await readdir(result.projectDir);
        assert.ok(files.length > 0);
        assert.deepEqual(await readdir(join(out, 'jira')), [folder]);
        assertOnlyUnderOut(await tree(top));
        const manifest = await readFile(join(out, 'MANIFEST.tsv'), 'utf8');
        assert.ok(manifest.split('\n')[1]!.startsWith(`jira/${folder}/`), manifest);
      } finally {
        await live.close();
      }
    });
  }

  it('a very long project name: one folder of at most 120 bytes; two names that differ at the end stay apart', async () => {
    const { top, out } = await layout();
    const live = await startJiraLive();
    try {
      const { sleep } = instantSleep();
      const record = (project: string) =>
        recordLive({
          provider: 'jira',
          project,
          env: { JIRA_HOST: live.url, JIRA_EMAIL, JIRA_API_TOKEN: JIRA_TOKEN },
          limit: 3,
          details: 0,
          outDir: out,
          http: { sleep },
        });
      const long1 = await record(`${'é'.repeat(300)}1`);
      const long2 = await record(`${'é'.repeat(300)}2`);
      for (const r of [long1, long2]) {
        const name = relative(join(out, 'jira'), r.projectDir);
        assert.ok(!name.includes(sep) && Buffer.byteLength(name) <= 120, name);
        assert.ok(name.startsWith('ééé'), name);
      }
      assert.notEqual(long1.projectDir, long2.projectDir);
      assert.equal((await readdir(join(out, 'jira'))).length, 2);
      assertOnlyUnderOut(await tree(top));
    } finally {
      await live.close();
    }
  });

  it('writeProjectAtomically never writes outside --out, whatever names it is given', async () => {
    const { top, out } = await layout();
    // A recording as record writes it: the writer reads each file back before the folder is replaced.
    const text = `${JSON.stringify({ request: { method: 'GET', url: 'https://x.invalid/a' }, response: { status: 200, body: [] } })}\n`;
    const dir = await writeProjectAtomically(out, '../..', '../../../x', [
      { name: '../../../escape.json', text },
      { name: '001_GET_ok.json', text },
    ]);
    assert.ok(dir.startsWith(`${out}${sep}`), dir);
    assert.deepEqual((await readdir(dir)).sort(), ['001_GET_ok.json', 'escape.json'].sort());
    assertOnlyUnderOut(await tree(top));
  });
});
