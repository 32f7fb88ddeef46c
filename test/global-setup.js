// Jest globalSetup of the e2e project: the hosted page's bundles (test/support/build-page-bundles.js)
// and a Redis for the suite (test/support/test-redis.js).
module.exports = async () => {
  require('./support/build-page-bundles.js')();
  await require('./support/test-redis.js').setUp();
};
