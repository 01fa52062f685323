// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'assembly/**',
      '**/dist/**',
      'dist-check/**',
      'node_modules/**',
      'coverage/**',
      'test/.tmp/**',
      '.scratch/**',
      'docs/api/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['scripts/**/*.mjs', 'bench/**/*.mjs', 'examples/**/*.mjs', 'eslint.config.js'],
    languageOptions: {
      globals: {
        URL: 'readonly',
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        performance: 'readonly',
      },
    },
  },
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      'no-console': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The CLI, scripts, benchmarks and tests talk to the terminal.
    files: ['src/cli/**', 'scripts/**', 'bench/**', 'test/**', 'examples/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // The core must run in browsers: no Node built-ins and no runtime dependencies.
    files: ['src/**/*.ts'],
    ignores: ['src/io/**', 'src/cli/**', 'src/plot/**', 'src/report/**', 'src/parallel/**', 'src/tfjs/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\.{1,2}/)',
              message: 'The core has zero runtime dependencies and no Node APIs; import only relative modules.',
            },
          ],
        },
      ],
    },
  },
  {
    // Plots and reports run in browsers too: Vega is allowed, Node built-ins are not.
    files: ['src/plot/**/*.ts', 'src/report/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^node:', message: 'Plots and reports must run in browsers: no Node built-ins.' }] },
      ],
    },
  },
);
