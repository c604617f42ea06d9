import { DataError } from '../errors.js';
import { depthMessage, tooDeepPath } from './depth.js';
import { firstLoneSurrogate, type LoneSurrogate } from './surrogates.js';

/**
 * Checks every devboy encoder runs, so that no format writes text its own decoder would reject or
 * read back differently.
 */

/** Refuse a value nested deeper than MAX_DEPTH, naming the path, before a recursive encoder meets it. */
export function assertEncodableDepth(value: unknown): void {
  const path = tooDeepPath(value);
  if (path !== null) throw new DataError(depthMessage(path));
}

/** A string or key holding a lone surrogate, which a format writing literal UTF-8 cannot keep. */
export class LoneSurrogateError extends DataError {
  constructor(
    readonly format: string,
    readonly lone: LoneSurrogate,
  ) {
    super(
      `lone surrogate ${lone.escape} at ${lone.path} cannot be written as UTF-8: ${format} would turn it into U+FFFD (json and stc keep it as an escape)`,
    );
    this.name = 'LoneSurrogateError';
  }
}

/** After `format` failed or wrote text UTF-8 cannot carry: the lone surrogate responsible, if there is one. */
export function loneSurrogateError(format: string, value: unknown): LoneSurrogateError | null {
  const lone = firstLoneSurrogate(value);
  return lone === null ? null : new LoneSurrogateError(format, lone);
}
