import { UsageError } from '../errors.js';

export const MIB = 1024 * 1024;

/** Bytes from a whole number of MiB in an environment variable (at least 1), or the default when unset. */
export function mibSetting(env: Record<string, string | undefined>, variable: string, defaultMib: number): number {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === '') return defaultMib * MIB;
  const text = raw.trim();
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw new UsageError(`${variable} must be a whole number of MiB of at least 1, got ${JSON.stringify(raw)}`);
  }
  return Number(text) * MIB;
}
