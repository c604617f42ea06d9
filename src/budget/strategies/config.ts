import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { isStrategyName } from './resolver.js';
import { STRATEGY_NAMES, type StrategyName } from './strategy.js';

export const CONFIG_FILE_NAME = 'devboy.toml';

export interface PipelineConfig {
  /** Where it was read from; undefined when there was no file. */
  file?: string;
  /** `[format_pipeline.strategies]`: tool or dataset name → strategy. */
  strategies: Record<string, StrategyName>;
  /**
   * `[format_explainers]`: format name → file holding the prompt that teaches it (a path relative
   * to the config file), replacing docs/formats/<format>-prompt.md. Absent when the table is.
   */
  explainers?: Record<string, string>;
}

/**
 * The config: `explicit` (from `--config`, which must exist), else `devboy.toml` in `cwd` when there
 * is one, else nothing. Only `[format_pipeline.strategies]` is read; other tables are left alone
 * for tools that share the file. A malformed file is a usage error naming file:line:col.
 */
export async function loadPipelineConfig(explicit: string | undefined, cwd = process.cwd()): Promise<PipelineConfig> {
  const file = explicit ?? resolve(cwd, CONFIG_FILE_NAME);
  if (!explicit && !existsSync(file)) return { strategies: {} };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? 'no such config file' : `cannot read config: ${code ?? (err as Error).message}`, { file });
  }
  const explainers = await parseExplainers(text, file);
  return { file, strategies: await parseStrategies(text, file), ...(explainers ? { explainers } : {}) };
}

/** `[format_explainers]`: name = "path", paths resolved against the config file's folder. */
export async function parseExplainers(text: string, file: string): Promise<Record<string, string> | undefined> {
  const table = (await parseToml(text, file))['format_explainers'];
  if (table === undefined) return undefined;
  if (!isTable(table))
    throw new UsageError('[format_explainers] must be a table of format = "file"', { file, ...lineOf(text, 'format_explainers') });
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(table)) {
    if (typeof value !== 'string' || value === '')
      throw new UsageError(`explainer for "${name}" must be a file path`, { file, ...lineOf(text, name) });
    out[name] = resolve(dirname(file), value);
  }
  return out;
}

/** smol-toml is imported only when a config is read, so `devboy --help` never loads it. */
export async function parseStrategies(text: string, file: string): Promise<Record<string, StrategyName>> {
  const doc = await parseToml(text, file);
  const pipeline = doc['format_pipeline'];
  if (pipeline === undefined) return {};
  const table = isTable(pipeline) ? pipeline['strategies'] : undefined;
  if (table === undefined) return {};
  if (!isTable(table))
    throw new UsageError('[format_pipeline.strategies] must be a table of name = "strategy"', { file, ...lineOf(text, 'strategies') });
  const out: Record<string, StrategyName> = {};
  for (const [name, value] of Object.entries(table)) {
    if (typeof value !== 'string' || !isStrategyName(value)) {
      throw new UsageError(`unknown strategy ${JSON.stringify(value)} for "${name}" (expected one of: ${STRATEGY_NAMES.join(', ')})`, {
        file,
        ...lineOf(text, name),
      });
    }
    out[name] = value;
  }
  return out;
}

async function parseToml(text: string, file: string): Promise<Record<string, unknown>> {
  const { parse, TomlError } = await import('smol-toml');
  try {
    return parse(text) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof TomlError)
      throw new UsageError(`invalid TOML: ${firstLine(err.message)}`, { file, line: err.line, col: err.column });
    throw err;
  }
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/^Invalid TOML document:\s*/, '');
}

/** Where a key is written (its first `key =` line), for errors smol-toml cannot place. */
function lineOf(text: string, key: string): { line?: number; col?: number } {
  const lines = text.split('\n');
  const bare = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^(\\s*)(["']?)${bare}\\2\\s*=`);
  for (let i = 0; i < lines.length; i++) {
    const m = pattern.exec(lines[i]!);
    if (m) return { line: i + 1, col: m[1]!.length + 1 };
  }
  return {};
}
