import { Injectable, Logger } from '@nestjs/common';
import type { PaymentRecord } from '../../payments/index.js';
import { type GatewayACard, parsePaymentIntent } from '../client/gateway-a-answers.js';
import { GatewayAClientFactory } from '../client/gateway-a-client.factory.js';

/**
 * The card that paid a payment, read from the charge of the PaymentIntent that took its money
 * (`paymentIntents.retrieve` with `expand: ['latest_charge']`, its `payment_method_details.card`):
 * for the webhook paths, whose events carry the charge only by id. Called only once the event is
 * tied to the record (the record holds the intent, or the subscription whose invoice it paid), so
 * the card is a fact of a payment this installation created. Best effort: the brand and last four
 * digits are words for the payment log, so a failed read is logged and the payment completes
 * without them.
 */
@Injectable()
export class GatewayACards {
  private readonly logger = new Logger('GatewayACards');

  constructor(private readonly clients: GatewayAClientFactory) {}

  async ofIntent(payment: PaymentRecord, intentId: string): Promise<GatewayACard | null> {
    try {
      const account = await this.clients.forMode(payment.mode, { maxNetworkRetries: 1 });
      const intent = parsePaymentIntent(await account.client.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] }), 'paymentIntents.retrieve', { id: intentId });
      return intent.status === 'succeeded' ? intent.card : null;
    } catch (error) {
      this.logger.warn({ payment_id: payment.id, intent: intentId, error: error instanceof Error ? error.message : 'unknown' }, "gateway A: the card of the payment's charge could not be read");
      return null;
    }
  }
}
