import { Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import { ConflictError, InvalidParamsError } from '../../../common/errors/index.js';
import { MoneyFormatError } from '../../../common/money/index.js';
import type { HeldProviderPayment } from '../../gateways/index.js';
import { IdempotencyService, type IdempotentRequest } from '../../idempotency/index.js';
import { InvalidPaymentStateError, PaymentLedgerService, type PaymentRecord } from '../../payments/index.js';
import { GatewayBClientFactory } from '../client/gateway-b-client.factory.js';
import { type GatewayBClient, isGatewayBOrderId } from '../client/gateway-b-client.js';
import { GatewayBRefusedError } from '../client/gateway-b-errors.js';
import { GatewayBFailures } from '../client/gateway-b-failures.js';
import { isGatewayBCurrency, toGatewayBAmount } from '../client/gateway-b-money.js';
import { GatewayBScope } from '../client/gateway-b-scope.js';
import { approvalUrl, type GatewayBMoney, type GatewayBOrder } from '../client/gateway-b-wire.js';
import type { GatewayBOrderResponseDto } from './gateway-b-checkout.dto.js';
import { type ExpectedOrder, orderDifferences, orderUnderway, REUSABLE_ORDER_STATUSES } from './order-contract.js';

const SOURCE = 'checkout:gateway_b';

/** 409 `checkout_contract_mismatch`: the provider's order or capture disagrees with the local payment. */
export class ContractMismatchError extends ConflictError {
  constructor(message: string) {
    super('checkout_contract_mismatch', message);
  }
}

/**
 * POST /gateway-b/order (docs/decisions.md §9): one standard one-time PayPal order per payment record,
 * intent CAPTURE, amount and currency from the record, `custom_id` = payment id, this
 * installation's `invoice_id`. Everything that can be refused is refused before PayPal is called.
 * An order the record holds that the payer can still approve (or approved) and that still matches
 * the record is answered again; otherwise a new one is created (`PayPal-Request-Id` from the
 * installation, payment, amount and currency, and the order it replaces) and stored, but only
 * while the record is still pending, asks for the same amount and holds the order it replaces.
 */
@Injectable()
export class GatewayBOrdersService {
  constructor(
    private readonly clients: GatewayBClientFactory,
    private readonly ledger: PaymentLedgerService,
    private readonly failures: GatewayBFailures,
    private readonly scope: GatewayBScope,
    private readonly idempotency: IdempotencyService,
  ) {}

  expected(payment: Pick<PaymentRecord, 'id' | 'amount' | 'currency'>, orderId?: string): ExpectedOrder {
    return { paymentId: payment.id, amount: payment.amount, currency: payment.currency, invoiceId: this.scope.invoiceId(payment.id), ...(orderId ? { orderId } : {}) };
  }

  /**
   * With an `Idempotency-Key`, a repeat of a request that succeeded answers the order it created,
   * read back from PayPal (a read, never a second create).
   */
  async createOrder(payment: PaymentRecord, idempotent: IdempotentRequest | null = null): Promise<GatewayBOrderResponseDto> {
    return this.idempotency.run(idempotent, {
      execute: () => this.create(payment),
      resultIds: (answered) => ({ payment_id: payment.id, order_id: answered.order_id }),
      replay: (stored) => this.readBack(payment, String(stored.order_id)),
    });
  }

  /** The order a repeated request created, as it is now (its status and approval link from PayPal). */
  private async readBack(payment: PaymentRecord, orderId: string): Promise<GatewayBOrderResponseDto> {
    const client = await this.clients.forMode(payment.mode);
    let order: GatewayBOrder | null;
    try {
      order = await this.readHeldOrder(client, orderId);
    } catch (error) {
      throw await this.failures.record(payment.id, error, { event: 'order_read_failed', what: 'Reading the gateway B order of a repeated request', source: SOURCE });
    }
    if (!order) throw new InvalidPaymentStateError('The order this request created is no longer known to the gateway; create a new one with a new Idempotency-Key.');
    return answer(payment, order);
  }

  private async create(payment: PaymentRecord): Promise<GatewayBOrderResponseDto> {
    const amount = this.orderableAmount(payment);
    const client = await this.clients.forMode(payment.mode);
    const previous = payment.provider_payment_ref;
    try {
      if (previous) {
        const existing = await this.readHeldOrder(client, previous);
        if (existing && orderUnderway(existing) && existing.status !== 'APPROVED') {
          throw new InvalidPaymentStateError('This payment’s order is already captured; finish it with gateway-b/order/capture.');
        }
        if (existing && REUSABLE_ORDER_STATUSES.includes(existing.status) && orderDifferences(existing, this.expected(payment, previous)).length === 0) {
          return answer(payment, existing);
        }
      }
      const order = await client.createOrder({
        amount,
        customId: String(payment.id),
        invoiceId: this.scope.invoiceId(payment.id),
        requestId: this.scope.createOrderRequestId(payment.id, payment.amount, payment.currency, previous),
      });
      const differences = orderDifferences(order, this.expected(payment));
      if (differences.length > 0 || !REUSABLE_ORDER_STATUSES.includes(order.status)) {
        await this.mismatch(payment, differences.length > 0 ? differences : ['status'], order.id);
      }
      await this.store(payment, previous, order);
      return answer(payment, order);
    } catch (error) {
      throw await this.failures.record(payment.id, error, { event: 'order_failed', what: 'Creating the gateway B order', source: SOURCE });
    }
  }

  /**
   * True while the order the record holds is approved or holds a completed or pending capture:
   * sync-details must not change the amount under it. Read from PayPal (the record learns a capture
   * only from the capture route or the webhook).
   */
  async paymentUnderway(payment: HeldProviderPayment): Promise<boolean> {
    const ref = payment.provider_payment_ref;
    if (!ref) return false;
    try {
      const client = await this.clients.forMode(payment.mode);
      const order = await this.readHeldOrder(client, ref);
      return order !== null && orderUnderway(order);
    } catch (error) {
      throw await this.failures.record(payment.id, error, { event: 'order_read_failed', what: 'Reading the gateway B order before a change of the payment', source: 'sync-details' });
    }
  }

  /** The order the record holds; null when PayPal does not know it (any more) for these credentials, or it is no order id. */
  private async readHeldOrder(client: GatewayBClient, orderId: string): Promise<GatewayBOrder | null> {
    // A reference of another gateway (the record switched gateways) is no order of this one.
    if (!isGatewayBOrderId(orderId)) return null;
    try {
      return await client.getOrder(orderId);
    } catch (error) {
      if (error instanceof GatewayBRefusedError && error.status === 404) return null;
      throw error;
    }
  }

  /** Everything refusable before a provider call: one-time price, payer email, pending, an amount PayPal takes. */
  private orderableAmount(payment: PaymentRecord): GatewayBMoney {
    if (payment.frequency !== 'one-time') {
      throw new InvalidParamsError({ payment_id: 'gateway B takes one-time payments only; this payment has a recurring price' });
    }
    if (!payment.email_address || !isEmail(payment.email_address)) {
      throw new InvalidParamsError({ email_address: 'the payment needs a valid email_address (send it with payment/sync-details) before an order is created' });
    }
    if (payment.status !== 'pending') throw new InvalidPaymentStateError(`This payment is ${payment.status}; no order can be created for it.`);
    if (!isGatewayBCurrency(payment.currency)) throw new InvalidParamsError({ currency: `gateway B does not take ${payment.currency}` });
    try {
      return toGatewayBAmount(payment.amount, payment.currency);
    } catch (error) {
      if (error instanceof MoneyFormatError) throw new InvalidParamsError({ amount: `gateway B cannot take this amount in ${payment.currency} (whole units only)` });
      throw error;
    }
  }

  /**
   * Links the new order to the record, but only if the record is still pending, still asks for the
   * amount and currency the order was made for, and still holds the order this one replaces (or
   * already this one: a concurrent double click). Otherwise the record moved on while PayPal
   * answered; the new order is left unstored, so it is never captured, and the caller gets 409.
   */
  private async store(payment: PaymentRecord, previous: string | null, order: GatewayBOrder): Promise<void> {
    const { applied, payment: current } = await this.ledger.recordProviderDetailsIf(
      payment.id,
      { providerPaymentRef: order.id, providerCaptureRef: null },
      SOURCE,
      async (_manager, latest) =>
        latest.status === 'pending' &&
        latest.amount === payment.amount &&
        latest.currency === payment.currency &&
        (latest.provider_payment_ref === previous || latest.provider_payment_ref === order.id),
    );
    if (!applied) {
      throw new InvalidPaymentStateError(`This payment changed (now ${current.status}, ${current.amount} ${current.currency}) while its order was being created; read its status before paying again.`);
    }
  }

  private async mismatch(payment: PaymentRecord, fields: string[], orderId: string): Promise<never> {
    await this.ledger.log({
      paymentId: payment.id,
      level: 'error',
      event: 'contract_mismatch',
      message: `The gateway B order disagrees with the payment: ${fields.join(', ')}.`,
      context: { source: SOURCE, fields, order_id: orderId },
    });
    throw new ContractMismatchError(`The gateway's order does not match this payment (${fields.join(', ')}).`);
  }
}

function answer(payment: PaymentRecord, order: GatewayBOrder): GatewayBOrderResponseDto {
  return { payment_id: payment.id, order_id: order.id, order_status: order.status, approve_url: order.status === 'APPROVED' ? null : (approvalUrl(order) ?? null) };
}
