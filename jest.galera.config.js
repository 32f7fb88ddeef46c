/**
 * The Galera suite (`npm run test:galera`): built instances, one per node of a 3-node MariaDB
 * Galera cluster that test/galera/cluster.sh starts (docs/scaling.md "MariaDB Galera"). Not part
 * of `npm test`: it needs the cluster, Redis and a build. The e2e project's transform and timeouts.
 */
const base = require('./jest.config.js');

const e2e = base.projects.find((project) => project.displayName === 'e2e');

module.exports = {
  ...e2e,
  displayName: 'galera',
  testMatch: ['<rootDir>/test/galera/**/*.galera-spec.ts'],
  testTimeout: 240000,
  reporters: base.reporters,
};
