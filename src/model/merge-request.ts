import type { ProviderName } from './provider-name.js';
import type { User } from './user.js';

/**
 * A GitHub pull request (`pr#45`) or GitLab merge request (`mr#7`, by iid).
 * `state`: `open`, `closed`, `merged`, or GitLab's `locked`.
 */
export interface MergeRequest {
  key: string;
  title: string;
  description?: string;
  state: string;
  source: ProviderName;
  source_branch: string;
  target_branch: string;
  author?: User;
  assignees: User[];
  reviewers: User[];
  labels: string[];
  draft: boolean;
  url?: string;
  created_at?: string;
  updated_at?: string;
}
