import { type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { FormsService, type Frequency } from '../forms/index.js';
import { MailService } from '../mail/index.js';
import { PaymentLogRepository } from './payment-log.repository.js';
import type { PaymentRecord } from './payment-record.js';

/**
 * Sends the form's owner notification and payer confirmation when a payment first becomes
 * completed (the same builder the test-email route uses). Sending never delays or fails the
 * caller (a webhook or the checkout route): it runs after the transition has committed, and a
 * failure is written to the payment log. At most once per payment: only the move that actually
 * completes the record triggers it. Form-less records (admin charges) send nothing.
 */
@Injectable()
export class PaymentCompletionEmails implements BeforeApplicationShutdown {
  private readonly logger = new Logger(PaymentCompletionEmails.name);
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly forms: FormsService,
    private readonly mail: MailService,
    private readonly logs: PaymentLogRepository,
  ) {}

  /** Starts sending in the background; `settled()` waits for everything started so far. */
  notify(payment: PaymentRecord): void {
    if (payment.form_id === null || !payment.email_address) return;
    const sending = this.send(payment).finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }

  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /** Shutdown waits for emails already under way, before the database pool closes (their log lines need it). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  private async send(payment: PaymentRecord): Promise<void> {
    try {
      const form = await this.forms.findById(payment.form_id!);
      if (!form) return;
      const plan = payment.plan_index === null ? undefined : form.settings.plans[payment.plan_index];
      const sent = await this.mail.sendPaymentEmails(form, {
        payment_id: payment.id,
        amount: payment.amount,
        currency: payment.currency,
        frequency: payment.frequency as Frequency,
        plan_title: plan?.title ?? null,
        gateway: payment.gateway,
        payment_method: payment.payment_method,
        mode: payment.mode,
        email_address: payment.email_address!,
        first_name: payment.first_name,
        last_name: payment.last_name,
        custom_fields: payment.custom_fields,
        completed_at: payment.updated_at,
      });
      await this.logs.record({
        paymentId: payment.id,
        level: 'info',
        event: 'emails_sent',
        message: `Payment emails sent: ${sent.map((email) => email.kind).join(', ')}.`,
        context: { kinds: sent.map((email) => email.kind) },
      });
    } catch (error) {
      this.logger.warn({ payment_id: payment.id, err: error instanceof Error ? error.message : String(error) }, 'payment emails not sent');
      await this.logs
        .record({ paymentId: payment.id, level: 'warning', event: 'emails_failed', message: 'The payment emails could not be sent.', context: {} })
        .catch(() => undefined);
    }
  }
}
