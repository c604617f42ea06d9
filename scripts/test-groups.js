// Writes dist/test-run/: the processes `npm test` runs its test files in.
// Why: node --test (Node 20) starts one process per file, and each process replays the corpus through
// the real clients, loads the tokenizers and warms the codecs again: about 40% of the suite's CPU
// time. Two shared processes do that once each, one per core of a 2-core machine (npm test runs two
// processes at a time). A few files keep a process of their own: they time the network under forced
// garbage collections or need a gigabyte of heap, and a shared process would disturb them or be
// disturbed by them. They run one after another on the second core before its shared process, which
// takes less work so that both cores end together.
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

// The two shared processes are balanced by what each file costs (test/durations.json, written by
// scripts/test-durations.js): longest first, each to the process with less to do so far; the files
// alone count towards the second core's share. A file not in the table weighs the median.
const durations = JSON.parse(readFileSync(fileURLToPath(new URL('../test/durations.json', import.meta.url)), 'utf8'));
const known = Object.values(durations).sort((a, b) => a - b);
const median = known.length > 0 ? known[Math.floor(known.length / 2)] : 1;
const weight = (f) => durations[f.replace(/\.js$/, '.ts')] ?? median;
const first = [];
const second = [];
const load = [0, ALONE.reduce((s, f) => s + weight(f), 0)];
for (const f of files.filter((x) => !ALONE.includes(x)).sort((a, b) => weight(b) - weight(a) || (a < b ? -1 : 1))) {
  const k = load[0] <= load[1] ? 0 : 1;
  (k === 0 ? first : second).push(f);
  load[k] += weight(f);
}
first.sort();
second.sort();

rmSync(runDir, { recursive: true, force: true });
mkdirSync(runDir);
// Each file is imported inside a suite of its own: its top-level hooks (before, after) then belong
// to that suite. Imported side by side, a top-level before() is a hook of the whole process, and one
// that fails (a fixture missing) cancels every test of every file there, hundreds of them.
const imports = (list) =>
  `import { describe } from 'node:test';\n` +
  list.map((f) => `describe(${JSON.stringify(f)}, async () => {\n  await import('../test/${f}');\n});\n`).join('');
// node --test starts files in name order, each as soon as a core is free: the first shared process on
// one core; on the other, the files alone, then the second shared process.
writeFileSync(`${runDir}1-shared.test.js`, imports(first));
ALONE.forEach((f) => writeFileSync(`${runDir}2-alone-${f}`, imports([f])));
writeFileSync(`${runDir}3-shared.test.js`, imports(second));
