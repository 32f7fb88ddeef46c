/**
 * Two Jest projects, run together by `npm test`:
 * - unit: every src/**\/*.spec.ts, the pure specs under test/ (test/fakes/...) and the admin
 *   console's pure logic (console/src/**\/*.spec.ts: no JSX, no DOM, so no jsdom), transpiled
 *   only by @swc/jest (legacy decorators + decorator metadata, as tsc emits them): starts in
 *   about a second. `npm run test:unit`.
 * - e2e: test/**\/*.e2e-spec.ts through ts-jest, so that the @nestjs/swagger plugin adds the
 *   same OpenAPI metadata the production build gets (test/swagger-plugin-transformer.js) and
 *   /docs-json in tests matches the build. `npm run test:e2e`.
 * Test files run in parallel workers; on MySQL/MariaDB each worker has its own database
 * (test/setup-env.js). The e2e project needs Redis (test/support/test-redis.js).
 */
const shared = {
  rootDir: __dirname,
  // Only src/ and test/ hold tests; crawling the whole folder (node_modules) costs seconds.
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testEnvironment: 'node',
  moduleFileExtensions: ['js', 'json', 'ts'],
  // Relative imports end in `.js` (nodenext) and name `.ts` sources.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  setupFiles: ['<rootDir>/test/setup-env.js'],
  // NestJS 12 (@nestjs/*) and FormatJS ship ES modules only; Node 20.19+ loads them with
  // require(), Jest's CommonJS runtime does not, so those packages are transpiled to CommonJS like
  // our own sources (esmPackages below). Jest's own ESM mode is no way out: @nestjs/throttler and
  // nestjs-pino are CommonJS and require() @nestjs/common.
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|@formatjs|intl-messageformat)/)'],
};

/** The tsc settings of tsconfig.json that change emitted code, in swc's words. */
const swc = {
  swcrc: false,
  sourceMaps: 'inline',
  module: { type: 'commonjs' },
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    keepClassNames: true,
  },
};

/** The ES-module-only packages of transformIgnorePatterns, turned into CommonJS by swc. */
const esmPackages = { '/node_modules/.+\\.js$': ['@swc/jest', { ...swc, jsc: { target: 'es2022' } }] };

module.exports = {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      // The admin console's pure logic too (console/src/**/*.spec.ts: no JSX, no DOM, so no jsdom).
      roots: [...shared.roots, '<rootDir>/console/src'],
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts', '<rootDir>/console/src/**/*.spec.ts'],
      // The gateway catalog as the application has it, without loading the slices' modules.
      setupFiles: [...shared.setupFiles, '<rootDir>/test/support/register-gateway-slices.ts'],
      transform: { '^.+\\.ts$': ['@swc/jest', swc], ...esmPackages },
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      // A Redis for the shared-limit tests: REDIS_URL if one answers there, else a redis-server of
      // the run's own on a free port, else the run stops at once saying what to install.
      globalSetup: '<rootDir>/test/global-setup.js',
      globalTeardown: '<rootDir>/test/global-teardown.js',
      transform: {
        '^.+\\.ts$': [
          'ts-jest',
          {
            tsconfig: '<rootDir>/tsconfig.json',
            diagnostics: { ignoreCodes: [151002] },
            astTransformers: { before: ['<rootDir>/test/swagger-plugin-transformer.js'] },
          },
        ],
        ...esmPackages,
      },
    },
  ],
  // Two workers for two cores: e2e files are CPU-bound (booting Nest, ts-jest compiling, the
  // database work of MariaDB on the same machine), so more workers only add memory and
  // contention, and the machine is shared. Override with --maxWorkers.
  maxWorkers: 2,
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
