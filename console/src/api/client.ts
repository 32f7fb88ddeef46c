import { createCheckoutClient } from '../../../clients/typescript/index';
import { restBase } from './rest-base';

let currentNonce: string | undefined;

/**
 * The one client of the console: the committed generated client (openapi-fetch over the types of
 * our OpenAPI document), sending the session's nonce as `X-WP-Nonce` on every request. The session
 * cookie itself is HttpOnly: the browser sends it, no script reads it. No password or token is
 * stored in the browser; the nonce lives in memory only and a reload asks the service again.
 */
export const api = createCheckoutClient({ baseUrl: restBase(), nonce: () => currentNonce });

export function setNonce(nonce: string | undefined): void {
  currentNonce = nonce;
}

/** For the few GETs a frame or link must open (the live preview): the nonce goes in `_wpnonce`. */
export function nonce(): string | undefined {
  return currentNonce;
}
