import type { components } from '../../../../clients/typescript/index';
import { unwrap } from '../../api/api-error';
import { api } from '../../api/client';
import type { CatalogGateway, ConnectKind, FieldValues, Mode, SaveResult } from './gateway-logic';

type Schemas = components['schemas'];
type GatewayId = CatalogGateway['id'];

/**
 * The calls behind each connect kind of the catalog, through the generated client. The catalog
 * names the route of each kind and its body fields (its e2e test holds both to the OpenAPI
 * document); the console knows only the kinds, which are the interface's, not the gateways. The
 * values come from a form drawn from those fields, so they are cast to the route's body type here.
 */
export async function saveConnectKind(kind: ConnectKind['kind'], gateway: GatewayId, mode: Mode, values: FieldValues): Promise<SaveResult> {
  switch (kind) {
    case 'own_keys': {
      // The route finds the gateway that takes own keys itself: no `gateway` in its body.
      const body = { ...values, mode } as Schemas['ConnectKeysDto'];
      return { kind, answer: unwrap(await api.POST('/payment-gateway/connect-keys', { body })) };
    }
    case 'credentials': {
      // For the gateway's current mode (the kind's `takes_mode` is false).
      const body = { ...values } as Schemas['SaveSettingsDto'];
      return { kind, answer: unwrap(await api.POST('/payment-gateway/save-settings', { body })) };
    }
    case 'webhook_settings': {
      const body = { ...values, gateway, mode } as Schemas['SaveWebhookSettingsDto'];
      return { kind, answer: unwrap(await api.POST('/payment-gateway/save-webhook-settings', { body })) };
    }
    case 'oauth':
      throw new Error('The OAuth connect is a navigation, not a form');
  }
}

/**
 * Where the browser goes to connect `mode` through the gateway's own page. The connect route
 * answers a navigation with a 302; asked for JSON (through the client, with the session's nonce in
 * `X-WP-Nonce`) it answers `{ authorize_url }` instead, so the nonce never travels in an address.
 */
export async function authorizeUrl(mode: Mode): Promise<string> {
  const answer = unwrap(await api.GET('/payment-gateway/connect', { params: { query: { mode } }, headers: { Accept: 'application/json' } }));
  const url = new URL(answer.authorize_url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('The connect page is not a web address');
  return url.toString();
}

export async function setMode(gateway: GatewayId, mode: Mode) {
  return unwrap(await api.POST('/payment-gateway/set-mode', { body: { gateway, mode } }));
}

/** Disconnects the gateway in its current mode (the route takes no mode). */
export async function disconnect(gateway: GatewayId) {
  return unwrap(await api.POST('/payment-gateway/disconnect', { body: { gateway } }));
}

export async function setPaymentMethods(gateway: GatewayId, methods: Schemas['GatewayCatalogMethodDto']['id'][]) {
  return unwrap(await api.POST('/payment-gateway/set-payment-methods', { body: { gateway, methods } }));
}

export async function savePaymentMethodSettings(gateway: GatewayId, method: Schemas['SavePaymentMethodSettingsDto']['method'], settings: Schemas['DeviceWalletSettingsDto']) {
  return unwrap(await api.POST('/payment-gateway/save-payment-method-settings', { body: { gateway, method, settings } }));
}
