export { RedisModule, REDIS_CLIENT } from './redis.module.js';
