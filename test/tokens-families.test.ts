import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tokenizerImplementation } from '../src/benchmark/versions.js';
import { installedVersion, optionalPackage } from '../src/tokens/optional.js';
import { loadTokenizer, tokenizerLabel, TOKENIZERS } from '../src/tokens/registry.js';
import type { TokenizerName } from '../src/tokens/types.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { runCli } from './helpers/cli.js';
import { corpusDir, FIXTURES } from './helpers/paths.js';
import { FAMILIES, skipUnlessInstalled } from './helpers/tokenizer-references.js';

// Counts of fixed texts under every model family, from the families' own implementations
// (scripts/tokenizer-vectors.js writes them and refuses when the references disagree).
interface Vectors {
  references: Record<string, string>;
  texts: string[];
  counts: Record<string, number[]>;
}
const vectors = JSON.parse(readFileSync(join(FIXTURES, 'tokenizer-vectors.json'), 'utf8')) as Vectors;

/**
 * Published vectors: llama3-tokenizer-js 1.2.0's own tests (src/llama3-tokenizer.js, defaultTests),
 * token ids from Meta's tokenizer; "This is a test sentence." is marked there as taken from the
 * official Llama 3 library. Counts are the lengths of those id lists.
 */
const LLAMA3_PUBLISHED: [string, number][] = [
  ['grabbed', 2],
  [' grabbed', 1],
  ['           grabbed', 2],
  ['\n', 1],
  [' \n', 1],
  ['\ttabs\t\t\t\tout here', 5],
  ['ax\n####\nboo', 4],
  ['镇', 1],
  ['🦙', 3],
  ['🦙Ꙋ', 6],
  ['Ꙋ🦙', 6],
  ['This is a test sentence.', 6],
  [
    'The llama (/ˈlɑːmə/; 🦙Spanish pronunciation: [ˈʎama]) (Lama glama) is a domesticated South American camelid, widely used as a meat and pack animal by Andean cultures since the Pre-Columbian era. Llamas are social animals and live with others as a herd. Their wool is soft and contains only a small amount of lanolin.[2] Llamas can learn simple tasks after a few repetitions. When using a pack, they can carry about 25 to 30% of their body weight for 8 to 13 km (5–8 miles).[3] The name llama (in the past also spelled "lama" or "glama") was adopted by European settlers from native Peruvians.[4] The ancestors of llamas are thought to have originated from the Great Plains of North America about 40 million years ago, and subsequently migrated to South America about three million years ago during the Great American Interchange. By the end of the last ice age (10,000–12,000 years ago), camelids were extinct in North America.[3] As of 2007, there were over seven million llamas and alpacas in South America and over 158,000 llamas and 100,000Ꙋ🦙 alpacas, descended from progenitors imported late in the 20th century, in the United States and Canada.[5] In Aymara mythology, llamas are important beings. The Heavenly Llama is said to drink water from the ocean and urinates as it rains.[6] According to Aymara eschatology, llamas will return to the water springs and lagoons where they come from at the end of time.[6]',
    371,
  ],
];

/** One special token of each family, which tool output may well contain as text. */
const SPECIAL_TEXT: Record<string, string> = {
  llama3: '<|begin_of_text|>',
  qwen3: '<|im_start|>',
  gemma3: '<start_of_turn>',
  deepseek_v3: '<｜begin▁of▁sentence｜>',
  mistral: '[INST]',
  claude_legacy: '<EOT>',
};

describe('model family tokenizers', () => {
  it('the fixture covers every family, with counts for every text', () => {
    assert.deepEqual(Object.keys(vectors.counts).sort(), [...FAMILIES].sort());
    for (const f of FAMILIES) assert.equal(vectors.counts[f]!.length, vectors.texts.length);
  });

  for (const name of FAMILIES) {
    it(`${name}: fixed texts count as its references say (${vectors.references[name]})`, { skip: skipUnlessInstalled(name) }, async () => {
      const t = await loadTokenizer(name);
      const wrong = vectors.texts.flatMap((text, i) => {
        const got = t.count(text);
        return got === vectors.counts[name]![i]
          ? []
          : [`text ${i} ${JSON.stringify(text.slice(0, 40))}: devboy ${got}, references ${vectors.counts[name]![i]}`];
      });
      assert.deepEqual(wrong, []);
    });

    it(`${name}: special-token text counts as text, never as the special token`, { skip: skipUnlessInstalled(name) }, async () => {
      const t = await loadTokenizer(name);
      const special = SPECIAL_TEXT[name]!;
      assert.ok(t.count(special) > 1, `${special} counted ${t.count(special)}`);
      assert.ok(t.count(`log: ${special} end`) > t.count('log:  end'));
    });

    it(
      `${name}: names its package and the version installed${TOKENIZERS[name].approximation ? ', and says it is an approximation' : ''}`,
      { skip: skipUnlessInstalled(name) },
      () => {
        const pkg = optionalPackage(name);
        assert.match(
          tokenizerImplementation(name),
          new RegExp(`^${pkg.name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} ${installedVersion(name).replace(/\./g, '\\.')} `),
        );
        assert.equal(/approximation/.test(tokenizerImplementation(name)), TOKENIZERS[name].approximation);
        assert.equal(/approximation/.test(tokenizerLabel(name)), TOKENIZERS[name].approximation);
      },
    );
  }

  it('llama3: the published vectors of llama3-tokenizer-js', { skip: skipUnlessInstalled('llama3') }, async () => {
    const t = await loadTokenizer('llama3');
    assert.deepEqual(
      LLAMA3_PUBLISHED.map(([text]) => t.count(text)),
      LLAMA3_PUBLISHED.map(([, n]) => n),
    );
  });

  it(
    'convert --stats, format and session count with any family (--tokenizer), naming it',
    { skip: FAMILIES.map((f) => skipUnlessInstalled(f)).find(Boolean) ?? false },
    async () => {
      // 18 KB of issues: about 2,000 tokens as TOON, so a budget of 1,000 makes format cut.
      const exchange = join(
        corpusDir(),
        'github/rust-lang__rust/013_GET_repos_rust_lang_rust_issues_labels_A_coherence_filter_all_sort_created_direction_asc_per_page_100.json',
      );
      const gemma = await loadTokenizer('gemma3');
      const convert = await runCli(['convert', exchange, '--to', 'toon', '--stats', '--tokenizer', 'gemma3']);
      assert.equal(convert.code, 0, convert.stderr);
      assert.match(
        convert.stderr,
        new RegExp(
          `^output toon +[\\d,]+ bytes +${gemma.count(convert.stdout.replace(/\n$/, '')).toLocaleString('en-US')} gemma3 tokens$`,
          'm',
        ),
      );

      const format = await runCli(['format', exchange, '--budget', '1000', '--tokenizer', 'mistral', '--json']);
      assert.equal(format.code, 0, format.stderr);
      const out = JSON.parse(format.stdout) as {
        content: string;
        metadata: { tokenizer: string; estimated_tokens: number; truncated: boolean };
      };
      assert.equal(out.metadata.tokenizer, 'mistral');
      assert.equal(out.metadata.estimated_tokens, (await loadTokenizer('mistral')).count(out.content));
      assert.ok(out.metadata.estimated_tokens <= 1000);
      assert.equal(out.metadata.truncated, true);

      const claude = await runCli(['convert', exchange, '--to', 'auto', '--tokenizer', 'claude_legacy']);
      assert.equal(claude.code, 0, claude.stderr);
      assert.match(claude.stderr, /fewest claude_legacy \(approximation\) tokens/);

      const session = await runCli(['session', join(FIXTURES, 'sessions', 'claude-code.jsonl'), '--tokenizer', 'qwen3']);
      assert.equal(session.code, 0, session.stderr);
      assert.match(session.stdout, /qwen3 tokens/);
    },
  );

  // Here, where every vocabulary is loaded anyway (each costs a second or more).
  it(
    'benchmark --tokenizers all counts under every tokenizer, names each with its package, and prints the winner by family and the break-even',
    { skip: FAMILIES.map((f) => skipUnlessInstalled(f)).find(Boolean) ?? false },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'devboy-all-'));
      const out = join(dir, 'all.json');
      const r = await runCli([
        'benchmark',
        '--project',
        'artsy__emission',
        '--dataset',
        'comments',
        '--levels',
        'minimal',
        '--runs',
        '1',
        '--tokenizers',
        'all',
        '-o',
        out,
      ]);
      assert.equal(r.code, 0, r.stderr);
      // Paragraphs fold at 100 columns: read them unfolded.
      const text = r.stdout.replace(/\n {2}(?=\S)/g, ' ');
      assert.match(text, /^Winner by tokenizer family: .* under each of 8 tokenizers/m);
      assert.match(text, /^Break-even: /m);
      assert.match(text, /claude_legacy \(@lenml\/tokenizer-claude [\d.]+ tokenizer\.json, devboy BPE, an approximation\)/);
      const run = JSON.parse(readFileSync(out, 'utf8')) as BenchmarkResult;
      assert.equal(run.tokenizers.length, 9);
      assert.equal(run.winner_by_tokenizer![0]!.winners.length, 9);
      assert.equal(new Set(run.break_even!.map((e) => e.tokenizer)).size, 9);
      rmSync(dir, { recursive: true, force: true });
    },
  );

  it('claude_legacy is the only family named an approximation (Anthropic publishes no Claude 3 tokenizer)', () => {
    const approximations = (Object.keys(TOKENIZERS) as TokenizerName[]).filter((n) => TOKENIZERS[n].approximation && n !== 'heuristic');
    assert.deepEqual(approximations, ['claude_legacy']);
    assert.match(TOKENIZERS.claude_legacy.family, /approximation/);
  });
});
