import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default tseslint.config(
  { ignores: ['dist/', 'src/generated/', 'node_modules/', '.data/', 'sdk/dist/', 'web/dist/', 'packages/*/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // No circles: modules that import each other in a loop cannot be read, tested or moved one at a time.
    files: ['**/*.{ts,tsx,mts}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'web/tsconfig.json', 'sdk/tsconfig.json', 'packages/contract/tsconfig.json', 'packages/cli/tsconfig.json'],
          conditionNames: ['source', 'types', 'import', 'require', 'node', 'default'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The layers of docs/architecture.md: an import may only point down.
    files: ['src/**/*.ts', 'sdk/src/**/*.ts', 'packages/cli/src/**/*.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: 'src/consensus', from: 'src', except: ['./consensus'], message: 'consensus/ is pure: it imports nothing of the service' },
            {
              target: 'src/lib',
              from: [
                'src/consensus',
                'src/db',
                'src/http',
                'src/middleware',
                'src/modules',
                'src/config.ts',
                'src/app.ts',
                'src/server.ts',
                'src/container.ts',
                'src/repositories.ts',
              ],
              message: 'lib/ imports no feature and no layer above it',
            },
            {
              target: 'src/config.ts',
              from: ['src/db', 'src/http', 'src/middleware', 'src/modules', 'src/app.ts', 'src/server.ts', 'src/container.ts', 'src/repositories.ts'],
              message: 'configuration reads the environment; it imports no feature',
            },
            {
              target: 'src/db',
              from: ['src/http', 'src/middleware', 'src/modules', 'src/app.ts', 'src/server.ts', 'src/container.ts', 'src/repositories.ts'],
              message: 'db/ knows no feature: the repository registry is the composition root’s (src/repositories.ts)',
            },
            {
              target: 'src/middleware',
              from: ['src/http', 'src/app.ts', 'src/server.ts', 'src/container.ts', 'src/repositories.ts'],
              message: 'middleware sits below the HTTP layer and the composition root',
            },
            {
              target: 'src/modules',
              from: ['src/http', 'src/app.ts', 'src/server.ts', 'src/container.ts', 'src/repositories.ts'],
              message:
                'a feature is mounted by the HTTP layer and wired by the composition root, never the other way round; it names the repositories it uses as its own slice of the unit of work (docs/architecture.md)',
            },
            { target: 'src/http', from: ['src/app.ts', 'src/server.ts', 'src/container.ts'], message: 'the HTTP layer is below the app' },
            {
              target: 'sdk/src',
              from: ['src', 'web', 'packages/cli'],
              message: 'the SDK stands alone: it imports neither the server, the dashboard nor the CLI',
            },
            {
              target: 'packages/cli/src',
              from: ['src', 'web'],
              message: 'the CLI uses the SDK and the contract by name (@concord/sdk, @concord/contract), nothing of the server or the dashboard',
            },
          ],
        },
      ],
    },
  },
  {
    // The contract is isomorphic and stands below everything: zod and Web Crypto only, nothing of the server,
    // the SDK or the dashboard, and no Node.js built-in (it runs in the browser too).
    files: ['packages/contract/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'the contract runs in browsers too: no Node.js built-in' },
            { group: ['../../*', '../../../*'], message: 'the contract imports nothing of the repository around it' },
          ],
          paths: ['buffer', 'crypto', 'fs', 'path', 'stream', 'util', 'express', '@prisma/client', 'pg'].map((name) => ({
            name,
            message: 'the contract is zod and Web Crypto only',
          })),
        },
      ],
    },
  },
  {
    // A package reaches another only by its name (the "source" condition resolves it to that package's
    // sources here, its build once installed), never by a relative path out of its own folder.
    files: ['packages/cli/src/**/*.ts', 'sdk/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['../../*', '../../../*'], message: 'import another package by its name' }] }],
    },
  },
  {
    // The dashboard imports the API's generated types, nothing else of the SDK and nothing of the server:
    // a rule both apply is @concord/contract's. One test reads files the server's own formatters wrote
    // (download.test.ts: a reader against the writer it reads) and may import them.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/exports/download.test.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: 'web/src', from: 'src', message: 'the dashboard does not import the server' },
            { target: 'web/src', from: 'sdk/src', except: ['./generated'], message: 'the dashboard imports the generated API types only' },
          ],
        },
      ],
    },
  },
  {
    // The dashboard runs in the browser.
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules, 'no-console': 'error' },
  },
  {
    // Terminal programs: the console is their interface.
    files: ['test/**', 'bench/**', 'scripts/**', 'examples/**'],
    rules: { 'no-console': 'off' },
  },
);
