import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { endianness, homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { compileBpe, type BpeConfig, type CompiledBpe, type TokenizerJson } from './hf-bpe.js';
import { MergeTable } from './pair-merge.js';
import { Vocabulary } from './vocabulary.js';

/**
 * A compiled tokenizer.json on disk (docs/tokenizers.md, "The compiled cache"): a family's load
 * parses 3-33 MB of JSON and looks up every merge in the vocabulary (0.2-1.3 s of CPU); reading
 * back the typed arrays takes a few hundredths of that. The file is named for the SHA-256 of the
 * tokenizer.json bytes and the format version, and the header repeats both, so a changed package
 * or file is never served from an old cache. Anything wrong with a file (truncated, garbled,
 * another version, lengths that do not add up) means it is compiled again and rewritten; a folder
 * that cannot be written means no cache. Neither is an error, and nothing is printed.
 */

/** Bump whenever the layout below or what compileBpe produces changes: old files are then never read. */
export const BPE_CACHE_FORMAT = 1;

const MAGIC = 0x42796244; // "DbyB" little-endian
const HEADER_WORDS = 12;
/** Header: the words below, then the source's SHA-256, then the body's SHA-256. */
const HEADER_BYTES = HEADER_WORDS * 4 + 32 + 32;
/** Far above Gemma 3's file (about 24 MB): a size past it is not ours, and is not read. */
const MAX_FILE_BYTES = 512 * 1024 * 1024;

/** Where compiled tokenizers go: DEVBOY_CACHE_DIR, else $XDG_CACHE_HOME/devboy, else ~/.cache/devboy. */
export function bpeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DEVBOY_CACHE_DIR) return env.DEVBOY_CACHE_DIR;
  // The XDG spec says a relative XDG_CACHE_HOME is to be ignored.
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, 'devboy');
  return join(homedir(), '.cache', 'devboy');
}

export interface CachedLoad {
  compiled: CompiledBpe;
  /** Where the compiled form came from: the cache file, or tokenizer.json (then written to the cache when it could be). */
  from: 'cache' | 'json';
  /** The cache file's path for this tokenizer.json. */
  file: string;
}

/** `name`'s tokenizer.json compiled, read from the cache in `dir` when a valid file is there, else compiled and stored. */
export function loadCompiledBpe(name: string, jsonPath: string, dir: string = bpeCacheDir()): CachedLoad {
  const source = readFileSync(jsonPath);
  const digest = createHash('sha256').update(source).digest();
  const file = join(dir, `${name.replace(/[^\w.-]/g, '_')}-${digest.toString('hex')}.v${BPE_CACHE_FORMAT}.bpe`);
  // The arrays are stored in the machine's byte order; the header is little-endian.
  const usable = endianness() === 'LE';
  const cached = usable ? readCache(file, digest) : undefined;
  if (cached) return { compiled: cached, from: 'cache', file };
  const compiled = compileBpe(JSON.parse(source.toString('utf8')) as TokenizerJson);
  if (usable) writeCache(file, digest, compiled);
  return { compiled, from: 'json', file };
}

interface Layout {
  configBytes: number;
  tokens: number;
  textUnits: number;
  capacity: number;
}

/** Byte offsets of each section; each starts 8-aligned so typed arrays can view the file's buffer. */
function sections(l: Layout): {
  config: number;
  ends: number;
  ids: number;
  text: number;
  lefts: number;
  rights: number;
  values: number;
  size: number;
} {
  let at = HEADER_BYTES;
  const take = (bytes: number) => {
    const start = at;
    at = Math.ceil((at + bytes) / 8) * 8;
    return start;
  };
  return {
    config: take(l.configBytes),
    ends: take(l.tokens * 4),
    ids: take(l.tokens * 4),
    text: take(l.textUnits * 2),
    lefts: take(l.capacity * 4),
    rights: take(l.capacity * 4),
    values: take(l.capacity * 8),
    size: at,
  };
}

function writeCache(file: string, digest: Buffer, compiled: CompiledBpe): void {
  const { lefts, rights, values } = compiled.merges.arrays();
  const { text, ends, ids } = compiled.vocab;
  const config = Buffer.from(JSON.stringify(compiled.config), 'utf8');
  const layout: Layout = {
    configBytes: config.length,
    tokens: ids.length,
    textUnits: text.length,
    capacity: lefts.length,
  };
  const at = sections(layout);
  if (at.size > MAX_FILE_BYTES) return;
  const out = Buffer.alloc(at.size);
  const words = [MAGIC, BPE_CACHE_FORMAT, at.size, layout.configBytes, layout.tokens, layout.textUnits, layout.capacity];
  words.forEach((w, i) => out.writeUInt32LE(w, i * 4));
  digest.copy(out, HEADER_WORDS * 4);
  config.copy(out, at.config);
  const copy = (array: Int32Array | Float64Array, offset: number) =>
    Buffer.from(array.buffer, array.byteOffset, array.byteLength).copy(out, offset);
  copy(ends, at.ends);
  copy(ids, at.ids);
  out.write(text, at.text, 'utf16le');
  copy(lefts, at.lefts);
  copy(rights, at.rights);
  copy(values, at.values);
  bodyDigest(out).copy(out, HEADER_WORDS * 4 + 32);
  // Written whole under a temporary name in the same folder, then renamed: a reader sees the old
  // file or the new one, never a part. A folder that cannot be made or written means no cache.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, out);
    renameSync(temp, file);
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Nothing was written, or the folder is gone: either way no cache.
    }
  }
}

/** The body's digest: a garbled byte anywhere after the header must not reach the counts. */
function bodyDigest(file: Uint8Array): Buffer {
  return createHash('sha256').update(file.subarray(HEADER_BYTES)).digest();
}

/** The compiled form from `file`, or undefined when it is missing or not exactly what writeCache wrote for `digest`. */
function readCache(file: string, digest: Buffer): CompiledBpe | undefined {
  let bytes: Uint8Array;
  try {
    bytes = readBounded(file);
  } catch {
    return undefined;
  }
  try {
    return decode(bytes, digest);
  } catch {
    return undefined;
  }
}

/** The whole file in a fresh, 8-aligned buffer, refused past MAX_FILE_BYTES. */
function readBounded(file: string): Uint8Array {
  // Non-blocking: a FIFO put where the file goes would otherwise hold the open until a writer came.
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new RangeError('not a regular file');
    const size = info.size;
    if (size < HEADER_BYTES || size > MAX_FILE_BYTES) throw new RangeError('not a cache file');
    const bytes = new Uint8Array(new ArrayBuffer(size));
    let read = 0;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    if (read !== size) throw new RangeError('file shrank while read');
    return bytes;
  } finally {
    closeSync(fd);
  }
}

function decode(bytes: Uint8Array, digest: Buffer): CompiledBpe | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const word = (i: number) => buf.readUInt32LE(i * 4);
  if (word(0) !== MAGIC || word(1) !== BPE_CACHE_FORMAT || word(2) !== bytes.length) return undefined;
  if (!buf.subarray(HEADER_WORDS * 4, HEADER_WORDS * 4 + 32).equals(digest)) return undefined;
  const layout: Layout = { configBytes: word(3), tokens: word(4), textUnits: word(5), capacity: word(6) };
  const at = sections(layout);
  if (at.size !== bytes.length) return undefined;
  if (!buf.subarray(HEADER_WORDS * 4 + 32, HEADER_BYTES).equals(bodyDigest(bytes))) return undefined;
  const config = JSON.parse(buf.toString('utf8', at.config, at.config + layout.configBytes)) as BpeConfig;
  const vocab = new Vocabulary(
    buf.toString('utf16le', at.text, at.text + layout.textUnits * 2),
    new Int32Array(bytes.buffer, at.ends, layout.tokens),
    new Int32Array(bytes.buffer, at.ids, layout.tokens),
  );
  const merges = MergeTable.fromArrays({
    lefts: new Int32Array(bytes.buffer, at.lefts, layout.capacity),
    rights: new Int32Array(bytes.buffer, at.rights, layout.capacity),
    values: new Float64Array(bytes.buffer, at.values, layout.capacity),
  });
  return { config, vocab, merges };
}
