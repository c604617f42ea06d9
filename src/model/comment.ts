import type { CodePosition } from './position.js';
import type { User } from './user.js';

export interface Comment {
  id: string;
  body: string;
  author?: User;
  created_at?: string;
  updated_at?: string;
  position?: CodePosition;
}
