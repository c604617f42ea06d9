import { isJsonObject } from '../../json/types.js';
import { each, has, str, type ItemShape } from '../item-shape.js';
import { jiraComment, jiraIssue } from './normalize.js';

/** Jira payloads: comments by `created` without `fields`; issues by `key` and `fields`, linked to `browseBase`. */
export function jiraShapes(browseBase: string | undefined): readonly ItemShape[] {
  return [
    {
      name: 'Jira comments',
      provider: 'jira',
      kind: 'comments',
      aligned: true,
      normalize: each(jiraComment),
      // `body` may be missing (an archive that stripped it, an emptied comment): the client reads those too.
      test: (o) => has(o, 'id', 'created') && !has(o, 'fields'),
    },
    {
      name: 'Jira issues',
      provider: 'jira',
      kind: 'issues',
      aligned: true,
      normalize: (raw) => raw.map((v) => jiraIssue(v, browseBase)),
      test: (o) => str(o, 'key') && isJsonObject(o.fields),
    },
  ];
}
