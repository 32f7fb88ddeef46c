import { Global, Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RedisConnection } from './redis-connection.js';

/**
 * The raw ioredis client (null without REDIS_URL). Prefer RedisConnection.run: it fails fast and
 * maps an outage to 503; a command sent on the raw client while Redis is down rejects with an
 * ioredis error that would surface as a 500.
 */
export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/** One shared Redis connection when REDIS_URL is set: limits then hold across instances. */
@Global()
@Module({
  providers: [RedisConnection, { provide: REDIS_CLIENT, inject: [RedisConnection], useFactory: (connection: RedisConnection): Redis | null => connection.client }],
  exports: [RedisConnection, REDIS_CLIENT],
})
export class RedisModule {}
