/** `new`: the line exists only after the change; `old`: only before it; `context`: unchanged. */
export type LineType = 'new' | 'old' | 'context';

/** A line in a file of a diff that a comment is attached to. */
export interface CodePosition {
  file_path: string;
  line: number;
  line_type: LineType;
  commit_sha?: string;
}
