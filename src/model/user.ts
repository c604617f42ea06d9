/** A person as a provider reports them. `id` is a string for every provider (GitLab and GitHub ids are numbers there). */
export interface User {
  id: string;
  username: string;
  name?: string;
  email?: string;
  avatar_url?: string;
}
