import { MIB, mibSetting } from '../io/mib-setting.js';

/** How far devboy lets one request go: sizes, hops. Timeouts and retries are HttpOptions. */

/**
 * The largest response body devboy accepts, decoded. No page devboy asks for comes near it (the
 * largest in the corpus is about 0.5 MiB); a body past it is a misbehaving server or proxy, and
 * reading on would only fill memory.
 */
export const DEFAULT_MAX_BODY_MIB = 64;

export const MAX_BODY_VARIABLE = 'DEVBOY_MAX_BODY_MB';

/**
 * The longest a Node timer can wait, 2^31 - 1 ms (about 24.8 days): setTimeout warns past it and
 * fires after 1 ms, which would turn a long timeout into none. Timeouts and waits are refused past it.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The most whole seconds a timer can wait: the `max` of every seconds flag that becomes a timer. */
export const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

/** Redirects followed for one request; GitHub's renamed repositories and moved projects need one. */
export const MAX_REDIRECTS = 5;

/** The body cap: `DEVBOY_MAX_BODY_MB` (whole MiB) if set, else the default. */
export function maxBodyBytesFrom(env: Record<string, string | undefined>): number {
  return mibSetting(env, MAX_BODY_VARIABLE, DEFAULT_MAX_BODY_MIB);
}

/** `64 MiB`, `0.5 MiB`. */
export function formatMiB(bytes: number): string {
  return `${Number((bytes / MIB).toFixed(2))} MiB`;
}
