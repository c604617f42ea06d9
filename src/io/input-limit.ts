import { MIB, mibSetting } from './mib-setting.js';

/**
 * The largest input devboy reads whole (convert, format, stats, session, saved results). Peak memory
 * is about 11-15 times the input (32 MB inputs) (parsed values and the encoded output live at once; measured in
 * `npm run bench -- --only input-memory`), so the default keeps a run near 2 GB. Larger data: raise
 * it, or stream it to GCF (`convert --stream`, flat memory).
 */
export const DEFAULT_MAX_INPUT_MIB = 128;

export const MAX_INPUT_VARIABLE = 'DEVBOY_MAX_INPUT_MB';

/** The input cap in bytes: `DEVBOY_MAX_INPUT_MB` (whole MiB) if set, else the default. */
export function maxInputBytes(env: Record<string, string | undefined> = process.env): number {
  return mibSetting(env, MAX_INPUT_VARIABLE, DEFAULT_MAX_INPUT_MIB);
}

/** Why an input is refused: its size, the cap, and the two ways around it. */
export function overLimitMessage(size: number | undefined, limit: number): string {
  const what = size === undefined ? `more than ${limit / MIB} MiB` : `${(size / MIB).toFixed(1)} MiB, over the ${limit / MIB} MiB`;
  return `${what} devboy reads whole (peak memory is about 11-15x the input): raise ${MAX_INPUT_VARIABLE}, or for GCF use convert --stream`;
}
