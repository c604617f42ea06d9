// A small MCP server of devboy's own, for the proxy's tests and bench: it serves the corpus's recorded
// response bodies as tool results, pretty-printed as most servers send them, and misbehaves on request
// (tools named for each fault). JSON-RPC by hand (stdio-server.ts): it starts in a fifth of the time.
// Run: node dist/test/mcp/corpus-server.js [--corpus DIR]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sayOrFault, serveStdio, type Answer } from './stdio-server.js';

const root = resolve(fileURLToPath(import.meta.url), '..', '..', '..', '..');
const corpusArg = process.argv.indexOf('--corpus');
const corpus = corpusArg >= 0 ? resolve(process.argv[corpusArg + 1]!) : join(root, 'corpus');

/** A recording's response body if it is a JSON object or array. */
function objectBody(path: string): object | undefined {
  const body = (JSON.parse(readFileSync(path, 'utf8')) as { response?: { body?: unknown } }).response?.body;
  return typeof body === 'object' && body !== null ? body : undefined;
}

/** Every corpus recording whose body is a JSON object or array, by its path under the corpus. */
export function corpusBodies(dir: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json')) {
        const body = objectBody(p);
        if (body !== undefined) out.set(relative(dir, p), body);
      }
    }
  };
  walk(dir);
  return out;
}

/** The body corpusBodies(dir) holds under `name`, read alone: a call for one body need not parse them all. */
function corpusBody(dir: string, name: string): object | undefined {
  const path = resolve(dir, name);
  return name.endsWith('.json') && relative(dir, path) === name && existsSync(path) ? objectBody(path) : undefined;
}

const text = (t: string): Answer => ({ result: { content: [{ type: 'text', text: t }] } });
const error = (t: string): Answer => ({ result: { content: [{ type: 'text', text: t }], isError: true } });
const pretty = (v: unknown) => JSON.stringify(v, null, 2);

const TOOLS = [
  { name: 'list_bodies', description: 'names of the corpus bodies', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'get_body',
    description: 'one corpus body, pretty-printed JSON',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
  { name: 'say', description: 'plain text back', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'fail', description: 'an isError result whose text is JSON', inputSchema: { type: 'object', properties: {} } },
  { name: 'die', description: 'exits with code 3 without answering', inputSchema: { type: 'object', properties: {} } },
  { name: 'hang', description: 'never answers this call (other calls still work)', inputSchema: { type: 'object', properties: {} } },
  { name: 'freeze', description: 'stops reading its input and answers nothing again', inputSchema: { type: 'object', properties: {} } },
  { name: 'junk', description: 'writes a line that is not JSON-RPC to stdout', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'huge',
    description: 'a JSON array of about mb megabytes',
    inputSchema: { type: 'object', properties: { mb: { type: 'number' } } },
  },
  { name: 'deep', description: 'JSON nested 600 levels', inputSchema: { type: 'object', properties: {} } },
  { name: 'duplicate_keys', description: 'a JSON object with a key twice', inputSchema: { type: 'object', properties: {} } },
  { name: 'lone_surrogate', description: 'JSON holding a lone surrogate escape', inputSchema: { type: 'object', properties: {} } },
  { name: 'big_number', description: 'JSON with a number a double cannot hold', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'slow',
    description: 'a small JSON list after ms milliseconds',
    inputSchema: { type: 'object', properties: { ms: { type: 'number' } } },
  },
];

function rows(n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    title: `row ${i + 1}`,
    state: i % 3 === 0 ? 'closed' : 'open',
    labels: ['bug'],
  }));
}

function main(): void {
  // Each body read once: the bench calls the same ones many times, and a call should cost what sending it costs.
  const read = new Map<string, object | undefined>();
  const bodyNamed = (name: string) => (read.has(name) ? read.get(name) : read.set(name, corpusBody(corpus, name)).get(name));
  const server = serveStdio('devboy-corpus', async (req): Promise<Answer> => {
    // Six tools a page: the proxy must pass cursors through and add its tool to the last page only.
    if (req.method === 'tools/list') {
      const offset = Number(req.params?.cursor ?? 0);
      const next = offset + 6;
      return { result: { tools: TOOLS.slice(offset, next), ...(next < TOOLS.length ? { nextCursor: String(next) } : {}) } };
    }
    if (req.method !== 'tools/call') return { error: { code: -32601, message: `no method ${req.method}` } };
    const fault = sayOrFault(server, req);
    if (fault !== undefined) return fault;
    const args = req.params?.arguments ?? {};
    switch (req.params?.name) {
      case 'list_bodies':
        return text(pretty([...corpusBodies(corpus).keys()]));
      case 'get_body': {
        const body = bodyNamed(String(args.name));
        return body === undefined ? error(`no body named ${String(args.name)}`) : text(pretty(body));
      }
      case 'fail':
        return error(pretty({ error: 'rate limited', retry_after: 30, items: rows(20) }));
      case 'huge': {
        const mb = typeof args.mb === 'number' ? args.mb : 20;
        const one = pretty(rows(1)[0]).length + 4;
        return text(pretty(rows(Math.ceil((mb * 1024 * 1024) / one))));
      }
      case 'deep':
        return text(`${'['.repeat(600)}1${']'.repeat(600)}`);
      case 'duplicate_keys':
        return text(`{\n  "id": 1,\n  "id": 2,\n  "items": ${pretty(rows(30))}\n}`);
      case 'lone_surrogate':
        return text(`{\n  "title": "broken \\ud800 text",\n  "items": ${pretty(rows(30))}\n}`);
      case 'big_number':
        return text(`{\n  "id": 12345678901234567890,\n  "items": ${pretty(rows(30))}\n}`);
      case 'slow': {
        const ms = typeof args.ms === 'number' ? args.ms : 0;
        await new Promise((r) => setTimeout(r, ms));
        return text(pretty(rows(5)));
      }
      default:
        return error(`unknown tool ${req.params?.name}`);
    }
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
