import type { FormatInfo, FormatName } from './types.js';

/**
 * Static facts about each format. Kept apart from the codecs so that listing formats,
 * detecting them and printing help never loads an encoder library.
 */
export const FORMAT_INFO: Record<FormatName, FormatInfo> = {
  json: {
    name: 'json',
    title: 'JSON, pretty-printed (2-space indent)',
    mediaType: 'application/json',
    extension: '.json',
    implementation: 'JSON.stringify(value, null, 2)',
  },
  'json-compact': {
    name: 'json-compact',
    title: 'JSON, compact (no whitespace)',
    mediaType: 'application/json',
    extension: '.json',
    implementation: 'JSON.stringify(value)',
  },
  toon: {
    name: 'toon',
    title: 'TOON (Token-Oriented Object Notation), spec v4',
    mediaType: 'text/toon',
    extension: '.toon',
    implementation: '@toon-format/toon 4.4.0',
  },
  stc: {
    name: 'stc',
    title: 'STC (STOA Token Compression), devboy spec (docs/formats/stc.md)',
    mediaType: 'application/stc+json',
    extension: '.stc',
    implementation: 'devboy (spec-first, docs/formats/stc.md)',
  },
  gcf: {
    name: 'gcf',
    title: 'GCF generic profile (spec v3.5)',
    // GCF's spec registers no media type; this one is devboy's and marked experimental.
    mediaType: 'text/x-gcf',
    extension: '.gcf',
    implementation: '@blackwell-systems/gcf 2.5.2 (encodeGeneric/decodeGeneric)',
  },
};
