import { IdempotencyModule } from '../idempotency/index.js';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormsModule } from '../forms/index.js';
import { GatewaysModule } from '../gateways/index.js';
import { IdentityModule } from '../identity/index.js';
import { MailModule } from '../mail/index.js';
import { PaymentsModule } from '../payments/index.js';
import { OutboxModule } from '../outbox/index.js';
import { PluginModule } from '../plugin/index.js';
import { SettingsModule } from '../settings/index.js';
import { TemplatesModule } from '../templates/index.js';
import { WebhooksModule } from '../webhooks/index.js';
import { AdminPaymentsController } from './admin-payments.controller.js';
import { AdministrationTemplatesController } from './administration-templates.controller.js';
import { DashboardController } from './dashboard.controller.js';
import { DashboardMoneyController } from './dashboard-money.controller.js';
import { DashboardMoneyService } from './dashboard-money.service.js';
import { DashboardService } from './dashboard.service.js';
import { FormBuilderController } from './form-builder.controller.js';
import { FormBuilderService } from './form-builder.service.js';
import { NotificationDismissalEntity } from './notification-dismissal.entity.js';
import { NotificationsService } from './notifications.service.js';
import { QuickSetupService } from './quick-setup.service.js';
import { SubscriptionCancelService } from './subscription-cancel.service.js';
import { TemplateCatalogService } from './template-catalog.service.js';
import { WebhookEventsController } from './webhook-events.controller.js';

/**
 * Admin UI areas: the dashboard (quick setup, gateway state, notifications and their per-user
 * dismissals), template catalog and import, the form builder's data, live preview and test email,
 * the list of received provider events, and the payments screens (list, one payment, CSV export).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([NotificationDismissalEntity]),
    FormsModule,
    TemplatesModule,
    PluginModule,
    GatewaysModule,
    MailModule,
    OutboxModule,
    IdentityModule,
    SettingsModule,
    IdempotencyModule,
    WebhooksModule,
    PaymentsModule,
  ],
  controllers: [DashboardController, DashboardMoneyController, AdministrationTemplatesController, FormBuilderController, WebhookEventsController, AdminPaymentsController],
  providers: [DashboardService, DashboardMoneyService, NotificationsService, QuickSetupService, TemplateCatalogService, FormBuilderService, SubscriptionCancelService],
})
export class AdministrationModule {}
