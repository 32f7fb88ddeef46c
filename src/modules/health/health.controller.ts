import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PublicRoute } from '../../common/auth/index.js';
import { UnavailableError } from '../../common/errors/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';

class HealthDto {
  status: string;
}

/** Operational probes, served outside the REST namespace. */
@ApiTags('Operations')
@Controller()
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get('healthz')
  @PublicRoute()
  @ApiOperation({ operationId: 'operationsHealth', summary: 'Liveness: the process answers' })
  health(): HealthDto {
    return { status: 'ok' };
  }

  @Get('readyz')
  @PublicRoute()
  @ApiErrorResponses(503)
  @ApiOperation({ operationId: 'operationsReady', summary: 'Readiness: the database answers' })
  async ready(): Promise<HealthDto> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new UnavailableError('The database is not reachable.');
    }
    return { status: 'ok' };
  }
}
