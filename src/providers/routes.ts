import type { DatasetKind } from '../model/index.js';
import type { EndpointCall } from './types.js';

/** An endpoint devboy reads, recognised by its path; `names` label the pattern's capture groups. */
export interface Route {
  endpoint: string;
  kind: DatasetKind;
  pattern: RegExp;
  names: string[];
  single?: boolean;
}

export function routePattern(path: string): RegExp {
  return new RegExp(`^${path}/?$`);
}

/** The first route matching the path, as a call: path parameters, then query parameters. */
export function matchRoute(routes: readonly Route[], path: string, query: URLSearchParams): EndpointCall | undefined {
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    // A segment with a malformed escape (`%ZZ`) names nothing the API could answer: no call, not a URIError mid-plan.
    const values = route.names.map((_, i) => decodeSegment(m[i + 1]!));
    if (values.some((v) => v === undefined)) return undefined;
    route.names.forEach((name, i) => (params[name] = values[i]!));
    for (const [k, v] of query) params[k] = v;
    return { kind: route.kind, endpoint: route.endpoint, params, ...(route.single ? { single: true } : {}) };
  }
  return undefined;
}

/** A path segment decoded, or undefined when its escapes are malformed (`%ZZ`, a cut UTF-8 sequence). */
export function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
