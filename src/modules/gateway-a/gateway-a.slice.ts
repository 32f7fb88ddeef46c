import type { GatewaySliceDefinition } from '../gateways/index.js';

/** Gateway A as the catalog knows it: the card gateway and its payment methods (docs/interface.md). */
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
  },
};
