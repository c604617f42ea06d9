import { extname } from 'node:path';
import { UsageError } from '../errors.js';
import type { FormatName } from '../formats/types.js';
import { openInputStream, type InputStream } from '../io/input-stream.js';
import { openFileSink, WritableSink, type TextSink } from '../io/text-sink.js';
import { GcfRowWriter } from './gcf-row-writer.js';
import { rowBatches, type RowSyntax } from './rows.js';
import { textChunks } from './text-chunks.js';

export interface StreamConvertRequest {
  /** A file, or "-" for standard input. */
  source: string;
  to: FormatName;
  /** Input syntax: NDJSON or a JSON array of rows; from the extension, then the first character, when absent. */
  from?: string;
  /** Write here (a regular file atomically; see openFileSink) instead of to `stdout`. */
  output?: string;
  /** Options that need the whole output at once, refused with --stream. */
  verify?: boolean;
  stats?: boolean;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

export interface StreamResult {
  rows: number;
  sections: number;
  /** False when the reader went away before the end; nothing was left unsaid for a file. */
  complete: boolean;
}

/** `devboy convert --stream`: check the request, open both ends, stream. */
export async function streamConvert(req: StreamConvertRequest): Promise<StreamResult> {
  assertStreamTarget(req.to);
  if (req.verify) throw new UsageError('--verify needs the whole output to decode it again; it cannot be used with --stream');
  if (req.stats) throw new UsageError('--stats counts the whole output; it cannot be used with --stream');
  const syntax = streamSyntax(req.from);
  const input = await openInputStream(req.source, req.stdin);
  const stdout = req.stdout ?? process.stdout;
  const sink = req.output ? await openFileSink(req.output, stdout) : new WritableSink(stdout);
  return streamRowsToGcf(input, syntax, sink);
}

/** Only GCF can be written before the input ends; say why for the others. */
export function assertStreamTarget(to: FormatName): void {
  if (to === 'gcf') return;
  if (to === 'toon' || to === 'stc') {
    throw new UsageError(
      `--stream needs --to gcf: ${to.toUpperCase()} writes each array's length ([N]) before its first row, so nothing can be written until the input ends; GCF defers counts ([?]) to a summary trailer`,
    );
  }
  throw new UsageError('--stream needs --to gcf: devboy streams only GCF, whose deferred counts ([?]) and summary trailer allow it');
}

function streamSyntax(from: string | undefined): RowSyntax | undefined {
  if (from === undefined) return undefined;
  if (from === 'ndjson') return 'ndjson';
  if (from === 'json') return 'json-array';
  throw new UsageError(`--stream reads NDJSON or a JSON array of rows (--from ndjson or json), not ${from}`);
}

/**
 * Encode rows as they arrive. The header goes out before the first row is read, and each piece of
 * input is written out (and its write awaited) before the next is read: memory holds one piece,
 * however many rows come. On failure a file target is removed; standard output keeps what was sent,
 * without the summary trailer that marks a complete stream.
 */
export async function streamRowsToGcf(input: InputStream, syntax: RowSyntax | undefined, sink: TextSink): Promise<StreamResult> {
  const writer = new GcfRowWriter((text) => sink.write(text));
  const resolved = syntax ?? syntaxFromExtension(input.path) ?? 'auto';
  try {
    await sink.flush();
    for await (const batch of rowBatches(textChunks(input.stream as AsyncIterable<Buffer>, input.name), resolved, input.name)) {
      for (const row of batch) writer.writeRow(row.value, { file: input.name, line: row.line, col: row.col });
      await sink.flush();
      if (sink.gone) return { rows: writer.rows, sections: writer.sectionCount, complete: false };
    }
    writer.close();
    await sink.commit();
  } catch (err) {
    await sink.abort();
    throw err;
  }
  return { rows: writer.rows, sections: writer.sectionCount, complete: true };
}

function syntaxFromExtension(path: string | undefined): RowSyntax | undefined {
  const ext = path ? extname(path).toLowerCase() : '';
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  if (ext === '.json') return 'json-array';
  return undefined;
}
