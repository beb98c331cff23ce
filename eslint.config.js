// ESLint flat config. `npm run lint` lints the whole repository.
//
// The important part is the engine purity block: src/engine is a deterministic simulation,
// so it may not read the wall clock, use timers, draw unseeded randomness, touch the DOM or
// import UI libraries. src/engine/purity.test.ts checks that these rules keep firing.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const CLOCK = 'The engine is deterministic: use src/engine/clock.ts';
const TIME = `${CLOCK} (Clock.now() / Clock.schedule()) for virtual time.`;
const RANDOM = `${CLOCK} (Rng, the seeded generator) for randomness.`;
const HOST = `${CLOCK}; the engine is pure TypeScript with no DOM or worker API (hosts live in src/worker, src/ui).`;
const UI_IMPORT = `${CLOCK}; the engine must not import UI or worker code or UI libraries (it runs unchanged in Node).`;

export default defineConfig(
  globalIgnores(['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'coverage/', 'bench/results/']),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Capturing `this` for a closure in an object literal (Clock.scheduleAt) is deliberate.
      '@typescript-eslint/no-this-alias': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },

  // Browser code: the UI and the worker host.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/engine/**', 'src/cli.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },

  // Node code: tooling, configs, scripts, benchmarks, end-to-end specs, the CLI.
  {
    files: ['*.{js,mjs,ts}', 'scripts/**', 'bench/**', 'e2e/**', 'src/cli.ts'],
    languageOptions: { globals: { ...globals.node } },
  },

  // The engine stays pure.
  {
    files: ['src/engine/**/*.ts'],
    ignores: ['src/engine/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'react', message: UI_IMPORT },
            { name: 'react-dom', message: UI_IMPORT },
            { name: 'zustand', message: UI_IMPORT },
            { name: 'immer', message: UI_IMPORT },
            { name: 'monaco-editor', message: UI_IMPORT },
          ],
          patterns: [
            {
              group: [
                'react/*',
                'react-dom/*',
                'zustand/*',
                'immer/*',
                '@xyflow/*',
                'monaco-editor/*',
                '@xterm/*',
                '**/ui',
                '**/ui/**',
                '**/worker',
                '**/worker/**',
              ],
              message: UI_IMPORT,
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'Date', message: TIME },
        { name: 'setTimeout', message: TIME },
        { name: 'setInterval', message: TIME },
        { name: 'setImmediate', message: TIME },
        { name: 'clearTimeout', message: TIME },
        { name: 'clearInterval', message: TIME },
        { name: 'requestAnimationFrame', message: TIME },
        { name: 'performance', message: TIME },
        { name: 'crypto', message: RANDOM },
        { name: 'window', message: HOST },
        { name: 'document', message: HOST },
        { name: 'self', message: HOST },
        { name: 'postMessage', message: HOST },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: RANDOM },
        { object: 'Date', property: 'now', message: TIME },
        { object: 'globalThis', property: 'Date', message: TIME },
        { object: 'globalThis', property: 'setTimeout', message: TIME },
        { object: 'globalThis', property: 'setInterval', message: TIME },
        { object: 'globalThis', property: 'performance', message: TIME },
        { object: 'globalThis', property: 'crypto', message: RANDOM },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date']", message: TIME },
      ],
    },
  },

  // Tests: pragmatic.
  {
    files: ['**/*.test.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
