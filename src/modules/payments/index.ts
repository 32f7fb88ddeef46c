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
export { PaymentSearchIndex } from './payment-search-index.js';
export { PaymentQueriesService, type PaymentExport, type PaymentExportRow, type UserNames } from './payment-queries.service.js';
export {
  AdminPaymentDetailDto,
  AdminPaymentDto,
  AdminPaymentsFilterDto,
  AdminPaymentsQueryDto,
  DailyPaymentTotalsDto,
  PAYMENT_LOG_TAIL,
  PAYMENT_SEARCH_MAX_LENGTH,
  PaymentLogEntryDto,
  PaymentFailureReasonDto,
  PaymentProviderReferencesDto,
  PAYMENT_RENEWALS_TAIL,
  PaymentTotalsAnswerDto,
  PaymentTotalsDto,
  RefundResultDto,
} from './admin-payments.dto.js';
export { CreateRefundDto, PaymentDisputeDto, RefundDto, toRefundDto } from './refunds/refund.dto.js';
export { RefundsService, type RefundActor, type RefundInput, type RefundOutcome } from './refunds/refunds.service.js';
export { REFUND_EMAILS_TOPIC } from './refunds/refund-emails.js';
export { InvalidPaymentReferenceError } from './payment-reference.service.js';
export { ForGateway, OpensCheckout, PaymentReferenceGuard, VerifiedPayment } from './payment-reference.guard.js';
export { CheckoutChoiceDto, MAX_INT } from './checkout-choice.dto.js';
export { PAYMENT_REFERENCE_EXAMPLE, PaymentReferenceDto } from './payment-reference.dto.js';
export { AdminChargeFieldsDto, IsDecimalAmount, PaymentResultDto } from './payment-process.dto.js';
export type { PaymentPatch, PaymentRecord } from './payment-record.js';
export type { FailureReason, PaymentDispute } from './payment.entity.js';
export { REFUND_NOTE_MAX, REFUND_REASONS, REFUND_SOURCES, REFUND_STATUSES, type RefundReason, type RefundSource, type RefundStatus } from './refunds/refund.entity.js';
export type { PaymentLogEntry, PaymentLogLevel } from './payment-log.repository.js';
export type { PaymentSweepCursor } from './payment.repository.js';
export { isTerminal, PAYMENT_STATUSES, type PaymentStatus } from './payment-status.js';
export { PaymentCompletionEmails } from './payment-completion-emails.js';
export { PaymentAftermathService, type AftermathChange, type PaymentDisputeView } from './payment-aftermath.service.js';
export { applicationFeeKept, isOpenDispute, lostDisputeAmount, netAmount, shownDispute } from './provider-aftermath.js';
export { PaymentEvents, type PaymentEvent, type PaymentEventListener } from './payment-events.js';
export { RENEWAL_NOTICES_TOPIC, RenewalNotices, sendsRenewalEmails, type RenewalAttempt, type UnpaidRenewal } from './renewal-notices.js';
export { RECEIPT_EMAILS_TOPIC, RECEIPT_RESEND_WINDOW_MS, ReceiptEmails, ReceiptResendAnswerDto } from './receipt-emails.js';
