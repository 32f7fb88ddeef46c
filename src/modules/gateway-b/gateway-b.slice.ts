import type { GatewaySliceDefinition } from '../gateways/index.js';

/** Gateway B as the catalog knows it: the wallet gateway, with its standard checkout only. */
export const GATEWAY_B_SLICE: GatewaySliceDefinition = {
  catalog: {
    id: 'gateway_b',
    kind: 'wallet',
    methods: [{ id: 'standard_checkout', label: 'Wallet checkout' }],
  },
};
