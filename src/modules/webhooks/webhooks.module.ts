import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockModule } from '../../common/clock/index.js';
import { CryptoModule } from '../../common/crypto/index.js';
import { PaymentsModule } from '../payments/index.js';
import { SettingsModule } from '../settings/index.js';
import { GenericEventSource } from './generic/generic-event-source.js';
import { GenericWebhookController } from './generic/generic-webhook.controller.js';
import { GenericWebhookSecret } from './generic/generic-webhook-secret.service.js';
import { GenericWebhookVerifier } from './generic/generic-webhook.verifier.js';
import { SignedWebhookGuard } from './signed-webhook.guard.js';
import { WebhookEventEntity } from './webhook-event.entity.js';
import { WebhookEventQueries } from './webhook-event-queries.service.js';
import { WebhookEventRepository } from './webhook-event.repository.js';
import { WebhookActionApplier } from './actions/webhook-action-applier.js';
import { WebhookIntakeService } from './webhook-intake.service.js';
import { WebhookVerifiers } from './webhook-verifiers.js';

/**
 * Gateway-neutral webhook handling: the event store (every provider event once), the intake
 * pipeline every provider callback uses, and the guard that enforces `@SignedWebhookRoute`
 * with the verifiers the gateway slices register; and section B's generic routes
 * (`/webhook/receive` signed with the site's generic secret, `/webhook/status`).
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEventEntity]), ClockModule, CryptoModule, DiscoveryModule, PaymentsModule, SettingsModule],
  controllers: [GenericWebhookController],
  providers: [WebhookEventRepository, WebhookEventQueries, WebhookActionApplier, WebhookIntakeService, WebhookVerifiers, SignedWebhookGuard, GenericWebhookSecret, GenericWebhookVerifier, GenericEventSource],
  exports: [WebhookEventQueries, WebhookIntakeService, WebhookVerifiers, SignedWebhookGuard],
})
export class WebhooksModule {}
