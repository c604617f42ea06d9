// Run as its own process by the matrix section: `devboy benchmark`'s default run over a corpus, in
// process, with a phase clock. `node dist/bench/benchmark-phases.js OUT.json [CORPUS]` writes the wall
// milliseconds per phase (exclusive: a count inside the page planner is the tokenizer's time, not the
// planner's).
import { writeFileSync } from 'node:fs';
import { loadBenchmarkData } from '../src/benchmark/source.js';
import { PhaseClock } from '../src/benchmark/phases.js';
import { runBenchmark } from '../src/benchmark/run.js';
import { FORMAT_NAMES } from '../src/formats/types.js';
import { DATASET_KINDS } from '../src/model/index.js';
import { LEVELS } from '../src/trim/levels.js';

const [out, corpus] = process.argv.slice(2);
if (!out) throw new Error('usage: node dist/bench/benchmark-phases.js OUT.json [CORPUS]');
const clock = new PhaseClock();
const { datasets, source } = await clock.runAsync('load', () => loadBenchmarkData(corpus ? { corpus } : {}));
const result = await runBenchmark(datasets, source, {
  kinds: [...DATASET_KINDS],
  levels: [...LEVELS],
  formats: [...FORMAT_NAMES],
  tokenizers: ['heuristic', 'o200k_base'],
  budget: 8000,
  runs: 5,
  savingsBaseline: 'json_compact',
  clock,
});
writeFileSync(out, JSON.stringify({ rows: result.rows.length, phases_ms: clock.snapshot() }));
