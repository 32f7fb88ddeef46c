import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CryptoModule } from '../../common/crypto/index.js';
import { FormsModule } from '../forms/index.js';
import { GatewaysModule } from '../gateways/index.js';
import { MailModule } from '../mail/index.js';
import { CheckoutContextService } from './checkout-context.service.js';
import { PaymentCompletionEmails } from './payment-completion-emails.js';
import { PaymentEntity } from './payment.entity.js';
import { PaymentLogEntity } from './payment-log.entity.js';
import { PaymentLogRepository } from './payment-log.repository.js';
import { PaymentReferenceGuard } from './payment-reference.guard.js';
import { PaymentReferenceService } from './payment-reference.service.js';
import { PaymentTransactions } from './payment-transactions.js';
import { PaymentRepository } from './payment.repository.js';
import { PaymentHistoryController, PaymentsController } from './payments.controller.js';
import { PaymentsService } from './payments.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([PaymentEntity, PaymentLogEntity]), CryptoModule, FormsModule, GatewaysModule, MailModule],
  controllers: [PaymentsController, PaymentHistoryController],
  providers: [
    PaymentTransactions,
    PaymentRepository,
    PaymentLogRepository,
    CheckoutContextService,
    PaymentReferenceService,
    PaymentReferenceGuard,
    PaymentsService,
    PaymentCompletionEmails,
  ],
  exports: [PaymentsService, PaymentReferenceService, PaymentReferenceGuard, PaymentCompletionEmails],
})
export class PaymentsModule {}
