import { Injectable } from '@nestjs/common';
import { InvalidPaymentStateError, PaymentLedgerService, type PaymentPatch, type PaymentRecord } from '../../payments/index.js';
import { GatewayBClientFactory } from '../client/gateway-b-client.factory.js';
import type { GatewayBClient } from '../client/gateway-b-client.js';
import { GatewayBRefusedError } from '../client/gateway-b-errors.js';
import { GatewayBFailures } from '../client/gateway-b-failures.js';
import { fromGatewayBAmount } from '../client/gateway-b-money.js';
import { GatewayBScope } from '../client/gateway-b-scope.js';
import { firstCapture, type GatewayBOrder } from '../client/gateway-b-wire.js';
import type { GatewayBCaptureResponseDto } from './gateway-b-checkout.dto.js';
import { ContractMismatchError, GatewayBOrdersService } from './gateway-b-orders.service.js';
import { captureDifferences, captureOutcome } from './order-contract.js';

const SOURCE = 'checkout:gateway_b';

/**
 * POST /gateway-b/order/capture (decisions §9). Before any call: the order must be the one the
 * record holds (409 `checkout_contract_mismatch`), and a completed record answers at once. Then the
 * order is captured with a `PayPal-Request-Id` of installation, payment and order (a repeat answers
 * the first capture), or re-read when the record already holds a capture (a pending one) or PayPal
 * says it is captured already. The captured order must be the record's, with one capture in the
 * record's amount and currency carrying `custom_id` = payment id and this installation's
 * `invoice_id`; otherwise 409 `checkout_contract_mismatch`, logged, record unchanged. Then the
 * capture's status moves the record: COMPLETED → completed (amount received, capture id),
 * PENDING → processing (PayPal holds the funds; its `PAYMENT.CAPTURE.COMPLETED` completes it),
 * DECLINED/FAILED → failed (the payer may retry with a new order).
 */
@Injectable()
export class GatewayBCaptureService {
  constructor(
    private readonly clients: GatewayBClientFactory,
    private readonly orders: GatewayBOrdersService,
    private readonly ledger: PaymentLedgerService,
    private readonly failures: GatewayBFailures,
    private readonly scope: GatewayBScope,
  ) {}

  async capture(payment: PaymentRecord, orderId: string): Promise<GatewayBCaptureResponseDto> {
    const held = payment.provider_payment_ref;
    if (!held) throw new InvalidPaymentStateError('This payment has no gateway B order yet; create one with gateway-b/order.');
    if (orderId !== held) await this.mismatch(payment, ['order_id'], { order_id: orderId });
    if (payment.status === 'completed') return answer(payment, held, payment.provider_capture_ref);
    if (payment.status === 'canceled') throw new InvalidPaymentStateError('This payment is canceled; its order cannot be captured.');

    const client = await this.clients.forMode(payment.mode);
    let order: GatewayBOrder;
    try {
      order = payment.provider_capture_ref ? await client.getOrder(held) : await this.captureOrder(client, payment, held);
    } catch (error) {
      throw await this.failures.record(payment.id, error, { event: 'capture_failed', what: 'Capturing the gateway B order', source: SOURCE, context: { order_id: held } });
    }
    return this.settle(payment, held, order);
  }

  /** Captures (once per payment and order); an order captured before is read back instead. */
  private async captureOrder(client: GatewayBClient, payment: PaymentRecord, orderId: string): Promise<GatewayBOrder> {
    try {
      return await client.captureOrder(orderId, this.scope.captureRequestId(payment.id, orderId));
    } catch (error) {
      if (!(error instanceof GatewayBRefusedError)) throw error;
      if (error.hasIssue('ORDER_ALREADY_CAPTURED')) return client.getOrder(orderId);
      if (error.hasIssue('ORDER_NOT_APPROVED') || error.hasIssue('PAYER_ACTION_REQUIRED')) {
        await this.refused(payment, 'capture_not_approved', 'The payer has not approved the order yet.', error.issues.map((issue) => issue.issue));
        throw new InvalidPaymentStateError('The payer has not approved this order yet; capture it after the approval.');
      }
      if (error.hasIssue('INSTRUMENT_DECLINED')) {
        await this.refused(payment, 'capture_declined', 'The funding source was declined; the payer may approve the order again with another one.', ['INSTRUMENT_DECLINED']);
        throw new InvalidPaymentStateError('The payer’s funding source was declined; the payer may approve the order again with another one.');
      }
      throw error;
    }
  }

  private async settle(payment: PaymentRecord, orderId: string, order: GatewayBOrder): Promise<GatewayBCaptureResponseDto> {
    const capture = firstCapture(order);
    const differences = captureDifferences(order, capture, this.orders.expected(payment, orderId));
    if (differences.length > 0 || !capture) {
      return this.mismatch(payment, differences, { order_id: order.id, capture_id: capture?.id ?? null, capture_status: capture?.status ?? null });
    }
    if (payment.provider_capture_ref && payment.provider_capture_ref !== capture.id) {
      return this.mismatch(payment, ['capture_id'], { order_id: order.id, capture_id: capture.id });
    }
    const to = captureOutcome(capture)!;
    const patch: PaymentPatch = { providerCaptureRef: capture.id };
    if (to === 'completed') patch.amountReceived = fromGatewayBAmount(capture.amount!).minor;
    const result = await this.ledger.transition(payment.id, to, { source: SOURCE, reason: `gateway-b/order/capture: capture ${capture.status}`, patch });
    return answer(result.payment, orderId, result.payment.provider_capture_ref);
  }

  private async refused(payment: PaymentRecord, event: string, message: string, issues: string[]): Promise<void> {
    await this.ledger.log({ paymentId: payment.id, level: 'warning', event, message, context: { source: SOURCE, issues } });
  }

  private async mismatch(payment: PaymentRecord, fields: string[], context: Record<string, unknown>): Promise<never> {
    await this.ledger.log({
      paymentId: payment.id,
      level: 'error',
      event: 'contract_mismatch',
      message: `The gateway B capture disagrees with the payment: ${fields.join(', ')}; the payment is not completed.`,
      context: { source: SOURCE, fields, ...context },
    });
    throw new ContractMismatchError(`The gateway's order or capture does not match this payment (${fields.join(', ')}).`);
  }
}

function answer(payment: PaymentRecord, orderId: string, captureId: string | null): GatewayBCaptureResponseDto {
  return { payment_id: payment.id, status: payment.status, order_id: orderId, capture_id: captureId };
}
