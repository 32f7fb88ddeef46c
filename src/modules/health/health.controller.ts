import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { PublicRoute } from '../../common/auth/index.js';
import { UnavailableError } from '../../common/errors/index.js';
import { logAsRoutine } from '../../common/logging/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { databaseReadiness } from '../../database/index.js';
import { RedisConnection } from '../../common/redis/index.js';
import { ShutdownState } from '../../common/shutdown/index.js';

class HealthDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status: 'ok';
}

/** Operational probes, served outside the REST namespace. */
@ApiTags('Operations')
@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: RedisConnection,
    private readonly shutdown: ShutdownState,
  ) {}

  @Get('healthz')
  @PublicRoute()
  // Like every route: a query naming `__proto__`, `constructor` or `prototype` (common/http body parsers).
  @ApiErrorResponses(400)
  @ApiOkResponse({ type: HealthDto, description: 'The process is up' })
  @ApiOperation({
    operationId: 'operationsHealth',
    summary: 'Liveness: the process answers',
    description: 'Touches no dependency: a failing answer means the process should be restarted.',
  })
  health(): HealthDto {
    return { status: 'ok' };
  }

  /**
   * Ready when every dependency a request may need answers: the database (on a Galera node: the
   * node is Synced and ready, read from its status variables, never by a causal read), and Redis when REDIS_URL
   * is set (rate-limited routes and admin logins cannot be served without it). A 503 names the
   * unavailable dependencies in its message and in `data.unavailable`. From the shutdown signal on
   * it is 503 (`data.shutting_down`) without asking anything: the balancer stops sending while the
   * requests in flight finish (GracefulShutdown). Liveness (/healthz) stays 200 meanwhile.
   */
  @Get('readyz')
  @PublicRoute()
  @ApiErrorResponses(400, 503)
  @ApiOkResponse({ type: HealthDto, description: 'Ready to serve requests' })
  @ApiOperation({
    operationId: 'operationsReady',
    summary: 'Readiness: the database (and Redis, when configured) answer',
    description:
      'A 503 names the dependencies that do not answer in `data.unavailable`; send no traffic until it answers 200. ' +
      'From SIGTERM on it answers 503 with `data.shutting_down: true` while the instance drains its requests in flight.',
  })
  async ready(@Res({ passthrough: true }) response: Response): Promise<HealthDto> {
    if (this.shutdown.shuttingDown) {
      logAsRoutine(response); // the balancer asks every few seconds: not an error line each time
      throw new UnavailableError('Not ready: shutting down.', undefined, { shutting_down: true });
    }
    const [database, redis] = await Promise.all([databaseReadiness(this.dataSource), this.redis.configured ? this.redis.ping() : Promise.resolve(true)]);
    const unavailable = [...(database.ready ? [] : ['database']), ...(redis ? [] : ['redis'])];
    if (unavailable.length > 0) {
      const detail = database.reason ? ` (${database.reason})` : '';
      throw new UnavailableError(`Not ready: ${unavailable.join(' and ')} ${unavailable.length > 1 ? 'are' : 'is'} not reachable${detail}.`, undefined, { unavailable });
    }
    return { status: 'ok' };
  }
}
