import { UsageError } from '../errors.js';

/**
 * Which tools keep their results byte-exact: --skip-tools names them, --only-tools names the only ones
 * the proxy may rewrite. A pattern is a tool name or a glob (`*` any run of characters, `?` one).
 */
export interface ToolSelection {
  skip: readonly string[];
  only: readonly string[];
}

export function toolMatcher(selection: ToolSelection): (tool: string) => { rewrite: boolean; why?: string } {
  const skip = selection.skip.map(globRegExp);
  const only = selection.only.map(globRegExp);
  return (tool) => {
    if (skip.some((r) => r.test(tool))) return { rewrite: false, why: 'kept exact by --skip-tools' };
    if (only.length > 0 && !only.some((r) => r.test(tool))) return { rewrite: false, why: 'not in --only-tools' };
    return { rewrite: true };
  };
}

export function globRegExp(pattern: string): RegExp {
  if (pattern === '') throw new UsageError('a tool pattern cannot be empty');
  const body = [...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.|+()[\]{}]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, 's');
}
