/** `rel` → URL from an RFC 8288 Link header. */
export function parseLinkHeader(value: string | null | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  if (!value) return links;
  for (const part of value.split(/,(?=\s*<)/)) {
    const match = /<([^>]*)>\s*;(.*)$/.exec(part.trim());
    if (!match) continue;
    const rel = /rel="?([^";]+)"?/.exec(match[2]!)?.[1];
    if (rel) for (const name of rel.trim().split(/\s+/)) links[name] = match[1]!;
  }
  return links;
}

/** The query parameter of a link, when the link is a URL (placeholders like GitLab's `[GITLAB_API_ENDPOINT]` are tolerated). */
export function linkParam(link: string, name: string): string | undefined {
  const query = link.includes('?') ? link.slice(link.indexOf('?') + 1) : '';
  return new URLSearchParams(query).get(name) ?? undefined;
}
