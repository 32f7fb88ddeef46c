// Jest globalTeardown of the e2e project: stops the redis-server the setup started, if any.
module.exports = () => require('./support/test-redis.js').tearDown();
