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
import { parseLedger } from '../src/proxy/ledger.js';
import { connectThroughProxy, type ProxyRun } from './helpers/mcp-proxy.js';
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
  let exact: ProxyRun;
  after(async () => {
    await exact.end();
    rmSync(dir, { recursive: true, force: true });
    rmSync(log, { force: true });
  });
  before(async () => {
    exact = await connectThroughProxy(['--skip-tools', 'read_*,edit_file', '--log', log], FILESYSTEM(dir));
  });

  it('with --skip-tools read_*: every file read is byte for byte the file, and an exact-match edit after it works', async () => {
    for (const path of files) {
      const r = await exact.client.callTool({ name: 'read_text_file', arguments: { path } });
      assert.deepEqual(texts(r), [readFileSync(path, 'utf8')], path);
    }
    const path = files[0]!;
    const line = readFileSync(path, 'utf8').split('\n')[1]!;
    const edit = await exact.client.callTool({ name: 'edit_file', arguments: { path, edits: [{ oldText: line, newText: `${line} ` }] } });
    assert.notEqual(edit.isError, true, JSON.stringify(edit.content));
    assert.ok(readFileSync(path, 'utf8').includes(`${line} \n`));
  });

  it('directory_tree (pretty JSON) is still re-encoded, and decodes to what the server sends directly', async () => {
    const direct = new Client({ name: 'devboy-test-agent', version: '1.0.0' });
    await direct.connect(new StdioClientTransport({ command: process.execPath, args: FILESYSTEM(dir).slice(1), stderr: 'ignore' }));
    const d = await direct.callTool({ name: 'directory_tree', arguments: { path: dir } });
    await direct.close();
    const p = await exact.client.callTool({ name: 'directory_tree', arguments: { path: dir } });
    const end = await exact.end();
    assert.equal(end.code, 0, end.stderr);
    const { calls } = parseLedger(readFileSync(log, 'utf8'), log);
    const tree = calls.find((c) => c.tool === 'directory_tree')!;
    assert.equal(tree.outcome, 'encoded', tree.why ?? '');
    const decoded = (await loadFormat(tree.format!)).decode(texts(p).at(-1)!);
    assert.ok(jsonEqual(decoded, parseJson(texts(d)[0]!)));
    for (const c of calls.filter((c) => c.tool === 'read_text_file' || c.tool === 'edit_file')) {
      assert.equal(c.outcome, 'kept');
      assert.equal(c.why, 'kept exact by --skip-tools');
    }
  });

  it('without --skip-tools the same read is re-encoded (what --skip-tools is for), decoding to the file', async () => {
    const plainLog = `${log}.plain`;
    const run = await connectThroughProxy(['--no-dedup', '--log', plainLog], FILESYSTEM(dir));
    const path = files[1]!;
    const r = await run.client.callTool({ name: 'read_text_file', arguments: { path } });
    const got = texts(r).at(-1)!;
    assert.notEqual(got, readFileSync(path, 'utf8'));
    assert.equal((await run.end()).code, 0);
    const read = parseLedger(readFileSync(plainLog, 'utf8'), plainLog).calls[0]!;
    rmSync(plainLog);
    assert.equal(read.outcome, 'encoded');
    assert.ok(jsonEqual((await loadFormat(read.format!)).decode(got), parseJson(readFileSync(path, 'utf8'))));
  });
});
