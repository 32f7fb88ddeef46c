import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { RouteInventory } from './common/auth/index.js';
import { CryptoModule } from './common/crypto/index.js';
import { WpErrorFilter } from './common/errors/index.js';
import { RequestLoggingModule } from './common/logging/index.js';
import { RateLimitGuard, RateLimitModule } from './common/rate-limit/index.js';
import { MetricsModule } from './common/metrics/index.js';
import { RedisModule } from './common/redis/index.js';
import { ShutdownModule } from './common/shutdown/index.js';
import { createValidationPipe } from './common/validation/index.js';
import { ConfigModule } from './config/index.js';
import { DatabaseModule } from './database/index.js';
import { AdminConsoleModule } from './modules/admin-console/index.js';
import { AdministrationModule } from './modules/administration/index.js';
import { FormsModule } from './modules/forms/index.js';
import { GatewayAModule } from './modules/gateway-a/index.js';
import { GatewayBModule } from './modules/gateway-b/index.js';
import { GatewaysModule } from './modules/gateways/index.js';
import { HealthModule } from './modules/health/index.js';
import { OperatorMetricsModule } from './modules/metrics/index.js';
import { HostedPageModule } from './modules/hosted-page/index.js';
import { IdempotencyGuard, IdempotencyModule } from './modules/idempotency/index.js';
import { MailModule } from './modules/mail/index.js';
import { OperationsModule } from './modules/operations/index.js';
import { AuthorizationGuard, IdentityModule, TeamModule } from './modules/identity/index.js';
import { PayerLinksModule } from './modules/payer-links/index.js';
import { PayerManageModule } from './modules/payer-manage/index.js';
import { PaymentReferenceGuard, PaymentsModule } from './modules/payments/index.js';
import { PluginModule } from './modules/plugin/index.js';
import { OutgoingWebhooksModule } from './modules/outgoing-webhooks/index.js';
import { SettingsModule } from './modules/settings/index.js';
import { TaggingModule } from './modules/tagging/index.js';
import { TemplatesModule } from './modules/templates/index.js';
import { SignedWebhookGuard, WebhooksModule } from './modules/webhooks/index.js';

@Module({
  imports: [
    // First: its routes (/healthz, /readyz) are registered first, so Express's router matches them
    // without walking every API route before them (route paths do not overlap, so order is free).
    HealthModule,
    OperatorMetricsModule,
    ConfigModule,
    RequestLoggingModule,
    MetricsModule,
    ShutdownModule,
    DiscoveryModule,
    CryptoModule,
    RedisModule,
    RateLimitModule,
    DatabaseModule,
    IdempotencyModule,
    IdentityModule,
    TeamModule,
    SettingsModule,
    PayerLinksModule,
    PluginModule,
    TaggingModule,
    OutgoingWebhooksModule,
    FormsModule,
    TemplatesModule,
    MailModule,
    AdministrationModule,
    GatewaysModule,
    PaymentsModule,
    WebhooksModule,
    GatewayAModule,
    GatewayBModule,
    OperationsModule,
    // Before HostedPageModule: /pay/manage must not be taken for a form id by /pay/:form_id.
    PayerManageModule,
    HostedPageModule,
    AdminConsoleModule,
  ],
  providers: [
    RouteInventory,
    // Before the rate limiter: a repeat of a finished creation is not counted as a creation.
    { provide: APP_GUARD, useExisting: IdempotencyGuard },
    { provide: APP_GUARD, useExisting: RateLimitGuard },
    { provide: APP_GUARD, useExisting: AuthorizationGuard },
    { provide: APP_GUARD, useExisting: PaymentReferenceGuard },
    { provide: APP_GUARD, useExisting: SignedWebhookGuard },
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_FILTER, useClass: WpErrorFilter },
  ],
})
export class AppModule {}
