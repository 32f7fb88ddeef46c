/** Display names of the spec's payment-method identifiers (neutral, as the spec names gateways). */
export const PAYMENT_METHOD_LABELS: Readonly<Record<string, string>> = {
  ccard: 'Card',
  sepa: 'SEPA bank debit',
  device_wallet_1: 'Device wallet 1',
  device_wallet_2: 'Device wallet 2',
  regional_wallet_1: 'Regional wallet 1',
  regional_wallet_2: 'Regional wallet 2',
  standard_checkout: 'Wallet checkout',
};

export function methodLabel(method: string): string {
  return Object.prototype.hasOwnProperty.call(PAYMENT_METHOD_LABELS, method) ? PAYMENT_METHOD_LABELS[method] : method;
}
