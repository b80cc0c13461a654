// ESLint: typescript-eslint's recommended rules with type information, so that a promise nobody
// awaits (a lost error, a write that may not have happened) is an error, not a style question.
// Formatting is Prettier's alone: no stylistic rule is turned on here.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // The SDK's types are generated from the OpenAPI document (npm run generate:client), compared byte for byte.
  {
    ignores: [
      'packages/client/src/openapi.ts',
      'packages/client/src/operations.ts',
      'dist/**',
      '**/dist/**',
      'node_modules/**',
      'contracts/**',
      'bench/results/**',
      'data/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // An async function that does not await is how an interface of promises is met by code that
      // happens to be synchronous; flagging it adds noise, not safety.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // DESIGN §21: functions fit on a screen, in the service and the client packages (the MCP server
    // one module per tool, the CLI one module per command). Migrations are exempt: each is the
    // frozen record of a schema change already run on databases (decision 0042).
    files: ['src/**/*.ts', 'packages/**/src/**/*.ts'],
    ignores: ['src/db/migrations/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 70, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests, scripts and benchmarks read JSON answers of the service whose shape is the thing under
    // test: `any` there is deliberate, and the assertions check what the types would.
    files: ['test/**', 'scripts/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // Tests keep a method to put it back after a spy, print whatever a failing value is, and accept
      // an address as `Address | string` on purpose.
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-redundant-type-constituents': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
);
