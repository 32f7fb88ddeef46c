/**
 * The browser suite (`npm run test:browser`): Debian's chromium driven by playwright-core against
 * the service on a local port. Not part of `npm test` (it needs /usr/bin/chromium, which
 * `.ci/run` installs when missing). The e2e project's transform, its own files and timeouts.
 */
const base = require('./jest.config.js');

// No Redis here: the e2e project's global setup (a Redis for the shared-limit tests) is left out.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
const { globalSetup, globalTeardown, ...e2e } = base.projects.find((project) => project.displayName === 'e2e');

module.exports = {
  ...e2e,
  displayName: 'browser',
  testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
  testTimeout: 60000,
  // The console tests drive the built admin console (dist/console), the hosted-page tests the built page scripts (dist/pay).
  globalSetup: '<rootDir>/test/browser/support/build-console.js',
  reporters: base.reporters,
};
