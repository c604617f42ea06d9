import { UsageError } from '../errors.js';
import { FORMAT_NAMES, type Format, type FormatName, type FormatOptions } from './types.js';

export { FORMAT_INFO } from './info.js';
export { FORMAT_NAMES, type Format, type FormatName, type FormatOptions } from './types.js';

export function isFormatName(name: string): name is FormatName {
  return (FORMAT_NAMES as readonly string[]).includes(name);
}

function assertFormatName(name: string): FormatName {
  if (!isFormatName(name)) throw new UsageError(`unknown format '${name}' (expected one of: ${FORMAT_NAMES.join(', ')})`);
  return name;
}

/**
 * Load a format's codec. Encoder libraries are imported only when their format is used. A name the
 * types let through (a library caller's string) is a UsageError naming the formats there are.
 */
export async function loadFormat(name: FormatName, options: FormatOptions = {}): Promise<Format> {
  switch (assertFormatName(name)) {
    case 'json':
      return (await import('./json.js')).jsonPretty;
    case 'json-compact':
      return (await import('./json.js')).jsonCompact;
    case 'toon':
      return (await import('./toon.js')).createToon(options.toon);
    case 'stc':
      return (await import('./stc/index.js')).stc;
    case 'gcf':
      return (await import('./gcf.js')).gcf;
    case 'yaml':
      return (await import('./yaml.js')).yaml;
    case 'csv':
      return (await import('./csv.js')).csv;
    case 'markdown-table':
      return (await import('./markdown-table.js')).markdownTableFormat;
    case 'markdown-kv':
      return (await import('./markdown-kv.js')).markdownKv;
    case 'xml':
      return (await import('./xml.js')).xml;
  }
}

export async function loadFormats(names: readonly FormatName[] = FORMAT_NAMES, options: FormatOptions = {}): Promise<Format[]> {
  return Promise.all(names.map((n) => loadFormat(n, options)));
}
