import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';
import { FORMAT_NAMES, type FormatName } from './types.js';

/**
 * Which formats a model must be taught before it reads them: JSON needs no instruction, every
 * other format does. A Record so a new format has to say.
 */
export const NEEDS_EXPLAINER: Record<FormatName, boolean> = {
  json: false,
  'json-compact': false,
  toon: true,
  stc: true,
  gcf: true,
  // The baselines too: their conventions (JSON in a cell, an empty cell, `## N`) are devboy's choices.
  yaml: true,
  csv: true,
  'markdown-table': true,
  'markdown-kv': true,
  xml: true,
};

/** The prompt that teaches a format: its text and where it came from (a committed default or the user's file). */
export interface Explainer {
  format: FormatName;
  text: string;
  /** `docs/formats/toon-prompt.md`, or the overriding file as given in devboy.toml (resolved). */
  source: string;
}

const DOCS_FORMATS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'formats');

/** The committed default explainer of a format, shipped in the npm package (docs/ is in "files"). */
export function defaultExplainerFile(format: FormatName): string {
  return join(DOCS_FORMATS, `${format}-prompt.md`);
}

/**
 * The explainers of `formats` that need one, from `overrides` (format → file, from devboy.toml's
 * [format_explainers]) or the committed defaults. The text is the whole file, without its final
 * newline: what would be put in a system prompt.
 */
export async function loadExplainers(formats: readonly FormatName[], overrides: Record<string, string> = {}): Promise<Explainer[]> {
  for (const name of Object.keys(overrides)) {
    if (!(FORMAT_NAMES as readonly string[]).includes(name))
      throw new UsageError(`[format_explainers]: unknown format '${name}' (expected one of: ${FORMAT_NAMES.join(', ')})`);
  }
  const out: Explainer[] = [];
  for (const format of formats) {
    if (!NEEDS_EXPLAINER[format]) continue;
    const file = overrides[format] ?? defaultExplainerFile(format);
    if (!existsSync(file)) throw new UsageError(`explainer for ${format} not found`, { file });
    const text = (await readFile(file, 'utf8')).replace(/\r?\n$/, '');
    const source = overrides[format] ?? relative(join(DOCS_FORMATS, '..', '..'), file);
    out.push({ format, text, source });
  }
  return out;
}
