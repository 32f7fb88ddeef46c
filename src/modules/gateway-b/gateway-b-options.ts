import { CHECKOUT_ALIAS } from '../../config/index.js';
import type { GatewayMode } from '../gateways/index.js';

export type GatewayBCredential = 'email' | 'client_id' | 'secret';
export const GATEWAY_B_CREDENTIALS: readonly GatewayBCredential[] = ['email', 'client_id', 'secret'];
/** The credentials every API call needs: a mode with these stored is connected. */
export const GATEWAY_B_API_CREDENTIALS: readonly GatewayBCredential[] = ['client_id', 'secret'];

/** Option names of gateway B's stored state (all prefixed with CHECKOUT_ALIAS). */
export const gatewayBOption = {
  /** Credentials of a mode: `email`, `client_id`, `secret` (secret sealed). */
  credential: (mode: GatewayMode, field: GatewayBCredential) => `${CHECKOUT_ALIAS}_gateway_b_${mode}_${field}`,
  /** The mode's Webhook ID (sealed): the provider verifies deliveries against it. */
  webhookId: (mode: GatewayMode) => `${CHECKOUT_ALIAS}_gateway_b_${mode}_webhook_id`,
};
