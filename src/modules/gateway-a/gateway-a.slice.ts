import type { GatewaySliceDefinition } from '../gateways/index.js';
import { GATEWAY_A_CONNECT_COMMAND } from './connect/gateway-a-cli-connect.js';
import { GATEWAY_A_CONFIG } from './gateway-a.config.js';

/** Gateway A (Stripe) as the catalog knows it (the card gateway and its payment methods, docs/interface.md), with its own configuration and CLI connect. */
export const GATEWAY_A_SLICE: GatewaySliceDefinition = {
  catalog: {
    id: 'gateway_a',
    label: 'Stripe',
    kind: 'card',
    methods: [
      { id: 'ccard', label: 'Card' },
      { id: 'sepa', label: 'Bank debit (SEPA or ACH)' },
      // device_wallet_1/2 are Apple Pay and Google Pay (checkout/payment-method-types.ts).
      { id: 'device_wallet_1', label: 'Apple Pay', hasSettings: true },
      { id: 'device_wallet_2', label: 'Google Pay', hasSettings: true },
      // Regional wallets pay with whatever local methods the merchant enabled in Stripe's dashboard (iDEAL, Bancontact, …).
      { id: 'regional_wallet_1', label: 'Local payment methods' },
      { id: 'regional_wallet_2', label: 'More local payment methods' },
    ],
    testPayment: 'the test card 4242 4242 4242 4242, any future expiry date, any CVC',
  },
  config: GATEWAY_A_CONFIG,
  connect: GATEWAY_A_CONNECT_COMMAND,
};
