/**
 * A typed client for the Checkout API: openapi-fetch over the types openapi-typescript generated
 * from the OpenAPI document (`npm run client:generate` refreshes schema.d.ts and openapi.json).
 *
 *   const api = createCheckoutClient({ baseUrl: 'https://shop.example/wp-json/checkout/v1' });
 *   const { data, error } = await api.POST('/payment/sync-details', { body: { form_id: 1, payment_gateway: 'gateway_a', payment_method: 'ccard' } });
 *
 * `baseUrl` is the site's origin plus the document's `servers` URL (`/{REST_ROOT}/checkout/v1`).
 * Admin routes need `credentials` (a login and one of its application passwords): they are sent as
 * an HTTP Basic `Authorization` header on every request of this client; keep such a client on the
 * server or in the admin's own UI, never in a payer's page.
 *
 * The admin console (same origin as the service) signs in instead: `POST /auth/session` sets an
 * HttpOnly session cookie the browser sends by itself and answers a `nonce`; give the client
 * `nonce: () => current` and it sends it as `X-WP-Nonce` on every request. Keep the nonce in
 * memory only; after a reload `GET /auth/session` gives it back.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, JsonValue, paths } from './schema.js';
export type CheckoutClient = Client<paths>;
/** The error body of every failed request (WP_Error shape). */
export type CheckoutError = components['schemas']['WpErrorDto'];

export interface CheckoutClientOptions {
  /** Origin + REST base, e.g. `https://shop.example/wp-json/checkout/v1` */
  baseUrl: string;
  /** Login and application password, for admin routes */
  credentials?: { login: string; applicationPassword: string };
  /** The admin console session's nonce (from POST or GET /auth/session), read before each request */
  nonce?: () => string | undefined;
  /** A fetch implementation (defaults to the global one) */
  fetch?: (input: Request) => Promise<Response>;
}

export function createCheckoutClient(options: CheckoutClientOptions): CheckoutClient {
  const headers: Record<string, string> = {};
  if (options.credentials) {
    const { login, applicationPassword } = options.credentials;
    headers.Authorization = `Basic ${base64(`${login}:${applicationPassword}`)}`;
  }
  const client = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), headers, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const { nonce } = options;
  if (nonce) {
    client.use({
      onRequest({ request }) {
        const value = nonce();
        if (value) request.headers.set('X-WP-Nonce', value);
        return request;
      },
    });
  }
  return client;
}

/** UTF-8 safe base64 in browsers and Node alike. */
function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export { EMBED_SCRIPT_PATH, embedIframeSnippet, embedSnippet, type EmbedSnippetOptions } from './embed-snippet.js';
