/**
 * The multi-instance suite (`npm run test:multi`): several built instances of the service as
 * separate processes on one MariaDB database and one Redis. Not part of `npm test`: it needs
 * MariaDB, Redis and a build. Same transform as the main config, its own files and timeouts.
 */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/multi'],
  testRegex: '.*\\.multi-spec\\.ts$',
  testTimeout: 180000,
};
