import js from '@eslint/js'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * `no-restricted-imports` with the one router specifier and, per folder, the imports that
 * cross a boundary. Patterns are regular expressions: the gitignore-style `group` syntax
 * would read a leading `#` as a comment and block nothing.
 */
function restrictImports(...boundaries) {
  return [
    'error',
    {
      paths: [
        { name: 'react-router', message: "Import from 'react-router-dom' (one router specifier)." },
      ],
      patterns: boundaries,
    },
  ]
}

const SERVER_TO_CLIENT = {
  regex: '^(#client/(?!entry-server\\.tsx$)|(\\.\\./)+client/)',
  message:
    'server/ reaches client/ only through #client/entry-server.tsx; shapes both sides use live in shared/.',
}
const FEATURE_MESSAGE =
  'A feature folder of server/services/ is used through its index.ts, not its internals.'
/** From outside server/services/: a feature folder's files other than its index. */
const FEATURE_INTERNALS = {
  regex: '^(#server/|(\\.\\.?/)+)services/[^/]+/(?!index\\.ts$)',
  message: FEATURE_MESSAGE,
}
/** From one feature folder: a sibling folder's files other than its index. */
const SIBLING_INTERNALS = {
  regex: '^(\\.\\./(?!\\.\\.)[^/]+/(?!index\\.ts$)|#server/services/[^/]+/(?!index\\.ts$))',
  message: FEATURE_MESSAGE,
}
const LIB_TO_FEATURES = {
  regex: '^(#server/|(\\.\\./)+)services/',
  message: 'server/lib/ holds helpers any feature may use: it imports no feature.',
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'reports/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      // Fastify plugins and handlers are async by contract, awaiting or not.
      '@typescript-eslint/require-await': 'off',
      'no-restricted-imports': restrictImports(),
    },
  },
  {
    files: ['client/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    plugins: { ...jsxA11y.flatConfigs.recommended.plugins, 'react-hooks': reactHooks },
    rules: { ...jsxA11y.flatConfigs.recommended.rules, ...reactHooks.configs.recommended.rules },
  },
  // Boundaries: shared/ is framework-free; client/ never imports server/; server/ reaches
  // client/ only through the server entry. Each block repeats the router rule, because a
  // block's `no-restricted-imports` replaces the one above it.
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': restrictImports({
        regex: '^(#(server|client)/|(\\.\\./)+(server|client)/)',
        message: 'shared/ imports neither server/ nor client/: it runs on both sides.',
      }),
    },
  },
  {
    files: ['client/**'],
    rules: {
      'no-restricted-imports': restrictImports({
        regex: '^(#server/|(\\.\\./)+server/)',
        message: 'client/ never imports server/: it is bundled for the browser.',
      }),
    },
  },
  // server/services/ holds one folder per feature; each is used through its index.ts, which
  // says in its header what the feature does. server/lib/ holds what features share.
  {
    files: ['server/**'],
    rules: { 'no-restricted-imports': restrictImports(SERVER_TO_CLIENT, FEATURE_INTERNALS) },
  },
  {
    files: ['scripts/**'],
    rules: { 'no-restricted-imports': restrictImports(FEATURE_INTERNALS) },
  },
  {
    files: ['server/services/**'],
    rules: { 'no-restricted-imports': restrictImports(SERVER_TO_CLIENT, SIBLING_INTERNALS) },
  },
  {
    files: ['server/lib/**'],
    rules: { 'no-restricted-imports': restrictImports(SERVER_TO_CLIENT, LIB_TO_FEATURES) },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
)
