import { Injectable } from '@nestjs/common';
import type { ReconcileResult, Reconciler } from '../../gateways/index.js';
import { isTerminal, PaymentLedgerService, type PaymentPatch, PaymentQueriesService, type PaymentRecord } from '../../payments/index.js';
import { GatewayBOrdersService } from '../checkout/gateway-b-orders.service.js';
import { captureDifferences, captureOutcome } from '../checkout/order-contract.js';
import { GatewayBClientFactory } from '../client/gateway-b-client.factory.js';
import { isGatewayBOrderId } from '../client/gateway-b-client.js';
import { GatewayBRefusedError } from '../client/gateway-b-errors.js';
import { GatewayBFailures } from '../client/gateway-b-failures.js';
import { fromGatewayBAmount } from '../client/gateway-b-money.js';
import { firstCapture, type GatewayBOrder } from '../client/gateway-b-wire.js';

const SOURCE = 'reconcile';

/**
 * Gateway B's part of the reconciliation sweep (a `PAYMENT.CAPTURE.COMPLETED` that never arrived,
 * a capture answer the payer's browser never passed on): the order the record holds is read back
 * and, when it is captured, its capture is checked exactly as the capture route checks it and moves
 * the record the same way (COMPLETED → completed, PENDING → processing, DECLINED/FAILED → failed).
 * It never captures: an approved order waits for the payer's capture. Provider failures are thrown
 * (logged on the payment, 502/503) so the sweep backs off.
 */
@Injectable()
export class GatewayBReconciler implements Reconciler {
  constructor(
    private readonly payments: PaymentQueriesService,
    private readonly ledger: PaymentLedgerService,
    private readonly clients: GatewayBClientFactory,
    private readonly orders: GatewayBOrdersService,
    private readonly failures: GatewayBFailures,
  ) {}

  async reconcile(paymentId: number): Promise<ReconcileResult> {
    const payment = await this.payments.findById(paymentId);
    if (!payment || payment.gateway !== 'gateway_b' || isTerminal(payment.status)) {
      return { outcome: 'skipped', from: payment?.status ?? 'unknown', to: payment?.status ?? 'unknown', detail: 'not a waiting gateway B payment' };
    }
    const ref = payment.provider_payment_ref;
    if (!ref || !isGatewayBOrderId(ref)) return same(payment, 'the record holds no order');
    let order: GatewayBOrder;
    try {
      order = await (await this.clients.forMode(payment.mode)).getOrder(ref);
    } catch (error) {
      if (error instanceof GatewayBRefusedError && error.status === 404) return same(payment, 'the provider does not know the order');
      throw await this.failures.record(payment.id, error, { event: 'reconcile_failed', what: 'Reconciling the payment with gateway B', source: SOURCE });
    }
    if (order.status !== 'COMPLETED') return same(payment, `the order is ${order.status}`);
    const capture = firstCapture(order);
    const differences = captureDifferences(order, capture, this.orders.expected(payment, ref));
    if (payment.provider_capture_ref && capture && payment.provider_capture_ref !== capture.id) differences.push('capture_id');
    if (differences.length > 0 || !capture) return this.mismatch(payment, differences, order, capture?.id ?? null);
    const to = captureOutcome(capture)!;
    const patch: PaymentPatch = { providerCaptureRef: capture.id };
    if (to === 'completed') patch.amountReceived = fromGatewayBAmount(capture.amount!).minor;
    const result = await this.ledger.transition(payment.id, to, { source: SOURCE, reason: `capture ${capture.status}`, patch, tolerateRefusal: true });
    return { outcome: result.outcome === 'applied' ? 'moved' : 'unchanged', from: result.from, to: result.payment.status, detail: `capture ${capture.status}` };
  }

  private async mismatch(payment: PaymentRecord, fields: string[], order: GatewayBOrder, captureId: string | null): Promise<ReconcileResult> {
    await this.ledger.log({
      paymentId: payment.id,
      level: 'error',
      event: 'contract_mismatch',
      message: `The captured gateway B order disagrees with the payment: ${fields.join(', ')}; the payment is not completed.`,
      context: { source: SOURCE, fields, order_id: order.id, capture_id: captureId },
    });
    return { outcome: 'mismatch', from: payment.status, to: payment.status, detail: `the captured order disagrees with the payment: ${fields.join(', ')}` };
  }
}

function same(payment: PaymentRecord, detail: string): ReconcileResult {
  return { outcome: 'unchanged', from: payment.status, to: payment.status, detail };
}
