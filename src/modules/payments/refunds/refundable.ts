import type { PaymentEntity } from '../payment.entity.js';

/** What is left to refund: received − succeeded refunds − pending refunds (never below 0). */
export function refundableAmount(payment: Pick<PaymentEntity, 'amountReceived' | 'amountRefunded' | 'refundReserved'>): number {
  return Math.max(0, (payment.amountReceived ?? 0) - payment.amountRefunded - payment.refundReserved);
}
