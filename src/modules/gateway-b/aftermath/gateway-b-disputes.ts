import { Injectable, Logger } from '@nestjs/common';
import { MoneyFormatError } from '../../../common/money/index.js';
import type { GatewayMode, ProviderDispute } from '../../gateways/index.js';
import type { GatewayBClient } from '../client/gateway-b-client.js';
import { fromGatewayBAmount } from '../client/gateway-b-money.js';
import type { GatewayBDispute, GatewayBMoney } from '../client/gateway-b-wire.js';

/** Pages of the dispute list read per capture (50 disputes a page): a capture with more is not a real case. */
export const GATEWAY_B_DISPUTE_PAGES = 5;

/**
 * Open statuses where the buyer or PayPal has to act; every other open status (`OPEN`,
 * `WAITING_FOR_SELLER_RESPONSE`, `OTHER`, one PayPal adds later) is the merchant's turn.
 */
const OTHERS_TURN = new Set(['WAITING_FOR_BUYER_RESPONSE', 'UNDER_REVIEW']);
/** Outcomes where the buyer got the money back from the merchant. */
const BUYER_WON = new Set(['RESOLVED_BUYER_FAVOUR', 'ACCEPTED']);
/** Outcomes where the merchant keeps the money (PayPal's payout to the buyer is PayPal's own money). */
const SELLER_KEPT = new Set(['RESOLVED_SELLER_FAVOUR', 'RESOLVED_WITH_PAYOUT', 'DENIED']);

/**
 * A gateway-B dispute's status in the card gateway's words (docs/gateway-b.md, "Disputes"):
 *
 * - open, the merchant's turn (`OPEN`, `WAITING_FOR_SELLER_RESPONSE`, and `OTHER` or a status
 *   PayPal adds later: look at PayPal's page) → `needs_response`; the buyer's or PayPal's turn
 *   (`WAITING_FOR_BUYER_RESPONSE`, `UNDER_REVIEW`) → `under_review`; at the `INQUIRY` stage (a
 *   complaint not yet a claim or a chargeback, as the card gateway's inquiries) with `warning_`;
 * - `RESOLVED`: the buyer's favour or an accepted claim → `lost`; the seller's favour, a payout
 *   PayPal made itself or a denied claim → `won`; cancelled by the buyer → `won`
 *   (`warning_closed` at the inquiry stage); no named outcome → `lost` when money went back to
 *   the buyer (`amount_refunded`), else as cancelled.
 */
export function gatewayBDisputeStatus(dispute: Pick<GatewayBDispute, 'status' | 'dispute_outcome' | 'dispute_life_cycle_stage'>): string {
  const inquiry = dispute.dispute_life_cycle_stage === 'INQUIRY';
  if (dispute.status !== 'RESOLVED') {
    const open = OTHERS_TURN.has(dispute.status) ? 'under_review' : 'needs_response';
    return inquiry ? `warning_${open}` : open;
  }
  const outcome = dispute.dispute_outcome?.outcome_code ?? 'NONE';
  if (BUYER_WON.has(outcome)) return 'lost';
  if (SELLER_KEPT.has(outcome)) return 'won';
  if (outcome !== 'CANCELED_BY_BUYER' && /[1-9]/.test(dispute.dispute_outcome?.amount_refunded?.value ?? '')) return 'lost';
  return inquiry ? 'warning_closed' : 'won';
}

/** PayPal's Resolution Center page of a dispute, for the merchant (sandbox for test mode). */
export function gatewayBDisputeUrl(mode: GatewayMode, disputeId: string): string {
  return `https://www.${mode === 'test' ? 'sandbox.' : ''}paypal.com/resolutioncenter/view/${encodeURIComponent(disputeId)}`;
}

/** The captured payment whose disputes are read. */
export interface DisputedPayment {
  id: number;
  mode: GatewayMode;
  currency: string;
  /** The capture this installation made for it: only disputes of this transaction are its disputes */
  captureId: string;
  /** What the provider's refunds of the order gave back so far (minor units): a lost dispute settled by one of them is not counted again */
  refunded: number;
  amountReceived: number;
}

/**
 * Reads gateway B's disputes of one captured payment through Customer Disputes v1 with the client
 * of the payment's mode: `GET /v1/customer/disputes?disputed_transaction_id=<capture>` (ids only,
 * every page up to GATEWAY_B_DISPUTE_PAGES) and `GET /v1/customer/disputes/{id}` for each, and
 * keeps a dispute only when its disputed transactions name the payment's capture and its amount
 * is in the payment's currency. Provider failures are thrown as the client's errors.
 */
@Injectable()
export class GatewayBDisputes {
  private readonly logger = new Logger('GatewayBDisputes');

  /** The payment's disputes as the ledger takes them, and the provider objects read. */
  async read(client: GatewayBClient, payment: DisputedPayment, now: Date): Promise<{ disputes: ProviderDispute[]; read: number }> {
    const ids: string[] = [];
    let read = 0;
    let token: string | undefined;
    for (let page = 0; page < GATEWAY_B_DISPUTE_PAGES; page++) {
      const listed = await client.listDisputes(payment.captureId, token);
      read += 1;
      for (const id of listed.disputeIds) if (!ids.includes(id)) ids.push(id);
      token = listed.nextPageToken;
      if (!token) break;
    }
    const details: GatewayBDispute[] = [];
    for (const id of ids) {
      details.push(await client.getDispute(id));
      read += 1;
    }
    // Oldest first, so that what refunds already gave back is set against the first lost dispute.
    const ours = details.filter((dispute) => this.isOf(dispute, payment)).sort((a, b) => (Date.parse(a.create_time ?? '') || 0) - (Date.parse(b.create_time ?? '') || 0));
    let leftToTake = Math.max(0, payment.amountReceived - payment.refunded);
    const disputes: ProviderDispute[] = [];
    for (const dispute of ours) {
      const reported = this.toProviderDispute(dispute, payment, now, leftToTake);
      if (!reported) continue;
      if (reported.status === 'lost') leftToTake -= reported.amount;
      disputes.push(reported);
    }
    return { disputes, read };
  }

  /** Tied to this payment: a disputed transaction is its capture. */
  private isOf(dispute: GatewayBDispute, payment: DisputedPayment): boolean {
    if (dispute.disputed_transactions.some((transaction) => transaction.seller_transaction_id === payment.captureId)) return true;
    this.logger.warn({ payment_id: payment.id, dispute_id: dispute.dispute_id }, 'a gateway B dispute listed for the capture names no capture of the payment: left out');
    return false;
  }

  /**
   * The ledger's dispute, or null when it cannot be (no amount in the payment's currency: logged).
   * A lost dispute's amount is what it took (`amount_refunded`, else the disputed amount), less
   * what the order's refunds already gave back beyond it (`leftToTake`): a dispute the merchant
   * settled by refunding in PayPal's Resolution Center shows as that refund, counted once.
   */
  private toProviderDispute(dispute: GatewayBDispute, payment: DisputedPayment, now: Date, leftToTake: number): ProviderDispute | null {
    if (!dispute.dispute_amount) {
      this.logger.warn({ payment_id: payment.id, dispute_id: dispute.dispute_id }, 'a gateway B dispute without an amount in money (an asset dispute): left out');
      return null;
    }
    const amount = this.minor(dispute.dispute_amount, payment, dispute.dispute_id);
    if (amount === null) return null;
    const status = gatewayBDisputeStatus(dispute);
    let taken = amount;
    if (status === 'lost') {
      const refunded = this.minor(dispute.dispute_outcome?.amount_refunded, payment, dispute.dispute_id);
      taken = Math.min(refunded !== null && refunded > 0 ? refunded : amount, leftToTake);
    }
    return {
      providerDisputeId: dispute.dispute_id,
      amount: Math.max(0, taken),
      currency: payment.currency,
      status,
      reason: dispute.reason ? dispute.reason.toLowerCase() : null,
      evidenceDueBy: dateOf(dispute.seller_response_due_date),
      dashboardUrl: gatewayBDisputeUrl(payment.mode, dispute.dispute_id),
      createdAt: dateOf(dispute.create_time) ?? now,
    };
  }

  /** PayPal's money as minor units of the payment's currency; null when absent, or (logged) in another currency or unreadable. */
  private minor(money: GatewayBMoney | undefined, payment: DisputedPayment, disputeId: string): number | null {
    if (!money) return null;
    try {
      const { minor, currency } = fromGatewayBAmount(money);
      if (currency === payment.currency && minor >= 0) return minor;
    } catch (error) {
      if (!(error instanceof MoneyFormatError)) throw error;
    }
    this.logger.warn({ payment_id: payment.id, dispute_id: disputeId, currency: money.currency_code }, 'a gateway B dispute amount is not an amount in the payment\'s currency: not used');
    return null;
  }
}

function dateOf(value: string | undefined): Date | null {
  const time = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(time) ? new Date(time) : null;
}
