import { Flags } from './oclif.js';
import { MEASURED_BASELINES } from '../metadata/format-metadata.js';
import { TOKENIZERS_HELP } from './tokenizer-flag.js';

/** What every measuring command (benchmark, stats) counts with and against: one set, one set of defaults. */
export const measureFlags = {
  tokenizers: Flags.string({
    description: TOKENIZERS_HELP,
    aliases: ['tokenizer'],
    default: 'heuristic,o200k_base',
  }),
  budget: Flags.integer({ description: 'token budget per response, for the pages column', min: 100, default: 8000 }),
  runs: Flags.integer({
    description: 'timed runs per encode and decode (after a warm-up); the median is reported',
    min: 1,
    max: 50,
    default: 5,
  }),
  'savings-baseline': Flags.string({
    description:
      'what every change and savings.encoder is measured against (same items, level and tokenizer): JSON, or the format you use today (yaml, csv, markdown-table, markdown-kv, xml)',
    options: [...MEASURED_BASELINES],
    default: 'json_compact',
  }),
};
