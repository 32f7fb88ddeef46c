import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PublicRoute } from '../../common/auth/index.js';
import { UnavailableError } from '../../common/errors/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { RedisConnection } from '../../common/redis/index.js';

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
  ) {}

  @Get('healthz')
  @PublicRoute()
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
   * Ready when every dependency a request may need answers: the database, and Redis when REDIS_URL
   * is set (rate-limited routes and admin logins cannot be served without it). A 503 names the
   * unavailable dependencies in its message and in `data.unavailable`.
   */
  @Get('readyz')
  @PublicRoute()
  @ApiErrorResponses(503)
  @ApiOkResponse({ type: HealthDto, description: 'Ready to serve requests' })
  @ApiOperation({
    operationId: 'operationsReady',
    summary: 'Readiness: the database (and Redis, when configured) answer',
    description: 'A 503 names the dependencies that do not answer in `data.unavailable`; send no traffic until it answers 200.',
  })
  async ready(): Promise<HealthDto> {
    const [database, redis] = await Promise.all([this.databaseAnswers(), this.redis.configured ? this.redis.ping() : Promise.resolve(true)]);
    const unavailable = [...(database ? [] : ['database']), ...(redis ? [] : ['redis'])];
    if (unavailable.length > 0) {
      throw new UnavailableError(`Not ready: ${unavailable.join(' and ')} ${unavailable.length > 1 ? 'are' : 'is'} not reachable.`, undefined, { unavailable });
    }
    return { status: 'ok' };
  }

  private async databaseAnswers(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}
