import { packageVersion } from '../versions.js';
import type { FormatInfo, FormatName } from './types.js';

/**
 * Static facts about each format. Kept apart from the codecs so that listing formats,
 * detecting them and printing help never loads an encoder library (library versions are read
 * from their package.json only when a report asks).
 */
/** The formats whose round trip is exact for every JSON value. */
export function exactFormats(): FormatName[] {
  return (Object.keys(FORMAT_INFO) as FormatName[]).filter((n) => FORMAT_INFO[n].roundTrip === 'exact');
}

export const FORMAT_INFO: Record<FormatName, FormatInfo> = {
  json: {
    name: 'json',
    title: 'JSON, pretty-printed (2-space indent)',
    mediaType: 'application/json',
    extension: '.json',
    implementation: 'JSON.stringify(value, null, 2)',
    roundTrip: 'exact',
  },
  'json-compact': {
    name: 'json-compact',
    title: 'JSON, compact (no whitespace)',
    mediaType: 'application/json',
    extension: '.json',
    implementation: 'JSON.stringify(value)',
    roundTrip: 'exact',
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
  },
  stc: {
    name: 'stc',
    title: 'STC (STOA Token Compression), devboy spec (docs/formats/stc.md)',
    mediaType: 'application/stc+json',
    extension: '.stc',
    implementation: 'devboy (spec-first, docs/formats/stc.md)',
    roundTrip: 'exact',
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
  },
};
