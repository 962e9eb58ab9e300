// Lint rules: type-aware TypeScript everywhere, and determinism guards for workflow code.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = builtinModules.flatMap((name) => [name, `node:${name}`, `${name}/*`, `node:${name}/*`]);

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'bin/cardsvc.js', 'eslint.config.js', '.dependency-cruiser.cjs', '.mocharc.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/only-throw-error': 'off',
    },
  },
  {
    // Tests use chai's property assertions (`expect(x).to.be.true`), which read as unused expressions.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  {
    // lib/ holds small pieces with no domain knowledge: it imports no layer above it.
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['../api/*', '../app/*', '../services/*', '../activities/*', '../models/*', '../workflows/*', '../cli/*'], message: 'lib/ imports no layer above it; the composition root (app/) wires the layers.' }],
      }],
    },
  },
  {
    // Workflows (and their lifecycle code) reach the service only through activities: types alone from elsewhere.
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['**/services/*', '**/services/**', '**/models/*', '**/models/**', '**/lib/*', '**/lib/**'], allowTypeImports: true, message: 'Workflow code may import services/, models/ and lib/ only as types.' }],
      }],
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no I/O, no clients, no ambient clocks or randomness.
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/**/lifecycle.ts', 'workflows/shared/start.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: '@temporalio/client', message: 'Workflows must not use the Temporal client; use lifecycle.ts outside the sandbox.' },
          { name: '@temporalio/worker', message: 'Workflows must not import the worker.' },
        ],
        patterns: [{ group: nodeBuiltins, message: 'Node built-ins are not available in workflow code.' }],
      }],
      'no-restricted-globals': ['error',
        { name: 'fetch', message: 'Do I/O in an activity.' },
        { name: 'crypto', message: 'Use uuid4() from @temporalio/workflow.' },
        { name: 'process', message: 'Workflows receive configuration as input.' },
      ],
    },
  },
  {
    // The console's browser modules (web/console/, loaded as type=module): modern browser JavaScript, outside the
    // TypeScript project.
    files: ['web/**/*.js'],
    ignores: ['web/card-page/**', 'web/widget/**', 'web/widget-embed/**'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      sourceType: 'module',
      parserOptions: { projectService: false },
      globals: {
        window: 'readonly', document: 'readonly', navigator: 'readonly', fetch: 'readonly', getComputedStyle: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
        FormData: 'readonly', URLSearchParams: 'readonly', URL: 'readonly', DataTransfer: 'readonly', FileReader: 'readonly', Event: 'readonly', CustomEvent: 'readonly', HTMLElement: 'readonly', HTMLImageElement: 'readonly', HTMLInputElement: 'readonly', HTMLSelectElement: 'readonly', DOMParser: 'readonly', createImageBitmap: 'readonly', requestAnimationFrame: 'readonly', customElements: 'readonly', Trix: 'readonly', console: 'readonly',
      },
    },
  },
  {
    // Browser scripts served or inlined as classic scripts (the card page, the widget's page, the embed's loader and
    // bridge, the message counter): plain ES5 in a browser, outside the TypeScript project.
    files: ['web/card-page/**/*.js', 'web/widget/**/*.js', 'web/widget-embed/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      sourceType: 'script',
      parserOptions: { projectService: false },
      globals: { window: 'readonly', document: 'readonly', navigator: 'readonly', fetch: 'readonly', getComputedStyle: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Promise: 'readonly', Intl: 'readonly' },
    },
  },
);
