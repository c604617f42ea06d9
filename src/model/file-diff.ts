/** One file of a pull/merge request's diff. `diff` is the unified-diff text ('' when the provider sends none, e.g. binaries). */
export interface FileDiff {
  file_path: string;
  /** The path before a rename. */
  old_path?: string;
  new_file: boolean;
  deleted_file: boolean;
  renamed_file: boolean;
  diff: string;
  /** Line counts, when the provider reports them (GitHub does, GitLab does not). */
  additions?: number;
  deletions?: number;
}
