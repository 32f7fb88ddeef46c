import { createCheckoutClient } from '../../../clients/typescript/index';
import { restBase } from './rest-base';

/**
 * The one client of the console: the committed generated client (openapi-fetch over the types of
 * our OpenAPI document), with the session's nonce on every request. The session cookie itself
 * is HttpOnly: the browser sends it, no script can read it. No password or token is stored in
 * the browser; the nonce lives in memory only and a reload asks the service for a fresh one.
 */
export const api = createCheckoutClient({ baseUrl: restBase() });

let currentNonce: string | null = null;

export function setNonce(nonce: string | null): void {
  currentNonce = nonce;
}

export function nonce(): string | null {
  return currentNonce;
}

api.use({
  onRequest({ request }) {
    if (currentNonce) request.headers.set('X-WP-Nonce', currentNonce);
    return request;
  },
});
