export { PaymentsModule } from './payments.module.js';
export {
  InvalidPaymentStateError,
  PaymentLedgerService,
  type AdminChargeInput,
  type CurrentCheck,
  type RenewalFacts,
  type RenewalResult,
  type TransitionOptions,
  type TransitionOutcome,
  type TransitionResult,
} from './payment-ledger.service.js';
export { PaymentQueriesService, type PaymentExport } from './payment-queries.service.js';
export {
  AdminPaymentDetailDto,
  AdminPaymentDto,
  AdminPaymentsFilterDto,
  AdminPaymentsQueryDto,
  PAYMENT_LOG_TAIL,
  PAYMENT_SEARCH_MAX_LENGTH,
  PaymentLogEntryDto,
  PaymentProviderReferencesDto,
} from './admin-payments.dto.js';
export { InvalidPaymentReferenceError } from './payment-reference.service.js';
export { ForGateway, OpensCheckout, PaymentReferenceGuard, VerifiedPayment } from './payment-reference.guard.js';
export { CheckoutChoiceDto, MAX_INT } from './checkout-choice.dto.js';
export { PAYMENT_REFERENCE_EXAMPLE, PaymentReferenceDto } from './payment-reference.dto.js';
export { AdminChargeFieldsDto, IsDecimalAmount, PaymentResultDto } from './payment-process.dto.js';
export type { PaymentPatch, PaymentRecord } from './payment-record.js';
export type { FailureReason } from './payment.entity.js';
export type { PaymentLogEntry, PaymentLogLevel } from './payment-log.repository.js';
export { isTerminal, PAYMENT_STATUSES, type PaymentStatus } from './payment-status.js';
export { PaymentCompletionEmails } from './payment-completion-emails.js';
export { PaymentEvents, type PaymentEvent, type PaymentEventListener } from './payment-events.js';
