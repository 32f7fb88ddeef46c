import { type AppConfig, REST_NAMESPACE } from '../../../config/index.js';
import type { GatewayMode } from '../../gateways/index.js';

/** The event contract of docs/interface.md ("Events"): exactly these 12 events reach `/webhook/gateway-a-callback/{mode}`. */
export const GATEWAY_A_WEBHOOK_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.processing',
  'payment_intent.canceled',
  'setup_intent.succeeded',
  'setup_intent.setup_failed',
  'setup_intent.canceled',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
] as const;
export type GatewayAWebhookEvent = (typeof GATEWAY_A_WEBHOOK_EVENTS)[number];

export function isContractEvent(type: string): type is GatewayAWebhookEvent {
  return (GATEWAY_A_WEBHOOK_EVENTS as readonly string[]).includes(type);
}

/** Same events, in any order, no more and no fewer. */
export function isContractEventSet(events: readonly string[]): boolean {
  const given = new Set(events);
  return given.size === GATEWAY_A_WEBHOOK_EVENTS.length && GATEWAY_A_WEBHOOK_EVENTS.every((event) => given.has(event));
}

type UrlConfig = Pick<AppConfig, 'publicBaseUrl' | 'restRoot'>;

export function namespaceUrl(config: UrlConfig, route: string): string {
  return `${config.publicBaseUrl}/${config.restRoot}/${REST_NAMESPACE}/${route}`;
}

/** Where the gateway delivers the mode's events. */
export function gatewayAWebhookUrl(config: UrlConfig, mode: GatewayMode): string {
  return namespaceUrl(config, `webhook/gateway-a-callback/${mode}`);
}

/** The OAuth return URL handed to the proxy. */
export function gatewayAConnectCallbackUrl(config: UrlConfig): string {
  return namespaceUrl(config, 'payment-gateway/connect-callback');
}

/**
 * The stored webhook state of one mode (option `gatewayAOption.webhook(mode)`); the signing
 * secret is kept apart, sealed. Release 1.5.2 stored only `management` and `endpoint_id`; the
 * other fields arrive with 1.5.3 (absent = unverified, event list of an older release).
 */
export interface GatewayAWebhookRecord {
  /** automatic: the service created the endpoint and may update its events; manual: never touched. */
  management: 'automatic' | 'manual';
  endpoint_id: string | null;
  /** The gateway account (user id) the endpoint belongs to. */
  account_id?: string | null;
  /** verified: checkout available; unverified: paused, nothing failed yet; failed: paused, see last_error. */
  status?: 'unverified' | 'verified' | 'failed';
  /** Release whose event list the endpoint carries (automatic endpoints). */
  events_version?: string | null;
  verified_at?: string | null;
  last_error?: string | null;
  updated_at?: string;
}
