// Lint rules, including the import boundaries of ../shared/STYLE.md: a wrong-direction import fails here.
import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const featuresDir = path.resolve(import.meta.dirname, 'src/features');
const features = fs.existsSync(featuresDir)
  ? fs
      .readdirSync(featuresDir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
  : [];

/** Packages only adapters (and entries, which construct adapters) may import. */
const IO_PACKAGES = ['axios', 'socket.io-client', 'dwt', 'idb', 'js-cookie'];
const UI_PACKAGES = [
  'react',
  'react-dom',
  'react-dom/*',
  'react-router-dom',
  '@douyinfe/semi-ui-19',
  '@douyinfe/semi-ui-19/*',
  '@xstate/react',
  'zustand',
];

const restrictedPackages = (packages, why) => ({
  patterns: [{ group: packages, message: why }],
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'data/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      '.test-output/**',
      'server/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { import: importPlugin, 'react-hooks': reactHooks },
    settings: {
      // Our imports are relative paths without extensions; the node resolver finds them with these.
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // Never parse dependencies: cycles and boundaries are about our own files.
      'import/ignore': ['node_modules'],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-self-import': 'error',
      'import/no-useless-path-segments': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            // entries -> features -> machines -> shared; server -> src/shared/contract (and lib).
            { target: './src', from: './entries', message: 'src must not import an entry.' },
            { target: './src', from: './server', message: 'The client must not import server code.' },
            { target: './src/machines', from: './src/features', message: 'Machines must not import features.' },
            {
              target: './src/shared',
              from: ['./src/features', './src/machines'],
              message: 'shared must not import features or machines.',
            },
            { target: './server', from: './entries', message: 'The server must not import client entries.' },
            {
              target: './server',
              from: './src',
              except: ['./shared/contract', './shared/lib'],
              message: 'The server may import only src/shared/contract and src/shared/lib.',
            },
            {
              target: './src/shared/contract',
              from: './src/shared',
              except: ['./contract'],
              message: 'The contract depends on nothing but zod.',
            },
            {
              target: './src/shared/lib',
              from: './src/shared',
              except: ['./lib', './contract'],
              message: 'lib holds pure helpers: no adapters, no UI.',
            },
            // A feature never imports another feature.
            ...features.map((name) => ({
              target: `./src/features/${name}`,
              from: './src/features',
              except: [`./${name}`],
              message: 'A feature must not import another feature; compose them in an entry.',
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['src/machines/**', 'src/shared/contract/**', 'src/shared/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        restrictedPackages(
          [...UI_PACKAGES, ...IO_PACKAGES],
          'Machines, contract and lib stay free of React, DOM libraries and IO: receive adapters as actors.',
        ),
      ],
    },
  },
  {
    files: ['src/features/**', 'src/shared/ui/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        restrictedPackages(IO_PACKAGES, 'Only adapters touch IO libraries: receive the adapter from the entry.'),
      ],
    },
  },
  {
    files: ['tests/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
