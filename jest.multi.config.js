/**
 * The multi-instance suite (`npm run test:multi`): several built instances of the service as
 * separate processes on one MariaDB database and one Redis. Not part of `npm test`: it needs
 * MariaDB, Redis and a build. The e2e project's transform, its own files and timeouts.
 */
const base = require('./jest.config.js');

const e2e = base.projects.find((project) => project.displayName === 'e2e');

module.exports = {
  ...e2e,
  displayName: 'multi',
  testMatch: ['<rootDir>/test/multi/**/*.multi-spec.ts'],
  testTimeout: 180000,
  reporters: base.reporters,
};
