// `npm run bench [-- --only NAME] [-- --out FILE] [-- --name value ...]`: runs each section in turn and
// prints its report. Sections live in their own modules; add one to SECTIONS to extend the benchmark.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../src/io/atomic-write.js';
import type { BenchSection } from './section.js';
import { exactnessSection } from './exactness.js';
import { formatsSection } from './formats.js';
import { inputMemorySection } from './input-memory.js';
import { startupSection } from './startup.js';
import { streamingSection } from './streaming.js';
import { budgetFitSection } from './budget-fit.js';
import { trimAlgorithmsSection } from './trim-algorithms.js';
import { tokenizeSection } from './tokenize.js';
import { tokenizersSection } from './tokenizers.js';
import { matrixSection } from './matrix.js';
import { proxySection } from './proxy.js';

const SECTIONS: BenchSection[] = [
  formatsSection,
  exactnessSection,
  startupSection,
  matrixSection,
  trimAlgorithmsSection,
  budgetFitSection,
  streamingSection,
  inputMemorySection,
  tokenizeSection,
  tokenizersSection,
  proxySection,
];

const options = parseOptions(process.argv.slice(2));
const only = options.get('only')?.split(',');
const out = options.get('out');
const chosen = SECTIONS.filter((s) => !only || only.includes(s.name));
if (chosen.length === 0) {
  process.stderr.write(`bench: no section named ${options.get('only')} (have: ${SECTIONS.map((s) => s.name).join(', ')})\n`);
  process.exit(2);
}

const tmpDir = mkdtempSync(join(tmpdir(), 'devboy-bench-'));
const data: Record<string, unknown> = {
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  date: new Date().toISOString(),
};
try {
  for (const section of chosen) {
    process.stderr.write(`bench ${section.name}: ${section.description}\n`);
    const outcome = await section.run({ options, tmpDir, log: (line) => process.stderr.write(`${line}\n`) });
    process.stdout.write(`${outcome.text}\n\n`);
    data[section.name] = outcome.data;
  }
  if (out) await writeFileAtomic(out, `${JSON.stringify(data, null, 2)}\n`);
} finally {
  rmSync(tmpDir, { recursive: true, force: true });
}

function parseOptions(argv: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) continue;
    const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
    if (inline !== undefined) map.set(name, inline);
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) map.set(name, argv[++i]!);
    else map.set(name, 'true');
  }
  return map;
}
