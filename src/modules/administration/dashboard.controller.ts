import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, Capability, type AuthenticatedUser, CurrentUser } from '../../common/auth/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { DASHBOARD_EXAMPLE, DashboardDto, DismissNotificationDto, DismissNotificationResultDto, QuickSetupSkipResultDto, SetQuickSetupSkipDto } from './dashboard.dto.js';
import { DashboardService } from './dashboard.service.js';

@ApiTags('Settings')
@Controller('administration')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get('dashboard')
  @AdminRoute(Capability.viewDashboard)
  @ApiOkResponse({ type: DashboardDto, example: DASHBOARD_EXAMPLE })
  @ApiOperation({
    operationId: 'administrationGetDashboard',
    summary: 'Dashboard: quick-setup steps, gateways with their modes and webhook contracts, plan, upgrade tasks, notifications, templates',
    description:
      'Every fact is computed from the current state. `quick_setup_steps` are the interface\'s four steps; `quick_setup_progress` is the console\'s quick setup up to a completed test payment ' +
      '(`connect_test_mode`, `create_form`, `publish_form`, `make_test_payment`), each `done` only while its fact holds. `notifications` leaves out what the caller dismissed for the same fingerprint. ' +
      'Notification ids: `gateway_a.checkout_paused.{mode}`, `gateway_a.live_mode_test_keys`, `gateway_a.webhook_upgrade.pending`, ' +
      '`gateway_a.webhook_upgrade.failed`, `gateway_b.webhook_id_missing.{mode}`, `mail.outbox`, `outbox.failed`, `payments.dispute.{payment id}` (an open dispute; `link` is the provider\'s page for it) (docs/administration.md).',
  })
  get(@CurrentUser() user: AuthenticatedUser): Promise<DashboardDto> {
    return this.dashboard.dashboard(user);
  }

  @Post('dismiss-notification')
  @ApiBody({ type: DismissNotificationDto, examples: { outbox: { summary: 'The notification about emails written to the outbox folder', value: { id: 'mail.outbox' } } } })
  @HttpCode(200)
  @AdminRoute(Capability.viewDashboard)
  @ApiErrorResponses(400, 404)
  @ApiOkResponse({ type: DismissNotificationResultDto })
  @ApiOperation({
    operationId: 'administrationDismissNotification',
    summary: 'Dismiss a notification for the current user; it shows again when its condition changes (a new fingerprint)',
    description: 'Only a notification the dashboard currently raises can be dismissed: any other id is 404 `checkout_not_found`. Dismissing again is harmless.',
  })
  dismiss(@CurrentUser() user: AuthenticatedUser, @Body() body: DismissNotificationDto): Promise<DismissNotificationResultDto> {
    return this.dashboard.dismissNotification(user, body.id);
  }

  @Post('set-quick-setup-skip')
  @ApiBody({ type: SetQuickSetupSkipDto, examples: { empty: { summary: 'No fields', value: {} } } })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400)
  @ApiOkResponse({ type: QuickSetupSkipResultDto })
  @ApiOperation({
    operationId: 'administrationSetQuickSetupSkip', description: 'Hides the quick-setup guide for every admin of the site. Calling it again changes nothing; the dashboard then answers `skipped_quick_setup: 1`.',
    summary: 'Mark quick setup as skipped for the site (every user; idempotent); the dashboard answers skipped_quick_setup: 1',
  })
  // The body is validated (an empty class: every field is refused) and otherwise unused.
  skipQuickSetup(@CurrentUser() user: AuthenticatedUser, @Body() _body: SetQuickSetupSkipDto): Promise<QuickSetupSkipResultDto> {
    return this.dashboard.skipQuickSetup(user);
  }
}
