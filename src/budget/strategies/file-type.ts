/**
 * How much a changed file is worth reading, by what kind of file it is (devboy-tools' table, which
 * it defines but never applies). The first rule that matches wins.
 */
export const FILE_TYPE_WEIGHTS = {
  lock: 0.05,
  minified: 0.1,
  migration: 0.6,
  test: 0.7,
  source: 1,
} as const;
export type FileType = keyof typeof FILE_TYPE_WEIGHTS;

const RULES: [FileType, RegExp][] = [
  ['lock', /(\.lock|\.sum)$|(^|\/)(package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|yarn\.lock)$/i],
  ['minified', /\.min\.(js|css|mjs)$/i],
  ['migration', /(^|\/)(db\/)?migrat(e|ions?)\/|(^|\/)[^/]*schema[^/]*$|(^|\/)structure\.sql$|\.sql$/i],
  ['test', /(^|\/)(tests?|spec|specs|__tests__|testdata|fixtures?)\/|(_test|_spec|\.test|\.spec)\.[a-z0-9]+$|(^|\/)test_[^/]+$/i],
];

export function fileType(path: string): FileType {
  for (const [type, pattern] of RULES) if (pattern.test(path)) return type;
  return 'source';
}

export function fileTypeWeight(path: string): number {
  return FILE_TYPE_WEIGHTS[fileType(path)];
}
