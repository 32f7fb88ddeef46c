import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { FormsService } from '../forms/index.js';
import {
  type CheckoutGateway,
  GATEWAY_MODES,
  type GatewayDashboardFacts,
  type GatewayMode,
  type GatewayModeFacts,
  GatewayRegistry,
  GatewayStateService,
} from '../gateways/index.js';
import { PaymentQueriesService } from '../payments/index.js';
import { HostPluginsService, PAGE_BUILDER_PLUGIN } from '../plugin/index.js';
import { TemplatesService } from '../templates/index.js';
import type {
  DashboardDto,
  DashboardGatewayDto,
  DashboardGatewayModeDto,
  DashboardUpgradeDto,
  DismissNotificationResultDto,
  NotificationDto,
  QuickSetupSkipResultDto,
  TemplatesSummaryDto,
} from './dashboard.dto.js';
import { NotificationsService } from './notifications.service.js';
import { quickSetupProgress, type QuickSetupProgressFacts, quickSetupSteps, QuickSetupService } from './quick-setup.service.js';

interface GatewaySnapshot {
  id: CheckoutGateway;
  label: string;
  mode: GatewayMode;
  activeMethods: string[];
  facts: GatewayDashboardFacts;
}

/**
 * GET /administration/dashboard and its two writes. Every gateway fact comes from the gateway's
 * adapter (`dashboardFacts`) through the registry, every other fact from a module's public API;
 * this service only arranges them into the payload.
 */
@Injectable()
export class DashboardService {
  constructor(
    private readonly registry: GatewayRegistry,
    private readonly gatewayState: GatewayStateService,
    private readonly forms: FormsService,
    private readonly templates: TemplatesService,
    private readonly hostPlugins: HostPluginsService,
    private readonly quickSetup: QuickSetupService,
    private readonly notifications: NotificationsService,
    private readonly payments: PaymentQueriesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async dashboard(user: AuthenticatedUser): Promise<DashboardDto> {
    const gateways = await this.snapshot();
    const imported = await this.forms.countImported();
    const byId = new Map(gateways.map((gateway) => [gateway.id, gateway]));
    return {
      skipped_quick_setup: (await this.quickSetup.isSkipped()) ? 1 : 0,
      quick_setup_steps: quickSetupSteps({
        connected: (gateway, mode) => byId.get(gateway)?.facts.modes[mode].connected ?? false,
        anyGatewayConnected: gateways.some((gateway) => GATEWAY_MODES.some((mode) => gateway.facts.modes[mode].connected)),
        importedForms: imported.total,
      }),
      quick_setup_progress: quickSetupProgress(await this.progressFacts(gateways)),
      payment_gateways: Object.fromEntries(gateways.map((gateway) => [gateway.id, toGatewayEntry(gateway)])),
      plan: this.config.plan,
      upgrades: gateways.flatMap((gateway) => (gateway.facts.upgrade ? [toUpgrade(gateway.id, gateway.facts.upgrade)] : [])),
      notifications: await this.notifications.visibleTo(user.id, await this.currentNotifications(gateways)),
      templates: await this.templatesSummary(imported),
    };
  }

  async dismissNotification(user: AuthenticatedUser, id: string): Promise<DismissNotificationResultDto> {
    return this.notifications.dismiss(user.id, id, await this.currentNotifications(await this.snapshot()));
  }

  async skipQuickSetup(user: AuthenticatedUser): Promise<QuickSetupSkipResultDto> {
    await this.quickSetup.skip(user);
    return { success: true, message: 'Quick setup skipped.', skipped_quick_setup: 1 };
  }

  private async snapshot(): Promise<GatewaySnapshot[]> {
    const snapshots: GatewaySnapshot[] = [];
    for (const adapter of this.registry.all()) {
      const mode = await this.gatewayState.getMode(adapter.id);
      snapshots.push({
        id: adapter.id,
        label: adapter.label,
        mode,
        activeMethods: await this.gatewayState.getActiveMethods(adapter.id),
        facts: await adapter.dashboardFacts(mode),
      });
    }
    return snapshots;
  }

  private async progressFacts(gateways: GatewaySnapshot[]): Promise<QuickSetupProgressFacts> {
    const newestOf = async (status?: 'publish') => (await this.forms.list({ page: 1, perPage: 1, status })).items[0]?.id ?? null;
    const [payment] = await this.payments.adminNewest({ status: 'completed', mode: 'test' }, 1);
    return {
      testReady: gateways
        .filter((gateway) => gateway.facts.modes.test.connected && gateway.facts.modes.test.contract?.state !== 'paused')
        .map((gateway) => ({ gateway: gateway.id, mode: gateway.mode })),
      newestFormId: await newestOf(),
      newestPublishedFormId: await newestOf('publish'),
      newestCompletedTestPaymentId: payment?.id ?? null,
    };
  }

  private async currentNotifications(gateways: GatewaySnapshot[]): Promise<NotificationDto[]> {
    const notices = gateways.flatMap((gateway) => gateway.facts.notices.map((notice) => ({ ...notice, source: gateway.id })));
    return this.notifications.toNotifications([...notices, ...(await this.notifications.serviceNotices())]);
  }

  private async templatesSummary(imported: { total: number; fromFormTemplates: number; fromLayouts: number }): Promise<TemplatesSummaryDto> {
    const pageBuilder = await this.hostPlugins.state(PAGE_BUILDER_PLUGIN.slug);
    return {
      form_templates: this.templates.formTemplates().length,
      layouts: this.templates.layoutsFor(this.config.plan).length,
      imported_forms: imported.total,
      imported_from_form_templates: imported.fromFormTemplates,
      imported_from_layouts: imported.fromLayouts,
      page_builder: { installed: pageBuilder.installed, active: pageBuilder.active },
    };
  }
}

function toGatewayEntry(gateway: GatewaySnapshot): DashboardGatewayDto {
  const current = gateway.facts.modes[gateway.mode];
  return {
    label: gateway.label,
    mode: gateway.mode,
    is_connected: current.connected ? 1 : 0,
    is_live: gateway.mode === 'live' ? 1 : 0,
    active_payment_methods: gateway.activeMethods,
    checkout_paused: current.contract ? current.contract.state === 'paused' : null,
    modes: { test: toModeEntry(gateway.facts.modes.test), live: toModeEntry(gateway.facts.modes.live) },
  };
}

function toModeEntry(facts: GatewayModeFacts): DashboardGatewayModeDto {
  return {
    is_connected: facts.connected ? 1 : 0,
    test_keys: facts.testKeys,
    webhook_configured: facts.webhookConfigured,
    webhook_contract: facts.contract
      ? {
          state: facts.contract.state,
          status: facts.contract.status,
          management: facts.contract.management,
          last_error: facts.contract.lastError,
          verified_at: facts.contract.verifiedAt,
        }
      : null,
  };
}

function toUpgrade(gateway: CheckoutGateway, upgrade: NonNullable<GatewayDashboardFacts['upgrade']>): DashboardUpgradeDto {
  return {
    gateway,
    task: upgrade.task,
    release: upgrade.release,
    status: upgrade.status,
    attempts: upgrade.attempts,
    max_attempts: upgrade.maxAttempts,
    next_attempt_at: upgrade.nextAttemptAt,
    last_error: upgrade.lastError,
    modes: { ...upgrade.modes },
    scheduled_at: upgrade.scheduledAt,
    finished_at: upgrade.finishedAt,
  };
}
