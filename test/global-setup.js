// Jest globalSetup of the e2e project: a Redis for the suite (test/support/test-redis.js).
module.exports = () => require('./support/test-redis.js').setUp();
