// One lint configuration for the whole tree: TypeScript's recommended rules, without type-aware
// rules (tsc --strict already checks types; this keeps `npm run lint` to a few seconds).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'corpus/', 'results/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      // `_`-prefixed names are deliberately unused (destructuring a field away, a required parameter).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Size, where a reader follows control flow: the library and the commands. A function is split by
    // concern once it passes 80 lines (blank lines and comments aside) or 20 paths. The `modified`
    // complexity counts a switch as one decision, so a dispatch over a closed set (endpoints, node
    // types) stays one readable table, while every if, loop, ternary, && || ?? and ?. still counts.
    // Tests, scripts and benches are exempt: a describe() is one function holding all its cases, and
    // a script is a list of steps read top to bottom.
    files: ['src/**/*.ts', 'commands/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      complexity: ['error', { max: 20, variant: 'modified' }],
    },
  },
);
