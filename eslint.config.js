// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginQuery from '@tanstack/eslint-plugin-query';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

// Import directions (docs/architecture.md, "Import directions"): shared imports none of ours; catalogue and
// app import only shared; server imports shared and catalogue; no production module imports
// the test helpers in src/test-support.
const zones = [
  {
    target: './src/shared',
    from: ['./src/app', './src/server', './src/catalogue'],
    message: 'shared is the contract and imports nothing of ours.',
  },
  {
    target: './src/catalogue',
    from: ['./src/app', './src/server'],
    message: 'catalogue imports only shared.',
  },
  {
    target: './src/app',
    from: ['./src/server', './src/catalogue'],
    message: 'the app imports only shared (no server code or secrets in the bundle).',
  },
  {
    target: './src/server',
    from: ['./src/app'],
    message: 'the server imports only shared and catalogue.',
  },
  {
    // Production code, that is every module but the tests; tests, e2e/ and bench/ may use the
    // test helpers.
    target: './src/{app,server,catalogue,shared}/**/!(*.test).{ts,tsx}',
    from: './src/test-support',
    message: 'test helpers are for tests (*.test.ts), e2e/ and bench/ only.',
  },
  {
    // The app's Whole list feature is used through its entry, so its insides can change shape.
    target: ['./src/app/*.{ts,tsx}', './src/app/!(whole-list)/**/*.{ts,tsx}'],
    from: './src/app/whole-list',
    except: ['./index.ts'],
    message: 'outside src/app/whole-list, import the feature from its entry, whole-list/index.ts.',
  },
  {
    target: './src/app/whole-list',
    from: [
      './src/app/routes',
      './src/app/views.tsx',
      './src/app/app.tsx',
      './src/app/main.tsx',
      './src/app/entry-server.tsx',
    ],
    message: 'the Whole list feature does not import the views that host it.',
  },
];

/** Every TypeScript file of ours, as a path from the repository's root (this file's folder). */
function ourFiles(dir = import.meta.dirname) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'dist', 'data', '.git', 'test-results'].includes(entry.name)
        ? []
        : ourFiles(path);
    return /\.tsx?$/.test(entry.name) ? [relative(import.meta.dirname, path)] : [];
  });
}

// A comment that sends the reader to a file must name one that exists: a file's name, or the end
// of its path (`pages/page-source.ts`). Moved and deleted files leave such pointers behind.
let files;
const commentFileNames = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    files ??= ourFiles();
    const exists = (name) => files.some((file) => file === name || file.endsWith(`/${name}`));
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          for (const match of comment.value.matchAll(
            /(?<![\w*{}./-])((?:[\w.-]+\/)*[\w.-]+\.tsx?)\b/g,
          )) {
            const name = match[1].replace(/^(\.\.?\/)+/, '');
            if (!exists(name))
              context.report({
                loc: comment.loc,
                message: `The comment names ${name}, which does not exist.`,
              });
          }
        }
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX, ours: { rules: { 'comment-file-names': commentFileNames } } },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'ours/comment-file-names': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, '@tanstack/query': pluginQuery },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...pluginQuery.configs.recommended.rules,
      // Configuration is read once, in src/server/config.ts; the bundle never sees process.env.
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'The app runs in a browser.' },
      ],
    },
  },
  {
    // One module reads the environment (README "Configuration").
    files: ['src/**/*.ts'],
    ignores: [
      'src/server/config.ts',
      'src/catalogue/config.ts',
      'src/test-support/stress.ts',
      'src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration in config.ts only.' },
      ],
    },
  },
);
