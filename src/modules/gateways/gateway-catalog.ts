/**
 * The gateways of the interface and their payment-method ids (docs/interface.md, "What the
 * service is"), and the two site modes. Data only: forms validate against it, payments and the gateway
 * routes name gateways with it; what a gateway can do lives in its adapter (payment-gateway.port.ts).
 */
export const GATEWAY_METHODS = {
  gateway_a: ['ccard', 'sepa', 'device_wallet_1', 'device_wallet_2', 'regional_wallet_1', 'regional_wallet_2'],
  gateway_b: ['standard_checkout'],
} as const;
export type CheckoutGateway = keyof typeof GATEWAY_METHODS;
export const CHECKOUT_GATEWAYS = Object.keys(GATEWAY_METHODS) as CheckoutGateway[];

export type GatewayMode = 'test' | 'live';
export const GATEWAY_MODES: readonly GatewayMode[] = ['test', 'live'];

export function isGatewayMode(value: unknown): value is GatewayMode {
  return value === 'test' || value === 'live';
}

/** Display names of the payment-method ids (neutral, as docs/interface.md names gateways). */
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

/** True when `method` is one of `gateway`'s method ids. */
export function isMethodOf(gateway: CheckoutGateway, method: string): boolean {
  return (GATEWAY_METHODS[gateway] as readonly string[]).includes(method);
}

/** The gateway a method id belongs to (method ids are unique across gateways). */
export function gatewayOfMethod(method: string): CheckoutGateway {
  const gateway = CHECKOUT_GATEWAYS.find((candidate) => isMethodOf(candidate, method));
  if (!gateway) throw new Error(`${method} is no gateway's payment method`);
  return gateway;
}

/** One entry of section B's gateway list: a gateway, or a method of one (`methodOf`) listed as a gateway. */
export type SectionBGateway =
  | { id: CheckoutGateway; kind: 'card' | 'wallet'; methodOf?: undefined }
  | { id: 'gateway_c'; kind: 'bank_debit'; methodOf: { gateway: CheckoutGateway; method: string } };

/**
 * Section B's gateway list (docs/decisions.md §10): the card and wallet gateways, and bank debit
 * (`gateway_c`), which is no gateway of its own but the card gateway's Pro-only bank-debit method
 * (docs/interface.md, "What the service is").
 */
export const SECTION_B_GATEWAYS: readonly SectionBGateway[] = [
  { id: 'gateway_a', kind: 'card' },
  { id: 'gateway_b', kind: 'wallet' },
  { id: 'gateway_c', kind: 'bank_debit', methodOf: { gateway: 'gateway_a', method: 'sepa' } },
];
export type SectionBGatewayId = SectionBGateway['id'];

/** What kind of gateway a catalog gateway is (card or wallet), as section B's list says. */
export function gatewayKind(gateway: CheckoutGateway): 'card' | 'wallet' {
  const entry = SECTION_B_GATEWAYS.find((candidate) => candidate.id === gateway && candidate.methodOf === undefined);
  if (!entry || entry.kind === 'bank_debit') throw new Error(`${gateway} is not in section B's gateway list`);
  return entry.kind;
}
export const SECTION_B_GATEWAY_IDS: readonly SectionBGatewayId[] = SECTION_B_GATEWAYS.map((entry) => entry.id);

/** Payment methods that have settings of their own (device wallets: domain verification). */
export const METHODS_WITH_SETTINGS = ['device_wallet_1', 'device_wallet_2'] as const;
export type MethodWithSettings = (typeof METHODS_WITH_SETTINGS)[number];
