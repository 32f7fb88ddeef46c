export { RedisModule, REDIS_CLIENT } from './redis.module.js';
export { RedisConnection, RedisUnavailableError, REDIS_RETRY_AFTER_SECONDS } from './redis-connection.js';
