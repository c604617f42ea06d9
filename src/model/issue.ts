import type { ProviderName } from './provider-name.js';
import type { User } from './user.js';

/**
 * An issue of any provider. Keys: `gh#123` (GitHub), `gitlab#12` (GitLab iid), `PROJ-123` (Jira key).
 * `state` is `open`/`closed` for GitHub and GitLab (GitLab's `opened` and `reopened` become `open`),
 * and the workflow status name for Jira (e.g. `In Progress`).
 */
export interface Issue {
  key: string;
  title: string;
  description?: string;
  state: string;
  source: ProviderName;
  priority?: string;
  labels: string[];
  author?: User;
  assignees: User[];
  url?: string;
  created_at?: string;
  updated_at?: string;
}
