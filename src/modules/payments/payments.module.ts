import { PaymentEvents } from './payment-events.js';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockModule } from '../../common/clock/index.js';
import { CryptoModule } from '../../common/crypto/index.js';
import { FormsModule } from '../forms/index.js';
import { GatewaysModule } from '../gateways/index.js';
import { IdempotencyModule } from '../idempotency/index.js';
import { MailModule } from '../mail/index.js';
import { OutboxModule } from '../outbox/index.js';
import { PayerLinksModule } from '../payer-links/index.js';
import { SettingsModule } from '../settings/index.js';
import { CheckoutContextService } from './checkout-context.service.js';
import { PaymentAftermathService } from './payment-aftermath.service.js';
import { PaymentCompletionEmails } from './payment-completion-emails.js';
import { PaymentDisputeEntity } from './payment-dispute.entity.js';
import { PaymentEntity } from './payment.entity.js';
import { PaymentLedgerService } from './payment-ledger.service.js';
import { PaymentLogEntity } from './payment-log.entity.js';
import { PaymentSearchIndex } from './payment-search-index.js';
import { PaymentLogRepository } from './payment-log.repository.js';
import { PaymentProcessController } from './payment-process.controller.js';
import { PaymentQueriesService } from './payment-queries.service.js';
import { PaymentReferenceGuard } from './payment-reference.guard.js';
import { PaymentReferenceService } from './payment-reference.service.js';
import { PaymentTransactions } from './payment-transactions.js';
import { PaymentRepository } from './payment.repository.js';
import { RefundEmails } from './refunds/refund-emails.js';
import { RefundEntity } from './refunds/refund.entity.js';
import { RefundRepository } from './refunds/refund.repository.js';
import { RefundsService } from './refunds/refunds.service.js';
import { ReceiptEmails } from './receipt-emails.js';
import { RenewalNotices } from './renewal-notices.js';
import { PaymentHistoryController, PaymentsController } from './payments.controller.js';
import { SyncDetailsService } from './sync-details.service.js';

/**
 * Payment records and their log: the public sync-details and status routes, the payment-reference
 * guard, the ledger (the one writer of statuses and provider facts), reads, and section B's
 * payment routes. Gateways reach it through PaymentLedgerService and PaymentQueriesService.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([PaymentEntity, PaymentLogEntity, RefundEntity, PaymentDisputeEntity]),
    ClockModule,
    CryptoModule,
    FormsModule,
    GatewaysModule,
    IdempotencyModule,
    MailModule,
    OutboxModule,
    PayerLinksModule,
    SettingsModule,
  ],
  controllers: [PaymentsController, PaymentHistoryController, PaymentProcessController],
  providers: [
    PaymentEvents,
    PaymentTransactions,
    PaymentRepository,
    PaymentLogRepository,
    CheckoutContextService,
    PaymentReferenceService,
    PaymentReferenceGuard,
    PaymentLedgerService,
    PaymentQueriesService,
    SyncDetailsService,
    PaymentCompletionEmails,
    PaymentAftermathService,
    RefundRepository,
    RefundsService,
    RefundEmails,
    RenewalNotices,
    ReceiptEmails,
    PaymentSearchIndex,
  ],
  exports: [PaymentEvents, PaymentLedgerService, PaymentQueriesService, PaymentReferenceGuard, PaymentCompletionEmails, RefundsService, PaymentAftermathService, RenewalNotices, ReceiptEmails, PaymentSearchIndex],
})
export class PaymentsModule {}
