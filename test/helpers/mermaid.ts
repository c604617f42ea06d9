import { JSDOM } from 'jsdom';

type Parse = (text: string) => Promise<unknown>;
let parser: Promise<Parse> | undefined;

/**
 * Mermaid's own parser (the one GitHub's renderer runs), in Node: Mermaid sanitizes labels with
 * DOMPurify, which needs a window, so a jsdom one is installed for it first. Nothing is rendered.
 */
export function mermaidParse(): Promise<Parse> {
  parser ??= (async () => {
    const dom = new JSDOM('<!doctype html><html><body></body></html>');
    Object.assign(globalThis, { window: dom.window, document: dom.window.document });
    const { default: mermaid } = await import('mermaid');
    return (text: string) => mermaid.parse(text);
  })();
  return parser;
}

/** The sources of every ```mermaid block in a Markdown text. */
export function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}
