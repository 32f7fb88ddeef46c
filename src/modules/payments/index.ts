export { PaymentsModule } from './payments.module.js';
export {
  InvalidPaymentStateError,
  PaymentsService,
  type RenewalFacts,
  type RenewalResult,
  type TransitionOptions,
  type TransitionOutcome,
  type TransitionResult,
} from './payments.service.js';
export { InvalidPaymentReferenceError, PaymentReferenceService, type VerifyOptions } from './payment-reference.service.js';
export { ForGateway, PaymentReferenceGuard, VerifiedPayment } from './payment-reference.guard.js';
export { CheckoutChoiceDto, MAX_INT } from './checkout-choice.dto.js';
export { PaymentReferenceDto } from './payment-reference.dto.js';
export type { PaymentPatch, PaymentRecord } from './payment-record.js';
export type { PaymentLogEntry, PaymentLogLevel } from './payment-log.repository.js';
export {
  canMove,
  decideTransition,
  isPaymentStatus,
  isTerminal,
  PAYMENT_STATUSES,
  TERMINAL_STATUSES,
  type PaymentStatus,
  type TransitionDecision,
} from './payment-status.js';
export { PaymentCompletionEmails } from './payment-completion-emails.js';
