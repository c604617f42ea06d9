import { packageVersion } from '../versions.js';
import { FORMAT_NAMES, type FormatInfo, type FormatName } from './types.js';

/** Every extension a file of the format is read from, its own first. */
export function fileExtensions(name: FormatName): string[] {
  return [FORMAT_INFO[name].extension, ...(FORMAT_INFO[name].extensionAliases ?? [])];
}

/** The formats whose round trip is exact for every JSON value. */
export function exactFormats(): FormatName[] {
  return (Object.keys(FORMAT_INFO) as FormatName[]).filter((n) => FORMAT_INFO[n].roundTrip === 'exact');
}

/** The formats devboy recommends among (the benchmark's default `--formats`, `--to auto`), in registry order. */
export function candidateFormats(): FormatName[] {
  return FORMAT_NAMES.filter((n) => FORMAT_INFO[n].role === 'candidate');
}

/** Whether a format may be recommended: a baseline is measured, never recommended. */
export function isCandidate(name: FormatName): boolean {
  // A name no registry entry has (a result file from another version) is not a known baseline.
  return (FORMAT_INFO as Partial<Record<string, FormatInfo>>)[name]?.role !== 'baseline';
}

/**
 * Static facts about each format. Kept apart from the codecs so that listing formats,
 * detecting them and printing help never loads an encoder library (library versions are read
 * from their package.json only when a report asks). `satisfies` keeps each entry's literal `role`,
 * from which `BaselineFormatName` is derived: a format's role is declared here once.
 */
const ENTRIES = {
  json: {
    name: 'json',
    title: 'JSON, pretty-printed (2-space indent)',
    mediaType: 'application/json',
    extension: '.json',
    implementation: 'JSON.stringify(value, null, 2)',
    roundTrip: 'exact',
    role: 'candidate',
  },
  'json-compact': {
    name: 'json-compact',
    title: 'JSON, compact (no whitespace)',
    mediaType: 'application/json',
    extension: '.json',
    implementation: 'JSON.stringify(value)',
    roundTrip: 'exact',
    role: 'candidate',
  },
  toon: {
    name: 'toon',
    title: 'TOON (Token-Oriented Object Notation), spec v4',
    mediaType: 'text/toon',
    extension: '.toon',
    get implementation() {
      return `@toon-format/toon ${packageVersion('@toon-format/toon')}`;
    },
    // A table has one header: rows with the same keys in another order lose theirs (docs/formats/toon.md).
    roundTrip: 'known-losses',
    role: 'candidate',
  },
  stc: {
    name: 'stc',
    title: 'STC (STOA Token Compression), devboy spec (docs/formats/stc.md)',
    mediaType: 'application/stc+json',
    extension: '.stc',
    implementation: 'devboy (spec-first, docs/formats/stc.md)',
    roundTrip: 'exact',
    role: 'candidate',
  },
  gcf: {
    name: 'gcf',
    title: 'GCF generic profile (spec v3.5)',
    // GCF's spec registers no media type; this one is devboy's and marked experimental.
    mediaType: 'text/x-gcf',
    extension: '.gcf',
    get implementation() {
      return `@blackwell-systems/gcf ${packageVersion('@blackwell-systems/gcf')} (encodeGeneric/decodeGeneric)`;
    },
    // Its tables have one column order per table (docs/formats/gcf.md).
    roundTrip: 'known-losses',
    role: 'candidate',
  },
  yaml: {
    name: 'yaml',
    title: 'YAML 1.2, block style',
    mediaType: 'application/yaml',
    extension: '.yaml',
    extensionAliases: ['.yml'],
    get implementation() {
      return `yaml ${packageVersion('yaml')} (stringify with no folding, parse with the core schema)`;
    },
    // yaml 2.9.1 escapes a line of one space twice in a long double-quoted string (docs/formats/baselines.md).
    roundTrip: 'known-losses',
    role: 'baseline',
  },
  csv: {
    name: 'csv',
    title: 'CSV (RFC 4180), one row per item, nested values as JSON text in the cell',
    mediaType: 'text/csv',
    extension: '.csv',
    get implementation() {
      return `csv-stringify ${packageVersion('csv-stringify')} / csv-parse ${packageVersion('csv-parse')}`;
    },
    // A cell is text: numbers, booleans, null and nested values come back as strings (docs/formats/baselines.md).
    roundTrip: 'lossy',
    role: 'baseline',
  },
  'markdown-table': {
    name: 'markdown-table',
    title: 'Markdown table (GFM), one row per item, nested values as JSON text in the cell',
    mediaType: 'text/markdown',
    extension: '.md',
    extensionAliases: ['.markdown'],
    get implementation() {
      return `markdown-table ${packageVersion('markdown-table')} (writer); devboy (reader)`;
    },
    roundTrip: 'lossy',
    role: 'baseline',
  },
  'markdown-kv': {
    name: 'markdown-kv',
    title: 'Markdown key-value list, a `## N` heading and `- key: value` lines per item',
    mediaType: 'text/markdown',
    extension: '.md',
    extensionAliases: ['.markdown'],
    implementation: 'devboy (writer and reader; docs/formats/baselines.md)',
    roundTrip: 'lossy',
    role: 'baseline',
  },
  xml: {
    name: 'xml',
    title: 'XML, one element per key, <items><item> for a list',
    mediaType: 'application/xml',
    extension: '.xml',
    get implementation() {
      return `fast-xml-parser ${packageVersion('fast-xml-parser')} (XMLBuilder/XMLParser)`;
    },
    // Elements have no types and no arrays: numbers are guessed back, a one-element list becomes its element.
    roundTrip: 'lossy',
    role: 'baseline',
  },
} satisfies Record<FormatName, FormatInfo>;

export const FORMAT_INFO: Record<FormatName, FormatInfo> = ENTRIES;

/** The formats whose `role` is `baseline` (YAML, CSV, Markdown, XML): a user's current format, named by its format name. */
export type BaselineFormatName = { [N in FormatName]: (typeof ENTRIES)[N]['role'] extends 'baseline' ? N : never }[FormatName];

/** The baseline formats, in registry order. */
export function baselineFormats(): BaselineFormatName[] {
  return FORMAT_NAMES.filter((n): n is BaselineFormatName => FORMAT_INFO[n].role === 'baseline');
}
