import { DataError, type Location } from '../errors.js';

/** One element of a top-level JSON array, still as text, and where it starts. */
export interface ElementText {
  text: string;
  line: number;
  col: number;
}

type State = 'before-array' | 'before-value' | 'in-value' | 'after-value' | 'done';

/**
 * Cut a JSON array arriving in pieces into its elements' texts, one at a time, so an array of a
 * million rows is never held whole. Only the array's own punctuation is checked here; each element
 * is parsed (and its errors located) by the caller.
 */
export class JsonArraySplitter {
  private state: State = 'before-array';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private current = '';
  private start = { line: 1, col: 1 };
  private line = 1;
  private col = 1;
  private sawElement = false;
  /** Where the element being read starts in the piece being pushed; -1 when none is. */
  private valueFrom = -1;

  constructor(private readonly file?: string) {}

  /** Feed the next piece of text; returns the elements it completed. */
  push(text: string): ElementText[] {
    const out: ElementText[] = [];
    this.valueFrom = this.state === 'in-value' ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (this.state === 'in-value') this.inValue(c, text, i, out);
      else if (!isSpace(c)) this.between(c, i);
      if (c === '\n') {
        this.line++;
        this.col = 1;
      } else this.col++;
    }
    if (this.valueFrom >= 0) this.current += text.slice(this.valueFrom);
    return out;
  }

  /** A character inside an element: its strings and nesting are followed to its end, a ',' or the array's ']' at depth 0. */
  private inValue(c: string, text: string, i: number, out: ElementText[]): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (c === '\\') this.escaped = true;
      else if (c === '"') this.inString = false;
    } else if (c === '"') this.inString = true;
    else if (c === '{' || c === '[') this.depth++;
    else if (c === '}' || c === ']') {
      if (this.depth === 0) {
        // The array's own ']' ends a bare scalar element such as `3]`.
        this.finish(out, text.slice(this.valueFrom, i));
        this.valueFrom = -1;
        this.closeArray();
      } else if (--this.depth === 0) {
        this.finish(out, text.slice(this.valueFrom, i + 1));
        this.valueFrom = -1;
        this.state = 'after-value';
      }
    } else if (c === ',' && this.depth === 0) {
      this.finish(out, text.slice(this.valueFrom, i));
      this.valueFrom = -1;
      this.state = 'before-value';
    }
  }

  /** A character that is not white space outside the elements: the array's punctuation, or an element's first. */
  private between(c: string, i: number): void {
    if (this.state === 'before-array') {
      if (c !== '[') this.fail(`expected a JSON array of rows ('['), found '${c}'`);
      this.state = 'before-value';
    } else if (this.state === 'before-value') {
      if (c === ']' && !this.sawElement) this.closeArray();
      else if (c === ']' || c === ',') this.fail(`unexpected '${c}' (expected a value)`);
      else {
        this.state = 'in-value';
        this.sawElement = true;
        this.start = { line: this.line, col: this.col };
        this.depth = c === '{' || c === '[' ? 1 : 0;
        this.inString = c === '"';
        this.valueFrom = i;
      }
    } else if (this.state === 'after-value') {
      if (c === ',') this.state = 'before-value';
      else if (c === ']') this.closeArray();
      else this.fail(`unexpected '${c}' (expected ',' or ']')`);
    } else {
      this.fail(`unexpected '${c}' after the end of the array`);
    }
  }

  /** The input ended: it must have closed the array. */
  end(): void {
    if (this.state !== 'done')
      this.fail(
        this.state === 'before-array' ? 'empty input (expected a JSON array of rows)' : 'unexpected end of input (the array is not closed)',
      );
  }

  private finish(out: ElementText[], tail: string): void {
    out.push({ text: this.current + tail, ...this.start });
    this.current = '';
  }

  private closeArray(): void {
    this.state = 'done';
  }

  private fail(message: string): never {
    const where: Location = { line: this.line, col: this.col };
    if (this.file !== undefined) where.file = this.file;
    throw new DataError(`invalid JSON: ${message}`, where);
  }
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}
