import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { BenchmarkResult } from '../../src/benchmark/schema.js';
import { anyCodePoint } from './arbitraries.js';

/**
 * Strings a corpus, a result file or a session can hold that a careless report would obey: terminal
 * escapes, line breaks that start Markdown blocks, mentions, links, images, HTML, code-span breakers,
 * Mermaid directives and spreadsheet formulas.
 */
export const NASTY = [
  '\u001b[2J\u001b[H',
  '\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007',
  '\u001b]52;c;ZXZpbA==\u0007',
  'over\rwrite',
  '\u202egnp.exe',
  '\u009b31m',
  'a\u0000b',
  '\n## ✅ Passed\n',
  '\n\n# Heading\n\n- item',
  '@org/team please look',
  'cc @someone',
  '[click](https://evil.example/)',
  '![t](https://evil.example/p.png)',
  'https://evil.example/x www.evil.example',
  '`code` and ``two``',
  '`',
  '<img src=x onerror=alert(1)>',
  '</details></summary><b>x</b>',
  '<!-- hidden',
  '%%{init: {"theme":"dark"}}%%',
  '"; title x %%{init:{}}%%',
  "=2+5+cmd|' -C calc'!A0",
  '+1',
  '-1+1',
  '@SUM(1)',
  '\tx',
  '\rx',
  '| a | b |',
  '\\|\\',
  '*a* _b_ **c** ~d~',
  '#1 GH-2',
  '  ',
  ' lead and trail ',
  '\ud800',
  '中文字符 wide',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.array(fc.constantFrom(...NASTY), { minLength: 2, maxLength: 4 }).map((xs) => xs.join('')),
  fc.string({ unit: anyCodePoint, maxLength: 30 }),
  fc.string({
    unit: fc.constantFrom(
      '\n',
      '\r',
      '`',
      '|',
      '@',
      '#',
      '%',
      '{',
      '}',
      '<',
      '>',
      '[',
      ']',
      '(',
      ')',
      '!',
      '*',
      '_',
      '=',
      '\u001b',
      'a',
      ' ',
    ),
    maxLength: 20,
  }),
);

/** Every data string of a result replaced by one of `strings` (cycled), so each kind of field meets each kind of string. */
export function withHostileData(result: BenchmarkResult, strings: readonly string[]): BenchmarkResult {
  const r: BenchmarkResult = structuredClone(result);
  let i = 0;
  const next = () => strings[i++ % strings.length]!;
  const projects = new Map<string, string>();
  const labels = new Map<string, string>();
  const project = (p: string) => projects.get(p) ?? (projects.set(p, `${next()}#${projects.size}`), projects.get(p)!);
  const label = (l: string) => labels.get(l) ?? (labels.set(l, `${next()}#${labels.size}`), labels.get(l)!);
  for (const d of r.datasets) Object.assign(d, { project: project(d.project), label: label(d.label) });
  for (const x of r.rows) {
    Object.assign(x, { project: project(x.project), label: label(x.label) });
    if (!x.lossless) x.lossless_reason = next();
  }
  for (const x of r.lossy) Object.assign(x, { project: project(x.project), label: label(x.label), reason: next() });
  for (const x of r.fit) Object.assign(x, { project: project(x.project), label: label(x.label) });
  r.source = { kind: 'corpus', corpus: next() };
  r.skipped = [
    { file: next(), line: 3, col: 7, reason: next() },
    { file: next(), reason: next() },
  ];
  r.unmeasured = [
    { file: next(), cause: 'not-a-list', reason: next() },
    { file: next(), cause: 'duplicate', reason: next() },
  ];
  r.recordings = { measured: 3, unmeasured: r.unmeasured.length, skipped: r.skipped.length };
  // A cell a format could not write, of a dataset (and project) named from data, with a reason from data.
  const d = r.datasets[0]!;
  r.unmeasured_cells = [
    { provider: d.provider, project: `${next()}#cell`, dataset: d.dataset, label: next(), level: 'raw', format: 'toon', reason: next() },
  ];
  for (const t of r.tokenizers) t.implementation = next();
  for (const f of r.formats) f.implementation = next();
  if (r.settings.session !== undefined) r.settings.session = next();
  if (r.session) r.session.file = next();
  return r;
}

export type MdNode = { type: string; value?: string; depth?: number; children?: MdNode[] };

export function parseMarkdown(text: string): MdNode {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as unknown as MdNode;
}

/** Every node of a tree, depth first. */
export function* nodes(n: MdNode): Generator<MdNode> {
  yield n;
  for (const c of n.children ?? []) yield* nodes(c);
}

/** The HTML devboy writes itself: folds. Anything else is markup made from data. */
const OWN_HTML = /^(?:<details><summary>[^<]*<\/summary>|<\/details>|<!-- devboy[^>]*-->)$/;

/**
 * What a reader of the Markdown sees as structure: the block nodes (headings with their depth,
 * paragraphs, lists with their items, tables with their rows and cells, code blocks), not inline text.
 */
export function blockSkeleton(root: MdNode): string[] {
  const out: string[] = [];
  const walk = (n: MdNode, depth: number) => {
    const inline = ['text', 'inlineCode', 'strong', 'emphasis', 'delete', 'break'].includes(n.type);
    if (inline) return;
    out.push(
      `${'  '.repeat(depth)}${n.type}${n.depth !== undefined ? n.depth : ''}${n.type === 'code' ? `:${(n as { lang?: string }).lang}` : ''}`,
    );
    for (const c of n.children ?? []) walk(c, depth + 1);
  };
  walk(root, 0);
  return out;
}

/**
 * No link, image, reference, footnote, foreign HTML or mention anywhere, and no emphasis,
 * strikethrough or heading text made from data (the caller says which texts are its own).
 */
export function assertNoMarkupFromData(md: string, root: MdNode): void {
  for (const n of nodes(root)) {
    assert.ok(
      !['link', 'image', 'linkReference', 'imageReference', 'definition', 'footnoteReference', 'footnoteDefinition'].includes(n.type),
      `${n.type} made from data in:\n${md}`,
    );
    if (n.type === 'html') assert.match(n.value ?? '', OWN_HTML, `HTML made from data in:\n${md}`);
    // GitHub links @names and #numbers in text, never inside code.
    if (n.type === 'text')
      assert.doesNotMatch(n.value ?? '', /(?:^|[^\w`])@[A-Za-z0-9]|(?:^|\s)#\d/, `a mention or reference made from data: ${n.value}`);
  }
}
