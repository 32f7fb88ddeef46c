import type { GatewaySliceDefinition } from '../gateways/index.js';
import { GATEWAY_A_CONNECT_COMMAND } from './connect/gateway-a-cli-connect.js';
import { GATEWAY_A_CONFIG } from './gateway-a.config.js';

/** Gateway A as the catalog knows it (the card gateway and its payment methods, docs/interface.md), with its own configuration and CLI connect. */
export const GATEWAY_A_SLICE: GatewaySliceDefinition = {
  catalog: {
    id: 'gateway_a',
    kind: 'card',
    methods: [
      { id: 'ccard', label: 'Card' },
      { id: 'sepa', label: 'SEPA bank debit' },
      { id: 'device_wallet_1', label: 'Device wallet 1', hasSettings: true },
      { id: 'device_wallet_2', label: 'Device wallet 2', hasSettings: true },
      { id: 'regional_wallet_1', label: 'Regional wallet 1' },
      { id: 'regional_wallet_2', label: 'Regional wallet 2' },
    ],
    testPayment: 'the test card 4242 4242 4242 4242, any future expiry date, any CVC',
  },
  config: GATEWAY_A_CONFIG,
  connect: GATEWAY_A_CONNECT_COMMAND,
};
