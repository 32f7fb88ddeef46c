import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { PublicRoute } from '../../common/auth/index.js';
import { NotLoggedInError } from '../../common/errors/index.js';
import { Metrics } from '../../common/metrics/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';

/**
 * `GET /metrics`, beside `/healthz` outside the REST namespace (docs/decisions.md §1): the
 * Prometheus text format. Open unless `METRICS_TOKEN` is set; then only with
 * `Authorization: Bearer <token>` (compared in constant time), 401 otherwise. Declared public
 * because its guard is its own: the admin credentials of the API are not what a scraper holds.
 */
@ApiTags('Operations')
@Controller()
export class MetricsController {
  private readonly tokenDigest: Buffer | null;

  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.tokenDigest = config.metricsToken ? digest(config.metricsToken) : null;
  }

  @Get('metrics')
  @PublicRoute()
  @ApiProduces('text/plain')
  @ApiSecurity('metrics_token')
  @ApiResponse({ status: 200, description: 'Prometheus text exposition format 0.0.4 (docs/operations.md lists the families)', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiErrorResponses(401)
  @ApiOperation({
    operationId: 'operationsMetrics',
    summary: 'Prometheus metrics: HTTP latency per route template, payments per status, webhook outcomes, provider calls, outbox backlog, process',
    description: 'Open unless METRICS_TOKEN is set; then it needs `Authorization: Bearer <METRICS_TOKEN>` and answers 401 `rest_not_logged_in` without it.',
  })
  async scrape(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (this.tokenDigest && !this.authorised(req.headers.authorization)) throw new NotLoggedInError();
    const { contentType, body } = await this.metrics.exposition();
    res.status(200).setHeader('Content-Type', contentType);
    res.end(body);
  }

  private authorised(header: string | undefined): boolean {
    const match = /^Bearer ([\x21-\x7e]+)$/.exec(header ?? '');
    // Digests of equal length: the comparison's time tells nothing about the token, not even its length.
    return match !== null && timingSafeEqual(digest(match[1]), this.tokenDigest as Buffer);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
