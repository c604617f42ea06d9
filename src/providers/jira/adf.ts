/**
 * Atlassian Document Format (Jira Cloud REST v3 bodies) → plain text. Blocks are separated by a
 * blank line, list items start with "- " or "1. ", hard breaks become newlines, mentions, emoji,
 * dates, statuses and cards become their visible text; media has no text and is dropped.
 */

interface AdfNode {
  type?: string;
  text?: string;
  attrs?: Record<string, unknown>;
  content?: AdfNode[];
}

const BLOCKS = new Set([
  'paragraph',
  'heading',
  'blockquote',
  'codeBlock',
  'panel',
  'rule',
  'bulletList',
  'orderedList',
  'table',
  'mediaSingle',
  'mediaGroup',
  'expand',
  'nestedExpand',
  'decisionList',
  'taskList',
  'blockCard',
  'embedCard',
]);

export function isAdf(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as AdfNode).type === 'doc';
}

export function adfToText(doc: unknown): string {
  if (!isAdf(doc)) return typeof doc === 'string' ? doc : '';
  return blocks((doc as AdfNode).content ?? [], '').trim();
}

function blocks(nodes: AdfNode[], indent: string): string {
  return nodes
    .map((n) => block(n, indent))
    .filter((t) => t !== '')
    .join('\n\n');
}

function block(node: AdfNode, indent: string): string {
  switch (node.type) {
    case 'paragraph':
    case 'heading':
      return indent + inline(node.content ?? []).replace(/\n/g, `\n${indent}`);
    case 'codeBlock':
      return inline(node.content ?? []);
    case 'blockquote':
      return blocks(node.content ?? [], indent)
        .split('\n')
        .map((l) => `> ${l}`)
        .join('\n');
    case 'rule':
      return '---';
    case 'bulletList':
    case 'orderedList':
    case 'taskList':
    case 'decisionList':
      return list(node, indent);
    case 'table':
      return (node.content ?? [])
        .map((row) => (row.content ?? []).map((cell) => blocks(cell.content ?? [], '').replace(/\n+/g, ' ')).join(' | '))
        .join('\n');
    case 'blockCard':
    case 'embedCard':
      return String(node.attrs?.['url'] ?? '');
    case 'mediaSingle':
    case 'mediaGroup':
    case 'media':
      return '';
    default:
      return node.content
        ? node.content.some((c) => BLOCKS.has(c.type ?? ''))
          ? blocks(node.content, indent)
          : indent + inline(node.content)
        : inline([node]);
  }
}

function list(node: AdfNode, indent: string): string {
  const ordered = node.type === 'orderedList';
  let n = Number(node.attrs?.['order'] ?? 1);
  return (node.content ?? [])
    .map((item) => {
      const marker = ordered ? `${n++}. ` : item.type === 'taskItem' ? (item.attrs?.['state'] === 'DONE' ? '[x] ' : '[ ] ') : '- ';
      const children = item.content ?? [];
      const inner = children.some((c) => BLOCKS.has(c.type ?? '')) ? blocks(children, `${indent}  `).trimStart() : inline(children);
      return `${indent}${marker}${inner.replace(/\n\n/g, '\n')}`;
    })
    .join('\n');
}

function inline(nodes: AdfNode[]): string {
  return nodes
    .map((n) => {
      switch (n.type) {
        case 'text':
          return n.text ?? '';
        case 'hardBreak':
          return '\n';
        case 'mention':
          return String(n.attrs?.['text'] ?? '@unknown');
        case 'emoji':
          return String(n.attrs?.['text'] ?? n.attrs?.['shortName'] ?? '');
        case 'date': {
          const ms = Number(n.attrs?.['timestamp']);
          return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : '';
        }
        case 'status':
          return String(n.attrs?.['text'] ?? '');
        case 'inlineCard':
          return String(n.attrs?.['url'] ?? '');
        default:
          return n.content ? inline(n.content) : (n.text ?? '');
      }
    })
    .join('');
}
