import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loadFormat } from '../src/formats/registry.js';
import { jsonEqual } from '../src/json/equal.js';
import { parseJson } from '../src/json/parse.js';
import { parseLedger, type LedgerCall } from '../src/proxy/ledger.js';
import { sessionInProcess, type InProcessOutcome } from './helpers/mcp-proxy.js';
import { corpusDir, REPO_ROOT } from './helpers/paths.js';
import { corpusBodies } from './mcp/corpus-server.js';

type Text = { type: string; text: string };
const texts = (r: object) => (r as { content: Text[] }).content.filter((b) => b.type === 'text').map((b) => b.text);
const FILESYSTEM = (dir: string) => [
  process.execPath,
  resolve(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'),
  dir,
];

describe('devboy proxy in front of @modelcontextprotocol/server-filesystem over corpus JSON files', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'devboy-proxy-fs-')));
  const log = join(dir, '..', `${dir.split('/').pop()}-calls.jsonl`);
  const bodies = [...corpusBodies(corpusDir()).entries()].filter((_, i) => i % 40 === 1);
  const files = bodies.map(([name, body], i) => {
    const path = join(dir, `${i}-${name.split('/').pop()}`);
    writeFileSync(path, `${JSON.stringify(body, null, 2)}\n`);
    return path;
  });
  // The first file as read, before the edit.
  const original = readFileSync(files[0]!, 'utf8');
  // One session does every call; the tests read their parts of it. read_file is server-filesystem's
  // older name for read_text_file (the same handler, the same text), and --skip-tools does not name
  // it: the same read with and without --skip-tools, side by side.
  let reads: { path: string; got: string[] }[];
  let edited: { path: string; line: string; result: Awaited<ReturnType<Client['callTool']>> };
  let unskipped: { path: string; got: string };
  let tree: { direct: string; proxied: string };
  let end: InProcessOutcome;
  let calls: LedgerCall[];
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(log, { force: true });
  });
  before(async () => {
    // In this process: the claims are what the proxy sends and logs. --skip-tools as the command line
    // gives it (comma-separated names and globs) is test/proxy-corpus.test.ts's, in front of a program.
    ({ outcome: end } = await sessionInProcess(FILESYSTEM(dir), { skipTools: ['read_text_*', 'edit_file'], log }, async (client) => {
      reads = [];
      for (const path of files) reads.push({ path, got: texts(await client.callTool({ name: 'read_text_file', arguments: { path } })) });
      const line = readFileSync(files[0]!, 'utf8').split('\n')[1]!;
      edited = {
        path: files[0]!,
        line,
        result: await client.callTool({
          name: 'edit_file',
          arguments: { path: files[0]!, edits: [{ oldText: line, newText: `${line} ` }] },
        }),
      };
      unskipped = { path: files[1]!, got: texts(await client.callTool({ name: 'read_file', arguments: { path: files[1]! } })).at(-1)! };
      const direct = new Client({ name: 'devboy-test-agent', version: '1.0.0' });
      await direct.connect(new StdioClientTransport({ command: process.execPath, args: FILESYSTEM(dir).slice(1), stderr: 'ignore' }));
      const d = await direct.callTool({ name: 'directory_tree', arguments: { path: dir } });
      await direct.close();
      const p = await client.callTool({ name: 'directory_tree', arguments: { path: dir } });
      tree = { direct: texts(d)[0]!, proxied: texts(p).at(-1)! };
    }));
    calls = parseLedger(readFileSync(log, 'utf8'), log).calls;
  });

  it('with --skip-tools read_text_*: every file read is byte for byte the file, and an exact-match edit after it works', () => {
    for (const { path, got } of reads) assert.deepEqual(got, [path === edited.path ? original : readFileSync(path, 'utf8')], path);
    assert.notEqual(edited.result.isError, true, JSON.stringify(edited.result.content));
    assert.ok(readFileSync(edited.path, 'utf8').includes(`${edited.line} \n`));
    const skipped = calls.filter((c) => c.tool === 'read_text_file' || c.tool === 'edit_file');
    assert.equal(skipped.length, files.length + 1);
    for (const c of skipped) {
      assert.equal(c.outcome, 'kept');
      assert.equal(c.why, 'kept exact by --skip-tools');
    }
  });

  it('directory_tree (pretty JSON) is still re-encoded, and decodes to what the server sends directly', async () => {
    assert.equal(end.exitCode, 0, end.notes.join('\n'));
    const record = calls.find((c) => c.tool === 'directory_tree')!;
    assert.equal(record.outcome, 'encoded', record.why ?? '');
    const decoded = (await loadFormat(record.format!)).decode(tree.proxied);
    assert.ok(jsonEqual(decoded, parseJson(tree.direct)));
  });

  it('the same read by a tool --skip-tools does not name is re-encoded (what --skip-tools is for), decoding to the file', async () => {
    const file = readFileSync(unskipped.path, 'utf8');
    assert.notEqual(unskipped.got, file);
    const read = calls.find((c) => c.tool === 'read_file')!;
    assert.equal(read.outcome, 'encoded');
    assert.ok(jsonEqual((await loadFormat(read.format!)).decode(unskipped.got), parseJson(file)));
  });
});
