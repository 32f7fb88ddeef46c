export { MailModule } from './mail.module.js';
export { MailDeliveryError, MailService, type MailTransportKind, type SentEmail } from './mail.service.js';
export {
  buildPaymentEmails,
  buildRefundEmail,
  type RefundEmailFacts,
  fillSubject,
  samplePaymentFacts,
  type EmailBuildOptions,
  type EmailMessage,
  type PaymentEmailFacts,
} from './payment-email.builder.js';
export {
  buildReceiptEmail,
  buildRenewalEndedEmail,
  buildRenewalFailedEmail,
  type ReceiptEmailFacts,
  type RenewalEndedEmailFacts,
  type RenewalFailedEmailFacts,
} from './payer-notice-email.builder.js';
