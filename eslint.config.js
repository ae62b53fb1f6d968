import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const noProcessEnv = {
  'no-restricted-properties': [
    'error',
    {
      object: 'process',
      property: 'env',
      message: 'Read configuration in src/server/config.ts only.',
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'data/**',
      '.tmp/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  { files: ['src/**'], ignores: ['src/server/config.ts'], rules: noProcessEnv },
  {
    files: ['src/web/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**'], message: 'The web app never imports server code.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/common/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/web/**'],
              message: 'src/common imports neither server nor web.',
            },
            { group: ['node:*'], message: 'src/common runs in the browser too: no Node APIs.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/web/**'], message: 'The server never imports web code.' }] },
      ],
    },
  },
);
