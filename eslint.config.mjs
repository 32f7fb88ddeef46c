// ESLint flat config: `npm run lint` (CI runs it before the test suites).
// - ESLint's and typescript-eslint's recommended rules (no type information needed, so it stays
//   fast), with one option for unused names below;
// - import-x/no-cycle everywhere: no runtime import cycles (type-only imports do not count);
// - the module boundaries of src/ (eslint/module-boundaries.mjs); tests and bench are not bound
//   by them and may import src internals;
// - a gateway is one folder: no gateway id or slice route named in src/ outside the gateway
//   slices and the catalog (eslint/gateway-ids.mjs, with its short list of exemptions).
// eslint/module-boundaries.test.mjs runs this config on a fixture project to show each rule fires.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { GATEWAY_ID_EXEMPT_FILES, GATEWAY_ID_RULE_FILES, GATEWAY_NAMING_SELECTORS } from './eslint/gateway-ids.mjs';
import { REPOSITORY_WRITE_SELECTORS } from './eslint/repository-writes.mjs';
import { moduleBoundaryZones } from './eslint/module-boundaries.mjs';

/** The whole config for the project whose root folder is `root`. */
export function checkoutLintConfig(root) {
  return tseslint.config(
    // eslint/fixtures/ holds deliberate violations for the rules' own test.
    { ignores: ['dist/', 'clients/typescript/dist/', 'data/', 'coverage/', 'eslint/fixtures/'] },

    js.configs.recommended,
    tseslint.configs.recommended,

    {
      plugins: { 'import-x': importX },
      settings: {
        ...importX.flatConfigs.typescript.settings,
        // Relative imports end in `.js` and name `.ts` sources (nodenext): the TypeScript resolver
        // maps them. import-x/no-unresolved fails the lint if it ever stops doing so, which would
        // otherwise silently switch off no-cycle and the boundary zones (both skip what they
        // cannot resolve).
        'import-x/resolver': undefined,
        'import-x/resolver-next': [
          createTypeScriptImportResolver({ project: [join(root, 'tsconfig.json'), join(root, 'tsconfig.browser.json'), join(root, 'console', 'tsconfig.json')], noWarnOnMultipleProjects: true }),
        ],
      },
      rules: {
        'import-x/no-cycle': ['error', { ignoreExternal: true }],
        'import-x/no-unresolved': 'error',
      },
    },

    {
      files: ['**/*.ts', '**/*.tsx'],
      rules: {
        // `const { field: _unused, ...rest } = x` is how code drops a field from an object, and a
        // parameter named `_x` is one a decorator needs (e.g. a validated but unread @Body()); every
        // other unused name is still an error.
        '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_' }],
      },
    },

    {
      // CommonJS files that Node and Jest load directly (jest.config.js, test/setup-env.js, the
      // reporter, the swagger-plugin transformer): require() is how they import.
      files: ['**/*.js', '**/*.cjs'],
      languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
      rules: { '@typescript-eslint/no-require-imports': 'off' },
    },
    {
      // Code bundled for the payer's browser (tsconfig.browser.json): the hosted page's script and
      // the gateway slices' drivers.
      files: ['src/common/browser-driver/**/*.ts', 'src/modules/hosted-page/page/**/*.ts', 'src/modules/payer-manage/page/**/*.ts', 'src/modules/*/browser/driver/**/*.ts', 'test/**/browser/driver/**/*.ts'],
      languageOptions: { globals: { ...globals.browser } },
    },
    {
      files: ['**/*.mjs'],
      languageOptions: { globals: { ...globals.node } },
    },

    {
      // The admin console (console/, a browser app): it reaches the API only through the
      // committed generated client (clients/typescript), never by fetch of its own, keeps no
      // credential in web storage, and takes from the service's sources only what is meant to
      // be shared with browsers (the money rules).
      files: ['console/**/*.ts', 'console/**/*.tsx'],
      languageOptions: { globals: { ...globals.browser } },
      rules: {
        'no-restricted-globals': [
          'error',
          { name: 'fetch', message: 'Call the API through the generated client (console/src/api/client.ts).' },
          { name: 'XMLHttpRequest', message: 'Call the API through the generated client (console/src/api/client.ts).' },
          { name: 'localStorage', message: 'No credential or token in web storage: the session is an HttpOnly cookie plus an in-memory nonce.' },
          { name: 'sessionStorage', message: 'No credential or token in web storage: the session is an HttpOnly cookie plus an in-memory nonce.' },
        ],
        'no-restricted-properties': [
          'error',
          { object: 'window', property: 'fetch', message: 'Call the API through the generated client.' },
          { object: 'globalThis', property: 'fetch', message: 'Call the API through the generated client.' },
          { object: 'window', property: 'localStorage', message: 'No credential or token in web storage.' },
          { object: 'window', property: 'sessionStorage', message: 'No credential or token in web storage.' },
          { object: 'document', property: 'cookie', message: 'The session cookie is HttpOnly; scripts never touch cookies.' },
        ],
        'import-x/no-restricted-paths': [
          'error',
          {
            basePath: root,
            zones: [{ target: './console', from: './src', except: ['./common/money/index.ts', './common/i18n/index.ts'], message: 'The console shares only the money rules and the language negotiation with the service.' }],
          },
        ],
      },
    },
    {
      files: ['console/vite.config.mts'],
      languageOptions: { globals: { ...globals.node } },
      rules: { 'import-x/no-restricted-paths': 'off' },
    },

    {
      // Module boundaries bind every file of src/, its unit specs included (they live in the
      // module they test); test/ and bench/ may import src internals.
      files: ['src/**/*.ts'],
      rules: {
        'import-x/no-restricted-paths': ['error', { basePath: root, zones: moduleBoundaryZones(root) }],
      },
    },

    {
      // Every write outside a transaction is one statement, which the conflict retry covers
      // (eslint/repository-writes.mjs). Unit specs set up their own fakes.
      files: ['src/**/*.ts'],
      ignores: ['src/**/*.spec.ts'],
      rules: { 'no-restricted-syntax': ['error', ...REPOSITORY_WRITE_SELECTORS] },
    },
    {
      // One no-restricted-syntax list per file: flat config replaces a rule's options, so the
      // gateway-naming files carry the repository-write selectors too.
      files: GATEWAY_ID_RULE_FILES,
      ignores: GATEWAY_ID_EXEMPT_FILES,
      rules: { 'no-restricted-syntax': ['error', ...GATEWAY_NAMING_SELECTORS, ...REPOSITORY_WRITE_SELECTORS] },
    },
  );
}

export default checkoutLintConfig(fileURLToPath(new URL('.', import.meta.url)));
