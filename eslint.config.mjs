// @ts-check
// ESLint: typescript-eslint's strict type-checked rules over src, test, bench and the console
// (docs/testing.md, "Linters"). A rule turned off or tuned says why on its line.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'coverage/', '.data/', 'console/src/gql/'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'console/src/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.strictTypeChecked],
    languageOptions: {
      // Each file is checked with the tsconfig.json nearest to it (console/tsconfig.json for the console).
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // tsc checks unused names already (noUnusedLocals, noUnusedParameters), `_` names and rest siblings as it should.
      '@typescript-eslint/no-unused-vars': 'off',
      // Async methods implement promise-returning contracts (migrations' up/down, Apollo plugin hooks, adapters' stop): a throw must reject, not escape.
      '@typescript-eslint/require-await': 'off',
      // `!` marks what a check just made or the schema guarantees (a row's joined column, a regex group); strictNullChecks covers the rest.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Numbers and booleans read as themselves in messages and SQL fragments; objects, null and undefined stay refused.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // A one-line arrow that returns a void call (`() => resolve()`, `(s) => s.close()`) is the house style for callbacks.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // Errors are narrowed by their `code` in exhaustive switches (rest/envelope.ts, graphql/errors.ts) and MikroORM.init answers its generic self: casts the rule cannot follow.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
      // Declared types at the edges (rows, parsed JSON, provider answers, index reads without noUncheckedIndexedAccess) are narrower than what arrives: the checks there stay.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // ws hands each message as RawData: a Buffer, or an ArrayBuffer only under a binaryType this code never sets.
      '@typescript-eslint/no-base-to-string': ['error', { ignoredTypeNames: ['Error', 'RegExp', 'URL', 'URLSearchParams', 'ArrayBuffer'] }],
      // Type parameters that correlate a key with its value in the body (workers.ts) or name a cast's result (test clients) appear once in the signature.
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
      // swagger-ui-dist ships no types: rest/api-reference.ts requires its folder helper.
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^swagger-ui-dist/absolute-path\\.js$'] }],
      // Parsed input is a Record: removing one of its keys is what a Record is for.
      '@typescript-eslint/no-dynamic-delete': 'off',
      // No TypeScript enums: a closed set is a const array and its union (entities' VOICEMAIL_ACTIONS), which
      // zod, GraphQL and SQL read as they are. With none declared, no-unsafe-enum-assignment had nothing to
      // find and took a quarter of all the rules' time (it asks the type of every assignment and argument).
      'no-restricted-syntax': ['error', { selector: 'TSEnumDeclaration', message: 'Declare a const array and its union instead of an enum.' }],
      '@typescript-eslint/no-unsafe-enum-assignment': 'off',
    },
  },
  {
    files: ['src/schema/**/*.ts', 'src/resolvers/**/*.ts'],
    rules: {
      // TypeGraphQL: object and input types are classes made at run time from the contracts (empty until decorated).
      '@typescript-eslint/no-extraneous-class': 'off',
      // TypeGraphQL: resolvers answer plain objects typed as their GraphQL classes; spreading one loses no prototype.
      '@typescript-eslint/no-misused-spread': 'off',
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests and benchmarks read the API's JSON bodies (typed any by fetch and the harness) and let `expect` assert their shape.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/restrict-plus-operands': 'off',
      // The GraphQL test client rejects with the server's `errors` array, which tests compare as it came.
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      // Fixtures hand out closures typed with method syntax, which never use `this`.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['console/src/**/*.{ts,tsx}'],
    rules: {
      // React props declared with method syntax (`onKey(key: string): void`) are plain callbacks that never use `this`.
      '@typescript-eslint/unbound-method': 'off',
      // React event props take async handlers (`onSubmit={async (e) => ...}`); each handler shows its own failure.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // FormData.get answers string | File; the console's forms read text fields only.
      '@typescript-eslint/no-base-to-string': ['error', { ignoredTypeNames: ['Error', 'RegExp', 'URL', 'URLSearchParams', 'ArrayBuffer', 'File'] }],
    },
  },
);
