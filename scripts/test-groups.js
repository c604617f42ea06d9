// Writes dist/test-run/: the processes `npm test` runs its test files in.
// Why: node --test (Node 20) starts one process per file, and each process replays the corpus through
// the real clients, loads the tokenizers and warms the codecs again: about 40% of the suite's CPU
// time. A few shared processes do that once each. A few files keep a process of their own: they time
// the network under forced garbage collections or load lists on a small stack, and a shared process
// would disturb them or be disturbed by them.
// `node --test dist/test/NAME.test.js` still runs one file alone; test:corpus runs its files alone.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ALONE = ['cli-net.test.js', 'large-lists.test.js', 'net-timeouts.test.js'];

const testDir = fileURLToPath(new URL('../dist/test/', import.meta.url));
const runDir = fileURLToPath(new URL('../dist/test-run/', import.meta.url));
const files = readdirSync(testDir)
  .filter((f) => f.endsWith('.test.js'))
  .sort();
for (const f of ALONE) if (!files.includes(f)) throw new Error(`test-groups: ${f} is listed to run alone but dist/test has no such file`);

// How many test processes npm test runs at a time: its own --test-concurrency, read from package.json
// so the two cannot disagree. One slot runs the files alone, one after another; the others run a
// shared process each. The files alone mostly wait (on timeouts, on their child processes), so
// their slot is the one that lets the shared processes use both cores while they wait.
const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'));
const slots = Number(/--test-concurrency=(\d+)/.exec(pkg.scripts.test)?.[1]);
if (!(slots >= 3)) throw new Error("test-groups: package.json's test script names no --test-concurrency of 3 or more");

// The shared processes are balanced by what each file costs (test/durations.json, written by
// scripts/test-durations.js): longest first, each to the process with less to do so far. A file not
// in the table weighs the median.
const durations = JSON.parse(readFileSync(fileURLToPath(new URL('../test/durations.json', import.meta.url)), 'utf8'));
const known = Object.values(durations).sort((a, b) => a - b);
const median = known.length > 0 ? known[Math.floor(known.length / 2)] : 1;
const weight = (f) => durations[f.replace(/\.js$/, '.ts')] ?? median;
// Files that import one of these helpers go to the same process, so what they load is loaded once:
// Mermaid's parser with jsdom (about 1.4 s of CPU a process), the model families and their reference
// implementations (about 1 s from the compiled cache, the references more). A file importing two of
// them goes with the first.
const LOADED_ONCE = ['./helpers/mermaid.js', './helpers/tokenizer-references.js'];
const units = new Map();
for (const f of files.filter((x) => !ALONE.includes(x))) {
  const source = readFileSync(`${testDir}${f}`, 'utf8');
  const key = LOADED_ONCE.find((helper) => source.includes(`from "${helper}"`) || source.includes(`from '${helper}'`)) ?? f;
  units.set(key, [...(units.get(key) ?? []), f]);
}
const unitWeight = (unit) => unit.reduce((sum, f) => sum + weight(f), 0);
const groups = Array.from({ length: slots - 1 }, () => []);
const load = groups.map(() => 0);
for (const unit of [...units.values()].sort((a, b) => unitWeight(b) - unitWeight(a) || (a[0] < b[0] ? -1 : 1))) {
  const k = load.indexOf(Math.min(...load));
  groups[k].push(...unit);
  load[k] += unitWeight(unit);
}
groups.forEach((g) => g.sort());

rmSync(runDir, { recursive: true, force: true });
mkdirSync(runDir);
// Each file is imported inside a suite of its own: its top-level hooks (before, after) then belong
// to that suite. Imported side by side, a top-level before() is a hook of the whole process, and one
// that fails (a fixture missing) cancels every test of every file there, hundreds of them.
const imports = (list) =>
  `import { describe } from 'node:test';\n` +
  list.map((f) => `describe(${JSON.stringify(f)}, async () => {\n  await import('../test/${f}');\n});\n`).join('');
// node --test starts files in name order, each as soon as a slot is free: the shared processes first,
// one a slot, then the files alone, one after another in the last slot.
groups.forEach((g, k) => writeFileSync(`${runDir}${k + 1}-shared.test.js`, imports(g)));
ALONE.forEach((f) => writeFileSync(`${runDir}${slots}-alone-${f}`, imports([f])));
