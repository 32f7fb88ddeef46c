import { Controller, Get } from '@nestjs/common';

/** The one route of the Nest baselines: `GET /healthz` answering the service's JSON. */
@Controller()
export class HealthController {
  @Get('healthz')
  health(): { status: string } {
    return { status: 'ok' };
  }
}
