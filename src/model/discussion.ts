import type { Comment } from './comment.js';
import type { CodePosition } from './position.js';
import type { User } from './user.js';

/** A thread of comments. GitHub review comments are grouped by `in_reply_to_id`; GitLab sends threads as discussions. */
export interface Discussion {
  id: string;
  /** GitHub's REST API does not report thread resolution: always false there. */
  resolved: boolean;
  resolved_by?: User;
  comments: Comment[];
  /** Where the thread is anchored, when it is on code. */
  position?: CodePosition;
}
