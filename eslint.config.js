import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { boundaries } from './eslint.config.boundaries.js';

export default tseslint.config(
  { ignores: ['**/dist/', '**/node_modules/', 'data/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // `import { type A }` still loads its module once compiled (verbatimModuleSyntax).
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'error',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}', 'console/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, 'no-console': ['error', { allow: ['warn'] }] },
  },
  {
    // Type-aware rules where a promise left unhandled loses an error or an answer.
    files: ['server/src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'console/src/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // An ES import of node:http loads Node's fetch into every server process: its values come
    // from server/src/lib/node-http.ts (docs/memory.md#built-in-modules).
    files: ['server/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['node:http', 'http'].map((name) => ({
            name,
            allowTypeImports: true,
            message: 'Take node:http values from lib/node-http.ts: an import of it loads undici.',
          })),
        },
      ],
    },
  },
  {
    files: ['scripts/**', 'testing/**', 'e2e/**'],
    rules: { 'no-console': 'off' },
  },
  boundaries,
);
