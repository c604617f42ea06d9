/**
 * How deep devboy lets values nest, in containers (objects and arrays; the root container is level 1).
 *
 * The reference TOON and GCF libraries encode and decode recursively, and on Node 20's default stack
 * they overflow from about 1,250 levels for some shapes (nested arrays in TOON, alternating objects
 * and arrays in GCF; measurements in docs/formats/exactness.md). 500 keeps a margin of 2.5 for
 * whatever the caller already has on the stack. Real API output nests around a dozen
 * levels deep (the corpus: at most 12). One limit for every format keeps the rule easy to state.
 */
export const MAX_DEPTH = 500;

/** `nesting deeper than 500 levels`, and where when the place is a path rather than a line:col. */
export function depthMessage(path?: string): string {
  return `nesting deeper than ${MAX_DEPTH} levels${path === undefined ? '' : ` at ${path}`} (devboy's limit)`;
}

/**
 * The offset where JSON text first opens a container nested deeper than `limit`, or -1: a scan of
 * brackets outside strings, with no parse and no recursion, so a body of any depth is measured
 * before anything recursive (JSON.stringify, the encoders) meets it. For well-formed JSON it
 * agrees with parseJson's limit; it never says a text is valid.
 */
export function tooDeepOffset(text: string, limit = MAX_DEPTH): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: to its closing quote, stepping over escapes.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/**
 * The first line indented `limit` levels or more (`unit` spaces a level), as { line, col }, or null.
 * For TOON and GCF, whose nesting is their indentation: a line at level L is inside at least L + 1
 * containers, so this bounds the recursion of their decoders before they run.
 */
export function overIndented(text: string, unit: number, limit = MAX_DEPTH): { line: number; col: number } | null {
  const deepest = unit * limit;
  let line = 1;
  for (let start = 0; start < text.length; line++) {
    let i = start;
    while (text.charCodeAt(i) === 0x20) i++;
    if (i - start >= deepest) return { line, col: i - start + 1 };
    const end = text.indexOf('\n', i);
    if (end < 0) break;
    start = end + 1;
  }
  return null;
}

/**
 * The path of the first container nested deeper than `limit`, or null. Iterative, so it is safe on
 * values of any depth; it stops at the first container past the limit.
 */
export function tooDeepPath(value: unknown, limit = MAX_DEPTH): string | null {
  if (value === null || typeof value !== 'object') return null;
  if (limit < 1) return '$';
  const frames: Frame[] = [frameOf(value)];
  while (frames.length > 0) {
    const f = frames[frames.length - 1]!;
    if (f.i >= f.size) {
      frames.pop();
      continue;
    }
    const child = f.keys ? (f.container as Record<string, unknown>)[f.keys[f.i]!] : (f.container as unknown[])[f.i];
    f.i++;
    if (child !== null && typeof child === 'object') {
      // The child sits one level below the innermost open container.
      if (frames.length + 1 > limit) return pathOf(frames);
      frames.push(frameOf(child));
    }
  }
  return null;
}

interface Frame {
  container: object;
  keys: string[] | null;
  size: number;
  /** Index of the next child to visit; the child being visited is i - 1. */
  i: number;
}

function frameOf(v: object): Frame {
  if (Array.isArray(v)) return { container: v, keys: null, size: v.length, i: 0 };
  const keys = Object.keys(v);
  return { container: v, keys, size: keys.length, i: 0 };
}

/** `.name` for identifier keys, `["odd key"]` otherwise. */
export function memberSegment(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** The path to the child being visited, shortened in the middle when long (500 levels are not readable). */
function pathOf(frames: Frame[]): string {
  const segments = frames.map((f) => (f.keys ? memberSegment(f.keys[f.i - 1]!) : `[${f.i - 1}]`));
  const shown = segments.length <= 12 ? segments.join('') : `${segments.slice(0, 6).join('')}…${segments.slice(-5).join('')}`;
  return `$${shown}`;
}
