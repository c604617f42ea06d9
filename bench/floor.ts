// The floor of a benchmark run (issue 13): what the run cannot avoid doing once. Run as its own
// process (`node dist/bench/floor.js [corpus]`) so that its wall time and peak RSS are whole-process
// figures, comparable with `devboy benchmark` measured the same way. Every corpus body is encoded
// once as pretty JSON, compact JSON, TOON and GCF, each text is decoded once with the reference
// library and counted once with gpt-tokenizer's o200k_base. It prints one JSON line of figures.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decodeGeneric, encodeGeneric } from '@blackwell-systems/gcf';
import { decode as toonDecode, encode as toonEncode } from '@toon-format/toon';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const started = performance.now();
const dir = process.argv[2];
if (!dir) throw new Error('usage: node dist/bench/floor.js CORPUS_DIR');

const AS_TEXT = { disallowedSpecial: new Set<string>() };
const codecs: { name: string; encode(v: unknown): string; decode(t: string): unknown }[] = [
  { name: 'json', encode: (v) => JSON.stringify(v, null, 2), decode: (t) => JSON.parse(t) },
  { name: 'json-compact', encode: (v) => JSON.stringify(v), decode: (t) => JSON.parse(t) },
  { name: 'toon', encode: (v) => toonEncode(v as never), decode: (t) => toonDecode(t) },
  { name: 'gcf', encode: (v) => encodeGeneric(v as never), decode: (t) => decodeGeneric(t) },
];

let bodies = 0;
let chars = 0;
let tokens = 0;
for (const file of jsonFiles(dir)) {
  const body = (JSON.parse(readFileSync(file, 'utf8')) as { response?: { body?: unknown } }).response?.body;
  if (body === undefined) continue;
  bodies++;
  for (const codec of codecs) {
    const text = codec.encode(body);
    codec.decode(text);
    chars += text.length;
    tokens += text.length === 0 ? 0 : countTokens(text, AS_TEXT);
  }
}
process.stdout.write(
  `${JSON.stringify({ bodies, chars, tokens, wall_ms: performance.now() - started, peak_rss_bytes: process.resourceUsage().maxRSS * 1024 })}\n`,
);

function* jsonFiles(root: string): Generator<string> {
  for (const name of readdirSync(root).sort()) {
    if (name.startsWith('.')) continue;
    const path = join(root, name);
    if (statSync(path).isDirectory()) yield* jsonFiles(path);
    else if (name.endsWith('.json')) yield path;
  }
}
