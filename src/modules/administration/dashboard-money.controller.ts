import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, Capability } from '../../common/auth/index.js';
import { DASHBOARD_MONEY_DAYS, DASHBOARD_MONEY_EXAMPLE, DashboardMoneyDto } from './dashboard-money.dto.js';
import { DashboardMoneyService } from './dashboard-money.service.js';

/**
 * The dashboard's money, beside the interface's dashboard payload: a route of its own, because the
 * dashboard payload is read again by other screens after every gateway change, and these sums are
 * the only dashboard reads that grow with the payments table.
 */
@ApiTags('Settings')
@Controller('administration')
export class DashboardMoneyController {
  constructor(private readonly money: DashboardMoneyService) {}

  @Get('dashboard/money')
  @AdminRoute(Capability.viewDashboard)
  @ApiOkResponse({ type: DashboardMoneyDto, example: DASHBOARD_MONEY_EXAMPLE })
  @ApiOperation({
    operationId: 'administrationGetDashboardMoney',
    summary: `Dashboard money: gross, refunded and net per mode and currency over the last ${DASHBOARD_MONEY_DAYS} days (UTC), per day, and the latest completed and failed payments`,
    description:
      'An addition to the interface for the admin console. The period is today (UTC) and the days before it, from midnight UTC. ' +
      'Each figure is what GET /administration/payments/totals answers with `created_from` = `from`, `created_before` = `before` and the group\'s ' +
      '`mode` and `currency`; `net` is the CSV export\'s (received − succeeded refunds − the application fee kept − lost disputes), summed over the payments that received money.',
  })
  get(): Promise<DashboardMoneyDto> {
    return this.money.money();
  }
}
