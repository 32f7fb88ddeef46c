import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConflictError, InvalidParamsError } from '../../../src/common/errors/index.js';
import { InvalidPaymentStateError, PaymentLedgerService, type PaymentRecord } from '../../../src/modules/payments/index.js';
import { InstallationService } from '../../../src/modules/settings/index.js';
import { GatewayXClient, type GatewayXCharge, GatewayXRefusedError } from '../gateway-x-client.js';
import type { GatewayXChargeResponseDto } from './gateway-x-checkout.dto.js';

const SOURCE = 'checkout:gateway_x';

/**
 * POST /gateway-x/charge: charges the payer's card token for the record's amount and currency
 * (one-time prices only). Refused before the provider call: a recurring price (400), a payment
 * that is not pending (409). The provider is called outside any transaction with an idempotency
 * key of installation, payment, amount, currency and token, and its charge must carry the
 * record's amount, currency, payment id and this installation's id (else 409, logged, nothing
 * stored). Then the charge is linked to the record only while the record is still pending with
 * the same amount, and the record moves to `processing`: gateway X settles every charge later,
 * and its signed `charge.succeeded` webhook completes the payment. A declined card fails it.
 */
@Injectable()
export class GatewayXChargesService {
  constructor(
    private readonly client: GatewayXClient,
    private readonly ledger: PaymentLedgerService,
    private readonly installation: InstallationService,
  ) {}

  async charge(payment: PaymentRecord, token: string): Promise<GatewayXChargeResponseDto> {
    if (payment.frequency !== 'one-time') throw new InvalidParamsError({ payment_id: 'gateway X takes one-time payments only; this payment has a recurring price' });
    if (payment.status !== 'pending') throw new InvalidPaymentStateError(`This payment is ${payment.status}; it cannot be charged.`);
    const installation = this.installation.id();
    const key = createHash('sha256').update(JSON.stringify([installation, payment.id, payment.amount, payment.currency, token])).digest('hex');
    let charge: GatewayXCharge;
    try {
      charge = await this.client.createCharge(payment.mode, { amount: payment.amount, currency: payment.currency, token, metadata: { payment_id: String(payment.id), installation } }, key);
    } catch (error) {
      if (error instanceof GatewayXRefusedError && error.httpStatus === 402) {
        const result = await this.ledger.transition(payment.id, 'failed', { source: SOURCE, reason: 'gateway-x/charge: declined', patch: { failureReason: { code: error.providerCode ?? 'declined', decline_code: null, message: null } } });
        return { payment_id: payment.id, status: result.payment.status, charge_id: null };
      }
      await this.ledger.log({ paymentId: payment.id, level: 'error', event: 'charge_failed', message: `Charging the gateway X card failed: ${error instanceof Error ? error.message : 'unknown'}`, context: { source: SOURCE } });
      throw error;
    }
    const differences = [
      ...(charge.amount !== payment.amount ? ['amount'] : []),
      ...(charge.currency !== payment.currency ? ['currency'] : []),
      ...(charge.metadata.payment_id !== String(payment.id) ? ['payment_id'] : []),
      ...(charge.metadata.installation !== installation ? ['installation'] : []),
    ];
    if (differences.length > 0) {
      await this.ledger.log({ paymentId: payment.id, level: 'error', event: 'contract_mismatch', message: `The gateway X charge disagrees with the payment: ${differences.join(', ')}.`, context: { source: SOURCE, charge_id: charge.id, fields: differences } });
      throw new ConflictError('checkout_contract_mismatch', `The gateway's charge does not match this payment (${differences.join(', ')}).`);
    }
    const { applied, payment: current } = await this.ledger.recordProviderDetailsIf(
      payment.id,
      { providerPaymentRef: charge.id },
      SOURCE,
      async (_manager, latest) =>
        latest.status === 'pending' &&
        latest.amount === payment.amount &&
        latest.currency === payment.currency &&
        (latest.provider_payment_ref === payment.provider_payment_ref || latest.provider_payment_ref === charge.id),
    );
    if (!applied) throw new InvalidPaymentStateError(`This payment changed (now ${current.status}) while it was being charged; read its status before paying again.`);
    const to = charge.status === 'succeeded' ? 'completed' : charge.status === 'failed' ? 'failed' : 'processing';
    const result = await this.ledger.transition(payment.id, to, {
      source: SOURCE,
      reason: `gateway-x/charge: charge ${charge.status}`,
      patch: to === 'completed' ? { amountReceived: charge.amount } : to === 'failed' && charge.failure ? { failureReason: { code: charge.failure.code, decline_code: null, message: charge.failure.message } } : {},
    });
    return { payment_id: payment.id, status: result.payment.status, charge_id: charge.id };
  }
}
