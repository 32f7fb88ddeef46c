export { MailModule } from './mail.module.js';
export { MailDeliveryError, MailService, type MailTransportKind, type SentEmail } from './mail.service.js';
export {
  buildPaymentEmails,
  fillSubject,
  samplePaymentFacts,
  type EmailBuildOptions,
  type EmailMessage,
  type PaymentEmailFacts,
} from './payment-email.builder.js';
// hosted-page/ still imports escapeHtml from here: branch i28-driver moves that import to common/html and drops this line.
export { escapeHtml } from '../../common/html/index.js';
