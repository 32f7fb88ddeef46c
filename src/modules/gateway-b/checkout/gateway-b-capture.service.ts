import { Injectable } from '@nestjs/common';
import { InvalidPaymentStateError, PaymentLedgerService, type PaymentPatch, PaymentQueriesService, type PaymentRecord } from '../../payments/index.js';
import { GatewayBClientFactory } from '../client/gateway-b-client.factory.js';
import { type GatewayBClient, isGatewayBOrderId } from '../client/gateway-b-client.js';
import { GatewayBRefusedError } from '../client/gateway-b-errors.js';
import { GatewayBFailures } from '../client/gateway-b-failures.js';
import { fromGatewayBAmount } from '../client/gateway-b-money.js';
import { GatewayBScope } from '../client/gateway-b-scope.js';
import { firstCapture, type GatewayBOrder } from '../client/gateway-b-wire.js';
import type { GatewayBCaptureResponseDto } from './gateway-b-checkout.dto.js';
import { ContractMismatchError, GatewayBOrdersService } from './gateway-b-orders.service.js';
import { captureDifferences, captureOutcome, orderDifferences } from './order-contract.js';

const SOURCE = 'checkout:gateway_b';
/** Log events of captures PayPal refused; their count makes the next capture's request id. */
const CAPTURE_REFUSALS = ['capture_declined'] as const;

/** What stands between a read order and its capture. */
type Next = { settle: GatewayBOrder } | { capture: true };

/**
 * POST /gateway-b/order/capture (docs/decisions.md §9).
 *
 * Before any provider call: the record must hold an order and `order_id` must be it (409
 * `checkout_contract_mismatch`); a completed record answers its outcome again.
 *
 * Then the held order is read first. Captured already (the answer of an earlier capture was lost,
 * or a pending capture) → its capture is checked and settled, no second capture. Otherwise the
 * order must still match the record (amount, currency, `custom_id`, `invoice_id`; the record's
 * amount may have changed since the order was made) — else 409 `checkout_contract_mismatch` and
 * nothing is captured — and be APPROVED (else 409 `checkout_invalid_state`, nothing sent). Only
 * then is it captured, with a `PayPal-Request-Id` of installation, payment and order.
 *
 * The captured order must carry one capture in the record's amount and currency with
 * `custom_id` = payment id and this installation's `invoice_id`; otherwise 409
 * `checkout_contract_mismatch`, logged, and the record is not completed. The capture's status then
 * moves the record: COMPLETED → completed (amount received, capture id), PENDING → processing
 * (PayPal holds the funds; its `PAYMENT.CAPTURE.COMPLETED` completes it), DECLINED/FAILED → failed
 * (the payer may retry with a new order).
 */
@Injectable()
export class GatewayBCaptureService {
  constructor(
    private readonly clients: GatewayBClientFactory,
    private readonly orders: GatewayBOrdersService,
    private readonly ledger: PaymentLedgerService,
    private readonly queries: PaymentQueriesService,
    private readonly failures: GatewayBFailures,
    private readonly scope: GatewayBScope,
  ) {}

  async capture(payment: PaymentRecord, orderId: string): Promise<GatewayBCaptureResponseDto> {
    const held = payment.provider_payment_ref;
    // Another gateway's reference (the record switched gateways) is no order of this one.
    if (!held || !isGatewayBOrderId(held)) throw new InvalidPaymentStateError('This payment has no gateway B order yet; create one with gateway-b/order.');
    if (orderId !== held) await this.mismatch(payment, ['order_id'], { order_id: orderId });
    if (payment.status === 'completed') return answer(payment, held, payment.provider_capture_ref);
    if (payment.status === 'canceled') throw new InvalidPaymentStateError('This payment is canceled; its order cannot be captured.');

    const client = await this.clients.forMode(payment.mode);
    let order: GatewayBOrder;
    try {
      order = await client.getOrder(held);
      const next = await this.beforeCapture(payment, order);
      order = 'settle' in next ? next.settle : await this.captureOrder(client, payment, held);
    } catch (error) {
      throw await this.failures.record(payment.id, error, { event: 'capture_failed', what: 'Capturing the gateway B order', source: SOURCE, context: { order_id: held } });
    }
    return this.settle(payment, held, order);
  }

  /** Whether the read order is settled as it is (captured before) or may be captured now; refusals throw. */
  private async beforeCapture(payment: PaymentRecord, order: GatewayBOrder): Promise<Next> {
    if (order.status === 'COMPLETED') return { settle: order };
    const differences = orderDifferences(order, this.orders.expected(payment, payment.provider_payment_ref!));
    if (differences.length > 0) await this.mismatch(payment, differences, { order_id: order.id, captured: false });
    if (order.status === 'CREATED' || order.status === 'PAYER_ACTION_REQUIRED') {
      await this.refused(payment, 'capture_not_approved', 'The payer has not approved the order yet; nothing was captured.', { order_status: order.status });
      throw new InvalidPaymentStateError('The payer has not approved this order yet; capture it after the approval.');
    }
    if (order.status !== 'APPROVED') {
      await this.refused(payment, 'capture_refused', `The order is ${order.status}; nothing was captured.`, { order_status: order.status });
      throw new InvalidPaymentStateError(`This order is ${order.status.toLowerCase()} and cannot be captured; create a new one with gateway-b/order.`);
    }
    return { capture: true };
  }

  /** Captures once per payment, order and attempt; an order captured meanwhile is read back instead. */
  private async captureOrder(client: GatewayBClient, payment: PaymentRecord, orderId: string): Promise<GatewayBOrder> {
    const attempt = await this.queries.countLogEvents(payment.id, CAPTURE_REFUSALS);
    try {
      return await client.captureOrder(orderId, this.scope.captureRequestId(payment.id, orderId, attempt));
    } catch (error) {
      if (!(error instanceof GatewayBRefusedError)) throw error;
      if (error.hasIssue('ORDER_ALREADY_CAPTURED')) return client.getOrder(orderId);
      if (error.hasIssue('ORDER_NOT_APPROVED') || error.hasIssue('PAYER_ACTION_REQUIRED')) {
        await this.refused(payment, 'capture_not_approved', 'The payer has not approved the order yet.', { issues: issueCodes(error) });
        throw new InvalidPaymentStateError('The payer has not approved this order yet; capture it after the approval.');
      }
      if (error.hasIssue('INSTRUMENT_DECLINED')) {
        await this.refused(payment, 'capture_declined', 'The funding source was declined; the payer may approve the order again with another one.', { issues: issueCodes(error) });
        throw new InvalidPaymentStateError('The payer’s funding source was declined; the payer may approve the order again with another one.');
      }
      throw error;
    }
  }

  private async settle(payment: PaymentRecord, orderId: string, order: GatewayBOrder): Promise<GatewayBCaptureResponseDto> {
    const capture = firstCapture(order);
    const differences = captureDifferences(order, capture, this.orders.expected(payment, orderId));
    if (differences.length > 0 || !capture) {
      return this.mismatch(payment, differences, { order_id: order.id, captured: capture !== undefined, capture_id: capture?.id ?? null, capture_status: capture?.status ?? null });
    }
    if (payment.provider_capture_ref && payment.provider_capture_ref !== capture.id) {
      return this.mismatch(payment, ['capture_id'], { order_id: order.id, captured: true, capture_id: capture.id });
    }
    const to = captureOutcome(capture)!;
    const patch: PaymentPatch = { providerCaptureRef: capture.id };
    if (to === 'completed') patch.amountReceived = fromGatewayBAmount(capture.amount!).minor;
    // A declined or failed capture names no decline code or message in the Orders v2 reference: its status is the reason.
    if (to === 'failed') patch.failureReason = { code: capture.status, decline_code: null, message: null };
    const result = await this.ledger.transition(payment.id, to, { source: SOURCE, reason: `gateway-b/order/capture: capture ${capture.status}`, patch });
    return answer(result.payment, orderId, result.payment.provider_capture_ref);
  }

  private async refused(payment: PaymentRecord, event: string, message: string, context: Record<string, unknown>): Promise<void> {
    await this.ledger.log({ paymentId: payment.id, level: 'warning', event, message, context: { source: SOURCE, ...context } });
  }

  /** Logged at error level when money may have moved (`captured`): an administrator has to look at it. */
  private async mismatch(payment: PaymentRecord, fields: string[], context: Record<string, unknown>): Promise<never> {
    const captured = context.captured === true;
    await this.ledger.log({
      paymentId: payment.id,
      level: captured ? 'error' : 'warning',
      event: 'contract_mismatch',
      message: `The gateway B order${captured ? ' or its capture' : ''} disagrees with the payment: ${fields.join(', ')}; the payment is not completed${captured ? '' : ' and nothing was captured'}.`,
      context: { source: SOURCE, fields, ...context },
    });
    throw new ContractMismatchError(`The gateway's order${captured ? ' or capture' : ''} does not match this payment (${fields.join(', ')}).`);
  }
}

function answer(payment: PaymentRecord, orderId: string, captureId: string | null): GatewayBCaptureResponseDto {
  return { payment_id: payment.id, status: payment.status, order_id: orderId, capture_id: captureId };
}

function issueCodes(error: GatewayBRefusedError): string[] {
  return error.issues.map((issue) => issue.issue);
}
