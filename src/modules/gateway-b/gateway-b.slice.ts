import type { GatewaySliceDefinition } from '../gateways/index.js';
import { GATEWAY_B_CONNECT_COMMAND } from './credentials/gateway-b-cli-connect.js';
import { GATEWAY_B_CONFIG } from './gateway-b.config.js';

/** Gateway B (PayPal) as the catalog knows it (the wallet gateway, with its standard checkout only), with its own configuration and CLI connect. */
export const GATEWAY_B_SLICE: GatewaySliceDefinition = {
  catalog: {
    id: 'gateway_b',
    label: 'PayPal',
    kind: 'wallet',
    methods: [{ id: 'standard_checkout', label: 'PayPal' }],
    testPayment: 'a sandbox personal account (from your developer dashboard, under sandbox accounts), not your own login',
  },
  config: GATEWAY_B_CONFIG,
  connect: GATEWAY_B_CONNECT_COMMAND,
};
