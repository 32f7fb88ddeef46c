import { CHECKOUT_ALIAS } from '../../config/index.js';
import type { GatewayMode } from '../gateways/index.js';

export type GatewayACredential = 'user_id' | 'public_key' | 'secret_key';
export const GATEWAY_A_CREDENTIALS: readonly GatewayACredential[] = ['user_id', 'public_key', 'secret_key'];

/** Option names of gateway A's stored state (all prefixed with CHECKOUT_ALIAS; the interface's `gateway_a_{mode}_…`). */
export const gatewayAOption = {
  /** Connect credentials: `user_id`, `public_key`, `secret_key` (secret_key sealed). */
  credential: (mode: GatewayMode, field: GatewayACredential) => `${CHECKOUT_ALIAS}_gateway_a_${mode}_${field}`,
  /** The mode's webhook signing secret (sealed; `whsec_...`). */
  webhookSecret: (mode: GatewayMode) => `${CHECKOUT_ALIAS}_gateway_a_${mode}_webhook_secret`,
  /** The mode's webhook state (GatewayAWebhookRecord: management, endpoint, contract status). */
  webhook: (mode: GatewayMode) => `${CHECKOUT_ALIAS}_gateway_a_${mode}_webhook`,
  /** Progress of the 1.5.2 → 1.5.3 in-place webhook update (WebhookUpgradeProgress). */
  webhookUpgrade: () => `${CHECKOUT_ALIAS}_gateway_a_webhook_upgrade`,
  /** Where the mode's sweep of refund and dispute events stands (AftermathCursor). */
  aftermathCursor: (mode: GatewayMode) => `${CHECKOUT_ALIAS}_gateway_a_${mode}_aftermath_cursor`,
};
