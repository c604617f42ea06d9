import { STRATEGY_NAMES, type StrategyName } from './strategy.js';

/** Tool and dataset names devboy knows a strategy for (devboy-tools' table, plus devboy's dataset kinds). */
export const BUILTIN_STRATEGIES: Readonly<Record<string, StrategyName>> = {
  get_issues: 'element_count',
  get_issue: 'element_count',
  get_merge_requests: 'element_count',
  get_merge_request: 'element_count',
  issues: 'element_count',
  merge_requests: 'element_count',
  get_issue_comments: 'cascading',
  get_merge_request_comments: 'cascading',
  comments: 'cascading',
  get_merge_request_diffs: 'size_proportional',
  diffs: 'size_proportional',
  get_merge_request_discussions: 'thread_level',
  discussions: 'thread_level',
  get_job_logs: 'head_tail',
  logs: 'head_tail',
  get_pipeline: 'default',
  get_users: 'default',
  get_statuses: 'default',
};

export type ResolvedBy = 'config' | 'builtin' | 'config after prefix' | 'builtin after prefix' | 'fallback';

export interface Resolution {
  strategy: StrategyName;
  by: ResolvedBy;
  /** The name that matched (the stripped one when a proxy prefix was removed). */
  name: string;
}

export function isStrategyName(name: string): name is StrategyName {
  return (STRATEGY_NAMES as readonly string[]).includes(name);
}

/**
 * devboy-tools' resolution order: the config's exact name, the built-in table, then the same two
 * with a proxy prefix stripped (`cloud__get_issues` → `get_issues`: everything up to the last `__`),
 * then `default`.
 */
export function resolveStrategy(name: string, overrides: Readonly<Record<string, StrategyName>> = {}): Resolution {
  const lookup = (n: string, prefix: boolean): Resolution | undefined => {
    if (Object.hasOwn(overrides, n)) return { strategy: overrides[n]!, by: prefix ? 'config after prefix' : 'config', name: n };
    if (Object.hasOwn(BUILTIN_STRATEGIES, n))
      return { strategy: BUILTIN_STRATEGIES[n]!, by: prefix ? 'builtin after prefix' : 'builtin', name: n };
    return undefined;
  };
  const direct = lookup(name, false);
  if (direct) return direct;
  const cut = name.lastIndexOf('__');
  if (cut >= 0) {
    const stripped = lookup(name.slice(cut + 2), true);
    if (stripped) return stripped;
  }
  return { strategy: 'default', by: 'fallback', name };
}
